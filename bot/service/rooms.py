"""Where games live and who follows them: a game moved to its own room (a Discord thread),
the games inside a place, the watchers of a game, the settings of a server, and the
rulings of a server's admins (abort or adjudicate any game there).

`Rooms` is the service's `rooms` topic; it uses the database, the clock and the
service's way of ending a game. A place may have rooms below it, written ``transport:where/room``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from engine import get_variant

from ..i18n import Text, _
from ..storage import Database
from .boundary import guard
from .clock import Clock
from .model import Game, PlayedMove, Player
from .phrasing import DISCORD, describe_result
from .results import Done, Reason, Refusal, Result
from .turns import turn_entries
from .words import ABORTED_BY, ADJUDICATED, ADJUDICATED_DRAW, ending, side_name, variant_name


@guard  # every argument of every public method is checked before it runs
class Rooms:
    """Rooms, watchers, server settings and admin rulings (`GameService.rooms`): the
    database, the clock, and ending a game the service's way (``finish``)."""

    def __init__(self, db: Database, now: Clock, finish: Callable[..., Awaitable[Game]]) -> None:
        self.db, self.now, self._finish = db, now, finish

    # --- rooms ----------------------------------------------------------------------
    async def relocate(self, game_id: int, place: str) -> Game | None:
        """Move a game to ``place`` (its own room); the game, or None if there is none."""
        async with self.db.transaction() as s:
            changed = await s.execute("UPDATE games SET place = ? WHERE id = ?", (place, game_id))
            row = await s.one(Game.GAME_SQL + " WHERE g.id = ?", (game_id,)) if changed else None
        return Game.from_row(row) if row else None

    async def games_within(self, place: str, active: bool = True) -> list[Game]:
        """Games in ``place`` or in a room below it (``place/...``)."""
        status = "g.status = 'active'" if active else "g.status != 'active'"
        async with self.db.snapshot() as s:
            rows = await s.all(
                Game.GAME_SQL + f" WHERE {status} AND (g.place = ? OR "
                "(g.place >= ? AND g.place < ?)) ORDER BY g.id",
                (place, place + "/", place + "0"))  # '0' sorts right after '/'
        return Game.readable(rows)

    async def recent_places(self, player_id: int, within: str, limit: int = 10) -> list[str]:
        """The places (each once) below ``within`` (``transport:``) of ``player_id``'s games,
        the one of the most recently played game first: where the player last played."""
        async with self.db.snapshot() as s:
            rows = await s.all(
                "SELECT place, MAX(updated_at) AS last FROM games WHERE (player0 = ? OR "
                "player1 = ?) AND place >= ? AND place < ? GROUP BY place ORDER BY last DESC, "
                "place LIMIT ?", (player_id, player_id, within, _after(within), limit))
        return [r["place"] for r in rows]

    # --- watchers -------------------------------------------------------------------
    async def watch(self, player: Player, game_id: int) -> Result:
        """Follow a game's notifications."""
        async with self.db.transaction() as s:
            row = await s.one(Game.GAME_SQL + " WHERE g.id = ?", (game_id,))
            if row is None:
                return Refusal(Reason.NO_SUCH_GAME, _("There is no game #{game}.",
                                                      game=game_id))
            await s.execute("INSERT OR IGNORE INTO watchers (game_id, player_id, created_at) "
                            "VALUES (?, ?, ?)", (game_id, player.id, self.now()))
        return Done(_("You are watching game #{game}.", game=game_id),
                    game=Game.from_row(row))

    async def unwatch(self, player: Player, game_id: int) -> Result:
        """Stop following a game."""
        async with self.db.transaction() as s:
            gone = await s.execute("DELETE FROM watchers WHERE game_id = ? AND player_id = ?",
                                   (game_id, player.id))
        if not gone:
            return Refusal(Reason.NO_SUCH_GAME, _("You are not watching game #{game}.",
                                                  game=game_id))
        return Done(_("You no longer watch game #{game}.", game=game_id))

    async def watch_news(self, game_id: int) -> Text | None:
        """The news of the game's last turn for its Discord watchers, who take it by DM if
        they asked (`/notify dm`; the e-mail transport words its own watchers' news); None
        for a game nobody there watches, one that is over (its end is told to watchers as
        news of the place) or one whose turn goes on. Asked by a transport after a move (a
        game listener): a move's own transaction reads nothing more for it."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT 1 AS found FROM watchers w JOIN players p ON p.id = "
                              "w.player_id WHERE w.game_id = ? AND p.transport = ? LIMIT 1",
                              (game_id, DISCORD))
            game = await s.one(Game.GAME_SQL + " WHERE g.id = ?", (game_id,)) if row else None
            if game is None:
                return None
            found = Game.from_row(game)
            last = await s.one("SELECT partial FROM moves WHERE game_id = ? AND ply = ?",
                               (game_id, found.ply - 1))
            if found.is_over or found.turns == 0 or last is None or last["partial"]:
                return None  # over, or a turn still going on: its end is the news
            rows = await s.all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply",
                               (game_id,))
        rules = get_variant(found.variant)
        # the turn as the move list and the record write it (a deploy closed by `end`: its
        # full SAN)
        entries = turn_entries(found, [PlayedMove.from_row(r) for r in rows], strict=False)
        if not entries:
            return None
        mover, nxt = 1 - found.to_move, found.to_move
        return _("{name} played {turn} in game #{game} ({variant}). {mover} ({side}) is to "
                 "move.", name=found.names[mover], turn=entries[-1].line, game=game_id,
                 variant=variant_name(rules), mover=found.names[nxt],
                 side=side_name(rules, nxt))

    async def watchers(self, game_id: int) -> list[Player]:
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT p.* FROM watchers w JOIN players p ON p.id = w.player_id "
                               "WHERE w.game_id = ? ORDER BY w.created_at, p.id", (game_id,))
        return [Player.from_row(r) for r in rows]

    async def watched_games(self, player: Player) -> list[Game]:
        """The live games ``player`` watches."""
        async with self.db.snapshot() as s:
            rows = await s.all(Game.GAME_SQL + " JOIN watchers w ON w.game_id = g.id "
                               "WHERE w.player_id = ? AND g.status = 'active' ORDER BY g.id",
                               (player.id,))
        return Game.readable(rows)

    # --- server settings ------------------------------------------------------------
    async def server_settings(self, server: str) -> dict[str, Any]:
        """The settings a server's admins chose (an empty dict: the host's defaults)."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT settings FROM server_settings WHERE server = ?", (server,))
        return json.loads(row["settings"]) if row else {}

    async def all_server_settings(self) -> dict[str, dict[str, Any]]:
        """Every server's settings that differ from the host's defaults, by server."""
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT server, settings FROM server_settings ORDER BY server")
        return {r["server"]: json.loads(r["settings"]) for r in rows}

    async def set_server_settings(self, server: str, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Change some settings of a server (a value of None removes the setting)."""
        async with self.db.transaction() as s:
            row = await s.one("SELECT settings FROM server_settings WHERE server = ?", (server,))
            settings = json.loads(row["settings"]) if row else {}
            settings.update(changes)
            settings = {k: v for k, v in settings.items() if v is not None}
            await s.execute(
                "INSERT INTO server_settings (server, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (server) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                (server, json.dumps(settings, sort_keys=True), self.now()))
        return settings

    # --- admin rulings --------------------------------------------------------------
    async def adjudicate(self, game_id: int, winner: int | None, by: str,
                         abort: bool = False) -> Result:
        """End a game by an admin's ruling: ``winner`` wins (None: a draw), or it is
        aborted (unrated) whatever has been played."""
        async with self.db.transaction() as s:
            row = await s.one(Game.GAME_SQL + " WHERE g.id = ?", (game_id,))
            if row is None:
                return Refusal(Reason.NO_SUCH_GAME, _("There is no game #{game}.",
                                                      game=game_id))
            game = Game.from_row(row)
            if game.is_over:
                return Refusal(Reason.GAME_OVER, _("Game #{game} is already over.",
                                                   game=game_id))
            rules = get_variant(game.variant)
            if abort:
                reason = ending(ABORTED_BY, by)
            elif winner is None:
                reason = ending(ADJUDICATED_DRAW, by)
            else:
                reason = ending(ADJUDICATED, by)
            game = await self._finish(s, game, rules, winner, reason,
                                      self.now(), draw=winner is None and not abort,
                                      aborted=abort)
        result = describe_result(game)
        return Done(_("Game #{game} aborted: {result}.", game=game_id, result=result) if abort
                    else _("Game #{game} adjudicated: {result}.", game=game_id, result=result),
                    game=replace(game))


def _after(prefix: str) -> str:
    """The first string after every string that starts with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)

