"""Games through the service: challenges, moves, the end of a game, ratings and the
positions stored with every move — on real SQLite files."""

from __future__ import annotations

import random

import pytest

from bot.service import GameService
from bot.service.clock import DAY
from bot.service.results import Reason
from engine import all_variants, get_variant

PLACE = "console:test"
WIN_IN_ONE = "5/4/5/4/5/1c2/1B3/4/C4 w 1"  # c3xd4 takes Black's last Commander


async def play_random_game(service: GameService, game_id: int, players, seed: int,
                           max_steps: int) -> list[str]:
    """Random legal play through the service (closing turns of several steps now and
    then); checks each stored position against the engine's own replay."""
    rng = random.Random(seed)
    game = await service.game(game_id)
    variant = get_variant(game.variant)
    position = variant.parse_position(game.start_fen)
    played: list[str] = []
    for _ in range(max_steps):
        game = await service.game(game_id)
        if game.is_over:
            break
        assert game.fen == variant.format_position(position)
        mover = players[game.to_move]
        choices = await service.legal_moves(game)
        if position.in_progress and (not choices or rng.random() < 0.3):
            text = "end"
            position = variant.end_turn(position)
        else:
            text = rng.choice(choices)
            position = variant.make_move(position, variant.parse_move(position, text))
        done = await service.move(mover, game_id, text, expected_ply=game.ply)
        assert done.ok, done
        assert done.move == text
        played.append(text)
    return played


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
async def test_a_whole_game_of_every_variant_is_stored_and_survives_a_restart(
        variant, settings, clock, alice, bob, start_game):
    game = await start_game(alice, bob, variant=variant)
    service = await GameService.open(settings, now=clock)  # a second process, as it were
    try:
        played = await play_random_game(service, game.id, (alice, bob), seed=3, max_steps=60)
        assert played
        before = await service.game(game.id)
        assert await service.archive.verify(game.id) == []
    finally:
        await service.close()
    reopened = await GameService.open(settings, now=clock)
    try:
        after = await reopened.game(game.id)
        assert after == before
        assert [m.text for m in await reopened.played_moves(game.id)] == played
        assert await reopened.archive.verify(game.id) == []
    finally:
        await reopened.close()


async def test_a_game_is_won_by_the_rules_and_rated(service, alice, bob, start_game):
    game = await start_game(alice, bob, start_fen=WIN_IN_ONE, rated=True)
    done = await service.move(alice, game.id, "c3xd4")
    assert done.ok
    assert done.message == ("1. c3xd4 played in game #1. Game over: Alice (White) wins: Black has "
                            "no Commander left (1-0).")
    game = await service.game(game.id)
    assert (game.status, game.result, game.winner) == ("over", "1-0", 0)
    alice_rating, games = await service.standings.rating(alice, "clash")
    assert games == 1 and alice_rating.rating > 1500
    board = await service.standings.leaderboard("clash")
    assert [s.name for s in board] == ["Alice", "Bob"]
    assert board[0].rating + board[1].rating == pytest.approx(3000)


async def test_an_unrated_game_changes_no_rating(service, alice, bob, start_game):
    game = await start_game(alice, bob, start_fen=WIN_IN_ONE)  # a set-up position: unrated
    assert not game.rated
    await service.move(alice, game.id, "c3xd4")
    bobs = (await service.standings.rating(bob, "clash"))[0]
    assert await service.standings.rating(alice, "clash") == (bobs, 0)
    assert await service.standings.leaderboard("clash") == []


async def test_resigning_ends_the_game_for_the_opponent(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    done = await service.resign(bob, game.id)
    assert done.message == "You resigned game #1: Alice (White) wins: Bob resigned (1-0)."
    assert (await service.game(game.id)).result == "1-0"


async def test_a_game_may_be_aborted_until_both_sides_have_moved(service, alice, bob,
                                                                 start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    done = await service.abort(alice, game.id)
    assert done.message == "Game #1 aborted."
    game = await service.game(game.id)
    assert (game.status, game.result, game.reason) == ("aborted", "*", "aborted by Alice")
    bobs = (await service.standings.rating(bob, "clash"))[0]
    assert await service.standings.rating(alice, "clash") == (bobs, 0)
    second = await start_game(alice, bob)
    await service.move(alice, second.id, "b2-a3/D")
    await service.move(bob, second.id, "h8-i7/D")
    refused = await service.abort(bob, second.id)
    assert refused.reason == Reason.TOO_LATE_TO_ABORT
    assert refused.message == ("Both sides have moved in game #2, so it can no longer be "
                               "aborted; you may resign.")


async def test_the_position_after_every_move_is_stored_with_it(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    for player, text in [(alice, "b2-a3/D"), (bob, "h8-i7/D"), (alice, "h2-h4/D")]:
        assert (await service.move(player, game.id, text)).ok
    played = await service.played_moves(game.id)
    assert [(m.ply, m.side, m.text, m.fen) for m in played] == [
        (0, 0, "b2-a3/D", "bcccc/ffff/hdhd1/4/5/4/FDHDH/DFFF/CCCCB b 1"),
        (1, 1, "h8-i7/D", "bcccc/fffd/hdhdf/4/5/4/FDHDH/DFFF/CCCCB w 2"),
        (2, 0, "h2-h4/D", "bcccc/fffd/hdhdf/4/5/3F/FDHDH/DFFD/CCCCB b 2"),
    ]
    game = await service.game(game.id)
    variant = get_variant("clash")
    assert variant.format_position(await service.position(game, 1)) == played[0].fen
    assert variant.format_position(await service.position(game, 0)) == game.start_fen
    assert variant.format_position(await service.position(game)) == played[-1].fen


async def test_a_move_is_stored_in_canonical_notation(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    done = await service.move(alice, game.id, "  Factor b2 - a3 / droid ")
    assert done.ok and done.move == "b2-a3/D"


async def test_a_spectator_finds_the_only_game_of_the_place(service, alice, bob, carol,
                                                            start_game):
    game = await start_game(alice, bob)
    assert (await service.inference.find_game(carol, PLACE)).id == game.id
    assert [g.id for g in await service.games(None, PLACE)] == [game.id]


# --- challenges ------------------------------------------------------------------------
async def test_a_challenge_to_a_named_opponent(service, alice, bob):
    made = await service.challenges.challenge(alice, PLACE, bob, "clash", side=1, days=3)
    assert made.message == ("Challenge #1 sent to Bob: Clash of Command, 3 days per move, "
                            "Alice plays Black, rated. It expires 2026-03-09 12:00 UTC.")
    notes = await service.pending_notifications("console")
    assert [(n.address, n.kind, n.text) for n in notes] == [
        ("bob", "challenge", "Alice challenges you: Clash of Command, 3 days per move, Alice "
                             "plays Black, rated. Answer with `accept #1` or `decline #1`.")]
    done = await service.challenges.accept(bob, made.challenge.id)
    game = done.game
    assert game.names == ("Bob", "Alice")
    assert (game.days, game.rated, game.to_move) == (3, True, 0)
    assert game.clock.deadline == service.now() + 3 * DAY
    assert done.message == ("Challenge #1 accepted. Game #1 started: Bob (White) vs Alice "
                            "(Black), Clash of Command, 3 days per move. Bob (White) moves "
                            "first.")


async def test_an_open_challenge_is_accepted_by_anyone_and_the_side_may_be_random(
        service, alice, bob, carol):
    sides = set()
    for _ in range(12):
        made = await service.challenges.challenge(alice, PLACE, None, "clash")
        found = await service.challenges.find_challenge(carol, PLACE)
        assert found.id == made.challenge.id
        game = (await service.challenges.accept(carol, found.id)).game
        sides.add(game.side_of(alice.id))
        await service.abort(alice, game.id)
    assert sides == {0, 1}


async def test_challenges_are_declined_cancelled_and_closed(service, alice, bob, carol):
    first = (await service.challenges.challenge(alice, PLACE, bob)).challenge
    assert (await service.challenges.decline(bob, first.id)).message == "Challenge #1 declined."
    refused = await service.challenges.accept(bob, first.id)
    assert (refused.reason, refused.message) == (
        Reason.CHALLENGE_CLOSED, "Challenge #1 is no longer open: it was declined.")
    second = (await service.challenges.challenge(alice, PLACE, bob)).challenge
    refused = await service.challenges.cancel(bob, second.id)
    assert refused.message == "Challenge #2 is Alice's; only they can cancel it."
    assert (await service.challenges.cancel(alice, second.id)).message == "Challenge #2 cancelled."
    third = (await service.challenges.challenge(alice, PLACE, bob)).challenge
    refused = await service.challenges.accept(carol, third.id)
    assert (refused.reason, refused.message) == (
        Reason.NOT_YOUR_CHALLENGE, "Challenge #3 is for Bob, not for you.")
    refused = await service.challenges.accept(alice, third.id)
    assert refused.message == ("You cannot accept your own challenge; withdraw it with "
                               "`cancel #3`.")
    open_one = (await service.challenges.challenge(alice, PLACE)).challenge
    refused = await service.challenges.decline(bob, open_one.id)
    assert refused.message == ("You cannot decline challenge #4: it is open to anyone: simply "
                               "leave it.")
    assert (await service.challenges.accept(bob, 99)).message == "There is no challenge #99."


@pytest.mark.parametrize(("options", "reason", "message"), [
    ({"variant": "chess960"}, Reason.UNKNOWN_VARIANT, "There is no variant called 'chess960'. "
                                                      "Choose one of: "),
    ({"mode": "blitz"}, Reason.UNKNOWN_MODE, "Clash of Command has no mode 'blitz'; its modes "
                                             "are standard."),
    ({"days": 4}, Reason.BAD_TIME_CONTROL, "'4' is not a time control: the time per move is 1, "
                                           "2, 3, 5, 7 or 14 days, or none."),
    ({"start_fen": "5/4/5 w 1"}, Reason.BAD_POSITION, "That start position cannot be used: "
                                                      "'5/4/5 w 1': the placement needs 9 "
                                                      "ranks separated by '/'"),
    ({"start_fen": "5/4/5/4/5/4/1B3/4/C4 w 1"}, Reason.BAD_POSITION,
     "That start position cannot be used: the game would be over before it starts."),
])
async def test_a_challenge_that_cannot_be_played_is_refused(service, alice, bob, options,
                                                            reason, message):
    refused = await service.challenges.challenge(alice, PLACE, bob, **options)
    assert refused.reason == reason
    assert refused.message.startswith(message)
    assert await service.challenges.pending(alice) == []


async def test_nobody_challenges_themselves(service, alice):
    refused = await service.challenges.challenge(alice, PLACE, alice)
    assert (refused.reason, refused.message) == (Reason.SELF_CHALLENGE,
                                                 "You cannot challenge yourself.")
