"""No interaction is left "thinking…": whatever fails in a slash command or a button, the
member is answered (only they see it) with what went wrong, and the error is logged; a
storage fault in the words every transport uses. A reply Discord refused, or that timed out
without reaching it, is ended in words (`finish`), once (`answer_landed`, `reply_landed`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from ..i18n import _, render
from ..service.results import storage_words
from ..storage import StorageError
from .client import reader_language

log = logging.getLogger(__name__)
Item = TypeVar("Item")


def words_for(error: BaseException) -> str:
    """What the member is told about ``error`` (the cause, when discord.py wrapped it)."""
    cause = getattr(error, "original", error)
    if isinstance(cause, StorageError):
        return storage_words(cause)
    if isinstance(error, app_commands.CheckFailure):
        return _("You may not use this command here.")
    if isinstance(cause, discord.Forbidden):
        return _("Discord refused me here ({status} {error}): I lack a permission in this "
                 "channel. Ask a server admin to run `/server check`.", status=cause.status,
                 error=cause.text)
    return _("Something went wrong on my side and the command did not finish. Whatever it had "
             "stored is kept; look with `/games` before trying again.")


async def tell_member(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer the interaction (or follow up on it) with `words_for` ``error``."""
    what = getattr(interaction.command, "qualified_name", None) or "a button"
    cause = getattr(error, "original", error)
    if isinstance(cause, StorageError):  # the storage's own log has the details
        log.error("%s not carried out: %s", what, cause)
    else:
        log.error("%s failed", what, exc_info=cause)
    text = render(words_for(error), reader_language(interaction))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the member that %s failed", what)


def advice(error: discord.HTTPException | TimeoutError, *, board: bool = False) -> str:
    """What to do about a reply that failed: a refusal (403: a missing permission) is for
    a server admin; a rate limit, a server error or no answer in time passes by itself
    (``board``: said of a board that could not be shown)."""
    if isinstance(error, discord.Forbidden):
        return (_("A server admin can run `/server check`.") if board
                else _("Ask a server admin to run `/server check`."))
    return (_("Discord is busy: `/board` shows it in a moment.") if board
            else _("Discord is busy; nothing is lost, and `/board` shows the game."))


def why_not(error: discord.HTTPException | TimeoutError) -> str:
    """Why a reply did not reach Discord, in a sentence's parentheses."""
    if isinstance(error, discord.HTTPException):  # its text may end a sentence already
        detail = error.text.rstrip(". ")
        if not detail:
            return _("Discord refused: {status}", status=error.status)
        return _("Discord refused: {status} {error}", status=error.status, error=detail)
    return _("Discord did not answer in time")


async def answer_landed(interaction: discord.Interaction) -> discord.Message | None:
    """After a reply that failed (a timeout, a 5xx after retries): the answer, if it
    reached Discord after all (its original is no longer "thinking…"), so that it is not
    answered twice."""
    if not interaction.response.is_done():
        return None
    try:
        original = await interaction.original_response()
    except (discord.HTTPException, TimeoutError):
        return None  # unknown: answered again rather than left thinking
    return None if original.flags.loading else original


async def reply_landed(message: discord.Message,
                       me: discord.abc.Snowflake | None) -> discord.Message | None:
    """After a reply to ``message`` that timed out: that reply, if it reached Discord after
    all (``me``'s message answering it, in its channel since), so that it is not answered
    twice."""
    try:
        async for later in message.channel.history(limit=20, after=message):
            if (later.reference is not None and later.reference.message_id == message.id
                    and me is not None and later.author.id == me.id):
                return later
    except (discord.HTTPException, TimeoutError):
        return None  # unknown: answered again rather than not at all
    return None


async def finish(interaction: discord.Interaction, text: str) -> bool:
    """End an interaction whose answer Discord refused with ``text`` alone (a plain message
    goes where a board did not): public, as its deferral was. Whether Discord took it."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text)
        else:
            await interaction.response.send_message(text)
    except (discord.HTTPException, TimeoutError) as error:
        log.warning("could not finish the interaction either: %s", error)
        return False
    return True


def answering_failures(
        callback: Callable[[Item, discord.Interaction], Awaitable[Any]],
) -> Callable[[Item, discord.Interaction], Awaitable[None]]:
    """A button's callback that answers the member when it fails (then fails as before,
    so the error is still reported)."""
    @functools.wraps(callback)
    async def run(item: Item, interaction: discord.Interaction) -> None:
        try:
            await callback(item, interaction)
        except Exception as error:
            await tell_member(interaction, error)
            raise

    return run
