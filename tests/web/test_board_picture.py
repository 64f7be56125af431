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
    one = await board_of(client,
                         (await service.watching.game_link(first.id) or "").split(".org")[1])
    two = await board_of(client,
                         (await service.watching.game_link(second.id) or "").split(".org")[1])
    assert one != two
    assert [(d["info"].number, d["info"].players) for d in drawn] == [
        (first.id, ("Alice", "bob@…")), (second.id, ("Alice", "Carol"))]
    # no clock on a picture cached for ever: the page shows the deadline itself
    assert [(d["info"].deadline, d["info"].clocks) for d in drawn] == [("", ("", ""))] * 2


async def test_the_losses_on_the_page_s_picture_come_from_the_moves(
        service: GameService, client: TestClient, players: tuple[Player, Player],
        drawn: list[dict[str, Any]]) -> None:
    made = await service.challenges.challenge(players[0], PLACE, players[1],
                                              variant="combined-arms",
                                              side=0, start_fen=SHOT)
    game = (await service.challenges.accept(players[1], made.challenge.id)).game  # type: ignore[union-attr]
    assert (await service.move(players[0], game.id, "Bc1*e3")).ok  # type: ignore[union-attr]
    path = (await service.watching.game_link(game.id) or "").split(".org")[1]  # type: ignore[union-attr]
    await board_of(client, path + "?ply=0")
    await board_of(client, path)
    assert [d["info"].losses for d in drawn] == [Material(letters=((), ())),
                                                 Material(letters=((), ("P",)))]
    assert drawn[1]["info"].moves == ("1. Bc1*e3",)


async def test_a_player_renamed_between_two_moves_is_named_anew_and_the_picture_loads(
        service: GameService, client: TestClient, players: tuple[Player, Player]) -> None:
    """The page's HTML was kept by the game's version, which a new name does not change:
    the old names stayed, and the board's address (which names the players) was no picture
    any more."""
    game = await start_game(service, *players)
    path = (await service.watching.game_link(game.id) or "").split(".org")[1]
    assert "Game #1: Alice vs bob@…" in await (await client.get(path)).text()
    await service.player("discord", "111", "Alicia")  # the same player, a new name
    html = await (await client.get(path)).text()
    assert "Game #1: Alicia vs bob@…" in html
    src = re.search(r'<img id="board" src="([^"]+)"', html)[1]  # type: ignore[index]
    assert (await client.get(src)).status == 200
    events = await client.get(path + "/events")
    assert await events.content.readuntil(b"\n\n") == b"retry: 3000\n\n"
    assert b'"status":"Alicia (White) to move' in await events.content.readuntil(b"\n\n")
    events.close()


async def test_a_game_s_address_with_a_slash_at_the_end_leads_to_the_game(
        service: GameService, client: TestClient, players: tuple[Player, Player]) -> None:
    game = await start_game(service, *players)
    path = (await service.watching.game_link(game.id) or "").split(".org")[1]
    response = await client.get(path + "/?ply=0", allow_redirects=False)
    assert response.status == 308 and response.headers["Location"] == path + "?ply=0"
    assert (await client.get(path + "/")).status == 200
    assert (await client.get("/game/nothing/")).status == 404


async def test_a_finished_game_s_move_list_ends_with_its_result(
        service: GameService, client: TestClient, players: tuple[Player, Player]) -> None:
    game = await start_game(service, *players)
    path = (await service.watching.game_link(game.id) or "").split(".org")[1]
    assert '<li class="result">' not in await (await client.get(path)).text()
    assert (await service.resign(players[1], game.id)).ok
    html = await (await client.get(path)).text()
    assert html.count('<li class="result">1-0</li></ol>') == 1
    events = await client.get(path + "/events")
    await events.content.readuntil(b"\n\n")
    assert b'"result":"1-0"' in await events.content.readuntil(b"\n\n")
    events.close()
