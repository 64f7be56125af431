"""The correspondence clock through the service and the scheduler, with a clock moved by
hand: deadlines, the reminder at 80%, losses on time, vacations, expiring challenges, and
a scheduler that catches up after a restart."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService
from bot.service.clock import DAY
from bot.service.results import Reason
from bot.service.scheduler import Scheduler

PLACE = "console:test"


async def _notes(service: GameService) -> list[tuple[str | None, str, str]]:
    sent = []

    async def keep(n) -> None:
        sent.append((n.id, n.address, n.kind, n.text))

    await service.deliver("console", keep)
    # lanes (one destination's news of a game) deliver independently: read in stored order
    return [note[1:] for note in sorted(sent)]


@pytest.fixture
async def game(service, alice, bob, start_game):
    """Alice (White) to move, 3 days per move; the outbox emptied."""
    game = await start_game(alice, bob, days=3)
    await _notes(service)
    return game


async def test_each_move_starts_the_next_players_clock(service, game, clock, alice, bob):
    assert game.clock.deadline == clock() + 3 * DAY
    clock.advance(days=2)
    done = await service.move(alice, game.id, "b2-a3/D")
    assert done.game.clock.deadline == clock() + 3 * DAY
    assert done.game.clock.reminder_due == clock() + 2.4 * DAY
    assert await _notes(service) == [
        ("bob", "your-move", "Alice played 1. b2-a3/D in game #1 (Clash of Command). Your move. "
                             "You have 3 days (until 2026-03-07 12:00 UTC).")]


async def test_a_reminder_when_80_percent_of_the_time_is_used(service, game, clock):
    scheduler = Scheduler(service)
    clock.advance(days=2.39)
    assert (await scheduler.run_due())["reminders"] == 0
    clock.advance(days=0.01)
    assert (await scheduler.run_due())["reminders"] == 1
    assert await _notes(service) == [
        ("alice", "reminder", "Reminder: game #1 (Clash of Command) against Bob waits for your "
                              "move. You have 14 hours 24 minutes (until 2026-03-05 12:00 "
                              "UTC).")]
    clock.advance(days=0.1)
    assert (await scheduler.run_due())["reminders"] == 0  # only once per turn


async def test_the_game_is_lost_on_time_when_the_deadline_passes(service, game, clock, alice):
    scheduler = Scheduler(service)
    deadline = game.clock.deadline
    clock.advance(days=3, seconds=-1)
    assert (await scheduler.run_due())["timeouts"] == 0
    clock.advance(days=0.5)
    assert (await scheduler.run_due())["timeouts"] == 1
    game = await service.game(game.id)
    assert (game.status, game.result, game.reason, game.ended_at) == (
        "over", "0-1", "Alice ran out of time", deadline)
    notes = await _notes(service)
    assert [(to, kind) for to, kind, _ in notes] == [
        ("alice", "reminder"), ("alice", "game-over"), ("bob", "game-over"),
        (None, "game-over")]
    assert notes[1][2] == ("Game #1 (Clash of Command, Alice (White) vs Bob (Black)) is over: "
                           "Bob (Black) wins: Alice ran out of time (0-1). Ratings: Alice 1500 "
                           "→ 1338, Bob 1500 → 1662.")


async def test_a_move_after_the_deadline_is_refused_and_the_loss_recorded(service, game, clock,
                                                                           alice):
    clock.advance(days=4)
    refused = await service.move(alice, game.id, "b2-a3/D")
    assert (refused.reason, refused.message) == (
        Reason.GAME_OVER, "Game #1 is over: Bob (Black) wins: Alice ran out of time (0-1).")
    assert (await service.game(game.id)).result == "0-1"
    assert await service.played_moves(game.id) == []


async def test_the_scheduler_catches_up_after_a_restart(settings, clock, game, alice, service):
    await service.close()  # the service goes down with the game running
    deadline = game.clock.deadline
    clock.advance(days=10)
    restarted = await GameService.open(settings, now=clock)
    try:
        counts = await Scheduler(restarted).run_due()
        # the game's three notices, delivered ten days ago, are pruned too
        assert counts == {"vacations": 0, "timeouts": 1, "reminders": 0, "challenges": 0,
                          "tournaments": 0,
                          "digests": 0, "pruned": 3}
        game = await restarted.game(game.id)
        assert (game.result, game.ended_at) == ("0-1", deadline)
    finally:
        await restarted.close()


async def test_a_vacation_pauses_the_clocks_of_the_games_to_move_in(service, game, clock,
                                                                     alice, bob):
    clock.advance(days=1)
    done = await service.vacations.start(alice, 5)
    assert done.message == ("You are on vacation until 2026-03-08 12:00 UTC (5 days). Your "
                            "clocks are paused (games to move in: #1); send `back` when you "
                            "return.")
    paused = await service.game(game.id)
    assert (paused.clock.deadline, paused.clock.paused_remaining) == (None, 2 * DAY)
    assert await _notes(service) == [
        ("bob", "vacation", "Alice is on vacation; the clock of game #1 is paused.")]
    clock.advance(days=4)
    assert (await Scheduler(service).run_due())["timeouts"] == 0
    done = await service.vacations.end(alice)
    assert done.message == "Welcome back! Your clocks run again (games to move in: #1)."
    back = await service.game(game.id)
    assert back.clock.deadline == clock() + 2 * DAY
    assert await service.vacations.left(alice) == pytest.approx(6 * DAY)  # of 10 days


async def test_a_vacation_ends_by_itself_and_the_clock_runs_from_its_end(service, game, clock,
                                                                          alice):
    await service.vacations.start(alice, 2)
    end = clock() + 2 * DAY
    clock.advance(days=7)  # the scheduler was not running when the vacation ended
    counts = await Scheduler(service).run_due()
    assert counts["vacations"] == 1
    game = await service.game(game.id)
    assert (game.status, game.result) == ("over", "0-1")  # 3 days from the vacation's end
    assert game.ended_at == end + 3 * DAY


async def test_a_turn_that_starts_during_a_vacation_starts_paused(service, game, clock, alice,
                                                                   bob):
    await service.vacations.start(bob)
    done = await service.move(alice, game.id, "b2-a3/D")
    assert done.game.clock.paused_remaining == 3 * DAY
    notes = await _notes(service)
    assert notes[-1] == ("bob", "your-move", "Alice played 1. b2-a3/D in game #1 (Clash of "
                                             "Command). Your move. Your clock is paused while "
                                             "you are on vacation.")


async def test_the_vacation_allowance_is_per_calendar_year(service, clock, alice):
    done = await service.vacations.start(alice)
    assert done.message.startswith("You are on vacation until 2026-03-12 12:00 UTC (10 days).")
    refused = await service.vacations.start(alice)
    assert (refused.reason, refused.message) == (
        Reason.ALREADY_ON_VACATION, "You are already on vacation until 2026-03-12 12:00 UTC; "
                                    "send `back` to end it.")
    clock.advance(days=11)
    await Scheduler(service).run_due()
    refused = await service.vacations.start(alice)
    assert (refused.reason, refused.message) == (
        Reason.NO_VACATION_LEFT, "You have used all 10 days of vacation for this year.")
    refused = await service.vacations.end(alice)
    assert (refused.reason, refused.message) == (Reason.NOT_ON_VACATION,
                                                 "You are not on vacation.")
    clock.advance(days=300)  # next year
    assert (await service.vacations.start(alice, 1)).ok


async def test_an_unanswered_challenge_expires(service, clock, alice, bob):
    made = await service.challenges.challenge(alice, PLACE, bob)
    await _notes(service)
    clock.advance(days=7)
    assert (await Scheduler(service).run_due())["challenges"] == 1
    assert await _notes(service) == [
        ("alice", "challenge", "Your challenge #1 (Clash of Command, no clock, side chosen "
                               "at random, rated) expired unanswered.")]
    refused = await service.challenges.accept(bob, made.challenge.id)
    assert refused.message == "Challenge #1 is no longer open: it was expired."


async def test_a_challenge_found_expired_before_the_scheduler_ran(service, clock, alice, bob):
    made = await service.challenges.challenge(alice, PLACE, bob)
    clock.advance(days=8)
    refused = await service.challenges.accept(bob, made.challenge.id)
    assert refused.reason == Reason.CHALLENGE_CLOSED
    assert (await Scheduler(service).run_due())["challenges"] == 0


async def test_the_scheduler_knows_when_it_is_next_needed(service, game, clock):
    scheduler = Scheduler(service, max_wait=10 * DAY)
    assert await service.next_due() == game.clock.reminder_due  # before the challenge expiry
    assert await scheduler.seconds_to_next() == pytest.approx(2.4 * DAY)
    assert await Scheduler(service, max_wait=60).seconds_to_next() == 60


async def test_the_scheduler_runs_until_stopped(service, game, clock):
    clock.advance(days=5)
    stop = asyncio.Event()
    task = asyncio.create_task(Scheduler(service, max_wait=0.01).run(stop))
    for _ in range(200):
        if (await service.game(game.id)).is_over:
            break
        await asyncio.sleep(0.01)
    stop.set()
    await asyncio.wait_for(task, 1)
    assert (await service.game(game.id)).reason == "Alice ran out of time"


async def test_a_new_vacation_first_closes_one_that_ran_out_unnoticed(service, game, clock,
                                                                     alice):
    await service.vacations.start(alice, 2)
    clock.advance(days=2.5)  # the vacation ended half a day ago; no scheduler pass since
    done = await service.vacations.start(alice, 1)
    assert done.ok
    assert await service.vacations.left(alice) == pytest.approx(8 * DAY)  # 2 of 10 days so far
    game = await service.game(game.id)
    assert game.clock.paused_remaining == pytest.approx(2.5 * DAY)  # 3 days less the half day


async def test_two_schedulers_at_once_apply_each_time_out_and_reminder_once(
        service, settings, clock, alice, bob, carol, start_game):
    """Two processes' schedulers on one database (two services with their own connections):
    each due game is taken by one of them, so nothing is applied or announced twice."""
    games = [await start_game(alice, bob, days=3), await start_game(carol, bob, days=3)]
    other = await GameService.open(settings, now=clock)
    try:
        clock.advance(days=2.5)
        reminders = await asyncio.gather(service.process_reminders(), other.process_reminders())
        clock.advance(days=1)
        timeouts = await asyncio.gather(service.process_timeouts(), other.process_timeouts())
    finally:
        await other.close()
    assert (sum(reminders), sum(timeouts)) == (2, 2)
    kinds = [kind for _, kind, _ in await _notes(service)]
    assert (kinds.count("reminder"), kinds.count("game-over")) == (2, 6)
    assert [(await service.game(g.id)).reason for g in games] == [
        "Alice ran out of time", "Carol ran out of time"]
