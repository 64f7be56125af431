"""What a web page shows of a game: read once per change of the game, then shared by
every page, picture and event about it.

Only what the players themselves see is read: display names (an e-mail address is cut
to its local part, `public_name`), sides and their colours, ratings, the moves, whose turn it is and
until when, and the result. Addresses, tokens and preferences never leave the service.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from engine import EngineError, Move, Position, Variant, get_variant

from ..i18n import SOURCE, Text, _, render
from ..service import GameService
from ..service.model import Game, PlayedMove
from ..service.records import STEP_SEPARATOR
from ..service.turns import TurnEntry, last_turn_moves, turn_entries
from ..storage import DamagedGame

# the domain of an address: after an "@" that ends a word, one or more labels (``localhost``
# has no dot) or a bracketed literal (``[127.0.0.1]``); the labels are bounded and split by
# dots, so the match is linear in the text
DOMAIN = re.compile(r"(?<=[^\s@])@(?:\[[^\]\s]{1,255}\]|[\w-]{1,63}(?:\.[\w-]{1,63})*)")
SIDE_COLOURS = ("white", "black", "red", "blue")  # each a class of the page's stylesheet


def public_name(text: str) -> str:
    """A name (or a text naming players) as strangers may see it: an e-mail address loses
    its domain, whatever its shape (``zoe@localhost`` is ``zoe@…``)."""
    return DOMAIN.sub("@…", text)


def side_colour(variant: Variant, side: int) -> str:
    """The colour of a side's pieces, as a name the stylesheet knows."""
    name = variant.side_names[side].lower()
    return name if name in SIDE_COLOURS else SIDE_COLOURS[min(side, 1)]


def version_text(revision: int, status: str, updated_at: float) -> str:
    """A game's version: it changes whenever anything a spectator sees changes."""
    return f"{revision}.{status}.{updated_at!r}"


@dataclass(frozen=True)
class Side:
    """One player as a page shows them."""

    name: str
    side_name: str
    colour: str  # white, black, red or blue
    rating: int
    provisional: bool


@dataclass(frozen=True)
class Step:
    """One stored step: the position after it is ``ply``."""

    ply: int
    turn: int
    side: int
    text: str


@dataclass(frozen=True)
class GameView:
    """A game at one version: everything its pages, pictures and events need."""

    game: Game
    variant: Variant
    sides: tuple[Side, Side]
    steps: tuple[Step, ...]
    fens: tuple[str, ...]  # the position after each ply, the start first
    said: Text  # who is to move (and by when: the deadline follows), or how the game ended
    said_briefly: Text  # the same without the deadline's words, for a list of games
    played: tuple[PlayedMove, ...]  # the stored steps
    entries: tuple[TurnEntry, ...]  # the move list, one entry a turn, as the record

    @property
    def status(self) -> str:
        """Who is to move, or how the game ended, in English as strangers may read it."""
        return self.status_in(SOURCE)

    def status_in(self, language: str, briefly: bool = False) -> str:
        """`status` in ``language`` (``briefly``: without the deadline's words)."""
        return public_name(render(self.said_briefly if briefly else self.said, language))

    @property
    def version(self) -> str:
        return version_text(self.game.revision, self.game.status, self.game.updated_at)

    @property
    def last_ply(self) -> int:
        return len(self.fens) - 1

    @property
    def deadline(self) -> str | None:
        """The deadline as an ISO 8601 time in UTC, when the clock runs."""
        d = self.game.clock.deadline
        if self.game.is_over or d is None or self.game.clock.paused:
            return None
        return datetime.fromtimestamp(d, UTC).isoformat(timespec="seconds").replace("+00:00",
                                                                                     "Z")

    def clamp(self, ply: int | None) -> int:
        return self.last_ply if ply is None else max(0, min(ply, self.last_ply))

    def position(self, ply: int) -> Position:
        """The position after ``ply`` steps (`DamagedGame` if its stored text does not
        read)."""
        try:
            return self.variant.parse_position(self.fens[ply])
        except (EngineError, ValueError, IndexError, TypeError) as err:
            raise DamagedGame(self.game.id) from err

    def last_move(self, ply: int) -> list[Move]:
        """Every step of the turn that ``ply`` ends or goes on (an ``end`` step: the
        whole turn it closes), to mark on its picture."""
        if ply == 0:
            return []
        try:
            return last_turn_moves(self.game, self.played[:ply])
        except DamagedGame:
            return []

    def entry_at(self, ply: int) -> TurnEntry | None:
        """The turn whose step led to ``ply`` (None: the start)."""
        return next((e for e in self.entries if e.first < ply <= e.last), None)

    def turn_text(self, ply: int) -> str:
        """The turn that ``ply`` ends or goes on, as far as ``ply``: the move list's text
        once it is over (a deploy closed by ``end``: its full SAN), else its steps so far
        and `` …``."""
        entry = self.entry_at(ply)
        if entry is None:
            return ""
        if ply == entry.last:
            return entry.text if entry.complete else f"{entry.text} …"
        return STEP_SEPARATOR.join(s.text for s in self.steps[entry.first:ply]) + " …"

    def picture_key(self, ply: int) -> str:
        """Names the picture of ``ply`` by what it shows, so a URL never changes meaning
        (a takeback makes the same ply another position) and may be cached for ever: the
        game and its players (the header), the steps played up to ``ply`` (the losses, the
        last moves and the marks of the turn so far are read from them) and the result."""
        history = " | ".join(s.text for s in self.steps[:ply])
        names = " | ".join(side.name for side in self.sides)
        seed = (f"{self.game.id}|{self.game.variant}|{names}|{self.fens[ply]}|{history}|"
                f"{self.result_on(ply)}")
        return hashlib.sha256(seed.encode()).hexdigest()[:16]

    def result_on(self, ply: int, language: str = SOURCE) -> str:
        """The result written on the picture of ``ply`` (the last one of a finished game),
        worded in ``language``."""
        return self.status_in(language) if self.game.is_over and ply == self.last_ply else ""

    def alt_text(self, ply: int, language: str = SOURCE) -> str:
        """The position in words, pieces by square, for people who cannot see the picture."""
        position = self.position(ply)
        names = self.variant.piece_names
        per_side: list[list[Text]] = [[], []]
        for node in self.variant.topology.nodes:
            for piece in self.variant.pieces_at(position, node):
                name = names.get(piece.letter, piece.letter)
                per_side[piece.side].append(
                    _("heroic {piece} {point}", piece=name, point=str(node)) if piece.heroic
                    else _("{piece} {point}", piece=name, point=str(node)))
        variant = self.variant.display_name
        parts = [_("{variant} board at the start.", variant=variant) if ply == 0 else
                 _("{variant} board at step {ply} ({turn}).", variant=variant, ply=ply,
                   turn=self.turn_text(ply))]
        for side in (0, 1):
            side_name = self.variant.side_names[side]
            parts.append(_("{side}: {pieces}.", side=side_name, pieces=", ".join(
                render(piece, language) for piece in per_side[side])) if per_side[side]
                else _("{side}: no pieces.", side=side_name))
        parts.append(_("{side} to move.", side=self.variant.side_names[position.side]))
        return " ".join(part.render(language) for part in parts)


def describe(service: GameService, game: Game, variant: Variant,
             briefly: bool = False) -> Text:
    """Whose turn it is (ending in the words that the deadline follows, unless
    ``briefly``), or how the game ended. Names as stored: `GameView.status_in` hides the
    addresses."""
    if game.is_over:
        return _("Game over: {result}.", result=service.describe_result(game))
    side = game.to_move
    name, side_name = game.names[side], variant.side_names[side]
    if game.clock.paused:
        return _("{name} ({side}) to move; the clock is paused (vacation).", name=name,
                 side=side_name)
    if game.clock.deadline is None:
        return _("{name} ({side}) to move.", name=name, side=side_name)
    if briefly:
        return _("{name} ({side}) to move", name=name, side=side_name)
    return _("{name} ({side}) to move, by", name=name, side=side_name)


async def read_view(service: GameService, game: Game) -> GameView:
    """The view of ``game`` as stored now."""
    variant = get_variant(game.variant)
    played: list[PlayedMove] = await service.played_moves(game.id)
    sides = []
    for side in (0, 1):
        player = await service.get_player(game.players[side])
        rating, count = (await service.standings.rating(player, game.variant) if player
                         else (None, 0))
        sides.append(Side(public_name(game.names[side]), variant.side_names[side],
                          side_colour(variant, side),
                          round(rating.rating) if rating else 1500, count == 0))
    steps = tuple(Step(p.ply + 1, p.turn, p.side, p.text) for p in played)
    fens = (game.start_fen, *(p.fen for p in played))
    try:
        # a position that does not read damages the pages showing it, not the game's list
        entries = tuple(turn_entries(game, played, strict=False))
    except (EngineError, ValueError, IndexError, TypeError) as err:
        raise DamagedGame(game.id) from err
    return GameView(game, variant, (sides[0], sides[1]), steps, fens,
                    describe(service, game, variant), describe(service, game, variant, True),
                    tuple(played), entries)
