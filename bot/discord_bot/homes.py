"""A home for a game made away from any server channel.

A game challenged in a DM (between Discord players, or against the computer) gets a
thread all the same: in the channel where one of its Discord players last played, else
in the game channel a server's admins set (`/server settings channel:`). The channel must
be on a server where each Discord player of the game is a member (so both can open the
thread) and where the bot has every permission a game needs; the game of the player who
challenged is looked at first. With no such channel the game stays in DMs, as before.

A game started by e-mail is private (docs/playing.md, "By e-mail"), so it never gets a
thread: the Discord player's DMs are its home.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from ..service.model import Game
from . import live, permissions
from .places import TRANSPORT, channel_of, channel_place, is_discord_place, target_of

if TYPE_CHECKING:
    from .client import Bot

log = logging.getLogger(__name__)
MOST_TRIED = 20  # channels looked at for one game (each may ask Discord for a member)


async def open_home(bot: Bot, game: Game, first: int | None = None) -> discord.Thread | None:
    """Open ``game``'s thread (`live.open_thread`): in its channel, or, for a game made in
    a DM, in the channel `home_channel` finds, where the game is moved first. ``first``: the
    player whose places are looked at first (who made the challenge)."""
    channel = bot.get_channel(target_of(game.place) or 0)
    if not isinstance(channel, discord.TextChannel):
        home = await home_channel(bot, game, first)
        if home is None:
            return None
        game = await bot.service.rooms.relocate(game.id, channel_place(home.id)) or game
    return await live.open_thread(bot, game)


async def home_channel(bot: Bot, game: Game, first: int | None = None,
                       ) -> discord.TextChannel | None:
    """Where a game made in a DM gets its thread (None: nowhere; it stays in DMs)."""
    if not is_discord_place(game.place) or TRANSPORT not in game.transports:
        return None
    players = [p for p, t in zip(game.players, game.transports, strict=True) if t == TRANSPORT]
    players.sort(key=lambda p: p != first)
    users = []
    for player_id in players:
        player = await bot.service.get_player(player_id)
        if player is not None:
            users.append(int(player.address))
    tried: set[int] = set()
    for player_id in players:
        for place in await bot.service.rooms.recent_places(player_id, f"{TRANSPORT}:"):
            channel = bot.get_channel(target_of(place) or 0)
            if channel is None:
                continue
            home = bot.get_channel(channel_of(channel))
            if isinstance(home, discord.TextChannel) and home.id not in tried:
                tried.add(home.id)
                if await _fits(home, users):
                    return home
    for settings in (await bot.service.rooms.all_server_settings()).values():
        if len(tried) >= MOST_TRIED:
            break
        home = bot.get_channel(int(settings["channel"])) if settings.get("channel") else None
        if isinstance(home, discord.TextChannel) and home.id not in tried:
            tried.add(home.id)
            if await _fits(home, users):
                return home
    return None


async def _fits(channel: discord.TextChannel, users: list[int]) -> bool:
    """Whether each of ``users`` is a member of the channel's server who can see it, and
    the bot may run games in it."""
    if permissions.missing_in(channel):
        return False
    for user_id in users:
        member = channel.guild.get_member(user_id)
        if member is None:
            try:
                member = await channel.guild.fetch_member(user_id)
            except discord.HTTPException:
                return False
        if not channel.permissions_for(member).view_channel:
            return False
    return True
