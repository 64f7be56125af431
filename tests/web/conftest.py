"""A game service on a real SQLite file, two players with a game, and the web application
served by aiohttp's test server on loopback."""

from __future__ import annotations

import io
import logging
import random
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.service import GameService
from bot.service.model import Game, Player
from bot.web.runner import configure_logging
from bot.web.server import make_app

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC).timestamp()
PLACE = "discord:4242"


class Clock:
    """A ``now()`` that moves only when told to."""

    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def web_settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "games.db", web_url="https://games.example.org",
                    web_rate_limit=600)


@pytest.fixture
async def service(web_settings: Settings) -> AsyncIterator[GameService]:
    svc = await GameService.open(web_settings, now=Clock(), rng=random.Random(7))
    yield svc
    await svc.close()


@pytest.fixture
async def players(service: GameService) -> tuple[Player, Player]:
    return (await service.player("discord", "111", "Alice"),
            await service.player("email", "bob@mail.example.net", "bob@mail.example.net"))


async def start_game(service: GameService, first: Player, second: Player,
                     place: str = PLACE, days: int | None = 3) -> Game:
    made = await service.challenges.challenge(first, place, second, variant="clash", side=0,
                                              days=days)
    assert made.ok, made
    accepted = await service.challenges.accept(second, made.challenge.id)  # type: ignore[union-attr]
    assert accepted.ok, accepted
    return accepted.game  # type: ignore[union-attr,return-value]


async def play(service: GameService, game_id: int, player: Player) -> str:
    """Play the first legal move (in sorted order) of ``player``; its text."""
    game = await service.game(game_id)
    assert game is not None
    text = (await service.legal_moves(game))[0]
    done = await service.move(player, game_id, text)
    assert done.ok, done
    return text


@pytest.fixture
async def game(service: GameService, players: tuple[Player, Player]) -> Game:
    """A game of Clash in a Discord channel with two moves played."""
    g = await start_game(service, *players)
    await play(service, g.id, players[0])
    await play(service, g.id, players[1])
    return g


@pytest.fixture
async def client(service: GameService, web_settings: Settings) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(make_app(service, web_settings))) as c:
        yield c


@pytest.fixture
def kept_logging() -> Iterator[None]:
    """The root logger's handlers and level put back after the test (a process's set-up
    replaces them)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        yield
    finally:
        root.handlers[:], root.level = handlers, level


@pytest.fixture
def log_lines(kept_logging: None) -> io.StringIO:
    """What the process's logging writes (as ``commandpost web`` sets it up)."""
    stream = io.StringIO()
    configure_logging("INFO", stream=stream)
    return stream


@contextmanager
def port_in_use() -> Iterator[int]:
    """A port of 127.0.0.1 that another program listens on while the block runs."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]
