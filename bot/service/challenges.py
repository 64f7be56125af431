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
from ..i18n import Text, _, joined, message_id
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
from .results import Done, Reason, Refusal, Result, engine_words
from .words import or_list, side_name, variant_name


def game_started(game: Game, rules: Variant) -> Text:
    return _("Game #{game} started: {players}, {variant}, {clock}. {name} ({side}) moves "
             "first.", game=game.id, players=players_line(game, rules),
             variant=variant_name(rules), clock=describe_clock(game.days, game.time_control),
             name=game.names[game.to_move], side=side_name(rules, game.to_move))


def game_terms(variant: str | None, mode: str | None, days: int | None
               ) -> tuple[Variant, str] | Refusal:
    """The rules and mode of games asked for (by a challenge, a tournament): the variant
    (default: the first listed), its mode (default: its first), and days per move that
    the clock allows; or why they cannot be."""
    try:
        rules = get_variant(variant) if variant else all_variants()[0]
    except EngineError:
        known = ", ".join(v.name for v in all_variants())
        return Refusal(Reason.UNKNOWN_VARIANT,
                       _("There is no variant called {variant}. Choose one of: {known}.",
                         variant=repr(variant), known=known))
    mode = mode or rules.modes[0]
    if mode not in rules.modes:
        return Refusal(Reason.UNKNOWN_MODE,
                       _("{variant} has no mode {mode}; its modes are {modes}.",
                         variant=variant_name(rules), mode=repr(mode),
                         modes=or_list(rules.modes)))
    if days is not None and days not in ALLOWED_DAYS:
        return Refusal(Reason.BAD_TIME_CONTROL,
                       _("{problem}.", problem=time_control_help(str(days))))
    return rules, mode


def _no_challenge(challenge_id: int) -> Refusal:
    return Refusal(Reason.NO_SUCH_CHALLENGE,
                   _("There is no challenge #{challenge}.", challenge=challenge_id))


CLOSED = {  # what became of a challenge that can no longer be answered, per status
    "accepted": message_id("Challenge #{challenge} is no longer open: it was accepted."),
    "declined": message_id("Challenge #{challenge} is no longer open: it was declined."),
    "cancelled": message_id("Challenge #{challenge} is no longer open: it was cancelled."),
    "expired": message_id("Challenge #{challenge} is no longer open: it was expired."),
    "undelivered": message_id("Challenge #{challenge} is no longer open: it was "
                              "undelivered."),
}


def _closed(challenge_id: int, status: str) -> Text:
    """Why challenge ``challenge_id`` cannot be answered: what became of it."""
    if status in CLOSED:
        return Text(CLOSED[status], {"challenge": challenge_id})
    return _("Challenge #{challenge} is no longer open: it was {status}.",
             challenge=challenge_id, status=status)


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
        terms = game_terms(variant, mode, days)
        if isinstance(terms, Refusal):
            return terms
        rules, mode = terms
        if opponent is not None and opponent.id == sender.id:
            return Refusal(Reason.SELF_CHALLENGE, _("You cannot challenge yourself."))
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
                news = _("{name} challenges you: {offer}. Answer with {accept} or {decline}.",
                         name=sender.display_name, offer=offer, accept=accept,
                         decline=command("decline", f"#{challenge_id}"))
                await outbox.notify(s, now, transport=opponent.transport, kind="challenge",
                                    player_id=opponent.id, place=place,
                                    text=phrase(news, opponent.transport), message=news,
                                    payload={"challenge": challenge_id})
            else:
                news = _("{name} challenges anyone here: {offer}. Answer with {accept}.",
                         name=sender.display_name, offer=offer, accept=accept)
                await outbox.notify(s, now, transport=place_transport(place), kind="challenge",
                                    place=place, text=phrase(news, place_transport(place)),
                                    message=news)
        whom = opponent.display_name if opponent else _("anyone here")
        expires = _("It expires {moment}.", moment=moment(challenge.expires_at))
        if opponent is not None and opponent.transport == "email":
            # a mail may wait for a greylisting server, or be refused: not "sent" yet
            return Done(_("Challenge #{challenge} for {whom}: {offer}. {expires} The "
                          "invitation is on its way by mail; if it cannot be delivered, I "
                          "will tell you and withdraw the challenge.", challenge=challenge_id,
                          whom=whom, offer=offer, expires=expires), challenge=challenge)
        return Done(_("Challenge #{challenge} sent to {whom}: {offer}. {expires}",
                      challenge=challenge_id, whom=whom, offer=offer, expires=expires),
                    challenge=challenge)

    def _start_position(self, rules: Variant, fen: str, mode: str) -> Position | Refusal:
        try:
            start = rules.parse_position(fen)
        except EngineError as err:
            return Refusal(Reason.BAD_POSITION,
                           _("That start position cannot be used: {reason}",
                             reason=engine_words(err)))
        if rules.outcome(start, (), mode).is_over or not rules.legal_moves(start):
            return Refusal(Reason.BAD_POSITION, _("That start position cannot be used: the "
                                                  "game would be over before it starts."))
        return start

    def _describe_challenge(self, c: Challenge) -> Text:
        rules = get_variant(c.variant)
        side = (_("side chosen at random") if c.side is None
                else _("{name} plays {side}", name=c.challenger_name,
                       side=side_name(rules, c.side)))
        words: list[str] = [variant_name(rules)]
        if c.mode != rules.modes[0]:
            words.append(_("{mode} mode", mode=c.mode))
        words += [describe_clock(c.days, c.time_control), side,
                  _("rated") if c.rated else _("unrated")]
        if c.start_fen:
            words.append(_("from {fen}", fen=c.start_fen))
        return joined(words, ", ")

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
                return _no_challenge(challenge_id)
            return found
        mine = await self.pending(sender, place)
        if own:
            mine = [c for c in mine if c.challenger_id == sender.id]
        else:
            mine = [c for c in mine if c.challenger_id != sender.id]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            return Refusal(Reason.NO_SUCH_CHALLENGE,
                           _("You made no open challenge here.") if own
                           else _("You have no challenge to answer here."))
        listed = joined([joined([f"#{c.id} ({c.challenger_name}, ",
                                 variant_name(get_variant(c.variant)), ")"], "")
                         for c in mine], ", ")  # each variant's name in the reader's words
        return Refusal(Reason.WHICH_CHALLENGE,
                       _("There are several challenges: {listed}. Say which, as in {example}.",
                         listed=listed,
                         example=command("cancel" if own else "accept", f"#{mine[0].id}")))

    async def _open_challenge(self, s: Session, challenge_id: int,
                              now: float) -> Challenge | Refusal:
        challenge = await read_challenge(s, challenge_id)
        if challenge is None:
            return _no_challenge(challenge_id)
        if challenge.status == "open" and challenge.expires_at <= now:
            challenge = await self._expire(s, challenge, now)
        if challenge.status != "open":
            return Refusal(Reason.CHALLENGE_CLOSED, _closed(challenge_id, challenge.status))
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
                               _("You cannot accept your own challenge{withdraw}.",
                                 withdraw=_("; withdraw it with {command}",
                                            command=command("cancel", f"#{challenge_id}"))))
            if challenge.opponent_id not in (None, sender.id):
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               _("Challenge #{challenge} is for {name}, not for you.",
                                 challenge=challenge_id, name=challenge.opponent_name))
            if challenge.record is not None:
                imported = await self._accept_challenged_import(s, challenge, sender, now)
                if isinstance(imported, Refusal):
                    return imported
                await s.execute("UPDATE challenges SET status = 'accepted', game_id = ? "
                                "WHERE id = ?", (imported.game.id, challenge.id))
                return replace(imported, message=joined(
                    [_("Challenge #{challenge} accepted.", challenge=challenge_id),
                     imported.template]), challenge=challenge)
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
        return Done(joined([_("Challenge #{challenge} accepted.", challenge=challenge_id),
                            game_started(game, rules)]), game=game, challenge=challenge)

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
                why = (_("it is open to anyone: simply leave it")
                       if challenge.opponent_id is None else _("it is not addressed to you"))
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               _("You cannot decline challenge #{challenge}: {why}.",
                                 challenge=challenge_id, why=why))
            await self._close_challenge(s, challenge, "declined", now,
                                        _("{name} declined your challenge #{challenge}.",
                                          name=sender.display_name, challenge=challenge_id))
        return Done(_("Challenge #{challenge} declined.", challenge=challenge_id),
                    challenge=challenge)

    async def cancel(self, sender: Player, challenge_id: int) -> Result:
        """Withdraw a challenge you made."""
        now = self.now()
        async with self.db.transaction() as s:
            challenge = await self._open_challenge(s, challenge_id, now)
            if isinstance(challenge, Refusal):
                return challenge
            if challenge.challenger_id != sender.id:
                return Refusal(Reason.NOT_YOUR_CHALLENGE,
                               _("Challenge #{challenge} is {name}'s; only they can cancel it.",
                                 challenge=challenge_id, name=challenge.challenger_name))
            await s.execute("UPDATE challenges SET status = 'cancelled' WHERE id = ?",
                            (challenge.id,))
            if challenge.opponent_id is not None:
                player = await s.one("SELECT transport FROM players WHERE id = ?",
                                     (challenge.opponent_id,))
                assert player is not None
                await outbox.notify(s, now, transport=player["transport"], kind="challenge",
                                    player_id=challenge.opponent_id, place=challenge.place,
                                    text=_("{name} withdrew challenge #{challenge}.",
                                           name=challenge.challenger_name,
                                           challenge=challenge.id))
        return Done(_("Challenge #{challenge} cancelled.", challenge=challenge_id),
                    challenge=challenge)

    async def _close_challenge(self, s: Session, challenge: Challenge, status: str, now: float,
                               text: Text) -> Challenge:
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
            _("Your challenge #{challenge} ({offer}) expired unanswered.",
              challenge=challenge.id, offer=self._describe_challenge(challenge)))

    async def process_challenges(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all(Challenge.CHALLENGE_SQL + " WHERE c.status = 'open' "
                               "AND c.expires_at <= ?" + s.claim("c"), (now,))
            for row in rows:
                await self._expire(s, Challenge.from_row(row), now)
        return len(rows)
