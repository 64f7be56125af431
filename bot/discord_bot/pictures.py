"""Game pictures and the messages that carry them: the board (with the last move, or a
piece's legal destinations), who is to move with a mention, the deadline as a Discord
timestamp. Rendering is CPU work and runs in a worker thread."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable

import discord

from engine import get_variant

from ..pictures import SIZE, picture_options
from ..service import GameService
from ..service.model import Game
from .places import server_key

log = logging.getLogger(__name__)
# the server (guild id) a game's place belongs to, set by the running bot from its cache:
# a server's `/server settings theme` then colours its games' pictures
GuildOf = Callable[[str], int | None]
_guild_of: list[GuildOf] = []


def use_guild_lookup(guild_of: GuildOf) -> None:
    _guild_of[:] = [guild_of]


async def theme_of(service: GameService, game: Game) -> str:
    """The pictures' theme for ``game``: its server's choice, else the host's setting."""
    guild = _guild_of[0](game.place) if _guild_of else None
    if guild is not None:
        chosen = (await service.rooms.server_settings(server_key(guild))).get("theme")
        if isinstance(chosen, str):
            return chosen
    return service.settings.theme


def _render(position: object, **options: object) -> bytes | None:
    try:
        from renderer import render
    except ImportError:
        return None
    options.setdefault("size", SIZE)
    try:
        return render(position, **options)  # type: ignore[arg-type]
    except Exception:  # a picture must never break a game
        log.exception("rendering failed")
        return None


def warm_up() -> None:
    """Draw every variant's start once, so the first game's picture is fast."""
    from engine import all_variants
    for variant in all_variants():
        _render(variant.start_position(variant.modes[0]), variant=variant)


async def picture(service: GameService, game: Game, *, perspective: int = 0,
                  highlights: tuple[str, ...] = (), selected: str | None = None,
                  show_last: bool = True) -> discord.File | None:
    """The board of ``game`` now as an attachment (None without a renderer), with every
    step of the last turn marked."""
    position, options = await picture_options(
        service, game, perspective=perspective, highlights=highlights, selected=selected,
        show_last=show_last, theme=await theme_of(service, game))
    png = await asyncio.to_thread(_render, position, **options)
    if png is None:
        return None
    return discord.File(io.BytesIO(png), filename=f"game-{game.id}-{game.ply}.png")


def status_line(service: GameService, game: Game, mentions: tuple[str, str]) -> str:
    """Whose turn it is (with a mention) and until when, or how the game ended."""
    variant = get_variant(game.variant)
    if game.is_over:
        return f"Game over: {service.describe_result(game)}."
    side = game.to_move
    line = f"{mentions[side]} ({variant.side_names[side]}) to move"
    if game.clock.paused:
        return line + " (clock paused: vacation)."
    if game.clock.deadline is not None:
        t = int(game.clock.deadline)
        return line + f", by <t:{t}:f> (<t:{t}:R>)."
    return line + "."


def header(game: Game) -> str:
    variant = get_variant(game.variant)
    return (f"Game #{game.id}: {game.names[0]} ({variant.side_names[0]}) vs "
            f"{game.names[1]} ({variant.side_names[1]}), {variant.display_name}")
