"""Board pictures as PNG files, through the renderer when it is installed.

The renderer is imported only when a picture is wanted, so the service runs (and a console
game is played) without it: `write_png` then writes nothing and says why. Rendering never
runs inside a database transaction: a transport draws after the move is stored.
`game_info` gathers what a picture says around the board from the stored game, and
`picture_options` everything a transport passes to the renderer for a game's picture, so
that the Discord bot and the mail show the same picture of the same game from the same side.

A picture speaks its reader's language: every function that makes one takes a ``language``
(English by default) and gives the renderer the picture's own words from the catalogue
(`picture_words`: the variant's and sides' names, the headings, the legend with a key to
the pieces' names, the status); the texts it is given (clocks, deadline, result) are worded
here too. Notation (moves, points, positions) is never translated.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import EngineError, Move, Position, Variant, get_variant

from .i18n import SOURCE, Text, _, joined, message_id, moment, render
from .service.clock import describe_days, format_duration
from .service.model import Game, PlayedMove
from .service.records import END
from .service.tournaments import (
    RESULT_WORDS,
    TIEBREAK_NAMES,
    Pairing,
    counted,
    number_text,
    score_text,
    status_text,
)
from .service.tournaments import Table as TournamentTable
from .service.turns import numbered_turns
from .service.words import side_name, variant_name

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger(__name__)
LAST_MOVES = 12  # moves the picture's panel lists at most
SIZE = 640  # one size for every transport, so the renderer's caches stay warm


def _renderer() -> Callable[..., bytes] | None:
    """The renderer's ``render`` function, or None while there is none."""
    try:
        from renderer import render
    except ImportError:
        return None
    return render if callable(render) else None


def game_info(game: Game, played: Sequence[PlayedMove], ply: int | None = None,
              now: float | None = None, language: str = SOURCE) -> Any:
    """The renderer's `GameInfo` for ``game`` after ``ply`` steps (default: now): number,
    players, deadline, each side's clock (worded in ``language``), the losses counted from
    the moves (`game_losses`) and the last moves numbered by turn (None without a
    renderer)."""
    try:
        from renderer import GameInfo
    except ImportError:
        return None
    ply = game.ply if ply is None else ply
    current = ply >= game.ply and not game.is_over
    now = time.time() if now is None else now
    deadline, clocks = "", ("", "")
    if current and game.days is not None:
        per_move = describe_days(game.days)
        mover = game.to_move
        if game.clock.paused:
            left = _("clock paused: vacation")
        elif game.clock.deadline is not None:
            deadline = _("until {moment}", moment=moment(game.clock.deadline))
            left = _("{duration} left", duration=format_duration(game.clock.deadline - now))
        else:
            left = per_move
        clocks = (left, per_move) if mover == 0 else (per_move, left)
        if game.banks[1 - mover] is not None:  # Fischer: the waiting side's bank
            bank = _("{duration} in the bank", duration=format_duration(game.banks[1 - mover]
                                                                         or 0))
            clocks = (left, bank) if mover == 0 else (bank, left)
        deadline = render(deadline, language)
        clocks = (render(clocks[0], language), render(clocks[1], language))
    # whole turns under their numbers, as in the record and the notices
    moves = numbered_turns(game, played[:ply])
    return GameInfo(number=game.id, players=game.names, deadline=deadline, clocks=clocks,
                    moves=tuple(moves[-LAST_MOVES:]), losses=game_losses(game, played, ply))


def game_losses(game: Game, played: Sequence[PlayedMove], ply: int | None = None) -> Any:
    """The renderer's `Material` for ``game`` after ``ply`` steps (default: now): what each
    side's pieces lost to the moves played since the game's own start (a set-up position
    included), and the points destroyed where the rules score them (None without a
    renderer). A stored step that no longer reads is left out: a picture must never
    fail."""
    try:
        from renderer import losses
    except ImportError:
        return None
    return losses(get_variant(game.variant), _steps(game, played, ply))


def points_destroyed(game: Game, played: Sequence[PlayedMove],
                     ply: int | None = None) -> tuple[int, int] | None:
    """The points each side has destroyed in ``game`` after ``ply`` steps (default: now),
    counted from the moves played as the pictures count them; None where the rules score
    no points. The text board's caption shows them without the renderer."""
    variant = get_variant(game.variant)
    if not variant.piece_points:
        return None
    destroyed = [0, 0]
    for position, move in _steps(game, played, ply):
        for piece in variant.removed_pieces(position, move):
            destroyed[1 - piece.side] += variant.piece_points.get(piece.letter, 0)
    return destroyed[0], destroyed[1]


def _steps(game: Game, played: Sequence[PlayedMove],
           ply: int | None) -> list[tuple[Position, Move]]:
    """Each stored step of ``game`` up to ``ply`` with the position it was played in (an
    `end` step removes nothing; a step that no longer reads is left out)."""
    ply = game.ply if ply is None else ply
    steps = []
    for k, step in enumerate(played[:ply]):
        if step.text == END:
            continue
        before = played[k - 1].fen if k else game.start_fen
        found = _played_step(game.variant, before, step.text)
        if found is not None:
            steps.append(found)
    return steps


@lru_cache(maxsize=2048)
def _played_step(variant: str, before: str, text: str) -> tuple[Position, Move] | None:
    """The position before a stored step and the step's move (None if either does not
    read), kept so that each new picture of a game reads only its new steps."""
    rules = get_variant(variant)
    try:
        position = rules.parse_position(before)
        return position, rules.parse_move(position, text)
    except (EngineError, ValueError, IndexError, KeyError, TypeError):
        return None


async def picture_options(service: GameService, game: Game, *, perspective: int = 0,
                          ply: int | None = None, highlights: tuple[str, ...] = (),
                          selected: str | None = None, show_last: bool = True,
                          theme: str | None = None,
                          language: str = SOURCE) -> tuple[Position, dict[str, Any]]:
    """The position and the renderer's options for the picture of ``game`` after ``ply``
    steps (default: now) seen from ``perspective``: the header, the players with their
    colours, the clocks and deadline, the losses and the last moves (`game_info`), every
    step of the last turn marked (unless ``show_last`` is false), or a piece's moves
    (``selected``, ``highlights``); the result once it is over; every word in
    ``language`` (`picture_words`). Every transport draws its game pictures from these, so
    they are the same everywhere."""
    ply = game.ply if ply is None else max(0, min(ply, game.ply))
    position = await service.position(game, ply)
    last = await service.turns.turn_moves(game, ply) if show_last else None
    result = render(service.describe_result(game), language) if game.is_over else ""
    info = game_info(game, await service.played_moves(game.id), ply, language=language)
    variant = get_variant(game.variant)
    options = {"variant": variant, "perspective": perspective, "last_move": last,
               "highlights": highlights, "selected": selected, "result": result,
               "info": info, "size": SIZE, "theme": theme or service.settings.theme}
    words = picture_words(variant, language)
    if words is not None:
        options["words"] = words
    return position, options


def picture_file_name(game: Game, ply: int, perspective: int, highlights: Sequence[str] = (),
                      selected: str | None = None) -> str:
    """The file name of the picture of ``game`` after ``ply`` steps as one viewer sees it:
    the side it is drawn from, and a piece's moves when they are shown (the piece's point
    and a short key of the points marked), so that two viewers' pictures of one position,
    or one with and one without a piece's moves, are two files (``game-3-12-red.png``,
    ``game-3-12-blue-c4-1f0e9a.png``)."""
    side = get_variant(game.variant).side_names[perspective]
    parts = [f"game-{game.id}-{ply}", _file_word(side)]
    if selected:
        parts.append(_file_word(selected))
    if highlights:
        marked = ",".join(sorted(highlights)).encode()
        parts.append(hashlib.blake2s(marked, digest_size=3).hexdigest())
    return "-".join(parts) + ".png"


def _file_word(text: str) -> str:
    """``text`` as a part of a file name: lower-case ASCII letters and digits only."""
    return "".join(ch for ch in text.lower() if ch.isascii() and ch.isalnum()) or "x"


def write_png(position: Position, path: Path, last_move: Move | Sequence[Move] | None = None,
              caption: str = "", result: str = "", info: Any = None,
              theme: str = "classic", language: str = SOURCE,
              **options: object) -> tuple[Path | None, str]:
    """Draw ``position`` into ``path`` in ``theme`` (``last_move``: one move or every step
    of the last turn; ``options``: the renderer's, such as ``perspective`` and
    ``highlights``), its words in ``language`` (``caption`` and ``result`` are worded
    there when they are catalogue messages); the path written (None if none) and a
    note."""
    draw = _renderer()
    if draw is None:
        return None, "no picture: the renderer is not available"
    if "words" not in options:
        variant = options.get("variant")
        words = picture_words(variant if isinstance(variant, Variant)
                              else get_variant(position.variant), language)
        if words is not None:
            options["words"] = words
    try:
        png = draw(position, last_move=last_move, caption=render(caption, language),
                   result=render(result, language), info=info, theme=theme, **options)
    except Exception as err:  # a picture must never break a game
        log.debug("rendering failed", exc_info=True)
        return None, f"no picture: rendering failed ({err})"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
    except OSError as err:
        return None, f"no picture: cannot write {path}: {err.strerror or err}"
    return path, str(path)


# --- the pictures' words ------------------------------------------------------------------
# every name a picture draws, by its English name (the engine's): the catalogue words it
TERRAIN = (("sea", message_id("sea")), ("mouth", message_id("river mouth")),
           ("coast", message_id("coast")), ("river", message_id("river")),
           ("bridge", message_id("bridge")), ("headquarters", message_id("headquarters")))
_CHIEFTAIN = {"C": message_id("Chieftain"), "H": message_id("Hero"), "S": message_id("Shaman"),
              "N": message_id("kNight"), "M": message_id("Man"), "G": message_id("Gold"),
              "V": message_id("Silver")}
# by variant, its pieces' names in the order of the key (the rules' order)
PIECE_NAMES = {
    "commander": {"C": message_id("Commander"), "H": message_id("Headquarters"),
                  "I": message_id("Infantry"), "M": message_id("Militia"),
                  "T": message_id("Tank"), "E": message_id("Engineer"),
                  "A": message_id("Artillery"), "G": message_id("Anti-aircraft gun"),
                  "S": message_id("Missile"), "F": message_id("Air force"),
                  "N": message_id("Navy")},
    "clash": {"C": message_id("Commander"), "F": message_id("Factor"),
              "D": message_id("Droid"), "H": message_id("Hawk"), "B": message_id("Brute"),
              "S": message_id("Slicer")},
    "combined-arms": {"K": message_id("Headquarters"), "Q": message_id("Aviation"),
                      "R": message_id("Heavy artillery"), "B": message_id("Light artillery"),
                      "N": message_id("Armour"), "P": message_id("Infantry")},
    "mini-chieftain": {k: _CHIEFTAIN[k] for k in "CHSNM"},
    "micro-chieftain": {k: _CHIEFTAIN[k] for k in "CHSNMGV"},
}


def _word(msgid: str, language: str) -> str:
    """The catalogue's words for ``msgid`` in ``language``, its placeholders kept for the
    renderer to fill."""
    return Text(msgid, {}).render(language)


@lru_cache(maxsize=64)
def picture_words(variant: Variant, language: str = SOURCE) -> Any:
    """The renderer's `Words` for pictures of ``variant`` in ``language`` (None without a
    renderer): the names of the variant and its sides, the headings, the legend and the
    status in the reader's words; and, in any language but English (whose piece letters
    are the initials of its piece names), a key to the pieces' names."""
    try:
        from renderer import Words
    except ImportError:
        return None
    pieces = () if language == SOURCE else tuple(
        (letter, _word(msgid, language))
        for letter, msgid in PIECE_NAMES.get(variant.name, {}).items())
    return Words(
        variant=render(variant_name(variant), language),
        sides=(render(side_name(variant, 0), language), render(side_name(variant, 1),
                                                                 language)),
        versus=_word(message_id("vs"), language),
        to_move=_word(message_id("{mover} to move"), language),
        move_number=_word(message_id("· move {number}"), language),
        last_moves=_word(message_id("Last moves"), language),
        last_moves_row=_word(message_id("Last moves:"), language),
        destroyed=_word(message_id("destroyed {points} pts"), language),
        lost=_word(message_id("lost:"), language),
        lost_nothing=_word(message_id("lost: nothing"), language),
        terrain=tuple((key, _terrain(msgid, language)) for key, msgid in TERRAIN),
        pieces=pieces,
        status=None if language == SOURCE else _Status(variant, language))


def _terrain(msgid: str, language: str) -> str:
    """A terrain kind's name for the legend, held on one line in any language but
    English ("bờ biển", a coast, split at the line's end reads as "biển", the sea; English
    pictures stay as the rules' committed diagrams draw them)."""
    name = _word(msgid, language)
    return name if language == SOURCE else name.replace(" ", NBSP)


NBSP = "\u00a0"  # a space no line breaks at


class _Status:
    """The variant's status of a position (`Variant.status_text`, a phrase of the engine)
    in ``language``."""

    def __init__(self, variant: Variant, language: str) -> None:
        self.variant, self.language = variant, language

    def __call__(self, position: Position) -> str:
        return render(self.variant.status_text(position), self.language)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Status) and (self.variant, self.language) == \
            (other.variant, other.language)

    def __hash__(self) -> int:
        return hash((self.variant.name, self.language))


# --- a tournament's crosstable ------------------------------------------------------------
def crosstable_picture(table: TournamentTable, language: str = SOURCE,
                       section: int | None = None, theme: str = "classic") -> bytes | None:
    """The crosstable of one section of a tournament (``section``: its number, default
    the first) as a PNG, every word in ``language`` (None without a renderer). A
    round-robin's result columns are the opponents, in the order of the rows (``1``,
    ``0``, ``½``, a double round's two results side by side, ``×`` against oneself); a
    Swiss tournament's are its rounds (``+W5``: a win with the first side against the
    player of row 5, ``=`` a draw, ``-`` a loss, the side by its initial in ``language``;
    ``+`` alone a bye, the word "bye" while its round's games go on and its point is not
    counted yet); a ladder has none. A tie-break that does not apply is ``–``. Drawing
    is CPU work: a transport calls this in a worker thread."""
    try:
        from renderer.crosstable import Crosstable, draw_crosstable
    except ImportError:
        return None
    return draw_crosstable(crosstable(table, language, section, Crosstable), theme)


def crosstable(table: TournamentTable, language: str, section: int | None,
               make: Callable[..., Any]) -> Any:
    """The renderer's `Crosstable` (made by ``make``) of one section of ``table``."""
    from renderer.crosstable import CrossRow

    t = table.tournament
    part = next((s for s in table.sections if section in (None, s.number)), table.sections[0])
    order = [line.player_id for line in part.lines]
    if t.format == "round-robin":
        heads = [str(k) for k in range(1, len(order) + 1)]
        cells = [tuple(_rr_cell(part.pairings, me, other) for other in order) for me in order]
    elif t.format == "swiss":
        heads = [str(k) for k in range(1, (t.rounds or t.round or 0) + 1)]
        rules = get_variant(t.variant)
        initials = tuple(render(side_name(rules, side), language)[:1].upper() for side in (0, 1))
        waiting = {p.id: render(Text(RESULT_WORDS["bye"], {}), language)
                   for p in set(part.pairings) - set(counted(part.pairings))}
        cells = [tuple(_swiss_cell(part.pairings, me, k, order, initials, waiting)
                       for k in range(1, len(heads) + 1)) for me in order]
    else:
        heads, cells = [], [() for _ in order]
    breaks = [render(Text(TIEBREAK_NAMES[k], {}), language) for k in table.tiebreaks]
    rows = tuple(CrossRow(
        rank=f"{line.rank}{'=' if line.shared else ''}",
        name=line.name + (render(_(" (withdrawn)"), language) if line.withdrawn else ""),
        rating="" if line.rating is None else str(round(line.rating)), cells=mine,
        score=str(line.played) if t.format == "ladder" else score_text(line.score),
        tiebreaks=tuple(number_text(v) for v in line.tiebreaks)[:len(breaks)]
        + ("",) * (len(breaks) - len(line.tiebreaks)),  # none before a game is over
        winner=t.status == "over" and line.rank == 1)
        for line, mine in zip(part.lines, cells, strict=True))
    games = [p for p in part.pairings if p.second is not None and p.result != "void"]
    title = _("Tournament {ref} — {name}", ref=t.ref, name=t.name)
    if len(table.sections) > 1:
        title = joined([title, _("section {section}", section=part.number)], ", ")
    subtitle = _("{status} · {played} of {total} games played", status=status_text(t),
                 played=sum(1 for p in games if p.result is not None), total=len(games))
    score = _("Games") if t.format == "ladder" else _("Score")
    note = _("Tie-breaks in order: {names}", names=", ".join(breaks)) if breaks else ""
    return make(title=render(title, language), subtitle=render(subtitle, language),
                headers=("#", render(_("Name"), language), render(_("Rating"), language),
                         *heads, render(score, language), *breaks),
                rows=rows, note=render(note, language),
                empty=render(_("No players yet."), language))


def _rr_cell(pairings: Sequence[Pairing], me: int, other: int) -> str:
    """A round-robin cell: what ``me`` scored against ``other`` (each game of a double
    round, in the order played; "" for a game not over)."""
    if me == other:
        return "×"
    marks = []
    for p in pairings:
        if {p.first, p.second} != {me, other}:
            continue
        scores = p.scores()
        if p.result in ("+-", "-+"):  # a forfeit, as crosstables mark it
            marks.append("+" if (p.result == "+-") == (p.first == me) else "-")
        elif scores is not None:
            marks.append(_SCORE_MARKS[scores[0 if p.first == me else 1]])
    return "".join(marks)


_SCORE_MARKS = {1.0: "1", 0.5: "½", 0.0: "0"}


def _swiss_cell(pairings: Sequence[Pairing], me: int, round_number: int, order: list[int],
                initials: tuple[str, str], waiting: dict[int, str]) -> str:
    """A Swiss cell: ``+W5`` (won with the first side against row 5), ``=B2``, ``-W1``,
    ``W3`` while the game goes on, ``+`` a bye (``waiting``: the word for a bye not
    counted yet, by pairing), "" no game that round."""
    p = next((p for p in pairings if p.round == round_number and me in (p.first, p.second)),
             None)
    if p is None or p.result in ("void", "unplayed"):
        return ""
    if p.second is None:
        return waiting.get(p.id, "+")
    side = 0 if p.first == me else 1
    other = p.second if side == 0 else p.first
    scores = p.scores()
    sign = "" if scores is None else {1.0: "+", 0.5: "=", 0.0: "-"}[scores[side]]
    number = order.index(other) + 1 if other in order else ""
    return f"{sign}{initials[side]}{number}"
