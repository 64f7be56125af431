"""Playing the computer by e-mail: `challenge computer [level]` in a mail, its answers by
mail."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bot.service.computer import Computer

ALICE = "alice@players.test"


async def test_challenge_the_computer_by_mail(mail):
    pool = ThreadPoolExecutor(1)
    computer = Computer(mail.service, executor=pool, depth=1)
    mail.gateway.commands.computer = computer
    try:
        first = await mail.confirmed(f"Alice <{ALICE}>",
                                     "challenge computer 1 mini-chieftain white",
                                     subject="a game?")
        # the answer and the game's own first mail travel in lanes of their own: either may
        # come first
        second = await mail.relay.next_to(ALICE)
        answer, started = ((first, second) if "accepts at once" in mail.text_of(first)
                           else (second, first))
        assert ("Computer (level 1) accepts at once. Game #1 started: Alice (White) vs "
                "Computer (level 1) (Black), mini-Chieftain. Alice (White) moves first."
                ) in mail.text_of(answer)
        # the game's own thread, with Alice's key
        assert mail.text_of(started).startswith("Game #1 started: Alice (White) vs Computer "
                                                "(level 1) (Black), mini-Chieftain, no clock.")
        await mail.post.send(f"Alice <{ALICE}>", "move Md2-d3, end", reply_to=started)
        moved = await mail.relay.next_to(ALICE)
        assert "Md2-d3, end played in game #1" in mail.text_of(moved)
        assert await computer.play_due() == 1
        mail.gateway.outbox_ready.set()
        game = await mail.service.game(1)
        news = await mail.relay.next_to(ALICE)
        assert "Computer (level 1) played 1... " in mail.text_of(news)
        assert game.to_move == 0
    finally:
        pool.shutdown()
