"""Game pictures and the messages that carry them: the board (with the last move, or a
piece's legal destinations), who is to move with a mention, the deadline as a Discord
timestamp. Rendering is CPU work and runs in a worker thread. A picture is drawn in its
reader's language (``language``), and the lines that go with it are catalogue messages
(`bot.i18n`), worded by the transport in its reader's language."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable

import discord

from engine import get_variant

from ..i18n import SOURCE, Text, _
from ..pictures import SIZE, picture_options, side_name, variant_name
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
                  show_last: bool = True, language: str = SOURCE) -> discord.File | None:
    """The board of ``game`` now as an attachment (None without a renderer), with every
    step of the last turn marked, its words in ``language``."""
    position, options = await picture_options(
        service, game, perspective=perspective, highlights=highlights, selected=selected,
        show_last=show_last, theme=await theme_of(service, game), language=language)
    png = await asyncio.to_thread(_render, position, **options)
    if png is None:
        return None
    return discord.File(io.BytesIO(png), filename=f"game-{game.id}-{game.ply}.png")


def status_line(service: GameService, game: Game, mentions: tuple[str, str]) -> Text:
    """Whose turn it is (with a mention) and until when, or how the game ended."""
    variant = get_variant(game.variant)
    if game.is_over:
        return _("Game over: {result}.", result=service.describe_result(game))
    side = game.to_move
    mover, named = mentions[side], side_name(variant, side)
    if game.clock.paused:
        return _("{mover} ({side}) to move (clock paused: vacation).", mover=mover, side=named)
    if game.clock.deadline is not None:
        t = int(game.clock.deadline)
        moment, remaining = f"<t:{t}:f>", f"<t:{t}:R>"  # Discord shows both in local time
        return _("{mover} ({side}) to move, by {moment} ({remaining}).", mover=mover,
                 side=named, moment=moment, remaining=remaining)
    return _("{mover} ({side}) to move.", mover=mover, side=named)


def header(game: Game) -> Text:
    """The game's number, players with their sides, and variant."""
    variant = get_variant(game.variant)
    return _("Game #{game}: {first} ({first_side}) vs {second} ({second_side}), {variant}",
             game=game.id, first=game.names[0], first_side=side_name(variant, 0),
             second=game.names[1], second_side=side_name(variant, 1),
             variant=variant_name(variant))
