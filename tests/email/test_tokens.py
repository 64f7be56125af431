"""Game keys: one unguessable secret per player of each game, handed out only as a key for
one move number at a time."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.service import GameService


async def test_a_key_is_per_player_game_and_move_number_and_names_its_holder(tmp_path: Path):
    async with await GameService.open(Settings(db_path=tmp_path / "g.db")) as service:
        alice = await service.player("email", "alice@example.org", "Alice")
        bob = await service.player("email", "bob@example.org", "Bob")
        made = await service.challenges.challenge(alice, "email:mail", bob, side=0)
        game = (await service.challenges.accept(bob, made.challenge.id)).game  # type: ignore[union-attr]
        first = await service.tokens.game_token(game.id, alice.id)
        assert await service.tokens.game_token(game.id, alice.id) == first
        assert await service.tokens.game_token(game.id, alice.id, 0) == first  # the move number now
        other = await service.tokens.game_token(game.id, bob.id)
        assert other != first and len(first) == 20
        assert await service.tokens.token_holder(game.id, first, 0) == alice.id
        assert await service.tokens.token_holder(game.id, other.upper(), 0) == bob.id
        assert await service.tokens.token_holder(game.id, "0" * 20, 0) is None
        assert await service.tokens.token_holder(game.id + 1, first, 0) is None
        later = await service.tokens.game_token(game.id, alice.id, 1)
        assert later != first
        assert await service.tokens.token_holder(game.id, first, 1) is None  # not a key of move 1
        assert await service.tokens.token_holder(game.id, later, 1) == alice.id
        async with service.db.snapshot() as s:
            secrets = {str(r["token"]) for r in await s.all("SELECT token FROM game_tokens")}
        assert first not in secrets and later not in secrets  # the secret itself never leaves


async def test_an_address_is_linked_only_to_a_player_that_exists(tmp_path: Path):
    async with await GameService.open(Settings(db_path=tmp_path / "g.db")) as service:
        alice = await service.player("email", "alice@example.org", "Alice")
        refused = await service.tokens.link_address("ghost@example.org", alice.id + 1)
        assert refused.message == f"There is no player #{alice.id + 1}."
        assert await service.tokens.linked_player("ghost@example.org") is None
        assert await service.tokens.link_address("alice@work.example", alice.id) is None
        assert await service.tokens.linked_player("alice@work.example") == alice.id
