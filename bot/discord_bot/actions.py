"""What the bot says after a game action carried out by a slash command or a button:
an offer made (one message with Accept and Decline buttons), an offer answered (its
messages edited to say so, without buttons; a button pressed on one of them is answered by
that edit), a takeback (the board as it is again), the end of a game (announced once, in
the third person, with the final board)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.utils import MISSING

from ..service.model import Player
from ..service.results import Done
from . import live
from .places import TRANSPORT
from .views import offer_view

if TYPE_CHECKING:
    from .client import Bot

# service action -> (what is offered, how the opponent's offer is answered)
OFFERS = {"offer_draw": "draw", "request_takeback": "takeback"}
ANSWERS = {"accept_draw": "accepted", "decline_draw": "declined",
           "offer_draw": "accepted",  # offering back a draw accepts the standing one
           "accept_takeback": "accepted", "decline_takeback": "declined"}


async def acted(bot: Bot, interaction: discord.Interaction, sender: Player,
                action: str, result: Done, pressed: bool = False) -> None:
    """Answer ``interaction`` after ``action`` was carried out (``pressed``: by a button
    of the message the interaction came from)."""
    game = result.game
    assert game is not None
    side = game.side_of(sender.id)
    assert side is not None
    kind = OFFERS.get(action)
    if kind is not None and not game.is_over:
        opponent = (await bot.mentions(game, "offer"))[1 - side]
        by_discord = game.transports[1 - side] == TRANSPORT
        sent = await bot.reply(interaction, content=live.offer_text(game, kind, side, opponent),
                               view=offer_view(game.id, kind) if by_discord else MISSING)
        await live.offer_posted(bot, game, kind, side, sent, interaction.channel_id or 0)
        await bot.flush()
        return
    answer = ANSWERS.get(action)
    answered = ("takeback" if "takeback" in action else "draw", 1 - side)
    said = live.outcome(game, *answered, answer, sender.display_name) if answer else ""
    lapse = "the last turn was taken back" if action == "accept_takeback" else None
    edited = await live.settle_offers(bot, game, sender.display_name, answer, answered, lapse,
                                      pressed=interaction if pressed else None)
    if game.is_over or action == "accept_takeback":
        await bot.send_board(interaction, game, "" if game.is_over else said)
    elif not edited:
        await bot.reply(interaction, content=said or result.words(TRANSPORT))
    await bot.flush()
