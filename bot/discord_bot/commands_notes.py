"""Correspondence tools on Discord: private notes (`/note`) and conditional moves
(`/forecast`). Everything here is answered to the sender alone (ephemeral)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ..i18n import SOURCE, _, joined, message_id
from ..service.inference import FORECAST
from ..service.model import Game, Player
from ..service.results import Refusal
from .client import reader_language
from .commands_play import GAME_HELP, PlayCommands

if TYPE_CHECKING:
    from .client import Bot

LINES_ID = "forecast-lines"


def line_words(text: str) -> list[str]:
    """A conditional line's words, ``if`` first (it may be left out on Discord)."""
    words = text.split()
    return words if words and words[0].lower() == "if" else ["if", *words]


class ForecastForm(discord.ui.Modal):
    """One conditional line per row of a text box, recorded when submitted."""

    def __init__(self, cog: CorrespondenceCommands, sender: Player, game: Game,
                 language: str = SOURCE) -> None:
        super().__init__(title=_("Conditional moves, game #{game}", game=game.id).render(
            language))
        self.cog, self.sender, self.game = cog, sender, game
        self.language = language
        self.lines: discord.ui.TextInput = discord.ui.TextInput(
            label=_("One line per row: if THEIR MOVE then YOURS").render(language),
            custom_id=LINES_ID,
            style=discord.TextStyle.paragraph, max_length=2000,
            placeholder="if h8-i7/D then b2-a3/D then if i7-h6/D then a3-b4/D")
        self.add_item(self.lines)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        answers = []
        for row in filter(None, (r.strip() for r in self.lines.value.splitlines())):
            result = await self.cog.service.forecasts.add_forecast(self.sender, self.game.id,
                                                                   line_words(row))
            answers.append(result.words("console", self.language))  # as it always read
        await self.cog.bot.answer(interaction, "\n".join(answers) or _("No line was given."))


class CorrespondenceCommands(commands.Cog, name="Correspondence"):
    """Notes and conditional moves, seen by their author only."""

    def __init__(self, bot: Bot, play: PlayCommands) -> None:
        self.bot = bot
        self.service = bot.service
        self.play = play

    async def my_games(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[int]]:
        return await self.play.my_games(interaction, current)

    async def _game_meant(self, interaction: discord.Interaction, game: int | None,
                          purpose: str | None = None) -> tuple[Player, Game | None]:
        """The sender and the game a command means (None: refused, and answered)."""
        sender = await self.bot.player_of(interaction.user)
        found = await self.play._find_game(interaction, sender, game, purpose=purpose)
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return sender, None
        return sender, found

    @app_commands.command(name="note", description=message_id(
        "Keep a private note on a game (only you see it), or read your notes."))
    @app_commands.describe(
        text=message_id("The note (leave it out to read your notes)"),
        game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def note(self, interaction: discord.Interaction, text: str | None = None,
                   game: int | None = None) -> None:
        """Keep a private note on a game (only you see it), or read your notes."""
        sender, found = await self._game_meant(interaction, game)
        if found is None:
            return
        if text is None:
            notes = await self.service.notes.notes_text(sender, found.id)
            await self.bot.answer(interaction, notes or _("You have no notes on game #{game}.",
                                                          game=found.id))
            return
        added = await self.service.notes.add_note(sender, found.id, text)
        await self.bot.answer(interaction, added)

    @app_commands.command(name="forecast", description=message_id(
        "Record conditional moves while you wait: your answer is played at once."))
    @app_commands.describe(
        line=message_id("if THEIR MOVE then YOURS [then if ... then ...] (leave it out for a "
                        "form)"),
        show=message_id("List your conditional moves"),
        clear=message_id("Drop all your conditional moves"),
        game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def forecast(self, interaction: discord.Interaction, line: str | None = None,
                       show: bool = False, clear: bool = False,
                       game: int | None = None) -> None:
        """Record conditional moves while you wait: your answer is played at once."""
        sender, found = await self._game_meant(interaction, game, FORECAST)
        if found is None:
            return
        if clear:
            await self.bot.answer(interaction,
                                  await self.service.forecasts.clear_forecast(sender, found.id))
        elif show:
            lines = await self.service.forecasts.forecast_lines(sender, found.id)
            await self.bot.answer(interaction, joined(
                [_("Your conditional moves in game #{game} (only you see them):",
                   game=found.id), *(f"• `{t}`" for t in lines)], "\n") if lines else
                _("You have no conditional moves in game #{game}.", game=found.id))
        elif line and line.strip():
            await self.bot.answer(interaction, await self.service.forecasts.add_forecast(
                sender, found.id, line_words(line)))
        else:
            await interaction.response.send_modal(
                ForecastForm(self, sender, found, reader_language(interaction)))
