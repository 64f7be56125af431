"""Every line of the README's code blocks pastes as it is: no `# comment` after a command
(zsh without interactive comments takes it as words; the console is no shell at all), and
the blocks of console commands (```commandpost) hold commands alone: no comment, no
prompt before them."""

from __future__ import annotations

import re
from pathlib import Path

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
    assert [info for info, _ in blocks].count("commandpost") >= 2  # the console's examples
    assert unpasteable(text) == []


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
