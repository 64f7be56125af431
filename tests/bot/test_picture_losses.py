"""The losses on a stored game's picture come from the moves played, the same for every
transport: asserted as the data the renderer is given (`GameInfo.losses`, from
`picture_options`, which the Discord bot, the mail and the console draw from)."""

from __future__ import annotations

from bot.pictures import picture_options, points_destroyed
from bot.service import GameService
from bot.service.model import Game, Player
from bot.textboard import caption
from engine import get_variant
from renderer import Material, compose, get_theme

CLASH_SET_UP = "4c/4/5/4/5/4/5/1D2/C4 w 1"
TWO_CAPTURES = "3cc3/8/8/8/2m1m3/3M1M2/8/3CC3 w - 1"
DEPLOY = "7c1ee/11/11/2n2a5/11/11/2(NFT)1i6/11/11/11/11/6C2EE r - - 0 1"
STAY = "7c1ee/11/11/11/11/11/11/11/11/11/n1A8/6C2EE r - - 0 1"
SHOT = "4k3/8/8/8/8/4p3/8/2B1K3 w - - 0 1"


async def play(service: GameService, game: Game, *moves: tuple[Player, str]) -> None:
    for player, text in moves:
        done = await service.move(player, game.id, text)
        assert done.ok, (text, done)


async def given(service: GameService, game: Game, ply: int | None = None) -> Material:
    """The losses the renderer is given for the picture of ``game`` after ``ply`` steps."""
    game = await service.game(game.id)  # type: ignore[assignment]
    _position, options = await picture_options(service, game, ply=ply)
    return options["info"].losses


async def test_a_droid_turning_into_a_hawk_is_no_loss(service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="clash")
    await play(service, game, (alice, "c3-c5"), (bob, "i9=F"))
    assert await given(service, game) == Material(letters=((), ()), points=None)


async def test_a_game_from_a_set_up_position_has_lost_nothing(service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="clash", start_fen=CLASH_SET_UP)
    await play(service, game, (alice, "d2-e3"))
    losses = await given(service, game)
    assert losses == Material(letters=((), ()), points=None)
    game = await service.game(game.id)
    position, options = await picture_options(service, game)  # type: ignore[arg-type]
    comp = compose(position, options["variant"], get_theme("classic"), 800, 0, options["info"])
    words = " ".join(p.item.text for p in comp.panel if p.item.text)
    assert words.count("lost: nothing") == 2 and "lost: B" not in words


async def test_a_capture_counts_on_the_picture_after_it_not_before(service, alice, bob,
                                                                   start_game):
    game = await start_game(alice, bob, variant="combined-arms", start_fen=SHOT)
    await play(service, game, (alice, "Bc1*e3"))
    assert await given(service, game) == Material(letters=((), ("P",)))
    assert await given(service, game, ply=0) == Material(letters=((), ()))


async def test_a_stay_capture_scores_the_navy(service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander", start_fen=STAY)
    await play(service, game, (alice, "A_a2"))
    assert await given(service, game) == Material(letters=((), ("N",)), points=(80, 0))


async def test_a_deploy_entered_step_by_step_scores_each_stack_destroyed(service, alice, bob,
                                                                        start_game):
    game = await start_game(alice, bob, variant="commander", start_fen=DEPLOY)
    await play(service, game, (alice, "N>xc9"), (alice, "T>xe6"), (alice, "F>xf9"))
    assert await given(service, game, ply=1) == Material(letters=((), ("N",)), points=(80, 0))
    assert await given(service, game) == Material(letters=((), ("A", "I", "N")),
                                                  points=(80 + 30 + 10, 0))


async def test_a_chieftain_turn_of_two_captures_loses_both_however_typed(service, alice, bob,
                                                                         start_game):
    both = Material(letters=((), ("M", "M")))
    whole = await start_game(alice, bob, variant="mini-chieftain", start_fen=TWO_CAPTURES)
    await play(service, whole, (alice, "Md3xc4, Mf3xe4"))
    assert await given(service, whole) == both
    steps = await start_game(alice, bob, variant="mini-chieftain", start_fen=TWO_CAPTURES)
    await play(service, steps, (alice, "Md3xc4"))
    assert await given(service, steps) == Material(letters=((), ("M",)))
    await play(service, steps, (alice, "Mf3xe4"))
    assert await given(service, steps) == both


async def test_a_turn_ended_early_counts_its_one_capture(service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="mini-chieftain", start_fen=TWO_CAPTURES)
    await play(service, game, (alice, "Md3xc4"), (alice, "end"))
    assert (await service.game(game.id)).to_move == 1  # type: ignore[union-attr]
    assert await given(service, game) == Material(letters=((), ("M",)))


async def test_the_text_caption_counts_points_from_the_moves_too(service, alice, bob,
                                                                  start_game):
    """The console's and the mail's text board say the points destroyed as the picture
    does: a set-up Commander game starts at 0 to 0, not at what is missing from a full set."""
    game = await start_game(alice, bob, variant="commander", start_fen=STAY)
    commander = get_variant("commander")
    stored = await service.game(game.id)
    played = await service.played_moves(game.id)
    assert caption(commander, await service.position(stored), points_destroyed(
        stored, played)) == "Red to move, move 1. destroyed: Red 0 · Blue 0 pts"
    await play(service, game, (alice, "A_a2"))
    stored = await service.game(game.id)
    played = await service.played_moves(game.id)
    assert caption(commander, await service.position(stored), points_destroyed(
        stored, played)) == "Blue to move, move 1. destroyed: Red 80 · Blue 0 pts"
    clash = await start_game(alice, bob, variant="clash")
    assert points_destroyed(clash, []) is None
