"""Every option described and completed, Discord timestamps, the record's Site, and a
player's inbox: /games, the daily digest (Discord and e-mail) and the low-time alarm."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.commands import Commands
from bot.service.clock import DAY

from .conftest import START
from .test_play import _start

COMPLETED = {"game", "variant", "challenge", "move", "square", "piece", "mode"}


def _options(tree):
    for command in tree.get_commands():
        children = command.walk_commands() if isinstance(command, app_commands.Group) \
            else [command]
        for c in children:
            for p in c.parameters:
                yield c.qualified_name, p


async def test_every_option_is_described_and_the_game_variant_options_complete(world):
    for name, p in _options(world.bot.tree):
        assert p.description and p.description != "…", (name, p.name)
        if p.name in COMPLETED and p.type != discord.AppCommandOptionType.boolean:
            assert p.autocomplete or p.choices, (name, p.name)


async def test_watch_offers_this_servers_live_games(world):
    await _start(world)
    r = await world.carol.autocomplete(world.channel, "watch", "game", "")
    assert r == [{"name": "#1 alice vs bob (Clash of Command)", "value": 1}]
    r = await world.carol.slash(world.channel, "watch", game=1)
    r = await world.carol.autocomplete(world.channel, "unwatch", "game", "")
    assert [c["value"] for c in r] == [1]


async def test_the_record_names_the_games_thread_as_its_site(world):
    thread, game = await _start(world)
    r = await world.alice.slash(thread, "export")
    record = (await r.response.attachments[0].read()).decode()
    guild = world.alice.guild.id
    assert f'[Site "https://discord.com/channels/{guild}/{thread.id}"]' in record


async def test_a_challenge_says_when_it_expires_as_a_discord_timestamp(world):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob, variant="clash",
                                side=0)
    expires = int(START + 7 * DAY)
    assert f"It expires <t:{expires}:f> (<t:{expires}:R>)." in r.response.content


async def test_games_lists_your_turn_first_by_time_left_with_links(world):
    first, _ = await _start(world, days=3)  # game 1: alice to move, 3 days
    second, _ = await _start(world, days=1)  # game 2: alice to move, 1 day
    await world.alice.slash(second, "move", move="b2-a3/D")  # now bob's turn there
    third, _ = await _start(world, days=5)  # game 3: alice to move, 5 days
    guild = world.alice.guild.id
    r = await world.alice.slash(world.channel, "games")
    assert r.ephemeral
    assert r.response.content == "\n".join([
        "Your games:",
        f"• #1 alice vs bob (Clash of Command): **your turn**, due <t:{int(START + 3 * DAY)}:R>"
        f" https://discord.com/channels/{guild}/{first.id}",
        f"• #3 alice vs bob (Clash of Command): **your turn**, due <t:{int(START + 5 * DAY)}:R>"
        f" https://discord.com/channels/{guild}/{third.id}",
        f"• #2 alice vs bob (Clash of Command): bob to move, due <t:{int(START + 1 * DAY)}:R>"
        f" https://discord.com/channels/{guild}/{second.id}",
    ])
    r = await world.carol.slash(world.channel, "games", here=True)
    lines = r.response.content.splitlines()
    assert lines[0] == "Live games on this server:"
    assert [line.split()[1] for line in lines[1:]] == ["#1", "#2", "#3"]
    assert f"https://discord.com/channels/{guild}/{second.id}" in lines[2]


async def test_the_daily_digest_comes_by_dm_once_a_day(world):
    await _start(world, days=3)
    r = await world.alice.slash(world.channel, "notify", digest=True)
    assert r.response.content == ("You will get a daily digest of the games waiting for "
                                  "your move.")
    await world.bot.tick()
    digest = ("Your daily digest: 1 game waits for your move.\n"
              "• #1 against bob (Clash of Command): 3 days left")
    dms = world.alice.user.dm_channel.history()
    assert [m.content for m in dms] == [digest]
    world.clock.t += DAY / 2
    await world.bot.tick()
    assert len(world.alice.user.dm_channel.history()) == 1  # once a day
    world.clock.t += DAY / 2
    await world.bot.tick()
    assert world.alice.user.dm_channel.history()[-1].content == (
        "Your daily digest: 1 game waits for your move.\n"
        "• #1 against bob (Clash of Command): 2 days left")
    assert not world.bob.user.dm_channel.history()  # he did not ask for one


async def test_an_email_player_gets_the_digest_as_a_mail(world):
    service = world.service
    eve = await service.player("email", "eve@example.org", "eve")
    alice = await service.player("discord", str(world.alice.id), "alice")
    words = Commands(service, lambda name: service.find_player("email", name))
    assert (await words.handle(eve, "email:eve@example.org", "digest sometimes")).text == (
        "Say `digest on` or `digest off`.")
    reply = await words.handle(eve, "email:eve@example.org", "digest on")
    assert reply.text == "You will get a daily digest of the games waiting for your move."
    eve = await service.get_player(eve.id)
    challenge = await service.challenges.challenge(alice, "email:eve@example.org", eve, "clash",
                                                   side=1)
    await service.challenges.accept(eve, challenge.challenge.id)
    assert await service.posts.process_digests() == 1
    notes = [n for n in await service.pending_notifications("email") if n.kind == "digest"]
    assert [n.text for n in notes] == ["Your daily digest: 1 game waits for your move.\n"
                                       "• #1 against alice (Clash of Command): no clock"]


async def test_the_low_time_alarm_reaches_the_player_where_they_read(world):
    thread, game = await _start(world, days=1)
    world.clock.t += 0.9 * DAY  # 80% of the move's time used: 20% was left
    await world.bot.tick()
    deadline = int(START + DAY)
    assert thread.last_message.content == (
        f"{world.alice.mention} Reminder: game #1 (Clash of Command) against bob waits for "
        f"your move. You have 2 hours 24 minutes (until <t:{deadline}:f> (<t:{deadline}:R>)).")
    await world.alice.slash(thread, "move", move="b2-a3/D")
    await world.bob.slash(world.channel, "notify", dm=True)
    world.clock.t += 0.9 * DAY
    await world.bot.tick()
    later = deadline + int(0.9 * DAY)
    assert world.bob.user.dm_channel.history()[-1].content == (
        f"Reminder: game #1 (Clash of Command) against alice waits for your move. You have "
        f"2 hours 24 minutes (until <t:{later}:f> (<t:{later}:R>)).")


async def test_games_shows_a_spectator_this_servers_live_games(world):
    thread, game = await _start(world)
    r = await world.carol.slash(world.channel, "games")
    guild = world.alice.guild.id
    assert r.response.content == (
        "Live games on this server:\n• #1 alice vs bob (Clash of Command): alice to move, due "
        f"<t:{int(START + 3 * DAY)}:R> https://discord.com/channels/{guild}/{thread.id}")
