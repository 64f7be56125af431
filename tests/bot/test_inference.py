"""The game you mean: one rule for a command without a game number, with two and three
games (the place's game, the only game where it is your turn, the only offer to answer,
the only turn to end, otherwise the list with whose turn it is)."""

from __future__ import annotations

from bot.service.inference import ANSWER, END_TURN, FORECAST
from bot.service.results import Reason

from .conftest import PLACE


async def test_with_two_games_the_one_where_it_is_your_turn(service, alice, bob, carol,
                                                            start_game):
    first = await start_game(alice, bob)
    second = await start_game(carol, alice)
    # Alice moves in #1 only
    assert (await service.inference.find_game(alice, PLACE)).id == first.id
    await service.move(alice, first.id, "b2-a3/D")
    refused = await service.inference.find_game(alice, PLACE)  # no game waits for her
    assert refused.reason == Reason.WHICH_GAME
    assert refused.message == (
        "Which game? You have 2 games in progress:\n"
        "  #1 Alice vs Bob (Clash of Command, Bob to move): `board #1`\n"
        "  #2 Carol vs Alice (Clash of Command, Carol to move): `board #2`")
    await service.move(carol, second.id, "b2-a3/D")
    # Alice moves in #2 only; Bob and Carol each play one game
    assert (await service.inference.find_game(alice, PLACE)).id == second.id
    assert (await service.inference.find_game(bob, PLACE)).id == first.id
    assert (await service.inference.find_game(carol, "console:elsewhere")).id == second.id


async def test_with_three_games_an_offer_and_a_turn_to_end(service, alice, bob, carol,
                                                           start_game, pairs):
    first = await start_game(alice, bob)
    second = await start_game(alice, carol)
    third = await start_game(bob, alice, variant="pairs")
    await service.move(alice, first.id, "b2-a3/D")
    await service.move(bob, third.id, "b2-a3/D")
    await service.move(bob, third.id, "end")
    # Alice to move in #2 and #3: which one is not clear ...
    refused = await service.inference.find_game(alice, PLACE)
    assert refused.reason == Reason.WHICH_GAME
    assert refused.message == (
        "Which game? You have 3 games in progress:\n"
        "  #1 Alice vs Bob (Clash of Command, Bob to move): `board #1`\n"
        "  #2 Alice vs Carol (Clash of Command, Alice to move): `board #2`\n"
        "  #3 Bob vs Alice (Pairs of Clash, Alice to move): `board #3`")
    assert refused.words("discord").endswith(
        "\n  #3 Bob vs Alice (Pairs of Clash, Alice to move): `/board game:3`")
    # ... but an offer is answered where it was made, and `end` goes to the turn in progress
    assert (await service.offer_draw(bob, third.id)).ok  # Clash has no draws; Pairs has
    assert (await service.inference.find_game(alice, PLACE,
                                              purpose=f"{ANSWER} draw")).id == third.id
    assert (await service.inference.find_game(alice, PLACE,
                                              purpose=f"{ANSWER} takeback")).reason == \
        Reason.WHICH_GAME
    assert (await service.move(alice, third.id, "h8-i7/D")).goes_on
    assert (await service.inference.find_game(alice, PLACE, purpose=END_TURN)).id == third.id
    # a number always wins
    assert (await service.inference.find_game(alice, PLACE, second.id)).id == second.id


async def test_a_conditional_move_goes_to_the_one_game_where_you_wait(service, alice, bob,
                                                                    start_game):
    """Conditional moves are for the player who waits: with one game waiting for the
    opponent and one for them, ``if`` means the first, which every other command does not."""
    first = await start_game(alice, bob)
    await service.move(alice, first.id, "b2-a3/D")  # Bob to move in #1
    second = await start_game(alice, bob)  # Alice to move in #2
    assert (await service.inference.find_game(alice, PLACE)).id == second.id
    assert (await service.inference.find_game(alice, PLACE, purpose=FORECAST)).id == first.id
    line = "if h8-i7/D then a3-b4/D then if c7-c5 then h2-h4/D".split()
    assert (await service.forecasts.add_forecast(alice, first.id, line)).message == (
        "Conditional line recorded in game #1: if h8-i7/D then a3-b4/D then if c7-c5 then "
        "h2-h4/D. Only you see it until it is played.")
    await service.move(alice, second.id, "b2-a3/D")  # now Alice waits in both
    refused = await service.inference.find_game(alice, PLACE, purpose=FORECAST)
    assert refused.reason == Reason.WHICH_GAME


async def test_the_game_of_the_place_comes_first(service, alice, bob, carol, start_game):
    await start_game(alice, bob)
    await service.challenges.challenge(alice, "console:room", carol, "clash", side=0)
    await service.challenges.accept(carol, 2)  # the second challenge
    games = await service.games(alice)
    in_room = next(g for g in games if g.place == "console:room")
    assert (await service.inference.find_game(alice, "console:room")).id == in_room.id
    assert (await service.inference.find_game(bob, "console:room")).id == in_room.id  # a spectator


async def test_nobody_with_no_game_is_told_how_to_start_one(service, alice):
    refused = await service.inference.find_game(alice, PLACE)
    assert (refused.reason, refused.message) == (
        Reason.NO_GAME_HERE, "You have no game in progress. Start one with `challenge NAME`.")
    assert refused.words("discord") == ("You have no game in progress. Start one with "
                                        "`/challenge`.")


async def test_a_player_with_no_game_is_not_offered_everyone_elses(service, alice, bob, carol,
                                                                   start_game):
    """Two games here between others: Dave, who plays none, is told so, with how to look
    at one of them (not a list of everyone's games)."""
    dave = await service.player("console", "dave", "Dave")
    await start_game(alice, bob)
    await start_game(carol, alice)
    refused = await service.inference.find_game(dave, PLACE)
    assert (refused.reason, refused.message) == (
        Reason.NO_GAME_HERE, "You have no game in progress. Start one with `challenge NAME`. "
                             "To look at a game played here, name it, as in `board #1`.")
    assert refused.words("discord") == (
        "You have no game in progress. Start one with `/challenge`. To look at a game played "
        "here, name it, as in `/board game:1`.")


async def test_a_move_goes_to_the_one_game_whose_notation_reads_it(service, alice, bob, carol,
                                                                   start_game):
    """Alice to move in a Commander Chess game and a Clash game: `M&f4` is Commander
    notation only, `b2-a3/D` Clash notation only; each goes to its game unasked."""
    commander = await start_game(alice, bob, variant="commander")
    clash = await start_game(alice, carol)
    assert (await service.inference.find_game(alice, PLACE, move="M&f4")).id == commander.id
    assert (await service.inference.find_game(alice, PLACE, move="b2-a3/D")).id == clash.id
    # without a move the choice is still Alice's to make
    assert (await service.inference.find_game(alice, PLACE)).reason == Reason.WHICH_GAME


async def test_a_move_no_game_reads_gets_the_usual_error_of_the_likeliest_game(
        service, alice, bob, carol, start_game):
    """Nothing reads `xyz`: the error is the one of the first game where it is Alice's turn
    (the Clash game #2), not a question."""
    first = await start_game(bob, alice, variant="commander")  # Bob (Red) to move
    await start_game(alice, carol)
    refused = await service.inference.find_game(alice, PLACE, move="xyz")
    assert (refused.reason, refused.message) == (
        Reason.BAD_MOVE, "I cannot read 'xyz' as a move: a move starts with the point of the "
                         "piece that moves, as in c3-d4.")
    assert first.to_move != first.side_of(alice.id)


async def test_a_move_that_fits_several_games_asks_which_one_a_line_each(
        service, alice, bob, carol, start_game):
    """`b2-a3/D` is legal in both Clash games where Alice is to move: the question lists
    those two (not the Commander game), each with the line that plays it there."""
    await start_game(alice, bob, variant="commander")
    await start_game(alice, bob)
    await start_game(alice, carol)
    refused = await service.inference.find_game(alice, PLACE, move="b2-a3/D")
    assert refused.reason == Reason.WHICH_GAME
    assert refused.message == (
        "Which game? b2-a3/D can be played in 2 of your games:\n"
        "  #2 Alice vs Bob (Clash of Command, Alice to move): `#2 b2-a3/D`\n"
        "  #3 Alice vs Carol (Clash of Command, Alice to move): `#3 b2-a3/D`")
    assert refused.words("discord").splitlines()[1:] == [
        "  #2 Alice vs Bob (Clash of Command, Alice to move): `/move move:b2-a3/D game:2`",
        "  #3 Alice vs Carol (Clash of Command, Alice to move): `/move move:b2-a3/D game:3`"]


async def test_a_move_read_only_where_it_is_not_your_turn_gets_each_game_s_reason(
        service, alice, bob, carol, start_game):
    """Alice has played in the Commander game; `M&f4` again is read there only, and the
    Clash game waits for her: each game's reason is given (a text that a game waiting for
    her cannot read may be meant for it, as `c3-b5` for a Clash game when a Combined Arms
    game reads it); with no game waiting for her, it goes to the game reading it."""
    commander = await start_game(alice, bob, variant="commander")
    clash = await start_game(alice, carol)
    assert (await service.move(alice, commander.id, "M&f4")).ok
    found = await service.inference.find_game(alice, PLACE, move="M&f4")
    assert found.message == (  # type: ignore[union-attr]
        "M&f4 is not a move you can play now in any of your games:\n"
        "  #1 (Commander Chess (Cờ Tư Lệnh)): it is not your turn (Bob is to move)\n"
        "  #2 (Clash of Command): unexpected character '&'")
    assert (await service.move(alice, clash.id, "b2-a3/D")).ok
    assert (await service.inference.find_game(alice, PLACE, move="M&f4")).id == commander.id
    refused = await service.move(alice, commander.id, "M&f4")
    assert refused.message == ("It is not your turn in game #1: Bob (Blue) is to move.")
