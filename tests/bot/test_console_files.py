"""What the console reads from outside: `import FILE` and `export FILE` touch only regular
files of a bounded size (never waiting on a named pipe, never reading a device), a command
line too long is refused before it is read, and Markdown is shown in linear time."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.commands import MAX_LINE
from bot.console import files
from bot.console.console import PLACE, terminal_text
from bot.console.files import MAX_FILE, FileRefused, read_text

pytestmark = pytest.mark.sqlite_only("files and lines are the console's, whatever the database")

DEVICE = "/dev/zero"


async def _game_on(session) -> None:
    await session("challenge bob white")
    await session("as bob")
    await session("accept")
    await session("as Alice")


@contextmanager
def unblocked_after(pipe: Path, seconds: float = 10.0) -> Iterator[list[bool]]:
    """A named pipe that, while the console waits on it, is opened at its other end every
    ``seconds`` so the test ends (and fails) instead of hanging; the list says whether
    that was needed."""
    needed: list[bool] = []
    done = threading.Event()

    def unblock() -> None:
        while not done.wait(seconds):
            needed.append(True)
            for flags in (os.O_RDONLY | os.O_NONBLOCK, os.O_WRONLY | os.O_NONBLOCK):
                try:
                    os.close(os.open(pipe, flags))  # a waiting reader or writer goes on
                except OSError:
                    pass

    watchdog = threading.Thread(target=unblock, daemon=True)
    watchdog.start()
    try:
        yield needed
    finally:
        done.set()
        watchdog.join()


async def test_a_named_pipe_is_refused_without_waiting_on_it(session, tmp_path):
    await _game_on(session)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with unblocked_after(pipe) as needed:
        read = await session(f"import {pipe} vs bob")
        written = await session(f"export #1 {pipe}")
    assert read == f"I cannot read {pipe}: it is a named pipe, not a file."
    assert written == f"I cannot write {pipe}: it is a named pipe, not a file."
    assert needed == []


@pytest.mark.skipif(not Path(DEVICE).exists(), reason="no /dev/zero here")
async def test_a_device_is_refused(session):
    await _game_on(session)
    assert await session(f"import {DEVICE} vs bob") == (
        "I cannot read /dev/zero: it is a device, not a file.")
    assert await session(f"export #1 {DEVICE}") == (
        "I cannot write /dev/zero: it is a device, not a file.")


@pytest.mark.skipif(not Path(DEVICE).exists(), reason="no /dev/zero here")
def test_a_device_is_neither_opened_nor_read(monkeypatch):
    def never(*args: object) -> None:
        raise AssertionError("the device was opened or read")

    monkeypatch.setattr(files.os, "open", never)
    monkeypatch.setattr(files.os, "read", never)
    with pytest.raises(FileRefused, match="it is a device, not a file"):
        read_text(DEVICE)


async def test_a_folder_is_refused(session, tmp_path):
    assert await session(f"import {tmp_path} vs bob") == (
        f"I cannot read {tmp_path}: it is a folder.")


async def test_a_file_larger_than_the_limit_is_refused_unread(session, tmp_path):
    big = tmp_path / "big.txt"
    with big.open("wb") as f:
        f.truncate(MAX_FILE + 1)  # sparse: nothing is written, its size says enough
    assert await session(f"import {big} vs bob") == (
        f"I cannot read {big}: that file is larger than 1 MiB, far larger than a game record.")


def test_a_file_at_the_limit_is_read_whole(tmp_path):
    exact = tmp_path / "exact.txt"
    exact.write_bytes(b"a" * MAX_FILE)
    assert read_text(str(exact)) == "a" * MAX_FILE


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc here")
def test_a_file_whose_size_is_not_told_is_read_no_further_than_the_limit():
    # files of /proc say they are empty and hold more: what is read is bounded too
    with pytest.raises(FileRefused) as refused:
        read_text("/proc/self/status", limit=16)
    assert str(refused.value) == ("I cannot read /proc/self/status: that file is larger "
                                  "than 1 MiB, far larger than a game record.")


async def test_a_file_that_is_not_text_is_refused(session, tmp_path):
    binary = tmp_path / "board.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert await session(f"import {binary} vs bob") == (
        f"I cannot read {binary}: it is not a text file.")


async def test_export_still_replaces_a_file(session, tmp_path):
    await _game_on(session)
    record = tmp_path / "game.txt"
    record.write_text("x" * 10_000)
    assert (await session(f"export #1 {record}")).endswith(f"Written to {record}.")
    assert record.read_text().startswith("[")
    assert len(record.read_text()) < 10_000


# --- long lines ---------------------------------------------------------------------------
async def test_a_megabyte_line_is_refused_before_it_is_read(session):
    assert await session("a" * 1_000_000) == (
        "That line is 1,000,000 characters long; a command is at most 4,096. "
        "Nothing was done.")
    assert await session("b2-a3/D " * 125_000) == (
        "That line is 1,000,000 characters long; a command is at most 4,096. "
        "Nothing was done.")


async def test_a_line_at_the_limit_is_read(session):
    assert await session("games" + " " * (MAX_LINE - 5)) == await session("games")


async def test_every_transport_refuses_a_line_too_long(session):
    console = session.console
    reply = await console.commands.handle(console.player, PLACE, "note " + "x" * MAX_LINE)
    assert (reply.ok, reply.text) == (False, "That line is 4,101 characters long; a command "
                                             "is at most 4,096. Nothing was done.")


# --- Markdown -----------------------------------------------------------------------------
@pytest.mark.parametrize("unit", ["[a", "[a](", "*a ", " *a", "**a ", "__a ", "# ", "**a*"])
def test_markdown_marks_that_never_close_are_shown_in_linear_time(unit):
    text = unit * (200_000 // len(unit))  # a note list can be 100 notes of 1,000 characters
    started = time.perf_counter()
    shown = terminal_text(text)
    # runs to the end of the line made 100,000 characters take 20-40 s; linear is ~20 ms
    assert time.perf_counter() - started < 5
    assert len(shown) <= len(text)
