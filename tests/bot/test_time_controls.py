"""Clock choices: Fischer increments with a capped bank, a total time per game, time-outs
and reminders that follow them, and vacations that pause them; computed exactly with a
clock moved by hand."""

from __future__ import annotations

from bot.commands import Commands
from bot.service.clock import DAY

from .conftest import START

MOVES = ["b2-a3/D", "h8-i7/D", "a3-b4/D", "a7-b6", "h2-h4/D", "b6-c5"]


async def _play(service, game, players, k: int) -> None:
    done = await service.move(players[k % 2], game.id, MOVES[k])
    assert done.ok, done


async def test_fischer_adds_the_increment_and_caps_the_bank(service, clock, alice, bob,
                                                            start_game):
    game = await start_game(alice, bob, time_control="3d+1d max4d")
    assert (game.clock.deadline, game.clock.reminder_due) == (START + 3 * DAY,
                                                              START + 2.4 * DAY)
    players = (alice, bob)
    waits = [1.0, 0.5, 0.25, 0.0, 0.0]
    # banks after each move: alice 3-1+1=3, bob 3-0.5+1=3.5, alice 3-0.25+1=3.75,
    # bob 3.5+1=4.5 -> 4 (the cap), alice 3.75+1=4.75 -> 4
    expected_next = [3.0, 3.0, 3.5, 3.75, 4.0]  # the next player's bank when their turn starts
    for k, wait in enumerate(waits):
        clock.advance(wait)
        await _play(service, game, players, k)
        game = await service.game(game.id)
        assert game.clock.deadline == clock.t + expected_next[k] * DAY, k
        assert game.clock.reminder_due == clock.t + 0.8 * expected_next[k] * DAY
    assert await service.clocks.clock_state(game) == (
        "Clock (3 days + 1 day per move, at most 4 days in the bank): "
        "Alice: 4 days in the bank; Bob: 4 days in the bank.")


async def test_the_total_time_caps_a_turn_and_the_game_is_lost_on_time(service, clock, alice,
                                                                       bob, start_game):
    game = await start_game(alice, bob, days=3, time_control="3d total4d")
    assert game.clock.deadline == START + 3 * DAY  # days per move, below the total
    clock.advance(2.5)
    await _play(service, game, (alice, bob), 0)
    await _play(service, game, (alice, bob), 1)
    game = await service.game(game.id)
    assert game.clock.deadline == clock.t + 1.5 * DAY  # what is left of Alice's 4 days
    assert await service.clocks.clock_state(game) == (
        "Clock (3 days per move, at most 4 days in all): Alice: 1 day 12 hours left in all; "
        "Bob: 4 days left in all.")
    clock.advance(1.2)
    assert await service.process_reminders() == 1
    clock.advance(0.3)
    assert await service.process_timeouts() == 1
    game = await service.game(game.id)
    assert service.describe_result(game) == "Bob (Black) wins: Alice ran out of time (0-1)"


async def test_a_vacation_pauses_the_bank_and_costs_nothing(service, clock, alice, bob,
                                                            start_game):
    game = await start_game(alice, bob, time_control="2d+1d")
    clock.advance(0.5)
    assert (await service.vacations.start(alice, 3)).ok
    game = await service.game(game.id)
    assert game.clock.paused_remaining == 1.5 * DAY
    clock.advance(2)
    assert (await service.vacations.end(alice)).ok
    game = await service.game(game.id)
    assert game.clock.deadline == clock.t + 1.5 * DAY
    clock.advance(0.5)
    await _play(service, game, (alice, bob), 0)
    await _play(service, game, (alice, bob), 1)
    game = await service.game(game.id)
    assert game.clock.deadline == clock.t + 2 * DAY  # 2 - (0.5 + 0.5) + 1: the vacation is free


async def test_clock_choices_at_the_console_and_by_mail(service, alice, bob):
    commands = Commands(service, lambda name: service.find_player("console", name))
    reply = await commands.handle(alice, "console:test",
                                  "challenge bob white 3d+1d max10d total60d")
    assert reply.text.startswith(
        "Challenge #1 sent to Bob: Clash of Command, 3 days + 1 day per move, at most 10 days "
        "in the bank, at most 60 days in all, Alice plays")
    reply = await commands.handle(bob, "console:test", "accept")
    assert "3 days + 1 day per move, at most 10 days in the bank, at most 60 days in all" \
        in reply.text
    board = (await commands.handle(bob, "console:test", "board")).text.splitlines()
    assert board[1] == ("Clock (3 days + 1 day per move, at most 10 days in the bank, at most "
                        "60 days in all): Alice: 3 days in the bank, 60 days left in all; Bob: "
                        "3 days in the bank, 60 days left in all.")
    for line, error in [
            ("challenge bob 3d 3d+1d", "Choose either 3d per move or a Fischer clock such as "
                                       "3d+1d, not both."),
            ("challenge bob max10d", "A bank maximum such as max10d needs a Fischer clock, "
                                     "as in `3d+1d max10d`."),
            ("challenge bob total9d", "A total such as total30d needs a clock to cap, as in "
                                      "`3d total30d`."),
            ("challenge bob 5d+1d max2d", "The bank cannot start above its maximum (5d > 2d)."),
            ("challenge bob 0d+1d", "Clock times are more than 0 and at most 365 days.")]:
        reply = await commands.handle(alice, "console:test", line)
        assert (reply.ok, reply.text) == (False, error), line


async def test_a_takeback_restarts_the_turn_from_the_bank(service, clock, alice, bob,
                                                          start_game):
    game = await start_game(alice, bob, time_control="3d+1d")
    clock.advance(2)
    await _play(service, game, (alice, bob), 0)  # Alice's bank: 3 - 2 + 1 = 2 days
    await service.request_takeback(alice, game.id)
    assert (await service.accept_takeback(bob, game.id)).ok
    game = await service.game(game.id)
    assert game.clock.deadline == clock.t + 2 * DAY  # no time given back
    assert game.banks == (2 * DAY, 3 * DAY)


async def test_the_picture_shows_the_waiting_sides_bank(service, clock, alice, bob,
                                                        start_game):
    from bot.pictures import game_info
    game = await start_game(alice, bob, time_control="3d+1d")
    info = game_info(game, [], now=clock.t)
    assert info.clocks == ("3 days left", "3 days in the bank")
