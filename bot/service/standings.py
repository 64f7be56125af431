"""Stored ratings: each player's Glicko-2 rating per variant, updated when a rated game
ends, and the leaderboards. The arithmetic is `bot.service.ratings`; `Standings` is the
service's `standings` topic.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Variant, get_variant

from ..i18n import Text, _
from ..storage import Database, Session
from .boundary import guard
from .model import Game, Player
from .ratings import Rating, rate_game


@dataclass(frozen=True)
class Standing:
    """A player's rating in one variant, as the leaderboard shows it."""

    player_id: int
    name: str
    rating: float
    deviation: float
    games: int


async def rate(s: Session, game: Game, rules: Variant, now: float) -> Text:
    before = [await read_rating(s, p, game.variant) for p in game.players]
    score = 0.5 if game.winner is None else float(game.winner == 0)
    after = rate_game(before[0], before[1], score)
    for player_id, rating in zip(game.players, after, strict=True):
        await s.execute(
            "INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games, "
            "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (player_id, variant) "
            "DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
            "volatility = excluded.volatility, games = ratings.games + 1, "
            "updated_at = excluded.updated_at",
            (player_id, game.variant, rating.rating, rating.deviation, rating.volatility,
             now))
    changes = ", ".join(f"{name} {old.rating:.0f} → {new.rating:.0f}"
                        for name, old, new in zip(game.names, before, after, strict=True))
    return _("Ratings: {changes}.", changes=changes)

async def read_rating(s: Session, player_id: int, variant: str) -> Rating:
    row = await s.one("SELECT rating, deviation, volatility FROM ratings "
                      "WHERE player_id = ? AND variant = ?", (player_id, variant))
    return Rating(row["rating"], row["deviation"], row["volatility"]) if row else Rating()


@guard  # every argument of every public method is checked before it runs
class Standings:
    """Ratings and the leaderboard (`GameService.standings`): reads the database only."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def rating(self, player: Player, variant: str) -> tuple[Rating, int]:
        """The player's rating in ``variant`` and how many rated games it rests on."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT * FROM ratings WHERE player_id = ? AND variant = ?",
                              (player.id, get_variant(variant).name))
        if row is None:
            return Rating(), 0
        return Rating(row["rating"], row["deviation"], row["volatility"]), row["games"]

    async def leaderboard(self, variant: str, limit: int = 10) -> list[Standing]:
        """The best-rated players of ``variant``."""
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT r.*, p.display_name FROM ratings r JOIN players p "
                               "ON p.id = r.player_id WHERE r.variant = ? "
                               "ORDER BY r.rating DESC, r.games DESC LIMIT ?",
                               (get_variant(variant).name, limit))
        return [Standing(r["player_id"], r["display_name"], r["rating"], r["deviation"],
                         r["games"]) for r in rows]
