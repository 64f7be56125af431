"""Tournaments: round-robin sections, Swiss tournaments over rounds, and ladders.

A tournament is made by its director (`create`) with a variant, a format, a clock, whether
it is rated, its size, a sign-up deadline and a start. Players sign up (`join`) and may
leave before the start. At the start (by the director, or by the scheduler at the time
given) the players are put in sections by rating, and the games are ordinary games of the
service (clocks, vacations, conditional moves, reminders all apply); when a tournament
game ends, `_game_over` (called by the service's end of a game, in the same transaction)
records its result and moves the tournament on.

The formats, as a correspondence director (ICCF, SchemingMind) runs them:

- **Round-robin**: everyone in a section meets everyone else, every game starting at once
  (ICCF style); a double round plays both colours, both cycles at once too. Sections of at
  most ``section_size`` players (but none of fewer than three: seven players in sections
  of three make sections of four and three) are made by rating, snake-wise (the strongest
  in section 1, the next in section 2, ... then back), so that sections are as even as can
  be; in a
  section the pairing numbers are drawn by lot and the Berger tables give colours and
  rounds (`bot.service.pairing.berger_rounds`).
- **Swiss**: round by round by the Dutch system (`bot.service.pairing.dutch_round`); the
  next round is paired when every game of the round is over, or at the round's deadline
  (``round_days`` after the round was paired), when each unfinished game is adjudicated by
  the tournament's rule: ``continue`` (the game plays on as an ordinary game, outside the
  tournament: it scores nothing for either player, and the two count as having met) or
  ``draw`` (the game ends, drawn). A bye scores one point. The number of rounds is given
  at creation, else chosen at the start (the rounds a knockout of the players would need,
  plus one).
- **Ladder**: a standing competition with no start and no end. A new player joins at the
  bottom; a player may challenge anyone up to ``reach`` places above (`ladder_challenge`),
  which starts a game at once (the challenger plays the first side); when the challenger
  wins, they take the place of the player they beat, who with everyone between moves down
  one. A player has one ladder game with a given opponent at a time.

Withdrawals during play (`leave` after the start) follow ICCF's rule in a round-robin: a
player who has finished fewer than half of their games has all their games struck out
(void: they count for no one; their unfinished games are aborted); otherwise their
unfinished games are lost (unrated). In a Swiss tournament the results stand, an unfinished
game is lost and the player is no longer paired. A player whose Discord server they left
withdraws the same way (`leave_within`). Losses on time are ordinary ends of games. The
director (or a server admin, whom the transport vouches for) may adjudicate a game of the
tournament (the service's ruling, `Rooms.adjudicate`).

Every step is stored in one transaction and survives a restart; two processes never pair
a round twice: the round's number is advanced with a compare-and-set (``UPDATE ... WHERE
round = ?``) that only one transaction can win.

Tie-breaks (`bot.service.tiebreaks`): round-robin: direct encounter, Sonneborn-Berger,
wins; Swiss: Buchholz cut-1, Buchholz, Sonneborn-Berger, direct encounter, wins. Direct
encounter has a value only where it applies (players tied on everything before it who
have all met); elsewhere the standings print "–" (`number_text`).

Standings while a Swiss round is being played compare like with like: a game of the round
counts when it ends, and the round's bye (its point, and its dummy opponent in Buchholz
and Sonneborn-Berger) counts when the round is complete, as if it were the last game of
the round to end (`counted`). Counted at once, the bye would put its player, one point
up before anyone else has finished, above the players who beat her in the rounds before
(a dummy opponent with her own score lifts her Buchholz too). A bye's point is known
from the pairing, but an over-the-board event publishes standings only between rounds,
when the two ways agree; a correspondence round lasts weeks and its standings are read
all along. The crosstable shows such a bye as the word, not yet as a won point. The
pairing of the next round is made when the round is complete, and counts the bye
(`swiss_entrant`): its point, and that its player may have no other.
"""

from __future__ import annotations

import math
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import Variant, get_variant

from ..config import Settings
from ..i18n import Name, Text, _, _n, joined, message_id
from ..storage import Database, Session
from ..storage.interface import Row
from . import outbox, pairing, tiebreaks
from .boundary import guard
from .challenges import game_terms
from .clock import DAY, Clock, describe_clock
from .model import Game, Player, place_transport
from .phrasing import command, moment, phrase
from .results import Done, Reason, Refusal, Result
from .standings import read_rating
from .words import or_list, shown_name, side_name, variant_name

FORMATS = ("round-robin", "swiss", "ladder")
FORMAT_WORDS = {"round-robin": message_id("round-robin"), "swiss": message_id("Swiss"),
                "ladder": message_id("ladder")}
ADJUDICATIONS = ("continue", "draw")
MIN_PLAYERS = 3  # to start a round-robin or a Swiss tournament
MAX_PLAYERS = 1_000  # of one tournament
MAX_ROUNDS = 30  # of a Swiss tournament
MAX_REACH = 20  # places above one may challenge on a ladder
DEFAULT_REACH = 3
MAX_NAME = 60  # characters of a tournament's name
# what a finished pairing scored for its first player and its second (None: nothing)
SCORES: dict[str, tuple[float, float] | None] = {
    "1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5),
    "+-": (1.0, 0.0), "-+": (0.0, 1.0), "bye": (1.0, 0.0), "void": None, "unplayed": None}
PLAYED = {"1-0", "0-1", "1/2-1/2"}  # results of games played out
# news of a place that its players on another transport (by mail in a Discord
# tournament) get each: a round's pairings, withdrawals, a ladder's results
ELSEWHERE_NEWS = frozenset({"tournament-round", "tournament-news"})
WITHDREW = message_id("{name} withdrew from the tournament")
STRUCK_OUT = message_id("struck out of the tournament, as {name} withdrew")
TIEBREAKS = {"round-robin": ("direct", "sb", "wins"),
             "swiss": ("buchholz-cut1", "buchholz", "sb", "direct", "wins"),
             "ladder": ()}
TIEBREAK_NAMES = {"direct": message_id("DE"), "sb": message_id("SB"),
                  "wins": message_id("Wins"), "buchholz": message_id("Bh"),
                  "buchholz-cut1": message_id("Bh-1")}


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored."""

    id: int
    name: str
    variant: str
    mode: str
    format: str
    cycles: int
    rounds: int | None
    days: int | None
    time_control: str | None
    rated: bool
    size: int | None
    section_size: int | None
    round_days: float | None
    adjudication: str
    reach: int | None
    place: str
    director_id: int
    director_name: str
    status: str  # signup, running, over, cancelled
    round: int
    signup_until: float | None
    starts_at: float | None
    round_deadline: float | None
    created_at: float
    started_at: float | None
    ended_at: float | None

    SQL = ("SELECT t.*, p.display_name AS director_name FROM tournaments t "
           "JOIN players p ON p.id = t.director_id")

    @classmethod
    def from_row(cls, row: Row) -> Tournament:
        """The tournament of a row; one made without a name is named by its variant and
        format, in the reader's language."""
        t = cls(**{f: (bool(row[f]) if f == "rated" else row[f])
                   for f in cls.__dataclass_fields__})
        t = replace(t, director_name=Name(t.director_name))
        if t.name:
            return replace(t, name=Name(t.name))
        return replace(t, name=_("{variant} {format}", variant=variant_name(
            get_variant(t.variant)), format=Text(FORMAT_WORDS[t.format], {})))

    @property
    def ref(self) -> str:
        """How players name it in commands: ``T3``."""
        return f"T{self.id}"

    @property
    def named_by_terms(self) -> bool:
        """Whether its name is the one made of its variant and format (it was given none):
        then its description does not say them again."""
        return isinstance(self.name, Text)


@dataclass(frozen=True)
class Entry:
    """A player of a tournament."""

    player_id: int
    name: str
    transport: str
    status: str  # in, withdrawn
    rating: float | None
    section: int | None
    number: int | None  # pairing number; on a ladder, the place


@dataclass(frozen=True)
class Pairing:
    """One game of a tournament (or a bye: no second player, no game)."""

    id: int
    round: int
    section: int
    board: int
    first: int
    second: int | None
    game_id: int | None
    result: str | None

    def scores(self) -> tuple[float, float] | None:
        """What it scored for its two players (None: nothing, or not over)."""
        return SCORES.get(self.result) if self.result else None


@dataclass(frozen=True)
class Line:
    """A player's line of the standings."""

    rank: int
    shared: bool  # the rank is shared with the line before or after
    player_id: int
    name: str
    rating: float | None  # at the start
    score: float
    tiebreaks: tuple[float | None, ...]  # None: direct encounter does not apply
    played: int  # games finished that count
    withdrawn: bool


@dataclass(frozen=True)
class Section:
    """One section's standings (a Swiss tournament or a ladder is one section)."""

    number: int
    lines: tuple[Line, ...]
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True)
class Table:
    """Everything the standings show: the tournament, its players, each section."""

    tournament: Tournament
    entries: tuple[Entry, ...]
    sections: tuple[Section, ...]
    tiebreaks: tuple[str, ...] = field(default=())

    def name_of(self, player_id: int | None) -> str:
        return next((e.name for e in self.entries if e.player_id == player_id), "?")


def score_text(score: float) -> str:
    """``2½``, ``3``, ``½``: a score as crosstables write it."""
    whole = int(score)
    half = score - whole >= 0.5
    return ("" if whole == 0 and half else str(whole)) + ("½" if half else "")


def format_name(t: Tournament) -> str:
    """The tournament's format in words."""
    if t.format == "round-robin":
        return _("double round-robin") if t.cycles == 2 else _("round-robin")
    if t.format == "swiss":
        return _n("Swiss, {n} round", "Swiss, {n} rounds", t.rounds) if t.rounds else _("Swiss")
    return _("ladder")


def game_started(t: Tournament, round_number: int, game: Game, side: int) -> Text:
    """What the player of ``side`` is told when their game of round ``round_number``
    starts: the tournament, the opponent, their side and the clock (the words of every
    transport's news of a tournament game's start). A round-robin's games all start at
    once, so its Berger round is not named; a ladder has no rounds."""
    values = {"ref": t.ref, "game": game.id, "name": game.names[1 - side],
              "side": side_name(get_variant(t.variant), side),
              "clock": describe_clock(game.days, game.time_control)}
    if t.format == "round-robin":
        return _("Tournament {ref}: your game #{game} against {name} has started; you play "
                 "{side}, {clock}.", **values)
    if t.format == "ladder":
        return _("Ladder {ref}: your game #{game} against {name} has started; you play "
                 "{side}, {clock}.", **values)
    return _("Tournament {ref}, round {round}: your game #{game} against {name} has "
             "started; you play {side}, {clock}.", round=round_number, **values)


def describe(t: Tournament) -> Text:
    """``T3 Spring open: Commander Chess, Swiss, 5 rounds, 3 days per move, rated``; one
    given no name says its variant and format once: ``T4 Clash of Command ladder: 3 days per
    move, rated``."""
    rules = get_variant(t.variant)
    words: list[Any] = [] if t.named_by_terms else [variant_name(rules)]
    if t.mode != rules.modes[0]:
        words.append(_("{mode} mode", mode=t.mode))
    if not t.named_by_terms:
        words.append(format_name(t))
    elif t.format == "swiss" and t.rounds:
        words.append(_n("{n} round", "{n} rounds", t.rounds))
    elif t.format == "round-robin" and t.cycles == 2:
        words.append(_("double round-robin"))
    words += [describe_clock(t.days, t.time_control), _("rated") if t.rated else _("unrated")]
    if t.size:
        words.append(_n("at most {n} player", "at most {n} players", t.size))
    if t.format == "swiss" and t.round_days:
        words.append(_n("{n} day a round", "{n} days a round", int(t.round_days)))
    return _("{ref} {name}: {terms}", ref=t.ref, name=t.name, terms=joined(words, ", "))


def signing_up(t: Tournament) -> bool:
    """Whether ``t`` signs up players (a ladder: runs): they may leave it as they do before
    a start, and join it until its sign-up deadline."""
    return t.status == "signup" or t.format == "ladder" and t.status == "running"


def taking_players(t: Tournament, now: float) -> bool:
    """Whether ``t`` takes new players at ``now``: it signs up (`signing_up`) and its
    sign-up deadline, if it has one, has not passed."""
    return signing_up(t) and (t.signup_until is None or now < t.signup_until)


def _no_tournament(tournament_id: int) -> Refusal:
    return Refusal(Reason.NO_SUCH_TOURNAMENT,
                   _("There is no tournament T{t}.", t=tournament_id))


def _not_open(t: Tournament) -> Refusal:
    if t.status == "running":
        return Refusal(Reason.TOURNAMENT_CLOSED,
                       _("Tournament {ref} has started; sign-up is closed.", ref=t.ref))
    if t.status == "over":
        return Refusal(Reason.TOURNAMENT_CLOSED, _("Tournament {ref} is over.", ref=t.ref))
    return Refusal(Reason.TOURNAMENT_CLOSED, _("Tournament {ref} was cancelled.", ref=t.ref))


def snake(entries: Sequence[Entry], sections: int) -> list[list[Entry]]:
    """Players (strongest first) dealt to ``sections`` sections snake-wise: 1, 2, ..., n,
    n, ..., 2, 1, 1, 2, ... so that the sections' strength is as even as it can be."""
    dealt: list[list[Entry]] = [[] for _ in range(sections)]
    for i, entry in enumerate(entries):
        turn, k = divmod(i, sections)
        dealt[k if turn % 2 == 0 else sections - 1 - k].append(entry)
    return dealt


def swiss_rounds(players: int) -> int:
    """The rounds of a Swiss tournament whose director chose none: those a knockout of the
    players would need, plus one (at least 3, at most the players less one)."""
    return max(1, min(players - 1, max(3, math.ceil(math.log2(max(players, 2))) + 1)))


def standings(t: Tournament, entries: Sequence[Entry], pairings: Sequence[Pairing]
              ) -> tuple[Section, ...]:
    """Each section's standings by score, then the format's tie-breaks; a ladder's by its
    places."""
    numbers = sorted({e.section or 1 for e in entries}) or [1]
    sections = []
    for number in numbers:
        members = [e for e in entries if (e.section or 1) == number]
        games = [p for p in pairings if p.section == number]
        sections.append(Section(number, _lines(t, members, games), tuple(games)))
    return tuple(sections)


def counted(pairings: Sequence[Pairing]) -> list[Pairing]:
    """The pairings the standings count now: all but the byes of a round whose games are
    not all over (see the module docstring: a bye counts when its round is complete)."""
    in_play = {p.round for p in pairings if p.result is None}
    return [p for p in pairings if p.second is not None or p.round not in in_play]


def _lines(t: Tournament, members: Sequence[Entry], games: Sequence[Pairing]
           ) -> tuple[Line, ...]:
    records = [tiebreaks.Game(p.first, p.second, s[0], p.result in PLAYED)
               for p in counted(games) if (s := p.scores()) is not None]
    ids = [e.player_id for e in members]
    by_id = {e.player_id: e for e in members}
    played = {i: sum(1 for g in records if i in (g.white, g.black) and g.black is not None)
              for i in ids}
    if t.format == "ladder":  # by place; those who left after the others
        order = sorted(members, key=lambda e: (e.status != "in", e.number or 0, e.name))
        return tuple(Line(k + 1, False, e.player_id, e.name, e.rating, 0.0, (),
                          played[e.player_id], e.status != "in") for k, e in enumerate(order))
    ranked = tiebreaks.rank(ids, records, ("score", *TIEBREAKS[t.format]))
    # those who withdrew after those still playing, as ICCF's tables list them
    ranked.sort(key=lambda standing: by_id[standing.player].status != "in")
    lines: list[Line] = []
    for k, standing in enumerate(ranked):
        values = standing.values
        rank = k + 1
        if k and ranked[k - 1].values == values and lines[-1].withdrawn == (
                by_id[standing.player].status != "in"):
            rank = lines[-1].rank
        e = by_id[standing.player]
        lines.append(Line(rank, False, standing.player, e.name, e.rating, values[0],
                          tuple(values[1:]), played[standing.player], e.status != "in"))
    shared = {line.rank for i, line in enumerate(lines)
              if any(o.rank == line.rank for o in lines[:i] + lines[i + 1:])}
    return tuple(Line(**{**line.__dict__, "shared": line.rank in shared}) for line in lines)


@guard  # every argument of every public method is checked before it runs
class Tournaments:
    """Tournaments (`GameService.tournaments`): the database, the clock, the settings, the
    service's dice, and its ways of starting and ending a game."""

    def __init__(self, db: Database, now: Clock, settings: Settings, rng: random.Random, *,
                 create_game: Callable[..., Awaitable[Game]],
                 finish: Callable[..., Awaitable[Game]],
                 read_game: Callable[[Session, int], Awaitable[Game | None]]) -> None:
        self.db, self.now, self.settings, self.rng = db, now, settings, rng
        self._create_game, self._finish, self._read_game = create_game, finish, read_game

    # --- making one -----------------------------------------------------------------
    async def create(self, sender: Player, place: str, variant: str | None = None,
                     format: str | None = None, name: str | None = None,  # noqa: A002
                     mode: str | None = None, days: int | None = None,
                     time_control: str | None = None, rated: bool | None = None,
                     size: int | None = None, section_size: int | None = None,
                     rounds: int | None = None, cycles: int | None = None,
                     round_days: float | None = None, adjudication: str | None = None,
                     reach: int | None = None, signup_days: float | None = None,
                     start_days: float | None = None) -> Result:
        """Make a tournament in ``place`` directed by ``sender`` (see the module's words
        for the formats). Sign-up closes ``signup_days`` from now and the scheduler starts
        it ``start_days`` from now (by default when sign-up closes); with neither, the
        director starts it. A ladder is running from the start."""
        terms = self._terms(variant, format, mode, days, size, section_size, rounds, cycles,
                            round_days, adjudication, reach, signup_days, start_days)
        if isinstance(terms, Refusal):
            return terms
        rules, fmt, mode = terms
        now = self.now()
        signup_until = now + signup_days * DAY if signup_days else None
        starts_at = now + start_days * DAY if start_days else signup_until
        status = "running" if fmt == "ladder" else "signup"
        async with self.db.transaction() as s:
            tournament_id = await s.insert(
                "INSERT INTO tournaments (name, variant, mode, format, cycles, rounds, days, "
                "time_control, rated, size, section_size, round_days, adjudication, reach, "
                "place, director_id, status, round, signup_until, starts_at, created_at, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, "
                "?, ?, ?)",
                ("", rules.name, mode, fmt, cycles or 1, rounds, days, time_control,
                 int(True if rated is None else rated), size, section_size, round_days,
                 adjudication or "continue",
                 (reach or DEFAULT_REACH) if fmt == "ladder" else None, place, sender.id,
                 status, signup_until, starts_at, now, now if fmt == "ladder" else None))
            await s.execute("UPDATE tournaments SET name = ? WHERE id = ?",
                            ((name or "").strip()[:MAX_NAME], tournament_id))
            t = await self._read(s, tournament_id)
            assert t is not None
            when = []
            if t.signup_until:
                when.append(_("sign-up closes {moment}", moment=moment(t.signup_until)))
            if t.starts_at:
                when.append(_("it starts {moment}", moment=moment(t.starts_at)))
            elif t.format != "ladder":
                when.append(_("{name} starts it with {start}", name=sender.display_name,
                              start=command("tournament", f"start {t.ref}")))
            news = _("New tournament {description}. Sign up with {join}{when}.",
                     description=describe(t), join=command("join", t.ref),
                     when=joined([""] + when, "; ") if when else "")
            await self._tell_place(s, t, "tournament-new", news, now)
        return Done(news, text=t.ref, tournament=t)

    def _terms(self, variant: str | None, fmt: str | None, mode: str | None, days: int | None,
               size: int | None, section_size: int | None, rounds: int | None,
               cycles: int | None, round_days: float | None, adjudication: str | None,
               reach: int | None, signup_days: float | None, start_days: float | None
               ) -> tuple[Variant, str, str] | Refusal:
        """The variant, format and mode asked for, or why they cannot be."""
        terms = game_terms(variant, mode, days)
        if isinstance(terms, Refusal):
            return terms
        rules, mode = terms
        fmt = (fmt or "round-robin").lower()
        fmt = {"rr": "round-robin", "roundrobin": "round-robin"}.get(fmt, fmt)
        if fmt not in FORMATS:
            return Refusal(Reason.BAD_TOURNAMENT,
                           _("There is no tournament format {format}; choose {formats}.",
                             format=repr(fmt), formats=or_list(FORMATS)))
        bounds = [(size, MIN_PLAYERS, MAX_PLAYERS, _("size")),
                  (section_size, MIN_PLAYERS, MAX_PLAYERS, _("section size")),
                  (rounds, 1, MAX_ROUNDS, _("rounds")), (cycles, 1, 2, _("cycles")),
                  (reach, 1, MAX_REACH, _("reach"))]
        for value, low, high, what in bounds:
            if value is not None and not low <= value <= high:
                return Refusal(Reason.BAD_TOURNAMENT,
                               _("The {what} must be from {low} to {high}.", what=what,
                                 low=low, high=high))
        if adjudication is not None and adjudication not in ADJUDICATIONS:
            return Refusal(Reason.BAD_TOURNAMENT,
                           _("A game unfinished at a round's deadline can {choices}, not "
                             "{rule}.", choices=or_list(ADJUDICATIONS), rule=repr(adjudication)))
        if start_days and signup_days and start_days < signup_days:
            return Refusal(Reason.BAD_TOURNAMENT,
                           _("A tournament cannot start before its sign-up closes."))
        # an option of another format is refused, not ignored, whichever transport sent it
        # (the text commands refuse it first, in their own words)
        stray = next((what for value, formats, what in (
            (rounds, ("swiss",), _("rounds")), (round_days, ("swiss",), _("round days")),
            (adjudication, ("swiss",), _("adjudication")),
            (section_size, ("round-robin",), _("section size")),
            (cycles if cycles == 2 else None, ("round-robin",), _("double")),
            (reach, ("ladder",), _("reach")),
            (start_days, ("round-robin", "swiss"), _("start days")))
            if value is not None and fmt not in formats), None)
        if stray is not None:
            return Refusal(Reason.BAD_TOURNAMENT,
                           _("A {format} tournament takes no {option}.",
                             format=Text(FORMAT_WORDS[fmt], {}), option=stray))
        del round_days  # bounded by the service boundary (days)
        return rules, fmt, mode

    # --- reading --------------------------------------------------------------------
    async def _read(self, s: Session, tournament_id: int) -> Tournament | None:
        row = await s.one(Tournament.SQL + " WHERE t.id = ?", (tournament_id,))
        return Tournament.from_row(row) if row else None

    async def _entries(self, s: Session, tournament_id: int) -> list[Entry]:
        rows = await s.all(
            "SELECT e.*, p.display_name AS name, p.transport FROM tournament_players e "
            "JOIN players p ON p.id = e.player_id WHERE e.tournament_id = ? "
            "ORDER BY e.section, e.number, e.joined_at, e.player_id", (tournament_id,))
        return [Entry(r["player_id"], shown_name(r["name"], r["transport"]), r["transport"],
                      r["status"], r["rating"],
                      r["section"], r["number"]) for r in rows]

    async def _pairings(self, s: Session, tournament_id: int) -> list[Pairing]:
        rows = await s.all("SELECT * FROM tournament_games WHERE tournament_id = ? "
                           "ORDER BY round, section, board", (tournament_id,))
        return [Pairing(r["id"], r["round"], r["section"], r["board"], r["white_id"],
                        r["black_id"], r["game_id"], r["result"]) for r in rows]

    async def get(self, tournament_id: int) -> Tournament | None:
        async with self.db.snapshot() as s:
            return await self._read(s, tournament_id)

    async def listing(self, place: str | None = None, finished: bool = False,
                      limit: int = 20) -> list[tuple[Tournament, int]]:
        """Tournaments (of ``place`` and the rooms below it, if given) still signing up or
        running (``finished``: those over), newest first, each with its number of players."""
        where = "t.status IN ('over', 'cancelled')" if finished \
            else "t.status IN ('signup', 'running')"
        params: list[Any] = []
        if place is not None:
            where += " AND (t.place = ? OR (t.place >= ? AND t.place < ?))"
            params += [place, place + "/", place + "0"]
        async with self.db.snapshot() as s:
            rows = await s.all(
                Tournament.SQL.replace("SELECT t.*", "SELECT t.*, (SELECT COUNT(*) FROM "
                                       "tournament_players e WHERE e.tournament_id = t.id "
                                       "AND e.status = 'in') AS players")
                + f" WHERE {where} ORDER BY t.id DESC LIMIT ?", (*params, limit))
        return [(Tournament.from_row(r), r["players"]) for r in rows]

    async def signups_closed(self, limit: int = 100) -> list[Tournament]:
        """The tournaments still signing up (a ladder: running) whose sign-up deadline has
        passed, latest deadline first: a transport's sign-up posts stop offering to join
        them (the service refuses a join by the deadline alone)."""
        async with self.db.snapshot() as s:
            rows = await s.all(
                Tournament.SQL + " WHERE (t.status = 'signup' OR t.status = 'running' AND "
                "t.format = 'ladder') AND t.signup_until <= ? ORDER BY t.signup_until DESC "
                "LIMIT ?", (self.now(), limit))
        return [Tournament.from_row(r) for r in rows]

    async def table(self, tournament_id: int) -> Table | Refusal:
        """The standings: every section's lines and games."""
        async with self.db.snapshot() as s:
            t = await self._read(s, tournament_id)
            if t is None:
                return _no_tournament(tournament_id)
            entries = await self._entries(s, tournament_id)
            pairings = await self._pairings(s, tournament_id)
        return Table(t, tuple(entries), standings(t, entries, pairings), TIEBREAKS[t.format])

    async def of_game(self, game_id: int) -> Tournament | None:
        """The tournament game ``game_id`` is played in (None: an ordinary game)."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT tournament_id FROM tournament_games WHERE game_id = ?",
                              (game_id,))
            return await self._read(s, row["tournament_id"]) if row else None

    # --- signing up -----------------------------------------------------------------
    async def join(self, sender: Player, tournament_id: int) -> Result:
        """Sign ``sender`` up (a ladder: at the bottom)."""
        return await self._held(tournament_id, self._join, sender)

    async def _join(self, s: Session, t: Tournament, now: float, sender: Player) -> Result:
        if not signing_up(t):
            return _not_open(t)
        if t.signup_until is not None and now >= t.signup_until:
            return Refusal(Reason.TOURNAMENT_CLOSED,
                           _("Sign-up for tournament {ref} closed {moment}.", ref=t.ref,
                             moment=moment(t.signup_until)))
        entries = await self._entries(s, t.id)
        mine = next((e for e in entries if e.player_id == sender.id), None)
        if mine is not None and mine.status == "in":
            return Refusal(Reason.ALREADY_IN,
                           _("You are already in tournament {ref}.", ref=t.ref))
        if sender.transport == "computer":
            return Refusal(Reason.BAD_TOURNAMENT,
                           _("The computer does not play in tournaments."))
        count = sum(1 for e in entries if e.status == "in")
        if t.size is not None and count >= t.size:
            return Refusal(Reason.TOURNAMENT_FULL,
                           _n("Tournament {ref} is full ({n} player).",
                              "Tournament {ref} is full ({n} players).", t.size, ref=t.ref))
        place = rating = None
        if t.format == "ladder":  # at the bottom, with the rating they come with
            row = await s.one("SELECT MAX(number) AS n FROM tournament_players "
                              "WHERE tournament_id = ? AND status = 'in'", (t.id,))
            place = (row["n"] or 0) + 1 if row else 1
            rating = (await read_rating(s, sender.id, t.variant)).rating
        await s.execute("DELETE FROM tournament_players WHERE tournament_id = ? "
                        "AND player_id = ?", (t.id, sender.id))
        await s.execute("INSERT INTO tournament_players (tournament_id, player_id, status, "
                        "number, rating, joined_at) VALUES (?, ?, 'in', ?, ?, ?)",
                        (t.id, sender.id, place, rating, now))
        count += 1
        news = _n("{name} joined tournament {ref} ({n} player).",
                  "{name} joined tournament {ref} ({n} players).", count,
                  name=sender.display_name, ref=t.ref)
        await self._tell_place(s, t, "tournament-entry", news, now)
        if t.format == "ladder" and place == 1:  # no one above to challenge yet
            return Done(_("You joined the ladder {ref} ({name}) in place 1, at the top: the "
                          "players who join after you challenge you.", ref=t.ref,
                          name=t.name), tournament=t)
        if t.format == "ladder":
            return Done(_("You joined the ladder {ref} ({name}) in place {place}. Challenge "
                          "a player up to {reach} places above you: {ladder} and their name.",
                          ref=t.ref, name=t.name, place=place, reach=t.reach,
                          ladder=command("ladder", t.ref)), tournament=t)
        return Done(_n("You joined tournament {ref} ({name}); {n} player so far.",
                       "You joined tournament {ref} ({name}); {n} players so far.", count,
                       ref=t.ref, name=t.name), tournament=t)

    async def _held(self, tournament_id: int, work: Callable[..., Awaitable[Result]],
                    *args: Any) -> Result:
        """``work(s, t, now, *args)`` in one transaction holding tournament
        ``tournament_id``'s row; the refusal of a tournament that is not there."""
        now = self.now()
        async with self.db.transaction() as s:
            t = await self._locked(s, tournament_id)
            if t is None:
                return _no_tournament(tournament_id)
            return await work(s, t, now, *args)

    async def _locked(self, s: Session, tournament_id: int) -> Tournament | None:
        """The tournament, its row held for the rest of the transaction."""
        await s.execute("UPDATE tournaments SET round = round WHERE id = ?", (tournament_id,))
        return await self._read(s, tournament_id)

    async def leave(self, sender: Player, tournament_id: int) -> Result:
        """Leave before the start, or withdraw during play (see the module's words)."""
        return await self._held(tournament_id, self._leave, sender)

    async def _leave(self, s: Session, t: Tournament, now: float, sender: Player) -> Result:
        row = await s.one("SELECT status FROM tournament_players WHERE tournament_id = ? "
                          "AND player_id = ?", (t.id, sender.id))
        if row is not None and row["status"] == "withdrawn":
            return Refusal(Reason.NOT_IN, _("You have withdrawn from tournament {ref} already.",
                                            ref=t.ref))
        if row is None:
            return Refusal(Reason.NOT_IN, _("You are not in tournament {ref}.", ref=t.ref))
        if t.status in ("over", "cancelled"):
            return Refusal(Reason.TOURNAMENT_CLOSED, _("Tournament {ref} is over.",
                                                       ref=t.ref))
        if t.status == "signup":
            await s.execute("DELETE FROM tournament_players WHERE tournament_id = ? "
                            "AND player_id = ?", (t.id, sender.id))
            count = len([e for e in await self._entries(s, t.id) if e.status == "in"])
            await self._tell_place(s, t, "tournament-entry", _n(
                "{name} left tournament {ref} ({n} player).",
                "{name} left tournament {ref} ({n} players).", count,
                name=sender.display_name, ref=t.ref), now)
            return Done(_("You left tournament {ref}.", ref=t.ref), tournament=t)
        what = await self._withdraw(s, t, sender.id, sender.display_name, now)
        return Done(_("You withdrew from tournament {ref}: {what}", ref=t.ref, what=what),
                    tournament=t)

    async def leave_within(self, player: Player, within: str) -> int:
        """``player`` left ``within`` (a Discord server, ``discord:SERVER``): they leave or
        withdraw from every tournament of a place there; how many."""
        async with self.db.snapshot() as s:
            rows = await s.all(
                "SELECT t.id FROM tournaments t JOIN tournament_players e ON e.tournament_id "
                "= t.id WHERE e.player_id = ? AND e.status = 'in' AND t.status IN ('signup', "
                "'running') AND (t.place = ? OR (t.place >= ? AND t.place < ?))",
                (player.id, within, within + "/", within + "0"))
        left = 0
        for row in rows:
            left += (await self.leave(player, row["id"])).ok
        return left

    async def _withdraw(self, s: Session, t: Tournament, player_id: int, name: str,
                        now: float) -> Text:
        """Withdraw a player during play; what became of their games, in words."""
        await s.execute("UPDATE tournament_players SET status = 'withdrawn', withdrawn_at = ? "
                        "WHERE tournament_id = ? AND player_id = ?", (now, t.id, player_id))
        mine = [p for p in await self._pairings(s, t.id) if player_id in (p.first, p.second)
                and p.second is not None]
        finished = sum(1 for p in mine if p.result is not None and SCORES.get(p.result))
        if t.format == "ladder":
            await self._close_ladder(s, t.id, player_id)
            text = _("you left the ladder; your games go on outside it.")
            for p in mine:
                if p.result is None:
                    await s.execute("UPDATE tournament_games SET result = 'unplayed' WHERE id = ?",
                                    (p.id,))
                    other = p.second if p.first == player_id else p.first
                    if other is not None and p.game_id is not None:
                        await self._tell(s, t, other, "tournament-news", now, _(
                            "Ladder {ref}: {name} left the ladder, so game #{game} no longer "
                            "counts for it; it goes on as an ordinary game.", ref=t.ref,
                            name=name, game=p.game_id))
        elif t.format == "round-robin" and finished * 2 < len(mine):
            for p in mine:
                if p.result is None and p.game_id is not None:
                    await self._end_game(s, p, player_id, name, now, abort=True)
            await s.execute("UPDATE tournament_games SET result = 'void', ended_at = ? WHERE "
                            "tournament_id = ? AND (white_id = ? OR black_id = ?)",
                            (now, t.id, player_id, player_id))
            text = _("fewer than half of your games were finished, so all of them are struck "
                     "out.")
        else:
            lost = 0
            for p in mine:
                if p.result is None and p.game_id is not None:
                    await self._end_game(s, p, player_id, name, now, abort=False)
                    lost += 1
            text = _n("your {n} unfinished game is lost.", "your {n} unfinished games are lost.",
                      lost)
        news = _("{name} withdrew from tournament {ref}: {what}", name=name, ref=t.ref,
                 what=_("their games are struck out.")
                 if t.format == "round-robin" and finished * 2 < len(mine)
                 else _("the results stand."))
        await self._tell_place(s, t, "tournament-news", news, now)
        await self._advance(s, await self._read(s, t.id) or t, now)
        return text

    async def _end_game(self, s: Session, p: Pairing, loser: int, name: str, now: float,
                        abort: bool) -> None:
        """End a withdrawn player's unfinished game: aborted (struck out) or lost, unrated
        either way; the tournament's result is set by the caller or by `game_over`."""
        assert p.game_id is not None
        game = await self._read_game(s, p.game_id)
        if game is None or game.is_over:
            return
        winner = 1 - game.players.index(loser)
        result = "void" if abort else ("+-" if winner == 0 else "-+")
        await s.execute("UPDATE tournament_games SET result = ?, ended_at = ? WHERE id = ?",
                        (result, now, p.id))
        await self._end_unrated(s, game, None if abort else winner,
                                Text(STRUCK_OUT if abort else WITHDREW, {"name": name}), now,
                                aborted=abort)

    async def _end_unrated(self, s: Session, game: Game, winner: int | None, reason: Text,
                           now: float, aborted: bool = False) -> None:
        """End ``game`` by the tournament's ruling (a withdrawal, a round's deadline):
        unrated, since it was not played out."""
        await s.execute("UPDATE games SET rated = 0 WHERE id = ?", (game.id,))
        await self._finish(s, replace(game, rated=False), get_variant(game.variant), winner,
                           reason, now, draw=winner is None and not aborted, aborted=aborted)

    # --- starting -------------------------------------------------------------------
    async def start(self, sender: Player, tournament_id: int, director: bool = False) -> Result:
        """Start the tournament now: only its director, or a server admin (``director``:
        the transport vouches that ``sender`` may direct it)."""
        now = self.now()
        async with self.db.transaction() as s:
            t = await self._locked(s, tournament_id)
            if t is None:
                return _no_tournament(tournament_id)
            if not director and sender.id != t.director_id:
                return self._not_director(t)
            if t.status == "running":
                return Refusal(Reason.TOURNAMENT_CLOSED,
                               _("Tournament {ref} has started already.", ref=t.ref))
            if t.status != "signup":
                return _not_open(t)
            return await self._start(s, t, now)

    @staticmethod
    def _not_director(t: Tournament) -> Refusal:
        return Refusal(Reason.NOT_DIRECTOR,
                       _("Only the director of tournament {ref} ({name}) or a server admin "
                         "can do that.", ref=t.ref, name=t.director_name))

    async def _start(self, s: Session, t: Tournament, now: float) -> Result:
        entries = [e for e in await self._entries(s, t.id) if e.status == "in"]
        if len(entries) < MIN_PLAYERS:
            return Refusal(Reason.TOO_FEW_PLAYERS,
                           _("Tournament {ref} needs at least {least} players to start; it "
                             "has {count}.", ref=t.ref, least=MIN_PLAYERS, count=len(entries)))
        rated = []
        for e in entries:
            row = await s.one("SELECT rating FROM ratings WHERE player_id = ? AND variant = ?",
                              (e.player_id, t.variant))
            rated.append((row["rating"] if row else 1500.0, e))
        self.rng.shuffle(rated)  # equal ratings: by lot
        rated.sort(key=lambda r: -r[0])
        ordered = [Entry(**{**e.__dict__, "rating": rating}) for rating, e in rated]
        rounds = t.rounds
        if t.format == "round-robin":
            count = math.ceil(len(ordered) / t.section_size) if t.section_size else 1
            count = max(1, min(count, len(ordered) // MIN_PLAYERS))  # none under three
            sections = snake(ordered, count)
            for k, members in enumerate(sections, start=1):
                self.rng.shuffle(members)  # pairing numbers by lot, as ICCF draws them
                for number, e in enumerate(members, start=1):
                    await self._place(s, t, e, k, number)
        else:
            rounds = rounds or swiss_rounds(len(ordered))
            for number, e in enumerate(ordered, start=1):
                await self._place(s, t, e, 1, number)
        await s.execute("UPDATE tournaments SET status = 'running', started_at = ?, rounds = ?, "
                        "round = 1 WHERE id = ?", (now, rounds, t.id))
        t = await self._read(s, t.id) or t
        if t.format == "round-robin":
            made = await self._round_robin(s, t, now)
            sections_text = _n("{n} section", "{n} sections",
                               len({e.section for e in await self._entries(s, t.id)}))
            news = _n("Tournament {ref} ({name}) has started: {players} players, {sections}; "
                      "all {n} game started at once.", "Tournament {ref} ({name}) has started: "
                      "{players} players, {sections}; all {n} games started at once.", len(made),
                      ref=t.ref, name=t.name, players=len(ordered), sections=sections_text)
        else:
            news = _("Tournament {ref} ({name}) has started with {players} players.",
                     ref=t.ref, name=t.name, players=len(ordered))
        await self._tell_place(s, t, "tournament-start", news, now)
        await self._tell_players(s, t, news, "tournament-start", now)
        if t.format == "round-robin":
            await self._tell_games(s, t, made, now)
        if t.format == "swiss":
            await self._pair_swiss(s, t, 1, now)
        return Done(news, tournament=t)

    async def _place(self, s: Session, t: Tournament, e: Entry, section: int,
                     number: int) -> None:
        await s.execute("UPDATE tournament_players SET rating = ?, section = ?, number = ? "
                        "WHERE tournament_id = ? AND player_id = ?",
                        (e.rating, section, number, t.id, e.player_id))

    async def _round_robin(self, s: Session, t: Tournament, now: float) -> list[Game]:
        """Every game of every section, started at once."""
        entries = [e for e in await self._entries(s, t.id) if e.status == "in"]
        made: list[Game] = []
        for section in sorted({e.section or 1 for e in entries}):
            seeds = {e.number: e for e in entries if e.section == section}
            cycles = pairing.berger_rounds(len(seeds))
            if t.cycles == 2:  # the first cycle's last rounds swapped, as FIDE advises
                cycles = pairing.double_round(cycles, swap_last_two=len(seeds) > 4)
            for round_number, games in enumerate(cycles, start=1):
                for board, (first, second) in enumerate(games, start=1):
                    game = await self._pair(s, t, round_number, section, board,
                                            seeds[first].player_id, seeds[second].player_id,
                                            now, tell=False)
                    assert game is not None
                    made.append(game)
        return made

    async def _tell_games(self, s: Session, t: Tournament, made: Sequence[Game],
                          now: float) -> None:
        """One message to each player of a round-robin, with all their games (as ICCF
        sends)."""
        rules = get_variant(t.variant)
        for e in await self._entries(s, t.id):
            mine = [(g, g.players.index(e.player_id)) for g in made if e.player_id in g.players]
            lines = [_("game #{game} against {name}, you play {side}", game=g.id,
                       name=g.names[1 - side], side=side_name(rules, side)) for g, side in mine]
            await self._tell(s, t, e.player_id, "tournament-games", now,
                             _("Tournament {ref}: your games have started ({clock}): {games}.",
                               ref=t.ref, games=joined(lines, "; "),
                               clock=describe_clock(t.days, t.time_control)))

    async def _pair(self, s: Session, t: Tournament, round_number: int, section: int,
                    board: int, first: int, second: int | None, now: float,
                    tell: bool = True) -> Game | None:
        """One pairing: a game between ``first`` (the first side) and ``second``, or a bye;
        its players are told (``tell``) of it."""
        game = None
        if second is not None:
            rules = get_variant(t.variant)
            game = await self._create_game(
                s, rules, t.mode, t.place, (first, second), rules.start_position(t.mode),
                t.rated, t.days, now, None, announce=False, time_control=t.time_control)
        await s.execute(
            "INSERT INTO tournament_games (tournament_id, round, section, board, white_id, "
            "black_id, game_id, result, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (t.id, round_number, section, board, first, second, game.id if game else None,
             None if game else "bye", None if game else now))
        if game is not None and tell:
            # a ladder's challenger (the first side) is answered with the game already
            for side in (1,) if t.format == "ladder" else (0, 1):
                await outbox.notify_side(s, game, side, "game-start", now,
                                         game_started(t, round_number, game, side),
                                         payload={"tournament": t.id})
        elif game is None:
            await self._tell(s, t, first, "tournament-round", now,
                             _("Tournament {ref}, round {round}: you have the bye (one point).",
                               ref=t.ref, round=round_number))
        return game

    # --- Swiss rounds ---------------------------------------------------------------
    async def _pair_swiss(self, s: Session, t: Tournament, round_number: int,
                          now: float) -> None:
        entries = [e for e in await self._entries(s, t.id) if e.status == "in"]
        pairings = await self._pairings(s, t.id)
        entrants = [swiss_entrant(e, pairings) for e in entries]
        made = pairing.dutch_round(entrants, round_number, t.rounds or round_number,
                                   initial_colour=self.rng.choice("WB"))  # by lot, as FIDE
        lines = []
        names = {e.player_id: e.name for e in entries}
        for board, (first, second) in enumerate(made.pairs, start=1):
            game = await self._pair(s, t, round_number, 1, board, first, second, now)
            assert game is not None
            lines.append(_("{first} – {second} (game #{game})", first=names[first],
                           second=names[second], game=game.id))
        if made.bye is not None:
            await self._pair(s, t, round_number, 1, len(made.pairs) + 1, made.bye, None, now)
            lines.append(_("{name}: bye", name=names[made.bye]))
        deadline = now + t.round_days * DAY if t.round_days else None
        await s.execute("UPDATE tournaments SET round_deadline = ? WHERE id = ?",
                        (deadline, t.id))
        until = _(" The round ends {moment}.", moment=moment(deadline)) if deadline else ""
        news = _("Tournament {ref}, round {round} of {rounds}: {pairings}.{until}", ref=t.ref,
                 round=round_number, rounds=t.rounds, pairings=joined(lines, "; "), until=until)
        await self._tell_place(s, t, "tournament-round", news, now)

    async def _advance(self, s: Session, t: Tournament, now: float) -> None:
        """After a result: the next Swiss round, or the end of the tournament, when due."""
        if t.status != "running" or t.format == "ladder":
            return
        pairings = await self._pairings(s, t.id)
        open_now = [p for p in pairings if p.result is None
                    and (t.format == "round-robin" or p.round == t.round)]
        if open_now:
            return
        active = [e for e in await self._entries(s, t.id) if e.status == "in"]
        if t.format == "swiss" and t.round < (t.rounds or 0) and len(active) >= 2:
            claimed = await s.execute("UPDATE tournaments SET round = round + 1 WHERE id = ? "
                                      "AND round = ?", (t.id, t.round))
            if not claimed:  # only one transaction pairs a round
                return
            try:
                await self._pair_swiss(s, t, t.round + 1, now)
                return
            except pairing.PairingImpossible:  # everyone has met whom they may: it ends
                await s.execute("UPDATE tournaments SET round = ?, rounds = ? WHERE id = ?",
                                (t.round, t.round, t.id))
                await self._tell_place(s, t, "tournament-news", _(
                    "Tournament {ref}: round {round} cannot be paired (the players have met "
                    "everyone they may meet), so the tournament ends after round {last}.",
                    ref=t.ref, round=t.round + 1, last=t.round), now)
                t = replace(t, rounds=t.round)
        await self._conclude(s, t, now)

    async def _conclude(self, s: Session, t: Tournament, now: float) -> None:
        claimed = await s.execute("UPDATE tournaments SET status = 'over', ended_at = ?, "
                                  "round_deadline = NULL WHERE id = ? AND status = 'running'",
                                  (now, t.id))
        if not claimed:
            return
        entries = await self._entries(s, t.id)
        sections = standings(t, entries, await self._pairings(s, t.id))
        winners, count = [], 0
        for section in sections:
            top = [line for line in section.lines if line.rank == 1]
            count += len(top)
            winners.append(_("{names} ({score})", names=joined([w.name for w in top], ", "),
                             score=score_text(top[0].score)) if top else "")
        news = _n("Tournament {ref} ({name}) is over. Winner: {winners}. Standings: "
                  "{standings}.", "Tournament {ref} ({name}) is over. Winners: {winners}. "
                  "Standings: {standings}.", count, ref=t.ref, name=t.name,
                  winners=joined(winners, "; "), standings=command("standings", t.ref))
        if t.rated:
            changes = []
            for line in (line for section in sections for line in section.lines):
                row = await s.one("SELECT rating FROM ratings WHERE player_id = ? AND "
                                  "variant = ?", (line.player_id, t.variant))
                if row is not None and line.rating is not None:
                    changes.append(f"{line.name} {line.rating:.0f} → {row['rating']:.0f}")
            if changes:
                news = joined([news, _("Ratings: {changes}.", changes=", ".join(changes))])
        await self._tell_place(s, t, "tournament-over", news, now)
        await self._tell_players(s, t, news, "tournament-over", now, withdrawn=True)

    async def _game_over(self, s: Session, game: Game, now: float) -> None:
        """Record the result of a tournament game that just ended (called in the end's
        transaction) and move its tournament on; nothing for an ordinary game."""
        row = await s.one("SELECT * FROM tournament_games WHERE game_id = ?", (game.id,))
        if row is None:
            return
        t = await self._read(s, row["tournament_id"])
        if t is None:
            return
        if row["result"] is None:
            result = "void" if game.status == "aborted" else game.result
            await s.execute("UPDATE tournament_games SET result = ?, ended_at = ? WHERE id = ?",
                            (result, now, row["id"]))
            if t.format == "ladder" and t.status == "running":
                await self._ladder_result(s, t, row["white_id"], row["black_id"], game, now)
        await self._advance(s, t, now)

    # --- the scheduler's work -------------------------------------------------------
    async def process_tournaments(self) -> int:
        """Start the tournaments whose start has come (or cancel those too small), and end
        the Swiss rounds whose deadline has passed; how many."""
        now = self.now()
        done = 0
        async with self.db.transaction() as s:
            rows = await s.all("SELECT t.id FROM tournaments t WHERE t.status = 'signup' AND "
                               "t.starts_at <= ?" + s.claim("t"), (now,))
            for row in rows:
                t = await self._read(s, row["id"])
                if t is None:
                    continue
                started = await self._start(s, t, now)
                if not started.ok:
                    await s.execute("UPDATE tournaments SET status = 'cancelled', ended_at = ? "
                                    "WHERE id = ?", (now, t.id))
                    count = len([e for e in await self._entries(s, t.id) if e.status == "in"])
                    news = _n("Tournament {ref} ({name}) is cancelled: it needs at least "
                              "{least} players and has {n}.", "Tournament {ref} ({name}) is "
                              "cancelled: it needs at least {least} players and has {n}.",
                              count, ref=t.ref, name=t.name, least=MIN_PLAYERS)
                    await self._tell_place(s, t, "tournament-over", news, now)
                    await self._tell_players(s, t, news, "tournament-over", now)
                done += 1
            rows = await s.all("SELECT t.id FROM tournaments t WHERE t.status = 'running' AND "
                               "t.round_deadline <= ?" + s.claim("t"), (now,))
            for row in rows:
                t = await self._read(s, row["id"])
                if t is not None:
                    await self._round_deadline(s, t, now)
                    done += 1
        return done

    async def _round_deadline(self, s: Session, t: Tournament, now: float) -> None:
        """The round's deadline has passed: its unfinished games are adjudicated by the
        tournament's rule, and the tournament moves on."""
        await s.execute("UPDATE tournaments SET round_deadline = NULL WHERE id = ?", (t.id,))
        for p in await self._pairings(s, t.id):
            if p.round != t.round or p.result is not None or p.game_id is None:
                continue
            game = await self._read_game(s, p.game_id)
            if game is None or game.is_over:
                continue
            if t.adjudication == "draw":
                await s.execute("UPDATE tournament_games SET result = '1/2-1/2', ended_at = ? "
                                "WHERE id = ?", (now, p.id))
                await self._end_unrated(s, game, None, Text(ROUND_DEADLINE, {"ref": t.ref}), now)
            else:
                await s.execute("UPDATE tournament_games SET result = 'unplayed', ended_at = ? "
                                "WHERE id = ?", (now, p.id))
                news = _("Tournament {ref}: round {round} has ended. Game #{game} goes on "
                         "outside the tournament; it scores nothing in it.", ref=t.ref,
                         round=t.round, game=game.id)
                for side in (0, 1):
                    await outbox.notify_side(s, game, side, "tournament-news", now, news)
        await self._advance(s, await self._read(s, t.id) or t, now)

    # --- ladders --------------------------------------------------------------------
    async def ladder_challenge(self, sender: Player, tournament_id: int,
                               opponent: Player) -> Result:
        """Challenge ``opponent`` on a ladder: a game starts at once."""
        return await self._held(tournament_id, self._ladder_challenge, sender, opponent)

    async def _ladder_challenge(self, s: Session, t: Tournament, now: float, sender: Player,
                                opponent: Player) -> Result:
        if t.format != "ladder" or t.status != "running":
            return Refusal(Reason.BAD_TOURNAMENT,
                           _("Tournament {ref} is no ladder.", ref=t.ref))
        places = {e.player_id: e.number for e in await self._entries(s, t.id)
                  if e.status == "in"}
        if sender.id not in places:
            return Refusal(Reason.NOT_IN, _("You are not in tournament {ref}.", ref=t.ref))
        if opponent.id == sender.id:
            return Refusal(Reason.SELF_CHALLENGE, _("You cannot challenge yourself."))
        if opponent.id not in places:
            return Refusal(Reason.NOT_IN, _("{name} is not on the ladder {ref}.",
                                            name=opponent.display_name, ref=t.ref))
        above = (places[sender.id] or 0) - (places[opponent.id] or 0)
        if above <= 0:
            return Refusal(Reason.LADDER_REACH,
                           _("{name} is not above you on the ladder {ref}: challenge "
                             "someone above you.", name=opponent.display_name, ref=t.ref))
        if above > (t.reach or DEFAULT_REACH):
            return Refusal(Reason.LADDER_REACH,
                           _n("You may challenge players up to {reach} places above you; "
                              "{name} is {n} place above.", "You may challenge players up "
                              "to {reach} places above you; {name} is {n} places above.",
                              above, reach=t.reach, name=opponent.display_name))
        busy = await s.one(
            "SELECT game_id FROM tournament_games WHERE tournament_id = ? AND result IS "
            "NULL AND ((white_id = ? AND black_id = ?) OR (white_id = ? AND black_id = ?))",
            (t.id, sender.id, opponent.id, opponent.id, sender.id))
        if busy is not None:
            return Refusal(Reason.LADDER_REACH,
                           _("You are already playing {name} on this ladder: game #{game}.",
                             name=opponent.display_name, game=busy["game_id"]))
        # one challenge at a time per player, as ladders go: a result that moves places
        # would otherwise leave another game between the same places meaning nothing
        for who in (sender.id, opponent.id):
            busy = await s.one(
                "SELECT game_id FROM tournament_games WHERE tournament_id = ? AND result IS "
                "NULL AND (white_id = ? OR black_id = ?)", (t.id, who, who))
            if busy is None:
                continue
            if who == sender.id:
                return Refusal(Reason.LADDER_REACH, _(
                    "You are playing a challenge on the ladder {ref} already (game #{game}): "
                    "one at a time.", ref=t.ref, game=busy["game_id"]))
            return Refusal(Reason.LADDER_REACH, _(
                "{name} is playing a challenge on the ladder {ref} already (game #{game}): "
                "challenge them when it is over.", name=opponent.display_name, ref=t.ref,
                game=busy["game_id"]))
        row = await s.one("SELECT COALESCE(MAX(round), 0) + 1 AS n FROM tournament_games "
                          "WHERE tournament_id = ?", (t.id,))
        number = row["n"] if row else 1
        game = await self._pair(s, t, number, 1, 1, sender.id, opponent.id, now)
        assert game is not None
        return Done(_("Ladder {ref}: you challenged {name}; game #{game} has started. Win it "
                      "and you take their place.", ref=t.ref, name=opponent.display_name,
                      game=game.id), game=game, tournament=t)

    async def _ladder_result(self, s: Session, t: Tournament, challenger: int,
                             defender: int | None, game: Game, now: float) -> None:
        """A ladder game is over: a challenger who won takes the defender's place."""
        if defender is None or game.winner is None or game.players[game.winner] != challenger:
            return
        rows = await s.all("SELECT player_id, number FROM tournament_players WHERE "
                           "tournament_id = ? AND status = 'in'", (t.id,))
        places = {r["player_id"]: r["number"] for r in rows}
        if challenger not in places or defender not in places \
                or places[challenger] <= places[defender]:
            return
        low, high = places[defender], places[challenger]
        await s.execute("UPDATE tournament_players SET number = number + 1 WHERE "
                        "tournament_id = ? AND status = 'in' AND number >= ? AND number < ?",
                        (t.id, low, high))
        await s.execute("UPDATE tournament_players SET number = ? WHERE tournament_id = ? AND "
                        "player_id = ?", (low, t.id, challenger))
        names = {r["player_id"]: r["display_name"] for r in await s.all(
            "SELECT id AS player_id, display_name FROM players WHERE id IN (?, ?)",
            (challenger, defender))}
        news = _("Ladder {ref}: {winner} beat {loser} and takes place {place}.", ref=t.ref,
                 winner=names.get(challenger, "?"), loser=names.get(defender, "?"), place=low)
        await self._tell_place(s, t, "tournament-news", news, now)

    async def _close_ladder(self, s: Session, tournament_id: int, player_id: int) -> None:
        """A player left the ladder: those below move up one place."""
        row = await s.one("SELECT number FROM tournament_players WHERE tournament_id = ? AND "
                          "player_id = ?", (tournament_id, player_id))
        if row is None or row["number"] is None:
            return
        await s.execute("UPDATE tournament_players SET number = NULL WHERE tournament_id = ? "
                        "AND player_id = ?", (tournament_id, player_id))
        await s.execute("UPDATE tournament_players SET number = number - 1 WHERE "
                        "tournament_id = ? AND status = 'in' AND number > ?",
                        (tournament_id, row["number"]))

    # --- the director ---------------------------------------------------------------
    async def may_direct(self, sender: Player, tournament_id: int) -> bool:
        """Whether ``sender`` directs the tournament."""
        t = await self.get(tournament_id)
        return t is not None and t.director_id == sender.id

    async def ruling(self, sender: Player, game_id: int,
                     director: bool = False) -> Tournament | Refusal:
        """The tournament of game ``game_id`` if ``sender`` may rule on it (adjudicate
        it): its director, or a server admin (``director``: the transport vouches), who
        does not play in it — nobody rules on their own game."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT tournament_id FROM tournament_games WHERE game_id = ?",
                              (game_id,))
            t = await self._read(s, row["tournament_id"]) if row else None
            game = await self._read_game(s, game_id) if t else None
        if t is None or game is None:
            return Refusal(Reason.NO_SUCH_GAME, _("Game #{game} is not a tournament game.",
                                                  game=game_id))
        if not director and sender.id != t.director_id:
            return Refusal(Reason.NOT_DIRECTOR, _(
                "Only the director of tournament {ref} ({name}) or a server admin may "
                "adjudicate its games.", ref=t.ref, name=t.director_name))
        if sender.id in game.players:
            return Refusal(Reason.NOT_DIRECTOR, _(
                "You play in game #{game}: another director or a server admin must rule on "
                "it.", game=game_id))
        return t

    # --- news -----------------------------------------------------------------------
    async def _tell_place(self, s: Session, t: Tournament, kind: str, text: Text,
                          now: float) -> None:
        """News to the tournament's place, in its lane: after the ends of games that
        brought it on (`_lane_of_game`); its players on another transport get a copy of
        what they would otherwise miss (`ELSEWHERE_NEWS`)."""
        transport = place_transport(t.place)
        await outbox.notify(s, now, transport=transport, kind=kind, place=t.place,
                            text=phrase(text, transport), message=text,
                            payload={"tournament": t.id}, lane=outbox.lane_of(None, t.place, None))
        if kind in ELSEWHERE_NEWS:  # a player on another transport cannot read the place
            for e in await self._entries(s, t.id):
                if e.status == "in" and e.transport != transport:
                    await self._tell(s, t, e.player_id, kind, now, text)

    async def _lane_of_game(self, s: Session, game_id: int) -> str | None:
        """The lane of the news of a tournament game's end: its tournament's (None: an
        ordinary game, whose news keeps its own lane)."""
        row = await s.one("SELECT t.place FROM tournament_games g JOIN tournaments t ON "
                          "t.id = g.tournament_id WHERE g.game_id = ?", (game_id,))
        return outbox.lane_of(None, row["place"], None) if row else None

    async def _tell(self, s: Session, t: Tournament, player_id: int, kind: str, now: float,
                    text: Text) -> None:
        row = await s.one("SELECT transport FROM players WHERE id = ?", (player_id,))
        if row is None or row["transport"] == "computer":
            return
        await outbox.notify(s, now, transport=row["transport"], kind=kind, player_id=player_id,
                            place=t.place, text=phrase(text, row["transport"]), message=text,
                            payload={"tournament": t.id})

    async def _tell_players(self, s: Session, t: Tournament, text: Text, kind: str,
                            now: float, withdrawn: bool = False) -> None:
        """Tell the players in ``t`` (and, with ``withdrawn``, those who withdrew: a
        tournament's end is theirs too, their results are in it)."""
        for e in await self._entries(s, t.id):
            if e.status == "in" or withdrawn and e.status == "withdrawn":
                await self._tell(s, t, e.player_id, kind, now, text)


ROUND_DEADLINE = message_id("adjudicated a draw at the deadline of tournament {ref}'s round")


def swiss_entrant(e: Entry, pairings: Sequence[Pairing]) -> pairing.Entrant:
    """What the Dutch system knows of a player before a round: their score, colours,
    opponents and whether they had a bye."""
    score = 0.0
    colours: list[str] = []
    opponents: set[int] = set()
    had_bye = False
    for p in sorted(pairings, key=lambda p: p.round):
        if e.player_id not in (p.first, p.second):
            continue
        scores = p.scores()
        mine = 0 if p.first == e.player_id else 1
        if scores is not None:
            score += scores[mine]
        if p.second is None:
            had_bye = True
            colours.append("-")
            continue
        opponents.add(p.second if mine == 0 else p.first)
        colours.append(("W" if mine == 0 else "B") if p.result != "unplayed"
                       or p.game_id is not None else "-")
    return pairing.Entrant(e.player_id, e.number or 0, score, tuple(colours),
                           frozenset(opponents), had_bye)


# --- the standings and pairings in words (every transport's text) -------------------------
NO_VALUE = "–"  # a tie-break that does not apply (direct encounter among players not tied)


def number_text(value: float | None) -> str:
    """A tie-break's value: ``8.25``, ``3``; ``–`` where it does not apply."""
    return NO_VALUE if value is None else f"{value:g}"


def status_text(t: Tournament) -> Text:
    """Where the tournament is: signing up, its round, over."""
    if t.status == "signup":
        return _("signing up")
    if t.status == "cancelled":
        return _("cancelled")
    if t.status == "over":
        return _("over")
    if t.format == "swiss":
        return _("round {round} of {rounds}", round=t.round, rounds=t.rounds)
    return _("running")


def standings_text(table: Table) -> Text:
    """The standings as lines of text: a heading, then per section each player's rank,
    name, score and tie-breaks (a ladder: each place)."""
    t = table.tournament
    lines: list[Any] = [_("{description} ({status}).", description=describe(t),
                          status=status_text(t))]
    heads = [Text(TIEBREAK_NAMES[k], {}) for k in table.tiebreaks]
    for section in table.sections:
        if len(table.sections) > 1:
            lines.append(_("Section {section}:", section=section.number))
        if not section.lines:
            lines.append(_("No players yet."))
        for line in section.lines:
            gone = _(" (withdrawn)") if line.withdrawn else ""
            if t.format == "ladder":
                lines.append(_("{rank}. {name}{gone}", rank=line.rank, name=line.name, gone=gone))
                continue
            breaks = joined([Text("{head} {value}", {"head": h, "value": number_text(v)})
                             for h, v in zip(heads, line.tiebreaks, strict=False)], ", ")
            lines.append(_("{rank}{shared}. {name}{gone}: {score} ({tiebreaks})",
                           rank=line.rank, shared="=" if line.shared else "", name=line.name,
                           gone=gone, score=score_text(line.score), tiebreaks=breaks)
                         if line.tiebreaks else
                         _("{rank}{shared}. {name}{gone}: {score}", rank=line.rank,
                           shared="=" if line.shared else "", name=line.name, gone=gone,
                           score=score_text(line.score)))
    return joined(lines, "\n")


RESULT_WORDS = {"bye": message_id("bye"), "void": message_id("struck out"),
                "unplayed": message_id("not counted"), "+-": message_id("1-0 by forfeit"),
                "-+": message_id("0-1 by forfeit")}


def result_text(p: Pairing) -> str:
    """A pairing's result in words: ``1-0``, ``in play``, ``struck out``."""
    if p.result is None:
        return _("in play")
    return Text(RESULT_WORDS[p.result], {}) if p.result in RESULT_WORDS else p.result


def pairings_text(table: Table, round_number: int | None = None) -> Text:
    """The pairings of a round (default: the round being played; a round-robin or a
    ladder: every game) with their games and results."""
    t = table.tournament
    pairings = [p for s in table.sections for p in s.pairings]
    if t.format == "swiss":
        round_number = round_number or t.round
        pairings = [p for p in pairings if p.round == round_number]
        heading = _("Tournament {ref}, round {round}:", ref=t.ref, round=round_number)
    else:
        heading = _("Tournament {ref}, every game:", ref=t.ref)
    if not pairings and t.format == "swiss" and t.status == "running" and \
            round_number is not None and round_number > t.round:
        return _("Round {round} of tournament {ref} is not paired yet.", round=round_number,
                 ref=t.ref)
    if not pairings and t.format == "swiss" and t.status == "over" and round_number:
        return _n("Tournament {ref} had {n} round.", "Tournament {ref} had {n} rounds.",
                  t.round, ref=t.ref)
    if not pairings:
        return _("Tournament {ref} has no games yet.", ref=t.ref)
    lines: list[Any] = [heading]
    for number, p in enumerate(pairings, start=1):
        board = p.board if t.format == "swiss" else number  # every game: numbered in order
        if p.second is None:
            lines.append(_("{board}. {name}: bye", board=board, name=table.name_of(p.first)))
            continue
        lines.append(_("{board}. {first} – {second} (game #{game}): {result}", board=board,
                       first=table.name_of(p.first), second=table.name_of(p.second),
                       game=p.game_id, result=result_text(p)))
    return joined(lines, "\n")


async def next_due(s: Session) -> float | None:
    """When the scheduler next has tournament work: a start, or a Swiss round's deadline
    (read in the caller's snapshot)."""
    row = await s.one("SELECT MIN(t) AS t FROM ("
                      " SELECT MIN(starts_at) AS t FROM tournaments WHERE status = 'signup'"
                      " UNION ALL SELECT MIN(round_deadline) FROM tournaments"
                      " WHERE status = 'running')")
    return None if row is None or row["t"] is None else float(row["t"])
