"""The computer player: one search core (``core.py``) and one game per variant.

Pure like the rest of the engine: no I/O, no threads or processes, and no clock of its own
— the caller passes ``clock`` (seconds from any origin, e.g. ``time.monotonic``), so a test
can drive time by hand and a search is reproducible for a given seed.

Each variant's module here (``clash.py``, ``commander.py``, ``combined_arms.py``,
``chieftain.py``) turns the engine's own raw move generator into a `core.Game` and holds
the evaluation written from that variant's rules. The move the computer plays is always
turned back into the engine's `Move` value and is one of `Variant.legal_moves` (tests
assert it over thousands of random positions).

Levels
======
Each level is a time per move and a maximum depth (plies; in mini-/micro-Chieftain,
whose turn is up to two moves, depth d searches 2d - 1 moves: one ply is the turn's first
move, two plies the whole turn and the opponent's first move, quiescence answering the
rest), how far the horizon resolves captures (quiescence: none, or every exchange), random
noise on the root moves' scores that makes the weak levels uneven (level 1 may prefer a
move up to six Men worse, level 2 one, level 3 over half a Man), and for the beginner a
share of moves played without looking (any move that does not lose at once). Each level
must win clearly against the one below, as a stronger player does, so each adds a whole
skill rather than a little time: iterative deepening gains well under a ply for each
doubling of time, so levels that differed in time alone (as they first did) played almost
alike; and in 40-game matches a level 2 that saw the reply's captures (one ply of
quiescence) scored about 60% against level 3 in Combined Arms, whose quiescence is short,
so level 2 sees none.

====== ========= ======= ============ ======= ==============================================
level  time (s)  depth   quiescence   noise   plays like
====== ========= ======= ============ ======= ==============================================
1      0.5       1       none         300     a beginner: two moves in five without
                                                looking, misjudges the rest
2      1         1       none         50      a casual player: takes what it sees, misses
                                                the reply
3      2         1       all          30      a club player: counts out the exchanges its
                                                move starts
4      4         2       all          0       a strong player: sees the reply to its move
5      8         64      all          0       the strongest the time allows (iterative
                                                deepening; 3 to 5 plies in 1 s)
====== ========= ======= ============ ======= ==============================================

At every level a repetition of the game's earlier position scores `CONTEMPT` below a draw
for the computer: it plays on rather than repeat a position it judges about even.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..move import Move
from ..position import Position
from .chieftain import ChieftainGame
from .clash import ClashGame
from .combined_arms import CombinedArmsGame
from .commander import CommanderGame
from .core import WIN, Result, Search

__all__ = ["CONTEMPT", "LEVELS", "Level", "Thought", "Thinker", "game_for", "WIN"]


@dataclass(frozen=True)
class Level:
    """A strength of the computer: time per move (seconds), depth (plies), root noise, the
    plies of captures its horizon searches (None: all the game's), and the share of moves
    it plays without looking."""

    number: int
    seconds: float
    depth: int
    noise: int
    description: str
    quiescence: int | None = None
    careless: float = 0.0


LEVELS: dict[int, Level] = {
    1: Level(1, 0.5, 1, 300, "a beginner: often moves without looking, misjudges the rest",
             quiescence=0, careless=0.4),
    2: Level(2, 1.0, 1, 50, "a casual player: takes what it sees, misses the reply",
             quiescence=0),
    3: Level(3, 2.0, 1, 30, "a club player: counts out the exchanges its move starts"),
    4: Level(4, 4.0, 2, 0, "a strong player: sees the reply to its move"),
    5: Level(5, 8.0, 64, 0, "the strongest the time allows"),
}

_GAMES: dict[str, Any] = {
    "clash": ClashGame(),
    "commander": CommanderGame(),
    "combined-arms": CombinedArmsGame(),
    "mini-chieftain": ChieftainGame(),
    "micro-chieftain": ChieftainGame(),
}

#: Centipawns below a draw that a repetition scores for the computer (`core.Search.run`).
CONTEMPT = 25

#: Share of the time left that a step of a multi-step turn may use when another may follow
#: (the last step uses all of it).
STEP_SHARE = 0.55


def game_for(variant: str) -> Any:
    """The search's `core.Game` for a variant id."""
    return _GAMES[variant]


@dataclass
class Thought:
    """The move the computer plays and what it thought of it."""

    move: Move
    score: int  # centipawns from the mover's side; near ±WIN a forced result
    depth: int
    nodes: int
    seconds: float


class Thinker:
    """The computer for one variant: keeps its transposition table between moves."""

    def __init__(self, variant: str, clock: Callable[[], float], seed: int = 0) -> None:
        self.variant = variant
        self.game = game_for(variant)
        self.clock = clock
        self.search = Search(self.game, clock, seed)

    def think(self, position: Position, level: Level | int, seconds: float | None = None,
              depth: int | None = None, history: Sequence[Position] = ()) -> Thought:
        """The computer's move in ``position`` (which must have a legal move). ``seconds``
        and ``depth`` override the level's own; ``history``, the game's earlier positions,
        lets the search see repetitions (each scores as a draw)."""
        # the search makes millions of small tuples and no reference cycles: the cyclic
        # garbage collector's passes over a large table would only add pauses to the move
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._think(position, level, seconds, depth, history)
        finally:
            if collecting:
                gc.enable()

    def _think(self, position: Position, level: Level | int, seconds: float | None,
               depth: int | None, history: Sequence[Position]) -> Thought:
        lv = LEVELS[level] if isinstance(level, int) else level
        budget = lv.seconds if seconds is None else seconds
        # a level's depth counts plies; a game whose turns have several steps says how many
        # steps of its search make that many plies (``level_depth``)
        level_depth = getattr(self.game, "level_depth", None)
        max_depth = depth if depth is not None else \
            level_depth(lv.depth) if level_depth else lv.depth
        start = self.clock()
        game = self.game
        self.search.seen = frozenset(game.key(game.root(p)) for p in history
                                     if not p.in_progress)
        state = game.root(position)
        side = game.side(state)
        # a turn of several steps (a Chieftain turn, a deploy) is searched step by step,
        # each step that may be followed by another with a share of the time left, the
        # last with all of it
        codes: list = []
        nodes = 0
        first: Result | None = None
        while True:
            left = budget * 0.95 - (self.clock() - start)
            share = left * STEP_SHARE if game.several_steps(state) else left
            r = self.search.run(state, max_depth, max(share, 0.0), lv.noise, lv.quiescence,
                                CONTEMPT)
            nodes += r.nodes
            first = first or r
            move = r.move
            if lv.careless and self.search.rng.random() < lv.careless:
                move = self._careless(state, side)
            codes.append(move)
            state = game.play(state, move)
            if game.side(state) != side or game.result(state) is not None:
                break
        first.nodes = nodes
        return self._thought(game.to_turn(position, codes), first, start)

    def _careless(self, state: Any, side: int) -> Any:
        """A move played without looking (a beginner's): any legal step that does not
        lose the game at once. The search has run all the same, so the thought's score
        stays its judgement of the position."""
        game = self.game
        safe = []
        for m in game.moves(state):
            child = game.play(state, m)
            decided = game.result(child)
            if not decided or (decided > 0) == (game.side(child) == side):
                safe.append(m)
        return self.search.rng.choice(safe or list(game.moves(state)))

    def _thought(self, move: Move, r: Result, start: float) -> Thought:
        return Thought(move, r.score, r.depth, r.nodes, self.clock() - start)
