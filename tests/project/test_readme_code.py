"""Every line of the code blocks of the README and the guides (docs/*.md) pastes as it is:
no `# comment` after a command (zsh without interactive comments takes it as words; the
console is no shell at all), and the blocks of console commands (```commandpost) hold
commands alone: no comment, no prompt before them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(\S*)\s*$")
# a shell word that starts with "#" is a comment; quoted text is not looked at
SHELL_COMMENT = re.compile(r"(?:^|\s)#")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
# after a command, a "#" standing alone starts a comment (`board #3` names a game)
TRAILING_COMMENT = re.compile(r"\S\s+#(?:\s|$)")
CONSOLE_COMMENT = re.compile(r"^\s*#(?:\s|$)")
PROMPT = re.compile(r"^[\w.-]{0,40}> ")


def code_blocks(text: str) -> list[tuple[str, list[tuple[int, str]]]]:
    """The fenced code blocks of a Markdown text: each one's info word and numbered lines."""
    blocks: list[tuple[str, list[tuple[int, str]]]] = []
    inside: tuple[str, list[tuple[int, str]]] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = FENCE.match(line)
        if fence and inside is None:
            inside = (fence.group(1), [])
        elif fence:
            blocks.append(inside)  # type: ignore[arg-type]
            inside = None
        elif inside is not None:
            inside[1].append((number, line))
    assert inside is None, "a code block is not closed"
    return blocks


def unpasteable(text: str) -> list[str]:
    """The lines of ``text``'s code blocks that would not paste as they are."""
    found = []
    for info, lines in code_blocks(text):
        for number, line in lines:
            if info == "sh" and SHELL_COMMENT.search(QUOTED.sub("''", line)):
                found.append(f"{number}: a shell comment: {line.strip()}")
            elif TRAILING_COMMENT.search(line):
                found.append(f"{number}: a comment after the command: {line.strip()}")
            elif info == "commandpost" and CONSOLE_COMMENT.match(line):
                found.append(f"{number}: a comment among console commands: {line.strip()}")
            elif info == "commandpost" and PROMPT.match(line):
                found.append(f"{number}: a prompt before the command: {line.strip()}")
    return found


def test_every_line_of_the_readmes_code_blocks_pastes_as_it_is() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = code_blocks(text)
    assert [info for info, _ in blocks].count("commandpost") >= 1  # the first game
    assert [info for info, _ in blocks].count("sh") >= 2  # the two set-up commands
    assert unpasteable(text) == []


@pytest.mark.parametrize("guide", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_every_line_of_a_guides_code_blocks_pastes_as_it_is(guide: str) -> None:
    text = (ROOT / "docs" / guide).read_text(encoding="utf-8")
    assert unpasteable(text) == [], f"docs/{guide}"


def test_the_guides_show_the_consoles_commands_and_the_hosts_shell() -> None:
    infos = [info for path in sorted((ROOT / "docs").glob("*.md"))
             for info, _ in code_blocks(path.read_text(encoding="utf-8"))]
    assert infos.count("commandpost") >= 4  # the players' guide: a game and its tools
    assert infos.count("sh") >= 6  # the hosting guide: mail, Docker, backups and restores


def test_the_check_catches_what_it_is_for() -> None:
    text = "\n".join([
        "```sh",
        ".venv/bin/commandpost web --port 8080   # or on its own",
        "#!/bin/sh",
        "echo '# not a comment' \"# nor this\"",
        "```",
        "```commandpost",
        "challenge bob 3d white        # 1d 2d 3d",
        "# as bob",
        "alice> moves b2",
        "board #3",
        "export #3 game.txt",
        "```",
        "```",
        "engine/           pure rules library  # layout",
        "```",
    ])
    assert unpasteable(text) == [
        "2: a shell comment: .venv/bin/commandpost web --port 8080   # or on its own",
        "3: a shell comment: #!/bin/sh",
        "7: a comment after the command: challenge bob 3d white        # 1d 2d 3d",
        "8: a comment among console commands: # as bob",
        "9: a prompt before the command: alice> moves b2",
        "14: a comment after the command: engine/           pure rules library  # layout"]
