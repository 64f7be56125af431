"""Answers a transport owes, written to the outbox with the change they report.

A transport that must answer a request (a mail, a Discord command) runs the command inside
`owe_answer`. The service's first write transaction inside it (`Recording`) also writes a
placeholder of the answer to the outbox, committed with the change: a text that is a true
answer on its own, held back for `HOLD` seconds so that it is not sent while the transport
is still answering. When the transport has its real answer it settles the placeholder:
it puts the real text in it and makes it due (`GameService.settle_answer`), or, having
answered by itself (a Discord reply), marks it delivered (`GameService.answered`). A
crash between the commit and the settling leaves the placeholder, which the outbox sends
once `HOLD` has passed, after the restart; so an answer owed for a change is never lost.

A command that wrote nothing (a refusal) records nothing: the transport answers it as
before. A rolled-back transaction records nothing either, and only the first write
transaction of a command records it (a multi-step command owes one answer). The hook lives
here, wrapping the service's database, so that the storage drivers know nothing of it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..storage import Database, Session
from . import outbox
from .clock import Clock

HOLD = 60.0  # seconds a placeholder waits for the transport's own answer


@dataclass
class Owed:
    """The answer a transport owes for one command: where it goes, and its placeholder."""

    transport: str
    kind: str
    text: str
    player_id: int | None
    place: str | None
    lane: str
    game_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    row_id: int | None = None  # the placeholder's outbox row, once committed
    open: bool = True  # False once the command is over (a task that outlives it records none)
    recording: bool = False  # a transaction is writing the placeholder now


_owed: ContextVar[Owed | None] = ContextVar("owed_answer", default=None)


@contextmanager
def owe_answer(owed: Owed) -> Iterator[Owed]:
    """Run one command owing ``owed``: its first write transaction records the placeholder."""
    token = _owed.set(owed)
    try:
        yield owed
    finally:
        owed.open = False
        _owed.reset(token)


class Recording:
    """The service's database: as the driver's, but a write transaction inside
    `owe_answer` writes the owed placeholder before it commits (see the module's text)."""

    def __init__(self, db: Database, now: Clock) -> None:
        self._db = db
        self._now = now

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    @property
    def driver(self) -> Database:
        return self._db

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        owed = _owed.get()
        if owed is None or not owed.open or owed.row_id is not None or owed.recording:
            async with self._db.transaction() as s:
                yield s
            return
        owed.recording = True
        try:
            async with self._db.transaction() as s:
                yield s
                row_id = await _placeholder(s, owed, self._now())
            owed.row_id = row_id  # committed: the command now owes this row
        finally:
            owed.recording = False


async def _placeholder(s: Session, owed: Owed, now: float) -> int:
    return await outbox.notify(s, now, transport=owed.transport, kind=owed.kind,
                               text=owed.text, player_id=owed.player_id, place=owed.place,
                               game_id=owed.game_id, payload=owed.payload, lane=owed.lane,
                               due=now + HOLD)
