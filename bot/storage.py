"""Storage behind a small interface: a database hands out write transactions and read
snapshots, each a `Session` that runs SQL with ``?`` placeholders and returns rows that can
be read by column name.

`SqliteDatabase` is the driver used now: one database file through aiosqlite, WAL mode, one
writer connection (transactions are serialised by an asyncio lock and begin IMMEDIATE, so
another process writing the same file waits for its turn; those that queue up are committed
together) and one reader connection that sees only committed data. Another driver
(PostgreSQL, `bot.storage_postgres`, chosen by a ``postgresql://`` URL) implements the same
methods; the SQL of the service sticks to what both understand.

The schema is versioned: `MIGRATIONS` lists the steps in order, the ``schema_migrations``
table records which were applied, and `open_database` applies the missing ones in one
transaction at start-up, so an older database is upgraded in place and a crash during the
upgrade leaves it as it was.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from .migrations import MIGRATIONS, Migration

Row = Mapping[str, Any]
Params = Sequence[Any]
BUSY_TIMEOUT_MS = 30_000


class StorageError(RuntimeError):
    """The database cannot be used (newer schema, damaged file, ...)."""


class Session(Protocol):
    """SQL inside one transaction or one read snapshot."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement; the number of rows it changed."""

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; the new row's id."""

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""

    async def lock_game(self, game_id: int) -> None:
        """Hold the game's row for the rest of the transaction (other processes changing
        it wait); call it before reading a game that the transaction may change."""

    def claim(self, table: str) -> str:
        """The suffix of a query taking due work from ``table`` (its alias): the rows it
        returns are this transaction's, and rows another process holds are skipped."""


class Database(Protocol):
    """Where the service keeps its state."""

    def transaction(self) -> Any:
        """``async with db.transaction() as s``: all or nothing, committed on exit."""

    def snapshot(self) -> Any:
        """``async with db.snapshot() as s``: consistent reads of committed data."""

    async def close(self) -> None: ...


@dataclass
class _SqliteSession:
    connection: aiosqlite.Connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self.connection.execute(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        cursor = await self.connection.execute(sql, params)
        return int(cursor.lastrowid or 0)

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        # execute_fetchall is one round trip to the connection's thread; execute + fetchone
        # would be two
        rows = await self.connection.execute_fetchall(sql, params)
        return rows[0] if rows else None  # type: ignore[index]

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.connection.execute_fetchall(sql, params))

    async def lock_game(self, game_id: int) -> None:
        """Nothing to do: a write transaction holds the file's one writer lock."""

    def claim(self, table: str) -> str:
        return ""  # the writer is serialised: every row of a transaction is its own


class SqliteDatabase:
    """The SQLite driver: one file, WAL, a serialised writer and a reader."""

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._batch: asyncio.Future[None] | None = None  # the transaction being filled
        self._members = 0  # transactions in it so far
        self._committers: set[asyncio.Task[None]] = set()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        # Group commit: transactions that queue up while one runs join its batch, each
        # inside a savepoint, and the batch is committed once when their turns are over. A
        # member returns only after the commit, so nothing is acknowledged before it is
        # stored, while one disk flush serves many moves.
        async with self._write_lock:
            batch = self._batch
            if batch is None:
                await self._writer.execute("BEGIN IMMEDIATE")
                batch = self._batch = asyncio.get_running_loop().create_future()
                committer = asyncio.create_task(self._commit(batch))
                self._committers.add(committer)
                committer.add_done_callback(self._committers.discard)
            else:
                await self._writer.execute("SAVEPOINT member")
            first = not self._members
            self._members += 1
            try:
                yield _SqliteSession(self._writer)
            except BaseException:
                await self._undo(batch, first)
                raise
        # savepoints are not released one by one: COMMIT releases them all
        await asyncio.shield(batch)

    async def _undo(self, batch: asyncio.Future[None], first: bool) -> None:
        """Roll back one failed member of a batch, keeping the others' work."""
        if first:  # nobody else has joined yet: the whole transaction is its own
            self._batch = None
            self._members = 0
            if self._writer.in_transaction:
                await self._writer.execute("ROLLBACK")
            return
        if self._writer.in_transaction:
            await self._writer.execute("ROLLBACK TO member")  # the innermost: this member's
            return
        # SQLite gave up the whole transaction (a disk error): the batch is lost
        self._batch = None
        self._members = 0
        batch.set_exception(StorageError("the transaction was rolled back by the database"))

    async def _commit(self, batch: asyncio.Future[None]) -> None:
        """Commit a batch once every member that queued before it has run."""
        async with self._write_lock:
            if self._batch is not batch:  # rolled back meanwhile
                return
            self._batch = None
            self._members = 0
            try:
                await self._writer.execute("COMMIT")
            except BaseException as err:
                if self._writer.in_transaction:
                    await self._writer.execute("ROLLBACK")
                batch.set_exception(err)
                return
            batch.set_result(None)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Session]:
        async with self._read_lock:
            await self._reader.execute("BEGIN")
            try:
                yield _SqliteSession(self._reader)
            finally:
                await self._reader.execute("COMMIT")

    async def schema_version(self) -> int:
        async with self.snapshot() as s:
            row = await s.one("SELECT MAX(version) AS v FROM schema_migrations")
        return int(row["v"] or 0) if row else 0

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()


async def _connect(path: Path, sync: str) -> aiosqlite.Connection:
    connection = await aiosqlite.connect(path, isolation_level=None)
    connection.row_factory = sqlite3.Row
    await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    await connection.execute("PRAGMA journal_mode = WAL")
    await connection.execute(f"PRAGMA synchronous = {sync.upper()}")
    await connection.execute("PRAGMA foreign_keys = ON")
    return connection


async def open_database(path: Path | str, sync: str = "full",
                        migrations: Sequence[Migration] = MIGRATIONS,
                        now: Any = time.time) -> Any:
    """Open (or create) the database file and bring its schema up to date; a
    ``postgresql://`` URL opens that server instead (`bot.storage_postgres`)."""
    if isinstance(path, str) and path.startswith(("postgresql://", "postgres://")):
        from .storage_postgres import open_postgres  # asyncpg only when it is used

        return await open_postgres(path, migrations, now)
    path = Path(path)
    if path.parent != Path(""):
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        writer = await _connect(path, sync)
    except sqlite3.DatabaseError as err:
        raise StorageError(f"cannot open the database {str(path)!r}: {err}") from err
    try:
        await _migrate(writer, migrations, now)
        reader = await _connect(path, sync)
    except BaseException:
        await writer.close()
        raise
    return SqliteDatabase(path, writer, reader)


def check_order(migrations: Sequence[Migration]) -> None:
    """Migrations must be numbered in increasing order, each number once."""
    versions = [m.version for m in migrations]
    if versions != sorted(set(versions)):
        raise StorageError("migrations must have increasing, distinct version numbers")


def refuse_newer(current: int, migrations: Sequence[Migration]) -> None:
    """A database upgraded by a newer commandpost is not touched by this one."""
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise StorageError(f"the database has schema version {current}, newer than this "
                           f"commandpost knows ({latest}); upgrade commandpost")


async def _migrate(connection: aiosqlite.Connection, migrations: Sequence[Migration],
                   now: Any) -> None:
    check_order(migrations)
    await connection.execute("BEGIN IMMEDIATE")
    try:
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at REAL NOT NULL)")
        rows = await connection.execute_fetchall("SELECT MAX(version) FROM schema_migrations")
        current = int(list(rows)[0][0] or 0)
        refuse_newer(current, migrations)
        for migration in migrations:
            if migration.version <= current:
                continue
            for statement in migration.statements:
                await connection.execute(statement)
            await connection.execute(
                "INSERT INTO schema_migrations (version, description, applied_at) "
                "VALUES (?, ?, ?)", (migration.version, migration.description, now()))
    except BaseException:
        await connection.execute("ROLLBACK")
        raise
    await connection.execute("COMMIT")
