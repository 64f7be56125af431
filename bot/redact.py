"""Secrets never reach a log: a logging filter that redacts game keys (and the bare tokens
inside them) from every line, whoever logs it — our code, aiosmtpd logging ``RCPT TO`` with
the plus-address key, aiosmtplib, discord.py — messages, arguments and tracebacks alike.
E-mail addresses are personal data: at INFO and above their local part is left out
(``…@players.test``: the domain is what an operator needs to see which provider refuses);
DEBUG, which an operator turns on to trace one problem, keeps them.

`configure` is how every process sets up logging: one handler on stderr (or a file), with
the filter.
A filter on a handler sees every record that reaches the handler, including those of
libraries' loggers, which a filter on one logger would not.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import TextIO
from urllib.parse import unquote_plus

# a game token: 20 hex digits (bot.service.tokens.TOKEN_BYTES), alone or in a key game.ply.token,
# or a game page's watch token, 24 (bot.service.watching.WATCH_TOKEN_BYTES); the token is what
# must not be seen, the game and move numbers are useful in a log
TOKEN = re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{20}(?:[0-9A-Fa-f]{4})?(?![0-9A-Fa-f])")
REDACTED = "[key]"


# where a database URL's secrets are: the user information (``user:password@``) ends at the
# last "@"; a query field whose name ends in "password" (``password=``, ``sslpassword=``,
# however its name is percent-encoded) runs to the end. A field's name stops at the next
# ``? & = #``, so each search is linear.
URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}:/*")
QUERY_FIELD = re.compile(r"[?&]([^?&=#]*)=")
HIDDEN = "***"


def redact_url(target: object) -> str:
    """A database file or URL as it may be shown: no character of a URL's password, whatever
    it holds and whether or not the URL can be read.

    Everything between ``://`` and the last ``@`` is the user information: its user is
    kept when it is plainly one (no second ``@``, no ``/ ? #`` in it: what a URL parser would
    read the same way), the rest becomes ``***``. A password field of the query hides all
    that follows it (an unencoded ``&`` or ``#`` in the password would end the field
    early). Where the two overlap, everything after the scheme is hidden. A file's path (no
    scheme) is shown as it is. Linear in the text: no pattern runs over the password."""
    text = str(target)
    scheme = URL_SCHEME.match(text)
    if scheme is None:
        return text
    head, rest = text[:scheme.end()], text[scheme.end():]
    at = rest.rfind("@")
    value = _query_password(rest)
    if value is not None:
        if value <= at:  # the user information and the query password overlap: unsure
            return head + HIDDEN
        rest = rest[:value] + HIDDEN
    if at < 0:
        return head + rest
    return head + _user_information(rest[:at]) + rest[at:]


def _query_password(rest: str) -> int | None:
    """Where the value of the first password field of a query starts, if there is one."""
    for field in QUERY_FIELD.finditer(rest):
        if unquote_plus(field.group(1)).lower().endswith("password"):
            return field.end()
    return None


def _user_information(part: str) -> str:
    """``user:***`` (or ``user`` alone) when ``part`` reads plainly as user information,
    else ``***``."""
    if any(mark in part for mark in "@/?#"):
        return HIDDEN
    user, colon, _ = part.partition(":")
    return f"{user}:{HIDDEN}" if colon else user


# an address: starting after a separator, in bounded runs (linear time on any line), the local
# part without spaces, angle brackets or quotes; a key already redacted inside it goes with it
ADDRESS = re.compile(r"(?<![^\s<>\"',;:()\[\]])[^\s<>@\"',;:()\[\]]{1,64}(?:\[key\])?@"
                     r"(?=[A-Za-z0-9\[])")  # any domain: example.org, localhost, [192.0.2.7]
HIDDEN_ADDRESS = "…@"


def redact(text: str) -> str:
    """``text`` with every game token replaced by ``[key]``."""
    return TOKEN.sub(REDACTED, text)


def redact_addresses(text: str) -> str:
    """``text`` with the local part of every e-mail address left out (``…@domain``)."""
    return ADDRESS.sub(HIDDEN_ADDRESS, text)


class RedactKeys(logging.Filter):
    """Rewrites each record so that no game token is left in it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: keep the raw parts, redacted
            message = f"{record.msg} {record.args}"
        message = redact(message)
        if record.levelno >= logging.INFO:
            message = redact_addresses(message)
        record.msg, record.args = message, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def protect(handler: logging.Handler) -> logging.Handler:
    """``handler`` with the redacting filter (once)."""
    if not any(isinstance(f, RedactKeys) for f in handler.filters):
        handler.addFilter(RedactKeys())
    return handler


def configure(level: str, fmt: str = "%(asctime)s %(levelname)s %(name)s %(message)s",
              stream: TextIO | None = None,
              filters: tuple[logging.Filter, ...] = (),
              file: Path | None = None) -> logging.Handler:
    """Log to ``stream`` (stderr), or appending to ``file`` (made at the first record), at
    ``level``, every line redacted; the handler."""
    handler: logging.Handler = (
        logging.FileHandler(file, encoding="utf-8", delay=True) if file is not None
        else logging.StreamHandler(stream or sys.stderr))
    for extra in filters:
        handler.addFilter(extra)
    protect(handler)
    handler.setFormatter(logging.Formatter(fmt))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    return handler
