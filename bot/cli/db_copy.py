"""``commandpost db copy SQLITE_FILE postgresql://…``: move a host from one SQLite file to
a PostgreSQL database.

Both schemas are brought up to date first (the file as any start of commandpost would),
then every table is copied in one transaction (the target is left empty if anything fails),
the target's id counters are moved past the copied rows, and every game is replayed from
its moves on the target and compared with what is stored. A target that already holds
data is refused: copying would mix two hosts' players and games.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

from ..config import Settings
from ..i18n import _
from ..redact import redact_url
from ..service import GameService
from ..storage import StorageError, open_database
from ..storage.postgres import PostgresDatabase, is_postgres_url, open_postgres
from . import say

BATCH = 5000
SKIPPED = ("schema_migrations",)  # each side keeps its own record of the migrations


class CopyError(RuntimeError):
    """The copy cannot be made (or did not check out); the message says why."""


async def _tables(source) -> list[tuple[str, list[str]]]:  # type: ignore[no-untyped-def]
    """The source's tables and their columns, in the order they were created: a table is
    made after those its rows refer to, so its rows are copied after theirs."""
    async with source.snapshot() as s:
        names = [r["name"] for r in await s.all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY rootpage")]
        tables = []
        for name in names:
            if name in SKIPPED:
                continue
            columns = [r["name"] for r in await s.all(f'PRAGMA table_info("{name}")')]
            tables.append((name, columns))
    return tables


async def _refuse_non_empty(target: PostgresDatabase, tables: list[tuple[str, list[str]]]) -> None:
    async with target.snapshot() as s:
        for name, _ in tables:
            if await s.one(f'SELECT 1 AS x FROM "{name}" LIMIT 1') is not None:
                raise CopyError(f"the target database is not empty (table {name} has rows); "
                                f"copy into a new, empty database")


async def _copy_rows(source, target: PostgresDatabase,  # type: ignore[no-untyped-def]
                     tables: list[tuple[str, list[str]]], say: Callable[[str], None]) -> None:
    async with target.transaction() as t:
        for name, columns in tables:
            count = 0
            async with source.snapshot() as s:
                rows = await s.all(f'SELECT * FROM "{name}"')
            for start in range(0, len(rows), BATCH):
                records = [tuple(r) for r in rows[start:start + BATCH]]
                await t.connection.copy_records_to_table(name, records=records, columns=columns)
                count += len(records)
            if "id" in columns:  # the next row made on PostgreSQL gets the next number
                await t.connection.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM \"{name}\"), 0) + 1, false)")
            say(f"{name}: {count} rows")


async def copy(sqlite_file: Path, url: str, say: Callable[[str], None] = print) -> int:
    """Copy the file's data into the empty database at ``url`` and verify every game;
    how many games were verified."""
    if not sqlite_file.is_file():
        raise CopyError(f"there is no database file {str(sqlite_file)!r}")
    source = await open_database(sqlite_file)
    try:
        target = await open_postgres(url)
        try:
            tables = await _tables(source)
            await _refuse_non_empty(target, tables)
            await _copy_rows(source, target, tables, say)
            return await _verify(target, say)
        finally:
            await target.close()
    finally:
        await source.close()


async def _verify(target: PostgresDatabase, say: Callable[[str], None]) -> int:
    service = GameService(target, Settings(db_path=target.url))
    async with target.snapshot() as s:
        ids = [r["id"] for r in await s.all("SELECT id FROM games ORDER BY id")]
    problems = [f"game #{i}: {p}" for i in ids for p in await service.archive.verify(i)]
    if problems:
        raise CopyError("the copy does not replay:\n" + "\n".join(problems))
    say(f"{len(ids)} games replayed and verified")
    return len(ids)


def postgres_target(text: str) -> str:
    """The copy's target as the command line gives it: a PostgreSQL URL, else refused
    (without echoing a password)."""
    if not is_postgres_url(text):
        raise argparse.ArgumentTypeError(f"the target must be a postgresql:// URL, not "
                                         f"{redact_url(text)!r}")
    return text


def run(args: argparse.Namespace) -> int:
    """``commandpost db copy`` with its parsed arguments (`bot.cli.db` reads them)."""
    try:
        asyncio.run(copy(args.source, args.target))
    except (CopyError, StorageError) as err:
        print(f"commandpost db copy: {err}")
        return 1
    say(_("copied: point COMMANDPOST_DB at the PostgreSQL URL to use it"))
    return 0
