"""Tournaments: `/tournament create|join|leave|start|standings|pairings|list|ladder|
adjudicate`, the service's tournaments (`bot.service.tournaments`) in slash commands.

A tournament is named by its number (``tournament:3``, as every message of the service
writes it: `bot.service.phrasing`). It is made in a server's channel, where its sign-up
post and its thread live (`tournament_posts`). Its director, or a member who may manage
the server (`/server`'s permission), starts it and adjudicates its games."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ..i18n import _, _n, joined, message_id, render
from ..pictures import crosstable_picture
from ..service.results import Refusal
from ..service.tournaments import (
    MAX_NAME,
    MAX_PLAYERS,
    MAX_REACH,
    MAX_ROUNDS,
    Tournament,
    describe,
    pairings_text,
    standings_text,
    status_text,
)
from . import permissions, tournament_posts
from .client import literal, reader_language
from .commands_admin import RULINGS, rule
from .commands_play import DAYS, MAX_CHOICES, PlayCommands, clock_choice
from .languages import channel_language
from .places import TRANSPORT, channel_mention, channel_of, channel_place, place_of, target_of

if TYPE_CHECKING:
    from .client import Bot

FORMATS = [app_commands.Choice(name=message_id("round-robin"), value="round-robin"),
           app_commands.Choice(name=message_id("Swiss"), value="swiss"),
           app_commands.Choice(name=message_id("ladder"), value="ladder")]
ADJUDICATIONS = [
    app_commands.Choice(name=message_id("the game goes on, outside the tournament"),
                        value="continue"),
    app_commands.Choice(name=message_id("the game is drawn"), value="draw")]
TOURNAMENT_HELP = message_id("The tournament's number (this channel's are offered)")
MAX_DAYS = 365  # of a sign-up, a start or a Swiss round, in days
MAX_PICTURES = 10  # crosstables attached to one message (one per section)
CREATE_OPTIONS = {
    "variant": message_id("The variant played (default: the first)"),
    "mode": message_id("The variant's mode (default: its usual one)"),
    "format": message_id("Round-robin sections, Swiss rounds, or a ladder (default: "
                          "round-robin)"),
    "days": message_id("Time per move of every game"),
    "clock": message_id("Or a Fischer clock and/or a total: 3d+1d max10d total60d"),
    "rated": message_id("Whether the games count for ratings (default: yes)"),
    "size": message_id("The most players it takes"),
    "section_size": message_id("A round-robin's most players in a section (sections are "
                               "made by rating)"),
    "rounds": message_id("A Swiss tournament's rounds (default: chosen at the start)"),
    "double": message_id("A round-robin played twice, with both colours"),
    "round_days": message_id("Days a Swiss round lasts before its unfinished games are "
                             "adjudicated"),
    "adjudication": message_id("What becomes of a game unfinished at a round's deadline"),
    "reach": message_id("How many places above themselves a ladder's player may challenge"),
    "signup_days": message_id("Days until sign-up closes"),
    "start_days": message_id("Days until it starts (default: when sign-up closes; without "
                             "either, its director starts it)"),
    "name": message_id("Its name")}


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class TournamentCommands(commands.GroupCog, group_name="tournament", group_description=(
        message_id("Correspondence tournaments: round-robin, Swiss, ladders."))):
    """Correspondence tournaments: round-robin, Swiss, ladders."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    def _playing(self) -> PlayCommands:
        cog = self.bot.get_cog("Playing")
        assert isinstance(cog, PlayCommands)
        return cog

    async def _variants(self, interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
        return await self._playing().variant_names(interaction, current)

    async def _modes(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return await self._playing().mode_names(interaction, current)

    async def _tournaments(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[int]]:
        """This channel's tournaments (every one, in a DM) whose name has ``current``."""
        language = reader_language(interaction)
        found = await self.service.tournaments.listing(self._here(interaction))
        names = [(render(_("{ref} {name} ({status})", ref=t.ref, name=t.name,
                           status=status_text(t)), language), t.id) for t, _count in found]
        return [app_commands.Choice(name=n[:100], value=i) for n, i in names
                if current.lower().lstrip("t") in n.lower()][:MAX_CHOICES]

    def _about_one(name: str, description: str,  # type: ignore[misc]  # noqa: N805
                   complete=_tournaments, **described: str):  # type: ignore[no-untyped-def]
        """A sub-command about one tournament: its ``tournament`` option described and
        completed (``complete``: from this channel's tournaments), its other options
        ``described``; a decorator of this class's body."""
        def made(command):  # type: ignore[no-untyped-def]
            command = app_commands.autocomplete(tournament=complete)(command)
            command = app_commands.describe(tournament=TOURNAMENT_HELP, **described)(command)
            return app_commands.command(name=name, description=description)(command)
        return made

    async def _games(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[int]]:
        return await self._playing().watchable_games(interaction, current)

    @staticmethod
    def _here(interaction: discord.Interaction) -> str | None:
        """The place whose tournaments are listed: the channel (with its threads); None in
        a DM."""
        return channel_place(channel_of(interaction.channel)) if interaction.guild_id else None

    async def _may_direct(self, interaction: discord.Interaction, t: Tournament) -> bool:
        """Whether the member may act as a server admin on ``t``: they may manage the
        server it is played on."""
        channel = self.bot.get_channel(target_of(t.place) or 0)
        guild = getattr(getattr(channel, "guild", None), "id", None)
        return permissions.may_manage(interaction) and guild is not None \
            and guild == interaction.guild_id

    # --- making one -----------------------------------------------------------------
    @app_commands.command(name="create", description=message_id(
        "Make a tournament in this channel, with a sign-up post and a thread."))
    @app_commands.describe(**CREATE_OPTIONS)
    @app_commands.choices(format=FORMATS, days=DAYS, adjudication=ADJUDICATIONS)
    @app_commands.autocomplete(variant=_variants, mode=_modes)
    async def create(self, interaction: discord.Interaction, variant: str | None = None,
                     format: str | None = None, days: int | None = None,  # noqa: A002
                     clock: str | None = None, rated: bool | None = None,
                     size: app_commands.Range[int, 3, MAX_PLAYERS] | None = None,
                     section_size: app_commands.Range[int, 3, MAX_PLAYERS] | None = None,
                     rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
                     double: bool = False,
                     round_days: app_commands.Range[int, 1, MAX_DAYS] | None = None,
                     adjudication: str | None = None,
                     reach: app_commands.Range[int, 1, MAX_REACH] | None = None,
                     signup_days: app_commands.Range[int, 1, MAX_DAYS] | None = None,
                     start_days: app_commands.Range[int, 1, MAX_DAYS] | None = None,
                     name: app_commands.Range[str, 1, MAX_NAME] | None = None,
                     mode: str | None = None) -> None:
        """Make a tournament in this channel, with a sign-up post and a thread.

        The sign-up post has Join and Leave buttons; the tournament's thread, opened on
        it, gets its news (each round's pairings, the results, the end)."""
        if not interaction.guild_id or not isinstance(interaction.channel,
                                                      discord.TextChannel):
            await self.bot.answer(interaction, _("Make a tournament in a server's channel: "
                                                 "its sign-up post and thread go there."))
            return
        missing = permissions.missing_in(interaction.channel)
        if missing:  # its games could not start here
            await self.bot.answer(interaction, permissions.refusal(interaction.channel, missing))
            return
        chosen = clock_choice(clock, days)
        if isinstance(chosen, Refusal):
            await self.bot.answer(interaction, chosen)
            return
        time_control, days = chosen
        if days is None:  # as a challenge here: the server's time per move, else the host's
            days = await self._playing().default_days(interaction)
        sender = await self.bot.player_of(interaction.user)
        result = await self.service.tournaments.create(
            sender, place_of(interaction.channel), variant=variant, format=format, name=name,
            mode=mode, days=days or None, time_control=time_control and time_control.text(),
            rated=rated, size=size, section_size=section_size, rounds=rounds,
            cycles=2 if double else None, round_days=round_days, adjudication=adjudication,
            reach=reach, signup_days=signup_days, start_days=start_days)
        t = getattr(result, "tournament", None)
        if isinstance(result, Refusal) or not isinstance(t, Tournament):
            await self.bot.answer(interaction, result)
            return
        # a post for everyone, edited as players sign up: in the server's language
        message = await tournament_posts.signup_message(
            self.bot, t, await channel_language(self.bot, interaction.channel.id))
        sent = await self.bot.reply(interaction, **message)
        await tournament_posts.signup_posted(self.bot, t, sent, interaction.channel.id)
        await self.bot.flush()

    # --- signing up -----------------------------------------------------------------
    @_about_one("join", message_id("Sign up for a tournament."))
    async def join(self, interaction: discord.Interaction, tournament: int) -> None:
        """Sign up for a tournament."""
        sender = await self.bot.player_of(interaction.user)
        await tournament_posts.signed(self.bot, interaction, sender, "join", tournament)

    @_about_one("leave", message_id("Leave a tournament before it starts, or withdraw from it."))
    async def leave(self, interaction: discord.Interaction, tournament: int) -> None:
        """Leave a tournament before it starts, or withdraw from it.

        A withdrawal during play follows ICCF's rule: with fewer than half of your games
        finished, all of them are struck out; otherwise the unfinished ones are lost."""
        sender = await self.bot.player_of(interaction.user)
        await tournament_posts.signed(self.bot, interaction, sender, "leave", tournament)

    @_about_one("start", message_id("Start a tournament now (its director, or a server admin)."))
    async def start(self, interaction: discord.Interaction, tournament: int) -> None:
        """Start a tournament now (its director, or a server admin)."""
        sender = await self.bot.player_of(interaction.user)
        t = await self.service.tournaments.get(tournament)
        director = t is not None and await self._may_direct(interaction, t)
        result = await self.service.tournaments.start(sender, tournament, director=director)
        if isinstance(result, Refusal):
            await self.bot.answer(interaction, result)
            return
        thread = (await tournament_posts.remembered(self.bot, tournament)).get("thread")
        await self.bot.answer(interaction, joined(
            [result.words(TRANSPORT, reader_language(interaction), literal),
             *([_("Its news: {thread}", thread=channel_mention(thread))] if thread else [])],
            "\n"), public=True)
        await tournament_posts.refresh_signup(self.bot, tournament)
        await self.bot.flush()  # the thread gets the start and the games, each its thread

    # --- reading --------------------------------------------------------------------
    @_about_one("standings", message_id(
        "A tournament's standings, in words and as a crosstable."))
    async def standings(self, interaction: discord.Interaction, tournament: int) -> None:
        """A tournament's standings, in words and as a crosstable."""
        table = await self.service.tournaments.table(tournament)
        if isinstance(table, Refusal):
            await self.bot.answer(interaction, table)
            return
        await interaction.response.defer(thinking=True)  # drawing takes time
        language = reader_language(interaction)
        files = []
        for section in table.sections[:MAX_PICTURES]:
            png = await asyncio.to_thread(crosstable_picture, table, language, section.number)
            if png is not None:
                files.append(discord.File(io.BytesIO(png), filename=(
                    f"tournament-{tournament}-section-{section.number}.png")))
        await self.bot.reply(interaction, content=standings_text(table),
                             files=files or discord.utils.MISSING)

    @_about_one("pairings", message_id(
        "A tournament's games, or one Swiss round's, with their results."),
        round=message_id("The round (default: the one being played)"))
    async def pairings(self, interaction: discord.Interaction, tournament: int,
                       round: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,  # noqa: A002
                       ) -> None:
        """A tournament's games, or one Swiss round's, with their results."""
        table = await self.service.tournaments.table(tournament)
        await self.bot.answer(interaction, table if isinstance(table, Refusal)
                              else pairings_text(table, round), public=True)

    @app_commands.command(name="list", description=message_id(
        "The tournaments of this channel signing up or running."))
    @app_commands.describe(finished=message_id("List those that are over instead"))
    async def listing(self, interaction: discord.Interaction, finished: bool = False) -> None:
        """The tournaments of this channel signing up or running (in a DM: every one)."""
        found = await self.service.tournaments.listing(self._here(interaction), finished)
        if not found:
            await self.bot.answer(interaction, _("No tournament here is over yet.") if finished
                                  else _("No tournament is signing up or running here. Make "
                                         "one with {create}.", create="`/tournament create`"),
                                  public=True)
            return
        lines = [_("Tournaments here:")] + [
            _("• {description} ({status}, {players})", description=describe(t),
              status=status_text(t), players=_n("{n} player", "{n} players", players))
            for t, players in found]
        await self.bot.answer(interaction, joined(lines, "\n"), public=True)

    # --- playing and directing ------------------------------------------------------
    @_about_one("ladder", message_id(
        "Challenge a player above you on a ladder: the game starts at once."),
        opponent=message_id("The player you challenge"))
    async def ladder(self, interaction: discord.Interaction, tournament: int,
                     opponent: discord.User) -> None:
        """Challenge a player above you on a ladder: the game starts at once."""
        sender = await self.bot.player_of(interaction.user)
        target = await self.bot.player_of(opponent)
        result = await self.service.tournaments.ladder_challenge(sender, tournament, target)
        if isinstance(result, Refusal) or result.game is None:
            await self.bot.answer(interaction, result)
            return
        home = await tournament_posts.game_home(self.bot, result.game.id)
        lines = [result.words(TRANSPORT, reader_language(interaction), literal)]
        if home is not None:
            lines.append(_("The game's thread: {thread}", thread=channel_mention(
                target_of(home))))
        await self.bot.answer(interaction, joined(lines, "\n"), public=True)
        await self.bot.flush()

    @app_commands.command(name="adjudicate", description=message_id(
        "End a tournament game by the director's ruling."))
    @app_commands.describe(game=message_id("The game's number (this server's live games are "
                                           "offered)"),
                           result=message_id("How the game ends"))
    @app_commands.choices(result=RULINGS)
    @app_commands.autocomplete(game=_games)
    async def adjudicate(self, interaction: discord.Interaction, game: int,
                         result: str) -> None:
        """End a tournament game by the director's ruling (its director, or a server
        admin)."""
        sender = await self.bot.player_of(interaction.user)
        t = await self.service.tournaments.of_game(game)
        admin = isinstance(t, Tournament) and await self._may_direct(interaction, t)
        ruling = await self.service.tournaments.ruling(sender, game, director=admin)
        if isinstance(ruling, Refusal):
            await self.bot.answer(interaction, ruling)
            return
        await rule(self.bot, interaction, game, result)

