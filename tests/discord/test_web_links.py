"""Board messages carry a button opening the game's web page when the web pages are
configured, and none when they are not."""

from __future__ import annotations

from dataclasses import replace

WEB = "https://games.example.org"


async def _start(w):
    r = await w.alice.slash(w.channel, "challenge", opponent=w.bob, variant="clash", side=0,
                            days=3)
    assert not r.ephemeral, r.response.content
    r = await w.bob.slash(w.channel, "accept")
    assert not r.ephemeral, r.response.content
    return w.channel.threads[-1], (await w.service.games(place=None))[-1]


def _links(message) -> list[tuple[str, str]]:
    return [(c.label, c.url) for row in message.components for c in row.children if c.url]


async def test_every_board_message_links_to_the_game_page(world):
    world.service.settings = replace(world.settings, web_url=WEB + "/")
    world.service.watching.settings = world.service.settings  # the topic that makes links
    thread, game = await _start(world)
    link = f"{WEB}/game/{game.id}-{await world.service.watching.watch_token(game.id)}"
    assert _links(thread.history()[0]) == [("Watch in a browser", link)]
    move = (await world.service.legal_moves(game))[0]
    r = await world.alice.slash(thread, "move", move=move)
    reply = next(m for m in thread.history() if m.id == r.response.id)
    assert _links(reply) == [("Watch in a browser", link)]
    labels = [c.label for row in reply.components for c in row.children]
    # Clash of Command has no draws by agreement: no Offer draw
    assert labels[:3] == ["Legal moves", "Flip board", "Resign"]
    r = await world.bob.slash(thread, "resign")
    over = next(m for m in thread.history() if m.id == r.response.id)
    assert "wins: bob resigned (1-0)" in over.content
    assert over.attachments and _links(over) == [("Watch in a browser", link)]


async def test_without_a_web_address_there_is_no_link(world):
    thread, _ = await _start(world)
    assert _links(thread.history()[0]) == []
