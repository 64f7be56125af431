"""A move's confirmation is stored with the move: a bot that dies after the move is
stored, before it replies, confirms the move by DM after its restart, once; a move
answered as usual leaves nothing owed."""

from __future__ import annotations

from bot.service import answers

from .test_play import _start


def _confirmations(world, game_id: int) -> list[str]:
    dm = world.alice.user.dm_channel
    prefix = f"Your move in game #{game_id} is played"
    return [m.content for m in (dm.history() if dm else []) if m.content.startswith(prefix)]


async def test_a_move_whose_reply_died_with_the_bot_is_confirmed_by_dm_after_the_restart(
        world, monkeypatch):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]

    async def dies(*args: object) -> None:
        raise RuntimeError("the process died")  # after the move was stored, before the reply

    monkeypatch.setattr(world.bot, "send_move", dies)
    await world.alice.slash(thread, "move", move=move)
    world.env._errors.clear()  # the failure is the point here
    assert (await world.service.game(game.id)).ply == 1
    await world.bot.flush()
    assert _confirmations(world, game.id) == []  # held while the bot might still reply
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()
    await world.bot.flush()
    assert _confirmations(world, game.id) == [
        f"Your move in game #{game.id} is played, but I could not answer it where you played "
        f"it (I was restarted). `/board game:{game.id}` shows the game now."]


async def test_a_move_answered_as_usual_leaves_no_confirmation_owed(world):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    r = await world.alice.slash(thread, "move", move=move)
    assert not r.ephemeral
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()
    assert _confirmations(world, game.id) == []
