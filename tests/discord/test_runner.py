"""`commandpost discord`: the runner (`bot.cli.run`) opens the service, runs the bot, and
runs the e-mail gateway beside it when an e-mail address is configured, the game pages
when a web address is."""

from __future__ import annotations

import asyncio
import logging
import socket

import discord

import bot.cli.run as runner
from bot.config import Settings
from bot.discord_bot.app import CommandPost


async def test_the_email_gateway_runs_beside_the_bot_when_configured(tmp_path, monkeypatch):
    seen: dict[str, object] = {}
    gateway_running = asyncio.Event()

    async def gateway(service, settings, **_):
        seen["service"] = service
        gateway_running.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            seen["stopped"] = True
            raise

    async def start(self, token, **_):
        await gateway_running.wait()
        seen["token"] = token

    monkeypatch.setattr(runner, "run_email_gateway", gateway)
    monkeypatch.setattr(CommandPost, "start", start)
    settings = Settings.from_env({}, db_path=tmp_path / "g.db", discord_token="t0ken",
                                 email_address="play@games.example.org")
    assert await runner.run(settings) == 0
    assert seen["token"] == "t0ken" and seen["stopped"] is True
    assert seen["service"] is not None


async def test_without_an_email_address_only_the_bot_runs(tmp_path, monkeypatch):
    async def gateway(service, settings, **_):
        raise AssertionError("the e-mail gateway must not run")

    async def start(self, token, **_):
        return None

    monkeypatch.setattr(runner, "run_email_gateway", gateway)
    monkeypatch.setattr(CommandPost, "start", start)
    settings = Settings.from_env({}, db_path=tmp_path / "g.db", discord_token="t0ken")
    assert await runner.run(settings) == 0


async def test_the_game_pages_run_beside_the_bot_when_configured(tmp_path, monkeypatch):
    events: list[str] = []

    class Pages:
        async def cleanup(self):
            events.append("pages closed")

    async def listen(service, settings):
        events.append(f"pages on {settings.web_url}")
        return Pages()

    async def start(self, token, **_):
        events.append("bot ran")

    monkeypatch.setattr(runner, "listen", listen)
    monkeypatch.setattr(CommandPost, "start", start)
    settings = Settings.from_env({}, db_path=tmp_path / "g.db", discord_token="t0ken",
                                 web_url="https://games.example.org")
    assert await runner.run(settings) == 0
    assert events == ["pages on https://games.example.org", "bot ran", "pages closed"]


def test_a_discord_that_cannot_be_reached_stops_the_start_in_one_sentence(tmp_path, monkeypatch,
                                                                           capsys):
    with socket.socket() as closed:  # a port nothing listens on: the connection is refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setenv("COMMANDPOST_DISCORD_TOKEN", "x.y.z")
    monkeypatch.setenv("COMMANDPOST_DB", str(tmp_path / "g.db"))
    for name in ("COMMANDPOST_EMAIL_ADDRESS", "COMMANDPOST_WEB_URL", "COMMANDPOST_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    try:
        assert runner.main([]) == 1
        assert runner.main(["sync"]) == 1
    finally:
        logging.getLogger().handlers.clear()  # the runner's, on this test's stderr
    said = capsys.readouterr().err
    assert "Traceback" not in said
    errors = [line.split(" user=- ", 1)[1] for line in said.splitlines() if " ERROR " in line]
    assert errors == [f"cannot reach Discord: Cannot connect to host 127.0.0.1:{port} "
                      f"ssl:default [Connect call failed ('127.0.0.1', {port})]"] * 2
