"""The web application: routes, pictures, the event stream, security headers and the
per-address rate limit.

| route                                   | what                         | cache            |
| --------------------------------------- | ---------------------------- | ---------------- |
| ``/live``                               | games anyone may watch       | none             |
| ``/game/<id>-<token>[?ply=N]``          | a game's page                | none             |
| ``/game/<id>-<token>/events``           | its server-sent events       | none             |
| ``/game/<id>-<token>/board/<N>-<k>.png``| the picture of step N        | immutable        |
| ``/game/<id>-<token>/board.png``        | the picture now              | none             |
| ``/game/<id>-<token>/replay.gif``/``.png``| the animated replay        | none (ETag)      |
| ``/rules/<variant>``                    | the variant's rules document | an hour          |
| ``/rules/diagrams/<name>.png``          | the documents' diagrams      | a day            |
| ``/t`` (and ``/tournaments``)           | tournaments signing up, running | none          |
| ``/t/<id>``                             | a tournament's page          | none             |
| ``/t/<id>/events``                      | its server-sent events       | none             |

A wrong token, a malformed one and a game that does not exist all get the same 404 page;
so do a tournament number that is malformed or names no tournament. Nothing here writes
to the database, except that a game's watch token is made the first time a list of live
games or a tournament's page shows it.

A tournament's page links each game to its page where the public may watch it: the games
of a tournament held in a place whose games are not listed at ``/live`` (e-mail:
`bot.service.watching.PRIVATE_TRANSPORTS`) are shown by their number only, and such a
tournament is not listed at ``/t`` either (its page, like its standings, names players
as strangers may see them, `views.public_name`).

Every refusal is a page of the site with a status in the 400s: each part of an address is
bounded in length before it is matched (patterns that cannot backtrack), numbers are ASCII
digits only (``str.isdigit`` also takes ``²`` and ``①``, which ``int`` refuses) and have at
most `MAX_PLY_DIGITS` of them. A database that cannot be read just now is a 503 page; a
fault of our own is logged and gets a plain page, never a traceback.

Every page, refusal and event is in the reader's language (`language.reader_language`,
read first by the middleware), said in ``Content-Language``; pages vary with
``Accept-Language`` and ``Cookie``, and a language chosen by ``?lang=`` is remembered in
a cookie.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace

from aiohttp import web

from engine import EngineError, get_variant
from renderer import render, render_replay

from ..config import Settings
from ..i18n import SOURCE, Text, _
from ..i18n import render as render_words
from ..pictures import game_info, picture_words
from ..service import GameService
from ..service.boundary import shorten
from ..service.model import Game, place_transport
from ..service.results import Refusal as ServiceRefusal
from ..service.rules_docs import document_path, rules_folder
from ..service.tournaments import Table
from ..service.watching import PRIVATE_TRANSPORTS
from ..storage import DamagedGame, StorageError
from . import language as languages
from . import pages, tournament_pages
from .live import LiveHub
from .views import GameView, read_view

log = logging.getLogger(__name__)

PICTURE_SIZE = 640
REPLAY_SIZE = 400
CACHED_VIEWS = 256
CACHED_PICTURES = 512
CACHED_PAGES = 256
HEARTBEAT_SECONDS = 20.0
IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
# lengths are checked before matching; \d would take any script's digits, [0-9] only ASCII
MAX_KEY = 18 + 1 + 64
KEY = re.compile(r"([0-9]{1,18})-([0-9a-fA-F]{1,64})")
MAX_DIAGRAM = 1 + 80 + 4
DIAGRAM = re.compile(r"[a-z0-9][a-z0-9-]{0,80}\.png")
MAX_VARIANT = 40  # characters of a variant's name or alias in /rules/<variant>
MAX_PLY_DIGITS = 6  # as the pictures' addresses: no game has a million steps
PLY = re.compile(rf"[0-9]{{1,{MAX_PLY_DIGITS}}}")
NOT_FOUND = _("There is no game at this address. Check the link you were given.")
NO_TOURNAMENT = _("There is no tournament at this address. Check the link you were given.")
MAX_TOURNAMENT = 18  # digits of a tournament's number in /t/<id>
# no leading zero: one address for each page
TOURNAMENT = re.compile(rf"[1-9][0-9]{{0,{MAX_TOURNAMENT - 1}}}")
LISTED_TOURNAMENTS = 100
LANGUAGE = web.RequestKey("language", str)  # the request's language (the middleware reads it first)

SITE = web.AppKey("site", "Site")


class Refusal(Exception):
    """A request the site refuses: its status and the message saying why, worded in the
    reader's language on the refusal's page."""

    def __init__(self, status: int, message: Text) -> None:
        super().__init__(str(message))
        self.status, self.message = status, message


class RateLimiter:
    """A token bucket per client address: ``per_minute`` requests, in bursts of a third."""

    MAX_CLIENTS = 10_000

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1.0, per_minute / 3)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> float:
        """0 if the request may go ahead, else the seconds until it could."""
        now = self.clock()
        tokens, then = self._buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return (1 - tokens) / self.rate
        if len(self._buckets) >= self.MAX_CLIENTS:
            self._forget_idle(now)
        self._buckets[client] = (tokens - 1, now)
        return 0.0

    def _forget_idle(self, now: float) -> None:
        """Drop the buckets that have filled up again (their clients look new anyway)."""
        full = now - self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if v[1] > full}


class Site:
    """The state the handlers share: views and pictures of games, the live hub."""

    def __init__(self, service: GameService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self.limiter = RateLimiter(settings.web_rate_limit)
        self.hub = LiveHub(service, self._event_of)
        self.tournament_hub = LiveHub(service, self._tournament_event_of,
                                      versions=self._tournament_versions,
                                      keys_of=self._tournaments_of)
        self._tournament_games: dict[int, frozenset[int]] = {}  # the games each page shows
        self._views: OrderedDict[int, GameView] = OrderedDict()
        self._pictures: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._drawing: dict[tuple[object, ...], asyncio.Future[bytes]] = {}
        self._events: dict[tuple[int, str], tuple[str, tuple[str, str], bytes]] = {}
        self._pages: OrderedDict[tuple[object, ...], str] = OrderedDict()

    # --- games ----------------------------------------------------------------------
    async def watched(self, request: web.Request) -> tuple[Game, str]:
        """The game named by the request's ``<id>-<token>``, or a 404."""
        key = request.match_info["key"]
        match = KEY.fullmatch(key) if len(key) <= MAX_KEY else None
        if match is None:
            raise Refusal(404, NOT_FOUND)
        # the service refuses a number it never hands out (game 0) with a Refusal
        game = await self.service.watching.watched_game(int(match[1]), match[2])
        if not isinstance(game, Game):
            raise Refusal(404, NOT_FOUND)
        return game, f"/game/{game.id}-{match[2].lower()}"

    async def view(self, game: Game) -> GameView:
        """The view of ``game``, shared while the game does not change."""
        cached = self._views.get(game.id)
        if cached is None or cached.game != game:
            cached = await read_view(self.service, game)
            self._views[game.id] = cached
            while len(self._views) > CACHED_VIEWS:
                self._views.popitem(last=False)
        self._views.move_to_end(game.id)
        return cached

    def page(self, view: GameView, shown: int, live: bool, base: str,
             language: str = SOURCE) -> str:
        """The HTML of a game page, built once per version of the game, its players' names
        (a player may rename themself between two moves), step shown and language."""
        key = (view.game.id, view.version, view.game.names, shown, live, base, language)
        html = self._pages.get(key)
        if html is None:
            html = self._pages[key] = pages.game_page(view, shown, live, base, language)
            while len(self._pages) > CACHED_PAGES:
                self._pages.popitem(last=False)
        return html

    async def _event_of(self, game_id: int, language: str) -> tuple[str, bytes] | None:
        """The ``state`` event of a game as it is now, in ``language``."""
        game = await self.service.game(game_id)
        if game is None:
            return None
        token = await self.service.watching.watch_token(game.id)
        return await self.event(game, f"/game/{game.id}-{token!s}", language)

    async def event(self, game: Game, base: str, language: str = SOURCE) -> tuple[str, bytes]:
        """The ``state`` event of ``game``, built once per change and language."""
        view = await self.view(game)
        cached = self._events.get((game.id, language))
        if cached is None or cached[:2] != (view.version, view.game.names):
            data = json.dumps(pages.state_event(view, base, language), separators=(",", ":"))
            cached = (view.version, view.game.names,
                      f"id: {view.version}\nevent: state\ndata: {data}\n\n".encode())
            self._events[(game.id, language)] = cached
        return cached[0], cached[2]

    # --- tournaments ----------------------------------------------------------------
    async def tournament(self, request: web.Request) -> Table:
        """The standings of the tournament named by the request's ``<id>``, or a 404."""
        raw = request.match_info["id"]
        match = TOURNAMENT.fullmatch(raw) if len(raw) <= MAX_TOURNAMENT else None
        # the service refuses a number it never hands out (0) as one that names nothing
        table = await self.service.tournaments.table(int(raw)) if match else None
        if not isinstance(table, Table):
            raise Refusal(404, NO_TOURNAMENT)
        return self._shown(table)

    def _shown(self, table: Table) -> Table:
        """Keep which games the tournament's page shows (a move in one refreshes it)."""
        self._tournament_games[table.tournament.id] = frozenset(
            p.game_id for s in table.sections for p in s.pairings if p.game_id is not None)
        return table

    async def game_links(self, table: Table) -> dict[int, str]:
        """The page of each game of the tournament that the public may watch."""
        if place_transport(table.tournament.place) in PRIVATE_TRANSPORTS:
            return {}
        links = {}
        for section in table.sections:
            for p in section.pairings:
                if p.game_id is not None:
                    token = await self.service.watching.watch_token(p.game_id)
                    if not isinstance(token, ServiceRefusal):
                        links[p.game_id] = f"/game/{p.game_id}-{token}"
        return links

    async def _tournament_event_of(self, tournament_id: int,
                                   language: str) -> tuple[str, bytes] | None:
        """The ``state`` event of a tournament's page as it is now, in ``language``."""
        table = await self.service.tournaments.table(tournament_id)
        if not isinstance(table, Table):
            return None
        return self.tournament_event(self._shown(table), await self.game_links(table), language)

    @staticmethod
    def tournament_event(table: Table, links: dict[int, str],
                         language: str = SOURCE) -> tuple[str, bytes]:
        event = tournament_pages.tournament_event(table, links, language)
        data = json.dumps(event, separators=(",", ":"))
        return event["version"], f"event: state\ndata: {data}\n\n".encode()

    async def _tournament_versions(self, tournament_ids: list[int]) -> dict[int, str]:
        """The version of each watched tournament's page (its standings read afresh)."""
        versions = {}
        for tournament_id in tournament_ids:
            table = await self.service.tournaments.table(tournament_id)
            if isinstance(table, Table):
                versions[tournament_id] = tournament_pages.table_version(table)
        return versions

    def _tournaments_of(self, game_id: int) -> list[int]:
        """The watched tournaments whose pages show game ``game_id`` (the pages no longer
        watched are forgotten here)."""
        for gone in [t for t in self._tournament_games if not self.tournament_hub.viewers(t)]:
            del self._tournament_games[gone]
        return [t for t, games in self._tournament_games.items() if game_id in games]

    # --- pictures -------------------------------------------------------------------
    async def picture(self, key: tuple[object, ...], draw: Callable[[], bytes]) -> bytes:
        """A picture drawn once in a worker thread and kept, however many ask at once."""
        if key in self._pictures:
            self._pictures.move_to_end(key)
            return self._pictures[key]
        if key in self._drawing:
            return await asyncio.shield(self._drawing[key])
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            png = await asyncio.to_thread(draw)
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # read, so that nobody waiting is no error of its own
            raise
        finally:
            self._drawing.pop(key, None)
        future.set_result(png)
        self._pictures[key] = png
        while len(self._pictures) > CACHED_PICTURES:
            self._pictures.popitem(last=False)
        return png

    async def board(self, view: GameView, ply: int, language: str = SOURCE) -> bytes:
        """The game's picture after ``ply`` steps, as every transport draws it (players,
        losses counted from the moves, the last moves), without the clocks: a picture
        here is cached for ever under its URL, and the page shows the deadline itself. The
        players are named as the page names them (an e-mail address never whole); its
        words are in ``language`` (the address names it: `pages.picture_query`)."""
        info = replace(game_info(view.game, view.played, ply, language=language),
                       deadline="", clocks=("", ""),
                       players=(view.sides[0].name, view.sides[1].name))

        def draw() -> bytes:
            return render(view.position(ply), variant=view.variant, size=PICTURE_SIZE,
                          last_move=view.last_move(ply), result=view.result_on(ply, language),
                          theme=self.settings.theme, info=info,
                          words=picture_words(view.variant, language))

        return await self.picture(("board", view.game.variant, view.picture_key(ply),
                                   language), draw)

    async def replay(self, view: GameView, fmt: str, language: str = SOURCE) -> bytes:
        def draw() -> bytes:
            plies = range(view.last_ply + 1)
            return render_replay([view.position(p) for p in plies],
                                 [view.last_move(p) for p in plies], variant=view.variant,
                                 size=REPLAY_SIZE, fmt=fmt,
                                 result=view.result_on(view.last_ply, language),
                                 theme=self.settings.theme,
                                 words=picture_words(view.variant, language))

        return await self.picture(("replay", view.game.id, view.version, fmt, language), draw)


# --- handlers -----------------------------------------------------------------------
def _site(request: web.Request) -> Site:
    return request.app[SITE]


def _html(text: str, status: int = 200, cache: str = NO_CACHE) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html",
                        headers={"Cache-Control": cache})


def language_of(request: web.Request) -> str:
    """The language the request is answered in (`language.reader_language`)."""
    return request.get(LANGUAGE, SOURCE)


def picture_language(request: web.Request) -> str:
    """The language of a picture: the one its address names (``?lang=``), else English;
    never a cookie's or a header's, as a picture is cached under its address."""
    return languages.wanted(request.query.get(languages.PARAMETER)) or SOURCE


def _ply(request: web.Request) -> int | None:
    """The step asked for by ``?ply=N``: ASCII digits, at most `MAX_PLY_DIGITS` of them."""
    raw = request.query.get("ply")
    if raw is None:
        return None
    if raw.isascii() and raw.isdigit() and len(raw) > MAX_PLY_DIGITS:  # a number, too big
        raise Refusal(400, _("{step} is not a step of this game: give a step from 0 (the "
                             "start) to the last, as in ?ply=3.", step=repr(shorten(raw))))
    if PLY.fullmatch(raw) is None:
        raise Refusal(400, _("{step} is not a step: give a whole number, as in ?ply=3 (0 is "
                             "the start).", step=repr(shorten(raw))))
    return int(raw)


async def home(request: web.Request) -> web.Response:
    raise web.HTTPFound("/live")


async def live(request: web.Request) -> web.Response:
    site, language = _site(request), language_of(request)
    rows = []
    for game, token in await site.service.watching.public_games():
        view = await site.view(game)
        rows.append((game.id, f"/game/{game.id}-{token}",
                     pages.players_of(view).render(language),
                     render_words(view.variant.display_name, language),
                     view.status_in(language, briefly=True)))
    return _html(pages.live_page(rows, language))


async def game_page(request: web.Request) -> web.Response:
    site = _site(request)
    game, base = await site.watched(request)
    ply = _ply(request)
    view = await site.view(game)
    return _html(site.page(view, view.clamp(ply), ply is None, base, language_of(request)))


async def board_at(request: web.Request) -> web.Response:
    site = _site(request)
    game, _base = await site.watched(request)
    view = await site.view(game)
    ply = int(request.match_info["ply"])
    if ply > view.last_ply or request.match_info["digest"] != view.picture_key(ply):
        raise Refusal(404, _("This picture is no longer part of the game (a move was taken "
                             "back). Open the game's page again."))
    png = await site.board(view, ply, picture_language(request))
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": IMMUTABLE})


async def board_now(request: web.Request) -> web.Response:
    site = _site(request)
    game, _base = await site.watched(request)
    view = await site.view(game)
    png = await site.board(view, view.last_ply, picture_language(request))
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": NO_CACHE})


async def replay(request: web.Request) -> web.Response:
    site = _site(request)
    game, _base = await site.watched(request)
    view = await site.view(game)
    fmt = request.match_info["fmt"]
    language = picture_language(request)
    etag = f'"{view.version}-{fmt}"' if language == SOURCE else f'"{view.version}-{fmt}-{language}"'
    headers = {"Cache-Control": NO_CACHE, "ETag": etag,
               "Content-Disposition": f'attachment; filename="game-{game.id}.{fmt}"'}
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers=headers)
    data = await site.replay(view, fmt, language)
    return web.Response(body=data, content_type=f"image/{fmt}", headers=headers)


async def events(request: web.Request) -> web.StreamResponse:
    site = _site(request)
    game, base = await site.watched(request)
    response = await _event_stream(request)
    try:
        await _stream(site, game, base, response, language_of(request))
    except (ConnectionError, StorageError) as err:
        # the status is sent already: the stream ends, and the page's script reconnects
        if isinstance(err, StorageError):
            log.warning("the event stream of game #%s ended: %s", game.id, err)
    return response


async def _stream(site: Site, game: Game, base: str, response: web.StreamResponse,
                  language: str = SOURCE) -> None:
    """Write the game's state, then each change of it, until the server stops."""
    async with site.hub.subscribe(game.id, language) as queue:
        version, first = await site.event(game, base, language)
        site.hub.seen(game.id, version)
        await response.write(b"retry: 3000\n\n" + first)
        await _follow(queue, response)


async def tournaments(request: web.Request) -> web.Response:
    site, language = _site(request), language_of(request)
    listed = [(t, players) for t, players in
              await site.service.tournaments.listing(limit=LISTED_TOURNAMENTS)
              if place_transport(t.place) not in PRIVATE_TRANSPORTS]
    return _html(tournament_pages.tournaments_page(listed, language))


async def tournaments_moved(request: web.Request) -> web.Response:
    raise web.HTTPFound("/t")


async def tournament_page(request: web.Request) -> web.Response:
    site = _site(request)
    table = await site.tournament(request)
    links = await site.game_links(table)
    return _html(tournament_pages.tournament_page(
        table, links, f"/t/{table.tournament.id}/events", language_of(request)))


async def tournament_events(request: web.Request) -> web.StreamResponse:
    site = _site(request)
    table = await site.tournament(request)
    language = language_of(request)
    response = await _event_stream(request)
    tournament_id = table.tournament.id
    try:
        async with site.tournament_hub.subscribe(tournament_id, language) as queue:
            version, first = site.tournament_event(table, await site.game_links(table), language)
            site.tournament_hub.seen(tournament_id, version)
            await response.write(b"retry: 3000\n\n" + first)
            await _follow(queue, response)
    except (ConnectionError, StorageError) as err:
        if isinstance(err, StorageError):
            log.warning("the event stream of tournament T%s ended: %s", tournament_id, err)
    return response


async def _event_stream(request: web.Request) -> web.StreamResponse:
    """The response of an event stream, its headers sent."""
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": NO_CACHE,
                                           "X-Accel-Buffering": "no"})
    await response.prepare(request)
    return response


async def _follow(queue: asyncio.Queue[bytes], response: web.StreamResponse) -> None:
    """Write each event of ``queue`` (a comment now and then to keep the connection)
    until the server stops."""
    while True:
        try:
            data = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
        except TimeoutError:
            data = b": still here\n\n"
        if not data:  # the server is stopping
            return
        await response.write(data)


async def rules(request: web.Request) -> web.Response:
    name = request.match_info["variant"]
    try:
        variant = get_variant(name) if len(name) <= MAX_VARIANT else None
    except (EngineError, KeyError, ValueError):
        variant = None
    language = language_of(request)
    path = document_path(variant, language) if variant is not None else None
    if variant is None or path is None or not path.is_file():
        raise Refusal(404, _("There is no rules document of that name. The variants are "
                             "{names}.", names=_("{some} and {last}",
                                                 some="clash, commander, combined-arms, "
                                                      "mini-chieftain", last="micro-chieftain")))
    markdown = path.read_text(encoding="utf-8")
    if path.parent.name == language:  # a translation, one folder down: its diagrams are ours
        markdown = markdown.replace("](../diagrams/", "](diagrams/")
    html = pages.rules_page(_("{variant} rules", variant=variant.display_name).render(language),
                            markdown, language)
    return _html(html, cache="public, max-age=3600")


async def diagram(request: web.Request) -> web.FileResponse:
    name = request.match_info["name"]
    folder = rules_folder()
    fits = len(name) <= MAX_DIAGRAM and DIAGRAM.fullmatch(name) is not None
    path = folder / "diagrams" / name if folder is not None and fits else None
    if path is None or not path.is_file():
        raise Refusal(404, _("There is no such diagram."))
    return web.FileResponse(path, headers={"Cache-Control": "public, max-age=86400",
                                           "Content-Type": "image/png"})


# --- the application ----------------------------------------------------------------
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


UNAVAILABLE = _("The games cannot be read just now. Please try again in a minute.")
BROKEN = _("This page could not be made. Please try again later.")
DAMAGED = _("This game cannot be shown: it is damaged in the database.")


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The reader's language, the rate limit, and friendly pages for errors in that
    language: never a traceback."""
    language, remember = languages.reader_language(
        request.query, request.headers.get("Cookie"), request.headers.get("Accept-Language"))
    request[LANGUAGE] = language
    response = await _answer(request, handler, language)
    # the reader's choice, kept for their next pages (a page's: a picture's address names
    # its language only to be cached apart, and a late picture must not undo a switch)
    if remember and not response.prepared and response.content_type == "text/html":
        response.set_cookie(languages.COOKIE, remember, max_age=languages.COOKIE_SECONDS,
                            path="/", samesite="Lax", httponly=True, secure=request.secure)
    return response


async def _answer(request: web.Request, handler: Handler,
                  language: str) -> web.StreamResponse:
    """The handler's answer, or the page of its refusal or failure in ``language``."""
    wait = _site(request).limiter.allow(request.remote or "?")
    if wait:
        return _too_many(wait, language)
    try:
        return await handler(request)
    except Refusal as err:
        return _html(pages.error_page(err.status, err.message, language), status=err.status)
    except web.HTTPException as err:
        if err.status < 400:
            raise
        return _refusal(err, language)
    except DamagedGame as err:  # that game alone: nothing to retry, the others show
        log.warning("a page of a damaged game: %s", err)
        return _html(pages.error_page(404, DAMAGED, language), status=404)
    except StorageError as err:
        log.warning("a page could not read the database: %s", err)
        response = _html(pages.error_page(503, UNAVAILABLE, language), status=503)
        response.headers["Retry-After"] = "60"
        return response
    except (asyncio.CancelledError, ConnectionError):
        raise  # the client went away: nobody to answer
    except Exception:
        log.exception("a page failed")
        return _html(pages.error_page(500, BROKEN, language), status=500)


def _refusal(err: web.HTTPException, language: str = SOURCE) -> web.Response:
    """The page of a refusal of aiohttp's own (no route: 404; a method: 405): its
    message in the site's style."""
    message = _("There is nothing at this address.")
    if err.status == 405:
        message = _("This site is read-only: pages are only looked at.")
    response = _html(pages.error_page(err.status, message, language), status=err.status)
    if err.status == 405:
        response.headers["Allow"] = "GET, HEAD"
    return response


def _too_many(wait: float, language: str = SOURCE) -> web.Response:
    response = _html(pages.error_page(429, _("Too many requests from your address; wait a "
                                             "moment and try again."), language), status=429)
    response.headers["Retry-After"] = str(max(1, round(wait)))
    return response


async def _language_headers(request: web.Request, response: web.StreamResponse) -> None:
    """A page's language, and what it depends on (for caches)."""
    if response.content_type not in ("text/html", "text/event-stream"):
        return
    response.headers["Content-Language"] = language_of(request)
    response.headers["Vary"] = "Accept-Language, Cookie"


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.setdefault("Content-Security-Policy", pages.CSP)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"  # the address holds the token
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    response.headers.setdefault("Cache-Control", NO_CACHE)


def make_app(service: GameService, settings: Settings | None = None) -> web.Application:
    """The web application on ``service`` (its live updates start with the application)."""
    app = web.Application(middlewares=[guard, web.normalize_path_middleware(
        append_slash=False, remove_slash=True, merge_slashes=False)])  # `/game/.../`: redirected
    site = Site(service, settings or service.settings)
    app[SITE] = site
    app.on_response_prepare.append(_security_headers)
    app.on_response_prepare.append(_language_headers)

    async def lifetime(app: web.Application):  # type: ignore[no-untyped-def]
        await site.hub.start()
        await site.tournament_hub.start()
        yield
        await site.tournament_hub.stop()
        await site.hub.stop()

    app.cleanup_ctx.append(lifetime)

    async def end_streams(app: web.Application) -> None:
        site.hub.close_all()
        site.tournament_hub.close_all()

    app.on_shutdown.append(end_streams)
    app.router.add_get("/", home)
    app.router.add_get("/live", live)
    app.router.add_get("/game/{key}", game_page)
    app.router.add_get("/game/{key}/events", events)
    app.router.add_get("/game/{key}/board.png", board_now)
    app.router.add_get(r"/game/{key}/board/{ply:[0-9]{1,6}}-{digest:[0-9a-f]{16}}.png", board_at)
    app.router.add_get("/game/{key}/replay.{fmt:gif|png}", replay)
    app.router.add_get("/rules/diagrams/{name}", diagram)
    app.router.add_get("/t", tournaments)
    app.router.add_get("/tournaments", tournaments_moved)
    app.router.add_get("/t/{id}", tournament_page)
    app.router.add_get("/t/{id}/events", tournament_events)
    app.router.add_get("/rules/{variant}", rules)
    return app

