"""Storage: one SQLite file in WAL mode, versioned migrations applied at start-up, an older
database upgraded in place, all-or-nothing transactions, and the settings that name it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.storage import StorageError, open_database
from bot.storage.migrations import MIGRATIONS, Migration

LATEST = MIGRATIONS[-1].version
ADD_NOTE = Migration(LATEST + 1, "players get a note",
                     ("ALTER TABLE players ADD COLUMN note TEXT NOT NULL DEFAULT 'hello'",))


async def _add_player(db, name: str = "alice") -> None:
    async with db.transaction() as s:
        await s.execute("INSERT INTO players (transport, address, display_name, created_at) "
                        "VALUES ('console', ?, ?, 0)", (name, name))


async def test_a_new_database_is_created_in_wal_mode_at_the_latest_version(tmp_path: Path):
    db = await open_database(tmp_path / "sub" / "new.db")
    try:
        async with db.snapshot() as s:
            mode = await s.one("PRAGMA journal_mode")
            tables = {r["name"] for r in await s.all(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert mode[0] == "wal"
        assert {"players", "challenges", "games", "moves", "outbox", "ratings",
                "vacations", "schema_migrations"} <= tables
        assert await db.schema_version() == LATEST
    finally:
        await db.close()


async def test_reopening_keeps_data_and_applies_nothing_twice(tmp_path: Path):
    path = tmp_path / "games.db"
    db = await open_database(path, now=lambda: 100.0)
    await _add_player(db)
    await db.close()
    db = await open_database(path, now=lambda: 200.0)
    try:
        async with db.snapshot() as s:
            applied = await s.all("SELECT version, applied_at FROM schema_migrations")
            players = await s.all("SELECT address FROM players")
        assert [(r["version"], r["applied_at"]) for r in applied] == [
            (m.version, 100.0) for m in MIGRATIONS]
        assert [r["address"] for r in players] == ["alice"]
    finally:
        await db.close()


async def test_an_older_database_is_upgraded_in_place_without_loss(tmp_path: Path):
    path = tmp_path / "games.db"
    db = await open_database(path)
    await _add_player(db, "alice")
    await _add_player(db, "bob")
    await db.close()
    db = await open_database(path, migrations=(*MIGRATIONS, ADD_NOTE))
    try:
        assert await db.schema_version() == LATEST + 1
        async with db.snapshot() as s:
            rows = await s.all("SELECT address, note FROM players ORDER BY id")
        assert [(r["address"], r["note"]) for r in rows] == [("alice", "hello"), ("bob", "hello")]
    finally:
        await db.close()


async def test_a_failing_migration_leaves_the_database_as_it_was(tmp_path: Path):
    path = tmp_path / "games.db"
    db = await open_database(path)
    await _add_player(db)
    await db.close()
    broken = Migration(LATEST + 1, "half of it fails",
                       ("CREATE TABLE extra (x INTEGER)", "ALTER TABLE nowhere ADD COLUMN y"))
    with pytest.raises(Exception, match="nowhere"):
        await open_database(path, migrations=(*MIGRATIONS, broken))
    db = await open_database(path)
    try:
        assert await db.schema_version() == LATEST
        async with db.snapshot() as s:
            extra = await s.one("SELECT name FROM sqlite_master WHERE name = 'extra'")
            players = await s.all("SELECT address FROM players")
        assert extra is None
        assert [r["address"] for r in players] == ["alice"]
    finally:
        await db.close()


async def test_a_database_from_a_newer_commandpost_is_refused(tmp_path: Path):
    path = tmp_path / "games.db"
    db = await open_database(path, migrations=(*MIGRATIONS, ADD_NOTE))
    await db.close()
    with pytest.raises(StorageError, match=f"schema version {LATEST + 1}, newer than this "
                                           f"commandpost knows \\({LATEST}\\)"):
        await open_database(path)


async def test_a_transaction_that_raises_stores_nothing(tmp_path: Path):
    db = await open_database(tmp_path / "games.db")
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as s:
                await s.execute("INSERT INTO players (transport, address, display_name, "
                                "created_at) VALUES ('console', 'x', 'x', 0)")
                raise RuntimeError("stop")
        async with db.snapshot() as s:
            assert await s.all("SELECT * FROM players") == []
        await _add_player(db)  # the connection is usable again
    finally:
        await db.close()


def test_settings_have_defaults_and_read_the_environment():
    assert Settings.from_env({}) == Settings()
    assert Settings().db_path == Path("commandpost.db")
    env = {"COMMANDPOST_DB": "games/x.db", "COMMANDPOST_VACATION_DAYS": "12.5",
           "COMMANDPOST_DB_SYNC": "NORMAL", "COMMANDPOST_CHALLENGE_DAYS": "3"}
    settings = Settings.from_env(env)
    assert (settings.db_path, settings.vacation_days, settings.db_sync,
            settings.challenge_days) == (Path("games/x.db"), 12.5, "normal", 3.0)
    assert Settings.from_env(env, db_path=Path("y.db")).db_path == Path("y.db")


@pytest.mark.parametrize(("env", "message"), [
    ({"COMMANDPOST_VACATION_DAYS": "lots"}, "COMMANDPOST_VACATION_DAYS is 'lots'; it must be "
                                            "a number"),
    ({"COMMANDPOST_DB_SYNC": "sometimes"}, "COMMANDPOST_DB_SYNC is 'sometimes'; it must be "
                                           "one of full, normal"),
    ({"COMMANDPOST_CHALLENGE_DAYS": "-1"}, "COMMANDPOST_CHALLENGE_DAYS is -1; it must be more "
                                           "than 0 (days before an unanswered challenge "
                                           "expires)"),
])
def test_bad_settings_are_refused_with_a_clear_message(env, message):
    with pytest.raises(ConfigError) as err:
        Settings.from_env(env)
    assert str(err.value) == message


# --- group commit ------------------------------------------------------------------------
async def _insert_player(db, name: str, fail: bool = False) -> bool:
    """One transaction adding a player; True once it is visible to a reader."""
    async with db.transaction() as s:
        await s.execute("INSERT INTO players (transport, address, display_name, created_at) "
                        "VALUES ('console', ?, ?, 0)", (name, name))
        if fail:
            raise ValueError(name)
    async with db.snapshot() as s:
        return await s.one("SELECT id FROM players WHERE address = ?", (name,)) is not None


async def _statements(db) -> list[str]:
    seen: list[str] = []
    await db._writer.set_trace_callback(seen.append)
    return seen


async def test_transactions_that_queue_up_are_committed_together(tmp_path: Path):
    db = await open_database(tmp_path / "games.db")
    try:
        seen = await _statements(db)
        visible = await asyncio.gather(*(_insert_player(db, f"p{k}") for k in range(20)))
        assert visible == [True] * 20  # each returned only once its data was committed
        assert seen.count("COMMIT") == 1
        assert seen.count("BEGIN IMMEDIATE") == 1
        await _insert_player(db, "alone")
        assert seen.count("COMMIT") == 2
    finally:
        await db.close()


async def test_a_failing_transaction_in_a_group_takes_only_its_own_changes_back(tmp_path: Path):
    db = await open_database(tmp_path / "games.db")
    try:
        names = [f"p{k}" for k in range(8)]
        results = await asyncio.gather(
            *(_insert_player(db, name, fail=name in ("p0", "p4")) for name in names),
            return_exceptions=True)
        assert [type(r).__name__ for r in results] == [
            "ValueError", "bool", "bool", "bool", "ValueError", "bool", "bool", "bool"]
        async with db.snapshot() as s:
            stored = [r["address"] for r in await s.all("SELECT address FROM players "
                                                         "ORDER BY id")]
        assert stored == ["p1", "p2", "p3", "p5", "p6", "p7"]
    finally:
        await db.close()


async def test_a_postgresql_url_that_became_a_path_is_refused_not_made_a_file(tmp_path: Path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StorageError, match="looks like a PostgreSQL URL that lost a slash"):
        await open_database(Path("postgresql://bob:pw@db/commandpost"))
    assert list(tmp_path.iterdir()) == []


def test_every_db_option_keeps_a_postgresql_url_whole():
    from bot.cli.outbox import parser

    url = "postgresql://bob@db/commandpost"
    assert parser().parse_args(["retry", "--failed", "--db", url]).db == url
    assert parser().parse_args(["--db", url]).db == url
