"""Live updates: every page open on a game holds an event stream, and each change of the
game is sent to all of them as one ``state`` event.

A change is noticed two ways. In the process that stores moves, the game service calls
`LiveHub.notify` after each move is committed (immediate). Besides, every
``poll_seconds`` the hub compares the versions of the watched games (one small query for
all of them), which catches what happens in another process sharing the database (a bot
beside a ``commandpost web``) and changes that are not moves: resignations, draws,
timeouts. Each event is built once per change and language and handed to every viewer
reading in that language; a viewer too slow to take it keeps only the newest, since each
event carries the whole state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from ..i18n import SOURCE
from ..service import GameService
from .views import version_text

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0
POLL_CHUNK = 500
# (game id, language) -> (version, event)
Build = Callable[[int, str], Awaitable[tuple[str, bytes] | None]]


class LiveHub:
    """The viewers of each game and the events they are sent."""

    def __init__(self, service: GameService, build: Build,
                 poll_seconds: float = POLL_SECONDS) -> None:
        self.service = service
        self.build = build
        self.poll_seconds = poll_seconds
        self._viewers: dict[int, dict[asyncio.Queue[bytes], str]] = {}  # queue -> language
        self._versions: dict[int, str] = {}
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._poller: asyncio.Task[None] | None = None

    def viewers(self, game_id: int) -> int:
        return len(self._viewers.get(game_id, ()))

    async def start(self) -> None:
        self.service.watching.add_game_listener(self.notify)
        self._poller = asyncio.create_task(self._poll())

    async def stop(self) -> None:
        self.service.watching.remove_game_listener(self.notify)
        tasks = [t for t in (self._poller, *self._running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: int,
                        language: str = SOURCE) -> AsyncIterator[asyncio.Queue[bytes]]:
        """A queue receiving the events of ``game_id``, in ``language``, while the block
        runs."""
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1)
        self._viewers.setdefault(game_id, {})[queue] = language
        try:
            yield queue
        finally:
            viewers = self._viewers.get(game_id, {})
            viewers.pop(queue, None)
            if not viewers:
                self._viewers.pop(game_id, None)
                self._versions.pop(game_id, None)

    def notify(self, game_id: int) -> None:
        """The game has changed: send its new state to its viewers (if it has any)."""
        if game_id not in self._viewers:
            return
        if game_id in self._running:
            self._again.add(game_id)  # sent again once the running refresh is done
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(self._refresh(game_id))

    async def _refresh(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                sent: list[str] = []  # the versions sent, one a language
                for language in sorted(set(self._viewers.get(game_id, {}).values())):
                    built = await self.build(game_id, language)
                    if built is not None and built[0] != self._versions.get(game_id):
                        self.publish(game_id, built[1], language)
                        sent.append(built[0])
                if sent:  # the oldest: a change while building is sent again by the poll
                    self._versions[game_id] = sent[0]
                if game_id not in self._again:
                    break
        except Exception:
            log.exception("the state of game #%s could not be sent", game_id)
        finally:
            self._running.pop(game_id, None)

    def close_all(self) -> None:
        """Tell every stream to end (the server is stopping): each gets an empty event."""
        for game_id in list(self._viewers):
            self.publish(game_id, b"")

    def publish(self, game_id: int, event: bytes, language: str | None = None) -> None:
        """Hand ``event`` to the viewers of ``game_id`` (those reading ``language``, or all)."""
        for queue, read_in in list(self._viewers.get(game_id, {}).items()):
            if language is not None and read_in != language:
                continue
            if queue.full():
                queue.get_nowait()  # the newer state replaces the one not yet sent
            queue.put_nowait(event)

    def seen(self, game_id: int, version: str) -> None:
        """``version`` has been sent to the viewers (the first viewer's initial state)."""
        self._versions.setdefault(game_id, version)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                await self.poll_once()
            except Exception:  # the next round tries again
                log.exception("polling the watched games failed")

    async def poll_once(self) -> None:
        """Send the state of every watched game whose version has changed."""
        watched = list(self._viewers)
        for k in range(0, len(watched), POLL_CHUNK):  # the service takes bounded lists
            versions = await self.service.watching.game_versions(watched[k:k + POLL_CHUNK])
            for game_id, (revision, status, updated) in versions.items():
                if version_text(revision, status, updated) != self._versions.get(game_id):
                    self.notify(game_id)
