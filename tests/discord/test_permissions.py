"""A server whose permissions would break games: the bot refuses to start a game where it
lacks a permission a game needs, naming what is missing; `/server check` lists what the bot
may do; an error in a command still answers the member; a typed move whose reply the thread
refuses is confirmed by DM."""

from __future__ import annotations

import discord
import pytest

from bot.discord_bot.permissions import NEEDED

from .test_play import _start

# what Discord takes away with a denied permission (no View Channel: nothing at all;
# no Send Messages: no files or embeds either)
LOST_WITH = {"view_channel": [name for _, name in NEEDED],
             "send_messages": ["Send Messages", "Attach Files", "Embed Links"]}


def _refusal(channel, missing: list[str]) -> str:
    many = len(missing) > 1
    return (f"I cannot run games in <#{channel.id}>: I lack the permission{'s' if many else ''} "
            f"{', '.join(missing)} there. Ask a server admin to grant "
            f"{'them' if many else 'it'} to me (`/server check` shows what I may do in each "
            f"channel).")


@pytest.mark.parametrize("flag,name", NEEDED)
async def test_a_challenge_is_refused_where_the_bot_lacks_a_permission(world, flag, name):
    channel = world.channel.guild.create_text_channel(
        f"no-{flag}", overwrites={world.bot.user: discord.PermissionOverwrite(**{flag: False})})
    r = await world.alice.slash(channel, "challenge", opponent=world.bob, variant="clash")
    assert r.ephemeral
    assert r.response.content == _refusal(channel, LOST_WITH.get(flag, [name]))
    assert not await world.service.challenges.pending(None, None)  # nothing was stored


async def test_an_accept_is_refused_until_the_permission_is_granted(world):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob, variant="clash")
    assert not r.ephemeral
    channel = world.bot.get_channel(world.channel.id)
    await channel.set_permissions(channel.guild.me, send_messages_in_threads=False)
    r = await world.bob.slash(world.channel, "accept")
    assert r.ephemeral
    assert r.response.content == _refusal(world.channel, ["Send Messages in Threads"])
    assert not world.channel.threads and not await world.service.games(place=None)
    await channel.set_permissions(channel.guild.me, overwrite=None)
    r = await world.bob.slash(world.channel, "accept")
    assert not r.ephemeral and world.channel.threads


async def test_server_check_lists_what_the_bot_may_do(world, moderator):
    bare = world.channel.guild.create_text_channel(
        "bare", overwrites={world.bot.user: discord.PermissionOverwrite(
            create_public_threads=False, attach_files=False)})
    r = await moderator.slash(world.channel, "server check")
    assert r.ephemeral
    assert r.response.content.splitlines() == [
        "No game channel is set (`/server settings channel:`); games start where /challenge "
        "is used. What I may do in each channel:",
        f"<#{world.channel.id}>: ready for games (every permission a game needs).",
        f"<#{bare.id}>: cannot run games; missing Create Public Threads, Attach Files (has "
        f"View Channel, Send Messages, Send Messages in Threads, Embed Links)."]
    await moderator.slash(world.channel, "server settings", channel=bare)
    r = await moderator.slash(world.channel, "server check")
    assert r.response.content.splitlines()[1:] == [
        f"<#{bare.id}>: cannot run games; missing Create Public Threads, Attach Files (has "
        f"View Channel, Send Messages, Send Messages in Threads, Embed Links)."]


async def test_a_command_that_fails_still_answers(world, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(world.service, "games", broken)
    r = await world.alice.slash(world.channel, "games")
    assert r.ephemeral
    assert r.response.content == ("Something went wrong on my side and the command did not "
                                  "finish. Whatever it had stored is kept; look with `/games` "
                                  "before trying again.")
    [error] = world.env.errors  # logged, and recorded by SimCord, which would fail the
    assert isinstance(error.original, RuntimeError)  # teardown on it: it is expected here
    world.env._errors.clear()


async def test_a_typed_move_whose_reply_is_refused_is_confirmed_by_dm(world):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                           message="Missing Permissions", times=1)
    await world.alice.send(thread, move)
    assert (await world.service.game(game.id)).ply == 1
    dm = world.alice.user.dm_channel.history()[-1]
    assert dm.content == (f"Your move **{move}** in game #{game.id} is played; I could not "
                          f"answer in <#{thread.id}> (Discord refused: 403 Missing "
                          f"Permissions). Ask a server admin to run `/server check`.")


async def test_a_button_that_fails_still_answers(world, monkeypatch):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob, variant="clash")
    message = next(m for m in world.channel.history() if m.id == r.response.id)

    async def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(world.service.challenges, "decline", broken)
    r = await world.bob.click(message, label="Decline")
    assert r.ephemeral and r.response.content.startswith("Something went wrong on my side")


async def test_a_slash_move_whose_reply_is_refused_is_confirmed_by_dm(world):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    world.env.inject_error("POST", "/webhooks/*", status=403, code=50013,
                           message="Missing Permissions", times=1)
    await world.alice.slash(thread, "move", move=move)
    assert (await world.service.game(game.id)).ply == 1
    assert world.alice.user.dm_channel.history()[-1].content.startswith(
        f"Your move **{move}** in game #{game.id} is played; I could not show the board in "
        f"<#{thread.id}> (Discord refused: 403 Missing Permissions).")
    # the interaction is ended with the move's news in words: Bob hears of it there
    assert thread.last_message.content == (
        f"**{move}** played in game #{game.id}. {world.bob.mention}, your move.\n(I could not "
        f"show the board here: Discord refused: 403 Missing Permissions. A server admin can "
        f"run `/server check`.)")
