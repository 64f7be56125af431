"""The text commands that players type, the same words on every transport.

A transport turns a message into (sender, place, line) and calls `Commands.handle`; the
answer is a `Reply`: text for the sender, and the game whose board to show, if any. Each
``cmd_*`` method is one command word; its docstring is the help text (a one-line summary,
then examples). A line that starts with no command word is read as a move.
"""

from __future__ import annotations

import inspect
import logging
import textwrap
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine import EngineError, all_variants, get_variant

from . import i18n
from .i18n import LANGUAGE, Text, _, _n, joined
from .service import GameService
from .service.archive import FORMATS, RECORD
from .service.boundary import MAX_ID, game_number, no_such, parse_number, shorten
from .service.clock import (
    describe_clock,
    format_duration,
    is_clock_word,
    parse_days,
    parse_time_control,
)
from .service.computer import Computer, read_level
from .service.inference import ANSWER, END_TURN, FORECAST
from .service.model import Game, Player
from .service.phrasing import command, moment, phrase
from .service.posts import DIGEST
from .service.results import Done, Reason, Refusal, Result, engine_words, storage_words
from .service.rules_docs import as_plain_text, rules_part
from .service.turns import PieceSteps, find_turn, if_my_turn_words, turn_ends
from .service.words import side_name, variant_name
from .storage import StorageError

log = logging.getLogger(__name__)
FindPlayer = Callable[[str], Awaitable[Player | Refusal]]
SIDE_WORDS = {"white": 0, "first": 0, "red": 0, "black": 1, "second": 1, "blue": 1}
OPEN_WORDS = ("anyone", "open", "anybody")
NO_SUCH = {"game": Reason.NO_SUCH_GAME, "challenge": Reason.NO_SUCH_CHALLENGE}
# the longest command line read; a longer one is refused before it is split or matched.
# A note (at most 1,000 characters), a long conditional line or a file's path fit.
MAX_LINE = 4096
SUGGEST_CHARS = 24  # of a word compared with the known ones (`closest_word`)
SHOWN_LINE = 60  # characters of a line quoted back as the one meant
SHORT_WORD = 6  # letters of a word in which one slip is allowed, not two (`closest_word`)
HELP_WIDTH = 96  # the `help` list's lines: a longer description goes on, indented, below
# the language of the one whose command is being run (`Commands.handle`), for the answers
# laid out in it (the `help` list's columns) rather than worded after
_READER: ContextVar[str | None] = ContextVar("reader_language", default=None)


def split_words(line: str) -> list[str]:
    """The words of a command line, split at spaces; a name in double quotes is one word
    (``challenge "Nguyễn Văn Anh" clash``), and a quote left open runs to the end. One pass
    over the line (its length is bounded first, `line_too_long`)."""
    if '"' not in line:
        return line.split()
    words: list[str] = []
    for k, part in enumerate(line.split('"')):
        if k % 2:  # inside quotes: one word, its spaces kept (runs of them made one)
            if part.strip():
                words.append(" ".join(part.split()))
        else:
            words.extend(part.split())
    return words


def closest_word(word: str, known: Iterable[str]) -> str | None:
    """The known word ``word`` is a slip of the keys for (``joni`` for ``join``, ``rouns``
    for ``rounds``, ``strat`` for ``start``), or None: one with the same first letter and
    one letter wrong, missing, added or two swapped (two, in a word of more than
    `SHORT_WORD` letters). A different first letter makes another word (``tack`` is no
    ``back``). Only the word's first `SUGGEST_CHARS` characters are compared."""
    low = word.lower()[:SUGGEST_CHARS]
    allowed = 1 if len(low) <= SHORT_WORD else 2
    near = [(slips(low, k), k) for k in known if k[:1] == low[:1] and k != low]
    best = min(near, default=None)
    return best[1] if best is not None and best[0] <= allowed else None


def slips(typed: str, meant: str) -> int:
    """How many slips of the keys make ``meant`` into ``typed``: letters wrong, missing,
    added, or two neighbours swapped (the optimal string alignment distance; its cost is
    the product of the lengths, which the caller bounds)."""
    before: list[int] = []
    row = list(range(len(meant) + 1))
    for i, a in enumerate(typed, 1):
        current = [i] + [0] * len(meant)
        for j, b in enumerate(meant, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a != b))
            if i > 1 and j > 1 and a == meant[j - 2] and typed[i - 2] == b:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[-1]


def line_too_long(line: str) -> Reply | None:
    """The refusal of a line too long to be a command, or None (it costs nothing to ask:
    only the length is looked at)."""
    if len(line) <= MAX_LINE:
        return None
    length, limit = format(len(line), ","), format(MAX_LINE, ",")
    return Reply(_("That line is {length} characters long; a command is at most {limit}. "
                   "Nothing was done.", length=length, limit=limit), ok=False)


def tournament_ref(word: str) -> int | None:
    """The number of a tournament's name: ``T3``, ``t3``, ``#T3`` (None: not one)."""
    word = word[1:] if word.startswith("#") else word
    return parse_number(word[1:]) if word[:1] in ("T", "t") else None


@dataclass
class ClockWords:
    """The clock a command's words name, as `challenge` reads them: days per move (``3d``,
    ``none``) and the words of a Fischer clock (``3d+1d``, ``max10d``, ``total60d``)."""

    days: int | None = None
    named: bool = False  # `none` names no clock; naming nothing takes the default
    words: list[str] = field(default_factory=list)

    @staticmethod
    def names(low: str) -> bool:
        """Whether the (lower-case) word is one of a clock's."""
        return is_clock_word(low) or low[:1].isdigit() or low in ("none", "unlimited")

    def take(self, low: str) -> None:
        """Read one of a clock's words; ValueError (a catalogue message) if it is wrong."""
        if is_clock_word(low):
            self.words.append(low)
        else:
            self.days, self.named = parse_days(low), True

    def clock(self, default: int | None) -> tuple[int | None, str | None]:
        """The days per move (``default`` when no clock was named) and the time control's
        text (None for days per move alone); ValueError when the words do not agree."""
        days = self.days if self.named or self.words else default
        control = parse_time_control(self.words, days)
        return days, control.text() if control else None


@dataclass(frozen=True)
class Reply:
    """What a command answers: text, and the game whose board to show (at ``ply``)."""

    text: str
    ok: bool = True
    game: Game | None = None
    ply: int | None = None
    record: str | None = None  # a game record to hand over as a file
    highlights: tuple[str, ...] = ()  # points to highlight on the board (legal targets)
    selected: str | None = None  # the piece whose moves are highlighted
    pictures: tuple[Path, ...] = ()  # picture files that go with the text (rules diagrams)
    player: Player | None = None  # the sender as the command left them (a new language)


def _reply(result: Result, show: bool = True) -> Reply:
    """A service result as a reply; its text keeps the service's tokens, which
    `Commands.handle` phrases for the transport."""
    if isinstance(result, Refusal):
        if result.candidates:
            return Reply(joined([result.template, *result.candidates], "\n  "), ok=False)
        return Reply(result.template, ok=False)
    return Reply(result.template, game=result.game if show else None, record=result.text)


def _game_number(args: list[str], what: str = "game",
                 ) -> tuple[int | Refusal | None, list[str]]:
    """The ``#12`` among the words, and the other words; a number too large for anything
    to have it is refused here, quoting what was typed."""
    for k, word in enumerate(args):
        number = game_number(word)
        if number is not None:
            if number > MAX_ID:
                number = Refusal(NO_SUCH[what], no_such(what, word[1:]))
            return number, args[:k] + args[k + 1:]
    return None, args


class Commands:
    """Reads command lines and calls the game service."""

    def __init__(self, service: GameService, find_player: FindPlayer,
                 transport: str = "console", computer: Computer | None = None,
                 language: str | None = None) -> None:
        self.service = service
        self.find_player = find_player
        self.transport = transport  # whose words the answers are phrased in
        self.computer = computer  # None where the computer does not play
        self.language = language  # what the transport says of its readers (LANG)

    def language_of(self, player: Player | None, wish: str | None = None) -> str:
        """The language to word answers to ``player`` in: the one they chose (`language`),
        else what their message says (``wish``: a mail's Content-Language), else the
        transport's (``LANG`` at the console), else English; only languages offered."""
        chosen = player.preferences.get(LANGUAGE) if player is not None else None
        return i18n.choose(chosen if isinstance(chosen, str) else None, wish, self.language)

    def words(self) -> list[str]:
        return sorted(name[4:] for name in dir(self) if name.startswith("cmd_"))

    async def handle(self, sender: Player, place: str, line: str,
                     language: str | None = None) -> Reply:
        """Run one command line; the answer in the transport's words and in the sender's
        language (``language``: what the message says it is in, if anything)."""
        reader = _READER.set(self.language_of(sender, language))
        try:
            reply = await self._handle(sender, place, line)
        finally:
            _READER.reset(reader)
        if reply.player is not None:  # the command changed the sender (their language)
            sender = reply.player
        words = i18n.render(reply.text, self.language_of(sender, language))
        return replace(reply, text=phrase(words, self.transport))

    async def _handle(self, sender: Player, place: str, line: str) -> Reply:
        refused = line_too_long(line)
        if refused is not None:
            return refused
        parts = split_words(line)
        if not parts:
            return Reply(_("Type {help} for the commands.", help=command("help")), ok=False)
        word = parts[0].lower()
        handler = getattr(self, f"cmd_{word}", None)
        try:
            if handler is None:
                return self.slip(parts) or await self.cmd_move(sender, place, parts)
            return await handler(sender, place, parts[1:])
        except StorageError as err:  # rolled back: the player is told, the host logs why
            log.error("command %r not carried out: %s", word[:20], err)
            return Reply(storage_words(err), ok=False)

    def slip(self, words: list[str]) -> Reply | None:
        """The answer to a line whose first word is a command's misspelt (``joni T3``),
        naming the line meant; None when the first word is no such slip (a move, whose
        notation has a digit)."""
        word = words[0]
        near = closest_word(word, self.words()) if word.isalpha() and len(word) > 2 else None
        if near is None:
            return None
        meant = "`" + shorten(" ".join([near, *words[1:]]), SHOWN_LINE) + "`"
        return Reply(_("{word} is no command: did you mean {line}? ({help} lists the "
                       "commands.)", word=repr(shorten(word, SUGGEST_CHARS)), line=meant,
                       help="`help`"), ok=False)

    # --- help -----------------------------------------------------------------------
    async def cmd_help(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Show the commands, or how to use one.

        help
        help challenge
        """
        if len(args) > 1:
            return Reply(ONE_HELP_WORD, ok=False)
        if args and (handler := getattr(self, f"cmd_{args[0].lower()}", None)):
            return Reply(_("{word}: {help}", word=args[0].lower(), help=help_text(handler)))
        if args:
            return Reply(_("There is no command {word}; `help` lists them.",
                           word=repr(args[0])), ok=False)
        language = self.reader_language(sender)
        lines = [_("Commands (`help WORD` for examples); a line that is no command is a "
                   "move:").render(language)]
        for word in self.words():
            lines += help_line(word, summary(getattr(self, f"cmd_{word}"), language))
        return Reply("\n".join(lines))

    def _reason(self, sender: Player, err: ValueError) -> str:
        """Why a value was refused (a clock's words), in the reader's language: the
        catalogue's message the error carries, or its words."""
        reason = err.args[0] if len(err.args) == 1 and isinstance(err.args[0], str) else None
        return i18n.render(reason, self.reader_language(sender)) if reason else str(err)

    def reader_language(self, sender: Player) -> str:
        """The language the command being run is answered in (what `handle` chose)."""
        return _READER.get() or self.language_of(sender)

    async def cmd_variants(self, sender: Player, place: str, args: list[str]) -> Reply:
        """List the variants you can play."""
        if args:
            return _extra("variants", args)
        width = max(len(v.name) for v in all_variants())
        lines = [_("{name}  {variant} (modes: {modes})", name="  " + v.name.ljust(width),
                   variant=variant_name(v), modes=", ".join(v.modes)) for v in all_variants()]
        return Reply(joined([_("Variants:"), *lines], "\n"))

    async def cmd_rules(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Show the rules of a variant, or one part: a piece or a section.

        rules clash
        rules clash droid
        rules commander notation
        """
        if not args:
            names = ", ".join(v.name for v in all_variants())
            return Reply(_("Which variant? As in `rules clash` ({names}).", names=names),
                         ok=False)
        try:
            variant = get_variant(args[0])
        except EngineError as err:
            return Reply(engine_words(err), ok=False)
        part = rules_part(variant, " ".join(args[1:]), language=self.reader_language(sender))
        return Reply(as_plain_text(part.markdown), ok=part.found, pictures=part.pictures)

    # --- challenges -----------------------------------------------------------------
    async def cmd_challenge(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Challenge someone (or anyone here) to a game.

        challenge bob
        challenge bob clash white 3d
        challenge anyone clash random 7d unrated
        challenge bob clash none from bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 1
        challenge bob 3d+1d max10d total60d
        challenge computer 2 commander red
        Time per move: 1d, 2d, 3d, 5d, 7d, 14d or none (naming no time takes the host's
        default, which is none unless it was set); or a Fischer clock:
        3d+1d is a bank of 3 days, 1 day added per move, max10d caps the bank at 10 days;
        total60d caps each player's time in the whole game (with either clock).
        The computer plays at levels 1 (a beginner) to 5 (its strongest); 3 by default.
        """
        if not args:
            return Reply(_("Challenge whom? Name an opponent (`challenge bob`), or say "
                           "`challenge anyone` to let anyone here accept."), ok=False)
        variant = all_variants()[0]
        words = list(args)
        against_computer = read_level(words) if self.computer else None
        if against_computer is not None:
            words = against_computer[1]
        start_fen = None
        if "from" in [w.lower() for w in words]:
            k = [w.lower() for w in words].index("from")
            start_fen = " ".join(words[k + 1:]) or None
            words = words[:k]
        for word in words:
            try:
                variant = get_variant(word)
            except EngineError:
                continue
            words.remove(word)
            break
        opponent: Player | None = None
        mode = side = rated = None
        clock = ClockWords()
        side_words = {**SIDE_WORDS, **{n.lower(): k for k, n in enumerate(variant.side_names)}}
        for word in words:
            low = word.lower()
            if low in OPEN_WORDS:
                continue
            if low in variant.modes:
                mode = low
            elif low in side_words:
                side = side_words[low]
            elif low == "random":
                side = None
            elif low in ("rated", "unrated"):
                rated = low == "rated"
            elif clock.names(low):
                try:
                    clock.take(low)
                except ValueError as err:
                    return Reply(self._reason(sender, err).capitalize() + ".", ok=False)
            elif opponent is None and (number := tournament_ref(word)) is not None:
                return Reply(_("{ref} is a tournament, not a player. To challenge someone on "
                               "its ladder, send {ladder}; to play in it, {join}.",
                               ref="T" + str(number),
                               ladder=command("ladder", f"T{number} bob"),
                               join=command("join", "T" + str(number))), ok=False)
            elif opponent is None:
                found = await self.find_player(word)
                if isinstance(found, Refusal):
                    return _reply(found)
                opponent = found
            else:
                return Reply(joined([_("I do not understand {word}.", word=repr(word)),
                                     _usage("challenge")]), ok=False)
        try:
            days, control = clock.clock(self.service.challenges.default_days())
        except ValueError as err:
            reason = self._reason(sender, err)
            return Reply(reason[:1].upper() + reason[1:] + ".", ok=False)
        if against_computer is not None and self.computer is not None:
            return _reply(await self.computer.challenge(
                sender, place, against_computer[0], variant.name, mode, side, days, start_fen,
                rated))
        return _reply(await self.service.challenges.challenge(
            sender, place, opponent, variant.name, mode, side, days, start_fen, rated,
            time_control=control))

    async def cmd_challenges(self, sender: Player, place: str, args: list[str]) -> Reply:
        """List the open challenges you made, received, or may accept here."""
        if args:
            return _extra("challenges", args)
        found = await self.service.challenges.pending(sender, place)
        if not found:
            return Reply(_("There are no open challenges for you."))
        lines = [_("  #{number} {challenger} → {opponent}: {variant}, {clock}, expires {moment}",
                   number=c.id, challenger=c.challenger_name,
                   opponent=c.opponent_name or _("anyone"),
                   variant=variant_name(get_variant(c.variant)),
                   clock=describe_clock(c.days, c.time_control), moment=moment(c.expires_at))
                 for c in found]
        return Reply(joined([_("Open challenges:"), *lines], "\n"))

    async def _challenge_action(self, sender: Player, place: str, args: list[str],
                                action: Callable[[Player, int], Awaitable[Result]],
                                own: bool = False) -> Reply:
        number, rest = _game_number(args, "challenge")
        if isinstance(number, Refusal):
            return _reply(number)
        if rest:
            return _extra(action.__name__, rest)
        found = await self.service.challenges.find_challenge(sender, place, number, own=own)
        if isinstance(found, Refusal):
            return _reply(found)
        return _reply(await action(sender, found.id))

    async def cmd_accept(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Accept a challenge (the only one for you, or the one numbered).

        accept
        accept #4
        """
        return await self._challenge_action(sender, place, args, self.service.challenges.accept)

    async def cmd_decline(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Decline a challenge addressed to you.

        decline #4
        """
        return await self._challenge_action(sender, place, args, self.service.challenges.decline)

    async def cmd_cancel(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Withdraw a challenge you made.

        cancel #4
        """
        return await self._challenge_action(sender, place, args, self.service.challenges.cancel,
                                            own=True)

    # --- games ----------------------------------------------------------------------
    async def _game(self, sender: Player, place: str, args: list[str], to_move: bool = False,
                    purpose: str | None = None, example: str = "board",
                    move: bool = False, point: str | None = None
                    ) -> tuple[Game | Refusal, list[str]]:
        """The game the words name or mean, and the other words (``move``: they are a
        move, which narrows the sender's games to those it fits)."""
        number, rest = _game_number(args)
        if isinstance(number, Refusal):
            return number, rest
        played = " ".join(rest) if move and rest else None
        played = None if (played or "").lower() == "end" else played  # `end` is no notation
        return await self.service.inference.find_game(sender, place, number, to_move, purpose,
                                                      example,
                                                      played, point), rest

    async def cmd_games(self, sender: Player, place: str, args: list[str]) -> Reply:
        """List your games in progress (`games here`: every game in progress here).

        games
        games here
        """
        here = bool(args) and args[0].lower() == "here"
        if args[1 if here else 0:]:
            return _extra("games", args[1 if here else 0:])
        found = await self.service.games(None if here else sender, place if here else None)
        if not found:
            return Reply(_("No games in progress.") if here else
                         _("No games in progress. Start one with {challenge}.",
                           challenge=command("challenge")))
        lines = [_("  #{number} {first} vs {second} ({variant}), {mover} to move{deadline}",
                   number=g.id, first=g.names[0], second=g.names[1],
                   variant=variant_name(get_variant(g.variant)), mover=g.names[g.to_move],
                   deadline=_deadline(g)) for g in found]
        return Reply(joined([_("Games in progress:"), *lines], "\n"))

    async def cmd_board(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Show a game's board, now or after the turn you name.

        board
        board #3
        board #3 12...

        A turn is named as in the record: `3.` after the first side's third turn, `3...`
        after the second side's, `3` after both, `0` the start.
        """
        game, rest = await self._game(sender, place, args, example="board")
        if isinstance(game, Refusal):
            return _reply(game)
        if len(rest) > 1:
            return _extra("board", rest[1:])
        ply = None
        if rest:
            ply = await self._turn_end(game, rest[0])
            if isinstance(ply, Reply):
                return ply
        notes = await self.service.notes.notes_text(sender, game.id)
        clock = "" if game.is_over else await self.service.clocks.clock_state(game)
        return Reply(joined(filter(None, [self.describe(game), clock, notes]), "\n"), game=game,
                     ply=ply)

    async def _turn_end(self, game: Game, text: str) -> int | Reply:
        """The step count after the turn ``text`` names, or the answer saying why not."""
        variant = get_variant(game.variant)
        digits = text.replace("\u2026", "...").rstrip(".")
        if parse_number(digits) is None or len(text) > 12:
            board = f"`board #{game.id} "
            return Reply(_("{text} is not a turn number: {first_turn} shows the board after "
                           "{first}'s turn 3, {second_turn} after {second}'s, {start} the "
                           "start.", text=repr(text), first_turn=board + "3.`",
                           first=side_name(variant, 0), second_turn=board + "3...`",
                           second=side_name(variant, 1), start=board + "0`"), ok=False)
        ends = turn_ends(game, await self.service.played_moves(game.id))
        ply = find_turn(ends, text)
        if ply is None:
            labels = list(ends)[1:]
            if labels:
                return Reply(_("Game #{game} has turns {first} to {last} so far: name one of "
                               "them, or 0 for the start.", game=game.id, first=labels[0],
                               last=labels[-1]), ok=False)
            return Reply(_("Game #{game} has no turn played yet: name one of them, or 0 for "
                           "the start.", game=game.id), ok=False)
        return ply

    def describe(self, game: Game) -> Text:
        """A game's header line: players, variant, state, clock."""
        variant = get_variant(game.variant)
        players = dict(game=game.id, first=game.names[0], first_side=side_name(variant, 0),
                       second=game.names[1], second_side=side_name(variant, 1),
                       variant=variant_name(variant))
        if game.is_over:
            return _("Game #{game}: {first} ({first_side}) vs {second} ({second_side}), "
                     "{variant}. Game over: {result}.", result=self.service.describe_result(game),
                     **players)
        parts = [_("Game #{game}: {first} ({first_side}) vs {second} ({second_side}), "
                   "{variant}, {clock}. {mover} to move{deadline}.",
                   clock=describe_clock(game.days, game.time_control),
                   mover=game.names[game.to_move], deadline=_deadline(game), **players)]
        if game.draw_offer is not None:
            parts.append(_("{name} offers a draw.", name=game.names[game.draw_offer]))
        if game.takeback_offer is not None:
            parts.append(_("{name} asks for a takeback.", name=game.names[game.takeback_offer]))
        return joined(parts)

    async def cmd_moves(self, sender: Player, place: str, args: list[str]) -> Reply:
        """List the moves you may make next, one step at a time, by piece.

        moves
        moves c3
        moves #3 c3

        Name a point (`moves c3`) for the moves of the piece there alone, highlighted on
        the board. While your opponent is to move, a piece of yours shows the moves it
        would have if it were your turn (to plan conditional moves with `if`).
        """
        number, named = _game_number(args)
        point = named[0] if len(named) == 1 and not isinstance(number, Refusal) else None
        game, rest = await self._game(sender, place, args,
                                      example=f"moves {point}" if point else "moves",
                                      point=point)
        if isinstance(game, Refusal):
            return _reply(game)
        if game.is_over:
            return Reply(_("Game #{game} is over: {result}.", game=game.id,
                           result=self.service.describe_result(game)), ok=False)
        if len(rest) > 1:
            return _extra("moves", rest[1:])
        node = rest[0].lower() if rest else None
        variant = get_variant(game.variant)
        if node is not None and node not in variant.topology.index:
            files, ranks = variant.topology.files, variant.topology.ranks
            return Reply(_("{point} is not a point of this board ({variant}: files {files}, "
                           "ranks {ranks}).", point=rest[0], variant=variant_name(variant),
                           files=files[0] + "-" + files[-1], ranks=ranks[0] + "-" + ranks[-1]),
                         ok=False)
        if node is not None:
            waiting = await self.service.turns.steps_if_my_turn(game, sender, node)
            if waiting is not None:
                return _moves_if_my_turn(game, waiting)
        found = await self.service.turns.step_choices(game, node)
        can_end = await self.service.turns.can_end_turn(game)
        end = _("Or {end} to finish the turn.", end=command("end")) if can_end else None
        whose = None
        if game.side_of(sender.id) != game.to_move:  # say whose moves these are
            whose = _("{name} ({side}) is to move.", name=game.names[game.to_move],
                      side=side_name(variant, game.to_move))
        if not found:
            none = (_("There is no legal move from {point} in game #{game}.", point=node,
                      game=game.id) if node else
                    _("There is no legal move in game #{game}.", game=game.id))
            return Reply(joined(filter(None, [whose, none, end])))
        if node is not None:
            (piece,) = found
            steps = " ".join(piece.steps) + ("." if end else "")
            return Reply(joined(filter(None, [whose, _n(
                "{piece} on {point}: {n} move: {steps}", "{piece} on {point}: {n} moves: {steps}",
                len(piece.steps), piece=piece.piece, point=node, steps=steps), end])), game=game,
                highlights=piece.targets, selected=node)
        lines = [f"  {p.piece} {p.origin}: " + " ".join(p.steps) for p in found]
        head = _n("{n} piece can move in game #{game} (name a point for one piece's moves, "
                  "as in {example}):", "{n} pieces can move in game #{game} (name a point for "
                  "one piece's moves, as in {example}):", len(found), game=game.id,
                  example=command("moves", found[0].origin))
        return Reply(joined(filter(None, [joined(filter(None, [whose, head])), *lines, end]),
                            "\n"))

    async def cmd_move(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Play a move (the word `move` may be left out).

        move c3-d4
        c3-d4
        move #3 b2-c3/D

        Without a game's number, a move goes to the one game of yours whose notation reads
        it (where it is legal now, or else where it is your turn, if several read it); when
        it fits several, you are asked which, one game a line.
        """
        if args and args[0].lower() == "move":
            args = args[1:]
        misplaced = self.command_as_move(args)
        if misplaced is not None:
            return misplaced
        game, rest = await self._game(sender, place, args, to_move=True, move=True)
        if isinstance(game, Refusal):
            return _reply(game)
        if not rest:
            return Reply(joined([_("Which move?"), _usage("move")]), ok=False)
        return _reply(await self.service.move(sender, game.id, " ".join(rest)))

    def command_as_move(self, words: list[str]) -> Reply | None:
        """How to use a command whose word was sent where a move goes (``move moves``,
        ``#3 board``); None when the first word (after a game's number) is no command."""
        played = [w for w in words if game_number(w) is None]
        word = played[0].lower() if played else ""
        handler = getattr(self, f"cmd_{word}", None)
        if handler is None or word in ("move", "end"):  # `end` is a move's word too
            return None
        doc = inspect.cleandoc(handler.__doc__ or "")
        examples = [f"`{e.strip()}`" for e in doc.partition("\n\n")[2].splitlines()
                    if e.strip().startswith(word)][:2] or [f"`{word}`"]
        more = f"`help {word}`"
        return Reply(_("{word} is a command, not a move: begin the line with it, as in "
                       "{examples} ({help} tells more).", word=repr(played[0]),
                       examples=_or(examples), help=more), ok=False)

    async def cmd_end(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Finish a turn of several steps early."""
        game, rest = await self._game(sender, place, args, to_move=True, purpose=END_TURN,
                                      example="end")
        if isinstance(game, Refusal):
            return _reply(game)
        if rest:
            return _extra("end", rest)
        return _reply(await self.service.end_turn(sender, game.id))

    async def cmd_resign(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Resign a game.

        resign
        resign #3
        """
        game, rest = await self._game(sender, place, args, example="resign")
        if isinstance(game, Refusal):
            return _reply(game)
        if rest:
            return _extra("resign", rest)
        return _reply(await self.service.resign(sender, game.id))

    async def cmd_abort(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Call a game off (unrated) before both sides have moved."""
        game, rest = await self._game(sender, place, args, example="abort")
        if isinstance(game, Refusal):
            return _reply(game)
        if rest:
            return _extra("abort", rest)
        return _reply(await self.service.abort(sender, game.id))

    async def cmd_draw(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Offer a draw, or accept the one offered (`draw decline` turns it down).

        draw
        draw #3 decline
        """
        game, rest = await self._game(sender, place, args, purpose=f"{ANSWER} draw", example="draw")
        if isinstance(game, Refusal):
            return _reply(game)
        if rest and (len(rest) > 1 or rest[0].lower() not in ("decline", "no")):
            return _extra("draw", rest)
        if rest:
            return _reply(await self.service.decline_draw(sender, game.id), show=False)
        return _reply(await self.service.offer_draw(sender, game.id), show=False)

    async def cmd_takeback(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Ask to take your last turn back, or accept your opponent's request.

        `takeback decline` turns a request down.

        takeback
        takeback #3 decline
        """
        game, rest = await self._game(sender, place, args, purpose=f"{ANSWER} takeback",
                                      example="takeback")
        if isinstance(game, Refusal):
            return _reply(game)
        if rest and (len(rest) > 1 or rest[0].lower() not in ("decline", "no")):
            return _extra("takeback", rest)
        if rest:
            return _reply(await self.service.decline_takeback(sender, game.id), show=False)
        if game.takeback_offer is not None and game.takeback_offer != game.side_of(sender.id):
            return _reply(await self.service.accept_takeback(sender, game.id))
        return _reply(await self.service.request_takeback(sender, game.id), show=False)

    async def cmd_export(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Write a game as a record (tags and numbered moves) that `import` reads back;
        `cotulenh`: a Commander Chess game as PGN of the cotulenh site.

        export
        export #3
        export #3 cotulenh
        """
        game, rest = await self._game(sender, place, args, example="export")
        if isinstance(game, Refusal):
            return _reply(game)
        if len(rest) > 1 or (rest and rest[0].lower() not in FORMATS):
            return _extra("export", rest)
        result = await self.service.archive.export(game.id, sender,
                                                   rest[0].lower() if rest else RECORD)
        return Reply(result.text or "", game=None, record=result.text) \
            if isinstance(result, Done) else _reply(result)

    async def import_record(self, sender: Player, place: str, text: str,
                            opponent_name: str) -> Reply:
        """Offer ``opponent_name`` to continue the game of a record: a challenge they
        accept (or decline)."""
        opponent = await self.find_player(opponent_name)
        if isinstance(opponent, Refusal):
            return _reply(opponent)
        return _reply(await self.service.archive.offer_import(sender, place, text, opponent))

    async def cmd_note(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Keep a private note on a game, shown to you alone with the board (`note`: list).

        note the left flank is weak
        note #3 trade the droid next
        """
        game, rest = await self._game(sender, place, args, example="note")
        if isinstance(game, Refusal):
            return _reply(game)
        if not rest:
            notes = await self.service.notes.notes_text(sender, game.id)
            return Reply(notes or joined([_("You have no notes on game #{game}.",
                                            game=game.id), _usage("note")]))
        return _reply(await self.service.notes.add_note(sender, game.id, " ".join(rest)),
                      show=False)

    async def cmd_if(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Record a conditional move: if they play X, your answer Y is played at once.

        if h8-i7/D then b2-a3/D
        if #3 h8-i7/D then b2-a3/D then if i7-h6/D then a3-b4/D

        A line goes on with `then if Z then W`; the steps of one turn are joined by `|`.
        """
        game, rest = await self._game(sender, place, args, purpose=FORECAST, example="if")
        if isinstance(game, Refusal):
            return _reply(game)
        return _reply(await self.service.forecasts.add_forecast(sender, game.id, ["if", *rest]),
                      show=False)

    async def cmd_forecast(self, sender: Player, place: str, args: list[str]) -> Reply:
        """List your conditional moves in a game (`forecast clear` drops them).

        forecast
        forecast #3 clear
        """
        game, rest = await self._game(sender, place, args, purpose=FORECAST, example="forecast")
        if isinstance(game, Refusal):
            return _reply(game)
        if rest and (len(rest) > 1 or rest[0].lower() != "clear"):
            return _extra("forecast", rest)
        if rest:
            return _reply(await self.service.forecasts.clear_forecast(sender, game.id), show=False)
        lines = await self.service.forecasts.forecast_lines(sender, game.id)
        if not lines:
            return Reply(_("You have no conditional moves in game #{game}. Record one with "
                           "`if THEIR-MOVE then YOUR-ANSWER`.", game=game.id))
        return Reply(joined([_("Your conditional moves in game #{game} (only you see them):",
                               game=game.id), *(f"  {line}" for line in lines)], "\n"))

    # --- players --------------------------------------------------------------------
    async def cmd_vacation(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Pause all your clocks for some days (default: as long as your allowance lasts).

        vacation
        vacation 10
        """
        days = None
        if len(args) > 1:
            return _extra("vacation", args[1:])
        note = None
        if args:
            try:
                days = float(args[0].lower().removesuffix("d").removesuffix("days"))
            except ValueError:
                return Reply(_("{days} is not a number of days.", days=repr(args[0])),
                             ok=False)
            if not days > 0 or days == float("inf"):
                return Reply(_("A vacation lasts at least a part of a day."), ok=False)
            left = await self.service.vacations.left(sender) / 86_400
            if 0 < left < days:
                note = _("You asked for {days} days, but only {left} of vacation are left this "
                         "year; you get those.", days=format(days, "g"),
                         left=format_duration(left * 86_400))
        result = await self.service.vacations.start(sender, days)
        reply = _reply(result)
        return Reply(joined([note, reply.text]), ok=reply.ok) if note and reply.ok else reply

    async def cmd_back(self, sender: Player, place: str, args: list[str]) -> Reply:
        """End your vacation: your clocks run again (moving in a game ends it too)."""
        if args:
            return _extra("back", args)
        result = await self.service.vacations.end(sender)
        if isinstance(result, Done):
            left = await self.service.vacations.left(sender)
            return Reply(joined([result.template, _(
                "Vacation left this year: {left}.", left=format_duration(left)) if left else
                _("Vacation left this year: none.")]))
        return _reply(result)

    async def cmd_digest(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Get (or stop) a daily message listing the games waiting for your move.

        digest on
        digest off
        """
        word = args[0].lower() if args else ""
        if len(args) > 1:
            return _extra("digest", args[1:])
        if word not in ("on", "off"):
            return Reply(_("Say `digest on` or `digest off`."), ok=False)
        await self.service.set_preference(sender, DIGEST, word == "on")
        return Reply(_("You will get a daily digest of the games waiting for your move.")
                     if word == "on" else _("You will get no daily digest."))

    async def cmd_language(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Choose the language of the answers and news you get (the moves keep their
        letters).

        language
        language vi
        """
        if len(args) > 1:
            return _extra("language", args[1:])
        offered = _("Languages offered: {languages}.", languages=", ".join(
            f"{i18n.display_name(code)} ({code})" for code in i18n.shipped()))
        if not args:
            now = self.language_of(sender)
            return Reply(i18n.joined([_("Your language: {language} ({code}).",
                                        language=i18n.display_name(now), code=now), offered]))
        code = args[0].lower()[:i18n.MAX_TAG]
        if i18n.choose(code, among=i18n.shipped()) != code:
            known = i18n.display_name(code)
            why = (_("{language} ({code}) is not offered yet: its words are being translated.",
                     language=known, code=code) if known else
                   _("'{code}' is no language I know.", code=shorten(code)))
            return Reply(i18n.joined([why, offered]), ok=False)
        player = await self.service.set_preference(sender, LANGUAGE, code)
        return Reply(_("Your language is now {language} ({code}).",
                       language=i18n.display_name(code), code=code), player=player)

    async def cmd_rating(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Show your rating in a variant (Glicko-2).

        rating
        rating clash
        """
        if len(args) > 1:
            return _extra("rating", args[1:])
        return await self.rating_of(sender, args[0] if args else None)

    async def rating_of(self, player: Player, variant_word: str | None,
                        other: bool = False) -> Reply:
        """``player``'s rating in a variant (the first one by default), told to them, or
        (``other``) to someone else."""
        try:
            variant = get_variant(variant_word or all_variants()[0].name)
        except EngineError as err:
            return Reply(engine_words(err), ok=False)
        rating, games = await self.service.standings.rating(player, variant.name)
        name, start = player.display_name, f"{rating.rating:.0f}"
        if not games:
            if other:
                return Reply(_("{name} has no rated {variant} games yet (a new player starts "
                               "at {rating}).", name=name, variant=variant_name(variant),
                               rating=start))
            return Reply(_("You have no rated {variant} games yet (you start at {rating}).",
                           variant=variant_name(variant), rating=start))
        values = dict(variant=variant_name(variant), rating=start,
                      deviation=f"{2 * rating.deviation:.0f}")
        if other:
            return Reply(_n("{name}'s {variant} rating: {rating} ± {deviation} after {n} rated "
                            "game.", "{name}'s {variant} rating: {rating} ± {deviation} after "
                            "{n} rated games.", games, name=name, **values))
        return Reply(_n("Your {variant} rating: {rating} ± {deviation} after {n} rated game.",
                        "Your {variant} rating: {rating} ± {deviation} after {n} rated games.",
                        games, **values))

    async def cmd_leaderboard(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Show the best-rated players of a variant.

        leaderboard
        leaderboard clash
        """
        if len(args) > 1:
            return _extra("leaderboard", args[1:])
        try:
            variant = get_variant(args[0] if args else all_variants()[0].name)
        except EngineError as err:
            return Reply(engine_words(err), ok=False)
        board = await self.service.standings.leaderboard(variant.name)
        if not board:
            return Reply(_("No rated {variant} games yet.", variant=variant_name(variant)))
        rows = [f"  {k}. {s.name:<16} {s.rating:6.0f} ± {2 * s.deviation:3.0f}"
                for k, s in enumerate(board, 1)]
        lines = [_n("{row}  ({n} game)", "{row}  ({n} games)", s.games, row=row)
                 for row, s in zip(rows, board, strict=True)]
        return Reply(joined([_("{variant} leaderboard:", variant=variant_name(variant)), *lines],
                            "\n"))


def _deadline(game: Game) -> str:
    if game.clock.paused:
        return _(" (clock paused: vacation)")
    if game.clock.deadline is not None:
        return _(" (until {moment})", moment=moment(game.clock.deadline))
    return ""


def _moves_if_my_turn(game: Game, piece: PieceSteps) -> Reply:
    return Reply(if_my_turn_words(game.id, piece, " ".join(piece.steps)), game=game,
                 highlights=piece.targets, selected=piece.origin)


def _extra(word: str, rest: list[str]) -> Reply:
    """The refusal of words a command does not take."""
    refusal = _("`{word}` does not take {words}.", word=word, words=repr(" ".join(rest)))
    usage = _usage(word)
    return Reply(joined([refusal, usage]) if usage else refusal, ok=False)


def help_text(handler: Callable[..., object]) -> Text:
    """A command's help: its docstring, each paragraph of words a message of the catalogue
    (`i18n.command_helps` lists them) worded in the reader's language; its examples keep
    their words."""
    word = getattr(handler, "__name__", "").removeprefix(i18n.HELP_PREFIX)
    return joined([Text(part, {}) if words else part for part, words in
                   i18n.help_parts(inspect.cleandoc(handler.__doc__ or ""), word)], "\n\n")


def summary(handler: Callable[..., object], language: str = i18n.SOURCE) -> str:
    """What a command does, whole: the first paragraph of its help in ``language`` (its
    first line alone would cut a description that goes on)."""
    first = inspect.cleandoc(handler.__doc__ or "").split("\n\n")[0]
    return " ".join(Text(first, {}).render(language).split())


def help_line(word: str, description: str) -> list[str]:
    """A command's lines in the `help` list: its word, then its description, wrapped."""
    return textwrap.wrap(description, HELP_WIDTH, initial_indent=f"  {word:<12} ",
                         subsequent_indent=" " * 15)


ONE_HELP_WORD = _("Say one word: `help WORD`, or `help` for the list.")


def _or(items: list[str]) -> Text | str:
    """``a``, or ``a or b``, in the reader's language."""
    return _("{first} or {second}", first=items[0], second=items[1]) if len(items) > 1 \
        else items[0]


def _method(word: str) -> Callable[..., object] | None:
    """The method of the command ``word``: a shared one, or one of the commands built on
    them (the tournaments', a transport's)."""
    kinds: list[type] = [Commands]
    while kinds:
        kind = kinds.pop()
        found = getattr(kind, f"cmd_{word}", None)
        if found is not None:
            return found
        kinds.extend(kind.__subclasses__())
    return None


def _usage(word: str) -> Text | str:
    doc = inspect.cleandoc(getattr(_method(word), "__doc__", None) or "")
    # the examples follow the description (which may take several lines) and a blank line
    examples = [line for line in doc.partition("\n\n")[2].splitlines() if line.strip()]
    return _("For example: {examples}", examples="; ".join(f"`{e}`" for e in examples[:2])) \
        if examples else ""

