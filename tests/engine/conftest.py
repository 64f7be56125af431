"""Shared fixtures for the engine tests: the Clash variant and hand-made positions.

Hand-made Clash positions are written as a mapping of node to piece letter and turned into
a position string by `clash_position_string`, which follows the rules' own description of
the format (§7) independently of the engine, then read by the engine.

tests/ is not a package, so this folder is put on ``sys.path`` once here: the test modules
import the helpers beside them by name (``import simple_clash``, ``import perft_data``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from engine import Move, Position, Variant, get_variant

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

# rules §1: ranks 1, 3, 5, 7, 9 hold files a c e g i; ranks 2, 4, 6, 8 hold b d f h
CLASH_RANK_FILES = {rank: "acegi" if rank % 2 else "bdfh" for rank in range(1, 10)}


def clash_position_string(pieces: Mapping[str, str], side: str = "w", number: int = 1) -> str:
    """The position string (rules §7) of ``pieces`` ({"a5": "h", ...}), ``side`` to move."""
    unknown = set(pieces) - {f"{f}{r}" for r, files in CLASH_RANK_FILES.items() for f in files}
    assert not unknown, f"not points of the board: {sorted(unknown)}"
    rows = []
    for rank in range(9, 0, -1):
        row, empty = "", 0
        for file in CLASH_RANK_FILES[rank]:
            piece = pieces.get(f"{file}{rank}")
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {number}"


@pytest.fixture(scope="session")
def clash() -> Variant:
    return get_variant("clash")


@pytest.fixture
def board(clash: Variant) -> Callable[..., Position]:
    """Make a position from {node: letter}; upper case White, lower case Black."""

    def make(pieces: Mapping[str, str], side: str = "w", number: int = 1) -> Position:
        return clash.parse_position(clash_position_string(pieces, side, number))

    return make


@pytest.fixture
def texts(clash: Variant) -> Callable[..., set[str]]:
    """The canonical texts of the legal moves, optionally only those starting on ``node``."""

    def legal(position: Position, node: str | None = None) -> set[str]:
        return {clash.format_move(position, m) for m in clash.legal_moves(position)
                if node is None or m.origin == node}

    return legal


@pytest.fixture
def play(clash: Variant) -> Callable[[Position, str], Position]:
    """Parse ``text`` as a move in ``position`` and make it."""

    def make(position: Position, text: str) -> Position:
        return clash.apply(position, clash.parse_move(position, text))

    return make


@pytest.fixture
def move(clash: Variant) -> Callable[[Position, str], Move]:
    """The legal move whose canonical text is ``text`` (fails the test if there is none)."""

    def find(position: Position, text: str) -> Move:
        found = [m for m in clash.legal_moves(position) if clash.format_move(position, m) == text]
        assert len(found) == 1, f"{text} is not exactly one legal move"
        return found[0]

    return find
