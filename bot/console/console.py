"""The console transport: a local session on the game service and its database.

The same command words as on every transport (`help` lists them), a text picture of the
board after each command that shows one, and the PNG written to a file whose path is
printed (when the renderer is installed). Two people can play at one keyboard: `as NAME`
switches who is typing. Notifications for anyone are printed after each command.

It behaves like a terminal program: the standard library's `readline` (where present)
gives line editing and history; Ctrl-C cancels the line being typed (a command once sent
runs to its end) and Ctrl-D quits; every answer is one message, never a traceback (an
unexpected failure is logged and answered in one line); Markdown in answers is shown as
bold on a terminal, plain otherwise. The pictures' caches are warmed in the background at start.
Its log (warnings, failures) goes to standard error, or, when that is the terminal the
game is shown on, to a file beside the database (`log_file`): never between the game's
lines.

    commandpost console [--db FILE] [--as NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import re
import sys
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine import get_variant

from .. import i18n, redact
from ..commands import (
    ONE_HELP_WORD,
    OPEN_WORDS,
    Reply,
    help_line,
    line_too_long,
    split_words,
)
from ..config import Settings, add_db_option, settings_or_say
from ..i18n import Text, _, _n, joined, message_id
from ..names import name_problem
from ..pictures import game_info, picture_file_name, points_destroyed, write_png
from ..service import GameService, outbox
from ..service.archive import FORMATS
from ..service.computer import WORDS as COMPUTER_WORDS
from ..service.computer import Computer
from ..service.model import Game, Notification, Player
from ..service.results import Reason, Refusal, storage_words
from ..service.scheduler import Scheduler
from ..storage import StorageError
from ..textboard import caption, text_board
from ..tournament_commands import TournamentCommands
from .files import FileRefused, read_text, write_text
from .terminal import ServiceLoop, Terminal, start_without_sigint

log = logging.getLogger(__name__)

TRANSPORT = "console"
# words that `challenge` reads as someone other than a player, so no player's name
RESERVED_NAMES = {**dict.fromkeys(COMPUTER_WORDS, message_id("the computer")),
                  **dict.fromkeys(OPEN_WORDS, message_id("an open challenge"))}
PLACE = "console:local"
# the console's own words, beside the service's (`help WORD` shows these): what each does,
# and its example
CONSOLE_HELP = {
    "as": (message_id("Switch who is typing (two players at one keyboard)."), "as bob"),
    "import": (message_id("Continue a game from a record file (written by `export`) against "
                          "someone: it becomes a challenge they accept."),
               "import game.txt vs bob"),
    "quit": (message_id("Leave the console (Ctrl-D does too; Ctrl-C cancels the line)."),
             "quit"),
}
CONSOLE_HELP["exit"] = (CONSOLE_HELP["quit"][0], "quit")
# the console's own lines of the `help` list: the words, and what they do
# (the words with a placeholder are messages too: a reader types `as TÊN`, not `as NAME`)
CONSOLE_LIST = ((message_id("as NAME"),
                 message_id("Switch who is typing (two players at one keyboard).")),
                (message_id("import FILE vs NAME"),
                 message_id("Continue a game from a record file.")),
                (message_id("export [#N] FILE"), message_id("Also write the record to a file.")),
                ("quit", message_id("Leave the console.")))
HELP_WORD_WIDTH = 12  # the column of the commands' words in the `help` list
BOLD, PLAIN = "\033[1m", "\033[0m"


def _listed(typed: str, what: str, language: str) -> list[str]:
    """A console line of the `help` list: the words typed, worded for the reader where
    they have a placeholder, then what they do. English keeps its columns as they were
    before the words were worded; in another language, words longer than the column of
    the commands' words stand on a line of their own, the description below them."""
    if typed == "quit":
        return help_line(typed, what)
    if language == i18n.SOURCE:
        columns = {"import FILE vs NAME": 20, "export [#N] FILE": 19}
        return help_line(f"{typed:<{columns.get(typed, 12)}}", what)
    shown = Text(typed, {}).render(language)
    if len(shown) <= HELP_WORD_WIDTH:
        return help_line(shown, what)
    return [f"  {shown}", *help_line("", what)]


# each pattern's runs stop at the next mark that could end or restart them, so a text of
# marks that never close is read in linear time (a note list of "[a[a[a..." or "*a *a ..."
# took seconds, then minutes, with runs that went on to the end of the line)
LINK = re.compile(r"\[([^\[\]\n]+)\]\(([^()\s]+)\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.*)$", re.M)
STRONG = re.compile(r"\*\*([^*\n]+)\*\*|__([^_\n]+)__")
EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])")


def terminal_text(text: str, bold: bool = False) -> str:
    """Markdown as a terminal shows it: ``**strong**`` and headings in bold (or plain),
    ``*emphasis*`` plain, ``[text](link)`` as "text (link)"; code spans keep their marks,
    which name what to type. Linear in the text, whatever it holds."""
    on, off = (BOLD, PLAIN) if bold else ("", "")
    text = LINK.sub(r"\1 (\2)", text)
    text = HEADING.sub(lambda m: on + m.group(1) + off, text)
    text = STRONG.sub(lambda m: on + (m.group(1) or m.group(2)) + off, text)
    return EMPHASIS.sub(r"\1", text)


class Console:
    """One console session: who is typing, and the service it talks to."""

    def __init__(self, service: GameService, settings: Settings,
                 out: Callable[[str], None] = print, bold: bool = False) -> None:
        self.service = service
        self.settings = settings
        self.bold = bold
        self._print = out
        self.commands = TournamentCommands(service, self.find_player,
                                           language=i18n.system_language())
        self.use_computer(Computer(service))
        self.scheduler = Scheduler(service)
        self.player: Player | None = None
        self._said: set[str] = set()  # texts printed since the last line was read
        self._stop = asyncio.Event()
        self._thinking: asyncio.Task[None] | None = None

    def use_computer(self, computer: Computer) -> None:
        """The computer players this console plays against (tests give one with their own
        pool): its moves are shown here as they are played."""
        self.computer = computer
        self.commands.computer = computer
        computer.on_move.append(self._computer_moved)
        computer.on_think.append(self._computer_thinks)
        computer.on_answer.append(self._deliver)

    async def start(self) -> None:
        """Let the computer think in the background: lines are read and answered while it
        thinks, and its move is shown when it is played."""
        self._stop.clear()
        self._thinking = asyncio.create_task(self.computer.run(self._stop))

    async def stop(self) -> None:
        """Stop the computer at once (a search in progress is abandoned: it thinks again
        at the next start)."""
        self._stop.set()
        if self._thinking is not None:
            self._thinking.cancel()
            await asyncio.gather(self._thinking, return_exceptions=True)
            self._thinking = None
        self.computer.close()

    def language(self) -> str:
        """The language of the one typing (`language`, else the system's)."""
        return self.commands.language_of(self.player)

    def out(self, text: str) -> None:
        """Print ``text``, a message worded in the language of the one typing."""
        self._print(terminal_text(i18n.render(text, self.language()), self.bold))

    async def find_player(self, name: str) -> Player | Refusal:
        """At the console anyone may be named: a new name is a new player, if it reads as a
        name (`bot.names`: a letter or digit first, so ``#3`` and ``-1`` are no one's
        names; letters the pictures can draw) and is no word a command gives a meaning
        (``computer``, ``anyone``). A known player is found in any case (``Bob`` is
        ``bob``) and keeps the name as first written: naming someone renames no one."""
        name = name.strip()
        problem = name_problem(name)
        if problem is not None:
            return Refusal(Reason.NO_SUCH_PLAYER, problem)
        known = await self.service.find_player(TRANSPORT, name.lower())
        if isinstance(known, Player):
            return known
        if name.lower() in RESERVED_NAMES:
            challenge = f"`challenge {name.lower()}`"
            return Refusal(Reason.NO_SUCH_PLAYER, _(
                "{name} cannot be a player's name here: {challenge} means {meaning}. Choose "
                "another name.", name=repr(name), challenge=challenge,
                meaning=Text(RESERVED_NAMES[name.lower()], {})))
        return await self.service.player(TRANSPORT, name.lower(), name)

    async def switch(self, name: str) -> None:
        found = await self.find_player(name)
        if isinstance(found, Refusal):
            self.out(found.words(TRANSPORT, self.language()))
            return
        self.player = found
        waiting = [g for g in await self.service.games(self.player)
                   if g.to_move == g.side_of(self.player.id)]
        numbers = ", ".join(f"#{g.id}" for g in waiting)
        note = _n("Your move in game {games}.", "Your move in games {games}.", len(waiting),
                  games=numbers) if waiting else None
        # a known player named in another case: told so, not renamed
        typed = unicodedata.normalize("NFC", name.strip())  # as names are stored
        quoted = f'`challenge "{found.display_name}"`'
        spaces = (_("Others challenge you with {challenge}.", challenge=quoted)
                  if " " in found.display_name else None)
        if found.display_name != typed:
            who = _("You are {name} (the name as first written).", name=found.display_name)
        elif found.display_name.endswith("."):
            who = _("You are {name}", name=found.display_name)
        else:
            who = _("You are {name}.", name=found.display_name)
        self.out(joined(filter(None, [who, note, spaces])))

    def _pasted(self, line: str) -> str:
        """A command as pasted from this console's own lines: the backticks it writes
        commands in (`` `accept #2` ``) and a prompt copied with it (``alice> board``)."""
        if len(line) > 2 and line[0] == line[-1] == "`" and "`" not in line[1:-1]:
            line = line[1:-1].strip()
        if self.player is not None:
            line = line.removeprefix(f"{self.player.display_name}> ").strip()
        return line

    async def run_line(self, line: str) -> bool:
        """Run one line typed at the console; False when the session should end. Whatever
        happens, the answer is printed as one message: never a traceback. A line too long
        to be a command is refused before it is read at all."""
        refused = line_too_long(line)
        if refused is not None:
            self.out(refused.text)
            return True
        line = self._pasted(line.strip())
        words = split_words(line)
        if not words:
            return True
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in line):
            self.out(_("That line holds terminal keys (an arrow key, say), not a command: "
                       "type it again."))
            return True
        if words[0].lower() in ("quit", "exit"):
            if len(words) == 1:
                return False
            word = f"`{words[0].lower()}`"
            self.out(_("{word} takes nothing after it: say just `quit`.", word=word))
            return True
        try:
            await self._run(words, line)
        except StorageError as err:  # rolled back: the player is told, the host logs why
            log.error("console command not carried out: %s", err)
            self.out(storage_words(err))
        except Exception as err:  # an answer, never a traceback; the details go to the log
            log.exception("console command %r failed", line)
            error = f"{type(err).__name__}: {err}"
            self.out(_("Sorry, that failed ({error}). Try again, or type `help`.", error=error))
        return True

    async def _run(self, words: list[str], line: str) -> None:
        self._said = set()
        word = words[0].lower()
        await self.scheduler.run_due()
        if word == "as":
            if len(words) < 2:
                self.out(_("Say who you are: `as NAME`."))
            else:
                await self.switch(" ".join(words[1:]))
        else:
            if self.player is None:
                self.out(_("Say who you are first: `as NAME`."))
                return
            reply = await self._command(self.player, words, line)
            if reply.player is not None:  # the command changed who is typing (a language)
                self.player = reply.player
            await self.show(reply)
            self.computer.wake()  # it answers in the background (`start`)
        await self._deliver()

    async def _deliver(self) -> None:
        await self.service.deliver(TRANSPORT, self._print_notification)

    async def _computer_moved(self, game: Game) -> None:
        """The computer's move, shown as a person's is to the one who played it: the news,
        then the board as text and as a picture."""
        self._said = set()
        await self._deliver()
        await self.show_board(game)

    async def _computer_thinks(self, game: Game, computer: Player, seconds: float) -> None:
        """Said as the computer starts to think, so that its silence is not taken for a
        hang (level 5 thinks 8 s); lines are read and answered meanwhile."""
        self.out(_("{name} is thinking about its move in game #{game} (about {seconds} s)…",
                   name=computer.display_name, game=game.id,
                   seconds=i18n.format_number(seconds, self.language())))

    async def _command(self, player: Player, words: list[str], line: str) -> Reply:
        word = words[0].lower()
        if word == "import":
            return await self._import(player, words[1:])
        if word == "export":
            return await self._export(player, words)
        if word == "help":
            if len(words) > 2:
                return Reply(ONE_HELP_WORD, ok=False)
            if len(words) == 2 and words[1].lower() in CONSOLE_HELP:
                what, example = CONSOLE_HELP[words[1].lower()]
                return Reply(_("{word}: {help}", word=words[1].lower(), help=joined(
                    [Text(what, {}), example], "\n\n")))
            reply = await self.commands.handle(player, PLACE, line)
            if len(words) == 2 and words[1].lower() == "export":
                reply = Reply(joined([reply.text, _(
                    "{example}   (the console also writes the record to a file)",
                    example="  export #3 game.txt")], "\n"))
            if len(words) == 1:
                language = self.language()
                # the words' columns as they were before the console's lines were worded
                extra = [line for typed, what in CONSOLE_LIST for line in _listed(
                    typed, Text(what, {}).render(language), language)]
                reply = Reply("\n".join([reply.text, *extra]))
            return reply
        return await self.commands.handle(player, PLACE, line)

    async def _export(self, player: Player, words: list[str]) -> Reply:
        """`export [#N] [FILE]`: the record, and the file written (or why not)."""
        paths = [w for w in words[1:] if not w.startswith("#") and w.lower() not in FORMATS]
        if len(paths) > 1:
            return Reply(_("Give one file: `export #3 game.txt` (I read {count}: {paths}).",
                           count=len(paths), paths=", ".join(paths)), ok=False)
        path = paths[0] if paths else None
        if path and path.startswith("-"):
            example = f"`export #3 ./{path}`"
            return Reply(_("{path} looks like an option, not a file name: say {example} if "
                           "you mean it.", path=repr(path), example=example), ok=False)
        reply = await self.commands.handle(player, PLACE, " ".join(
            w for w in words if w != path))
        if path and reply.record:
            try:
                write_text(path, reply.record)
            except FileRefused as refused:
                return Reply(refused.text, ok=False)
            return Reply(joined([reply.record, _("Written to {path}.", path=path)], "\n"))
        return reply

    async def _import(self, player: Player, args: list[str]) -> Reply:
        if len(args) < 3 or args[-2].lower() != "vs":
            return Reply(_("Say which file and against whom: `import game.txt vs bob`."),
                         ok=False)
        path = " ".join(args[:-2])
        try:
            text = read_text(path)
        except FileRefused as refused:
            return Reply(refused.text, ok=False)
        return await self.commands.import_record(player, PLACE, text, args[-1])

    async def show(self, reply: Reply) -> None:
        """Print a reply, and the board it shows (as text, and as a PNG file)."""
        self.out(reply.text)
        self._said.add(reply.text)
        for picture in reply.pictures:
            self.out(_("Picture: {path}", path=str(picture)))
        if reply.game is not None:
            await self.show_board(reply.game, reply.ply, reply.highlights, reply.selected)

    async def show_board(self, game: Game, ply: int | None = None,
                         highlights: tuple[str, ...] = (), selected: str | None = None) -> None:
        """Print the board of ``game`` after ``ply`` (now, when None) as text, and write it
        as a PNG file."""
        variant = get_variant(game.variant)
        ply = game.ply if ply is None else max(0, min(ply, game.ply))
        position = await self.service.position(game, ply)
        # the whole last turn is marked; a piece's moves replace it when asked for
        last = [] if selected else await self.service.turns.turn_moves(game, ply)
        marked = highlights or tuple(p for m in last for p in m.touched)
        self.out(text_board(variant, position, marked))
        result = self.service.describe_result(game) if game.is_over and ply >= game.ply else ""
        played = await self.service.played_moves(game.id)
        self.out(_("Game over: {result}.", result=result) if result
                 else caption(variant, position, points_destroyed(game, played, ply)))
        # one file per viewer: two players at one keyboard each keep their own picture
        perspective = self._perspective(game, position.side)
        # the picture speaks the language of the one typing, as the text around it does
        language = self.language()
        path = self.settings.pictures_dir / picture_file_name(game, ply, perspective,
                                                              highlights, selected)
        info = game_info(game, played, ply, language=language)
        written, note = write_png(position, path, last, result=result, info=info,
                                  theme=self.settings.theme, language=language,
                                  perspective=perspective, highlights=highlights,
                                  selected=selected)
        self.out(_("Picture: {path}", path=str(written)) if written else
                 _("({note})", note=note))

    def _perspective(self, game: Game, to_move: int) -> int:
        """The side of whoever is typing, or the side to move for a spectator."""
        side = game.side_of(self.player.id) if self.player else None
        return to_move if side is None else side

    async def _print_notification(self, notification: Notification) -> None:
        """A notification, addressed; one that says again what was just printed to the one
        typing (the reply), or what everyone here was just shown to a player, is not
        printed twice: at one keyboard, everyone here has read it."""
        mine = self.player is not None and notification.player_id == self.player.id
        # the reply was printed in the typer's words: the news is compared in them too
        # (before any wait: lanes are delivered side by side)
        seen = {notification.text, outbox.worded(notification, self.language())}
        if seen & self._said and (mine or notification.player_id is None):
            return
        self._said |= seen
        reader = (await self.service.get_player(notification.player_id)
                  if notification.player_id is not None else self.player)
        language = self.commands.language_of(reader)
        words = outbox.worded(notification, language)
        to = (_("  [to {name}] {news}", name=notification.address, news=words)
              if notification.player_id is not None else
              _("  [to everyone here] {news}", news=words))
        # the news and its address, in the language of the one it is for
        self._print(terminal_text(to.render(language), self.bold))


def _readline() -> None:
    """Line editing and history for `input`, where the standard library has them."""
    try:
        import readline  # noqa: F401  (importing it is what turns it on)
    except ImportError:  # Windows, or Python built without it
        pass


def warm_up(theme: str) -> threading.Thread:
    """Draw every variant's start once in a background thread, so the first picture of a
    game is as fast as the others (the board, sprites and palette are cached)."""
    def work() -> None:
        try:
            from engine import all_variants
            from renderer import render
            for variant in all_variants():
                render(variant.start_position(), variant=variant, theme=theme)
        except Exception:  # warming is a nicety: without it pictures are drawn anyway
            log.debug("warming the pictures failed", exc_info=True)
    thread = threading.Thread(target=work, name="warm-pictures", daemon=True)
    start_without_sigint(thread)
    return thread


def run(settings: Settings, name: str, lines: Callable[[str], str] = input) -> int:
    """A console session until `quit` or the end of input (Ctrl-D).

    Lines are read in the main thread and the service runs on a thread of its own
    (`terminal.ServiceLoop`): Ctrl-C while typing cancels the line at once, a command
    once sent runs to its end, and the computer thinks and plays meanwhile."""
    _readline()
    terminal = Terminal()
    with ServiceLoop() as service_loop:
        try:
            service = service_loop.run(GameService.open(settings))
        except StorageError as err:
            print(f"commandpost: {err}")  # the host's words: it did not start
            return 1
        try:
            return _session(service_loop, terminal, service, settings, name, lines)
        finally:
            service_loop.run(service.close())


def _session(service_loop: ServiceLoop, terminal: Terminal, service: GameService,
             settings: Settings, name: str, lines: Callable[[str], str]) -> int:
    console = Console(service, settings, out=terminal.print, bold=sys.stdout.isatty())

    def say(text: str) -> None:
        terminal.print(i18n.render(text, console.language()))

    say(_("commandpost console on {database}. Type `help` for the commands, `as NAME` to "
          "choose who is typing, `quit` to leave.",
          database=redact.redact_url(settings.db_path)))
    warm_up(settings.theme)
    service_loop.run(console.switch(name))
    service_loop.run(console.run_line("games"))
    service_loop.run(console.start())
    try:
        while True:
            prompt = f"{console.player.display_name}> " if console.player else "> "
            try:
                line = terminal.read(lines, prompt)
            except EOFError:
                terminal.print("")
                return 0
            except KeyboardInterrupt:
                say(_("^C (line cancelled; Ctrl-D or `quit` leaves)"))
                continue
            except UnicodeDecodeError:
                say(_("That line is not UTF-8 text; nothing was done. Type it again."))
                continue
            if not service_loop.run(console.run_line(line)):
                return 0
    finally:
        service_loop.run(console.stop())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="commandpost console",
                                     description="Play correspondence games at the terminal.")
    add_db_option(parser)
    parser.add_argument("--as", dest="name", default=None, help="who is typing at first")
    args = parser.parse_args(argv)
    settings = settings_or_say(args)
    if settings is None:
        return 2
    redact.configure("WARNING", file=log_file(settings))  # game keys never
    logging.captureWarnings(True)  # Python's warnings too: never between the game's lines
    name = args.name or _login_name()
    return run(settings, name)


def log_file(settings: Settings, out: TextIO | None = None,
             err: TextIO | None = None) -> Path | None:
    """Where the console's log goes: None (standard error) unless standard error is the
    terminal the game is shown on, where a warning would fall between the game's lines and
    the prompt; then a file beside the database (`commandpost.console.log` beside
    `commandpost.db`; for a database URL, in the current folder), if it may be written."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        same = err.isatty() and out.isatty() and os.path.samestat(
            os.fstat(out.fileno()), os.fstat(err.fileno()))
    except (OSError, ValueError):  # a stream without a file (closed, or a test's)
        return None
    if not same:
        return None
    db = settings.db_path
    path = db.with_suffix(".console.log") if isinstance(db, Path) \
        else Path("commandpost.console.log")
    folder = path.parent
    writable = os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK)
    return path if writable and not path.is_dir() else None


def _login_name() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in this environment
        return "player"
