"""Delivery of the service's outbox to Discord: a game's news in its thread (unarchived
when needed), a player's news by DM when they opted in (`/notify`), else in the thread
with a mention; watchers who opted in get a game's news by DM too.

What a command's own reply already says is not repeated: the mover's reply mentions the
player to move, and the reply to /challenge and /accept announces the challenge and the
game. News that came from a player on another transport (an e-mail player's move) had no
such reply: it is posted in the game's thread with the board. A game that lives elsewhere
(started by an e-mail challenge) has no thread: its Discord player gets all its news by DM,
with the board."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from ..model import Notification, Player
from . import logs, pictures
from .pickers import fit
from .places import TRANSPORT, is_discord_place, target_of
from .views import offer_view

if TYPE_CHECKING:
    from .app import CommandPost

log = logging.getLogger(__name__)
DM_PREFERENCE = "discord_dm"
SAID_BY_THE_REPLY = {"your-move", "game-start"}  # the command's reply already tells them
OFFERS = {"draw-offer": "draw", "takeback-request": "takeback"}
BOARD_NEWS = {"your-move", "game-start", "game-over"}  # sent with the game's picture


class Notifier:
    """Sends one notification to where it belongs."""

    def __init__(self, bot: CommandPost) -> None:
        self.bot = bot

    async def send(self, notification: Notification) -> None:
        logs.set_context(game_id=notification.game_id)
        if notification.player_id is None:
            await self._to_place(notification)
        else:
            await self._to_player(notification)

    async def _to_place(self, n: Notification) -> None:
        if n.kind in SAID_BY_THE_REPLY or n.kind == "challenge":
            return
        await self._post(n.place, n.text)
        if n.game_id is not None:
            for watcher in await self.bot.service.watchers(n.game_id):
                if watcher.preferences.get(DM_PREFERENCE):
                    await self._dm(watcher.address, n.text)

    async def _to_player(self, n: Notification) -> None:
        player = await self.bot.service.get_player(n.player_id)  # type: ignore[arg-type]
        if player is None or player.transport != TRANSPORT:
            return
        elsewhere = not is_discord_place(n.place)
        if player.preferences.get(DM_PREFERENCE) or elsewhere:
            # a game that lives elsewhere (an e-mail game) has no thread to post in: by DM
            if await self._dm(player.address, n.text, await self._board(n, player.id)):
                return
            if elsewhere:
                log.warning("cannot DM player %s; notification dropped", player.id)
                return
        if n.kind == "game-over":
            return  # the game's thread has it already
        if n.kind == "challenge" and await self._announced(n, player):
            return  # the /challenge reply names them, with the Accept and Decline buttons
        file = None
        if n.kind in SAID_BY_THE_REPLY:
            if not await self._from_elsewhere(n, player.id):
                return
            file = await self._board(n, player.id)
        view = offer_view(n.game_id, OFFERS[n.kind]) if n.kind in OFFERS and n.game_id else None
        await self._post(n.place, f"<@{player.address}> {n.text}", view, file)

    async def _announced(self, n: Notification, player: Player) -> bool:
        """Whether ``n`` tells of a new challenge made here by /challenge: an open challenge
        to the player, in this Discord place, made when the notice was."""
        return any(c.opponent_id == player.id and c.place == n.place
                   and c.created_at == n.created_at
                   for c in await self.bot.service.challenges(player, n.place))

    async def _from_elsewhere(self, n: Notification, player_id: int) -> bool:
        """Whether the news came from a player on another transport (an e-mail player's
        move or acceptance): then no Discord reply has told the player yet."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        side = game.side_of(player_id) if game else None
        return game is not None and side is not None and game.transports[1 - side] != TRANSPORT

    async def _board(self, n: Notification, player_id: int) -> discord.File | None:
        """The game's picture, seen from the player's side, for news of a game's board."""
        if n.kind not in BOARD_NEWS or n.game_id is None:
            return None
        game = await self.bot.service.game(n.game_id)
        if game is None:
            return None
        return await pictures.picture(self.bot.service, game,
                                      perspective=game.side_of(player_id) or 0)

    async def _post(self, place: str | None, text: str, view: discord.ui.View | None = None,
                    file: discord.File | None = None) -> None:
        channel = await self._channel(place)
        if channel is None:
            log.warning("no channel for place %s; notification dropped", place)
            return
        if isinstance(channel, discord.Thread) and channel.archived:
            await channel.edit(archived=False)
        await channel.send(fit(text), view=view or discord.utils.MISSING,
                           file=file or discord.utils.MISSING)

    async def _channel(self, place: str | None) -> discord.abc.Messageable | None:
        target = target_of(place) if place else None
        if target is None:
            return None
        channel = self.bot.get_channel(target)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(target)
            except (discord.NotFound, discord.Forbidden):
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _dm(self, address: str, text: str, file: discord.File | None = None) -> bool:
        """Send a DM; False when Discord refuses it (DMs closed)."""
        try:
            user = self.bot.get_user(int(address)) or await self.bot.fetch_user(int(address))
            await user.send(fit(text), file=file or discord.utils.MISSING)
        except (discord.Forbidden, discord.NotFound, ValueError):
            return False
        return True
