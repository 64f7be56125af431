"""The losses a picture shows are counted from the moves played: captures, stay captures,
shots, armour passing, whole stacks and Commander Chess points; a piece that transforms,
is promoted or is built is no loss. The panel draws the losses it is given and, without
them, none."""

from __future__ import annotations

from collections.abc import Sequence

from bot.cli.render import gallery_info, seeded_game
from engine import Piece, Position, Variant, get_variant
from renderer import GameInfo, Material, compose, get_theme, losses

THEME = get_theme("classic")
CLASH = get_variant("clash")
ARMS = get_variant("combined-arms")
COMMANDER = get_variant("commander")
MINI = get_variant("mini-chieftain")


def played(variant: Variant, fen: str, texts: Sequence[str]) -> list[tuple[Position, object]]:
    """Each move of ``texts`` with the position it is played in, from ``fen``."""
    position = variant.parse_position(fen)
    out = []
    for text in texts:
        move = variant.parse_move(position, text)
        out.append((position, move))
        position = variant.apply(position, move)
    return out


def panel_words(variant: Variant, position: Position, info: GameInfo) -> str:
    comp = compose(position, variant, THEME, 800, 0, info)
    return " ".join(p.item.text for p in comp.panel if p.item.text).replace("\u00a0", " ")


# --- Clash of Command: transformations are no losses ---------------------------------------
def test_a_droid_turning_into_a_hawk_and_commanders_turning_into_factors_lose_nothing():
    game = played(CLASH, CLASH.start_fen, ["c3-c5", "i9=F", "c1=F", "i9=D"])
    assert CLASH.pieces_at(CLASH.make_move(*game[0]), "c5") == (Piece("H", 0),)
    assert losses(CLASH, game) == Material(letters=((), ()), points=None)


def test_the_gallery_game_counts_the_factor_taken_not_the_commanders_that_transformed():
    positions, moves = seeded_game(CLASH, 24)
    info = gallery_info(CLASH, 1, positions[:11], moves[:11])
    # both sides' Commanders transformed in place (the board has two fewer of each) ...
    assert {"3. c1=F", "3… i9=F", "5. a1=B"} <= set(info.moves)
    # ... and the one piece taken is Black's Factor on b8
    assert "2… b6xb8" in info.moves
    assert info.losses == Material(letters=((), ("F",)), points=None)


def test_a_clash_player_who_captures_his_own_pieces_loses_them():
    positions, moves = seeded_game(CLASH, 24)
    info = gallery_info(CLASH, 2, positions, moves)
    assert {"6. g5-h4xi3", "7. i1xg1", "7… i9xg9"} <= set(info.moves)
    assert info.losses == Material(letters=(("C", "H"), ("D", "F")), points=None)


# --- Combined Arms Brigade Chess: captures, shots, armour, promotion -----------------------
def test_an_infantry_capture_takes_the_piece_it_moves_onto():
    game = played(ARMS, "4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", ["Pe2xe3"])
    assert losses(ARMS, game) == Material(letters=((), ("P",)))


def test_a_shot_kills_the_piece_shot_and_the_shooter_stays():
    game = played(ARMS, "4k3/8/8/8/8/4p3/8/2B1K3 w - - 0 1", ["Bc1*e3"])
    assert losses(ARMS, game) == Material(letters=((), ("P",)))


def test_armour_kills_every_enemy_it_passes():
    game = played(ARMS, "4k3/8/8/8/8/1pp5/8/1N2K3 w - - 0 1", ["Nb1-b2xb3xc3"])
    assert losses(ARMS, game) == Material(letters=((), ("P", "P")))


def test_a_promotion_is_no_loss():
    game = played(ARMS, "4k3/6P1/8/8/8/8/8/4K3 w - - 0 1", ["Pg7-g8=Q"])
    assert losses(ARMS, game) == Material(letters=((), ()))


# --- Commander Chess: whole stacks, stay captures, trades, points --------------------------
def test_a_captured_stack_is_lost_whole_with_its_points():
    game = played(COMMANDER, "7c1ee/11/11/11/11/11/4(ti)6/11/11/4A6/11/6C2EE r - - 0 1",
                  ["Axe6"])
    assert losses(COMMANDER, game) == Material(letters=((), ("I", "T")), points=(30, 0))


def test_a_stay_capture_destroys_the_navy_without_moving():
    game = played(COMMANDER, "7c1ee/11/11/11/11/11/11/11/11/11/n1A8/6C2EE r - - 0 1",
                  ["A_a2"])
    assert losses(COMMANDER, game) == Material(letters=((), ("N",)), points=(80, 0))


def test_an_air_force_trading_itself_is_lost_with_what_it_hits():
    game = played(COMMANDER, "7c1ee/11/11/11/11/11/11/4g6/11/11/4F6/6C2EE r - - 0 1",
                  ["F@e5"])
    assert losses(COMMANDER, game) == Material(letters=(("F",), ("G",)), points=(10, 40))


DEPLOY = "7c1ee/11/11/2n2a5/11/11/2(NFT)1i6/11/11/11/11/6C2EE r - - 0 1"


def test_a_deploy_of_three_captures_counts_each_in_one_turn_or_step_by_step():
    expected = Material(letters=((), ("A", "I", "N")), points=(80 + 30 + 10, 0))
    assert losses(COMMANDER, played(COMMANDER, DEPLOY, ["N>xc9,T>xe6,F>xf9"])) == expected
    assert losses(COMMANDER, played(COMMANDER, DEPLOY, ["N>xc9", "T>xe6", "F>xf9"])) == expected


def test_a_commander_chess_game_from_a_set_up_position_has_destroyed_nothing():
    game = played(COMMANDER, "7c1ee/11/11/11/11/11/11/11/11/11/2A8/6C2EE r - - 0 1",
                  ["Ac3", "Ch11"])
    assert losses(COMMANDER, game) == Material(letters=((), ()), points=(0, 0))


# --- Chieftain: a turn of several moves ------------------------------------------------------
TWO_CAPTURES = "3cc3/8/8/8/2m1m3/3M1M2/8/3CC3 w - 1"


def test_a_chieftain_turn_with_two_captures_loses_both_typed_either_way():
    expected = Material(letters=((), ("M", "M")))
    assert losses(MINI, played(MINI, TWO_CAPTURES, ["Md3xc4, Mf3xe4"])) == expected
    assert losses(MINI, played(MINI, TWO_CAPTURES, ["Md3xc4", "Mf3xe4"])) == expected


# --- the panel draws what it is given --------------------------------------------------------
def test_the_panel_says_lost_nothing_for_a_side_that_lost_nothing():
    start = CLASH.parse_position("4c/4/5/4/5/4/5/4/C4 w 1")
    info = GameInfo(number=3, players=("Ann", "Bob"), losses=losses(CLASH, []))
    words = panel_words(CLASH, start, info)
    assert words.count("lost: nothing") == 2


def test_the_panel_shows_the_points_it_is_given():
    position = COMMANDER.parse_position(DEPLOY)
    info = GameInfo(players=("Ann", "Bob"), losses=Material(points=(120, 40)))
    words = panel_words(COMMANDER, position, info)
    assert "destroyed 120 pts" in words and "destroyed 40 pts" in words


def test_without_losses_the_panel_has_no_losses_line():
    """A position shown without its game's moves: nothing is guessed from the board."""
    start = CLASH.parse_position("4c/4/5/4/5/4/5/4/C4 w 1")
    words = panel_words(CLASH, start, GameInfo(number=3, players=("Ann", "Bob")))
    assert "Ann" in words and "Bob" in words
    assert "lost" not in words and "destroyed" not in words
