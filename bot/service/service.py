"""The game service: the one API that every transport (console, Discord, e-mail) calls.

Every command is one database transaction. Game commands are validated in a fixed order —
the game exists, it is not over, the sender plays in it, the position is the one the sender
saw (when they say which), it is their turn, the move is legal — and a refusal is a
`Refusal` value with a clear message, never an exception. Everything about the rules comes
from the game's `Variant`; the service never asks which variant it is.

A move is stored as a row with the position after it, so showing a game never replays it;
a turn of several steps is several rows, the turn going on while the position says it is
in progress. Notifications are written to the outbox in the transaction that causes them.
Time comes from an injected ``now()`` callable; timeouts, reminders, expiring challenges
and ending vacations are applied by `bot.service.scheduler` through the ``process_*`` methods.

This module holds players, games, moves and the end of a game; each other topic is an
object of its own module in `bot.service`, which the service builds with only what it uses
(the database, the clock, the settings, a reader or writer of games from this module, or
another topic), and which transports reach as an attribute: `service.challenges.accept`,
`service.vacations.start`, `service.archive.export`. The topics: challenges (`challenges`),
vacations (`vacations`), ratings (`standings`), game records (`archive`), game keys for
e-mail (`tokens`), what e-mail remembers (`mail`, module `mail_ledger`), rooms, watchers and
server settings (`rooms`), remembered messages and digests (`posts`), whole turns
(`turns`), the game a command means (`inference`), notes (`notes`), conditional moves
(`forecasts`), clock choices (`clocks`, module `timecontrol`) and watching games from the
web (`watching`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from engine import (
    EngineError,
    MoveSyntaxError,
    Position,
    Variant,
    get_variant,
)

from ..config import Settings
from ..i18n import Text, _, _n, joined
from ..storage import (
    DamagedDatabase,
    DamagedGame,
    Database,
    Session,
    StorageError,
    open_database,
)
from . import outbox
from .answers import Recording
from .archive import Archive
from .boundary import guard
from .challenges import ChallengeDesk, game_started
from .clock import (
    Clock,
    TurnClock,
    format_duration,
    start_turn,
    system_clock,
)
from .forecasts import Forecasts, answer_ready, drop_forecasts, recorded_lines
from .inference import GameInference
from .mail_ledger import MailLedger
from .model import Game, Notification, PlayedMove, Player, place_transport
from .notes import Notes
from .phrasing import COMPUTER, command, describe_result, moment, phrase, players_line
from .posts import Posts
from .records import END, turn_label
from .results import Done, Reason, Refusal, Result, move_refusal
from .rooms import Rooms
from .sent_lines import SentLines
from .standings import Standings, rate
from .timecontrol import TimeControls, clock_again, next_clock, opening_clock, store_clock
from .tokens import GameTokens
from .tournaments import Tournaments
from .tournaments import next_due as tournaments_due
from .turns import Turns, whole_turn
from .vacations import Vacations
from .watching import Watching
from .words import (
    ABORTED_BY,
    BY_AGREEMENT,
    RAN_OUT,
    RESIGNED,
    ending,
    side_name,
    stored_ending,
    variant_name,
)

CACHED_GAMES = 512
OFFERS = {"draw": ("draw_offer", "draw-offer"),  # what is offered: its column, its news
          "takeback": ("takeback_offer", "takeback-request")}
SLOW_RULES = 0.002  # seconds of rules work that send it to a worker thread
T = TypeVar("T")
_rules_seconds: dict[str, float] = {}  # per variant: the average time of its rules work
log = logging.getLogger(__name__)


@dataclass
class _Line:
    """A game's positions, kept between commands so that a move re-reads none of them."""

    revision: int
    ply: int  # the steps played: a line behind by moves only reads the moves after them
    position: Position
    boundaries: list[Position]  # positions where a turn ended, the start first
    # what the transaction that reached this position has read already, for the answer of
    # a recorded line after it (never cached: see `_keep`): the steps of the turn that led
    # here, and the lines the player to move has recorded
    turn_steps: list[str] | None = None
    answers: list[dict[str, Any]] | None = None


async def _rules_work(rules: Variant, work: Callable[..., T], *args: object) -> T:
    """``work(*args)``: in a worker thread while the variant's rules work takes more than
    `SLOW_RULES` seconds on average, so that other players are served meanwhile; on the
    event loop otherwise, where a quick variant's work costs less than a thread hop."""
    if _rules_seconds.get(rules.name, 0.0) > SLOW_RULES:
        return await asyncio.to_thread(_timed, rules.name, work, *args)
    return _timed(rules.name, work, *args)


def _timed(variant: str, work: Callable[..., T], *args: object) -> T:
    started = time.perf_counter()
    try:
        return work(*args)
    finally:  # a moving average: one slow call on a busy machine changes little
        spent = time.perf_counter() - started
        _rules_seconds[variant] = 0.9 * _rules_seconds.get(variant, spent) + 0.1 * spent


def _play(rules: Variant, position: Position, text: str) -> tuple[str, Position]:
    """The record's text of the move ``text`` (canonical, a turn's moves in the order
    given) and the position after it (EngineError if it cannot be played)."""
    move = rules.parse_move(position, text)
    return rules.record_text(position, move, text), rules.make_move(position, move)


def _legal_texts(rules: Variant, position: Position, node: str | None) -> list[str]:
    moves = rules.legal_moves(position)
    if node is not None:
        node = node.strip().lower()
        moves = [m for m in moves if m.origin == node]
    return sorted(rules.format_move(position, m) for m in moves)


def _score(winner: int | None) -> str:
    return {0: "1-0", 1: "0-1"}.get(winner, "1/2-1/2")  # type: ignore[arg-type]


# the service's topics: its attribute, and the class of the object there
TOPICS: dict[str, type] = {
    "challenges": ChallengeDesk, "vacations": Vacations, "standings": Standings,
    "archive": Archive, "tokens": GameTokens, "rooms": Rooms, "posts": Posts, "turns": Turns,
    "inference": GameInference, "mail": MailLedger, "notes": Notes, "forecasts": Forecasts,
    "clocks": TimeControls, "watching": Watching, "tournaments": Tournaments,
}


@guard  # every argument of every public method is checked before the method runs
class GameService:
    """Players, games, moves and the end of a game, with one object per other topic:
    `challenges`, `vacations`, `standings`, `archive`, `tokens`, `rooms`, `posts`, `turns`,
    `inference`, `mail`, `notes`, `forecasts`, `clocks` and `watching` (each built with
    what it uses, below)."""

    def __init__(self, db: Database, settings: Settings | None = None, now: Clock = system_clock,
                 rng: random.Random | None = None) -> None:
        self.db = Recording(db, now)  # records the answer a transport owes (bot.service.answers)
        self.settings = settings or Settings()
        self.now = now
        self.rng = rng or random.Random()
        self._lines: OrderedDict[int, _Line] = OrderedDict()
        self.sent_lines = SentLines(self.db, now)  # what the e-mail transport sent
        db, settings = self.db, self.settings
        self.standings = Standings(db)
        self.clocks = TimeControls(db)
        self.tokens = GameTokens(db, now)
        self.posts = Posts(db, now)
        self.mail = MailLedger(db, now)
        self.watching = Watching(db, now, settings, read_game=self._game)
        self.turns = Turns(played_moves=self.played_moves, position=self.position)
        self.inference = GameInference(game=self.game, games=self.games, position=self.position)
        self.notes = Notes(db, now, read_game=self._game, game=self.game,
                           played_moves=self.played_moves)
        self.rooms = Rooms(db, now, finish=self._finish)
        self.vacations = Vacations(db, now, settings)
        self.forecasts = Forecasts(db, now, open_game=self._open, line=self._line,
                                   keep=self._keep, advance=self._advance)
        self.archive = Archive(db, now, settings, read_game=self._game,
                               create_game=self._create_game, finish=self._finish,
                               game_link=self.watching.game_link, notes=self.notes.read)
        self.challenges = ChallengeDesk(db, now, settings, self.rng,
                                        create_game=self._create_game,
                                        accept_import=self.archive._accept_import)
        self.tournaments = Tournaments(db, now, settings, self.rng,
                                       create_game=self._create_game, finish=self._finish,
                                       read_game=self._game)

    @classmethod
    async def open(cls, settings: Settings | None = None, now: Clock = system_clock,
                   rng: random.Random | None = None) -> GameService:
        """The service on the configured database, its schema brought up to date."""
        settings = settings or Settings.from_env()
        try:
            db = await open_database(settings.db_path, settings.db_sync, now=now)
        except DamagedDatabase as err:
            if settings.db_damaged != "start":
                raise
            log.warning("starting on a damaged database, as told: %s", err)
            db = await open_database(settings.db_path, settings.db_sync, now=now, check=False,
                                     settle_log=True)
        return cls(db, settings, now, rng)

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- players --------------------------------------------------------------------
    async def player(self, transport: str, address: str,
                     display_name: str | None = None) -> Player | Refusal:
        """The player known to ``transport`` as ``address``, created on first sight; a new
        ``display_name`` replaces the old one. Both are cleaned first (`bot.service.boundary`); an
        address with nothing left is refused."""
        name = (display_name or address).strip()
        async with self.db.snapshot() as s:
            row = await s.one("SELECT * FROM players WHERE transport = ? AND address = ?",
                              (transport, address))
        if row is not None and (display_name is None or row["display_name"] == name):
            return Player.from_row(row)
        # a player created meanwhile by another command keeps its name unless one is given
        rename = "UPDATE SET display_name = excluded.display_name" if display_name else "NOTHING"
        async with self.db.transaction() as s:
            await s.execute(
                "INSERT INTO players (transport, address, display_name, created_at) "
                f"VALUES (?, ?, ?, ?) ON CONFLICT (transport, address) DO {rename}",
                (transport, address, name, self.now()))
            row = await s.one("SELECT * FROM players WHERE transport = ? AND address = ?",
                              (transport, address))
        assert row is not None
        return Player.from_row(row)

    async def get_player(self, player_id: int) -> Player | None:
        async with self.db.snapshot() as s:
            row = await s.one("SELECT * FROM players WHERE id = ?", (player_id,))
        return Player.from_row(row) if row else None

    async def find_player(self, transport: str, name: str) -> Player | Refusal:
        """The player of ``transport`` whose address or display name is ``name``."""
        async with self.db.snapshot() as s:
            rows = await s.all(
                "SELECT * FROM players WHERE transport = ? AND (address = ? OR "
                "display_name = ? COLLATE NOCASE) ORDER BY address = ? DESC, id",
                (transport, name, name, name))
        if not rows:
            return Refusal(Reason.NO_SUCH_PLAYER,
                           _("I do not know anyone called {name}.", name=repr(name)))
        if len(rows) > 1 and rows[0]["address"] != name:
            return Refusal(Reason.NO_SUCH_PLAYER,
                           _("Several players are called {name}; name the one you mean more "
                             "exactly.", name=repr(name)))
        return Player.from_row(rows[0])

    async def set_preference(self, player: Player, key: str, value: object) -> Player:
        """Store one preference of ``player`` (a JSON value)."""
        preferences = {**player.preferences, key: value}
        async with self.db.transaction() as s:
            await s.execute("UPDATE players SET preferences = ? WHERE id = ?",
                            (json.dumps(preferences, sort_keys=True), player.id))
        return replace(player, preferences=preferences)

    # --- starting games -------------------------------------------------------------
    async def _create_game(self, s: Session, rules: Variant, mode: str, place: str,
                           players: tuple[int, int], start: Position, rated: bool,
                           days: int | None, now: float, challenge_id: int | None,
                           answered: Collection[int] = (), announce: bool = True,
                           time_control: str | None = None) -> Game:
        """Store a new game and announce its start to its players and its place; a player
        in ``answered`` is told by the answer to their own command instead. Its clock choice
        is its challenge's, or ``time_control`` (a tournament's)."""
        fen = rules.format_position(start)
        game_id = await s.insert(
            "INSERT INTO games (variant, mode, place, player0, player1, start_fen, fen, to_move, "
            "status, rated, days, challenge_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)",
            (rules.name, mode, place, players[0], players[1], fen, fen, start.side, int(rated),
             days, challenge_id, now, now))
        game = await self._game(s, game_id)
        assert game is not None
        clock = start_turn(days, now, paused=game.on_vacation(start.side, now))
        clock = await opening_clock(s, game, challenge_id, start.side, now, clock,
                                    time_control)
        await store_clock(s, game.id, clock)
        game = await self._game(s, game.id)  # with the clock and its choice
        assert game is not None
        if not announce:
            return game
        text = game_started(game, rules)
        for side in (0, 1):
            if game.players[side] not in answered:
                await outbox.notify_side(s, game, side, "game-start", now, text)
        await outbox.notify(s, now, transport=place_transport(place), kind="game-start",
                            place=place, game_id=game.id,
                            text=phrase(text, place_transport(place)), message=text)
        return game

    # --- reading games --------------------------------------------------------------
    async def _game(self, s: Session, game_id: int) -> Game | None:
        """The game, None if there is none; `DamagedGame` if its row cannot be read or its
        position does not parse (checked once per revision)."""
        row = await s.one(Game.GAME_SQL + " WHERE g.id = ?", (game_id,))
        if row is None:
            return None
        game = Game.from_row(row)
        line = self._lines.get(game.id)
        if line is None or line.revision != game.revision:
            _parse(_rules_of(game), game.fen, game.id)
        return game

    async def game(self, game_id: int) -> Game | None:
        async with self.db.snapshot() as s:
            return await self._game(s, game_id)

    async def games(self, player: Player | None = None, place: str | None = None,
                    active: bool = True) -> list[Game]:
        """Games of ``player`` and/or in ``place``, active ones or finished ones."""
        clauses, params = ["g.status = 'active'" if active else "g.status != 'active'"], []
        if player is not None:
            clauses.append("(g.player0 = ? OR g.player1 = ?)")
            params += [player.id, player.id]
        if place is not None:
            clauses.append("g.place = ?")
            params.append(place)
        async with self.db.snapshot() as s:
            rows = await s.all(Game.GAME_SQL + " WHERE " + " AND ".join(clauses)
                               + " ORDER BY g.id", params)
        return Game.readable(rows)

    async def played_moves(self, game_id: int) -> list[PlayedMove]:
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        try:
            return [PlayedMove.from_row(r) for r in rows]
        except (IndexError, KeyError, ValueError, TypeError) as err:
            raise DamagedGame(game_id) from err

    async def position(self, game: Game, ply: int | None = None) -> Position:
        """The position now, or after the first ``ply`` steps (0: the start)."""
        rules = _rules_of(game)
        if ply is None or ply >= game.ply:
            line = self._lines.get(game.id)
            if line is not None and line.revision == game.revision:
                return line.position
            return _parse(rules, game.fen, game.id)
        if ply <= 0:
            return _parse(rules, game.start_fen, game.id)
        async with self.db.snapshot() as s:
            row = await s.one("SELECT fen FROM moves WHERE game_id = ? AND ply = ?",
                              (game.id, ply - 1))
        return _parse(rules, row["fen"] if row else game.fen, game.id)

    async def legal_moves(self, game: Game, node: str | None = None) -> list[str]:
        """The canonical texts of the legal moves now (only those from ``node``)."""
        rules = get_variant(game.variant)
        if game.is_over:
            return []
        position = await self.position(game)
        return await _rules_work(rules, _legal_texts, rules, position, node)

    async def _line(self, s: Session, game: Game, rules: Variant) -> _Line:
        """The game's positions, from the cache when it is current. The entry is taken out
        of the cache: the caller puts the new one back once its transaction has committed."""
        line = self._lines.pop(game.id, None)
        if line is not None and line.revision == game.revision:
            return line
        # another process has changed the game since: a move adds one to its revision and
        # ply alike, a takeback one to the revision while it takes plies away, so a line
        # that is as many revisions as plies behind lacks only the moves after its own
        if line is not None and 0 < game.revision - line.revision == game.ply - line.ply:
            rows = await s.all("SELECT fen FROM moves WHERE game_id = ? AND ply >= ? "
                               "AND partial = 0 ORDER BY ply", (game.id, line.ply))
            boundaries = line.boundaries + [_parse(rules, r["fen"], game.id) for r in rows]
            return _Line(game.revision, game.ply, _parse(rules, game.fen, game.id), boundaries)
        rows = await s.all("SELECT fen FROM moves WHERE game_id = ? AND partial = 0 "
                           "ORDER BY ply", (game.id,))
        start = _parse(rules, game.start_fen, game.id)
        boundaries = [] if start.in_progress else [start]
        boundaries += [_parse(rules, r["fen"], game.id) for r in rows]
        return _Line(game.revision, game.ply, _parse(rules, game.fen, game.id), boundaries)

    def _keep(self, game_id: int, line: _Line) -> None:
        self._lines[game_id] = replace(line, turn_steps=None, answers=None)
        self._lines.move_to_end(game_id)
        while len(self._lines) > CACHED_GAMES:
            self._lines.popitem(last=False)

    # --- validation -----------------------------------------------------------------
    async def _open(self, s: Session, game_id: int, sender: Player, expected_ply: int | None = None,
                    turn: bool = False) -> Game | Refusal:
        """The game, if ``sender`` may act in it now; the refusal otherwise. A game whose
        deadline has passed is lost on time here and then refused as over."""
        await s.lock_game(game_id)  # another process's change to it waits for this one
        game = await self._game(s, game_id)
        if game is None:
            return Refusal(Reason.NO_SUCH_GAME, _("There is no game #{game}.", game=game_id))
        if not game.is_over and self._time_is_up(game, self.now()):
            game = await self._lose_on_time(s, game)
        if game.is_over:
            return Refusal(Reason.GAME_OVER, _("Game #{game} is over: {result}.", game=game.id,
                                               result=self.describe_result(game)))
        side = game.side_of(sender.id)
        if side is None:
            return Refusal(Reason.NOT_A_PLAYER,
                           _("You are not playing in game #{game} ({first} vs {second}).",
                             game=game.id, first=game.names[0], second=game.names[1]))
        if expected_ply is not None and expected_ply != game.ply:
            return Refusal(Reason.POSITION_CHANGED,
                           _("The position in game #{game} has changed since you looked at "
                             "it. Look at the board again and send your move if it still "
                             "fits.", game=game.id))
        if turn and game.to_move != side:
            rules = get_variant(game.variant)
            return Refusal(Reason.NOT_YOUR_TURN,
                           _("It is not your turn in game #{game}: {name} ({side}) is to "
                             "move.", game=game.id, name=game.names[game.to_move],
                             side=side_name(rules, game.to_move)))
        return game

    @staticmethod
    def _time_is_up(game: Game, now: float) -> bool:
        return game.clock.deadline is not None and game.clock.deadline <= now

    # --- moves ----------------------------------------------------------------------
    async def move(self, sender: Player, game_id: int, text: str,
                   expected_ply: int | None = None) -> Result:
        """Play ``text`` in the game (``end`` closes a turn of several steps).
        ``expected_ply`` is the game's ``ply`` when the sender looked at it: if another
        move came first, the move is refused as 'the position has changed'."""
        if text.strip().lower() == END:
            return await self.end_turn(sender, game_id, expected_ply)
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender, expected_ply, turn=True)
            if isinstance(game, Refusal):
                if game.reason is Reason.NOT_YOUR_TURN:  # text that is no move says so
                    return await self._unreadable(s, game_id, sender, text) or game
                return game
            rules = get_variant(game.variant)
            line = await self._line(s, game, rules)
            try:
                canonical, after = await _rules_work(rules, _play, rules, line.position, text)
            except EngineError as err:
                self._keep(game.id, line)
                return move_refusal(err, text)
            done, line = await self._advance(s, game, rules, line, canonical, after)
            done, line = await self.forecasts._answer_forecast(s, rules, line, done)
        self._keep(game_id, line)
        self.watching.game_changed(game_id)
        return await self.vacations.back_by_moving(sender, done)

    async def _unreadable(self, s: Session, game_id: int, sender: Player,
                          text: str) -> Refusal | None:
        """Why ``text``, sent when it is not the sender's turn, is no move at all in the
        game's notation (read as if it were the sender's turn); None when it reads as one
        (it is then refused as not the sender's turn). A pasted command (`` `board #1` ``,
        ``alice> board``) is not answered as if it were a move played too early."""
        game = await self._game(s, game_id)
        side = None if game is None else game.side_of(sender.id)
        if game is None or side is None:
            return None
        rules = get_variant(game.variant)
        position = rules.as_if_to_move((await self._line(s, game, rules)).position, side)
        try:
            rules.parse_move(position, text)
        except MoveSyntaxError as err:
            return move_refusal(err, text)
        except EngineError:
            return None
        return None

    async def end_turn(self, sender: Player, game_id: int,
                       expected_ply: int | None = None) -> Result:
        """Close a turn of several steps before its allowance is used."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender, expected_ply)
            if isinstance(game, Refusal):
                return game
            rules = get_variant(game.variant)
            line = await self._line(s, game, rules)
            if game.to_move != game.side_of(sender.id) or not line.position.in_progress:
                self._keep(game.id, line)
                return self._nothing_to_end(game, sender, rules)
            try:
                after = rules.end_turn(line.position)
            except EngineError as err:
                self._keep(game.id, line)
                return move_refusal(err, END)
            done, line = await self._advance(s, game, rules, line, END, after)
            done, line = await self.forecasts._answer_forecast(s, rules, line, done)
        self._keep(game_id, line)
        self.watching.game_changed(game_id)
        return done

    @staticmethod
    def _nothing_to_end(game: Game, sender: Player, rules: Variant) -> Refusal:
        mover = game.to_move
        if mover == game.side_of(sender.id):
            why = _("your turn has not started: send a move")
        else:
            why = _("your turn is over, and {name} ({side}) is to move",
                    name=game.names[mover], side=side_name(rules, mover))
        return Refusal(Reason.NO_TURN_IN_PROGRESS,
                       _("There is no turn in progress to end in game #{game}: {why}.",
                         game=game.id, why=why))

    async def _advance(self, s: Session, game: Game, rules: Variant, line: _Line, text: str,
                       after: Position, conditional: bool = False) -> tuple[Done, _Line]:
        """Store one step: the move row, the game row, the clock, the end of the game and
        the notifications (``conditional``: the step answers a recorded line)."""
        now = self.now()
        mover = line.position.side
        first_step = not line.position.in_progress  # this step starts the mover's turn
        turn_done = not after.in_progress
        turn_start = line.boundaries[-1] if line.boundaries else None
        outcome = await _rules_work(rules, rules.outcome, after, list(line.boundaries),
                                    game.mode)
        fen = rules.format_position(after)
        await s.execute(
            "INSERT INTO moves (game_id, ply, turn, side, text, fen, partial, played_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game.id, game.ply, game.turns, mover, text, fen, int(after.in_progress), now))
        clock, draw_offer, takeback_offer = game.clock, game.draw_offer, game.takeback_offer
        if turn_done:
            clock = start_turn(game.days, now, paused=game.on_vacation(after.side, now))
            clock, game = await next_clock(s, game, mover, now, clock)
            # by moving, the mover declines what the opponent offered
            draw_offer = None if draw_offer == 1 - mover else draw_offer
            takeback_offer = None if takeback_offer == 1 - mover else takeback_offer
        turns = game.turns + turn_done
        changed = await s.execute(
            "UPDATE games SET fen = ?, to_move = ?, ply = ply + 1, turns = ?, "
            "revision = revision + 1, deadline = ?, reminder_due = ?, paused_remaining = ?, "
            "draw_offer = ?, takeback_offer = ?, updated_at = ? "
            "WHERE id = ? AND ply = ? AND revision = ?",
            (fen, after.side, turns, clock.deadline, clock.reminder_due, clock.paused_remaining,
             draw_offer, takeback_offer, now, game.id, game.ply, game.revision))
        if changed != 1:  # cannot happen while the transaction holds the write lock
            raise StorageError(f"game #{game.id} changed inside a transaction")
        game = replace(game, fen=fen, to_move=after.side, ply=game.ply + 1, turns=turns,
                       revision=game.revision + 1, clock=clock, draw_offer=draw_offer,
                       takeback_offer=takeback_offer, updated_at=now)
        if turn_done:
            line.boundaries.append(after)
        line = _Line(game.revision, game.ply, after, line.boundaries)
        turn = None
        if turn_done:  # a turn of one step needs no read to know its steps
            line.turn_steps = ([text] if first_step
                               else await self._turn_texts(s, game.id, game.turns - 1))
            turn = whole_turn(rules, turn_start, line.turn_steps)
        label = turn_label(rules.parse_position(game.start_fen), game.turns - turn_done)
        if turn is not None:
            said = [_("{number} {turn} played in game #{game}.", number=label, turn=turn,
                      game=game.id)]
        else:
            said = [_("{move} played in game #{game}.", move=text, game=game.id)]
        left = None if turn_done else rules.steps_left(after)
        if outcome.is_over:
            game = await self._finish(s, game, rules, outcome.winner, outcome.reason,
                                      draw=outcome.status == "draw", now=now,
                                      actor=game.players[mover],
                                      news=_("{name} played {number} {turn}.",
                                             name=game.names[mover], number=label,
                                             turn=turn or text))
            said.append(_("Game over: {result}.", result=self.describe_result(game)))
        elif not turn_done:
            allowed = (_("send the next step") if left is None
                       else _n("{n} more move allowed", "{n} more moves allowed", left))
            said.append(_("Your turn goes on: {allowed}, or {end} to finish it.",
                          allowed=allowed, end=command("end")))
        else:
            nxt = after.side
            said.append(_("{name} ({side}) is to move.", name=game.names[nxt],
                          side=side_name(rules, nxt)))
            line.answers = await recorded_lines(s, game)
            if answer_ready(line.answers, rules, after):  # they are told with it
                return Done(joined(said), game=game, move=text), line
            news = (_("{name} played {number} {turn} (a conditional move) in game #{game} "
                      "({variant}). Your move. {clock}", name=game.names[mover],
                      number=label, turn=turn, game=game.id, variant=variant_name(rules),
                      clock=self._clock_text(game)) if conditional else
                    _("{name} played {number} {turn} in game #{game} ({variant}). Your move. "
                      "{clock}", name=game.names[mover], number=label, turn=turn, game=game.id,
                      variant=variant_name(rules), clock=self._clock_text(game)))
            await outbox.notify_side(s, game, nxt, "your-move", now, news,
                                     payload={"ply": game.ply, "number": label, "turn": turn})
        return Done(joined(said), game=game, move=text, turn=turn, number=label,
                    steps_left=left, goes_on=not turn_done and not outcome.is_over), line

    @staticmethod
    async def _turn_texts(s: Session, game_id: int, turn: int) -> list[str]:
        """The stored steps of turn number ``turn`` (completed turns before it)."""
        rows = await s.all("SELECT text FROM moves WHERE game_id = ? AND turn = ? ORDER BY ply",
                           (game_id, turn))
        return [r["text"] for r in rows]

    def _clock_text(self, game: Game) -> Text:
        clock = game.clock
        if clock.paused:
            return _("Your clock is paused while you are on vacation.")
        if clock.deadline is None:
            return _("There is no clock.")
        return _("You have {duration} (until {deadline}).",
                 duration=format_duration(clock.deadline - self.now()),
                 deadline=moment(clock.deadline))

    # --- the end of a game ----------------------------------------------------------
    def describe_result(self, game: Game) -> str:
        """``alice (White) wins: Black has no Commander left (1-0)``, ``drawn ...``."""
        return describe_result(game)

    async def _finish(self, s: Session, game: Game, rules: Variant, winner: int | None,
                      reason: str, now: float, draw: bool = False, aborted: bool = False,
                      actor: int | None = None, news: Text | None = None) -> Game:
        """End the game: result, ratings, notifications to the place and to the players
        (except ``actor``, the player whose command ended it, who has the answer);
        ``news`` (the turn that ended it) comes first."""
        status = "aborted" if aborted else "over"
        result = "*" if aborted else _score(None if draw else winner)
        winner = None if draw or aborted else winner
        await s.execute(
            "UPDATE games SET status = ?, result = ?, winner = ?, reason = ?, ended_at = ?, "
            "updated_at = ?, deadline = NULL, reminder_due = NULL, paused_remaining = NULL, "
            "draw_offer = NULL, takeback_offer = NULL WHERE id = ?",
            (status, result, winner, stored_ending(reason), now, now, game.id))
        game = replace(game, status=status, result=result, winner=winner, reason=reason,
                       ended_at=now, updated_at=now, clock=TurnClock(), draw_offer=None,
                       takeback_offer=None)
        text = _("Game #{game} ({variant}, {players}) is over: {result}.", game=game.id,
                 variant=variant_name(rules), players=players_line(game, rules),
                 result=self.describe_result(game))
        if news is not None:
            text = joined([news, text])
        if game.rated and not aborted:
            text = joined([text, await rate(s, game, rules, now)])
        for side in (0, 1):
            if game.players[side] != actor:
                await outbox.notify_side(s, game, side, "game-over", now, text)
        # a tournament game's end goes in its tournament's lane, before what it brings on
        await outbox.notify(s, now, transport=place_transport(game.place), kind="game-over",
                            place=game.place, game_id=game.id,
                            text=phrase(text, place_transport(game.place)), message=text,
                            lane=await self.tournaments._lane_of_game(s, game.id))
        await self.tournaments._game_over(s, game, now)
        return game

    async def _lose_on_time(self, s: Session, game: Game) -> Game:
        rules = get_variant(game.variant)
        loser = game.to_move
        assert game.clock.deadline is not None
        return await self._finish(s, game, rules, 1 - loser,
                                  ending(RAN_OUT, game.names[loser]), game.clock.deadline)

    async def resign(self, sender: Player, game_id: int) -> Result:
        """Give up the game."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender)
            if isinstance(game, Refusal):
                return game
            rules = get_variant(game.variant)
            side = game.side_of(sender.id)
            assert side is not None
            game = await self._finish(s, game, rules, 1 - side,
                                      ending(RESIGNED, sender.display_name), self.now(),
                                      actor=sender.id)
        return Done(_("You resigned game #{game}: {result}.", game=game_id,
                      result=self.describe_result(game)), game=game)

    async def abort(self, sender: Player, game_id: int) -> Result:
        """Call the game off, unrated, while at most one side has moved."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender)
            if isinstance(game, Refusal):
                return game
            if await s.one("SELECT 1 FROM tournament_games WHERE game_id = ?", (game.id,)):
                return Refusal(Reason.TOURNAMENT_GAME,
                               _("Game #{game} is a tournament game: it cannot be aborted; you "
                                 "may resign.", game=game.id))
            rows = await s.all("SELECT DISTINCT side FROM moves WHERE game_id = ?", (game.id,))
            if len(rows) == 2:
                return Refusal(Reason.TOO_LATE_TO_ABORT,
                               _("Both sides have moved in game #{game}, so it can no longer "
                                 "be aborted; you may resign.", game=game.id))
            game = await self._finish(s, game, get_variant(game.variant), None,
                                      ending(ABORTED_BY, sender.display_name), self.now(),
                                      aborted=True, actor=sender.id)
        return Done(_("Game #{game} aborted.", game=game_id), game=game)

    # --- draws ----------------------------------------------------------------------
    async def offer_draw(self, sender: Player, game_id: int) -> Result:
        """Offer a draw; if the opponent has offered one already, the game is drawn."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender)
            if isinstance(game, Refusal):
                return game
            rules = get_variant(game.variant)
            if not rules.draw_by_agreement:
                return Refusal(Reason.DRAW_NOT_ALLOWED,
                               _("{variant} has no draws by agreement.",
                                 variant=variant_name(rules)))
            side = game.side_of(sender.id)
            assert side is not None
            if game.draw_offer == 1 - side:
                return await self._agree_draw(s, game, rules, sender)
            if game.draw_offer == side:
                return Refusal(Reason.ALREADY_OFFERED,
                               _("You have already offered a draw in game #{game}.",
                                 game=game.id))
            await self._offer(s, game, side, "draw", _(
                "{name} offers a draw in game #{game}. Answer with {accept} to accept or "
                "{decline}.", name=sender.display_name, game=game.id, accept=command("draw"),
                decline=command("draw", "decline")))
        return Done(_("Draw offered in game #{game}.", game=game_id),
                    game=replace(game, draw_offer=side))

    async def _offer(self, s: Session, game: Game, side: int, what: str, news: Text) -> None:
        """Store ``side``'s offer of ``what`` (a draw, a takeback) and tell the other side."""
        now = self.now()
        column, kind = OFFERS[what]
        await s.execute(f"UPDATE games SET {column} = ?, updated_at = ? WHERE id = ?",
                        (side, now, game.id))
        await outbox.notify_side(s, game, 1 - side, kind, now, news)

    async def accept_draw(self, sender: Player, game_id: int) -> Result:
        """Accept the opponent's draw offer."""
        async with self.db.transaction() as s:
            game = await self._offered(s, game_id, sender, "draw_offer")
            if isinstance(game, Refusal):
                return game
            return await self._agree_draw(s, game, get_variant(game.variant), sender)

    async def _agree_draw(self, s: Session, game: Game, rules: Variant, sender: Player) -> Done:
        game = await self._finish(s, game, rules, None, Text(BY_AGREEMENT, {}), self.now(),
                                  draw=True, actor=sender.id)
        return Done(_("Game #{game} is drawn by agreement.", game=game.id), game=game)

    async def decline_draw(self, sender: Player, game_id: int) -> Result:
        """Turn down the opponent's draw offer."""
        async with self.db.transaction() as s:
            game = await self._offered(s, game_id, sender, "draw_offer")
            if isinstance(game, Refusal):
                return game
            now = self.now()
            await s.execute("UPDATE games SET draw_offer = NULL, updated_at = ? WHERE id = ?",
                            (now, game.id))
            await outbox.notify_side(s, game, 1 - game.side_of(sender.id), "draw-offer", now,
                                    _("{name} declined your draw offer in game #{game}.",
                                      name=sender.display_name, game=game.id))
        return Done(_("Draw offer declined in game #{game}.", game=game_id),
                    game=replace(game, draw_offer=None))

    async def _offered(self, s: Session, game_id: int, sender: Player,
                       column: str) -> Game | Refusal:
        """The game, if the opponent of ``sender`` has an offer standing in ``column``."""
        game = await self._open(s, game_id, sender)
        if isinstance(game, Refusal):
            return game
        side = game.side_of(sender.id)
        offer = game.draw_offer if column == "draw_offer" else game.takeback_offer
        if offer != 1 - side:  # type: ignore[operator]
            return Refusal(Reason.NO_OFFER, _(
                "There is no draw offer from your opponent to answer in game #{game}.",
                game=game.id) if column == "draw_offer" else _(
                "There is no takeback request from your opponent to answer in game #{game}.",
                game=game.id))
        return game

    # --- takebacks ------------------------------------------------------------------
    async def request_takeback(self, sender: Player, game_id: int) -> Result:
        """Ask the opponent to let you take your last turn back."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender)
            if isinstance(game, Refusal):
                return game
            side = game.side_of(sender.id)
            assert side is not None
            if game.takeback_offer == side:
                return Refusal(Reason.ALREADY_OFFERED,
                               _("You have already asked for a takeback in game #{game}.",
                                 game=game.id))
            if game.takeback_offer == 1 - side:
                return Refusal(Reason.ALREADY_OFFERED,
                               _("{name} has asked for a takeback in game #{game}; answer it "
                                 "with {accept} or {decline} first.", name=game.names[1 - side],
                                 game=game.id, accept=command("takeback"),
                                 decline=command("takeback", "decline")))
            if await self._last_turn(s, game.id, side) is None:
                return Refusal(Reason.NOTHING_TO_TAKE_BACK,
                               _("You have no completed turn to take back in game #{game}.",
                                 game=game.id))
            if game.transports[1 - side] == COMPUTER and game.rated:  # it would only decline
                return Refusal(Reason.TAKEBACK_NOT_ALLOWED,
                               _("The computer allows takebacks in unrated games only, and "
                                 "game #{game} is rated.", game=game.id))
            await self._offer(s, game, side, "takeback", _(
                "{name} asks to take back their last turn in game #{game}. Answer with "
                "{accept} to accept or {decline}.", name=sender.display_name, game=game.id,
                accept=command("takeback"), decline=command("takeback", "decline")))
        return Done(_("Takeback requested in game #{game}.", game=game_id),
                    game=replace(game, takeback_offer=side))

    @staticmethod
    async def _last_turn(s: Session, game_id: int, side: int) -> int | None:
        row = await s.one("SELECT MAX(turn) AS turn FROM moves WHERE game_id = ? AND side = ? "
                          "AND partial = 0", (game_id, side))
        return None if row is None or row["turn"] is None else int(row["turn"])

    async def accept_takeback(self, sender: Player, game_id: int) -> Result:
        """Let the opponent take their last turn back (with everything played after it)."""
        async with self.db.transaction() as s:
            game = await self._offered(s, game_id, sender, "takeback_offer")
            if isinstance(game, Refusal):
                return game
            rules = get_variant(game.variant)
            requester = 1 - game.side_of(sender.id)  # type: ignore[operator]
            turn = await self._last_turn(s, game.id, requester)
            assert turn is not None
            await s.execute("DELETE FROM moves WHERE game_id = ? AND turn >= ?", (game.id, turn))
            row = await s.one("SELECT COUNT(*) AS n, MAX(ply) AS last FROM moves "
                              "WHERE game_id = ?", (game.id,))
            assert row is not None
            last = await s.one("SELECT fen FROM moves WHERE game_id = ? AND ply = ?",
                               (game.id, row["last"]))
            fen = last["fen"] if last else game.start_fen
            position = rules.parse_position(fen)
            now = self.now()
            clock = start_turn(game.days, now, paused=game.on_vacation(position.side, now))
            clock = await clock_again(s, game, position.side, now, clock)
            await s.execute(
                "UPDATE games SET fen = ?, to_move = ?, ply = ?, turns = ?, "
                "revision = revision + 1, deadline = ?, reminder_due = ?, paused_remaining = ?, "
                "draw_offer = NULL, takeback_offer = NULL, updated_at = ? WHERE id = ?",
                (fen, position.side, row["n"], turn, clock.deadline, clock.reminder_due,
                 clock.paused_remaining, now, game.id))
            self._lines.pop(game.id, None)
            await drop_forecasts(s, game.id)
            game = await self._game(s, game.id)
            assert game is not None
            await outbox.notify_side(s, game, requester, "takeback", now,
                                    _("{name} accepted your takeback in game #{game}. "
                                      "{mover} is to move.", name=sender.display_name,
                                      game=game.id, mover=game.names[position.side]))
        return Done(_("Takeback accepted in game #{game}: {mover} is to move.", game=game_id,
                      mover=game.names[position.side]), game=game)

    async def decline_takeback(self, sender: Player, game_id: int) -> Result:
        """Turn down the opponent's takeback request."""
        async with self.db.transaction() as s:
            game = await self._offered(s, game_id, sender, "takeback_offer")
            if isinstance(game, Refusal):
                return game
            now = self.now()
            await s.execute("UPDATE games SET takeback_offer = NULL, updated_at = ? "
                            "WHERE id = ?", (now, game.id))
            await outbox.notify_side(s, game, 1 - game.side_of(sender.id), "takeback", now,
                                    _("{name} declined your takeback request in game #{game}.",
                                      name=sender.display_name, game=game.id))
        return Done(_("Takeback declined in game #{game}.", game=game_id),
                    game=replace(game, takeback_offer=None))

    # --- the scheduler's work -------------------------------------------------------
    async def process_due(self) -> dict[str, int]:
        """Apply everything that has fallen due: vacations that end, losses on time,
        reminders and expired challenges, in that order; how many of each."""
        return {"vacations": await self.vacations.process_vacations(),
                "timeouts": await self.process_timeouts(),
                "reminders": await self.process_reminders(),
                "challenges": await self.challenges.process_challenges(),
                "tournaments": await self.tournaments.process_tournaments(),
                "digests": await self.posts.process_digests(),
                "pruned": await outbox.prune(self.db, self.now())}

    async def process_timeouts(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' AND g.deadline <= ? "
                               "ORDER BY g.deadline" + s.claim("g"), (now,))
            for game in Game.readable(rows):  # a damaged game waits for its host
                await self._lose_on_time(s, game)
        return len(rows)

    async def process_reminders(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' "
                               "AND g.reminder_due <= ? AND g.deadline > ?" + s.claim("g"),
                               (now, now))
            for game in Game.readable(rows):
                rules = get_variant(game.variant)
                other = game.names[1 - game.to_move]
                await outbox.notify_side(
                    s, game, game.to_move, "reminder", now,
                    _("Reminder: game #{game} ({variant}) against {name} waits for your "
                      "move. {clock}", game=game.id, variant=variant_name(rules), name=other,
                      clock=self._clock_text(game)))
                await s.execute("UPDATE games SET reminder_due = NULL WHERE id = ?", (game.id,))
        return len(rows)

    async def next_due(self) -> float | None:
        """When the scheduler next has something to do (None: nothing is waiting)."""
        async with self.db.snapshot() as s:
            row = await s.one(
                "SELECT MIN(t) AS t FROM ("
                " SELECT MIN(deadline) AS t FROM games WHERE status = 'active'"
                " UNION ALL SELECT MIN(reminder_due) FROM games WHERE status = 'active'"
                " UNION ALL SELECT MIN(vacation_until) FROM players"
                " UNION ALL SELECT MIN(expires_at) FROM challenges WHERE status = 'open')")
            tournaments = await tournaments_due(s)
        due = [t for t in (None if row is None else row["t"], tournaments) if t is not None]
        return float(min(due)) if due else None


    # --- the outbox -----------------------------------------------------------------
    async def refused_places(self, transport: str) -> list[str]:
        """The places that refused news of late (`outbox.refused_places`)."""
        return await outbox.refused_places(self.db, transport, self.now())

    async def catch_up(self, transport: str, place: str, kind: str) -> int:
        """Gather the news ``place`` refused into one post per game (`outbox.catch_up`),
        now that it may take posts again; how many posts."""
        return len(await outbox.catch_up(self.db, transport, place, kind, self.now()))

    async def pending_notifications(self, transport: str, limit: int = 100,
                                    ) -> list[Notification]:
        return await outbox.pending(self.db, transport, limit)

    async def deliver(self, transport: str,
                      send: Callable[[Notification], Awaitable[None]]) -> int:
        """Hand every due notification of ``transport`` to ``send``: each lane (one
        destination's news of one game) in order, lanes independently (one pass)."""
        return await outbox.deliver(self.db, transport, send, self.now)

    async def queue_notification(self, transport: str, kind: str, text: str,
                                 player_id: int | None = None, place: str | None = None,
                                 game_id: int | None = None,
                                 payload: dict[str, Any] | None = None,
                                 lane: str | None = None) -> int:
        """Queue a notification on its own (an answer a transport owes, written before
        the transport acknowledges the request that caused it); its id."""
        async with self.db.transaction() as s:
            return await outbox.notify(s, self.now(), transport=transport, kind=kind,
                                       text=text, player_id=player_id, place=place,
                                       game_id=game_id, payload=payload, lane=lane)

    async def settle_answer(self, note_id: int, text: str, lane: str,
                            payload: dict[str, Any] | None = None, place: str | None = None,
                            game_id: int | None = None) -> bool:
        """Put a command's real answer in its held placeholder, where it goes, and make it
        due (see `bot.service.answers`); whether it was still there to settle."""
        return await outbox.settle(self.db, note_id, text, payload, place=place,
                                   game_id=game_id, lane=lane)

    async def answered(self, *note_ids: int) -> None:
        """A command's placeholder answers are not needed: the transport answered itself."""
        await outbox.mark_delivered(self.db, list(note_ids), self.now())

    def courier(self, transport: str,
                send: Callable[[Notification], Awaitable[None]]) -> outbox.Courier:
        """A long-lived deliverer of ``transport``'s outbox (see `outbox.Courier`)."""
        return outbox.Courier(self.db, transport, send, self.now)


def _rules_of(game: Game) -> Variant:
    """The variant of a stored game (an unknown one: the row is damaged)."""
    try:
        return get_variant(game.variant)
    except EngineError as err:
        raise DamagedGame(game.id) from err


def _parse(rules: Variant, text: object, game_id: int) -> Position:
    """A stored position of game ``game_id``; `DamagedGame` if it does not parse."""
    if not isinstance(text, str):
        raise DamagedGame(game_id)
    try:
        return rules.parse_position(text)
    except (EngineError, ValueError, IndexError, KeyError) as err:
        raise DamagedGame(game_id) from err
