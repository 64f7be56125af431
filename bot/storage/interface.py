"""Storage behind a small interface: a database hands out write transactions and read
snapshots, each a `Session` that runs SQL with ``?`` placeholders and returns rows that can
be read by column name. Here: that interface (`Database`, `Session`, the `Row` and `Params`
they pass) and the errors every driver raises (`StorageError` and its kinds), which the
drivers and the service all import."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

Row = Mapping[str, Any]
Params = Sequence[Any]


class StorageError(RuntimeError):
    """The database cannot be used (newer schema, damaged file, full disk, ...); the
    message says why in words a host understands."""


class DamagedDatabase(StorageError):
    """The start-up check found the database file damaged."""


class DamagedGame(StorageError):
    """A game's stored rows cannot be read back (a damaged file): its commands are refused
    in these words, the other games play on."""

    def __init__(self, game_id: int | None) -> None:
        self.game_id = game_id
        which = f"Game #{game_id} is" if game_id is not None else "A game is"
        super().__init__(f"{which} damaged in the database; the host can run `commandpost "
                         f"db check` to see what can be saved of it.")


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

    # whether several service processes may use it at once (PostgreSQL): work that one of
    # them takes for a while (a notification being sent) is then leased in the database
    shared: bool

    def transaction(self) -> Any:
        """``async with db.transaction() as s``: all or nothing, committed on exit."""

    def snapshot(self) -> Any:
        """``async with db.snapshot() as s``: consistent reads of committed data."""

    async def close(self) -> None: ...


async def read_schema_version(db: Database) -> int:
    """The version of the last migration applied to ``db`` (0: none), read in a snapshot:
    every driver's ``schema_version``."""
    async with db.snapshot() as s:
        row = await s.one("SELECT MAX(version) AS v FROM schema_migrations")
    return int(row["v"] or 0) if row else 0
