"""A reply Discord refuses never leaves the interaction "thinking…": a /move (or a move from
the step menus) whose board Discord will not take (403, or no answer in time) is finished
with the move's news in words, said once in the thread; the member's confirmation goes by DM
as before. A reply that timed out but reached Discord after all is not answered again; a
typed move whose reply timed out is answered once, by that reply if it landed, else by DM
with the news in the thread. A game's thread is opened once, even when the process died
between opening it and moving the game into it."""

from __future__ import annotations

import discord
import pytest

from bot.service import answers

from .test_play import _start

CONFIRMED = "Your move **{move}** in game #{game}"


def _confirmations(world, move: str, game: int) -> list[str]:
    dm = world.alice.user.dm_channel
    return [m.content for m in (dm.history() if dm else [])
            if m.content.startswith(CONFIRMED.format(move=move, game=game))]


async def _after_a_restart(world) -> None:
    """Whatever was held or pending is delivered (the answers' hold is over)."""
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()


def _times_out_once(monkeypatch, owner: type, name: str, lands: bool) -> list[object]:
    """``owner.name`` (a send to Discord) times out the first time, after reaching Discord
    when ``lands``; the calls after it go through. The objects it was called on."""
    send = getattr(owner, name)
    calls: list[object] = []

    async def times_out_once(self, *args, **kwargs):
        calls.append(self)
        if len(calls) > 1:
            return await send(self, *args, **kwargs)
        if lands:
            await send(self, *args, **kwargs)
        raise TimeoutError

    monkeypatch.setattr(owner, name, times_out_once)
    return calls


async def _move_refused(world, times: int):
    """A /move whose answers Discord refuses ``times`` times (403, Missing Permissions):
    the thread, the game, the move, the thread's length before, the interaction."""
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    world.env.inject_error("POST", "/webhooks/*", status=403, code=50013,
                           message="Missing Permissions", times=times)
    before = len(thread.history())
    return thread, game, move, before, await world.alice.slash(thread, "move", move=move)


async def test_a_slash_move_whose_board_is_refused_is_finished_in_words(world):
    thread, game, move, before, r = await _move_refused(world, 1)
    assert (await world.service.game(game.id)).ply == 1
    assert r.acknowledged and not r._interaction.loading  # not left "thinking…"
    assert not r.ephemeral and r.followups == []
    news = (f"**{move}** played in game #{game.id}. {world.bob.mention}, your move.\n"
            f"(I could not show the board here: Discord refused: 403 Missing Permissions. "
            f"A server admin can run `/server check`.)")
    assert r.response.content == news
    await _after_a_restart(world)
    assert [m.content for m in thread.history()[before:]] == [news]  # said once
    assert _confirmations(world, move, game.id) == [
        f"Your move **{move}** in game #{game.id} is played; I could not show the "
        f"board in <#{thread.id}> (Discord refused: 403 Missing Permissions). Ask a server "
        f"admin to run `/server check`."]


async def test_a_slash_move_refused_twice_still_tells_the_opponent_once(world):
    thread, game, move, before, _ = await _move_refused(world, 2)
    await _after_a_restart(world)
    assert [m.content for m in thread.history()[before + 1:]] == [  # after the "thinking…"
        f"**{move}** played in game #{game.id}. {world.bob.mention}, your move."]
    assert len(_confirmations(world, move, game.id)) == 1


async def _step_menu(world):
    """A game whose first move is one choice away in the step menu (Legal moves, a piece):
    the thread, the game, the move, the menu's message."""
    thread, game = await _start(world)
    pieces = await world.alice.click(thread.history()[0], label="Legal moves")
    origin = pieces.response.components[0]["components"][0]["options"][0]["value"]
    shown = await world.alice.select(pieces.response.message, [origin])
    menu = (shown.followups[-1] if shown.followups else shown.response).message
    move = menu.components[0].children[0].options[0].value
    return thread, game, move, menu


async def _move_timing_out(world, monkeypatch, how: str, lands: bool):
    """A move played ``how`` (a /move, or the step menu) whose board's sending times out,
    after reaching Discord when ``lands``: the thread, the game, the move, the thread's
    length before, the interaction."""
    if how == "menu":
        thread, game, move, menu = await _step_menu(world)
    else:
        thread, game = await _start(world)
        move = (await world.service.legal_moves(game))[0]
    _times_out_once(monkeypatch, discord.Webhook, "send", lands)
    before = len(thread.history())
    r = await (world.alice.select(menu, [move]) if how == "menu"
               else world.alice.slash(thread, "move", move=move))
    monkeypatch.undo()
    assert (await world.service.game(game.id)).ply == 1
    return thread, game, move, before, r


@pytest.mark.parametrize("how", ["slash", "menu"])
async def test_a_move_whose_board_times_out_is_finished_in_words(world, monkeypatch, how):
    thread, game, move, before, r = await _move_timing_out(world, monkeypatch, how, False)
    assert not r._interaction.loading
    news = (f"**{move}** played in game #{game.id}. {world.bob.mention}, your move.\n"
            f"(I could not show the board here: Discord did not answer in time. Discord is "
            f"busy: `/board` shows it in a moment.)")
    assert [m.content for m in (r.response, *r.followups)] == [news]  # nothing else
    await _after_a_restart(world)
    assert [m.content for m in thread.history()[before:]] == [news]
    assert _confirmations(world, move, game.id) == [
        f"Your move **{move}** in game #{game.id} is played; I could not show the "
        f"board in <#{thread.id}> (Discord did not answer in time). Discord is busy; nothing is "
        f"lost, and `/board` shows the game."]


@pytest.mark.parametrize("how", ["slash", "menu"])
async def test_a_move_whose_board_timed_out_but_landed_is_not_answered_twice(
        world, monkeypatch, how):
    thread, game, move, before, r = await _move_timing_out(world, monkeypatch, how, True)
    assert not r._interaction.loading and r.followups == []
    assert r.response.content.startswith(f"1. **{move}** played in game #{game.id}.\n")
    assert r.response.attachments  # the board, and no "Something went wrong"
    await _after_a_restart(world)
    assert [m.id for m in thread.history()[before:]] == [r.response.id]
    assert _confirmations(world, move, game.id) == []


@pytest.mark.parametrize("dies_in, moved", [
    ("relocate", False),  # the thread is created, the game not yet moved into it
    ("board_message", True),  # the game is moved into it, its board not yet shown
])
async def test_an_acceptance_dying_while_opening_the_thread_gets_one_thread_after_restart(
        world, monkeypatch, dies_in, moved):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob,
                                variant="clash", side=0, days=3)
    assert not r.ephemeral

    async def dies(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died")

    monkeypatch.setattr(world.service.rooms if dies_in == "relocate" else world.bot, dies_in, dies)
    await world.bob.slash(world.channel, "accept")
    world.env._errors.clear()  # the death is the point here
    monkeypatch.undo()
    [game] = await world.service.games()
    [thread] = world.channel.threads
    assert thread.history() == [] and game.place.endswith(f"/{thread.id}") == moved
    await _restarted_with_the_thread_opened(world, thread, game)


async def _restarted_with_the_thread_opened(world, thread, game) -> None:
    """After a restart, delivery finishes what the acceptance began, once: one thread,
    the game in it, opened with its board, where the game is played."""
    await _after_a_restart(world)
    await world.bot.flush()
    assert [t.id for t in world.channel.threads] == [thread.id]  # one thread, the game in it
    assert (await world.service.game(game.id)).place.endswith(f"/{thread.id}")
    [opener] = thread.history()
    assert opener.content == await world.opening_text(game.id)
    assert opener.attachments and opener.components
    move = (await world.service.legal_moves(game))[0]
    r = await world.alice.slash(thread, "move", move=move)  # and the game is played there
    assert not r.ephemeral and (await world.service.game(game.id)).ply == 1


async def _typed_move_timing_out(world, monkeypatch, lands: bool):
    """A move typed in the thread whose reply times out once, after reaching Discord when
    ``lands``: the thread, the game, the move, the thread's length before the move."""
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    calls = _times_out_once(monkeypatch, discord.Message, "reply", lands)
    before = len(thread.history())
    await world.alice.send(thread, move)
    monkeypatch.undo()
    assert [m.content for m in calls] == [move]  # one reply tried
    assert (await world.service.game(game.id)).ply == 1
    return thread, game, move, before


async def test_a_typed_move_whose_reply_timed_out_but_landed_is_not_answered_twice(
        world, monkeypatch):
    thread, game, move, before = await _typed_move_timing_out(world, monkeypatch, lands=True)
    said = thread.history()[before:]
    assert [m.content for m in said][0] == move
    assert said[1].content.startswith(f"1. **{move}** played in game #{game.id}.\n")
    assert said[1].attachments  # the board
    await _after_a_restart(world)
    assert [m.id for m in thread.history()[before:]] == [said[0].id, said[1].id]
    dm = world.alice.user.dm_channel
    assert [m.content for m in (dm.history() if dm else [])] == []  # no "I was restarted"


async def test_a_typed_move_whose_reply_timed_out_is_confirmed_once(world, monkeypatch):
    thread, game, move, before = await _typed_move_timing_out(world, monkeypatch, lands=False)
    await _after_a_restart(world)
    assert [m.content for m in thread.history()[before:]] == [
        move, f"**{move}** played in game #{game.id}. {world.bob.mention}, your move."]
    dm = world.alice.user.dm_channel
    assert [m.content for m in (dm.history() if dm else [])] == [
        f"Your move **{move}** in game #{game.id} is played; I could not answer in "
        f"<#{thread.id}> (Discord did not answer in time). Discord is busy; nothing is "
        f"lost, and `/board` shows the game."]


@pytest.mark.parametrize(("status", "code", "message", "said"), [
    (500, 0, "Internal Server Error", "500 Internal Server Error"),
    (429, 0, "You are being rate limited.", "429 You are being rate limited"),
])
async def test_a_busy_discord_is_not_sent_to_the_server_admins(world, status, code, message,
                                                                said):
    """A 500 or a 429 on a /move's board is no missing permission: the words say Discord
    is busy, and `/board` shows the game; nobody is sent to `/server check`."""
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    world.env.inject_error("POST", "/webhooks/*", status=status, code=code, message=message,
                           times=1)
    r = await world.alice.slash(thread, "move", move=move)
    assert (await world.service.game(game.id)).ply == 1
    assert r.response.content == (
        f"**{move}** played in game #{game.id}. {world.bob.mention}, your move.\n"
        f"(I could not show the board here: Discord refused: {said}. Discord is busy: "
        f"`/board` shows it in a moment.)")
    await _after_a_restart(world)
    assert _confirmations(world, move, game.id) == [
        f"Your move **{move}** in game #{game.id} is played; I could not show the "
        f"board in <#{thread.id}> (Discord refused: {said}). Discord is busy; nothing is lost, and "
        f"`/board` shows the game."]
