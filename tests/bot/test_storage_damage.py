"""Damage found, named and contained: a schema whose text is not UTF-8 or whose columns a
changed byte renamed is refused at start in one sentence (and `db check` says the same,
exit status 1); a game whose stored rows do not read is refused in words naming it while
the other games play on, and `db check` lists it with what can be saved; another
program's database is not given our tables; a file locked by another program fails in
seconds, naming it; a full disk is called full."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.cli.dbcheck import check
from bot.commands import Commands
from bot.config import Settings
from bot.service import GameService
from bot.service.model import Player
from bot.storage import DamagedDatabase, DamagedGame, StorageError, open_database
from bot.storage.sqlite import START_TIMEOUT_MS, storage_error

from .conftest import PLACE, ManualClock

ROOT = Path(__file__).resolve().parents[2]


async def _two_games(path: Path) -> None:
    """Two games between Alice and Bob, a step played in each."""
    service = await GameService.open(Settings(db_path=path), now=ManualClock())
    alice = await service.player("console", "alice", "Alice")
    bob = await service.player("console", "bob", "Bob")
    for _ in range(2):
        made = await service.challenges.challenge(alice, PLACE, bob, side=0)
        game = (await service.challenges.accept(bob, made.challenge.id)).game
        assert (await service.move(alice, game.id, "b2-a3/D")).ok
    await service.close()


def _changed(path: Path, find: bytes, at: int, to: int) -> Path:
    """A copy of the file with one byte of the text ``find`` changed."""
    data = bytearray(path.read_bytes())
    data[data.index(find) + at] = to
    copy = path.with_name("damaged.db")
    copy.write_bytes(bytes(data))
    return copy


@pytest.fixture
async def games_db(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    await _two_games(path)
    return path


async def test_a_schema_whose_text_is_not_utf8_is_one_sentence_everywhere(games_db: Path):
    damaged = _changed(games_db, b"CREATE TABLE games", 3, 0xFF)
    said = (f"cannot open the database {str(damaged)!r}: the database file is damaged (it "
            f"holds text that is not UTF-8)")
    for mode in ("refuse", "start"):
        with pytest.raises(StorageError) as raised:
            await GameService.open(Settings(db_path=damaged, db_damaged=mode))
        assert str(raised.value) == said
    lines: list[str] = []
    assert await check(damaged, lines.append) == 1
    assert lines == [f"commandpost: {said}"]
    done = subprocess.run([sys.executable, "-m", "bot", "db", "check", "--db", str(damaged)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (1, f"commandpost: {said}\n", "")


@pytest.mark.parametrize(("find", "at", "to", "said"), [
    (b"CREATE TABLE games", 28, ord("x"), "the table games lacks id; has 'xid'"),  # id: xid
    (b"-- the position now", 3, 0xFF, "the schema's text of games is not UTF-8"),
])
async def test_a_schema_changed_by_damage_is_refused_at_start_and_checked(
        games_db: Path, find: bytes, at: int, to: int, said: str):
    """A changed byte that SQLite still reads: a column renamed, a comment's text no longer
    UTF-8."""
    damaged = _changed(games_db, find, at, to)
    with pytest.raises(DamagedDatabase) as raised:
        await GameService.open(Settings(db_path=damaged))
    assert str(raised.value) == (
        f"the database file {str(damaged)!r} is damaged: {said}. Run `commandpost db check` "
        f"for a full report, or restore a backup.")
    lines: list[str] = []
    assert await check(damaged, lines.append) == 1
    assert f"tables: {said}" in lines


async def _damaged(games_db: Path, *changes: str) -> tuple[GameService, Player, Commands]:
    """The service on ``games_db`` after ``changes`` (SQL), Bob, and the commands' reader."""
    db = sqlite3.connect(games_db)
    for change in changes:
        db.execute(change)
    db.commit()
    db.close()
    service = await GameService.open(Settings(db_path=games_db), now=ManualClock())
    bob = await service.player("console", "bob", "Bob")
    return service, bob, Commands(service, lambda name: service.find_player("console", name))


async def test_a_damaged_game_is_named_and_the_other_plays_on(games_db: Path):
    service, bob, words = await _damaged(
        games_db, "UPDATE games SET fen = 'garbage' WHERE id = 1",  # what a changed byte does
        "UPDATE moves SET text = 'b2-z9/D' WHERE game_id = 2")
    damaged = ("Game #1 is damaged in the database; the host can run `commandpost db check` "
               "to see what can be saved of it.")
    for line in ("board #1", "move a7-a6 #1", "moves #1", "resign #1"):
        assert (await words.handle(bob, PLACE, line)).text == damaged
    with pytest.raises(DamagedGame):
        await service.game(1)
    assert [g.id for g in await service.games(bob)] == [1, 2]  # its row reads: listed
    assert (await words.handle(bob, PLACE, "export #2")).text == (
        "Game #2 is damaged in the database; the host can run `commandpost db check` to "
        "see what can be saved of it.")
    game = await service.game(2)  # its position still reads: it plays on
    assert (await service.move(bob, 2, (await service.legal_moves(game))[0])).ok
    await service.close()
    lines: list[str] = []
    assert await check(games_db, lines.append) == 1
    assert lines[:2] == ["integrity_check: ok", "tables: as expected"]
    assert lines[2].startswith("game #1: ")
    assert lines[3] == "  saved: 1 step of 1 replay from its start (Clash of Command): b2-a3/D"
    assert lines[4].startswith("game #2: the moves do not replay")
    assert lines[5] == ("  saved: its start (Clash of Command); none of its 2 step(s) "
                        "replay")
    assert lines[6] == "2 game(s) replayed: 2 damaged"


async def test_a_move_without_a_number_passes_over_a_damaged_game(games_db: Path):
    """Bob is to move in both games; game #1's position is damaged, so a move sent
    without a number is read in game #2 alone, and played there."""
    service, bob, words = await _damaged(games_db, "UPDATE games SET fen = 'garbage' WHERE id = 1")
    try:
        said = (await words.handle(bob, PLACE, "h8-i7/D")).text
    finally:
        await service.close()
    assert said == "1... h8-i7/D played in game #2. Alice (White) is to move."


async def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path: Path):
    path = tmp_path / "notes.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    db.execute("CREATE TABLE tags (name TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StorageError) as raised:
        await GameService.open(Settings(db_path=path))
    assert str(raised.value) == (
        f"cannot open the database {str(path)!r}: it holds another program's tables (notes, "
        f"tags), not commandpost's; give commandpost a file of its own (COMMANDPOST_DB)")
    assert path.read_bytes() == before
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")  # an empty file is a new database
    service = await GameService.open(Settings(db_path=empty))
    await service.close()


HOLDER = textwrap.dedent("""
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    db.execute("CREATE TABLE IF NOT EXISTS held (n INTEGER)")
    print("held", flush=True)
    time.sleep(60)
""")


async def test_a_file_another_program_holds_fails_at_start_naming_it(tmp_path: Path):
    path = tmp_path / "held.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(StorageError) as raised:
            await open_database(path, start_timeout_ms=200)
        name = Path(f"/proc/{holder.pid}/comm").read_text().strip()
        assert str(raised.value) == (
            f"cannot open the database {str(path)!r}: the database is locked by another "
            f"program ({name} (pid {holder.pid})) (database is locked). Stop the program "
            f"holding it, or give commandpost a file of its own")
    finally:
        holder.kill()
        holder.wait()
    assert START_TIMEOUT_MS == 5_000  # what a host waits at most at start-up
    db = await open_database(path)  # once it is gone
    await db.close()


def test_an_input_output_error_on_a_full_disk_is_called_full(tmp_path: Path, monkeypatch):
    """SQLite says "disk I/O error" when a write finds no room; with the disk of the file
    full, the host reads "the disk is full". (A real full disk cannot be made in a test
    without a file system of our own: the room left is what is stubbed here.)"""
    db = sqlite3.connect(":memory:")
    try:
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorname = "SQLITE_IOERR_WRITE"  # type: ignore[attr-defined]
    finally:
        db.close()
    path = tmp_path / "games.db"
    assert str(storage_error(error, "committing", path)).startswith(
        "the disk reported an input/output error")
    monkeypatch.setattr(shutil, "disk_usage", lambda _: shutil._ntuple_diskusage(10, 10, 0))  # type: ignore[attr-defined]
    assert str(storage_error(error, "committing", path)) == (
        "the disk is full while committing (disk I/O error)")


def _read_only(path: Path) -> bool:
    """Make ``path`` a file this process cannot write: immutable for root (whom file modes
    do not stop), read-only by mode for anyone else. False if the system allows neither."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return True
    return subprocess.run(["chattr", "+i", str(path)], capture_output=True,
                          check=False).returncode == 0


async def test_a_file_that_cannot_be_written_is_refused_at_start(games_db: Path):
    made = _read_only(games_db)
    try:
        if made:
            with pytest.raises(StorageError) as raised:
                await GameService.open(Settings(db_path=games_db))
            assert str(raised.value) == (
                f"cannot open the database {str(games_db)!r}: the database file is read-only "
                f"(attempt to write a readonly database). commandpost writes every move to "
                f"it: give the user it runs as write access to the file and its folder")
        else:  # a container without the right to make files immutable: SQLite's own
            error = sqlite3.OperationalError("attempt to write a readonly database")
            error.sqlite_errorname = "SQLITE_READONLY"  # type: ignore[attr-defined]
            assert str(storage_error(error)).startswith("the database file is read-only")
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(games_db)], capture_output=True, check=False)


def test_random_damage_gives_no_traceback_and_every_damaged_game_is_named():
    """`bench/damage.py` on 40 files (the bench's figure is over 300)."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "damage.py"), "--files", "40",
                           "--seed", "11", "--json"], capture_output=True, text=True,
                          timeout=600, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    said = json.loads(done.stdout.splitlines()[-1])
    assert said["tracebacks"] == 0, said["first"]
    assert said["found_in_play_not_named"] == 0
    assert said["files_with_damaged_games"] > 0  # the damage did reach games


DAMAGED_1 = ("Game #1 is damaged in the database; the host can run `commandpost db check` to "
             "see what can be saved of it.")


@pytest.mark.parametrize("damage", [
    "UPDATE games SET deadline = 'soon' WHERE id = 1",
    "UPDATE games SET time_control = '{{{' WHERE id = 1",
    "UPDATE games SET status = 'weird' WHERE id = 1",
    "UPDATE games SET fen = CAST(X'FF41' AS TEXT) WHERE id = 1",
])
async def test_a_value_damaged_in_a_row_names_its_game(games_db: Path, damage: str):
    """Found by players' commands at once (never a traceback), named by db check; the other
    game plays on. (The values a host's tester changed by hand.)"""
    db = sqlite3.connect(games_db)
    db.execute(damage)
    db.commit()
    db.close()
    service = await GameService.open(Settings(db_path=games_db), now=ManualClock())
    alice = await service.player("console", "alice", "Alice")
    words = Commands(service, lambda name: service.find_player("console", name))
    for line in ("board #1", "move a7-a6 #1", "export #1"):
        assert (await words.handle(alice, PLACE, line)).text == DAMAGED_1, line
    assert (await words.handle(alice, PLACE, "board #2")).ok
    await service.close()
    lines: list[str] = []
    assert await check(games_db, lines.append) == 1
    assert [line for line in lines if line.startswith("game #")][0].startswith("game #1: ")


async def test_a_players_damaged_preferences_read_as_the_defaults(games_db: Path):
    db = sqlite3.connect(games_db)
    db.execute("UPDATE players SET preferences = '{bad' WHERE address = 'bob'")
    db.execute("UPDATE players SET display_name = CAST(X'FF' AS TEXT) WHERE address = 'alice'")
    db.commit()
    db.close()
    service = await GameService.open(Settings(db_path=games_db), now=ManualClock())
    bob = await service.player("console", "bob")
    assert bob.preferences == {}
    words = Commands(service, lambda name: service.find_player("console", name))
    assert (await words.handle(bob, PLACE, "board #1")).ok
    assert (await service.game(1)).names[0] == "\ufffd"  # shown as unreadable, not a crash
    await service.close()


async def test_db_check_reads_a_file_it_may_not_write(games_db: Path):
    if not _read_only(games_db):  # the system lets no file be made read-only here
        return
    try:
        lines: list[str] = []
        assert await check(games_db, lines.append) == 0
        assert lines[:2] == ["the file is read-only: it is checked as it is, not upgraded",
                             "integrity_check: ok"]
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(games_db)], capture_output=True, check=False)


async def test_a_damaged_position_in_the_move_list_is_found_where_it_is_read(games_db: Path):
    """The position stored after a step is read to mark the last turn on a picture
    (`turn_moves`): damaged, it says the game is damaged, at once; db check names it."""
    service = await GameService.open(Settings(db_path=games_db), now=ManualClock())
    bob = await service.player("console", "bob", "Bob")
    assert (await service.move(bob, 1, (await service.legal_moves(
        await service.game(1)))[0])).ok  # two steps: the board reads the first one's
    await service.close()
    db = sqlite3.connect(games_db)
    db.execute("UPDATE moves SET fen = 'x/y/z w 1' WHERE game_id = 1 AND ply = 0")
    db.commit()
    db.close()
    service = await GameService.open(Settings(db_path=games_db), now=ManualClock())
    words = Commands(service, lambda name: service.find_player("console", name))
    alice = await service.player("console", "alice", "Alice")
    with pytest.raises(DamagedGame) as raised:
        await service.turns.turn_moves(await service.game(1))
    assert str(raised.value) == DAMAGED_1
    assert (await words.handle(alice, PLACE, "board #2")).ok
    await service.close()
    lines: list[str] = []
    assert await check(games_db, lines.append) == 1
    assert [line for line in lines if line.startswith("game #")][0].startswith(
        "game #1: step 0 (b2-a3/D) stored 'x/y/z w 1'")


async def test_a_read_cancelled_while_it_begins_leaves_no_transaction_open(games_db: Path):
    """A snapshot cancelled while its BEGIN waits in the connection's queue (behind a long
    query): the BEGIN still runs there, and is ended; the next reads work."""
    db = await open_database(games_db)
    try:
        slow = asyncio.ensure_future(db._reader.execute_fetchall(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) "
            "SELECT COUNT(*) FROM n"))

        async def read() -> None:
            async with db.snapshot() as s:
                await s.one("SELECT 1 AS one")

        reading = asyncio.ensure_future(read())
        await asyncio.sleep(0.05)  # its BEGIN is queued behind the long query
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        await slow
        for _ in range(2):
            async with db.snapshot() as s:
                assert (await s.one("SELECT COUNT(*) AS n FROM games"))["n"] == 2
    finally:
        await db.close()
