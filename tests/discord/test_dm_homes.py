"""A game challenged in a DM gets a thread all the same: in the channel where its
challenger last played, else a server's configured game channel, on a server where both
players are members; else it stays in DMs."""

from __future__ import annotations

from .test_play import _start


def _dms(member) -> list[str]:
    dm = member.user.dm_channel
    return [m.content for m in dm.history()] if dm else []


async def _challenge_and_accept_in_dms(world):
    r = await world.alice.user.slash("challenge", opponent=world.bob.user, variant="clash",
                                     side=0, days=3)
    assert not r.ephemeral, r.response.content
    number = (await world.service.challenges.pending())[-1].id
    r = await world.bob.user.slash("accept", challenge=number)
    assert not r.ephemeral, r.response.content
    await world.env.settle()
    return _said(r)


def _said(r) -> str:
    """What the bot said last in answer to a command (a deferred answer's follow-up)."""
    return (r.followups[-1] if r.followups else r.response).content


async def test_a_dm_game_gets_a_thread_where_its_challenger_last_played(world):
    await _start(world)  # alice and bob played in #games
    dm_before = len(_dms(world.alice))
    said = await _challenge_and_accept_in_dms(world)
    dm_challenge = _dms(world.alice)[dm_before]  # the reply to her /challenge
    assert dm_challenge.startswith("Challenge #2 sent to bob")
    thread = world.channel.threads[-1]
    game = await world.service.game(2)
    assert game.place.endswith(f"/{thread.id}")
    assert said.endswith(f"\nPlay in <#{thread.id}>.")
    assert said.startswith("Challenge #2 accepted. Game #2 started")
    posts = thread.history()
    deadline = int(game.clock.deadline)
    assert posts[0].content == (
        f"Game #2: alice (White) vs bob (Black), Clash of Command. Type your moves here, or "
        f"use `/move`.\n{world.alice.mention} (White) to move, by <t:{deadline}:f> "
        f"(<t:{deadline}:R>).")
    assert posts[0].attachments and posts[0].components  # the live board
    assert len(posts) == 1
    # alice, who challenged in her DM, is told there
    assert _dms(world.alice)[dm_before:] == [
        dm_challenge,
        "Game #2 started: alice (White) vs bob (Black), Clash of Command, 3 days per move. "
        f"alice (White) moves first.\nThe game's thread: <#{thread.id}>"]
    # the game is played there as any other
    r = await world.alice.slash(thread, "move", move=(await world.service.legal_moves(game))[0])
    assert not r.ephemeral, r.response.content
    assert (await world.service.game(2)).ply == 1


async def test_a_dm_game_gets_a_thread_in_the_servers_game_channel(world, moderator):
    lobby = world.alice.guild.create_text_channel("lobby")
    await moderator.slash(world.channel, "server settings", channel=lobby)
    said = await _challenge_and_accept_in_dms(world)
    [thread] = lobby.threads
    assert said.endswith(f"\nPlay in <#{thread.id}>.")
    assert (await world.service.game(1)).place.endswith(f"/{thread.id}")


async def test_a_dm_game_against_the_computer_gets_a_thread_in_the_game_channel(world,
                                                                                moderator):
    await moderator.slash(world.channel, "server settings", channel=world.channel)
    r = await world.alice.user.slash("challenge", computer=1, variant="clash", side=0)
    thread = world.channel.threads[-1]
    assert _said(r).endswith(f"\nPlay in <#{thread.id}>.")
    assert (await world.service.game(1)).place.endswith(f"/{thread.id}")
    assert len(thread.history()) == 1  # the board, announced once


async def test_a_dm_game_stays_in_dms_when_no_server_has_both_players(world):
    await _start(world)  # alice played in #games, but dave is no member there
    other = world.env.create_guild()
    dave = other.add_member(world.env.create_user("dave"))
    other.add_member(world.alice.user)
    threads = len(world.channel.threads)
    r = await world.alice.user.slash("challenge", opponent=dave.user, variant="clash", side=0)
    assert not r.ephemeral, r.response.content
    r = await dave.user.slash("accept")
    assert _said(r).endswith("\nPlay here with `/move game:2`.")
    await world.env.settle()
    assert len(world.channel.threads) == threads
    game = await world.service.game(2)
    assert "/" not in game.place  # the DM of the challenge
    assert _dms(world.alice)[-1] == ("Game #2 started: alice (White) vs dave (Black), Clash "
                                     "of Command, no clock. alice (White) moves first.")


async def test_a_dm_game_is_not_put_where_the_bot_cannot_run_games(world):
    await _start(world)
    channel = world.bot.get_channel(world.channel.id)
    await channel.set_permissions(channel.guild.me, create_public_threads=False)
    said = await _challenge_and_accept_in_dms(world)
    assert said.endswith("\nPlay here with `/move game:2`.")
