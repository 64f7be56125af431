"""What the e-mail transport remembers between mails, in the database so that a restart
forgets none of it: rate-limit counters (per game key and per unkeyed sender, apart, so
that forged mail cannot lock a player out of their games), mails and commands already
answered, and per address whether it ever wrote, whether a challenge was mailed to it
unasked, and whether it said `stop`.

`MailLedger` is the service's `mail` topic; it uses the database and the clock.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from ..storage import Database, Session
from . import outbox
from .boundary import guard
from .clock import Clock

SEEN_DAYS = 30  # how long a Message-ID or command is remembered as answered
SECRET_KEY = "email:message-id-secret"  # transport_state: this database's own secret
ADDRESS_FACTS = ("wrote_at", "invited_at", "stopped_at", "bounced_at", "bounce_reason",
                 "unanswered", "quiet_until")


@dataclass(frozen=True)
class RateCount:
    """One mail counted against a bucket: how many in the window, whether the sender was
    told of the limit before, and when the window ends."""

    count: int
    told: bool
    retry_at: float


@guard  # every argument of every public method is checked before it runs
class MailLedger:
    """The e-mail gateway's bookkeeping (`GameService.mail`): the database and the clock."""

    def __init__(self, db: Database, now: Clock) -> None:
        self.db, self.now = db, now

    async def count_mail(self, bucket: str, window: float) -> RateCount:
        """Count one mail against ``bucket`` in a fixed window of ``window`` seconds."""
        now = self.now()
        async with self.db.transaction() as s:
            await s.execute(
                "INSERT INTO mail_rates (bucket, window_start, count) VALUES (?, ?, 1) "
                "ON CONFLICT (bucket) DO UPDATE SET "
                "count = CASE WHEN window_start <= ? THEN 1 ELSE count + 1 END, "
                "told = CASE WHEN window_start <= ? THEN 0 ELSE told END, "
                "window_start = CASE WHEN window_start <= ? THEN ? ELSE window_start END",
                (bucket, now, now - window, now - window, now - window, now))
            row = await s.one("SELECT * FROM mail_rates WHERE bucket = ?", (bucket,))
        assert row is not None
        return RateCount(int(row["count"]), bool(row["told"]), row["window_start"] + window)

    async def mark_told(self, bucket: str) -> None:
        """Remember that the sender of ``bucket`` was told of the limit in this window."""
        async with self.db.transaction() as s:
            await s.execute("UPDATE mail_rates SET told = 1 WHERE bucket = ?", (bucket,))

    async def seen_before(self, digest: str) -> bool:
        """Whether ``digest`` (a Message-ID, or a key with its command) was answered."""
        async with self.db.snapshot() as s:
            return await s.one("SELECT 1 FROM mail_seen WHERE digest = ?", (digest,)) is not None

    async def mark_seen(self, *digests: str) -> None:
        """Remember ``digests`` as answered (and forget those older than `SEEN_DAYS`)."""
        async with self.db.transaction() as s:
            await remember_seen(s, self.now(), digests)

    async def mail_address(self, address: str) -> dict[str, Any]:
        """What is known of ``address``: ``wrote_at``, ``invited_at``, ``stopped_at``,
        ``bounced_at`` with ``bounce_reason``, and the loop counter ``unanswered`` with the
        silence it caused, ``quiet_until``."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT * FROM mail_addresses WHERE address = ?", (address,))
        return {n: (row[n] if row else None) for n in ADDRESS_FACTS}

    async def mark_bounced(self, address: str, reason: str | None = None) -> None:
        """Record that mail to ``address`` bounced (a 5xx, a believed bounce) and why;
        ``reason`` None forgets it (the address wrote to us, so it works again)."""
        async with self.db.transaction() as s:
            await s.execute("INSERT INTO mail_addresses (address) VALUES (?) "
                            "ON CONFLICT (address) DO NOTHING", (address,))
            await s.execute("UPDATE mail_addresses SET bounced_at = ?, bounce_reason = ? "
                            "WHERE address = ?",
                            (None if reason is None else self.now(), reason, address))

    async def count_unanswered(self, address: str, answered: bool, limit: int,
                               quiet: float) -> tuple[int, float | None]:
        """Count one mail of ``address`` in its run of mails without a command (``answered``:
        this one had a command, which ends the run): the mails in the run, and the end of
        the silence it caused (set once the run exceeds ``limit``, for ``quiet`` seconds;
        a run that outlived its silence starts again)."""
        now = self.now()
        async with self.db.transaction() as s:
            await s.execute("INSERT INTO mail_addresses (address) VALUES (?) "
                            "ON CONFLICT (address) DO NOTHING", (address,))
            if answered:
                await s.execute("UPDATE mail_addresses SET unanswered = 0, quiet_until = NULL "
                                "WHERE address = ?", (address,))
                return 0, None
            await s.execute(
                "UPDATE mail_addresses SET "
                "unanswered = CASE WHEN quiet_until IS NOT NULL AND quiet_until <= ? THEN 1 "
                "ELSE unanswered + 1 END, "
                "quiet_until = CASE WHEN quiet_until IS NOT NULL AND quiet_until <= ? THEN NULL "
                "ELSE quiet_until END WHERE address = ?", (now, now, address))
            await s.execute("UPDATE mail_addresses SET quiet_until = ? WHERE address = ? "
                            "AND quiet_until IS NULL AND unanswered > ?",
                            (now + quiet, address, limit))
            row = await s.one("SELECT unanswered, quiet_until FROM mail_addresses "
                              "WHERE address = ?", (address,))
        assert row is not None
        return int(row["unanswered"]), row["quiet_until"]

    async def mail_secret(self) -> str:
        """This database's secret for the Message-IDs it sends, made at first use: a
        rebuilt or restored-from-scratch database makes a new one, so no Message-ID repeats."""
        async with self.db.transaction() as s:
            await s.execute("INSERT INTO transport_state (key, value, updated_at) "
                            "VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
                            (SECRET_KEY, secrets.token_hex(32), self.now()))
            row = await s.one("SELECT value FROM transport_state WHERE key = ?", (SECRET_KEY,))
        assert row is not None
        return str(row["value"])

    async def mail_subject(self, thread: str, subject: str) -> str:
        """The subject of ``thread`` (``game:ID``, ``challenge:ID``): ``subject`` if it has
        none yet, else the one it was first given, so that renaming a player splits no
        thread."""
        async with self.db.transaction() as s:
            await s.execute("INSERT INTO mail_subjects (thread, subject, created_at) "
                            "VALUES (?, ?, ?) ON CONFLICT (thread) DO NOTHING",
                            (thread, subject, self.now()))
            row = await s.one("SELECT subject FROM mail_subjects WHERE thread = ?", (thread,))
        assert row is not None
        return str(row["subject"])

    async def note_bounced(self, note_id: int, reason: str) -> None:
        """A mail notification bounced after its relay took it (`outbox.bounced`)."""
        await outbox.bounced(self.db, note_id, reason, self.now())

    async def mail_recipient(self, note_id: int) -> str | None:
        """The address a mail notification of the outbox went to (None: not known, or
        pruned), to believe a bounce only about the address that was mailed."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT o.payload, p.address FROM outbox o LEFT JOIN players p "
                              "ON p.id = o.player_id WHERE o.id = ? AND o.transport = 'email'",
                              (note_id,))
        if row is None:
            return None
        if row["address"]:
            return str(row["address"])
        to = json.loads(row["payload"]).get("to") if row["payload"] else None
        return str(to) if to else None

    async def mark_address(self, address: str, what: str) -> bool:
        """Set ``what`` (wrote_at, invited_at or stopped_at) of ``address`` unless it is set
        already; whether this call set it."""
        if what not in ("wrote_at", "invited_at", "stopped_at"):
            raise ValueError(f"no such mark: {what!r}")
        async with self.db.transaction() as s:
            await s.execute("INSERT INTO mail_addresses (address) VALUES (?) "
                            "ON CONFLICT (address) DO NOTHING", (address,))
            changed = await s.execute(f"UPDATE mail_addresses SET {what} = ? "
                                      f"WHERE address = ? AND {what} IS NULL",
                                      (self.now(), address))
        return changed > 0

    async def clear_stop(self, address: str) -> bool:
        """Undo `stop` of ``address`` (it wrote to us, with authority): whether it was set."""
        async with self.db.transaction() as s:
            return await s.execute("UPDATE mail_addresses SET stopped_at = NULL "
                                   "WHERE address = ? AND stopped_at IS NOT NULL",
                                   (address,)) > 0


async def remember_seen(s: Session, now: float, digests: tuple[str, ...]) -> None:
    """Inside the caller's transaction: remember ``digests`` as answered (and forget those
    older than `SEEN_DAYS`). A command's answer owed by mail does it with the change the
    command made (`bot.service.answers`), so a mail sent again after a crash is a duplicate."""
    await s.execute("DELETE FROM mail_seen WHERE seen_at < ?", (now - SEEN_DAYS * 86400,))
    for digest in digests:
        await s.execute("INSERT INTO mail_seen (digest, seen_at) VALUES (?, ?) "
                        "ON CONFLICT (digest) DO NOTHING", (digest, now))
