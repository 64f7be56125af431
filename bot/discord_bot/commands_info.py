"""Help, rules, ratings, the leaderboard, vacations, watching games and DM notifications."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import EngineError, all_variants, get_variant

from ..commands import Commands
from ..i18n import _, joined, message_id, render
from ..service.posts import DIGEST
from ..service.results import Refusal
from ..service.rules_docs import as_discord, messages, rules_part
from .client import reader_language
from .commands_play import PlayCommands
from .languages import language_choices
from .notifier import DM_PREFERENCE, PINGS, ping_choices
from .places import TRANSPORT, server_key
from .translator import translated

DISCORD_COMMAND = "`/rules variant:{variant} piece:…`"

if TYPE_CHECKING:
    from .client import Bot


class InfoCommands(commands.Cog, name="Information"):
    """Rules, standings, vacations and following games."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = bot.service
        self.words = Commands(bot.service, lambda name: bot.service.find_player(TRANSPORT, name))

    async def variant_names(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        from .commands_play import _choices
        language = reader_language(interaction)
        return _choices([(render(v.display_name, language), v.name) for v in all_variants()],
                        current)

    async def piece_names(self, interaction: discord.Interaction,
                          current: str) -> list[app_commands.Choice[str]]:
        from .commands_play import _choices
        try:
            variant = get_variant(getattr(interaction.namespace, "variant", "") or "")
        except EngineError:
            return []
        return _choices([(name, letter) for letter, name in variant.piece_names.items()],
                        current)

    async def _watchable(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[int]]:
        return await self._play().watchable_games(interaction, current)

    async def _watched(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[int]]:
        from .commands_play import _game_choices
        sender = await self.bot.player_of(interaction.user)
        return _game_choices(await self.service.rooms.watched_games(sender), current)

    def _play(self) -> PlayCommands:
        cog = self.bot.get_cog("Playing")
        assert isinstance(cog, PlayCommands)
        return cog

    # --- help -------------------------------------------------------------------------
    def _commands(self) -> dict[str, app_commands.Command[Any, Any, Any]]:
        """Every slash command by its whole name (``server check`` for a group's)."""
        found: dict[str, app_commands.Command[Any, Any, Any]] = {}
        for item in self.bot.tree.get_commands():
            if isinstance(item, app_commands.Group):
                for sub in item.walk_commands():
                    if isinstance(sub, app_commands.Command):
                        found[sub.qualified_name] = sub
            elif isinstance(item, app_commands.Command):
                found[item.qualified_name] = item
        return dict(sorted(found.items()))

    async def command_names(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        from .commands_play import _choices
        return _choices([(f"/{name}", name) for name in self._commands()], current)

    @app_commands.command(name="help", description=message_id(
        "List the commands, or explain one (what it does, its options, an example)."))
    @app_commands.describe(command=message_id("One command, to see what it does and its options"))
    @app_commands.autocomplete(command=command_names)
    async def help(self, interaction: discord.Interaction, command: str | None = None) -> None:
        """List the commands, or explain one (what it does, its options, an example)."""
        known = self._commands()
        language = reader_language(interaction)
        if command is None:
            lines = [f"`/{name}`: {_summary(item, language)}" for name, item in known.items()]
            text = "\n".join([_("Commands ({help} explains one; in a game's thread you may "
                                "also type a move as a message):",
                                help="`/help command:NAME`").render(language), *lines])
        elif (item := known.get(command.strip().lstrip("/").lower())) is None:
            asked = f"`/{command.strip().lstrip('/')[:40]}`"
            text = _("There is no command {command}. {help} lists them.", command=asked,
                     help="`/help`").render(language)
        else:
            options = [f"• {_option(p, language)}: "
                       f"{translated(p.description, language) or p.description}"
                       for p in item.parameters]
            text = "\n".join([f"`/{item.qualified_name}`: {_summary(item, language)}",
                              *([_("Options:").render(language), *options] if options else [])])
        first, *more = messages(text, 2000)
        await interaction.response.send_message(first, ephemeral=True)
        for rest in more:
            await interaction.followup.send(rest, ephemeral=True)

    @app_commands.command(name="rules", description=message_id(
        "Show a variant's rules, or one part of them: a piece (with its picture) or a section."))
    @app_commands.describe(
        variant=message_id("The variant"),
        piece=message_id("One piece of it, or a section (notation, choices, ...)"))
    @app_commands.autocomplete(variant=variant_names, piece=piece_names)
    async def rules(self, interaction: discord.Interaction, variant: str,
                    piece: str | None = None) -> None:
        """Show a variant's rules, or one part of them: a piece (with its picture) or a
        section."""
        try:
            rules = get_variant(variant)
        except EngineError as err:
            await self.bot.answer(interaction, str(err))
            return
        part = rules_part(rules, piece or "", command=DISCORD_COMMAND,
                          language=reader_language(interaction))
        first, *more = messages(as_discord(part.markdown), 2000)
        files = [discord.File(path, path.name) for path in part.pictures if path.is_file()]
        await interaction.response.send_message(first, files=files, ephemeral=True)
        for text in more:  # a long section goes on in further messages
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="rating", description=message_id(
        "Show your rating (or someone's) in a variant."))
    @app_commands.describe(
        variant=message_id("The variant (default: every variant you have played)"),
        player=message_id("Whose rating (default: yours)"))
    @app_commands.autocomplete(variant=variant_names)
    async def rating(self, interaction: discord.Interaction, variant: str | None = None,
                     player: discord.Member | None = None) -> None:
        """Show your rating (or someone's) in a variant."""
        who = await self.bot.player_of(player or interaction.user)
        other = player is not None and player.id != interaction.user.id
        reply = await self.words.rating_of(who, variant, other=other)
        await self.bot.answer(interaction, reply.text, public=reply.ok)

    @app_commands.command(name="leaderboard", description=message_id(
        "Show the best-rated players of a variant."))
    @app_commands.describe(variant=message_id("The variant (default: the first one)"))
    @app_commands.autocomplete(variant=variant_names)
    async def leaderboard(self, interaction: discord.Interaction,
                          variant: str | None = None) -> None:
        """Show the best-rated players of a variant."""
        sender = await self.bot.player_of(interaction.user)
        reply = await self.words.cmd_leaderboard(sender, "", [variant] if variant else [])
        table = render(reply.text, reader_language(interaction))
        await self.bot.answer(interaction, f"```\n{table}\n```" if reply.ok else reply.text,
                              public=reply.ok)

    @app_commands.command(name="vacation", description=message_id(
        "Pause all your clocks for some days, or come back from a vacation."))
    @app_commands.describe(days=message_id("How many days (default: your whole allowance)"),
                           end=message_id("Come back now instead: your clocks run again"))
    async def vacation(self, interaction: discord.Interaction, days: float | None = None,
                       end: bool = False) -> None:
        """Pause all your clocks for some days, or come back from a vacation."""
        sender = await self.bot.player_of(interaction.user)
        if end:
            reply = await self.words.cmd_back(sender, "", [])
        else:
            reply = await self.words.cmd_vacation(sender, "", [str(days)] if days else [])
        await self.bot.answer(interaction, reply.text)
        await self.bot.flush()

    @app_commands.command(name="watch", description=message_id(
        "Follow a game: you are added to its thread and to its notifications."))
    @app_commands.describe(
        game=message_id("The game's number (this server's live games are offered)"))
    @app_commands.autocomplete(game=_watchable)
    async def watch(self, interaction: discord.Interaction, game: int) -> None:
        """Follow a game: you are added to its thread and to its notifications."""
        sender = await self.bot.player_of(interaction.user)
        result = await self.service.rooms.watch(sender, game)
        if isinstance(result, Refusal):
            await self.bot.answer(interaction, result)
            return
        from .places import target_of
        thread = self.bot.get_channel(target_of(result.game.place) or 0)  # type: ignore[union-attr]
        said = [result.template]
        if isinstance(thread, discord.Thread) and not await self._member_of(thread.guild,
                                                                            interaction):
            link = await self.service.watching.game_link(game)
            said.append(_("It is played on a server you are not on, so its thread is closed "
                          "to you: {notify} sends you its news by DM, and {link} shows it "
                          "live.", notify="`/notify dm:True`", link=link) if link else
                        _("It is played on a server you are not on, so its thread is closed "
                          "to you: {notify} sends you its news by DM.",
                          notify="`/notify dm:True`"))
        elif isinstance(thread, discord.Thread):
            try:
                await thread.add_user(interaction.user)
                said.append(_("Follow it in {thread}.", thread=thread.mention))
            except discord.HTTPException:
                said.append(_("Its thread is {thread}.", thread=thread.mention))
        await self.bot.answer(interaction, joined(said))

    @staticmethod
    async def _member_of(guild: discord.Guild, interaction: discord.Interaction) -> bool:
        """Whether the user of ``interaction`` is a member of ``guild`` (asked of Discord
        when the command comes from elsewhere: the bot keeps no member list)."""
        if interaction.guild_id == guild.id:
            return True
        try:
            await guild.fetch_member(interaction.user.id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True  # unknown: as before, the thread is named
        return True

    @app_commands.command(name="unwatch", description=message_id("Stop following a game."))
    @app_commands.describe(game=message_id("The game's number (the games you watch are offered)"))
    @app_commands.autocomplete(game=_watched)
    async def unwatch(self, interaction: discord.Interaction, game: int) -> None:
        """Stop following a game."""
        sender = await self.bot.player_of(interaction.user)
        await self.bot.answer(interaction, await self.service.rooms.unwatch(sender, game))

    @app_commands.command(name="settings", description=message_id(
        "Show or change your settings: when I mention (ping) you."))
    @app_commands.describe(
        pings=message_id("When I mention you: moves, offers, reminders (all), moves (turns), "
                         "never (none)"),
        language=message_id("The language of the news I send you by DM"))
    @app_commands.choices(pings=[*ping_choices(), app_commands.Choice(
        name=message_id("server default"), value="default")], language=language_choices())
    async def settings(self, interaction: discord.Interaction,
                       pings: str | None = None, language: str | None = None) -> None:
        """Show or change your settings: when I mention (ping) you, and the language of
        your DMs (the news the bot sends you; its answers follow your Discord client)."""
        sender = await self.bot.player_of(interaction.user)
        told = []
        if language is not None:  # the console's and mail's `language`: one preference
            reply = await self.words.cmd_language(sender, "", [language])
            sender = reply.player or sender
            told.append(reply.text)
        if pings is not None:
            sender = await self.service.set_preference(
                sender, PINGS, None if pings == "default" else pings)
        chosen = sender.preferences.get(PINGS)
        said = {"all": _("news of your opponents' moves, offers and reminders"),
                "turns": _("news of your opponents' moves only"),
                "none": _("never (you are named instead)")}
        if chosen is None:
            default = None
            if interaction.guild_id:
                default = (await self.service.rooms.server_settings(
                    server_key(interaction.guild_id))).get(PINGS)
            how = (_("as the server decides ({command} chooses for you): on this server, "
                     "{pings}", command="`/settings pings:`", pings=said[str(default)])
                   if default else
                   _("as the server decides ({command} chooses for you): by default, "
                     "{pings}", command="`/settings pings:`", pings=said["all"]))
        else:
            how = said[str(chosen)]
        await self.bot.answer(interaction, joined([*told, _("I mention you: {how}.", how=how)]))

    @app_commands.command(name="notify", description=message_id(
        "Choose where your notifications come (DM or the game's thread), and a digest."))
    @app_commands.describe(
        dm=message_id("Send me my turns, reminders, offers and results by DM"),
        digest=message_id("Send me a daily DM listing the games waiting for my move"))
    async def notify(self, interaction: discord.Interaction, dm: bool | None = None,
                     digest: bool | None = None) -> None:
        """Choose where your notifications come (DM or the game's thread), and a digest."""
        sender = await self.bot.player_of(interaction.user)
        said = []
        if dm is not None:
            sender = await self.service.set_preference(sender, DM_PREFERENCE, dm)
            said.append(_("Your notifications now come by DM.") if dm else
                        _("Your notifications now come in the games' threads."))
        if digest is not None:
            sender = await self.service.set_preference(sender, DIGEST, digest)
            said.append(_("You will get a daily digest of the games waiting for your move.")
                        if digest else _("You will get no daily digest."))
        if not said:
            by_dm, digests = sender.preferences.get(DM_PREFERENCE), sender.preferences.get(DIGEST)
            said.append(
                (_("Your notifications come by DM; you get a daily digest.") if digests else
                 _("Your notifications come by DM; you get no digest.")) if by_dm else
                (_("Your notifications come in the games' threads; you get a daily digest.")
                 if digests else
                 _("Your notifications come in the games' threads; you get no digest.")))
        await self.bot.answer(interaction, joined(said))


def _summary(command: app_commands.Command[Any, Any, Any], language: str) -> str:
    """What a command does, in ``language``: in English its whole first paragraph, in
    another its description's translation (within Discord's 100 characters)."""
    return translated(command.description, language) or _first_paragraph(command)


def _option(parameter: app_commands.Parameter, language: str) -> str:
    """An option's name as `/help` lists it (its name is a token: never translated)."""
    name = f"`{parameter.name}`"
    return name if parameter.required else _("{option} (optional)", option=name).render(language)


def _first_paragraph(command: app_commands.Command[Any, Any, Any]) -> str:
    """What a command does, whole (Discord cuts its description at 100 characters): the
    first paragraph of its docstring."""
    doc = inspect.cleandoc(command.callback.__doc__ or command.description)
    return " ".join(doc.split("\n\n")[0].split())
