"""Game pictures and the messages that carry them: the board (with the last move, or a
piece's legal destinations), who is to move with a mention, the deadline as a Discord
timestamp. Rendering is CPU work and runs in a worker thread."""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from engine import get_variant

from ..model import Game
from ..service import GameService

log = logging.getLogger(__name__)
SIZE = 640  # one size, so the renderer's caches stay warm


def _render(position: object, **options: object) -> bytes | None:
    try:
        from renderer import render
    except ImportError:
        return None
    try:
        return render(position, size=SIZE, **options)  # type: ignore[arg-type]
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
    variant = get_variant(game.variant)
    position = await service.position(game)
    last = await service.turn_moves(game) if show_last else None
    result = service.describe_result(game) if game.is_over else ""
    png = await asyncio.to_thread(
        _render, position, variant=variant, perspective=perspective, last_move=last,
        highlights=highlights, selected=selected, result=result,
        caption=f"#{game.id} {game.names[0]} vs {game.names[1]}")
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
