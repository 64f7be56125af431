"""Small helpers that put things into words for players."""

from __future__ import annotations

from collections.abc import Sequence


def or_list(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def plural(count: int, word: str) -> str:
    """``1 step``, ``3 steps``."""
    return f"{count} {word}{'' if count == 1 else 's'}"
