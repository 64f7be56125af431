"""SimCord fixtures: the real bot on a real service (SQLite in a temporary directory), a
guild with a games channel, and two players."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import simcord

from bot.config import Settings
from bot.discord_bot import CommandPost, create_bot
from bot.service import GameService

START = 1_772_452_800.0  # 2026-03-02 12:00 UTC


class ManualClock:
    """A ``now()`` that moves only when told to."""

    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@dataclass
class World:
    env: simcord.Env
    bot: CommandPost
    service: GameService
    clock: ManualClock
    settings: Settings
    channel: object
    alice: object
    bob: object
    carol: object

    async def restart(self) -> None:
        """Restart the bot process: a new service on the same database, a new bot."""
        await self.service.close()
        self.service = await GameService.open(self.settings, now=self.clock,
                                              rng=random.Random(1))
        self.bot = create_bot(self.service, self.settings)
        await self.env.restart_bot(self.bot)

    async def opening_text(self, game_id: int) -> str:
        """The first message of a Clash of Command game's thread between alice and bob."""
        deadline = int((await self.service.game(game_id)).clock.deadline)
        return (f"Game #{game_id}: alice (White) vs bob (Black), Clash of Command. Type your "
                f"moves here, or use `/move`.\n{self.alice.mention} (White) to move, by "
                f"<t:{deadline}:f> (<t:{deadline}:R>).")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    clock = ManualClock()
    settings = Settings(db_path=tmp_path / "games.db", db_sync="normal")
    service = await GameService.open(settings, now=clock, rng=random.Random(1))
    bot = create_bot(service, settings)
    env = simcord.Env(bot, shard_count=1)
    await env.start()
    try:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        carol = guild.add_member(env.create_user("carol"))
        w = World(env, bot, service, clock, settings, channel, alice, bob, carol)
        yield w
    finally:
        await env.shutdown()
    await w.service.close()
    env.raise_errors()


@pytest.fixture
def moderator(world: World) -> object:
    """A member who may manage the server."""
    guild = world.alice.guild  # type: ignore[attr-defined]
    role = guild.create_role("moderators", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(world.env.create_user("mod"), roles=[role])


@pytest.fixture
def client_locale(monkeypatch: pytest.MonkeyPatch):
    """``client_locale("vi")``: every interaction from then on comes from a client set to
    that locale, as Discord sends it."""
    import simcord.interactions
    made = simcord.interactions.base_payload

    def set_locale(locale: str) -> None:
        def in_locale(*args, **kwargs):
            record, payload = made(*args, **kwargs)
            payload["locale"] = locale
            return record, payload

        monkeypatch.setattr(simcord.interactions, "base_payload", in_locale)

    return set_locale
