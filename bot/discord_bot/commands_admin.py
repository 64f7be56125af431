"""Server settings and rulings, for members who may manage the server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import EngineError, get_variant

from .. import i18n
from ..i18n import Text, _, joined, message_id
from ..service.results import Refusal
from . import live, logs, permissions
from .client import reader_language
from .commands_play import DAYS, PlayCommands
from .languages import SERVER_LANGUAGE, language_choices, server_language
from .notifier import PING_NAMES, PINGS, ping_choices
from .owing import owing
from .places import channel_mention, server_key, target_of

THEMES = {"classic": message_id("classic"), "colour-blind": message_id("colour-blind")}
THEME_CHOICES = [app_commands.Choice(name=message_id("classic"), value="classic"),
                 app_commands.Choice(name=message_id("colour-blind"), value="colour-blind")]

if TYPE_CHECKING:
    from .client import Bot

RULINGS = [app_commands.Choice(name=message_id("first side wins"), value="0"),
           app_commands.Choice(name=message_id("second side wins"), value="1"),
           app_commands.Choice(name=message_id("draw"), value="draw"),
           app_commands.Choice(name=message_id("abort (unrated)"), value="abort")]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCommands(commands.GroupCog, group_name="server", group_description=message_id(
        "Server settings and rulings (Manage Server).")):
    """Server settings and rulings (Manage Server)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    async def _server_games(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[int]]:
        cog = self.bot.get_cog("Playing")
        assert isinstance(cog, PlayCommands)
        return await cog.watchable_games(interaction, current)

    @app_commands.command(name="settings", description=message_id(
        "Show or change this server's game channel, allowed variants and time control."))
    @app_commands.describe(
        channel=message_id("Where new games are played (their threads open there)"),
        variants=message_id("Allowed variants, separated by commas ('all': every one)"),
        days=message_id("Time per move of a challenge that names none"),
        theme=message_id("The pictures' colours (colour-blind: safe for red-green colour "
                         "blindness)"),
        pings=message_id("When players are mentioned, unless they chose (`/settings`)"),
        language=message_id("The language of the bot's posts in its channels and game threads"))
    @app_commands.choices(days=DAYS, theme=THEME_CHOICES, pings=ping_choices(),
                          language=[*language_choices(), app_commands.Choice(
                              name=message_id("the server's Discord language"),
                              value="default")])
    async def settings(self, interaction: discord.Interaction,
                       channel: discord.TextChannel | None = None, variants: str | None = None,
                       days: int | None = None, theme: str | None = None,
                       pings: str | None = None, language: str | None = None) -> None:
        """Show or change this server's game channel, allowed variants and time control.

        ``language`` is the language of what the bot posts for everyone on the server (a
        game thread's news, boards and offers, the notices of a channel): each member's
        own replies follow their Discord client, and DMs the language each player chose.
        Unset (``default``), the server's Discord language (a Community server's primary
        language) is used, else English."""
        if not permissions.may_manage(interaction):
            await self.bot.answer(interaction, _("Only members who may manage the server can "
                                                 "change its settings."))
            return
        if language not in (None, "default", *i18n.shipped()):
            await self.bot.answer(interaction, _(
                "{language} ({code}) is not offered yet: its words are being translated.",
                language=i18n.display_name(str(language)), code=language))
            return
        changes: dict[str, object] = {}
        if channel is not None:
            changes["channel"] = channel.id
        if variants is not None:
            names = [v.strip() for v in variants.split(",") if v.strip()]
            try:
                keys = [get_variant(n).name for n in names if n.lower() != "all"]
            except EngineError as err:
                await self.bot.answer(interaction, str(err))
                return
            changes["variants"] = keys or None
        if days is not None:
            changes["days"] = days
        if theme is not None:
            changes["theme"] = theme
        if pings is not None:
            changes[PINGS] = pings
        if language is not None:
            changes[SERVER_LANGUAGE] = None if language == "default" else language
        key = server_key(interaction.guild_id or 0)
        current = (await self.service.rooms.set_server_settings(key, changes) if changes
                   else await self.service.rooms.server_settings(key))
        where = (channel_mention(current["channel"]) if "channel" in current
                 else _("where /challenge is used"))
        theme = current.get("theme") or self.bot.settings.theme
        pings = current.get(PINGS) or "all"
        spoken = await server_language(self.bot, interaction.guild)
        lines = [_("Server settings:"), _("Game channel: {channel}", channel=where),
                 _("Variants: {variants}",
                   variants=", ".join(current.get("variants", [])) or _("all")),
                 _("Time per move: {days} days", days=current["days"]) if current.get("days")
                 else _("Time per move: {days}", days=_("no clock")),
                 _("Pictures: {theme}", theme=Text(theme, {}) if theme in THEMES else theme),
                 _("Pings: {pings}", pings=Text(PING_NAMES[pings], {})
                   if pings in PING_NAMES else pings),
                 _("Language: {language} ({code})", language=i18n.display_name(spoken),
                   code=spoken)]
        await self.bot.answer(interaction, joined(lines, "\n"))

    @app_commands.command(name="check", description=message_id(
        "List, for each channel where games can start, what the bot may and may not do."))
    async def check(self, interaction: discord.Interaction) -> None:
        """List, for each channel where games can start, what the bot may and may not do."""
        if not permissions.may_manage(interaction):
            await self.bot.answer(interaction, _("Only members who may manage the server can "
                                                 "check the bot's permissions."))
            return
        guild = interaction.guild
        assert guild is not None  # the group is guild-only
        current = await self.service.rooms.server_settings(server_key(guild.id))
        configured = guild.get_channel(int(current["channel"])) if current.get("channel") \
            else None
        channels = [configured] if isinstance(configured, discord.TextChannel) else [
            c for c in guild.text_channels if c.permissions_for(interaction.user).view_channel]
        lines = [permissions.report(c) for c in channels[:40]]
        lead = (_("The game channel of this server:") if configured is not None else
                _("No game channel is set ({command}); games start where /challenge is used. "
                  "What I may do in each channel:", command="`/server settings channel:`"))
        text = joined([lead, *lines], "\n").render(reader_language(interaction))
        await self.bot.answer(interaction, text[:2000])

    @app_commands.command(name="ruling", description=message_id(
        "End a game of this server by a ruling: a win, a draw, or an abort."))
    @app_commands.describe(
        game=message_id("The game's number (this server's live games are offered)"),
        ruling=message_id("How the game ends"))
    @app_commands.choices(ruling=RULINGS)
    @app_commands.autocomplete(game=_server_games)
    async def ruling(self, interaction: discord.Interaction, game: int, ruling: str) -> None:
        """End a game of this server by a ruling: a win, a draw, or an abort."""
        if not permissions.may_manage(interaction):
            await self.bot.answer(interaction, _("Only members who may manage the server can "
                                                 "rule on games."))
            return
        logs.set_context(game_id=game)
        found = await self.service.game(game)
        channel = self.bot.get_channel(target_of(found.place) or 0) if found else None
        if found is None or getattr(getattr(channel, "guild", None), "id", None) \
                != interaction.guild_id:
            await self.bot.answer(interaction, _("There is no game #{game} on this server.",
                                                 game=game))
            return
        await rule(self.bot, interaction, game, ruling)


async def rule(bot: Bot, interaction: discord.Interaction, game: int, ruling: str) -> None:
    """End ``game`` by ``ruling`` (a value of `RULINGS`), the member's right to rule on it
    checked already (`/server ruling`, a tournament's director): the reply announces the
    end."""
    by = interaction.user.display_name
    sender = await bot.player_of(interaction.user)
    async with owing(bot, sender, interaction.channel, "ruling", game):
        result = await bot.service.rooms.adjudicate(
            game, None if ruling in ("draw", "abort") else int(ruling), by,
            abort=ruling == "abort")
        if isinstance(result, Refusal) or result.game is None:
            await bot.answer(interaction, result)
            return
        # the ruling's reply is the announcement of the end (not said again in the thread)
        ending = await live.ending_text(bot, result.game, reader_language(interaction))
        sent = await bot.reply(interaction, content=ending)
        await live.ending_announced(bot, result.game, sent, interaction.channel_id or 0)
    await bot.flush()


__all__ = ["AdminCommands", "PlayCommands"]
