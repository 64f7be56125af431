"""Pairing for tournaments: FIDE's Berger tables (round robin) and the Dutch system (Swiss).

Pure functions, plain data in and out: the tournament topic keeps the players and results
and asks this module who plays whom, with which colours, in the next round.

Why our own code and not ``pairing-core`` (PyPI, 0.4.1, the one library that claims both):
its Berger tables agree with FIDE's, but its Dutch pairing is far too slow for the size we
promise (a 1,000-player Swiss round under 1 s). Its frozen pre-2026 kernel took 40 s for
round 1 of 1,000 players and 4.5 s for round 2 (0.5 s by round 5); its 2026 kernel paired
round 1 in 0.1 s but had not paired round 2 after two minutes. The frozen kernel also
gives the initial colour to every top-half player in round 1 (boards 1-4, 2-5, 3-6 all
white for the top seed), where FIDE alternates it (E.5: 1-4, 5-2, 3-6). Its README says
itself that it is not yet released and that big brackets hit "factorial ceilings".

Berger tables (FIDE C.05 Annex 1): for an even number of slots n (odd fields add a dummy
n+1, whose opponent in a round sits out), round 1 is 1-n, 2-(n-1), ...; each following
round lists players 1..n-1 in the order of the previous round's boards (white before
black), n meets the last of that list on board 1 (n is white in even rounds), and the
rest pair from the end of the list (white = the one before the last). A double round
robin repeats the cycle with colours reversed, optionally with the first cycle's last two
rounds swapped (FIDE's recommendation, against three games running with one colour).

The Dutch system (FIDE C.04.3 as approved in 2016-2017, with the bye criterion of its
2025 revision), as implemented here:

* **Ranking.** Players are ranked by score, then pairing number. A score group is the
  players with one score; a bracket is a score group plus the players floated down into
  it (MDPs, moved-down players), paired top-down.
* **Absolute criteria.** Two players never meet twice. A player gets at most one
  pairing-allocated bye (and none after a full-point unplayed win: ``had_bye``). No
  player is given a colour that makes his colour difference (whites minus blacks over
  played games) pass +-2 or gives him the same colour three times running: two players
  who both *must* have the same colour (an absolute preference) do not meet. In the
  last round this is relaxed for topscorers (more than half the possible score so far):
  they may meet with the same absolute preference, and the wider colour difference wins.
* **Colour preferences** (A.6): absolute when the difference is beyond +-1 or the last
  two played games had one colour; strong when it is +-1; mild (the other colour than
  last time) when it is 0; none before a first game.
* **The bye** goes, when the number is odd, to a player who has not had one and without
  whom the rest can still be paired: the lowest score first (C.5), then the fewest
  rounds without a game (the 2025 rules' C.9: an absent player is not left out twice),
  then the lowest ranked (C.2).
* **A bracket** is paired as FIDE does: the MDPs first (S1 = the MDPs, S2 = the
  residents; as many MDPs paired as can be, the highest ones), then the remaining
  residents with S1 = their top MaxPairs and S2 = the rest; pairs S1[i]-S2[j] are tried
  in the transposition order of S2 (the first S2 permutation that works), players left
  in S2 float down. The most pairs (C.6) come first, then the most MDPs paired (C.7).
* **Colour preferences in a bracket** (simplified): each S1 player tries first the S2
  players with whom both can have their preferred colour, in S2's order, and only then
  the others. This meets every preference whenever the transposition order allows it,
  but it does not minimise the number of unmet preferences over the whole bracket
  (C.10) as FIDE's search of every transposition does: a search of that kind took
  minutes on brackets of a few hundred players.
* **Exchanges** (simplified): when no transposition works, a player of S1 may take a
  lower player of S1 as partner (after every S2 candidate), which finds the pairings
  FIDE's S1/S2 exchanges find, though not always in FIDE's order of exchanges.
* **The last brackets** (simplified): when the lowest bracket cannot be paired, it is
  merged with the bracket above (that bracket's pairs undone) and paired again, up to
  the whole field — FIDE's "collapsed last bracket", without its finer choice of which
  players of the penultimate bracket come down.
* **Colours of a pair** (E.1-E.5): both preferences if possible; else the stronger
  (absolute > strong > mild); else alternate from the latest round in which they had
  different colours; else the higher-ranked player's preference; else the higher-ranked
  player gets the initial colour if his pairing number is odd, the other one if even.
  Round 1 is this rule alone: board i pairs seed i with seed i + n/2, seed 1 gets the
  initial colour (``initial_colour``, white unless drawn otherwise) and it alternates.
* **Board order**: the higher score of the pair, then the pair's total, then the rank
  of the higher-ranked player.

Not implemented (simplified): the float criteria (C.14-C.19: avoiding the same player
floating down or up twice in a row; ``Entrant.floats`` is accepted and ignored), the
criteria that choose the downfloaters so that the next bracket pairs best, the
distinction between strong and mild preferences when some must go unmet (C.11-C.13),
and a search that is exhaustive at any cost: each bracket search has a step budget, and a
search that runs out of it counts as failed (the next, less demanding one is tried), so
a pairing is always legal but in a pathological bracket may be not FIDE's best. To keep
the search from pairing everyone else first and stranding players who must all have the
same colour together at the end, it counts them at every step (each pair can hold only
one of them) and turns back as soon as too few others are left. On bbpPairings' test
tournaments (a FIDE-endorsed engine) the small cases agree board by board, and in its
60-player last-round case the first nine of 30 boards do; the lower ones differ by the
criteria above.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

Pair = tuple[int, int]

WHITE, BLACK = "W", "B"
#: Strength of a colour preference (A.6).
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
#: Candidate partners tried in one bracket search before it counts as failed.
SEARCH_STEPS = 20_000
#: Where a chooser's second pass over its candidates (those with a colour clash) starts.
SECOND_PASS = 1 << 30
#: The position of an MDP who has taken his last option: staying unpaired.
FLOATED = 3 * SECOND_PASS


class PairingImpossible(ValueError):
    """No pairing satisfies the absolute criteria (e.g. everyone has met everyone)."""


# --- Berger tables ---------------------------------------------------------------------------
def berger_rounds(n: int) -> list[list[Pair]]:
    """The FIDE Berger tables: for n players (seeds 1..n; odd n gets a dummy n+1 = bye,
    pairs with the dummy are left out), round by round, each pair (white seed, black seed),
    board order as in the tables."""
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, not {n}")
    slots = n + n % 2
    boards = [(seat, slots + 1 - seat) for seat in range(1, slots // 2 + 1)]
    rounds = [boards]
    for number in range(2, slots):
        order = [p for pair in boards for p in pair if p != slots]
        last = order.pop()
        boards = [(slots, last) if number % 2 == 0 else (last, slots)]
        while order:
            black, white = order.pop(), order.pop()
            boards.append((white, black))
        rounds.append(boards)
    return [[pair for pair in round_ if slots not in pair or slots == n] for round_ in rounds]


def double_round(rounds: Sequence[Sequence[Pair]], swap_last_two: bool = False
                 ) -> list[list[Pair]]:
    """Both cycles of a double round robin: the rounds given, then the same rounds again
    with every pair's colours reversed (FIDE C.05 Annex 1). ``swap_last_two`` plays the
    first cycle's last two rounds in the other order, as FIDE recommends for more than
    four players, so that nobody has one colour three times running across the cycles."""
    first = [list(round_) for round_ in rounds]
    if swap_last_two and len(first) >= 2:
        first[-2:] = first[:-3:-1]
    return first + [[(black, white) for white, black in round_] for round_ in rounds]


# --- the Swiss entrants ----------------------------------------------------------------------
@dataclass(frozen=True)
class Entrant:
    """A Swiss player before a round."""

    id: int  # any key
    number: int  # pairing number (1 = highest rated at the start)
    score: float
    colours: tuple[str, ...]  # 'W','B' per played game, '-' for a round without a game
    opponents: frozenset[int]  # ids met already
    had_bye: bool  # had a pairing-allocated bye (or a full-point unplayed win)
    floats: tuple[str, ...] = ()  # 'up'/'down'/'' per round (accepted, not yet used)


@dataclass(frozen=True)
class SwissPairing:
    """One Swiss round: (white id, black id) in board order, and who has the bye."""

    pairs: list[Pair]
    bye: int | None


@dataclass(frozen=True)
class _Player:
    """An entrant with what the pairing rules read from its history."""

    entrant: Entrant
    rank: int  # 0 = highest ranked (score, then pairing number)
    preference: str | None
    strength: int
    difference: int  # whites minus blacks over played games
    topscorer: bool

    @property
    def id(self) -> int:
        return self.entrant.id


def colour_preference(colours: Iterable[str]) -> tuple[str | None, int]:
    """A player's colour preference and its strength (FIDE C.04.3 A.6) from his colours,
    counting played games only."""
    played = [c for c in colours if c in (WHITE, BLACK)]
    if not played:
        return None, NONE
    difference = played.count(WHITE) - played.count(BLACK)
    last_two_same = len(played) >= 2 and played[-1] == played[-2]
    if difference < -1 or (last_two_same and played[-1] == BLACK):
        return WHITE, ABSOLUTE
    if difference > 1 or (last_two_same and played[-1] == WHITE):
        return BLACK, ABSOLUTE
    if difference:
        return (WHITE if difference < 0 else BLACK), STRONG
    return (BLACK if played[-1] == WHITE else WHITE), MILD


def _players(entrants: Sequence[Entrant], last_round: bool, rounds_played: int) -> list[_Player]:
    ranked = sorted(entrants, key=lambda e: (-e.score, e.number))
    players = []
    for rank, entrant in enumerate(ranked):
        preference, strength = colour_preference(entrant.colours)
        played = [c for c in entrant.colours if c in (WHITE, BLACK)]
        players.append(_Player(
            entrant, rank, preference, strength, played.count(WHITE) - played.count(BLACK),
            last_round and entrant.score > rounds_played / 2))
    return players


def _compatible(a: _Player, b: _Player) -> bool:
    """The absolute criteria for one pair: not met before, and no colour rule broken
    (relaxed for topscorers in the last round)."""
    if b.id in a.entrant.opponents or a.id in b.entrant.opponents:
        return False
    same_absolute = a.strength == b.strength == ABSOLUTE and a.preference == b.preference
    return not same_absolute or a.topscorer or b.topscorer


def _clash(a: _Player, b: _Player) -> int:
    """1 when the pair cannot give both players their preferred colour."""
    return int(a.preference is not None and a.preference == b.preference)


# --- colours of a pair -----------------------------------------------------------------------
def _colours(a: _Player, b: _Player, initial: str) -> Pair:
    """(white id, black id) for a pair by FIDE C.04.3 E.1-E.5."""
    high, low = (a, b) if a.rank < b.rank else (b, a)
    white_for_high = _high_gets_white(high, low, initial)
    return (high.id, low.id) if white_for_high else (low.id, high.id)


def _high_gets_white(high: _Player, low: _Player, initial: str) -> bool:
    if high.preference and low.preference and high.preference != low.preference:
        return high.preference == WHITE  # E.1
    if high.preference and low.preference and high.strength == low.strength == ABSOLUTE:
        wider = high if abs(high.difference) >= abs(low.difference) else low  # E.2, topscorers
        return (wider is high) == (wider.preference == WHITE)
    if high.strength != low.strength:  # E.2
        stronger = high if high.strength > low.strength else low
        return (stronger is high) == (stronger.preference == WHITE)
    alternated = _alternate(high.entrant.colours, low.entrant.colours)  # E.3
    if alternated is not None:
        return alternated
    if high.preference:  # E.4
        return high.preference == WHITE
    return (high.entrant.number % 2 == 1) == (initial == WHITE)  # E.5


def _alternate(high: Sequence[str], low: Sequence[str]) -> bool | None:
    """E.3: whether the higher player gets white by alternating from the latest round in
    which one had white and the other black (histories aligned on their last rounds)."""
    for mine, theirs in zip(reversed(high), reversed(low), strict=False):
        if {mine, theirs} == {WHITE, BLACK}:
            return mine == BLACK
    return None


# --- one bracket -----------------------------------------------------------------------------
class _Search:
    """A depth-first search over one bracket's candidate pairings in FIDE's order (colour
    clashes put last), with a budget of candidate partners.

    The choosers are the MDPs (S1 of the heterogeneous part, their candidates the residents
    in order; ``paired_mdps`` of them are paired, the highest that can be), then the top
    players of the residents left, as many as the pairs still wanted (S1 of the
    homogeneous remainder, candidates S2 in order and then, as exchanges, the lower S1
    players). It is iterative: a bracket of hundreds of pairs is deeper than Python's
    recursion limit."""

    def __init__(self, mdps: list[_Player], residents: list[_Player], paired_mdps: int,
                 resident_pairs: int) -> None:
        self.mdps = mdps
        self.residents = residents
        self.floats_left = len(mdps) - paired_mdps  # MDPs that may stay unpaired
        self.used: set[int] = set()
        self.s1: list[_Player] = []
        self.s2: list[_Player] = []
        pool = mdps + residents
        self.pairs_wanted = paired_mdps + resident_pairs
        self.free = len(pool)
        self.must = {colour: _must_have(pool, colour) for colour in (WHITE, BLACK)}

    def _take(self, players: tuple[_Player, _Player], sign: int) -> None:
        """Mark two players used (sign -1) or free again (sign +1)."""
        for player in players:
            if player.strength == ABSOLUTE and not player.topscorer:
                self.must[player.preference] += sign
        self.free += 2 * sign
        if sign < 0:
            self.used.update(p.id for p in players)
        else:
            self.used.difference_update(p.id for p in players)

    def _hopeless(self, pairs: int) -> bool:
        """True when the players left cannot make the pairs still wanted: each pair holds
        at most one of those who must have white (black). Checked at every step, so the
        search does not pair everyone else first and strand them together at the end."""
        still = self.pairs_wanted - pairs
        return max(self.must.values()) > self.free - still

    def _candidate(self, chooser: int, position: int) -> _Player | None:
        """The candidate at ``position`` for a chooser (MDP index, or the remainder's
        index after them), or None past the last: an S1 player takes S2 in order, then
        the lower S1 players; an S2 player left over takes the S2 players below it."""
        if chooser < len(self.mdps):
            return self.residents[position] if position < len(self.residents) else None
        index = chooser - len(self.mdps)
        split = len(self.s1)
        if index >= split:
            position += index + 1 - split
        elif position >= len(self.s2):
            position = position - len(self.s2) + index + 1 - split
            return self.s1[split + position] if position < 0 else None
        return self.s2[position] if position < len(self.s2) else None

    def _chooser(self, after: int, paired: int) -> int | None:
        """The next chooser after index ``after`` (-1 for the first) when ``paired`` pairs
        are made, splitting the remainder into S1 and S2 when the MDPs are done; None when
        the bracket has its pairs."""
        index = after + 1
        if index < len(self.mdps):
            return index
        if index == len(self.mdps):
            rest = [p for p in self.residents if p.id not in self.used]
            remainder = max(0, self.pairs_wanted - paired)
            self.s1, self.s2 = rest[:remainder], rest[remainder:]
        if paired >= self.pairs_wanted:
            return None
        while index - len(self.mdps) < len(self.s1) + len(self.s2):
            if self._player(index).id not in self.used:
                return index
            index += 1
        return None

    def _player(self, chooser: int) -> _Player:
        if chooser < len(self.mdps):
            return self.mdps[chooser]
        index = chooser - len(self.mdps)
        return self.s1[index] if index < len(self.s1) else self.s2[index - len(self.s1)]

    def run(self) -> list[tuple[_Player, _Player]] | None:
        """The first pairing in this order, or None when there is none (or the budget of
        candidate partners runs out). Each chooser tries its candidates twice over: first
        those who can both have their preferred colour, then the others; an MDP's last
        option is to stay unpaired, while fewer than the MDPs not to be paired have."""
        steps = SEARCH_STEPS
        frames: list[tuple[int, int, _Player | None]] = []  # chooser, next position, partner
        pairs = 0
        chooser = self._chooser(-1, 0)
        position = 0
        while chooser is not None:
            player = self._player(chooser)
            partner, position = self._partner(chooser, position)
            if partner is None and chooser < len(self.mdps) and self.floats_left > 0 \
                    and position < FLOATED:
                self.floats_left -= 1
                frames.append((chooser, FLOATED, None))
                chooser, position = self._chooser(chooser, pairs), 0
                continue
            if partner is not None and steps > 0:
                steps -= 1
                self._take((player, partner), -1)
                if self._hopeless(pairs + 1):
                    self._take((player, partner), +1)
                    continue
                pairs += 1
                frames.append((chooser, position, partner))
                chooser, position = self._chooser(chooser, pairs), 0
                continue
            if not frames or steps <= 0:
                return None
            chooser, position, partner = frames.pop()
            if partner is None:
                self.floats_left += 1
            else:
                pairs -= 1
                self._take((self._player(chooser), partner), +1)
        return [(self._player(c), partner) for c, _, partner in frames if partner is not None]

    def _partner(self, chooser: int, position: int) -> tuple[_Player | None, int]:
        """The chooser's next possible partner from ``position`` on (the candidates
        without a colour clash, then from SECOND_PASS on those with one) and the position
        after it."""
        player = self._player(chooser)
        while True:
            clashing = position >= SECOND_PASS
            other = self._candidate(chooser, position - SECOND_PASS if clashing else position)
            if other is None:
                if clashing or player.preference is None:
                    return None, position
                position = SECOND_PASS
                continue
            position += 1
            if (other.id not in self.used and _clash(player, other) == clashing
                    and _compatible(player, other)):
                return other, position


def _must_have(players: list[_Player], colour: str) -> int:
    """How many of the players must have ``colour`` (absolute preference, no topscorer)."""
    return sum(p.strength == ABSOLUTE and p.preference == colour and not p.topscorer
               for p in players)


def _pair_bracket(mdps: list[_Player], residents: list[_Player], complete: bool
                  ) -> tuple[list[tuple[_Player, _Player]], list[_Player]]:
    """The pairing of one bracket (C.6 most pairs, C.7 most MDPs paired, then the first in
    FIDE's order, colour clashes tried last) and the players it floats down.
    ``complete``: the lowest bracket, which must pair everyone."""
    size = len(mdps) + len(residents)
    lowest = size // 2 if complete else 0
    # each pair holds at most one of the players who must have white (black), unless a
    # topscorer's last round: more pairs than that bound allows cannot be searched for
    bound = size - max(_must_have(mdps + residents, WHITE), _must_have(mdps + residents, BLACK))
    for total in range(min(size // 2, bound), lowest - 1, -1):
        for paired_mdps in range(min(len(mdps), total, len(residents)), -1, -1):
            resident_pairs = total - paired_mdps
            if 2 * resident_pairs > len(residents) - paired_mdps:
                continue
            found = _Search(mdps, residents, paired_mdps, resident_pairs).run()
            if found is not None:
                paired = {p.id for pair in found for p in pair}
                return found, [p for p in mdps + residents if p.id not in paired]
    return [], mdps + residents


def _pair_field(players: list[_Player]) -> list[tuple[_Player, _Player]]:
    """Pair score groups top-down; when the last cannot be paired, merge it upward."""
    groups: list[list[_Player]] = []
    for player in players:
        if groups and groups[-1][0].entrant.score == player.entrant.score:
            groups[-1].append(player)
        else:
            groups.append([player])
    while True:
        done: list[tuple[_Player, _Player]] = []
        floaters: list[_Player] = []
        for index, group in enumerate(groups):
            pairs, floaters = _pair_bracket(floaters, group, index == len(groups) - 1)
            done.extend(pairs)
        if not floaters:
            return done
        if len(groups) == 1:
            raise PairingImpossible("no pairing of this round meets the absolute criteria")
        groups = groups[:-2] + [groups[-2] + groups[-1]]


def _bye_candidates(players: list[_Player]) -> list[_Player]:
    """Who may take the bye, the first choice first: lowest score, then fewest rounds
    without a game, then lowest ranked."""
    eligible = [p for p in players if not p.entrant.had_bye]
    return sorted(eligible, key=lambda p: (p.entrant.score, p.entrant.colours.count("-"),
                                           -p.rank))


def dutch_round(entrants: Sequence[Entrant], round_number: int, total_rounds: int,
                initial_colour: str = WHITE) -> SwissPairing:
    """Pair one Swiss round by the Dutch system (FIDE C.04.3, as the module docstring
    says): pairs in board order and the bye, if the number of players is odd.
    ``initial_colour`` is the colour of the top seed in round 1 (FIDE draws it by lot).
    Raises PairingImpossible when no legal pairing exists."""
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("two entrants have the same id")
    last_round = round_number >= total_rounds
    players = _players(entrants, last_round, round_number - 1)
    byes: list[_Player | None] = [None]
    if len(players) % 2:
        byes = list(_bye_candidates(players))
        if not byes:
            raise PairingImpossible("every player has had the bye already")
    for bye in byes:
        field = [p for p in players if p is not bye]
        try:
            pairs = _pair_field(field)
        except PairingImpossible:
            continue
        ordered = sorted(pairs, key=_board_key)
        return SwissPairing([_colours(a, b, initial_colour) for a, b in ordered],
                            bye.id if bye else None)
    raise PairingImpossible("no pairing of this round meets the absolute criteria")


def _board_key(pair: tuple[_Player, _Player]) -> tuple[float, float, int]:
    a, b = pair
    return (-max(a.entrant.score, b.entrant.score), -(a.entrant.score + b.entrant.score),
            min(a.rank, b.rank))


def play_round(field: dict[int, Entrant], pairing: SwissPairing,
               points: Callable[[], float]) -> None:
    """Record a round into ``field`` (entrants by id): the bye's point, and each game's
    points for white (``points()``, black the rest), colours and opponents. For
    simulations (the tests and the benchmark); the service reads its entrants from the
    database instead."""
    if pairing.bye is not None:
        bye = field[pairing.bye]
        field[pairing.bye] = replace(bye, score=bye.score + 1, colours=bye.colours + ("-",),
                                     had_bye=True)
    for white, black in pairing.pairs:
        got = points()
        for me, other, colour, score in ((white, black, "W", got),
                                         (black, white, "B", 1.0 - got)):
            old = field[me]
            field[me] = replace(old, score=old.score + score, colours=old.colours + (colour,),
                                opponents=old.opponents | {other})
