"""``commandpost web``: the web pages alone (beside a bot in another process, sharing its
database); and `start_web`, which the bot's runner calls to serve them in its own process
when ``COMMANDPOST_WEB_URL`` is set."""

from __future__ import annotations

import argparse
import asyncio
import logging
from dataclasses import replace

from aiohttp import web

from ..config import ConfigError, Settings, add_db_option, settings_for
from ..service import GameService
from .server import make_app

log = logging.getLogger(__name__)


async def start_web(service: GameService, settings: Settings) -> web.AppRunner:
    """Serve the web pages of ``service`` on the configured address; the runner to stop."""
    runner = web.AppRunner(make_app(service, settings), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, settings.web_host, settings.web_port).start()
    log.info("web pages on http://%s:%s/ (public address: %s)", settings.web_host,
             settings.web_port, settings.web_url or "not set")
    return runner


async def serve(settings: Settings) -> None:
    """Run the web pages until cancelled."""
    async with await GameService.open(settings) as service:
        runner = await start_web(service, settings)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="commandpost web",
                                     description="Serve the game pages in a browser.")
    add_db_option(parser)
    parser.add_argument("--host", help="address to listen on (default: $COMMANDPOST_WEB_HOST "
                                       "or 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default: $COMMANDPOST_WEB_PORT or 8080)")
    args = parser.parse_args(argv)
    try:
        settings = settings_for(args)
    except ConfigError as err:
        parser.error(str(err))
    settings = replace(settings, web_host=args.host or settings.web_host,
                       web_port=settings.web_port if args.port is None else args.port)
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(message)s")
    try:
        asyncio.run(serve(settings))
    except KeyboardInterrupt:
        pass
    return 0
