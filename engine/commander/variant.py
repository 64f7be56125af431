"""Commander Chess (Cờ Tư Lệnh), complete.

The rules for players: ``docs/rules/commander.md``, whose "Choices this project made"
lists every decision taken where the original rules are silent, each with its test.
Section marks (§) below refer to the numbered rules specification the engine was
built from; the players' document says the same in its own words.

The rules live in four sibling modules: `pieces` (pieces, stacks, carry table), `board`
(rays, terrain reach, zones), `rules` (generation, attacks, legality, making turns on raw
tuples) and `notation` (FEN, SAN, LAN, reading move texts). This module is the `Variant`:
it turns raw turns into `Move` values and back, matches move texts, explains refusals
and decides the end of the game.

Move values. A single piece or whole stack acting is ``Move((step,))`` with ``kind=""``;
its step's ``unit`` is the unit in move notation (``"T"``, ``"(N+FT)"``) and its ``kind``
is ``""``, ``"x"``, ``"_"`` (target = origin, the captured square in ``captures``), ``"@"``
or ``"&"``. A deploy is ``Move(steps, kind="deploy")``, one step per acting piece, in the
order played. A deploy entered step by step is made of ``Move(steps, kind="step")`` values:
`make_move` turns one into a position whose ``pending`` holds the steps so far (the board
shows them made; ``extra[0]`` keeps the cells at the start of the turn, for the FEN suffix
of §9.1.4), with the same side to move; `end_turn` completes it.

Decisions where the rule file leaves a choice to the implementation (each has a test):

* Entering a deploy step by step: a step is accepted only if some legal turn starts with the
  steps so far (§5.5 "SHOULD"). The turn completes by itself when the steps so far are a
  legal turn that no legal turn extends (nothing on the origin can still act, the enemy
  commander was captured, or no further step is possible: the "MAY" of §5.5). On a position
  with a turn in progress `legal_moves` lists the possible next steps (``kind="step"``).
* A deploy text without a stay part (``T>e6``) names a complete turn only when nothing
  stays on the origin; otherwise it is a partial entry of those steps. ``(XY)>sq`` is read
  as ``X>sq,Y>&sq`` with any stay part (§9.4 item 8); a single ``(..)>sq`` naming a whole
  stack is its whole-stack move, and so is ``I>c6`` for a piece standing alone, unless a
  step of some stack fits the text (then it is that step).
* The first step of a deploy entered step by step is written with an origin disambiguator
  (``Id>e4``) exactly when another stack could make the same step (§9.2.3 "MAY").
* A kind symbol may be left out (``Ic6`` for ``Ixc6``) when exactly one turn fits;
  ``+`` marks may be left out likewise, but matches with the marks exactly as written win.
* `parse_position` applies every validity rule of §9.1.3, with one exception: the final
  position of a game won by capturing a commander (the side to move has none, the other
  side one) is read, so that a service can show a finished game again; it cannot be
  played (no legal moves, the outcome is decided). ``relaxed=True`` drops the piece
  counts altogether (test positions).
* Battle modes: ``mode`` is ``standard``, ``marine``, ``air``, ``land``, ``raid`` or
  ``sea-air``, optionally with a limit in full moves, ``marine:40`` (default 60). Turns are
  counted from ``history`` (positions with a turn in progress are not turns); without a
  history, from the move counters of the position. Destroyed pieces are ``history[0]``'s
  pieces minus the current ones, per side (the full set of §1.6 when there is no history):
  a side's lost pieces were destroyed by the other side, which is also what the suicide
  Decision of §8.2 gives.
* `status_text` shows check and a deploy in progress; the points each side has destroyed
  (§8.4 "MAY") are counted from the moves played (`removed_pieces`, `piece_points`), which
  a position alone cannot tell for a game from a set-up position; `destroyed_points`
  compares a position with the game's start for the battle modes' endings.
* A game whose commander has been captured has no legal moves. The draws of §8.1 items 4
  and 5 are `outcome`'s business: `legal_moves` and perft ignore them, as python-chess
  does; `parse_move` refuses moves once the half-move clock has reached 100.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import EngineError, IllegalMoveError, PositionError
from ..move import Move, Step
from ..phrases import a_or_an, said, said_n
from ..position import Piece, Position
from ..variant import ONGOING, Outcome, Variant, register
from .board import (
    ALIGN,
    FILES,
    HEAVY_REACH,
    INDEX,
    LAND_CAPABLE,
    LAND_REACH,
    NAMES,
    NAVIGABLE,
    NAVY_REACH,
    RAY,
    TOPO,
    between,
    file_of,
    rank_of,
)
from .notation import (
    Pattern,
    StepPattern,
    UnitPattern,
    disambiguation,
    format_fen,
    lan,
    parse_fen,
    read_move,
    san_texts,
    stay_part,
    step_text,
)
from .pieces import (
    CAPTURE_BLOCKED,
    FULL_SET,
    MERGE,
    PIECE_NAMES,
    PIECES,
    POINTS,
    REMOVE,
    STACKS,
    canonical,
    split_stack,
)
from .rules import (
    CAPTURE,
    CAPTURES,
    JOIN,
    KAMIKAZE,
    KIND_SYMBOL,
    QUIET,
    SAFE,
    SHOT_DOWN,
    STAY,
    SUICIDE,
    RawStep,
    RawTurn,
    apply_steps,
    attacked,
    commander_square,
    end_of_turn,
    legal_turns,
    make_turn,
    perft,
    removed_stacks,
    sight,
    unit_options,
    zone_masks,
)

START = ("6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/"
         "1N2FH1HF2/6C4 r - - 0 1")
SIDES = ("Red", "Blue")
MODES = ("standard", "marine", "air", "land", "raid", "sea-air")
DEFAULT_LIMIT = 60  # full moves (§8.2)
STRATEGY_BONUS = 50

RULES = """\
**Commander Chess (Cờ Tư Lệnh)** — 11×12 points; sea on files a–b, coast on c, a river \
between ranks 6 and 7 with reefs (bridges) on f and h. Red moves first.
Win: capture or checkmate the enemy Commander. Moves: `Te5`, `Ixc6` (capture), `A_b2` \
(capture without moving), `F@e5` (air force trades itself), `T&e6` (join a friendly piece).
• **C Commander** any distance on files/ranks, captures 1 step; never faces the other one.
• **I Infantry, E Engineer, G AA gun** 1 step orthogonally; **M Militia** 1 step any way.
• **T Tank** 1–2 orthogonally. **A Artillery** 1–3 any way, fires over pieces. \
**S Missile** 2 orthogonally / 1 diagonally, fires over pieces.
• **F Air force** 1–4 any way over everything; enemy G (ring 1), N (ring 1) and S (ring 2) \
shoot it down. **N Navy** 1–4 on water; fires at navies 1–4, ground 1–3.
• **H Headquarters** never moves (until heroic); shelters its Commander.
Heavy pieces (A, G, S) cross the river only over a reef unless capturing.
Stacks: N carries 2 of F T C I M; F carries 2 of T C I M (one T); T carries 2 of C I M; \
E carries one of A G S; H shelters its own C. A stack moves as its carrier (`(TI)e5`) or \
splits in one turn, each piece by its own rules: `I<T>e6`, `T>e6,I>e5`.
Giving check makes a piece heroic (+1 range, all 8 directions); so does being a side's \
last piece besides the Commander."""


class _Analysis(NamedTuple):
    """The legal turns of one position, as raw values and as moves, with their SAN."""

    turns: list[RawTurn]
    moves: list[Move]
    index: dict[Move, int]
    sans: list[str]


_STEPS: dict[tuple[int, str, int, int], Step] = {}


def _step(origin: int, unit: str, target: int, kind: int) -> Step:
    """The `Step` value of one raw step (cached: move lists reuse them)."""
    key = (origin, unit, target, kind)
    step = _STEPS.get(key)
    if step is None:
        o, t = NAMES[origin], NAMES[target]
        notation = STACKS[unit].notation
        if kind == STAY:
            step = Step(o, o, (t,), notation, "_")
        elif kind == CAPTURE or kind == SUICIDE:
            step = Step(o, t, (t,), notation, KIND_SYMBOL[kind])
        else:
            step = Step(o, t, (), notation, KIND_SYMBOL[kind])
        _STEPS[key] = step
    return step


_SINGLE: dict[tuple[int, RawStep], Move] = {}


def to_move(turn: RawTurn) -> Move:
    """The `Move` value of a raw turn (single moves are cached: move lists reuse them)."""
    origin, steps, deploy = turn
    if not deploy:
        key = (origin, steps[0])
        move = _SINGLE.get(key)
        if move is None:
            move = _SINGLE[key] = Move((_step(origin, *steps[0]),), "")
        return move
    return Move(tuple(_step(origin, u, t, k) for u, t, k in steps), "deploy")


def unit_string(notation: str, side: int) -> str:
    """The stack string of a unit written in move notation, for ``side``."""
    body = notation.strip("()")
    if side:
        body = body.lower()
    pieces = split_stack(body)
    return canonical(list(pieces)) if len(pieces) > 1 else body


def raw_step(step: Step, side: int) -> RawStep:
    kind = KIND_SYMBOL.index(step.kind)
    target = step.captures[0] if kind == STAY else step.target
    return unit_string(step.unit, side), INDEX[target], kind


def to_raw(move: Move, side: int) -> RawTurn:
    return (INDEX[move.steps[0].origin], tuple(raw_step(s, side) for s in move.steps),
            move.kind in ("deploy", "step"))


# the pieces' names inside the engine's sentences ("the tank on e4"), as phrases
_PIECE_WORDS = {
    "C": said("commander"), "I": said("infantry"), "T": said("tank"), "M": said("militia"),
    "E": said("engineer"), "A": said("artillery"), "G": said("anti-aircraft gun"),
    "S": said("missile"), "F": said("air force"), "N": said("navy"), "H": said("headquarters"),
}
assert all(words == PIECE_NAMES[x].lower() for x, words in _PIECE_WORDS.items())
_SIDE_WORDS = (said("Red"), said("Blue"))
assert _SIDE_WORDS == SIDES


def _side(side: int) -> str:
    return _SIDE_WORDS[side]


def _name(letter: str) -> str:
    return _PIECE_WORDS[letter]


def _article(words: str) -> str:
    return a_or_an(words)


def _unit_words(stack: str) -> str:
    info = STACKS[stack]
    if info.size == 1:
        return said("heroic {piece}", piece=_name(info.letter)) if PIECES[stack].heroic \
            else _name(info.letter)
    return said("stack {stack}", stack=info.notation)


@register
class CommanderChess(Variant):
    name = "commander"
    order = 20
    aliases = ("commander-chess", "cotulenh", "co-tu-lenh")
    display_name = said("Commander Chess (Cờ Tư Lệnh)")
    topology = TOPO
    side_names = _SIDE_WORDS
    start_fen = START
    modes = MODES
    piece_names = PIECE_NAMES
    piece_points = POINTS
    rules_text = RULES

    def __init__(self) -> None:
        self._cache: dict[Position, _Analysis] = {}

    # --- positions -------------------------------------------------------------------
    def start_position(self, mode: str = "standard") -> Position:
        name, _ = _read_mode(mode)
        if name == "sea-air":
            raise PositionError(said("sea-air games have no default set-up: start one from an "
                                     "explicit position (FEN) with the 9 pieces per side you "
                                     "agreed"))
        return self.parse_position(self.start_fen)

    def parse_position(self, text: str, relaxed: bool = False) -> Position:
        fen = parse_fen(text, relaxed)
        position = Position(self.name, fen.cells, fen.side, fen.fullmove, fen.halfmove)
        if not fen.deploy:
            return position
        return self._read_deploy_suffix(text, position, fen.deploy)

    def _read_deploy_suffix(self, text: str, start: Position, suffix: str) -> Position:
        if not suffix.endswith("...") or suffix.count(":") != 2:
            raise PositionError(said("{position}: the seventh field is a deploy in progress, "
                                     "origin:stay:steps... as in e4:I:T>e6...",
                                     position=repr(text)))
        origin_name, stay, steps_text = suffix[:-3].split(":")
        if origin_name not in INDEX:
            raise PositionError(said("{position}: {square} is not a square",
                                     position=repr(text), square=repr(origin_name)))
        try:
            pattern = read_move(f"{origin_name}:{stay}:{steps_text}")
        except EngineError as error:
            raise PositionError(said("{position}: the deploy in progress cannot be read: "
                                     "{error}", position=repr(text),
                                     error=error.args[0] if error.args else str(error))) \
                from None
        origin = INDEX[origin_name]
        prefixes = self._prefixes(start, pattern, origin)
        if len(prefixes) != 1:
            raise PositionError(said("{position}: the deploy in progress is not the start of "
                                     "a legal turn", position=repr(text)))
        position = self._pending_position(start, *next(iter(prefixes)))
        if stay_part(position.cells, (origin, (), True)) != (stay or ""):
            stays = stay_part(position.cells, (origin, (), True))
            raise PositionError(said("{position}: after those steps {square} holds {stack}",
                                     position=repr(text), square=origin_name, stack=stays)
                                if stays else
                                said("{position}: after those steps {square} holds nothing",
                                     position=repr(text), square=origin_name))
        return position

    def format_position(self, position: Position) -> str:
        if not position.pending:
            return format_fen(position.cells, position.side, position.halfmove,
                              position.fullmove)
        start = self._start_of_turn(position)
        origin = INDEX[position.pending[0].origin]
        steps = [raw_step(s, position.side) for s in position.pending]
        stay = stay_part(position.cells, (origin, (), True))
        return (format_fen(start.cells, start.side, start.halfmove, start.fullmove)
                + f" {NAMES[origin]}:{stay}:" + ",".join(step_text(*s) for s in steps) + "...")

    def pieces_at(self, position: Position, node: str) -> tuple[Piece, ...]:
        s = position.cells[INDEX[node]]
        if s is None:
            return ()
        return tuple(Piece(PIECES[p].letter, PIECES[p].side, PIECES[p].heroic)
                     for p in STACKS[s].pieces)

    def repetition_key(self, position: Position) -> object:
        return (position.cells, position.side)

    # --- moves ---------------------------------------------------------------------
    def _analysis(self, position: Position) -> _Analysis:
        found = self._cache.get(position)
        if found is None:
            turns = legal_turns(position.cells, position.side)
            moves = [to_move(t) for t in turns]
            found = _Analysis(turns, moves, {m: i for i, m in enumerate(moves)}, [])
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[position] = found
        return found

    def _sans(self, position: Position) -> list[str]:
        analysis = self._analysis(position)
        if not analysis.sans and analysis.turns:
            analysis.sans.extend(san_texts(position.cells, analysis.turns))
        return analysis.sans

    def legal_moves(self, position: Position) -> list[Move]:
        if position.pending:
            return self._next_steps(position)
        return [to_move(t) for t in legal_turns(position.cells, position.side)]

    def next_steps(self, position: Position) -> list[Move]:
        """Whole-stack and single-piece moves, and each deploy by its first step (§5.5:
        a deploy may be entered step by step); in a turn in progress, the next steps."""
        if position.pending:
            return self._next_steps(position)
        out: dict[Move, None] = {}
        for move in self.legal_moves(position):
            out.setdefault(Move(move.steps[:1], "step") if move.kind == "deploy" else move)
        return list(out)

    def count_moves(self, position: Position) -> int:
        if position.pending:
            return len(self._next_steps(position))
        return len(legal_turns(position.cells, position.side))

    def perft(self, position: Position, depth: int) -> int:
        if position.pending:
            return super().perft(position, depth)
        return perft(position.cells, position.side, depth)

    def make_move(self, position: Position, move: Move) -> Position:
        if move.kind == "step" or position.pending:
            return self._make_steps(position, move)
        board, captured, _ = make_turn(position.cells, position.side,
                                       to_raw(move, position.side))
        return self._after_turn(position, tuple(board), captured)

    def _after_turn(self, start: Position, cells: tuple[str | None, ...],
                    captured: bool) -> Position:
        return Position(self.name, cells, 1 - start.side, start.fullmove + start.side,
                        0 if captured else start.halfmove + 1)

    def apply(self, position: Position, move: Move) -> Position:
        if position.pending or move.kind == "step":
            self._check_steps(position, move)
            return self.make_move(position, move)
        if move.kind not in ("", "deploy") or move not in self._analysis(position).index:
            raise IllegalMoveError(self._describe(position, move),
                                   self._why_move(position, move))
        return self.make_move(position, move)

    def format_move(self, position: Position, move: Move) -> str:
        if move.kind == "step" or position.pending:
            return self._step_texts(position, move)
        analysis = self._analysis(position)
        i = analysis.index.get(move)
        if i is not None:
            return self._sans(position)[i]
        return lan(position.cells, to_raw(move, position.side))

    def removed_pieces(self, position: Position, move: Move) -> tuple[Piece, ...]:
        """Each captured stack whole, carrier and passengers; and an air force that trades
        itself (``@``, a flight into enemy air defence) with the stack it hits."""
        if not move.steps:
            return ()
        origin, steps, deploy = to_raw(move, position.side)
        lost = removed_stacks(position.cells, origin, steps, deploy or bool(position.pending))
        return tuple(Piece(PIECES[p].letter, PIECES[p].side, PIECES[p].heroic)
                     for stack in lost for p in STACKS[stack].pieces)

    def format_lan(self, position: Position, move: Move) -> str:
        """The long form of a move (§9.3)."""
        return lan(position.cells, to_raw(move, position.side))

    # --- turns entered step by step (§5.5, §9.1.4) -----------------------------------
    def _start_of_turn(self, position: Position) -> Position:
        return Position(self.name, position.extra[0], position.side, position.fullmove,
                        position.halfmove)

    def turn_so_far(self, position: Position) -> Move:
        """The deploy entered so far in a position with a turn in progress."""
        return Move(position.pending, "deploy")

    def _pending_position(self, start: Position, origin: int,
                          steps: tuple[RawStep, ...]) -> Position:
        board = list(start.cells)
        apply_steps(board, origin, steps, True)
        return Position(self.name, tuple(board), start.side, start.fullmove, start.halfmove,
                        tuple(_step(origin, *s) for s in steps), (start.cells,))

    def _continuations(self, start: Position, origin: int,
                       steps: tuple[RawStep, ...]) -> tuple[bool, set[RawStep]]:
        """(the steps are a complete legal turn, the next steps that keep it completable)."""
        n = len(steps)
        complete = False
        following: set[RawStep] = set()
        for o, turn_steps, deploy in self._analysis(start).turns:
            if o != origin or not deploy or turn_steps[:n] != steps:
                continue
            if len(turn_steps) == n:
                complete = True
            else:
                following.add(turn_steps[n])
        return complete, following

    def _next_steps(self, position: Position) -> list[Move]:
        start = self._start_of_turn(position)
        origin = INDEX[position.pending[0].origin]
        steps = tuple(raw_step(s, position.side) for s in position.pending)
        _, following = self._continuations(start, origin, steps)
        return [Move((_step(origin, *s),), "step") for s in sorted(following)]

    def _combined(self, position: Position, move: Move) -> tuple[Position, int,
                                                                 tuple[RawStep, ...]]:
        start = self._start_of_turn(position) if position.pending else position
        steps = position.pending + move.steps
        origin = INDEX[steps[0].origin]
        if any(INDEX[s.origin] != origin for s in steps):
            raise IllegalMoveError(self._step_texts(position, move),
                                   f"every step of a deploy starts on its origin, "
                                   f"{NAMES[origin]}")
        return start, origin, tuple(raw_step(s, start.side) for s in steps)

    def _check_steps(self, position: Position, move: Move) -> None:
        start, origin, steps = self._combined(position, move)
        complete, following = self._continuations(start, origin, steps)
        if not complete and not following:
            raise IllegalMoveError(self._step_texts(position, move),
                                   self._why_turn(start, (origin, steps, True), partial=True))

    def _make_steps(self, position: Position, move: Move) -> Position:
        start, origin, steps = self._combined(position, move)
        complete, following = self._continuations(start, origin, steps)
        if complete and not following:
            board, captured, _ = make_turn(start.cells, start.side, (origin, steps, True))
            return self._after_turn(start, tuple(board), captured)
        return self._pending_position(start, origin, steps)

    def end_turn(self, position: Position) -> Position:
        if not position.pending:
            raise IllegalMoveError("end", "there is no turn in progress to end")
        start, origin, steps = self._combined(position, Move((), "step"))
        complete, _ = self._continuations(start, origin, steps)
        if not complete:
            raise IllegalMoveError("end", self._why_turn(start, (origin, steps, True)))
        board, captured, _ = make_turn(start.cells, start.side, (origin, steps, True))
        return self._after_turn(start, tuple(board), captured)

    def _step_texts(self, position: Position, move: Move) -> str:
        side = position.side
        parts = []
        for n, s in enumerate(move.steps):
            piece, target, kind = raw_step(s, side)
            extra = ""
            if n == 0 and not position.pending:
                extra = self._step_disambiguation(position, INDEX[s.origin], piece, target,
                                                  kind)
            parts.append(step_text(piece, target, kind, extra))
        return ",".join(parts)

    def _step_disambiguation(self, position: Position, origin: int, piece: str, target: int,
                             kind: int) -> str:
        origins = {o for o, steps, deploy in self._analysis(position).turns
                   if deploy and steps[0][1:] == (target, kind)
                   and PIECES[steps[0][0]].letter == PIECES[piece].letter}
        return disambiguation(origin, tuple(origins | {origin}))

    # --- reading moves (§9.4) --------------------------------------------------------
    def parse_move(self, position: Position, text: str) -> Move:
        pattern = read_move(text)
        if position.pending:
            return self._parse_next_steps(position, pattern)
        if not self._analysis(position).turns or position.halfmove >= 100:
            raise IllegalMoveError(text, "the game is over")
        if not pattern.deploy:
            return self._choose_simple(position, pattern)
        if pattern.stay is None and len(pattern.steps) == 1:
            # unit>square naming a whole stack (or a piece standing alone): its move (§9.2.3)
            whole = pattern._replace(deploy=False, unit=pattern.steps[0].unit,
                                     kind=pattern.steps[0].kind,
                                     target=pattern.steps[0].target, steps=())
            found = self._simple_candidates(position, whole)
            if found and (pattern.steps[0].unit.size > 1
                          or not self._deploy_candidates(position, pattern)):
                return self.choose(position, text, found, lambda: "")
        return self._choose_deploy(position, pattern)

    def _deploy_candidates(self, position: Position, pattern: Pattern) -> bool:
        """Whether some deploy, or the start of one, fits the pattern's steps."""
        steps, paired = _expand_pairs(pattern.steps)
        return bool(self._deploy_scores(position, pattern, steps, any_stay=paired)
                    or self._prefixes(position, pattern, None))

    def _simple_candidates(self, position: Position, pattern: Pattern) -> list[Move]:
        analysis = self._analysis(position)
        scored: dict[tuple[bool, bool], list[Move]] = defaultdict(list)
        for turn, move in zip(analysis.turns, analysis.moves, strict=True):
            origin, steps, deploy = turn
            if deploy:
                continue
            unit, target, kind = steps[0]
            if target != pattern.target or not _origin_fits(origin, pattern):
                continue
            if pattern.kind is not None and kind != pattern.kind:
                continue
            pieces = STACKS[unit].pieces
            if not pattern.unit.fits(pieces, exact=False):  # type: ignore[union-attr]
                continue
            scored[(pattern.kind is None and kind != QUIET,
                    not pattern.unit.fits(pieces, exact=True))].append(move)  # type: ignore
        return scored[min(scored)] if scored else []

    def _choose_simple(self, position: Position, pattern: Pattern) -> Move:
        return self.choose(position, pattern.text, self._simple_candidates(position, pattern),
                           lambda: self._why_pattern(position, pattern))

    def _deploy_scores(self, position: Position, pattern: Pattern, steps: tuple[StepPattern,
                       ...], any_stay: bool) -> dict[tuple[bool, bool], list[Move]]:
        analysis = self._analysis(position)
        scored: dict[tuple[bool, bool], list[Move]] = defaultdict(list)
        for turn, move in zip(analysis.turns, analysis.moves, strict=True):
            origin, turn_steps, deploy = turn
            if not deploy or len(turn_steps) != len(steps) or not _origin_fits(origin, pattern):
                continue
            fit = _steps_fit(turn_steps, steps)
            if fit is None:
                continue
            loose_kind, loose_hero = fit
            stay = _stay_pieces(position.cells, turn)
            if pattern.stay is not None:
                if not pattern.stay.fits(stay, exact=False):
                    continue
                loose_hero = loose_hero or not pattern.stay.fits(stay, exact=True)
            elif stay and not any_stay:
                continue
            scored[(loose_kind, loose_hero)].append(move)
        return scored

    def _choose_deploy(self, position: Position, pattern: Pattern) -> Move:
        text = pattern.text
        steps, paired = _expand_pairs(pattern.steps)
        scored = self._deploy_scores(position, pattern, steps, any_stay=paired)
        if scored:
            return self.choose(position, text, scored[min(scored)], lambda: "")
        if pattern.stay is None and not paired:
            prefixes = self._prefixes(position, pattern, None)
            if prefixes:
                moves = [Move(tuple(_step(o, *s) for s in p), "step") for o, p in prefixes]
                return self.choose(position, text, moves, lambda: "")
        return self.choose(position, text, [], lambda: self._why_pattern(position, pattern))

    def _prefixes(self, position: Position, pattern: Pattern,
                  origin: int | None) -> set[tuple[int, tuple[RawStep, ...]]]:
        """(origin, steps) of every start of a legal deploy (from any origin, or from
        ``origin``) that the pattern's steps name; the best-fitting ones only."""
        n = len(pattern.steps)
        scored: dict[tuple[bool, bool], set[tuple[int, tuple[RawStep, ...]]]] = \
            defaultdict(set)
        for o, turn_steps, deploy in self._analysis(position).turns:
            if not deploy or len(turn_steps) < n or (origin is not None and o != origin):
                continue
            if origin is None and not _origin_fits(o, pattern):
                continue
            prefix = turn_steps[:n]
            fit = _steps_fit(prefix, pattern.steps)
            if fit is not None:
                scored[fit].add((o, prefix))
        return scored[min(scored)] if scored else set()

    def _parse_next_steps(self, position: Position, pattern: Pattern) -> Move:
        text = pattern.text
        if not pattern.deploy or pattern.stay is not None:
            raise IllegalMoveError(text, f"a deploy from {position.pending[0].origin} is in "
                                         f"progress: send its next step (as in I>e5) or end "
                                         f"the turn")
        start, origin, done = self._combined(position, Move((), "step"))
        n = len(done)
        scored: dict[tuple[bool, bool], set[tuple[RawStep, ...]]] = defaultdict(set)
        for o, turn_steps, deploy in self._analysis(start).turns:
            if o != origin or not deploy or turn_steps[:n] != done:
                continue
            more = turn_steps[n:n + len(pattern.steps)]
            if len(more) == len(pattern.steps):
                fit = _steps_fit(more, pattern.steps)
                if fit is not None:
                    scored[fit].add(more)
        found = [Move(tuple(_step(origin, *s) for s in more), "step")
                 for more in (scored[min(scored)] if scored else ())]
        return self.choose(position, text, found, lambda: self._why_next(position, pattern))

    # --- why a move is refused ---------------------------------------------------------
    def _why_next(self, position: Position, pattern: Pattern) -> str:
        start, origin, done = self._combined(position, Move((), "step"))
        board = list(position.cells)
        acted = [s[0] for s in done]
        here = list(STACKS[board[origin]].pieces) if board[origin] else []
        for piece in acted:
            if piece in here and any(s[0] == piece and s[2] == STAY for s in done):
                here.remove(piece)
        steps = []
        for sp in pattern.steps:
            piece = next((p for p in here if sp.unit.fits((p,), exact=False)), None)
            if piece is None:
                letters = "".join(letter for letter, _ in sp.unit.letters)
                return said("no piece {letters} on {square} can still act in this turn "
                            "(each piece acts at most once)", letters=letters,
                            square=NAMES[origin])
            here.remove(piece)
            steps.append((piece, sp.target, sp.kind if sp.kind is not None
                          else _guess_kind(board, sp.target, position.side)))
        return self._why_turn(start, (origin, done + tuple(steps), True), partial=True)

    def _why_move(self, position: Position, move: Move) -> str:
        if self.outcome(position).is_over:
            return said("the game is over")
        try:
            turn = to_raw(move, position.side)
        except (KeyError, ValueError):
            return said("that is not a move of this game")
        return self._why_turn(position, turn) or said("that is not a legal move in this "
                                                      "position")

    def _why_pattern(self, position: Position, pattern: Pattern) -> str:
        side = position.side
        cells = position.cells
        own = [q for q, s in enumerate(cells) if s is not None and STACKS[s].side == side]
        if not pattern.deploy:
            unit = pattern.unit
            assert unit is not None
            fitting = [q for q in own if unit.fits(STACKS[cells[q]].pieces, exact=False)
                       and _origin_fits(q, pattern)]
            if not fitting:
                return self._no_such_unit(position, pattern, own)
            reasons = []
            for q in fitting:
                kind = pattern.kind if pattern.kind is not None else _guess_kind(
                    cells, pattern.target, side)
                reasons.append(self._why_turn(position, (q, ((cells[q], pattern.target,
                                                               kind),), False)))
            return _best_reason(reasons, fitting, pattern.target,
                                _unit_words(cells[fitting[0]]))  # type: ignore[arg-type]
        steps, _ = _expand_pairs(pattern.steps)
        candidates = []
        for q in own:
            if not _origin_fits(q, pattern) or STACKS[cells[q]].size < 2:
                continue
            raw = _assign_pieces(cells[q], steps, cells, side)  # type: ignore[arg-type]
            if raw is not None:
                candidates.append((q, raw))
        if not candidates:
            letters = ", ".join("".join(x for x, _ in s.unit.letters) for s in steps)
            return said("none of your stacks holds the pieces {letters} that this deploy "
                        "moves (a deploy splits a stack of 2 or 3 pieces; a piece standing "
                        "alone moves as in {example})", letters=letters, example="Ic6")
        reasons = []
        for q, raw in candidates:
            reason = self._why_turn(position, (q, raw, True),
                                    partial=pattern.stay is None)
            if not reason and pattern.stay is not None:
                turn = (q, raw, True)
                stay = stay_part(cells, turn)
                steps_text = ",".join(step_text(*st) for st in raw)
                reason = (said("nothing stays on {square}: write {move}", square=NAMES[q],
                               move=steps_text) if not stay else
                          said("{stack} stays on {square}: write {move}", stack=stay,
                               square=NAMES[q], move=stay + "<" + steps_text))
            reasons.append(reason)
        return _best_reason(reasons, [q for q, _ in candidates], None, "")

    def _no_such_unit(self, position: Position, pattern: Pattern, own: list[int]) -> str:
        unit = pattern.unit
        assert unit is not None
        cells = position.cells
        letters = [letter for letter, _ in unit.letters]
        alike = [q for q in own if sorted(PIECES[p].letter for p in STACKS[cells[q]].pieces)
                 == sorted(letters) and _origin_fits(q, pattern)]
        if alike:
            q = alike[0]
            return said("the {unit} on {square} is not heroic as written: a + goes only "
                        "before a heroic piece (it is {notation})",
                        unit=_unit_words(cells[q]), square=NAMES[q],
                        notation=STACKS[cells[q]].notation)
        if len(letters) == 1:
            holders = [q for q in own if any(PIECES[p].letter == letters[0]
                                             for p in STACKS[cells[q]].pieces)]
            placed = [q for q in holders if _origin_fits(q, pattern)]
            if holders and not placed:  # the start written (a file, a rank) fits none
                names = [NAMES[q] for q in holders]
                yours = (said("yours is on {square}", square=names[0]) if len(names) == 1
                         else said("yours are on {squares} and {last}",
                                   squares=", ".join(names[:-1]), last=names[-1]))
                return said("you have no {piece} on {start}; {yours}", piece=_name(letters[0]),
                            start=_start_words(pattern), yours=yours)
            stacked = [q for q in placed if STACKS[cells[q]].size > 1]
            if stacked:
                q = stacked[0]
                stack = STACKS[cells[q]]
                return said("the {piece} on {square} is part of the stack {stack}: move the "
                            "whole stack as {move}, or deploy the piece, as in {deploy}",
                            piece=_name(letters[0]), square=NAMES[q], stack=stack.notation,
                            move=stack.notation + NAMES[pattern.target],
                            deploy=_stay_example(cells[q], letters[0]) + letters[0] + ">"
                            + NAMES[pattern.target])
            return said("you have no {piece} that could make this move", piece=_name(letters[0]))
        written = STACKS[canonical([x for x, _ in unit.letters])].notation
        return said("you have no stack {stack} that could move there", stack=written)

    def _why_turn(self, position: Position, turn: RawTurn, partial: bool = False) -> str:
        """Why a raw turn is not legal, in the rules' words ("" if it is legal)."""
        side = position.side
        board = list(position.cells)
        origin, steps, deploy = turn
        stack = board[origin]
        if stack is None or STACKS[stack].side != side:
            return said("there is no piece of yours on {square}", square=NAMES[origin])
        if deploy and STACKS[stack].size < 2:
            return said("only a stack can deploy; {square} holds a single piece",
                        square=NAMES[origin])
        zones = zone_masks(board, 1 - side)
        acted: list[str] = []
        took = False
        for n, (unit, target, kind) in enumerate(steps):
            here = board[origin]
            def prefix(reason: str, n: int = n, unit: str = unit, target: int = target,
                       kind: int = kind) -> str:
                return said("step {n} ({step}): {reason}", n=n + 1,
                            step=step_text(unit, target, kind), reason=reason) \
                    if len(steps) > 1 else reason
            if took:
                return prefix(said("capturing the enemy commander ends the turn"))
            if deploy:
                available = list(STACKS[here].pieces) if here else []
                for a in acted:
                    if a in available:
                        available.remove(a)
                if unit not in available:
                    return prefix(said("no {unit} on {square} can act now (each piece acts "
                                       "at most once)", unit=_unit_words(unit),
                                       square=NAMES[origin]))
                left = REMOVE[(here, unit)]
            else:
                if unit != here:
                    return said("the unit on {square} is {stack}", square=NAMES[origin],
                                stack=STACKS[here].notation)
                left = None
            options: list[tuple[int, int]] = []
            unit_options(board, origin, side, unit, left, zones, options)
            if (target, kind) not in options:
                return prefix(self._why_step(board, origin, side, unit, left, target, kind,
                                             zones, options))
            captured = board[target] if kind in CAPTURES else None
            apply_steps(board, origin, ((unit, target, kind),), deploy)
            acted.append(unit)
            if captured is not None:
                took = STACKS[captured].has_commander
                if STACKS[captured].zone:
                    zones = zone_masks(board, 1 - side)
        if partial:
            return said("no legal turn starts with these steps")
        if deploy:
            if all(k == STAY for _, _, k in steps):
                return said("no piece leaves the stack; a stack that fires without moving "
                            "does so as a whole, as in {example}",
                            example=STACKS[stack].notation + "_" + NAMES[steps[0][1]])
            on = board[origin]
            if on is not None and not took:
                info = STACKS[on]
                if not info.valid:
                    return said("what stays on {square}, {stack}, is not a valid stack "
                                "(carry table); move another piece too", square=NAMES[origin],
                                stack=info.notation)
                if (NAVIGABLE[origin] if info.letter == "N" else LAND_CAPABLE[origin]) is False:
                    return said("the {unit} would be left on the sea square {square}; it "
                                "must leave too", unit=_unit_words(on), square=NAMES[origin])
        if took:
            if commander_square(board, side) is None:
                return said("your own commander would be destroyed in this turn")
            return ""
        after = list(board)
        end_of_turn(after, side)
        own = commander_square(after, side)
        if own is None:
            return said("your own commander would be destroyed in this turn")
        if attacked(after, own, 1 - side):
            enemy = commander_square(after, 1 - side)
            if enemy is not None and _facing(after, own, enemy):
                return said("the commanders would face each other ({own} and {enemy} with "
                            "nothing between them)", own=NAMES[own], enemy=NAMES[enemy])
            return said("it would leave your commander on {square} attacked",
                        square=NAMES[own])
        return ""

    def _why_step(self, board: list[str | None], origin: int, side: int, unit: str,
                  left: str | None, target: int, kind: int, zones: Sequence[int],
                  options: list[tuple[int, int]]) -> str:
        """Why one unit cannot make this step; the unit's other options are ``options``."""
        info = STACKS[unit]
        lead = PIECES[info.leader]
        letter = lead.letter
        what = _unit_words(unit)
        where, to = NAMES[origin], NAMES[target]
        if target == origin:
            return said("the {unit} is already on {square}", unit=what, square=to)
        occupant = board[target]
        enemy = occupant is not None and STACKS[occupant].side != side
        friendly = occupant is not None and not enemy
        if kind in CAPTURES and not enemy:
            return said("there is no enemy piece on {square} to capture", square=to)
        if kind == JOIN and not friendly:
            return said("there is no piece of yours on {square} to join", square=to)
        if kind == QUIET and occupant is not None:
            return said("{square} is occupied; write {symbol} to capture", square=to,
                        symbol="x") if enemy else \
                said("{square} is occupied; write {symbol} to join", square=to, symbol="&")
        others = sorted({k for t, k in options if t == target})
        if others:
            return self._why_kind(board, unit, target, kind, others)
        if letter == "H" and not lead.heroic:
            return said("a headquarters cannot move or capture until it becomes heroic")
        line = ALIGN[origin].get(target)
        if line is None:
            return said("{square} is not on a straight line from {origin}", square=to,
                        origin=where)
        d, k = line
        if enemy:
            oinfo = STACKS[occupant]  # type: ignore[index]
            reach = lead.capture[d][oinfo.target]
            if letter == "N" and oinfo.target == 1:
                return said("a navy never captures an air force")
            if letter == "S" and oinfo.target == 2:
                return said("a missile never captures a navy")
            commander_far = letter == "C" and not d & 1 and oinfo.has_commander
            if not reach and not commander_far:
                return said("{unit} does not capture in that direction{why}",
                            unit=_article(what), why=_dirs(lead))
            if k > reach and not commander_far:
                return said_n("{square} is out of reach: {unit} captures up to {n} square "
                              "that way", "{square} is out of reach: {unit} captures up to "
                              "{n} squares that way", reach, square=to, unit=_article(what))
            if letter in CAPTURE_BLOCKED:
                blocker = next((q for q in between(origin, target) if board[q] is not None),
                               None)
                if blocker is not None:
                    return said("the way is blocked by the piece on {square}",
                                square=NAMES[blocker])
            if letter == "F":
                return self._air_reason(zones, origin, d, k, lead.heroic, capture=True)
            return said("that capture is not possible")
        # a quiet move or a join
        reach = lead.move[d]
        if not reach:
            return said("{unit} does not move in that direction{why}", unit=_article(what),
                        why=_dirs(lead))
        if k > reach:
            return said_n("{square} is out of reach: {unit} moves up to {n} square that way",
                          "{square} is out of reach: {unit} moves up to {n} squares that way",
                          reach, square=to, unit=_article(what))
        path = RAY[origin][d][:k - 1]
        if letter == "N":
            blocker = next((q for q in path if board[q] is not None
                            and STACKS[board[q]].side != side), None)  # type: ignore[index]
            if blocker is not None:
                return said("the navy is stopped by the enemy piece on {square}",
                            square=NAMES[blocker])
            if k > NAVY_REACH[origin][d]:
                if all(NAVIGABLE[q] for q in (*path, target)):
                    return said("a navy cannot cut across the land corner (c5–d6, c8–d7)")
                return said("a navy moves only on water (files a–c and the river mouth "
                            "d6–e7)")
        elif letter != "F":
            blocker = next((q for q in path if board[q] is not None), None)
            if blocker is not None:
                return said("the way is blocked by the piece on {square}",
                            square=NAMES[blocker])
        if friendly:
            merged = MERGE[(occupant, unit)]  # type: ignore[index]
            if merged is None:
                return self._why_carry(occupant, unit, to)  # type: ignore[arg-type]
        if letter == "F":
            if not friendly and not LAND_CAPABLE[target]:
                return said("an air force cannot land on the sea, except on a navy of yours")
            return self._air_reason(zones, origin, d, k, lead.heroic, capture=False)
        if letter in "AGS" and k > HEAVY_REACH[origin][d] and k <= LAND_REACH[origin][d]:
            return said("deep water: {unit} crosses the river only over a reef (f6–f7 or "
                        "h6–h7) unless it captures; an engineer can carry it across",
                        unit=_article(_name(letter)))
        if letter != "N" and not friendly and not LAND_CAPABLE[target]:
            return said("{unit} cannot stand on the sea square {square}, except by boarding "
                        "a navy of yours", unit=_article(what), square=to)
        if letter != "N" and any(not LAND_CAPABLE[q] for q in path):
            return said("{unit} cannot cross the sea", unit=_article(what))
        if letter == "C" or (letter == "H" and info.has_commander):
            seen = sight(board, commander_square(board, 1 - side), origin, left is None)
            crossed = next((q for q in path if q in seen), None)
            if crossed is not None:
                return said("a commander moving on its own may not pass {square}, in the "
                            "enemy commander's line of sight", square=NAMES[crossed])
        return said("that move is not possible")

    def _why_kind(self, board: list[str | None], unit: str, target: int, kind: int,
                  others: list[int]) -> str:
        what = _unit_words(unit)
        to = NAMES[target]
        notation = STACKS[unit].notation
        if kind == SUICIDE or others == [SUICIDE]:
            if others == [SUICIDE]:
                return said("{square} lies under enemy air defence: the {unit} can only trade "
                            "itself for the piece there ({move})", square=to, unit=what,
                            move=notation + "@" + to)
            return said("only a flight into enemy air defence is a suicide capture")
        if kind == CAPTURE and others == [STAY]:
            return said("the {unit} cannot stand on {square}, so it captures without moving "
                        "({move})", unit=what, square=to, move=notation + "_" + to)
        if kind == STAY and others == [CAPTURE]:
            if PIECES[STACKS[unit].leader].letter == "F":
                return said("an air force captures without moving only when landing would be "
                            "unsafe or the target is at sea; here it must land ({move})",
                            move=notation + "x" + to)
            return said("the {unit} captures by moving onto {square} ({move})", unit=what,
                        square=to, move=notation + "x" + to)
        return said("that capture is not possible")

    def _why_carry(self, stack: str, unit: str, to: str) -> str:
        a, b = STACKS[stack], STACKS[unit]
        letters = {a.letter, b.letter}
        if "H" in letters:
            return said("only its own commander, alone, may enter a headquarters")
        pieces = a.pieces + b.pieces
        if len(pieces) > 3:
            return said("a stack holds at most three pieces")
        return said("your {unit} on {square} and {other} cannot form a stack (carry table, "
                    "rules §5.1)", unit=_unit_words(stack), square=to,
                    other=_article(_unit_words(unit)))

    def _air_reason(self, zones: Sequence[int], origin: int, d: int, k: int, heroic: bool,
                    capture: bool) -> str:
        path = RAY[origin][d][:k]
        from .rules import flight_status
        status = SAFE if heroic else flight_status(zones, path)
        if status == SHOT_DOWN:
            return said("the air force would be shot down by enemy air defence on the way "
                        "(it crosses a ring of fire that does not cover its target)")
        if status == KAMIKAZE and not capture:
            return said("{square} lies under enemy air defence: the air force would be shot "
                        "down there", square=NAMES[path[-1]])
        return said("that flight is not possible")

    # --- the end of the game -----------------------------------------------------------
    def outcome(self, position: Position, history: Sequence[Position] = (),
                mode: str = "standard") -> Outcome:
        if position.pending:
            return ONGOING
        name, limit = _read_mode(mode)
        cells, side = position.cells, position.side
        mover = 1 - side
        alive = [commander_square(cells, 0) is not None, commander_square(cells, 1) is not None]
        mated = None  # the side whose commander is captured or checkmated
        how = ""
        if not all(alive):
            mated = alive.index(False) if alive.count(False) == 1 else side
            how = said("{side}'s commander has been captured", side=_side(mated))
        else:
            no_moves = not legal_turns(cells, side)
            if no_moves:
                own = commander_square(cells, side)
                if attacked(cells, own, mover):  # type: ignore[arg-type]
                    mated = side
                    how = said("{side} is checkmated", side=_side(side))
                else:
                    return Outcome("draw", None, said("stalemate: {side} has no legal turn "
                                                      "and is not in check", side=_side(side)))
        if mated is not None and name == "standard":
            return Outcome("win", 1 - mated, how)
        if mated is None:
            draw = self._draw(position, history)
            if draw:
                return Outcome("draw", None, draw)
            if name == "standard":
                return ONGOING
        return self._battle(position, history, name, limit, mated, how)

    def _draw(self, position: Position, history: Sequence[Position]) -> str:
        key = self.repetition_key(position)
        seen = 1 + sum(1 for p in history
                       if not p.pending and self.repetition_key(p) == key)
        if seen >= 3:
            return said("threefold repetition: this position has occurred three times")
        if position.halfmove >= 100:
            return said("fifty-move rule: {n} turns in a row without a capture", n=100)
        return ""

    def destroyed_points(self, position: Position,
                         history: Sequence[Position] = ()) -> tuple[int, int]:
        """Points of the enemy pieces each side has destroyed since ``history[0]`` (or since
        a full set, without a history) (§8.4)."""
        lost = _lost_pieces(position, history)
        red, blue = (sum(POINTS[x] * n for x, n in lost[1 - s].items()) for s in (0, 1))
        return red, blue

    def _battle(self, position: Position, history: Sequence[Position], name: str,
                limit: int, mated: int | None, how: str) -> Outcome:
        lost = _lost_pieces(position, history)
        points = list(self.destroyed_points(position, history))
        if mated is not None and lost[mated].get("C", 0) == 0:
            points[1 - mated] += POINTS["C"]  # checkmate credits the commander (§8.2)
        reached = [_objective(name, lost[1 - s]) or (name == "raid" and mated == 1 - s)
                   for s in (0, 1)]
        turns = _turns_played(position, history)
        if mated is None and not any(reached) and turns < 2 * limit:
            return ONGOING
        mover = 1 - position.side
        strategy = None
        if all(reached):
            strategy = mover
        elif any(reached):
            strategy = reached.index(True)
        totals = list(points)
        if strategy is not None:
            totals[strategy] += STRATEGY_BONUS
        if how:
            why = how
        elif strategy is not None:
            why = said("{side} reached the {mode} objective", side=_side(strategy), mode=name)
        else:
            why = said("the limit of {n} moves was reached", n=limit)
        points_words = dict(why=why, red=_side(0), red_points=totals[0], blue=_side(1),
                            blue_points=totals[1])
        detail = said("{why}; points: {red} {red_points}, {blue} {blue_points}",
                      **points_words) if strategy is None else \
            said("{why}; points: {red} {red_points}, {blue} {blue_points} (including {bonus} "
                 "for the strategy to {side})", **points_words, bonus=STRATEGY_BONUS,
                 side=_side(strategy))
        if totals[0] == totals[1]:
            return Outcome("draw", None, detail)
        return Outcome("win", 0 if totals[0] > totals[1] else 1, detail)

    def status_text(self, position: Position) -> str:
        cells, side = position.cells, position.side
        parts = []
        if position.pending:
            parts.append(said("{side} is deploying from {square} ({steps}): send the next "
                              "step or end the turn", side=_side(side),
                              square=position.pending[0].origin,
                              steps=self._step_texts(position, Move(position.pending, "step"))))
        else:
            own = commander_square(cells, side)
            if own is not None and commander_square(cells, 1 - side) is not None \
                    and attacked(cells, own, 1 - side):
                parts.append(said("{side} is in check", side=_side(side)))
        return parts[0] if parts else ""


# --- helpers ------------------------------------------------------------------------------
def _read_mode(mode: str) -> tuple[str, int]:
    name, _, limit = mode.strip().lower().partition(":")
    if name not in MODES:
        raise EngineError(said("{mode}: no such Commander Chess mode (modes: {modes})",
                               mode=repr(mode), modes=", ".join(MODES)))
    if limit and (not limit.isdigit() or int(limit) < 1):
        raise EngineError(said("{mode}: the limit after ':' is a number of full moves",
                               mode=repr(mode)))
    return name, int(limit) if limit else DEFAULT_LIMIT


def _count(cells: Sequence[str | None]) -> list[dict[str, int]]:
    counts: list[dict[str, int]] = [defaultdict(int), defaultdict(int)]
    for s in cells:
        if s is not None:
            for p in STACKS[s].pieces:
                counts[PIECES[p].side][PIECES[p].letter] += 1
    return counts


def _lost_pieces(position: Position, history: Sequence[Position]) -> list[dict[str, int]]:
    """Per side, how many pieces of each letter it has lost since the game's start."""
    first = next((p for p in history if not p.pending), None)
    before = _count(first.cells) if first is not None else [dict(FULL_SET), dict(FULL_SET)]
    now = _count(position.cells)
    return [{x: before[s].get(x, 0) - now[s].get(x, 0) for x in FULL_SET
             if before[s].get(x, 0) > now[s].get(x, 0)} for s in (0, 1)]


def _objective(name: str, destroyed: dict[str, int]) -> bool:
    """Whether these destroyed enemy pieces reach the mode's objective (§8.2)."""
    if name == "marine":
        return destroyed.get("N", 0) >= 2
    if name == "air":
        return destroyed.get("F", 0) >= 2
    if name == "land":
        return all(destroyed.get(x, 0) >= 2 for x in "TIA")
    if name == "sea-air":
        return destroyed.get("N", 0) >= 2 or destroyed.get("F", 0) >= 2
    if name == "raid":
        return destroyed.get("C", 0) >= 1
    return False


def _turns_played(position: Position, history: Sequence[Position]) -> int:
    if history:
        return sum(1 for p in history if not p.pending)
    return 2 * (position.fullmove - 1) + position.side


def _start_words(pattern: Pattern) -> str:
    """The start a move text names (``N1c9``: rank 1; ``Nbc9``: file b; ``Nb1c9``: b1)."""
    file = None if pattern.origin_file is None else FILES[pattern.origin_file]
    rank = None if pattern.origin_rank is None else str(pattern.origin_rank + 1)
    if file and rank:
        return file + rank
    return said("file {file}", file=file) if file else said("rank {rank}", rank=rank)


def _origin_fits(origin: int, pattern: Pattern) -> bool:
    return ((pattern.origin_file is None or file_of(origin) == pattern.origin_file)
            and (pattern.origin_rank is None or rank_of(origin) == pattern.origin_rank))


def _steps_fit(steps: Sequence[RawStep], patterns: Sequence[StepPattern]
               ) -> tuple[bool, bool] | None:
    """(a kind symbol was left out, a + was left out) when the steps fit, else None."""
    loose_kind = loose_hero = False
    for (piece, target, kind), sp in zip(steps, patterns, strict=True):
        if target != sp.target or not sp.unit.fits((piece,), exact=False):
            return None
        if sp.kind is None:
            loose_kind = loose_kind or kind != QUIET
        elif kind != sp.kind:
            return None
        loose_hero = loose_hero or not sp.unit.fits((piece,), exact=True)
    return loose_kind, loose_hero


def _stay_pieces(cells: Sequence[str | None], turn: RawTurn) -> list[str]:
    origin, steps, _ = turn
    pieces = list(STACKS[cells[origin]].pieces)  # type: ignore[index]
    for piece, _, kind in steps:
        if kind != STAY:
            pieces.remove(piece)
    return pieces


def _expand_pairs(steps: Sequence[StepPattern]) -> tuple[tuple[StepPattern, ...], bool]:
    """``(XY)>sq`` becomes ``X>sq,Y>&sq`` (§9.4 item 8); also says whether any did."""
    out: list[StepPattern] = []
    paired = False
    for sp in steps:
        if sp.unit.size == 1:
            out.append(sp)
            continue
        paired = True
        letters = [("+" if h else "") + x for x, h in sp.unit.letters]
        ordered = split_stack(canonical(letters))
        first, *rest = ordered
        out.append(StepPattern(UnitPattern.read(first), sp.kind, sp.target))
        out.extend(StepPattern(UnitPattern.read(p), JOIN, sp.target) for p in rest)
    return tuple(out), paired


def _guess_kind(cells: Sequence[str | None], target: int, side: int) -> int:
    s = cells[target]
    if s is None:
        return QUIET
    return JOIN if STACKS[s].side == side else CAPTURE


def _assign_pieces(stack: str, steps: Sequence[StepPattern], cells: Sequence[str | None],
                   side: int) -> tuple[RawStep, ...] | None:
    """Pick a piece of ``stack`` for every step pattern, in order; None if it lacks one."""
    pool = list(STACKS[stack].pieces)
    out = []
    for sp in steps:
        piece = next((p for p in pool if sp.unit.fits((p,), exact=True)), None) or next(
            (p for p in pool if sp.unit.fits((p,), exact=False)), None)
        if piece is None:
            return None
        pool.remove(piece)
        kind = sp.kind if sp.kind is not None else _guess_kind(cells, sp.target, side)
        out.append((piece, sp.target, kind))
    return tuple(out)


def _best_reason(reasons: list[str], origins: list[int], target: int | None,
                 what: str) -> str:
    """One reason for the user: the only one, or that of the nearest origin in line."""
    reasons = [r or said("no legal turn matches") for r in reasons]
    if len(set(reasons)) == 1:
        return reasons[0]
    if target is None:
        return said("{reason} (from {square})", reason=reasons[0], square=NAMES[origins[0]])
    aligned = [i for i, o in enumerate(origins) if target in ALIGN[o]]
    if not aligned:
        return said("no {unit} of yours stands on a straight line to {square}", unit=what,
                    square=NAMES[target])
    best = min(aligned, key=lambda i: ALIGN[origins[i]][target][1])
    return said("{reason} (from {square})", reason=reasons[best],
                square=NAMES[origins[best]])


def _facing(cells: Sequence[str | None], a: int, b: int) -> bool:
    line = ALIGN[a].get(b)
    return line is not None and not line[0] & 1 and all(cells[q] is None
                                                         for q in between(a, b))


def _dirs(lead) -> str:
    letter = lead.letter
    if lead.heroic or letter in "MAFN":
        return ""
    if letter == "S":
        return ""
    return said(" (only along files and ranks until it becomes heroic)")


def _stay_example(stack: str, letter: str) -> str:
    pieces = list(STACKS[stack].pieces)
    piece = next(p for p in pieces if PIECES[p].letter == letter)
    pieces.remove(piece)
    return STACKS[canonical(pieces)].notation + "<" if pieces else ""

