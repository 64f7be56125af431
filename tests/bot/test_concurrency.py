"""Simultaneous commands on one game and one database file: exactly one of competing moves
wins, the others are told the position changed, and nothing is ever half-stored.

Two `GameService` objects on the same file stand for two processes: each has its own
connections, so they compete through SQLite's own locking."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from bot.service import GameService
from bot.service.results import Reason
from bot.storage import SqliteDatabase


@pytest.fixture
async def other(settings, clock):
    """A second service on the same database file."""
    svc = await GameService.open(settings, now=clock)
    yield svc
    await svc.close()


async def test_of_many_identical_submissions_exactly_one_wins(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    results = await asyncio.gather(*(service.move(alice, game.id, "b2-a3/D", expected_ply=0)
                                     for _ in range(40)))
    assert sum(r.ok for r in results) == 1
    assert Counter(r.reason for r in results if not r.ok) == {Reason.POSITION_CHANGED: 39}
    assert [m.text for m in await service.played_moves(game.id)] == ["b2-a3/D"]


async def test_of_different_moves_sent_at_once_exactly_one_wins(service, other, alice, bob,
                                                                start_game):
    game = await start_game(alice, bob)
    moves = await service.legal_moves(game)
    calls = [(service if k % 2 else other).move(alice, game.id, text, expected_ply=0)
             for k, text in enumerate(moves)]
    results = await asyncio.gather(*calls)
    winners = [r for r in results if r.ok]
    assert len(winners) == 1
    assert {r.reason for r in results if not r.ok} == {Reason.POSITION_CHANGED}
    assert [m.text for m in await other.played_moves(game.id)] == [winners[0].move]
    assert await service.archive.verify(game.id) == []


async def test_without_an_expected_move_number_the_turn_decides(service, other, alice, bob,
                                                                start_game):
    game = await start_game(alice, bob)
    results = await asyncio.gather(*((service, other)[k % 2].move(alice, game.id, "b2-a3/D")
                                     for k in range(20)))
    assert sum(r.ok for r in results) == 1
    assert {r.reason for r in results if not r.ok} == {Reason.NOT_YOUR_TURN}


async def test_competing_game_commands_leave_a_consistent_game(service, other, alice, bob,
                                                               start_game):
    rng = random.Random(11)
    for _ in range(12):
        game = await start_game(alice, bob)
        await service.move(alice, game.id, "b2-a3/D")
        calls = [other.move(bob, game.id, "h8-i7/D", expected_ply=1),
                 service.resign(alice, game.id), other.abort(bob, game.id),
                 service.request_takeback(alice, game.id), other.resign(bob, game.id),
                 service.move(bob, game.id, "h8-i7/H", expected_ply=1)]
        rng.shuffle(calls)
        results = await asyncio.gather(*calls)
        final = await service.game(game.id)
        assert await service.archive.verify(game.id) == []
        assert sum(r.ok and r.move is not None for r in results) <= 1
        assert all(r.ok or r.reason != Reason.GAME_OVER or final.is_over for r in results)
        enders = [r for r in results if r.ok and r.game is not None and r.game.is_over]
        assert len(enders) == (1 if final.is_over else 0)
        moved = sum(r.ok and r.move is not None for r in results)
        assert len(await service.played_moves(game.id)) == 1 + moved
        async with service.db.snapshot() as s:
            overs = await s.all("SELECT * FROM outbox WHERE game_id = ? AND kind = 'game-over' "
                                "AND player_id IS NULL", (game.id,))
        assert len(overs) == (1 if final.is_over else 0)


async def test_many_games_played_at_once_by_two_services_stay_sound(service, other, alice, bob,
                                                                    carol, start_game):
    pairs = [(alice, bob), (bob, carol), (carol, alice)] * 3
    games = [await start_game(a, b) for a, b in pairs]
    accepted: Counter[int] = Counter()

    async def play(game_id: int, players, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(25):
            svc = (service, other)[rng.randrange(2)]
            game = await svc.game(game_id)
            if game.is_over:
                return
            text = rng.choice(await svc.legal_moves(game))
            done = await svc.move(players[game.to_move], game_id, text, expected_ply=game.ply)
            assert done.ok, done
            accepted[game_id] += 1

    await asyncio.gather(*(play(g.id, players, k)
                           for k, (g, players) in enumerate(zip(games, pairs, strict=True))))
    for g in games:
        assert await service.archive.verify(g.id) == []
        assert len(await other.played_moves(g.id)) == accepted[g.id]
    if isinstance(service.db, SqliteDatabase):  # the file itself is sound too
        async with service.db.snapshot() as s:
            assert (await s.one("PRAGMA integrity_check"))[0] == "ok"
