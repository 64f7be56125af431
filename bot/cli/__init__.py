"""The `commandpost` sub-commands (render, gallery, diagrams, db, outbox, scheduler) and the
runner that composes the transports into one process (`run`). Transports never import each
other: what runs beside what is decided here."""

from __future__ import annotations

import sys
from typing import TextIO

from .. import i18n


def say(text: str, file: TextIO | None = None) -> None:
    """Print ``text`` for the host, worded in the system's language (``LANG``)."""
    print(i18n.render(text, i18n.choose(i18n.system_language())), file=file or sys.stdout)
