"""The lines of every mail the service sent, as fingerprints, so that a reply quoting one
(in a way no quote detector recognised) is never read as the player's command.

A transport says what a line is (its own normalisation and hash, see
`bot.email_gateway.reading.line_fingerprint`); this topic only keeps the fingerprints,
keyed by the Message-ID of the mail they were sent in, for `KEEP_DAYS` days.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..storage import Database
from .clock import Clock

KEEP_DAYS = 90  # a reply to a mail older than this is read without its lines known
MAX_IDS = 20  # Message-IDs looked up for one reply (its References, the last ones)
DAY = 86400.0


class SentLines:
    """Fingerprints of the lines of sent mail, by the mail's Message-ID."""

    def __init__(self, db: Database, now: Clock) -> None:
        self.db = db
        self.now = now

    async def record(self, message_id: str, fingerprints: Iterable[str]) -> None:
        """Remember ``fingerprints`` as lines of the mail ``message_id`` (and forget those
        of mail sent more than `KEEP_DAYS` ago)."""
        now = self.now()
        unique = sorted(set(fingerprints))
        async with self.db.transaction() as s:
            await s.execute("DELETE FROM sent_lines WHERE created_at < ?",
                            (now - KEEP_DAYS * DAY,))
            for fingerprint in unique:
                await s.execute(
                    "INSERT INTO sent_lines (message_id, fingerprint, created_at) "
                    "VALUES (?, ?, ?) ON CONFLICT (message_id, fingerprint) DO NOTHING",
                    (message_id, fingerprint, now))

    async def of(self, message_ids: Sequence[str]) -> frozenset[str]:
        """The fingerprints of the lines of the mails ``message_ids`` (the last
        `MAX_IDS`), those we sent; empty for others."""
        ids = list(dict.fromkeys(message_ids))[-MAX_IDS:]
        if not ids:
            return frozenset()
        marks = ", ".join("?" for _ in ids)
        async with self.db.snapshot() as s:
            rows = await s.all(
                f"SELECT fingerprint FROM sent_lines WHERE message_id IN ({marks})", tuple(ids))
        return frozenset(str(r["fingerprint"]) for r in rows)
