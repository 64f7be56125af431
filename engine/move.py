"""Moves: immutable values holding everything a turn does.

A `Move` is a tuple of `Step`s plus a kind. One step is one piece (or one stack) acting:
it starts on ``origin``, ends on ``target`` (the same node when it stays, transforms or
shoots), removes the pieces on ``captures``, may leave a new piece behind (``drop``) and may
turn into a chosen piece (``becomes``). Several steps make a compound turn: a Commander
Chess deploy, castling, a Chieftain turn of several moves.

Nodes are named (``"c3"``) so that a move reads on its own and its ``repr`` reads like the
constructor call that makes it. Equality is by value: two moves with the same effect are
the same move, which is why paths that do not change the effect are not stored. Each
variant gives a move its canonical text (``format_move``) and reads it back
(``parse_move``).
"""

from __future__ import annotations

from typing import NamedTuple


class Step(NamedTuple):
    """One piece or stack acting once. ``kind`` and ``unit`` are variant-defined letters."""

    origin: str
    target: str
    captures: tuple[str, ...] = ()
    unit: str = ""
    kind: str = ""
    drop: str = ""
    becomes: str = ""


class Move(NamedTuple):
    """A whole turn: its steps in the order they are played, and the turn's kind.

    ``kind`` is ``""`` for an ordinary move, or a variant-defined word for a compound turn
    (``"deploy"``, ``"castle"``, ``"turn"``).
    """

    steps: tuple[Step, ...]
    kind: str = ""

    @classmethod
    def single(cls, origin: str, target: str, captures: tuple[str, ...] = (), unit: str = "",
               kind: str = "", drop: str = "", becomes: str = "") -> Move:
        return cls((Step(origin, target, captures, unit, kind, drop, becomes),))

    @property
    def origin(self) -> str:
        return self.steps[0].origin

    @property
    def target(self) -> str:
        return self.steps[-1].target

    @property
    def captures(self) -> tuple[str, ...]:
        """Every node where this move removes a piece, in step order."""
        if len(self.steps) == 1:
            return self.steps[0].captures
        return tuple(c for s in self.steps for c in s.captures)

    @property
    def touched(self) -> tuple[str, ...]:
        """Origins, targets and captures: what a picture marks as the last move."""
        seen: dict[str, None] = {}
        for s in self.steps:
            seen.setdefault(s.origin)
            seen.setdefault(s.target)
            for c in s.captures:
                seen.setdefault(c)
        return tuple(seen)
