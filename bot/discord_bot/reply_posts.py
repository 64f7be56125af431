"""The posts a command's reply makes in a game's thread or a channel, made by delivery
instead when the reply died with the process (`owing` records them, held, with the change;
the reply settles them). Each is posted only if it still says something true and new: a
later reply, the game's end notice, or an answer to the challenge said it otherwise."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from engine import get_variant

from ..i18n import SOURCE, _
from ..service.model import Challenge, Notification
from ..service.turns import turn_entries
from . import live
from .client import message_words
from .languages import channel_language
from .owing import BOARD_POST, CHALLENGE_POST, GAME_THREAD
from .places import TRANSPORT, target_of
from .views import challenge_view

if TYPE_CHECKING:
    from .client import Bot

Post = Callable[..., Awaitable[discord.Message | None]]


async def post_for_reply(bot: Bot, n: Notification, post: Post) -> None:
    """Make the post of ``n`` (one of `REPLY_POSTS`) with ``post`` (place, text, view,
    file), if it is still due."""
    await REPLY_POSTS[n.kind](bot, n, post)


async def _language(bot: Bot, n: Notification) -> str:
    """The language of a post in ``n``'s place: its server's (`channel_language`)."""
    target = target_of(n.place or "")
    return await channel_language(bot, target) if target is not None else SOURCE


async def _board(bot: Bot, n: Notification, post: Post) -> None:
    """The board after a move, the opponent mentioned; not when the game changed since
    the move, or ended (its end notice shows the final board)."""
    game = await bot.service.game(n.game_id) if n.game_id is not None else None
    mover = game.side_of(n.payload.get("mover", 0)) if game is not None else None
    if (game is None or mover is None or game.is_over or game.to_move == mover
            or game.updated_at > n.created_at):
        return
    # the turn as the move list and the record write it: numbered, one entry
    entries = turn_entries(game, await bot.service.played_moves(game.id))
    turn = entries[-1].line if entries else ""
    message: dict[str, Any] = await bot.board_message(
        game, _("{name} played **{turn}** in game #{game}.", name=game.names[mover], turn=turn,
                game=game.id), language=await _language(bot, n))
    sent = await post(n.place, message["content"], message.get("view"), message.get("file"))
    if sent is not None:
        await bot.board_sent(game, sent, sent.channel.id)


async def _game_thread(bot: Bot, n: Notification, post: Post) -> None:
    """The thread of a game started by an acceptance (the challenge's game) or a challenge
    to the computer (the challenger's latest game here), opened with the board; not when
    the game is over. A game in its thread already gets only the board there, if it has
    none yet (the process died between the two)."""
    number = n.payload.get("challenge")
    challenge = await bot.service.challenges.get_challenge(int(number)) if number else None
    here = [g for g in await bot.service.rooms.games_within(n.place or "")
            if (g.id == challenge.game_id if isinstance(challenge, Challenge)
                else n.payload.get("challenger") in g.players and g.created_at <= n.created_at)]
    if not here:
        return
    game = max(here, key=lambda g: g.id)
    if game.place == n.place:
        await live.open_thread(bot, game)
    else:
        await live.finish_thread(bot, game)


async def _challenge(bot: Bot, n: Notification, post: Post) -> None:
    """A challenge's announcement with its buttons, while it is open."""
    # the challenger's latest open one here made by then: the one the reply announces
    found = [c for c in await bot.service.challenges.pending(place=n.place)
             if c.challenger_id == n.payload.get("challenger") and c.created_at <= n.created_at]
    if not found or target_of(n.place or "") is None:
        return
    c = max(found, key=lambda c: c.id)
    opponent = await bot.service.get_player(c.opponent_id) if c.opponent_id else None
    who = (_("anyone here") if opponent is None else f"<@{opponent.address}>"
           if opponent.transport == TRANSPORT else opponent.display_name)
    language = await _language(bot, n)
    text = _("{name} challenges {who} to {variant} (challenge #{number}): press Accept, or "
             "`/accept challenge:{number}`.", name=c.challenger_name, who=who,
             variant=get_variant(c.variant).display_name, number=c.id)
    await post(n.place, message_words(text, language), challenge_view(c.id, language))


REPLY_POSTS = {BOARD_POST: _board, GAME_THREAD: _game_thread, CHALLENGE_POST: _challenge}
