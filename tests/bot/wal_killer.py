"""Kill a SQLite writer thousands of times and judge each copy left behind (run by
`test_wal_kills.py` in a process of its own: ``wal_killer.py FOLDER KILLS``; it prints a
JSON summary: the kills, the verdicts of `wal_damage` (none expected), acknowledged
transactions SQLite did not read back (none expected), and how many copies ended in a
torn frame)."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import sys
import time
from pathlib import Path

from bot.storage import wal_damage
from bot.storage.sqlite import _Frames, _wal_checksum


def _write_until_killed(path: Path, acknowledged: int) -> None:
    """The writer: transactions of one to three pages each, a checkpoint every 64 pages
    (so the log restarts with new salts often), each number written to ``acknowledged``
    once its COMMIT returned."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA wal_autocheckpoint = 64")
    rng = random.Random(os.getpid())
    while True:
        db.execute("BEGIN IMMEDIATE")
        n = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM t").fetchone()[0]
        db.execute("INSERT INTO t VALUES (?, ?)", (n, os.urandom(rng.randrange(100, 9000))))
        db.execute("DELETE FROM t WHERE n < ?", (n - 20,))
        db.execute("COMMIT")
        os.write(acknowledged, n.to_bytes(4, "big"))


def _killed_once(path: Path, rng: random.Random) -> int:
    """Start a writer, kill it (SIGKILL) after a few milliseconds; the last number it saw
    committed."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child writes until it dies, and never returns into the tests
        try:
            os.close(read)
            _write_until_killed(path, write)
        finally:
            os._exit(0)
    os.close(write)
    time.sleep(rng.uniform(0.0005, 0.01))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    said = b""
    while chunk := os.read(read, 65536):
        said += chunk
    os.close(read)
    return int.from_bytes(said[-4:], "big") if said else 0


def _copy(path: Path, to: Path) -> None:
    for suffix in ("", "-wal"):
        source, target = Path(f"{path}{suffix}"), Path(f"{to}{suffix}")
        if source.exists():
            shutil.copy(source, target)
        elif target.exists():
            target.unlink()


def _torn(copy: Path) -> bool:
    """Whether the copy's log ends in a frame that breaks the chain (a torn write)."""
    wal = Path(f"{copy}-wal")
    data = wal.read_bytes() if wal.exists() else b""
    if len(data) < 32:
        return False
    page_size = int.from_bytes(data[8:12], "big")
    order = ">" if data[3] & 1 else "<"
    frames = _Frames(data, page_size, (int.from_bytes(data[16:20], "big"),
                                       int.from_bytes(data[20:24], "big")), order)
    return frames.first_failure(32, _wal_checksum(data[:24], (0, 0), order)) is not None


def main(folder: Path, kills: int) -> dict[str, object]:
    """The kills, and what each copy showed."""
    path, copy = folder / "live.db", folder / "copy.db"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, b BLOB)")
    db.commit()
    db.close()
    rng = random.Random(7)
    verdicts, lost, torn = [], [], 0
    for _ in range(kills):
        acknowledged = _killed_once(path, rng)
        _copy(path, copy)
        torn += _torn(copy)
        verdict = wal_damage(copy)
        if verdict is not None:
            verdicts.append(verdict)
        read = sqlite3.connect(copy)
        last = read.execute("SELECT COALESCE(MAX(n), 0) FROM t").fetchone()[0]
        read.close()
        if last < acknowledged:
            lost.append((acknowledged, last))
    return {"kills": kills, "verdicts": verdicts, "lost": lost, "torn": torn}


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), int(sys.argv[2]))))
