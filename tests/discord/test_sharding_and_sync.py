"""Ready for large servers: an auto-sharded bot, the command tree uploaded only when it
changed (its hash kept in the database), `commandpost discord sync`, and per-server
command permissions that survive an upload."""

from __future__ import annotations

import random

import discord
import pytest
import simcord
from discord import app_commands

import bot.cli.run as runner
import bot.discord_bot.app as app
from bot.config import Settings
from bot.discord_bot import create_bot
from bot.service import GameService


def _uploads(world) -> int:
    """How many times the bot uploaded its global command tree."""
    return sum(1 for r in world.env.http_requests
               if r.method == "PUT" and r.path.endswith("/commands") and "/guilds/" not in r.path)


async def test_the_tree_is_uploaded_once_and_again_only_when_it_changed(world):
    assert isinstance(world.bot, discord.AutoShardedClient)
    assert _uploads(world) == 1
    await world.restart()
    assert _uploads(world) == 1  # the same tree: not uploaded again
    r = await world.alice.slash(world.channel, "games")
    assert r.ephemeral  # the commands registered before still answer

    @app_commands.command(name="ping", description="Is the bot there?")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    await world.service.close()
    world.service = await GameService.open(world.settings, now=world.clock,
                                           rng=random.Random(1))
    world.bot = create_bot(world.service, world.settings)
    world.bot.tree.add_command(ping)
    await world.env.restart_bot(world.bot)
    assert _uploads(world) == 2  # a new command: uploaded
    r = await world.alice.slash(world.channel, "ping")
    assert r.response.content == "pong"


async def test_a_forced_upload_keeps_the_servers_command_permissions(world, moderator):
    command = next(c for c in await world.bot.tree.fetch_commands() if c.name == "server")
    world.alice.guild.set_command_permissions(command, {world.carol: True})
    assert await world.bot.sync_tree(force=True)
    assert _uploads(world) == 2
    r = await world.carol.slash(world.channel, "server settings", variants="clash")
    assert r.ephemeral and r.response.content.startswith("Only members who may manage")
    again = next(c for c in await world.bot.tree.fetch_commands() if c.name == "server")
    assert again.id == command.id


async def test_discord_sync_uploads_whatever_the_hash_says(world):
    await world.service.close()
    world.service = await GameService.open(world.settings, now=world.clock)
    world.bot = app.CommandPost(world.service, world.settings, sync_only=True)
    await world.env.restart_bot(world.bot)
    assert _uploads(world) == 2  # unchanged, yet uploaded
    assert not world.bot.scheduler.is_running()  # it only uploads


def test_discord_sync_is_the_only_subcommand(monkeypatch, capsys):
    monkeypatch.setenv("COMMANDPOST_DISCORD_TOKEN", "t0ken")
    assert runner.main(["nonesuch"]) == 2
    assert "invalid choice: 'nonesuch' (choose from 'sync')" in capsys.readouterr().err
    monkeypatch.delenv("COMMANDPOST_DISCORD_TOKEN")
    assert runner.main(["sync"]) == 2


def test_a_process_runs_the_shards_its_options_name(monkeypatch, capsys):
    monkeypatch.setenv("COMMANDPOST_DISCORD_TOKEN", "t0ken")
    monkeypatch.setenv("COMMANDPOST_SHARD_IDS", "0")
    monkeypatch.setenv("COMMANDPOST_SHARD_COUNT", "2")
    ran = []

    async def run(settings):
        ran.append((settings.discord_shard_ids, settings.discord_shard_count))
        return 0
    monkeypatch.setattr(runner, "run", run)
    assert runner.main(["--shards", "4-7", "--shard-count", "16"]) == 0
    assert runner.main([]) == 0  # without options, the environment's settings
    assert ran == [("4-7", 16), ("0", 2)]
    assert runner.main(["--shards", "12-16", "--shard-count", "16"]) == 2
    assert capsys.readouterr().out == ("commandpost discord: shard 16 is beyond the 16 shards "
                                       "of --shard-count (numbered from 0)\n")
    assert runner.main(["--shards", "a-b"]) == 2
    assert capsys.readouterr().out == ("commandpost discord: --shards is 'a-b'; it must be a "
                                       "list of shards like 0-3 or 0,1,2,3\n")
    assert runner.main(["--shards", "0-3"]) == 2  # beyond the environment's 2 shards
    assert capsys.readouterr().out == ("commandpost discord: shard 3 is beyond the 2 shards "
                                       "of COMMANDPOST_SHARD_COUNT (numbered from 0)\n")
    assert ran == [("4-7", 16), ("0", 2)]


@pytest.mark.parametrize(("argv", "env", "said"), [
    (["--shards", "0-7"], {}, "--shards is '0-7', a share of the shards, so their number in "
                              "all must be set too (COMMANDPOST_SHARD_COUNT or --shard-count)"),
    ([], {"COMMANDPOST_SHARD_IDS": "0-3"},
     "COMMANDPOST_SHARD_IDS is '0-3', a share of the shards, so their number in all must be "
     "set too (COMMANDPOST_SHARD_COUNT or --shard-count)"),
    ([], {"COMMANDPOST_SHARD_IDS": "3-1", "COMMANDPOST_SHARD_COUNT": "4"},
     "COMMANDPOST_SHARD_IDS is '3-1'; its range 3-1 runs backwards (write 1-3)"),
    (["--shards", "0,9-3", "--shard-count", "16"], {},
     "--shards is '0,9-3'; its range 9-3 runs backwards (write 3-9)"),
    (["--shards", "1--3", "--shard-count", "16"], {},
     "--shards is '1--3'; it must be a list of shards like 0-3 or 0,1,2,3"),
    (["--shard-count", "-2"], {}, "--shard-count is -2; it must be the bot's number of shards "
                                  "in all, or 0 for as many as Discord recommends"),
])
def test_shards_that_cannot_run_are_refused_before_connecting(monkeypatch, capsys, argv, env,
                                                              said):
    monkeypatch.delenv("COMMANDPOST_SHARD_IDS", raising=False)
    monkeypatch.delenv("COMMANDPOST_SHARD_COUNT", raising=False)
    monkeypatch.setenv("COMMANDPOST_DISCORD_TOKEN", "x.y.z")
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    async def run(settings):
        raise AssertionError("the bot must not start")
    monkeypatch.setattr(runner, "run", run)
    monkeypatch.setattr(runner, "sync", run)
    assert runner.main(argv) == 2
    assert runner.main(["sync", *argv]) == 2
    assert capsys.readouterr().out == f"commandpost discord: {said}\n" * 2


def test_shard_ids_read_ranges_and_lists():
    assert app.shard_ids("") is None
    assert app.shard_ids("0-3") == [0, 1, 2, 3]
    assert app.shard_ids("4, 6-7") == [4, 6, 7]


async def test_two_shards_serve_their_servers_and_dms_reach_shard_zero(tmp_path):
    settings = Settings(db_path=tmp_path / "games.db", db_sync="normal",
                        discord_shard_count=2)
    service = await GameService.open(settings, rng=random.Random(1))
    bot = create_bot(service, settings)
    assert bot.shard_count == 2
    env = simcord.Env(bot)
    await env.start()
    try:
        guild = env.create_guild(shard_id=1)
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        assert bot.get_guild(guild.id).shard_id == 1
        await bob.slash(channel, "notify", dm=True)
        r = await alice.slash(channel, "challenge", opponent=bob, variant="clash", side=0)
        assert not r.ephemeral
        r = await bob.slash(channel, "accept")
        assert not r.ephemeral
        thread = channel.threads[-1]
        await alice.slash(thread, "move", move="b2-a3/D")
        dm = bob.user.dm_channel.history()[-1]
        assert "b2-a3/D" in dm.content
    finally:
        await env.shutdown()
        await service.close()
    env.raise_errors()


async def test_discord_sync_logs_in_uploads_and_closes(tmp_path, monkeypatch):
    seen = []

    async def login(self, token):
        seen.append((token, self.sync_only))

    monkeypatch.setattr(app.CommandPost, "login", login)
    settings = Settings.from_env({}, db_path=tmp_path / "g.db", discord_token="t0ken")
    assert await app.sync(settings) == 0
    assert seen == [("t0ken", True)]
