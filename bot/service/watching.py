"""Watching games from outside a transport: the secret link of each game's web page, the
public games, and listeners told when a game changes.

`Watching` is the service's `watching` topic; it uses the database, the clock and the
settings. A game's watch token is made the first time it is asked for and never changes;
it only lets people look (the players' own tokens, `bot.service.tokens`, are what act). Tokens are
compared in constant time, and a wrong token reads exactly like a game that does not exist.

Listeners are told the id of a game after a move in it is committed, in this process. A
watcher in another process (or one that wants endings, offers and timeouts too) compares
`game_versions` from time to time instead: a game's version changes whenever anything a
spectator sees of it changes.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable

from ..config import Settings
from ..i18n import _
from ..storage import Database, Session
from .boundary import guard
from .clock import Clock
from .model import Game, place_transport
from .results import Reason, Refusal

log = logging.getLogger(__name__)

WATCH_TOKEN_BYTES = 12  # 24 hex digits
# places whose games are not listed at /live: an e-mail game is two people's affair
PRIVATE_TRANSPORTS = frozenset({"email"})
_DUMMY_TOKEN = "0" * (2 * WATCH_TOKEN_BYTES)

Listener = Callable[[int], None]
Version = tuple[int, str, float]  # revision, status, updated_at


@guard  # every argument of every public method is checked before it runs
class Watching:
    """The spectators' side of the service (`GameService.watching`): the database, the
    clock, the web address in the settings, and reading a game (``read_game(s, id)``)."""

    def __init__(self, db: Database, now: Clock, settings: Settings,
                 read_game: Callable[[Session, int], Awaitable[Game | None]]) -> None:
        self.db, self.now, self.settings = db, now, settings
        self._read_game = read_game
        self._listeners: list[Listener] = []

    async def watch_token(self, game_id: int) -> str | Refusal:
        """The secret of game ``game_id``'s web page, made on first use (the refusal of a
        game that does not exist)."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT token FROM watch_tokens WHERE game_id = ?", (game_id,))
        if row is not None:
            return str(row["token"])
        async with self.db.transaction() as s:
            # another command may have made it meanwhile: that one is kept
            await s.execute("INSERT INTO watch_tokens (game_id, token, created_at) "
                            "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ?) "
                            "ON CONFLICT (game_id) DO NOTHING",
                            (game_id, secrets.token_hex(WATCH_TOKEN_BYTES), self.now(), game_id))
            row = await s.one("SELECT token FROM watch_tokens WHERE game_id = ?", (game_id,))
        if row is None:
            return Refusal(Reason.NO_SUCH_GAME, _("There is no game #{game}.", game=game_id))
        return str(row["token"])

    async def watched_game(self, game_id: int, token: str) -> Game | None:
        """The game, if ``token`` is its watch token; None for a wrong token and for a game
        that does not exist alike (the same work is done in both cases)."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT token FROM watch_tokens WHERE game_id = ?", (game_id,))
            expected = str(row["token"]) if row is not None else _DUMMY_TOKEN
            good = hmac.compare_digest(expected.encode(), token.lower().encode())
            if not good or row is None:
                return None
            return await self._read_game(s, game_id)

    def web_link(self, game_id: int, token: str, ply: int | None = None) -> str | None:
        """The public address of a game's page (None when no web address is configured)."""
        base = self.settings.web_url.rstrip("/")
        if not base:
            return None
        return f"{base}/game/{game_id}-{token}" + ("" if ply is None else f"?ply={ply}")

    async def game_link(self, game_id: int) -> str | None:
        """The public address of game ``game_id``'s page, or None when the web pages are
        not configured."""
        if not self.settings.web_url:
            return None
        token = await self.watch_token(game_id)
        return None if isinstance(token, Refusal) else self.web_link(game_id, token)

    async def public_games(self, limit: int = 100) -> list[tuple[Game, str]]:
        """Games in progress anyone may watch (not e-mail games), the latest moved first,
        with their watch tokens."""
        async with self.db.snapshot() as s:
            rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' "
                               "ORDER BY g.updated_at DESC, g.id DESC LIMIT ?", (4 * limit,))
        games = [g for g in Game.readable(rows)
                 if place_transport(g.place) not in PRIVATE_TRANSPORTS][:limit]
        return [(g, str(await self.watch_token(g.id))) for g in games]

    async def game_versions(self, game_ids: Iterable[int]) -> dict[int, Version]:
        """Each game's version now: it changes whenever anything spectators see changes."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT id, revision, status, updated_at FROM games "
                               f"WHERE id IN ({marks})", ids)
        return {int(r["id"]): (int(r["revision"]), str(r["status"]), float(r["updated_at"]))
                for r in rows}

    # --- listeners ------------------------------------------------------------------
    def add_game_listener(self, listener: Listener) -> None:
        """Call ``listener(game_id)`` after each move is stored (in this process)."""
        self._listeners.append(listener)

    def remove_game_listener(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def game_changed(self, game_id: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id)
            except Exception:  # a spectator's page must never break a game
                log.exception("a game listener failed")
