"""The guides (README.md and docs/*.md) tell of everything the code knows: every command
word of the console and of mail, every Discord application command with its options, every
`commandpost` sub-command and action, and every setting's environment variable, each taken
from the code itself. And every relative link in README.md and docs/**/*.md leads to a file
that exists, and, into a Markdown file, to a heading of it (GitHub's anchors); links to
http(s) addresses are not fetched."""

from __future__ import annotations

import argparse
import importlib
import re
from collections.abc import Iterator
from dataclasses import fields
from functools import cache
from pathlib import Path

import discord
from discord import app_commands

from bot.__main__ import COMMANDS
from bot.config import Settings
from bot.console.console import CONSOLE_HELP
from bot.discord_bot import CommandPost, permissions
from bot.email_gateway.mailcommands import MailCommands
from bot.service import GameService
from bot.tournament_commands import TournamentCommands

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`\n]*`")
# [text](target) and ![alt](target); the text holds no brackets, the target no spaces
LINK = re.compile(r"!?\[([^\[\]\n]*)\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"\n]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
EXTERNAL = ("http://", "https://", "mailto:")
GUIDES = "README.md or docs/*.md"


def guides() -> list[Path]:
    """The guides: the README and the Markdown files right under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def markdown_files() -> list[Path]:
    """Every Markdown file whose links are checked: the README and all of docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@cache
def guides_text() -> str:
    """The guides' text, every run of white space one space (a code span may wrap)."""
    return " ".join(" ".join(p.read_text(encoding="utf-8") for p in guides()).split())


def missing_spans(starts: dict[str, str]) -> list[str]:
    """Each ``what`` of ``starts`` (what -> the text a code span must begin with) that no
    code span of the guides begins with."""
    text = guides_text()
    return [what for what, start in starts.items()
            if not re.search("`" + re.escape(start) + "[ `]", text)]


# --- what the code knows ------------------------------------------------------------------
def console_words() -> list[str]:
    """The console's command words: the shared text commands (the tournaments' too) and its
    own."""
    return sorted({*TournamentCommands.__new__(TournamentCommands).words(), *CONSOLE_HELP})


def mail_words() -> list[str]:
    """The command words of mail: the shared text commands and those of mail."""
    return MailCommands.__new__(MailCommands).words()


async def discord_commands(tmp_path: Path) -> dict[str, list[str]]:
    """Each application command of the Discord bot (``server settings`` for a group's
    command) -> its options' names, from the command tree the bot builds at start-up
    (nothing is uploaded: the upload is replaced by nothing)."""
    settings = Settings(db_path=tmp_path / "tree.db", db_sync="normal")
    service = await GameService.open(settings)
    try:
        bot = CommandPost(service, settings, sync_only=True)

        async def no_upload(force: bool = False) -> bool:
            return False

        bot.sync_tree = no_upload  # type: ignore[method-assign]
        await bot.setup_hook()
        found = {}
        for item in bot.tree.get_commands():
            group = isinstance(item, app_commands.Group)
            for command in item.walk_commands() if group else [item]:
                found[command.qualified_name] = [p.name for p in command.parameters]
        return found
    finally:
        await service.close()


def sub_commands() -> list[str]:
    """Each `commandpost` sub-command, and each action of those whose parser has actions
    (``db check``, ``outbox retry``)."""
    found = []
    for name, command in COMMANDS.items():
        found.append(name)
        module = importlib.import_module(command.entry.partition(":")[0])
        make_parser = getattr(module, "parser", None)
        if make_parser is None:
            continue
        for action in make_parser()._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += [f"{name} {choice}" for choice in action.choices]
    return found


def setting_variables() -> list[str]:
    """Every environment variable the settings read, old names too."""
    found = []
    for f in fields(Settings):
        found.append(f.metadata["env"])
        if "deprecated" in f.metadata:
            found.append(f.metadata["deprecated"])
    return found


# --- the guides tell of it ----------------------------------------------------------------
def test_every_console_command_word_is_in_the_guides() -> None:
    words = console_words()
    assert {"move", "challenge", "as", "quit"} <= set(words)
    missing = missing_spans({w: w for w in words})
    assert missing == [], (f"console command words (bot/commands.py, bot/console) not in "
                           f"a code span of {GUIDES}: {missing}")


def test_every_mail_command_word_is_in_the_guides() -> None:
    words = mail_words()
    assert {"move", "stop", "link", "watch"} <= set(words)
    missing = missing_spans({w: w for w in words})
    assert missing == [], (f"mail command words (bot/commands.py, "
                           f"bot/email_gateway/mailcommands.py) not in a code span of "
                           f"{GUIDES}: {missing}")


async def test_every_discord_command_and_option_is_in_the_guides(tmp_path: Path) -> None:
    commands = await discord_commands(tmp_path)
    assert {"challenge", "move", "server check"} <= set(commands)
    assert "opponent" in commands["challenge"]
    missing = missing_spans({f"/{name}": f"/{name}" for name in commands})
    assert missing == [], (f"Discord commands (bot/discord_bot) not in a code span of "
                           f"{GUIDES}: {missing}")
    text = guides_text()
    unnamed = []
    for name, options in commands.items():
        # the code spans that begin with the command, each one's words
        spans = re.findall("`/" + re.escape(name) + "( [^`]*)?`", text)
        said = {w.strip("[]").partition(":")[0] for span in spans for w in span.split()}
        unnamed += [f"/{name} {option}" for option in options if option not in said]
    assert unnamed == [], (f"options of Discord commands (bot/discord_bot) named in no code "
                           f"span of their command in {GUIDES}: {unnamed}")


def test_every_sub_command_of_commandpost_is_in_the_guides() -> None:
    commands = sub_commands()
    assert {"console", "db check", "db copy", "outbox retry"} <= set(commands)
    missing = missing_spans({c: f"commandpost {c}" for c in commands})
    assert missing == [], (f"`commandpost` sub-commands (bot/__main__.py, bot/cli) not in a "
                           f"code span of {GUIDES}: {missing}")


def test_every_setting_is_in_the_guides() -> None:
    variables = setting_variables()
    assert {"COMMANDPOST_DB", "COMMANDPOST_EMAIL_TRUSTED_AUTHSERV"} <= set(variables)
    text = guides_text()
    missing = [v for v in variables if f"`{v}`" not in text]
    assert missing == [], (f"environment variables the settings read (bot/config.py) not "
                           f"in a code span of {GUIDES}: {missing}")


def test_the_invite_url_asks_for_every_permission_a_game_needs() -> None:
    needed = discord.Permissions(**{flag: True for flag, _ in permissions.NEEDED})
    url = discord.utils.oauth_url("APPLICATION_ID", permissions=needed,
                                  scopes=("bot", "applications.commands"))
    hosting = " ".join((ROOT / "docs" / "hosting.md").read_text(encoding="utf-8").split())
    assert url in hosting, f"docs/hosting.md does not give the invite URL {url}"
    assert f"`{needed.value}`" in hosting
    missing = [name for _, name in permissions.NEEDED if name not in hosting]
    assert missing == [], (f"permissions (bot/discord_bot/permissions.py) not in "
                           f"docs/hosting.md: {missing}")


# --- links --------------------------------------------------------------------------------
def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of a Markdown text outside fenced code blocks."""
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            yield number, line


def anchor_of(heading: str) -> str:
    """GitHub's anchor of a heading's text: its markup dropped (a link or an image is its
    text), lower case, every character but letters, digits, ``_``, ``-`` and spaces left
    out, each space a ``-``."""
    text = LINK.sub(lambda m: m.group(1), heading)
    text = re.sub(r"<[^<>\n]*>", "", text).lower()
    text = "".join(c for c in text if c.isalnum() or c in "_- ")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings; a repeated one gets -1, -2, ..."""
    found: set[str] = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        heading = HEADING.match(line)
        if heading is None:
            continue
        anchor = base = anchor_of(heading.group(2))
        k = 0
        while anchor in found:
            k += 1
            anchor = f"{base}-{k}"
        found.add(anchor)
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of ``path`` that leads nowhere, as ``file:line: why``."""
    broken = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        for found in LINK.finditer(CODE_SPAN.sub("", line)):
            target = found.group(2)
            if target.startswith(EXTERNAL):
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            here = f"{path.relative_to(root)}:{number}: link to {target!r}"
            if not linked.exists():
                broken.append(f"{here}: no file {file_part!r} beside it")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{here}: no heading with the anchor #{anchor} in "
                              f"{linked.relative_to(root)}")
    return broken


def test_every_relative_link_of_the_readme_and_docs_leads_somewhere() -> None:
    files = markdown_files()
    assert len(files) >= 9  # the README, four guides, four rules documents
    broken = [b for path in files for b in broken_links(path)]
    assert broken == [], "links that lead nowhere:\n" + "\n".join(broken)


def test_the_guides_link_to_one_another() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for guide in ("playing", "hosting", "figures", "architecture"):
        assert f"(docs/{guide}.md)" in readme, f"README.md does not link to docs/{guide}.md"


def test_anchors_follow_githubs_rules() -> None:
    assert anchor_of("The computer's search") == "the-computers-search"
    assert anchor_of("PostgreSQL and several processes") == "postgresql-and-several-processes"
    assert anchor_of("Set-up on a fresh machine") == "set-up-on-a-fresh-machine"
    assert anchor_of("`commandpost db` and [the outbox](hosting.md)") == \
        "commandpost-db-and-the-outbox"
    assert anchor_of("Cờ Tư Lệnh: the rules") == "cờ-tư-lệnh-the-rules"


def test_the_link_check_catches_what_it_is_for(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## A part\n\n## A part\n",
                                                encoding="utf-8")
    page = tmp_path / "README.md"
    page.write_text("\n".join([
        "# Page",
        "[fine](docs/other.md) [fine](docs/other.md#a-part) [fine](docs/other.md#a-part-1)",
        "[fine](#page) [fine](https://example.org/nowhere) ![fine](docs/)",
        "[no file](docs/none.md) [no heading](docs/other.md#a-whole)",
        "[no anchor here](#none) `[in code](docs/none.md)`",
        "```",
        "[in a block](docs/none.md)",
        "```",
    ]), encoding="utf-8")
    assert broken_links(page, tmp_path) == [
        "README.md:4: link to 'docs/none.md': no file 'docs/none.md' beside it",
        "README.md:4: link to 'docs/other.md#a-whole': no heading with the anchor #a-whole "
        "in docs/other.md",
        "README.md:5: link to '#none': no heading with the anchor #none in README.md"]
