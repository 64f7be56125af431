"""The game page in a real browser: headless Chromium driven by Selenium (Debian's
``chromium`` and ``chromium-driver``). The browser is installed by the test set-up when it
is missing and the tests run as root; a browser that cannot start fails the test with the
command that installs it."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from PIL import Image

from bot.config import Settings
from bot.service import GameService
from bot.service.model import Game, Player
from bot.web.server import SITE, make_app

from .conftest import play
from .test_move_list import GAMES, data_game, page_path, record_lines

# Debian's packages put both on the PATH; selenium is pointed at this driver and never
# downloads one of its own
BINARIES = ("chromium", "chromedriver")
INSTALL = "apt-get update && apt-get install -y chromium chromium-driver"
WINDOW = (1200, 1000)


def _found() -> bool:
    return all(shutil.which(name) for name in BINARIES)


def _install() -> str:
    """Install the browser when it is missing and we may; what went wrong, if anything."""
    if _found():
        return ""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "not running as root with apt-get"
    command = ["apt-get", "install", "-y", "-q", "chromium", "chromium-driver"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run(command, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            return done.stderr[-500:]
    return ""


@pytest.fixture(scope="session")
def browser_installed() -> None:
    problem = _install()
    if problem or not _found():
        pytest.fail(f"headless Chromium is not installed ({problem or 'binaries missing'}); "
                    f"install it with: {INSTALL}")


@pytest.fixture
def driver(browser_installed: None, tmp_path: Path) -> Iterator[Any]:
    """A headless Chromium in the Asia/Ho_Chi_Minh time zone (UTC+7, no summer time)."""
    yield from chromium(tmp_path, ("--lang=en-US", f"--window-size={WINDOW[0]},{WINDOW[1]}"))


def chromium(tmp_path: Path, flags: tuple[str, ...], language: str | None = None
             ) -> Iterator[Any]:
    """A headless Chromium with ``flags`` (and, given a ``language``, that language asked
    of every page and used by its system), in the Asia/Ho_Chi_Minh time zone; it quits
    when the test is done."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", *flags):
        options.add_argument(flag)
    env = {**os.environ, "TZ": "Asia/Ho_Chi_Minh"}
    if language is not None:
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
        env["LANGUAGE"] = language
    service = Service(executable_path=shutil.which("chromedriver"), env=env)
    try:
        browser = webdriver.Chrome(options=options, service=service)
    except Exception as err:
        pytest.fail(f"headless Chromium did not start ({err}); install it with: {INSTALL}")
    try:
        yield browser
    finally:
        browser.quit()


async def until(driver: Any, check: Callable[[Any], Any], seconds: float = 5.0) -> Any:
    """Wait (in a thread, so that the server goes on serving) until ``check`` holds."""
    from selenium.webdriver.support.ui import WebDriverWait

    return await asyncio.to_thread(
        WebDriverWait(driver, seconds, poll_frequency=0.05).until, check)


async def press(driver: Any, key: str) -> None:
    from selenium.webdriver.common.by import By

    body = await asyncio.to_thread(driver.find_element, By.TAG_NAME, "body")
    await asyncio.to_thread(body.send_keys, key)


def current_step(driver: Any) -> str:
    return driver.execute_script(
        "var a = document.querySelector('#moves a[aria-current=step]');"
        "return a ? a.textContent : '';")


def board_loaded(driver: Any) -> bool:
    return driver.execute_script(
        "var i = document.getElementById('board'); return i.complete && i.naturalWidth > 0;")


async def test_watching_a_game_in_a_browser(driver: Any, service: GameService, game: Game,
                                            players: tuple[Player, Player],
                                            web_settings: Settings, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    app = make_app(service, web_settings)
    async with TestServer(app, host="127.0.0.1") as server:
        path = (await service.watching.game_link(game.id) or "").removeprefix("https://games.example.org")
        url = str(server.make_url(path))
        played = [p.text for p in await service.played_moves(game.id)]
        await asyncio.to_thread(driver.get, url)
        await until(driver, board_loaded)
        # the deadline in the viewer's time zone: 12:00 UTC is 7 PM in Ho Chi Minh City
        deadline = driver.execute_script("return document.querySelector('#status time')"
                                         ".textContent")
        assert deadline == "Mar 5, 2026, 7:00 PM"
        # and in full as its hover title, in the page's language
        assert driver.execute_script("return document.querySelector('#status time').title") \
            == "Thursday, March 5, 2026 at 7:00:00 PM GMT+7"
        # stepping with the keyboard: each step is an address
        await press(driver, Keys.HOME)
        await until(driver, lambda d: d.current_url.endswith("?ply=0"))
        await until(driver, board_loaded)
        assert current_step(driver) == ""
        await press(driver, Keys.ARROW_RIGHT)
        await until(driver, lambda d: d.current_url.endswith("?ply=1"))
        assert current_step(driver) == played[0]
        await press(driver, Keys.ARROW_RIGHT)
        await until(driver, lambda d: d.current_url.endswith("?ply=2"))
        await press(driver, Keys.ARROW_LEFT)
        await until(driver, lambda d: d.current_url.endswith("?ply=1"))
        await press(driver, Keys.END)
        await until(driver, lambda d: d.current_url == url)
        assert current_step(driver) == played[1]
        # the page follows the game: a move played through the service shows within 2 s
        hub = app[SITE].hub
        for _ in range(200):
            if hub.viewers(game.id):
                break
            await asyncio.sleep(0.025)
        assert hub.viewers(game.id) == 1
        old_src = driver.execute_script("return document.getElementById('board').src")
        started = time.monotonic()
        text = await play(service, game.id, players[0])
        await until(driver, lambda d: current_step(d) == text, seconds=2.0)
        assert time.monotonic() - started < 2.0
        await until(driver, lambda d: d.execute_script(
            "return document.getElementById('board').src") != old_src)
        await until(driver, board_loaded)
        status = driver.execute_script("return document.getElementById('status').textContent")
        assert status.startswith("bob@… (Black) to move, by ")
        alt = driver.execute_script("return document.getElementById('board').alt")
        assert alt.startswith(f"Clash of Command board at step 3 ({text}). White: ")
        shot = tmp_path / "game-page.png"
        assert await asyncio.to_thread(driver.save_screenshot, str(shot))
        rect = driver.execute_script(
            "var r = document.getElementById('board').getBoundingClientRect();"
            "return [r.left, r.top, r.width, r.height, window.devicePixelRatio];")
    image = Image.open(shot).convert("RGB")
    viewport = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    assert image.size == tuple(viewport)
    left, top, width, height, ratio = rect
    assert ratio == 1 and 300 <= width <= 640 and height > width
    board = image.crop((int(left), int(top), int(left + width), int(min(top + height,
                                                                         image.height))))
    colours = board.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50  # a drawn board, not a blank box
    assert board.convert("L").getextrema()[1] - board.convert("L").getextrema()[0] > 100


def move_list(driver: Any) -> list[str]:
    """The move list's entries as the browser shows them."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#moves li'), li => li.textContent);")


async def test_the_move_list_in_a_browser_is_the_records(
        driver: Any, service: GameService, players: tuple[Player, Player],
        web_settings: Settings) -> None:
    """A Commander Chess deploy closed by `end`, and Chieftain turns of two moves typed move
    by move and on one line: the page lists each turn as the export writes it, also as it
    follows the game (the list then drawn by the page's script)."""
    app = make_app(service, web_settings)
    async with TestServer(app, host="127.0.0.1") as server:
        for name in ("commander-deploy", "chieftain-move-by-move", "chieftain-one-line"):
            game = await data_game(service, players, name)
            url = str(server.make_url(await page_path(service, game)))
            await asyncio.to_thread(driver.get, url)
            await until(driver, board_loaded)
            assert move_list(driver) == await record_lines(service, game.id) \
                == GAMES[name]["record"], name
        # the `end` step of the deploy: its entry is the current one, its board loads
        deploy = await data_game(service, players, "commander-deploy")
        url = str(server.make_url(await page_path(service, deploy)))
        await asyncio.to_thread(driver.get, url + "?ply=8")
        await until(driver, board_loaded)
        assert current_step(driver) == "I<T>e6"
        assert driver.execute_script("return document.getElementById('shown').textContent") \
            == "Step 8 of 9: 4. I<T>e6 (Red)"
        # a game followed live: its last turns arrive through the event stream, the second
        # typed move by move, and the script's list is the record's
        data = GAMES["chieftain-move-by-move"]
        game = await data_game(service, players, "chieftain-move-by-move", inputs=6)
        url = str(server.make_url(await page_path(service, game)))
        await asyncio.to_thread(driver.get, url)
        await until(driver, board_loaded)
        hub = app[SITE].hub
        for _ in range(200):
            if hub.viewers(game.id):
                break
            await asyncio.sleep(0.025)
        for mover, text in zip((0, 1), data["inputs"][6:8], strict=True):
            assert (await service.move(players[mover], game.id, text)).ok
        # a turn going on: its steps so far, marked as such
        await until(driver, lambda d: move_list(d)[-2:] == ["3. Cd2-c3", "3... Nh5-g3 …"],
                    seconds=3.0)
        assert current_step(driver) == "Nh5-g3"
        assert (await service.move(players[1], game.id, "end")).ok
        await until(driver, lambda d: move_list(d) == data["record"], seconds=3.0)
        assert move_list(driver) == await record_lines(service, game.id)
        assert current_step(driver) == "Nh5-g3, end"
        # the step inside that turn: the whole game listed, the turn's steps so far named
        await asyncio.to_thread(driver.get, url + "?ply=8")
        await until(driver, board_loaded)
        assert move_list(driver) == data["record"] and current_step(driver) == "Nh5-g3, end"
        assert driver.execute_script("return document.getElementById('shown').textContent") \
            == "Step 8 of 9: 3... Nh5-g3 … (Black)"


async def test_a_long_name_wraps_on_a_phone_and_the_result_ends_the_list(
        driver: Any, service: GameService, players: tuple[Player, Player],
        web_settings: Settings) -> None:
    """A name of 40 letters without a space (the longest a name may be) breaks inside the
    word on a 390 px phone screen, instead of widening the page past the screen; the page
    following the game adds the result to the move list when it ends."""
    from .conftest import start_game

    long = await service.player("discord", "999", "W" * 40)
    game = await start_game(service, players[0], long)
    app = make_app(service, web_settings)
    async with TestServer(app, host="127.0.0.1") as server:
        path = (await service.watching.game_link(game.id) or "").removeprefix("https://games.example.org")
        await asyncio.to_thread(driver.set_window_size, 390, 844)
        await asyncio.to_thread(driver.get, str(server.make_url(path)))
        await until(driver, board_loaded)
        width = driver.execute_script("return [document.documentElement.scrollWidth, "
                                      "document.documentElement.clientWidth]")
        heading = driver.execute_script("return document.querySelector('h1').textContent")
        # followed live, the list ends with the result once the game ends
        for _ in range(200):
            if app[SITE].hub.viewers(game.id):
                break
            await asyncio.sleep(0.025)
        assert (await service.resign(long, game.id)).ok
        await until(driver, lambda d: d.execute_script(
            "var r = document.querySelector('#moves li.result');"
            "return r ? r.textContent : '';") == "1-0")
    assert heading == f"Game #{game.id}: Alice vs {'W' * 40}"
    assert width[0] == width[1] <= 390
