"""Game tokens: one secret per player of each game, which a transport without accounts of
its own (e-mail) hands to that player and asks back with every game command.

`GameTokens` is part of `bot.service.GameService`; it uses the service's database and clock.
A token is made the first time it is asked for and never changes, so every mail a player
received for a game carries the same one.
"""

from __future__ import annotations

import hmac
import secrets

from .clock import Clock
from .results import Reason, Refusal
from .storage import Database

TOKEN_BYTES = 10  # 20 hex digits: unguessable, and survives addresses folded to lower case


class GameTokens:
    """The token commands of the game service (which provides the database and clock)."""

    db: Database
    now: Clock

    async def game_token(self, game_id: int, player_id: int) -> str | Refusal:
        """The secret of ``player_id`` in game ``game_id``, made on first use (only a
        player of the game has one)."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT token FROM game_tokens WHERE game_id = ? AND player_id = ?",
                              (game_id, player_id))
            plays = await s.one("SELECT 1 FROM games WHERE id = ? AND ? IN (player0, player1)",
                                (game_id, player_id))
        if row is not None:
            return str(row["token"])
        if plays is None:
            return Refusal(Reason.NOT_A_PLAYER, f"Player #{player_id} does not play in game "
                                                f"#{game_id}.")
        async with self.db.transaction() as s:
            # another command may have made it meanwhile: that one is kept
            await s.execute("INSERT INTO game_tokens (game_id, player_id, token, created_at) "
                            "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, player_id) DO NOTHING",
                            (game_id, player_id, secrets.token_hex(TOKEN_BYTES), self.now()))
            row = await s.one("SELECT token FROM game_tokens WHERE game_id = ? AND player_id = ?",
                              (game_id, player_id))
        assert row is not None
        return str(row["token"])

    async def token_holder(self, game_id: int, token: str) -> int | None:
        """The player of game ``game_id`` whose secret is ``token``, if any."""
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT player_id, token FROM game_tokens WHERE game_id = ?",
                               (game_id,))
        for row in rows:
            if hmac.compare_digest(str(row["token"]), token.lower()):
                return int(row["player_id"])
        return None
