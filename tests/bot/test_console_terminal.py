"""`commandpost console` at a real terminal (a pseudo-terminal): Ctrl-C while the computer
thinks cancels the line being typed, and the computer plays on.

The Ctrl-C is sent once the console has said that the computer is thinking and shows the
prompt again (it reads the next line), at level 5, whose search runs until its 8 seconds
are spent (its depth, 64, is never reached from an opening position): the search is in
progress when the signal comes, and the order of what the terminal shows (the cancelled
line before the computer's move) is asserted."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def console_env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "COMMANDPOST_DB": str(tmp_path / "main.db"),
           "COMMANDPOST_PICTURES": str(tmp_path / "pictures"), "PYTHONPATH": str(ROOT),
           "TERM": "dumb"}
    env.pop("COMMANDPOST_DISCORD_TOKEN", None)
    return env


class Terminal:
    """The master side of a pseudo-terminal running `commandpost console`."""

    def __init__(self, tmp_path: Path) -> None:
        env = console_env(tmp_path)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the console, in the terminal's foreground group
            os.chdir(tmp_path)
            os.execve(sys.executable, [sys.executable, "-m", "bot", "console", "--as", "alice"],
                      env)
        self.seen = ""
        self.shown = ""  # everything the terminal showed

    def expect(self, pattern: str, seconds: float = 60) -> re.Match[str]:
        """Read until ``pattern`` appears after what an earlier `expect` consumed."""
        found = re.compile(pattern)
        deadline = seconds / 0.1
        while deadline > 0:
            match = found.search(self.seen)
            if match:
                self.seen = self.seen[match.end():]
                return match
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            deadline -= 1
            if ready:
                try:
                    self._show(os.read(self.fd, 65536).decode(errors="replace"))
                except OSError:  # the console ended
                    break
        raise AssertionError(f"{pattern!r} did not come; the terminal shows:\n{self.seen}")

    def waits_for_a_key(self) -> None:
        """Return once the console's main thread sleeps in the kernel waiting for input
        (readline's select): a signal then interrupts that wait. One that comes while the
        thread runs (between two keys) is seen by Python only at the next key."""
        for _ in range(6000):
            with open(f"/proc/{self.pid}/wchan", encoding="ascii") as wchan:
                if wchan.read().startswith(("poll_schedule_timeout", "do_select")):
                    return
            select.select([], [], [], 0.01)
        raise AssertionError("the console never waited for a key")

    def _show(self, text: str) -> None:
        self.seen += text
        self.shown += text

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def close(self) -> int:
        """The console's exit status (it is ended if it has not ended within 30 s)."""
        for _ in range(300):
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    self._show(os.read(self.fd, 65536).decode(errors="replace"))
                except OSError:  # the console closed the terminal: wait for it to end
                    select.select([], [], [], 0.1)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return -1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal, /proc")
def test_ctrl_c_while_the_computer_thinks_cancels_the_line_and_the_computer_plays_on(tmp_path):
    terminal = Terminal(tmp_path)
    try:
        terminal.expect(r"alice> ")
        terminal.type("challenge computer 5 clash white\r")
        terminal.expect(r"alice \(White\) moves first\.")
        terminal.type("b2-a3/D\r")
        terminal.expect(r"Computer \(level 5\) \(Black\) is to move\.")
        terminal.expect(r"Computer \(level 5\) is thinking about its move in game #1 "
                        r"\(about 8 s\)…")
        # the prompt after it: the line is being read (before it, the command that woke
        # the computer may still be ending, and a Ctrl-C then does not cancel it)
        terminal.expect(r"alice> ")
        # Ctrl-B (back one character) is echoed as a backspace only by readline, reading in
        # its loop (before it, the terminal's own line mode would throw the typed text away
        # at a Ctrl-C); the Ctrl-C goes once it waits for the next key
        terminal.type("half a li\x02")
        terminal.expect("half a li\x08")
        terminal.waits_for_a_key()
        terminal.type("\x03")  # Ctrl-C: SIGINT to the console and its search processes
        try:
            terminal.expect(r"\^C \(line cancelled; Ctrl-D or `quit` leaves\)", seconds=4)
        except AssertionError:
            # a Ctrl-C pressed in the instant the computer's pool starts a process is, now
            # and then (about one in fifteen), not seen; a second one is, as a player would
            # press it, still during the search
            terminal.type("\x03")
            terminal.expect(r"\^C \(line cancelled; Ctrl-D or `quit` leaves\)")
        # the search was under way: its move comes after the Ctrl-C, whole
        terminal.expect(r"Computer \(level 5\) played 1\.\.\. \S+ in game #1")
        terminal.expect(r"White to move, move 2\.")
        terminal.expect(r"game-1-2-white\.png")
        terminal.type("moves d2\r")
        first = terminal.expect(r"F on d2: \d+ moves?: (\S+)").group(1)
        terminal.type(f"{first}\r")
        terminal.expect(r"2\. \S+ played in game #1\.")
        terminal.expect(r"Computer \(level 5\) is thinking about its move in game #1")
        terminal.expect(r"Computer \(level 5\) played 2\.\.\. \S+ in game #1")
        terminal.expect(r"game-1-4-white\.png")
        terminal.type("quit\r")
    finally:
        status = terminal.close()
    assert status == 0, terminal.shown
    assert "half a li" not in terminal.shown.split("^C (line")[1]  # cancelled, never run
    for broken in ("Traceback", "BrokenProcessPool", "KeyboardInterrupt"):
        assert broken not in terminal.shown


DAMAGED = ("ERROR bot.service.model Game #1 is damaged in the database; the host can run "
           "`commandpost db check` to see what can be saved of it.")


def damaged_game(tmp_path: Path) -> None:
    """Game #1, alice vs bob, with a deadline damage made unreadable: listing alice's games
    logs it (an error, once per process)."""
    made = subprocess.run([sys.executable, "-m", "bot", "console", "--as", "alice"],
                          input="challenge bob\nas bob\naccept\nquit\n", text=True,
                          capture_output=True, env=console_env(tmp_path), cwd=tmp_path,
                          timeout=120)
    assert "Game #1 started" in made.stdout, made.stdout + made.stderr
    with sqlite3.connect(tmp_path / "main.db") as db:
        db.execute("UPDATE games SET deadline = 'soon' WHERE id = 1")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_at_a_terminal_the_log_goes_to_a_file_beside_the_database(tmp_path):
    damaged_game(tmp_path)
    terminal = Terminal(tmp_path)
    try:
        terminal.expect(r"No games in progress")  # the damaged game is left out of the list
        terminal.expect(r"alice> ")
        terminal.type("quit\r")
    finally:
        status = terminal.close()
    assert status == 0, terminal.shown
    assert "ERROR" not in terminal.shown and "damaged" not in terminal.shown
    logged = (tmp_path / "main.console.log").read_text(encoding="utf-8").splitlines()
    assert [line.split(" ", 2)[2] for line in logged] == [DAMAGED]  # after the date and time


def test_with_standard_error_apart_the_log_goes_there(tmp_path):
    damaged_game(tmp_path)
    ran = subprocess.run([sys.executable, "-m", "bot", "console", "--as", "alice"],
                         input="quit\n", text=True, capture_output=True,
                         env=console_env(tmp_path), cwd=tmp_path, timeout=120)
    assert ran.returncode == 0
    assert "damaged" not in ran.stdout and "No games in progress" in ran.stdout
    assert [line.split(" ", 2)[2] for line in ran.stderr.splitlines()] == [DAMAGED]
    assert not (tmp_path / "main.console.log").exists()


POOL_CHILD = """
import asyncio, signal, types
from bot.console.terminal import ServiceLoop
from bot.service.computer import Computer

async def start():
    computer = Computer(types.SimpleNamespace(settings=types.SimpleNamespace(
        computer_searches=1)))
    assert await asyncio.get_running_loop().run_in_executor(computer.executor, abs, -3) == 3
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    computer.close()
    return blocked

with ServiceLoop() as service_loop:
    print("SIGINT blocked:", service_loop.run(start()))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signal masks")
def test_starting_the_computer_s_pool_leaves_the_service_thread_deaf_to_ctrl_c(tmp_path):
    """Making the pool starts multiprocessing's resource tracker, which unblocks SIGINT in
    the thread that starts it: the console's service thread would then take a Ctrl-C meant
    for the line being typed, and the line stayed. A fresh process, as the console's own
    (the tracker starts once per process)."""
    ran = subprocess.run([sys.executable, "-c", POOL_CHILD], capture_output=True, text=True,
                         env=console_env(tmp_path), cwd=tmp_path, timeout=120)
    assert ran.stdout == "SIGINT blocked: True\n", ran.stdout + ran.stderr
