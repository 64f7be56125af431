"""Notifications through an outbox: written in the same transaction as the change that
causes them, delivered by the transport afterwards, each destination on its own.

A change that is committed has its notifications committed with it, and one that is rolled
back has none, so a crash never loses one nor creates one twice. Delivery marks each
notification delivered right after the transport has sent it; a crash between the two
sends that one notification again after the restart, so each carries a stable ``id`` that
a transport able to deduplicate (a message nonce, a Message-ID header) can use.

Each notification belongs to a *lane*: one destination's news of one game (a player, or a
place, and the game). A lane delivers in order; lanes deliver independently, so a
destination that refuses or answers slowly delays nothing but its own lane.

A try that fails is judged by the transport (`DeliveryFailure`): a *transient* failure (a
timeout, a 5xx, an SMTP 4xx, a Discord 429) is tried again after an exponential back-off
with jitter, or after the time the destination asked for; a *permanent* one (Discord 403
or 404, an SMTP 5xx for the recipient) is tried only `TRIES_WHEN_REFUSED` times in all,
since an admin may fix a permission within minutes. The schedule (attempts, the next
try) lives in the row, so a restart continues it. When a notification is given up on, it
is kept as failed with the reason, and when it was a player's news of a game, the game
says so where the opponent and the place can see it (`tell_unreachable`).

Several deliverers of one transport (processes on one PostgreSQL database) share the work:
each takes a notification before sending it (`claim`: its row locked ``FOR UPDATE SKIP
LOCKED`` while a lease, ``claimed_until``, is written), and the others skip it while the
lease lasts, so each is sent once. A deliverer killed mid-send leaves its lease to run out
(`LEASE`); then another sends that notification, as a restart would. On SQLite one process
delivers a transport's rows, so nothing is leased and a restart sends the one in flight at
once.

What the clock does then: it keeps running. A player is "unreachable" when one
transport refuses to deliver to them, which does not prove they cannot see the game (the
thread, the web page); pausing the clock would let anyone stall a game by closing their
DMs. Instead the opponent and the place are told at once, with the deadline, so that they
can reach the player another way.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..i18n import SOURCE, Literal, Text, _, from_json, joined, message_id, moment, render
from ..storage import Database, Session
from .clock import DAY, Clock
from .model import Game, Notification
from .phrasing import phrase

MESSAGE = "message"  # the payload key of a notification's catalogue message
log = logging.getLogger(__name__)

TRIES_WHEN_REFUSED = 3  # permanent failures: tries in all before the verdict
TRIES_WHEN_TRANSIENT = 20  # transient failures: about a day of tries with the back-off below
FIRST_RETRY = 30.0  # seconds after the first failed try
LONGEST_WAIT = 3600.0  # the back-off's ceiling
JITTER = 0.2  # each wait is stretched or shrunk at random by up to this share
KEEP_DELIVERED = 7 * DAY  # delivered rows older than this are pruned
LANES_AT_ONCE = 256  # sends in flight at the same time, per transport
PER_DESTINATION = 4  # sends in flight to one destination: a slow one holds only these
LEASE = 120.0  # seconds a claimed notification is left to its deliverer (longer than a send)
UNREACHABLE = "unreachable"
TOLD = "told"  # in a notification's payload: its refusal was told already
HOW = {"discord": message_id("{name} cannot be reached on Discord"),  # by transport
       "email": message_id("{name} cannot be reached by mail"),
       "console": message_id("{name} cannot be reached on the console")}
NOWHERE = message_id("{name} cannot be reached at all")

Send = Callable[[Notification], Awaitable[None]]

SELECT = "SELECT o.*, p.address FROM outbox o LEFT JOIN players p ON p.id = o.player_id"
WAITING = "o.delivered_at IS NULL AND o.failed_at IS NULL"
PENDING_SQL = f"{SELECT} WHERE o.transport = ? AND {WAITING} ORDER BY o.id LIMIT ?"
HEADS_SQL = f"""{SELECT} WHERE o.id IN (
                    SELECT MIN(id) FROM outbox WHERE transport = ? AND delivered_at IS NULL
                    AND failed_at IS NULL GROUP BY lane)
                AND (o.next_attempt_at IS NULL OR o.next_attempt_at <= ?)
                AND (o.claimed_until IS NULL OR o.claimed_until <= ?)
                ORDER BY o.id LIMIT ?"""
CLAIM_SQL = f"""{SELECT} WHERE o.id = ? AND {WAITING}
                AND (o.next_attempt_at IS NULL OR o.next_attempt_at <= ?)
                AND (o.claimed_until IS NULL OR o.claimed_until <= ?)"""
LANE_HEAD_SQL = f"""{SELECT} WHERE o.transport = ? AND o.lane = ? AND {WAITING}
                    ORDER BY o.id LIMIT 1"""


class DeliveryFailure(Exception):
    """A try that failed, as the transport judged it: ``reason`` in words a player can
    read, whether trying again can help, and how long the destination asked us to wait."""

    def __init__(self, reason: str, *, permanent: bool, retry_after: float | None = None,
                 final: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent or final
        self.retry_after = retry_after
        self.final = final  # the verdict at once: no try could ever deliver it


def lane_of(player_id: int | None, place: str | None, game_id: int | None) -> str:
    """The lane of a notification: its destination and its game."""
    where = f"player:{player_id}" if player_id is not None else f"place:{place or ''}"
    return f"{where}/{'' if game_id is None else game_id}"


async def notify(s: Session, now: float, *, transport: str, kind: str, text: str,
                 player_id: int | None = None, place: str | None = None,
                 game_id: int | None = None, payload: Mapping[str, Any] | None = None,
                 lane: str | None = None, due: float | None = None,
                 message: str | None = None) -> int:
    """Queue a notification inside the caller's transaction; its id. Its lane is its
    destination and game unless given; it is due at once unless ``due`` says when.
    ``text`` is its words in English as the transport phrases them; ``message`` (or
    ``text`` itself) when it is a catalogue's message, is kept too, so that the transport
    words it in its reader's language when it delivers it (`worded`)."""
    source = message if message is not None else text
    if isinstance(source, Text):
        payload = {**(payload or {}), MESSAGE: source.to_json()}
    return await s.insert(
        "INSERT INTO outbox (transport, player_id, place, game_id, kind, text, created_at, "
        "lane, payload, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (transport, player_id, place, game_id, kind, text, now,
         lane or lane_of(player_id, place, game_id), json.dumps(payload) if payload else None,
         due))


async def notify_side(s: Session, game: Game, side: int, kind: str, now: float,
                      text: str, payload: dict[str, Any] | None = None) -> None:
    """News of ``game`` to the player of ``side``; ``payload``: what a transport may
    word it with besides (a turn's number and text, the move number it is news of)."""
    transport = game.transports[side]
    await notify(s, now, transport=transport, kind=kind, text=phrase(text, transport),
                 player_id=game.players[side], place=game.place, game_id=game.id,
                 payload=payload, message=text)


def worded(note: Notification, language: str = SOURCE, literal: Literal | None = None) -> str:
    """The notification's words in its reader's ``language``: its message of the catalogue
    worded and phrased for its transport (its names quoted by ``literal``, if given:
    `bot.i18n.Name`), or its text as stored (news queued as plain words, or before
    messages were kept; in English, unless a name in it needs quoting)."""
    data = note.payload.get(MESSAGE)
    if not isinstance(data, dict) or language == SOURCE and literal is None:
        return note.text
    try:
        message = from_json(data)
        if language == SOURCE and render(message, SOURCE, literal) == str(message):
            return note.text  # as it was stored: no name in it needs quoting
        return phrase(render(message, language, literal), note.transport)
    except (KeyError, TypeError, ValueError):  # a damaged message: its English words
        return note.text


async def pending(db: Database, transport: str, limit: int = 100) -> list[Notification]:
    """The oldest notifications of ``transport`` still to deliver (due or waiting)."""
    async with db.snapshot() as s:
        rows = await s.all(PENDING_SQL, (transport, limit))
    return [Notification.from_row(r) for r in rows]


async def due_heads(db: Database, transport: str, now: float, limit: int = 1000,
                    ) -> list[Notification]:
    """The first notification of each lane of ``transport``, where it is due."""
    async with db.snapshot() as s:
        rows = await s.all(HEADS_SQL, (transport, now, now, limit))
    return [Notification.from_row(r) for r in rows]


async def claim_heads(db: Database, transport: str, now: float, limit: int = 1000,
                      ) -> list[Notification]:
    """The due lane heads of ``transport`` (`due_heads`), taken for sending: on a database
    several processes share, rows another deliverer is claiming are skipped and the ones
    returned are leased to this one (`LEASE`)."""
    if not db.shared:
        return await due_heads(db, transport, now, limit)
    async with db.transaction() as s:
        rows = await s.all(HEADS_SQL + s.claim("o"), (transport, now, now, limit))
        await _lease(s, [r["id"] for r in rows], now + LEASE)
    return [Notification.from_row(r) for r in rows]


async def release(db: Database, notes: list[Notification]) -> None:
    """Give back claimed notifications unsent (their lane was busy here after all)."""
    if notes and db.shared:
        async with db.transaction() as s:
            await _lease(s, [n.id for n in notes], None)


async def _lease(s: Session, ids: list[int], until: float | None) -> None:
    if ids:
        marks = ", ".join("?" for _unused in ids)
        await s.execute(f"UPDATE outbox SET claimed_until = ? WHERE id IN ({marks})",
                        (until, *ids))


async def claim(db: Database, note: Notification, now: float) -> Notification | None:
    """Take a notification for sending: it as it is now, or None when it is no longer this
    deliverer's to send (another one holds it, sent it or put it off since it was read).
    Only a database several processes share needs the lease; on SQLite this deliverer is
    the only one."""
    if not db.shared:
        return note
    async with db.transaction() as s:
        row = await s.one(CLAIM_SQL + s.claim("o"), (note.id, now, now))
        if row is None:
            return None
        await _lease(s, [note.id], now + LEASE)
    return Notification.from_row(row)


async def settle(db: Database, note_id: int, text: str, payload: Mapping[str, Any] | None,
                 **where: object) -> bool:
    """Put the real answer in a held placeholder and make it due now (`bot.service.answers`);
    ``where`` may move it (``place``, ``game_id``, ``lane``). Whether it was still there
    to settle (not sent already after its hold ran out)."""
    sets = "".join(f", {column} = ?" for column in where)
    async with db.transaction() as s:
        return bool(await s.execute(
            f"UPDATE outbox SET text = ?, payload = ?, next_attempt_at = NULL{sets} "
            f"WHERE id = ? AND delivered_at IS NULL AND failed_at IS NULL",
            (text, json.dumps(payload) if payload else None, *where.values(), note_id)))


async def mark_delivered(db: Database, ids: list[int], now: float) -> None:
    if not ids:
        return
    marks = ", ".join("?" for _unused in ids)
    async with db.transaction() as s:
        await s.execute(f"UPDATE outbox SET delivered_at = ? WHERE id IN ({marks}) "
                        f"AND delivered_at IS NULL", (now, *ids))


def retry_delay(attempts: int, rng: random.Random, retry_after: float | None = None) -> float:
    """Seconds to wait after the ``attempts``-th failed try: what the destination asked for,
    else an exponential back-off, both with jitter so that retries do not come in herds."""
    if retry_after is not None:
        return retry_after * rng.uniform(1.0, 1.0 + JITTER)  # never sooner than asked
    base = min(LONGEST_WAIT, FIRST_RETRY * 2 ** (attempts - 1))
    return base * rng.uniform(1.0 - JITTER, 1.0 + JITTER)


def gives_up(attempts: int, failure: DeliveryFailure) -> bool:
    limit = TRIES_WHEN_REFUSED if failure.permanent else TRIES_WHEN_TRANSIENT
    return failure.final or attempts >= limit


async def record_failure(db: Database, note: Notification, failure: DeliveryFailure,
                         now: float, rng: random.Random) -> bool:
    """Store a failed try and when to try next, or the verdict; whether it was given up."""
    attempts = note.attempts + 1
    final = gives_up(attempts, failure)
    # news a game's place refuses is told to its players at the first refusal (its post is
    # still tried again: a permission may come back), not only when it is given up
    told = bool(note.payload.get(TOLD))
    tell = failure.permanent and note.player_id is None and note.game_id is not None \
        and not told
    async with db.transaction() as s:
        if tell and not final:
            await s.execute("UPDATE outbox SET payload = ? WHERE id = ?",
                            (json.dumps({**note.payload, TOLD: True}), note.id))
        if (tell or not told) and (final or tell):
            await tell_unreachable(s, note, failure.reason, now)
        if final:
            await s.execute("UPDATE outbox SET attempts = ?, failure = ?, failed_at = ?, "
                            "next_attempt_at = NULL WHERE id = ?",
                            (attempts, failure.reason, now, note.id))
        else:
            await s.execute("UPDATE outbox SET attempts = ?, failure = ?, next_attempt_at = ?, "
                            "claimed_until = NULL "
                            "WHERE id = ?", (attempts, failure.reason,
                                             now + retry_delay(attempts, rng,
                                                               failure.retry_after), note.id))
    if final:
        log.warning("notification %s to %s given up after %s tries: %s", note.id, note.lane,
                    attempts, failure.reason)
    return final


async def bounced(db: Database, note_id: int, reason: str, now: float) -> None:
    """Notification ``note_id`` reached the relay, but a bounce (believed: it quotes our
    Message-ID) says it never arrived: told as a failed delivery is (a challenge that
    never arrived is withdrawn and its challenger told; a game's players hear of it)."""
    async with db.transaction() as s:
        row = await s.one(f"{SELECT} WHERE o.id = ?", (note_id,))
        if row is not None:
            await tell_unreachable(s, Notification.from_row(row), reason, now)


def _without_addresses(reason: str) -> str:
    """A delivery failure's reason as others may read it: a player's mail address is
    personal (the place's news is public, a Discord thread or the web's), so each word
    holding an ``@`` is said as "their address" (its closing punctuation kept). One pass
    over the words."""
    def hidden(word: str) -> str:
        bare = word.rstrip(",.;:)")
        return "their address" + word[len(bare):] if "@" in bare else word
    if isinstance(reason, Text) or "@" not in reason:  # a message keeps its words
        return reason
    return " ".join(hidden(word) for word in reason.split(" "))


async def tell_unreachable(s: Session, note: Notification, reason: str, now: float) -> None:
    """Say in a game that one of its players, or its place, cannot be reached: in the
    game's place and to the other player, once a day at most per player and game. A
    challenge that cannot be delivered is told to its challenger."""
    if note.game_id is None and note.kind == "challenge":
        await _tell_challenger(s, note, reason, now)
    if note.game_id is None or note.kind == UNREACHABLE:
        return
    game = await s.one("SELECT g.*, a.display_name AS name0, b.display_name AS name1, "
                       "a.transport AS transport0, b.transport AS transport1 FROM games g "
                       "JOIN players a ON a.id = g.player0 JOIN players b ON b.id = g.player1 "
                       "WHERE g.id = ?", (note.game_id,))
    if game is None or note.player_id not in (None, game["player0"], game["player1"]):
        return  # a watcher's copy that does not go tells nobody
    about = note.player_id if note.player_id is not None else 0  # 0: the place
    payload = {"about": about, "dm": True}
    # the payload as stored: these keys first, then the message it keeps, if any
    told = await s.one("SELECT 1 FROM outbox WHERE kind = ? AND game_id = ? AND (payload = ? "
                       "OR payload LIKE ?) AND created_at > ?",
                       (UNREACHABLE, game["id"], json.dumps(payload),
                        json.dumps(payload)[:-1] + ", %", now - DAY))
    if note.player_id is None and (note.text or not told):
        # the players get every news the place did not, the advice once a day
        text = _("I cannot post the news of game #{game} where it is played ({reason}): "
                 "{news}", game=game["id"], reason=reason, news=_message(note)) if note.text \
            else _("I cannot post the news of game #{game} where it is played ({reason}).",
                   game=game["id"], reason=reason)
        if not told:
            text = joined([text, _("Ask the server's admins to check the bot's permissions "
                                   "there (`/server check`); the clocks keep running.")], "\n")
        for side in (0, 1):
            await notify(s, now, transport=game[f"transport{side}"], kind=UNREACHABLE,
                         text=phrase(text, game[f"transport{side}"]),
                         player_id=game[f"player{side}"], place=game["place"],
                         game_id=game["id"], payload=payload, message=text)
        return
    if told or note.player_id is None:
        return
    side = 0 if game["player0"] == note.player_id else 1
    text = _("{unreachable} ({reason}); {clock}", unreachable=Text(
        HOW.get(note.transport, NOWHERE), {"name": game[f"name{side}"]}),
        reason=_without_addresses(reason), clock=_clock_words(game, side))
    transport = game["place"].split(":", 1)[0]
    await notify(s, now, transport=transport, kind=UNREACHABLE, text=text, place=game["place"],
                 game_id=game["id"], payload=payload)
    if game[f"player{1 - side}"] != note.player_id:
        await notify(s, now, transport=game[f"transport{1 - side}"], kind=UNREACHABLE,
                     text=text, player_id=game[f"player{1 - side}"], place=game["place"],
                     game_id=game["id"], payload=payload)


async def _tell_challenger(s: Session, note: Notification, reason: str, now: float) -> None:
    """Tell the challenger, on their own transport, that their challenge did not reach
    the player it names; a challenge still open is withdrawn (status ``undelivered``), as
    nobody can accept what never arrived."""
    if note.player_id is None:
        return
    row = await s.one("SELECT c.id, c.challenger_id, c.place, c.status, p.transport "
                      "FROM challenges c JOIN players p ON p.id = c.challenger_id "
                      "WHERE c.opponent_id = ? AND c.created_at = ? ORDER BY c.id DESC LIMIT 1",
                      (note.player_id, note.created_at))
    if row is None:
        return
    text = _("Your challenge to {address} could not be delivered: {reason}.",
             address=note.address, reason=reason)
    if row["status"] == "open":
        await s.execute("UPDATE challenges SET status = 'undelivered' WHERE id = ?",
                        (row["id"],))
        text = joined([text, _("I have withdrawn challenge #{challenge}; check the address "
                               "and challenge again.", challenge=row["id"])])
    await notify(s, now, transport=row["transport"], kind=UNREACHABLE, text=text,
                 player_id=row["challenger_id"], place=row["place"],
                 payload={"dm": True, "challenge": row["id"]})


def _clock_words(game: Mapping[str, Any], side: int) -> Text:
    """What the unreachable player's clock does: it keeps running (see the module's text)."""
    if game["status"] != "active":
        return _("the game is over.")
    if game["to_move"] == side and game["deadline"] is not None:
        return _("their clock keeps running: they lose on time at {deadline} unless they "
                 "move.", deadline=moment(game["deadline"]))
    if game["days"] is None:
        return _("the game has no clock, so it waits for them.")
    return _("their clock keeps running as usual.")


def _message(note: Notification) -> str:
    """The notification's message of the catalogue, or its words as stored."""
    data = note.payload.get(MESSAGE)
    try:
        return from_json(data) if isinstance(data, dict) else note.text
    except ValueError:
        return note.text


class Courier:
    """Delivers one transport's outbox, lane by lane: each lane in order, lanes at once.

    ``send`` raises `DeliveryFailure` for a failed try (any other exception counts as a
    transient failure). A lane is worked by one task at a time, so calling `deliver`
    again while a slow lane is still sending starts only the lanes that are free. Sends in
    flight are limited per destination (a slow destination occupies only its own few) and
    in all."""

    def __init__(self, db: Database, transport: str, send: Send, now: Clock,
                 rng: random.Random | None = None, lanes_at_once: int = LANES_AT_ONCE) -> None:
        self.db = db
        self.transport = transport
        self.send = send
        self.now = now
        self.rng = rng or random.Random()
        self._busy: dict[str, asyncio.Task[int]] = {}
        self._again: set[str] = set()  # busy lanes found with news: their task looks again
        self._scanning = asyncio.Lock()
        self._rescan = False  # a pass came while another scanned: that one scans again
        self._slots = asyncio.Semaphore(lanes_at_once)
        self._destinations: dict[str, asyncio.Semaphore] = {}

    async def deliver(self) -> int:
        """Deliver everything due now, waiting for the lanes this call starts; how many
        notifications were sent."""
        sent = 0
        while started := await self._start_due_lanes():
            sent += sum(await asyncio.gather(*started))
        return sent

    async def stop(self) -> None:
        """Cut every lane short (a send cut short stays pending: it goes after a start)."""
        for task in list(self._busy.values()):
            task.cancel()
        await asyncio.gather(*self._busy.values(), return_exceptions=True)

    async def _start_due_lanes(self) -> list[asyncio.Task[int]]:
        """Start a task for each lane with a due head. One pass scans at a time: a pass
        that comes meanwhile leaves it to the scanning one to look once more (many passes
        poked by a burst of commits cost one scan, not one each)."""
        if self._scanning.locked():
            self._rescan = True
            return []
        started = []
        async with self._scanning:
            self._rescan = True
            while self._rescan:
                self._rescan = False
                busy = []
                for head in await claim_heads(self.db, self.transport, self.now()):
                    if head.lane in self._busy:
                        self._again.add(head.lane)
                        busy.append(head)  # its task claims it when it comes to it
                    else:
                        task = asyncio.create_task(self._work_lane(head))
                        self._busy[head.lane] = task
                        started.append(task)
                await release(self.db, busy)
        return started

    async def _work_lane(self, head: Notification) -> int:
        """Send a lane's notifications in order until it is empty or must wait; ``head``
        is claimed already, each next one is claimed before it is sent."""
        sent = 0
        lane = head.lane
        try:
            note: Notification | None = head
            destination = lane.rsplit("/", 1)[0]
            while note is not None:
                async with self._destination(destination), self._slots:
                    sent += await self._try(note)
                note = await self._take_next(lane)
                if note is None and lane in self._again:
                    # news came while this lane was busy (a pass skipped it): look again;
                    # no await between this check and leaving, so none is stranded
                    self._again.discard(lane)
                    note = await self._take_next(lane)
        finally:
            del self._busy[lane]
            self._again.discard(lane)
        return sent

    def _destination(self, destination: str) -> asyncio.Semaphore:
        if destination not in self._destinations:
            if len(self._destinations) > 10_000:  # forget idle destinations now and then
                self._destinations = {k: v for k, v in self._destinations.items()
                                      if v.locked()}
            self._destinations[destination] = asyncio.Semaphore(PER_DESTINATION)
        return self._destinations[destination]

    async def _try(self, note: Notification) -> bool:
        try:
            await self.send(note)
        except DeliveryFailure as failure:
            await record_failure(self.db, note, failure, self.now(), self.rng)
            return False
        except Exception as err:  # an unforeseen error: logged, and tried again later
            log.exception("delivering notification %s failed", note.id)
            await record_failure(self.db, note, DeliveryFailure(
                f"{type(err).__name__}: {err}", permanent=False), self.now(), self.rng)
            return False
        await mark_delivered(self.db, [note.id], self.now())
        return True

    async def _take_next(self, lane: str) -> Notification | None:
        """The lane's next due notification, claimed; None when there is none or another
        deliverer has taken the lane (it sends the rest, in order)."""
        note = await self._next_in_lane(lane)
        return None if note is None else await claim(self.db, note, self.now())

    async def _next_in_lane(self, lane: str) -> Notification | None:
        """The lane's next notification if it is due (a failed try leaves it waiting)."""
        async with self.db.snapshot() as s:
            row = await s.one(LANE_HEAD_SQL, (self.transport, lane))
        if row is None:
            return None
        note = Notification.from_row(row)
        due = row["next_attempt_at"]
        return note if due is None or due <= self.now() else None


async def deliver(db: Database, transport: str, send: Send, now: Clock,
                  rng: random.Random | None = None) -> int:
    """Send every due notification of ``transport`` (one pass); how many were sent."""
    return await Courier(db, transport, send, now, rng).deliver()


# --- a view of what is stuck ------------------------------------------------------------
async def stuck(db: Database, *, failed: bool | None = None, limit: int = 200,
                ) -> list[Notification]:
    """Undelivered notifications of every transport: pending ones, failed ones, or both."""
    where = {None: "o.delivered_at IS NULL", True: "o.failed_at IS NOT NULL",
             False: WAITING}[failed]
    async with db.snapshot() as s:
        rows = await s.all(f"{SELECT} WHERE {where} ORDER BY o.id LIMIT ?", (limit,))
    return [Notification.from_row(r) for r in rows]


async def refused_places(db: Database, transport: str, now: float,
                         since: float = KEEP_DELIVERED) -> list[str]:
    """The places of ``transport`` that refused news within ``since`` (`catch_up`)."""
    async with db.snapshot() as s:
        rows = await s.all("SELECT DISTINCT place FROM outbox WHERE transport = ? AND "
                           "player_id IS NULL AND (failed_at IS NOT NULL OR (attempts > 0 "
                           "AND next_attempt_at > ?)) AND delivered_at IS NULL AND kind != ? "
                           "AND created_at > ? AND place IS NOT NULL",
                           (transport, now, UNREACHABLE, now - since))
    return [str(r["place"]) for r in rows]


async def catch_up(db: Database, transport: str, place: str, kind: str, now: float,
                   since: float = KEEP_DELIVERED) -> list[int]:
    """The news of ``place`` that was refused there (its post failed for good within
    ``since``, or failed and waits to be tried again), gathered into one notification of
    ``kind`` per game still going on, which tells it all (one line each, in order) with the
    game's move number now (payload ``caught_up``); the refused ones are settled, so that
    each is caught up once. The new notifications' ids."""
    made: list[int] = []
    async with db.transaction() as s:
        rows = await s.all(
            f"{SELECT} JOIN games g ON g.id = o.game_id WHERE o.transport = ? AND o.place = ? "
            f"AND o.player_id IS NULL AND (o.failed_at IS NOT NULL OR (o.attempts > 0 AND "
            f"o.next_attempt_at > ?)) AND o.delivered_at IS NULL AND o.kind != ? AND "
            f"o.created_at > ? AND g.status = 'active' ORDER BY o.id",
            (transport, place, now, UNREACHABLE, now - since))
        by_game: dict[int, list[str]] = {}
        for row in rows:
            lines = by_game.setdefault(int(row["game_id"]), [])
            if row["text"] and row["text"] not in lines:
                lines.append(_message(Notification.from_row(row)))
        if rows:
            marks = ", ".join("?" for _unused in rows)
            await s.execute(f"UPDATE outbox SET delivered_at = ? WHERE id IN ({marks})",
                            (now, *[r["id"] for r in rows]))
        for game_id, lines in by_game.items():
            game = await s.one("SELECT ply FROM games WHERE id = ?", (game_id,))
            assert game is not None
            told = joined([_("While I could not post here:"), *lines], "\n")
            made.append(await notify(
                s, now, transport=transport, kind=kind, place=place, game_id=game_id,
                text=phrase(told, transport), message=told,
                payload={"ply": int(game["ply"]), "caught_up": True}))
    return made


async def retry(db: Database, ids: list[int]) -> int:
    """Make undelivered notifications due now, failed ones included; how many."""
    return await _update(db, "SET failed_at = NULL, next_attempt_at = NULL, attempts = 0", ids)


async def drop(db: Database, ids: list[int], now: float) -> int:
    """Give up on undelivered notifications without sending them; how many."""
    return await _update(db, "SET failed_at = ?, failure = 'dropped by the host'", ids, now)


async def _update(db: Database, change: str, ids: list[int], *first: object) -> int:
    if not ids:
        return 0
    marks = ", ".join("?" for _unused in ids)
    async with db.transaction() as s:
        return await s.execute(f"UPDATE outbox {change} WHERE id IN ({marks}) "
                               f"AND delivered_at IS NULL", (*first, *ids))


async def prune(db: Database, now: float, keep: float = KEEP_DELIVERED) -> int:
    """Forget notifications delivered more than ``keep`` seconds ago; how many."""
    async with db.transaction() as s:
        return await s.execute("DELETE FROM outbox WHERE delivered_at IS NOT NULL "
                               "AND delivered_at < ?", (now - keep,))
