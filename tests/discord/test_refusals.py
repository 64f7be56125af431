"""Every refusal a Discord player can meet: an ephemeral reply (only the sender sees it)
carrying the service's exact message, and nothing changed."""

from __future__ import annotations

from .test_play import _start


async def _after_first_move(w):
    """Alice (first side) and Bob in Clash after Alice's b2-a3/D: Bob to move."""
    thread, game = await _start(w)
    r = await w.alice.slash(thread, "move", move="b2-a3/D")
    assert not r.ephemeral, r.response.content
    return thread, await w.service.game(game.id)


def _refused(r, message: str) -> None:
    assert r.ephemeral, r.response.content
    assert r.response.content.startswith(message), r.response.content


async def test_an_illegal_move_is_refused_with_its_reason(world):
    thread, game = await _after_first_move(world)
    r = await world.bob.slash(thread, "move", move="h8-g7/D")
    _refused(r, "h8-g7/D is not a legal move here: g7 is occupied: the Factor on h8 moves "
                "only to an empty point.")
    assert (await world.service.game(game.id)).ply == 1


async def test_an_ambiguous_move_lists_its_candidates(world):
    thread, game = await _after_first_move(world)
    r = await world.bob.slash(thread, "move", move="h8-i7")
    _refused(r, "h8-i7 is ambiguous: it could be h8-i7/D or h8-i7/H. Send the one you mean.")
    assert "• `h8-i7/D`" in r.response.content and "• `h8-i7/H`" in r.response.content
    assert (await world.service.game(game.id)).ply == 1


async def test_a_move_out_of_turn_is_refused(world):
    thread, game = await _after_first_move(world)
    r = await world.alice.slash(thread, "move", move="h2-h4/D")
    _refused(r, f"It is not your turn in game #{game.id}: bob (Black) is to move.")


async def test_a_move_in_someone_elses_game_is_refused(world):
    thread, game = await _after_first_move(world)
    r = await world.carol.slash(thread, "move", move="h8-i7/D")
    _refused(r, f"You are not playing in game #{game.id} (alice vs bob).")
    r = await world.carol.slash(world.channel, "move", move="h8-i7/D", game=game.id)
    _refused(r, f"You are not playing in game #{game.id} (alice vs bob).")


async def test_an_unknown_game_is_refused(world):
    await _start(world)
    r = await world.alice.slash(world.channel, "move", move="b2-a3/D", game=99)
    _refused(r, "There is no game #99.")
    r = await world.alice.slash(world.channel, "resign", game=99)
    _refused(r, "There is no game #99.")


async def test_a_finished_game_is_refused_as_over(world):
    thread, game = await _after_first_move(world)
    r = await world.alice.slash(thread, "resign")
    assert not r.ephemeral
    over = f"Game #{game.id} is over: bob (Black) wins: alice resigned (0-1)."
    r = await world.bob.slash(thread, "move", move="h8-i7/D", game=game.id)
    _refused(r, over)
    # in the game's thread, without a number: the thread's game, which is over
    r = await world.bob.slash(thread, "move", move="h8-i7/D")
    _refused(r, over)
    r = await world.bob.slash(thread, "draw")
    _refused(r, over)


async def test_a_draw_offer_in_clash_is_refused(world):
    thread, game = await _after_first_move(world)
    r = await world.bob.slash(thread, "draw")
    _refused(r, "Clash of Command has no draws by agreement.")
    assert (await world.service.game(game.id)).draw_offer is None


async def test_accepting_a_challenge_for_someone_else_is_refused(world):
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob,
                                variant="clash", side=0)
    assert not r.ephemeral
    number = int(r.response.content.split("challenge:")[1].split("`")[0])
    r = await world.carol.slash(world.channel, "accept", challenge=number)
    _refused(r, f"Challenge #{number} is for bob, not for you.")
    r = await world.alice.slash(world.channel, "accept", challenge=number)
    _refused(r, "You cannot accept your own challenge")
    assert not world.channel.threads
    assert await world.service.games(place=None) == []


async def test_a_spectator_cannot_resign_or_abort(world):
    thread, game = await _start(world)
    for command in ("resign", "abort"):
        r = await world.carol.slash(thread, command)
        _refused(r, f"You are not playing in game #{game.id} (alice vs bob).")
    assert not (await world.service.game(game.id)).is_over
