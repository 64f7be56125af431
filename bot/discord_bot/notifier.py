"""Delivery of the service's outbox to Discord: a game's news in its thread (unarchived
when needed), a player's news by DM when they opted in (`/notify`), else in the thread
with a mention; watchers who opted in get a game's news by DM too.

What a command's own reply already says is not repeated: the mover's reply mentions the
player to move, and the reply to /challenge and /accept announces the challenge and the
game. A move made away from the game's thread (a DM, another channel) is posted in the
thread (`HOME_BOARD`) as if made there. News that came from a player on another transport
(an e-mail player's move, the computer's) had no such reply: it is posted in the game's
thread with the board, as its live board; the computer's move in the words a person's
move is answered with (`turn_lead`). An open challenge of a channel accepted from
another transport opens the game's thread. A game that lives elsewhere (started by an
e-mail challenge) has no thread: its Discord player gets all its news by DM, with the
board. Mentions follow each player's `/settings pings` (`PINGS`), else the server's.

An offer comes with Accept and Decline buttons: in the player's DM when they read there,
else in the game's thread unless the reply that made it is there already. The answer to
an offer edits the offer's messages (`live`): it is posted only when it came from another
transport, or by DM. A game's end is posted in its thread unless a reply announced it
there; the live board and the offers lose their buttons.

A try Discord refuses raises `DeliveryFailure`, judged from discord.py's own errors
(`failure_of`): 403/404, a channel gone and closed DMs are refusals; a 429 waits what it
asks; 5xx and lost connections are tried again. The outbox schedules the tries."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord

from ..i18n import SOURCE, Text, _, from_json, joined, message_id
from ..service.computer import TRANSPORT as COMPUTER
from ..service.model import Game, Notification, Player
from ..service.outbox import MESSAGE, UNREACHABLE, DeliveryFailure
from . import live, logs, pictures, tournament_posts
from .client import message_words, news_words
from .languages import place_language, player_language
from .pickers import fit
from .places import TRANSPORT, channel_mention, is_discord_place, target_of
from .reply_posts import REPLY_POSTS, post_for_reply
from .views import challenge_view, game_view, offer_view, with_watch_link

if TYPE_CHECKING:
    from .client import Bot

log = logging.getLogger(__name__)
DM_PREFERENCE = "discord_dm"
SAID_BY_THE_REPLY = {"your-move", "game-start"}  # the command's reply already tells them
OFFERS = {"draw-offer": "draw", "takeback-request": "takeback"}
PRIVATE = {"forecast"}  # about a player's conditional moves: by DM only, never in the thread
BOARD_NEWS = {"your-move", "game-start", "game-over"}  # sent with the game's picture
ANSWERS = {"draw-offer", "takeback"}  # the notices that also tell of an offer's answer
TIME = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC")
# the same moment as Vietnamese writes it (`bot.i18n.format_moment`): 13:05 UTC 1/5/2026
TIME_VI = re.compile(r"\b(\d{2}:\d{2}) UTC (\d{1,2})/(\d{1,2})/(\d{4})\b")
MENTION = re.compile(r"<@!?(\d{1,20})>")  # in our own texts
HOME_BOARD = "home-board"  # a move made away from its game's thread, posted there
# pings (`/settings pings`): all (news of moves, offers, reminders), turns (moves), none
PINGS = "discord_pings"
PING_CHOICES = ("all", "turns", "none")
PING_NAMES = {"all": message_id("all"), "turns": message_id("turns"),
              "none": message_id("none")}  # each choice as `/settings pings:` shows it
TURN, OFFER, REMINDER = "turn", "offer", "reminder"  # what a ping is for
PING_OF = {"draw-offer": OFFER, "takeback-request": OFFER, "challenge": OFFER,
           "reminder": REMINDER}  # the rest: news of a turn


def ping_choices() -> list[discord.app_commands.Choice[str]]:
    """The choices of `PINGS`, for `/settings` and `/server settings`."""
    return [discord.app_commands.Choice(name=PING_NAMES[c], value=c) for c in PING_CHOICES]


def turn_lead(number: str, turn: str, game_id: int) -> Text:
    """The first line of the news of a closed turn, whoever played it: ``1... **c7-c6**
    played in game #1.``"""
    return _("{number} {turn} played in game #{game}.", number=number, turn=bold(turn),
             game=game_id)


def bold(text: str | None) -> str:
    """Notation in bold, as a move is shown in a sentence: ``**c3-d4**``."""
    return f"**{text}**"


def message_of(n: Notification) -> str:
    """The notification's message of the catalogue, to word in each reader's language (its
    stored words when it has none)."""
    data = n.payload.get(MESSAGE)
    try:
        return from_json(data) if isinstance(data, dict) else n.text
    except ValueError:
        return n.text


def failure_of(error: Exception) -> DeliveryFailure:
    """Discord's answer to a failed request, judged: a refusal (403, 404: the channel,
    thread or DM will not take it) is permanent; a rate limit (429) waits what Discord asks;
    a server error (5xx), a timeout or a lost connection is worth trying again."""
    if isinstance(error, DeliveryFailure):
        return error
    if isinstance(error, discord.RateLimited):
        return DeliveryFailure(_("429 rate limited by Discord"), permanent=False,
                               retry_after=error.retry_after)
    if isinstance(error, discord.HTTPException):  # the reasons in their readers' language
        detail = (error.text or error.response.reason or "").strip()
        if isinstance(error, discord.Forbidden | discord.NotFound):
            return DeliveryFailure(_("Discord refused: {status} {error}", status=error.status,
                                     error=detail) if detail else
                                   _("Discord refused: {status}", status=error.status),
                                   permanent=True)
        return DeliveryFailure(_("Discord answered {status} {error}", status=error.status,
                                 error=detail) if detail else
                               _("Discord answered {status}", status=error.status),
                               permanent=False, retry_after=_retry_after(error))
    return DeliveryFailure(f"{type(error).__name__}: {error}".rstrip(": "), permanent=False)


def _retry_after(error: discord.HTTPException) -> float | None:
    """The wait a 429 asks for, from its Retry-After header (seconds)."""
    if error.status != 429:
        return None
    try:
        return float(error.response.headers.get("Retry-After", ""))
    except (AttributeError, ValueError):
        return None


class Notifier:
    """Sends one notification to where it belongs."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def send(self, notification: Notification) -> None:
        """Deliver ``notification``, or raise `DeliveryFailure` saying why not."""
        logs.set_context(game_id=notification.game_id)
        try:
            if notification.payload.get("dm") and notification.player_id is not None:
                await self._dm_only(notification)
            elif notification.player_id is None:
                await self._to_place(notification)
            else:
                await self._to_player(notification)
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise failure_of(error) from error

    async def _dm_only(self, n: Notification) -> None:
        """News that must not go where it failed to go (that a player or a thread cannot
        be reached): by DM, to a Discord player; a post quoted in it names the players
        (a mention in a DM pings nobody, and reads oddly to the player it names)."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        player = await self.bot.service.get_player(n.player_id)  # type: ignore[arg-type]
        words = news_words(n, player_language(player))
        text = await self._named(game, words) if game is not None else words
        if await self._dm(n.address or "", text):
            return
        if n.payload.get("or_channel"):  # a move's confirmation must reach them somewhere
            await self._post(n.place, f"<@{n.address}> {words}")
            return
        raise DeliveryFailure(_("Discord refused the DM (DMs closed)"), permanent=True)

    async def _to_place(self, n: Notification) -> None:
        if n.kind in SAID_BY_THE_REPLY or n.kind == "challenge":
            return
        if n.kind in tournament_posts.NEWS:
            await tournament_posts.place_news(self.bot, n, self._post)
            return
        if n.kind == HOME_BOARD:
            await self._home_board(n)
            return
        if n.kind in REPLY_POSTS:  # what a command's reply posts, after the reply died
            await post_for_reply(self.bot, n, self._post)
            return
        if n.kind == UNREACHABLE and not is_discord_place(n.place):
            return
        if n.kind == "game-over" and n.game_id is not None:
            await tournament_posts.tell_result(self.bot, n.game_id, self._post)
            game = await self.bot.service.game(n.game_id)
            if game is not None:
                await live.settle_offers(self.bot, game, "")
                await live.retire_board(self.bot, game)
            if await live.end_said_in(self.bot, n.game_id, n.place):
                return  # the reply that ended it announced it there
        await self._post(n.place, news_words(n, await place_language(self.bot, n.place)))
        if n.game_id is not None:
            await self.copy_to_watchers(n.game_id, message_of(n))

    async def copy_to_watchers(self, game_id: int, text: str) -> None:
        """News of a game to its Discord watchers who take news by DM (not to its players,
        who have their own), each in their language (``text``: a message of the
        catalogue, or words)."""
        game = await self.bot.service.game(game_id)
        if game is None:
            return
        for watcher in await self.bot.service.rooms.watchers(game.id):
            if watcher.transport == TRANSPORT and watcher.preferences.get(DM_PREFERENCE) \
                    and game.side_of(watcher.id) is None:
                await self._copy_to_watcher(watcher, message_words(
                    text, player_language(watcher)))

    async def _home_board(self, n: Notification) -> None:
        """A move made away from the game's thread (a DM, another channel): the thread
        gets its board, the player to move pinged, as if it was made there; it becomes
        the live board. News of a position the game has left (its post was refused, or
        waited, while the game went on) is posted in words alone: the later board shows
        the position, and the thread's record stays whole. News caught up after refusals
        (`GameService.catch_up`) names the players instead of pinging them."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        if game is None:
            return
        language = await place_language(self.bot, n.place)
        text = news_words(n, language)
        if n.payload.get("caught_up"):  # news gathered from refused posts: named, not pinged
            text = await self._named(game, text)
        if game.ply != n.payload.get("ply"):  # a later board shows the position: the words
            await self._post(n.place, text)  # keep the thread's record whole
            return
        message = await self.bot.board_message(game, text, language=language)
        view = message.get("view")
        file = message.get("file")
        sent = await self._post(n.place, str(message["content"]),
                                view if isinstance(view, discord.ui.View) else None,
                                file if isinstance(file, discord.File) else None)
        if sent is not None:
            await self.bot.board_sent(game, sent, sent.channel.id)

    async def _named(self, game: Game, text: str) -> str:
        """``text`` with the game's players named where it mentions them."""
        names = {await self._address(p): name for p, name in zip(game.players, game.names,
                                                                strict=True)}
        return MENTION.sub(lambda m: names.get(m[1]) or m[0], text)

    async def _address(self, player_id: int) -> str:
        player = await self.bot.service.get_player(player_id)
        return player.address if player is not None else ""

    async def _copy_to_watcher(self, watcher: Player, text: str) -> None:
        """A watcher's copy is a courtesy: its failure must not send the news again."""
        try:
            await self._dm(watcher.address, text)
        except discord.HTTPException as error:
            log.warning("a watcher's copy to %s failed: %s", watcher.id, error)

    async def _to_player(self, n: Notification) -> None:
        player = await self.bot.service.get_player(n.player_id)  # type: ignore[arg-type]
        if player is None or player.transport != TRANSPORT:
            return
        language = player_language(player)  # of a DM; a post is in its place's
        dm = bool(player.preferences.get(DM_PREFERENCE))
        if n.kind in tournament_posts.NEWS:  # in the tournament's thread (or by DM)
            moved = await tournament_posts.player_news(self.bot, n, player, dm)
            if moved is None:
                return
            n = moved
        if n.kind == "game-start" and n.game_id is not None and (
                home := await tournament_posts.game_home(self.bot, n.game_id)) and not dm:
            # a tournament game: told in its own thread, opened now if it has none yet
            await self._post(home, f"{await self._ping(player, n)} "
                                   f"{news_words(n, await place_language(self.bot, home))}")
            return
        if n.kind == "game-start" and (home := await self._home_of_dm_game(n, player)):
            # challenged in a DM: told there, with the thread the game got (or in it)
            told = joined([message_of(n), _("The game's thread: {thread}",
                                            thread=channel_mention(target_of(home)))], "\n")
            if await self._dm(player.address, message_words(told, language)) is None:
                await self._post(home, f"{await self._ping(player, n)} "
                                       f"{news_words(n, await place_language(self.bot, home))}")
            return
        # a game that lives elsewhere (an e-mail game, a game challenged in a DM with no
        # server to play in) has no thread or channel the player reads: its news comes by DM
        elsewhere = (not is_discord_place(n.place) or n.kind in PRIVATE
                     or await self._private(n.place))
        offer = await self._offer(n, player.id)
        from_elsewhere = await self._from_elsewhere(n, player.id)
        if offer is None and n.kind in ANSWERS and not from_elsewhere:
            if player.preferences.get(DM_PREFERENCE):
                await self._dm(player.address, news_words(n, language))
            return  # the answer edited the offer's message where it was made
        if from_elsewhere and offer is None:
            await self._settle_from_elsewhere(n, player.id)
        if player.preferences.get(DM_PREFERENCE) or elsewhere:
            view = offer_view(n.game_id, offer[0]) if offer and n.game_id else None
            if n.kind == "challenge" and isinstance(n.payload.get("challenge"), int):
                view = challenge_view(n.payload["challenge"])  # a new challenge: its buttons
            board = await self._board(n, player.id, language)
            live_board = await self._dm_live_board(n, player.id, board) if elsewhere and \
                view is None else None
            if live_board is not None:
                view = live_board[1]
            sent = await self._dm(player.address, news_words(n, language), board,
                                  await self._link(n, board, view))
            if sent is not None:
                if offer is not None:
                    await self._offer_posted(n, offer, sent)
                if live_board is not None:  # the game's buttons are in this DM now
                    await self.bot.board_sent(live_board[0], sent, sent.channel.id)
                return
            if elsewhere:  # no thread to fall back on
                raise DeliveryFailure(_("Discord refused the DM (DMs closed)"),
                                      permanent=True)
        if n.kind == "game-over":
            return  # the game's thread has it already
        if n.kind == "challenge" and await self._announced(n, player):
            return  # the /challenge reply names them, with the Accept and Decline buttons
        file = None
        live_board = None
        if n.kind in SAID_BY_THE_REPLY:
            if not await self._from_elsewhere(n, player.id):
                return
            if n.kind == "game-start" and (home := await self._open_home(n)) is not None:
                # accepted from another transport: the game gets its thread, opened with
                # the board, where the Discord player is told of it
                await self._post(home, f"{await self._ping(player, n)} "
                                       f"{news_words(n, await place_language(self.bot, home))}")
                return
            if n.kind == "your-move" and await self._computer_moved(n):
                return
            file = await self._board(n, player.id, await place_language(self.bot, n.place))
            live_board = await self._live_board(n, player.id, file)
        view = live_board[1] if live_board else None
        if offer is not None and n.game_id is not None:
            game = await self.bot.service.game(n.game_id)
            if game is not None and await live.offer_here(self.bot, game, *offer):
                return  # the reply that made the offer is in the thread, with its buttons
            view = offer_view(n.game_id, offer[0])
        words = news_words(n, await place_language(self.bot, n.place))
        sent = await self._post(n.place, f"{await self._ping(player, n)} {words}",
                                await self._link(n, file, view), file)
        if offer is not None and sent is not None:
            await self._offer_posted(n, offer, sent)
        if live_board is not None and sent is not None:  # it has the game's buttons now
            await self.bot.board_sent(live_board[0], sent, sent.channel.id)

    async def _ping(self, player: Player, n: Notification) -> str:
        """``player`` mentioned for ``n``, or named if they take no pings of its kind."""
        return await self.bot.ping(player, n.place, PING_OF.get(n.kind, TURN))

    async def _open_home(self, n: Notification) -> str | None:
        """For a game started in a Discord channel from another transport (an open
        challenge accepted by mail): its own thread, opened now (`live.open_thread`, which
        moves the game there and shows the board); None if it has one or cannot."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        if game is None or not isinstance(await self._channel(game.place), discord.TextChannel):
            return None
        thread = await live.open_thread(self.bot, game)
        moved = await self.bot.service.game(game.id)
        return moved.place if thread is not None and moved is not None else None

    async def _home_of_dm_game(self, n: Notification, player: Player) -> str | None:
        """The thread a game challenged in a DM got when it was accepted (`homes`; None:
        it has none)."""
        if not await self._private(n.place):
            return None
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        if game is None or game.place == n.place:  # it stayed in DMs
            return None
        return game.place if isinstance(await self._channel(game.place),
                                        discord.Thread) else None

    async def _computer_moved(self, n: Notification) -> bool:
        """The computer's move, posted in its game's thread as a person's move is answered
        there (`turn_lead`, the player to move pinged, the board: the live board); False
        for news that is not of the computer's move in the thread. News of a position the
        game has left is posted in words alone, as `_home_board` does."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        if game is None or COMPUTER not in game.transports or n.place != game.place \
                or "turn" not in n.payload:
            return False
        language = await place_language(self.bot, n.place)
        lead = turn_lead(n.payload["number"], n.payload["turn"], game.id).render(language)
        if game.ply != n.payload.get("ply"):
            await self._post(n.place, lead)
            return True
        message = await self.bot.board_message(game, lead, language=language)
        view, file = message.get("view"), message.get("file")
        sent = await self._post(n.place, str(message["content"]),
                                view if isinstance(view, discord.ui.View) else None,
                                file if isinstance(file, discord.File) else None)
        if sent is not None:
            await self.bot.board_sent(game, sent, sent.channel.id)
        return True

    async def _live_board(self, n: Notification, player_id: int, file: discord.File | None,
                          ) -> tuple[Game, discord.ui.View] | None:
        """For the news of a move from another transport (an e-mail player's, the
        computer's) posted with the board in the game's own thread: the game and its
        buttons, so that the post becomes the live board."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        if file is None or game is None or game.is_over or n.place != game.place:
            return None
        return game, game_view(game, game.side_of(player_id) or 0)

    async def _dm_live_board(self, n: Notification, player_id: int,
                             file: discord.File | None) -> tuple[Game, discord.ui.View] | None:
        """For news with the board of a game that has no thread (played in DMs, or by
        e-mail with a Discord player): the game and its buttons, so that the DM becomes the
        live board (the player to move has the buttons)."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        side = game.side_of(player_id) if game is not None else None
        if file is None or game is None or game.is_over or side is None:
            return None
        return game, game_view(game, side)

    async def _settle_from_elsewhere(self, n: Notification, player_id: int) -> None:
        """The opponent on another transport answered an offer or moved: the offers'
        messages here say so and lose their buttons."""
        game = await self.bot.service.game(n.game_id)  # type: ignore[arg-type]
        side = game.side_of(player_id) if game else None
        if game is None or side is None:
            return
        other = game.names[1 - side]
        how = live.by_transport(game.transports[1 - side])
        lapse = _("{name} answered it by {transport}", name=other, transport=how) \
            if n.kind in ANSWERS else None
        await live.settle_offers(self.bot, game, other, lapse=lapse)

    async def _offer(self, n: Notification, player_id: int) -> tuple[str, int] | None:
        """What the opponent of the player offers, if ``n`` tells of an offer that still
        stands (the same kind of notice also tells of answers)."""
        if n.kind not in OFFERS or n.game_id is None:
            return None
        game = await self.bot.service.game(n.game_id)
        side = game.side_of(player_id) if game else None
        if game is None or side is None or game.is_over:
            return None
        kind = OFFERS[n.kind]
        standing = game.draw_offer if kind == "draw" else game.takeback_offer
        return (kind, 1 - side) if standing == 1 - side else None

    async def _offer_posted(self, n: Notification, offer: tuple[str, int],
                            sent: discord.Message) -> None:
        game = await self.bot.service.game(n.game_id)  # type: ignore[arg-type]
        if game is not None:
            await live.offer_posted(self.bot, game, offer[0], offer[1], sent, sent.channel.id)

    async def _link(self, n: Notification, board: discord.File | None,
                    view: discord.ui.View | None = None) -> discord.ui.View | None:
        """``view`` with the game's web link when the message shows its board."""
        if board is None or n.game_id is None:
            return view
        return with_watch_link(view, await self.bot.service.watching.game_link(n.game_id))

    async def _announced(self, n: Notification, player: Player) -> bool:
        """Whether ``n`` tells of a new challenge made here by /challenge: an open challenge
        to the player, in this Discord place, made when the notice was."""
        return any(c.opponent_id == player.id and c.place == n.place
                   and c.created_at == n.created_at
                   for c in await self.bot.service.challenges.pending(player, n.place))

    async def _from_elsewhere(self, n: Notification, player_id: int) -> bool:
        """Whether the news came from a player on another transport (an e-mail player's
        move or acceptance): then no Discord reply has told the player yet."""
        game = await self.bot.service.game(n.game_id) if n.game_id is not None else None
        side = game.side_of(player_id) if game else None
        return game is not None and side is not None and game.transports[1 - side] != TRANSPORT

    async def _board(self, n: Notification, player_id: int,
                     language: str = SOURCE) -> discord.File | None:
        """The game's picture, seen from the player's side, for news of a game's board, its
        words in ``language``."""
        if n.kind not in BOARD_NEWS or n.game_id is None:
            return None
        game = await self.bot.service.game(n.game_id)
        if game is None:
            return None
        return await pictures.picture(self.bot.service, game,
                                      perspective=game.side_of(player_id) or 0,
                                      language=language)

    async def _post(self, place: str | None, text: str, view: discord.ui.View | None = None,
                    file: discord.File | None = None) -> discord.Message | None:
        channel = await self._channel(place)
        if channel is None:
            raise DeliveryFailure(_("Discord refused: the channel or thread is gone or "
                                    "hidden from the bot"), permanent=True)
        if isinstance(channel, discord.Thread) and channel.archived:
            await channel.edit(archived=False)
        return await channel.send(fit(discord_times(text)), view=view or discord.utils.MISSING,
                                  file=file or discord.utils.MISSING)

    async def _private(self, place: str | None) -> bool:
        """Whether ``place`` is a DM channel (someone's conversation with the bot)."""
        return isinstance(await self._channel(place), discord.DMChannel)

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

    async def _dm(self, address: str, text: str, file: discord.File | None = None,
                  view: discord.ui.View | None = None) -> discord.Message | None:
        """Send a DM; None when Discord refuses it (DMs closed)."""
        try:
            user = await self.bot.known_user(int(address))
            return await user.send(fit(discord_times(text)), file=file or discord.utils.MISSING,
                                   view=view or discord.utils.MISSING)
        except (discord.Forbidden, discord.NotFound, ValueError):
            return None


def discord_times(text: str) -> str:
    """Times written for people (``2026-05-01 13:05 UTC``) as Discord timestamps, which
    every reader sees in their own time zone."""
    text = TIME.sub(lambda m: _stamp(m[1], m[0]), text)
    return TIME_VI.sub(lambda m: _stamp(f"{m[4]}-{m[3]:0>2}-{m[2]:0>2} {m[1]}", m[0]), text)


def _stamp(when: str, written: str) -> str:
    """``when`` (``2026-05-01 13:05``, UTC) as a Discord timestamp; what was ``written``
    as it is if it is no moment (``2026-02-31``)."""
    try:
        return f"<t:{_epoch(when)}:f>"
    except ValueError:
        return written


def _epoch(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp())
