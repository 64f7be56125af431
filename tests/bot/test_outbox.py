"""Notifications go through the outbox: stored with the change that causes them, delivered
afterwards by their transport, each once."""

from __future__ import annotations

import pytest

import bot.outbox
from bot.model import Notification


async def test_a_notification_is_stored_with_its_move_or_not_at_all(service, alice, bob,
                                                                   start_game, monkeypatch):
    game = await start_game(alice, bob)
    await service.deliver("console", _collect([]))
    real_notify = bot.outbox.notify

    async def notify_then_fail(*args, **kwargs):
        await real_notify(*args, **kwargs)
        raise RuntimeError("the process dies here")

    monkeypatch.setattr(bot.outbox, "notify", notify_then_fail)
    with pytest.raises(RuntimeError):
        await service.move(alice, game.id, "b2-a3/D")
    assert (await service.game(game.id)).ply == 0
    assert await service.played_moves(game.id) == []
    assert await service.pending_notifications("console") == []
    monkeypatch.setattr(bot.outbox, "notify", real_notify)
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    notes = await service.pending_notifications("console")
    assert [(n.address, n.kind, n.game_id) for n in notes] == [("bob", "your-move", game.id)]
    assert notes[0].text == ("Alice played 1. b2-a3/D in game #1 (Clash of Command). Your move. "
                             "There is no clock.")


async def test_delivery_sends_each_notification_once_in_order(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    await service.move(bob, game.id, "h8-i7/D")
    sent: list[Notification] = []
    assert await service.deliver("console", _collect(sent)) == 5
    assert [(n.address, n.kind) for n in sent] == [
        ("bob", "challenge"), ("alice", "game-start"), (None, "game-start"),
        ("bob", "your-move"), ("alice", "your-move")]
    assert [n.id for n in sent] == sorted(n.id for n in sent)
    assert await service.deliver("console", _collect(sent)) == 0
    assert len(sent) == 5


async def test_a_failed_delivery_is_tried_again_later(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    await service.deliver("console", _collect([]))
    await service.move(alice, game.id, "b2-a3/D")
    await service.move(bob, game.id, "h8-i7/D")
    sent: list[Notification] = []

    async def flaky(notification: Notification) -> None:
        if notification.address == "alice":
            raise ConnectionError("the transport is down")
        sent.append(notification)

    with pytest.raises(ConnectionError):
        await service.deliver("console", flaky)
    assert [n.address for n in sent] == ["bob"]
    assert [n.address for n in await service.pending_notifications("console")] == ["alice"]
    assert await service.deliver("console", _collect(sent)) == 1
    assert [n.address for n in sent] == ["bob", "alice"]


async def test_each_transport_delivers_its_own_players_notifications(service, alice):
    dana = await service.player("discord", "4242", "Dana")
    await service.challenge(alice, "console:test", dana)
    await service.challenge(dana, "discord:99", alice)
    on_console: list[Notification] = []
    on_discord: list[Notification] = []
    await service.deliver("console", _collect(on_console))
    await service.deliver("discord", _collect(on_discord))
    assert [(n.address, n.place) for n in on_console] == [("alice", "discord:99")]
    assert [(n.address, n.place) for n in on_discord] == [("4242", "console:test")]


def _collect(into: list[Notification]):
    async def send(notification: Notification) -> None:
        into.append(notification)

    return send
