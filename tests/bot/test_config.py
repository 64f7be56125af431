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


# --- COMMANDPOST_TYPED_MOVES and COMMANDPOST_MEMBER_EVENTS ----------------------------------
@pytest.mark.parametrize(("raw", "read"), [
    ("on", "on"), ("OFF", "off"), ("Yes", "on"), ("no", "off"), ("true", "on"),
    ("False", "off"), ("1", "on"), (" 0 ", "off")])
@pytest.mark.parametrize("variable", ["COMMANDPOST_TYPED_MOVES", "COMMANDPOST_MEMBER_EVENTS"])
def test_a_switch_is_read_as_on_or_off(variable, raw, read):
    settings = Settings.from_env({variable: raw})
    field = "typed_moves" if variable == "COMMANDPOST_TYPED_MOVES" else "member_events"
    assert getattr(settings, field) == read


@pytest.mark.parametrize(("variable", "raw"), [
    ("COMMANDPOST_TYPED_MOVES", "maybe"), ("COMMANDPOST_TYPED_MOVES", "enabled"),
    ("COMMANDPOST_MEMBER_EVENTS", "sometimes")])
def test_a_switch_that_is_neither_on_nor_off_is_refused(variable, raw):
    assert refused({variable: raw}) == (f"{variable} is {raw!r}; it must be on or off (or yes, "
                                        f"no, true, false, 1, 0)")


async def test_the_bot_asks_for_the_intents_the_switches_turn_on(tmp_path):
    from bot.discord_bot.app import CommandPost
    from bot.service import GameService

    settings = Settings.from_env({"COMMANDPOST_TYPED_MOVES": "No",
                                  "COMMANDPOST_MEMBER_EVENTS": "TRUE"},
                                 db_path=tmp_path / "g.db")
    service = await GameService.open(settings)
    try:
        bot = CommandPost(service, settings)
        assert (bot.intents.message_content, bot.intents.members) == (False, True)
    finally:
        await service.close()


# --- COMMANDPOST_IMAP_POLL_SECONDS ----------------------------------------------------------
@pytest.mark.parametrize("raw", ["0", "0.5", "-3"])
def test_a_mailbox_read_more_often_than_every_second_is_refused(raw):
    assert refused({"COMMANDPOST_IMAP_POLL_SECONDS": raw}) == (
        f"COMMANDPOST_IMAP_POLL_SECONDS is {float(raw):g}; it must be at least 1 (seconds "
        f"between two readings of the mailbox)")


def test_a_mailbox_may_be_read_every_second():
    assert Settings.from_env({"COMMANDPOST_IMAP_POLL_SECONDS": "1"}).imap_poll_seconds == 1.0


@pytest.mark.parametrize("raw", ["nan", "inf", "-Infinity"])
def test_a_number_of_seconds_or_days_must_be_finite(raw):
    assert refused({"COMMANDPOST_IMAP_POLL_SECONDS": raw}) == (
        f"COMMANDPOST_IMAP_POLL_SECONDS is {raw!r}; it must be a number")


def test_the_email_command_refuses_a_mailbox_read_in_a_tight_loop(monkeypatch, capsys,
                                                                    tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMMANDPOST_EMAIL_ADDRESS", "play@games.example.org")
    monkeypatch.setenv("COMMANDPOST_IMAP_HOST", "imap.example.org")
    monkeypatch.setenv("COMMANDPOST_IMAP_POLL_SECONDS", "0")
    assert email_command.main([]) == 2
    assert capsys.readouterr().out == ("commandpost: COMMANDPOST_IMAP_POLL_SECONDS is 0; it "
                                       "must be at least 1 (seconds between two readings of "
                                       "the mailbox)\n")


# --- ports ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("variable", "raw", "lowest"), [
    ("COMMANDPOST_EMAIL_LISTEN_PORT", "99999", "0 (no SMTP server)"),
    ("COMMANDPOST_EMAIL_LISTEN_PORT", "-1", "0 (no SMTP server)"),
    ("COMMANDPOST_EMAIL_RELAY_PORT", "65536", "1"),
    ("COMMANDPOST_EMAIL_RELAY_PORT", "0", "1"),
    ("COMMANDPOST_IMAP_PORT", "99999", "1"),
    ("COMMANDPOST_IMAP_PORT", "0", "1"),
    ("COMMANDPOST_WEB_PORT", "99999", "1"),
    ("COMMANDPOST_WEB_PORT", "0", "1"),
])
def test_a_port_out_of_range_is_refused(variable, raw, lowest):
    assert refused({variable: raw}) == (f"{variable} is {raw}; it must be a port from {lowest} "
                                        f"to 65535")


def test_every_port_may_be_the_highest():
    settings = Settings.from_env({f"COMMANDPOST_{name}_PORT": "65535" for name in
                                  ("EMAIL_LISTEN", "EMAIL_RELAY", "IMAP", "WEB")})
    assert (settings.email_listen_port, settings.email_relay_port, settings.imap_port,
            settings.web_port) == (65535,) * 4


def test_the_email_command_refuses_a_port_out_of_range(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMMANDPOST_EMAIL_ADDRESS", "play@games.example.org")
    monkeypatch.setenv("COMMANDPOST_EMAIL_LISTEN_PORT", "99999")
    assert email_command.main([]) == 2
    assert capsys.readouterr().out == ("commandpost: COMMANDPOST_EMAIL_LISTEN_PORT is 99999; it "
                                       "must be a port from 0 (no SMTP server) to 65535\n")
    assert list(tmp_path.iterdir()) == []


def test_the_web_command_refuses_a_port_out_of_range(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMMANDPOST_WEB_PORT", "0")
    assert web_command.main([]) == 2
    assert capsys.readouterr().err == ("commandpost web: COMMANDPOST_WEB_PORT is 0; it must be "
                                       "a port from 1 to 65535\n")


# --- a database that is not there -------------------------------------------------------------
@pytest.mark.parametrize(("argv", "said"), [
    (["db", "check", "--db", "nothere.db"], "commandpost db check: there is no database file "
                                            "'nothere.db'"),
    (["db", "copy", "nothere.db", "postgresql://u@db.invalid/d"],
     "commandpost db copy: there is no database file 'nothere.db'"),
    (["outbox", "--db", "nothere.db"], "commandpost outbox: there is no database file "
                                       "'nothere.db'"),
    (["outbox", "retry", "--failed", "--db", "nothere.db"],
     "commandpost outbox: there is no database file 'nothere.db'"),
    (["outbox", "prune"], "commandpost outbox: there is no database file 'commandpost.db'"),
])
def test_looking_after_a_database_that_is_not_there_creates_none(monkeypatch, capsys, tmp_path,
                                                                 argv, said):
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    assert main(argv) == 1
    assert capsys.readouterr().out == f"{said}\n"
    assert list(tmp_path.iterdir()) == []


# --- days -------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw", ["0", "-2.5"])
def test_challenges_that_would_expire_at_once_are_refused(raw):
    assert refused({"COMMANDPOST_CHALLENGE_DAYS": raw}) == (
        f"COMMANDPOST_CHALLENGE_DAYS is {float(raw):g}; it must be more than 0 (days before an "
        f"unanswered challenge expires)")


def test_negative_vacation_days_are_refused_naming_the_variable():
    assert refused({"COMMANDPOST_VACATION_DAYS": "-5"}) == (
        "COMMANDPOST_VACATION_DAYS is -5; it must not be negative")


def test_no_vacation_and_half_a_day_to_answer_are_allowed():
    settings = Settings.from_env({"COMMANDPOST_VACATION_DAYS": "0",
                                  "COMMANDPOST_CHALLENGE_DAYS": "0.5"})
    assert (settings.vacation_days, settings.challenge_days) == (0.0, 0.5)


@pytest.mark.parametrize(("variable", "raw"), [
    ("COMMANDPOST_DB_SYNC", "later"), ("COMMANDPOST_DB_DAMAGED", "ignore"),
    ("COMMANDPOST_VACATION_DAYS", "-1"), ("COMMANDPOST_CHALLENGE_DAYS", "0"),
    ("COMMANDPOST_COMPUTER_SEARCHES", "0"), ("COMMANDPOST_EMAIL_RELAY_TLS", "ssl"),
    ("COMMANDPOST_EMAIL_ADDRESS", "play"), ("COMMANDPOST_THEME", "neon"),
    ("COMMANDPOST_DEFAULT_DAYS", "4"), ("COMMANDPOST_WEB_URL", "games.example.org"),
    ("COMMANDPOST_WEB_RATE_LIMIT", "0"), ("COMMANDPOST_LOG_LEVEL", "LOUD"),
    ("COMMANDPOST_TYPED_MOVES", "maybe"), ("COMMANDPOST_MEMBER_EVENTS", "yes please"),
    ("COMMANDPOST_IMAP_POLL_SECONDS", "0"), ("COMMANDPOST_WEB_PORT", "99999"),
    ("COMMANDPOST_SHARD_COUNT", "many"), ("COMMANDPOST_EMAIL_MAX_BYTES", "1MB"),
])
def test_every_refusal_names_the_variable_the_host_set(variable, raw):
    assert refused({variable: raw}).startswith(f"{variable} ")


# --- a gateway that receives no mail ----------------------------------------------------------
NO_MAIL_IN = ("COMMANDPOST_EMAIL_LISTEN_PORT is 0 (no SMTP server) and COMMANDPOST_IMAP_HOST "
              "is not set, so the e-mail gateway would receive no mail: set a port to listen "
              "on or a mailbox to poll")


def test_a_gateway_with_no_smtp_server_and_no_mailbox_is_refused():
    assert refused({"COMMANDPOST_EMAIL_ADDRESS": "play@games.example.org",
                    "COMMANDPOST_EMAIL_LISTEN_PORT": "0"}) == NO_MAIL_IN


def test_no_smtp_server_is_fine_with_a_mailbox_or_without_a_gateway():
    polled = Settings.from_env({"COMMANDPOST_EMAIL_ADDRESS": "play@games.example.org",
                                "COMMANDPOST_EMAIL_LISTEN_PORT": "0",
                                "COMMANDPOST_IMAP_HOST": "imap.example.org"})
    assert (polled.email_listen_port, polled.imap_host) == (0, "imap.example.org")
    assert Settings.from_env({"COMMANDPOST_EMAIL_LISTEN_PORT": "0"}).email_listen_port == 0


@pytest.mark.parametrize(("name", "main"), [("email", email_command.main),
                                            ("discord", discord_command.main)])
def test_a_gateway_that_would_receive_no_mail_does_not_start(monkeypatch, capsys, tmp_path,
                                                             name, main):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMMANDPOST_DISCORD_TOKEN", "x.y.z")
    monkeypatch.setenv("COMMANDPOST_EMAIL_ADDRESS", "play@games.example.org")
    monkeypatch.setenv("COMMANDPOST_EMAIL_LISTEN_PORT", "0")
    assert main([]) == 2
    assert capsys.readouterr().out == f"{PREFIX.get(name, 'commandpost: ')}{NO_MAIL_IN}\n"
    assert list(tmp_path.iterdir()) == []
