"""The result written on a finished game's pictures (the board of its last step and the
replay) speaks the picture's language, as the rest of the picture does; in English exactly
as before."""

from __future__ import annotations

import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.service import GameService
from bot.service.model import Game, Player
from bot.web import server

from .test_i18n_web import VI, game_path

RESULT_EN = "Game over: bob@… (Black) wins: Alice resigned (0-1)."
RESULT_VI = "Ván đấu kết thúc: bob@… (Đen) thắng: Alice xin thua (0-1)."


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options each picture (a board or a replay) is drawn with."""
    calls: list[dict[str, Any]] = []
    board, replay = server.render, server.render_replay

    def render(*args: Any, **options: Any) -> bytes:
        calls.append(options)
        return board(*args, **options)

    def render_replay(*args: Any, **options: Any) -> bytes:
        calls.append(options)
        return replay(*args, **options)

    monkeypatch.setattr(server, "render", render)
    monkeypatch.setattr(server, "render_replay", render_replay)
    return calls


async def test_the_result_on_a_finished_games_pictures_is_in_their_language(
        offered: None, service: GameService, client: TestClient, game: Game,
        players: tuple[Player, Player], drawn: list[dict[str, Any]]) -> None:
    assert (await service.resign(players[0], game.id)).ok
    path = await game_path(service, game)
    html = await (await client.get(path, headers=VI)).text()
    src = re.search(r'<img id="board" src="([^"]+)"', html)[1]  # type: ignore[index]
    assert src.endswith(".png?lang=vi")
    for address in (src, src.removesuffix("?lang=vi"), f"{path}/replay.gif?lang=vi",
                    f"{path}/replay.gif"):
        assert (await client.get(address, headers=VI)).status == 200
    assert [options["result"] for options in drawn] == [RESULT_VI, RESULT_EN, RESULT_VI,
                                                        RESULT_EN]
