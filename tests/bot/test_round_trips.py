"""The statements one move sends to the database, counted on both drivers: each is a round
trip to the server on PostgreSQL (to the writer's thread on SQLite), so a read that creeps
back onto the move's path shows here first."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import aiosqlite
import asyncpg

from bot.service import GameService
from engine import get_variant

# what one move sends once the game's positions are cached, by driver (see the test)
MOVE_STATEMENTS = {"sqlite": 7, "postgresql": 7}
ANSWERED_STATEMENTS = {"sqlite": 12, "postgresql": 12}


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


def _driver(db_target: object) -> str:
    return "postgresql" if isinstance(db_target, str) else "sqlite"


async def test_a_move_sends_a_fixed_number_of_statements(service: GameService, alice, bob,
                                                         start_game, db_target) -> None:
    game = await start_game(alice, bob)
    for player in (alice, bob):  # one move each: statements prepared, positions cached
        game = (await service.move(player, game.id, (await service.legal_moves(game))[0])).game
    text = (await service.legal_moves(game))[0]
    with _statements(_driver(db_target)) as sent:
        done = await service.move(alice, game.id, text)
    assert done.ok, done
    # BEGIN (with the game's lock on PostgreSQL), the game, the move, the game again, the
    # waiting side's recorded lines, the opponent's notice, COMMIT
    assert len(sent) == MOVE_STATEMENTS[_driver(db_target)], sent


async def test_a_move_with_a_chosen_clock_adds_only_the_banks_write(
        service: GameService, alice, bob, start_game, db_target) -> None:
    game = await start_game(alice, bob, time_control="2d+1d")
    for player in (alice, bob):
        game = (await service.move(player, game.id, (await service.legal_moves(game))[0])).game
    text = (await service.legal_moves(game))[0]
    with _statements(_driver(db_target)) as sent:
        assert (await service.move(alice, game.id, text)).ok
    assert len(sent) == MOVE_STATEMENTS[_driver(db_target)] + 1, sent


LINE = "if h8-i7/D then a3-b4/D then if c7-c5 then h2-h4/D".split()


async def test_a_move_answered_by_a_recorded_line_reads_nothing_twice(
        service: GameService, alice, bob, start_game, db_target) -> None:
    counted: list[list[str]] = []
    for _ in range(2):  # the first game prepares the statements
        game = await start_game(alice, bob)
        assert (await service.move(alice, game.id, "b2-a3/D")).ok
        assert (await service.forecasts.add_forecast(alice, game.id, LINE)).ok
        with _statements(_driver(db_target)) as sent:
            done = await service.move(bob, game.id, "h8-i7/D")
        assert done.answer == "a3-b4/D", done
        counted.append(sent)
    # the step and the answer each: the move, the game, the other side's lines; then the
    # lines left, the notices of both sides
    assert len(counted[1]) == ANSWERED_STATEMENTS[_driver(db_target)], counted[1]


FULL_RELOAD = "SELECT fen FROM moves WHERE game_id = ? AND partial = 0 ORDER BY ply"


async def test_a_process_behind_by_moves_reads_only_the_new_ones(
        service: GameService, settings, clock, alice, bob, start_game, db_target) -> None:
    """Another process (here a second service on the same database) moved meanwhile: the
    first reads the moves after the ones it knows, unless a takeback came between, when it
    reads them all; either way it knows every position where a turn ended."""
    other = await GameService.open(settings, now=clock)
    game = await start_game(alice, bob)
    rules = get_variant(game.variant)

    async def play(svc: GameService, player) -> list[str]:
        current = await svc.game(game.id)
        assert current is not None
        text = (await svc.legal_moves(current))[0]
        with _statements(_driver(db_target)) as sent:
            assert (await svc.move(player, game.id, text)).ok
        return [re.sub(r"\$\d+", "?", q) for q in sent]

    def turn_ends() -> list[str]:
        return [rules.format_position(p) for p in service._lines[game.id].boundaries]

    async def stored_turn_ends() -> list[str]:
        played = await service.played_moves(game.id)
        return [game.start_fen] + [m.fen for m in played if not m.partial]

    await play(service, alice)
    await play(other, bob)
    await play(other, alice)
    sent = await play(service, bob)
    assert FULL_RELOAD not in sent
    assert ("SELECT fen FROM moves WHERE game_id = ? AND ply >= ? AND partial = 0 "
            "ORDER BY ply") in sent
    assert turn_ends() == await stored_turn_ends()

    assert (await other.request_takeback(bob, game.id)).ok
    assert (await other.accept_takeback(alice, game.id)).ok  # revision up, plies down
    await play(other, bob)
    sent = await play(service, alice)
    assert FULL_RELOAD in sent
    assert turn_ends() == await stored_turn_ends()
    await other.close()
