"""What the `commandpost` sub-commands share: the service opened on the configured
database, or a one-line reason why it cannot be (for the caller to exit with status 1)."""

from __future__ import annotations

from ..config import Settings
from ..service import GameService
from ..storage import StorageError


async def open_service(settings: Settings) -> GameService | None:
    """The game service on ``settings``' database; None (the reason printed) if it cannot
    be opened or upgraded."""
    try:
        return await GameService.open(settings)
    except StorageError as err:
        print(f"commandpost: {err}")
        return None
