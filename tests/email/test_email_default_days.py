"""``COMMANDPOST_DEFAULT_DAYS`` by mail: a challenge that names no time takes the default
days per move, as on the console and on Discord."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.config import Settings

ALICE = "alice@players.test"


@pytest.fixture
def email_settings(email_settings: Settings) -> Settings:
    return replace(email_settings, default_days=7)


async def test_a_mailed_challenge_naming_no_time_takes_the_default_days(mail):
    answer = await mail.confirmed(f"Alice <{ALICE}>", "challenge bob@players.test white")
    assert mail.text_of(answer).startswith(
        "Challenge #1 for bob: Clash of Command, 7 days per move, Alice plays White, rated. It "
        "expires ")
    offer = await mail.relay.next_to("bob@players.test")
    assert "Clash of Command, 7 days per move, Alice plays White, rated." in " ".join(
        mail.text_of(offer).split())
