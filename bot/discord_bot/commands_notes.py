"""Correspondence tools on Discord: private notes (`/note`) and conditional moves
(`/forecast`). Everything here is answered to the sender alone (ephemeral)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ..results import Refusal
from .commands_play import GAME_HELP, PlayCommands

if TYPE_CHECKING:
    from .app import CommandPost


class CorrespondenceCommands(commands.Cog, name="Correspondence"):
    """Notes and conditional moves, seen by their author only."""

    def __init__(self, bot: CommandPost, play: PlayCommands) -> None:
        self.bot = bot
        self.service = bot.service
        self.play = play

    async def my_games(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[int]]:
        return await self.play.my_games(interaction, current)

    @app_commands.command(name="note")
    @app_commands.describe(text="The note (leave it out to read your notes)", game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def note(self, interaction: discord.Interaction, text: str | None = None,
                   game: int | None = None) -> None:
        """Keep a private note on a game (only you see it), or read your notes."""
        sender = await self.bot.player_of(interaction.user)
        found = await self.play._find_game(interaction, sender, game)
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return
        if text is None:
            notes = await self.service.notes_text(sender, found.id)
            await self.bot.answer(interaction, notes or f"You have no notes on game "
                                                        f"#{found.id}.")
            return
        await self.bot.answer(interaction, await self.service.add_note(sender, found.id, text))
