"""Settings the host cannot use stop every command at its start with one sentence naming
the environment variable and saying why (``docs/hosting.md``, "Settings")."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

import bot.cli.db as db_command
import bot.cli.outbox as outbox_command
import bot.cli.run as discord_command
import bot.cli.scheduler as scheduler_command
import bot.console.console as console_command
import bot.email_gateway.runner as email_command
import bot.web.runner as web_command
from bot.config import ConfigError, Settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting of the machine running the tests leaks into them."""
    for name in list(os.environ):
        if name.startswith("COMMANDPOST_"):
            monkeypatch.delenv(name)


def refused(env: dict[str, str]) -> str:
    """The sentence `Settings.from_env` refuses ``env`` with."""
    with pytest.raises(ConfigError) as refusal:
        Settings.from_env(env)
    return str(refusal.value)


# every command that reads the settings: its main, its arguments, and where it says why
COMMANDS: list[tuple[str, Callable[[list[str]], int], list[str], str]] = [
    ("console", console_command.main, ["--as", "alice"], "out"),
    ("web", web_command.main, ["--port", "8093"], "err"),
    ("scheduler", scheduler_command.main, [], "out"),
    ("email", email_command.main, [], "out"),
    ("discord", discord_command.main, [], "out"),
    ("outbox", outbox_command.main, [], "out"),
    ("db check", db_command.main, ["check"], "out"),
]
PREFIX = {"web": "commandpost web: ", "discord": "commandpost discord: "}


# --- COMMANDPOST_LOG_LEVEL ------------------------------------------------------------------
LOG_LEVEL_REFUSED = ("COMMANDPOST_LOG_LEVEL is 'LOUD'; it must be one of DEBUG, INFO, "
                     "WARNING, ERROR, CRITICAL")


def test_an_unknown_log_level_is_refused_with_the_levels_allowed():
    assert refused({"COMMANDPOST_LOG_LEVEL": "LOUD"}) == LOG_LEVEL_REFUSED


def test_a_log_level_is_read_in_any_case():
    assert Settings.from_env({"COMMANDPOST_LOG_LEVEL": " warning"}).log_level == "WARNING"


@pytest.mark.parametrize(("name", "main", "argv", "stream"), COMMANDS,
                         ids=[c[0] for c in COMMANDS])
def test_every_command_refuses_an_unknown_log_level(monkeypatch, capsys, tmp_path, name, main,
                                                    argv, stream):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMMANDPOST_LOG_LEVEL", "LOUD")
    monkeypatch.setenv("COMMANDPOST_DISCORD_TOKEN", "x.y.z")
    monkeypatch.setenv("COMMANDPOST_EMAIL_ADDRESS", "play@games.example.org")
    assert main(argv) == (1 if name == "db check" else 2)  # db check: 1, as for damage
    said = capsys.readouterr()
    assert getattr(said, stream) == f"{PREFIX.get(name, 'commandpost: ')}{LOG_LEVEL_REFUSED}\n"
    assert list(tmp_path.iterdir()) == []  # nothing was opened
