"""Buttons on game and challenge messages. Each is a `discord.ui.DynamicItem` whose custom id
carries the action and the game id (``cp:ACTION:GAME[:ARG]``) or the challenge id
(``cp-challenge:ACTION:CHALLENGE``), so buttons sent before a restart keep working after
it.

What the bot says after a game action carried out by a slash command or a button
(`acted`): an offer made (one message with Accept and Decline buttons), an offer answered
(its messages edited to say so, without buttons; a button pressed on one of them is answered
by that edit), a takeback (the board as it is again), the end of a game (announced once, in
the third person, with the final board). It lives beside the buttons: an offer's buttons
answer through it, and it sends them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.utils import MISSING

from engine import get_variant

from ..i18n import SOURCE, Text, _, message_id, render
from ..service.model import Game, Player
from ..service.results import Done, Refusal
from . import live, logs, pictures
from .client import Playing, literal, message_words, reader_language
from .failures import answering_failures
from .owing import deed_of, owing
from .pickers import show_pieces
from .places import TRANSPORT

if TYPE_CHECKING:
    from .client import Bot

log = logging.getLogger(__name__)

# action -> (label, style)
ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "moves": (message_id("Legal moves"), discord.ButtonStyle.secondary),
    "flip": (message_id("Flip board"), discord.ButtonStyle.secondary),
    "draw": (message_id("Offer draw"), discord.ButtonStyle.secondary),
    "resign": (message_id("Resign"), discord.ButtonStyle.danger),
    "accept-draw": (message_id("Accept draw"), discord.ButtonStyle.success),
    "decline-draw": (message_id("Decline draw"), discord.ButtonStyle.secondary),
    "accept-takeback": (message_id("Accept takeback"), discord.ButtonStyle.success),
    "decline-takeback": (message_id("Decline takeback"), discord.ButtonStyle.secondary),
}


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"cp:(?P<action>[a-z-]+):(?P<game>\d+)(?::(?P<arg>\d+))?"):
    """One action on one game."""

    def __init__(self, action: str, game_id: int, arg: int = 0,
                 language: str = SOURCE) -> None:
        label, style = ACTIONS[action]
        custom_id = f"cp:{action}:{game_id}" + (f":{arg}" if action == "flip" else "")
        super().__init__(discord.ui.Button(label=Text(label, {}).render(language), style=style,
                                           custom_id=custom_id))
        self.action, self.game_id, self.arg = action, game_id, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: Any) -> GameButton:
        if match["action"] not in ACTIONS:
            raise ValueError(f"unknown action {match['action']!r}")
        return cls(match["action"], int(match["game"]), int(match["arg"] or 0))

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        logs.set_context(game_id=self.game_id)
        sender = await bot.player_of(interaction.user)
        service = bot.service
        game = await service.game(self.game_id)
        if game is None:
            await bot.answer(interaction, _("There is no game #{game}.", game=self.game_id))
            return
        if self.action == "flip":
            await interaction.response.defer(ephemeral=True, thinking=True)
            side = 1 - self.arg
            language = reader_language(interaction)
            picture = await pictures.picture(service, game, perspective=side, language=language)
            await interaction.followup.send(
                message_words(_("{header}, seen from {name}'s side.",
                                header=pictures.header(game), name=game.names[side]), language),
                file=picture or discord.utils.MISSING, ephemeral=True,
                view=flip_view(game, side, language))
            return
        if self.action == "moves":
            await show_pieces(bot, interaction, game)
            return
        action = {
            "resign": "resign", "draw": "offer_draw",
            "accept-draw": "accept_draw", "decline-draw": "decline_draw",
            "accept-takeback": "accept_takeback", "decline-takeback": "decline_takeback",
        }[self.action]
        async with owing(bot, sender, interaction.channel, deed_of(game, sender, action),
                         game.id):
            result = await getattr(service, action)(sender, game.id)
            if isinstance(result, Refusal):
                await bot.answer(interaction, result)
                return
            await acted(bot, interaction, sender, action, result,
                        pressed=self.action.startswith(("accept-", "decline-")))


def game_view(game: Game, perspective: int = 0, language: str = SOURCE) -> discord.ui.View:
    """The buttons of a game in progress (Flip board shows the side opposite
    ``perspective``, the side the picture is seen from; no Offer draw where the variant
    has no draws by agreement), labelled in ``language``."""
    view = discord.ui.View(timeout=None)
    draws = get_variant(game.variant).draw_by_agreement
    for action in ("moves", "flip", "draw", "resign") if draws else ("moves", "flip", "resign"):
        view.add_item(GameButton(action, game.id, perspective if action == "flip" else 0,
                                 language))
    return view


def with_watch_link(view: discord.ui.View | None, link: str | None,
                    language: str = SOURCE) -> discord.ui.View | None:
    """``view`` (a new one if None) with a button opening the game's web page; ``view``
    itself when there is no page to open."""
    if not link:
        return view
    view = view or discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=render(_("Watch in a browser"), language), url=link))
    return view


def offer_view(game_id: int, kind: str, language: str = SOURCE) -> discord.ui.View:
    """Accept and decline buttons for a draw offer or a takeback request."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(f"accept-{kind}", game_id, language=language))
    view.add_item(GameButton(f"decline-{kind}", game_id, language=language))
    return view


def flip_view(game: Game, side: int, language: str = SOURCE) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton("flip", game.id, side, language))
    return view


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"cp-challenge:(?P<action>accept|decline):(?P<challenge>\d+)"):
    """Accept or decline one challenge."""

    def __init__(self, action: str, challenge_id: int, language: str = SOURCE) -> None:
        label, style = ((_("Accept"), discord.ButtonStyle.success) if action == "accept"
                        else (_("Decline"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label.render(language), style=style,
                                           custom_id=f"cp-challenge:{action}:{challenge_id}"))
        self.action, self.challenge_id = action, challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: Any) -> ChallengeButton:
        return cls(match["action"], int(match["challenge"]))

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        sender = await bot.player_of(interaction.user)
        if self.action == "accept":
            cog = bot.get_cog("Playing")
            assert isinstance(cog, Playing)
            if await cog.accept_challenge(interaction, sender, self.challenge_id):
                await _close_buttons(interaction)
            return
        async with owing(bot, sender, interaction.channel, "decline",
                         challenge_id=self.challenge_id):
            result = await bot.service.challenges.decline(sender, self.challenge_id)
            await bot.answer(interaction, result, public=True)
        if not isinstance(result, Refusal):
            await _close_buttons(interaction)
        await bot.flush()


async def _close_buttons(interaction: discord.Interaction) -> None:
    """Take the buttons off an answered challenge's message."""
    if interaction.message is None:
        return
    try:
        await interaction.message.edit(view=None)
    except discord.HTTPException:
        log.warning("could not take the buttons off message %s", interaction.message.id)


def challenge_view(challenge_id: int, language: str = SOURCE) -> discord.ui.View:
    """Accept and decline buttons for a challenge, labelled in ``language``."""
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton("accept", challenge_id, language))
    view.add_item(ChallengeButton("decline", challenge_id, language))
    return view


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
                               view=offer_view(game.id, kind, reader_language(interaction))
                               if by_discord else MISSING)
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
        await bot.reply(interaction, content=message_words(said, reader_language(interaction))
                        or result.words(TRANSPORT, reader_language(interaction), literal))
    await bot.flush()
