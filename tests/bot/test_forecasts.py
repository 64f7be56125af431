"""Conditional moves: lines recorded by the waiting player fire as their own moves inside
the opponent's command, partly match, get dropped, survive a restart, are refused when
illegal, and are cleared by a takeback."""

from __future__ import annotations

from bot.commands import Commands
from bot.service import GameService
from bot.service.results import Reason

LINE = "if h8-i7/D then a3-b4/D then if c7-c5 then h2-h4/D".split()


async def _texts(service: GameService) -> list[tuple[str | None, str, str]]:
    found = [(n.address, n.kind, n.text) for n in await service.pending_notifications("console")]
    await service.deliver("console", _ignore)
    return found


async def _ignore(notification) -> None:
    return None


async def test_lines_fire_partly_match_get_dropped_and_survive_a_restart(
        service, settings, clock, alice, bob, carol, start_game):
    game = await start_game(alice, bob)
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    done = await service.forecasts.add_forecast(alice, game.id, LINE)
    assert done.message == ("Conditional line recorded in game #1: if h8-i7/D then a3-b4/D then "
                            "if c7-c5 then h2-h4/D. Only you see it until it is played.")
    assert (await service.forecasts.add_forecast(alice, game.id,
                                                 "if h8-h6/D then a3-a5/D".split())).ok
    assert await service.forecasts.forecast_lines(alice, game.id) == [
        "if h8-i7/D then a3-b4/D then if c7-c5 then h2-h4/D", "if h8-h6/D then a3-a5/D"]
    assert await service.forecasts.forecast_lines(bob, game.id) == []
    assert await service.forecasts.forecast_lines(carol, game.id) == []
    assert not any("h8-i7" in t for _, _, t in await _texts(service))  # private

    # a restart: a new service on the same database file
    await service.close()
    service = await GameService.open(settings, now=clock)
    try:
        done = await service.move(bob, game.id, "h8-i7/D")
        assert done.message == ("1... h8-i7/D played in game #1. Alice (White) is to move. Alice "
                                "answered at once with a3-b4/D, a conditional move. Your move.")
        assert (done.game.to_move, done.game.turns) == (1, 3)
        assert [m.text for m in await service.played_moves(game.id)] == [
            "b2-a3/D", "h8-i7/D", "a3-b4/D"]
        assert await _texts(service) == [
            ("bob", "your-move", "Alice played 2. a3-b4/D (a conditional move) in game #1 (Clash "
                                 "of Command). Your move. There is no clock."),
            ("alice", "forecast", "Bob played h8-i7/D in game #1 (Clash of Command); your "
                                  "conditional move a3-b4/D was played in answer.")]
        # the line's rest is kept; the other branch is gone with its move
        assert await service.forecasts.forecast_lines(alice, game.id) == ["if c7-c5 then h2-h4/D"]
        done = await service.move(bob, game.id, "a7-b6")
        assert done.message == "2... a7-b6 played in game #1. Alice (White) is to move."
        assert await service.forecasts.forecast_lines(alice, game.id) == []
        assert (await _texts(service))[-1] == (
            "alice", "forecast", "Bob played a7-b6 in game #1, which none of your conditional "
                                 "lines expected: they are dropped.")
    finally:
        await service.close()


async def test_an_illegal_or_untimely_line_is_refused_when_entered(service, alice, bob,
                                                                   carol, start_game):
    game = await start_game(alice, bob)
    refused = await service.forecasts.add_forecast(alice, game.id, LINE)
    assert refused.reason == Reason.BAD_FORECAST
    assert refused.message == ("It is your turn in game #1: conditional moves are for the "
                               "player who waits. Play your move, then record them.")
    await service.move(alice, game.id, "b2-a3/D")
    refused = await service.forecasts.add_forecast(alice, game.id,
                                                   "if h8-i7/D then a3-a9/D".split())
    assert refused.reason == Reason.ILLEGAL_MOVE
    refused = await service.forecasts.add_forecast(alice, game.id, "if h8-i7/D then".split())
    assert refused.message == ("Each `if` needs their turn and each `then` your answer. Write "
                               "a line as `if h8-i7/D then b2-a3/D then if i7-h6/D then "
                               "a3-b4/D`.")
    refused = await service.forecasts.add_forecast(alice, game.id, "if h8-i7/D".split())
    assert refused.message.startswith("`if h8-i7/D` needs `then` and your answer.")
    refused = await service.forecasts.add_forecast(alice, game.id, "if b2-b4 then a3-b4/D".split())
    assert refused.reason == Reason.ILLEGAL_MOVE  # White's move where Black moves
    assert (await service.forecasts.add_forecast(carol, game.id,
                                                 LINE)).reason == Reason.NOT_A_PLAYER
    assert await service.forecasts.forecast_lines(alice, game.id) == []


async def test_a_new_answer_to_the_same_move_replaces_the_old_one(service, alice, bob,
                                                                  start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    await service.forecasts.add_forecast(alice, game.id, LINE)
    done = await service.forecasts.add_forecast(alice, game.id, "if h8-i7/D then a3-a5/D".split())
    assert done.message.endswith("It replaces the answer you had recorded to the same move. "
                                 "Only you see it until it is played.")
    assert await service.forecasts.forecast_lines(alice, game.id) == ["if h8-i7/D then a3-a5/D"]


async def test_a_takeback_clears_the_lines(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    await service.forecasts.add_forecast(alice, game.id, LINE)
    await service.request_takeback(alice, game.id)
    assert (await service.accept_takeback(bob, game.id)).ok
    assert await service.forecasts.forecast_lines(alice, game.id) == []


async def test_whole_turns_of_several_steps(service, alice, bob, start_game, pairs):
    game = await start_game(alice, bob, variant="pairs")
    await service.move(alice, game.id, "b2-a3/D")
    await service.move(alice, game.id, "h2-h4/D")
    refused = await service.forecasts.add_forecast(bob, game.id, "if b2-a3/D then h8-i7/D".split())
    assert refused.message.startswith("It is your turn")
    await service.move(bob, game.id, "h8-i7/D")
    await service.move(bob, game.id, "end")
    refused = await service.forecasts.add_forecast(bob, game.id, "if a3-b4/D then h8-i7/D".split())
    assert refused.message == ("a3-b4/D is not a whole turn: add its next steps with `|`, or "
                               "`| end` to finish it.")
    line = "if a3-b4/D | end then i7-h6/D | end".split()
    assert (await service.forecasts.add_forecast(bob, game.id, line)).ok
    await service.move(alice, game.id, "a3-b4/D")  # the first step: nothing fires yet
    assert await service.forecasts.forecast_lines(bob, game.id) == [
        "if a3-b4/D | end then i7-h6/D | end"]
    done = await service.move(alice, game.id, "end")
    assert done.message.endswith("Bob answered at once with i7-h6/D | end, a conditional move. "
                                 "Your move.")
    assert [m.text for m in await service.played_moves(game.id)][-2:] == ["i7-h6/D", "end"]
    assert (await service.game(game.id)).to_move == 0


async def test_the_console_and_mail_words(service, alice, bob, carol, start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    commands = Commands(service, lambda name: service.find_player("console", name))
    reply = await commands.handle(alice, "console:test", " ".join(LINE))
    assert reply.ok and reply.text.startswith("Conditional line recorded in game #1")
    assert (await commands.handle(alice, "console:test", "forecast")).text == (
        "Your conditional moves in game #1 (only you see them):\n"
        "  if h8-i7/D then a3-b4/D then if c7-c5 then h2-h4/D")
    assert (await commands.handle(bob, "console:test", "forecast")).text == (
        "You have no conditional moves in game #1. Record one with "
        "`if THEIR-MOVE then YOUR-ANSWER`.")
    assert "a3-b4" not in (await commands.handle(carol, "console:test", "board")).text
    assert (await commands.handle(alice, "console:test", "forecast clear")).text == (
        "Your conditional moves in game #1 are dropped.")
    assert (await commands.handle(alice, "console:test", "forecast clear")).ok is False
