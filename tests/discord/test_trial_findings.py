"""What players found when they tried moves from everywhere: a /move made from another
channel whose reply Discord fails (500) still reaches the thread; a thread that refused
posts while the game went on gets every move back, naming the players (no second ping);
watchers who take news by DM get every move; a move in a server channel of a game played
in DMs pings nobody there."""

from __future__ import annotations

from .test_home import _alice_moved, _status, _the_thread_has_the_move, _tried_thrice
from .test_play import _start


async def test_a_move_from_another_channel_whose_reply_fails_still_reaches_the_thread(world):
    thread, game, move = await _alice_moved(world)
    general = world.alice.guild.create_text_channel("general")
    before = len(thread.history())
    world.env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await world.bob.slash(general, "move", move=move)
    await _the_thread_has_the_move(world, thread, before, move)
    assert all(world.alice.mention not in m.content for m in general.history())


def _bots(thread) -> list:
    return [m for m in thread.history() if m.author.bot]


async def test_a_thread_that_refused_posts_gets_every_move_back_naming_the_players(world):
    """Alice's move from her DM and Bob's typed in the thread, both refused there (403):
    once Discord tells of the permission's change, one post tells both, in order, the
    player to move pinged once."""
    thread, game = await _start(world)
    before = len(thread.history())
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                           message="Missing Permissions", times=None)
    first = (await world.service.legal_moves(game))[0]
    await world.alice.user.slash("move", move=first)
    await world.bot.flush()
    await world.env.settle()
    game = await world.service.game(game.id)
    second = (await world.service.legal_moves(game))[0]
    await world.bob.send(thread, second)  # typed: its reply is refused too
    await _tried_thrice(world)
    assert _bots(thread)[before:] == []
    world.env.backend.faults.clear()
    channel = world.bot.get_channel(world.channel.id)
    await world.bot.on_guild_channel_update(channel, channel)
    await world.env.settle()
    await world.bot.flush()
    await world.env.settle()
    game = await world.service.game(game.id)
    [posted] = _bots(thread)[before:]
    assert posted.content == (
        f"While I could not post here:\n1. **{first}** played in game #1.\n**{second}** "
        f"played in game #1. alice, your move.\n{_status(world, game, world.alice.mention)}")
    assert posted.content.count("<@") == 1
    await world.bot.flush()
    await world.env.settle()
    assert len(_bots(thread)) == before + 1  # once


async def test_watchers_who_take_news_by_dm_get_every_move(world):
    other = world.env.create_guild()
    lobby = other.create_text_channel("lobby")
    dave = other.add_member(world.env.create_user("dave"))
    thread, game = await _start(world)
    await dave.slash(lobby, "notify", dm=True)
    await dave.slash(lobby, "watch", game=1)
    await world.carol.slash(thread, "notify", dm=True)
    await world.carol.slash(thread, "watch", game=1)
    first = (await world.service.legal_moves(game))[0]
    await world.alice.send(thread, first)
    await world.bot.drain()
    game = await world.service.game(1)
    second = (await world.service.legal_moves(game))[0]
    await world.bob.user.slash("move", move=second)
    await world.bot.drain()
    await world.env.settle()
    expected = [f"alice played 1. {first} in game #1 (Clash of Command). bob (Black) is to "
                f"move.",
                f"bob played 1... {second} in game #1 (Clash of Command). alice (White) is to "
                f"move."]
    for watcher in (dave, world.carol):
        said = [m.content for m in watcher.user.dm_channel.history()]
        assert said[-2:] == expected, said


async def test_a_move_in_a_server_channel_of_a_game_of_dms_pings_nobody(world):
    r = await world.alice.user.slash("challenge", opponent=world.bob.user, variant="clash",
                                     side=0)
    await world.bob.user.slash("accept")  # neither has played on a server: the game is in DMs
    game = await world.service.game(1)
    assert "/" not in game.place
    r = await world.alice.slash(world.channel, "move",
                                move=(await world.service.legal_moves(game))[0])
    assert "<@" not in r.response.content
    assert r.response.content.endswith("bob (Black) to move.")
    await world.bot.flush()
    await world.env.settle()
    assert "<@" not in world.bob.user.dm_channel.history()[-1].content


async def test_a_challenge_made_in_a_dm_puts_its_buttons_in_the_opponents_dm(world):
    r = await world.alice.user.slash("challenge", opponent=world.bob.user, variant="clash",
                                     side=0)
    assert r.response.content.endswith(
        "\nI sent it to bob by DM, with Accept and Decline; `/cancel challenge:1` withdraws it.")
    assert not r.response.components
    await world.bot.flush()
    await world.env.settle()
    [told] = world.bob.user.dm_channel.history()
    assert told.content.startswith("alice challenges you: Clash of Command")
    assert [c.label for row in told.components for c in row.children] == ["Accept", "Decline"]
    r = await world.bob.user.click(told, label="Accept")
    assert (await world.service.game(1)) is not None


async def test_in_a_game_of_dms_the_player_to_move_has_the_buttons(world):
    await world.alice.user.slash("challenge", opponent=world.bob.user, variant="clash",
                                 side=0)
    await world.bob.user.slash("accept")
    game = await world.service.game(1)
    await world.alice.user.slash("move", move=(await world.service.legal_moves(game))[0])
    await world.bot.flush()
    await world.env.settle()
    told = world.bob.user.dm_channel.history()[-1]
    assert told.content.startswith("alice played 1. ")
    assert told.attachments
    labels = [c.label for row in told.components for c in row.children]
    assert "Resign" in labels and "Legal moves" in labels
    mine = [m for m in world.alice.user.dm_channel.history() if m.attachments][-1]
    assert not [c for row in mine.components for c in row.children
                if getattr(c, "label", None) == "Resign"]  # the old board lost its buttons


async def test_a_move_that_could_be_in_two_games_is_asked_back_with_a_move_example(world):
    await _start(world)
    await _start(world)  # alice to move in both
    general = world.alice.guild.create_text_channel("general")
    r = await world.alice.slash(general, "move", move="b2-a3/D")
    assert r.ephemeral
    assert r.response.content == (
        "Which game? b2-a3/D can be played in 2 of your games:\n"
        "• #1 alice vs bob (Clash of Command, alice to move): `/move move:b2-a3/D game:1`\n"
        "• #2 alice vs bob (Clash of Command, alice to move): `/move move:b2-a3/D game:2`")


async def test_a_computer_game_started_in_a_dm_is_announced_once(world):
    r = await world.alice.user.slash("challenge", computer=1, variant="clash", side=0)
    await world.bot.flush()
    await world.env.settle()
    said = [m.content for m in world.alice.user.dm_channel.history()]
    assert [m for m in said if "Game #1 started" in m] == [r.followups[-1].content
                                                           if r.followups else
                                                           r.response.content]


async def test_news_the_thread_refuses_names_the_players_in_the_dms(world):
    thread, game = await _start(world)
    await world.alice.send(thread, (await world.service.legal_moves(game))[0])
    game = await world.service.game(game.id)
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                           message="Missing Permissions", times=None)
    move = (await world.service.legal_moves(game))[0]
    await world.bob.send(thread, move)  # typed: its reply is refused
    await _tried_thrice(world)
    for player in (world.alice, world.bob):
        told = [m.content for m in player.user.dm_channel.history()
                if m.content.startswith("I cannot post the news")]
        assert told and all("<@" not in m for m in told)
        assert f"**{move}** played in game #1. alice, your move." in told[0]


async def test_a_move_only_one_games_notation_reads_is_played_there_unasked(world):
    """A Commander Chess game and a Clash game, alice to move in both: `/move move:M&f4`
    from another channel can only be Commander notation, and is played in that game."""
    await _start(world, "commander")
    await _start(world)
    general = world.alice.guild.create_text_channel("general")
    r = await world.alice.slash(general, "move", move="M&f4")
    assert not r.ephemeral
    assert r.response.content.startswith("1. **M&f4** played in game #1.")


async def test_a_command_word_sent_as_a_move_points_to_its_slash_command(world):
    thread, _ = await _start(world)
    r = await world.alice.slash(thread, "move", move="moves c3")
    assert r.ephemeral and r.response.content == (
        "'moves' is a command, not a move: use `/moves` instead (`/help command:moves` tells "
        "more).")
