"""What a `commandpost` process does first, whichever it is (a sub-command in `bot.cli`,
the e-mail gateway): open the service on the configured database, or say in one line why
it cannot be opened (for the caller to exit with status 1)."""

from __future__ import annotations

from pathlib import Path

from .config import Settings
from .service import GameService
from .storage import StorageError


async def open_service(settings: Settings) -> GameService | None:
    """The game service on ``settings``' database; None (the reason printed) if it cannot
    be opened or upgraded."""
    try:
        return await GameService.open(settings)
    except StorageError as err:
        print(f"commandpost: {err}")
        return None


def missing_database(target: Path | str) -> str | None:
    """Why a command that looks after a database (`db check`, `outbox`) has none to look
    after at ``target``: a file that does not exist, which opening would create empty
    (None: the file exists, or ``target`` is a PostgreSQL URL)."""
    if isinstance(target, Path) and not target.exists():
        return f"there is no database file {str(target)!r}"
    return None
