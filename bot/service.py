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
and ending vacations are applied by `bot.scheduler` through the ``process_*`` methods.
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from engine import (
    AmbiguousMoveError,
    EngineError,
    MoveSyntaxError,
    Position,
    Variant,
    all_variants,
    get_variant,
)

from . import outbox
from .clock import (
    ALLOWED_DAYS,
    DAY,
    Clock,
    TurnClock,
    describe_days,
    format_duration,
    format_time,
    pause,
    resume,
    start_turn,
    system_clock,
    time_control_help,
    vacation_left,
    year_start,
)
from .config import Settings
from .model import Challenge, Game, Notification, PlayedMove, Player, place_transport
from .ratings import Rating, rate_game
from .records import END, RecordError, read_record, replay, write_record
from .results import Done, Reason, Refusal, Result
from .storage import Database, Session, StorageError, open_database

CACHED_GAMES = 512


@dataclass
class _Line:
    """A game's positions, kept between commands so that a move re-reads none of them."""

    revision: int
    position: Position
    boundaries: list[Position]  # positions where a turn ended, the start first


@dataclass(frozen=True)
class Standing:
    """A player's rating in one variant, as the leaderboard shows it."""

    player_id: int
    name: str
    rating: float
    deviation: float
    games: int


def _or_list(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _score(winner: int | None) -> str:
    return {0: "1-0", 1: "0-1"}.get(winner, "1/2-1/2")  # type: ignore[arg-type]


class GameService:
    """Players, challenges, games, clocks, ratings, records and the outbox."""

    def __init__(self, db: Database, settings: Settings | None = None, now: Clock = system_clock,
                 rng: random.Random | None = None) -> None:
        self.db = db
        self.settings = settings or Settings()
        self.now = now
        self.rng = rng or random.Random()
        self._lines: OrderedDict[int, _Line] = OrderedDict()

    @classmethod
    async def open(cls, settings: Settings | None = None, now: Clock = system_clock,
                   rng: random.Random | None = None) -> GameService:
        """The service on the configured database, its schema brought up to date."""
        settings = settings or Settings.from_env()
        db = await open_database(settings.db_path, settings.db_sync, now=now)
        return cls(db, settings, now, rng)

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- players --------------------------------------------------------------------
    async def player(self, transport: str, address: str, display_name: str | None = None) -> Player:
        """The player known to ``transport`` as ``address``, created on first sight; a new
        ``display_name`` replaces the old one."""
        name = (display_name or address).strip()
        async with self.db.snapshot() as s:
            row = await s.one("SELECT * FROM players WHERE transport = ? AND address = ?",
                              (transport, address))
        if row is not None and (display_name is None or row["display_name"] == name):
            return Player.from_row(row)
        async with self.db.transaction() as s:
            await s.execute(
                "INSERT INTO players (transport, address, display_name, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (transport, address) DO UPDATE "
                "SET display_name = excluded.display_name",
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
            return Refusal(Reason.NO_SUCH_PLAYER, f"I do not know anyone called {name!r}.")
        if len(rows) > 1 and rows[0]["address"] != name:
            return Refusal(Reason.NO_SUCH_PLAYER, f"Several players are called {name!r}; "
                                                  f"name the one you mean more exactly.")
        return Player.from_row(rows[0])

    async def set_preference(self, player: Player, key: str, value: object) -> Player:
        """Store one preference of ``player`` (a JSON value)."""
        preferences = {**player.preferences, key: value}
        async with self.db.transaction() as s:
            await s.execute("UPDATE players SET preferences = ? WHERE id = ?",
                            (json.dumps(preferences, sort_keys=True), player.id))
        return replace(player, preferences=preferences)

    # --- challenges -----------------------------------------------------------------
    async def challenge(self, sender: Player, place: str, opponent: Player | None = None,
                        variant: str = "clash", mode: str | None = None,
                        side: int | None = None, days: int | None = None,
                        start_fen: str | None = None, rated: bool | None = None) -> Result:
        """Challenge ``opponent`` (or anyone in ``place`` when None) to a game."""
        try:
            rules = get_variant(variant)
        except EngineError:
            known = ", ".join(v.name for v in all_variants())
            return Refusal(Reason.UNKNOWN_VARIANT,
                           f"There is no variant called {variant!r}. Choose one of: {known}.")
        mode = mode or rules.modes[0]
        if mode not in rules.modes:
            return Refusal(Reason.UNKNOWN_MODE, f"{rules.display_name} has no mode {mode!r}; "
                                                f"its modes are {_or_list(rules.modes)}.")
        if days is not None and days not in ALLOWED_DAYS:
            return Refusal(Reason.BAD_TIME_CONTROL, time_control_help(str(days)).capitalize()
                           + ".")
        if opponent is not None and opponent.id == sender.id:
            return Refusal(Reason.SELF_CHALLENGE, "You cannot challenge yourself.")
        if side not in (None, 0, 1):
            raise ValueError(f"side must be 0, 1 or None, not {side!r}")
        if start_fen is not None:
            start = self._start_position(rules, start_fen, mode)
            if isinstance(start, Refusal):
                return start
            start_fen = rules.format_position(start)
        rated = start_fen is None if rated is None else rated
        now = self.now()
        async with self.db.transaction() as s:
            challenge_id = await s.insert(
                "INSERT INTO challenges (challenger_id, opponent_id, place, variant, mode, side, "
                "days, start_fen, rated, status, created_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
                (sender.id, opponent.id if opponent else None, place, rules.name, mode, side,
                 days, start_fen, int(rated), now, now + self.settings.challenge_days * DAY))
            challenge = await self._challenge(s, challenge_id)
            assert challenge is not None
            offer = self._describe_challenge(challenge)
            if opponent is not None:
                await outbox.notify(s, now, transport=opponent.transport, kind="challenge",
                                    player_id=opponent.id, place=place,
                                    text=f"{sender.display_name} challenges you: {offer}. "
                                         f"Answer with `accept #{challenge_id}` or "
                                         f"`decline #{challenge_id}`.")
            else:
                await outbox.notify(s, now, transport=place_transport(place), kind="challenge",
                                    place=place,
                                    text=f"{sender.display_name} challenges anyone here: "
                                         f"{offer}. Answer with `accept #{challenge_id}`.")
        whom = opponent.display_name if opponent else "anyone here"
        return Done(f"Challenge #{challenge_id} sent to {whom}: {offer}. It expires "
                    f"{format_time(challenge.expires_at)}.", challenge=challenge)

    def _start_position(self, rules: Variant, fen: str, mode: str) -> Position | Refusal:
        try:
            start = rules.parse_position(fen)
        except EngineError as err:
            return Refusal(Reason.BAD_POSITION, f"That start position cannot be used: {err}")
        if rules.outcome(start, (), mode).is_over or not rules.legal_moves(start):
            return Refusal(Reason.BAD_POSITION, "That start position cannot be used: the game "
                                                "would be over before it starts.")
        return start

    def _describe_challenge(self, c: Challenge) -> str:
        rules = get_variant(c.variant)
        side = ("side chosen at random" if c.side is None
                else f"{c.challenger_name} plays {rules.side_names[c.side]}")
        words = [rules.display_name]
        if c.mode != rules.modes[0]:
            words.append(f"{c.mode} mode")
        words += [describe_days(c.days), side, "rated" if c.rated else "unrated"]
        if c.start_fen:
            words.append(f"from {c.start_fen}")
        return ", ".join(words)

    async def _challenge(self, s: Session, challenge_id: int) -> Challenge | None:
        row = await s.one(Challenge.CHALLENGE_SQL + " WHERE c.id = ?", (challenge_id,))
        return Challenge.from_row(row) if row else None

    async def challenges(self, player: Player | None = None, place: str | None = None,
                         ) -> list[Challenge]:
        """Open challenges made by or to ``player``, or open to anyone in ``place``."""
        clauses, params = ["c.status = 'open'", "c.expires_at > ?"], [self.now()]
        if player is not None:
            who = "(c.challenger_id = ? OR c.opponent_id = ?"
            params += [player.id, player.id]
            if place is not None:
                who += " OR (c.opponent_id IS NULL AND c.place = ?)"
                params.append(place)
            clauses.append(who + ")")
        elif place is not None:
            clauses.append("c.place = ?")
            params.append(place)
        async with self.db.snapshot() as s:
            rows = await s.all(Challenge.CHALLENGE_SQL + " WHERE " + " AND ".join(clauses)
                               + " ORDER BY c.id", params)
        return [Challenge.from_row(r) for r in rows]

    async def find_challenge(self, sender: Player, place: str, challenge_id: int | None = None,
                             own: bool = False) -> Challenge | Refusal:
        """The challenge a command means: the one numbered, or the only open one that
        ``sender`` may answer here (``own``: the only one ``sender`` made)."""
        if challenge_id is not None:
            async with self.db.snapshot() as s:
                found = await self._challenge(s, challenge_id)
            if found is None:
                return Refusal(Reason.NO_SUCH_CHALLENGE, f"There is no challenge #{challenge_id}.")
            return found
        mine = await self.challenges(sender, place)
        if own:
            mine = [c for c in mine if c.challenger_id == sender.id]
        else:
            mine = [c for c in mine if c.challenger_id != sender.id]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            what = "made no open challenge" if own else "have no challenge to answer"
            return Refusal(Reason.NO_SUCH_CHALLENGE, f"You {what} here.")
        listed = ", ".join(f"#{c.id} ({c.challenger_name}, {get_variant(c.variant).display_name})"
                           for c in mine)
        return Refusal(Reason.WHICH_CHALLENGE,
                       f"There are several challenges: {listed}. Say which, as in "
                       f"`accept #{mine[0].id}`.")

    async def _open_challenge(self, s: Session, challenge_id: int,
                              now: float) -> Challenge | Refusal:
        challenge = await self._challenge(s, challenge_id)
        if challenge is None:
            return Refusal(Reason.NO_SUCH_CHALLENGE, f"There is no challenge #{challenge_id}.")
        if challenge.status == "open" and challenge.expires_at <= now:
            challenge = await self._expire(s, challenge, now)
        if challenge.status != "open":
            return Refusal(Reason.CHALLENGE_CLOSED,
                           f"Challenge #{challenge_id} is no longer open: it was "
                           f"{challenge.status}.")
        return challenge

    async def accept(self, sender: Player, challenge_id: int) -> Result:
        """Accept a challenge: the game starts."""
        now = self.now()
        async with self.db.transaction() as s:
            challenge = await self._open_challenge(s, challenge_id, now)
            if isinstance(challenge, Refusal):
                return challenge
            if challenge.challenger_id == sender.id:
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               f"You cannot accept your own challenge; withdraw it with "
                               f"`cancel #{challenge_id}`.")
            if challenge.opponent_id not in (None, sender.id):
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               f"Challenge #{challenge_id} is for {challenge.opponent_name}, "
                               f"not for you.")
            rules = get_variant(challenge.variant)
            side = challenge.side if challenge.side is not None else self.rng.randrange(2)
            players = (challenge.challenger_id, sender.id)
            if side == 1:
                players = players[::-1]
            start = (rules.parse_position(challenge.start_fen) if challenge.start_fen
                     else rules.start_position(challenge.mode))
            game = await self._create_game(s, rules, challenge.mode, challenge.place, players,
                                           start, challenge.rated, challenge.days, now,
                                           challenge.id, actor=sender.id)
            await s.execute("UPDATE challenges SET status = 'accepted', game_id = ?, "
                            "opponent_id = ? WHERE id = ?", (game.id, sender.id, challenge.id))
        return Done(f"Challenge #{challenge_id} accepted. {self._game_started(game, rules)}",
                    game=game, challenge=challenge)

    async def decline(self, sender: Player, challenge_id: int) -> Result:
        """Decline a challenge addressed to you."""
        now = self.now()
        async with self.db.transaction() as s:
            challenge = await self._open_challenge(s, challenge_id, now)
            if isinstance(challenge, Refusal):
                return challenge
            if challenge.opponent_id != sender.id:
                why = ("it is open to anyone: simply leave it" if challenge.opponent_id is None
                       else "it is not addressed to you")
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               f"You cannot decline challenge #{challenge_id}: {why}.")
            await self._close_challenge(s, challenge, "declined", now,
                                        f"{sender.display_name} declined your challenge "
                                        f"#{challenge_id}.")
        return Done(f"Challenge #{challenge_id} declined.", challenge=challenge)

    async def cancel(self, sender: Player, challenge_id: int) -> Result:
        """Withdraw a challenge you made."""
        now = self.now()
        async with self.db.transaction() as s:
            challenge = await self._open_challenge(s, challenge_id, now)
            if isinstance(challenge, Refusal):
                return challenge
            if challenge.challenger_id != sender.id:
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               f"Challenge #{challenge_id} is {challenge.challenger_name}'s; "
                               f"only they can cancel it.")
            await s.execute("UPDATE challenges SET status = 'cancelled' WHERE id = ?",
                            (challenge.id,))
            if challenge.opponent_id is not None:
                player = await s.one("SELECT transport FROM players WHERE id = ?",
                                     (challenge.opponent_id,))
                assert player is not None
                await outbox.notify(s, now, transport=player["transport"], kind="challenge",
                                    player_id=challenge.opponent_id, place=challenge.place,
                                    text=f"{challenge.challenger_name} withdrew challenge "
                                         f"#{challenge.id}.")
        return Done(f"Challenge #{challenge_id} cancelled.", challenge=challenge)

    async def _close_challenge(self, s: Session, challenge: Challenge, status: str, now: float,
                               text: str) -> Challenge:
        await s.execute("UPDATE challenges SET status = ? WHERE id = ?", (status, challenge.id))
        row = await s.one("SELECT transport FROM players WHERE id = ?",
                          (challenge.challenger_id,))
        assert row is not None
        await outbox.notify(s, now, transport=row["transport"], kind="challenge", text=text,
                            player_id=challenge.challenger_id, place=challenge.place)
        return replace(challenge, status=status)

    async def _expire(self, s: Session, challenge: Challenge, now: float) -> Challenge:
        return await self._close_challenge(
            s, challenge, "expired", now,
            f"Your challenge #{challenge.id} ({self._describe_challenge(challenge)}) expired "
            f"unanswered.")

    # --- starting games -------------------------------------------------------------
    async def _create_game(self, s: Session, rules: Variant, mode: str, place: str,
                           players: tuple[int, int], start: Position, rated: bool,
                           days: int | None, now: float, challenge_id: int | None,
                           actor: int | None = None, announce: bool = True) -> Game:
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
        await self._set_clock(s, game.id, clock)
        game = replace(game, clock=clock)
        if not announce:
            return game
        text = self._game_started(game, rules)
        for side in (0, 1):
            if game.players[side] != actor:
                await self._notify_side(s, game, side, "game-start", now, text)
        await outbox.notify(s, now, transport=place_transport(place), kind="game-start",
                            place=place, game_id=game.id, text=text)
        return game

    def _game_started(self, game: Game, rules: Variant) -> str:
        return (f"Game #{game.id} started: {self._players_line(game, rules)}, "
                f"{rules.display_name}, {describe_days(game.days)}. "
                f"{game.names[game.to_move]} ({rules.side_names[game.to_move]}) moves first.")

    def _players_line(self, game: Game, rules: Variant) -> str:
        return (f"{game.names[0]} ({rules.side_names[0]}) vs "
                f"{game.names[1]} ({rules.side_names[1]})")

    async def _set_clock(self, s: Session, game_id: int, clock: TurnClock) -> None:
        await s.execute("UPDATE games SET deadline = ?, reminder_due = ?, paused_remaining = ? "
                        "WHERE id = ?",
                        (clock.deadline, clock.reminder_due, clock.paused_remaining, game_id))

    async def _notify_side(self, s: Session, game: Game, side: int, kind: str, now: float,
                           text: str) -> None:
        await outbox.notify(s, now, transport=game.transports[side], kind=kind, text=text,
                            player_id=game.players[side], place=game.place, game_id=game.id)

    # --- reading games --------------------------------------------------------------
    async def _game(self, s: Session, game_id: int) -> Game | None:
        row = await s.one(Game.GAME_SQL + " WHERE g.id = ?", (game_id,))
        return Game.from_row(row) if row else None

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
        return [Game.from_row(r) for r in rows]

    async def find_game(self, sender: Player, place: str, game_id: int | None = None,
                        to_move: bool = False) -> Game | Refusal:
        """The game a command means: the one numbered, else the only game ``sender`` plays
        here (``to_move``: the only one where it is their turn, if they play several), else
        the only game in progress here."""
        if game_id is not None:
            game = await self.game(game_id)
            return game if game else Refusal(Reason.NO_SUCH_GAME,
                                             f"There is no game #{game_id}.")
        candidates = await self.games(sender, place)
        if to_move and len(candidates) > 1:
            waiting = [g for g in candidates if g.to_move == g.side_of(sender.id)]
            candidates = waiting or candidates
        if not candidates:
            candidates = await self.games(None, place)
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            return Refusal(Reason.NO_GAME_HERE, "There is no game in progress here. Start one "
                                                "with `challenge NAME`.")
        listed = ", ".join(f"#{g.id} ({g.names[0]} vs {g.names[1]})" for g in candidates)
        return Refusal(Reason.WHICH_GAME, f"There are several games here: {listed}. Say which, "
                                          f"as in `board #{candidates[0].id}`.")

    async def played_moves(self, game_id: int) -> list[PlayedMove]:
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [PlayedMove.from_row(r) for r in rows]

    async def position(self, game: Game, ply: int | None = None) -> Position:
        """The position now, or after the first ``ply`` steps (0: the start)."""
        rules = get_variant(game.variant)
        if ply is None or ply >= game.ply:
            line = self._lines.get(game.id)
            if line is not None and line.revision == game.revision:
                return line.position
            return rules.parse_position(game.fen)
        if ply <= 0:
            return rules.parse_position(game.start_fen)
        async with self.db.snapshot() as s:
            row = await s.one("SELECT fen FROM moves WHERE game_id = ? AND ply = ?",
                              (game.id, ply - 1))
        return rules.parse_position(row["fen"] if row else game.fen)

    async def legal_moves(self, game: Game, node: str | None = None) -> list[str]:
        """The canonical texts of the legal moves now (only those from ``node``)."""
        rules = get_variant(game.variant)
        if game.is_over:
            return []
        position = await self.position(game)
        moves = rules.legal_moves(position)
        if node is not None:
            node = node.strip().lower()
            moves = [m for m in moves if m.origin == node]
        return sorted(rules.format_move(position, m) for m in moves)

    async def _line(self, s: Session, game: Game, rules: Variant) -> _Line:
        """The game's positions, from the cache when it is current. The entry is taken out
        of the cache: the caller puts the new one back once its transaction has committed."""
        line = self._lines.pop(game.id, None)
        if line is not None and line.revision == game.revision:
            return line
        rows = await s.all("SELECT fen FROM moves WHERE game_id = ? AND partial = 0 "
                           "ORDER BY ply", (game.id,))
        start = rules.parse_position(game.start_fen)
        boundaries = [] if start.in_progress else [start]
        boundaries += [rules.parse_position(r["fen"]) for r in rows]
        return _Line(game.revision, rules.parse_position(game.fen), boundaries)

    def _keep(self, game_id: int, line: _Line) -> None:
        self._lines[game_id] = line
        self._lines.move_to_end(game_id)
        while len(self._lines) > CACHED_GAMES:
            self._lines.popitem(last=False)

    # --- validation -----------------------------------------------------------------
    async def _open(self, s: Session, game_id: int, sender: Player, expected_ply: int | None = None,
                    turn: bool = False) -> Game | Refusal:
        """The game, if ``sender`` may act in it now; the refusal otherwise. A game whose
        deadline has passed is lost on time here and then refused as over."""
        game = await self._game(s, game_id)
        if game is None:
            return Refusal(Reason.NO_SUCH_GAME, f"There is no game #{game_id}.")
        if not game.is_over and self._time_is_up(game, self.now()):
            game = await self._lose_on_time(s, game)
        if game.is_over:
            return Refusal(Reason.GAME_OVER, f"Game #{game.id} is over: "
                                             f"{self.describe_result(game)}.")
        side = game.side_of(sender.id)
        if side is None:
            return Refusal(Reason.NOT_A_PLAYER, f"You are not playing in game #{game.id} "
                                                f"({game.names[0]} vs {game.names[1]}).")
        if expected_ply is not None and expected_ply != game.ply:
            return Refusal(Reason.POSITION_CHANGED,
                           f"The position in game #{game.id} has changed since you looked "
                           f"at it. Look at the board again and send your move if it still "
                           f"fits.")
        if turn and game.to_move != side:
            rules = get_variant(game.variant)
            return Refusal(Reason.NOT_YOUR_TURN,
                           f"It is not your turn in game #{game.id}: "
                           f"{game.names[game.to_move]} ({rules.side_names[game.to_move]}) "
                           f"is to move.")
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
                return game
            rules = get_variant(game.variant)
            line = await self._line(s, game, rules)
            try:
                move = rules.parse_move(line.position, text)
            except EngineError as err:
                self._keep(game.id, line)
                return self._move_refusal(err, text)
            canonical = rules.format_move(line.position, move)
            after = rules.make_move(line.position, move)
            done, line = await self._advance(s, game, rules, line, canonical, after)
        self._keep(game_id, line)
        return done

    @staticmethod
    def _move_refusal(err: EngineError, text: str) -> Refusal:
        quoted = getattr(err, "text", "") or text.strip()
        reason = getattr(err, "reason", str(err))
        if isinstance(err, AmbiguousMoveError):
            return Refusal(Reason.AMBIGUOUS_MOVE,
                           f"{quoted} is ambiguous: it could be {_or_list(err.candidates)}. "
                           f"Send the one you mean.", err.candidates)
        if isinstance(err, MoveSyntaxError):
            return Refusal(Reason.BAD_MOVE, f"I cannot read {quoted!r} as a move: {reason}.")
        return Refusal(Reason.ILLEGAL_MOVE, f"{quoted} is not a legal move here: {reason}.")

    async def end_turn(self, sender: Player, game_id: int,
                       expected_ply: int | None = None) -> Result:
        """Close a turn of several steps before its allowance is used."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender, expected_ply, turn=True)
            if isinstance(game, Refusal):
                return game
            rules = get_variant(game.variant)
            line = await self._line(s, game, rules)
            if not line.position.in_progress:
                self._keep(game.id, line)
                return Refusal(Reason.NO_TURN_IN_PROGRESS,
                               f"You have no turn in progress to end in game #{game.id}; "
                               f"send a move.")
            try:
                after = rules.end_turn(line.position)
            except EngineError as err:
                self._keep(game.id, line)
                return self._move_refusal(err, END)
            done, line = await self._advance(s, game, rules, line, END, after)
        self._keep(game_id, line)
        return done

    async def _advance(self, s: Session, game: Game, rules: Variant, line: _Line, text: str,
                       after: Position) -> tuple[Done, _Line]:
        """Store one step: the move row, the game row, the clock, the end of the game and
        the notifications."""
        now = self.now()
        mover = line.position.side
        turn_done = not after.in_progress
        outcome = rules.outcome(after, line.boundaries, game.mode)
        fen = rules.format_position(after)
        await s.execute(
            "INSERT INTO moves (game_id, ply, turn, side, text, fen, partial, played_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game.id, game.ply, game.turns, mover, text, fen, int(after.in_progress), now))
        clock, draw_offer, takeback_offer = game.clock, game.draw_offer, game.takeback_offer
        if turn_done:
            clock = start_turn(game.days, now, paused=game.on_vacation(after.side, now))
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
        line = _Line(game.revision, after, line.boundaries)
        message = f"{text} played in game #{game.id}."
        if outcome.is_over:
            game = await self._finish(s, game, rules, outcome.winner, outcome.reason,
                                      draw=outcome.status == "draw", now=now,
                                      actor=game.players[mover])
            message += f" Game over: {self.describe_result(game)}."
        elif not turn_done:
            message += " Your turn goes on: send the next step, or `end` to finish it."
        else:
            nxt = after.side
            message += f" {game.names[nxt]} ({rules.side_names[nxt]}) is to move."
            await self._notify_side(
                s, game, nxt, "your-move", now,
                f"{game.names[mover]} played {text if text != END else 'the end of the turn'} "
                f"in game #{game.id} ({rules.display_name}). Your move. "
                f"{self._clock_text(game)}")
        return Done(message, game=game, move=text), line

    def _clock_text(self, game: Game) -> str:
        clock = game.clock
        if clock.paused:
            return "Your clock is paused while you are on vacation."
        if clock.deadline is None:
            return "There is no clock."
        return (f"You have {format_duration(clock.deadline - self.now())} "
                f"(until {format_time(clock.deadline)}).")

    # --- the end of a game ----------------------------------------------------------
    def describe_result(self, game: Game) -> str:
        """``alice (White) wins: Black has no Commander left (1-0)``, ``drawn ...``."""
        if game.status == "aborted":
            return f"aborted ({game.reason})"
        if game.status == "active":
            return "in progress"
        if game.winner is None:
            return f"drawn, {game.reason} ({game.result})"
        rules = get_variant(game.variant)
        return (f"{game.names[game.winner]} ({rules.side_names[game.winner]}) wins: "
                f"{game.reason} ({game.result})")

    async def _finish(self, s: Session, game: Game, rules: Variant, winner: int | None,
                      reason: str, now: float, draw: bool = False, aborted: bool = False,
                      actor: int | None = None) -> Game:
        """End the game: result, ratings, notifications to the place and to the players
        (except ``actor``, the player whose command ended it, who has the answer)."""
        status = "aborted" if aborted else "over"
        result = "*" if aborted else _score(None if draw else winner)
        winner = None if draw or aborted else winner
        await s.execute(
            "UPDATE games SET status = ?, result = ?, winner = ?, reason = ?, ended_at = ?, "
            "updated_at = ?, deadline = NULL, reminder_due = NULL, paused_remaining = NULL, "
            "draw_offer = NULL, takeback_offer = NULL WHERE id = ?",
            (status, result, winner, reason, now, now, game.id))
        game = replace(game, status=status, result=result, winner=winner, reason=reason,
                       ended_at=now, updated_at=now, clock=TurnClock(), draw_offer=None,
                       takeback_offer=None)
        rating_note = ""
        if game.rated and not aborted:
            rating_note = await self._rate(s, game, rules, now)
        text = (f"Game #{game.id} ({rules.display_name}, {self._players_line(game, rules)}) "
                f"is over: {self.describe_result(game)}.{rating_note}")
        for side in (0, 1):
            if game.players[side] != actor:
                await self._notify_side(s, game, side, "game-over", now, text)
        await outbox.notify(s, now, transport=place_transport(game.place), kind="game-over",
                            place=game.place, game_id=game.id, text=text)
        return game

    async def _lose_on_time(self, s: Session, game: Game) -> Game:
        rules = get_variant(game.variant)
        loser = game.to_move
        assert game.clock.deadline is not None
        return await self._finish(s, game, rules, 1 - loser,
                                  f"{game.names[loser]} ran out of time", game.clock.deadline)

    async def _rate(self, s: Session, game: Game, rules: Variant, now: float) -> str:
        before = [await self._rating(s, p, game.variant) for p in game.players]
        score = 0.5 if game.winner is None else float(game.winner == 0)
        after = rate_game(before[0], before[1], score)
        for player_id, rating in zip(game.players, after, strict=True):
            await s.execute(
                "INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games, "
                "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (player_id, variant) "
                "DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
                "volatility = excluded.volatility, games = games + 1, "
                "updated_at = excluded.updated_at",
                (player_id, game.variant, rating.rating, rating.deviation, rating.volatility,
                 now))
        changes = ", ".join(f"{name} {old.rating:.0f} → {new.rating:.0f}"
                            for name, old, new in zip(game.names, before, after, strict=True))
        return f" Ratings: {changes}."

    async def _rating(self, s: Session, player_id: int, variant: str) -> Rating:
        row = await s.one("SELECT rating, deviation, volatility FROM ratings "
                          "WHERE player_id = ? AND variant = ?", (player_id, variant))
        return Rating(row["rating"], row["deviation"], row["volatility"]) if row else Rating()

    async def resign(self, sender: Player, game_id: int) -> Result:
        """Give up the game."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender)
            if isinstance(game, Refusal):
                return game
            rules = get_variant(game.variant)
            side = game.side_of(sender.id)
            assert side is not None
            game = await self._finish(s, game, rules, 1 - side, f"{sender.display_name} resigned",
                                      self.now(), actor=sender.id)
        return Done(f"You resigned game #{game_id}: {self.describe_result(game)}.", game=game)

    async def abort(self, sender: Player, game_id: int) -> Result:
        """Call the game off, unrated, while at most one side has moved."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender)
            if isinstance(game, Refusal):
                return game
            rows = await s.all("SELECT DISTINCT side FROM moves WHERE game_id = ?", (game.id,))
            if len(rows) == 2:
                return Refusal(Reason.TOO_LATE_TO_ABORT,
                               f"Both sides have moved in game #{game.id}, so it can no longer "
                               f"be aborted; you may resign.")
            game = await self._finish(s, game, get_variant(game.variant), None,
                                      f"aborted by {sender.display_name}", self.now(),
                                      aborted=True, actor=sender.id)
        return Done(f"Game #{game_id} aborted.", game=game)

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
                               f"{rules.display_name} has no draws by agreement.")
            side = game.side_of(sender.id)
            assert side is not None
            if game.draw_offer == 1 - side:
                return await self._agree_draw(s, game, rules, sender)
            if game.draw_offer == side:
                return Refusal(Reason.ALREADY_OFFERED,
                               f"You have already offered a draw in game #{game.id}.")
            now = self.now()
            await s.execute("UPDATE games SET draw_offer = ?, updated_at = ? WHERE id = ?",
                            (side, now, game.id))
            await self._notify_side(s, game, 1 - side, "draw-offer", now,
                                    f"{sender.display_name} offers a draw in game #{game.id}. "
                                    f"Answer with `draw` to accept or `draw decline`.")
        return Done(f"Draw offered in game #{game_id}.", game=replace(game, draw_offer=side))

    async def accept_draw(self, sender: Player, game_id: int) -> Result:
        """Accept the opponent's draw offer."""
        async with self.db.transaction() as s:
            game = await self._offered(s, game_id, sender, "draw_offer")
            if isinstance(game, Refusal):
                return game
            return await self._agree_draw(s, game, get_variant(game.variant), sender)

    async def _agree_draw(self, s: Session, game: Game, rules: Variant, sender: Player) -> Done:
        game = await self._finish(s, game, rules, None, "by agreement", self.now(), draw=True,
                                  actor=sender.id)
        return Done(f"Game #{game.id} is drawn by agreement.", game=game)

    async def decline_draw(self, sender: Player, game_id: int) -> Result:
        """Turn down the opponent's draw offer."""
        async with self.db.transaction() as s:
            game = await self._offered(s, game_id, sender, "draw_offer")
            if isinstance(game, Refusal):
                return game
            now = self.now()
            await s.execute("UPDATE games SET draw_offer = NULL, updated_at = ? WHERE id = ?",
                            (now, game.id))
            await self._notify_side(s, game, 1 - game.side_of(sender.id), "draw-offer", now,
                                    f"{sender.display_name} declined your draw offer in game "
                                    f"#{game.id}.")
        return Done(f"Draw offer declined in game #{game_id}.", game=replace(game, draw_offer=None))

    async def _offered(self, s: Session, game_id: int, sender: Player,
                       column: str) -> Game | Refusal:
        """The game, if the opponent of ``sender`` has an offer standing in ``column``."""
        game = await self._open(s, game_id, sender)
        if isinstance(game, Refusal):
            return game
        side = game.side_of(sender.id)
        offer = game.draw_offer if column == "draw_offer" else game.takeback_offer
        if offer != 1 - side:  # type: ignore[operator]
            what = "draw offer" if column == "draw_offer" else "takeback request"
            return Refusal(Reason.NO_OFFER, f"There is no {what} from your opponent to answer "
                                            f"in game #{game.id}.")
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
                               f"You have already asked for a takeback in game #{game.id}.")
            if game.takeback_offer == 1 - side:
                return Refusal(Reason.ALREADY_OFFERED,
                               f"{game.names[1 - side]} has asked for a takeback in game "
                               f"#{game.id}; answer it with `takeback` or `takeback decline` "
                               f"first.")
            if await self._last_turn(s, game.id, side) is None:
                return Refusal(Reason.NOTHING_TO_TAKE_BACK,
                               f"You have no completed turn to take back in game #{game.id}.")
            now = self.now()
            await s.execute("UPDATE games SET takeback_offer = ?, updated_at = ? WHERE id = ?",
                            (side, now, game.id))
            await self._notify_side(s, game, 1 - side, "takeback-request", now,
                                    f"{sender.display_name} asks to take back their last turn "
                                    f"in game #{game.id}. Answer with `takeback` to accept or "
                                    f"`takeback decline`.")
        return Done(f"Takeback requested in game #{game_id}.",
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
            await s.execute(
                "UPDATE games SET fen = ?, to_move = ?, ply = ?, turns = ?, "
                "revision = revision + 1, deadline = ?, reminder_due = ?, paused_remaining = ?, "
                "draw_offer = NULL, takeback_offer = NULL, updated_at = ? WHERE id = ?",
                (fen, position.side, row["n"], turn, clock.deadline, clock.reminder_due,
                 clock.paused_remaining, now, game.id))
            self._lines.pop(game.id, None)
            game = await self._game(s, game.id)
            assert game is not None
            await self._notify_side(s, game, requester, "takeback", now,
                                    f"{sender.display_name} accepted your takeback in game "
                                    f"#{game.id}. {game.names[position.side]} is to move.")
        return Done(f"Takeback accepted in game #{game_id}: "
                    f"{game.names[position.side]} is to move.", game=game)

    async def decline_takeback(self, sender: Player, game_id: int) -> Result:
        """Turn down the opponent's takeback request."""
        async with self.db.transaction() as s:
            game = await self._offered(s, game_id, sender, "takeback_offer")
            if isinstance(game, Refusal):
                return game
            now = self.now()
            await s.execute("UPDATE games SET takeback_offer = NULL, updated_at = ? "
                            "WHERE id = ?", (now, game.id))
            await self._notify_side(s, game, 1 - game.side_of(sender.id), "takeback", now,
                                    f"{sender.display_name} declined your takeback request in "
                                    f"game #{game.id}.")
        return Done(f"Takeback declined in game #{game_id}.",
                    game=replace(game, takeback_offer=None))

    # --- vacations ------------------------------------------------------------------
    async def start_vacation(self, player: Player, days: float | None = None) -> Result:
        """Pause the player's clocks for ``days`` (default: the rest of this year's
        allowance) or until they come back."""
        now = self.now()
        async with self.db.transaction() as s:
            row = await s.one("SELECT * FROM players WHERE id = ?", (player.id,))
            assert row is not None
            player = Player.from_row(row)
            if player.on_vacation(now):
                assert player.vacation_until is not None
                return Refusal(Reason.ALREADY_ON_VACATION,
                               f"You are already on vacation until "
                               f"{format_time(player.vacation_until)}; send `back` to end it.")
            left = vacation_left(self.settings.vacation_days,
                                 await self._vacation_spells(s, player.id, now), now)
            if left <= 0:
                return Refusal(Reason.NO_VACATION_LEFT,
                               f"You have used all {self.settings.vacation_days:g} days of "
                               f"vacation for this year.")
            length = left if days is None else min(days * DAY, left)
            until = now + length
            await s.insert("INSERT INTO vacations (player_id, started_at) VALUES (?, ?)",
                           (player.id, now))
            await s.execute("UPDATE players SET vacation_until = ? WHERE id = ?",
                            (until, player.id))
            paused = await self._pause_clocks(s, player, now)
        listed = ", ".join(f"#{g}" for g in paused) or "none at the moment"
        return Done(f"You are on vacation until {format_time(until)} "
                    f"({format_duration(length)}). Your clocks are paused (games to move in: "
                    f"{listed}); send `back` when you return.",
                    player=replace(player, vacation_until=until))

    async def _vacation_spells(self, s: Session, player_id: int,
                               now: float) -> list[tuple[float, float | None]]:
        rows = await s.all("SELECT started_at, ended_at FROM vacations WHERE player_id = ? "
                           "AND started_at >= ?", (player_id, year_start(now)))
        return [(r["started_at"], r["ended_at"]) for r in rows]

    async def _my_turn_games(self, s: Session, player_id: int) -> list[Game]:
        rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' AND g.days IS NOT NULL "
                           "AND ((g.player0 = ? AND g.to_move = 0) OR "
                           "(g.player1 = ? AND g.to_move = 1)) ORDER BY g.id",
                           (player_id, player_id))
        return [Game.from_row(r) for r in rows]

    async def _pause_clocks(self, s: Session, player: Player, now: float) -> list[int]:
        paused = []
        for game in await self._my_turn_games(s, player.id):
            if game.clock.paused:
                continue
            await self._set_clock(s, game.id, pause(game.clock, now))
            paused.append(game.id)
            side = game.side_of(player.id)
            await self._notify_side(s, game, 1 - side, "vacation", now,  # type: ignore[operator]
                                    f"{player.display_name} is on vacation; the clock of game "
                                    f"#{game.id} is paused.")
        return paused

    async def end_vacation(self, player: Player) -> Result:
        """Come back from vacation: the paused clocks run again."""
        now = self.now()
        async with self.db.transaction() as s:
            row = await s.one("SELECT * FROM players WHERE id = ?", (player.id,))
            assert row is not None
            player = Player.from_row(row)
            if player.vacation_until is None:
                return Refusal(Reason.NOT_ON_VACATION, "You are not on vacation.")
            resumed = await self._come_back(s, player, min(now, player.vacation_until))
        listed = ", ".join(f"#{g}" for g in resumed) or "none"
        return Done(f"Welcome back! Your clocks run again (games to move in: {listed}).",
                    player=replace(player, vacation_until=None))

    async def _come_back(self, s: Session, player: Player, at: float) -> list[int]:
        """End the vacation at time ``at`` and restart the paused clocks from then."""
        await s.execute("UPDATE vacations SET ended_at = ? WHERE player_id = ? "
                        "AND ended_at IS NULL", (at, player.id))
        await s.execute("UPDATE players SET vacation_until = NULL WHERE id = ?", (player.id,))
        resumed = []
        for game in await self._my_turn_games(s, player.id):
            if not game.clock.paused:
                continue
            clock = resume(game.clock, game.days, at)
            await self._set_clock(s, game.id, clock)
            resumed.append(game.id)
            side = game.side_of(player.id)
            assert side is not None and clock.deadline is not None
            await self._notify_side(s, game, 1 - side, "vacation", at,
                                    f"{player.display_name} is back from vacation; the clock of "
                                    f"game #{game.id} runs again.")
            await self._notify_side(s, game, side, "your-move", at,
                                    f"Welcome back: game #{game.id} waits for your move. You "
                                    f"have {format_duration(clock.deadline - at)} (until "
                                    f"{format_time(clock.deadline)}).")
        return resumed

    async def vacation_left(self, player: Player) -> float:
        """Seconds of vacation ``player`` may still take this year."""
        now = self.now()
        async with self.db.snapshot() as s:
            spells = await self._vacation_spells(s, player.id, now)
        return vacation_left(self.settings.vacation_days, spells, now)

    # --- the scheduler's work -------------------------------------------------------
    async def process_due(self) -> dict[str, int]:
        """Apply everything that has fallen due: vacations that end, losses on time,
        reminders and expired challenges, in that order; how many of each."""
        return {"vacations": await self.process_vacations(),
                "timeouts": await self.process_timeouts(),
                "reminders": await self.process_reminders(),
                "challenges": await self.process_challenges()}

    async def process_vacations(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all("SELECT * FROM players WHERE vacation_until <= ?", (now,))
            for row in rows:
                player = Player.from_row(row)
                assert player.vacation_until is not None
                await self._come_back(s, player, player.vacation_until)
        return len(rows)

    async def process_timeouts(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' AND g.deadline <= ? "
                               "ORDER BY g.deadline", (now,))
            for row in rows:
                await self._lose_on_time(s, Game.from_row(row))
        return len(rows)

    async def process_reminders(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' "
                               "AND g.reminder_due <= ? AND g.deadline > ?", (now, now))
            for row in rows:
                game = Game.from_row(row)
                rules = get_variant(game.variant)
                other = game.names[1 - game.to_move]
                await self._notify_side(
                    s, game, game.to_move, "reminder", now,
                    f"Reminder: game #{game.id} ({rules.display_name}) against {other} waits "
                    f"for your move. {self._clock_text(game)}")
                await s.execute("UPDATE games SET reminder_due = NULL WHERE id = ?", (game.id,))
        return len(rows)

    async def process_challenges(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all(Challenge.CHALLENGE_SQL + " WHERE c.status = 'open' "
                               "AND c.expires_at <= ?", (now,))
            for row in rows:
                await self._expire(s, Challenge.from_row(row), now)
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
        return None if row is None or row["t"] is None else float(row["t"])

    # --- ratings --------------------------------------------------------------------
    async def rating(self, player: Player, variant: str) -> tuple[Rating, int]:
        """The player's rating in ``variant`` and how many rated games it rests on."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT * FROM ratings WHERE player_id = ? AND variant = ?",
                              (player.id, get_variant(variant).name))
        if row is None:
            return Rating(), 0
        return Rating(row["rating"], row["deviation"], row["volatility"]), row["games"]

    async def leaderboard(self, variant: str, limit: int = 10) -> list[Standing]:
        """The best-rated players of ``variant``."""
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT r.*, p.display_name FROM ratings r JOIN players p "
                               "ON p.id = r.player_id WHERE r.variant = ? "
                               "ORDER BY r.rating DESC, r.games DESC LIMIT ?",
                               (get_variant(variant).name, limit))
        return [Standing(r["player_id"], r["display_name"], r["rating"], r["deviation"],
                         r["games"]) for r in rows]

    # --- records --------------------------------------------------------------------
    async def export(self, game_id: int) -> Result:
        """The game as a record text (in ``Done.text``)."""
        game = await self.game(game_id)
        if game is None:
            return Refusal(Reason.NO_SUCH_GAME, f"There is no game #{game_id}.")
        rules = get_variant(game.variant)
        turns: list[list[str]] = []
        for played in await self.played_moves(game_id):
            if played.turn == len(turns):
                turns.append([])
            turns[-1].append(played.text)
        tags = {"Variant": rules.name, "Mode": game.mode, "Site": game.place,
                "Date": datetime.fromtimestamp(game.created_at, UTC).strftime("%Y.%m.%d"),
                rules.side_names[0]: game.names[0], rules.side_names[1]: game.names[1],
                "Result": game.result}
        if game.reason:
            tags["Termination"] = game.reason
        tags["TimeControl"] = describe_days(game.days)
        tags["Rated"] = "yes" if game.rated else "no"
        tags["FEN"] = game.start_fen
        record = write_record(tags, rules.parse_position(game.start_fen), turns, game.result)
        return Done(f"Record of game #{game_id}.", game=game, text=record)

    async def import_game(self, sender: Player, place: str, text: str, opponent: Player,
                          days: int | None = None) -> Result:
        """Start a game from a record, to continue it (or to keep a finished one). The
        players take the sides whose tags bear their names (the sender plays the first side
        when neither is named); imported games are unrated."""
        if opponent.id == sender.id:
            return Refusal(Reason.SELF_CHALLENGE, "You cannot play a game against yourself.")
        try:
            record = read_record(text)
            rules = get_variant(record.tags.get("Variant", ""))
        except (RecordError, EngineError) as err:
            return Refusal(Reason.BAD_RECORD, f"That record cannot be imported: {err}")
        mode = record.tags.get("Mode", rules.modes[0])
        if mode not in rules.modes:
            return Refusal(Reason.BAD_RECORD, f"That record cannot be imported: "
                                              f"{rules.display_name} has no mode {mode!r}.")
        try:
            start = (rules.parse_position(record.tags["FEN"]) if "FEN" in record.tags
                     else rules.start_position(mode))
            steps = list(replay(rules, start, record.turns))
        except (RecordError, EngineError) as err:
            return Refusal(Reason.BAD_RECORD, f"That record cannot be imported: {err}")
        final = steps[-1].position if steps else start
        boundaries = [start] + [st.position for st in steps if not st.position.in_progress]
        outcome = rules.outcome(final, boundaries[:-1] if not final.in_progress else boundaries,
                                mode)
        result = record.tags.get("Result", record.result)
        if outcome.is_over and result not in ("*", outcome.score):
            return Refusal(Reason.BAD_RECORD, f"That record cannot be imported: it says "
                                              f"{result}, but the game ended {outcome.score} "
                                              f"({outcome.reason}).")
        named = [record.tags.get(n, "").lower() for n in rules.side_names]
        if sender.display_name.lower() in named:
            side = named.index(sender.display_name.lower())
        elif opponent.display_name.lower() in named:
            side = 1 - named.index(opponent.display_name.lower())
        else:
            side = 0
        players = (sender.id, opponent.id) if side == 0 else (opponent.id, sender.id)
        now = self.now()
        async with self.db.transaction() as s:
            game = await self._create_game(s, rules, mode, place, players, start, False, days,
                                           now, None, announce=False)
            for ply, step in enumerate(steps):
                await s.execute(
                    "INSERT INTO moves (game_id, ply, turn, side, text, fen, partial, played_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game.id, ply, step.turn, step.side, step.text,
                     rules.format_position(step.position), int(step.position.in_progress), now))
            turns = sum(1 for st in steps if not st.position.in_progress)
            clock = start_turn(days, now, paused=game.on_vacation(final.side, now))
            await s.execute(
                "UPDATE games SET fen = ?, to_move = ?, ply = ?, turns = ?, revision = 1, "
                "deadline = ?, reminder_due = ?, paused_remaining = ? WHERE id = ?",
                (rules.format_position(final), final.side, len(steps), turns, clock.deadline,
                 clock.reminder_due, clock.paused_remaining, game.id))
            game = await self._game(s, game.id)
            assert game is not None
            text = (f"{sender.display_name} imported a game record as game #{game.id}: "
                    f"{self._players_line(game, rules)}, {rules.display_name}.")
            await self._notify_side(s, game, 1 - side, "game-start", now, text)
            if outcome.is_over:
                game = await self._finish(s, game, rules, outcome.winner, outcome.reason, now,
                                          draw=outcome.status == "draw", actor=sender.id)
            elif result != "*":
                winner = {"1-0": 0, "0-1": 1}.get(result)
                game = await self._finish(s, game, rules, winner,
                                          record.tags.get("Termination", "as recorded"), now,
                                          draw=winner is None, actor=sender.id)
        where = "finished" if game.is_over else "in progress"
        count = f"{len(steps)} step{'s' if len(steps) != 1 else ''}"
        return Done(f"Imported as game #{game.id} ({where}, {count}): "
                    f"{self._players_line(game, rules)}.", game=game)

    async def verify(self, game_id: int) -> list[str]:
        """Replay the game from its start and move list and compare every stored position;
        the problems found (none for a sound game)."""
        game = await self.game(game_id)
        if game is None:
            return [f"there is no game #{game_id}"]
        rules = get_variant(game.variant)
        played = await self.played_moves(game_id)
        problems = []
        if [p.ply for p in played] != list(range(game.ply)):
            problems.append(f"the moves are numbered {[p.ply for p in played]}, "
                            f"expected 0..{game.ply - 1}")
        turns: list[list[str]] = []
        for p in played:
            if p.turn == len(turns):
                turns.append([])
            turns[-1].append(p.text)
        try:
            steps = list(replay(rules, rules.parse_position(game.start_fen), turns))
        except (RecordError, EngineError) as err:
            return problems + [f"the moves do not replay: {err}"]
        for p, step in zip(played, steps, strict=True):
            fen = rules.format_position(step.position)
            if fen != p.fen or p.partial != step.position.in_progress or p.side != step.side:
                problems.append(f"step {p.ply} ({p.text}) stored {p.fen!r}, replay gives {fen!r}")
        final = rules.format_position(steps[-1].position) if steps else game.start_fen
        if final != game.fen:
            problems.append(f"the game holds {game.fen!r}, replay gives {final!r}")
        if game.turns != sum(1 for p in played if not p.partial):
            problems.append(f"the game counts {game.turns} turns")
        return problems

    # --- the outbox -----------------------------------------------------------------
    async def pending_notifications(self, transport: str, limit: int = 100,
                                    ) -> list[Notification]:
        return await outbox.pending(self.db, transport, limit)

    async def deliver(self, transport: str,
                      send: Callable[[Notification], Awaitable[None]]) -> int:
        """Hand every pending notification of ``transport`` to ``send``, in order."""
        return await outbox.deliver(self.db, transport, send, self.now)
