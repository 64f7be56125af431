"""Discord under faults: the scheduler loop survives a pass that raises (any exception, a
storage fault included) and runs the next one; a command that meets a storage fault is
answered in the words every transport uses."""

from __future__ import annotations

import asyncio
import sqlite3

from bot.discord_bot.app import SCHEDULER_SECONDS
from bot.service.results import STORAGE_DOWN
from bot.storage import StorageError, storage_error

from .test_play import _start


def _disk_full() -> StorageError:
    return storage_error(sqlite3.OperationalError("database or disk is full"))


async def test_the_scheduler_loop_survives_failed_passes_and_runs_the_next(world, monkeypatch):
    passes: list[str] = []
    again = asyncio.Event()
    failures = [_disk_full(), RuntimeError("a bug in one pass"), None]

    async def process_due() -> dict[str, int]:
        failure = failures.pop(0) if failures else None
        passes.append(type(failure).__name__ if failure else "ok")
        if failure is not None:
            raise failure
        again.set()
        return {}

    async def deliver(transport, send) -> int:  # the delivery half fails in the first pass
        if len(passes) == 1:
            raise ConnectionResetError("the network went away")
        return 0

    monkeypatch.setattr(world.service, "process_due", process_due)
    monkeypatch.setattr(world.service, "deliver", deliver)
    for _ in range(3):  # three passes, on the loop's own schedule (virtual time)
        await world.env.advance_time(SCHEDULER_SECONDS)
    assert again.is_set()
    assert passes == ["StorageError", "RuntimeError", "ok"]
    assert world.bot.scheduler.is_running()


async def test_a_slash_command_meeting_a_full_disk_is_answered(world, monkeypatch):
    thread, game = await _start(world)

    async def move(*args, **kwargs):
        raise _disk_full()

    monkeypatch.setattr(world.service, "move", move)
    r = await world.alice.slash(thread, "move", move="b2-a3/D")
    assert r.ephemeral and r.response.content == STORAGE_DOWN
    assert (await world.service.game(game.id)).ply == 0
    # the fault reached the tree's error handler, where SimCord records it: it is the one
    # this test injected, so it is taken off the record that fails a test at its end
    assert [type(e.original) for e in world.env.errors] == [StorageError]
    world.env._errors.clear()


async def test_a_typed_move_meeting_a_full_disk_is_answered(world, monkeypatch):
    thread, game = await _start(world)

    async def move(*args, **kwargs):
        raise _disk_full()

    monkeypatch.setattr(world.service, "move", move)
    before = len(thread.history())
    await world.alice.send(thread, "b2-a3/D")
    answer = thread.history()[before + 1]
    assert answer.content == STORAGE_DOWN
    assert (await world.service.game(game.id)).ply == 0


async def test_a_button_meeting_a_full_disk_is_answered(world, monkeypatch):
    thread, game = await _start(world)

    async def resign(*args, **kwargs):
        raise _disk_full()

    monkeypatch.setattr(world.service, "resign", resign)
    r = await world.bob.click(thread.history()[0], label="Resign")
    assert r.ephemeral and r.response.content == STORAGE_DOWN
    assert not (await world.service.game(game.id)).is_over
