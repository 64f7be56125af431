"""Every game mail names the game's web page when the web pages are configured."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.config import Settings

from .test_email_game import ALICE, BOB, FROM

WEB = "https://games.example.org"


@pytest.fixture
def email_settings(email_settings: Settings) -> Settings:
    return replace(email_settings, web_url=WEB)


async def test_game_mails_carry_the_link(mail):
    relay, post = mail.relay, mail.post
    await mail.confirmed(FROM[ALICE], "challenge bob@players.test white 3d", subject="a game?")
    offer = await relay.next_to(BOB)
    await post.send(FROM[BOB], "accept #1", reply_to=offer)
    to_bob, to_alice = await relay.next_to(BOB), await relay.next_to(ALICE)
    line = f"Watch the game in a browser: {WEB}/game/1-{await mail.service.watching.watch_token(1)}"
    assert line in mail.text_of(to_bob).splitlines()
    assert line in mail.text_of(to_alice).splitlines()
