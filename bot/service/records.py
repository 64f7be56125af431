"""Game records: a whole game as text, PGN-like, written and read back.

    [Event "Rated correspondence game"]
    [Site "console:local"]
    [Date "2026.05.01"]
    [Round "-"]
    [White "alice"]
    [Black "bob"]
    [Result "1-0"]
    [Variant "clash"]
    [Mode "standard"]
    [TimeControl "1/259200"]

    1. b2-c3/D
    1... h8-g7/h
    2. c3-d4

    1-0

Tag pairs come first (which ones, and in what order: `Archive.export`, PGN's conventions
for variants: a ``[SetUp "1"]`` and ``[FEN]`` pair only for a game from a set-up position);
the players' tags are named after the variant's sides (``White`` and ``Black``, ``Red`` and
``Blue``). Then one turn per line, numbered ``N.`` for the first side and ``N...`` for the
second, in canonical move text. A turn played in several steps lists them in the order
played, separated by `` | ``; ``end`` is a step that closes a turn early. The result closes
the record. Reading ignores blank lines and lines starting with ``;``. Commander Chess
records in the cotulenh site's PGN dialect are `bot.service.cotulenh`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from engine import EngineError, Position, Variant

from ..i18n import Text, _

STEP_SEPARATOR = " | "
END = "end"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

_TAG = re.compile(r'^\[(?P<key>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]$')
_TURN = re.compile(r"^(?P<number>\d+)(?P<dots>\.\.\.|\.)\s*(?P<steps>.+)$")


class RecordError(ValueError):
    """A game record that cannot be read or replayed; the message (a message of the
    catalogue, ``args[0]``) says where and why."""


def result_refused(result: str) -> Text:
    """Why a record's Result tag cannot be read."""
    return _("the Result tag {result} is not one of {results}", result=repr(result),
             results=", ".join(RESULTS))


@dataclass
class GameRecord:
    """A record read from text: its tags, its turns (each the steps as played), result."""

    tags: dict[str, str] = field(default_factory=dict)
    turns: list[tuple[str, ...]] = field(default_factory=list)
    result: str = "*"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def turn_label(start: Position, k: int) -> str:
    """The number of turn ``k`` (0: the first) of a game from ``start``, as in chess
    records: ``3.`` for the first side's turn, ``3...`` for the second's."""
    side = (start.side + k) % 2
    return f"{start.fullmove + (start.side + k) // 2}{'.' if side == 0 else '...'}"


def write_record(tags: Mapping[str, str], start: Position,
                 turns: Sequence[Sequence[str]], result: str) -> str:
    """The record text of a game from its tags, start position and turns."""
    lines = [f'[{key} "{_quote(value)}"]' for key, value in tags.items()]
    lines.append("")
    for k, steps in enumerate(turns):
        lines.append(f"{turn_label(start, k)} {STEP_SEPARATOR.join(steps)}")
    if turns:
        lines.append("")
    lines.append(result)
    return "\n".join(lines) + "\n"


def read_record(text: str) -> GameRecord:
    """The tags, turns and result of a record; `RecordError` says which line is wrong."""
    record = GameRecord()
    in_moves = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if (tag := _TAG.match(line)) and not in_moves:
            record.tags[tag["key"]] = _unquote(tag["value"])
            continue
        if line.startswith("["):
            raise RecordError(_('line {number}: {line} is not a tag pair like '
                                '[Variant "clash"], or it comes after the moves',
                                number=number, line=repr(line)))
        in_moves = True
        if line in RESULTS:
            record.result = line
            continue
        turn = _TURN.match(line)
        if turn is None:
            raise RecordError(_("line {number}: {line} is not a numbered turn like "
                                "'12. c3-d4' or '12... d6-c5'", number=number,
                                line=repr(line)))
        steps = tuple(s.strip() for s in turn["steps"].split(STEP_SEPARATOR.strip()))
        if not all(steps):
            raise RecordError(_("line {number}: an empty step in {line}", number=number,
                                line=repr(line)))
        record.turns.append(steps)
    if "Result" in record.tags and record.tags["Result"] not in RESULTS:
        raise RecordError(result_refused(record.tags["Result"]))
    return record


def play_step(variant: Variant, position: Position, text: str) -> tuple[str, Position]:
    """The record's text of a step (`Variant.record_text`) and the position after it;
    `EngineError` if illegal."""
    if text.strip().lower() == END:
        return END, variant.end_turn(position)
    move = variant.parse_move(position, text)
    return variant.record_text(position, move, text), variant.make_move(position, move)


@dataclass(frozen=True)
class ReplayedStep:
    """One step of a replayed game, as the service stores it."""

    text: str
    position: Position
    turn: int  # completed turns before it
    side: int


def replay(variant: Variant, start: Position,
           turns: Iterable[Sequence[str]]) -> Iterator[ReplayedStep]:
    """Play ``turns`` (each the steps of one turn) from ``start``, checking that every step
    is legal and that each turn but the last is complete after its last step and still in
    progress before it. Raises `RecordError` naming the turn."""
    position = start
    turns = list(turns)
    for k, steps in enumerate(turns):
        side = position.side
        label = f"{position.fullmove}{'.' if side == 0 else '...'}"
        for j, step in enumerate(steps):
            if j and not position.in_progress:
                raise RecordError(_("turn {turn} {steps}: the turn is complete after {step}; "
                                    "{next} belongs on a new line", turn=label,
                                    steps=" | ".join(steps), step=repr(steps[j - 1]),
                                    next=repr(step)))
            try:
                text, position = play_step(variant, position, step)
            except EngineError as err:
                reason = err.args[0] if err.args and isinstance(err.args[0], str) else str(err)
                raise RecordError(_("turn {turn} {steps}: {reason}", turn=label,
                                    steps=" | ".join(steps), reason=reason)) from err
            yield ReplayedStep(text, position, k, side)
        if position.in_progress and k < len(turns) - 1:
            raise RecordError(_("turn {turn} {steps}: the turn is not complete; add its "
                                "remaining steps or {end}", turn=label,
                                steps=" | ".join(steps), end=repr(END)))
