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
            bye = field[pairing.bye]
            field[pairing.bye] = replace(bye, score=bye.score + 1, colours=bye.colours + ("-",),
                                         had_bye=True)
        for white, black in pairing.pairs:
            points = rng.choice((1.0, 0.5, 0.0))
            for me, other, colour, got in ((white, black, "W", points),
                                           (black, white, "B", 1 - points)):
                old = field[me]
                field[me] = replace(old, score=old.score + got, colours=old.colours + (colour,),
                                    opponents=old.opponents | {other})
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
