"""What a SQLite file must be before commandpost works on it, and what a failure on it
means to a host.

At start-up (`bot.storage.sqlite.open_sqlite`): the file is ours or empty (another
program's database is refused, not given our tables); its tables have the columns our
migrations make (a damaged schema that still parses would otherwise give wrong rows);
it can be written. When the file is locked, the programs holding the lock are named
where the system tells (Linux's ``/proc/locks``); an input/output error on a disk with no
room left is called a full disk.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from .migrations import Migration

FULL_BELOW = 1 << 20  # a disk with less room than this is full, to a database
LOCKS = Path("/proc/locks")
MOST_HOLDERS = 5


def tables_of(path: Path) -> list[str]:
    """The tables of an existing database file, read without changing it (none if it
    cannot be read: opening it then says why)."""
    if not path.is_file():
        return []
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    try:
        return [str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = "
                                              "'table'")]
    except (sqlite3.Error, UnicodeDecodeError):
        return []
    finally:
        db.close()


def foreign_tables(tables: Sequence[str]) -> list[str]:
    """The tables of a file that make it another program's: any, in a file without our
    ``schema_migrations`` table."""
    if "schema_migrations" in tables:
        return []
    return sorted(t for t in tables if not t.startswith("sqlite_"))


@lru_cache(maxsize=4)
def expected_columns(migrations: tuple[Migration, ...]) -> dict[str, tuple[str, ...]]:
    """The columns of each table the migrations make (applied once to a database in
    memory)."""
    db = sqlite3.connect(":memory:")
    try:
        for migration in migrations:
            for statement in migration.statements:
                db.execute(statement)
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: tuple(r[1] for r in db.execute(f'PRAGMA table_info("{t}")')) for t in tables}
    finally:
        db.close()


def schema_problems(expected: dict[str, tuple[str, ...]],
                    actual: dict[str, tuple[str, ...]]) -> list[str]:
    """How the file's tables differ from the expected ones (none: they match)."""
    problems = []
    for table, columns in expected.items():
        found = actual.get(table)
        if found is None:
            problems.append(f"the table {table} is missing")
        elif found != columns:
            missing = [c for c in columns if c not in found]
            strange = [c for c in found if c not in columns]
            said = "; ".join(part for part in (
                f"lacks {', '.join(missing)}" if missing else "",
                f"has {', '.join(repr(c) for c in strange)}" if strange else "") if part)
            problems.append(f"the table {table} {said or 'has its columns out of order'}")
    return problems


def disk_full(path: Path) -> bool:
    """Whether the disk of ``path`` has (next to) no room left."""
    try:
        return shutil.disk_usage(path.parent if str(path.parent) else Path()).free < FULL_BELOW
    except OSError:
        return False


def lock_holders(path: Path) -> list[str]:
    """The other programs holding a lock on the database file or its ``-wal``/``-shm``
    (``name (pid N)``), where the system tells; none where it does not."""
    inodes = set()
    for name in (path, path.with_name(path.name + "-shm"), path.with_name(path.name + "-wal")):
        try:
            found = os.stat(name)
        except OSError:
            continue
        inodes.add((os.major(found.st_dev), os.minor(found.st_dev), found.st_ino))
    try:
        lines = LOCKS.read_text().splitlines()
    except OSError:
        return []
    pids: list[int] = []
    for line in lines:
        fields = line.split()
        if len(fields) < 6 or fields[1] == "->" or not fields[4].isdigit():
            continue
        device = fields[5].split(":")
        if len(device) != 3:
            continue
        try:
            key = (int(device[0], 16), int(device[1], 16), int(device[2]))
        except ValueError:
            continue
        pid = int(fields[4])
        if key in inodes and pid != os.getpid() and pid not in pids:
            pids.append(pid)
    return [f"{_program(pid)} (pid {pid})" for pid in pids[:MOST_HOLDERS]]


def _program(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() or "a program"
    except OSError:
        return "a program"
