"""Findings of a user trial of "which game?" at the console: a text that is a move in
none of the games the player may move in gets each game's reason; a point names the
games whose board has it; `end` with no turn in progress says so; a pasted command is
not answered as a move played too early."""

from __future__ import annotations

import pytest


@pytest.fixture
async def two(session, service, start_game):
    """Alice's games: Commander Chess #1 and Clash of Command #2, her turn in both."""
    alice = session.console.player
    bob = await service.player("console", "bob", "bob")
    await start_game(alice, bob, variant="commander")
    await start_game(alice, bob, variant="clash")
    await session("games")  # the challenges' news is delivered with this answer
    return alice, bob


async def test_a_text_no_game_to_move_in_reads_gets_each_game_s_reason(session, two):
    assert await session("c7-c4") == (
        "c7-c4 is not a move you can play now in any of your games:\n"
        "  #1 (Commander Chess (Cờ Tư Lệnh)): piece letters are written in upper case "
        "(C I T M E A G S F N H), files in lower case (a to k)\n"
        "  #2 (Clash of Command): c4 is not a point of the board (points are a1, c1, ... i9 "
        "where the file number plus the rank is even)")


async def test_a_move_of_the_one_game_it_reads_in_is_played_there(session, two):
    assert (await session("b2-a3/D")).startswith("1. b2-a3/D played in game #2.")


async def test_a_point_names_the_games_whose_board_has_it(session, two):
    # e2 is no point of Clash of Command's board: the Commander game is meant
    assert (await session("moves e2")).startswith("F on e2: 15 moves: F&b2 F&c4 Fc2 ")


async def test_moves_in_several_games_names_the_point_in_its_hint(session, two):
    assert (await session("moves c3")).splitlines()[1:] == [
        "  #1 Alice vs bob (Commander Chess (Cờ Tư Lệnh), Alice to move): `moves #1 c3`",
        "  #2 Alice vs bob (Clash of Command, Alice to move): `moves #2 c3`"]


async def test_end_without_a_turn_in_progress_says_so(session, two):
    assert await session("end") == (
        "You have no turn of several steps in progress to end: `end` closes a Chieftain "
        "turn or a Commander Chess deploy before all its moves are made.")


async def test_a_pasted_command_is_no_move_played_too_early(session, service, start_game):
    alice = session.console.player
    bob = await service.player("console", "bob", "bob")
    await start_game(bob, alice, variant="clash")  # bob (White) is to move
    await session("games")
    assert await session("c3-b4/D") == "It is not your turn in game #1: bob (White) is to move."
    assert (await session("alice> board")).startswith("I cannot read")
    assert (await session("`board #1`")).startswith("Game #1: bob (White) vs Alice (Black)")
    assert (await session("Alice> games")).startswith("Games in progress:")
