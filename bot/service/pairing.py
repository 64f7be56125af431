"""TEMPORARY stand-in (replaced by the real module)."""
from __future__ import annotations
from collections.abc import Sequence
from dataclasses import dataclass


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    m = n + (n % 2)
    players = list(range(1, m + 1))
    rounds = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = players[i], players[m - 1 - i]
            if i == 0 and r % 2 == 1:
                a, b = b, a
            if a <= n and b <= n:
                pairs.append((a, b))
        rounds.append(pairs)
        players = [players[0]] + [players[-1]] + players[1:-1]
    return rounds


def double_round(rounds):
    return [[(b, a) for a, b in r] for r in rounds]


@dataclass(frozen=True)
class Entrant:
    id: int
    number: int
    score: float
    colours: tuple[str, ...]
    opponents: frozenset[int]
    had_bye: bool
    floats: tuple[str, ...] = ()


@dataclass(frozen=True)
class SwissPairing:
    pairs: list[tuple[int, int]]
    bye: int | None


def dutch_round(entrants: Sequence[Entrant], round_number: int, total_rounds: int) -> SwissPairing:
    order = sorted(entrants, key=lambda e: (-e.score, e.number))
    bye = None
    if len(order) % 2:
        for e in reversed(order):
            if not e.had_bye:
                bye = e.id
                break
        order = [e for e in order if e.id != bye]
    pairs = []
    left = list(order)
    while left:
        a = left.pop(0)
        b = next((x for x in left if x.id not in a.opponents), left[0])
        left.remove(b)
        w = sum(1 for c in a.colours if c == "W") - sum(1 for c in a.colours if c == "B")
        pairs.append((b.id, a.id) if w > 0 else (a.id, b.id))
    return SwissPairing(pairs, bye)
