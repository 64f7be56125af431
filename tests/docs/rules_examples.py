"""The notation examples of the rules documents, read from their ``example`` blocks.

A block is a fenced code block whose info string is ``example``::

    position: start                      (or a position string)
    variant: micro-chieftain             (only where a document covers two variants)
    legal: c3-d4 => <position after>     (accepted; the position after it, if given)
    legal: a5xa3-a1 means a5-a1xa3       (accepted, and written so by the engine)
    illegal: c3-c5                       (refused)
    moves a5: a5-b4, a5-b4xc3            (exactly these moves start on a5)

Lines are checked in order against the block's position; a ``legal`` line does not
change it (each line is one example). A translated document (``vi/commander.md``) holds
the same blocks, word for word: notation is never translated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
BLOCK = re.compile(r"^ *```example\n(.*?)^ *```", re.S | re.M)
DEFAULT_VARIANT = {"clash.md": "clash", "commander.md": "commander",
                   "combined-arms.md": "combined-arms", "chieftain.md": "mini-chieftain"}


@dataclass(frozen=True)
class Example:
    document: str
    line: int  # in the document, for the failure message
    variant: str
    position: str
    kind: str  # legal | illegal | moves
    text: str
    expect: str = ""  # the position after (legal), the canonical text, or the move list
    expect_kind: str = ""  # "=>" (position) or "means" (canonical text) for legal

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}:{self.kind}:{self.text}"


def documents() -> list[Path]:
    """The documents: the English ones, then their translations (``vi/commander.md``)."""
    return [*sorted(RULES.glob("*.md")), *sorted(RULES.glob("*/*.md"))]


def examples(paths: list[Path] | None = None) -> list[Example]:
    """The examples of ``paths`` (by default of every document, translations too)."""
    out: list[Example] = []
    for path in documents() if paths is None else paths:
        source = path.read_text(encoding="utf-8")
        for block in BLOCK.finditer(source):
            first = source.count("\n", 0, block.start(1)) + 1
            out += _block(path.relative_to(RULES).as_posix(), first, block.group(1))
    return out


def _block(document: str, first: int, body: str) -> list[Example]:
    variant, position, out = DEFAULT_VARIANT[Path(document).name], "", []
    for k, raw in enumerate(body.splitlines()):
        line = raw.strip()
        if not line:
            continue
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "position":
            position = value
        elif key == "variant":
            variant = value
        elif key == "legal":
            for sign in (" => ", " means "):
                if sign in value:
                    text, expect = value.split(sign, 1)
                    out.append(Example(document, first + k, variant, position, "legal",
                                       text.strip(), expect.strip(), sign.strip()))
                    break
            else:
                out.append(Example(document, first + k, variant, position, "legal", value))
        elif key == "illegal":
            out.append(Example(document, first + k, variant, position, "illegal", value))
        elif key.startswith("moves "):
            out.append(Example(document, first + k, variant, position, "moves",
                               key.split()[1], value))
        else:
            raise ValueError(f"{document}:{first + k}: unknown example line {line!r}")
    return out
