"""Turns as players see them: a turn is one thing in every message.

A turn entered step by step is stored as several move rows; players read it as one entry,
the variant's text for the whole turn, under one full-move number as in chess records
(``3.`` for the first side's turn, ``3...`` for the second's), in notices, lists, records
and pictures alike. A picture of the position after a turn marks every step of it.

Legal moves are offered one step at a time, grouped by the piece that makes them, so a
Chieftain turn of two moves or a Commander Chess deploy is never listed as every whole
combination.

`Turns` is the service's `turns` topic (it reads played moves and positions through the
service).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from engine import EngineError, Move, Position, Variant, get_variant
from engine.phrases import Phrase

from ..i18n import Text, _, _n, joined
from ..storage import DamagedGame
from .boundary import guard
from .model import Game, PlayedMove, Player
from .records import END, STEP_SEPARATOR, turn_label


def whole_turn(rules: Variant, start: Position | None, texts: Sequence[str]) -> str:
    """The text of a turn entered as ``texts`` from ``start``: the variant's one entry for
    the whole turn where it has one, else the steps as played."""
    if len(texts) == 1:
        return texts[0]
    whole = rules.turn_record(start, texts) if start is not None else None
    return whole or STEP_SEPARATOR.join(texts)


@dataclass(frozen=True)
class PieceSteps:
    """The steps one piece (or stack) may make next: its point, its symbols, the texts."""

    origin: str
    piece: str
    steps: tuple[str, ...]
    targets: tuple[str, ...]  # the points the steps reach, to highlight
    name: str = ""  # the piece in the rules' words (``Knight``, ``Tank + Infantry``)


def group_steps(rules: Variant, position: Position, node: str | None = None,
                ) -> list[PieceSteps]:
    """The single steps that may come next (`Variant.next_steps`), grouped by the point
    they start from, in board order; only those from ``node`` if given."""
    by_origin: dict[str, list[Move]] = {}
    for move in rules.next_steps(position):
        if not move.steps:
            continue  # ``end``: offered apart
        if node is None or move.origin == node:
            by_origin.setdefault(move.origin, []).append(move)
    order = {name: k for k, name in enumerate(rules.topology.nodes)}
    out = []
    for origin in sorted(by_origin, key=lambda o: order.get(o, 0)):
        moves = by_origin[origin]
        targets = {t for m in moves for s in m.steps for t in (s.target, *s.captures)}
        symbols = "".join(p.symbol for p in rules.pieces_at(position, origin))
        out.append(PieceSteps(origin, symbols,
                              tuple(sorted({rules.format_move(position, m) for m in moves})),
                              tuple(sorted(targets - {origin}, key=lambda t: order.get(t, 0))),
                              piece_words(rules, symbols)))
    return out


def if_my_turn_words(game_id: int, piece: PieceSteps, listed: str) -> Text:
    """What a waiting player's piece could do were it their turn (`Turns.steps_if_my_turn`);
    ``listed``: its steps as the transport writes them."""
    if not piece.steps:
        return _("It is not your turn in game #{game}; if it were, your {piece} on {point} "
                 "could not move.", game=game_id, piece=piece.name, point=piece.origin)
    return _n("It is not your turn in game #{game}; if it were, your {piece} on {point} "
              "could make {n} move: {moves}.", "It is not your turn in game #{game}; if it "
              "were, your {piece} on {point} could make {n} moves: {moves}.",
              len(piece.steps), game=game_id, piece=piece.name, point=piece.origin,
              moves=listed)


def piece_words(rules: Variant, symbols: str) -> str:
    """The pieces of ``symbols`` (a point's piece or stack as the position writes it, of
    either side: ``n``, ``TI``, ``+T``) in the rules' words, capitalised the same for both
    sides: ``Knight``, ``Tank + Infantry``, ``Hero Tank``, a message worded in the reader's
    language where the rules name their pieces by the engine's phrases; the symbols
    themselves for a variant without names."""
    words: list[str] = []
    hero = False
    for symbol in symbols:
        if symbol == "+":
            hero = True
            continue
        name = rules.piece_names.get(symbol.upper())
        if name:
            word = name[0].upper() + name[1:].lower()
            if isinstance(name, Phrase):  # the catalogue has it (as ``Knight`` for ``kNight``)
                word = name if word == name else Text(word, {})
            words.append(_("Hero {piece}", piece=word) if hero else word)
            hero = False
    return joined(words, " + ") if words else symbols


@dataclass(frozen=True)
class TurnEntry:
    """One turn of a game's move list, as the game's record writes it: ``3...`` (its
    `label`) and ``Ng8-f6, Md7-d6`` (its `text`), played by ``side`` from step ``first`` to
    step ``last`` (the position after ``first`` steps comes before it, the one after
    ``last`` steps after it)."""

    label: str
    text: str
    side: int
    first: int
    last: int
    complete: bool  # False: the turn goes on (its steps so far)

    @property
    def line(self) -> str:
        """The numbered line, ``3... Ng8-f6, Md7-d6``; a turn in progress ends in `` …``."""
        return f"{self.label} {self.text}" + ("" if self.complete else " …")


def turn_entries(game: Game, played: Sequence[PlayedMove], *,
                 strict: bool = True) -> list[TurnEntry]:
    """The turns of ``played`` (a game's stored steps, or the first of them) numbered and
    written as the game's record writes them: a turn entered step by step is one entry, the
    variant's text for the whole turn (a deploy closed by ``end`` is its full SAN, a
    Chieftain turn is the same entry however it was typed); a turn in progress lists its
    steps so far. Every move list (the web page, the pictures, the mails, the record) is
    made of these. A stored position that does not read is `DamagedGame`; not
    ``strict``, the turn after it lists its steps as played instead."""
    rules = get_variant(game.variant)
    start = rules.parse_position(game.start_fen)
    turns: list[list[PlayedMove]] = []
    for step in played:
        if not turns or turns[-1][0].turn != step.turn:
            turns.append([])
        turns[-1].append(step)
    entries = []
    for k, steps in enumerate(turns):
        texts = [s.text for s in steps]
        complete = not steps[-1].partial
        text = STEP_SEPARATOR.join(texts)
        if complete and len(texts) > 1:
            try:
                text = whole_turn(rules, _before(rules, game, played, steps[0].ply), texts)
            except DamagedGame:
                if strict:
                    raise
        entries.append(TurnEntry(turn_label(start, k), text, steps[0].side, steps[0].ply,
                                 steps[-1].ply + 1, complete))
    return entries


def numbered_turns(game: Game, played: Sequence[PlayedMove]) -> list[str]:
    """The turns of ``played`` as numbered record lines (``3... Ng8-f6, Md7-d6``,
    `turn_entries`); a turn in progress shows its steps so far."""
    return [entry.line for entry in turn_entries(game, played)]


def last_turn_moves(game: Game, played: Sequence[PlayedMove]) -> list[Move]:
    """Every step of the turn that the last of ``played`` belongs to (the whole turn an
    ``end`` closes, or the steps so far of a turn in progress), to mark on the picture of
    the position after ``played``."""
    if not played:
        return []
    last = played[-1]
    rules = get_variant(game.variant)
    moves = []
    for step in played:
        if step.turn != last.turn or step.text == END:
            continue
        before = _before(rules, game, played, step.ply)
        try:
            moves.append(rules.parse_move(before, step.text))
        except EngineError:  # a stored step always reads; a picture must never fail
            continue
    return moves


def turn_ends(game: Game, played: Sequence[PlayedMove]) -> dict[str, int]:
    """Each turn's label (``3.``, ``3...``) with the step count after it (a turn in
    progress: after its steps so far), ``0`` being the start."""
    start = get_variant(game.variant).parse_position(game.start_fen)
    ends = {"0": 0}
    for step in played:
        ends[turn_label(start, step.turn)] = step.ply + 1
    return ends


def find_turn(ends: dict[str, int], text: str) -> int | None:
    """The step count after the turn ``text`` names: ``3.`` (the first side's third turn),
    ``3...`` or ``3…`` (the second side's), ``3`` (the last of the two played), ``0`` (the
    start); None when the game has no such turn."""
    text = text.strip().replace("…", "...")
    if text.endswith("."):
        return ends.get(text)
    return ends.get(f"{text}...", ends.get(f"{text}.", ends.get(text)))


def _before(rules: Variant, game: Game, played: Sequence[PlayedMove], ply: int) -> Position:
    """The position before step ``ply``, from the stored position after the step before
    (`DamagedGame` if it does not read)."""
    try:
        return rules.parse_position(played[ply - 1].fen if ply else game.start_fen)
    except (EngineError, ValueError, IndexError, TypeError) as err:
        raise DamagedGame(game.id) from err


@guard  # every argument of every public method is checked before it runs
class Turns:
    """Whole turns, their numbers and the steps offered next (`GameService.turns`): reads
    a game's played moves and positions through the service's own readers."""

    def __init__(self, played_moves: Callable[[int], Awaitable[list[PlayedMove]]],
                 position: Callable[..., Awaitable[Position]]) -> None:
        self.played_moves = played_moves
        self.position = position  # the position now, or after a step

    async def turn_moves(self, game: Game, ply: int | None = None) -> list[Move]:
        """Every step of the turn that ends with step ``ply`` (default: now), to mark on
        a picture: the whole last turn, or the steps so far of a turn in progress."""
        ply = game.ply if ply is None else max(0, min(ply, game.ply))
        if ply == 0:
            return []
        return last_turn_moves(game, (await self.played_moves(game.id))[:ply])

    async def turn_lines(self, game: Game, last: int | None = None) -> tuple[list[str], int]:
        """The game's turns as numbered record lines (`numbered_turns`), only the ``last``
        ones if given, and how many turns there are."""
        try:
            lines = numbered_turns(game, await self.played_moves(game.id))
        except (EngineError, ValueError, IndexError) as err:  # stored steps that do not read
            raise DamagedGame(game.id) from err
        return (lines if last is None else lines[-last:]), len(lines)

    async def step_choices(self, game: Game, node: str | None = None) -> list[PieceSteps]:
        """The steps the player to move may make next, grouped by piece."""
        if game.is_over:
            return []
        rules = get_variant(game.variant)
        position = await self.position(game)
        return group_steps(rules, position, node.strip().lower() if node else None)

    async def steps_if_my_turn(self, game: Game, player: Player,
                               node: str) -> PieceSteps | None:
        """While ``player`` waits for the opponent: the steps their piece on ``node`` could
        make were it their turn (`Variant.as_if_to_move`; no steps: it could not move), to
        plan conditional moves. None when it is their turn, they do not play, the game is
        over or no piece of theirs stands there."""
        side = game.side_of(player.id)
        rules = get_variant(game.variant)
        node = node.strip().lower()
        if game.is_over or side is None or side == game.to_move \
                or node not in rules.topology.index:
            return None
        position = await self.position(game)
        pieces = rules.pieces_at(position, node)
        if not pieces or any(p.side != side for p in pieces):
            return None
        found = group_steps(rules, rules.as_if_to_move(position, side), node)
        if found:
            return found[0]
        symbols = "".join(p.symbol for p in pieces)
        return PieceSteps(node, symbols, (), (), piece_words(rules, symbols))

    async def can_end_turn(self, game: Game) -> bool:
        """Whether the player to move has a turn in progress that `end` may close."""
        return not game.is_over and (await self.position(game)).in_progress

    def steps_left(self, game: Game, position: Position) -> int | None:
        """How many more steps the turn in progress allows (None: no fixed count)."""
        return get_variant(game.variant).steps_left(position)
