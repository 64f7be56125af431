"""Rules, ratings, the leaderboard, vacations, watching games and DM notifications."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import EngineError, Position, Variant, all_variants, get_variant

from ..commands import Commands
from ..results import Refusal
from . import pictures
from .notifier import DM_PREFERENCE
from .places import TRANSPORT

if TYPE_CHECKING:
    from .app import CommandPost


class InfoCommands(commands.Cog, name="Information"):
    """Rules, standings, vacations and following games."""

    def __init__(self, bot: CommandPost) -> None:
        self.bot = bot
        self.service = bot.service
        self.words = Commands(bot.service, lambda name: bot.service.find_player(TRANSPORT, name))

    async def variant_names(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        from .commands_play import _choices
        return _choices([(v.display_name, v.name) for v in all_variants()], current)

    async def piece_names(self, interaction: discord.Interaction,
                          current: str) -> list[app_commands.Choice[str]]:
        from .commands_play import _choices
        try:
            variant = get_variant(getattr(interaction.namespace, "variant", "") or "")
        except EngineError:
            return []
        return _choices([(name, letter) for letter, name in variant.piece_names.items()],
                        current)

    @app_commands.command(name="rules")
    @app_commands.describe(variant="The variant", piece="One piece of it")
    @app_commands.autocomplete(variant=variant_names, piece=piece_names)
    async def rules(self, interaction: discord.Interaction, variant: str,
                    piece: str | None = None) -> None:
        """Show a variant's rules and its starting position (or one piece's moves)."""
        try:
            rules = get_variant(variant)
        except EngineError as err:
            await self.bot.answer(interaction, str(err))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        position = rules.start_position(rules.modes[0])
        text = rules.rules_text or f"{rules.display_name}: no rules text yet."
        highlights: tuple[str, ...] = ()
        selected = None
        if piece:
            letter = _piece_letter(rules, piece)
            if letter is None:
                known = ", ".join(f"{name} ({k})" for k, name in rules.piece_names.items())
                await interaction.followup.send(
                    f"{rules.display_name} has no piece {piece!r}. Its pieces: {known}."[:2000],
                    ephemeral=True)
                return
            name = rules.piece_names.get(letter, letter)
            selected, highlights = _piece_squares(rules, position, letter)
            text = _piece_paragraph(text, name) or f"{name}: see the rules below.\n{text}"
            text = (f"{_piece_caption(name, selected, highlights)}\n\n{text}")
        png = await asyncio.to_thread(pictures._render, position, variant=rules,
                                      highlights=highlights, selected=selected,
                                      caption=rules.display_name)
        file = discord.File(__import__("io").BytesIO(png), "rules.png") if png else None
        await interaction.followup.send(f"**{rules.display_name}**\n{text}"[:2000],
                                        file=file or discord.utils.MISSING, ephemeral=True)

    @app_commands.command(name="rating")
    @app_commands.autocomplete(variant=variant_names)
    async def rating(self, interaction: discord.Interaction, variant: str | None = None,
                     player: discord.Member | None = None) -> None:
        """Show your rating (or someone's) in a variant."""
        who = await self.bot.player_of(player or interaction.user)
        reply = await self.words.cmd_rating(who, "", [variant] if variant else [])
        text = reply.text if player is None else reply.text.replace(
            "Your", f"{who.display_name}'s").replace("You have", f"{who.display_name} has")
        await self.bot.answer(interaction, text, public=reply.ok)

    @app_commands.command(name="leaderboard")
    @app_commands.autocomplete(variant=variant_names)
    async def leaderboard(self, interaction: discord.Interaction,
                          variant: str | None = None) -> None:
        """Show the best-rated players of a variant."""
        sender = await self.bot.player_of(interaction.user)
        reply = await self.words.cmd_leaderboard(sender, "", [variant] if variant else [])
        await self.bot.answer(interaction, f"```\n{reply.text}\n```" if reply.ok else reply.text,
                              public=reply.ok)

    @app_commands.command(name="vacation")
    @app_commands.describe(days="How many days (default: your whole allowance)",
                           end="Come back now instead: your clocks run again")
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

    @app_commands.command(name="watch")
    @app_commands.describe(game="The game's number")
    async def watch(self, interaction: discord.Interaction, game: int) -> None:
        """Follow a game: you are added to its thread and to its notifications."""
        sender = await self.bot.player_of(interaction.user)
        result = await self.service.watch(sender, game)
        if isinstance(result, Refusal):
            await self.bot.answer(interaction, result)
            return
        from .places import target_of
        thread = self.bot.get_channel(target_of(result.game.place) or 0)  # type: ignore[union-attr]
        where = ""
        if isinstance(thread, discord.Thread):
            try:
                await thread.add_user(interaction.user)
                where = f" Follow it in {thread.mention}."
            except discord.HTTPException:
                where = f" Its thread is {thread.mention}."
        await self.bot.answer(interaction, result.template + where)

    @app_commands.command(name="unwatch")
    @app_commands.describe(game="The game's number")
    async def unwatch(self, interaction: discord.Interaction, game: int) -> None:
        """Stop following a game."""
        sender = await self.bot.player_of(interaction.user)
        await self.bot.answer(interaction, await self.service.unwatch(sender, game))

    @app_commands.command(name="notify")
    @app_commands.describe(dm="Send me my turns, reminders, offers and results by DM")
    async def notify(self, interaction: discord.Interaction, dm: bool) -> None:
        """Choose whether your notifications come by DM (else in the game's thread)."""
        sender = await self.bot.player_of(interaction.user)
        await self.service.set_preference(sender, DM_PREFERENCE, dm)
        await self.bot.answer(interaction, "Your notifications now come by DM." if dm else
                              "Your notifications now come in the games' threads.")


def _piece_letter(rules: Variant, piece: str) -> str | None:
    """The letter of the piece named ``piece`` (by its letter or its name)."""
    wanted = piece.strip().lower()
    for letter, name in rules.piece_names.items():
        if wanted in (letter.lower(), name.lower()):
            return letter
    return None


def _piece_squares(rules: Variant, position: Position,
                   letter: str) -> tuple[str | None, tuple[str, ...]]:
    """Where a piece of ``letter`` of the side to move starts and may go from there: the
    first such piece that can move (selected) and its legal targets; else, when none can
    move at the start, every start point holding such a piece (nothing selected)."""
    side = position.side
    homes = [node for node in rules.topology.nodes
             if any(p.letter == letter and p.side == side
                    for p in rules.pieces_at(position, node))]
    moves = rules.legal_moves(position)
    for home in homes:
        targets = sorted({m.target for m in moves if m.origin == home})
        if targets:
            return home, tuple(targets)
    return None, tuple(homes)


def _piece_caption(name: str, selected: str | None, highlights: tuple[str, ...]) -> str:
    if selected is not None:
        return (f"The picture: the {name} on {selected} and the points it may reach from the "
                f"start ({', '.join(highlights)}).")
    if highlights:
        return (f"The picture: where the {name}s start ({', '.join(highlights)}); none can "
                f"move in the first turn.")
    return f"No {name} stands on the board at the start."


def _piece_paragraph(text: str, name: str) -> str:
    """The paragraphs of the rules that speak of ``name``."""
    kept = [p for p in text.split("\n\n") if name.lower() in p.lower()]
    return "\n\n".join(kept)
