"""Links to game pages outside the web: records name the page as their Site; the bot's
runner serves the pages; settings refuse an address that is no web address."""

from __future__ import annotations

import socket
from dataclasses import replace

import aiohttp
import pytest

from bot.config import ConfigError, Settings
from bot.service import GameService
from bot.service.model import Game
from bot.web.runner import start_web


async def test_the_record_names_the_game_page_as_its_site(service: GameService,
                                                          game: Game) -> None:
    record = await service.archive.export(game.id)
    token = await service.watching.watch_token(game.id)
    assert f'[Site "https://games.example.org/game/{game.id}-{token}"]' in record.text
    service.watching.settings = replace(service.settings, web_url="")  # makes the links
    assert '[Site "discord:4242"]' in (await service.archive.export(game.id)).text


async def test_the_watch_token_is_made_once(service: GameService, game: Game) -> None:
    token = await service.watching.watch_token(game.id)
    assert len(token) == 24 and int(token, 16) >= 0
    assert await service.watching.watch_token(game.id) == token
    assert await service.watching.game_link(game.id) == f"https://games.example.org/game/1-{token}"
    assert service.watching.web_link(game.id, token, ply=3).endswith(f"/game/1-{token}?ply=3")


async def test_the_pages_are_served_on_the_configured_address(service: GameService,
                                                              game: Game) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runner = await start_web(service, replace(service.settings, web_port=port))
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/live") as response:
                assert response.status == 200
                assert f"#{game.id} Alice vs bob@…" in await response.text()
    finally:
        await runner.cleanup()


def test_settings_check_the_web_address() -> None:
    assert Settings.from_env({}).web_host == "127.0.0.1"
    with pytest.raises(ConfigError, match="COMMANDPOST_WEB_URL is 'games.example.org'; it must "
                                          "be an address like https://games.example.org"):
        Settings.from_env({"COMMANDPOST_WEB_URL": "games.example.org"})
    with pytest.raises(ConfigError, match="COMMANDPOST_WEB_RATE_LIMIT must be at least 1"):
        Settings.from_env({"COMMANDPOST_WEB_RATE_LIMIT": "0"})
