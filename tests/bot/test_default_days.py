"""``COMMANDPOST_DEFAULT_DAYS`` on the console (and so by mail, which reads the same command
words): a challenge that names no time takes the default days per move; one that names
`none`, days or a Fischer clock keeps what it names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings

ROOT = Path(__file__).resolve().parents[2]
EXPIRES = "It expires 2026-03-09 12:00 UTC."  # the test clock's start, plus 7 days


@pytest.fixture
def settings(tmp_path: Path, db_target: Path | str) -> Settings:
    return Settings(db_path=db_target, vacation_days=10, challenge_days=7,
                    pictures_dir=tmp_path / "boards", default_days=3)


async def test_a_challenge_naming_no_time_takes_the_default_days(session):
    assert (await session("challenge bob")).splitlines() == [
        f"Challenge #1 sent to bob: Clash of Command, 3 days per move, side chosen at random, "
        f"rated. {EXPIRES}",
        "  [to bob] Alice challenges you: Clash of Command, 3 days per move, side chosen at "
        "random, rated. Answer with `accept #1` or `decline #1`."]


@pytest.mark.parametrize(("named", "shown"), [
    ("none", "no clock"), ("2d", "2 days per move"), ("1d+1d", "1 day + 1 day per move")])
async def test_a_challenge_naming_its_time_keeps_it(session, named, shown):
    assert (await session(f"challenge bob {named}")).splitlines()[0] == (
        f"Challenge #1 sent to bob: Clash of Command, {shown}, side chosen at random, rated. "
        f"{EXPIRES}")


async def test_a_game_against_the_computer_takes_the_default_days_too(session, service):
    out = await session("challenge computer 1 white")
    assert "Game #1 started" in out
    game = await service.game(1)
    assert game is not None and game.days == 3


def test_the_console_reads_the_setting_from_the_environment(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMMANDPOST_DEFAULT_DAYS": "5",
           "COMMANDPOST_DB": str(tmp_path / "main.db")}
    env.pop("COMMANDPOST_DISCORD_TOKEN", None)
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--as", "alice"],
                          input="challenge bob\n", text=True, capture_output=True,
                          timeout=60, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "alice> Challenge #1 sent to bob: Clash of Command, 5 days per move, side chosen " \
           "at random, rated. It expires " in done.stdout


@pytest.mark.parametrize("raw", ["4", "0.5", "-1"])
def test_default_days_no_challenge_could_name_are_refused_at_start(raw):
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"COMMANDPOST_DEFAULT_DAYS": raw})
    assert str(refused.value) == (
        f"COMMANDPOST_DEFAULT_DAYS is {float(raw):g}; it must be 0 (no clock) or one of "
        f"1, 2, 3, 5, 7, 14")


def test_default_days_that_are_no_number_are_refused_with_the_days_allowed():
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"COMMANDPOST_DEFAULT_DAYS": "abc"})
    assert str(refused.value) == ("COMMANDPOST_DEFAULT_DAYS is 'abc'; it must be 0 (no clock) "
                                  "or one of 1, 2, 3, 5, 7, 14")
