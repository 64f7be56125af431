"""The answer a Discord command or button owes for the change it makes, recorded with that
change (`bot.service.answers`), the same way for every command that changes a game or a challenge.

A command runs its service call and its reply inside `owing`. The call's transaction
records a held confirmation for the member (by DM, or in the channel if DMs are closed),
worded for what the command did (`DONE`); with it, what the reply posts for others to see
(a move's board in the game's thread with the opponent's mention, an accepted challenge's
thread, a challenge's announcement), made by delivery when the reply died (`reply_posts`).
Then:

- the reply went out: the placeholders are marked answered, nothing more is sent;
- Discord refused the reply (403, 404, ...): the confirmation goes by DM at once, with
  the reason, and the posts for others are made now (a /move or typed move says more
  itself: `PlayCommands._confirm_elsewhere`); the error still reaches the command's error
  handler, which answers the member where Discord lets it;
- anything else, or a process that dies before the reply: the placeholders stay, and are
  delivered once their hold is over, after a restart too. The member gets exactly one
  confirmation, and the opponent the thread's post the reply would have made.

A refused command writes nothing, so it owes nothing recorded: its refusal is the answer.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING

import discord

from ..i18n import Text, _, joined, message_id
from ..service.answers import Owed, owe_answer
from ..service.model import Game, Player
from ..service.outbox import MESSAGE, lane_of
from . import failures
from .places import TRANSPORT, channel_place, is_discord_place, place_of

if TYPE_CHECKING:
    from .client import Bot

log = logging.getLogger(__name__)
CONFIRMATION = "confirmation"
# what a reply posts for others to see, owed with the answer (made by `reply_posts`)
BOARD_POST = "board-post"  # a move's: the board in the game's thread, the opponent mentioned
GAME_THREAD = "game-thread"  # an acceptance's: the game's thread, opened with its board
CHALLENGE_POST = "challenge-post"  # a challenge's: its announcement, with its buttons
RESTARTED = message_id("{done}, but my answer was lost (I was restarted).")
REFUSED = message_id("{done}; I could not answer in {where} (Discord refused: {status} "
                     "{text}). {advice}")
LOOK_AT_GAME = message_id("{command} shows the game now.")
LOOK_AT_GAMES = message_id("{command} lists your games.")  # a game started: no number yet
STARTS_A_GAME = {"accept", "computer"}
# what each command did, as its confirmation says it
DONE = {
    "move": message_id("Your move in game #{game} is played"),
    "end_turn": message_id("Your turn in game #{game} is over"),
    "resign": message_id("You resigned game #{game}"),
    "abort": message_id("You called off game #{game}"),
    "offer_draw": message_id("You offered a draw in game #{game}"),
    "accept_draw": message_id("You accepted the draw in game #{game}"),
    "decline_draw": message_id("You declined the draw offer in game #{game}"),
    "request_takeback": message_id("You asked to take back your last turn in game #{game}"),
    "accept_takeback": message_id("You accepted the takeback in game #{game}"),
    "decline_takeback": message_id("You declined the takeback request in game #{game}"),
    "ruling": message_id("Your ruling on game #{game} is recorded"),
    "challenge": message_id("Your challenge is made"),
    "computer": message_id("Your game against the computer has started"),
    "accept": message_id("You accepted challenge #{challenge}: the game has started"),
    "decline": message_id("You declined challenge #{challenge}"),
    "cancel": message_id("You withdrew challenge #{challenge}"),
}


def done_text(deed: str, game: int | None = None, challenge: int | None = None) -> Text:
    """What the command ``deed`` did, in a sentence (`DONE`)."""
    return Text(DONE[deed], {"game": game, "challenge": challenge})


def confirmation(deed: str, game: int | None = None, challenge: int | None = None) -> Text:
    """The confirmation a member gets when the process died before its reply (a message:
    worded in the member's language when it is delivered)."""
    said = [Text(RESTARTED, {"done": done_text(deed, game, challenge)})]
    if game is not None:
        said.append(Text(LOOK_AT_GAME, {"command": f"`/board game:{game}`"}))
    elif deed in STARTS_A_GAME:
        said.append(Text(LOOK_AT_GAMES, {"command": "`/games`"}))
    return joined(said)


def owed_answer(sender: Player, channel: object, deed: str, game_id: int | None = None,
                challenge_id: int | None = None, post: str | None = None,
                post_in: str | None = None) -> Owed:
    """The confirmation ``deed`` owes ``sender``, by DM (or in the channel: a thread's
    parent, if DMs are closed); with ``post``, the post of that kind its reply makes in
    ``post_in`` (a move's board in the game's thread, ...)."""
    parent = getattr(channel, "parent_id", None)
    place = channel_place(parent) if parent else place_of(channel)
    more = () if post is None or not is_discord_place(post_in) else (
        Owed(TRANSPORT, post, "", None, post_in, lane_of(None, post_in, game_id), game_id,
             {"mover": sender.id, "challenger": sender.id, "challenge": challenge_id}),)
    return Owed(TRANSPORT, CONFIRMATION, confirmation(deed, game_id, challenge_id),
                player_id=sender.id, place=place, game_id=game_id,
                lane=f"player:{sender.id}/{'' if game_id is None else game_id}",
                payload={"dm": True, "or_channel": True, "deed": deed,
                         "challenge": challenge_id}, more=more)


def deed_of(game: Game, sender: Player, action: str) -> str:
    """What a game action does: offering a draw when the opponent has offered one accepts
    it."""
    if action == "offer_draw" and game.draw_offer not in (None, game.side_of(sender.id)):
        return "accept_draw"
    return action


def owing_move(bot: Bot, sender: Player, channel: object, game: Game,
               deed: str = "move") -> AbstractAsyncContextManager[Owed]:
    """`owing` for a move: its confirmation, and the board its reply posts in the game's
    thread (a game played elsewhere, by mail, has none)."""
    return owing(bot, sender, channel, deed, game.id, post=BOARD_POST, post_in=game.place)


@asynccontextmanager
async def owing(bot: Bot, sender: Player, channel: object, deed: str,
                game_id: int | None = None, challenge_id: int | None = None,
                post: str | None = None, post_in: str | None = None) -> AsyncIterator[Owed]:
    """Run a command's service call and reply owing its answer (see the module's text).
    The body may settle the confirmation itself (``owed.settled``)."""
    owed = owed_answer(sender, channel, deed, game_id, challenge_id, post, post_in)
    with owe_answer(owed):
        try:
            yield owed
        except discord.HTTPException as error:
            if owed.row_id is not None and not owed.settled:
                await _refused(bot, owed, channel, error)
            raise  # and the member is answered where Discord lets us (`failures`)
    await bot.service.answered(*[o.row_id for o in (owed, *owed.more)
                                 if o.row_id is not None and not o.settled])


async def _refused(bot: Bot, owed: Owed, channel: object,
                   error: discord.HTTPException) -> None:
    """Discord refused the reply to a command that changed something: the member's
    confirmation goes by DM now, saying why it is not where they asked."""
    assert owed.row_id is not None
    log.warning("the reply to %s failed: %s", owed.payload.get("deed"), error)
    deed = str(owed.payload["deed"])
    text = Text(REFUSED, {"done": done_text(deed, owed.game_id, owed.payload.get("challenge")),
                          "where": getattr(channel, "mention", None) or _("the channel"),
                          "status": error.status, "text": error.text,
                          "advice": failures.advice(error)})
    payload = {**owed.payload, MESSAGE: text.to_json()}  # worded in the member's language
    owed.settled = await bot.service.settle_answer(owed.row_id, text, owed.lane, payload,
                                                   owed.place, owed.game_id)
    for post in owed.more:  # what the reply would have posted in the game's thread: now
        if post.row_id is not None:
            post.settled = await bot.service.settle_answer(
                post.row_id, post.text, post.lane, post.payload, post.place, post.game_id)
