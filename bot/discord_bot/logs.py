"""Logging with the game id and the user id on every line, taken from context variables
that each interaction, message and delivery sets."""

from __future__ import annotations

import logging
from contextvars import ContextVar

from .. import redact

game_var: ContextVar[int | None] = ContextVar("game_id", default=None)
user_var: ContextVar[int | None] = ContextVar("user_id", default=None)
FORMAT = "%(asctime)s %(levelname)s %(name)s game=%(game_id)s user=%(user_id)s %(message)s"


class ContextFilter(logging.Filter):
    """Stamp each record with the game and the user being served (``-`` when none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        game, user = game_var.get(), user_var.get()
        record.game_id = "-" if game is None else game
        record.user_id = "-" if user is None else user
        return True


def set_context(user_id: int | None = None, game_id: int | None = None) -> None:
    if user_id is not None:
        user_var.set(user_id)
    if game_id is not None:
        game_var.set(game_id)


def configure(level: str) -> None:
    """Log to stderr at ``level`` with the game and user on every line (game keys
    redacted)."""
    redact.configure(level, FORMAT, filters=(ContextFilter(),))
    logging.getLogger("discord").setLevel(max(logging.getLogger().level, logging.INFO))
