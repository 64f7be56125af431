"""The console transport: a local session on the game service and its database.

The same command words as on every transport (`help` lists them), a text picture of the
board after each command that shows one, and the PNG written to a file whose path is
printed (when the renderer is installed). Two people can play at one keyboard: `as NAME`
switches who is typing. Notifications for anyone are printed after each command.

    commandpost console [--db FILE] [--as NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
from collections.abc import Callable
from pathlib import Path

from engine import EngineError, Move, get_variant

from .commands import Commands, Reply
from .computer import Computer
from .config import ConfigError, Settings, add_db_option, settings_for
from .model import Game, Notification, Player
from .picture import write_png
from .records import END
from .results import Refusal
from .scheduler import Scheduler
from .service import GameService
from .storage import StorageError
from .textboard import caption, text_board

TRANSPORT = "console"
PLACE = "console:local"


class Console:
    """One console session: who is typing, and the service it talks to."""

    def __init__(self, service: GameService, settings: Settings,
                 out: Callable[[str], None] = print) -> None:
        self.service = service
        self.settings = settings
        self.out = out
        self.computer = Computer(service)
        self.commands = Commands(service, self.find_player, self.computer)
        self.scheduler = Scheduler(service)
        self.player: Player | None = None

    async def find_player(self, name: str) -> Player | Refusal:
        """At the console anyone may be named: a new name is a new player."""
        return await self.service.player(TRANSPORT, name.strip().lower(), name.strip())

    async def switch(self, name: str) -> None:
        self.player = await self.service.player(TRANSPORT, name.strip().lower(), name.strip())
        waiting = [g for g in await self.service.games(self.player)
                   if g.to_move == g.side_of(self.player.id)]
        note = (f" Your move in game{'s' if len(waiting) > 1 else ''} "
                + ", ".join(f"#{g.id}" for g in waiting) + "." if waiting else "")
        self.out(f"You are {self.player.display_name}.{note}")

    async def run_line(self, line: str) -> bool:
        """Run one line typed at the console; False when the session should end."""
        line = line.strip()
        words = line.split()
        if not words:
            return True
        word = words[0].lower()
        if word in ("quit", "exit"):
            return False
        await self.scheduler.run_due()
        if word == "as":
            if len(words) < 2:
                self.out("Say who you are: `as NAME`.")
            else:
                await self.switch(" ".join(words[1:]))
        else:
            assert self.player is not None
            reply = await self._command(self.player, words, line)
            await self.show(reply)
            await self.computer.play_due()  # the computer answers before the next prompt
        await self.service.deliver(TRANSPORT, self._print_notification)
        return True

    async def _command(self, player: Player, words: list[str], line: str) -> Reply:
        word = words[0].lower()
        if word == "import":
            return await self._import(player, words[1:])
        if word == "export":
            path = next((w for w in words[1:] if not w.startswith("#")), None)
            reply = await self.commands.handle(player, PLACE, " ".join(
                w for w in words if w != path))
            if path and reply.record:
                Path(path).write_text(reply.record, encoding="utf-8")
                return Reply(f"{reply.record}\nWritten to {path}.")
            return reply
        if word == "help":
            reply = await self.commands.handle(player, PLACE, line)
            if len(words) == 1:
                extra = ("\n  as NAME      Switch who is typing (two players at one keyboard)."
                         "\n  import FILE vs NAME  Continue a game from a record file."
                         "\n  export [#N] FILE    Also write the record to a file."
                         "\n  quit         Leave the console.")
                reply = Reply(reply.text + extra)
            return reply
        return await self.commands.handle(player, PLACE, line)

    async def _import(self, player: Player, args: list[str]) -> Reply:
        if len(args) < 3 or args[-2].lower() != "vs":
            return Reply("Say which file and against whom: `import game.txt vs bob`.", ok=False)
        path = Path(" ".join(args[:-2]))
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            return Reply(f"I cannot read {str(path)!r}: {err.strerror}.", ok=False)
        return await self.commands.import_record(player, PLACE, text, args[-1])

    async def show(self, reply: Reply) -> None:
        """Print a reply, and the board it shows (as text, and as a PNG file)."""
        self.out(reply.text)
        for picture in reply.pictures:
            self.out(f"Picture: {picture}")
        if reply.game is None:
            return
        game = reply.game
        variant = get_variant(game.variant)
        ply = game.ply if reply.ply is None else max(0, min(reply.ply, game.ply))
        position = await self.service.position(game, ply)
        last = await self._last_move(game, ply)
        self.out(text_board(variant, position, last.touched if last else ()))
        self.out(caption(variant, position))
        path = self.settings.pictures_dir / f"game-{game.id}-{ply}.png"
        result = self.service.describe_result(game) if game.is_over else ""
        written, note = write_png(position, path, last, f"Game #{game.id}: {game.names[0]} vs "
                                                        f"{game.names[1]}", result)
        self.out(f"Picture: {written}" if written else f"({note})")

    async def _last_move(self, game: Game, ply: int) -> Move | None:
        """The step before ``ply``, to mark on the board."""
        if ply == 0:
            return None
        played = await self.service.played_moves(game.id)
        if ply > len(played) or played[ply - 1].text == END:
            return None
        variant = get_variant(game.variant)
        before = await self.service.position(game, ply - 1)
        try:
            return variant.parse_move(before, played[ply - 1].text)
        except EngineError:
            return None

    async def _print_notification(self, notification: Notification) -> None:
        to = notification.address if notification.player_id is not None else "everyone here"
        self.out(f"  [to {to}] {notification.text}")


async def run(settings: Settings, name: str, lines: Callable[[str], str] = input) -> int:
    """A console session until `quit` or the end of input."""
    try:
        service = await GameService.open(settings)
    except StorageError as err:
        print(f"commandpost: {err}")
        return 1
    async with service:
        console = Console(service, settings)
        try:
            return await _session(console, settings, name, lines)
        finally:
            console.computer.close()


async def _session(console: Console, settings: Settings, name: str,
                   lines: Callable[[str], str]) -> int:
    """Read and run lines until `quit` or the end of input."""
    print(f"commandpost console on {settings.db_path}. Type `help` for the commands, "
          f"`as NAME` to choose who is typing, `quit` to leave.")
    await console.switch(name)
    await console.run_line("games")
    while True:
        prompt = f"{console.player.display_name}> " if console.player else "> "
        try:
            line = await asyncio.to_thread(lines, prompt)
        except EOFError:
            print()
            return 0
        if not await console.run_line(line):
            return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="commandpost console",
                                     description="Play correspondence games at the terminal.")
    add_db_option(parser)
    parser.add_argument("--as", dest="name", default=None, help="who is typing at first")
    args = parser.parse_args(argv)
    try:
        settings = settings_for(args)
    except ConfigError as err:
        print(f"commandpost: {err}")
        return 2
    name = args.name or _login_name()
    return asyncio.run(run(settings, name))


def _login_name() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in this environment
        return "player"
