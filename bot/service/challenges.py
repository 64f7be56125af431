"""Challenges: to a named opponent or to anyone in a place, with a variant, a mode, a side
(or a random one), a time control and an optional start position; accepted (the game
starts), declined, cancelled, or expired by the scheduler.

`ChallengeDesk` is the service's `challenges` topic (``service.challenges.accept(...)``);
its constructor names what it uses.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import replace

from engine import EngineError, Position, Variant, all_variants, get_variant

from ..config import Settings
from ..storage import Database, Session
from . import outbox
from .boundary import guard
from .clock import (
    ALLOWED_DAYS,
    DAY,
    Clock,
    describe_clock,
    time_control_help,
)
from .model import Challenge, Game, Player, place_transport
from .phrasing import command, moment, phrase, players_line
from .results import Done, Reason, Refusal, Result
from .words import or_list


def game_started(game: Game, rules: Variant) -> str:
    return (f"Game #{game.id} started: {players_line(game, rules)}, "
            f"{rules.display_name}, {describe_clock(game.days, game.time_control)}. "
            f"{game.names[game.to_move]} ({rules.side_names[game.to_move]}) moves first.")


async def read_challenge(s: Session, challenge_id: int) -> Challenge | None:
    row = await s.one(Challenge.CHALLENGE_SQL + " WHERE c.id = ?", (challenge_id,))
    return Challenge.from_row(row) if row else None


@guard  # every argument of every public method is checked before it runs
class ChallengeDesk:
    """Challenges (`GameService.challenges`): the database, the clock, the settings, the
    random source (a random side), and from the service: starting a game its way
    (``create_game``) and, from the archive, continuing a recorded game whose challenge
    is accepted (``accept_import``)."""

    def __init__(self, db: Database, now: Clock, settings: Settings, rng: random.Random, *,
                 create_game: Callable[..., Awaitable[Game]],
                 accept_import: Callable[..., Awaitable[Result]]) -> None:
        self.db, self.now, self.settings, self.rng = db, now, settings, rng
        self._create_game, self._accept_import = create_game, accept_import

    def default_days(self) -> int | None:
        """Days per move of a challenge that names no time (``COMMANDPOST_DEFAULT_DAYS``;
        None: no clock). The console and mail take it; a Discord server may choose its own."""
        return int(self.settings.default_days) or None

    async def challenge(self, sender: Player, place: str, opponent: Player | None = None,
                        variant: str | None = None, mode: str | None = None,
                        side: int | None = None, days: int | None = None,
                        start_fen: str | None = None, rated: bool | None = None,
                        time_control: str | None = None) -> Result:
        """Challenge ``opponent`` (or anyone in ``place`` when None) to a game of ``variant``
        (default: the first variant listed). A game from a set-up position is unrated unless
        ``rated`` says otherwise. ``time_control``: a clock choice of `bot.service.timecontrol`
        (Fischer, total), its text."""
        try:
            rules = get_variant(variant) if variant else all_variants()[0]
        except EngineError:
            known = ", ".join(v.name for v in all_variants())
            return Refusal(Reason.UNKNOWN_VARIANT,
                           f"There is no variant called {variant!r}. Choose one of: {known}.")
        mode = mode or rules.modes[0]
        if mode not in rules.modes:
            return Refusal(Reason.UNKNOWN_MODE, f"{rules.display_name} has no mode {mode!r}; "
                                                f"its modes are {or_list(rules.modes)}.")
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
                "days, start_fen, rated, status, created_at, expires_at, time_control) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)",
                (sender.id, opponent.id if opponent else None, place, rules.name, mode, side,
                 days, start_fen, int(rated), now, now + self.settings.challenge_days * DAY,
                 time_control))
            challenge = await read_challenge(s, challenge_id)
            assert challenge is not None
            offer = self._describe_challenge(challenge)
            accept = command("accept", f"#{challenge_id}")
            if opponent is not None:
                await outbox.notify(s, now, transport=opponent.transport, kind="challenge",
                                    player_id=opponent.id, place=place,
                                    text=phrase(f"{sender.display_name} challenges you: "
                                                f"{offer}. Answer with {accept} or "
                                                f"{command('decline', f'#{challenge_id}')}.",
                                                opponent.transport),
                                    payload={"challenge": challenge_id})
            else:
                await outbox.notify(s, now, transport=place_transport(place), kind="challenge",
                                    place=place,
                                    text=phrase(f"{sender.display_name} challenges anyone "
                                                f"here: {offer}. Answer with {accept}.",
                                                place_transport(place)))
        whom = opponent.display_name if opponent else "anyone here"
        expires = f"It expires {moment(challenge.expires_at)}."
        if opponent is not None and opponent.transport == "email":
            # a mail may wait for a greylisting server, or be refused: not "sent" yet
            return Done(f"Challenge #{challenge_id} for {whom}: {offer}. {expires} The "
                        f"invitation is on its way by mail; if it cannot be delivered, I "
                        f"will tell you and withdraw the challenge.", challenge=challenge)
        return Done(f"Challenge #{challenge_id} sent to {whom}: {offer}. {expires}",
                    challenge=challenge)

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
        words += [describe_clock(c.days, c.time_control), side, "rated" if c.rated else "unrated"]
        if c.start_fen:
            words.append(f"from {c.start_fen}")
        return ", ".join(words)

    async def get_challenge(self, challenge_id: int) -> Challenge | None:
        """Challenge ``challenge_id`` as stored, whatever its status."""
        async with self.db.snapshot() as s:
            return await read_challenge(s, challenge_id)

    async def pending(self, player: Player | None = None, place: str | None = None,
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
                found = await read_challenge(s, challenge_id)
            if found is None:
                return Refusal(Reason.NO_SUCH_CHALLENGE, f"There is no challenge #{challenge_id}.")
            return found
        mine = await self.pending(sender, place)
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
                       f"{command('cancel' if own else 'accept', f'#{mine[0].id}')}.")

    async def _open_challenge(self, s: Session, challenge_id: int,
                              now: float) -> Challenge | Refusal:
        challenge = await read_challenge(s, challenge_id)
        if challenge is None:
            return Refusal(Reason.NO_SUCH_CHALLENGE, f"There is no challenge #{challenge_id}.")
        if challenge.status == "open" and challenge.expires_at <= now:
            challenge = await self._expire(s, challenge, now)
        if challenge.status != "open":
            return Refusal(Reason.CHALLENGE_CLOSED,
                           f"Challenge #{challenge_id} is no longer open: it was "
                           f"{challenge.status}.")
        return challenge

    async def accept(self, sender: Player, challenge_id: int,
                     challenger_answered: bool = False) -> Result:
        """Accept a challenge: the game starts. ``challenger_answered``: the challenger
        learns of the start from the answer to their own command (the computer accepts at
        once), so they get no news of it besides (a second mail, a second line)."""
        now = self.now()
        async with self.db.transaction() as s:
            challenge = await self._open_challenge(s, challenge_id, now)
            if isinstance(challenge, Refusal):
                return challenge
            if challenge.challenger_id == sender.id:
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               f"You cannot accept your own challenge"
                               f"{command('withdraw', f'#{challenge_id}')}.")
            if challenge.opponent_id not in (None, sender.id):
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               f"Challenge #{challenge_id} is for {challenge.opponent_name}, "
                               f"not for you.")
            if challenge.record is not None:
                imported = await self._accept_challenged_import(s, challenge, sender, now)
                if isinstance(imported, Refusal):
                    return imported
                await s.execute("UPDATE challenges SET status = 'accepted', game_id = ? "
                                "WHERE id = ?", (imported.game.id, challenge.id))
                return replace(imported, message=f"Challenge #{challenge_id} accepted. "
                                                 f"{imported.message}", challenge=challenge)
            rules = get_variant(challenge.variant)
            side = challenge.side if challenge.side is not None else self.rng.randrange(2)
            players = (challenge.challenger_id, sender.id)
            if side == 1:
                players = players[::-1]
            start = (rules.parse_position(challenge.start_fen) if challenge.start_fen
                     else rules.start_position(challenge.mode))
            answered = (sender.id, challenge.challenger_id) if challenger_answered \
                else (sender.id,)
            game = await self._create_game(s, rules, challenge.mode, challenge.place, players,
                                           start, challenge.rated, challenge.days, now,
                                           challenge.id, answered=answered)
            await s.execute("UPDATE challenges SET status = 'accepted', game_id = ?, "
                            "opponent_id = ? WHERE id = ?", (game.id, sender.id, challenge.id))
        return Done(f"Challenge #{challenge_id} accepted. {game_started(game, rules)}",
                    game=game, challenge=challenge)

    async def _accept_challenged_import(self, s: Session, challenge: Challenge,
                                        sender: Player, now: float) -> Result:
        row = await s.one("SELECT * FROM players WHERE id = ?", (challenge.challenger_id,))
        assert row is not None
        return await self._accept_import(s, challenge, Player.from_row(row), sender, now)

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

    async def process_challenges(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all(Challenge.CHALLENGE_SQL + " WHERE c.status = 'open' "
                               "AND c.expires_at <= ?" + s.claim("c"), (now,))
            for row in rows:
                await self._expire(s, Challenge.from_row(row), now)
        return len(rows)
