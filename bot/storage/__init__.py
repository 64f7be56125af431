"""Storage: the `Database`/`Session` interface the game service talks to and its drivers —
SQLite (`sqlite`, the default: a file path) and PostgreSQL (`postgres`: a
``postgresql://`` address) — with the migrations both run (`migrations`)."""

from .interface import DamagedDatabase, DamagedGame, Database, Session, StorageError
from .sqlite import SqliteDatabase, integrity_check, open_database, storage_error, wal_damage

__all__ = ["DamagedDatabase", "DamagedGame", "Database", "Session", "SqliteDatabase",
           "StorageError", "integrity_check", "open_database", "storage_error", "wal_damage"]
