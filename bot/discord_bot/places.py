"""Places of the Discord transport: a channel is ``discord:CHANNEL``, a game's thread is a
room below it, ``discord:CHANNEL/THREAD``."""

from __future__ import annotations

import discord

TRANSPORT = "discord"


def channel_place(channel_id: int) -> str:
    return f"{TRANSPORT}:{channel_id}"


def thread_place(channel_id: int, thread_id: int) -> str:
    return f"{TRANSPORT}:{channel_id}/{thread_id}"


def place_of(channel: object) -> str:
    """Where a message or command in ``channel`` happens."""
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return thread_place(channel.parent_id, channel.id)
    return channel_place(getattr(channel, "id", 0))


def channel_of(channel: object) -> int:
    """The channel whose games ``channel`` lists (a thread's parent)."""
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id
    return getattr(channel, "id", 0)


def target_of(place: str) -> int | None:
    """The Discord channel or thread id a place is delivered to."""
    where = place.partition(":")[2].rsplit("/", 1)[-1]
    return int(where) if where.isdigit() else None


def is_discord_place(place: str | None) -> bool:
    """Whether ``place`` is a Discord channel or thread (not an e-mail list, say)."""
    return bool(place) and place.startswith(f"{TRANSPORT}:") and target_of(place) is not None


def channel_mention(channel_id: int | None) -> str:
    """A channel or thread as Discord shows it in a message: ``<#123>``, a link to it."""
    return f"<#{channel_id}>"


def server_key(guild_id: int) -> str:
    return f"{TRANSPORT}:{guild_id}"
