"""A real PostgreSQL server for tests and benchmarks: `pgserver` (installed with the test
extra) runs the binaries it ships on a Unix socket in a temporary folder. One server serves
a whole run; each test gets a fresh database copied from a template that already has the
schema, which takes milliseconds where migrating would take much longer."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import asyncpg

TEMPLATE = "commandpost_template"

# durability is not what tests measure: the server skips flushing to disk
TEST_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")


class LocalPostgres:
    """One pgserver instance and the databases made on it."""

    def __init__(self, durable: bool = False) -> None:
        import pgserver  # a test dependency: imported only when PostgreSQL is wanted

        # a folder of its own under the system's temporary one (when run as root, the server
        # runs as another user, who must be able to reach it); deleted when it stops
        directory = Path(tempfile.mkdtemp(prefix="commandpost-postgres-"))
        self.server = pgserver.get_server(directory, cleanup_mode="delete")
        self._names = itertools.count(1)
        if not durable:
            for name in TEST_SETTINGS:
                self.server.psql(f"ALTER SYSTEM SET {name} = off;")
            self.server.psql("SELECT pg_reload_conf();")
        self._template = False  # made by the first `create` (inside the test's event loop)

    def url(self, database: str) -> str:
        return self.server.get_uri(database=database)

    async def _admin(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.url("postgres"))

    async def _make_template(self) -> None:
        from bot.storage.postgres import open_postgres

        admin = await self._admin()
        try:
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        db = await open_postgres(self.url(TEMPLATE), pool_size=1)
        await db.close()

    async def create(self, schema: bool = True) -> str:
        """A new, empty database (with the schema, or with nothing at all); its URL."""
        if schema and not self._template:
            await self._make_template()
            self._template = True
        name = f"test_{next(self._names)}"
        template = TEMPLATE if schema else "template0"
        admin = await self._admin()
        try:
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        finally:
            await admin.close()
        return self.url(name)

    async def drop(self, url: str) -> None:
        name = url.split("?", 1)[0].rsplit("/", 1)[1]
        admin = await self._admin()
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()

    def stop(self) -> None:
        self.server.cleanup()
