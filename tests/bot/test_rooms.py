"""Rooms, watchers, server settings and admin rulings of the game service."""

from __future__ import annotations

from bot.service import GameService
from bot.service.model import Player
from bot.service.results import Reason


async def _game(service: GameService, alice: Player, bob: Player, place: str = "discord:10"):
    challenge = await service.challenges.challenge(alice, place, bob, side=0)
    done = await service.challenges.accept(bob, challenge.challenge.id)
    return done.game


async def test_a_relocated_game_is_found_within_its_place(service, alice, bob):
    game = await _game(service, alice, bob)
    moved = await service.rooms.relocate(game.id, "discord:10/99")
    assert moved.place == "discord:10/99"
    assert [g.id for g in await service.rooms.games_within("discord:10")] == [game.id]
    assert await service.rooms.games_within("discord:1") == []
    assert await service.rooms.games_within("discord:100") == []


async def test_watchers_are_listed_until_they_unwatch(service, alice, bob):
    game = await _game(service, alice, bob)
    carol = await service.player("discord", "3", "Carol")
    assert (await service.rooms.watch(carol, game.id)).ok
    assert (await service.rooms.watch(carol, game.id)).ok
    assert [p.id for p in await service.rooms.watchers(game.id)] == [carol.id]
    assert (await service.rooms.unwatch(carol, game.id)).ok
    refused = await service.rooms.unwatch(carol, game.id)
    assert refused.reason == Reason.NO_SUCH_GAME
    assert (await service.rooms.watch(carol, 999)).reason == Reason.NO_SUCH_GAME


async def test_server_settings_change_one_key_and_none_removes_it(service):
    assert await service.rooms.server_settings("discord:5") == {}
    await service.rooms.set_server_settings("discord:5", {"channel": 7, "days": 3})
    await service.rooms.set_server_settings("discord:5", {"days": None})
    assert await service.rooms.server_settings("discord:5") == {"channel": 7}


async def test_an_admin_adjudicates_a_win_and_aborts_after_moves(service, alice, bob):
    game = await _game(service, alice, bob)
    done = await service.rooms.adjudicate(game.id, 1, "admin")
    assert done.ok and done.game.winner == 1 and done.game.result == "0-1"
    assert (await service.rooms.adjudicate(game.id, 0, "admin")).reason == Reason.GAME_OVER
    other = await _game(service, alice, bob)
    aborted = await service.rooms.adjudicate(other.id, None, "admin", abort=True)
    assert aborted.game.status == "aborted"
