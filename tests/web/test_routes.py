"""Every route of the web pages through aiohttp's test client: status codes, tokens,
the rate limit, cache and security headers, and the event stream."""

from __future__ import annotations

import asyncio
import json
import re

from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.service import GameService
from bot.service.model import Game, Player
from bot.web.pages import CSP
from bot.web.server import IMMUTABLE, SITE, make_app

from .conftest import play, start_game

NOT_FOUND = "There is no game at this address. Check the link you were given."


async def page_of(service: GameService, game: Game) -> str:
    link = await service.watching.game_link(game.id)
    assert link is not None
    return link.removeprefix("https://games.example.org")


async def test_game_page_shows_players_turn_deadline_moves_and_picture(
        service: GameService, client: TestClient, game: Game) -> None:
    path = await page_of(service, game)
    response = await client.get(path)
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["Referrer-Policy"] == "no-referrer"
    html = await response.text()
    # players with their sides, colours and ratings; an e-mail address is never shown whole
    assert ('<span class="swatch c-white" aria-hidden="true"></span>Alice '
            '<span class="side">(White, rating 1500?)</span>') in html
    assert "bob@… <span" in html and "mail.example.net" not in html
    # whose turn and the deadline, in UTC for the script to show in the viewer's zone
    assert ('<p id="status" aria-live="polite">Alice (White) to move, by '
            '<time datetime="2026-03-05T12:00:00Z">2026-03-05 12:00:00Z</time></p>') in html
    played = [p.text for p in await service.played_moves(game.id)]
    assert re.findall(r'<a href="\?ply=(\d)"[^>]*>([^<]+)</a>', html) == [
        ("1", played[0]), ("2", played[1])]
    # one entry a turn, numbered as in the record
    assert (f'<li><span class="turn">1.</span> <a href="?ply=1" title="White">{played[0]}</a>'
            f'</li><li><span class="turn">1...</span> <a href="?ply=2" aria-current=step '
            f'title="Black">{played[1]}</a></li>') in html
    assert '<a id="prev" href="?ply=1"' in html and '<a id="next" aria-disabled="true"' in html
    assert f'data-events="{path}/events"' in html
    alt = re.search(r'<img id="board" src="[^"]+" width="640" alt="([^"]+)"', html)
    assert alt is not None and alt[1].startswith(
        f"Clash of Command board at step 2 ({played[1]}). White: Brute a1, Commander c1,")
    assert alt[1].endswith("White to move.")
    assert "<script src" not in html and "http" not in html.split("<body")[1]


async def test_each_step_is_an_address(service: GameService, client: TestClient,
                                       game: Game) -> None:
    path = await page_of(service, game)
    html = await (await client.get(path + "?ply=1")).text()
    first = (await service.played_moves(game.id))[0].text
    assert '<a href="?ply=1" aria-current=step title="White">' in html
    assert f'<a id="last" href="{path}"' in html and '<a id="next" href="?ply=2"' in html
    assert 'data-live="0"' in html and f"Step 1 of 2: 1. {first} (White)" in html
    start = await (await client.get(path + "?ply=0")).text()
    assert "Start position" in start and "board at the start." in start
    assert '<a id="first" aria-disabled="true"' in start
    # beyond the end is the last step; words are a clear 400
    assert "Step 2 of 2" in await (await client.get(path + "?ply=99")).text()
    bad = await client.get(path + "?ply=two")
    assert bad.status == 400
    assert "&#x27;two&#x27; is not a step: give a whole number, as in ?ply=3" in await bad.text()


async def test_a_wrong_token_reads_like_a_missing_game(service: GameService, client: TestClient,
                                                       game: Game) -> None:
    token = await service.watching.watch_token(game.id)
    wrong = ("0" if token[0] != "0" else "1") + token[1:]
    answers = []
    for path in (f"/game/{game.id}-{wrong}", f"/game/999-{token}", f"/game/{game.id}",
                 f"/game/{game.id}-{wrong}/events", f"/game/{game.id}-{wrong}/board.png",
                 f"/game/{game.id}-{wrong}/replay.gif", f"/game/{game.id}-xyz"):
        response = await client.get(path)
        answers.append((response.status, await response.text()))
    assert {status for status, _ in answers} == {404}
    assert len({text for _, text in answers}) == 1 and NOT_FOUND in answers[0][1]
    # the players' own tokens (which act) are not watch tokens
    player_token = await service.tokens.game_token(game.id, game.players[0])
    assert (await client.get(f"/game/{game.id}-{player_token}")).status == 404
    # upper-case hex is the same token
    assert (await client.get(f"/game/{game.id}-{token.upper()}")).status == 200


async def test_pictures_of_past_positions_are_immutable(service: GameService, client: TestClient,
                                                        game: Game, players) -> None:
    path = await page_of(service, game)
    html = await (await client.get(path + "?ply=1")).text()
    src = re.search(r'<img id="board" src="([^"]+)"', html)[1]  # type: ignore[index]
    picture = await client.get(src)
    assert picture.status == 200 and picture.content_type == "image/png"
    assert picture.headers["Cache-Control"] == IMMUTABLE
    body = await picture.read()
    assert body.startswith(b"\x89PNG") and body[16:20] == (640).to_bytes(4, "big")  # width
    now = await client.get(path + "/board.png")
    assert now.status == 200 and now.headers["Cache-Control"] == "no-cache"
    # a picture name that does not fit the game is no picture
    assert (await client.get(src.replace(src[-20:-4], "0" * 16))).status == 404
    assert (await client.get(f"{path}/board/7-{'0' * 16}.png")).status == 404
    # after a takeback, step 2 is another position under another name
    latest = await (await client.get(path)).text()
    old = re.search(r'board/2-([0-9a-f]{16})', latest)[1]  # type: ignore[index]
    assert (await service.request_takeback(players[1], game.id)).ok
    assert (await service.accept_takeback(players[0], game.id)).ok
    assert (await client.get(f"{path}/board/2-{old}.png")).status == 404


async def test_replays_download_as_gif_and_apng(service: GameService, client: TestClient,
                                                game: Game) -> None:
    path = await page_of(service, game)
    gif = await client.get(path + "/replay.gif")
    assert gif.status == 200 and gif.content_type == "image/gif"
    assert (await gif.read()).startswith(b"GIF89a")
    assert gif.headers["Content-Disposition"] == f'attachment; filename="game-{game.id}.gif"'
    apng = await client.get(path + "/replay.png")
    data = await apng.read()
    assert data.startswith(b"\x89PNG") and b"acTL" in data
    again = await client.get(path + "/replay.png", headers={"If-None-Match": apng.headers["ETag"]})
    assert again.status == 304


async def test_live_lists_public_games_only(service: GameService, client: TestClient,
                                            game: Game, players) -> None:
    by_mail = await start_game(service, *players, place="email:bob@mail.example.net")
    html = await (await client.get("/live")).text()
    token = await service.watching.watch_token(game.id)
    assert f'<a href="/game/{game.id}-{token}">#{game.id} Alice vs bob@…</a>' in html
    assert f"#{by_mail.id} " not in html
    assert (await client.get("/", allow_redirects=False)).headers["Location"] == "/live"


async def test_rules_pages_show_the_documents_with_diagrams(client: TestClient) -> None:
    response = await client.get("/rules/clash")
    assert response.status == 200 and response.headers["Cache-Control"] == "public, max-age=3600"
    html = await response.text()
    assert "<h1>Clash of Command</h1>" in html and "<th>move</th>" in html
    commander = await (await client.get("/rules/cotulenh")).text()
    assert "<h1>Commander Chess (Cờ Tư Lệnh)</h1>" in commander
    diagrams = re.findall(r'<img src="(diagrams/[a-z0-9-]+\.png)"', html)
    assert diagrams
    picture = await client.get("/rules/" + diagrams[0])
    assert picture.status == 200 and (await picture.read()).startswith(b"\x89PNG")
    assert picture.headers["Cache-Control"] == "public, max-age=86400"
    assert (await client.get("/rules/micro-chieftain")).status == 200
    missing = await client.get("/rules/checkers")
    assert missing.status == 404
    assert "The variants are clash, commander, combined-arms" in await missing.text()
    assert (await client.get("/rules/diagrams/..%2Fclash.md")).status == 404
    assert (await client.get("/rules/diagrams/nothing.png")).status == 404


async def test_read_only_and_unknown_addresses(client: TestClient, service, game) -> None:
    path = await page_of(service, game)
    posted = await client.post(path, data="move e2-e4")
    assert posted.status == 405 and posted.headers["Allow"] == "GET, HEAD"
    assert "This site is read-only" in await posted.text()
    missing = await client.get("/admin")
    assert missing.status == 404 and missing.headers["Content-Security-Policy"] == CSP


async def test_one_address_is_slowed_down(service: GameService, game: Game,
                                          web_settings: Settings) -> None:
    settings = Settings(db_path=web_settings.db_path, web_rate_limit=6)  # bursts of 2
    async with TestClient(TestServer(make_app(service, settings))) as client:
        statuses = [(await client.get("/live")).status for _ in range(3)]
        assert statuses == [200, 200, 429]
        refused = await client.get("/live")
        assert refused.headers["Retry-After"] == "10"
        assert "Too many requests from your address" in await refused.text()


async def read_event(stream, name: str = "state") -> dict:
    """The data of the next event called ``name`` on an event stream."""
    event = None
    while True:
        line = (await stream.content.readline()).decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == name:
            return json.loads(line[6:])


async def test_the_event_stream_receives_a_move_played_through_the_service(
        service: GameService, client: TestClient, game: Game,
        players: tuple[Player, Player]) -> None:
    path = await page_of(service, game)
    stream = await client.get(path + "/events")
    assert stream.status == 200
    assert stream.headers["Content-Type"] == "text/event-stream"
    assert stream.headers["Cache-Control"] == "no-cache"
    first = await asyncio.wait_for(read_event(stream), 5)
    assert first["ply"] == 2 and first["status"] == "Alice (White) to move, by"
    text = await play(service, game.id, players[0])
    moved = await asyncio.wait_for(read_event(stream), 5)
    assert moved["ply"] == 3 and moved["turns"][-1] == ["2.", text, 2, 3, True, "White"]
    assert moved["status"] == "bob@… (Black) to move, by"
    assert moved["board"].startswith(f"{path}/board/3-")
    assert (await client.get(moved["board"])).status == 200
    # a resignation is no move: the stream hears of it by comparing versions
    assert (await service.resign(players[1], game.id)).ok
    await client.server.app[SITE].hub.poll_once()
    over = await asyncio.wait_for(read_event(stream), 5)
    assert over["over"] is True and over["deadline"] is None
    assert over["status"] == "Game over: Alice (White) wins: bob@… resigned (1-0)."
    stream.close()
