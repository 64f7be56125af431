"""The statements one move sends to the database, counted on both drivers: each is a round
trip to the server on PostgreSQL (to the writer's thread on SQLite), so a read that creeps
back onto the move's path shows here first."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import aiosqlite
import asyncpg

from bot.service import GameService

# what one move sends once the game's positions are cached, by driver (see the test)
MOVE_STATEMENTS = {"sqlite": 7, "postgresql": 7}


@contextmanager
def _counted(cls: type, names: tuple[str, ...], sent: list[str]) -> Any:
    """Every call of ``cls``'s methods ``names`` noted in ``sent`` (its first argument)."""
    saved = {name: getattr(cls, name) for name in names}

    def counting(method: Callable[..., Any]) -> Callable[..., Any]:
        async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append(str(args[0]) if args else method.__name__)
            return await method(self, *args, **kwargs)
        return call

    for name, method in saved.items():
        setattr(cls, name, counting(method))
    try:
        yield sent
    finally:
        for name, method in saved.items():
            setattr(cls, name, method)


@contextmanager
def _statements(driver: str) -> Any:
    sent: list[str] = []
    if driver == "sqlite":
        with _counted(aiosqlite.Connection, ("execute", "execute_fetchall"), sent):
            yield sent
    else:
        with _counted(asyncpg.connection.Connection,
                      ("execute", "fetch", "fetchrow", "fetchval"), sent):
            yield sent


async def test_a_move_sends_a_fixed_number_of_statements(service: GameService, alice, bob,
                                                         start_game, db_target) -> None:
    driver = "sqlite" if not isinstance(db_target, str) else "postgresql"
    game = await start_game(alice, bob)
    for player in (alice, bob):  # one move each: statements prepared, positions cached
        game = (await service.move(player, game.id, (await service.legal_moves(game))[0])).game
    text = (await service.legal_moves(game))[0]
    with _statements(driver) as sent:
        done = await service.move(alice, game.id, text)
    assert done.ok, done
    assert len(sent) == MOVE_STATEMENTS[driver], sent
