"""Notifications go through the outbox: stored with the change that causes them, delivered
afterwards by their transport, each once."""

from __future__ import annotations

import pytest

import bot.service.outbox
from bot.service import GameService, outbox
from bot.service.clock import DAY, format_time
from bot.service.model import Notification
from bot.service.outbox import UNREACHABLE, DeliveryFailure


async def test_a_notification_is_stored_with_its_move_or_not_at_all(service, alice, bob,
                                                                   start_game, monkeypatch):
    game = await start_game(alice, bob)
    await service.deliver("console", _collect([]))
    real_notify = bot.service.outbox.notify

    async def notify_then_fail(*args, **kwargs):
        await real_notify(*args, **kwargs)
        raise RuntimeError("the process dies here")

    monkeypatch.setattr(bot.service.outbox, "notify", notify_then_fail)
    with pytest.raises(RuntimeError):
        await service.move(alice, game.id, "b2-a3/D")
    assert (await service.game(game.id)).ply == 0
    assert await service.played_moves(game.id) == []
    assert await service.pending_notifications("console") == []
    monkeypatch.setattr(bot.service.outbox, "notify", real_notify)
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


async def test_a_failed_try_waits_its_back_off_while_other_lanes_go_on(service, alice, bob,
                                                                       start_game, clock):
    game = await start_game(alice, bob)
    await service.deliver("console", _collect([]))
    await service.move(alice, game.id, "b2-a3/D")
    await service.move(bob, game.id, "h8-i7/D")
    sent: list[Notification] = []

    async def alice_is_down(notification: Notification) -> None:
        if notification.address == "alice":
            raise DeliveryFailure("the line is down", permanent=False)
        sent.append(notification)

    assert await service.deliver("console", alice_is_down) == 1
    assert [n.address for n in sent] == ["bob"]
    [waiting] = await service.pending_notifications("console")
    assert (waiting.address, waiting.attempts, waiting.failure) == ("alice", 1,
                                                                   "the line is down")
    assert await service.deliver("console", _collect(sent)) == 0  # not yet: back-off
    clock.advance(seconds=outbox.FIRST_RETRY * (1 + outbox.JITTER))
    assert await service.deliver("console", _collect(sent)) == 1
    assert [n.address for n in sent] == ["bob", "alice"]


async def test_a_lane_keeps_its_order_behind_a_failed_try(service, alice, bob, start_game,
                                                          clock):
    game = await start_game(alice, bob)
    await service.deliver("console", _collect([]))
    await service.move(alice, game.id, "b2-a3/D")
    await service.request_takeback(alice, game.id)
    tries: list[str] = []

    async def refuse(notification: Notification) -> None:
        tries.append(notification.kind)
        raise DeliveryFailure("busy", permanent=False)

    await service.deliver("console", refuse)
    assert tries == ["your-move"]  # the takeback request waits behind bob's move notice
    sent: list[Notification] = []
    clock.advance(seconds=outbox.FIRST_RETRY * 2)
    assert await service.deliver("console", _collect(sent)) == 2
    assert [n.kind for n in sent] == ["your-move", "takeback-request"]


async def test_a_wait_asked_for_by_the_destination_is_kept(service, alice, bob, start_game,
                                                           clock):
    await start_game(alice, bob)

    async def rate_limited(notification: Notification) -> None:
        raise DeliveryFailure("429 Too Many Requests", permanent=False, retry_after=600.0)

    await service.deliver("console", rate_limited)
    clock.advance(seconds=599)
    assert await service.deliver("console", _collect([])) == 0
    clock.advance(seconds=600 * outbox.JITTER + 1)
    assert await service.deliver("console", _collect([])) == 3


async def test_a_refusal_is_given_up_after_a_few_tries_and_the_game_says_so(
        service, alice, bob, start_game, clock, settings):
    game = await start_game(alice, bob, days=3)
    await service.deliver("console", _collect([]))
    await service.move(alice, game.id, "b2-a3/D")

    told: list[Notification] = []
    bob_refuses = _refusing("bob", told)
    await _until_given_up(service, clock, bob_refuses)
    [failed] = await outbox.stuck(service.db, failed=True)
    assert (failed.address, failed.kind, failed.attempts, failed.failure) == (
        "bob", "your-move", outbox.TRIES_WHEN_REFUSED, "550 User unknown")
    deadline = game.created_at + 3 * DAY
    text = (f"Bob cannot be reached on the console (550 User unknown); their clock keeps "
            f"running: they lose on time at {format_time(deadline)} unless they move.")
    assert [(n.address, n.place, n.kind, n.text) for n in told] == [
        (None, "console:test", "unreachable", text), ("alice", "console:test", "unreachable",
                                                      text)]
    assert (await service.game(game.id)).clock.deadline == deadline  # the clock runs on
    told.clear()
    await service.move(bob, game.id, "h8-i7/D")
    await _until_given_up(service, clock, bob_refuses)
    assert len(await outbox.stuck(service.db, failed=True)) == 1  # bob gets no notice now
    await service.move(alice, game.id, "h2-h4/D")
    await _until_given_up(service, clock, bob_refuses)
    assert len(await outbox.stuck(service.db, failed=True)) == 2
    assert [n.kind for n in told] == ["your-move"]  # told once a day only


async def test_a_watchers_copy_that_does_not_go_tells_nobody(service, alice, bob, carol,
                                                              start_game, clock):
    game = await start_game(alice, bob)
    await service.deliver("console", _collect([]))
    await service.queue_notification("console", "news", "Alice moved.", player_id=carol.id,
                                     place=game.place, game_id=game.id)  # Carol watches
    told: list[Notification] = []
    await _until_given_up(service, clock, _refusing("carol", told))
    assert len(await outbox.stuck(service.db, failed=True)) == 1
    assert told == []  # neither player is said to be unreachable


async def test_a_restart_continues_the_schedule(service, alice, bob, start_game, clock,
                                                settings):
    await start_game(alice, bob)

    async def down(notification: Notification) -> None:
        raise DeliveryFailure("connection refused", permanent=False)

    await service.deliver("console", down)
    await service.close()
    restarted = await GameService.open(settings, now=clock)
    try:
        assert await restarted.deliver("console", down) == 0  # still waiting its back-off
        clock.advance(seconds=outbox.FIRST_RETRY * 2)
        await restarted.deliver("console", down)
        assert {n.attempts for n in await restarted.pending_notifications("console")} == {2}
        clock.advance(seconds=outbox.FIRST_RETRY * 4)
        assert await restarted.deliver("console", _collect([])) == 3
    finally:
        await restarted.close()


async def test_stuck_notifications_can_be_retried_or_dropped_and_old_ones_are_pruned(
        service, alice, bob, start_game, clock):
    await start_game(alice, bob)

    async def refuses(notification: Notification) -> None:
        raise DeliveryFailure("403 Missing Access", permanent=True)

    for _ in range(outbox.TRIES_WHEN_REFUSED):
        await service.deliver("console", refuses)
        clock.advance(seconds=outbox.LONGEST_WAIT)
    # (the place's refused news is told to the players at once: those notices fail too)
    failed = [n for n in await outbox.stuck(service.db, failed=True) if n.kind != UNREACHABLE]
    assert [n.failure for n in failed] == ["403 Missing Access"] * 3
    assert await outbox.retry(service.db, [failed[0].id]) == 1
    assert await outbox.drop(service.db, [failed[1].id], clock()) == 1
    sent: list[Notification] = []
    await service.deliver("console", _collect(sent))
    assert [n.id for n in sent if n.kind != UNREACHABLE] == [failed[0].id]
    assert [n.failure for n in await outbox.stuck(service.db, failed=True)
            if n.kind != UNREACHABLE] == ["dropped by the host", "403 Missing Access"]
    assert await outbox.prune(service.db, clock()) == 0
    clock.advance(days=8)
    assert (await service.process_due())["pruned"] == len(sent)
    assert len([n for n in await outbox.stuck(service.db)
                if n.kind != UNREACHABLE]) == 2  # the failed ones stay to be looked at


async def test_each_transport_delivers_its_own_players_notifications(service, alice):
    dana = await service.player("discord", "4242", "Dana")
    await service.challenges.challenge(alice, "console:test", dana)
    await service.challenges.challenge(dana, "discord:99", alice)
    on_console: list[Notification] = []
    on_discord: list[Notification] = []
    await service.deliver("console", _collect(on_console))
    await service.deliver("discord", _collect(on_discord))
    assert [(n.address, n.place) for n in on_console] == [("alice", "discord:99")]
    assert [(n.address, n.place) for n in on_discord] == [("4242", "console:test")]


def _refusing(address: str, told: list[Notification]):
    """A delivery that refuses ``address`` for good and collects the others."""
    async def send(notification: Notification) -> None:
        if notification.address == address:
            raise DeliveryFailure("550 User unknown", permanent=True)
        told.append(notification)

    return send


async def _until_given_up(service: GameService, clock, send) -> None:
    """Deliver as often as a refused notification is tried, each after its back-off."""
    for _ in range(outbox.TRIES_WHEN_REFUSED):
        await service.deliver("console", send)
        clock.advance(seconds=outbox.LONGEST_WAIT * 2)


def _collect(into: list[Notification]):
    async def send(notification: Notification) -> None:
        into.append(notification)

    return send
