"""The PostgreSQL driver: the `Database` interface of `bot.storage` over an asyncpg pool, for
hosts that run several processes (bot shards, the e-mail gateway, the scheduler) on one
database.

A transaction is one pooled connection inside ``BEGIN`` (READ COMMITTED): what must not be
done twice by two processes locks its rows (`Session.lock_game` before a game is changed,
`Session.claim` on the scheduler's queries). A snapshot is a REPEATABLE READ, READ ONLY
transaction, so its reads agree with each other like SQLite's.

The service writes SQL with ``?`` placeholders in the dialect both databases share; each
statement is rewritten once (and cached) for PostgreSQL: ``$1, $2, ...`` placeholders, an
``INSERT`` returning the new row's ``id``, and the few SQLite spellings the service uses
(``= ? COLLATE NOCASE``, ``json_extract(column, '$.flag') = 1``, ``INSERT OR IGNORE``).
The schema's migrations are written for SQLite; `postgres_ddl` turns each into
PostgreSQL's words (64-bit integers, double precision times, identity columns), or a
migration gives its own PostgreSQL statements where they must differ.
"""

from __future__ import annotations

import inspect
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import quote, unquote, unquote_plus

import asyncpg

from .interface import Params, Row, StorageError, read_schema_version
from .migrations import MIGRATIONS, Migration, check_order, refuse_newer

SCHEMA_LOCK = 0x636F6D6D  # the advisory lock migrations hold (one migrating process at once)
POOL_SIZE = 10
# prepared statements kept per connection: the service has some 150 distinct statements,
# more than asyncpg's default 100, and one evicted costs an extra round trip to prepare again
STATEMENT_CACHE = 512


def is_postgres_url(target: object) -> bool:
    """Whether a configured database names a PostgreSQL server rather than a file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


# --- the server's URL ---------------------------------------------------------------------
MAX_URL = 4096  # characters of a database URL; a longer one is refused before it is read
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


@dataclass(frozen=True)
class PostgresUrl:
    """A ``postgresql://user:password@host:port/database?field=value`` URL, read as RFC 3986
    reads it: user and password are percent-decoded (``%40`` is an ``@``), the hosts and
    the query are kept as written (the driver reads them)."""

    scheme: str
    user: str | None
    password: str | None
    hosts: str
    database: str | None
    query: str

    def dsn(self) -> str:
        """The URL as the driver is given it: user, password and database percent-encoded
        whole, so that the driver, which splits at the first ``@`` and ``:`` and drops tabs,
        reads each exactly."""
        login = ""
        if self.user is not None:
            login = quote(self.user, safe="")
            if self.password is not None:
                login += ":" + quote(self.password, safe="")
            login += "@"
        path = "" if self.database is None else "/" + quote(self.database, safe="")
        return f"{self.scheme}://{login}{self.hosts}{path}" + (
            f"?{self.query}" if self.query else "")


def parse_url(url: str) -> PostgresUrl:
    """Read a PostgreSQL URL, or raise `StorageError` saying in one sentence why it cannot
    be read, quoting no part of the URL (where it cannot be read, no one can tell which
    part is the password). Only what is ambiguous is refused: an ``@``, ``/``, ``?`` or
    ``#`` of a password that is not percent-encoded puts an ``@`` after the host (or two in
    it), and a ``%`` not followed by two hexadecimal digits would be read as something
    else. Linear in the URL, whose length is bounded first."""
    if len(url) > MAX_URL:
        raise StorageError(f"the database URL is longer than {MAX_URL:,} characters")

    def refuse(why: str) -> StorageError:
        return StorageError(f"the database URL cannot be read: {why}")

    scheme, _, rest = url.partition("://")
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, remainder = rest[:end], rest[end:]
    if "@" in remainder or authority.count("@") > 1:
        raise refuse("its password (or user or database name) holds an '@', '/', '?' or "
                     "'#' that is not percent-encoded; write them as %40, %2F, %3F and %23 "
                     "(see docs/hosting.md)")
    if "#" in remainder:
        raise refuse("it holds a '#', which ends a URL; write a '#' of a password as %23 "
                     "(see docs/hosting.md)")
    if _BAD_ESCAPE.search(url):
        raise refuse("a '%' is not followed by two hexadecimal digits; write a '%' of a "
                     "password as %25 (see docs/hosting.md)")
    login, at, hosts = authority.rpartition("@")
    user, colon, password = login.partition(":")
    if not all(_port_ok(host) for host in hosts.split(",")):
        raise refuse("a port is not a number from 1 to 65535")
    path, _, query = remainder.partition("?")
    if query and not all("=" in field for field in query.split("&")):
        raise refuse("a field of its query has no '='")
    return PostgresUrl(scheme=scheme, user=unquote(user) if at else None,
                       password=unquote(password) if colon else None, hosts=hosts,
                       database=unquote(path[1:]) if path else None, query=query)


def _port_ok(host: str) -> bool:
    """Whether ``host`` (``name``, ``name:port``, ``[v6]:port`` or nothing) has a usable port."""
    if host.startswith("["):
        _, _, after = host.partition("]")
        port = after[1:] if after.startswith(":") else after
    else:
        port = host.rpartition(":")[2] if ":" in host else ""
    return port == "" or (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535)


# --- statements -------------------------------------------------------------------------
_STRING_OR_MARK = re.compile(r"'(?:[^']|'')*'|\?")
_NOCASE = re.compile(r"([\w.]+) = \? COLLATE NOCASE")
# SQLite reads a JSON true as 1: a flag set in a JSON column is true or 1 on PostgreSQL
_JSON_FLAG = re.compile(r"json_extract\(([\w.]+), '\$\.(\w+)'\) = 1")
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT OR IGNORE INTO", re.IGNORECASE)


@lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """A statement of the shared dialect in PostgreSQL's spelling (``?`` -> ``$n``)."""
    sql = _NOCASE.sub(r"lower(\1) = lower(?)", sql)
    sql = _JSON_FLAG.sub(r"(\1::jsonb -> '\2') IN ('true'::jsonb, '1'::jsonb)", sql)
    if _INSERT_OR_IGNORE.match(sql):
        sql = _INSERT_OR_IGNORE.sub("INSERT INTO", sql) + " ON CONFLICT DO NOTHING"
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()  # a string literal: its question marks are text
        count += 1
        return f"${count}"

    return _STRING_OR_MARK.sub(number, sql)


@lru_cache(maxsize=256)
def _returning_id(sql: str) -> str:
    return translate(sql) + " RETURNING id"


_DDL = (
    (re.compile(r"\bINTEGER PRIMARY KEY\b"), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT ROWID"), ")"),
    (re.compile(r"([\w.]+) COLLATE NOCASE"), r"lower(\1)"),
    # SQLite turns a number into text by itself where text is expected; PostgreSQL is told
    (re.compile(r"COALESCE\((\w+), ''\)"), r"COALESCE(\1::text, '')"),
)


def postgres_ddl(statement: str) -> str:
    """A migration statement written for SQLite, in PostgreSQL's words: SQLite's INTEGER is
    64 bits (PostgreSQL's is 32), its REAL is double precision (PostgreSQL's is single: a
    time in seconds would lose minutes), an ``INTEGER PRIMARY KEY`` numbers rows itself, and
    a case-blind index is one on ``lower(column)``."""
    for pattern, replacement in _DDL:
        statement = pattern.sub(replacement, statement)
    return statement


def migration_statements(migration: Migration) -> tuple[str, ...]:
    """The statements applying ``migration`` on PostgreSQL."""
    own = migration.postgres
    return own if own is not None else tuple(postgres_ddl(s) for s in migration.statements)


def _changed(status: str) -> int:
    """The row count in a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


# --- errors ------------------------------------------------------------------------------
# (a lost connection is a ConnectionError; not every OSError inside a transaction is one)
_STORAGE_FAULTS = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, ConnectionError,
                   asyncpg.InsufficientResourcesError, asyncpg.OperatorInterventionError,
                   asyncpg.PostgresSystemError)


def _fault(err: BaseException) -> StorageError:
    return StorageError(f"the PostgreSQL database cannot be used: {err}")


# --- sessions and the database ----------------------------------------------------------
READ_COMMITTED = "BEGIN ISOLATION LEVEL READ COMMITTED"
SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"


class PostgresSession:
    """SQL inside one transaction or snapshot, on one pooled connection.

    Each statement is a round trip to the server, so the session saves the ones it can:
    its ``BEGIN`` waits for the first statement, and goes in the same message as the game's
    lock when that comes first (as it does for every move); a session that ran nothing
    sends neither ``BEGIN`` nor ``COMMIT``."""

    def __init__(self, connection: asyncpg.Connection, db: PostgresDatabase,
                 begin: str) -> None:
        self._raw = connection
        self.db = db
        self._begin = begin  # not sent yet; "" once it has been

    @property
    def connection(self) -> _Begun:
        """The connection, for PostgreSQL's own statements (COPY, DDL, locks) inside the
        session: each call sends the pending ``BEGIN`` first."""
        return _Begun(self)

    async def begin(self) -> asyncpg.Connection:
        """The connection, inside the session's transaction."""
        if self._begin:
            await self._raw.execute(self._begin)
            self._begin = ""
        return self._raw

    async def end(self, word: str) -> None:
        """``COMMIT`` or ``ROLLBACK``, if a ``BEGIN`` was sent. A connection that cannot roll
        back is closed, so the pool never hands out one inside a failed transaction."""
        if self._begin or self._raw.is_closed():
            return
        if word == "COMMIT":
            await self._raw.execute(word)
            return
        try:
            await self._raw.execute(word)
        except Exception:  # lost, or still busy with a cancelled statement
            self._raw.terminate()

    async def execute(self, sql: str, params: Params = ()) -> int:
        connection = await self.begin()
        changed = _changed(await connection.execute(translate(sql), *params))
        self.db.total_changes += changed
        return changed

    async def insert(self, sql: str, params: Params = ()) -> int:
        connection = await self.begin()
        new_id = await connection.fetchval(_returning_id(sql), *params)
        self.db.total_changes += new_id is not None
        return int(new_id or 0)

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        return await (await self.begin()).fetchrow(translate(sql), *params)

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await (await self.begin()).fetch(translate(sql), *params))

    async def lock_game(self, game_id: int) -> None:
        """Hold the game's row until the transaction ends: a second process changing the
        same game waits, then reads what the first one committed."""
        if not self._begin:
            await self._raw.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", game_id)
            return
        # one message for both: the simple protocol takes several statements, but no
        # parameters (the id is an integer, written into the text)
        await self._raw.execute(f"{self._begin}; SELECT id FROM games WHERE id = "
                                f"{int(game_id)} FOR UPDATE")
        self._begin = ""

    def claim(self, table: str) -> str:
        """The suffix of a query taking due work: its rows locked for this transaction, and
        rows another process holds skipped, so two processes never take the same row."""
        return f" FOR UPDATE OF {table} SKIP LOCKED"


class _Begun:
    """A session's connection whose coroutine methods first send the session's pending
    ``BEGIN`` (see `PostgresSession.connection`)."""

    def __init__(self, session: PostgresSession) -> None:
        self._session = session

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._session._raw, name)
        # (the pool hands out a proxy whose methods are plain functions: ask the class)
        if not inspect.iscoroutinefunction(getattr(asyncpg.Connection, name, None)):
            return method

        async def call(*args: Any, **kwargs: Any) -> Any:
            await self._session.begin()
            return await method(*args, **kwargs)
        return call


class PostgresDatabase:
    """The PostgreSQL driver: an asyncpg pool; READ COMMITTED writes with row locks."""

    shared = True  # bot shards, the e-mail gateway and the scheduler may share it

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:
        self.url = url
        self._pool = pool
        # rows changed through this database since it was opened, like SQLite's count
        # (tests use it to show that a refused command wrote nothing)
        self.total_changes = 0

    @asynccontextmanager
    async def _session(self, begin: str) -> AsyncIterator[PostgresSession]:
        try:
            async with self._pool.acquire() as connection:
                session = PostgresSession(connection, self, begin)
                try:
                    yield session
                except BaseException:
                    await session.end("ROLLBACK")
                    raise
                await session.end("COMMIT")
        except _STORAGE_FAULTS as err:
            raise _fault(err) from err

    def transaction(self) -> Any:
        return self._session(READ_COMMITTED)

    def snapshot(self) -> Any:
        return self._session(SNAPSHOT)

    schema_version = read_schema_version

    async def close(self) -> None:
        await self._pool.close()


def _numeric(text: str) -> int | float:
    """SUM over integers is NUMERIC in PostgreSQL: read it back as SQLite would."""
    return float(text) if any(c in text for c in ".eEn") else int(text)


async def _setup(connection: asyncpg.Connection) -> None:
    await connection.set_type_codec("numeric", encoder=str, decoder=_numeric,
                                    schema="pg_catalog", format="text")


async def _keep(connection: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool: nothing. Sessions leave no
    state on it (no SET, LISTEN, cursor or session-level advisory lock: the migrations' lock
    ends with their transaction), and the pool itself rolls back a transaction left open,
    so asyncpg's default reset (``RESET ALL; UNLISTEN *; ...``) would cost a round trip to
    the server after every transaction for nothing."""


async def open_postgres(url: str, migrations: Sequence[Migration] = MIGRATIONS,
                        now: Any = time.time, pool_size: int = POOL_SIZE) -> PostgresDatabase:
    """Connect to the server at ``url`` and bring the schema up to date (`StorageError`, in
    words without the password, if the URL cannot be read or the server reached)."""
    parsed = parse_url(url)
    try:
        pool = await asyncpg.create_pool(parsed.dsn(), min_size=1, max_size=pool_size,
                                         init=_setup, reset=_keep,
                                         statement_cache_size=STATEMENT_CACHE)
    except (*_STORAGE_FAULTS, asyncpg.PostgresError, OSError, ValueError) as err:
        raise StorageError("cannot connect to the PostgreSQL database: "
                           + _without_password(str(err), parsed)) from None
    db = PostgresDatabase(url, pool)
    try:
        await _migrate(db, migrations, now)
    except BaseException:
        await pool.close()
        raise
    return db


def _without_password(text: str, url: PostgresUrl) -> str:
    """A driver's message with the URL's passwords (as written and as read) left out."""
    secrets = {url.password, quote(url.password or "", safe="")}
    for field in url.query.split("&"):
        name, _, value = field.partition("=")
        if unquote(name).lower().endswith("password"):
            secrets |= {value, unquote(value), unquote_plus(value)}
    for secret in sorted(filter(None, secrets), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


async def _migrate(db: PostgresDatabase, migrations: Sequence[Migration], now: Any) -> None:
    check_order(migrations)
    async with db.transaction() as s:
        # processes starting together take turns; the lock ends with the transaction
        await s.connection.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
        await s.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version BIGINT PRIMARY KEY, description TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)")
        row = await s.one("SELECT MAX(version) AS v FROM schema_migrations")
        current = int(row["v"] or 0) if row else 0
        refuse_newer(current, migrations)
        for migration in migrations:
            if migration.version <= current:
                continue
            for statement in migration_statements(migration):
                await s.connection.execute(statement)
            await s.execute(
                "INSERT INTO schema_migrations (version, description, applied_at) "
                "VALUES (?, ?, ?)", (migration.version, migration.description, now()))
