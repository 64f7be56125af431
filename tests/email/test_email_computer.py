"""Playing the computer by e-mail: `challenge computer [level]` in a mail, its answers by
mail."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bot.service.computer import Computer

ALICE = "alice@players.test"
SUBJECT = "Game #1: Alice vs Computer (level 1) — mini-Chieftain"
STARTED = """\
Computer (level 1) accepts at once. Game #1 started: Alice (White) vs Computer (level 1) \
(Black), mini-Chieftain, no clock. Alice (White) moves first.

Game #1: Alice (White) vs Computer (level 1) (Black), mini-Chieftain, no clock. Alice to move.

8  h  n  s  c  c  s  n  h
7  m  m  m  m  m  m  m  m
6  .  .  .  .  .  .  .  .
5  .  .  .  .  .  .  .  .
4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .
2  M  M  M  M  M  M  M  M
1  H  N  S  C  C  S  N  H
   a  b  c  d  e  f  g  h
White to move, move 1. White may move up to 2 pieces

No moves yet.

Your move. Reply to this mail with your move on the first line, for example `move \
Ha1-a3, Hh1-h3` (or `moves` for the legal moves, `board`, `draw`, `resign`, `takeback`, \
`help`).
"""


async def test_challenge_the_computer_by_mail(mail):
    pool = ThreadPoolExecutor(1)
    computer = Computer(mail.service, executor=pool, depth=1)
    mail.gateway.commands.computer = computer
    try:
        started = await mail.confirmed(f"Alice <{ALICE}>",
                                       "challenge computer 1 mini-chieftain white",
                                       subject="a game?")
        # one mail says the game started: the answer, in the game's thread, with Alice's
        # key and the board (the service's news of the start would have been a second)
        assert str(started["Subject"]) == SUBJECT
        assert mail.text_of(started).replace("\r\n", "\n") == STARTED
        assert mail.png_of(started) is not None
        assert await mail.relay.nothing_to(ALICE, 1.0)
        await mail.post.send(f"Alice <{ALICE}>", "move Md2-d3, end", reply_to=started)
        moved = await mail.relay.next_to(ALICE)
        assert "Md2-d3, end played in game #1" in mail.text_of(moved)
        assert await computer.play_due() == 1
        mail.gateway.outbox_ready.set()
        game = await mail.service.game(1)
        news = await mail.relay.next_to(ALICE)
        steps = [m.text for m in await mail.service.played_moves(1) if m.side == 1]
        # as a person's move is told: who played which turn, then the game with its board
        assert str(news["Subject"]) == SUBJECT
        assert mail.text_of(news).splitlines()[:3] == [
            f"Computer (level 1) played 1... {', '.join(steps)} in game #1 (mini-Chieftain). "
            f"Your move. There is no clock.", "",
            "Game #1: Alice (White) vs Computer (level 1) (Black), mini-Chieftain, no clock. "
            "Alice to move."]
        assert mail.png_of(news) is not None
        assert game.to_move == 0
    finally:
        pool.shutdown()
