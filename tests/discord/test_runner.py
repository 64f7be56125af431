"""`commandpost discord`: the runner opens the service, runs the bot, and runs the e-mail
gateway beside it when an e-mail address is configured."""

from __future__ import annotations

import asyncio

import bot.discord_bot.app as app
from bot.config import Settings


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

    monkeypatch.setattr(app, "run_email_gateway", gateway)
    monkeypatch.setattr(app.CommandPost, "start", start)
    settings = Settings.from_env({}, db_path=tmp_path / "g.db", discord_token="t0ken",
                                 email_address="play@games.example.org")
    assert await app.run(settings) == 0
    assert seen["token"] == "t0ken" and seen["stopped"] is True
    assert seen["service"] is not None


async def test_without_an_email_address_only_the_bot_runs(tmp_path, monkeypatch):
    async def gateway(service, settings, **_):
        raise AssertionError("the e-mail gateway must not run")

    async def start(self, token, **_):
        return None

    monkeypatch.setattr(app, "run_email_gateway", gateway)
    monkeypatch.setattr(app.CommandPost, "start", start)
    settings = Settings.from_env({}, db_path=tmp_path / "g.db", discord_token="t0ken")
    assert await app.run(settings) == 0
