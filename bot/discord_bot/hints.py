"""Near misses: text typed in a game's thread that looks like a move but is not one (the
wrong case, a point alone, a chess-style move such as ``e4`` or ``Nf3``) gets one short
hint naming the closest legal moves. What does not look like a move is conversation and
gets nothing.

Text "looks like a move" when it is ``end``, or short (at most three words) and each of its
words holds something written like a point (a letter and a number: ``e4``, ``f10``): a
whole turn of several steps is written ``Ha1-a3, Hh1-h3``, while ``what about e4?`` is
conversation."""

from __future__ import annotations

import difflib
import re

from engine import get_variant

from ..i18n import Text, _
from ..service import GameService
from ..service.model import Game

POINT = re.compile(r"[a-z]\d{1,2}")
MAX_WORDS = 3
SHOWN = 5


def points(variant_name: str, text: str) -> list[str]:
    """The points of the variant's board named in ``text``, in order."""
    nodes = get_variant(variant_name).topology.nodes
    return [p for p in POINT.findall(text.lower()) if p in nodes]


def looks_like_move(game: Game, text: str) -> bool:
    words = text.replace(",", " ").split()
    if not words or len(words) > MAX_WORDS:
        return False
    return text.strip().lower() == "end" or all(POINT.search(w.lower()) for w in words)


def closest(legal: list[str], text: str, named: list[str]) -> list[str]:
    """The legal moves closest to ``text``: those through the points it names (the last
    one as the target, chess-style, first), the most alike first."""
    def through(move: str) -> list[str]:
        return POINT.findall(move.lower())

    pool = [m for m in legal if all(p in through(m) for p in named)] if named else []
    if named and not pool:  # no move through every point: those ending on the last one
        pool = [m for m in legal if through(m) and through(m)[-1] == named[-1]]
    if named and not pool:
        pool = [m for m in legal if any(p in through(m) for p in named)]
    pool = pool or legal

    def likeness(move: str) -> float:
        return difflib.SequenceMatcher(None, text.lower(), move.lower()).ratio()

    return sorted(pool, key=lambda m: (-likeness(m), m))[:SHOWN]


async def near_miss(service: GameService, game: Game, text: str) -> Text | None:
    """The hint for ``text`` typed by the player to move, or None if it is conversation."""
    if not looks_like_move(game, text):
        return None
    legal = await service.legal_moves(game)
    if not legal:
        return None
    same = [m for m in legal if m.lower() == text.strip().lower()]
    if same:
        return _("`{text}` is not a move in game #{game}; mind the capitals: `{move}`.",
                 text=text.strip(), game=game.id, move=same[0])
    named = points(game.variant, text)
    if text.strip().lower() in named:  # a point alone: the moves from it, else to it
        point = named[0]
        moves = ([m for m in legal if POINT.findall(m.lower())[:1] == [point]]
                 or [m for m in legal if point in POINT.findall(m.lower())[1:]])
        if not moves:  # never moves that have nothing to do with it
            return _("`{text}` is a point, not a move, in game #{game}; no legal move starts or "
                     "ends there now. `/moves` shows the pieces that can move.",
                     text=text.strip(), game=game.id)
        shown = ", ".join(f"`{m}`" for m in moves[:SHOWN])
        return _("`{text}` is a point, not a move, in game #{game}. Moves with it: {moves}.",
                 text=text.strip(), game=game.id, moves=shown)
    shown = ", ".join(f"`{m}`" for m in closest(legal, text.strip(), named))
    return _("`{text}` is not a move in game #{game}. Closest legal moves: {moves}.",
             text=text.strip(), game=game.id, moves=shown)
