"""A database URL's password: read as a URL parser reads it (percent-encoded), never shown
(`redact_url`), whatever it holds and whether or not the URL can be read; a URL that cannot
be read is refused at start-up in one sentence without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.redact import redact_url
from bot.storage import StorageError
from bot.storage.postgres import MAX_URL, parse_url

ROOT = Path(__file__).resolve().parents[2]
HOST = "db.example.org:5432/cp"

# (password, how the URL is shown with it written as it is, unencoded, before the host)
PASSWORDS = [
    ("s3cr3t", "postgresql://bob:***@db.example.org:5432/cp"),
    ("p@ss", "postgresql://***@db.example.org:5432/cp"),
    ("pa/ss", "postgresql://***@db.example.org:5432/cp"),
    ("pa#ss", "postgresql://***@db.example.org:5432/cp"),
    ("pa?ss", "postgresql://***@db.example.org:5432/cp"),
    ("pa:ss", "postgresql://bob:***@db.example.org:5432/cp"),
    ("pa ss", "postgresql://bob:***@db.example.org:5432/cp"),
    ("50%off", "postgresql://bob:***@db.example.org:5432/cp"),
    ("%40%2F", "postgresql://bob:***@db.example.org:5432/cp"),
    ("pässwörd", "postgresql://bob:***@db.example.org:5432/cp"),
    ("İstanbul", "postgresql://bob:***@db.example.org:5432/cp"),  # lower() lengthens it
    ("密码", "postgresql://bob:***@db.example.org:5432/cp"),
    ("", "postgresql://bob:***@db.example.org:5432/cp"),
    ("a?password=b", "postgresql://***"),
    ("@/#: %ü", "postgresql://***@db.example.org:5432/cp"),
]
SECRETS = [p for p, _ in PASSWORDS]


@pytest.mark.parametrize(("password", "shown"), PASSWORDS)
def test_a_password_written_as_it_is_is_never_shown(password, shown):
    assert redact_url(f"postgresql://bob:{password}@{HOST}") == shown


@pytest.mark.parametrize("password", SECRETS)
def test_a_percent_encoded_password_is_never_shown(password):
    assert redact_url(f"postgresql://bob:{quote(password, safe='')}@{HOST}") == (
        "postgresql://bob:***@db.example.org:5432/cp")


@pytest.mark.parametrize("password", SECRETS)
def test_a_password_in_the_query_is_never_shown(password):
    shown = redact_url(f"postgresql://bob@{HOST}?sslmode=require&password={password}")
    if "@" in password:  # the last '@' falls inside the query's password: all is hidden
        assert shown == "postgresql://***"
    else:
        assert shown == "postgresql://bob@db.example.org:5432/cp?sslmode=require&password=***"
    assert redact_url(f"postgresql://bob@{HOST}?PassWord={quote(password)}&sslmode=x") == (
        "postgresql://bob@db.example.org:5432/cp?PassWord=***")
    assert redact_url(f"postgresql://bob@{HOST}?sslpassword={quote(password)}") == (
        "postgresql://bob@db.example.org:5432/cp?sslpassword=***")
    assert redact_url(f"postgresql://bob@{HOST}?pass%77ord={quote(password)}") == (
        "postgresql://bob@db.example.org:5432/cp?pass%77ord=***")


@given(st.text())
def test_no_password_whatever_it_holds_is_shown(password):
    assert redact_url(f"postgresql://bob:{password}@h/db") in (
        "postgresql://bob:***@h/db", "postgresql://***@h/db", "postgresql://***")
    assert redact_url(f"postgresql://bob@h/db?password={password}") in (
        "postgresql://bob@h/db?password=***", "postgresql://***")


def test_a_url_that_lost_a_slash_or_is_a_file_is_shown_safely():
    assert redact_url(Path("postgresql://bob:pw@db/cp")) == "postgresql:/bob:***@db/cp"
    assert redact_url(Path("games/commandpost.db")) == "games/commandpost.db"
    assert redact_url("postgresql://bob@db/cp") == "postgresql://bob@db/cp"
    assert redact_url("postgres://:pw@/cp?host=/tmp") == "postgres://:***@/cp?host=/tmp"


# --- reading the URL ----------------------------------------------------------------------
@pytest.mark.parametrize("password", SECRETS)
def test_a_percent_encoded_password_is_read_whole(password):
    url = parse_url(f"postgresql://b%40b:{quote(password, safe='')}@{HOST}?sslmode=require")
    assert (url.user, url.password, url.hosts, url.database, url.query) == (
        "b@b", password, "db.example.org:5432", "cp", "sslmode=require")
    # the driver (asyncpg) reads a URL with urllib.parse, after splitting at the first '@'
    # and ':'; in the URL it is given nothing of user or password is left to split at
    dsn = urlsplit(url.dsn())
    login = dsn.netloc.rpartition("@")[0]
    assert login.count(":") == 1 and "@" not in login
    assert [unquote(part) for part in login.split(":")] == ["b@b", password]
    assert (dsn.hostname, dsn.port, unquote(dsn.path[1:]), dsn.query) == (
        "db.example.org", 5432, "cp", "sslmode=require")


def test_what_a_url_may_leave_out_is_left_out():
    url = parse_url("postgresql://bob@/cp?host=/run/postgresql")
    assert (url.user, url.password, url.hosts, url.database) == ("bob", None, "", "cp")
    assert url.dsn() == "postgresql://bob@/cp?host=/run/postgresql"
    url = parse_url("postgres://h1:5432,[::1]:5433")
    assert (url.user, url.password, url.hosts, url.database, url.query) == (
        None, None, "h1:5432,[::1]:5433", None, "")
    assert url.dsn() == "postgres://h1:5432,[::1]:5433"
    assert parse_url("postgresql://bob:@h/cp").dsn() == "postgresql://bob:@h/cp"


UNENCODED = ("its password (or user or database name) holds an '@', '/', '?' or '#' that "
             "is not percent-encoded; write them as %40, %2F, %3F and %23 "
             "(see docs/hosting.md)")
REFUSED = [
    ("postgresql://bob:pa/ss@h/cp", UNENCODED),
    ("postgresql://bob:pa#ss@h/cp", UNENCODED),
    ("postgresql://bob:pa?ss@h/cp", UNENCODED),
    ("postgresql://bob:p@ss@h/cp", UNENCODED),
    ("postgresql://bob@h/cp?password=a#b",
     "it holds a '#', which ends a URL; write a '#' of a password as %23 "
     "(see docs/hosting.md)"),
    ("postgresql://bob:50%off@h/cp",
     "a '%' is not followed by two hexadecimal digits; write a '%' of a password as %25 "
     "(see docs/hosting.md)"),
    ("postgresql://bob:pw@h:54x2/cp", "a port is not a number from 1 to 65535"),
    ("postgresql://bob:pw@h:0/cp", "a port is not a number from 1 to 65535"),
    ("postgresql://bob@h/cp?password=a&b", "a field of its query has no '='"),
]


@pytest.mark.parametrize(("url", "why"), REFUSED)
def test_a_url_that_cannot_be_read_is_refused_in_words_without_its_password(url, why):
    with pytest.raises(StorageError) as refused:
        parse_url(url)
    assert str(refused.value) == f"the database URL cannot be read: {why}"


def test_a_url_too_long_is_refused_before_it_is_read():
    with pytest.raises(StorageError) as refused:
        parse_url("postgresql://bob:" + "@" * MAX_URL + "@h/cp")
    assert str(refused.value) == "the database URL is longer than 4,096 characters"


def test_a_bad_url_at_start_up_is_one_sentence_without_the_password(tmp_path):
    env = {**os.environ, "COMMANDPOST_DB": "postgresql://bob:hunter/2#x@127.0.0.1:1/cp",
           "PYTHONPATH": str(ROOT), "COMMANDPOST_PICTURES": str(tmp_path / "pictures")}
    done = subprocess.run([sys.executable, "-m", "bot", "console"], input="quit\n",
                          text=True, capture_output=True, timeout=60, env=env, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout + done.stderr == (
        f"commandpost: the database URL cannot be read: {UNENCODED}\n")
