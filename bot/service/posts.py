"""What a transport remembers between commands and restarts, and the daily digest.

A transport that posts messages it later edits (Discord: the live board, whose buttons are
taken off when the next board is posted; an offer, whose buttons are taken off when it is
answered) keeps their ids here, so that a restart loses none. Its own small state (the hash
of the command tree it uploaded) lives here too.

The daily digest is for every transport: a player who opted in (preference ``digest``)
gets, at most once a day, one notification listing the games that wait for their move.

`Posts` is the service's `posts` topic; it uses the database and the clock.
"""

from __future__ import annotations

from engine import get_variant

from ..i18n import Text, _, _n, joined
from ..storage import Database
from . import outbox
from .boundary import guard
from .clock import DAY, Clock, format_duration
from .model import Game, Post
from .words import variant_name

DIGEST = "digest"  # the player preference: a daily digest of the games waiting for them


@guard  # every argument of every public method is checked before it runs
class Posts:
    """Remembered messages, transport state and digests (`GameService.posts`): the
    database and the clock."""

    def __init__(self, db: Database, now: Clock) -> None:
        self.db, self.now = db, now

    async def remember_post(self, transport: str, post: Post) -> None:
        async with self.db.transaction() as s:
            await s.execute(
                "INSERT OR REPLACE INTO posts (transport, game_id, kind, channel, message, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (transport, post.game_id, post.kind, post.channel, post.message, self.now()))

    async def remembered(self, transport: str, game_id: int, kind: str) -> list[Post]:
        """The remembered messages of one kind about a game, the oldest first."""
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT * FROM posts WHERE transport = ? AND game_id = ? "
                               "AND kind = ? ORDER BY created_at, message",
                               (transport, game_id, kind))
        return [Post(r["game_id"], r["kind"], r["channel"], r["message"]) for r in rows]

    async def forget_posts(self, transport: str, posts: list[Post]) -> None:
        async with self.db.transaction() as s:
            for p in posts:
                await s.execute("DELETE FROM posts WHERE transport = ? AND game_id = ? AND "
                                "kind = ? AND message = ?",
                                (transport, p.game_id, p.kind, p.message))

    async def transport_state(self, key: str) -> str | None:
        async with self.db.snapshot() as s:
            row = await s.one("SELECT value FROM transport_state WHERE key = ?", (key,))
        return row["value"] if row else None

    async def set_transport_state(self, key: str, value: str) -> None:
        async with self.db.transaction() as s:
            await s.execute(
                "INSERT INTO transport_state (key, value, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at", (key, value, self.now()))

    # --- the daily digest -----------------------------------------------------------
    async def process_digests(self) -> int:
        """Queue the digest of every player who asked for one, had none in the last day,
        and has games waiting for their move; how many were queued."""
        now = self.now()
        sent = 0
        async with self.db.transaction() as s:
            # claimed like the scheduler's other work: a second scheduler skips the players
            # this one holds, and reads their last digest (a statement of its own, so it
            # sees what this one committed) only once they are free
            players = await s.all(
                "SELECT p.id, p.transport FROM players p "
                "WHERE json_extract(p.preferences, '$.digest') = 1" + s.claim("p"))
            for p in players:
                last = await s.one("SELECT value FROM transport_state WHERE key = ?",
                                   (f"digest:{p['id']}",))
                if last is not None and float(last["value"]) > now - DAY:
                    continue
                rows = await s.all(
                    Game.GAME_SQL + " WHERE g.status = 'active' AND "
                    "((g.player0 = ? AND g.to_move = 0) OR (g.player1 = ? AND g.to_move = 1))",
                    (p["id"], p["id"]))
                waiting = sorted(Game.readable(rows), key=time_left)
                if not waiting:
                    continue
                await outbox.notify(s, now, transport=p["transport"], kind=DIGEST,
                                    player_id=p["id"], text=self._digest(waiting, p["id"], now))
                await s.execute(
                    "INSERT INTO transport_state (key, value, updated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                    "updated_at = excluded.updated_at", (f"digest:{p['id']}", str(now), now))
                sent += 1
        return sent

    @staticmethod
    def _digest(games: list[Game], player_id: int, now: float) -> Text:
        lines = [_n("Your daily digest: {n} game waits for your move.",
                    "Your daily digest: {n} games wait for your move.", len(games))]
        for g in games:
            other = g.names[1 - g.side_of(player_id)]  # type: ignore[operator]
            left = (_("no clock") if g.clock.deadline is None and not g.clock.paused
                    else _("clock paused") if g.clock.paused
                    else _("{duration} left", duration=format_duration(
                        g.clock.deadline - now)))  # type: ignore[operator]
            lines.append(_("• #{game} against {name} ({variant}): {left}", game=g.id,
                           name=other, variant=variant_name(get_variant(g.variant)),
                           left=left))
        return joined(lines, "\n")


def time_left(game: Game) -> float:
    """Sort key: the game whose clock runs out first comes first; no clock last."""
    if game.clock.deadline is not None:
        return game.clock.deadline
    return float("inf")
