"""Scores and tie-breaks by FIDE's rules, against published and hand-worked crosstables."""

from __future__ import annotations

import pytest

from bot.service.tiebreaks import (
    Game,
    Standing,
    buchholz,
    direct_encounter,
    have_all_met,
    rank,
    scores,
    sonneborn_berger,
    wins,
)

A, B, C, D = 1, 2, 3, 4

# Sensei's Library's Sonneborn-Berger example: a double round robin of four players,
# no draws; A and B both score 4, and Sonneborn-Berger is A 11, B 9, C 6, D 4.
DOUBLE_ROUND_ROBIN = [
    Game(A, B, 1.0), Game(A, C, 1.0), Game(A, D, 1.0),
    Game(B, C, 1.0), Game(B, D, 1.0), Game(C, D, 1.0),
    Game(B, A, 1.0), Game(A, C, 1.0), Game(D, A, 1.0),
    Game(C, B, 1.0), Game(B, D, 1.0), Game(C, D, 1.0),
]


def test_scores_of_the_published_example():
    assert scores(DOUBLE_ROUND_ROBIN) == {A: 4.0, B: 4.0, C: 3.0, D: 1.0}


def test_sonneborn_berger_of_the_published_example():
    assert [sonneborn_berger(DOUBLE_ROUND_ROBIN, p) for p in (A, B, C, D)] == [11, 9, 6, 4]


def test_buchholz_and_cut_one_of_the_published_example():
    # every opponent twice: A meets B (4), C (3), D (1); D meets A, B (4 each) and C (3)
    assert [buchholz(DOUBLE_ROUND_ROBIN, p) for p in (A, B, C, D)] == [16, 16, 18, 22]
    assert buchholz(DOUBLE_ROUND_ROBIN, A, cut=1) == 15  # D's 1 dropped
    assert buchholz(DOUBLE_ROUND_ROBIN, D, cut=2) == 22 - 3 - 3


def test_direct_encounter_splits_the_points_among_the_tied():
    assert direct_encounter(DOUBLE_ROUND_ROBIN, {A, B}) == {A: 1.0, B: 1.0}
    assert direct_encounter(DOUBLE_ROUND_ROBIN, {B, C, D}) == {B: 3.0, C: 3.0, D: 0.0}


def test_the_published_example_ranked_by_score_direct_encounter_then_sonneborn_berger():
    # A and B are tied and met twice (a win each): 1 each, and SB decides; C and D are
    # tied with no one, so direct encounter has no value for them
    assert rank([D, C, B, A], DOUBLE_ROUND_ROBIN, ("score", "direct", "sb")) == [
        Standing(A, (4.0, 1.0, 11.0)), Standing(B, (4.0, 1.0, 9.0)),
        Standing(C, (3.0, None, 6.0)), Standing(D, (1.0, None, 4.0))]


def test_direct_encounter_decides_before_sonneborn_berger_when_asked_first():
    e = 5
    games = [Game(A, B, 0.0), Game(A, C, 1.0), Game(A, D, 1.0), Game(e, A, 1.0),
             Game(B, C, 0.0), Game(B, D, 0.0), Game(B, e, 1.0),
             Game(C, D, 0.5), Game(C, e, 1.0), Game(D, e, 1.0)]
    # A and B both 2 points: A beat C and D (2.5 each), B only A and E; but B beat A
    assert scores(games) == {A: 2.0, B: 2.0, C: 2.5, D: 2.5, e: 1.0}
    assert (sonneborn_berger(games, A), sonneborn_berger(games, B)) == (5.0, 3.0)
    by_direct = rank([A, B, C, D, e], games, ("score", "direct", "sb"))
    assert [s.player for s in by_direct] == [C, D, B, A, e]
    assert [s.player for s in rank([A, B, C, D, e], games, ("score", "sb"))] == [C, D, A, B, e]


# A five-player Swiss with a pairing-allocated bye each round, a forfeit and a void game:
# round 1: 1-2 1-0, 3-4 1/2, 5 bye; round 2: 5-1 0-1, 2-3 won by 2 by forfeit, 4 bye;
# round 3: 1-4 1/2, 3-5 1-0, 2 bye; and a game of 2 and 5 annulled (void).
SWISS = [
    Game(1, 2, 1.0), Game(3, 4, 0.5), Game(5, None, 1.0, played=False),
    Game(5, 1, 0.0), Game(2, 3, 1.0, played=False), Game(4, None, 1.0, played=False),
    Game(1, 4, 0.5), Game(3, 5, 1.0), Game(2, None, 1.0, played=False),
    Game(2, 5, None, played=False),
]


def test_byes_and_forfeits_score_and_void_games_do_not():
    assert scores(SWISS) == {1: 2.5, 2: 2.0, 3: 1.5, 4: 2.0, 5: 1.0}


def test_unplayed_rounds_count_against_a_dummy_opponent_with_the_players_own_score():
    assert buchholz(SWISS, 1) == 2 + 1 + 2  # all three played
    assert buchholz(SWISS, 2) == 2.5 + 2 + 2  # 1, then the dummy (2 points) twice
    assert buchholz(SWISS, 2, cut=1) == 2.5 + 2
    assert buchholz(SWISS, 3) == 2 + 1.5 + 1  # the forfeit loss: the dummy, 1.5
    assert sonneborn_berger(SWISS, 1) == 2 + 1 + 2 / 2
    assert sonneborn_berger(SWISS, 2) == 0 + 2 + 2  # a forfeit win and a bye, each 2 x 1
    assert sonneborn_berger(SWISS, 3) == 2 / 2 + 0 + 1


def test_wins_count_games_won_over_the_board_only():
    assert [wins(SWISS, p) for p in (1, 2, 3, 4, 5)] == [2, 0, 1, 0, 0]


def test_a_void_game_is_no_encounter():
    assert direct_encounter(SWISS, {2, 5}) == {2: 0.0, 5: 0.0}
    assert direct_encounter(SWISS, {1, 2}) == {1: 1.0, 2: 0.0}


def test_direct_encounter_applies_only_when_the_tied_players_have_all_met():
    assert have_all_met(SWISS, {1, 2})  # a game played
    assert have_all_met(SWISS, {2, 3})  # a forfeit
    assert not have_all_met(SWISS, {2, 5})  # a void game is no encounter
    assert not have_all_met(SWISS, {1, 2, 3})  # 1 and 3 have not met
    assert not have_all_met(SWISS, {1})  # tied with no one


def test_tied_players_who_have_not_all_met_go_on_to_the_next_tie_break():
    e, f = 5, 6
    games = [Game(A, B, 1.0), Game(e, A, 1.0), Game(B, f, 1.0),
             Game(C, e, 0.5), Game(C, f, 0.5)]
    # A, B and C have 1 point each; A beat B, but C met neither: direct encounter does not
    # apply to the three (A is not put first by his win over B), and wins decide
    assert rank([C, B, A, e, f], games, ("score", "direct", "wins")) == [
        Standing(e, (1.5, None, 1.0)), Standing(B, (1.0, None, 1.0)),
        Standing(A, (1.0, None, 1.0)), Standing(C, (1.0, None, 0.0)),
        Standing(f, (0.5, None, 0.0))]


def test_a_drawn_direct_encounter_has_its_value_and_leaves_the_next_tie_break_to_decide():
    games = [Game(A, B, 0.5), Game(A, C, 1.0), Game(B, C, 1.0)]
    assert rank([A, B, C], games, ("score", "direct", "wins")) == [
        Standing(A, (1.5, 0.5, 1.0)), Standing(B, (1.5, 0.5, 1.0)),
        Standing(C, (0.0, None, 0.0))]


def test_the_swiss_ranked_by_score_buchholz_sonneborn_berger_and_wins():
    assert rank([1, 2, 3, 4, 5], SWISS, ("score", "buchholz", "sb", "wins")) == [
        Standing(1, (2.5, 5.0, 4.0, 2.0)),
        Standing(2, (2.0, 6.5, 4.0, 0.0)),
        Standing(4, (2.0, 6.0, 4.0, 0.0)),
        Standing(3, (1.5, 4.5, 2.0, 1.0)),
        Standing(5, (1.0, 5.0, 1.0, 0.0)),
    ]


def test_players_equal_on_everything_keep_the_order_given():
    games = [Game(1, 2, 0.5)]
    assert [s.player for s in rank([2, 1], games)] == [2, 1]
    assert [s.player for s in rank([1, 2], games)] == [1, 2]


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="'median'"):
        rank([1, 2], [Game(1, 2, 1.0)], ("score", "median"))
