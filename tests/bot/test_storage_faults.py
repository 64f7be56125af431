"""Storage faults injected into a real SQLite file — the disk full, the database locked by
another program, the file read-only, the file damaged — become `StorageError` in words a
host understands, change nothing, and leave the service working once the fault is gone;
start-up fails fast and clearly; `commandpost db check` finds damage."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.dbcheck import check
from bot.config import Settings
from bot.console.console import Console
from bot.service import GameService
from bot.service.results import STORAGE_DOWN
from bot.storage import (
    DamagedDatabase,
    StorageError,
    open_database,
    storage_error,
    wal_damage,
)

from .conftest import PLACE, ManualClock

ROOT = Path(__file__).resolve().parents[2]


async def _writer(service: GameService, sql: str) -> None:
    await service.db._writer.execute(sql)


async def _fill_the_disk(service: GameService) -> None:
    """The database may not grow by one page more (as on a full disk)."""
    row = await service.db._writer.execute_fetchall("PRAGMA page_count")
    await _writer(service, f"PRAGMA max_page_count = {list(row)[0][0]}")


@pytest.mark.sqlite_only(reason="a fault of the SQLite file")
async def test_a_full_disk_is_a_storage_error_that_changes_nothing(service, alice):
    alice = await service.set_preference(alice, "note", "x" * 4000)  # a page of its own
    await _fill_the_disk(service)
    with pytest.raises(StorageError, match=r"^the disk is full \(database or disk is full\)"):
        await service.set_preference(alice, "more", "y" * 4000)  # needs a page more
    assert (await service.get_player(alice.id)).preferences == {"note": "x" * 4000}
    await _writer(service, "PRAGMA max_page_count = 1000000")  # space freed
    await service.set_preference(alice, "more", "y" * 4000)
    assert set((await service.get_player(alice.id)).preferences) == {"note", "more"}


@pytest.mark.sqlite_only(reason="a fault of the SQLite file")
async def test_a_database_locked_past_the_timeout_is_a_storage_error(settings, clock):
    db = await open_database(settings.db_path, busy_timeout_ms=20)
    service = GameService(db, settings, clock)
    alice = await service.player("console", "alice", "Alice")
    other = sqlite3.connect(settings.db_path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
    try:
        with pytest.raises(StorageError, match="^the database is locked by another program"):
            await service.vacations.start(alice, 3)
        console = Console(service, settings, out=(lines := []).append)
        console.player = alice
        assert await console.run_line("vacation 3")
        assert lines == [STORAGE_DOWN]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (await service.vacations.start(alice, 3)).ok  # the lock is gone: it works
    await service.close()


@pytest.mark.sqlite_only(reason="a fault of the SQLite file")
async def test_a_read_only_database_is_a_storage_error(service, alice, bob):
    await _writer(service, "PRAGMA query_only = ON")  # what a read-only file answers
    with pytest.raises(StorageError, match="^the database file is read-only"):
        await service.challenges.challenge(alice, PLACE, bob)
    await _writer(service, "PRAGMA query_only = OFF")
    assert (await service.challenges.challenge(alice, PLACE, bob)).ok


async def test_a_read_only_file_opened_read_only_says_so(tmp_path: Path):
    path = tmp_path / "games.db"
    db = await open_database(path)
    await db.close()
    ro = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with pytest.raises(sqlite3.OperationalError) as raised:
            ro.execute("INSERT INTO players (transport, address, display_name, created_at) "
                       "VALUES ('console', 'x', 'x', 0)")
    finally:
        ro.close()
    assert str(storage_error(raised.value)).startswith("the database file is read-only")


def _damage(path: Path, table: str) -> Path:
    """A copy of the database with the root page of ``table`` overwritten."""
    con = sqlite3.connect(path)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    damaged = path.with_name("damaged.db")
    shutil.copy(path, damaged)
    with damaged.open("r+b") as f:
        f.seek((root[0] - 1) * size + 8)
        f.write(b"\xff" * 64)
    return damaged


async def _a_database_with_a_game(tmp_path: Path) -> Path:
    settings = Settings(db_path=tmp_path / "games.db")
    service = await GameService.open(settings, now=ManualClock())
    alice = await service.player("console", "alice", "Alice")
    bob = await service.player("console", "bob", "Bob")
    made = await service.challenges.challenge(alice, PLACE, bob, side=0)
    game = (await service.challenges.accept(bob, made.challenge.id)).game
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    await service.close()
    return settings.db_path


async def test_a_damaged_database_is_refused_at_start_unless_told(tmp_path: Path):
    damaged = _damage(await _a_database_with_a_game(tmp_path), "games")
    with pytest.raises(DamagedDatabase, match=r"^the database file .*damaged.* Run "
                                              r"`commandpost db check`.*COMMANDPOST_DB_DAMAGED"
                                              r"=start"):
        await GameService.open(Settings(db_path=damaged))
    service = await GameService.open(Settings(db_path=damaged, db_damaged="start"))
    await service.close()


async def test_db_check_reports_damage_and_replays_every_game(tmp_path: Path):
    path = await _a_database_with_a_game(tmp_path)
    lines: list[str] = []
    assert await check(path, lines.append) == 0
    assert lines == ["integrity_check: ok", "tables: as expected",
                     "1 game(s) replayed: all sound"]
    con = sqlite3.connect(path)  # a stored position that the moves do not give
    con.execute("UPDATE moves SET fen = 'x' WHERE ply = 0")
    con.commit()
    con.close()
    lines.clear()
    assert await check(path, lines.append) == 1
    assert lines[:2] == ["integrity_check: ok", "tables: as expected"]
    assert lines[2].startswith("game #1: step 0 (b2-a3/D) stored 'x', replay gives ")
    assert lines[3] == ("  saved: 1 step of 1 replay from its start (Clash of Command): "
                        "b2-a3/D")
    lines.clear()
    assert await check(_damage(path, "games"), lines.append) == 1
    assert lines[0].startswith("integrity_check: ") and lines[0] != "integrity_check: ok"


def _commandpost(args: list[str], tmp_path: Path,
                 **environ: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], input="", text=True,
                          capture_output=True, cwd=tmp_path, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **environ})


@pytest.mark.parametrize("job, environ", [
    ("discord", {"COMMANDPOST_DISCORD_TOKEN": "not-used"}),
    ("email", {"COMMANDPOST_EMAIL_ADDRESS": "play@games.test"}),
])
def test_every_main_job_ends_at_once_on_a_database_it_cannot_open(tmp_path: Path, job, environ):
    (tmp_path / "bad.db").write_text("x" * 200)
    done = _commandpost([job], tmp_path, COMMANDPOST_DB="bad.db", **environ)
    assert done.returncode == 1
    assert ("cannot open the database 'bad.db': the file is not a database"
            in done.stdout + done.stderr)


def test_a_file_that_is_no_database_ends_the_console_at_once(tmp_path: Path):
    (tmp_path / "bad.db").write_text("x" * 200)  # (SQLite takes a shorter file for empty)
    done = _commandpost(["console", "--db", "bad.db"], tmp_path)
    assert done.returncode == 1
    assert done.stdout == ("commandpost: cannot open the database 'bad.db': the file is not a "
                           "database (or it is damaged) (file is not a database)\n")


def test_a_database_in_a_folder_that_cannot_be_made_ends_at_once(tmp_path: Path):
    (tmp_path / "file").write_text("x")
    done = _commandpost(["console", "--db", "file/sub/games.db"], tmp_path)
    assert done.returncode == 1
    assert done.stdout == ("commandpost: cannot open the database 'file/sub/games.db': cannot "
                           "make its folder (Not a directory)\n")


def test_db_check_from_the_command_line(tmp_path: Path):
    (tmp_path / "bad.db").write_text("x" * 200)
    done = _commandpost(["db", "check", "--db", "bad.db"], tmp_path)
    assert done.returncode == 1 and "file is not a database" in done.stdout


def _crashed_copy(tmp_path: Path, moves: int) -> tuple[Path, int]:
    """A copy of a database and its write-ahead log as a power cut would leave them:
    ``moves`` committed transactions only in the log; the page size."""
    path = tmp_path / "live.db"
    live = sqlite3.connect(path, isolation_level=None)
    live.execute("PRAGMA journal_mode = WAL")
    live.execute("PRAGMA wal_autocheckpoint = 0")
    live.execute("CREATE TABLE moves (n INTEGER)")
    live.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for n in range(moves):
        live.execute("INSERT INTO moves VALUES (?)", (n,))
    copy = tmp_path / "crashed.db"
    shutil.copy(path, copy)
    shutil.copy(path.with_name("live.db-wal"), tmp_path / "crashed.db-wal")
    size = live.execute("PRAGMA page_size").fetchone()[0]
    live.close()
    return copy, size


async def test_a_write_ahead_log_damaged_before_committed_moves_is_noticed(tmp_path: Path):
    copy, size = _crashed_copy(tmp_path, 5)
    wal = tmp_path / "crashed.db-wal"
    intact = wal.read_bytes()
    with wal.open("r+b") as f:  # a flipped byte in the page of the third transaction
        f.seek(32 + 2 * (24 + size) + 24 + 100)
        f.write(b"\x5a")
    with pytest.raises(DamagedDatabase, match=r"^the write-ahead log crashed.db-wal is damaged "
                                              r"at frame 3: 3 committed transaction\(s\) after "
                                              r"the damage cannot be read back; opening"):
        await open_database(copy, migrations=())
    lines: list[str] = []
    assert await check(copy, lines.append) == 1  # db check says so too, and opens nothing
    assert lines == ["commandpost: the write-ahead log crashed.db-wal is damaged at frame 3: 3 "
                     "committed transaction(s) after the damage cannot be read back. Keep a "
                     "copy of the database and its -wal file."]
    wal.write_bytes(intact)  # undamaged, every move is there
    db = await open_database(copy, migrations=())
    async with db.snapshot() as s:
        assert (await s.one("SELECT COUNT(*) AS n FROM moves"))["n"] == 5
    await db.close()


def test_a_torn_last_transaction_that_never_committed_is_no_damage(tmp_path: Path):
    copy, size = _crashed_copy(tmp_path, 2)
    wal = tmp_path / "crashed.db-wal"
    with wal.open("r+b") as f:  # the last frame's commit mark gone: it never committed
        f.seek(32 + 1 * (24 + size) + 4)
        f.write(b"\x00\x00\x00\x00")
    assert wal_damage(copy) is None


async def test_the_console_survives_any_exception_of_one_line(service, settings, alice,
                                                              monkeypatch):
    console = Console(service, settings, out=(lines := []).append)
    console.player = alice

    async def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(service, "games", broken)
    assert await console.run_line("games")
    assert lines == ["Sorry, that failed (ZeroDivisionError: a bug). Try again, or type "
                     "`help`."]
    monkeypatch.undo()
    lines.clear()
    assert await console.run_line("games")
    assert lines == ["No games in progress. Start one with `challenge NAME`."]


async def test_db_check_reports_a_game_whose_number_is_damaged(tmp_path: Path):
    """A damaged page can leave a game's row with a number no game may have (0 or less):
    `db check` says so instead of failing on the service's refusal of that number."""
    path = await _a_database_with_a_game(tmp_path)
    con = sqlite3.connect(path)
    con.execute("UPDATE games SET id = -5 WHERE id = 1")
    con.commit()
    con.close()
    lines: list[str] = []
    assert await check(path, lines.append) == 1
    assert lines[2:] == ["game #-5: its number is damaged: There is no game #-5.",
                         "1 game(s) replayed: 1 damaged"]
