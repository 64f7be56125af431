"""TEMPORARY stand-in (replaced by the real module)."""
from __future__ import annotations
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    white: int
    black: int | None
    white_score: float | None
    played: bool = True


def scores(games):
    out = {}
    for g in games:
        out[g.white] = out.get(g.white, 0) + g.white_score
        if g.black is not None:
            out[g.black] = out.get(g.black, 0) + 1 - g.white_score
    return out


def rank(players, games, order):
    s = scores(games)
    return sorted(((p, (s.get(p, 0.0),)) for p in players), key=lambda x: (-x[1][0], x[0]))
