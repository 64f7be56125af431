"""The game page's move list is the record's: one numbered entry a turn, each linking to the
board after it, and every step's board marks its turn so far (an `end` step: the turn it
closes). The same list in a browser is in `test_browser.py`."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from bot.service import GameService
from bot.service.model import Game, Player
from bot.web.views import read_view

from .conftest import PLACE

GAMES = json.loads((Path(__file__).parents[1] / "data" / "move_lists.json").read_text())["games"]
TURN_LINE = re.compile(r"^\d+\.(?:\.\.)? ")
ITEM = re.compile(r"<li>(.*?)</li>")


async def data_game(service: GameService, players: tuple[Player, Player], name: str,
                    inputs: int | None = None) -> Game:
    """The game ``name`` of the data file, its inputs (the first ``inputs``) each sent by
    the player to move."""
    data = GAMES[name]
    made = await service.challenges.challenge(players[0], PLACE, players[1],
                                              variant=data["variant"],
                                              side=0, days=None, start_fen=data["fen"], rated=False)
    assert made.ok, made
    accepted = await service.challenges.accept(players[1], made.challenge.id)  # type: ignore[union-attr]
    assert accepted.ok, accepted
    game_id = accepted.game.id  # type: ignore[union-attr]
    for text in data["inputs"][:inputs]:
        mover = players[(await service.game(game_id)).to_move]  # type: ignore[union-attr]
        done = await service.move(mover, game_id, text)
        assert done.ok, (text, done)
    game = await service.game(game_id)
    assert game is not None
    return game


async def record_lines(service: GameService, game_id: int) -> list[str]:
    record = (await service.archive.export(game_id)).text or ""
    return [line for line in record.splitlines() if TURN_LINE.match(line)]


async def page_path(service: GameService, game: Game) -> str:
    link = await service.watching.game_link(game.id)
    assert link is not None
    return link.removeprefix("https://games.example.org")


def listed(html: str) -> list[str]:
    """The move list's entries as a reader sees them."""
    moves = html.split('<ol class="moves" id="moves">', 1)[1].split("</ol>", 1)[0]
    return [unescape(re.sub(r"<[^>]+>", "", item)) for item in ITEM.findall(moves)]


@pytest.mark.parametrize("name", list(GAMES))
async def test_the_page_lists_the_records_turns(service: GameService, client: TestClient,
                                                players: tuple[Player, Player],
                                                name: str) -> None:
    game = await data_game(service, players, name)
    html = await (await client.get(await page_path(service, game))).text()
    assert listed(html) == await record_lines(service, game.id) == GAMES[name]["record"]


async def test_each_entry_links_to_the_board_after_its_turn(
        service: GameService, client: TestClient, players: tuple[Player, Player]) -> None:
    game = await data_game(service, players, "commander-deploy")
    path = await page_path(service, game)
    html = await (await client.get(path + "?ply=7")).text()  # inside the deploy: T>e6 sent
    # the deploy is one entry (escaped), current while a step of it is shown
    assert ('<li><span class="turn">4.</span> <a href="?ply=8" aria-current=step '
            'title="Red">I&lt;T&gt;e6</a></li>') in html
    assert re.findall(r'<li><span class="turn">[^<]+</span> <a href="\?ply=(\d+)"', html) == [
        "1", "2", "3", "4", "5", "6", "8", "9"]
    # the arrows still go step by step
    assert '<a id="prev" href="?ply=6"' in html and '<a id="next" href="?ply=8"' in html
    assert "Step 7 of 9: 4. T&gt;e6 … (Red)" in html
    end = await (await client.get(path + "?ply=8")).text()
    assert "Step 8 of 9: 4. I&lt;T&gt;e6 (Red)" in end
    assert "board at step 8 (I&lt;T&gt;e6)" in end


async def test_the_board_of_every_step_marks_its_turn_so_far(
        service: GameService, players: tuple[Player, Player]) -> None:
    game = await data_game(service, players, "commander-deploy")
    view = await read_view(service, game)
    marked = {ply: [(s.origin, s.target) for m in view.last_move(ply) for s in m.steps]
              for ply in (0, 6, 7, 8, 9)}
    assert marked == {0: [], 6: [("i11", "i10")], 7: [("e4", "e6")],
                      8: [("e4", "e6")],  # the `end` step: the turn it closes
                      9: [("i10", "i9")]}
    chieftain = await data_game(service, players, "chieftain-move-by-move")
    view = await read_view(service, chieftain)
    assert [(s.origin, s.target) for m in view.last_move(3) for s in m.steps] == [
        ("g8", "f6"), ("d7", "d6")]
