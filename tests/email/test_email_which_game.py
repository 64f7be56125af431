"""A move mailed without a game's key, by a player of several games: it goes to the one
game whose notation reads it (asked back to confirm, as every keyless move), or the
answer lists the games it fits, one a line, each with the line that plays it there; a
command word sent as a move is told how to use that command."""

from __future__ import annotations

from dataclasses import replace

from .conftest import asked

ALICE = "alice@players.test"
BOB = "bob@players.test"
CAROL = "carol@players.test"


async def _three_games(mail) -> None:
    """Alice to move in #1 (Commander Chess, against Bob), #2 (Clash, Bob), #3 (Clash,
    Carol)."""
    mail.gateway.settings = replace(mail.gateway.settings, email_rate_limit=50)
    for opponent, rest in ((BOB, "commander red"), (BOB, "clash white"), (CAROL, "clash white")):
        await mail.confirmed(f"Alice <{ALICE}>", f"challenge {opponent} {rest}")
        offer = await mail.relay.next_to(opponent)
        await mail.post.send(opponent, "accept", reply_to=offer)
        await mail.relay.next_to(opponent)
        await mail.relay.next_to(ALICE)


def _answer(mail, message) -> str:
    """An answer's own text, without the list of games every answer ends with."""
    return mail.text_of(message).split("\r\n\r\n")[0]


async def test_a_keyless_move_goes_to_the_game_its_notation_fits_or_asks_which(mail):
    await _three_games(mail)
    await mail.post.send(f"Alice <{ALICE}>", "M&f4")  # Commander Chess notation only
    assert mail.text_of(await mail.relay.next_to(ALICE)) == await asked(
        mail, ALICE, "`move M&f4` (game #1)")
    await mail.post.send(f"Alice <{ALICE}>", "b2-a3/D")  # legal in both Clash games
    assert _answer(mail, await mail.relay.next_to(ALICE)) == (
        "Which game? b2-a3/D can be played in 2 of your games:\r\n"
        "  #2 Alice vs bob (Clash of Command, Alice to move): `move #2 b2-a3/D`\r\n"
        "  #3 Alice vs carol (Clash of Command, Alice to move): `move #3 b2-a3/D`\r\n"
        "Write the line of the game you mean, or reply with the move to the latest mail of "
        "that game.")
    await mail.post.send(f"Alice <{ALICE}>", "move #3 b2-a3/D")  # the line written: asked
    assert mail.text_of(await mail.relay.next_to(ALICE)) == await asked(
        mail, ALICE, "`move #3 b2-a3/D`")
    await mail.post.send(f"Alice <{ALICE}>", "move xyz")  # no game reads it: each one's why
    assert _answer(mail, await mail.relay.next_to(ALICE)) == (
        "xyz is not a move you can play now in any of your games:\r\n"
        "  #1 (Commander Chess (Cờ Tư Lệnh)): expected a move such as Te5, Ixc6, A_b2, F@e5, "
        "(NF)b6, I<T>e6 or T>e6,I>e5\r\n"
        "  #2, #3 (Clash of Command): a move starts with the point of the piece that moves, as "
        "in c3-d4")


async def test_a_command_word_mailed_as_a_move_is_told_how_to_use_that_command(mail):
    await _three_games(mail)
    await mail.post.send(f"Alice <{ALICE}>", "move moves")
    assert _answer(mail, await mail.relay.next_to(ALICE)) == (
        "'moves' is a command, not a move: begin the line with it, as in `moves` or "
        "`moves c3` (`help moves` tells more).")
