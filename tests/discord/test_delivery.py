"""Delivery to Discord when Discord refuses: a server that denies the bot, a rate limit, a
restart with news still waiting. Each failure stays with its own destination."""

from __future__ import annotations

from types import SimpleNamespace

import discord
from simcord.http import client as simcord_client

from bot.discord_bot.notifier import failure_of
from bot.service import outbox
from bot.service.clock import DAY

from .test_play import _start

MISSING = "Missing Permissions"


async def _second_server(w):
    """Another guild with its own players and a game in its own thread."""
    guild = w.env.create_guild("Elsewhere")
    channel = guild.create_text_channel("games")
    dave = guild.add_member(w.env.create_user("dave"))
    erin = guild.add_member(w.env.create_user("erin"))
    r = await dave.slash(channel, "challenge", opponent=erin, variant="mini-chieftain", side=0,
                          days=3)
    assert not r.ephemeral, r.response.content
    r = await erin.slash(channel, "accept")
    assert not r.ephemeral, r.response.content
    return channel.threads[-1], dave, erin


def _refuse_posts_in(w, thread, status: int = 403, times: int | None = None) -> None:
    w.env.inject_error("POST", f"/channels/{thread.id}/messages", status=status, code=50013,
                       message=MISSING, times=times)


async def _waiting(w) -> list:
    return await outbox.stuck(w.service.db)


async def _reminders_due(w) -> None:
    """Time passes until the players to move are reminded; the scheduler runs."""
    w.clock.t += 0.85 * 3 * DAY
    await w.bot.tick()


async def test_a_server_that_refuses_delays_no_other_server(world):
    thread, game = await _start(world)
    other, dave, erin = await _second_server(world)
    _refuse_posts_in(world, thread)
    await _reminders_due(world)
    assert dave.mention in other.last_message.content  # at once, though the other failed
    assert "Reminder" in other.last_message.content
    [stuck] = await _waiting(world)
    assert (stuck.kind, stuck.attempts, stuck.failure) == (
        "reminder", 1, f"Discord refused: 403 {MISSING}")


async def test_a_refusing_thread_is_given_up_and_the_opponent_is_told_by_dm(world):
    thread, game = await _start(world)
    _refuse_posts_in(world, thread)
    await _reminders_due(world)
    for _ in range(outbox.TRIES_WHEN_REFUSED - 1):
        world.clock.t += outbox.LONGEST_WAIT * 2
        await world.bot.tick()
    [failed] = await outbox.stuck(world.service.db, failed=True)
    assert (failed.kind, failed.attempts) == ("reminder", outbox.TRIES_WHEN_REFUSED)
    deadline = (await world.service.game(game.id)).clock.deadline
    told = (f"alice cannot be reached on Discord (Discord refused: 403 {MISSING}); their "
            f"clock keeps running: they lose on time at <t:{int(deadline)}:f> unless they "
            f"move.")  # the time as a Discord timestamp, shown in the reader's time zone
    assert world.bob.user.dm_channel.history()[-1].content == told


async def test_a_rate_limit_is_waited_out_then_the_news_arrives_once(world):
    thread, game = await _start(world)
    _refuse_posts_in(world, thread, status=429, times=1)
    before = len(thread.history())
    await _reminders_due(world)
    [waiting] = await _waiting(world)
    assert (waiting.attempts, waiting.failure) == (1, f"Discord answered 429 {MISSING}")
    assert len(thread.history()) == before
    world.clock.t += outbox.FIRST_RETRY * 2
    await world.bot.tick()
    assert len(thread.history()) == before + 1
    assert "Reminder" in thread.last_message.content
    assert not await _waiting(world)


async def test_a_429_with_retry_after_is_retried_when_it_asks_and_not_before(
        world, monkeypatch):
    # SimCord's fake HTTP response carries no headers; this one gives its 429s the
    # Retry-After header Discord sends, so the whole path is real from there on: the
    # discord.py exception, the judgement, the schedule in the outbox, the retry
    wait = 300.0

    class RateLimitedResponse(simcord_client._FakeResponse):
        def __init__(self, status: int) -> None:
            super().__init__(status)
            if status == 429:
                self.reason, self.headers = "Too Many Requests", {"Retry-After": str(wait)}

    monkeypatch.setattr(simcord_client, "_FakeResponse", RateLimitedResponse)
    thread, game = await _start(world)
    _refuse_posts_in(world, thread, status=429, times=1)
    before = len(thread.history())
    await _reminders_due(world)
    [waiting] = await _waiting(world)
    asked = waiting.next_attempt_at - world.clock.t
    assert wait <= asked <= wait * (1 + outbox.JITTER)  # never sooner than asked
    assert (waiting.attempts, waiting.failure) == (1, f"Discord answered 429 {MISSING}")
    world.clock.t += wait - 1  # the back-off alone would have tried again by now
    await world.bot.tick()
    assert len(thread.history()) == before
    world.clock.t += asked - wait + 2
    await world.bot.tick()
    assert len(thread.history()) == before + 1
    assert "Reminder" in thread.last_message.content
    assert not await _waiting(world)


def test_a_429_waits_what_its_retry_after_header_asks():
    response = SimpleNamespace(status=429, reason="Too Many Requests",
                               headers={"Retry-After": "12.5"})
    failure = failure_of(discord.HTTPException(response, {"message": "You are being rate "
                                                                     "limited."}))
    assert (failure.permanent, failure.retry_after) == (False, 12.5)
    refused = failure_of(discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden",
                                                           headers={}),
                                           {"message": "Missing Access", "code": 50001}))
    assert (refused.permanent, refused.reason) == (True, "Discord refused: 403 Missing Access")


async def test_news_waiting_at_a_restart_is_delivered_after_it_once(world):
    thread, game = await _start(world)
    _refuse_posts_in(world, thread, status=503)
    before = len(thread.history())
    await _reminders_due(world)
    assert len(await _waiting(world)) == 1
    world.env.backend.faults.clear()  # Discord is back, and the bot restarts
    await world.restart()
    world.clock.t += outbox.FIRST_RETRY * 2
    await world.bot.tick()
    await world.bot.tick()
    reminders = [m for m in thread.history()[before:] if "Reminder" in m.content]
    assert len(reminders) == 1
    assert not await _waiting(world)
