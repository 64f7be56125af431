"""The bot: `create_bot` builds a `commands.Bot` on a game service, with the command cogs,
the buttons that survive restarts, the scheduler loop and the outbox delivery; `run` is
the process (logging, signals, graceful shutdown)."""

from __future__ import annotations

import asyncio
import logging
import signal

import discord
from discord.ext import commands, tasks

from ..computer import Computer
from ..config import Settings
from ..email_gateway.runner import run_email_gateway
from ..model import Game, Player
from ..results import Done, Refusal, Result
from ..service import GameService
from ..storage import StorageError
from . import logs, pictures
from .notifier import Notifier
from .places import TRANSPORT
from .views import ChallengeButton, GameButton, game_view

log = logging.getLogger(__name__)
SCHEDULER_SECONDS = 60.0
COMPUTER_SECONDS = 1.0  # how often the computer looks for games to answer


class CommandPost(commands.Bot):
    """The commandpost bot: every command is a call of ``service``."""

    def __init__(self, service: GameService, settings: Settings) -> None:
        intents = discord.Intents.default()
        intents.message_content = settings.typed_moves.lower() in ("on", "yes", "true", "1")
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None,
                         allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                                  roles=False))
        self.service = service
        self.settings = settings
        self.notifier = Notifier(self)
        self.computer = Computer(service)
        self.computer.on_answer.append(self.flush)
        self._addresses: dict[int, str] = {}
        self._flush_lock = asyncio.Lock()

    async def setup_hook(self) -> None:
        from .commands_admin import AdminCommands
        from .commands_info import InfoCommands
        from .commands_play import PlayCommands
        for cog in (PlayCommands(self), InfoCommands(self), AdminCommands(self)):
            await self.add_cog(cog)
        self.add_dynamic_items(GameButton, ChallengeButton)
        await asyncio.to_thread(pictures.warm_up)
        await self.tree.sync()
        self.scheduler.start()
        self.thinking.start()

    async def close(self) -> None:
        self.scheduler.cancel()
        self.thinking.cancel()
        self.computer.close()
        await super().close()

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
        """One scheduler pass: what is due, then the notifications."""
        try:
            await self.service.process_due()
        except StorageError:
            log.exception("scheduler pass failed")
        await self.flush()

    async def flush(self) -> None:
        """Deliver the service's pending Discord notifications."""
        async with self._flush_lock:
            try:
                await self.service.deliver(TRANSPORT, self.notifier.send)
            except discord.HTTPException:
                log.exception("a notification could not be delivered; it stays pending")

    # --- translation helpers used by the cogs -----------------------------------------
    async def player_of(self, user: discord.abc.User) -> Player:
        """The service's player for a Discord user (their display name kept current)."""
        logs.set_context(user_id=user.id)
        player = await self.service.player(TRANSPORT, str(user.id), user.display_name)
        self._addresses[player.id] = player.address
        return player

    async def mentions(self, game: Game) -> tuple[str, str]:
        """Both players as mentions (Discord users) or names (other transports)."""
        out = []
        for side in (0, 1):
            pid = game.players[side]
            if game.transports[side] != TRANSPORT:
                out.append(game.names[side])
                continue
            if pid not in self._addresses:
                player = await self.service.get_player(pid)
                self._addresses[pid] = player.address if player else ""
            out.append(f"<@{self._addresses[pid]}>")
        return out[0], out[1]

    async def board_message(self, game: Game, lead: str, perspective: int = 0,
                            ) -> dict[str, object]:
        """The keyword arguments of a message showing ``game``: the text, the picture
        with the last move marked, and the game's buttons while it goes on."""
        mentions = await self.mentions(game)
        text = f"{lead}\n{pictures.status_line(self.service, game, mentions)}"
        message: dict[str, object] = {"content": text}
        picture = await pictures.picture(self.service, game, perspective=perspective)
        if picture is not None:
            message["file"] = picture
        if not game.is_over:
            message["view"] = game_view(game)
        return message

    async def answer(self, interaction: discord.Interaction, result: Result | str,
                     *, public: bool = False) -> None:
        """Answer with a refusal (only the sender sees it) or a plain message."""
        text = result if isinstance(result, str) else _text(result)
        ephemeral = isinstance(result, Refusal) or not public
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral)


def _text(result: Result) -> str:
    if isinstance(result, Refusal):
        text = result.message
        if result.candidates:
            text += "\n" + "\n".join(f"• `{c}`" for c in result.candidates)
        return text
    assert isinstance(result, Done)
    return result.message


def create_bot(service: GameService, settings: Settings | None = None) -> CommandPost:
    """The Discord bot on ``service`` (not yet connected)."""
    return CommandPost(service, settings or service.settings)


async def run(settings: Settings) -> int:
    """Run the bot until it is stopped (SIGINT/SIGTERM), then close cleanly."""
    logs.configure(settings.log_level)
    try:
        service = await GameService.open(settings)
    except StorageError as err:
        log.error("%s", err)
        return 1
    bot = create_bot(service, settings)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
        except NotImplementedError:  # not on this platform
            pass
    # with an e-mail address configured, the e-mail gateway runs beside the bot on the
    # same service (the bot's scheduler serves both)
    mail = (asyncio.create_task(run_email_gateway(service, settings, computer=bot.computer))
            if settings.email_address else None)
    try:
        async with bot:
            await bot.start(settings.discord_token)
    except discord.LoginFailure:
        log.error("Discord refused the token in COMMANDPOST_DISCORD_TOKEN")
        return 1
    finally:
        if mail is not None:
            mail.cancel()
            await asyncio.gather(mail, return_exceptions=True)
        await service.close()
        log.info("stopped")
    return 0


def main(argv: list[str]) -> int:
    """``commandpost discord``: run the Discord bot with the settings from the environment."""
    settings = Settings.from_env()
    if not settings.discord_token:
        print("commandpost discord: set COMMANDPOST_DISCORD_TOKEN to the bot's token")
        return 2
    return asyncio.run(run(settings))
