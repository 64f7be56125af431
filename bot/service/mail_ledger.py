"""What the e-mail transport remembers between mails, in the database so that a restart
forgets none of it: rate-limit counters (per game key and per unkeyed sender, apart, so
that forged mail cannot lock a player out of their games), mails and commands already
answered, and per address whether it ever wrote, whether a challenge was mailed to it
unasked, and whether it said `stop`.

`MailLedger` is part of `bot.service.GameService`; it uses the service's database and clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..storage import Database, Session
from .clock import Clock

SEEN_DAYS = 30  # how long a Message-ID or command is remembered as answered


@dataclass(frozen=True)
class RateCount:
    """One mail counted against a bucket: how many in the window, whether the sender was
    told of the limit before, and when the window ends."""

    count: int
    told: bool
    retry_at: float


class MailLedger:
    """The e-mail bookkeeping of the game service (which provides the database and clock)."""

    db: Database
    now: Clock

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

    async def mail_address(self, address: str) -> dict[str, float | None]:
        """What is known of ``address``: ``wrote_at``, ``invited_at``, ``stopped_at``."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT * FROM mail_addresses WHERE address = ?", (address,))
        names = ("wrote_at", "invited_at", "stopped_at")
        return {n: (row[n] if row else None) for n in names}

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
