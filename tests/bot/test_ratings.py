"""Glicko-2 against the worked example of Glickman's paper, and per-game updates."""

from __future__ import annotations

import pytest

from bot.service.ratings import Rating, rate_game, update


def test_glickmans_worked_example():
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = update(player, results)
    # the paper rounds its intermediate values and reaches 1464.06 / 151.52 / 0.05999
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_player_who_does_not_play_becomes_less_certain():
    new = update(Rating(1500, 200, 0.06), [])
    assert new.rating == 1500
    assert new.deviation == pytest.approx(200.2714, abs=0.001)  # sqrt(RD^2 + (sigma * 173.7178)^2)


def test_the_winner_gains_what_an_equal_loser_loses():
    winner, loser = rate_game(Rating(), Rating(), 1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation == loser.deviation < 350


def test_a_draw_between_equals_changes_no_rating():
    first, second = rate_game(Rating(1600, 80), Rating(1600, 80), 0.5)
    assert first.rating == pytest.approx(1600)
    assert second.rating == pytest.approx(1600)


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    against_strong, _ = rate_game(Rating(1500, 100), Rating(1800, 100), 1.0)
    against_weak, _ = rate_game(Rating(1500, 100), Rating(1200, 100), 1.0)
    assert against_strong.rating - 1500 > against_weak.rating - 1500 > 0
