"""Scores and tie-breaks of a tournament's games (FIDE C.07, the Tie-Break Regulations).

Pure functions over plain `Game` values: the tournament topic passes every game of a
section and gets the numbers its standings and crosstable show.

A game is one board of one round. Besides games played over the board there are:

* **byes**: ``black`` is None; ``white_score`` is what the bye gives (1 for a
  pairing-allocated bye, 0.5 for a half-point bye, 0 for a zero bye); ``played`` False;
* **forfeits**: both players named, ``played`` False, ``white_score`` 1 or 0 for the side
  that won by forfeit;
* **void games** (a withdrawal's annulled games, by ICCF's rule): ``white_score`` None;
  they count for nothing anywhere, as if never paired.

Unplayed rounds in the tie-breaks (our choice, after FIDE C.07 of 2023, article 16): a
player's own unplayed rounds (byes, forfeit wins and losses) count for Buchholz as games
against a *dummy opponent* who has the player's own score, as FIDE's 2023 rules have it,
and for Sonneborn-Berger the same dummy is used, with the points the player actually got
(a bye's full point adds the player's own score, a forfeit loss nothing). Opponents'
scores are taken as they stand, their own unplayed rounds included: FIDE's adjustment of
an opponent's unplayed rounds is not applied. Void games are not rounds of either player.

Direct encounter applies, as FIDE C.07 has it, to a group of players tied on everything
ranked before it who have all met each other (a game between each two of them that
counts: played or forfeited, not void); it then ranks them by the points they scored
against each other, and has a value for each of them even when it leaves them equal (a
drawn game: ½ each; the next tie-break decides). A player tied with no one, or tied with
players not all of whom have met, has no value (None): direct encounter does not apply
to them, so it neither orders them nor shows a number that looks like a result (standings
print "–" there, as FIDE's software leaves the column blank). FIDE's further rule for a
group not all of whom have met (one of them having scored more against the others than
any of them still can) is not applied: such a group goes on to the next tie-break.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """One board of one round: white's score (black's is 1 minus it), or None if void."""

    white: int
    black: int | None  # None: a bye for white
    white_score: float | None  # None: unplayed and void (counts for nothing)
    played: bool = True  # False for byes and forfeits

    def sides(self) -> Iterable[tuple[int, int | None, float]]:
        """(player, opponent or None, points) for each side of a scored game."""
        if self.white_score is None:
            return ()
        if self.black is None:
            return ((self.white, None, self.white_score),)
        return ((self.white, self.black, self.white_score),
                (self.black, self.white, 1.0 - self.white_score))


@dataclass(frozen=True)
class Standing:
    """A player's place in a ranking and the values that placed him, in the order asked."""

    player: int
    values: tuple[float | None, ...]  # None: direct encounter does not apply to him


def scores(games: Iterable[Game]) -> dict[int, float]:
    """Every player's points: wins 1, draws 1/2, byes and forfeits as scored; void games
    nothing. Players whose every game is void are absent."""
    return _Record.of(games).totals


@dataclass(frozen=True)
class _Record:
    """The games read once: every player's score and scored rounds (game, opponent or
    None, points), so ranking a large field does not re-read every game per player."""

    totals: dict[int, float]
    rounds: dict[int, list[tuple[Game, int | None, float]]]

    @classmethod
    def of(cls, games: Iterable[Game]) -> _Record:
        rounds: dict[int, list[tuple[Game, int | None, float]]] = defaultdict(list)
        for game in games:
            for player, opponent, points in game.sides():
                rounds[player].append((game, opponent, points))
        totals = {player: float(sum(points for _, _, points in played))
                  for player, played in rounds.items()}
        return cls(totals, dict(rounds))

    def opponent_scores(self, player: int) -> list[tuple[float, float]]:
        """(opponent's score, points the player got) per round, with the dummy opponent
        (the player's own score) for every unplayed round."""
        own = self.totals.get(player, 0.0)
        return [(self.totals[opponent] if game.played and opponent is not None else own,
                 points)
                for game, opponent, points in self.rounds.get(player, ())]

    def buchholz(self, player: int, cut: int = 0) -> float:
        values = sorted(score for score, _ in self.opponent_scores(player))
        return float(sum(values[cut:]))

    def sonneborn_berger(self, player: int) -> float:
        return float(sum(score * points for score, points in self.opponent_scores(player)))

    def wins(self, player: int) -> int:
        return sum(1 for game, opponent, points in self.rounds.get(player, ())
                   if game.played and opponent is not None and points == 1.0)


def buchholz(games: Iterable[Game], player: int, cut: int = 0) -> float:
    """Buchholz: the sum of the opponents' scores (FIDE C.07 BH); ``cut=1`` drops the
    lowest one (Buchholz cut-1), ``cut=n`` the n lowest. Unplayed rounds count with the
    dummy opponent (see the module docstring)."""
    return _Record.of(games).buchholz(player, cut)


def sonneborn_berger(games: Iterable[Game], player: int) -> float:
    """Sonneborn-Berger: the scores of the opponents beaten plus half the scores of those
    drawn (FIDE C.07 SB: each opponent's score times the points taken from him).
    Unplayed rounds count with the dummy opponent (see the module docstring)."""
    return _Record.of(games).sonneborn_berger(player)


def wins(games: Iterable[Game], player: int) -> int:
    """Games won over the board (FIDE C.07 WON): forfeit wins and byes do not count."""
    return _Record.of(games).wins(player)


def direct_encounter(games: Iterable[Game], tied: Collection[int]) -> dict[int, float]:
    """Points each tied player scored in the games among the tied players (FIDE C.07 DE),
    forfeits between them included, void games not. It is computed whether or not all the
    tied players have met: `have_all_met` says whether it applies."""
    among = set(tied)
    points = {player: 0.0 for player in among}
    for game in games:
        for player, opponent, scored in game.sides():
            if player in among and opponent in among:
                points[player] += scored
    return points


def have_all_met(games: Iterable[Game], players: Collection[int]) -> bool:
    """Whether each two of ``players`` have met in a game that counts (played or
    forfeited; a void game is no encounter): the condition for direct encounter to apply.
    A single player has met no one."""
    among = set(players)
    if len(among) < 2:
        return False
    met = {frozenset((game.white, game.black)) for game in games
           if game.black is not None and game.white_score is not None
           and game.white in among and game.black in among and game.white != game.black}
    return len(met) == len(among) * (len(among) - 1) // 2


def _direct(games: Sequence[Game], group: list[int]) -> dict[int, float | None]:
    """Direct encounter's value for each of a tied group: the points among them when they
    have all met, else None for each (it does not apply; see the module docstring)."""
    if not have_all_met(games, group):
        return dict.fromkeys(group)
    return dict(direct_encounter(games, group))


#: The tie-breaks `rank` knows, by name: each a player's value, from the games read once.
_KEYS = {
    "score": lambda record, player: record.totals.get(player, 0.0),
    "sb": _Record.sonneborn_berger,
    "buchholz": _Record.buchholz,
    "buchholz-cut1": lambda record, player: record.buchholz(player, cut=1),
    "wins": _Record.wins,
}


def rank(players: Sequence[int], games: Iterable[Game],
         order: Sequence[str] = ("score", "direct", "sb", "buchholz", "wins")
         ) -> list[Standing]:
    """The players ranked by the criteria in ``order`` (names: score, direct, sb,
    buchholz, buchholz-cut1, wins), each deciding only among players equal on all before
    it; direct encounter is computed within each such group, and is None where it does not
    apply (a group of one, or not all of whom have met). Players still equal keep the
    order of ``players``. Each standing carries its values in the order asked."""
    unknown = [name for name in order if name != "direct" and name not in _KEYS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}")
    games = list(games)  # read twice: for the record and for direct encounters
    record = _Record.of(games)
    values: dict[int, list[float | None]] = {player: [] for player in players}
    groups: list[list[int]] = [list(players)]
    for name in order:
        for group in groups:
            if name == "direct":
                among = _direct(games, group)
                for player in group:
                    values[player].append(among[player])
            else:
                for player in group:
                    values[player].append(float(_KEYS[name](record, player)))
        groups = [part for group in groups for part in _split(group, values)]
    ranked = [player for group in groups for player in group]
    return [Standing(player, tuple(values[player])) for player in ranked]


def _split(group: list[int], values: dict[int, list[float | None]]) -> list[list[int]]:
    """A tied group sorted on the values so far and cut where they differ. Players tied
    before a criterion all have a value for it or all have none (direct encounter), so
    none sorts as any number would."""
    ordered = sorted(group, key=lambda player: [-(v or 0.0) for v in values[player]])
    parts: list[list[int]] = []
    for player in ordered:
        if parts and values[parts[-1][0]] == values[player]:
            parts[-1].append(player)
        else:
            parts.append([player])
    return parts

