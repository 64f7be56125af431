"""Whose language a Discord message is worded in.

- An answer to a command or a button: its user's, as Discord says it (the client's
  locale, else the server's: `client.reader_language`).
- A DM (news, a confirmation, a watcher's copy): its reader's, the language the player
  chose (the preference `bot.i18n.LANGUAGE`, which the console and mail share), else
  English. Discord tells a bot a user's locale only with their interactions, so a player
  who wants their DMs in Vietnamese chooses it once (`/settings language:`).
- A post in a server's channel or a game's thread, which answers nobody in particular
  (a move's news, the end of a game, an offer, a thread's opening): the server's language,
  which its admins set (`/server settings language:`), else the server's own Discord
  locale (a Community server's primary language), else English.

Only shipped languages are chosen (`bot.i18n.choose`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from .. import i18n
from ..i18n import LANGUAGE
from ..service.model import Player
from .places import TRANSPORT, server_key, target_of

if TYPE_CHECKING:
    from .client import Bot

SERVER_LANGUAGE = "language"  # the server setting: the language of its posts


def language_choices() -> list[app_commands.Choice[str]]:
    """The languages a setting may name, each by its name in itself (``Tiếng Việt``):
    English and each language with a catalogue (one not offered yet is refused when
    chosen, saying so)."""
    codes = [i18n.SOURCE, *sorted(p.name for p in i18n.LOCALES.iterdir() if p.is_dir())]
    return [app_commands.Choice(name=i18n.display_name(code) or code, value=code)
            for code in codes]


def player_language(player: Player | None) -> str:
    """The language ``player`` chose, else English."""
    chosen = player.preferences.get(LANGUAGE) if player is not None else None
    return i18n.choose(chosen if isinstance(chosen, str) else None)


async def server_language(bot: Bot, guild: discord.Guild | None) -> str:
    """The language of ``guild``'s posts: its admins' setting, else its Discord locale."""
    if guild is None:
        return i18n.SOURCE
    chosen = (await bot.service.rooms.server_settings(server_key(guild.id))).get(
        SERVER_LANGUAGE)
    locale = getattr(guild, "preferred_locale", None)
    return i18n.choose(chosen if isinstance(chosen, str) else None,
                       str(locale.value if isinstance(locale, discord.Locale) else locale or ""))


async def place_language(bot: Bot, place: str | None) -> str:
    """The language of a post in ``place``: a server's channel or thread, its server's;
    a DM channel, its reader's."""
    return await channel_language(bot, target_of(place) or 0 if place else 0)


async def channel_language(bot: Bot, channel_id: int) -> str:
    """The language of a post in a channel, a thread or a DM channel (`place_language`)."""
    channel = bot.get_channel(channel_id)
    if isinstance(channel, discord.DMChannel):
        recipient = channel.recipient
        player = await bot.service.find_player(TRANSPORT, str(recipient.id)) \
            if recipient is not None else None
        return player_language(player if isinstance(player, Player) else None)
    return await server_language(bot, getattr(channel, "guild", None))
