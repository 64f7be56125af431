"""Offers and endings said once and right, and only the latest board live: the exact
messages, their buttons and the edits that take the buttons off, the REST calls a move
costs, and an offer answered after a restart."""

from __future__ import annotations

import discord

from .test_play import _start


def _fresh(channel, message_id: int) -> discord.Message:
    """The message as Discord holds it now (after edits)."""
    return next(m for m in channel.history() if m.id == message_id)


def _labels(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


def _settled(channel, message_id: int, text: str) -> None:
    """The message was edited to say ``text`` and has no buttons left."""
    edited = _fresh(channel, message_id)
    assert edited.content == text
    assert not edited.components


def _dms(member) -> list[discord.Message]:
    return member.user.dm_channel.history()


OFFER = ("alice offers a draw in game #1. {bob}: accept or decline with the buttons, or "
         "`/draw` (`/draw decline:True`).")


async def _draw_offered(w):
    thread, game = await _start(w, "mini-chieftain")
    before = len(thread.history())
    r = await w.alice.slash(thread, "draw")
    assert not r.ephemeral
    assert r.response.content == OFFER.format(bob=w.bob.mention)
    assert len(thread.history()) == before + 1  # the reply is the offer: no second notice
    offer = _fresh(thread, r.response.id)
    assert _labels(offer) == ["Accept draw", "Decline draw"]
    return thread, game, offer


async def test_a_declined_offer_is_edited_to_say_so_without_buttons(world):
    thread, game, offer = await _draw_offered(world)
    r = await world.carol.click(offer, label="Accept draw")
    assert r.ephemeral and "not playing" in r.response.content
    before = len(thread.history())
    await world.bob.click(offer, label="Decline draw")
    _settled(thread, offer.id, "bob declined alice's draw offer in game #1.")
    assert len(thread.history()) == before  # said by the edit, in one message
    assert (await world.service.game(game.id)).draw_offer is None


async def test_an_offer_answered_by_command_loses_its_buttons(world):
    thread, game, offer = await _draw_offered(world)
    r = await world.bob.slash(thread, "draw", decline=True)
    assert not r.ephemeral
    assert r.response.content == "bob declined alice's draw offer in game #1."
    _settled(thread, offer.id, r.response.content)


async def test_an_offer_reaches_a_dm_reader_with_buttons_and_both_copies_are_settled(world):
    await world.bob.slash(world.channel, "notify", dm=True)
    thread, game, offer = await _draw_offered(world)
    dm = _dms(world.bob)[-1]
    assert dm.content.startswith("alice offers a draw in game #1.")
    assert _labels(dm) == ["Accept draw", "Decline draw"]
    before = len(thread.history())
    r = await world.bob.user.click(dm, label="Accept draw")
    assert not r.ephemeral
    said = "bob accepted alice's draw offer in game #1."
    assert _fresh(world.bob.user.dm_channel, dm.id).content == said
    assert not _fresh(world.bob.user.dm_channel, dm.id).components
    assert _fresh(thread, offer.id).content == said
    assert not _fresh(thread, offer.id).components
    ending = ("Game #1 (mini-Chieftain, alice (White) vs bob (Black)) is over: drawn, "
              "by agreement (1/2-1/2). Ratings: alice 1500 → 1500, bob 1500 → 1500.")
    assert r.followups[-1].content == ending  # the board with the result, in the DM
    # the thread hears of the end once, in the third person
    added = thread.history()[before:]
    assert [m.content for m in added] == [ending]
    assert not _fresh(thread, thread.history()[0].id).components  # the board is not live


async def test_an_offer_lapses_when_the_opponent_moves_instead(world):
    thread, game = await _start(world)
    await world.alice.slash(thread, "move", move="b2-a3/D")
    r = await world.alice.slash(thread, "takeback")
    offer = _fresh(thread, r.response.id)
    assert offer.content == (
        f"alice asks to take back their last turn in game #1. {world.bob.mention}: accept or "
        f"decline with the buttons, or `/takeback` (`/takeback decline:True`).")
    assert _labels(offer) == ["Accept takeback", "Decline takeback"]
    await world.bob.send(thread, "h8-i7/D")
    _settled(thread, offer.id, "alice's takeback request in game #1 lapsed: bob moved instead.")


async def test_a_takeback_accepted_shows_the_board_again(world):
    thread, game = await _start(world)
    await world.alice.slash(thread, "move", move="b2-a3/D")
    r = await world.alice.slash(thread, "takeback")
    offer_id = r.response.id
    r = await world.bob.click(_fresh(thread, offer_id), label="Accept takeback")
    said = "bob accepted alice's takeback request in game #1."
    assert _fresh(thread, offer_id).content == said
    board = r.followups[-1]
    assert board.content.startswith(f"{said}\n{world.alice.mention} (White) to move, by <t:")
    assert board.attachments
    assert (await world.service.game(game.id)).ply == 0
    r = await world.alice.slash(thread, "takeback")
    assert r.ephemeral  # nothing of hers to take back now


async def test_an_offer_is_answered_after_a_restart(world):
    thread, game, offer = await _draw_offered(world)
    await world.restart()
    await world.bob.click(offer, label="Decline draw")
    _settled(thread, offer.id, "bob declined alice's draw offer in game #1.")


async def test_a_resignation_is_announced_once_in_the_third_person(world):
    thread, game = await _start(world)
    await world.alice.slash(thread, "move", move="b2-a3/D")
    await world.bob.slash(thread, "move", move="h8-i7/D")
    before = len(thread.history())
    r = await world.alice.slash(thread, "resign")
    assert not r.ephemeral
    ending = ("Game #1 (Clash of Command, alice (White) vs bob (Black)) is over: bob (Black) "
              "wins: alice resigned (0-1). Ratings: alice 1500 → 1338, bob 1500 → 1662.")
    content = r.followups[-1].content if r.followups else r.response.content
    assert content == ending
    assert len(thread.history()) == before + 1
    assert all(not m.components for m in thread.history())  # nothing is live any more


async def test_only_the_latest_board_keeps_its_buttons_at_three_calls_a_move(world):
    thread, game = await _start(world)
    opener = thread.history()[0]
    # Clash of Command has no draws by agreement: no Offer draw
    assert _labels(opener) == ["Legal moves", "Flip board", "Resign"]
    calls = len(world.env.http_requests)
    r = await world.alice.slash(thread, "move", move="b2-a3/D")
    assert len(world.env.http_requests) - calls == 3  # defer, reply, the old board's edit
    assert not _fresh(thread, opener.id).components
    reply = r.followups[-1] if r.followups else r.response
    assert _labels(_fresh(thread, reply.id)) == ["Legal moves", "Flip board", "Resign"]
    calls = len(world.env.http_requests)
    await world.bob.send(thread, "h8-i7/D")
    assert len(world.env.http_requests) - calls <= 3  # typing, reply, the old board's edit
    assert not _fresh(thread, reply.id).components
    latest = thread.history()[-1]
    assert _labels(latest) == ["Legal moves", "Flip board", "Resign"]


async def test_an_old_board_that_kept_its_buttons_still_answers_rightly(world):
    thread, game = await _start(world)
    opener = thread.history()[0]
    # Discord refuses the edit (say, a moderator locked the message): the move goes on
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{opener.id}", status=403)
    r = await world.alice.slash(thread, "move", move="b2-a3/D")
    assert not r.ephemeral
    assert _labels(_fresh(thread, opener.id))  # the old board kept its buttons
    r = await world.bob.click(opener, label="Legal moves")
    assert r.response.content == ("13 pieces of bob can move in game #1. Choose one to see its "
                                  "moves on the board.")
    r = await world.alice.click(opener, label="Resign")
    assert not r.ephemeral
    assert (await world.service.game(game.id)).winner == 1


async def test_a_ruling_in_the_thread_is_the_one_announcement(world, moderator):
    thread, game = await _start(world)
    before = len(thread.history())
    r = await moderator.slash(thread, "server ruling", game=game.id, ruling="draw")
    assert r.response.content == (
        "Game #1 (Clash of Command, alice (White) vs bob (Black)) is over: drawn, adjudicated "
        "a draw by mod (1/2-1/2). Ratings: alice 1500 → 1500, bob 1500 → 1500.")
    assert len(thread.history()) == before + 1
    assert not thread.history()[0].components  # the board is no longer live


async def test_a_loss_on_time_is_posted_once_and_lapses_the_offer(world):
    thread, game = await _start(world, "mini-chieftain", days=1)
    r = await world.alice.slash(thread, "draw")
    offer_id = r.response.id
    before = len(thread.history())
    world.clock.t += 2 * 86_400
    await world.bot.tick()
    added = [m.content for m in thread.history()[before:]]
    assert added[-1] == ("Game #1 (mini-Chieftain, alice (White) vs bob (Black)) is over: bob "
                         "(Black) wins: alice ran out of time (0-1). Ratings: alice 1500 → "
                         "1338, bob 1500 → 1662.")
    assert sum("is over" in text for text in added) == 1
    offer = _fresh(thread, offer_id)
    assert offer.content == "alice's draw offer in game #1 lapsed: the game is over."
    assert not offer.components and not thread.history()[0].components


async def test_an_offer_to_an_email_player_has_no_buttons(world):
    service = world.service
    alice = await service.player("discord", str(world.alice.id), "alice")
    eve = await service.player("email", "eve@example.org", "eve")
    made = await service.challenges.challenge(alice, f"discord:{world.channel.id}", eve,
                                              "mini-chieftain",
                                              side=0)
    await service.challenges.accept(eve, made.challenge.id)
    await world.bot.flush()  # accepted by mail: the game gets its thread
    thread = world.channel.threads[-1]
    r = await world.alice.slash(thread, "draw", game=1)
    assert r.response.content == "alice offers a draw in game #1. eve is asked by e-mail."
    assert not _fresh(thread, r.response.id).components
    await service.decline_draw(eve, 1)  # by mail
    await world.bot.flush()
    _settled(thread, r.response.id,
             "alice's draw offer in game #1 lapsed: eve answered it by e-mail.")
    assert thread.last_message.content == (
        f"{world.alice.mention} eve declined your draw offer in game #1.")


async def test_a_takeback_lapses_a_standing_draw_offer_without_calling_it_accepted(world):
    thread, game = await _start(world, "mini-chieftain")
    move = (await world.service.legal_moves(game))[0]
    await world.alice.slash(thread, "move", move=move)
    r = await world.bob.slash(thread, "draw")
    draw_id = r.response.id
    r = await world.alice.slash(thread, "takeback")
    await world.bob.click(_fresh(thread, r.response.id), label="Accept takeback")
    _settled(thread, r.response.id, "bob accepted alice's takeback request in game #1.")
    _settled(thread, draw_id, "bob's draw offer in game #1 lapsed: the last turn was taken "
                              "back.")


async def test_a_board_looked_at_elsewhere_leaves_the_threads_board_live(world):
    thread, game = await _start(world)
    r = await world.carol.slash(world.channel, "board", game=1)
    look = r.followups[-1] if r.followups else r.response
    assert not _fresh(world.channel, look.id).components
    assert _labels(thread.history()[0]) == ["Legal moves", "Flip board", "Resign"]
