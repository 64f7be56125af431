"""``commandpost web`` as a process: it refuses a database or an address it cannot use in
one sentence on stderr (no traceback, exit status 1); its log hides secrets; slow clients
are closed after the header and body timeouts."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.config import Settings
from bot.service import GameService
from bot.web.runner import Timeouts, main, start_web

from .conftest import port_in_use

ROOT = Path(__file__).resolve().parents[2]
NO_DATABASE = ("there is no database at {db!r}; the pages show the games of the bot's "
               "database: give its file with --db or COMMANDPOST_DB")
FOLDER = ("the database {db!r} is a folder, not a database file; give the bot's database "
          "file with --db or COMMANDPOST_DB")


async def make_database(path: Path) -> None:
    """A database of commandpost with its schema, as the bot leaves it."""
    service = await GameService.open(Settings(db_path=path))
    await service.close()


def garbage(path: Path) -> None:
    path.write_bytes(b"garbage " * 512)


def text_file(path: Path) -> None:
    path.write_text((ROOT / "README.md").read_text(encoding="utf-8"), encoding="utf-8")


def another_programs(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE players (nickname TEXT, score INTEGER)")


def newer(path: Path) -> None:
    asyncio.run(make_database(path))
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_migrations VALUES (9999, 'from the future', 0)")


def damaged(path: Path) -> None:
    asyncio.run(make_database(path))
    data = bytearray(path.read_bytes())
    data[4096 * 2:4096 * 3] = b"\xff" * 4096  # a page of the schema's tables
    path.write_bytes(bytes(data))


def say(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    """Run ``commandpost web ARGV`` here: its exit status, stdout and stderr."""
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("name", "make", "said"), [
    ("missing.db", None, NO_DATABASE),
    ("empty.db", Path.touch, NO_DATABASE),  # an empty file is no database yet
    ("folder", Path.mkdir, FOLDER),
    ("garbage.db", garbage, "cannot open the database {db!r}: "),
    ("README.db", text_file, "cannot open the database {db!r}: "),
    ("another.db", another_programs, "cannot open the database {db!r}: "),
    ("newer.db", newer, "the database has schema version 9999, newer than this commandpost"),
    ("damaged.db", damaged, "the database file {db!r} is damaged: "),
])
def test_a_database_it_cannot_use_is_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kept_logging: None, name: str,
        make: Callable[[Path], object] | None, said: str) -> None:
    db = tmp_path / name
    if make is not None:
        make(db)
    status, out, err = say(capsys, ["--db", str(db), "--port", "1"])
    assert (status, out) == (1, "")
    assert err.startswith("commandpost web: " + said.format(db=str(db)))
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err


def test_no_database_file_is_made_by_the_web_pages(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   kept_logging: None) -> None:
    db = tmp_path / "typo" / "games.db"
    assert say(capsys, ["--db", str(db)]) == (
        1, "", f"commandpost web: {NO_DATABASE.format(db=str(db))}\n")
    assert not db.parent.exists()
    assert say(capsys, ["--db", ""]) == (1, "", f"commandpost web: {FOLDER.format(db='.')}\n")


def test_a_port_in_use_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       kept_logging: None) -> None:
    db = tmp_path / "games.db"
    asyncio.run(make_database(db))
    with port_in_use() as port:
        assert say(capsys, ["--db", str(db), "--port", str(port)]) == (
            1, "", f"commandpost web: cannot listen on 127.0.0.1:{port}: another program is "
                   f"listening there (choose another port with --port)\n")


def test_a_port_out_of_range_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--port", "99999"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith(
        "commandpost web: error: argument --port: '99999' is no port: give a number from 1 to "
        "65535\n")


def test_the_command_prints_no_traceback(tmp_path: Path) -> None:
    db = tmp_path / "garbage.db"
    garbage(db)
    done = subprocess.run([sys.executable, "-m", "bot", "web", "--db", str(db)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"commandpost web: cannot open the database {str(db)!r}: the file is "
                           f"not a database (or it is damaged) (file is not a database)\n")


async def test_the_log_hides_watch_tokens_and_game_keys(log_lines: io.StringIO) -> None:
    logging.getLogger("aiohttp.server").warning("GET %s", "/game/12-0123456789abcdef01234567")
    logging.getLogger("bot").warning("key 12.3.0123456789abcdef0123 sent to ann@mail.example.org")
    lines = [line.split(" ", 3)[3] for line in log_lines.getvalue().splitlines()]
    assert lines == ["aiohttp.server GET /game/12-[key]",
                     "bot key 12.3.[key] sent to …@mail.example.org"]


# --- slow clients -----------------------------------------------------------------------
SHORT = Timeouts(header=0.5, body=0.5)
BOUND = 10.0  # seconds we wait at most for the server to close a connection


async def closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection (within `BOUND`)."""
    return await asyncio.wait_for(reader.read(), BOUND)


@pytest.fixture
async def port(service: GameService, web_settings: Settings):  # type: ignore[no-untyped-def]
    """The port of the pages served with short timeouts."""
    runner = await start_web(service, replace(web_settings, web_port=0), SHORT)
    try:
        yield runner.addresses[0][1]
    finally:
        await runner.cleanup()


async def closed_unanswered(reader: asyncio.StreamReader) -> bytes:
    """What `closed` reads; a reset is a close too (the server closing a connection whose
    half request it did not read may make the kernel send a reset, on a busy machine)."""
    try:
        return await closed(reader)
    except ConnectionResetError:
        return b""


async def test_clients_stalling_in_the_request_line_are_closed(port: int) -> None:
    clients = [await asyncio.open_connection("127.0.0.1", port) for _ in range(300)]
    for _, writer in clients:
        writer.write(b"GET /li")  # half a request line, then nothing
    answers = await asyncio.gather(*(closed_unanswered(reader) for reader, _ in clients))
    assert set(answers) == {b""}  # closed, unanswered
    for _, writer in clients:
        writer.close()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert (await closed(reader)).startswith(b"HTTP/1.1 200 OK\r\n")
    writer.close()


async def test_a_client_trickling_its_headers_is_closed(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def trickle() -> None:
        try:
            for byte in b"GET /live HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(0.05)
        except ConnectionError:
            pass

    sending = asyncio.create_task(trickle())
    assert await closed(reader) == b""
    assert not sending.done()  # the server did not wait for the end of the headers
    sending.cancel()
    writer.close()


async def test_a_client_stalling_in_its_body_is_closed(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /live HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nmove")
    answer = await closed(reader)
    assert answer.startswith(b"HTTP/1.1 405 Method Not Allowed\r\n")
    assert b"This site is read-only: pages are only looked at." in answer
    writer.close()


async def test_a_port_in_use_beside_the_bot_is_logged_and_the_bot_runs_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from bot.cli.run import web_beside
    service = await GameService.open(Settings(db_path=tmp_path / "games.db"))
    try:
        with port_in_use() as port:
            settings = Settings(db_path=tmp_path / "games.db", web_host="127.0.0.1",
                                web_port=port)
            with caplog.at_level(logging.ERROR, logger="bot.cli.run"):
                async with web_beside(settings, service, None):  # type: ignore[arg-type]
                    pass  # the bot would run here
        assert [r.getMessage() for r in caplog.records if r.name == "bot.cli.run"] == [
            f"the game pages are not served: cannot listen on 127.0.0.1:{port}: another "
            f"program is listening there (choose another port with --port)"]
    finally:
        await service.close()


async def test_a_request_it_cannot_read_is_one_log_line(
        port: int, caplog: pytest.LogCaptureFixture) -> None:
    """A header over 8,190 bytes is answered 400 by aiohttp; the host's log gets one line
    at INFO, not a traceback per request."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    with caplog.at_level(logging.INFO, logger="aiohttp.server"):
        writer.write(b"GET /live HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n")
        assert (await closed(reader)).startswith(b"HTTP/1.0 400 Bad Request\r\n")
    writer.close()
    said = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert [(r.levelname, r.exc_info, r.getMessage().split(":")[0]) for r in said] == [
        ("INFO", None, "refused a request it cannot read")]
