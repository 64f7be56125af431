"""Storage: the `Database`/`Session` interface the game service talks to and its drivers —
SQLite (`sqlite`, the default: a file path) and PostgreSQL (`postgres`: a
``postgresql://`` address), of which `open_database` chooses one — with the migrations both
run (`migrations`)."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .interface import DamagedDatabase, DamagedGame, Database, Session, StorageError
from .migrations import MIGRATIONS, Migration
from .sqlite import (
    SqliteDatabase,
    integrity_check,
    open_sqlite,
    storage_error,
    wal_damage,
)

__all__ = ["DamagedDatabase", "DamagedGame", "Database", "Session", "SqliteDatabase",
           "StorageError", "integrity_check", "open_database", "storage_error", "wal_damage"]


async def open_database(path: Path | str, sync: str = "full",
                        migrations: Sequence[Migration] = MIGRATIONS,
                        now: Any = time.time, **sqlite_options: Any) -> Any:
    """The database at ``path``, its schema brought up to date: a ``postgresql://`` URL
    opens that server (`postgres`), anything else the SQLite file (`sqlite.open_sqlite`,
    which takes ``sqlite_options`` and says what they do)."""
    if isinstance(path, str) and path.startswith(("postgresql://", "postgres://")):
        from .postgres import open_postgres  # asyncpg only when it is used

        return await open_postgres(path, migrations, now)
    if re.match(r"postgres(ql)?:/[^/]", str(path)):
        # a URL that went through Path() lost a slash: a new empty file there would hide
        # every row of the server behind a quiet "nothing found"
        raise StorageError("cannot open the database: it looks like a PostgreSQL URL that "
                           "lost a slash; give it as postgresql://...")  # not shown: a password
    return await open_sqlite(path, sync, migrations, now, **sqlite_options)
