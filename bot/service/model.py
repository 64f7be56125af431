"""The service's state as plain values: players, challenges, games, played moves and
notifications, each read from one database row.

A *place* is where a game is played and followed, written ``transport:where`` (for
example ``console:local`` or ``discord:1234567890``); notifications about a place are
delivered by that transport.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import EngineError, get_variant

from ..storage import DamagedGame
from .clock import TurnClock, read
from .words import read_ending, shown_name

Row = Mapping[str, Any]
log = logging.getLogger(__name__)
_TOLD_DAMAGED: set[int | None] = set()  # damaged games already logged by this process
_TOLD_DAMAGED_PLAYERS: set[object] = set()


def place_transport(place: str) -> str:
    """The transport that serves ``place`` (the part before the first colon)."""
    return place.split(":", 1)[0]


@dataclass(frozen=True)
class Player:
    """Someone known to a transport: a console name, a Discord user, an e-mail address."""

    id: int
    transport: str
    address: str
    display_name: str
    preferences: Mapping[str, Any] = field(default_factory=dict)
    vacation_until: float | None = None

    @classmethod
    def from_row(cls, row: Row) -> Player:
        return cls(row["id"], row["transport"], row["address"],
                   shown_name(row["display_name"], row["transport"]),
                   _preferences(row["id"], row["preferences"]), row["vacation_until"])

    def on_vacation(self, now: float) -> bool:
        return self.vacation_until is not None and self.vacation_until > now


@dataclass(frozen=True)
class Challenge:
    """An invitation to a game, to one opponent or to anyone in the place."""

    id: int
    challenger_id: int
    challenger_name: str
    opponent_id: int | None
    opponent_name: str | None
    place: str
    variant: str
    mode: str
    side: int | None  # the challenger's side; None: chosen at random on acceptance
    days: int | None
    start_fen: str | None
    rated: bool
    status: str  # open, accepted, declined, cancelled, expired
    game_id: int | None
    created_at: float
    expires_at: float
    record: str | None = None  # the record of a game to continue (an import), if any
    time_control: str | None = None  # a clock choice beyond days per move (bot.service.timecontrol)

    CHALLENGE_SQL = """SELECT c.*, a.display_name AS challenger_name,
                              b.display_name AS opponent_name, b.transport AS opponent_transport
                       FROM challenges c JOIN players a ON a.id = c.challenger_id
                       LEFT JOIN players b ON b.id = c.opponent_id"""

    @classmethod
    def from_row(cls, row: Row) -> Challenge:
        opponent = row["opponent_name"] and shown_name(row["opponent_name"], (
            row["opponent_transport"] if "opponent_transport" in row.keys() else None))
        return cls(row["id"], row["challenger_id"], shown_name(row["challenger_name"], None),
                   row["opponent_id"], opponent, row["place"], row["variant"], row["mode"],
                   row["side"], row["days"], row["start_fen"], bool(row["rated"]), row["status"],
                   row["game_id"], row["created_at"], row["expires_at"],
                   row["record"] if "record" in row.keys() else None,
                   row["time_control"] if "time_control" in row.keys() else None)


@dataclass(frozen=True)
class Game:
    """A game as stored: who plays which side, where, the position now and the clock."""

    id: int
    variant: str
    mode: str
    place: str
    players: tuple[int, int]  # player ids by side
    names: tuple[str, str]
    transports: tuple[str, str]
    vacation_until: tuple[float | None, float | None]
    start_fen: str
    fen: str
    to_move: int
    ply: int  # move rows so far: the move number a new move is expected to have
    turns: int  # completed turns
    revision: int  # changes whenever the move list changes
    status: str  # active, over, aborted
    result: str  # 1-0, 0-1, 1/2-1/2, *
    winner: int | None
    reason: str  # how it ended: a catalogue message (stored as its data: `words.read_ending`)
    rated: bool
    days: int | None
    clock: TurnClock
    draw_offer: int | None
    takeback_offer: int | None
    created_at: float
    updated_at: float
    ended_at: float | None
    time_control: str | None = None  # a clock choice beyond days per move (bot.service.timecontrol)
    banks: tuple[float | None, float | None] = (None, None)  # Fischer: seconds in each bank
    spent: tuple[float | None, float | None] = (None, None)  # seconds each side has used

    GAME_SQL = """SELECT g.*, a.display_name AS name0, b.display_name AS name1,
                         a.transport AS transport0, b.transport AS transport1,
                         a.vacation_until AS vacation0, b.vacation_until AS vacation1
                  FROM games g JOIN players a ON a.id = g.player0
                  JOIN players b ON b.id = g.player1"""

    @classmethod
    def from_row(cls, row: Row) -> Game:
        """The game of a row; a row that cannot be one (a damaged file: a column missing,
        a value of the wrong kind) raises `DamagedGame`."""
        try:
            game = cls._of_row(row)
        except (IndexError, KeyError, ValueError, TypeError) as err:
            raise DamagedGame(_row_id(row)) from err
        if not (all(isinstance(v, int) for v in (game.id, game.ply, game.turns, game.revision))
                and game.to_move in (0, 1) and game.ply >= 0 and _known(game.variant)
                and game.status in STATUSES and game.winner in (None, 0, 1)
                and all(isinstance(v, str) for v in (game.fen, game.start_fen, game.place,
                                                     game.result, game.reason, game.mode))
                and all(v is None or (isinstance(v, int | float) and not isinstance(v, bool))
                        for v in _numbers(game))
                and _readable_clock(game.time_control)):
            raise DamagedGame(_row_id(row))
        return game

    @classmethod
    def readable(cls, rows: Iterable[Row]) -> list[Game]:
        """The games of ``rows`` that can be read (a damaged one is left out, and logged:
        a list of games must not fail for one damaged game)."""
        games = []
        for row in rows:
            try:
                games.append(cls.from_row(row))
            except DamagedGame as err:
                if err.game_id not in _TOLD_DAMAGED:  # once per game and process, not per list
                    _TOLD_DAMAGED.add(err.game_id)
                    log.error("%s", err)
        return games

    @classmethod
    def _of_row(cls, row: Row) -> Game:
        return cls(
            row["id"], row["variant"], row["mode"], row["place"],
            (row["player0"], row["player1"]),
            (shown_name(row["name0"], row["transport0"]),
             shown_name(row["name1"], row["transport1"])),
            (row["transport0"], row["transport1"]), (row["vacation0"], row["vacation1"]),
            row["start_fen"], row["fen"], row["to_move"], row["ply"], row["turns"],
            row["revision"], row["status"], row["result"], row["winner"],
            read_ending(row["reason"]),
            bool(row["rated"]), row["days"],
            TurnClock(row["deadline"], row["reminder_due"], row["paused_remaining"]),
            row["draw_offer"], row["takeback_offer"], row["created_at"], row["updated_at"],
            row["ended_at"], *_clock_choice(row))

    @property
    def is_over(self) -> bool:
        return self.status != "active"

    def side_of(self, player_id: int) -> int | None:
        """The side ``player_id`` plays, or None for a spectator."""
        if player_id == self.players[0]:
            return 0
        if player_id == self.players[1]:
            return 1
        return None

    def on_vacation(self, side: int, now: float) -> bool:
        until = self.vacation_until[side]
        return until is not None and until > now


STATUSES = ("active", "over", "aborted")


def _numbers(game: Game) -> tuple[object, ...]:
    """The stored numbers of a game that may be empty (a clock's times, offers, ...)."""
    return (game.days, game.clock.deadline, game.clock.reminder_due,
            game.clock.paused_remaining, game.draw_offer, game.takeback_offer, game.created_at,
            game.updated_at, game.ended_at, *game.banks, *game.spent)


def _readable_clock(time_control: object) -> bool:
    """Whether a game's stored clock choice reads (None: the days per move)."""
    if time_control is None:
        return True
    try:
        return isinstance(time_control, str) and read(time_control) is not None
    except (ValueError, TypeError, IndexError):
        return False


def _preferences(player_id: object, stored: object) -> dict[str, Any]:
    """A player's stored preferences; damaged ones read as none chosen (the defaults), so
    that one player's damaged row stops nobody, and are logged once."""
    try:
        found = json.loads(stored) if isinstance(stored, str) else None
    except ValueError:
        found = None
    if isinstance(found, dict):
        return found
    if player_id not in _TOLD_DAMAGED_PLAYERS:
        _TOLD_DAMAGED_PLAYERS.add(player_id)
        log.error("player #%s: the stored preferences are damaged; the defaults apply",
                  player_id)
    return {}


def _known(variant: object) -> bool:
    """Whether ``variant`` names a variant (a game of another is a damaged row)."""
    try:
        return isinstance(variant, str) and get_variant(variant).name == variant
    except EngineError:
        return False


def _row_id(row: Row) -> int | None:
    try:
        found = row["id"]
    except (IndexError, KeyError):
        return None
    return found if isinstance(found, int) else None


def _clock_choice(row: Row) -> tuple[str | None, tuple[float | None, float | None],
                                     tuple[float | None, float | None]]:
    """A game row's clock choice, Fischer banks and time spent (absent before migration
    13)."""
    if "time_control" not in row.keys():
        return None, (None, None), (None, None)
    return row["time_control"], (row["bank0"], row["bank1"]), (row["spent0"], row["spent1"])


@dataclass(frozen=True)
class PlayedMove:
    """One stored step of a game: its canonical text and the position after it."""

    ply: int
    turn: int  # completed turns before it
    side: int
    text: str  # canonical move text, or "end"
    fen: str
    partial: bool  # the turn goes on after it
    played_at: float

    @classmethod
    def from_row(cls, row: Row) -> PlayedMove:
        return cls(row["ply"], row["turn"], row["side"], row["text"], row["fen"],
                   bool(row["partial"]), row["played_at"])


@dataclass(frozen=True)
class Post:
    """A message a transport posted about a game: where it is."""

    game_id: int
    kind: str
    channel: str
    message: str


@dataclass(frozen=True)
class Notification:
    """A message waiting in the outbox for its transport to deliver it."""

    id: int
    transport: str
    player_id: int | None  # None: addressed to the place
    address: str | None  # the recipient's address on the transport
    place: str | None
    game_id: int | None
    kind: str
    text: str
    created_at: float
    lane: str = ""  # one destination's news of one game: delivered in order
    attempts: int = 0  # tries so far
    failure: str | None = None  # why the last try failed
    failed_at: float | None = None  # set with the verdict: given up on
    next_attempt_at: float | None = None  # when a failed try is tried again
    payload: Mapping[str, Any] = field(default_factory=dict)  # what the transport needs besides

    @classmethod
    def from_row(cls, row: Row) -> Notification:
        return cls(row["id"], row["transport"], row["player_id"], row["address"], row["place"],
                   row["game_id"], row["kind"], row["text"], row["created_at"], row["lane"],
                   row["attempts"], row["failure"], row["failed_at"], row["next_attempt_at"],
                   json.loads(row["payload"]) if row["payload"] else {})
