"""What the bot may do in a channel: the permissions a game needs there, checked before a
game starts (so a server that denies one is told which, instead of games that start and
then go silent), and listed for admins by `/server check`; and what a member may do: a
server admin (who may manage the server, the permission `/server` asks for) rules on
games and directs the server's tournaments."""

from __future__ import annotations

import discord

from ..i18n import Text, _, _n, joined, message_id

# the permissions a game's channel needs, with the names Discord's settings show (in the
# reader's language, as Discord shows them to a client in that language)
NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", message_id("View Channel")),
    ("send_messages", message_id("Send Messages")),
    ("send_messages_in_threads", message_id("Send Messages in Threads")),
    ("create_public_threads", message_id("Create Public Threads")),
    ("attach_files", message_id("Attach Files")),
    ("embed_links", message_id("Embed Links")),
)


def missing_in(channel: discord.abc.GuildChannel) -> list[str]:
    """The names of the permissions a game needs that the bot lacks in ``channel``."""
    me = channel.guild.me
    if me is None:
        return []  # the guild is not cached yet: nothing to judge by
    allowed = channel.permissions_for(me)
    return [name for flag, name in NEEDED if not getattr(allowed, flag)]


def named(names: list[str]) -> Text:
    """Permissions by their names, in a list (each in the reader's language)."""
    return joined([Text(name, {}) for name in names], ", ")


def refusal(channel: discord.abc.GuildChannel, missing: list[str]) -> Text:
    """The message to the member whose action would start a game where it cannot run."""
    return _n("I cannot run games in {channel}: I lack the permission {permissions} there. "
              "Ask a server admin to grant it to me ({check} shows what I may do in each "
              "channel).",
              "I cannot run games in {channel}: I lack the permissions {permissions} there. "
              "Ask a server admin to grant them to me ({check} shows what I may do in each "
              "channel).", len(missing), channel=channel.mention, permissions=named(missing),
              check="`/server check`")


def report(channel: discord.abc.GuildChannel) -> Text:
    """One line of `/server check`: what the bot may and may not do in ``channel``."""
    missing = missing_in(channel)
    if not missing:
        return _("{channel}: ready for games (every permission a game needs).",
                 channel=channel.mention)
    granted = [name for _flag, name in NEEDED if name not in missing]
    if granted:
        return _("{channel}: cannot run games; missing {missing} (has {granted}).",
                 channel=channel.mention, missing=named(missing), granted=named(granted))
    return _("{channel}: cannot run games; missing {missing}.", channel=channel.mention,
             missing=named(missing))


def may_manage(interaction: discord.Interaction) -> bool:
    """Whether the member of ``interaction`` may manage the server (`/server`'s permission:
    its settings, its rulings, directing its tournaments)."""
    allowed = getattr(interaction, "permissions", None)
    return bool(allowed and allowed.manage_guild)
