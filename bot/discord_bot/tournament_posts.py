"""A tournament on Discord: its sign-up post, its thread, its games' threads.

- **The sign-up post**, in the channel where the tournament was made (the reply of
  `/tournament create`; if that reply is lost, delivery posts it once the reply had
  `REPLY_WAIT` to do so): what it is, who signed up, and Join and Leave buttons
  (`TournamentButton`, whose custom id carries the tournament's number, so the buttons
  work after a restart). It says when sign-up closes, and is edited as players join and
  leave, when the sign-up deadline passes (a pass of the bot's scheduler,
  `close_signups`: Join goes, Leave stays until the start) and when the tournament starts
  (the buttons go: sign-up is closed; a ladder keeps them, it takes players while it runs,
  but Join goes at its sign-up deadline if it has one).
- **The tournament's thread**, opened on the sign-up post: the service's news of the
  tournament to its place (the channel) is posted there (`place_news`): the entries, the
  start with every pairing, each Swiss round, each game's result, withdrawals, the end. A
  player's own news of the tournament is posted there too, with a mention (or by DM).
- **A game of the tournament** is an ordinary game of the channel: it gets a thread of its
  own (`live.open_thread`) when it starts, as a challenge's game does, and the tournament's
  thread links to it.

Which message and thread belong to a tournament is kept by the service
(``posts.transport_state``), so a restart loses neither. The service's news of a
tournament stays addressed to the channel: the thread is where this transport shows it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from ..i18n import SOURCE, Text, _, _n, joined, render
from ..service.model import Notification, Player
from ..service.outbox import DeliveryFailure
from ..service.phrasing import command, moment
from ..service.results import Reason, Refusal
from ..service.tournaments import (
    Tournament,
    describe,
    result_text,
    signing_up,
    taking_players,
)
from . import live
from .client import message_words, news_words
from .failures import answering_failures
from .languages import channel_language, place_language
from .places import channel_mention, is_discord_place, target_of, thread_place

if TYPE_CHECKING:
    from .client import Bot

log = logging.getLogger(__name__)
STATE = "discord:tournament:{t}"  # the tournament's sign-up post and thread
NEWS = frozenset({"tournament-new", "tournament-entry", "tournament-start", "tournament-games",
                  "tournament-round", "tournament-news", "tournament-over"})
SAID_IN_THE_THREAD = frozenset({"tournament-start", "tournament-over"})  # to all, there
REPLY_WAIT = 30.0  # seconds the reply of /tournament create has to post the sign-up post
Post = Callable[[str | None, str], Awaitable[Any]]
# each bot's locks (a lock belongs to the event loop of the bot that made it)
_locks: weakref.WeakKeyDictionary[Any, dict[tuple[str, int], asyncio.Lock]] = \
    weakref.WeakKeyDictionary()


def _lock(bot: Bot, kind: str, number: int) -> asyncio.Lock:
    """One opener at a time of a tournament's thread or a game's thread (news of both
    players of a game may be delivered at once)."""
    return _locks.setdefault(bot, {}).setdefault((kind, number), asyncio.Lock())


async def remembered(bot: Bot, tournament_id: int) -> dict[str, int]:
    """The tournament's sign-up post (``channel``, ``message``) and ``thread``, as known."""
    text = await bot.service.posts.transport_state(STATE.format(t=tournament_id))
    return json.loads(text) if text else {}


async def remember(bot: Bot, tournament_id: int, **ids: int) -> None:
    known = await remembered(bot, tournament_id)
    await bot.service.posts.set_transport_state(STATE.format(t=tournament_id),
                                                json.dumps({**known, **ids}))


# --- the sign-up post ---------------------------------------------------------------------
class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"cp-tournament:(?P<action>join|leave):(?P<t>\d{1,12})"):
    """Join or leave one tournament."""

    def __init__(self, action: str, tournament_id: int, language: str = SOURCE) -> None:
        label, style = ((_("Join"), discord.ButtonStyle.success) if action == "join"
                        else (_("Leave"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label.render(language), style=style,
                                           custom_id=f"cp-tournament:{action}:{tournament_id}"))
        self.action, self.tournament_id = action, tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: Any) -> TournamentButton:
        return cls(match["action"], int(match["t"]))

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        sender = await bot.player_of(interaction.user)
        await signed(bot, interaction, sender, self.action, self.tournament_id)


async def signed(bot: Bot, interaction: discord.Interaction, sender: Player, action: str,
                 tournament_id: int) -> None:
    """Join or leave (``action``) by a button or a command: the member is answered (only
    they see it), the sign-up post counts again, and the news goes out."""
    topic = bot.service.tournaments
    t = await topic.get(tournament_id)
    if action == "join" and isinstance(t, Tournament) and not _of_its_server(bot, t,
                                                                             interaction):
        await bot.answer(interaction, _("Tournament {ref} is played on another Discord "
                                        "server: only its members may join it.", ref=t.ref))
        return
    result = await (topic.join(sender, tournament_id) if action == "join"
                    else topic.leave(sender, tournament_id))
    await bot.answer(interaction, result)
    if not isinstance(result, Refusal):
        await refresh_signup(bot, tournament_id)
        await bot.flush()
    elif result.reason is Reason.TOURNAMENT_CLOSED and \
            (await remembered(bot, tournament_id)).get("open", 1):
        await refresh_signup(bot, tournament_id)  # its deadline passed before the pass did


def _of_its_server(bot: Bot, t: Tournament, interaction: discord.Interaction) -> bool:
    """Whether the member may play in ``t``: a member of the server it is played on (a
    tournament of no server's channel, by mail, takes anyone)."""
    guild = getattr(bot.get_channel(target_of(t.place) or 0), "guild", None)
    if guild is None or interaction.guild_id == guild.id:
        return True
    return guild.get_member(interaction.user.id) is not None


def signup_view(t: Tournament, now: float, language: str = SOURCE) -> discord.ui.View | None:
    """Join while the tournament takes players (`taking_players`: not after its sign-up
    deadline), Leave while one may still leave before the start or withdraw from a
    ladder (None: neither)."""
    items = [TournamentButton(action, t.id, language) for action, shown in (
        ("join", taking_players(t, now)), ("leave", signing_up(t))) if shown]
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


async def signup_text(bot: Bot, t: Tournament, language: str) -> str:
    """The sign-up post: the tournament, who signed up, and what comes next."""
    table = await bot.service.tournaments.table(t.id)
    names = [] if isinstance(table, Refusal) else [
        e.name for e in table.entries if e.status == "in"]
    lines: list[Any] = [_("Tournament {description}.", description=describe(t))]
    if names:
        lines.append(_n("{n} player: {names}.", "{n} players: {names}.", len(names),
                        names=joined(names, ", ")))
    else:
        lines.append(_("No one has signed up yet."))
    thread = (await remembered(bot, t.id)).get("thread")
    if taking_players(t, bot.service.now()):
        lines.append(_("Sign up with the Join button or {join}.", join=command("join", t.ref)))
        if t.signup_until:
            lines.append(_("Sign-up closes {moment}.", moment=moment(t.signup_until)))
    elif signing_up(t) and t.signup_until:  # its deadline has passed
        lines.append(_("Sign-up closed {moment}.", moment=moment(t.signup_until)))
    if t.status == "signup" and t.starts_at:
        lines.append(_("It starts {moment}.", moment=moment(t.starts_at)))
    elif t.status == "signup":  # its director starts it (a ladder runs from the start)
        lines.append(_("{name} starts it with {start}.", name=t.director_name,
                       start=command("tournament", f"start {t.ref}")))
    elif t.status == "running" and t.format != "ladder":
        lines.append(_("Sign-up is closed: the tournament has started."))
    elif t.status == "over":
        lines.append(_("The tournament is over: {standings}.",
                       standings=command("standings", t.ref)))
    elif t.status == "cancelled":
        lines.append(_("The tournament was cancelled."))
    if thread:
        lines.append(_("Its news: {thread}", thread=channel_mention(thread)))
    return message_words(joined(lines, "\n"), language)


async def signup_message(bot: Bot, t: Tournament, language: str) -> dict[str, Any]:
    """The keyword arguments of the sign-up post in ``language``."""
    view = signup_view(t, bot.service.now(), language)
    return {"content": await signup_text(bot, t, language),
            "view": view or discord.utils.MISSING}


async def signup_posted(bot: Bot, t: Tournament, message: discord.Message | None,
                        channel_id: int) -> discord.Thread | None:
    """``message`` is the tournament's sign-up post: it is remembered, and the
    tournament's thread is opened on it (None: Discord refused it)."""
    if message is None:
        return None
    await remember(bot, t.id, channel=channel_id, message=message.id,
                   open=int(taking_players(t, bot.service.now())))
    return await tournament_thread(bot, t)


async def refresh_signup(bot: Bot, tournament_id: int) -> None:
    """The sign-up post says again who signed up, and keeps its Join button while the
    tournament takes players (what it offers is remembered: `close_signups`)."""
    t = await bot.service.tournaments.get(tournament_id)
    known = await remembered(bot, tournament_id)
    if t is None or "message" not in known:
        return
    language = await channel_language(bot, known["channel"])
    message = bot.get_partial_messageable(known["channel"]).get_partial_message(
        known["message"])
    now = bot.service.now()
    try:
        await message.edit(content=await signup_text(bot, t, language),
                           view=signup_view(t, now, language))
    except discord.HTTPException as error:  # a courtesy: the news says it all the same
        log.warning("tournament T%s: sign-up post not edited: %s", tournament_id, error)
        return
    await remember(bot, tournament_id, open=int(taking_players(t, now)))


async def close_signups(bot: Bot) -> None:
    """Each sign-up post that still offers to join a tournament whose sign-up deadline has
    passed offers it no more and says so (a pass of the bot's scheduler: the deadline is
    news of no one's doing; a post edited since, by an entry or the start, is left)."""
    for t in await bot.service.tournaments.signups_closed():
        if is_discord_place(t.place) and (await remembered(bot, t.id)).get("open", 1):
            await refresh_signup(bot, t.id)


# --- the tournament's thread --------------------------------------------------------------
def _thread_name(t: Tournament, language: str) -> str:
    return f"{t.ref} {render(t.name, language)}"[:100]


async def tournament_thread(bot: Bot, t: Tournament) -> discord.Thread | None:
    """The tournament's thread: the one remembered, else one opened now on its sign-up
    post (or in its channel); None where Discord refuses one (its news then goes to the
    channel)."""
    async with _lock(bot, "tournament", t.id):
        known = await remembered(bot, t.id)
        if known.get("thread"):
            found = bot.get_channel(known["thread"])
            if found is None:
                try:
                    found = await bot.fetch_channel(known["thread"])
                except (discord.NotFound, discord.Forbidden):
                    found = None
            if isinstance(found, discord.Thread):
                return found
        channel = bot.get_channel(target_of(t.place) or 0)
        if not isinstance(channel, discord.TextChannel):
            return None
        name = _thread_name(t, await channel_language(bot, channel.id))
        try:
            if known.get("message") and known.get("channel") == channel.id:
                thread = await channel.get_partial_message(known["message"]).create_thread(
                    name=name, auto_archive_duration=10080)
            else:
                thread = await channel.create_thread(
                    name=name, type=discord.ChannelType.public_thread,
                    auto_archive_duration=10080)
        except discord.HTTPException:
            log.exception("cannot open a thread for tournament T%s", t.id)
            return None
        await remember(bot, t.id, thread=thread.id)
    await refresh_signup(bot, t.id)  # it names the thread
    return thread


async def news_place(bot: Bot, t: Tournament) -> str:
    """Where the tournament's news is posted: its thread, else its place."""
    thread = await tournament_thread(bot, t)
    return thread_place(thread.parent_id, thread.id) if thread is not None and \
        thread.parent_id else t.place


async def place_news(bot: Bot, n: Notification, post: Post) -> None:
    """The service's news of a tournament to its channel, shown here (see the module's
    words): a new one's sign-up post (unless the command's reply made it), the rest in
    its thread, a start or a round with its games' threads."""
    t = await bot.service.tournaments.get(int(n.payload.get("tournament", 0)))
    if t is None:
        return
    if n.kind == "tournament-new":
        if "message" in await remembered(bot, t.id):
            return  # the command's reply is the sign-up post
        waited = bot.service.now() - n.created_at
        if waited < REPLY_WAIT:  # the reply of /tournament create may still post it
            raise DeliveryFailure(_("the sign-up post waits for the command's reply"),
                                  permanent=False, retry_after=REPLY_WAIT - waited)
        language = await place_language(bot, n.place)  # made elsewhere, or the reply died
        channel = bot.get_channel(target_of(t.place) or 0)
        if isinstance(channel, discord.abc.Messageable):
            sent = await channel.send(**await signup_message(bot, t, language))
            await signup_posted(bot, t, sent, sent.channel.id)
        return
    where = await news_place(bot, t)
    language = await place_language(bot, where)
    await post(where, news_words(n, language))
    if n.kind == "tournament-round" or n.kind == "tournament-start" and \
            t.format == "round-robin":  # then each game that starts, with its own thread
        games = await game_lines(bot, t)
        if games:
            await post(where, message_words(joined(games, "\n"), language))
    if n.kind in ("tournament-entry", "tournament-start", "tournament-over"):
        await refresh_signup(bot, t.id)


async def player_news(bot: Bot, n: Notification, player: Player,
                      dm: bool) -> Notification | None:
    """A player's own news of a tournament, as this transport delivers it: to the
    tournament's thread rather than its channel (None: not at all, since the thread says
    it to everyone and the player takes no DMs, ``dm``)."""
    if n.kind in SAID_IN_THE_THREAD and not dm:
        return None
    t = await bot.service.tournaments.get(int(n.payload.get("tournament", 0)))
    if t is None or n.place != t.place:
        return n
    return replace(n, place=await news_place(bot, t))


# --- the games' threads -------------------------------------------------------------------
async def game_home(bot: Bot, game_id: int) -> str | None:
    """The thread of a tournament game, opened now if it has none yet (None: an ordinary
    game, or one that cannot have a thread)."""
    if await bot.service.tournaments.of_game(game_id) is None:
        return None
    async with _lock(bot, "game", game_id):
        game = await bot.service.game(game_id)
        if game is None:
            return None
        if isinstance(bot.get_channel(target_of(game.place) or 0), discord.TextChannel) \
                and not game.is_over:
            await live.open_thread(bot, game)
            game = await bot.service.game(game_id) or game
    return game.place if isinstance(bot.get_channel(target_of(game.place) or 0),
                                    discord.Thread) else None


async def game_lines(bot: Bot, t: Tournament) -> list[Text]:
    """A line for each game of the tournament still going on, with its thread (opened
    now for those that have none): ``Game #3: alice – bob <#thread>``."""
    table = await bot.service.tournaments.table(t.id)
    if isinstance(table, Refusal):
        return []
    lines = []
    for p in (p for s in table.sections for p in s.pairings):
        if p.game_id is None or p.result is not None:
            continue
        home = await game_home(bot, p.game_id)
        lines.append(_("Game #{game}: {first} – {second} {thread}", game=p.game_id,
                       first=table.name_of(p.first), second=table.name_of(p.second),
                       thread=channel_mention(target_of(home)) if home else ""))
    return lines


async def tell_result(bot: Bot, game_id: int, post: Post) -> None:
    """A tournament game is over: its tournament's thread says so, linking to the game's
    thread (a courtesy: the game's own thread has the news)."""
    t = await bot.service.tournaments.of_game(game_id)
    table = await bot.service.tournaments.table(t.id) if t is not None else None
    if t is None or table is None or isinstance(table, Refusal):
        return
    pairing = next((p for s in table.sections for p in s.pairings if p.game_id == game_id),
                   None)
    game = await bot.service.game(game_id)
    if pairing is None or pairing.result is None or game is None:
        return
    where = await news_place(bot, t)
    text = _("Tournament {ref}: game #{game} {thread}, {first} – {second}: {result}.",
             ref=t.ref, game=game_id, thread=channel_mention(target_of(game.place)),
             first=table.name_of(pairing.first), second=table.name_of(pairing.second),
             result=result_text(pairing))
    try:
        await post(where, message_words(text, await place_language(bot, where)))
    except Exception as error:  # a courtesy: its failure must not send the game's news again
        log.warning("tournament T%s: result of game #%s not posted: %s", t.id, game_id,
                    error)
