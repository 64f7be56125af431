"""One home per game: a move made away from the game's thread (from a DM, from another
channel) is answered where it was made, pinging nobody and linking the thread; the thread
gets the board and the player to move is pinged there, exactly as for a move made in it,
once (through the outbox, so a refused post is tried again)."""

from __future__ import annotations

from .test_play import _start


async def _alice_moved(world):
    """A game between alice and bob in its thread, alice's first move played there: bob
    to move. The thread, the game, and bob's legal move."""
    thread, game = await _start(world)
    await world.alice.slash(thread, "move", move=(await world.service.legal_moves(game))[0])
    game = await world.service.game(game.id)
    return thread, game, (await world.service.legal_moves(game))[0]


async def _the_thread_has_the_move(world, thread, before: int, move: str) -> None:
    """Once the outbox has delivered: the thread's one new post, bob's move with alice
    pinged, the live board."""
    await world.env.settle()
    await world.bot.flush()
    await world.env.settle()
    game = await world.service.game(1)
    [posted] = thread.history()[before:]
    assert posted.content == (f"1... **{move}** played in game #1.\n"
                              f"{_status(world, game, world.alice.mention)}")
    assert posted.attachments and posted.components


def _status(world, game, who) -> str:
    deadline = int(game.clock.deadline)
    return f"{who} (White) to move, by <t:{deadline}:f> (<t:{deadline}:R>)."


async def test_a_move_from_a_dm_reaches_the_thread_and_pings_the_player_to_move(world):
    thread, game, move = await _alice_moved(world)
    before = thread.history()
    r = await world.bob.user.slash("move", move=move)
    game = await world.service.game(game.id)
    # bob's DM: the move, nobody pinged, where the game lives; no buttons (not the live board)
    assert not r.ephemeral
    assert r.response.content == (f"1... **{move}** played in game #1.\n"
                                  f"{_status(world, game, 'alice')}\n"
                                  f"The game's thread: <#{thread.id}>")
    assert not r.response.components
    await world.env.settle()
    # the thread: the board, alice pinged, the live buttons moved to it
    [posted] = thread.history()[len(before):]
    assert posted.content == (f"1... **{move}** played in game #1.\n"
                              f"{_status(world, game, world.alice.mention)}")
    assert posted.attachments[0].filename == "game-1-2.png"
    assert posted.components
    assert not thread.history()[len(before) - 1].components  # the old board's are gone
    dm = world.alice.user.dm_channel
    assert [m.content for m in (dm.history() if dm else [])] == []  # she did not ask for DMs
    await world.bot.flush()  # said once
    assert len(thread.history()) == len(before) + 1


async def test_a_move_from_another_channel_reaches_the_thread(world):
    thread, game, move = await _alice_moved(world)
    before = len(thread.history())
    r = await world.bob.slash(world.channel, "move", move=move)
    game = await world.service.game(game.id)
    assert r.response.content == (f"1... **{move}** played in game #1.\n"
                                  f"{_status(world, game, 'alice')}\n"
                                  f"The game's thread: <#{thread.id}>")
    assert world.alice.mention not in r.response.content
    await world.env.settle()
    [posted] = thread.history()[before:]
    assert posted.content == (f"1... **{move}** played in game #1.\n"
                              f"{_status(world, game, world.alice.mention)}")
    assert posted.components
    # alice answers in the thread, on the live board as usual
    reply = await world.alice.slash(thread, "move",
                                    move=(await world.service.legal_moves(game))[0])
    assert reply.response.content.startswith("2. **")


async def test_a_move_in_the_thread_is_posted_there_once(world):
    thread, game, move = await _alice_moved(world)
    before = len(thread.history())
    await world.bob.slash(thread, "move", move=move)
    await world.env.settle()
    assert len(thread.history()) == before + 1


async def test_a_look_at_the_board_pings_nobody(world):
    """A spectator's `/board` in the thread, a player's in a DM, one from another server's
    member: the player to move is named, never pinged."""
    thread, game, _ = await _alice_moved(world)
    r = await world.carol.slash(thread, "board", game=game.id)
    deadline = int(game.clock.deadline)
    status = f"bob (Black) to move, by <t:{deadline}:f> (<t:{deadline}:R>)."
    assert r.response.content.endswith(f".\n{status}")
    assert "<@" not in r.response.content
    r = await world.alice.user.slash("board")
    assert r.response.content.endswith(f".\n{status}") and "<@" not in r.response.content


async def _tried_thrice(world) -> None:
    """The outbox's tries of a refused post, until its verdict (a refusal is tried three
    times, half a minute and a minute apart)."""
    for _ in range(3):
        await world.env.settle()
        world.clock.t += 100
        await world.bot.flush()
    await world.env.settle()


async def test_news_the_thread_refuses_reaches_both_players_with_the_move(world):
    """The bot may not post in the thread any more (403): the players are told by DM what
    was played, not only that something could not be posted; the advice once a day."""
    thread, game, move = await _alice_moved(world)
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                           message="Missing Permissions", times=6)
    await world.bob.user.slash("move", move=move)
    await _tried_thrice(world)
    dm = world.alice.user.dm_channel
    assert [m.content for m in dm.history()] == [
        f"I cannot post the news of game #1 where it is played (Discord refused: 403 Missing "
        f"Permissions): 1... **{move}** played in game #1.\nAsk the server's admins to check "
        f"the bot's permissions there (`/server check`); the clocks keep running."]
    game = await world.service.game(game.id)
    second = (await world.service.legal_moves(game))[0]
    await world.alice.user.slash("move", move=second)
    await _tried_thrice(world)
    assert [m.content for m in world.bob.user.dm_channel.history()][-1] == (
        f"I cannot post the news of game #1 where it is played (Discord refused: 403 Missing "
        f"Permissions): 2. **{second}** played in game #1.")


async def test_a_thread_that_takes_posts_again_catches_up_once(world):
    """Two moves' news refused by the thread (403, tried three times each); when Discord
    tells of a permission's change, the thread gets one post with both moves and the
    board, pinging the player to move; a second change posts nothing more. (SimCord does
    not model permission changes: the handler of the event discord.py would dispatch is
    run.)"""
    thread, game, move = await _alice_moved(world)
    before = len(thread.history())
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                           message="Missing Permissions", times=6)
    await world.bob.user.slash("move", move=move)
    await _tried_thrice(world)
    game = await world.service.game(game.id)
    second = (await world.service.legal_moves(game))[0]
    await world.alice.user.slash("move", move=second)
    await _tried_thrice(world)
    assert len(thread.history()) == before
    channel = world.bot.get_channel(world.channel.id)  # discord.py's own object
    for _ in range(2):  # the handler discord.py's dispatch runs, awaited here
        await world.bot.on_guild_channel_update(channel, channel)
        await world.env.settle()
        await world.bot.flush()
        await world.env.settle()
    game = await world.service.game(game.id)
    deadline = int(game.clock.deadline)
    [posted] = thread.history()[before:]
    assert posted.content == (
        f"While I could not post here:\n1... **{move}** played in game #1.\n2. **{second}** "
        f"played in game #1.\n{world.bob.mention} (Black) to move, by <t:{deadline}:f> "
        f"(<t:{deadline}:R>).")
    assert posted.attachments and posted.components


async def test_a_deleted_thread_is_replaced_and_the_game_goes_on_there(world):
    """A moderator deletes the game's thread: a new one opens in the same channel with the
    board as the game stood, says why, and the game goes on there."""
    thread, game, move = await _alice_moved(world)
    world.env.backend.delete_channel(thread.id)
    await world.env.settle()
    new = world.channel.threads[-1]
    assert new.id != thread.id
    said = [m.content for m in new.history()]
    assert said[0].startswith("Game #1: alice (White) vs bob (Black), Clash of Command. Type "
                              "your moves here, or use `/move`.\n")
    assert said[1] == ("The earlier thread of game #1 was deleted; the game goes on here, "
                       "as it stood.")
    game = await world.service.game(game.id)
    assert game.place.endswith(f"/{new.id}") and game.ply == 1
    r = await world.bob.slash(new, "move", move=move)
    assert r.response.content.startswith(f"1... **{move}** played in game #1.")


async def test_pings_follow_the_players_choice_and_the_servers_default(world, moderator):
    """`/settings pings`: all (moves, offers, reminders), turns (moves only), none (named,
    never mentioned); the server's default (`/server settings pings`) for who did not
    choose, a player's own choice over it."""
    thread, game = await _start(world, "mini-chieftain")
    r = await world.bob.slash(world.channel, "settings", pings="none")
    assert r.ephemeral and r.response.content == "I mention you: never (you are named instead)."
    r = await world.alice.slash(thread, "move", move="Md2-d3")
    r = await world.alice.slash(thread, "move", move="end")
    assert "bob (Black) to move" in r.response.content and "<@" not in r.response.content

    r = await world.bob.slash(world.channel, "settings", pings="turns")
    assert r.response.content == "I mention you: news of your opponents' moves only."
    r = await world.alice.slash(thread, "draw")
    assert r.response.content.startswith("alice offers a draw in game #1. bob: accept")
    await world.bob.slash(thread, "draw", decline=True)
    await world.bob.slash(thread, "move", move="Md7-d6")
    r = await world.bob.slash(thread, "move", move="end")
    assert f"{world.alice.mention} (White) to move" in r.response.content  # she chose nothing

    r = await moderator.slash(world.channel, "server settings", pings="none")
    assert "Pings: none" in r.response.content
    r = await world.alice.slash(thread, "move", move="Md3-d4")
    r = await world.alice.slash(thread, "move", move="end")
    assert f"{world.bob.mention} (Black) to move" in r.response.content  # his own: turns
    r = await world.bob.slash(world.channel, "settings", pings="default")
    assert r.response.content == ("I mention you: as the server decides (`/settings pings:` "
                                  "chooses for you): on this server, never (you are named "
                                  "instead).")
    r = await world.bob.user.slash("settings")  # in a DM: no server's default applies
    assert r.response.content == ("I mention you: as the server decides (`/settings pings:` "
                                  "chooses for you): by default, news of your opponents' "
                                  "moves, offers and reminders.")
    r = await world.bob.slash(thread, "move", move="Md6-d5")
    r = await world.bob.slash(thread, "move", move="end")
    assert "alice (White) to move" in r.response.content and "<@" not in r.response.content


async def test_a_move_from_a_dm_whose_reply_fails_still_reaches_the_thread(world):
    """Discord answers 500 to the reply of bob's `/move` in his DM: the thread gets the
    board and alice her ping all the same; bob's DM is ended in words that ping nobody."""
    thread, game, move = await _alice_moved(world)
    before = len(thread.history())
    world.env.inject_error("POST", "/webhooks/*", status=500, message="Internal Server Error",
                           times=1)
    r = await world.bob.user.slash("move", move=move)
    await _the_thread_has_the_move(world, thread, before, move)
    said = [m.content for m in (r.response, *r.followups) if m and m.content]
    assert said == [f"**{move}** played in game #1. alice to move.\n(I could not show the "
                    f"board here: Discord refused: 500 Internal Server Error. Discord is "
                    f"busy: `/board` shows it in a moment.)"]
    assert "<@" not in said[0]


async def test_a_refused_post_is_told_at_once_and_still_tried_again(world):
    """The thread refuses the news once: alice hears of the move by DM at once, and the
    post is tried again, reaching the thread when it takes posts again."""
    thread, game, move = await _alice_moved(world)
    before = len(thread.history())
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                           message="Missing Permissions", times=1)
    await world.bob.user.slash("move", move=move)
    await world.env.settle()
    await world.bot.flush()
    await world.env.settle()
    assert [m.content for m in world.alice.user.dm_channel.history()] == [
        f"I cannot post the news of game #1 where it is played (Discord refused: 403 Missing "
        f"Permissions): 1... **{move}** played in game #1.\nAsk the server's admins to check "
        f"the bot's permissions there (`/server check`); the clocks keep running."]
    assert len(thread.history()) == before
    await _tried_thrice(world)  # the next try goes through
    [posted] = thread.history()[before:]
    assert posted.content.startswith(f"1... **{move}** played in game #1.\n")
    assert len(world.alice.user.dm_channel.history()) == 1  # told once


async def test_a_turn_of_several_steps_played_from_a_dm_keeps_its_menus_there(world):
    """A mini-Chieftain turn begun by `/move` in alice's DM: the answer there carries the
    next step's menu and End turn (not the game's buttons); End turn pressed there closes
    the turn, and the thread gets the whole turn with the board."""
    thread, game = await _start(world, "mini-chieftain")
    before = len(thread.history())
    r = await world.alice.user.slash("move", move="Md2-d3")
    reply = r.followups[-1] if r.followups else r.response
    labels = [c.get("label") for row in reply.components for c in row["components"]]
    assert "End turn" in labels and "Resign" not in labels and "Legal moves" not in labels
    assert len(thread.history()) == before  # the turn goes on: nothing for the thread yet
    done = await world.alice.user.click(reply.message, label="End turn")
    assert not done.ephemeral
    await world.env.settle()
    await world.bot.flush()
    await world.env.settle()
    [posted] = thread.history()[before:]
    assert posted.content.startswith("1. **Md2-d3, end** played in game #1.\n")
    assert world.bob.mention in posted.content and posted.components
