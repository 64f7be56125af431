"""The start-up check of the write-ahead log (`wal_damage`) against what SQLite reads back.

A writer process is killed thousands of times at random moments, in the middle of its
writes as often as not (SQLite writes a frame's header and its page in two writes, so a
kill can tear a frame, the commit frame included). After each kill a copy of the files is
judged by `wal_damage` and read back by SQLite: a kill loses nothing that was
acknowledged, so the check must find no damage, every time, and SQLite must read back
every acknowledged transaction. Real damage (a changed byte before committed frames) is
found, and SQLite indeed drops those transactions."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import DamagedDatabase, open_database, wal_damage
from bot.storage.sqlite import _wal_checksum

from .test_storage_faults import _crashed_copy

KILLER = Path(__file__).with_name("wal_killer.py")
ROOT = Path(__file__).resolve().parents[2]


def test_thousands_of_kills_never_look_like_damage_and_lose_nothing(tmp_path: Path):
    """2,000 kills (`wal_killer.py`, run in a small process of its own, which forks the
    writers quickly)."""
    done = subprocess.run([sys.executable, str(KILLER), str(tmp_path), "2000"],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["verdicts"] == []
    assert said["lost"] == []
    assert said["kills"] == 2000
    assert said["torn"] > 0  # the kills did tear frames (8 to 29 of 2,000 seen): judged right


def _overwrite(copy: Path, at: int, data: bytes) -> None:
    """Bytes of the copy's write-ahead log replaced at offset ``at``."""
    with Path(f"{copy}-wal").open("r+b") as f:
        f.seek(at)
        f.write(data)


def _moves_read(copy: Path) -> int:
    """The moves SQLite reads back from the copy."""
    read = sqlite3.connect(copy)
    try:
        return int(read.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
    finally:
        read.close()


def test_a_torn_commit_frame_is_no_damage(tmp_path: Path):
    """The last transaction's commit frame with its header written and its page not (the
    writer killed between the two writes): SQLite drops that transaction, which its writer
    never saw committed, and the check finds nothing wrong. This is what made the check
    refuse, now and then, a database after an ordinary kill."""
    copy, size = _crashed_copy(tmp_path, 3)
    _overwrite(copy, 32 + 2 * (24 + size) + 24, bytes(size))  # the page before the write
    assert wal_damage(copy) is None
    assert _moves_read(copy) == 2


def test_damage_before_committed_frames_is_found_and_sqlite_drops_them(tmp_path: Path):
    copy, size = _crashed_copy(tmp_path, 5)
    _overwrite(copy, 32 + (24 + size) + 24 + 100, b"\x5a")  # in the second transaction's page
    assert wal_damage(copy) == ("the write-ahead log crashed.db-wal is damaged at frame 2: 4 "
                                "committed transaction(s) after the damage cannot be read "
                                "back")
    assert _moves_read(copy) == 1


def test_a_damaged_frame_in_the_middle_of_a_transaction_is_found(tmp_path: Path):
    """A changed byte in a frame without the commit mark, a commit frame after it."""
    copy, size = _crashed_copy(tmp_path, 3)
    wal = Path(f"{copy}-wal")
    data = bytearray(wal.read_bytes())
    second = 32 + (24 + size)
    data[second + 4:second + 8] = bytes(4)  # no commit mark: the second frame continues...
    # ... so the checksums are written again, as SQLite would have for that log
    order = ">" if data[3] & 1 else "<"
    check = _wal_checksum(bytes(data[:24]), (0, 0), order)
    offset = 32
    while offset + 24 + size <= len(data):
        check = _wal_checksum(bytes(data[offset:offset + 8] + data[offset + 24:offset + 24
                                                                     + size]), check, order)
        data[offset + 16:offset + 24] = check[0].to_bytes(4, "big") + check[1].to_bytes(4, "big")
        offset += 24 + size
    data[second + 24 + 50] ^= 0xFF  # then a byte of its page changes
    wal.write_bytes(bytes(data))
    assert wal_damage(copy) == ("the write-ahead log crashed.db-wal is damaged at frame 2: 1 "
                                "committed transaction(s) after the damage cannot be read "
                                "back")


async def test_a_start_in_spite_of_a_damaged_log_settles_the_log(tmp_path: Path):
    """Started with COMMANDPOST_DB_DAMAGED=start, what SQLite can read of the log goes into
    the file at once: the damaged frames left behind are not found again at the next start
    (after a kill, which leaves the log behind)."""
    copy, size = _crashed_copy(tmp_path, 5)
    wal = Path(f"{copy}-wal")
    _overwrite(copy, 32 + (24 + size) + 24 + 100, b"\x5a")
    with pytest.raises(DamagedDatabase):
        await open_database(copy, migrations=())
    db = await open_database(copy, migrations=(), check=False, settle_log=True)
    async with db.transaction() as s:
        await s.execute("INSERT INTO moves VALUES (100)")
    assert wal_damage(copy) is None
    shutil.copy(copy, tmp_path / "killed.db")  # as a kill now would leave it
    if wal.exists():
        shutil.copy(wal, tmp_path / "killed.db-wal")
    await db.close()
    assert wal_damage(tmp_path / "killed.db") is None
    db = await open_database(tmp_path / "killed.db", migrations=())
    async with db.snapshot() as s:
        assert [r["n"] for r in await s.all("SELECT n FROM moves ORDER BY n")] == [0, 100]
    await db.close()
