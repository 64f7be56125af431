"""`commandpost --help`, `commandpost help` and `commandpost db --help`, run as a user runs
them: every sub-command listed with one line each, and `db` with both its actions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
USAGE = """\
usage: commandpost [COMMAND] [OPTIONS]

Correspondence games of wargame chess variants on Discord, by e-mail and at the
console. Without a COMMAND: the Discord bot when COMMANDPOST_DISCORD_TOKEN is
set, otherwise the console (its options, such as --db FILE, may follow).

commands:
  console    play at the terminal (two players at one keyboard, or the computer)
  discord    run the Discord bot (`discord sync`: upload its slash commands now)
  email      play by e-mail: run the mail gateway
  web        serve the game pages in a browser
  scheduler  apply time-outs, reminders and expiries; play the computer's moves
  db         check the database (`db check`), copy it to PostgreSQL (`db copy`)
  outbox     list, retry, drop or prune undelivered notifications
  render     draw a variant's position (or a replay) to a PNG file
  gallery    draw every variant's start and a few middle games into a folder
  diagrams   draw the rules documents' pictures (`--check` lists stale ones)
  catalogue  list every message of the code for translators (`--check`: is the list stale?)
  help       list these commands, or show one command's help (`help db`)

`commandpost COMMAND --help` or `commandpost help COMMAND`: a command's options;
`commandpost --version`: the version installed.
"""
DB_USAGE = """\
usage: commandpost db [-h] {check,copy} ...

Look after the database.

positional arguments:
  {check,copy}
    check       check every page and replay every game
    copy        copy a SQLite file into a new, empty PostgreSQL database

options:
  -h, --help    show this help message and exit
"""


def commandpost(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80",
           "COMMANDPOST_DB": str(tmp_path / "never.db")}
    env.pop("COMMANDPOST_DISCORD_TOKEN", None)
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True,
                          text=True, timeout=60, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("words", [["--help"], ["-h"], ["help"], ["help", "help"]])
def test_commandpost_help_lists_every_sub_command_with_one_line_each(words, tmp_path):
    done = commandpost(*words, tmp_path=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, USAGE, "")
    assert not (tmp_path / "never.db").exists()  # help opens no database


def test_the_list_names_every_sub_command_that_runs():
    from bot.__main__ import COMMANDS

    listed = [line.split()[0] for line in USAGE.split("commands:\n")[1].split("\n\n")[0]
              .splitlines()]
    assert listed == list(COMMANDS)


def test_db_help_lists_check_and_copy(tmp_path):
    done = commandpost("db", "--help", tmp_path=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, DB_USAGE, "")
    assert commandpost("help", "db", tmp_path=tmp_path).stdout == DB_USAGE


def test_each_db_action_shows_its_own_options(tmp_path):
    copy = commandpost("db", "copy", "--help", tmp_path=tmp_path).stdout
    assert copy.splitlines()[0] == "usage: commandpost db copy [-h] source target"
    check = commandpost("db", "check", "--help", tmp_path=tmp_path).stdout
    assert check.splitlines()[0] == "usage: commandpost db check [-h] [--db DB]"


def test_a_word_that_is_no_command_is_refused_naming_the_list(tmp_path):
    for words in (["nonsense"], ["help", "nonsense"]):
        done = commandpost(*words, tmp_path=tmp_path)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == ("commandpost: there is no command 'nonsense'; `commandpost "
                               "--help` lists them.\n")
    assert not (tmp_path / "never.db").exists()


def test_help_for_one_command_is_that_commands_help(tmp_path):
    done = commandpost("help", "outbox", tmp_path=tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: commandpost outbox ")
    assert done.stdout == commandpost("outbox", "--help", tmp_path=tmp_path).stdout


def test_commandpost_version_says_the_installed_version(tmp_path):
    from importlib.metadata import version

    done = commandpost("--version", tmp_path=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, f"commandpost {version('commandpost')}\n", "")
