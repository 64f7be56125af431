"""What the bot may do in a channel: the permissions a game needs there, checked before a
game starts (so a server that denies one is told which, instead of games that start and
then go silent), and listed for admins by `/server check`."""

from __future__ import annotations

import discord

# the permissions a game's channel needs, with the names Discord's settings show
NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("send_messages_in_threads", "Send Messages in Threads"),
    ("create_public_threads", "Create Public Threads"),
    ("attach_files", "Attach Files"),
    ("embed_links", "Embed Links"),
)


def missing_in(channel: discord.abc.GuildChannel) -> list[str]:
    """The names of the permissions a game needs that the bot lacks in ``channel``."""
    me = channel.guild.me
    if me is None:
        return []  # the guild is not cached yet: nothing to judge by
    allowed = channel.permissions_for(me)
    return [name for flag, name in NEEDED if not getattr(allowed, flag)]


def refusal(channel: discord.abc.GuildChannel, missing: list[str]) -> str:
    """The message to the member whose action would start a game where it cannot run."""
    return (f"I cannot run games in {channel.mention}: I lack the permission"
            f"{'s' if len(missing) > 1 else ''} {', '.join(missing)} there. Ask a server "
            f"admin to grant {'them' if len(missing) > 1 else 'it'} to me (`/server check` "
            f"shows what I may do in each channel).")


def report(channel: discord.abc.GuildChannel) -> str:
    """One line of `/server check`: what the bot may and may not do in ``channel``."""
    missing = missing_in(channel)
    if not missing:
        return f"{channel.mention}: ready for games (every permission a game needs)."
    granted = [name for _, name in NEEDED if name not in missing]
    return (f"{channel.mention}: cannot run games; missing {', '.join(missing)}"
            + (f" (has {', '.join(granted)})." if granted else "."))
