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
transaction of a command records it (a multi-step command owes one answer), in the
command's own task (a delivery task it starts records nothing). With the answer the
transport may record the other messages its reply makes (``more``: the board a move's
reply posts in the game's thread), held and settled with it, and further writes of its own
(``with_it``: a mail's Message-ID remembered as answered). The hook lives here, wrapping
the service's database, so that the storage drivers know nothing of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..storage import Database, Session
from . import outbox
from .clock import Clock

HOLD = 60.0  # seconds a placeholder waits for the transport's own answer
Also = Callable[[Session, float], Awaitable[None]]  # more writes committed with the answer


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
    more: tuple[Owed, ...] = ()  # other messages the reply makes, held with the answer
    with_it: Also | None = None  # further writes of the transport, committed with it
    row_id: int | None = None  # the placeholder's outbox row, once committed
    open: bool = True  # False once the command is over (a task that outlives it records none)
    recording: bool = False  # a transaction is writing the placeholder now
    settled: bool = False  # the transport put its real answer in the placeholder
    task: asyncio.Task[Any] | None = None  # the command's task: the only one that records


_owed: ContextVar[Owed | None] = ContextVar("owed_answer", default=None)


@contextmanager
def owe_answer(owed: Owed) -> Iterator[Owed]:
    """Run one command owing ``owed``: its first write transaction records the placeholder."""
    owed.task = asyncio.current_task()
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
        if (owed is None or not owed.open or owed.row_id is not None or owed.recording
                or owed.task is not asyncio.current_task()):
            async with self._db.transaction() as s:
                yield s
            return
        owed.recording = True
        try:
            async with self._db.transaction() as s:
                counting = _Counting(s)
                yield counting
                rows = await _placeholders(s, owed, self._now()) if counting.wrote else []
            for placeholder, row_id in zip((owed, *owed.more), rows, strict=False):
                placeholder.row_id = row_id  # committed: the command now owes these rows
        finally:
            owed.recording = False


class _Counting:
    """A session that notes whether anything was written through it (a refusal writes
    nothing, so it owes no recorded answer)."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self.wrote = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def execute(self, sql: str, params: Any = ()) -> int:
        changed = await self._session.execute(sql, params)
        self.wrote = self.wrote or changed > 0
        return changed

    async def insert(self, sql: str, params: Any = ()) -> int:
        self.wrote = True
        return await self._session.insert(sql, params)


async def _placeholders(s: Session, owed: Owed, now: float) -> list[int]:
    rows = [await outbox.notify(s, now, transport=o.transport, kind=o.kind, text=o.text,
                                player_id=o.player_id, place=o.place, game_id=o.game_id,
                                payload=o.payload, lane=o.lane, due=now + HOLD)
            for o in (owed, *owed.more)]
    if owed.with_it is not None:
        await owed.with_it(s, now)
    return rows
