"""Near-miss help for typed moves without chat noise, and challenges that work where
they are announced."""

from __future__ import annotations

from .test_play import _start


async def _typed(w, member, thread, text: str) -> str | None:
    """What the bot answers to ``text`` typed in ``thread`` (None: nothing)."""
    before = len(thread.history())
    await member.send(thread, text)
    added = thread.history()[before + 1:]
    assert len(added) <= 1  # one short answer at most
    return added[0].content if added else None


async def test_almost_a_move_gets_one_hint_with_the_closest_legal_moves(world):
    thread, game = await _start(world)
    assert await _typed(world, world.alice, thread, "b2") == (
        "`b2` is a point, not a move, in game #1. Moves with it: `b2-a3/D`, `b2-a3/H`, "
        "`b2-b4/D`, `b2-b4/H`, `b2=D`.")
    assert await _typed(world, world.alice, thread, "e4") == (
        "`e4` is not a move in game #1. Closest legal moves: `e3-d4`, `e3-f4`, `e3-d4xf2`, "
        "`e3-f4xd2`, `e1=B`.")
    assert await _typed(world, world.alice, thread, "Dd4") == (
        "`Dd4` is not a move in game #1. Closest legal moves: `c3-d4`, `e3-d4`, `e3-d4xf2`.")
    assert (await world.service.game(game.id)).ply == 0


async def test_a_point_nothing_moves_from_or_to_lists_no_unrelated_moves(world):
    thread, game = await _start(world, "mini-chieftain")
    assert await _typed(world, world.alice, thread, "a5") == (
        "`a5` is a point, not a move, in game #1; no legal move starts or ends there now. "
        "`/moves` shows the pieces that can move.")


async def test_the_wrong_case_is_pointed_out(world):
    thread, game = await _start(world, "commander")
    assert await _typed(world, world.alice, thread, "ac2") == (
        "`ac2` is not a move in game #1; mind the capitals: `Ac2`.")


async def test_chat_and_spectators_get_nothing_and_a_move_out_of_turn_a_short_answer(world):
    thread, game = await _start(world)
    for text in ("good luck!", "gg", "let me think about it", "hmm?", "what about e4?"):
        assert await _typed(world, world.alice, thread, text) is None
    assert await _typed(world, world.carol, thread, "b2-a3/D") is None
    assert await _typed(world, world.bob, thread, "nice") is None
    assert await _typed(world, world.bob, thread, "is b2 weak") is None
    assert await _typed(world, world.bob, thread, "h8-i7/D") == (
        "It is not your turn in game #1: alice (White) is to move.")
    assert (await world.service.game(game.id)).ply == 0


async def test_an_open_challenge_is_accepted_from_another_channel_of_the_server(world):
    general = world.alice.guild.create_text_channel("general")
    r = await world.alice.slash(world.channel, "challenge", variant="clash")
    assert r.response.content.endswith("Anyone here may accept: press Accept, or "
                                       "`/accept challenge:1`.")
    r = await world.carol.autocomplete(general, "accept", "challenge", "")
    assert [c["value"] for c in r] == [1]
    r = await world.carol.slash(general, "accept")
    assert not r.ephemeral, r.response.content
    assert world.channel.threads  # the game's thread opens where it was announced


async def test_an_open_challenge_is_accepted_by_number_and_by_button(world):
    general = world.alice.guild.create_text_channel("general")
    await world.alice.slash(world.channel, "challenge", variant="clash")
    r = await world.bob.slash(world.channel, "challenge", variant="clash")
    message = next(m for m in world.channel.history() if m.id == r.response.id)
    r = await world.carol.slash(general, "accept")
    assert r.ephemeral and r.response.content == (
        "There are several challenges: #1 (alice, Clash of Command), #2 (bob, Clash of "
        "Command). Say which, as in `/accept challenge:1`.")
    r = await world.carol.slash(general, "accept", challenge=1)
    assert not r.ephemeral
    r = await world.alice.click(message, label="Accept")
    assert not r.ephemeral
    assert len(world.channel.threads) == 2


async def test_a_challenge_in_a_dm_must_name_an_opponent(world):
    r = await world.alice.user.slash("challenge", variant="clash")
    assert r.ephemeral and r.response.content == (
        "In a DM, name your opponent: `/challenge opponent:@name`. To challenge anyone, use "
        "`/challenge` in a server.")
    assert await world.service.challenges.pending() == []


async def test_challenge_offers_the_servers_variants_and_days(world, moderator):
    await moderator.slash(world.channel, "server settings", variants="clash,mini-chieftain",
                          days=3)
    r = await world.alice.autocomplete(world.channel, "challenge", "variant", "")
    assert [c["value"] for c in r] == ["clash", "mini-chieftain"]
    r = await world.alice.autocomplete(world.channel, "challenge", "days", "")
    names = [c["name"] for c in r]
    assert names[0] == "3 days per move (this server's default)"
    assert "no clock" in names


async def test_a_challenge_made_in_a_dm_reaches_the_opponent_by_dm(world):
    r = await world.alice.user.slash("challenge", opponent=world.bob.user, variant="clash",
                                     side=0)
    assert not r.ephemeral, r.response.content
    dm = world.bob.user.dm_channel.history()[-1]
    assert dm.content.startswith("alice challenges you: Clash of Command")
    r = await world.bob.slash(world.channel, "accept")
    assert not r.ephemeral, r.response.content
    said = r.followups[-1] if r.followups else r.response
    assert said.content.endswith("Play here with `/move game:1`."), said.content
    r = await world.alice.user.slash("move", move="b2-a3/D")
    assert not r.ephemeral, r.response.content
    assert "b2-a3/D" in world.bob.user.dm_channel.history()[-1].content


async def test_a_move_typed_in_the_wrong_games_thread_points_to_the_right_game(world):
    first, game = await _start(world)  # alice vs bob, alice to move
    await world.alice.send(first, "b2-a3/D")  # bob to move in #1 now
    second, _ = await _start(world)  # alice vs bob again: alice to move in #2
    said = await _typed(world, world.alice, first, "c3-d4")  # not her turn in #1
    assert said == (
        "It is not your turn in game #1: bob (Black) is to move. `c3-d4` is a legal move in "
        f"your game #2: play it there in <#{second.id}>, or with `/move move:c3-d4 game:2`.")
    said = await _typed(world, world.carol, second, "c3-d4")  # carol plays no game
    assert said is None
    assert (await world.service.game(2)).ply == 0


async def test_a_player_typing_a_move_in_a_thread_where_they_only_watch_is_pointed_home(world):
    first, _ = await _start(world)  # alice vs bob
    await world.carol.slash(world.channel, "challenge", opponent=world.bob, variant="clash",
                            side=0, days=3)
    await world.bob.slash(world.channel, "accept")
    home = world.channel.threads[-1]  # carol vs bob: carol to move
    assert await _typed(world, world.carol, first, "c3-d4") == (
        f"You do not play in game #1. `c3-d4` is a legal move in your game #2: play it there "
        f"in <#{home.id}>, or with `/move move:c3-d4 game:2`.")
    assert await _typed(world, world.carol, first, "good move!") is None  # chat: nothing
