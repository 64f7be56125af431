"""`SqliteDatabase`, the driver of the storage interface (`bot.storage.interface`) used now:
one database file through aiosqlite, WAL mode, one writer connection (transactions are
serialised by an asyncio lock and begin IMMEDIATE, so another process writing the same file
waits for its turn; those that queue up are committed together) and one reader connection
that sees only committed data. Another driver (PostgreSQL, `bot.storage.postgres`, which
`bot.storage.open_database` chooses for a ``postgresql://`` URL) implements the same methods;
the SQL of the service sticks to what both understand.

The schema is versioned: `MIGRATIONS` lists the steps in order, the ``schema_migrations``
table records which were applied, and `open_sqlite` applies the missing ones in one
transaction at start-up, so an older database is upgraded in place and a crash during the
upgrade leaves it as it was.
"""

from __future__ import annotations

import asyncio
import sqlite3
import struct
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from . import soundness
from .interface import (
    DamagedDatabase,
    Params,
    Row,
    Session,
    StorageError,
    read_schema_version,
)
from .migrations import MIGRATIONS, Migration, check_order, refuse_newer

BUSY_TIMEOUT_MS = 30_000
START_TIMEOUT_MS = 5_000  # a file locked at start-up: fail within this, saying why
DAMAGED_ENV = "COMMANDPOST_DB_DAMAGED"


# what SQLite's result codes mean to a host, by the start of the code's name
FAULTS = (
    ("SQLITE_FULL", "the disk is full"),
    ("SQLITE_BUSY", "the database is locked by another program"),
    ("SQLITE_LOCKED", "the database is locked by another program"),
    ("SQLITE_READONLY", "the database file is read-only"),
    ("SQLITE_PERM", "the database file may not be written"),
    ("SQLITE_CORRUPT", "the database file is damaged"),
    ("SQLITE_NOTADB", "the file is not a database (or it is damaged)"),
    ("SQLITE_IOERR", "the disk reported an input/output error"),
    ("SQLITE_CANTOPEN", "the database file cannot be opened"),
)


def storage_error(err: BaseException, doing: str = "",
                  path: Path | None = None) -> StorageError:
    """``err`` (a SQLite error, or text of the file that is not UTF-8: Python's sqlite3
    raises `UnicodeDecodeError` for a damaged schema's message) as a `StorageError` whose
    message a host understands; with the file's ``path``, a full disk is called full
    (SQLite may say "input/output error") and the programs holding a lock are named."""
    where = f" while {doing}" if doing else ""
    if isinstance(err, UnicodeDecodeError):
        return StorageError(f"the database file is damaged{where} (it holds text that is not "
                            f"UTF-8)")
    name = getattr(err, "sqlite_errorname", "") or ""
    if path is not None and name.startswith(("SQLITE_IOERR", "SQLITE_FULL")) \
            and soundness.disk_full(path):
        return StorageError(f"the disk is full{where} ({err})")
    meaning = next((m for prefix, m in FAULTS if name.startswith(prefix)), None)
    if meaning is None:  # an older SQLite without error names: read the text
        text = str(err).lower()
        meaning = next((m for key, m in (("disk is full", FAULTS[0][1]),
                                          ("locked", FAULTS[1][1]),
                                          ("readonly", FAULTS[3][1]),
                                          ("malformed", FAULTS[5][1]),
                                          ("could not decode", FAULTS[5][1]),
                                          ("not a database", FAULTS[6][1]))
                        if key in text), "the database failed")
    if path is not None and meaning == FAULTS[1][1] and (holders := soundness.lock_holders(path)):
        meaning += f" ({', '.join(holders)})"
    return StorageError(f"{meaning}{where} ({err})")


SQLITE_FAULTS = (sqlite3.Error, UnicodeDecodeError)  # what a damaged or busy file raises


def _translating(method: Any) -> Any:
    """A coroutine method whose SQLite errors become `StorageError`."""
    async def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except SQLITE_FAULTS as err:
            raise storage_error(err, path=getattr(args[0], "path", None)) from err
    run.__name__, run.__doc__ = method.__name__, method.__doc__
    return run


@dataclass
class _SqliteSession:
    connection: aiosqlite.Connection
    path: Path | None = None  # the file, to say what a failure means (`storage_error`)

    @_translating
    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self.connection.execute(sql, params)
        return cursor.rowcount

    @_translating
    async def insert(self, sql: str, params: Params = ()) -> int:
        cursor = await self.connection.execute(sql, params)
        return int(cursor.lastrowid or 0)

    @_translating
    async def one(self, sql: str, params: Params = ()) -> Row | None:
        # execute_fetchall is one round trip to the connection's thread; execute + fetchone
        # would be two
        rows = await self.connection.execute_fetchall(sql, params)
        return rows[0] if rows else None  # type: ignore[index]

    @_translating
    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.connection.execute_fetchall(sql, params))

    async def lock_game(self, game_id: int) -> None:
        """Nothing to do: a write transaction holds the file's one writer lock."""

    def claim(self, table: str) -> str:
        return ""  # the writer is serialised: every row of a transaction is its own


class SqliteDatabase:
    """The SQLite driver: one file, WAL, a serialised writer and a reader."""

    shared = False  # one service process per file (each transport delivers its own rows)

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
                await self._begin()
                batch = self._batch = asyncio.get_running_loop().create_future()
                committer = asyncio.create_task(self._commit(batch))
                self._committers.add(committer)
                committer.add_done_callback(self._committers.discard)
            else:
                await self._writer.execute("SAVEPOINT member")
            first = not self._members
            self._members += 1
            try:
                yield _SqliteSession(self._writer, self.path)
            except BaseException:
                await self._undo(batch, first)
                raise
        # savepoints are not released one by one: COMMIT releases them all
        await asyncio.shield(batch)

    async def _begin(self) -> None:
        try:
            await self._writer.execute("BEGIN IMMEDIATE")
        except SQLITE_FAULTS as err:
            raise storage_error(err, "starting a transaction", self.path) from err
        except asyncio.CancelledError:
            await _end_after_cancel(self._writer, "ROLLBACK")
            raise

    @_translating
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
                try:
                    if self._writer.in_transaction:
                        await self._writer.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the commit's own error is the one to report
                if isinstance(err, SQLITE_FAULTS):
                    err = storage_error(err, "committing", self.path)
                batch.set_exception(err)
                return
            batch.set_result(None)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Session]:
        async with self._read_lock:
            try:
                await self._reader.execute("BEGIN")
            except SQLITE_FAULTS as err:
                raise storage_error(err, "reading", self.path) from err
            except asyncio.CancelledError:
                await _end_after_cancel(self._reader, "COMMIT")
                raise
            try:
                yield _SqliteSession(self._reader, self.path)
            finally:
                if self._reader.in_transaction:
                    try:
                        await self._reader.execute("COMMIT")
                    except SQLITE_FAULTS as err:
                        raise storage_error(err, "reading", self.path) from err

    @property
    def total_changes(self) -> int:
        """Rows changed through this database since it was opened (tests use it to show
        that a refused command wrote nothing)."""
        return self._writer.total_changes

    schema_version = read_schema_version

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()


async def _connect(path: Path, sync: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS,
                   read_only: bool = False) -> aiosqlite.Connection:
    target = f"file:{quote(str(path.resolve()))}?mode=ro" if read_only else path
    connection = await aiosqlite.connect(target, isolation_level=None, uri=read_only)
    try:
        connection.row_factory = sqlite3.Row
        # text that is not UTF-8 (a damaged row) reads with replacement characters, so that
        # one bad value is found as that row's damage instead of failing every query
        connection.text_factory = _lenient_text
        await connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if read_only:
            return connection
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute(f"PRAGMA synchronous = {sync.upper()}")
        await connection.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        # an open connection keeps its thread, and the process, alive
        await connection.close()
        raise
    return connection


async def _end_after_cancel(connection: aiosqlite.Connection, end: str) -> None:
    """A BEGIN whose caller was cancelled may still run in the connection's thread, which
    runs what it is given in order: ``end`` (COMMIT or ROLLBACK) is queued behind it, so
    the connection is never left inside a transaction nobody ends (every later BEGIN would
    fail). With no transaction begun, the end is nothing."""
    try:
        await asyncio.shield(connection.execute(end))
    except sqlite3.OperationalError:
        pass  # no transaction: the BEGIN never ran


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


async def open_sqlite(path: Path | str, sync: str = "full",
                      migrations: Sequence[Migration] = MIGRATIONS,
                      now: Any = time.time, check: bool = True,
                      busy_timeout_ms: int = BUSY_TIMEOUT_MS,
                      settle_log: bool = False,
                      start_timeout_ms: int = START_TIMEOUT_MS,
                      read_only: bool = False) -> Any:
    """Open (or create) the database file, check it (``PRAGMA quick_check`` and the
    columns of its tables, unless ``check`` is False) and bring its schema up to date.
    Another program's database is refused (`soundness`), and so is a file that cannot be
    written. A file locked by another program fails after ``start_timeout_ms``, naming
    it where the system tells (later, once working, a transaction waits up to
    ``busy_timeout_ms`` for another process's turn). ``settle_log``: when it is opened
    in spite of damage, empty its write-ahead log into the file at once (what SQLite
    could read of it), so that the damaged frames left behind in the log are not taken
    for new damage at the next start. Every failure is a
    `StorageError` naming the file, and leaves no connection open."""
    path = Path(path)
    try:
        if path.parent != Path(""):
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StorageError(f"cannot open the database {str(path)!r}: cannot make its folder "
                           f"({err.strerror})") from err
    if check:
        lost = await asyncio.to_thread(wal_damage, path)
        if lost:  # or a frame that another process was writing as it was read: look again
            await asyncio.sleep(0.2)
            lost = await asyncio.to_thread(wal_damage, path)
        if lost:
            raise DamagedDatabase(f"{lost}; opening the database would drop them for good. "
                                  f"Keep a copy of {path.name} and {path.name}-wal, then set "
                                  f"{DAMAGED_ENV}=start to start without them.")
    foreign = soundness.foreign_tables(await asyncio.to_thread(soundness.tables_of, path)) \
        if migrations else []
    if foreign:  # found before anything is written to it (even the journal's mode)
        shown = ", ".join(foreign[:8]) + (", ..." if len(foreign) > 8 else "")
        raise StorageError(f"cannot open the database {str(path)!r}: it holds another "
                           f"program's tables ({shown}), not commandpost's; give commandpost "
                           f"a file of its own (COMMANDPOST_DB)")
    writer = reader = None
    start_ms = min(busy_timeout_ms, start_timeout_ms)
    try:
        writer = await _connect(path, sync, start_ms, read_only)
        if check:
            await _quick_check(writer, path)
        if not read_only:  # a look at a file as it is (`db check` of a read-only file)
            await _migrate(writer, migrations, now)
        if check:
            await _check_schema(writer, migrations, path)
        if settle_log:
            await writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        reader = await _connect(path, sync, start_ms, read_only)
        for connection in (writer, reader):  # waits once working: another process's turn
            await connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    except SQLITE_FAULTS as err:
        for connection in (writer, reader):
            if connection is not None:
                await connection.close()
        raise StorageError(f"cannot open the database {str(path)!r}: "
                           f"{storage_error(err, path=path)}{_advice(err)}") from err
    except BaseException:
        for connection in (writer, reader):
            if connection is not None:
                await connection.close()
        raise
    return SqliteDatabase(path, writer, reader)


def _advice(err: BaseException) -> str:
    """What a host can do about a failure to open the file."""
    name = getattr(err, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM")):
        return (". commandpost writes every move to it: give the user it runs as write "
                "access to the file and its folder")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return ". Stop the program holding it, or give commandpost a file of its own"
    return ""


def wal_damage(path: Path) -> str | None:
    """What a damaged write-ahead log of ``path`` would lose (None: nothing).

    SQLite replays the log up to its first frame that fails (salts of another log, page
    number 0, or a checksum that breaks the chain) and silently drops the rest, committed
    transactions included. The question is whether frames after that point were committed
    work. A frame whose checksum fails is either damage (a changed byte: the frames written
    after it still chain from the checksum stored in its header, since SQLite computed
    theirs from it) or a torn write (a process killed between a frame's header and its page,
    or a power cut: the last frame written, after which nothing chains). So the chain is
    resumed from the failing frame's stored checksum: the frames of the current log that
    verify then, up to the first that does not, are work SQLite wrote after the damage;
    if one of them (or the failing frame itself, when a frame after it verifies) ends a
    committed transaction, committed work would be lost. A damaged final commit frame with
    nothing after it cannot be told from a torn last write: it is taken for one (SQLite
    drops that transaction; its writer, killed or cut off, never saw it committed)."""
    wal = path.with_name(path.name + "-wal")
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < 32:
        return None
    magic, version, page_size, _, salt1, salt2 = struct.unpack(">6I", data[:24])
    if magic not in (0x377F0682, 0x377F0683) or version != 3007000 \
            or not 512 <= page_size <= 65536 or page_size & (page_size - 1):
        return None  # not a log SQLite would read: nothing was committed in it
    order = ">" if magic & 1 else "<"
    check = _wal_checksum(data[:24], (0, 0), order)
    if check != struct.unpack(">2I", data[24:32]):
        return None  # no valid log at all: SQLite ignores it, nothing was committed in it
    frames = _Frames(data, page_size, (salt1, salt2), order)
    failed = frames.first_failure(32, check)
    if failed is None:
        return None
    offset, stored = failed
    after = frames.commits_chained(offset + frames.size, stored)
    if not after:
        return None  # a torn last write: nothing committed follows it
    commits = after + (1 if frames.commit_at(offset) else 0)
    return (f"the write-ahead log {wal.name} is damaged at frame "
            f"{(offset - 32) // frames.size + 1}: {commits} committed transaction(s) after "
            f"the damage cannot be read back")


@dataclass
class _Frames:
    """The frames of one write-ahead log, read as SQLite's recovery reads them."""

    data: bytes
    page_size: int
    salts: tuple[int, int]
    order: str

    @property
    def size(self) -> int:
        return 24 + self.page_size

    def commit_at(self, offset: int) -> bool:
        return bool(struct.unpack(">I", self.data[offset + 4:offset + 8])[0])

    def _verified(self, offset: int, check: tuple[int, int]) -> tuple[int, int] | None:
        """The chained checksum after the frame at ``offset`` if it is a valid frame of the
        current log continuing ``check``; None if SQLite would stop there."""
        number, _, s1, s2 = struct.unpack(">4I", self.data[offset:offset + 16])
        if (s1, s2) != self.salts or number == 0:
            return None
        after = _wal_checksum(self.data[offset:offset + 8]
                              + self.data[offset + 24:offset + self.size], check, self.order)
        return after if after == struct.unpack(">2I", self.data[offset + 16:offset + 24]) \
            else None

    def first_failure(self, offset: int, check: tuple[int, int],
                      ) -> tuple[int, tuple[int, int]] | None:
        """The offset of the first frame of the current log that breaks the chain, and the
        checksum stored in it (None: every frame verifies, or the log ends at another
        log's frame, which is where SQLite stops too)."""
        while offset + self.size <= len(self.data):
            number, _, s1, s2 = struct.unpack(">4I", self.data[offset:offset + 16])
            if (s1, s2) != self.salts:
                return None
            after = self._verified(offset, check)
            if after is None:
                if number == 0:
                    return None  # no frame of ours: the log ends here
                return offset, struct.unpack(">2I", self.data[offset + 16:offset + 24])
            check, offset = after, offset + self.size
        return None

    def commits_chained(self, offset: int, check: tuple[int, int]) -> int:
        """Commit frames among the frames from ``offset`` on that chain from ``check``."""
        commits = 0
        while offset + self.size <= len(self.data):
            after = self._verified(offset, check)
            if after is None:
                break
            commits += self.commit_at(offset)
            check, offset = after, offset + self.size
        return commits


def _wal_checksum(chunk: bytes, start: tuple[int, int], order: str) -> tuple[int, int]:
    """SQLite's WAL checksum of ``chunk``, continuing from ``start``."""
    s0, s1 = start
    words = struct.unpack(f"{order}{len(chunk) // 4}I", chunk)
    for first, second in zip(words[0::2], words[1::2], strict=True):
        s0 = (s0 + first + s1) & 0xFFFFFFFF
        s1 = (s1 + second + s0) & 0xFFFFFFFF
    return s0, s1


async def _quick_check(connection: aiosqlite.Connection, path: Path) -> None:
    """Refuse a database that SQLite's quick check finds damaged."""
    try:
        rows = await connection.execute_fetchall("PRAGMA quick_check(5)")
    except sqlite3.DatabaseError as err:  # too damaged even to be checked
        rows = [(str(err),)]
    except UnicodeDecodeError:  # the problems' text itself is damaged
        rows = [("text that is not UTF-8",)]
    problems = [str(r[0]) for r in rows]
    if problems != ["ok"]:
        said = " ".join("; ".join(problems).replace("*** in database main ***", "").split())
        raise DamagedDatabase(f"the database file {str(path)!r} is damaged: {said}. Run "
                              f"`commandpost db check` for a full report, restore a backup, "
                              f"or set {DAMAGED_ENV}=start to start on it anyway.")


async def _check_schema(connection: aiosqlite.Connection, migrations: Sequence[Migration],
                        path: Path) -> None:
    """Refuse a file whose tables do not have the columns the migrations make (a schema
    damaged in a way SQLite still reads)."""
    problems = await schema_problems(connection, migrations)
    if problems:
        raise DamagedDatabase(f"the database file {str(path)!r} is damaged: "
                              f"{'; '.join(problems)}. Run `commandpost db check` for a full "
                              f"report, or restore a backup.")


async def schema_problems(connection: Any, migrations: Sequence[Migration] = MIGRATIONS,
                          ) -> list[str]:
    """How the tables of the file differ from what ``migrations`` make (none: alike)."""
    expected = soundness.expected_columns(tuple(migrations))
    actual: dict[str, tuple[str, ...]] = {}
    try:
        garbled = [str(r[0]) for r in await connection.execute_fetchall(
            "SELECT name, sql FROM sqlite_master") if "\ufffd" in f"{r[0]}{r[1]}"]
        if garbled:
            return [f"the schema's text of {', '.join(garbled[:5])} is not UTF-8"]
        for table in expected:
            rows = await connection.execute_fetchall(f'PRAGMA table_info("{table}")')
            if rows:
                actual[table] = tuple(str(r[1]) for r in rows)
    except SQLITE_FAULTS as err:
        return [f"the tables' definitions cannot be read ({storage_error(err)})"]
    return soundness.schema_problems(expected, actual)


async def integrity_check(db: SqliteDatabase) -> list[str]:
    """SQLite's full ``integrity_check`` (every page, index and constraint): the problems
    found, none for a sound file."""
    async with db.snapshot() as s:
        rows = await s.all("PRAGMA integrity_check(100)")
    problems = [str(r[0]) for r in rows]
    return [] if problems == ["ok"] else problems


async def _migrate(connection: aiosqlite.Connection, migrations: Sequence[Migration],
                   now: Any) -> None:
    check_order(migrations)
    await connection.execute("BEGIN IMMEDIATE")
    try:
        # a write, even of nothing new, so that a file that cannot be written says so now
        version = list(await connection.execute_fetchall("PRAGMA user_version"))[0][0]
        await connection.execute(f"PRAGMA user_version = {int(version)}")
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
