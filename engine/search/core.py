"""The search core: negamax alpha-beta with iterative deepening, shared by every variant.

The core knows nothing of any variant. It talks to a `Game` (one per variant, in the
variant's own module of this package): the moves of a state, the state after a move, who
is to move, a Zobrist key, a static evaluation and which moves are captures. States and
moves are whatever the game chooses (the engine's raw tuples): the core only stores them.

* **Negamax alpha-beta** with a principal-variation window at the root.
* **Turns of several steps** (Chieftain): a step that leaves the same side to move is
  searched with the same window and no change of sign; each step costs one ply. Inside a
  turn that has started, only the `Game.step_width` best-ordered steps are searched (plus
  ending the turn, which the game lists first), so a turn of two or more steps stays
  searchable.
* **Iterative deepening** under a time limit. Time comes from an injected ``clock``
  (seconds, any origin), so the core has no I/O and tests can drive time by hand. A search
  that runs out of time in the middle of an iteration keeps the best move of the last
  complete one (or of the current one, once its first move has been searched).
* **Transposition table**: `TT_SIZE` slots indexed by the low bits of the game's Zobrist
  key, each holding the whole key, depth, score, bound and best move; a new entry replaces
  the slot's (no clearing, so no pause of the size of the table in the middle of a move).
* **Move ordering**: the table's move, then captures by the victim's value less a tenth of
  the mover's (MVV-LVA), then two killer moves per ply, then the history heuristic.
* **Futility pruning** (games with ``pruning = True``): within two plies of the horizon a
  position far above beta is cut on its static evaluation, and at the last ply one far
  below alpha searches only captures — unless the game's ``in_danger`` says the side to
  move is threatened.
* **Quiescence**: at the horizon, captures (shots included) are searched until none is
  left or `QS_DEPTH` plies (the game's ``quiescence_depth``), standing pat on the static
  evaluation. A search may cap it (``quiescence``: 0 for none, levels 1 and 2, where a
  capture into a defended square looks like a plain gain — a beginner's blunder; 1 to see
  only the opponent's immediate reply, which no level uses now). In the middle of a
  turn of several steps (games with ``turn_end``) standing pat means ending the turn
  (which costs no ply of quiescence), so the opponent's captures are searched too: a
  horizon that falls inside a turn no longer takes the position as quiet while the
  opponent waits to recapture.
* **Repetition**: a position of the game so far (`Search.seen`) reached again in the tree
  scores as a draw (the rules draw at the third time; the search does not wait for it),
  less the ``contempt`` for the searching side: it plays on rather than repeat a position
  it judges about even (two players of different strength otherwise shuffled into a draw
  by repetition in most games of micro-Chieftain).
* **Determinism**: for a given seed, depth and clock readings the same move comes out.
  The seed also draws the root noise of the weaker levels (a beginner's unevenness).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

INF = 10_000_000
WIN = 1_000_000  # score of a won game; a faster win scores higher (WIN - ply)
TT_SIZE = 1 << 17
TT_MASK = TT_SIZE - 1
QS_DEPTH = 6
DELTA = 200  # centipawns a capture's position may add beyond its material
FUTILITY = 200  # centipawns per ply of depth left that a quiet move is not expected to add
EXACT, LOWER, UPPER = 0, 1, 2


class Game(Protocol):
    """What the search core asks of a variant's game (states and moves are opaque)."""

    def moves(self, state: Any) -> Sequence[Hashable]:
        """Every legal next step (a whole turn for single-move variants)."""

    def play(self, state: Any, move: Hashable) -> Any:
        """The state after ``move`` (one of `moves`)."""

    def side(self, state: Any) -> int:
        """Who is to move: 0 or 1."""

    def key(self, state: Any) -> int:
        """The Zobrist key: equal states, equal keys."""

    def result(self, state: Any) -> int | None:
        """None while the game goes on; once it is decided (royal pieces gone), `WIN`
        for the side to move, `WIN` negated, or 0."""

    def stuck(self, state: Any) -> int:
        """The score for the side to move when it has no legal move: `WIN` negated when
        that loses (checkmate), 0 for a draw."""

    def evaluate(self, state: Any) -> int:
        """Static evaluation in centipawns, from the side to move's point of view."""

    def gain(self, state: Any, move: Hashable) -> int:
        """What ``move`` captures (0 for a quiet move), for ordering and quiescence."""

    def several_steps(self, state: Any) -> bool:
        """Whether another step of the same turn may follow the one to play in ``state``
        (that step then gets a share of the time left only; the last step gets all of it)."""

    def step_width(self, state: Any) -> int:
        """How many steps to search in this state: 0 for all of them. When the steps are
        cut to the best-ordered ones, the first move `moves` lists (ending the turn) is
        searched too."""

    # Optional: ``pruning = True`` (futility pruning, `Search._futile`) and
    # ``in_danger(state)``: whether the side to move's royal pieces are threatened.
    # Optional: ``turn_end(state)``, the step that ends a turn already begun (None at the
    # start of a turn): quiescence in the middle of a turn then stands pat by ending it.
    # Optional: ``captures(state)``, the legal moves with a positive `gain` as (gain, move)
    # pairs, for a game that can list them faster than all its moves (it may list one
    # move of several that take the same pieces with the same piece). Quiescence uses it
    # when present (`noisy_moves`); a game without it is searched the same way.


def noisy_moves(game: Game, state: Any) -> list[tuple[int, Hashable]]:
    """The moves of ``state`` that capture or promote, as (gain, move): the game's own
    ``captures`` when it has one (faster), else its moves filtered by `Game.gain`."""
    captures = getattr(game, "captures", None)
    if captures is not None:
        return captures(state)
    return [(g, m) for m in game.moves(state) if (g := game.gain(state, m)) > 0]


class OutOfTime(Exception):
    """Raised inside the search when the clock passes the deadline."""


@dataclass
class Result:
    """What a search found: the best move, its score, the depth completed, nodes and time."""

    move: Hashable | None
    score: int = 0
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    scores: dict = field(default_factory=dict)  # root move -> score at the last depth


class Search:
    """One search at a time over ``game``; the table, killers and history persist between
    calls so the steps of one turn and successive turns reuse what was learned."""

    def __init__(self, game: Game, clock: Callable[[], float], seed: int = 0) -> None:
        self.game = game
        self.clock = clock
        self.rng = random.Random(seed)
        self.table: list[tuple[int, int, int, int, Hashable | None] | None] = \
            [None] * TT_SIZE
        self.killers: dict[int, list[Hashable]] = {}
        self.history: dict[Hashable, int] = {}
        self.nodes = 0
        self.deadline = float("inf")
        #: keys of the game's earlier positions: reaching one again scores as a draw, so
        #: the side ahead avoids repeating and the side behind seeks it
        self.seen: frozenset[int] = frozenset()
        self.prune = bool(getattr(game, "pruning", False))
        self.qs_depth = getattr(game, "quiescence_depth", QS_DEPTH)
        self.turn_end = getattr(game, "turn_end", None)
        self.contempt, self.root_side = 0, 0

    # --- the public entry ---------------------------------------------------------------
    def run(self, state: Any, depth: int, seconds: float, noise: int = 0,
            quiescence: int | None = None, contempt: int = 0) -> Result:
        """Search ``state`` to ``depth`` plies or until ``seconds`` pass; ``noise`` (in
        centipawns) is added, drawn per root move from the seed, to play less well;
        ``quiescence`` caps the plies of captures searched at the horizon (0: none; None:
        the game's own limit); a repetition scores ``contempt`` less than a draw for the
        side searching."""
        start = self.clock()
        self.deadline = start + seconds
        full = getattr(self.game, "quiescence_depth", QS_DEPTH)
        self.qs_depth = full if quiescence is None else min(quiescence, full)
        self.contempt = contempt
        self.root_side = self.game.side(state)
        self.nodes = 0
        moves = list(self.game.moves(state))
        if not moves:
            return Result(None)
        offsets = {m: self.rng.randint(-noise, noise) if noise else 0 for m in moves}
        result = Result(moves[0])
        for d in range(1, depth + 1):
            try:
                move, score, scores = self._root(state, moves, d, offsets, result)
            except OutOfTime:
                break
            result = Result(move, score, d, self.nodes, self.clock() - start, scores)
            moves.sort(key=lambda m: -scores.get(m, -INF))
            if abs(score) >= WIN - 1000 or len(moves) == 1:
                break
            # the next iteration costs several times this one: do not start what cannot end
            if self.clock() - start > seconds * 0.45:
                break
        result.nodes = self.nodes
        result.seconds = self.clock() - start
        return result

    def _root(self, state: Any, moves: list, depth: int, offsets: dict,
              partial: Result) -> tuple[Hashable, int, dict]:
        game = self.game
        side = game.side(state)
        alpha, beta = -INF, INF
        best, best_move = -INF, moves[0]
        scores: dict = {}
        for m in moves:
            n = offsets[m]
            child = game.play(state, m)
            try:
                if game.side(child) == side:
                    score = self._negamax(child, depth - 1, alpha - n, beta - n, 1) + n
                else:
                    score = -self._negamax(child, depth - 1, n - beta, n - alpha, 1) + n
            except OutOfTime:
                if scores:  # the last depth's best move was searched first: keep the better
                    partial.move, partial.score = best_move, best
                raise
            scores[m] = score
            if score > best:
                best, best_move = score, m
                alpha = max(alpha, score)
        key = game.key(state)
        self.table[key & TT_MASK] = (key, depth, best, EXACT, best_move)
        return best_move, best, scores

    # --- the tree -----------------------------------------------------------------------
    def _tick(self) -> None:
        # a node costs tens of microseconds to milliseconds (a Commander Chess turn list):
        # reading the clock every 4 nodes keeps the overrun within a few milliseconds (a
        # level-1 move has 60) at a negligible cost
        self.nodes += 1
        if not self.nodes & 3 and self.clock() >= self.deadline:
            raise OutOfTime

    def _negamax(self, state: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        game = self.game
        decided = game.result(state)
        if decided is not None:
            return decided - ply if decided > 0 else decided + ply if decided < 0 else 0
        key = game.key(state)
        if key in self.seen:  # before the horizon: a one-ply search sees it too
            return -self.contempt if game.side(state) == self.root_side else self.contempt
        if depth <= 0:
            return self._quiesce(state, alpha, beta, ply, 0)
        entry = self.table[key & TT_MASK]
        hint = None
        if entry is not None and entry[0] == key:
            _key, e_depth, e_score, e_flag, hint = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_score
                if e_flag == LOWER and e_score >= beta:
                    return e_score
                if e_flag == UPPER and e_score <= alpha:
                    return e_score
        if depth <= 2 and self.prune and -WIN // 2 < alpha and beta < WIN // 2:
            cut = self._futile(state, depth, alpha, beta, ply)
            if cut is not None:
                return cut
        moves = game.moves(state)
        if not moves:
            stuck = game.stuck(state)
            return stuck + ply if stuck <= -WIN else stuck
        ordered = self._order(state, moves, hint, ply)
        width = game.step_width(state)
        if width and len(ordered) > width:
            ordered = ordered[:width]
            if moves[0] not in ordered:  # the game's first move is always searched
                ordered.append(moves[0])
        side = game.side(state)
        alpha0 = alpha
        best, best_move = -INF, ordered[0]
        for m in ordered:
            child = game.play(state, m)
            score = self._child(child, side, depth - 1, alpha, beta, ply + 1,
                                best_move is not m and best > -INF)
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not game.gain(state, m):
                            self._remember(m, ply, depth)
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key & TT_MASK] = (key, depth, best, flag, best_move)
        return best

    def _futile(self, state: Any, depth: int, alpha: int, beta: int,
                ply: int) -> int | None:
        """Futility pruning near the horizon, for games that ask for it (``pruning``):
        a position so far above beta that a quiet reply cannot bring it back is cut at
        once (static null move), and one so far below alpha at the last ply gains only
        by captures, so only they are searched (razoring to quiescence). Never when the
        side to move is threatened (the game's optional ``in_danger``)."""
        game = self.game
        stand = game.evaluate(state)
        margin = FUTILITY * depth
        if stand - margin >= beta:
            return None if self._in_danger(state) else stand
        if depth == 1 and stand + margin <= alpha and not self._in_danger(state):
            return self._quiesce(state, alpha, beta, ply, 0)
        return None

    def _in_danger(self, state: Any) -> bool:
        danger = getattr(self.game, "in_danger", None)
        return bool(danger and danger(state))

    def _child(self, child: Any, side: int, depth: int, alpha: int, beta: int, ply: int,
               scout: bool) -> int:
        """The score of ``child`` for ``side`` (the mover before it). After the first move
        a null window is tried first (principal variation search): most moves only need to
        be shown worse than the best so far."""
        same = self.game.side(child) == side
        if scout and beta - alpha > 1:
            score = (self._negamax(child, depth, alpha, alpha + 1, ply) if same
                     else -self._negamax(child, depth, -alpha - 1, -alpha, ply))
            if score <= alpha:
                return score
        if same:
            return self._negamax(child, depth, alpha, beta, ply)
        return -self._negamax(child, depth, -beta, -alpha, ply)

    def _quiesce(self, state: Any, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        game = self.game
        decided = game.result(state)
        if decided is not None:
            return decided - ply if decided > 0 else decided + ply if decided < 0 else 0
        stand = game.evaluate(state)
        if qdepth >= self.qs_depth:
            return stand
        end = self.turn_end(state) if self.turn_end else None
        if end is not None:
            # in the middle of a turn, standing pat is ending it: the opponent's captures
            # then have their say, as a whole turn's do at the horizon
            self._tick()
            stand = -self._quiesce(game.play(state, end), -beta, -alpha, ply + 1, qdepth)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
        noisy = noisy_moves(game, state)
        if not noisy:
            return stand
        noisy = sorted(noisy, key=lambda gm: -gm[0])  # the game may keep its lists
        side = game.side(state)
        for g, m in noisy:
            if stand + g + DELTA <= alpha:
                break  # delta pruning: even this capture cannot lift the score to alpha
            self._tick()
            child = game.play(state, m)
            if game.side(child) == side:
                score = self._quiesce(child, alpha, beta, ply + 1, qdepth + 1)
            else:
                score = -self._quiesce(child, -beta, -alpha, ply + 1, qdepth + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    # --- ordering -------------------------------------------------------------------------
    def _order(self, state: Any, moves: Sequence[Hashable], hint: Hashable | None,
               ply: int) -> list[Hashable]:
        game = self.game
        killers = self.killers.get(ply, ())
        history = self.history

        def rank(m: Hashable) -> int:
            if m == hint:
                return -10 * INF
            g = game.gain(state, m)
            if g:
                return -INF - g
            if m in killers:
                return -INF // 2
            return -history.get(m, 0)
        return sorted(moves, key=rank)

    def _remember(self, move: Hashable, ply: int, depth: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth
