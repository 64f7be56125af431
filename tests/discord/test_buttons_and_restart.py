"""Buttons, spectators, open challenges, simultaneous moves and a restart mid-game."""

from __future__ import annotations

import asyncio

from bot.service.clock import DAY

from .test_play import _start


async def test_an_open_challenge_is_accepted_by_anyone_here(world):
    r = await world.alice.slash(world.channel, "challenge", variant="mini-chieftain")
    assert "anyone" in r.response.content.lower()
    r = await world.carol.slash(world.channel, "accept")
    assert not r.ephemeral
    assert world.channel.threads


async def test_the_resign_button_ends_the_game(world):
    thread, game = await _start(world)
    opener = thread.history()[0]
    r = await world.bob.click(opener, label="Resign")
    assert not r.ephemeral
    assert (await world.service.game(game.id)).winner == 0


async def test_a_spectator_cannot_press_a_players_button(world):
    thread, game = await _start(world)
    r = await world.carol.click(thread.history()[0], label="Resign")
    assert r.ephemeral and "not playing" in r.response.content


async def test_a_watcher_is_told_where_the_game_is(world):
    thread, game = await _start(world)
    r = await world.carol.slash(world.channel, "watch", game=game.id)
    assert "watching" in r.response.content
    r = await world.carol.slash(world.channel, "games", here=True)
    assert f"#{game.id}" in r.response.content


async def test_buttons_and_reminders_carry_on_after_a_restart(world):
    thread, game = await _start(world, days=1)
    opener = thread.history()[0]
    await world.restart()
    world.clock.t += 0.9 * DAY  # past the 80% reminder
    await world.bot.tick()
    assert "Reminder" in thread.last_message.content
    r = await world.alice.click(opener, label="Legal moves")
    assert r.ephemeral and r.response.content == ("13 pieces of alice can move in game #1. "
                                                  "Choose one to see its moves on the board.")
    move = (await world.service.legal_moves(game))[0]
    r = await world.alice.slash(thread, "move", move=move)
    assert not r.ephemeral


async def test_two_players_moving_at_once_get_one_move_and_one_refusal(world):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    results = await asyncio.gather(world.alice.slash(thread, "move", move=move),
                                   world.bob.slash(thread, "move", move=move),
                                   return_exceptions=True)
    done = [r for r in results if not isinstance(r, BaseException)]
    assert sum(not r.ephemeral for r in done) == 1
    assert (await world.service.game(game.id)).ply == 1


async def _challenge_message(w):
    r = await w.alice.slash(w.channel, "challenge", opponent=w.bob, variant="clash", side=0)
    assert not r.ephemeral, r.response.content
    return next(m for m in w.channel.history() if m.id == r.response.id)


async def test_a_challenge_is_accepted_with_its_button_even_after_a_restart(world):
    message = await _challenge_message(world)
    labels = [c.label for row in message.components for c in row.children]
    assert labels == ["Accept", "Decline"]
    await world.restart()
    r = await world.carol.click(message, label="Accept")
    assert r.ephemeral and "not for you" in r.response.content
    r = await world.bob.click(message, label="Accept")
    assert not r.ephemeral
    assert "Game #1 started" in (r.followups[0].content if r.followups
                                 else r.response.content)
    thread = world.channel.threads[-1]
    game = (await world.service.games(place=None))[-1]
    assert game.place.endswith(f"/{thread.id}")
    assert world.alice.mention in thread.history()[0].content
    edited = next(m for m in world.channel.history() if m.id == message.id)
    assert not edited.components  # an answered challenge keeps no buttons


async def test_a_challenge_is_declined_with_its_button(world):
    message = await _challenge_message(world)
    assert len(world.channel.history()) == 1  # the reply names Bob: no second notice
    r = await world.alice.click(message, label="Decline")
    assert r.ephemeral and "cannot decline" in r.response.content
    r = await world.bob.click(message, label="Decline")
    assert not r.ephemeral and r.response.content == "Challenge #1 declined."
    assert not world.channel.threads
    r = await world.bob.slash(world.channel, "accept", challenge=1)
    assert r.ephemeral


async def test_a_watcher_from_another_server_is_not_sent_to_a_closed_thread(world):
    """Dave, on another server only, watches game #1: he is told its thread is closed to
    him and how to follow it instead; a member of the game's server is pointed to it."""
    thread, game = await _start(world)
    other = world.env.create_guild(name="Elsewhere")
    lounge = other.create_text_channel("lounge")
    dave = other.add_member(world.env.create_user("dave"))
    r = await dave.slash(lounge, "watch", game=game.id)
    said = r.response.content
    assert said.endswith(" It is played on a server you are not on, so its thread is closed "
                         "to you: `/notify dm:True` sends you its news by DM.")
    assert f"<#{thread.id}>" not in said
    r = await world.carol.slash(world.channel, "watch", game=game.id)
    assert r.response.content.endswith(f" Follow it in <#{thread.id}>.")
