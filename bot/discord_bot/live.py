"""Messages that stay live: the latest board of a game and the offers waiting for an answer.

Only a game's latest board message carries its buttons: posting a new one takes them off
the previous one (one edit). An offer (a draw, a takeback) carries Accept and Decline
buttons where it was made and in the opponent's DM; once it is answered, accepted, declined
or made moot by a move or the end of the game, each of its messages is edited to say what
happened, without buttons. The ids of these messages are kept by the service, so a restart
in the middle changes nothing. A game's end is announced once: when a command's reply
announced it, the service's notice for the game's thread is not posted again. A game
starts in a thread of its own, opened with its first live board (`open_thread`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from engine import get_variant

from ..i18n import SOURCE, Text, _, joined, message_id, render
from ..service.model import Game, Post
from . import pictures
from .client import message_words, news_words, reader_language
from .languages import channel_language
from .places import TRANSPORT, target_of, thread_place

if TYPE_CHECKING:
    from .client import Bot

log = logging.getLogger(__name__)
BOARD = "board"
END = "end"
OFFER_KINDS = ("draw", "takeback")
# an offer, in a sentence, by kind: whose it is and in which game
WHAT = {"draw": message_id("{name}'s draw offer in game #{game}"),
        "takeback": message_id("{name}'s takeback request in game #{game}")}
# what was done to an offer (the word views.py gives), in a sentence
ANSWERED = {"accepted": message_id("{by} accepted {what}."),
            "declined": message_id("{by} declined {what}.")}
OFFERS_AND_SIDES = tuple((kind, side) for kind in OFFER_KINDS for side in (0, 1))


def offer_kind(kind: str, side: int) -> str:
    """The stored kind of an offer message: what is offered and by which side."""
    return f"{kind}-{side}"


def _post(game_id: int, kind: str, message: discord.abc.Snowflake,
          channel_id: int) -> Post:
    return Post(game_id, kind, str(channel_id), str(message.id))


async def edit(bot: Bot, post: Post, **changes: object) -> None:
    """Edit one remembered message (it may be gone or closed: then only log it)."""
    channel = bot.get_partial_messageable(int(post.channel))
    try:
        await channel.get_partial_message(int(post.message)).edit(**changes)  # type: ignore[arg-type]
    except discord.HTTPException:
        log.warning("could not edit message %s in %s", post.message, post.channel)


async def board_posted(bot: Bot, game: Game, message: discord.abc.Snowflake | None,
                       channel_id: int) -> None:
    """``message`` now shows ``game``'s board: the previous board message loses its
    buttons, and this one (if it has buttons, the game going on) is the live one."""
    if message is None:
        return
    previous = await bot.service.posts.remembered(TRANSPORT, game.id, BOARD)
    for post in previous:
        if post.message != str(message.id):
            await edit(bot, post, view=None)
    await bot.service.posts.forget_posts(TRANSPORT, previous)
    if not game.is_over:
        await bot.service.posts.remember_post(TRANSPORT, _post(game.id, BOARD, message, channel_id))


async def offer_posted(bot: Bot, game: Game, kind: str, side: int,
                       message: discord.abc.Snowflake | None, channel_id: int) -> None:
    """``message`` carries the buttons of ``side``'s offer of ``kind`` in ``game``."""
    if message is not None:
        await bot.service.posts.remember_post(
            TRANSPORT, _post(game.id, offer_kind(kind, side), message, channel_id))


async def offer_here(bot: Bot, game: Game, kind: str, side: int) -> bool:
    """Whether the offer already has a message with buttons in the game's thread."""
    thread = target_of(game.place) if game.place else None
    posts = await bot.service.posts.remembered(TRANSPORT, game.id, offer_kind(kind, side))
    return any(p.channel == str(thread) for p in posts)


def outcome(game: Game, kind: str, side: int, answer: str | None, by: str,
            lapse: str | None = None) -> Text:
    """What happened to ``side``'s offer: ``answer`` is accepted / declined (``by`` whom),
    or None when it lapsed: the game ended, ``lapse`` happened, or ``by`` moved instead."""
    what = Text(WHAT[kind], {"name": game.names[side], "game": game.id})
    if answer is not None:
        return Text(ANSWERED.get(answer, "{by} {answer} {what}."),
                    {"by": by, "answer": answer, "what": what})
    if game.is_over:
        return _("{what} lapsed: the game is over.", what=what)
    return _("{what} lapsed: {why}.", what=what,
             why=lapse or _("{name} moved instead", name=by))


async def settle_offers(bot: Bot, game: Game, by: str, answer: str | None = None,
                        answered: tuple[str, int] | None = None, lapse: str | None = None,
                        pressed: discord.Interaction | None = None) -> bool:
    """Edit the messages of every offer that no longer stands in ``game``: they say what
    happened and lose their buttons. The offer ``answered`` (kind, side) was answered
    ``answer`` by ``by``; the others lapsed (``lapse`` says why). ``pressed``: the
    interaction of a button on one of them, answered by that edit. True if it was."""
    edited = False
    for name, side in OFFERS_AND_SIDES:
        standing = game.draw_offer if name == "draw" else game.takeback_offer
        if standing == side and not game.is_over:
            continue
        posts = await bot.service.posts.remembered(TRANSPORT, game.id, offer_kind(name, side))
        if not posts:
            continue
        text = outcome(game, name, side, answer if (name, side) == answered else None, by,
                       lapse)
        for post in posts:  # each in its reader's language: the thread's, or the DM's
            if pressed is not None and not pressed.response.is_done() and (
                    pressed.message is not None and str(pressed.message.id) == post.message):
                await pressed.response.edit_message(
                    content=message_words(text, reader_language(pressed)), view=None)
                edited = True
            else:
                language = await channel_language(bot, int(post.channel))
                await edit(bot, post, content=message_words(text, language), view=None)
        await bot.service.posts.forget_posts(TRANSPORT, posts)
    return edited


async def ending_text(bot: Bot, game: Game, language: str = SOURCE) -> str:
    """The announcement of ``game``'s end, in the third person, with the reason and the
    rating changes: the service's notice for the game's place, in ``language``."""
    for note in await bot.service.pending_notifications(TRANSPORT, 500):
        if note.game_id == game.id and note.kind == "game-over" and note.player_id is None:
            return news_words(note, language)
    return message_words(_("Game #{game} is over: {result}.", game=game.id,
                   result=bot.service.describe_result(game)), language)


async def ending_announced(bot: Bot, game: Game,
                           message: discord.abc.Snowflake | None, channel_id: int) -> None:
    """A reply in ``channel_id`` announced ``game``'s end (the thread's notice is not
    posted again)."""
    if message is not None:
        await bot.service.posts.remember_post(TRANSPORT, _post(game.id, END, message, channel_id))


async def end_said_in(bot: Bot, game_id: int, place: str | None) -> bool:
    """Whether a reply already announced the game's end in ``place``."""
    target = target_of(place) if place else None
    said = await bot.service.posts.remembered(TRANSPORT, game_id, END)
    return any(p.channel == str(target) for p in said)


async def retire_board(bot: Bot, game: Game) -> None:
    """Take the buttons off the game's live board (the game is over)."""
    previous = await bot.service.posts.remembered(TRANSPORT, game.id, BOARD)
    for post in previous:
        await edit(bot, post, view=None)
    await bot.service.posts.forget_posts(TRANSPORT, previous)


def offer_text(game: Game, kind: str, side: int, opponent: str) -> Text:
    """The message of an offer, with what the opponent may do about it (an opponent on
    another transport is asked there)."""
    said = (_("{name} offers a draw in game #{game}.", name=game.names[side], game=game.id)
            if kind == "draw" else
            _("{name} asks to take back their last turn in game #{game}.",
              name=game.names[side], game=game.id))
    if game.transports[1 - side] != TRANSPORT:
        return joined([said, _("{name} is asked by {transport}.", name=opponent,
                               transport=by_transport(game.transports[1 - side]))])
    command, decline = f"`/{kind}`", f"`/{kind} decline:True`"
    return joined([said, _("{name}: accept or decline with the buttons, or {command} "
                           "({decline}).", name=opponent, command=command, decline=decline)])


def by_transport(transport: str) -> str:
    """A transport's name in a sentence: ``by e-mail``."""
    return _("e-mail") if transport == "email" else transport


def game_thread(channel: discord.TextChannel, game_id: int) -> discord.Thread | None:
    """The thread of game ``game_id`` in ``channel``, if one was opened: its name starts
    with the game's number (the bot's own threads only)."""
    me = channel.guild.me
    for thread in channel.threads:
        if thread.name.startswith(f"#{game_id} ") and (me is None or thread.owner_id == me.id):
            return thread
    return None


async def open_thread(bot: Bot, game: Game) -> discord.Thread | None:
    """Start the game's thread in its channel, move the game there, show the board (None:
    there is no text channel, or Discord refused the thread). A thread opened for the game
    before the process died there, before the game was moved into it, is used, not
    opened again: creating the thread and moving the game are two steps, and only the
    second is the service's."""
    channel_id = target_of(game.place)
    channel = bot.get_channel(channel_id) if channel_id else None
    if not isinstance(channel, discord.TextChannel):
        log.warning("game #%s: no text channel for %s", game.id, game.place)
        return None
    thread = game_thread(channel, game.id)  # opened before the process died: not again
    if thread is None:
        variant = get_variant(game.variant)
        name = render(_("#{game} {first} vs {second} ({variant})", game=game.id,
                        first=game.names[0], second=game.names[1],
                        variant=variant.display_name), await channel_language(bot, channel.id))
        try:
            thread = await channel.create_thread(name=name[:100],
                                                 type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
        except discord.HTTPException:
            log.exception("cannot open a thread for game #%s", game.id)
            return None
    moved = await bot.service.rooms.relocate(game.id, thread_place(channel.id, thread.id))
    await _open_with_board(bot, moved or game, thread)
    return thread


async def _open_with_board(bot: Bot, game: Game, thread: discord.abc.Messageable) -> None:
    """The first post of a game's thread: the board, and how to play."""
    language = await channel_language(bot, getattr(thread, "id", 0))
    sent = await thread.send(**await bot.board_message(  # type: ignore[arg-type]
        game, _("{header}. Type your moves here, or use `/move`.",
                header=pictures.header(game)), language=language))
    await bot.board_sent(game, sent, getattr(thread, "id", 0))


async def finish_thread(bot: Bot, game: Game) -> None:
    """A game moved into its thread by a process that died before showing the board there:
    the board is shown now, unless the game has a live board or a move already."""
    thread = target_of(game.place)
    if (game.is_over or game.ply > 0 or thread is None
            or await bot.service.posts.remembered(TRANSPORT, game.id, BOARD)):
        return
    await _open_with_board(bot, game, bot.get_partial_messageable(thread))
