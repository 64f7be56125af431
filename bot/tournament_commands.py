"""The tournaments' text commands, the same words at the console and by mail.

`tournaments` lists them; `tournament create|start|adjudicate` makes, starts and rules
(its director); `join`, `leave` (`withdraw`), `standings`, `pairings` and `ladder` are a
player's. A tournament is named ``T3`` (``t3`` and ``#T3`` too); without a name, the one
tournament the command can mean (the one open here to `join`, the one the player is in to
`leave`) is used, and with several the answer lists them. The options of `create` are
words, as `challenge` takes its own (`ClockWords` reads the clock): every word is looked
at once, and a word that is no option is refused with the closest option named.

`TournamentCommands` is the shared commands (`bot.commands.Commands`) with these: the
console and mail use it.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from engine import EngineError, Variant, all_variants, get_variant

from .commands import (
    ClockWords,
    Commands,
    Reply,
    _extra,
    _game_number,
    _reply,
    closest_word,
    split_words,
    tournament_ref,
)
from .i18n import Text, _, _n, joined
from .service.boundary import MAX_ID, no_such, parse_number, shorten
from .service.model import Player
from .service.phrasing import command
from .service.results import Done, Refusal, Result
from .service.tournaments import FORMAT_WORDS as FORMAT_NAMES
from .service.tournaments import (
    MAX_NAME,
    Tournament,
    describe,
    pairings_text,
    standings_text,
    status_text,
)
from .service.words import or_list

# a format's words as `create` reads them
FORMAT_WORDS = {"round-robin": "round-robin", "roundrobin": "round-robin",
                "rr": "round-robin", "swiss": "swiss", "ladder": "ladder"}
# the options of `create` that take a number, and the argument of `Tournaments.create` each
# sets (a whole number, or days, which may have a part of a day)
WHOLE_OPTIONS = {"rounds": "rounds", "size": "size", "sections": "section_size",
                 "reach": "reach"}
DAY_OPTIONS = {"round-days": "round_days", "signup": "signup_days", "start": "start_days"}
ADJUDICATE = "adjudicate"
FLAG_WORDS = ("rated", "unrated", "double")
# the options that belong to some formats only (a ladder runs from its creation: it has no
# start, though its sign-up may close); `double` is refused by its own words
FORMAT_OPTIONS = {"rounds": ("swiss",), "round-days": ("swiss",), ADJUDICATE: ("swiss",),
                  "sections": ("round-robin",), "reach": ("ladder",),
                  "start": ("round-robin", "swiss")}
NAME = "name"
# every option of `create`, as the refusal of an unknown word lists them (command words)
OPTIONS_SHOWN = ("round-robin, swiss, ladder, 3d, 3d+1d max10d, total60d, none, rated, "
                 "unrated, double, rounds N, size N, sections N, round-days N, adjudicate "
                 "continue|draw, reach N, signup N, start N, name …")
MAX_DAY_CHARS = 8  # ``365``, ``0.5``, ``12.25d``: a number of days is no longer
# how `tournament adjudicate` reads a result: the side that wins (None: a draw)
VERDICTS: dict[str, int | None] = {"1-0": 0, "0-1": 1, "draw": None, "1/2-1/2": None,
                                   "½-½": None}
# the sub-commands of `tournament` that are commands of their own too
SHARED_WORDS = ("join", "leave", "withdraw", "standings", "pairings", "ladder")
SUB_WORDS = ("create", "start", "adjudicate", *SHARED_WORDS, "list")
# which tournaments a command without a name may mean: those open here (to join), the
# sender's (to leave), the sender's or else those here (to look at), those they direct
OPEN, MINE, SEEN, DIRECTED = "open", "mine", "seen", "directed"
MEANT = {"join": OPEN, "leave": MINE, "withdraw": MINE, "ladder": MINE, "standings": SEEN,
         "pairings": SEEN, "start": DIRECTED, ADJUDICATE: DIRECTED}
DIRECTED_WORDS = ("start", ADJUDICATE)  # sub-commands of `tournament`
# the game whose mail a command answers (set by the mail transport while it runs one)
ANSWERED_GAME: ContextVar[int | None] = ContextVar("answered_game", default=None)
ALONE_WORDS = ("join", "leave", "withdraw", "standings", "start")  # take a name alone


def day_count(word: str) -> float | None:
    """Days written as ``7``, ``7d``, ``0.5`` or ``1.5days`` (None: not a number of days).
    Only a few characters are looked at, each once."""
    low = word.lower()
    for suffix in ("days", "day", "d"):
        if low.endswith(suffix):
            low = low[:-len(suffix)]
            break
    whole, _dot, part = low.partition(".")
    if not whole or len(low) > MAX_DAY_CHARS or not (whole + part).isascii() \
            or not whole.isdigit() or (part and not part.isdigit()):
        return None
    return float(low)


@dataclass(frozen=True)
class Choice:
    """A tournament a command without a name may mean, as the answer lists it."""

    tournament: Tournament
    players: int


def _plain(result: Result) -> Reply:
    """A service result as a reply, its message and game alone (a tournament's reference,
    which `create` keeps as the result's text, is no record to hand over)."""
    if isinstance(result, Done):
        return Reply(result.template, game=result.game)
    return _reply(result)


class TournamentCommands(Commands):
    """The shared commands, and the tournaments'."""

    def tournament_place(self, place: str) -> str | None:
        """Where the tournaments listed to a player are: the place they write in (a mail
        transport, having none of its own, lists every one: None)."""
        return place

    async def refused_at_once(self, sender: Player, place: str, line: str) -> Reply | None:
        """The refusal a tournament's command line gets whoever sends it (a tournament that
        does not exist, a name without its T, a word of `create` that is no option), found
        without changing anything; None when it may be carried out. Mail answers such a
        line at once, rather than asking its sender to confirm a command bound to fail."""
        words = split_words(line)
        word, args = words[0].lower(), words[1:]
        if word == "tournament":
            word, args = (args[0].lower(), args[1:]) if args else ("", [])
            if word == "create":
                terms = self._terms(sender, args)
                return terms if isinstance(terms, Reply) else None
            if word not in SUB_WORDS:
                return await self.cmd_tournament(sender, place, words[1:])
        if word not in MEANT:
            return None
        number, rest = await self._which(sender, place, args, word)
        if isinstance(number, Reply):
            return number
        if await self.service.tournaments.get(number) is None:
            return Reply(no_such("tournament", number), ok=False)
        if rest and word in ALONE_WORDS:
            return _extra("tournament" if word in DIRECTED_WORDS else word, rest)
        return None

    # --- listing --------------------------------------------------------------------
    async def cmd_tournaments(self, sender: Player, place: str, args: list[str]) -> Reply:
        """List the tournaments here, with their players and how to join.

        tournaments
        """
        if args:
            return _extra("tournaments", args)
        found = await self.service.tournaments.listing(self.tournament_place(place))
        if not found:
            return Reply(_("There are no tournaments here. Make one with {create}.",
                           create=command("tournament", "create clash round-robin")))
        mine = {c.tournament.id for c in await self._mine(sender)}
        return Reply(joined([_("Tournaments:"), *(_listed(t, n, t.id in mine)
                                                  for t, n in found)], "\n"))

    # --- the director's ---------------------------------------------------------------
    async def cmd_tournament(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Make a tournament, start it, or rule on one of its games (as its director).

        tournament create clash round-robin 3d
        tournament create commander swiss 7d rounds 5 round-days 30 name Spring open
        tournament create clash ladder reach 3 unrated
        tournament start T3
        tournament adjudicate T3 #12 1-0

        After `create`, the variant and the format (`round-robin`, `swiss` or `ladder`),
        then any of: the clock as `challenge` takes it (`3d`, `3d+1d max10d`, `total60d`,
        `none`); `rated` or `unrated`; `double` (a double round-robin: both colours);
        `rounds N` (of a Swiss tournament); `size N` (the most players); `sections N` (the
        most players of a round-robin section); `round-days N` (the days a Swiss round
        lasts); `adjudicate continue` or `adjudicate draw` (a game unfinished at a round's
        deadline goes on outside the tournament, or is drawn); `reach N` (how many places
        above a ladder player may challenge); `signup N` (days until sign-up closes);
        `start N` (days until it starts; without either, its director starts it); `name`
        and the tournament's name (last, or in double quotes).

        `tournament join T3`, `tournament standings T3` and the like do what `join T3` and
        `standings T3` do; `tournament list` what `tournaments` does.
        """
        word = args[0].lower() if args else ""
        rest = args[1:]
        if word == "create":
            return await self._create(sender, place, rest)
        if word == "start":
            return await self._start(sender, place, rest)
        if word == ADJUDICATE:
            return await self._adjudicate(sender, place, rest)
        if word == "list":
            return await self.cmd_tournaments(sender, place, rest)
        if word in SHARED_WORDS:
            return await getattr(self, f"cmd_{word}")(sender, place, rest)
        choices = or_list([f"`{w}`" for w in SUB_WORDS])
        if not word:
            return Reply(_("Say what to do with a tournament: {choices}, as in {example}.",
                           choices=choices, example=command("tournament", "start T3")),
                         ok=False)
        return _not_known(args[0], SUB_WORDS, _("`tournament` takes {choices}.",
                                                 choices=choices))

    async def _create(self, sender: Player, place: str, words: list[str]) -> Reply:
        terms = self._terms(sender, words)
        if isinstance(terms, Reply):
            return terms
        return _plain(await self.service.tournaments.create(sender, place, **terms))

    def _terms(self, sender: Player, words: list[str]) -> dict[str, Any] | Reply:
        """The arguments of `Tournaments.create` that the words of `create` name, or the
        answer saying which word is wrong. Each word is read once."""
        words, name = _name_words(words)
        if name is not None and not name:
            return Reply(_("Which name? Write it after `name`, last, as in {example}.",
                           example=command("tournament", "create clash swiss name Spring open")),
                         ok=False)
        if name is not None and len(name) > MAX_NAME:
            return Reply(_("A tournament's name has at most {most} characters; {name} has "
                           "{count}.", most=MAX_NAME, name=repr(shorten(name)),
                           count=len(name)), ok=False)
        variant, words = _variant_of(words)
        terms: dict[str, Any] = {"variant": variant.name if variant else None, "name": name}
        rules = variant or all_variants()[0]
        clock = ClockWords()
        k = 0
        given: list[str] = []  # the options with a value, as typed
        while k < len(words):
            word, low = words[k], words[k].lower()
            k += 1
            if low in FORMAT_WORDS:
                if terms.get("format", FORMAT_WORDS[low]) != FORMAT_WORDS[low]:
                    return Reply(_("A tournament has one format: {first} or {second}, not "
                                   "both.", first=Text(FORMAT_NAMES[terms["format"]], {}),
                                   second=Text(FORMAT_NAMES[FORMAT_WORDS[low]], {})), ok=False)
                terms["format"] = FORMAT_WORDS[low]
            elif low in rules.modes:
                terms["mode"] = low
            elif low in ("rated", "unrated"):
                terms["rated"] = low == "rated"
            elif low == "double":
                terms["cycles"] = 2
            elif low in WHOLE_OPTIONS or low in DAY_OPTIONS or low == ADJUDICATE:
                value = words[k] if k < len(words) else None
                k += 1
                read = _option(low, value)
                if isinstance(read, Reply):
                    return read
                terms.update(read)
                given.append(low)
            elif clock.names(low):
                try:
                    clock.take(low)
                except ValueError as err:
                    return Reply(self._reason(sender, err).capitalize() + ".", ok=False)
            else:
                return _not_known(word, _option_words(rules), _(
                    "The options of {create}: {options} ({help} tells more).",
                    create=command("tournament", "create"), options=OPTIONS_SHOWN,
                    help=command("help", "tournament")))
        if terms.get("cycles") == 2 and terms.get("format", "round-robin") != "round-robin":
            fmt = Text(FORMAT_NAMES[terms["format"]], {})
            return Reply(_("`double` is for a round-robin (each pair plays twice, both "
                           "colours), not a {format}.", format=fmt), ok=False)
        fmt = terms.get("format", "round-robin")
        stray = next((option for option in given
                      if fmt not in FORMAT_OPTIONS.get(option, (fmt,))), None)
        if stray is not None:
            return Reply(_("`{option}` is an option of {formats} tournaments, not of a "
                           "{format}.", option=stray,
                           formats=or_list([Text(FORMAT_NAMES[f], {})
                                            for f in FORMAT_OPTIONS[stray]]),
                           format=Text(FORMAT_NAMES[fmt], {})), ok=False)
        try:
            terms["days"], terms["time_control"] = clock.clock(
                self.service.challenges.default_days())
        except ValueError as err:
            reason = self._reason(sender, err)
            return Reply(reason[:1].upper() + reason[1:] + ".", ok=False)
        return terms

    async def _start(self, sender: Player, place: str, args: list[str]) -> Reply:
        number = await self._only(sender, place, args, "start")
        if isinstance(number, Reply):
            return number
        return _plain(await self.service.tournaments.start(sender, number))

    async def _adjudicate(self, sender: Player, place: str, args: list[str]) -> Reply:
        """`tournament adjudicate T3 #12 1-0`: the director ends a game of the tournament."""
        number, rest = await self._which(sender, place, args, ADJUDICATE)
        if isinstance(number, Reply):
            return number
        game_id, rest = _game_number(rest)
        if isinstance(game_id, Refusal):
            return _reply(game_id)
        verdict = rest[0].lower() if len(rest) == 1 else ""
        if game_id is None or verdict not in VERDICTS:
            return Reply(_("Say the game and its result (`1-0`, `0-1` or `draw`), "
                           "as in {example}.", example=command(
                               "tournament", f"{ADJUDICATE} T{number} #12 1-0")), ok=False)
        t = await self.service.tournaments.get(number)
        if t is None:
            return Reply(no_such("tournament", number), ok=False)
        of = await self.service.tournaments.of_game(game_id)
        if of is None or of.id != t.id:
            return Reply(_("Game #{game} is not a game of tournament {ref}.", game=game_id,
                           ref=t.ref), ok=False)
        ruling = await self.service.tournaments.ruling(sender, game_id)
        if isinstance(ruling, Refusal):
            return _reply(ruling)
        return _reply(await self.service.rooms.adjudicate(game_id, VERDICTS[verdict],
                                                          sender.display_name))

    # --- a player's -------------------------------------------------------------------
    async def _only(self, sender: Player, place: str, args: list[str],
                    word: str) -> int | Reply:
        """The tournament that ``args`` name and nothing else (`_which`), or the reply
        refusing them."""
        number, rest = await self._which(sender, place, args, word)
        if isinstance(number, Reply):
            return number
        return _extra(word, rest) if rest else number

    async def cmd_join(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Sign up for a tournament (the one open here, or the one named).

        join T3
        """
        number = await self._only(sender, place, args, "join")
        if isinstance(number, Reply):
            return number
        return _plain(await self.service.tournaments.join(sender, number))

    async def cmd_leave(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Leave a tournament before it starts, or a ladder at any time (`withdraw` leaves
        one that has started).

        leave T3
        """
        return await self._leave(sender, place, args, "leave")

    async def cmd_withdraw(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Withdraw from a tournament during play: with fewer than half your games
        finished, all your games are struck out (ICCF's rule); with more, your unfinished
        games are lost. Before the start it leaves the tournament, as `leave` does.

        withdraw T3
        """
        return await self._leave(sender, place, args, "withdraw")

    async def _leave(self, sender: Player, place: str, args: list[str], word: str) -> Reply:
        """`leave` and `withdraw`. Only `withdraw` withdraws from a tournament that has
        started: a `leave` asked for (or confirmed by mail) during sign-up does not turn
        into a withdrawal that strikes out games because the tournament started since."""
        number = await self._only(sender, place, args, word)
        if isinstance(number, Reply):
            return number
        t = await self.service.tournaments.get(number)
        if word == "leave" and t is not None and t.status == "running" \
                and t.format != "ladder":
            return Reply(_("Tournament {ref} has started, so leaving it now is withdrawing: "
                           "your unfinished games are lost, or, with fewer than half of your "
                           "games finished, all of them are struck out. To withdraw, send "
                           "{withdraw}.", ref=t.ref, withdraw=command("withdraw", t.ref)),
                         ok=False)
        return _plain(await self.service.tournaments.leave(sender, number))

    async def cmd_standings(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Show a tournament's standings: each player's score and tie-breaks.

        standings T3
        """
        number = await self._only(sender, place, args, "standings")
        if isinstance(number, Reply):
            return number
        table = await self.service.tournaments.table(number)
        if isinstance(table, Refusal):
            return _reply(table)
        return Reply(standings_text(table))

    async def cmd_pairings(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Show a tournament's games and results: a Swiss round's (the one being played,
        or the one named), or every game of a round-robin or a ladder.

        pairings T3
        pairings T3 2
        """
        number, rest = await self._which(sender, place, args, "pairings")
        if isinstance(number, Reply):
            return number
        round_number = parse_number(rest[0]) if len(rest) == 1 else None
        if rest and round_number is None:
            return _extra("pairings", rest)
        table = await self.service.tournaments.table(number)
        if isinstance(table, Refusal):
            return _reply(table)
        t = table.tournament
        if round_number is not None and t.format != "swiss":
            return Reply(_("Tournament {ref} has no rounds: {pairings} lists every game.",
                           ref=t.ref, pairings=command("pairings", t.ref)), ok=False)
        if round_number is not None and not t.round:
            return Reply(_("Tournament {ref} has paired no round yet.", ref=t.ref), ok=False)
        if round_number is not None and not 1 <= round_number <= t.round:
            if t.status == "over":
                return Reply(_n("Tournament {ref} had {n} round.",
                                "Tournament {ref} had {n} rounds.", t.round, ref=t.ref),
                             ok=False)
            return Reply(_n("Tournament {ref} has paired {n} round so far.",
                            "Tournament {ref} has paired rounds 1 to {n} so far.", t.round,
                            ref=t.ref), ok=False)
        return Reply(pairings_text(table, round_number))

    async def cmd_ladder(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Challenge a player above you on a ladder: the game starts at once; win it and
        you take their place.

        ladder T3 bob
        """
        number, rest = await self._which(sender, place, args, "ladder")
        if isinstance(number, Reply):
            return number
        if not rest:
            return await self._whom_on_ladder(sender, number)
        opponent = await self._on_ladder(sender, number, " ".join(rest))
        if isinstance(opponent, Refusal):
            return _reply(opponent)
        return _plain(await self.service.tournaments.ladder_challenge(sender, number,
                                                                       opponent))

    async def _whom_on_ladder(self, sender: Player, number: int) -> Reply:
        """`ladder T3` without a name: the example names the player just above the sender
        (the one at the top is told that they are challenged, not challenging)."""
        table = await self.service.tournaments.table(number)
        if isinstance(table, Refusal):
            return _reply(table)
        t = table.tournament
        places = sorted((e.number or 0, e.name, e.player_id) for e in table.entries
                        if e.status == "in")
        mine = next((k for k, (_place, _name, pid) in enumerate(places) if pid == sender.id),
                    None)
        if t.format != "ladder" or mine is None:
            return Reply(_("Challenge whom? Name a player above you, as in {example}.",
                           example=command("ladder", f"{t.ref} bob")), ok=False)
        if mine == 0:
            return Reply(_("You are at the top of the ladder {ref}: the players below you "
                           "challenge you.", ref=t.ref), ok=False)
        return Reply(_("Challenge whom? Name a player above you, as in {example}.",
                       example=command("ladder", f"{t.ref} {places[mine - 1][1]}")), ok=False)

    async def _on_ladder(self, sender: Player, number: int, name: str) -> Player | Refusal:
        """The player ``name`` means on a ladder: one of its players of that name (of the
        sender's transport first, since names are unique only within one), else the
        transport's player of that name or address (who is not on it, as the service
        says)."""
        table = await self.service.tournaments.table(number)
        entries = [] if isinstance(table, Refusal) else [
            e for e in table.entries if e.status == "in" and e.name.casefold() == name.casefold()]
        same = [e for e in entries if e.transport == sender.transport] or entries
        if len(same) == 1 and (found := await self.service.get_player(same[0].player_id)):
            return found
        return await self.service.find_player(sender.transport, name)

    # --- which tournament -------------------------------------------------------------
    async def _which(self, sender: Player, place: str, args: list[str],
                     command_word: str) -> tuple[int | Reply, list[str]]:
        """The tournament the words of ``command_word`` name (``T3``), or the one they
        mean (`MEANT`), and the other words; or the answer saying which are meant. A bare
        number (``3``, ``#3``) is taken for a mistyped name and answered so, but where the
        command takes a number of its own (a round, a game)."""
        among = MEANT[command_word]
        numbers = command_word not in ("pairings", ADJUDICATE)
        ladder = command_word == "ladder"
        example = ("tournament", command_word) if command_word in DIRECTED_WORDS \
            else (command_word, "")
        for k, word in enumerate(args):
            number = tournament_ref(word)
            if number is not None:
                if number > MAX_ID:
                    return Reply(no_such("tournament", word.lstrip("#")[1:]), ok=False), args
                return number, args[:k] + args[k + 1:]
        meant = await self._of_game(args if command_word == ADJUDICATE else [])
        if meant is not None:
            return meant, args
        word, before = example
        for typed in args if numbers else ():
            number = parse_number(typed.removeprefix("#"))
            if number is not None and number <= MAX_ID:
                return Reply(_("{typed} names no tournament: a tournament is named with a T, "
                               "as in {example}.", typed=repr(typed),
                               example=command(word, f"{before} T{number}".strip())),
                             ok=False), args
        choices = await self._choices(sender, place, among, ladder)
        if command_word == "start":  # one that has started is not meant
            choices = [c for c in choices if c.tournament.status == "signup"]
        if len(choices) == 1:
            return choices[0].tournament.id, args
        if not choices:
            return Reply(_("Which tournament? Name it, as in {example}; {list} lists those "
                           "here.", example=command(word, f"{before} T3".strip()),
                           list=command("tournaments")), ok=False), args
        return Reply(_("Which tournament? Name one: {choices}.", choices=joined(
            [_("{command} ({name})", command=command(word, f"{before} {c.tournament.ref}"
                                                   .strip()), name=c.tournament.name)
             for c in choices], "; ")), ok=False), args

    async def _of_game(self, args: list[str]) -> int | None:
        """The tournament of the game that ``args`` name (``#21``), or else of the game
        whose mail the command answers (`ANSWERED_GAME`): a command about a tournament,
        without its name, in reply to one of its games' mails, or naming one of its games,
        means that tournament."""
        for typed in args:
            number = parse_number(typed[1:]) if typed.startswith("#") else None
            if number is not None and number <= MAX_ID:
                of = await self.service.tournaments.of_game(number)
                return of.id if of is not None else None
        answered = ANSWERED_GAME.get()
        if answered is None:
            return None
        of = await self.service.tournaments.of_game(answered)
        return of.id if of is not None else None

    async def _choices(self, sender: Player, place: str, among: str,
                       ladder: bool) -> list[Choice]:
        """The tournaments a command without a name may mean (see `_which`)."""
        scope = self.tournament_place(place)
        here = [Choice(t, n) for t, n in await self.service.tournaments.listing(scope)]
        if among == DIRECTED:
            return [c for c in here if c.tournament.director_id == sender.id]
        mine = [c for c in await self._mine(sender)
                if not ladder or c.tournament.format == "ladder"]
        if among == MINE or among == SEEN and mine:
            return mine
        if among == SEEN:
            return here
        ids = {c.tournament.id for c in mine}
        return [c for c in here if c.tournament.id not in ids
                and (c.tournament.status == "signup" or c.tournament.format == "ladder")]

    async def _mine(self, sender: Player) -> list[Choice]:
        """The tournaments (signing up or running) that ``sender`` is in."""
        if not sender.id:
            return []
        mine = []
        for t, players in await self.service.tournaments.listing(None):
            table = await self.service.tournaments.table(t.id)
            if not isinstance(table, Refusal) and any(
                    e.player_id == sender.id and e.status == "in" for e in table.entries):
                mine.append(Choice(t, players))
        return mine


def _listed(t: Tournament, players: int, mine: bool = False) -> Text:
    """A tournament's line of `tournaments`: what it is, where it stands, its players, and
    how to join it (or to see how it goes); to one who is in it (``mine``), how to leave
    it while it signs up, or to see how it goes."""
    if mine and t.status == "signup":
        how = _("you are signed up; {leave} takes you off", leave=command("leave", t.ref))
    elif mine:
        how = _("you play in it; standings: {standings}", standings=command("standings", t.ref))
    elif t.status == "signup" or t.format == "ladder" and t.status == "running":
        how = _("join with {join}", join=command("join", t.ref))
    else:
        how = _("standings: {standings}", standings=command("standings", t.ref))
    return _n("  {description} ({status}): {n} player; {how}.",
              "  {description} ({status}): {n} players; {how}.", players,
              description=describe(t), status=status_text(t), how=how)


def _name_words(words: list[str]) -> tuple[list[str], str | None]:
    """The words of `create` without its name, and the name (None: not named; '': the
    word `name` with nothing after it). The name is the rest of the line, or the one word
    after `name` that was in quotes (it holds a space), the other words going on after it."""
    for k, word in enumerate(words):
        if word.lower() == NAME:
            after = words[k + 1:]
            if after and " " in after[0]:
                return words[:k] + after[1:], after[0]
            return words[:k], " ".join(after)
    return words, None


def _variant_of(words: list[str]) -> tuple[Variant | None, list[str]]:
    """The variant the words name (the first that does), and the other words."""
    for k, word in enumerate(words):
        try:
            return get_variant(word), words[:k] + words[k + 1:]
        except EngineError:
            continue
    return None, words


def _option(word: str, value: str | None) -> dict[str, Any] | Reply:
    """The argument an option with a value sets (``rounds 5``), or why the value is
    wrong."""
    if word == ADJUDICATE:
        if value is None:
            return Reply(_("`adjudicate` takes `continue` or `draw`, as in {example}.",
                           example="`adjudicate draw`"), ok=False)
        return {"adjudication": value.lower()}
    whole = word in WHOLE_OPTIONS
    number = parse_number(value or "") if whole else day_count(value or "")
    if number is not None:  # a number too long to read is too large: its bounds say so
        return {(WHOLE_OPTIONS if whole else DAY_OPTIONS)[word]: min(number, MAX_ID)}
    example = f"`{word} {5 if whole else 7}`"
    return Reply(_("`{option}` takes a whole number, as in {example}.", option=word,
                   example=example) if whole else
                 _("`{option}` takes a number of days, as in {example}.", option=word,
                   example=example), ok=False)


def _option_words(rules: Variant) -> list[str]:
    """Every word `create` knows, for the closest to a word it does not."""
    return [*FORMAT_WORDS, *FLAG_WORDS, *WHOLE_OPTIONS, *DAY_OPTIONS, ADJUDICATE, NAME,
            *rules.modes, *(v.name for v in all_variants()), "none"]


def _not_known(word: str, known: list[str] | tuple[str, ...], options: Text) -> Reply:
    """The refusal of a word that is no option: the closest option named, if one is close,
    and the options."""
    near = closest_word(word, known)
    option = f"`{near}`"
    said = (_("I do not know {word}: did you mean {option}?", word=repr(shorten(word)),
              option=option) if near else
            _("I do not know {word}.", word=repr(shorten(word))))
    return Reply(joined([said, options]), ok=False)
