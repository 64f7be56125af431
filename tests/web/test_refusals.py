"""Requests from strangers: no address, parameter or failure makes a 500 or a traceback;
each refusal is a page of the site (its style, its security headers) with a 4xx status
and words saying what is wrong; players are shown by name, never by address."""

from __future__ import annotations

import io

import pytest
from aiohttp.test_utils import TestClient

from bot.service import GameService
from bot.service.model import Game, Player
from bot.storage import StorageError
from bot.web.pages import CSP, STYLE
from bot.web.server import BROKEN, DAMAGED, UNAVAILABLE, Site
from bot.web.views import public_name

from .conftest import start_game

NOT_FOUND = "There is no game at this address. Check the link you were given."
NOT_A_STEP = "is not a step: give a whole number, as in ?ply=3 (0 is the start)."


async def game_path(service: GameService, game: Game) -> str:
    return f"/game/{game.id}-{await service.watching.watch_token(game.id)}"


async def refused(client: TestClient, path: str, status: int, heading: str, text: str) -> None:
    """``path`` is answered with ``status``: the site's page, ``heading`` and ``text``."""
    response = await client.get(path)
    html = await response.text()
    assert (response.status, response.content_type) == (status, "text/html"), html[:300]
    assert response.headers["Content-Security-Policy"] == CSP
    assert f"<style>{STYLE}</style>" in html and f"<h1>{heading}</h1>" in html
    assert f"<p>{text}</p>" in html


@pytest.mark.parametrize(("ply", "shown"), [
    ("²", "&#x27;²&#x27;"),  # str.isdigit() says yes, int() says no
    ("①", "&#x27;①&#x27;"),
    ("٣", "&#x27;٣&#x27;"),  # an Arabic-Indic three: int() would take it
    ("-1", "&#x27;-1&#x27;"),
    ("%203", "&#x27; 3&#x27;"),
    ("", "&#x27;&#x27;"),
])
async def test_a_step_is_ascii_digits_and_bounded(service: GameService, client: TestClient,
                                                  game: Game, ply: str, shown: str) -> None:
    path = await game_path(service, game)
    await refused(client, f"{path}?ply={ply}", 400, "Bad request", f"{shown} {NOT_A_STEP}")


@pytest.mark.parametrize(("ply", "shown"), [
    ("9" * 5000, f"&#x27;{'9' * 23}…&#x27;"),  # quoted back cut short
    ("1000000", "&#x27;1000000&#x27;"),  # at most six digits: no game has a million steps
])
async def test_a_step_of_more_digits_than_any_game_has_steps_is_refused_as_such(
        service: GameService, client: TestClient, game: Game, ply: str, shown: str) -> None:
    path = await game_path(service, game)
    await refused(client, f"{path}?ply={ply}", 400, "Bad request",
                  f"{shown} is not a step of this game: give a step from 0 (the start) to the "
                  f"last, as in ?ply=3.")


async def test_a_step_of_six_digits_shows_the_last_step(service: GameService,
                                                        client: TestClient, game: Game) -> None:
    html = await (await client.get(await game_path(service, game) + "?ply=999999")).text()
    assert "Step 2 of 2" in html


@pytest.mark.parametrize("key", [
    "0-0",  # game 0: the service refuses the number before looking (a Refusal, not a game)
    "0-{token}",
    "١-{token}",  # an Arabic-Indic one
    "1²-{token}",
    "99999999999999999999-{token}",  # beyond the largest number stored
    "1-{token}" + "0" * 5000,
    "1-" + "x" * 7000,  # under aiohttp's 8,190 bytes of request line
    "1-%00",
])
async def test_a_game_address_that_is_none_is_not_found(service: GameService, client: TestClient,
                                                        game: Game, key: str) -> None:
    token = await service.watching.watch_token(game.id)
    path = "/game/" + key.format(token=token)
    await refused(client, path, 404, "Not found", NOT_FOUND)
    await refused(client, path + "/board.png", 404, "Not found", NOT_FOUND)


async def test_other_addresses_that_are_none(service: GameService, client: TestClient,
                                             game: Game) -> None:
    path = await game_path(service, game)
    nothing = "There is nothing at this address."
    await refused(client, f"{path}/board/١-{'0' * 16}.png", 404, "Not found", nothing)
    await refused(client, f"{path}/board/1234567-{'0' * 16}.png", 404, "Not found", nothing)
    rules = ("There is no rules document of that name. The variants are clash, commander, "
             "combined-arms, mini-chieftain and micro-chieftain.")
    await refused(client, "/rules/" + "clash" * 1400, 404, "Not found", rules)
    await refused(client, "/rules/%00", 404, "Not found", rules)
    diagram = "There is no such diagram."
    await refused(client, "/rules/diagrams/" + "a" * 5000 + ".png", 404, "Not found", diagram)
    await refused(client, "/rules/diagrams/%ff.png", 404, "Not found", diagram)
    # a request line beyond 8,190 bytes is refused by aiohttp itself, before any page
    assert (await client.get("/rules/" + "clash" * 2000)).status == 400


async def test_a_database_that_cannot_be_read_is_a_503_page(
        service: GameService, client: TestClient, game: Game,
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = await game_path(service, game)

    async def locked(*args: object) -> None:
        raise StorageError("the database is locked by another program")

    monkeypatch.setattr(service.watching, "watched_game", locked)
    await refused(client, path, 503, "Not available just now", UNAVAILABLE)
    assert (await client.get(path)).headers["Retry-After"] == "60"


async def test_a_fault_of_ours_is_a_plain_page_and_a_redacted_log_line(
        service: GameService, client: TestClient, game: Game, log_lines: io.StringIO,
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = await game_path(service, game)

    async def broken(self: Site, shown: Game) -> None:
        raise RuntimeError(f"no view of {path} for zoe@localhost")

    monkeypatch.setattr(Site, "view", broken)
    await refused(client, path, 500, "Something went wrong", BROKEN)
    logged = log_lines.getvalue()
    token = path.rpartition("-")[2]
    assert "ERROR bot.web.server a page failed\nTraceback" in logged
    assert f"RuntimeError: no view of /game/{game.id}-[key] for zoe@localhost" in logged
    assert token not in logged


async def test_addresses_are_never_shown_only_names(service: GameService, client: TestClient,
                                                    players: tuple[Player, Player]) -> None:
    zoe = await service.player("email", "zoe@localhost", "zoe@localhost")
    assert isinstance(zoe, Player)
    game = await start_game(service, players[0], zoe)
    live = await (await client.get("/live")).text()
    assert f"#{game.id} Alice vs zoe@…</a>" in live
    page = await (await client.get(await game_path(service, game))).text()
    assert "zoe@…" in page and "localhost" not in live + page


@pytest.mark.parametrize(("name", "shown"), [
    ("zoe@localhost", "zoe@…"),
    ("bob@mail.example.net", "bob@…"),
    ("ann@[192.0.2.7]", "ann@…"),
    ('"ann lee"@example.org', '"ann lee"@…'),
    ("Game over: zoe@localhost (White) wins: bob@x.example resigned (1-0).",
     "Game over: zoe@… (White) wins: bob@… resigned (1-0)."),
    ("Alice", "Alice"),
    ("@alice", "@alice"),  # no address: nothing before the @
])
def test_public_names_lose_the_domain_of_every_address(name: str, shown: str) -> None:
    assert public_name(name) == shown


async def test_a_damaged_game_is_a_page_saying_so(service: GameService, client: TestClient,
                                                  game: Game) -> None:
    """A position stored after a step that does not read: that game's step pages say it is
    damaged (404: nothing to retry); its other pages and the other games show."""
    path = await game_path(service, game)
    async with service.db.transaction() as s:
        await s.execute("UPDATE moves SET fen = 'x/y/z w 1' WHERE game_id = ? AND ply = 0",
                        (game.id,))
    await refused(client, f"{path}?ply=1", 404, "Not found", DAMAGED)
    assert (await client.get("/live")).status == 200
