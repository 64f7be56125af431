"""Games played through the real bot against SimCord's in-memory Discord."""

from __future__ import annotations

from engine import all_variants, get_variant


async def _start(w, variant: str = "clash", days: int = 3):
    r = await w.alice.slash(w.channel, "challenge", opponent=w.bob, variant=variant, side=0,
                            days=days)
    assert not r.ephemeral, r.response.content
    r = await w.bob.slash(w.channel, "accept")
    assert not r.ephemeral, r.response.content
    thread = w.channel.threads[-1]
    game = (await w.service.games(place=None))[-1]
    return thread, game


async def test_a_targeted_challenge_opens_a_thread_with_the_board(world):
    thread, game = await _start(world)
    opener = thread.history()[0]
    assert opener.attachments and opener.attachments[0].filename.endswith(".png")
    assert world.alice.mention in opener.content
    assert game.place.endswith(f"/{thread.id}")


async def test_a_slash_move_gets_one_reply_with_picture_mention_and_deadline(world):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    r = await world.alice.slash(thread, "move", move=move)
    reply = r.response
    assert not r.ephemeral
    assert f"**{move}**" in reply.content
    assert world.bob.mention in reply.content
    assert "<t:" in reply.content
    assert reply.attachments[0].filename.endswith(".png")


async def test_refusals_are_ephemeral_with_the_services_message(world):
    thread, game = await _start(world)
    r = await world.bob.slash(thread, "move", move="a7-a5")
    assert r.ephemeral and "not your turn" in r.response.content
    r = await world.bob.slash(thread, "move", move="a1-a2")  # no move at all: said so
    assert r.ephemeral and r.response.content == (
        "I cannot read 'a1-a2' as a move: a2 is not a point of the board (points are a1, c1, "
        "... i9 where the file number plus the rank is even).")
    r = await world.carol.slash(thread, "resign")
    assert r.ephemeral and "not playing" in r.response.content
    r = await world.alice.slash(thread, "move", move="zz9-zz10")
    assert r.ephemeral and "zz9" in r.response.content


async def test_every_variant_plays_to_the_end_by_slash_and_typed_moves(world):
    for variant in all_variants():
        thread, game = await _start(world, variant.name, days=0)
        players = {0: world.alice, 1: world.bob}
        for k in range(400):
            game = await world.service.game(game.id)
            if game.is_over:
                break
            mover = players[game.side_of(game.players[game.to_move])]
            move = (await world.service.legal_moves(game))[0]
            if k % 2:
                before = len(thread.history())
                await mover.send(thread, move)
                over = (await world.service.game(game.id)).is_over
                # the move and one reply, which says how the game ended if it did
                assert len(thread.history()) == before + 2
                assert thread.history()[before + 1].attachments
                assert (f"Game #{game.id} (" in thread.history()[-1].content) == over
            else:
                r = await mover.slash(thread, "move", move=move)
                assert not r.ephemeral, r.response.content
        else:
            r = await world.alice.slash(thread, "resign")
            if r.ephemeral:
                await world.bob.slash(thread, "resign")
        game = await world.service.game(game.id)
        assert game.is_over, get_variant(game.variant).name


async def test_challenge_the_computer_it_accepts_and_answers_in_the_thread(world):
    from concurrent.futures import ThreadPoolExecutor

    from bot.service.computer import Computer
    pool = ThreadPoolExecutor(1)
    world.bot.computer = Computer(world.service, executor=pool, depth=1)
    try:
        r = await world.alice.slash(world.channel, "challenge", variant="clash", side=0,
                                    computer=2)
        assert r.response.content.startswith(
            "Computer (level 2) accepts at once. Game #1 started: alice (White) vs Computer "
            "(level 2) (Black), Clash of Command, no clock. alice (White) moves first.\n"
            "Play in <#")
        thread = world.channel.threads[-1]
        game = (await world.service.games(place=None))[-1]
        r = await world.alice.slash(thread, "move", move="b2-a3/D")
        assert not r.ephemeral
        assert await world.bot.computer.play_due() == 1
        await world.bot.flush()
        game = await world.service.game(game.id)
        answer = (await world.service.played_moves(game.id))[1].text
        assert game.to_move == 0 and game.ply == 2
        assert any(answer in m.content and world.alice.mention in m.content
                   for m in thread.history())
    finally:
        pool.shutdown()


async def test_a_computer_game_is_announced_once_and_its_moves_carry_the_buttons(world):
    """The reply to the challenge announces the game (nothing repeats it in the channel);
    the computer's answer, posted in the thread with the board, is the live board."""
    from concurrent.futures import ThreadPoolExecutor

    from bot.service.computer import Computer
    pool = ThreadPoolExecutor(1)
    world.bot.computer = Computer(world.service, executor=pool, depth=1)
    try:
        r = await world.alice.slash(world.channel, "challenge", variant="mini-chieftain",
                                    side=0, computer=2)
        thread = world.channel.threads[-1]
        assert [m.content for m in world.channel.history()] == [
            r.response.content, "#1 alice vs Computer (level 2) (mini-Chieftain)"]
        await world.alice.slash(thread, "move", move="Md2-d3")
        r = await world.alice.slash(thread, "move", move="end")
        mine = r.response
        assert mine.content == ("1. **Md2-d3, end** played in game #1.\n"
                                "Computer (level 2) (Black) to move.")
        assert [a.filename for a in mine.attachments] == ["game-1-2.png"]
        assert await world.bot.computer.play_due() == 1
        await world.bot.flush()
        answer = ", ".join(m.text for m in await world.service.played_moves(1) if m.side == 1)
        said = thread.history()
        # the computer's move reads as the answer to a person's: the turn, who is to move,
        # the board
        assert said[-1].content == (f"1... **{answer}** played in game #1.\n"
                                    f"{world.alice.mention} (White) to move.")
        assert [a.filename for a in said[-1].attachments] == ["game-1-3.png"]
        labels = [c.label for row in said[-1].components for c in row.children]
        assert labels[:4] == ["Legal moves", "Flip board", "Offer draw", "Resign"]
        assert [m for m in said[:-1] if m.components] == []  # the older boards' are gone
        r = await world.alice.click(said[-1], label="Legal moves")  # and they work
        assert r.ephemeral
    finally:
        pool.shutdown()
