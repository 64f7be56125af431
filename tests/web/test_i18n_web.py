"""The spectators' pages in the reader's language: chosen by the page's switch (``?lang=``,
then remembered in a cookie), else by the browser's Accept-Language, else English; every
word of every page, refusal and live update from the catalogue; the deadline in the
reader's words; and what strangers send as a language read in bounded, linear time.

Vietnamese is not offered yet (`bot.i18n.OFFERED`): these tests offer it (the ``offered``
fixture), which ships it once the catalogue translates every message of the template."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot import i18n
from bot.config import Settings
from bot.service import GameService
from bot.service.model import Game, Player
from bot.storage import StorageError
from bot.web import language
from bot.web.server import SITE, Site, make_app

from .conftest import play, port_in_use
from .test_browser import board_loaded, browser_installed, chromium, until  # noqa: F401
from .test_routes import read_event
from .test_runner import make_database

VI = {"Accept-Language": "vi"}
SWITCH_VI = ('<nav class="languages" aria-label="Ngôn ngữ"><a href="?lang=en" hreflang="en" '
             'lang="en">English</a> · <a lang="vi" aria-current="true">Tiếng Việt</a></nav>')


async def game_path(service: GameService, game: Game) -> str:
    return f"/game/{game.id}-{await service.watching.watch_token(game.id)}"


def body(html: str) -> str:
    """The page's own HTML, between its stylesheet and its script."""
    return html.split("<body", 1)[1].split("<script>", 1)[0]


# --- Vietnamese, asked by the browser ------------------------------------------------
async def test_a_game_page_in_vietnamese(offered: None, service: GameService,
                                         client: TestClient, game: Game) -> None:
    path = await game_path(service, game)
    played = [p.text for p in await service.played_moves(game.id)]
    response = await client.get(path, headers={"Accept-Language": "vi-VN,vi;q=0.9,en;q=0.8"})
    assert response.status == 200
    assert response.headers["Content-Language"] == "vi"
    assert response.headers["Vary"] == "Accept-Language, Cookie"
    assert "Set-Cookie" not in response.headers  # nothing chosen: nothing remembered
    html = await response.text()
    assert html.startswith('<!doctype html>\n<html lang="vi"><head>')
    assert "<title>Ván #1: Alice đấu với bob@… — commandpost</title>" in html
    token = path.rpartition("-")[2]
    assert body(html) == (
        f' data-events="{path}/events" data-live="1" data-ply="2">'
        "<header><h1>Ván #1: Alice đấu với bob@…</h1><span>Đại chiến Chỉ huy · "
        '<a href="/rules/clash">luật chơi</a></span></header>'
        '<main class="game"><section class="board" aria-label="Bàn cờ">'
        f'<img id="board" src="/game/1-{token}/board/2-'
        + re.search(r"board/2-([0-9a-f]{16})\.png", html)[1]  # type: ignore[index]
        + f'.png?lang=vi" width="640" alt="Bàn cờ Đại chiến Chỉ huy ở bước 2 ({played[1]}). '
        "Trắng: Lực sĩ a1, Tư lệnh c1, Tư lệnh e1, Tư lệnh g1, Lực sĩ i1, Công xưởng b2, "
        "Công xưởng d2, Công xưởng f2, Công xưởng h2, Tư lệnh a3, Người máy c3, Diều hâu e3, "
        "Người máy g3, Diều hâu i3. Đen: Người máy a5, Người máy c7, Diều hâu e7, Người máy g7, "
        "Công xưởng b8, Công xưởng d8, Công xưởng f8, Công xưởng h8, "
        'Lực sĩ a9, Tư lệnh c9, Tư lệnh e9, Tư lệnh g9, Tư lệnh i9. Đến lượt Trắng đi.">'
        '<nav class="steps" aria-label="Các bước">'
        '<a id="first" href="?ply=0" aria-label="Thế cờ đầu tiên">«</a> '
        '<a id="prev" href="?ply=1" aria-label="Bước trước">◀</a> '
        '<a id="next" aria-disabled="true" aria-label="Bước sau">▶</a> '
        '<a id="last" aria-disabled="true" aria-label="Thế cờ mới nhất">»</a> '
        f'<span id="shown" aria-live="polite">Bước 2/2: 1... {played[1]} (Đen)</span></nav>'
        '<p class="note">Phím: ← → đi từng bước, Home/End về đầu/mới nhất. Xem lại cả ván: '
        f'<a href="{path}/replay.gif?lang=vi" download>GIF</a> · '
        f'<a href="{path}/replay.png?lang=vi" download>PNG động</a></p></section>'
        '<section><h2>Người chơi</h2><ul class="players">'
        '<li><span class="swatch c-white" aria-hidden="true"></span>Alice '
        '<span class="side">(Trắng, điểm xếp hạng 1500?)</span></li>'
        '<li><span class="swatch c-black" aria-hidden="true"></span>bob@… '
        '<span class="side">(Đen, điểm xếp hạng 1500?)</span></li></ul>'
        '<p id="status" aria-live="polite">Đến lượt Alice (Trắng), hạn chót '
        '<time datetime="2026-03-05T12:00:00Z">12:00:00 UTC 5 tháng 3, 2026</time></p>'
        '<h2>Các nước đi</h2><ol class="moves" id="moves">'
        f'<li><span class="turn">1.</span> <a href="?ply=1" title="Trắng">{played[0]}</a></li>'
        f'<li><span class="turn">1...</span> <a href="?ply=2" aria-current=step '
        f'title="Đen">{played[1]}</a></li></ol></section></main>' + SWITCH_VI)


async def test_the_start_and_a_step_in_vietnamese(offered: None, service: GameService,
                                                  client: TestClient, game: Game) -> None:
    path = await game_path(service, game)
    first = (await service.played_moves(game.id))[0].text
    start = await (await client.get(path + "?ply=0", headers=VI)).text()
    assert '<span id="shown" aria-live="polite">Thế cờ ban đầu</span>' in start
    assert 'alt="Bàn cờ Đại chiến Chỉ huy lúc bắt đầu ván. Trắng: Tư lệnh a1,' in start
    step = await (await client.get(path + "?ply=1", headers=VI)).text()
    assert f"Bước 1/2: 1. {first} (Trắng)" in step
    # the switch keeps the step shown
    assert '<a href="?ply=1&amp;lang=en" hreflang="en" lang="en">English</a>' in step


async def test_the_list_of_games_and_a_rules_page_in_vietnamese(
        offered: None, service: GameService, client: TestClient, game: Game) -> None:
    live = await (await client.get("/live", headers=VI)).text()
    token = await service.watching.watch_token(game.id)
    assert body(live) == (
        "><header><h1>Các ván đang diễn ra</h1></header><main><ul>"
        f'<li><a href="/game/1-{token}">#1 Alice đấu với bob@…</a> '
        '<span class="side">Đại chiến Chỉ huy · Đến lượt Alice (Trắng)</span></li></ul>'
        '<p class="note">Luật chơi: <a href="/rules/clash">Đại chiến Chỉ huy</a> · '
        '<a href="/rules/commander">Cờ Tư Lệnh</a> · '
        '<a href="/rules/combined-arms">Binh chủng hợp thành</a> · '
        '<a href="/rules/mini-chieftain">Thủ lĩnh</a></p></main>' + SWITCH_VI)
    rules = await client.get("/rules/clash", headers=VI)
    html = await rules.text()
    assert rules.headers["Vary"] == "Accept-Language, Cookie"
    assert "<title>Luật chơi Đại chiến Chỉ huy — commandpost</title>" in html
    assert '<p><a href="/live">Các ván đang diễn ra</a></p>' in html


async def test_the_refusals_in_vietnamese(offered: None, service: GameService,
                                          client: TestClient, game: Game,
                                          web_settings: Settings) -> None:
    path = await game_path(service, game)

    async def refusal(address: str, method: str = "GET") -> tuple[int, str]:
        response = await client.request(method, address, headers=VI)
        html = await response.text()
        heading = re.search(r"<h1>(.*?)</h1><p>(.*?)</p>", html)
        assert heading is not None and '<a href="/live">Các ván đang diễn ra</a>' in html
        assert html.startswith('<!doctype html>\n<html lang="vi">')
        return response.status, f"{heading[1]}: {heading[2]}"

    assert await refusal(f"/game/{game.id}-0") == (
        404, "Không tìm thấy: Không có ván nào ở địa chỉ này. Hãy kiểm tra lại đường dẫn bạn "
             "nhận được.")
    assert await refusal(path + "?ply=two") == (
        400, "Yêu cầu không hợp lệ: &#x27;two&#x27; không phải là một bước: hãy ghi một số "
             "nguyên, ví dụ ?ply=3 (0 là đầu ván).")
    assert await refusal(path + "?ply=1000000") == (
        400, "Yêu cầu không hợp lệ: &#x27;1000000&#x27; không phải là một bước của ván này: "
             "hãy chọn một bước từ 0 (đầu ván) đến bước cuối, ví dụ ?ply=3.")
    assert await refusal(f"{path}/board/7-{'0' * 16}.png") == (
        404, "Không tìm thấy: Hình này không còn thuộc ván cờ nữa (một nước đi đã được rút "
             "lại). Hãy mở lại trang của ván.")
    assert await refusal("/rules/checkers") == (
        404, "Không tìm thấy: Không có tài liệu luật chơi nào mang tên đó. Các biến thể gồm: "
             "clash, commander, combined-arms, mini-chieftain và micro-chieftain.")
    assert await refusal("/rules/diagrams/nothing.png") == (
        404, "Không tìm thấy: Không có sơ đồ này.")
    assert await refusal("/admin") == (404, "Không tìm thấy: Không có gì ở địa chỉ này.")
    assert await refusal(path, "POST") == (
        405, "Chỉ để xem: Trang này chỉ để xem: ở đây không thể thay đổi gì.")
    slow = Settings(db_path=web_settings.db_path, web_rate_limit=3)  # bursts of 1
    async with TestClient(TestServer(make_app(service, slow))) as limited:
        assert (await limited.get("/live")).status == 200
        refused = await limited.get("/live", headers=VI)
        assert refused.status == 429
        assert "<h1>Chậm lại một chút</h1><p>Địa chỉ của bạn gửi quá nhiều yêu cầu; hãy chờ " \
               "một lát rồi thử lại.</p>" in await refused.text()


async def test_the_live_updates_speak_each_viewers_language(
        offered: None, service: GameService, client: TestClient, game: Game,
        players: tuple[Player, Player]) -> None:
    """Two pages open on one game, one in Vietnamese and one in English: a move reaches
    each in its own words."""
    path = await game_path(service, game)
    vi = await client.get(path + "/events", headers=VI)
    en = await client.get(path + "/events", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert vi.headers["Content-Language"] == "vi" and en.headers["Content-Language"] == "en"
    first = await asyncio.wait_for(read_event(vi), 5)
    assert first["status"] == "Đến lượt Alice (Trắng), hạn chót"
    assert first["shown"].startswith("Bước 2/2: 1... ")
    assert (await asyncio.wait_for(read_event(en), 5))["status"] == "Alice (White) to move, by"
    text = await play(service, game.id, players[0])
    moved = await asyncio.wait_for(read_event(vi), 5)
    assert moved["status"] == "Đến lượt bob@… (Đen), hạn chót"
    assert moved["shown"] == f"Bước 3/3: 2. {text} (Trắng)"
    assert moved["alt"].startswith(f"Bàn cờ Đại chiến Chỉ huy ở bước 3 ({text}). Trắng: ")
    english = await asyncio.wait_for(read_event(en), 5)
    assert english["status"] == "bob@… (Black) to move, by"
    assert english["shown"] == f"Step 3 of 3: 2. {text} (White)"
    assert (await service.resign(players[1], game.id)).ok
    await client.server.app[SITE].hub.poll_once()
    over = await asyncio.wait_for(read_event(vi), 5)
    assert over["status"].startswith("Ván đấu kết thúc: ")  # the result: the service's words
    vi.close()
    en.close()


# --- the switch ----------------------------------------------------------------------
async def test_the_switch_chooses_and_remembers_the_language(
        offered: None, service: GameService, client: TestClient, game: Game) -> None:
    path = await game_path(service, game)
    # the English page offers Vietnamese, named in Vietnamese
    english = await (await client.get(path)).text()
    assert english.startswith('<!doctype html>\n<html lang="en">')
    assert ('<nav class="languages" aria-label="Language"><a lang="en" aria-current="true">'
            'English</a> · <a href="?lang=vi" hreflang="vi" lang="vi">Tiếng Việt</a></nav>'
            ) in english
    # the link chooses Vietnamese, whatever the browser asks, and the cookie keeps it
    chosen = await client.get(path + "?lang=vi", headers={"Accept-Language": "en"})
    assert chosen.headers["Content-Language"] == "vi"
    cookie = chosen.cookies["lang"]
    assert cookie.value == "vi" and cookie["path"] == "/" and cookie["samesite"] == "Lax"
    assert cookie["httponly"] and int(cookie["max-age"]) == 365 * 24 * 3600
    assert "<h2>Người chơi</h2>" in await chosen.text()
    # the next pages, without the parameter, stay in Vietnamese
    later = await client.get("/live", headers={"Accept-Language": "en"})
    assert '<html lang="vi">' in await later.text() and "Set-Cookie" not in later.headers
    # choosing English again
    back = await client.get(path + "?ply=1&lang=en", headers=VI)
    assert back.cookies["lang"].value == "en"
    assert "<h2>Players</h2>" in await back.text()
    assert '<html lang="en">' in await (await client.get("/live", headers=VI)).text()


async def test_a_shared_link_opens_in_its_language(offered: None, service: GameService,
                                                   client: TestClient, game: Game,
                                                   web_settings: Settings) -> None:
    path = await game_path(service, game)
    async with TestClient(TestServer(make_app(service, web_settings))) as stranger:
        html = await (await stranger.get(path + "?ply=1&lang=vi")).text()
        assert '<html lang="vi">' in html and "Bước 1/2" in html


@pytest.mark.parametrize(("header", "chosen"), [
    ("vi", "vi"),
    ("vi-VN", "vi"),
    ("en-US,en;q=0.9,vi;q=0.8", "en"),
    ("fr-FR, vi;q=0.5, en;q=0.4", "vi"),  # French is not shipped: the next most wanted
    ("en;q=0.5, vi", "vi"),  # by weight, not by place
    ("vi;q=0, en", "en"),  # weighted 0: not acceptable
    ("vi;q=abc", "en"),  # a weight that is none
    ("*", "en"),
    ("", "en"),
])
async def test_the_browsers_languages_by_weight(offered: None, client: TestClient,
                                                header: str, chosen: str) -> None:
    response = await client.get("/live", headers={"Accept-Language": header})
    assert response.headers["Content-Language"] == chosen
    assert f'<html lang="{chosen}">' in await response.text()


async def test_vietnamese_is_not_chosen_while_it_is_not_offered(not_offered,
                                                                client: TestClient) -> None:
    response = await client.get("/live?lang=vi", headers={**VI, "Cookie": "lang=vi"})
    html = await response.text()
    assert response.headers["Content-Language"] == "en" and "Set-Cookie" not in response.headers
    assert '<html lang="en">' in html and 'class="languages"' not in html


# --- what strangers send ------------------------------------------------------------
@pytest.mark.parametrize("headers", [
    {"Accept-Language": "x" * 8000},
    {"Accept-Language": ("zz;q=0.1," * 880)[:7990] + "vi"},  # vi beyond what is read
    {"Accept-Language": ";" * 8000},
    {"Accept-Language": "," * 8000},
    {"Accept-Language": "q=" * 4000},
    {"Accept-Language": "vi;q=" + "9" * 7900},
    {"Accept-Language": "vi;q=1e400"},
    {"Accept-Language": "vi;q=nan"},
    {"Accept-Language": "ﬁ-FI,ⅵ"},
    {"Cookie": "lang=" + "v" * 7900},
    {"Cookie": "a=b; " * 1580 + "lang=vi"},  # beyond what is read
    {"Cookie": "lang"},
    {"Cookie": "=;=;=;" * 1300},
    {"Cookie": 'lang="\\x00vi"'},
    {"Cookie": "lang=xx"},
])
async def test_a_strangers_language_that_is_none_is_english(
        offered: None, service: GameService, client: TestClient, game: Game,
        headers: dict[str, str]) -> None:
    path = await game_path(service, game)
    for address in (path, "/live", path + "?lang=" + "v" * 6000, "/nothing"):
        response = await client.get(address, headers=headers)
        assert response.status in (200, 404), headers
        assert response.headers["Content-Language"] == "en"
        assert "Set-Cookie" not in response.headers


async def test_a_cookie_names_its_language_among_others(offered: None,
                                                        client: TestClient) -> None:
    response = await client.get("/live", headers={"Cookie": "theme=dark; lang=vi; x=1"})
    assert response.headers["Content-Language"] == "vi"


def test_the_languages_sent_are_read_in_order_of_weight_and_bounded() -> None:
    assert language.accepted("vi-VN,vi;q=0.9,en-US;q=0.8,en;q=0.7") == [
        "vi-VN", "vi", "en-US", "en"]
    assert language.accepted("en;q=0.2, de, vi;q=0.9") == ["de", "vi", "en"]
    assert language.accepted("vi;q=0, en;q=2, fr;q=-1") == []  # out of range: refused
    # the worst at the size limit: read only up to the bound, in one pass
    assert language.accepted("a," * 100_000) == ["a"] * language.MAX_TAGS
    assert language.accepted("vi;" + "q=1;" * 100_000) == ["vi"]
    assert language.cookie_value("lang=vi; " * 100_000) == "vi"
    assert language.cookie_value("x=" + "y" * 100_000 + "; lang=vi") is None
    assert language.wanted("v" * 100_000) is None


# --- the pseudo-language: nothing bypasses the catalogue ------------------------------
class VisibleText(HTMLParser):
    """The words a reader meets on a page: its text and its titles, labels and
    descriptions; not the stylesheet, the script, nor a rules document's own text."""

    WORDED = ("alt", "title", "aria-label")

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script") or ("class", "rules") in attrs:
            self.skipping.append(tag)
        elif not self.skipping:
            self.words += [value or "" for name, value in attrs if name in self.WORDED]

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.words.append(data)


def visible(html: str) -> str:
    reader = VisibleText()
    reader.feed(html)
    return " ".join(reader.words)


# words no message of bot/web gives: the players' names; the engine's names of variants,
# sides and pieces (the engine's texts, not the web's); the product's name; each language
# named in itself in the switch; the format GIF
ALLOWED = ["Alice", "bob", "commandpost", "English", "qps", "GIF", "Clash", "Command",
           "Commander", "Chess", "Combined", "Arms", "Chieftain", "White", "Black", "Brute",
           "Factor", "Droid", "Hawk"]


@pytest.fixture
def pseudo(offered: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The pseudo-language shipped beside English and Vietnamese."""
    def shipped() -> tuple[str, ...]:
        return (i18n.SOURCE, "vi", i18n.PSEUDO)

    shipped.cache_clear = lambda: None  # type: ignore[attr-defined]  # as the real one
    monkeypatch.setattr(i18n, "shipped", shipped)
    yield


async def test_every_page_in_the_pseudo_language_comes_from_the_catalogue(
        pseudo: None, service: GameService, client: TestClient, game: Game,
        web_settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    path = await game_path(service, game)
    cookie = {"Cookie": "lang=qps"}
    pages = {}
    for address in (path, path + "?ply=0", path + "?ply=1", "/live", "/rules/clash",
                    f"/game/{game.id}-0", path + "?ply=two", path + "?ply=1000000",
                    f"{path}/board/7-{'0' * 16}.png", "/rules/checkers",
                    "/rules/diagrams/nothing.png", "/admin"):
        pages[address] = await (await client.get(address, headers=cookie)).text()
    pages["POST"] = await (await client.post(path, headers=cookie)).text()
    slow = Settings(db_path=web_settings.db_path, web_rate_limit=3)
    async with TestClient(TestServer(make_app(service, slow))) as limited:
        await limited.get("/live")
        pages["429"] = await (await limited.get("/live", headers=cookie)).text()
    stream = await client.get(path + "/events", headers=cookie)
    event = await asyncio.wait_for(read_event(stream), 5)
    stream.close()
    pages["event"] = " ".join((event["alt"], event["shown"], event["status"]))

    async def locked(*args: object) -> None:
        raise StorageError("locked")

    watched = service.watching.watched_game
    monkeypatch.setattr(service.watching, "watched_game", locked)
    pages["503"] = await (await client.get(path, headers=cookie)).text()
    monkeypatch.setattr(service.watching, "watched_game", watched)

    async def broken(self: Site, shown: Game) -> None:
        raise RuntimeError("broken")

    monkeypatch.setattr(Site, "view", broken)
    pages["500"] = await (await client.get(path, headers=cookie)).text()
    assert all('<html lang="qps">' in html for name, html in pages.items() if name != "event")
    words = {name: i18n.untranslated(visible(html), allowed=ALLOWED)
             for name, html in pages.items()}
    assert words == {name: [] for name in pages}
    assert "[Gàméš béîñg plàýéd" in visible(pages["/live"])  # worded, not left out


# --- a real browser --------------------------------------------------------------------
@pytest.fixture
def vietnamese_browser(browser_installed: None, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    """A headless Chromium whose language is Vietnamese, in Ho Chi Minh City's time zone."""
    yield from chromium(tmp_path, ("--lang=vi", "--accept-lang=vi", "--window-size=1200,1000"),
                        language="vi")


async def test_a_vietnamese_browser_shows_the_game_in_vietnamese(
        offered: None, vietnamese_browser: Any, service: GameService, game: Game,
        players: tuple[Player, Player], web_settings: Settings) -> None:
    driver = vietnamese_browser
    app = make_app(service, web_settings)
    async with TestServer(app, host="127.0.0.1") as server:
        path = await game_path(service, game)
        await asyncio.to_thread(driver.get, str(server.make_url(path)))
        await until(driver, board_loaded)

        def read(script: str) -> Any:
            return driver.execute_script("return " + script)

        assert read("navigator.languages") == ["vi"]
        assert read("document.documentElement.lang") == "vi"
        assert read("document.title") == "Ván #1: Alice đấu với bob@… — commandpost"
        assert read("document.querySelector('h1').textContent") == "Ván #1: Alice đấu với bob@…"
        assert read("Array.from(document.querySelectorAll('h2'), h => h.textContent)") == [
            "Người chơi", "Các nước đi"]
        # the deadline in Vietnamese, in the reader's time zone: 12:00 UTC is 19:00 there
        assert read("document.getElementById('status').textContent") == (
            "Đến lượt Alice (Trắng), hạn chót 19:00 5 thg 3, 2026")
        assert read("document.querySelector('#status time').title") == (
            "lúc 19:00:00 GMT+7 Thứ Năm, 5 tháng 3, 2026")
        # the page follows the game in Vietnamese
        hub = app[SITE].hub
        for _unused in range(200):
            if hub.viewers(game.id):
                break
            await asyncio.sleep(0.025)
        text = await play(service, game.id, players[0])
        await until(driver, lambda d: d.execute_script(
            "return document.getElementById('shown').textContent") == f"Bước 3/3: 2. {text} "
                                                                      "(Trắng)", seconds=3.0)
        await until(driver, lambda d: d.execute_script(
            "return document.getElementById('status').textContent").startswith(
                "Đến lượt bob@… (Đen), hạn chót "))
        # the switch leads to English, and the choice stays
        await asyncio.to_thread(driver.execute_script,
                                "document.querySelector('a[hreflang=en]').click()")
        await until(driver, lambda d: d.execute_script(
            "return document.documentElement.lang") == "en")
        assert read("document.querySelector('h1').textContent") == "Game #1: Alice vs bob@…"
        await asyncio.to_thread(driver.get, str(server.make_url("/live")))
        assert read("document.querySelector('h1').textContent") == "Games being played"


# --- commandpost web: the host's language ----------------------------------------------
@pytest.fixture
def vietnamese_host(offered: None, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")


def test_the_command_tells_a_vietnamese_host_why_it_cannot_start(
        vietnamese_host: None, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        kept_logging: None) -> None:
    from bot.web.runner import main

    db = tmp_path / "missing.db"
    assert main(["--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"commandpost web: không có cơ sở dữ liệu nào ở {str(db)!r}; các trang web hiển thị "
        "các ván trong cơ sở dữ liệu của bot: hãy chỉ ra tệp đó bằng --db hoặc "
        "COMMANDPOST_DB\n")
    made = tmp_path / "games.db"
    asyncio.run(make_database(made))
    with port_in_use() as port:
        assert main(["--db", str(made), "--port", str(port)]) == 1
    assert capsys.readouterr().err == (
        f"commandpost web: không lắng nghe được trên 127.0.0.1:{port}: một chương trình khác "
        "đang lắng nghe ở đó (hãy chọn cổng khác bằng --port)\n")
    with pytest.raises(SystemExit):
        main(["--port", "99999"])
    assert capsys.readouterr().err.endswith(
        "'99999' không phải là một cổng: hãy cho một số từ 1 đến 65535\n")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Phục vụ các trang ván cờ để xem trên trình duyệt." in capsys.readouterr().out


async def test_a_pictures_address_names_its_language(offered: None, service: GameService,
                                                     client: TestClient, game: Game) -> None:
    path = await game_path(service, game)
    html = await (await client.get(path, headers=VI)).text()
    src = re.search(r'<img id="board" src="([^"]+)"', html)[1]  # type: ignore[index]
    assert src.endswith(".png?lang=vi")
    vietnamese = await client.get(src, headers=VI)
    english = await client.get(src.removesuffix("?lang=vi"), headers=VI)  # the address decides
    assert vietnamese.status == english.status == 200
    assert "Set-Cookie" not in vietnamese.headers  # a picture remembers no language
    assert await vietnamese.read() != await english.read()
    again = await client.get(src.removesuffix("?lang=vi"))
    assert await again.read() == await english.read()
