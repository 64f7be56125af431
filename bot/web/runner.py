"""``commandpost web``: the web pages alone (beside a bot in another process, sharing its
database); and `start_web`, which the bot's runner calls to serve them in its own process
when ``COMMANDPOST_WEB_URL`` is set.

A client gets `Timeouts.header` seconds to send a request's line and headers (from the
moment it connects, or from the end of the previous answer on a kept-alive connection)
and `Timeouts.body` seconds to send a body after it was answered (this site reads none);
then the connection is closed, so slow clients cannot hold the server's connections.

``commandpost web`` that cannot start (no database there, a database it cannot use, an
address it cannot listen on) says why in one sentence on stderr and exits with status 1.
Its words are the host's language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), as the console's.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import re
import socket
import sqlite3
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from aiohttp import web
from aiohttp.http_exceptions import BadHttpMessage

from .. import i18n, redact
from ..config import ConfigError, Settings, add_db_option, settings_for
from ..i18n import Text, _, message_id
from ..service import GameService
from ..storage import StorageError
from .server import make_app

log = logging.getLogger(__name__)

HEADER_SECONDS = 10.0
BODY_SECONDS = 10.0
URL = re.compile(r"postgres(?:ql)?:")
LISTEN_FAULTS = {
    errno.EADDRINUSE: message_id("another program is listening there (choose another port "
                                 "with --port)"),
    errno.EACCES: message_id("this user may not listen there (ports below 1024 need "
                             "privileges)"),
    errno.EADDRNOTAVAIL: message_id("this machine has no such address (choose another with "
                                    "--host)"),
}


def host_language() -> str:
    """The language of the host running ``commandpost web``: the first of ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set (POSIX's order), if it is shipped."""
    return i18n.choose(next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG")
                             if os.environ.get(name)), None))


@dataclass(frozen=True)
class Timeouts:
    """How long a client may take to send a request's head and its body, in seconds."""

    header: float = HEADER_SECONDS
    body: float = BODY_SECONDS

    def runner_options(self) -> dict[str, Any]:
        """These limits as aiohttp's options: an idle connection (one still sending its
        request's head) is closed after ``keepalive_timeout``; a body not read by the
        handler is read and dropped for ``lingering_time``, then the connection closes."""
        return {"keepalive_timeout": self.header, "lingering_time": self.body}


class CannotServe(Exception):
    """``commandpost web`` cannot start; the message says why in one sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message  # a message of the catalogue, or the storage's words

    def words(self, language: str) -> str:
        return i18n.render(self.message, language)


def configure_logging(level: str, stream: TextIO | None = None) -> logging.Handler:
    """The process's logging: one handler on stderr, every line redacted (game keys, watch
    tokens, e-mail addresses at INFO and above)."""
    return redact.configure(level, stream=stream)  # game keys and watch tokens hidden


class BadRequests(logging.Filter):
    """aiohttp logs a request it cannot parse (a header over 8,190 bytes, a broken request
    line) as an error with its traceback, once per request: anyone on the web could fill
    the host's log. It is answered 400 all the same; the log gets one line, without the
    traceback, at INFO."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, BadHttpMessage):
            record.msg, record.args = "refused a request it cannot read: %s", (
                str(error).splitlines()[0][:200],)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


async def start_web(service: GameService, settings: Settings,
                    timeouts: Timeouts | None = None) -> web.AppRunner:
    """Serve the web pages of ``service`` on the configured address; the runner to stop.
    An address that cannot be listened on raises `OSError`, with nothing left running."""
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, BadRequests) for f in server_log.filters):
        server_log.addFilter(BadRequests())
    runner = web.AppRunner(make_app(service, settings), access_log=None,
                           **(timeouts or Timeouts()).runner_options())
    await runner.setup()
    try:
        await web.TCPSite(runner, settings.web_host, settings.web_port).start()
    except BaseException:
        await runner.cleanup()
        raise
    log.info("web pages on http://%s:%s/ (public address: %s)", settings.web_host,
             settings.web_port, settings.web_url or "not set")
    return runner


async def open_service(settings: Settings) -> GameService:
    """The game service on an existing database, or `CannotServe` saying why not."""
    target = settings.db_path
    shown = redact.redact_url(target)
    if not URL.match(str(target)):  # a URL (even one that lost a slash) is storage's to judge
        path = Path(target)
        if path.is_dir():
            raise CannotServe(_("the database {path} is a folder, not a database file; give "
                                "the bot's database file with --db or COMMANDPOST_DB",
                                path=repr(shown)))
        if not path.exists() or path.stat().st_size == 0:  # an empty file is no database yet
            raise CannotServe(_("there is no database at {path}; the pages show the games of "
                                "the bot's database: give its file with --db or "
                                "COMMANDPOST_DB", path=repr(shown)))
    try:
        return await GameService.open(settings)
    except StorageError as err:
        raise CannotServe(str(err)) from None
    except (sqlite3.Error, OSError, ValueError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise CannotServe(_("cannot open the database {path}: {reason}", path=repr(shown),
                            reason=reason)) from None


async def listen(service: GameService, settings: Settings) -> web.AppRunner:
    """`start_web`, or `CannotServe` saying why the address cannot be listened on."""
    try:
        return await start_web(service, settings)
    except OSError as err:
        if isinstance(err, socket.gaierror):
            reason: str = _("no such host name (choose another with --host)")
        elif (err.errno or 0) in LISTEN_FAULTS:
            reason = Text(LISTEN_FAULTS[err.errno or 0], {})
        else:
            reason = err.strerror or str(err)
        address = ":".join((settings.web_host, str(settings.web_port)))
        raise CannotServe(_("cannot listen on {address}: {reason}", address=address,
                            reason=reason)) from None


async def serve(settings: Settings) -> None:
    """Run the web pages until cancelled."""
    async with await open_service(settings) as service:
        runner = await listen(service, settings)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()


def port_number(text: str) -> int:
    """A ``--port`` value: a number from 1 to 65535."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(_("{text} is no port: give a number from 1 to 65535",
                                           text=repr(text[:20])).render(host_language()))
    return int(text)


def main(argv: list[str] | None = None) -> int:
    language = host_language()
    parser = argparse.ArgumentParser(prog="commandpost web", description=_(
        "Serve the game pages in a browser.").render(language))
    add_db_option(parser)
    parser.add_argument("--host", help=_("address to listen on (default: "
                                         "$COMMANDPOST_WEB_HOST or 127.0.0.1)").render(language))
    parser.add_argument("--port", type=port_number, help=_(
        "port (default: $COMMANDPOST_WEB_PORT or 8080)").render(language))
    args = parser.parse_args(argv)
    try:
        settings = settings_for(args)
    except ConfigError as err:
        print(f"commandpost web: {err}", file=sys.stderr)
        return 2
    settings = replace(settings, web_host=args.host or settings.web_host,
                       web_port=settings.web_port if args.port is None else args.port)
    configure_logging(settings.log_level)
    try:
        asyncio.run(serve(settings))
    except CannotServe as err:
        print(f"commandpost web: {err.words(language)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
