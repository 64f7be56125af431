"""Game tokens: one stable, unguessable secret per player of each game."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.service import GameService


async def test_a_token_is_made_once_per_player_and_game_and_names_its_holder(tmp_path: Path):
    async with await GameService.open(Settings(db_path=tmp_path / "g.db")) as service:
        alice = await service.player("email", "alice@example.org", "Alice")
        bob = await service.player("email", "bob@example.org", "Bob")
        made = await service.challenge(alice, "email:mail", bob, side=0)
        game = (await service.accept(bob, made.challenge.id)).game  # type: ignore[union-attr]
        first = await service.game_token(game.id, alice.id)
        assert await service.game_token(game.id, alice.id) == first
        other = await service.game_token(game.id, bob.id)
        assert other != first and len(first) == 20
        assert await service.token_holder(game.id, first) == alice.id
        assert await service.token_holder(game.id, other.upper()) == bob.id
        assert await service.token_holder(game.id, "0" * 20) is None
        assert await service.token_holder(game.id + 1, first) is None
