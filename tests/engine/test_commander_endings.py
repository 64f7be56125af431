"""Commander Chess: the end of the game (§8): commander captured, checkmate, stalemate,
threefold repetition, the fifty-move rule, and the battle modes with their objectives,
strategy bonus, points and limits."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import EngineError, IllegalMoveError, Position, PositionError, get_variant

V = get_variant("commander")
BASE = "7c1ee/11/11/11/11/11/11/11/11/11/11/6C2EE r - - 0 1"


def pos(fen: str) -> Position:
    return V.parse_position(fen, relaxed=True)


def play(position: Position, text: str) -> Position:
    return V.apply(position, V.parse_move(position, text))


# --- §8.1 the standard game ----------------------------------------------------------------------
def test_8_1_1_capturing_the_commander_wins() -> None:
    p = pos("9ee/11/11/11/11/11/11/11/11/11/6c4/6C2EE r - - 0 1")
    after = play(p, "Cxg2")
    assert V.outcome(after).status == "win" and V.outcome(after).winner == 0
    assert V.format_position(after) == "9ee/11/11/11/11/11/11/11/11/11/6C4/9EE b - - 0 1"


def test_a_finished_game_has_no_moves_and_a_spent_clock_refuses_them() -> None:
    won = pos("9ee/11/11/11/11/11/4T6/3g1g5/11/11/11/6C2EE b - - 0 1")
    assert V.legal_moves(won) == [] and V.perft(won, 2) == 0
    spent = pos("7c1ee/11/11/11/11/11/11/11/11/11/11/6C2EE r - - 100 80")
    assert V.legal_moves(spent) and "fifty-move" in V.outcome(spent).reason
    with pytest.raises(IllegalMoveError) as caught:
        V.parse_move(spent, "Cf1")
    assert "game is over" in caught.value.reason


def test_8_1_4_threefold_repetition_counts_the_start_and_ignores_the_counters() -> None:
    start = pos(BASE)
    history = [start]
    position = start
    for text in ("Cf1", "Ci12", "Cg1", "Ch12") * 2:
        position = play(position, text)
        assert position.halfmove == len(history)
        if len(history) < 8:
            assert not V.outcome(position, history).is_over
        history.append(position)
    history.pop()
    outcome = V.outcome(position, history)
    assert outcome.status == "draw" and "threefold" in outcome.reason
    # the same placement with the other side to move is not a repetition
    assert not V.outcome(position.with_(side=1), history).is_over


def test_8_1_4_positions_inside_an_unfinished_deploy_never_count() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1")
    partial = V.apply(p, V.parse_move(p, "T>e6"))
    assert not V.outcome(p, [partial, partial, p]).is_over
    assert V.outcome(partial, [p, p, p]) == V.outcome(partial)
    assert not V.outcome(partial).is_over


def test_8_1_5_fifty_moves_without_a_capture_draw() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/5i5/4T6/11/6C2EE r - - 99 80")
    quiet = play(p, "Te2")
    assert quiet.halfmove == 100 and "fifty-move" in V.outcome(quiet).reason
    capture = play(pos("7c1ee/11/11/11/11/11/11/11/11/4Ti5/11/6C2EE r - - 99 80"), "Txf3")
    assert capture.halfmove == 0 and not V.outcome(capture).is_over


def test_8_1_5_any_capture_kind_resets_the_clock() -> None:
    stay = play(pos("7c1ee/11/11/11/11/11/11/11/11/n1T8/11/6C2EE r - - 40 30"), "T_a3")
    suicide = play(pos("7c1ee/11/11/11/11/11/11/4g6/11/11/4F6/6C2EE r - - 40 30"), "F@e5")
    assert stay.halfmove == suicide.halfmove == 0


# --- §8.2 battle modes ----------------------------------------------------------------------------
NAVIES = "7c1ee/11/11/11/11/1n9/11/1n9/11/11/1N9/6C2EE r - - 0 1"


def test_8_2_marine_stops_when_a_side_has_destroyed_two_navies() -> None:
    first = pos(NAVIES)
    one = pos("7c1ee/11/11/11/11/11/11/1n9/11/11/1N9/6C2EE b - - 0 1")
    two = pos("7c1ee/11/11/11/11/11/11/11/11/11/1N9/6C2EE b - - 0 2")
    assert not V.outcome(one, [first], "marine").is_over
    outcome = V.outcome(two, [first, one, one], "marine")
    assert outcome.status == "win" and outcome.winner == 0
    assert "marine objective" in outcome.reason and "Red 210" in outcome.reason
    assert not V.outcome(two, [first, one, one]).is_over  # standard mode plays on


def test_8_2_air_land_and_sea_air_objectives() -> None:
    first = pos("7c1ee/3f1f5/11/2i1i6/2t1t6/2a1a6/11/11/11/11/11/6C2EE r - - 0 1")
    no_air = pos("7c1ee/11/11/2i1i6/2t1t6/2a1a6/11/11/11/11/11/6C2EE b - - 0 5")
    no_land = pos("7c1ee/3f1f5/11/11/11/11/11/11/11/11/11/6C2EE b - - 0 5")
    assert V.outcome(no_air, [first], "air").winner == 0
    assert not V.outcome(no_air, [first], "land").is_over
    assert V.outcome(no_land, [first], "land").winner == 0
    assert not V.outcome(no_land, [first], "air").is_over
    assert V.outcome(no_air, [first], "sea-air").winner == 0


def test_8_2_sea_air_needs_an_explicit_start() -> None:
    with pytest.raises(PositionError) as caught:
        V.start_position("sea-air")
    assert "sea-air" in str(caught.value)
    assert V.start_position("marine") == V.start_position()


def test_8_2_checkmate_stops_a_battle_and_the_totals_decide() -> None:
    mated = pos("3c7/11/11/11/11/11/11/11/11/3G6+t/11/9IC r - - 0 1")
    marine = V.outcome(mated, [mated], "marine")
    assert marine.winner == 1 and "Blue 100" in marine.reason
    raid = V.outcome(mated, [mated], "raid")
    assert raid.winner == 1 and "Blue 150" in raid.reason
    # Red had destroyed more than the commander is worth: it wins on points though mated
    richer = pos("3c7/nn9/11/11/11/11/11/11/11/3G6+t/11/9IC r - - 0 1")
    assert V.outcome(mated, [richer], "marine").winner == 0


def test_8_2_a_turn_completing_both_objectives_gives_the_strategy_to_the_mover() -> None:
    first = pos("7c1ee/3f1f5/11/11/11/11/11/11/11/11/3F1F5/6C2EE r - - 0 1")
    both = pos("7c1ee/11/11/11/11/11/11/11/11/11/11/6C2EE b - - 0 9")
    outcome = V.outcome(both, [first], "air")
    assert outcome.winner == 0 and "strategy to Red" in outcome.reason
    assert V.outcome(both.with_(side=0), [first], "air").winner == 1


def test_8_2_the_limit_stops_the_game_without_a_strategy() -> None:
    first = pos(BASE)
    history = [first]
    position = first
    for text in ("Cf1", "Ci12"):
        position = play(position, text)
        history.append(position)
    history.pop()
    outcome = V.outcome(position, history, "marine:1")
    assert outcome.status == "draw" and "limit of 1 moves" in outcome.reason
    assert not V.outcome(position, history, "marine").is_over
    assert not V.outcome(position, history, "marine:2").is_over


def test_8_2_stalemate_in_a_battle_is_a_plain_draw() -> None:
    stalemate = pos("7c3/11/11/11/11/11/11/11/10m/9t1/8t2/10C r - - 0 1")
    assert V.outcome(stalemate, [pos(BASE)], "land").status == "draw"
    assert "stalemate" in V.outcome(stalemate, [pos(BASE)], "land").reason


def test_8_2_unknown_modes_are_refused() -> None:
    for mode in ("naval", "marine:x", "marine:0"):
        with pytest.raises(EngineError):
            V.outcome(pos(BASE), (), mode)
    with pytest.raises(EngineError):
        V.start_position("blitz")


# --- §8.4 points ----------------------------------------------------------------------------------
def test_8_4_a_full_set_is_worth_530_and_the_points_come_from_the_start() -> None:
    # the status text leaves the points out: a position alone cannot tell a set-up game's
    # start; callers count them from the moves played (removed_pieces, piece_points)
    assert V.status_text(V.start_position()) == ""
    one_navy_down = pos("6c4/4fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/"
                        "3A2S2A1/1N2FH1HF2/6C4 r - - 0 1")
    assert V.status_text(one_navy_down) == ""
    assert V.destroyed_points(one_navy_down) == (80, 0)
    assert sum(V.piece_points[x] * n for x, n in
               Counter(c for c in V.format_position(V.start_position()).split()[0]
                       if c.isupper()).items()) == 530
    assert V.destroyed_points(V.start_position()) == (0, 0)
    suicide = play(pos("7c1ee/11/11/11/11/11/11/4g6/11/11/4F6/6C2EE r - - 0 1"), "F@e5")
    assert V.destroyed_points(suicide, [pos("7c1ee/11/11/11/11/11/11/4g6/11/11/4F6/6C2EE r "
                                            "- - 0 1")]) == (10, 40)
