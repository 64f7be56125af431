"""A Discord user is answered in their client's language (else the server's), once that
language is offered: /rules reads the Vietnamese document. Vietnamese is not offered to
readers yet; the `offered` fixture offers it, and `vietnamese` makes the in-memory
Discord send a Vietnamese client's locale, as Discord does."""

from __future__ import annotations

import pytest

from bot import i18n


@pytest.fixture
def vietnamese(client_locale):
    """Every interaction comes from a client set to Vietnamese."""
    client_locale("vi")


async def test_rules_are_read_in_the_clients_language_once_it_is_offered(
        world, vietnamese, offered):
    r = await world.carol.slash(world.channel, "rules", variant="commander")
    assert r.response.content.startswith("# Cờ Tư Lệnh (Commander Chess)\n"), \
        r.response.content[:80]


async def test_a_language_not_offered_is_answered_in_english(not_offered, world, vietnamese):
    i18n.shipped.cache_clear()
    r = await world.carol.slash(world.channel, "rules", variant="commander")
    assert r.response.content.startswith("# Commander Chess (Cờ Tư Lệnh)\n"), \
        r.response.content[:80]
