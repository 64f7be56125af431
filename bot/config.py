"""Settings of the service: every default declared once, each read from one environment
variable.

| variable                       | setting            | default            |
| ------------------------------ | ------------------ | ------------------ |
| ``COMMANDPOST_DB``             | ``db_path``        | ``commandpost.db`` |
| ``COMMANDPOST_DB_SYNC``        | ``db_sync``        | ``full``           |
| ``COMMANDPOST_VACATION_DAYS``  | ``vacation_days``  | ``30``             |
| ``COMMANDPOST_CHALLENGE_DAYS`` | ``challenge_days`` | ``7``              |
| ``COMMANDPOST_PICTURES``       | ``pictures_dir``   | ``boards``         |
| ``COMMANDPOST_DISCORD_TOKEN``  | ``discord_token``  | (none)             |

Relative paths are taken from the working directory.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

SYNC_MODES = ("full", "normal")


class ConfigError(ValueError):
    """A setting in the environment that cannot be used."""


@dataclass(frozen=True)
class Settings:
    """Everything the host can configure; each field names its environment variable."""

    db_path: Path = field(default=Path("commandpost.db"), metadata={"env": "COMMANDPOST_DB"})
    # "full": every accepted move is on disk before it is acknowledged (survives power loss);
    # "normal": it survives a crash of the process but not of the machine, and is faster.
    db_sync: str = field(default="full", metadata={"env": "COMMANDPOST_DB_SYNC"})
    # days of vacation (paused clocks) each player may take per calendar year
    vacation_days: float = field(default=30.0, metadata={"env": "COMMANDPOST_VACATION_DAYS"})
    # days after which an unanswered challenge expires
    challenge_days: float = field(default=7.0, metadata={"env": "COMMANDPOST_CHALLENGE_DAYS"})
    # where the console writes board pictures
    pictures_dir: Path = field(default=Path("boards"), metadata={"env": "COMMANDPOST_PICTURES"})
    # the Discord transport runs when this is set
    discord_token: str = field(default="", metadata={"env": "COMMANDPOST_DISCORD_TOKEN"})

    def __post_init__(self) -> None:
        if self.db_sync not in SYNC_MODES:
            raise ConfigError(f"COMMANDPOST_DB_SYNC is {self.db_sync!r}; it must be one of "
                              f"{', '.join(SYNC_MODES)}")
        for name in ("vacation_days", "challenge_days"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name} must not be negative")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Settings from ``environ`` (default: the process environment), then ``overrides``."""
        environ = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = environ.get(f.metadata["env"])
            if raw is None or raw == "":
                continue
            values[f.name] = _convert(f.metadata["env"], raw, f.default)
        return replace(cls(**values), **overrides)  # type: ignore[arg-type]


def _convert(name: str, raw: str, default: object) -> object:
    if isinstance(default, Path):
        return Path(raw).expanduser()
    if isinstance(default, float):
        try:
            return float(raw)
        except ValueError:
            raise ConfigError(f"{name} is {raw!r}; it must be a number") from None
    return raw.strip().lower() if name == "COMMANDPOST_DB_SYNC" else raw
