"""``commandpost db check``: a full check of the database for the host — first the
write-ahead log (a damaged one would lose committed moves once SQLite opens the file, so
nothing is opened then), SQLite's ``integrity_check`` of every page and index, then every
game replayed from its start position and move list and compared with what is stored.

    commandpost db check [--db FILE]

On a PostgreSQL database (``--db postgresql://...``) the file checks are SQLite's and do not
apply (the server looks after its own pages): the check says so and replays every game.

It exits with 0 when everything is sound and 1 when something is damaged or the database
cannot be opened at all (each problem is printed, in one line, never a traceback). It
opens the file even when the start-up check would refuse it: finding out what is damaged
is its job. Each damaged game is named with what can be saved of it: the steps that
still replay from its start, as a record's move list (`/import` or `import` continue a
game from such a list).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

from ..config import ConfigError, settings_for
from ..i18n import _, joined
from ..service import GameService
from ..service.results import Refusal
from ..startup import missing_database
from ..storage import StorageError, integrity_check, open_database, wal_damage
from ..storage.sqlite import schema_problems
from . import say

SERVER_CHECKS = _("integrity_check: SQLite's check of a database file; a PostgreSQL server "
                  "checks its own pages")


async def check(settings_db: object, out: Callable[[str], None] = say) -> int:
    """Check the database file (or PostgreSQL database) ``settings_db``; the exit status."""
    server = isinstance(settings_db, str) and settings_db.startswith(
        ("postgresql://", "postgres://"))
    lost = None if server else wal_damage(Path(settings_db))  # type: ignore[arg-type]
    if lost:  # opening the file would drop what the log still holds: stop before
        out(_("commandpost: {lost}. Keep a copy of the database and its -wal file.",
              lost=lost))
        return 1
    try:
        db = await open_database(settings_db, check=False)  # type: ignore[arg-type]
    except StorageError as err:
        db = None
        if not server and "read-only" in str(err):  # a look needs no writing: read it as is
            try:
                db = await open_database(settings_db, check=False,  # type: ignore[arg-type]
                                         read_only=True)
                out(_("the file is read-only: it is checked as it is, not upgraded"))
            except StorageError:
                db = None
        if db is None:
            out(f"commandpost: {err}")
            return 1
    service = GameService(db)
    try:
        problems = [] if server else await _check_file(db, out)
        if server:
            out(SERVER_CHECKS)
        try:
            damaged = await _replay_games(service, out)
        except StorageError as err:
            out(_("the games cannot be read: {error}", error=str(err)))
            damaged = 1
    finally:
        await service.close()
    return 1 if problems or damaged else 0


async def _check_file(db: object, out: Callable[[str], None]) -> list[str]:
    """SQLite's ``integrity_check`` of every page and index, printed; the problems."""
    try:
        problems = await integrity_check(db)  # type: ignore[arg-type]
    except StorageError as err:  # so damaged that the check itself stops
        problems = [str(err)]
    out(_("integrity_check: ok") if not problems else
        _("integrity_check: {count} problem(s)", count=len(problems)))
    for problem in problems:
        out(f"  {problem}")
    try:
        async with db.snapshot() as s:  # type: ignore[attr-defined]
            tables = await schema_problems(s.connection)
    except StorageError as err:
        tables = [str(err)]
    out(_("tables: as expected") if not tables else
        _("tables: {problems}", problems="; ".join(tables)))
    return problems + tables


async def _replay_games(service: GameService, out: Callable[[str], None]) -> int:
    """Replay every game (in a worker thread: it is CPU work); how many are damaged."""
    ids = await service.archive.game_ids()
    damaged = 0
    for game_id in ids:
        try:
            problems = await service.archive.verify(game_id)
        except StorageError as err:
            problems = [str(err)]
        numbered = not isinstance(problems, Refusal)
        if not numbered:  # the row's number itself is damaged (no game may have it)
            problems = [_("its number is damaged: {why}",
                          why=problems.message)]  # type: ignore[union-attr]
        if problems:
            damaged += 1
            out(_("game #{game}: {problems}", game=game_id,
                  problems=joined(problems, "; ")))
            if numbered:
                saved = await service.archive.salvage(game_id)
                out(_("  saved: {moves}", moves=saved))
    out(_("{count} game(s) replayed: all sound", count=len(ids)) if not damaged else
        _("{count} game(s) replayed: {damaged} damaged", count=len(ids), damaged=damaged))
    return damaged


def run(args: argparse.Namespace) -> int:
    """``commandpost db check`` with its parsed options (`bot.cli.db` reads them)."""
    try:
        path = settings_for(args).db_path
    except ConfigError as err:
        print(f"commandpost: {err}")
        return 1
    missing = missing_database(path)
    if missing:  # opening it would make an empty database, which checks as sound
        print(f"commandpost db check: {missing}")
        return 1
    return asyncio.run(check(path))
