"""Every command or button that changes a game or a challenge owes its answer, stored with
the change: a bot that dies after the change is stored, before it replies, confirms it by
DM after its restart, once, in words for that command; a move's board is posted in the
game's thread for the opponent then, once; a command answered as usual leaves nothing
owed."""

from __future__ import annotations

from bot.discord_bot import commands_play, live
from bot.service import answers

from .test_play import _start

LOST = "but my answer was lost (I was restarted)."


def _confirmations(member) -> list[str]:
    """The DMs that confirm a command whose reply died with the bot."""
    dm = member.user.dm_channel
    return [m.content for m in (dm.history() if dm else []) if LOST in m.content]


def _dies_before_replying(world, monkeypatch) -> None:
    """The process dies after a command's change is stored, before its reply."""
    async def dies(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died")

    for name in ("reply", "send_board", "send_move", "move_message"):
        monkeypatch.setattr(world.bot, name, dies)
    def dies_at_once(*args: object) -> None:
        raise RuntimeError("the process died")

    monkeypatch.setattr(live, "open_thread", dies)
    monkeypatch.setattr(commands_play, "challenge_view", dies_at_once)


async def _after_the_restart(world, monkeypatch) -> None:
    """The bot is restarted, and the answers' hold runs out."""
    world.env._errors.clear()  # the failure is the point here
    monkeypatch.undo()
    await world.bot.flush()
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()
    await world.bot.flush()


async def test_a_move_whose_reply_died_is_confirmed_and_its_board_posted_after_the_restart(
        world, monkeypatch):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    _dies_before_replying(world, monkeypatch)
    await world.alice.slash(thread, "move", move=move)
    assert (await world.service.game(game.id)).ply == 1
    before = len(thread.history())
    await world.bot.flush()
    assert _confirmations(world.alice) == []  # held while the bot might still reply
    assert len(thread.history()) == before
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.alice) == [
        f"Your move in game #{game.id} is played, {LOST} `/board game:{game.id}` shows the "
        f"game now."]
    deadline = int((await world.service.game(game.id)).clock.deadline)
    [post] = thread.history()[before:]  # the post the reply would have made, once
    assert post.content == (f"alice played **1. {move}** in game #{game.id}.\n"
                            f"{world.bob.mention} (Black) to move, by <t:{deadline}:f> "
                            f"(<t:{deadline}:R>).")
    assert post.attachments and post.components  # the board, and its buttons
    await world.restart()
    await world.bot.flush()
    assert len(thread.history()) == before + 1
    assert len(_confirmations(world.alice)) == 1


async def test_a_typed_move_whose_reply_died_is_confirmed_and_its_board_posted(
        world, monkeypatch):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    _dies_before_replying(world, monkeypatch)
    await world.alice.send(thread, move)
    assert (await world.service.game(game.id)).ply == 1
    before = len(thread.history())
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.alice) == [
        f"Your move in game #{game.id} is played, {LOST} `/board game:{game.id}` shows the "
        f"game now."]
    [post] = thread.history()[before:]
    assert post.content.startswith(f"alice played **1. {move}** in game #{game.id}.\n"
                                   f"{world.bob.mention} (Black) to move, by <t:")


async def test_a_move_answered_as_usual_leaves_nothing_owed(world):
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    r = await world.alice.slash(thread, "move", move=move)
    assert not r.ephemeral
    after_reply = len(thread.history())
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()
    assert _confirmations(world.alice) == []
    assert len(thread.history()) == after_reply  # the reply's board is not posted again


async def test_a_resignation_whose_reply_died_is_confirmed_once(world, monkeypatch):
    thread, game = await _start(world)
    _dies_before_replying(world, monkeypatch)
    await world.alice.slash(thread, "resign")
    assert (await world.service.game(game.id)).is_over
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.alice) == [
        f"You resigned game #{game.id}, {LOST} `/board game:{game.id}` shows the game now."]
    assert thread.last_message.content == (  # bob hears it in the thread
        f"Game #{game.id} (Clash of Command, alice (White) vs bob (Black)) is over: bob "
        f"(Black) wins: alice resigned (0-1). Ratings: alice 1500 → 1338, bob 1500 → 1662.")


async def test_a_draw_offer_whose_reply_died_is_confirmed_once(world, monkeypatch):
    thread, game = await _start(world, "mini-chieftain")
    _dies_before_replying(world, monkeypatch)
    await world.alice.slash(thread, "draw")
    assert (await world.service.game(game.id)).draw_offer == 0
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.alice) == [
        f"You offered a draw in game #{game.id}, {LOST} `/board game:{game.id}` shows the "
        f"game now."]
    offer = thread.last_message  # bob is asked in the thread, with the buttons
    assert offer.content == (f"{world.bob.mention} alice offers a draw in game #{game.id}. "
                             f"Answer with `/draw` to accept or `/draw decline:True`.")
    assert [b.label for b in offer.components[0].children] == ["Accept draw", "Decline draw"]


async def test_an_acceptance_whose_reply_died_is_confirmed_and_its_thread_opened(
        world, monkeypatch):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob,
                                variant="clash", side=0, days=3)
    assert not r.ephemeral
    _dies_before_replying(world, monkeypatch)
    await world.bob.slash(world.channel, "accept")
    [game] = await world.service.games()
    assert world.channel.threads == []  # the reply that opens it died
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.bob) == [
        f"You accepted challenge #1: the game has started, {LOST} `/games` lists your games."]
    assert _confirmations(world.alice) == []
    [thread] = world.channel.threads  # opened by delivery, once, with the board
    [opener] = thread.history()
    assert opener.content == await world.opening_text(game.id)
    assert (await world.service.game(game.id)).place.endswith(f"/{thread.id}")
    await world.restart()
    await world.bot.flush()
    assert len(world.channel.threads) == 1


async def test_a_game_against_the_computer_whose_reply_died_gets_its_thread(
        world, monkeypatch):
    _dies_before_replying(world, monkeypatch)
    await world.alice.slash(world.channel, "challenge", variant="clash", side=0, computer=2)
    [game] = await world.service.games()
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.alice) == [
        f"Your game against the computer has started, {LOST} `/games` lists your games."]
    [thread] = world.channel.threads
    assert thread.history()[0].content.startswith(
        f"Game #{game.id}: alice (White) vs Computer (level 2) (Black), Clash of Command. "
        f"Type your moves here, or use `/move`.\n{world.alice.mention} (White) to move")


async def test_a_challenge_whose_reply_died_is_confirmed_and_announced(world, monkeypatch):
    _dies_before_replying(world, monkeypatch)
    await world.alice.slash(world.channel, "challenge", opponent=world.bob, variant="clash")
    assert len(await world.service.challenges.pending()) == 1
    before = len(world.channel.history())
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.alice) == [f"Your challenge is made, {LOST}"]
    [post] = world.channel.history()[before:]  # the announcement the reply would have made
    assert post.content == (f"alice challenges {world.bob.mention} to Clash of Command "
                            f"(challenge #1): press Accept, or `/accept challenge:1`.")
    r = await world.bob.click(post, label="Accept")
    assert not r.ephemeral
    assert len(await world.service.games()) == 1


async def test_a_resign_button_whose_reply_died_is_confirmed_once(world, monkeypatch):
    thread, game = await _start(world)
    board = thread.history()[0]
    _dies_before_replying(world, monkeypatch)
    await world.alice.click(board, label="Resign")
    assert (await world.service.game(game.id)).is_over
    await _after_the_restart(world, monkeypatch)
    assert _confirmations(world.alice) == [
        f"You resigned game #{game.id}, {LOST} `/board game:{game.id}` shows the game now."]


async def test_commands_and_buttons_answered_as_usual_leave_nothing_owed(world):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob,
                                variant="mini-chieftain", side=0)
    r = await world.bob.click(next(m for m in world.channel.history()
                                   if m.id == r.response.id), label="Accept")
    thread = world.channel.threads[-1]
    game = (await world.service.games())[-1]
    r = await world.alice.slash(thread, "draw")
    assert not r.ephemeral
    assert not (await world.bob.slash(thread, "draw", decline=True)).ephemeral
    assert not (await world.bob.slash(thread, "resign")).ephemeral
    assert (await world.service.game(game.id)).is_over
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()
    assert _confirmations(world.alice) == [] and _confirmations(world.bob) == []
    assert not [n for n in await world.service.pending_notifications("discord")
                if n.kind in ("confirmation", "board-post", "game-thread", "challenge-post")]
    assert len(world.channel.threads) == 1
    assert len([m for m in world.channel.history() if "Accept" in m.content]) == 1


async def test_a_resignation_whose_reply_discord_refuses_is_confirmed_by_dm_at_once(world):
    thread, game = await _start(world)
    world.env.inject_error("POST", "/webhooks/*", status=403, code=50013,
                           message="Missing Permissions", times=1)
    r = await world.alice.slash(thread, "resign")
    world.env._errors.clear()  # the refusal is logged; it is the point here
    assert (await world.service.game(game.id)).is_over
    assert r.response.content == (  # the member is answered where Discord lets us
        "Discord refused me here (403 Missing Permissions): I lack a permission in this "
        "channel. Ask a server admin to run `/server check`.")
    await world.bot.flush()
    assert world.alice.user.dm_channel.history()[-1].content == (
        f"You resigned game #{game.id}; I could not answer in <#{thread.id}> (Discord "
        f"refused: 403 Missing Permissions). Ask a server admin to run `/server check`.")
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()
    assert [m.content.startswith("You resigned") for m in
            world.alice.user.dm_channel.history()].count(True) == 1
