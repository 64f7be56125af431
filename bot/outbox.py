"""Notifications through an outbox: written in the same transaction as the change that
causes them, delivered by the transport afterwards.

A change that is committed has its notifications committed with it, and one that is rolled
back has none, so a crash never loses one nor creates one twice. Delivery marks each
notification delivered right after the transport has sent it; a crash between the two
sends that one notification again after the restart, so each carries a stable ``id`` that
a transport able to deduplicate (a message nonce, a Message-ID header) can use.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .clock import Clock
from .model import Notification
from .storage import Database, Session

PENDING_SQL = """SELECT o.*, p.address FROM outbox o LEFT JOIN players p ON p.id = o.player_id
                 WHERE o.transport = ? AND o.delivered_at IS NULL ORDER BY o.id LIMIT ?"""


async def notify(s: Session, now: float, *, transport: str, kind: str, text: str,
                 player_id: int | None = None, place: str | None = None,
                 game_id: int | None = None) -> int:
    """Queue a notification inside the caller's transaction; its id."""
    return await s.insert(
        "INSERT INTO outbox (transport, player_id, place, game_id, kind, text, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)", (transport, player_id, place, game_id, kind, text, now))


async def pending(db: Database, transport: str, limit: int = 100) -> list[Notification]:
    """The oldest undelivered notifications of ``transport``."""
    async with db.snapshot() as s:
        rows = await s.all(PENDING_SQL, (transport, limit))
    return [Notification.from_row(r) for r in rows]


async def mark_delivered(db: Database, ids: list[int], now: float) -> None:
    if not ids:
        return
    marks = ", ".join("?" for _ in ids)
    async with db.transaction() as s:
        await s.execute(f"UPDATE outbox SET delivered_at = ? WHERE id IN ({marks}) "
                        f"AND delivered_at IS NULL", (now, *ids))


async def deliver(db: Database, transport: str, send: Callable[[Notification], Awaitable[None]],
                  now: Clock, limit: int = 100) -> int:
    """Send every pending notification of ``transport`` in order; how many were sent. A
    notification whose sending raises stays pending (with those after it) and the error
    propagates."""
    sent = 0
    while batch := await pending(db, transport, limit):
        for notification in batch:
            await send(notification)
            await mark_delivered(db, [notification.id], now())
            sent += 1
    return sent
