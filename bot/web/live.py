"""Live updates: every page open on a game (or a tournament) holds an event stream, and
each change of what it shows is sent to all of them as one ``state`` event.

A hub follows one kind of page, each page named by a number: the games (by game id) or
the tournaments (by tournament id). A change is noticed two ways. In the process that
stores moves, the game service calls the hub after each move is committed (immediate;
``keys_of`` says which pages a game's move concerns: the game's own, or the pages of the
tournaments it is played in). Besides, every ``poll_seconds`` the hub compares the
versions of the watched pages (``versions``: for games one small query for all of them),
which catches what happens in another process sharing the database (a bot beside a
``commandpost web``) and changes that are not moves: resignations, draws, timeouts, a
round paired. Each event is built once per change and language and handed to every viewer
reading in that language; a viewer too slow to take it keeps only the newest, since each
event carries the whole state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable

from ..i18n import SOURCE
from ..service import GameService
from .views import version_text

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0
POLL_CHUNK = 500
# (page's number, language) -> (version, event)
Build = Callable[[int, str], Awaitable[tuple[str, bytes] | None]]
# page numbers (a bounded list) -> the version of each that exists
Versions = Callable[[list[int]], Awaitable[dict[int, str]]]
# a game's id -> the pages its move concerns
Keys = Callable[[int], Iterable[int]]


class LiveHub:
    """The viewers of each page (a game by default) and the events they are sent."""

    def __init__(self, service: GameService, build: Build,
                 poll_seconds: float = POLL_SECONDS, versions: Versions | None = None,
                 keys_of: Keys | None = None) -> None:
        self.service = service
        self.build = build
        self.poll_seconds = poll_seconds
        self.versions = versions or self._game_versions
        self.keys_of = keys_of or (lambda game_id: (game_id,))
        self._viewers: dict[int, dict[asyncio.Queue[bytes], str]] = {}  # queue -> language
        self._versions: dict[int, str] = {}
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._poller: asyncio.Task[None] | None = None

    def viewers(self, key: int) -> int:
        return len(self._viewers.get(key, ()))

    async def start(self) -> None:
        self.service.watching.add_game_listener(self.moved)
        self._poller = asyncio.create_task(self._poll())

    async def stop(self) -> None:
        self.service.watching.remove_game_listener(self.moved)
        tasks = [t for t in (self._poller, *self._running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    @contextlib.asynccontextmanager
    async def subscribe(self, key: int,
                        language: str = SOURCE) -> AsyncIterator[asyncio.Queue[bytes]]:
        """A queue receiving the events of ``key``, in ``language``, while the block
        runs."""
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1)
        self._viewers.setdefault(key, {})[queue] = language
        try:
            yield queue
        finally:
            viewers = self._viewers.get(key, {})
            viewers.pop(queue, None)
            if not viewers:
                self._viewers.pop(key, None)
                self._versions.pop(key, None)

    def moved(self, game_id: int) -> None:
        """A move was stored in ``game_id``: every page it concerns is refreshed."""
        for key in self.keys_of(game_id):
            self.notify(key)

    def notify(self, key: int) -> None:
        """The page ``key`` shows has changed: send its new state to its viewers (if it
        has any)."""
        if key not in self._viewers:
            return
        if key in self._running:
            self._again.add(key)  # sent again once the running refresh is done
            return
        self._running[key] = asyncio.get_running_loop().create_task(self._refresh(key))

    async def _refresh(self, key: int) -> None:
        try:
            while True:
                self._again.discard(key)
                sent: list[str] = []  # the versions sent, one a language
                for language in sorted(set(self._viewers.get(key, {}).values())):
                    built = await self.build(key, language)
                    if built is not None and built[0] != self._versions.get(key):
                        self.publish(key, built[1], language)
                        sent.append(built[0])
                if sent:  # the oldest: a change while building is sent again by the poll
                    self._versions[key] = sent[0]
                if key not in self._again:
                    break
        except Exception:
            log.exception("the state of page %s could not be sent", key)
        finally:
            self._running.pop(key, None)

    def close_all(self) -> None:
        """Tell every stream to end (the server is stopping): each gets an empty event."""
        for key in list(self._viewers):
            self.publish(key, b"")

    def publish(self, key: int, event: bytes, language: str | None = None) -> None:
        """Hand ``event`` to the viewers of ``key`` (those reading ``language``, or all)."""
        for queue, read_in in list(self._viewers.get(key, {}).items()):
            if language is not None and read_in != language:
                continue
            if queue.full():
                queue.get_nowait()  # the newer state replaces the one not yet sent
            queue.put_nowait(event)

    def seen(self, key: int, version: str) -> None:
        """``version`` has been sent to the viewers (the first viewer's initial state)."""
        self._versions.setdefault(key, version)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                await self.poll_once()
            except Exception:  # the next round tries again
                log.exception("polling the watched pages failed")

    async def poll_once(self) -> None:
        """Send the state of every watched page whose version has changed."""
        watched = list(self._viewers)
        for k in range(0, len(watched), POLL_CHUNK):  # the service takes bounded lists
            for key, version in (await self.versions(watched[k:k + POLL_CHUNK])).items():
                if version != self._versions.get(key):
                    self.notify(key)

    async def _game_versions(self, game_ids: list[int]) -> dict[int, str]:
        """Each game's version (`views.version_text`), in one query."""
        versions = await self.service.watching.game_versions(game_ids)
        return {game_id: version_text(*version) for game_id, version in versions.items()}
