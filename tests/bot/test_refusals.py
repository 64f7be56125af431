"""Every refusal a player can cause: its reason, its exact message, and nothing stored.

Game commands are checked in a fixed order: the game exists, it is not over, the sender
plays in it, the position is the one they saw, it is their turn, the move is legal."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.service.results import Reason

PLACE = "console:test"


async def stored(service: GameService) -> dict[str, list[tuple]]:
    """Everything in the database that a refusal must leave alone."""
    async with service.db.snapshot() as s:
        return {table: [tuple(r) for r in await s.all(f"SELECT * FROM {table} ORDER BY 1")]
                for table in ("players", "challenges", "games", "moves", "outbox", "ratings",
                              "vacations")}


@pytest.fixture
async def game(service, alice, bob, start_game):
    """Alice (White) and Bob (Black) after 1. b2-a3/D: Bob to move, ply 1."""
    game = await start_game(alice, bob)
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    return await service.game(game.id)


MOVE_REFUSALS = [
    # (who, game number, move, expected ply, reason, message)
    ("bob", 99, "h8-i7/D", None, Reason.NO_SUCH_GAME, "There is no game #99."),
    ("carol", 1, "h8-i7/D", None, Reason.NOT_A_PLAYER,
     "You are not playing in game #1 (Alice vs Bob)."),
    ("bob", 1, "h8-i7/D", 0, Reason.POSITION_CHANGED,
     "The position in game #1 has changed since you looked at it. Look at the board again "
     "and send your move if it still fits."),
    ("alice", 1, "h2-h4/D", None, Reason.NOT_YOUR_TURN,
     "It is not your turn in game #1: Bob (Black) is to move."),
    ("bob", 1, "h8-i7/Q", None, Reason.BAD_MOVE,
     "I cannot read 'h8-i7/Q' as a move: 'q' is not a piece letter or name."),
    ("bob", 1, "h8-g7/D", None, Reason.ILLEGAL_MOVE, "h8-g7/D is not a legal move here: g7 is "
                                                     "occupied: the Factor on h8 moves only to "
                                                     "an empty point."),
    ("bob", 1, "a1-a3/B", None, Reason.ILLEGAL_MOVE, "a1-a3/B is not a legal move here: the "
                                                     "Commander on a1 is White's, and it is "
                                                     "Black's turn."),
    ("bob", 1, "h8-i7", None, Reason.AMBIGUOUS_MOVE,
     "h8-i7 is ambiguous: it could be h8-i7/D or h8-i7/H. Send the one you mean."),
    # the order: the first failing check decides
    ("carol", 1, "h8-i7/D", 0, Reason.NOT_A_PLAYER,
     "You are not playing in game #1 (Alice vs Bob)."),
    ("alice", 1, "h2-h4/D", 0, Reason.POSITION_CHANGED,
     "The position in game #1 has changed since you looked at it. Look at the board again "
     "and send your move if it still fits."),
    ("alice", 1, "b2-a3/D", None, Reason.NOT_YOUR_TURN,
     "It is not your turn in game #1: Bob (Black) is to move."),
    # text that is no move at all says so, also out of turn (not "not your turn")
    ("alice", 1, "nonsense", None, Reason.BAD_MOVE,
     "I cannot read 'nonsense' as a move: a move starts with the point of the piece that "
     "moves, as in c3-d4."),
]


@pytest.mark.parametrize(("who", "number", "text", "ply", "reason", "message"), MOVE_REFUSALS)
async def test_a_refused_move_says_why_and_stores_nothing(service, game, alice, bob, carol,
                                                          who, number, text, ply, reason,
                                                          message):
    sender = {"alice": alice, "bob": bob, "carol": carol}[who]
    before = await stored(service)
    refused = await service.move(sender, number, text, expected_ply=ply)
    assert not refused.ok
    assert refused.reason == reason
    assert refused.message == message
    assert await stored(service) == before


async def test_an_ambiguous_move_lists_its_candidates(service, game, bob):
    refused = await service.move(bob, game.id, "h8-i7")
    assert refused.candidates == ("h8-i7/D", "h8-i7/H")


async def test_a_finished_game_refuses_every_game_command(service, game, alice, bob):
    await service.resign(alice, game.id)
    before = await stored(service)
    over = "Game #1 is over: Bob (Black) wins: Alice resigned (0-1)."
    for call in (service.move(bob, game.id, "h8-i7/D"), service.resign(bob, game.id),
                 service.abort(bob, game.id), service.offer_draw(bob, game.id),
                 service.request_takeback(bob, game.id), service.end_turn(bob, game.id),
                 service.move(bob, game.id, "h8-i7/D", expected_ply=0)):
        refused = await call
        assert (refused.reason, refused.message) == (Reason.GAME_OVER, over)
    assert await stored(service) == before


async def test_a_spectator_cannot_act_in_a_game(service, game, carol):
    not_yours = "You are not playing in game #1 (Alice vs Bob)."
    for call in (service.resign(carol, game.id), service.abort(carol, game.id),
                 service.offer_draw(carol, game.id), service.request_takeback(carol, game.id),
                 service.end_turn(carol, game.id)):
        refused = await call
        assert (refused.reason, refused.message) == (Reason.NOT_A_PLAYER, not_yours)


async def test_end_without_a_turn_in_progress(service, game, bob):
    for refused in (await service.end_turn(bob, game.id), await service.move(bob, game.id, "end")):
        assert (refused.reason, refused.message) == (
            Reason.NO_TURN_IN_PROGRESS,
            "There is no turn in progress to end in game #1: your turn has not started: send "
            "a move.")


async def test_clash_has_no_draw_by_agreement(service, game, bob):
    refused = await service.offer_draw(bob, game.id)
    assert (refused.reason, refused.message) == (
        Reason.DRAW_NOT_ALLOWED, "Clash of Command has no draws by agreement.")


async def test_answering_an_offer_nobody_made(service, game, bob):
    for call, what in ((service.accept_draw, "draw offer"), (service.decline_draw, "draw offer"),
                       (service.accept_takeback, "takeback request"),
                       (service.decline_takeback, "takeback request")):
        refused = await call(bob, game.id)
        assert (refused.reason, refused.message) == (
            Reason.NO_OFFER,
            f"There is no {what} from your opponent to answer in game #1.")


async def test_nothing_to_take_back_before_your_first_turn(service, game, bob, alice):
    refused = await service.request_takeback(bob, game.id)
    assert (refused.reason, refused.message) == (
        Reason.NOTHING_TO_TAKE_BACK, "You have no completed turn to take back in game #1.")
    assert (await service.request_takeback(alice, game.id)).ok
    refused = await service.request_takeback(alice, game.id)
    assert (refused.reason, refused.message) == (
        Reason.ALREADY_OFFERED, "You have already asked for a takeback in game #1.")


async def test_unknown_players_and_challenges(service, alice):
    refused = await service.find_player("console", "zoe")
    assert (refused.reason, refused.message) == (Reason.NO_SUCH_PLAYER,
                                                 "I do not know anyone called 'zoe'.")
    refused = await service.challenges.find_challenge(alice, PLACE)
    assert (refused.reason, refused.message) == (Reason.NO_SUCH_CHALLENGE,
                                                 "You have no challenge to answer here.")
    refused = await service.challenges.find_challenge(alice, PLACE, own=True)
    assert refused.message == "You made no open challenge here."


async def test_several_challenges_need_a_number(service, alice, bob, carol):
    await service.challenges.challenge(alice, PLACE, carol)
    await service.challenges.challenge(bob, PLACE, carol)
    refused = await service.challenges.find_challenge(carol, PLACE)
    assert (refused.reason, refused.message) == (
        Reason.WHICH_CHALLENGE,
        "There are several challenges: #1 (Alice, Clash of Command), #2 (Bob, Clash of "
        "Command). Say which, as in `accept #1`.")
