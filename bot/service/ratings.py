"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013).

Each rated game is its own rating period for both players: when it ends, each player's
rating is updated against the other's rating from before the game. Ratings are kept per
variant; a player's first game starts from 1500 / 350 / 0.06.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2 works on (rating - 1500) / SCALE
TAU = 0.5  # how much the volatility may change; Glickman suggests 0.3 to 1.2
EPSILON = 1e-6
MAX_DEVIATION = 350.0


@dataclass(frozen=True)
class Rating:
    """A rating, its deviation (uncertainty) and its volatility, on the Glicko scale."""

    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results`` as (opponent, score)
    pairs, score 1 for a win, 0.5 for a draw and 0 for a loss."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        # step 6 alone: uncertainty grows for a player who did not play
        phi_star = min(math.sqrt(phi * phi + sigma * sigma), MAX_DEVIATION / SCALE)
        return Rating(player.rating, phi_star * SCALE, sigma)
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma_new = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(SCALE * mu_new + 1500.0, min(SCALE * phi_new, MAX_DEVIATION), sigma_new)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    return math.exp(big_a / 2.0)


def rate_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game; ``first_score`` is 1, 0.5 or 0."""
    return (update(first, [(second, first_score)]),
            update(second, [(first, 1.0 - first_score)]))
