"""Settings of the service: every default declared once, each read from one environment
variable.

| variable                             | setting                  | default            |
| ------------------------------------ | ------------------------ | ------------------ |
| ``COMMANDPOST_DB``                   | ``db_path``              | ``commandpost.db`` |
| ``COMMANDPOST_DB_SYNC``              | ``db_sync``              | ``full``           |
| ``COMMANDPOST_DB_DAMAGED``           | ``db_damaged``           | ``refuse``         |
| ``COMMANDPOST_VACATION_DAYS``        | ``vacation_days``        | ``30``             |
| ``COMMANDPOST_CHALLENGE_DAYS``       | ``challenge_days``       | ``7``              |
| ``COMMANDPOST_PICTURES``             | ``pictures_dir``         | ``boards``         |
| ``COMMANDPOST_DISCORD_TOKEN``        | ``discord_token``        | (none)             |
| ``COMMANDPOST_DEFAULT_DAYS``         | ``default_days``         | ``0`` (no clock)   |
| ``COMMANDPOST_SHARD_COUNT``          | ``discord_shard_count``  | ``0`` (recommended)|
| ``COMMANDPOST_SHARD_IDS``            | ``discord_shard_ids``    | (all shards)       |
| ``COMMANDPOST_EMAIL_ADDRESS``        | ``email_address``        | (none: no e-mail)  |
| ``COMMANDPOST_EMAIL_LISTEN_HOST``    | ``email_listen_host``    | ``127.0.0.1``      |
| ``COMMANDPOST_EMAIL_LISTEN_PORT``    | ``email_listen_port``    | ``2525`` (0: off)  |
| ``COMMANDPOST_EMAIL_RELAY_HOST``     | ``email_relay_host``     | ``localhost``      |
| ``COMMANDPOST_EMAIL_RELAY_PORT``     | ``email_relay_port``     | ``25``             |
| ``COMMANDPOST_EMAIL_RELAY_USER``     | ``email_relay_user``     | (none)             |
| ``COMMANDPOST_EMAIL_RELAY_PASSWORD`` | ``email_relay_password`` | (none)             |
| ``COMMANDPOST_EMAIL_RELAY_TLS``      | ``email_relay_tls``      | ``auto``           |
| ``COMMANDPOST_IMAP_HOST``            | ``imap_host``            | (none: no polling) |
| ``COMMANDPOST_IMAP_PORT``            | ``imap_port``            | ``993``            |
| ``COMMANDPOST_IMAP_USER``            | ``imap_user``            | (none)             |
| ``COMMANDPOST_IMAP_PASSWORD``        | ``imap_password``        | (none)             |
| ``COMMANDPOST_IMAP_FOLDER``          | ``imap_folder``          | ``INBOX``          |
| ``COMMANDPOST_IMAP_POLL_SECONDS``    | ``imap_poll_seconds``    | ``60``             |
| ``COMMANDPOST_EMAIL_MAX_BYTES``      | ``email_max_bytes``      | ``1048576``        |
| ``COMMANDPOST_EMAIL_RATE_LIMIT``     | ``email_rate_limit``     | ``20`` (per hour)  |
| ``COMMANDPOST_COMPUTER_SEARCHES``    | ``computer_searches``    | ``1``              |
| ``COMMANDPOST_EMAIL_KEY_RATE_LIMIT`` | ``email_key_rate_limit`` | ``60`` (per hour)  |
| ``COMMANDPOST_EMAIL_TLS_CERT``       | ``email_tls_cert``       | (none: no TLS)     |
| ``COMMANDPOST_EMAIL_TLS_KEY``        | ``email_tls_key``        | (none)             |
| ``COMMANDPOST_EMAIL_TRUST_AUTH_RESULTS`` | ``email_trust_auth_results`` | (none: own checks) |
| ``COMMANDPOST_EMAIL_TRUSTED_AUTHSERV`` | the same (deprecated old name) | (none)   |
| ``COMMANDPOST_THEME``                | ``theme``                | ``classic``        |
| ``COMMANDPOST_WEB_URL``              | ``web_url``              | (none: no web)     |
| ``COMMANDPOST_WEB_HOST``             | ``web_host``             | ``127.0.0.1``      |
| ``COMMANDPOST_WEB_PORT``             | ``web_port``             | ``8080``           |
| ``COMMANDPOST_WEB_RATE_LIMIT``       | ``web_rate_limit``       | ``300`` (per min.) |
| ``COMMANDPOST_MEMBER_EVENTS``        | ``member_events``        | ``off``            |
| ``COMMANDPOST_TYPED_MOVES``          | ``typed_moves``          | ``on``             |
| ``COMMANDPOST_LOG_LEVEL``            | ``log_level``            | ``INFO``           |

Relative paths are taken from the working directory. ``COMMANDPOST_DB`` may instead be a
``postgresql://user:password@host/database`` URL: the service then keeps its state in that
PostgreSQL database (`bot.storage.postgres`), which several processes may share. The e-mail gateway
(`bot.email_gateway`) runs when ``COMMANDPOST_EMAIL_ADDRESS`` is set; ``email_relay_tls`` is
``auto`` (STARTTLS when the relay offers it), ``starttls`` (required), ``tls`` (implicit
TLS, usually port 465) or ``none``. The gateway checks itself that mail of a domain that
signs its mail carries that domain's valid DKIM signature (`bot.email_gateway.authenticity`);
with ``COMMANDPOST_EMAIL_TRUST_AUTH_RESULTS`` set to the name of a front mail server, it
trusts that server's ``Authentication-Results`` header instead, and answers only mail the
server verified. ``COMMANDPOST_EMAIL_TRUSTED_AUTHSERV`` is its old name, still read when
the new one is not set. The web pages (`bot.web`) run beside the bot when
``COMMANDPOST_WEB_URL`` is set (the address people reach them at, e.g. behind a reverse
proxy), and alone with ``commandpost web``; they listen on ``web_host``:``web_port``.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

SYNC_MODES = ("full", "normal")
DAMAGED_MODES = ("refuse", "start")
RELAY_TLS_MODES = ("auto", "starttls", "tls", "none")
# the ports the host sets, and the lowest each may be (the SMTP server's 0: none)
PORTS = {"email_listen_port": 0, "email_relay_port": 1, "imap_port": 1, "web_port": 1}
MIN_POLL_SECONDS = 1.0  # a mailbox read more often is a server hammered, not mail sooner
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# the words a switch (typed moves, member events) is read from, in any case
SWITCH_WORDS = {"on": "on", "yes": "on", "true": "on", "1": "on",
                "off": "off", "no": "off", "false": "off", "0": "off"}
SWITCHES = ("COMMANDPOST_TYPED_MOVES", "COMMANDPOST_MEMBER_EVENTS")


class ConfigError(ValueError):
    """A setting in the environment that cannot be used."""


@dataclass(frozen=True)
class Settings:
    """Everything the host can configure; each field names its environment variable."""

    # a file (SQLite), or a postgresql://user:password@host/database URL (PostgreSQL)
    db_path: Path | str = field(default=Path("commandpost.db"),
                                metadata={"env": "COMMANDPOST_DB"})
    # "full": every accepted move is on disk before it is acknowledged (survives power loss);
    # "normal": it survives a crash of the process but not of the machine, and is faster.
    db_sync: str = field(default="full", metadata={"env": "COMMANDPOST_DB_SYNC"})
    # "refuse": do not start on a database file that the start-up check finds damaged;
    # "start": start anyway (logging the damage), e.g. to export games before a restore
    db_damaged: str = field(default="refuse", metadata={"env": "COMMANDPOST_DB_DAMAGED"})
    # days of vacation (paused clocks) each player may take per calendar year
    vacation_days: float = field(default=30.0, metadata={"env": "COMMANDPOST_VACATION_DAYS"})
    # days after which an unanswered challenge expires
    challenge_days: float = field(default=7.0, metadata={"env": "COMMANDPOST_CHALLENGE_DAYS"})
    # where the console writes board pictures
    pictures_dir: Path = field(default=Path("boards"), metadata={"env": "COMMANDPOST_PICTURES"})
    # the Discord transport runs when this is set
    discord_token: str = field(default="", metadata={"env": "COMMANDPOST_DISCORD_TOKEN"})
    # days per move of a challenge that names none (0: no clock), on every transport;
    # Discord servers may choose their own
    default_days: float = field(default=0.0, metadata={"env": "COMMANDPOST_DEFAULT_DAYS"})
    # "on": the Discord bot asks for the message-content intent and reads moves typed in a
    # game's thread ("off": only /move; the intent must then not be enabled in the portal)
    typed_moves: str = field(default="on", metadata={"env": "COMMANDPOST_TYPED_MOVES"})
    # "on": the Discord bot asks for the (privileged) members intent, to hear of members who
    # leave a server and tell their opponents; it must then be enabled in the portal
    member_events: str = field(default="off", metadata={"env": "COMMANDPOST_MEMBER_EVENTS"})
    # how much the processes log: DEBUG, INFO, WARNING, ERROR or CRITICAL
    log_level: str = field(default="INFO", metadata={"env": "COMMANDPOST_LOG_LEVEL"})
    # Discord sharding: the total number of shards (0: as many as Discord recommends) and
    # the shards this process runs ("": all of them; "0-3" or "0,1,2,3": a share of them)
    discord_shard_count: int = field(default=0, metadata={"env": "COMMANDPOST_SHARD_COUNT"})
    discord_shard_ids: str = field(default="", metadata={"env": "COMMANDPOST_SHARD_IDS"})
    # the e-mail gateway runs when this is set: the address players write to (and from
    # which mail is sent); its domain is the one replies with a game token go to
    email_address: str = field(default="", metadata={"env": "COMMANDPOST_EMAIL_ADDRESS"})
    # the SMTP server receiving players' mail (port 0: none, e.g. when IMAP is polled)
    email_listen_host: str = field(default="127.0.0.1",
                                   metadata={"env": "COMMANDPOST_EMAIL_LISTEN_HOST"})
    email_listen_port: int = field(default=2525, metadata={"env": "COMMANDPOST_EMAIL_LISTEN_PORT"})
    # the SMTP relay every outgoing mail goes through
    email_relay_host: str = field(default="localhost",
                                  metadata={"env": "COMMANDPOST_EMAIL_RELAY_HOST"})
    email_relay_port: int = field(default=25, metadata={"env": "COMMANDPOST_EMAIL_RELAY_PORT"})
    email_relay_user: str = field(default="", metadata={"env": "COMMANDPOST_EMAIL_RELAY_USER"})
    email_relay_password: str = field(default="",
                                      metadata={"env": "COMMANDPOST_EMAIL_RELAY_PASSWORD"})
    email_relay_tls: str = field(default="auto", metadata={"env": "COMMANDPOST_EMAIL_RELAY_TLS"})
    # a mailbox polled for players' mail, for hosts who cannot receive SMTP themselves
    imap_host: str = field(default="", metadata={"env": "COMMANDPOST_IMAP_HOST"})
    imap_port: int = field(default=993, metadata={"env": "COMMANDPOST_IMAP_PORT"})
    imap_user: str = field(default="", metadata={"env": "COMMANDPOST_IMAP_USER"})
    imap_password: str = field(default="", metadata={"env": "COMMANDPOST_IMAP_PASSWORD"})
    imap_folder: str = field(default="INBOX", metadata={"env": "COMMANDPOST_IMAP_FOLDER"})
    imap_poll_seconds: float = field(default=60.0,
                                     metadata={"env": "COMMANDPOST_IMAP_POLL_SECONDS"})
    # a larger incoming mail is refused (with a reply saying so)
    email_max_bytes: int = field(default=1_048_576, metadata={"env": "COMMANDPOST_EMAIL_MAX_BYTES"})
    # mails per sender per hour; more are refused once, then dropped (stops mail loops)
    email_rate_limit: int = field(default=20, metadata={"env": "COMMANDPOST_EMAIL_RATE_LIMIT"})
    # searches of the computer player that may run at once (one process each)
    computer_searches: int = field(default=1, metadata={"env": "COMMANDPOST_COMPUTER_SEARCHES"})
    # mails per game or challenge key per hour (counted apart from the sender's unkeyed mail)
    email_key_rate_limit: int = field(default=60,
                                      metadata={"env": "COMMANDPOST_EMAIL_KEY_RATE_LIMIT"})
    # the inbound SMTP server offers STARTTLS with this certificate and key (PEM files)
    email_tls_cert: str = field(default="", metadata={"env": "COMMANDPOST_EMAIL_TLS_CERT"})
    email_tls_key: str = field(default="", metadata={"env": "COMMANDPOST_EMAIL_TLS_KEY"})
    # the host name (authserv-id) of a front mail server whose Authentication-Results header
    # is trusted instead of our own DKIM/DMARC checks (the old variable name is still read)
    email_trust_auth_results: str = field(
        default="", metadata={"env": "COMMANDPOST_EMAIL_TRUST_AUTH_RESULTS",
                              "deprecated": "COMMANDPOST_EMAIL_TRUSTED_AUTHSERV"})
    # the pictures' colours: classic, or colour-blind (safe for red-green colour blindness)
    theme: str = field(default="classic", metadata={"env": "COMMANDPOST_THEME"})

    # the web pages' public address (https://games.example.org): links to game pages are
    # put in board messages, mails and records when it is set, and the bot serves them
    web_url: str = field(default="", metadata={"env": "COMMANDPOST_WEB_URL"})
    # where the web server listens (put a reverse proxy in front for the public)
    web_host: str = field(default="127.0.0.1", metadata={"env": "COMMANDPOST_WEB_HOST"})
    web_port: int = field(default=8080, metadata={"env": "COMMANDPOST_WEB_PORT"})
    # requests per minute from one address (a short burst of a third of it is allowed)
    web_rate_limit: int = field(default=300, metadata={"env": "COMMANDPOST_WEB_RATE_LIMIT"})

    def __post_init__(self) -> None:
        if self.db_sync not in SYNC_MODES:
            raise ConfigError(f"COMMANDPOST_DB_SYNC is {self.db_sync!r}; it must be one of "
                              f"{', '.join(SYNC_MODES)}")
        if self.computer_searches < 1:
            raise ConfigError("COMMANDPOST_COMPUTER_SEARCHES must be at least 1")
        if self.db_damaged not in DAMAGED_MODES:
            raise ConfigError(f"COMMANDPOST_DB_DAMAGED is {self.db_damaged!r}; it must be one "
                              f"of {', '.join(DAMAGED_MODES)}")
        if self.vacation_days < 0:
            raise ConfigError(f"COMMANDPOST_VACATION_DAYS is {self.vacation_days:g}; it must "
                              f"not be negative")
        if self.challenge_days <= 0:  # 0 would expire every challenge as it is made
            raise ConfigError(f"COMMANDPOST_CHALLENGE_DAYS is {self.challenge_days:g}; it must "
                              f"be more than 0 (days before an unanswered challenge expires)")
        if self.email_relay_tls not in RELAY_TLS_MODES:
            raise ConfigError(f"COMMANDPOST_EMAIL_RELAY_TLS is {self.email_relay_tls!r}; it must "
                              f"be one of {', '.join(RELAY_TLS_MODES)}")
        if self.email_address and "@" not in self.email_address:
            raise ConfigError(f"COMMANDPOST_EMAIL_ADDRESS is {self.email_address!r}; it must be "
                              f"an address like play@games.example.org")
        for name, value in (("COMMANDPOST_TYPED_MOVES", self.typed_moves),
                            ("COMMANDPOST_MEMBER_EVENTS", self.member_events)):
            if value not in ("on", "off"):
                raise ConfigError(f"{name} is {value!r}; it must be on or off (or yes, no, "
                                  f"true, false, 1, 0)")
        if self.log_level not in LOG_LEVELS:
            raise ConfigError(f"COMMANDPOST_LOG_LEVEL is {self.log_level!r}; it must be one of "
                              f"{', '.join(LOG_LEVELS)}")
        _check_theme(self.theme)
        _check_default_days(self.default_days)
        if self.web_url and not self.web_url.startswith(("http://", "https://")):
            raise ConfigError(f"COMMANDPOST_WEB_URL is {self.web_url!r}; it must be an address "
                              f"like https://games.example.org")
        if self.web_rate_limit < 1:
            raise ConfigError("COMMANDPOST_WEB_RATE_LIMIT must be at least 1")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Settings from ``environ`` (default: the process environment), then ``overrides``."""
        environ = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = environ.get(f.metadata["env"])
            if (raw is None or raw == "") and "deprecated" in f.metadata:
                raw = environ.get(f.metadata["deprecated"])  # the variable's old name
            if raw is None or raw == "":
                continue
            values[f.name] = _convert(f.metadata["env"], raw, f.default)
        settings = cls(**values)
        _check_environment(settings)
        return replace(settings, **overrides)  # type: ignore[arg-type]


def _check_environment(settings: Settings) -> None:
    """Refuse what the host may not set, though the code may (a test's mailbox read every
    millisecond)."""
    for name, lowest in PORTS.items():
        port = getattr(settings, name)
        if not lowest <= port <= 65535:
            env = Settings.__dataclass_fields__[name].metadata["env"]
            none = " (no SMTP server)" if lowest == 0 else ""
            raise ConfigError(f"{env} is {port}; it must be a port from {lowest}{none} to "
                              f"65535")
    if settings.email_address and not settings.email_listen_port and not settings.imap_host:
        raise ConfigError("COMMANDPOST_EMAIL_LISTEN_PORT is 0 (no SMTP server) and "
                          "COMMANDPOST_IMAP_HOST is not set, so the e-mail gateway would "
                          "receive no mail: set a port to listen on or a mailbox to poll")
    if settings.imap_poll_seconds < MIN_POLL_SECONDS:
        raise ConfigError(f"COMMANDPOST_IMAP_POLL_SECONDS is {settings.imap_poll_seconds:g}; "
                          f"it must be at least {MIN_POLL_SECONDS:g} (seconds between two "
                          f"readings of the mailbox)")


def _convert(name: str, raw: str, default: object) -> object:
    if name == "COMMANDPOST_DB" and raw.startswith(("postgresql://", "postgres://")):
        return raw  # a PostgreSQL server's URL, not a file (a Path would fold its "//")
    if isinstance(default, Path):
        return Path(raw).expanduser()
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise ConfigError(f"{name} is {raw!r}; it must be a whole number") from None
    if isinstance(default, float):
        try:
            number = float(raw)
            if not math.isfinite(number):  # nan and inf are no number of days or seconds
                raise ValueError(raw)
            return number
        except ValueError:
            if name == "COMMANDPOST_DEFAULT_DAYS":  # the same words as for a number not allowed
                raise ConfigError(f"{name} is {raw!r}; {_days_allowed()}") from None
            raise ConfigError(f"{name} is {raw!r}; it must be a number") from None
    if name in SWITCHES:
        return SWITCH_WORDS.get(raw.strip().lower(), raw)
    if name == "COMMANDPOST_LOG_LEVEL":
        return raw.strip().upper()
    return raw.strip().lower() if name in ("COMMANDPOST_DB_SYNC", "COMMANDPOST_DB_DAMAGED") \
        else raw


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """The ``--db FILE`` option every command that opens the database shares."""
    parser.add_argument("--db", type=db_target,
                        help="database file or postgresql:// URL (default: $COMMANDPOST_DB or "
                             "commandpost.db)")


def db_target(text: str) -> Path | str:
    """A ``--db`` value: a PostgreSQL URL stays text (a `Path` would fold its ``//`` and
    name a file instead), anything else is a file's path."""
    return text if text.startswith(("postgresql://", "postgres://")) else Path(text)


def settings_for(args: argparse.Namespace) -> Settings:
    """Settings from the environment, with a command line's ``--db`` over it (ConfigError
    when the environment holds a setting that cannot be used)."""
    if getattr(args, "db", None) is not None:
        return Settings.from_env(db_path=args.db)
    return Settings.from_env()


def settings_or_say(args: argparse.Namespace) -> Settings | None:
    """`settings_for`, or None with the configuration error printed (the caller exits with
    status 2)."""
    try:
        return settings_for(args)
    except ConfigError as err:
        print(f"commandpost: {err}")
        return None


def _check_default_days(days: float) -> None:
    """Refuse days per move that no challenge could name (0 is no clock)."""
    from .service.clock import ALLOWED_DAYS

    if days != 0 and days not in ALLOWED_DAYS:
        raise ConfigError(f"COMMANDPOST_DEFAULT_DAYS is {days:g}; {_days_allowed()}")


def _days_allowed() -> str:
    from .service.clock import ALLOWED_DAYS  # here: the service's package imports this one

    choices = ", ".join(str(d) for d in ALLOWED_DAYS)
    return f"it must be 0 (no clock) or one of {choices}"


def _check_theme(name: str) -> None:
    """Refuse a theme the renderer does not know (any name goes without a renderer)."""
    try:
        from renderer.theme import THEMES, get_theme
    except ImportError:
        return
    try:
        get_theme(name)
    except ValueError:
        raise ConfigError(f"COMMANDPOST_THEME is {name!r}; it must be one of "
                          f"{', '.join(THEMES)}") from None
