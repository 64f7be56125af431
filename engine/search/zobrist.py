"""Zobrist keys: a fixed random 64-bit number per (node, cell value), XORed together.

The numbers come from a hash of the node and the value, not from a generator, so every
process (the bot runs searches in a pool) computes the same key for the same board.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

_NUMBERS: dict[tuple[int, object], int] = {}
SIDE = int.from_bytes(hashlib.blake2b(b"side to move", digest_size=8).digest(), "big")


def number(node: int, value: object) -> int:
    """The random number of ``value`` standing on ``node``."""
    found = _NUMBERS.get((node, value))
    if found is None:
        digest = hashlib.blake2b(f"{node}:{value!r}".encode(), digest_size=8).digest()
        found = _NUMBERS[(node, value)] = int.from_bytes(digest, "big")
    return found


def board_key(cells: Sequence[object], side: int) -> int:
    """The key of a board and the side to move."""
    key = SIDE if side else 0
    numbers = _NUMBERS
    for i, c in enumerate(cells):
        if c is not None:
            n = numbers.get((i, c))
            key ^= n if n is not None else number(i, c)
    return key


def moved_key(key: int, cells: Sequence[object], after: Sequence[object],
              nodes: Sequence[int]) -> int:
    """The key after a move that changed at most ``nodes`` (incremental update); the side
    bit is flipped by the caller. A node named twice (a capture on the target) counts once."""
    for i in set(nodes):
        a, b = cells[i], after[i]
        if a is not b and a != b:
            if a is not None:
                key ^= number(i, a)
            if b is not None:
                key ^= number(i, b)
    return key
