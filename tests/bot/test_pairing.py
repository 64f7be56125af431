"""Pairing by the book: FIDE's Berger tables exactly, and the Dutch system's rules."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from bot.service.pairing import (
    Entrant,
    PairingImpossible,
    berger_rounds,
    colour_preference,
    double_round,
    dutch_round,
    play_round,
)


def table(text: str) -> list[list[tuple[int, int]]]:
    """A Berger table as printed: one round a line, pairs 'white-black' between commas."""
    return [[tuple(int(seed) for seed in pair.split("-")) for pair in line.split(",")]
            for line in text.split()]


# The FIDE Handbook's tables (C.05 Annex 1), as printed there.
BERGER = {
    4: table("""1-4,2-3
                4-3,1-2
                2-4,3-1"""),
    6: table("""1-6,2-5,3-4
                6-4,5-3,1-2
                2-6,3-1,4-5
                6-5,1-4,2-3
                3-6,4-2,5-1"""),
    8: table("""1-8,2-7,3-6,4-5
                8-5,6-4,7-3,1-2
                2-8,3-1,4-7,5-6
                8-6,7-5,1-4,2-3
                3-8,4-2,5-1,6-7
                8-7,1-6,2-5,3-4
                4-8,5-3,6-2,7-1"""),
    10: table("""1-10,2-9,3-8,4-7,5-6
                 10-6,7-5,8-4,9-3,1-2
                 2-10,3-1,4-9,5-8,6-7
                 10-7,8-6,9-5,1-4,2-3
                 3-10,4-2,5-1,6-9,7-8
                 10-8,9-7,1-6,2-5,3-4
                 4-10,5-3,6-2,7-1,8-9
                 10-9,1-8,2-7,3-6,4-5
                 5-10,6-4,7-3,8-2,9-1"""),
    12: table("""1-12,2-11,3-10,4-9,5-8,6-7
                 12-7,8-6,9-5,10-4,11-3,1-2
                 2-12,3-1,4-11,5-10,6-9,7-8
                 12-8,9-7,10-6,11-5,1-4,2-3
                 3-12,4-2,5-1,6-11,7-10,8-9
                 12-9,10-8,11-7,1-6,2-5,3-4
                 4-12,5-3,6-2,7-1,8-11,9-10
                 12-10,11-9,1-8,2-7,3-6,4-5
                 5-12,6-4,7-3,8-2,9-1,10-11
                 12-11,1-10,2-9,3-8,4-7,5-6
                 6-12,7-5,8-4,9-3,10-2,11-1"""),
    14: table("""1-14,2-13,3-12,4-11,5-10,6-9,7-8
                 14-8,9-7,10-6,11-5,12-4,13-3,1-2
                 2-14,3-1,4-13,5-12,6-11,7-10,8-9
                 14-9,10-8,11-7,12-6,13-5,1-4,2-3
                 3-14,4-2,5-1,6-13,7-12,8-11,9-10
                 14-10,11-9,12-8,13-7,1-6,2-5,3-4
                 4-14,5-3,6-2,7-1,8-13,9-12,10-11
                 14-11,12-10,13-9,1-8,2-7,3-6,4-5
                 5-14,6-4,7-3,8-2,9-1,10-13,11-12
                 14-12,13-11,1-10,2-9,3-8,4-7,5-6
                 6-14,7-5,8-4,9-3,10-2,11-1,12-13
                 14-13,1-12,2-11,3-10,4-9,5-8,6-7
                 7-14,8-6,9-5,10-4,11-3,12-2,13-1"""),
}


@pytest.mark.parametrize("players", sorted(BERGER))
def test_berger_tables_are_fides_round_by_round(players):
    assert berger_rounds(players) == BERGER[players]


def test_the_sixteen_player_table_rounds_1_2_3_and_15():
    rounds = berger_rounds(16)
    assert rounds[0] == table("1-16,2-15,3-14,4-13,5-12,6-11,7-10,8-9")[0]
    assert rounds[1] == table("16-9,10-8,11-7,12-6,13-5,14-4,15-3,1-2")[0]
    assert rounds[2] == table("2-16,3-1,4-15,5-14,6-13,7-12,8-11,9-10")[0]
    assert rounds[14] == table("8-16,9-7,10-6,11-5,12-4,13-3,14-2,15-1")[0]


@pytest.mark.parametrize("players", [3, 5, 7, 9, 11, 13, 15])
def test_an_odd_field_uses_the_next_table_with_the_dummy_left_out(players):
    whole = berger_rounds(players + 1)
    assert berger_rounds(players) == [[pair for pair in round_ if players + 1 not in pair]
                                      for round_ in whole]


@pytest.mark.parametrize("players", range(3, 17))
def test_everyone_meets_everyone_once_with_colours_balanced(players):
    rounds = berger_rounds(players)
    assert len(rounds) == players - 1 + players % 2
    met = Counter(frozenset(pair) for round_ in rounds for pair in round_)
    assert set(met) == {frozenset((a, b)) for a in range(1, players + 1)
                        for b in range(a + 1, players + 1)}
    assert set(met.values()) == {1}
    for round_ in rounds:
        seats = [seed for pair in round_ for seed in pair]
        assert len(seats) == len(set(seats))
    balance = Counter()
    for round_ in rounds:
        for white, black in round_:
            balance[white] += 1
            balance[black] -= 1
    assert all(abs(value) <= 1 for value in balance.values())


def test_a_double_round_robin_repeats_the_cycle_with_colours_reversed():
    first = berger_rounds(4)
    both = double_round(first)
    assert both[:3] == first
    assert both[3:] == table("""4-1,3-2
                                3-4,2-1
                                4-2,1-3""")


@pytest.mark.parametrize("players", range(5, 17))
def test_a_double_round_robin_with_the_last_two_rounds_swapped_never_gives_three_alike(
        players):
    single = berger_rounds(players)
    both = double_round(single, swap_last_two=True)
    assert both[:-len(single)] == single[:-2] + [single[-1], single[-2]]
    assert both[-len(single):] == [[(b, w) for w, b in round_] for round_ in single]
    for player in range(1, players + 1):
        colours = "".join("W" if pair[0] == player else "B"
                          for round_ in both for pair in round_ if player in pair)
        assert "WWW" not in colours and "BBB" not in colours


def test_without_the_swap_the_top_seed_has_three_blacks_running():
    both = double_round(berger_rounds(6))
    assert [("W" if pair[0] == 1 else "B") for round_ in both[3:7]
            for pair in round_ if 1 in pair] == ["W", "B", "B", "B"]


def test_a_round_robin_needs_two_players():
    with pytest.raises(ValueError, match="at least 2"):
        berger_rounds(1)


# --- the Dutch system ------------------------------------------------------------------------
def fresh(count: int) -> list[Entrant]:
    return [Entrant(seed, seed, 0.0, (), frozenset(), False) for seed in range(1, count + 1)]


def test_round_one_pairs_the_top_half_with_the_bottom_half_colours_alternating():
    # The 14-player example of Mario Held's Dutch-system tutorial: 1-8, 9-2, 3-10, ...
    pairing = dutch_round(fresh(14), 1, 5)
    assert pairing.pairs == [(1, 8), (9, 2), (3, 10), (11, 4), (5, 12), (13, 6), (7, 14)]
    assert pairing.bye is None


def test_round_one_with_black_drawn_for_the_top_seed():
    pairing = dutch_round(fresh(6), 1, 5, initial_colour="B")
    assert pairing.pairs == [(4, 1), (2, 5), (6, 3)]


def test_round_one_with_an_odd_field_gives_the_bye_to_the_last_seed():
    pairing = dutch_round(fresh(7), 1, 5)
    assert pairing.pairs == [(1, 4), (5, 2), (3, 6)]
    assert pairing.bye == 7


def entrant(seed: int, score: float, colours: str, opponents: tuple[int, ...],
            had_bye: bool = False) -> Entrant:
    return Entrant(seed, seed, score, tuple(colours), frozenset(opponents), had_bye)


def test_a_second_round_worked_by_the_rules():
    # Round 1 (8 players): 1-5 1-0, 6-2 0-1, 3-7 1/2, 8-4 1-0.
    field = [entrant(1, 1, "W", (5,)), entrant(2, 1, "B", (6,)), entrant(3, 0.5, "W", (7,)),
             entrant(4, 0, "B", (8,)), entrant(5, 0, "B", (1,)), entrant(6, 0, "W", (2,)),
             entrant(7, 0.5, "B", (3,)), entrant(8, 1, "W", (4,))]
    pairing = dutch_round(field, 2, 5)
    # Score 1 (1, 2, 8): S1 = [1], S2 = [2, 8]; 1 wants black, 2 white: 2-1, 8 floats.
    # Score 1/2 with 8 moved down: 8 (wants black) meets 7 (wants white), not 3 (wants
    # black too); 3 floats. Score 0 with 3 moved down: 3 meets 4 (wants white), then the
    # remainder 5-6 (5 wants white, 6 black).
    assert pairing.pairs == [(2, 1), (7, 8), (4, 3), (5, 6)]
    assert pairing.bye is None


def test_no_two_players_meet_twice():
    field = [entrant(1, 1, "W", (2,)), entrant(2, 0, "B", (1,)),
             entrant(3, 1, "W", (4,)), entrant(4, 0, "B", (3,))]
    pairing = dutch_round(field, 2, 3)
    assert {frozenset(pair) for pair in pairing.pairs} == {frozenset((1, 3)), frozenset((2, 4))}


def test_the_bye_goes_to_the_lowest_ranked_who_has_not_had_one():
    field = [entrant(1, 1, "W", (4,)), entrant(2, 1, "-", (), had_bye=True),
             entrant(3, 0, "B", (5,)), entrant(4, 0, "B", (1,)), entrant(5, 1, "W", (3,))]
    pairing = dutch_round(field, 2, 4)
    assert pairing.bye == 4  # lowest score group (3, 4): the higher number


def test_a_player_who_had_the_bye_is_passed_over():
    field = [entrant(1, 1, "W", (4,)), entrant(2, 1, "W", (5,)),
             entrant(3, 1, "B", (6,)), entrant(4, 0, "B", (1,)),
             entrant(5, 0, "B", (2,)), entrant(6, 0, "W", (3,)), entrant(7, 0, "-", (), True)]
    assert dutch_round(field, 2, 4).bye == 6


def test_two_players_who_both_must_have_white_do_not_meet():
    # 1 and 2 both had black twice running; 3 and 4 white twice.
    field = [entrant(1, 1, "BB", (5, 6)), entrant(2, 1, "BB", (7, 8)),
             entrant(3, 1, "WW", (9, 10)), entrant(4, 1, "WW", (11, 12))]
    pairing = dutch_round(field, 3, 5)
    assert pairing.pairs == [(1, 3), (2, 4)]


def test_in_the_last_round_topscorers_may_meet_with_the_same_absolute_preference():
    # 1 and 2 (2.5 of 3, topscorers) must both have white and have met everyone else:
    # before the last round no pairing exists; in the last round they meet, and the wider
    # colour difference (2's -2 against 1's -1) gets its colour.
    field = [entrant(1, 2.5, "WBB", (3, 4, 5)), entrant(2, 2.5, "-BB", (3, 4), had_bye=True),
             entrant(3, 0.5, "WBW", (1, 2, 6)), entrant(4, 0.5, "BWB", (1, 2, 7))]
    with pytest.raises(PairingImpossible):
        dutch_round(field, 4, 5)
    pairing = dutch_round(field, 4, 4)
    assert pairing.pairs == [(2, 1), (4, 3)]


def test_colour_preferences_by_the_rules():
    assert colour_preference(()) == (None, 0)
    assert colour_preference("WB") == ("W", 1)  # mild: the other colour than last time
    assert colour_preference("W") == ("B", 2)  # strong: difference +1
    assert colour_preference("BWB-") == ("W", 2)  # a round without a game does not count
    assert colour_preference("WWB-W") == ("B", 3)  # absolute: difference +2
    assert colour_preference("WBB") == ("W", 3)  # absolute: black twice running


def test_no_pairing_is_impossible_to_report():
    field = [entrant(1, 1, "W", (2,)), entrant(2, 0, "B", (1,))]
    with pytest.raises(PairingImpossible):
        dutch_round(field, 2, 3)


def test_two_entrants_with_one_id_are_refused():
    with pytest.raises(ValueError, match="same id"):
        dutch_round([entrant(1, 0, "", ()), replace(entrant(1, 0, "", ()), number=2)], 1, 3)


def play_swiss(players: int, rounds: int, seed: int) -> list[list[tuple[str, int, int | None]]]:
    """A Swiss tournament with random results; each round's (kind, white/bye, black)."""
    rng = random.Random(seed)
    field = {e.id: e for e in fresh(players)}
    history = []
    for number in range(1, rounds + 1):
        pairing = dutch_round(list(field.values()), number, rounds)
        played = [("game", white, black) for white, black in pairing.pairs]
        if pairing.bye is not None:
            played.append(("bye", pairing.bye, None))
        play_round(field, pairing, lambda: rng.choice((1.0, 0.5, 0.0)))
        history.append(played)
    return history


@pytest.mark.parametrize(("players", "rounds", "seed"),
                         [(12 + seed * 3, 7, seed) for seed in range(12)]
                         + [(301, 11, 12), (1001, 11, 13)])
def test_random_tournaments_keep_the_absolute_criteria(players, rounds, seed):
    history = play_swiss(players, rounds, seed)
    met: Counter = Counter()
    byes: Counter = Counter()
    colours: dict[int, str] = {p: "" for p in range(1, players + 1)}
    for number, played in enumerate(history, 1):
        seated = [p for _, white, black in played for p in (white, black) if p is not None]
        assert sorted(seated) == list(range(1, players + 1))
        for kind, white, black in played:
            if kind == "bye":
                byes[white] += 1
                continue
            met[frozenset((white, black))] += 1
            colours[white] += "W"
            colours[black] += "B"
        if number < rounds:  # the last round may relax colours for topscorers
            for sequence in colours.values():
                assert abs(sequence.count("W") - sequence.count("B")) <= 2
                assert "WWW" not in sequence and "BBB" not in sequence
    assert set(met.values()) == {1}
    assert set(byes.values()) <= {1}
    assert len(byes) == (rounds if players % 2 else 0)


# bbpPairings' test cases for the Dutch rules of 2025 (test/tests/dutch_2025_C5 and C9 in
# its repository): TRF tournaments and the pairings that FIDE-endorsed engine expects.
def test_bbp_pairings_case_c5_the_leaders_float_when_the_rest_cannot_be_paired():
    # Round 3 of six; player 4 is absent. 1 and 3 (2 points) could meet, but then 2 and 5
    # (who met in round 1) could not: both leaders go down, and 6 (no points) has the bye.
    field = [entrant(1, 2, "WB", (4, 2)), entrant(2, 1, "BW", (5, 1)),
             entrant(3, 2, "WB", (6, 4)), entrant(5, 1, "WB", (2, 6)),
             entrant(6, 0, "BW", (3, 5))]
    pairing = dutch_round(field, 3, 3)
    assert pairing.pairs == [(1, 5), (3, 2)]
    assert pairing.bye == 6


def test_bbp_pairings_case_c9_the_absent_player_is_not_left_out_again():
    # Round 2 of five; player 5 was absent in round 1 (a zero-point unplayed round).
    field = [entrant(1, 1, "W", (3,)), entrant(2, 1, "B", (4,)), entrant(3, 0, "B", (1,)),
             entrant(4, 0, "W", (2,)), entrant(5, 0, "-", ())]
    pairing = dutch_round(field, 2, 3)
    assert pairing.pairs == [(2, 1), (3, 5)]
    assert pairing.bye == 4


# bbpPairings' issue_7 case: a 60-player Swiss of 15 rounds after round 14, from its TRF
# (one line a player: number, points, then per round opponent, colour, result; + and -
# are forfeits, which are not games: the two may meet again, and a forfeit win bars the
# bye). Its expected round 15, board by board:
ISSUE_7 = """
    1 10.5 31b1 16w1 12b1 6w1 7b0 4w1 3b0 14w1 10w1 8b1 5w1 11b0 17w= 2b1
    2 8.5 32w1 17b0 29w1 15b= 27w1 13b1 8w= 11b0 20w1 7b= 10w= 12b= 9w1 1w0
    3 10.0 33b1 18w= 22b1 26w1 8b1 7w= 1w1 6b1 11w1 5b0 12w0 17b= 4b1 10w=
    4 9.0 34w+ 19b1 11w= 17b= 5w1 1b0 18w= 8b- 27b1 15w+ 7w1 8b= 3w0 14b1
    5 9.0 35b1 20w1 14b1 8w= 4b0 6w- 17w1 18b1 16w+ 3w1 1b0 7w= 10w1 6b0
    6 9.0 36w1 21b1 13w1 1b0 12w1 5b+ 7b0 3w0 31b1 11b= 8w0 15b1 16w= 5w1
    7 9.5 37b1 22w= 30b+ 11b1 1w1 3b= 6w1 10w+ 8b0 2w= 4b0 5b= 12w1 17b=
    8 9.5 38w1 25b1 15w1 5b= 3w0 17b1 2b= 4w+ 7w1 1w0 6b1 4w= 11b1 12b0
    9 8.0 39b- 53w1 31b1 19b1 17w= 14w= 10b0 25w1 22b1 12b= 11w0 13w1 2b0 15b=
    10 8.5 40w1 26b= 17w= 21b1 13w= 15b1 9w1 7b- 1b0 16w1 2b= 20w1 5b0 3b=
    11 9.5 41b1 24w1 4b= 7w0 14b= 29w1 20b1 2w1 3b0 6w= 9b1 1w1 8w0 16b1
    12 9.0 42w1 27b1 1w0 23b1 6b0 18w= 31b= 26w1 14b1 9w= 3b1 2w= 7b0 8w1
    13 8.0 43b1 28w1 6b0 16w1 10b= 2w0 27b1 20w- 29w1 17b0 39w1 9b0 22w= 36b1
    14 8.0 44w1 29b1 5w0 25b1 11w= 9b= 21w1 1b0 12w0 26b1 17w0 27b+ 20b1 4w0
    15 8.0 45b1 39w1 8b0 2w= 26b1 10w0 33b1 16w- 18w1 4b- 25b1 6w0 31b1 9w=
    16 8.0 46w1 1b0 38w1 13b0 40w= 30b1 23w1 15b+ 5b- 10b0 31w1 19b1 6b= 11w0
    17 9.0 47b1 2w1 10b= 4w= 9b= 8w0 5b0 39w1 33b1 13w1 14b1 3w= 1b= 7w=
    18 8.0 48w1 3b= 26w0 33b1 42w1 12b= 4b= 5w0 15b0 39w- 36w= 43b1 39w1 21b1
    19 7.0 49b1 4w0 35b1 9w0 31b0 39w= 43b- 32b1 42w1 40b1 21w= 16w0 34b1 25w-
    20 7.5 50w1 5b0 40w= 36b= 35w1 25b1 11w0 13b+ 2b0 28w1 22b1 10b0 14w0 29b=
    21 7.0 51b1 6w0 37b1 10w0 39b1 24w1 14b0 31w0 34b1 25w= 19b= 22w0 32b1 18w0
    22 8.0 52w1 7b= 3w0 40b= 36w= 38b= 32w1 30b1 9w0 29b1 20w0 21b1 13b= 23w=
    23 7.5 53b= 30w= 39b1 12w0 37b1 31w= 16b0 33w0 35b= 41w1 29w= 38b1 26w= 22b=
    24 8.0 54w1 11b0 42w= 44b1 30w= 21b0 40w1 29b0 36w1 31b0 38w= 39b= 35w1 26b1
    25 8.0 55b1 8w0 41b1 14w0 46b1 20w0 34w1 9b0 30w1 21b= 15w0 40b1 29w= 19b+
    26 7.0 56w+ 10w= 18b1 3b0 15w0 36b= 38w1 12b0 43w1 14w0 33b1 31w= 23b= 24w0
    27 6.0 57b+ 12w0 43b= 47w1 2b0 42b1 13w0 40b1 4w0 33w= 28b= 14w- 36w0 45b=
    28 7.0 58w1 13b0 44w= 42b0 60w1 40b0 48w1 43b= 38w1 20b0 27w= 29b0 53w= 46b1
    29 7.5 59b+ 14w0 2b0 45w1 41b1 11b0 36w1 24w1 13b0 22w0 23b= 28w1 25b= 20w=
    30 6.0 60w1 23b= 7w- 43w1 24b= 16w0 46b1 22w0 25b0 47w= 51b= 35w- 48w1 39b0
    31 7.0 1w0 46b1 9w0 48b1 19w1 23b= 12w= 21b1 6w0 24w1 16b0 26b= 15w0 38b=
    32 6.5 2b0 47w= 49b= 46w0 53b1 41w1 22b0 19w0 55b+ 38b0 48w1 44b1 21w0 37w=
    33 7.0 3w0 48b= 60w1 18w0 49b1 44b1 15w0 23b1 17w0 27b= 26w0 36b0 55w1 53b+
    34 6.0 4b- 49w= 47b0 53w= 54b1 45w1 25b0 42b1 21w0 43b= 44w= 51b1 19w0 40b0
    35 6.5 5w0 50b1 19w0 52b1 20b0 46w0 47b- 57b1 23w= 60b= 58w1 30b+ 24b0 44w=
    36 7.0 6b0 51w= 53b1 20w= 22b= 26w= 29b0 47w1 24b0 37w= 18b= 33w1 27b1 13w0
    37 6.5 7w0 52b1 21w0 54b1 23w0 48b0 53w= 58b= 50w1 36b= 43w0 42b1 40w= 32b=
    38 7.0 8b0 55w1 16b0 49w= 47b1 22w= 26b0 46w1 28b0 32w1 24b= 23w0 45b+ 31w=
    39 7.0 9w+ 15b0 23w0 56b1 21w0 19b= 44w1 17b0 60w1 18b+ 13b0 24w= 18b0 30w1
    40 7.0 10b0 56w1 20b= 22w= 16b= 28w1 24b0 27w0 41b1 19w0 47b1 25w0 37b= 34w1
    41 6.0 11w0 54b1 25w0 58b1 29w0 32b0 57w1 48b1 40w0 23b0 42w= 53b0 51w= 43b1
    42 6.0 12b0 57w1 24b= 28w1 18b0 27w0 60b1 34w0 19b0 45w= 41b= 37w0 50b1 51w=
    43 5.5 13w0 58b1 27w= 30b0 44w0 52b1 19w+ 28w= 26b0 34w= 37b1 18w0 46b0 41w0
    44 6.5 14b0 59w1 28b= 24w0 43b1 33w0 39b0 55w= 45b= 54w1 34b= 32w0 47w1 35b=
    45 6.0 15w0 60b= 48w= 29b0 56w1 34b0 58w= 53b= 44w= 42b= 55w1 47b= 38w- 27w=
    46 6.5 16b0 31w0 51b+ 32b1 25w0 35b1 30w0 38b0 48w0 53b= 60w1 59b1 43w1 28w0
    47 6.0 17w0 32b= 34w1 27b0 38w0 57b= 35w+ 36b0 53w1 30b= 40w0 45w= 44b0 56b1
    48 6.0 18b0 33w= 45b= 31w0 55b1 37w1 28b0 41w0 46b1 51w0 32b0 60w1 30b0 57w1
    49 5.0 19w0 34b= 32w= 38b= 33w0 60b0 55w0 50b0 56w= 57b= 59w0 52b1 54w1 58b=
    50 5.0 20b0 35w0 56b- 57b= 59w0 51b= 56w1 49w1 37b0 55b0 52w= 58b= 42w0 54w1
    51 6.0 21w0 36b= 46w- 60b0 57w0 50w= 59b1 54w= 52b1 48b1 30w= 34w0 41b= 42b=
    52 4.5 22b0 37w0 57b1 35w0 58b= 43w0 54b= 60w- 51w0 56b1 50b= 49w0 59w1 55b0
    53 6.0 23w= 9b0 36w0 34b= 32w0 59b1 37b= 45w= 47b0 46w= 54b1 41w1 28b= 33w-
    54 4.0 24b0 41w0 59b1 37w0 34w0 55b= 52w= 51b= 58w1 44b0 53w0 56w= 49b0 50b0
    55 6.0 25w0 38b0 58w0 59b1 48w0 54w= 49b1 44b= 32w- 50w1 45b0 57w1 33b0 52w1
    56 3.5 26b- 40b0 50w+ 39w0 45b0 58w= 50b0 59w0 49b= 52w0 57w0 54b= 60b1 47w0
    57 4.5 27w- 42b0 52w0 50w= 51b1 47w= 41b0 35w0 59b0 49w= 56b1 55b0 58w1 48b0
    58 5.0 28b0 43w0 55b1 41w0 52w= 56b= 45b= 37w= 54b0 59w1 35b0 50w= 57b0 49w=
    59 4.5 29w- 44b0 54w0 55w0 50b1 53w0 51w0 56b1 57w1 58b0 49b1 46w0 52b0 60w=
    60 4.5 30b0 45w= 33b0 51w1 28b0 49w1 42w0 52b+ 39b0 35w= 46b0 48b0 56w0 59b=
"""
ISSUE_7_ROUND_15 = [(1, 15), (3, 2), (11, 17), (7, 10), (8, 14), (4, 6), (5, 12), (9, 16),
                    (13, 25), (24, 22), (18, 29), (20, 23), (19, 33), (21, 38), (39, 26),
                    (28, 36), (31, 40), (37, 35), (44, 46), (30, 32), (27, 48), (47, 42),
                    (51, 55), (34, 50), (49, 45), (53, 58), (41, 59), (56, 43), (60, 52),
                    (54, 57)]


def from_trf_lines(text: str) -> list[Entrant]:
    """Entrants from the compact TRF lines above."""
    field = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        number, points, *rounds = line.split()
        colours, opponents, forfeit_win = [], set(), False
        for played in rounds:
            opponent, colour, result = int(played[:-2]), played[-2], played[-1]
            if result in "+-":
                colours.append("-")
                forfeit_win |= result == "+"
            else:
                colours.append(colour.upper())
                opponents.add(opponent)
        field.append(Entrant(int(number), int(number), float(points), tuple(colours),
                             frozenset(opponents), forfeit_win))
    return field


def test_bbp_pairings_issue_7_the_top_nine_boards_of_the_last_round():
    pairing = dutch_round(from_trf_lines(ISSUE_7), 15, 15)
    # The leaders, who have met the whole 9.5 and 9 groups, come down to 8.5 and 8 (1-15,
    # 3-2); 7-10 meet again after a forfeit. Below board 9 the boards differ from
    # bbpPairings': the float criteria (C.14-C.19) are not implemented here.
    assert pairing.pairs[:9] == ISSUE_7_ROUND_15[:9]
    assert len(pairing.pairs) == 30
    assert pairing.bye is None


def test_pairs_name_entrants_by_id_and_rank_them_by_pairing_number():
    field = [Entrant(700 + number, number, 0.0, (), frozenset(), False)
             for number in (4, 2, 3, 1)]
    pairing = dutch_round(field, 1, 3)
    assert pairing.pairs == [(701, 703), (704, 702)]
