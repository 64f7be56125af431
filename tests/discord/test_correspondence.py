"""Notes and conditional moves on Discord: answered to their author alone; the opponent
and watchers never see them, in the thread or anywhere else."""

from __future__ import annotations

from .test_play import _start


def _seen_by(w, viewer) -> str:
    """Every message of the games channel and its threads that ``viewer`` can see."""
    channels = [w.channel, *w.channel.threads]
    return "\n".join(m.content for c in channels for m in c.history(viewer=viewer))


async def test_a_note_is_seen_by_its_author_only(world):
    thread, game = await _start(world)
    r = await world.alice.slash(thread, "note", text="the left flank is weak")
    assert r.ephemeral
    assert r.response.content == "Note kept on game #1 (only you see it)."
    r = await world.alice.slash(thread, "note")
    assert r.ephemeral and r.response.content == (
        "Your notes (only you see them):\n"
        "  at the start (<t:1772452800:f>): the left flank is weak")
    r = await world.alice.slash(thread, "board")
    assert "left flank" not in r.response.content
    assert [(f.ephemeral, "left flank" in f.content) for f in r.followups] == [(True, True)]
    r = await world.bob.slash(thread, "board")
    assert not any("left flank" in f.content for f in [r.response, *r.followups])
    r = await world.bob.slash(thread, "note")
    assert r.response.content == "You have no notes on game #1."
    r = await world.carol.slash(thread, "note", text="spy")
    assert r.ephemeral and r.response.content == "Only the players of game #1 keep notes on it."
    for watcher in (world.bob, world.carol):
        assert "left flank" not in _seen_by(world, watcher)
    assert "left flank" in _seen_by(world, world.alice)


async def test_conditional_moves_fire_privately_by_slash_command_and_form(world):
    thread, game = await _start(world, days=0)
    await world.alice.slash(thread, "move", move="b2-a3/D")
    r = await world.alice.slash(thread, "forecast", line="if h8-i7/D then a3-a9/D")
    assert r.ephemeral and r.response.content.startswith("a3-a9/D is not a legal move here")
    r = await world.alice.slash(thread, "forecast")
    assert r.modal is not None
    r = await world.alice.submit_modal(r, {"forecast-lines": "if h8-i7/D then a3-b4/D\n"
                                                             "h8-h6/D then a3-a5/D"})
    assert r.ephemeral and r.response.content == (
        "Conditional line recorded in game #1: if h8-i7/D then a3-b4/D. Only you see it until "
        "it is played.\nConditional line recorded in game #1: if h8-h6/D then a3-a5/D. Only "
        "you see it until it is played.")
    r = await world.alice.slash(thread, "forecast", show=True)
    assert r.ephemeral and r.response.content == (
        "Your conditional moves in game #1 (only you see them):\n"
        "• `if h8-i7/D then a3-b4/D`\n• `if h8-h6/D then a3-a5/D`")
    for watcher in (world.bob, world.carol):
        assert "a3-b4" not in _seen_by(world, watcher)
    r = await world.bob.slash(thread, "move", move="h8-i7/D")
    assert not r.ephemeral
    assert r.response.content.startswith(
        "**h8-i7/D** played in game #1. alice answered at once with **a3-b4/D**, a conditional "
        "move.\n" + world.bob.mention + " (Black) to move.")
    assert [m.text for m in await world.service.played_moves(game.id)] == [
        "b2-a3/D", "h8-i7/D", "a3-b4/D"]
    assert "a3-a5" not in _seen_by(world, world.bob)  # the branch not played stays private
    # lines survive a restart of the bot
    await world.bob.slash(thread, "move", move="a7-b6")
    r = await world.bob.slash(thread, "forecast", line="h2-h4/D then b6-c5")
    assert r.ephemeral and "recorded" in r.response.content
    await world.restart()
    r = await world.alice.slash(thread, "move", move="h2-h4/D")
    assert r.response.content.startswith(
        "**h2-h4/D** played in game #1. bob answered at once with **b6-c5**, a conditional "
        "move.")
    assert (await world.service.game(game.id)).to_move == 0
    # a line that does not match is dropped; its author alone is told, by DM
    await world.alice.slash(thread, "move", move="c3-d4")
    r = await world.alice.slash(thread, "forecast", line="if b8-a7/D then d4-e5")
    assert r.ephemeral, r.response.content
    await world.bob.slash(thread, "move", move="b8-b6/D")
    assert await world.service.forecasts.forecast_lines(
        await world.service.player("discord", str(world.alice.id)), game.id) == []
    dropped = ("bob played b8-b6/D in game #1, which none of your conditional lines "
               "expected: they are dropped.")
    assert dropped not in _seen_by(world, world.bob)
    assert dropped not in _seen_by(world, world.carol)
    assert dropped in [m.content for m in world.alice.user.dm_channel.history()]


async def test_a_fischer_clock_chosen_on_discord(world):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob, side=0,
                                clock="2d+1d max5d")
    assert not r.ephemeral
    assert r.response.content.startswith(
        "Challenge #1 sent to bob: Clash of Command, 2 days + 1 day per move, at most 5 days "
        "in the bank, alice plays White, rated.")
    await world.bob.slash(world.channel, "accept")
    game = (await world.service.games())[-1]
    assert game.clock.deadline == 1_772_452_800.0 + 2 * 86_400
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob,
                                clock="3d+1d max2d")
    assert r.ephemeral and r.response.content == (
        "The bank cannot start above its maximum (3d > 2d).")
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob, clock="fast")
    assert r.ephemeral and r.response.content == (
        "'fast' is not a clock choice: write e.g. `3d+1d max10d total60d`.")
