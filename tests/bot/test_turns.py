"""Turns of several steps, `end`, takebacks and draw offers, with a two-step variant
(`pairs`: two Clash moves per turn, or one and `end`)."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.service.results import Reason
from bot.service.turns import if_my_turn_words

START = "bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 1 -"


@pytest.fixture
async def game(service, alice, bob, start_game, pairs):
    return await start_game(alice, bob, variant="pairs")


async def kinds(service: GameService) -> list[tuple[str | None, str]]:
    return [(n.address, n.kind) for n in await service.pending_notifications("console")]


async def test_the_same_player_moves_until_the_turn_is_complete(service, game, alice, bob):
    await service.deliver("console", _ignore)
    done = await service.move(alice, game.id, "b2-a3/D")
    assert done.message == ("b2-a3/D played in game #1. Your turn goes on: send the next step, "
                            "or `end` to finish it.")
    assert done.goes_on and done.turn is None
    assert done.game.to_move == 0 and done.game.turns == 0
    assert await kinds(service) == []  # nobody is told anything in the middle of a turn
    refused = await service.move(bob, game.id, "h8-i7/D")
    assert refused.reason == Reason.NOT_YOUR_TURN
    done = await service.move(alice, game.id, "h2-h4/D")
    assert done.message == "1. b2-a3/D | h2-h4/D played in game #1. Bob (Black) is to move."
    assert done.turn == "b2-a3/D | h2-h4/D" and not done.goes_on
    assert (done.game.to_move, done.game.turns, done.game.ply) == (1, 1, 2)
    assert await kinds(service) == [("bob", "your-move")]
    played = await service.played_moves(game.id)
    assert [(m.text, m.turn, m.partial) for m in played] == [("b2-a3/D", 0, True),
                                                             ("h2-h4/D", 0, False)]


async def test_end_closes_a_turn_early(service, game, alice, bob):
    await service.move(alice, game.id, "b2-a3/D")
    done = await service.move(alice, game.id, "end")
    assert done.message == "1. b2-a3/D | end played in game #1. Bob (Black) is to move."
    assert [(m.text, m.partial) for m in await service.played_moves(game.id)] == [
        ("b2-a3/D", True), ("end", False)]
    assert (await service.end_turn(bob, game.id)).reason == Reason.NO_TURN_IN_PROGRESS


async def test_a_restart_in_the_middle_of_a_turn_loses_nothing(settings, clock, game, alice,
                                                               bob):
    first = await GameService.open(settings, now=clock)
    await first.move(alice, game.id, "b2-a3/D")
    await first.close()
    second = await GameService.open(settings, now=clock)
    try:
        position = await second.position(await second.game(game.id))
        assert position.in_progress
        assert (await second.move(alice, game.id, "h2-h4/D")).ok
        assert (await second.game(game.id)).to_move == 1
        assert await second.archive.verify(game.id) == []
    finally:
        await second.close()


async def test_the_variant_judges_the_end_with_the_positions_where_turns_ended(
        service, game, alice, bob, pairs, monkeypatch):
    seen: list[list[str]] = []
    judge = type(pairs).outcome

    def spy(self, position, history=(), mode="standard"):
        if history:  # the service's calls (the parser asks without a history)
            seen.append([self.format_position(p) for p in history])
        return judge(self, position, history, mode)

    monkeypatch.setattr(type(pairs), "outcome", spy)
    service._lines.clear()  # read the game again, so the history comes from the database
    for player, text in [(alice, "b2-a3/D"), (alice, "end"), (bob, "h8-i7/D")]:
        await service.move(player, game.id, text)
    after_first_turn = "bcccc/ffff/hdhd1/4/5/4/FDHDH/DFFF/CCCCB b 1 -"
    assert seen[-3:] == [[START], [START], [START, after_first_turn]]


async def test_a_takeback_removes_the_whole_last_turn_and_what_followed(service, game, alice,
                                                                        bob):
    for player, text in [(alice, "b2-a3/D"), (alice, "h2-h4/D"), (bob, "h8-i7/D")]:
        await service.move(player, game.id, text)
    assert (await service.request_takeback(alice, game.id)).ok
    assert (await kinds(service))[-1] == ("bob", "takeback-request")
    done = await service.accept_takeback(bob, game.id)
    assert done.message == "Takeback accepted in game #1: Alice is to move."
    game = await service.game(game.id)
    assert (game.ply, game.turns, game.to_move, game.fen) == (0, 0, 0, START)
    assert await service.played_moves(game.id) == []
    assert (await service.move(alice, game.id, "b2-a3/H")).ok
    assert await service.archive.verify(game.id) == []


async def test_moving_declines_the_opponents_takeback_request(service, game, alice, bob):
    for player, text in [(alice, "b2-a3/D"), (alice, "end")]:
        await service.move(player, game.id, text)
    await service.request_takeback(alice, game.id)
    await service.move(bob, game.id, "h8-i7/D")
    assert (await service.game(game.id)).takeback_offer == 0  # until Bob's turn is complete
    await service.move(bob, game.id, "end")
    assert (await service.game(game.id)).takeback_offer is None
    refused = await service.accept_takeback(bob, game.id)
    assert refused.reason == Reason.NO_OFFER


async def test_a_takeback_request_may_be_declined(service, game, alice, bob):
    await service.move(alice, game.id, "b2-a3/D")
    await service.move(alice, game.id, "end")
    await service.request_takeback(alice, game.id)
    done = await service.decline_takeback(bob, game.id)
    assert done.message == "Takeback declined in game #1."
    assert (await service.game(game.id)).ply == 2


async def test_a_draw_offered_and_accepted(service, game, alice, bob):
    done = await service.offer_draw(alice, game.id)
    assert done.message == "Draw offered in game #1."
    assert (await kinds(service))[-1] == ("bob", "draw-offer")
    refused = await service.offer_draw(alice, game.id)
    assert (refused.reason, refused.message) == (Reason.ALREADY_OFFERED,
                                                 "You have already offered a draw in game #1.")
    refused = await service.accept_draw(alice, game.id)
    assert refused.reason == Reason.NO_OFFER
    done = await service.accept_draw(bob, game.id)
    assert done.message == "Game #1 is drawn by agreement."
    game = await service.game(game.id)
    assert (game.status, game.result, game.winner, game.reason) == (
        "over", "1/2-1/2", None, "by agreement")


async def test_offers_from_both_sides_make_a_draw(service, game, alice, bob):
    await service.offer_draw(alice, game.id)
    done = await service.offer_draw(bob, game.id)
    assert done.message == "Game #1 is drawn by agreement."


async def test_a_draw_offer_declined_or_answered_by_moving(service, game, alice, bob):
    await service.offer_draw(bob, game.id)
    done = await service.decline_draw(alice, game.id)
    assert done.message == "Draw offer declined in game #1."
    await service.offer_draw(bob, game.id)
    await service.move(alice, game.id, "b2-a3/D")
    assert (await service.game(game.id)).draw_offer == 1  # a turn in progress keeps it
    await service.move(alice, game.id, "end")
    assert (await service.game(game.id)).draw_offer is None


async def _ignore(notification) -> None:
    return None


async def test_board_names_a_turn_by_its_number(service, game, alice, bob):
    from bot.commands import Commands

    async def find(name: str):
        return await service.find_player("console", name)

    commands = Commands(service, find)
    for player, text in ((alice, "b2-a3/D"), (alice, "h2-h4/D"), (bob, "h8-i7/D"),
                         (bob, "end"), (alice, "c3-d4")):
        assert (await service.move(player, game.id, text)).ok, text

    async def board(arg: str):
        return await commands.cmd_board(alice, "console:elsewhere", [f"#{game.id}", arg])

    # steps: 1. b2-a3/D | h2-h4/D (2 steps), 1... h8-i7/D | end (2), 2. c3-d4 (going on)
    plies = {arg: (await board(arg)).ply for arg in ("0", "1.", "1...", "1…", "1", "2.", "2")}
    assert plies == {"0": 0, "1.": 2, "1...": 4, "1…": 4, "1": 4, "2.": 5, "2": 5}
    assert (await board("2...")).text == (
        f"Game #{game.id} has turns 1. to 2. so far: name one of them, or 0 for the start.")
    assert (await board("x")).text == (
        f"'x' is not a turn number: `board #{game.id} 3.` shows the board after White's turn "
        f"3, `board #{game.id} 3...` after Black's, `board #{game.id} 0` the start.")


async def test_a_waiting_players_piece_shows_the_moves_it_would_have_on_their_turn(
        service, alice, bob, start_game):
    """White (Alice) to move; Bob's lone Brute has nothing to capture, so even on his turn
    it could not move. Only a waiting player's own piece is shown as if it were their turn."""
    game = await start_game(alice, bob, variant="clash", start_fen="b3c/4/5/4/5/4/5/4/4C w 1")
    brute = await service.turns.steps_if_my_turn(game, bob, "a9")
    assert (brute.name, brute.steps, brute.targets) == ("Brute", (), ())
    assert if_my_turn_words(game.id, brute, "") == (
        "It is not your turn in game #1; if it were, your Brute on a9 could not move.")
    commander = await service.turns.steps_if_my_turn(game, alice, "i1")
    assert commander is None  # her turn: her moves are the real ones
    assert await service.turns.steps_if_my_turn(game, bob, "i1") is None  # not his piece
    assert await service.turns.steps_if_my_turn(game, bob, "b9") is None  # no point of the board
    assert (await service.move(alice, game.id, "i1-h2/F")).ok  # Bob to move: Alice waits
    game = await service.game(game.id)
    factor = await service.turns.steps_if_my_turn(game, alice, "i1")  # left by the Commander
    assert (factor.name, factor.steps, factor.targets) == (
        "Factor", ("i1-i3/D", "i1-i3/H", "i1=D", "i1=H"), ("i3",))
    assert if_my_turn_words(game.id, factor, " ".join(factor.steps)) == (
        "It is not your turn in game #1; if it were, your Factor on i1 could make 4 moves: "
        "i1-i3/D i1-i3/H i1=D i1=H.")
