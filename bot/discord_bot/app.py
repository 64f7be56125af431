"""The bot: `create_bot` builds a `commands.AutoShardedBot` on a game service, with the
command cogs, the buttons that survive restarts, the scheduler loop and the outbox
delivery; `run` is the process (logging, signals, graceful shutdown), which the runner
in `bot.cli.run` starts with whatever runs beside the bot (e-mail, web pages).

The command tree is uploaded to Discord only when it changed: its hash is kept by the
service, and ``commandpost discord sync`` uploads it whatever the hash says. Uploading
overwrites commands by name, so their ids, and the per-server permission overrides that
hang on them, stay. The bot needs no privileged members intent: the users it writes to by
DM are fetched once and kept."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import signal
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands, tasks

from ..config import Settings
from ..i18n import SOURCE, Text, _, joined
from ..service import GameService
from ..service.computer import Computer
from ..service.model import Game, Player
from ..service.phrasing import phrase
from ..service.results import Done, Refusal, Result
from ..storage import StorageError
from . import failures, live, logs, pictures, tournament_posts
from .client import literal, message_words, reader_language, result_text
from .languages import server_language
from .notifier import HOME_BOARD, PINGS, TURN, Notifier, bold, discord_times, turn_lead
from .pickers import EndTurnButton, PiecePicker, StepPicker, fit, next_step_view
from .places import (
    TRANSPORT,
    channel_mention,
    channel_place,
    server_key,
    target_of,
    thread_place,
)
from .tournament_posts import TournamentButton
from .translator import CatalogueTranslator
from .views import ChallengeButton, GameButton, game_view, with_watch_link

log = logging.getLogger(__name__)
SCHEDULER_SECONDS = 60.0
COMPUTER_SECONDS = 5.0  # how often the computer looks for games to answer
TREE_STATE = "discord:command-tree"  # the hash of the command tree last uploaded
# what stops the start when Discord cannot be reached (no network, no name server, a
# connection refused or timed out: aiohttp's errors are OSErrors, or its own)
MAX_TOURNAMENTS = 1_000  # looked at when a member leaves a server
UNREACHABLE = (OSError, aiohttp.ClientError, discord.GatewayNotFound)


class CommandPostTree(app_commands.CommandTree):
    """The command tree: a command that raised is answered by `CommandPost.command_failed`
    (a method of the tree, so that whoever wraps ``tree.on_error`` still sees errors)."""

    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError) -> None:
        await self.client.command_failed(interaction, error)  # type: ignore[attr-defined]


def shard_ids(text: str) -> list[int] | None:
    """The shards a process runs, from ``0-3`` or ``0,1,2,3`` (None: all of them);
    ValueError, saying why, for anything else (a range that runs backwards among it)."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, _, last = part.partition("-")
        last = last or first
        if not (first.isascii() and first.isdigit() and last.isascii() and last.isdigit()):
            raise ValueError("it must be a list of shards like 0-3 or 0,1,2,3")
        if int(last) < int(first):
            raise ValueError(f"its range {part} runs backwards (write {int(last)}-{int(first)})")
        ids += range(int(first), int(last) + 1)
    return ids or None


class CommandPost(commands.AutoShardedBot):
    """The commandpost bot: every command is a call of ``service``."""

    def __init__(self, service: GameService, settings: Settings, *,
                 sync_only: bool = False) -> None:
        intents = discord.Intents.default()
        # privileged: users are fetched when needed, then kept; only a host who enabled it
        # in the portal asks for it, to hear of members who leave (`on_raw_member_remove`)
        intents.members = settings.member_events == "on"  # the settings say on or off
        intents.message_content = settings.typed_moves == "on"
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, tree_cls=CommandPostTree,
                         shard_count=settings.discord_shard_count or None,
                         shard_ids=shard_ids(settings.discord_shard_ids),
                         allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                                  roles=False))
        self.service = service
        self.settings = settings
        self.sync_only = sync_only  # `commandpost discord sync`: upload the tree, then stop
        self.notifier = Notifier(self)
        self.computer = Computer(service)
        self.computer.on_answer.append(self.flush)
        self.courier = service.courier(TRANSPORT, self.notifier.send)
        self._addresses: dict[int, str] = {}
        self._users: dict[int, discord.User] = {}
        self._background: set[asyncio.Task[None]] = set()
        pictures.use_guild_lookup(self._guild_of)

    def _guild_of(self, place: str) -> int | None:
        """The server a place (channel or thread) belongs to, from the client's cache."""
        channel = self.get_channel(target_of(place) or 0)
        return getattr(getattr(channel, "guild", None), "id", None)

    async def setup_hook(self) -> None:
        from .commands_admin import AdminCommands
        from .commands_info import InfoCommands
        from .commands_notes import CorrespondenceCommands
        from .commands_play import PlayCommands
        from .commands_tournament import TournamentCommands
        play = PlayCommands(self)
        for cog in (play, InfoCommands(self), AdminCommands(self),
                    CorrespondenceCommands(self, play), TournamentCommands(self)):
            await self.add_cog(cog)
        self.add_dynamic_items(GameButton, ChallengeButton, PiecePicker, StepPicker,
                               EndTurnButton, TournamentButton)
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_tree(force=self.sync_only)
        if self.sync_only:
            return
        await asyncio.to_thread(pictures.warm_up)
        self.service.watching.add_game_listener(self._moved)
        if self.shard_ids is None or 0 in self.shard_ids:
            self.scheduler.start()  # one process applies what falls due: the one of shard 0
            self.thinking.start()  # and plays the computer's moves

    async def tree_hash(self) -> str:
        """A hash of the global command tree as it would be uploaded, with its words in
        every language (a new translation is uploaded too)."""
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) if translator
                   else c.to_dict(self.tree) for c in self.tree.get_commands()]
        text = json.dumps(sorted(payload, key=lambda c: c["name"]), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_tree(self, force: bool = False) -> bool:
        """Upload the command tree if it changed since the last upload (or ``force``);
        whether it was uploaded."""
        digest = await self.tree_hash()
        if not force and await self.service.posts.transport_state(TREE_STATE) == digest:
            log.info("command tree unchanged; not uploaded")
            return False
        await self.tree.sync()
        await self.service.posts.set_transport_state(TREE_STATE, digest)
        log.info("command tree uploaded")
        return True

    async def known_user(self, user_id: int) -> discord.User:
        """A user, fetched from Discord once and then kept (no members intent needed)."""
        found = self.get_user(user_id) or self._users.get(user_id)
        if found is None:
            found = await self.fetch_user(user_id)
            self._users[user_id] = found
        return found

    async def close(self) -> None:
        self.scheduler.cancel()
        self.thinking.cancel()
        self.computer.close()
        self.service.watching.remove_game_listener(self._moved)
        await self.drain()
        await self.courier.stop()
        await super().close()

    def _moved(self, game_id: int) -> None:
        """A move was stored (by any transport of this process): the game's watchers on
        Discord are told of a finished turn (`Rooms.watch_news`), in the
        background."""
        task = asyncio.get_running_loop().create_task(self._tell_watchers(game_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _tell_watchers(self, game_id: int) -> None:
        """A watcher's copy is a courtesy, sent once, not through the outbox (whose
        delivery must wait for the command's reply)."""
        try:
            text = await self.service.rooms.watch_news(game_id)
            if text is not None:
                await self.notifier.copy_to_watchers(game_id, text)
        except StorageError as error:  # the move stands; its watchers miss one copy
            log.warning("game #%s: watchers not told: %s", game_id, error)

    async def drain(self) -> None:
        """Wait for the background work moves started (the watchers' news)."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    @tasks.loop(seconds=COMPUTER_SECONDS)
    async def thinking(self) -> None:
        """The computer answers in its games (a pass after a restart finds the games whose
        answer the restart interrupted)."""
        await self.computer.play_due()

    @thinking.error
    async def _thinking_failed(self, error: BaseException) -> None:
        log.error("computer pass failed", exc_info=error)

    @tasks.loop(seconds=SCHEDULER_SECONDS)
    async def scheduler(self) -> None:
        """Apply what fell due (timeouts, reminders, expiries) and deliver the outbox."""
        await self.tick()

    @scheduler.error
    async def _scheduler_failed(self, error: BaseException) -> None:
        log.error("scheduler pass failed", exc_info=error)

    async def tick(self) -> None:
        """One scheduler pass: what is due, then the notifications, then the sign-up posts
        of tournaments whose sign-up deadline passed (`tournament_posts.close_signups`).
        Nothing that fails in a pass escapes it (an exception would stop the task loop for
        good): it is logged, and the next pass runs as usual."""
        try:
            await self.service.process_due()
        except Exception:
            log.exception("scheduler pass failed; the next pass runs as usual")
        await self.flush()
        try:  # after the news: one that started at its deadline is closed by its start
            await tournament_posts.close_signups(self)
        except Exception:
            log.exception("closing the sign-up posts failed; the next pass tries again")

    async def flush(self) -> None:
        """Deliver the service's due Discord notifications: each lane (a destination's news
        of a game) in order, lanes independently, so a server that refuses or a slow DM
        delays only itself; failures are judged and scheduled by the outbox. Nothing that
        fails here escapes the pass: it is logged, and what was not delivered stays due."""
        try:
            await self.courier.deliver()
        except StorageError:
            log.exception("the outbox could not be read; delivery waits for the next pass")
        except Exception:
            log.exception("delivering notifications failed; they stay pending")

    # --- catching up when a place takes posts again -----------------------------------
    # Discord tells of a permission's change by these events: a thread that refused the
    # bot's posts may take them now, and gets the news it missed, once
    async def on_guild_channel_update(self, before: object, after: discord.abc.GuildChannel,
                                      ) -> None:
        await self.catch_up(after.guild)

    async def on_thread_update(self, before: object, after: discord.Thread) -> None:
        await self.catch_up(after.guild)

    async def on_guild_role_update(self, before: object, after: discord.Role) -> None:
        await self.catch_up(after.guild)

    async def on_member_update(self, before: object, after: discord.Member) -> None:
        if self.user is not None and after.id == self.user.id:  # the bot's own roles
            await self.catch_up(after.guild)

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A player left a server where they play (heard with `member_events` on): they
        withdraw from its tournaments (`tournament_left`); each other game of theirs there
        goes on (they may still move by DM), and its opponent is told, once, with what a
        server admin may do."""
        found = await self.service.find_player(TRANSPORT, str(payload.user.id))
        if not isinstance(found, Player) or found.address != str(payload.user.id):
            return
        await self.tournaments_left(found, payload.guild_id)
        for game in await self.service.games(found):
            channel = self.get_channel(target_of(game.place) or 0) if game.place else None
            if getattr(getattr(channel, "guild", None), "id", None) != payload.guild_id:
                continue
            side = game.side_of(found.id)
            assert side is not None
            if game.transports[1 - side] not in (TRANSPORT, "email"):
                continue  # the computer needs no telling
            other = game.transports[1 - side]
            await self.service.queue_notification(
                other, "member-left", _(
                    "{name} left the server where game #{game} is played. The game goes on: "
                    "they may still move by DM with `/move`, and their clock runs; a server "
                    "admin may end it with `/server ruling`.", name=found.display_name,
                    game=game.id), player_id=game.players[1 - side], place=game.place,
                game_id=game.id, payload={"dm": True} if other == TRANSPORT else None)
        await self.flush()

    async def tournaments_left(self, player: Player, guild_id: int) -> None:
        """``player`` left the server ``guild_id``: they leave, or withdraw from, each
        tournament of its channels (`Tournaments.leave_within`, by each channel with a
        tournament signing up or running: a Discord place names a channel, not its
        server)."""
        channels = {target_of(t.place) for t, _players in
                    await self.service.tournaments.listing(limit=MAX_TOURNAMENTS)}
        for channel_id in sorted(c for c in channels if c is not None):
            channel = self.get_channel(channel_id)
            if getattr(getattr(channel, "guild", None), "id", None) == guild_id:
                await self.service.tournaments.leave_within(player, channel_place(channel_id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread was deleted: the game gets a new thread in the same channel, as
        it stood, which says so; if none can be opened, its news goes to the channel."""
        place = thread_place(payload.parent_id, payload.thread_id)
        for game in await self.service.games(place=place):
            moved = await self.service.rooms.relocate(game.id, channel_place(payload.parent_id))
            thread = await live.open_thread(self, moved or game)
            where: object = thread or self.get_channel(payload.parent_id)
            note = (_("The earlier thread of game #{game} was deleted; the game goes on "
                      "here, as it stood.", game=game.id) if thread is not None else
                    _("The thread of game #{game} was deleted and I could not open a new "
                      "one: its news comes here.", game=game.id))
            language = await server_language(self, getattr(where, "guild", None))
            if isinstance(where, discord.abc.Messageable):
                try:
                    await where.send(note.render(language))
                except discord.HTTPException as error:
                    log.warning("game #%s: cannot say where it went: %s", game.id, error)

    async def catch_up(self, guild: discord.Guild) -> None:
        """Each game thread of ``guild`` that the bot may post in again gets, in one post
        with the board, the news it refused (`GameService.catch_up`)."""
        me = guild.me
        caught = 0
        for place in await self.service.refused_places(TRANSPORT):
            channel = self.get_channel(target_of(place) or 0)
            if channel is None or getattr(channel, "guild", None) != guild or me is None:
                continue
            rights = channel.permissions_for(me)  # type: ignore[union-attr]
            if rights.send_messages_in_threads if isinstance(channel, discord.Thread) \
                    else rights.send_messages:
                caught += await self.service.catch_up(TRANSPORT, place, HOME_BOARD)
        if caught:
            await self.flush()

    async def command_failed(self, interaction: discord.Interaction,
                             error: BaseException) -> None:
        """A command or button that raised: the user is answered (see `failures`: a
        storage fault in the words every transport uses), the host gets the log."""
        await failures.tell_member(interaction, error)

    # --- translation helpers used by the cogs -----------------------------------------
    async def player_of(self, user: discord.abc.User) -> Player:
        """The service's player for a Discord user (their display name kept current)."""
        logs.set_context(user_id=user.id)
        player = await self.service.player(TRANSPORT, str(user.id), user.display_name)
        self._addresses[player.id] = player.address
        return player

    async def mentions(self, game: Game, what: str = TURN) -> tuple[str, str]:
        """Both players as mentions (Discord users who take pings of ``what``: `TURN`,
        `OFFER` or `REMINDER`) or names (other transports, and pings turned off)."""
        out = []
        for side in (0, 1):
            pid = game.players[side]
            player = await self.service.get_player(pid) \
                if game.transports[side] == TRANSPORT else None
            if player is None:
                out.append(game.names[side])
                continue
            self._addresses[pid] = player.address
            out.append(await self.ping(player, game.place, what))
        return out[0], out[1]

    async def ping(self, player: Player, place: str | None, what: str = TURN) -> str:
        """``player`` as a mention if they take pings of ``what`` (their `/settings pings`,
        else the server's default, else all), else their name."""
        chosen = player.preferences.get(PINGS)
        if chosen is None and place:
            guild = getattr(self.get_channel(target_of(place) or 0), "guild", None)
            if guild is not None:
                chosen = (await self.service.rooms.server_settings(server_key(guild.id))).get(PINGS)
        if chosen == "none" or chosen == "turns" and what != TURN:
            return player.display_name
        return f"<@{player.address}>"

    async def board_message(self, game: Game, lead: str, perspective: int | None = None,
                            mention: bool = True, language: str = SOURCE,
                            ) -> dict[str, object]:
        """The keyword arguments of a message showing ``game``: the text, the picture
        with the whole last turn marked (seen from ``perspective``, by default the side to
        move), and the game's buttons while it goes on. ``mention=False``: the player to
        move is named, not pinged (a turn that goes on). The lead of a finished game's
        message says how it ended; ``language``: the reader's (`languages`)."""
        mentions = await self.mentions(game) if mention else game.names
        text = message_words(lead, language)
        if not game.is_over:
            text += "\n" + message_words(pictures.status_line(self.service, game, mentions),
                                          language)
        perspective = game.to_move if perspective is None else perspective
        message: dict[str, object] = {"content": text}
        picture = await pictures.picture(self.service, game, perspective=perspective,
                                         language=language)
        if picture is not None:
            message["file"] = picture
        view = with_watch_link(None if game.is_over else game_view(game, perspective,
                                                                   language),
                               await self.service.watching.game_link(game.id), language)
        if view is not None:
            message["view"] = view
        return message

    async def reply(self, interaction: discord.Interaction, **message: object,
                    ) -> discord.InteractionMessage | discord.WebhookMessage | None:
        """Answer an interaction publicly (or follow its deferral up); the message sent.
        A text of the catalogue is worded in the user's language."""
        if isinstance(message.get("content"), Text):
            message["content"] = message_words(message["content"],  # type: ignore[arg-type]
                                       reader_language(interaction))
        if interaction.response.is_done():
            return await interaction.followup.send(wait=True, **message)  # type: ignore[call-overload,no-any-return]
        sent = await interaction.response.send_message(**message)  # type: ignore[arg-type]
        resource = getattr(sent, "resource", None)
        return resource if isinstance(resource, discord.InteractionMessage) else None

    async def send_board(self, interaction: discord.Interaction, game: Game, lead: str,
                         perspective: int | None = None,
                         message: dict[str, object] | None = None,
                         mention: bool = True) -> None:
        """Answer with ``game``'s board (the interaction deferred first: drawing takes
        time). In the game's thread the new message is its live board; elsewhere (another
        channel, a DM) it is a look at the board, without buttons. A finished game's board
        announces its end. ``message``: one made already (`move_message`);
        ``mention=False``: the player to move is named, not pinged (a look at the board)."""
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        home = self.is_home(interaction.channel_id, game)
        language = reader_language(interaction)
        if message is None:
            if game.is_over:
                lead = joined(filter(None, [lead, await live.ending_text(self, game,
                                                                         language)]), "\n")
            message = await self.board_message(game, lead, perspective, mention=mention,
                                               language=language)
            if home and await self.service.turns.can_end_turn(game):
                # the new live board of a turn in progress keeps its step menu and End turn
                await self._with_steps(message, game, language)
        if not home:  # a look at the board: no game buttons; a turn going on keeps its menus
            view = message.pop("view", None)
            steps = [item for item in getattr(view, "children", [])
                     if isinstance(item, PiecePicker | StepPicker | EndTurnButton)]
            if steps and not game.is_over:
                message["view"] = discord.ui.View(timeout=None)
                for item in steps:
                    message["view"].add_item(item)  # type: ignore[union-attr]
        sent = await self.reply(interaction, **message)
        if home:
            await live.board_posted(self, game, sent, interaction.channel_id or 0)
        if game.is_over:
            await live.ending_announced(self, game, sent, interaction.channel_id or 0)

    async def board_sent(self, game: Game, sent: discord.abc.Snowflake | None,
                         channel_id: int) -> None:
        """``sent``, in the game's thread, shows ``game``'s board: it is the live one; a
        finished game's end is said."""
        await live.board_posted(self, game, sent, channel_id)
        if game.is_over:
            await live.ending_announced(self, game, sent, channel_id)

    async def move_message(self, result: Done, mention: bool = True,
                           language: str = SOURCE) -> dict[str, object]:
        """The answer to a move: the whole turn when it closed (and how the game ended);
        while the turn goes on, how many moves remain or `end`, nobody pinged, the menu of
        the next step and an End turn button beside the game's buttons. ``mention=False``:
        the player to move is named, not pinged (an answer away from the game's thread);
        ``language``: the reader's."""
        game = result.game
        assert game is not None
        if result.goes_on:
            message = await self.board_message(game, result.words(TRANSPORT, language, literal),
                                               mention=False, language=language)
            return await self._with_steps(message, game, language)
        lead = message_words(move_lead(result), language)
        if game.is_over:  # the ending's notice names the turn too: said once, in bold
            said = _("{name} played {number} {turn}.", name=game.names[1 - game.to_move],
                     number=result.number, turn=result.turn)
            said = message_words(said, language) + " "
            lead += "\n" + (await live.ending_text(self, game, language)).removeprefix(said)
        return await self.board_message(game, lead, mention=mention, language=language)

    async def _with_steps(self, message: dict[str, object], game: Game,
                          language: str = SOURCE) -> dict[str, object]:
        """``message`` with the menu of the turn's next step and End turn beside the game's
        buttons (a turn in progress)."""
        view = message["view"]
        assert isinstance(view, discord.ui.View)
        for item in (await next_step_view(self, game, language) or discord.ui.View()).children:
            view.add_item(item)
        return message

    def is_home(self, channel_id: int | None, game: Game) -> bool:
        """Whether ``channel_id`` is the game's own thread (or channel)."""
        return channel_id == (target_of(game.place) if game.place else None)

    async def send_move(self, interaction: discord.Interaction, result: Done) -> None:
        """Answer ``interaction`` with `move_message` (a live board in the game's thread).
        A move made elsewhere (a DM, another channel) is answered there without pinging
        anyone, with a link to the game's thread, and its news goes to the thread as for a
        move made there (`HOME_BOARD`, through the outbox: retried until it is posted)."""
        game = result.game
        assert game is not None
        thread = self.get_channel(target_of(game.place) or 0) if game.place else None
        in_dms = thread is None or isinstance(thread, discord.DMChannel)  # no thread to go to
        home = self.is_home(interaction.channel_id, game) or in_dms
        if not home and not result.goes_on:  # first: the thread has it whatever the reply does
            await self.service.queue_notification(
                TRANSPORT, HOME_BOARD, move_lead(result), place=game.place, game_id=game.id,
                payload={"ply": game.ply})
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        # only a post in the game's own thread or channel pings (the opponent reads it);
        # the news of a game of DMs reaches the opponent by DM
        language = reader_language(interaction)
        message = await self.move_message(result, mention=home and not in_dms,
                                          language=language)
        if not home:
            message["content"] = joined([str(message["content"]), _(
                "The game's thread: {thread}", thread=channel_mention(thread.id))],
                "\n").render(language)
        await self.send_board(interaction, game, "", message=message)

    async def answer(self, interaction: discord.Interaction, result: Result | str,
                     *, public: bool = False) -> None:
        """Answer with a refusal (only the sender sees it) or a plain message, in the
        user's language."""
        language = reader_language(interaction)
        said = message_words(result, language) if isinstance(result, str) \
            else result_text(result, language)
        text = fit(discord_times(phrase(said, TRANSPORT)), language=language)
        ephemeral = isinstance(result, Refusal) or not public
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral)


def move_lead(result: Done) -> Text:
    """The first line of the news of a closed turn (``1. **c3-d4** played in game #1.``),
    with the opponent's conditional answer played at once."""
    game = result.game
    assert game is not None
    lead = (turn_lead(result.number or "", result.turn, game.id) if result.turn
            else _("{move} played in game #{game}.", move=bold(result.move), game=game.id))
    if result.answer:  # the opponent's recorded answer was played at once
        return joined([lead, _("{name} answered at once with {move}, a conditional move.",
                               name=game.names[1 - game.to_move],
                               move=bold(result.answer))])
    return lead


# something run beside the bot on its service: entered before the bot starts, left when it
# stops (the e-mail gateway, the game pages)
Beside = Callable[[GameService, CommandPost], AbstractAsyncContextManager[object]]


def create_bot(service: GameService, settings: Settings | None = None) -> CommandPost:
    """The Discord bot on ``service`` (not yet connected)."""
    return CommandPost(service, settings or service.settings)


async def _open_service(settings: Settings) -> GameService | None:
    """The service for a process of the bot, its logging set up (None: it cannot open)."""
    logs.configure(settings.log_level)
    try:
        return await GameService.open(settings)
    except StorageError as err:
        log.error("%s", err)
        return None


async def run(settings: Settings, beside: Sequence[Beside] = ()) -> int:
    """Run the bot until it is stopped (SIGINT/SIGTERM), then close cleanly; ``beside``
    starts what runs beside the bot on its service (the runner in `bot.cli.run` chooses),
    and each is stopped when the bot stops."""
    service = await _open_service(settings)
    if service is None:
        return 1
    bot = create_bot(service, settings)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
        except NotImplementedError:  # not on this platform
            pass
    try:
        async with AsyncExitStack() as companions:
            for start in beside:
                await companions.enter_async_context(start(service, bot))
            async with bot:
                await bot.start(settings.discord_token)
    except discord.LoginFailure:
        log.error("Discord refused the token in COMMANDPOST_DISCORD_TOKEN")
        return 1
    except UNREACHABLE as err:  # at start: once connected, discord.py reconnects itself
        log.error("cannot reach Discord: %s", err)
        return 1
    finally:
        await service.close()
        log.info("stopped")
    return 0


async def sync(settings: Settings) -> int:
    """Upload the command tree now, whatever its stored hash says, and remember its hash."""
    service = await _open_service(settings)
    if service is None:
        return 1
    bot = CommandPost(service, settings, sync_only=True)
    try:
        async with bot:
            await bot.login(settings.discord_token)  # runs setup_hook, which uploads
    except discord.LoginFailure:
        log.error("Discord refused the token in COMMANDPOST_DISCORD_TOKEN")
        return 1
    except UNREACHABLE as err:
        log.error("cannot reach Discord: %s", err)
        return 1
    finally:
        await service.close()
    print("commandpost discord sync: the command tree is uploaded")
    return 0
