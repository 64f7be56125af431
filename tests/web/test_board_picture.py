"""The web page's board picture is the game's picture as every transport draws it: its
header names this game and its players, its losses come from the moves played, and no
two games (or two histories) share a cached picture."""

from __future__ import annotations

import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

import bot.web.server
from bot.service import GameService
from bot.service.model import Player
from renderer import Material

from .conftest import PLACE, start_game

SHOT = "4k3/8/8/8/8/4p3/8/2B1K3 w - - 0 1"


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options the web server gives the renderer, one dict per picture drawn."""
    seen: list[dict[str, Any]] = []
    real = bot.web.server.render

    def render(position: Any, **options: Any) -> bytes:
        seen.append(options)
        return real(position, **options)

    monkeypatch.setattr(bot.web.server, "render", render)
    return seen


async def board_of(client: TestClient, path: str) -> bytes:
    html = await (await client.get(path)).text()
    src = re.search(r'<img id="board" src="([^"]+)"', html)[1]  # type: ignore[index]
    picture = await client.get(src)
    assert picture.status == 200
    return await picture.read()


async def test_two_games_at_the_same_position_each_have_their_own_picture(
        service: GameService, client: TestClient, players: tuple[Player, Player],
        drawn: list[dict[str, Any]]) -> None:
    carol = await service.player("discord", "333", "Carol")
    first = await start_game(service, *players)
    second = await start_game(service, players[0], carol)
    one = await board_of(client, (await service.game_link(first.id) or "").split(".org")[1])
    two = await board_of(client, (await service.game_link(second.id) or "").split(".org")[1])
    assert one != two
    assert [(d["info"].number, d["info"].players) for d in drawn] == [
        (first.id, ("Alice", "bob@…")), (second.id, ("Alice", "Carol"))]
    # no clock on a picture cached for ever: the page shows the deadline itself
    assert [(d["info"].deadline, d["info"].clocks) for d in drawn] == [("", ("", ""))] * 2


async def test_the_losses_on_the_page_s_picture_come_from_the_moves(
        service: GameService, client: TestClient, players: tuple[Player, Player],
        drawn: list[dict[str, Any]]) -> None:
    made = await service.challenge(players[0], PLACE, players[1], variant="combined-arms",
                                   side=0, start_fen=SHOT)
    game = (await service.accept(players[1], made.challenge.id)).game  # type: ignore[union-attr]
    assert (await service.move(players[0], game.id, "Bc1*e3")).ok  # type: ignore[union-attr]
    path = (await service.game_link(game.id) or "").split(".org")[1]  # type: ignore[union-attr]
    await board_of(client, path + "?ply=0")
    await board_of(client, path)
    assert [d["info"].losses for d in drawn] == [Material(letters=((), ())),
                                                 Material(letters=((), ("P",)))]
    assert drawn[1]["info"].moves == ("1. Bc1*e3",)
