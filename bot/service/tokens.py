"""Game and challenge tokens: one secret per player of each game (and of each challenge),
which a transport without accounts of its own (e-mail) hands to that player and asks back
with every command that changes the game or the challenge.

`GameTokens` is the service's `tokens` topic; it uses the database and the clock.
A player's secret of a game is made the first time it is asked for and never leaves the
service: what a player is handed is a key derived from it for one move number (an HMAC of
the game and the move number under the secret), so the key of a mail stops working once the
game has moved on, and a forwarded old mail opens nothing. A takeback to a move number makes
that number's key work again: it names the very position the old mail showed (the moves up
to it are the same), which is what the key vouches for. A challenge is one decision, not a
series of turns: its token is handed out as it is.

Confirmations: a command that arrives without a key is asked back of its address, with a
one-time key that expires after `CONFIRM_DAYS` (a forged mail then only mails the real
owner a question). Linked addresses: a player's second address, confirmed from it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

from ..i18n import _
from ..storage import Database
from .boundary import guard
from .clock import Clock
from .results import Reason, Refusal

TOKEN_BYTES = 10  # 20 hex digits: unguessable, and survives addresses folded to lower case
# the table and its id column of each kind of token (fixed names, never user input)
TOKEN_TABLES = {"game": ("game_tokens", "game_id"), "challenge": ("challenge_tokens",
                                                                  "challenge_id")}
OWNERS = {"game": "games", "challenge": "challenges"}
# the tables whose player_id refers to a player (fixed names, never user input)
PLAYER_TABLES = ("vacations", "outbox", "ratings", "game_tokens", "watchers", "challenge_tokens",
                 "game_notes", "forecasts", "mail_links", "tournament_players")
CONFIRM_DAYS = 3.0  # how long a confirmation request may be answered


def turn_key(secret: str, game_id: int, ply: int) -> str:
    """The key of a player's ``secret`` for game ``game_id`` at move number ``ply``."""
    mac = hmac.new(secret.encode(), f"game {game_id} ply {ply}".encode(), hashlib.sha256)
    return mac.hexdigest()[:2 * TOKEN_BYTES]


@guard  # every argument of every public method is checked before it runs
class GameTokens:
    """The keys of games and challenges in e-mail, and the addresses linked to a player
    (`GameService.tokens`): the database and the clock."""

    def __init__(self, db: Database, now: Clock) -> None:
        self.db, self.now = db, now

    async def game_token(self, game_id: int, player_id: int,
                         ply: int | None = None) -> str | Refusal:
        """The key of ``player_id`` in game ``game_id`` at move number ``ply`` (the game's
        move number now when None), derived from the player's secret (made on first use)."""
        secret = await self._token("game", game_id, player_id)
        if isinstance(secret, Refusal):
            return secret
        if ply is None:
            async with self.db.snapshot() as s:
                row = await s.one("SELECT ply FROM games WHERE id = ?", (game_id,))
            ply = int(row["ply"]) if row is not None else 0
        return turn_key(secret, game_id, ply)

    async def token_holder(self, game_id: int, token: str, ply: int) -> int | None:
        """The player of game ``game_id`` whose key at move number ``ply`` is ``token``."""
        table, column = TOKEN_TABLES["game"]
        async with self.db.snapshot() as s:
            rows = await s.all(f"SELECT player_id, token FROM {table} WHERE {column} = ?",
                               (game_id,))
        for row in rows:
            if hmac.compare_digest(turn_key(str(row["token"]), game_id, ply), token.lower()):
                return int(row["player_id"])
        return None

    async def challenge_token(self, challenge_id: int, player_id: int) -> str | Refusal:
        """The secret of ``player_id`` for challenge ``challenge_id``, made on first use."""
        return await self._token("challenge", challenge_id, player_id)

    async def challenge_token_holder(self, challenge_id: int, token: str) -> int | None:
        """The player whose secret for challenge ``challenge_id`` is ``token``, if any."""
        return await self._holder("challenge", challenge_id, token)

    async def _token(self, kind: str, owner_id: int, player_id: int) -> str | Refusal:
        """The token, or the refusal of a game (challenge) or player that does not exist."""
        table, column = TOKEN_TABLES[kind]
        select = f"SELECT token FROM {table} WHERE {column} = ? AND player_id = ?"
        async with self.db.snapshot() as s:
            row = await s.one(select, (owner_id, player_id))
            exists = await s.one(f"SELECT (SELECT COUNT(*) FROM {OWNERS[kind]} WHERE id = ?) "
                                 f"AS owner, (SELECT COUNT(*) FROM players WHERE id = ?) AS "
                                 f"player", (owner_id, player_id))
        if row is not None:
            return str(row["token"])
        if not exists or not exists["owner"] or not exists["player"]:
            return Refusal(Reason.BAD_INPUT, _(
                "There is no game #{owner} with a player #{player}.", owner=owner_id,
                player=player_id) if kind == "game" else _(
                "There is no challenge #{owner} with a player #{player}.", owner=owner_id,
                player=player_id) if kind == "challenge" else _(
                "There is no {kind} #{owner} with a player #{player}.", kind=kind,
                owner=owner_id, player=player_id))
        async with self.db.transaction() as s:
            # another command may have made it meanwhile: that one is kept
            await s.execute(f"INSERT INTO {table} ({column}, player_id, token, created_at) "
                            f"VALUES (?, ?, ?, ?) ON CONFLICT ({column}, player_id) DO NOTHING",
                            (owner_id, player_id, secrets.token_hex(TOKEN_BYTES), self.now()))
            row = await s.one(select, (owner_id, player_id))
        assert row is not None
        return str(row["token"])

    async def _holder(self, kind: str, owner_id: int, token: str) -> int | None:
        table, column = TOKEN_TABLES[kind]
        async with self.db.snapshot() as s:
            rows = await s.all(f"SELECT player_id, token FROM {table} WHERE {column} = ?",
                               (owner_id,))
        for row in rows:
            if hmac.compare_digest(str(row["token"]), token.lower()):
                return int(row["player_id"])
        return None

    # --- confirmations and linked addresses -------------------------------------------
    async def ask_confirmation(self, address: str, command: dict[str, Any]) -> tuple[int, str,
                                                                                       float]:
        """Remember ``command`` until ``address`` confirms it: its id, one-time key and
        expiry time (expired requests are forgotten meanwhile)."""
        token, now = secrets.token_hex(TOKEN_BYTES), self.now()
        expires = now + CONFIRM_DAYS * 86400
        async with self.db.transaction() as s:
            await s.execute("DELETE FROM mail_confirmations WHERE expires_at < ?",
                            (now - CONFIRM_DAYS * 86400,))
            number = await s.insert("INSERT INTO mail_confirmations (address, token, command, "
                                    "created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                                    (address, token, json.dumps(command), now, expires))
        return number, token, expires

    async def confirm(self, number: int, token: str, address: str,
                      use: bool = True) -> dict[str, Any] | str:
        """The command that confirmation ``number`` asked ``address`` about, used up now
        (with ``use``; else left open); else why not: ``wrong`` (no such request, another
        key or another address), ``used`` or ``expired``."""
        async with self.db.transaction() as s:
            row = await s.one("SELECT * FROM mail_confirmations WHERE id = ?", (number,))
            expected = str(row["token"]) if row is not None else "0" * 2 * TOKEN_BYTES
            good = hmac.compare_digest(expected, token.lower())
            if row is None or not good or str(row["address"]) != address:
                return "wrong"
            if row["used_at"] is not None:
                return "used"
            if float(row["expires_at"]) < self.now():
                return "expired"
            if use:
                await s.execute("UPDATE mail_confirmations SET used_at = ? WHERE id = ?",
                                (self.now(), number))
        found: dict[str, Any] = json.loads(str(row["command"]))
        return found

    async def link_address(self, address: str, player_id: int) -> Refusal | None:
        """Let mail from ``address`` act as player ``player_id`` (a second address); the
        refusal of a player that does not exist (nothing is written)."""
        async with self.db.transaction() as s:
            linked = await s.execute(
                "INSERT INTO mail_links (address, player_id, created_at) SELECT ?, ?, ? "
                "WHERE EXISTS (SELECT 1 FROM players WHERE id = ?) ON CONFLICT (address) "
                "DO UPDATE SET player_id = excluded.player_id",
                (address, player_id, self.now(), player_id))
        if not linked:
            return Refusal(Reason.NO_SUCH_PLAYER, _("There is no player #{player}.",
                                                     player=player_id))
        return None

    async def unlink_address(self, address: str, player_id: int) -> bool:
        """Stop mail from ``address`` acting as player ``player_id``: whether it did."""
        async with self.db.transaction() as s:
            return await s.execute("DELETE FROM mail_links WHERE address = ? AND player_id = ?",
                                   (address, player_id)) > 0

    async def linked_player(self, address: str) -> int | None:
        """The player whose second address ``address`` is, if any."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT player_id FROM mail_links WHERE address = ?", (address,))
        return int(row["player_id"]) if row is not None else None

    async def forget_unused_player(self, player_id: int) -> bool:
        """Remove player ``player_id`` if nothing refers to them (an address named in a
        challenge that was refused): whether it was removed."""
        async with self.db.transaction() as s:
            if await s.one("SELECT 1 FROM games WHERE player0 = ? OR player1 = ? LIMIT 1",
                           (player_id, player_id)) is not None or await s.one(
                    "SELECT 1 FROM challenges WHERE challenger_id = ? OR opponent_id = ? LIMIT 1",
                    (player_id, player_id)) is not None or await s.one(
                    "SELECT 1 FROM tournaments WHERE director_id = ? LIMIT 1",
                    (player_id,)) is not None:
                return False
            for table in PLAYER_TABLES:
                if await s.one(f"SELECT 1 FROM {table} WHERE player_id = ? LIMIT 1",
                               (player_id,)) is not None:
                    return False
            return await s.execute("DELETE FROM players WHERE id = ?", (player_id,)) > 0
