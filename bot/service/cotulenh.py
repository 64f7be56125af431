"""Commander Chess records in the PGN dialect of the cotulenh site, written and read.

The cotulenh site's engine (cotulenh-core, adapted from chess.js) writes a game as::

    [Event "?"]
    [Site "?"]
    [Date "2026.05.01"]
    [Round "?"]
    [Red "alice"]
    [Blue "bob"]
    [Result "*"]
    [SetUp "1"]
    [FEN "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/…/2N1GT1TG2/3A2S2A1/1N2FH1HF2/6C4 r - - 0 1"]

    1. Tfg4 Tf7 2. Ic6 *

* Tags: the seven of PGN with ``Red``/``Blue`` for White/Black, in that order, then
  ``RedElo``, ``BlueElo``, ``TimeControl``, ``SetUp``, ``FEN``, ``Termination``,
  ``Annotator`` when set, then any other tag. Values are written as they are (the site
  neither escapes nor reads escapes), so we write a ``"`` in a name as ``'``; reading takes
  a value up to the line's last ``"``.
* ``[SetUp "1"]`` and ``[FEN]`` are always written: the site's reader starts from an
  empty board unless both are there.
* The moves on one line, numbered in pairs from ``1.`` whatever the start position (the
  site's numbering: ``1...`` would not read there), each turn one token, then the result.
  A blank line separates tags and moves only when there are moves; no newline at the end.
* A move is the site's SAN: a single piece or a whole stack as in our SAN
  (``Ixc6``, ``A_b2``, ``(NF)b6``), but disambiguated against every move of the same
  letter to the same square, the first steps of deploys included (our SAN compares
  ordinary moves only, §9.2.2); a deploy is ``[stay<]step,step`` and never names its
  origin (but one that another deploy would write the same is written in the long form,
  ``origin:stay:steps``, as our SAN does), and its stay part leaves out the pieces that
  fired a stay capture (ours keeps them). Only completed turns are written.

Reading takes any PGN movetext (numbers, comments, NAGs, the result) and maps each move to
our engine's legal move whose site SAN or LAN it is, else whose our SAN it is (so the
site's recombined deploy steps, ``(TI)>e5``, read as ours do, §9.4 item 8).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine import EngineError, Move, Position, Step, Variant
from engine.commander.notation import notation_of

from ..i18n import _
from .records import RESULTS, RecordError, result_refused
from .words import side_name

FORMAT = "cotulenh"
TAG_ORDER = ("Event", "Site", "Date", "Round", "Red", "Blue", "Result", "RedElo", "BlueElo",
             "TimeControl", "SetUp", "FEN", "Termination", "Annotator")
ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                   "Red": "?", "Blue": "?", "Result": "*"}

# the value runs to the line's last quote: the site writes a quote in a name as it is
_TAG = re.compile(r'^\s*\[(?P<key>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>.*)"\s*\]\s*$')
_COMMENT = re.compile(r"\{[^}]*(?:\}|$)|;[^\n]*")  # an unclosed { runs to the end
# what a move's text may carry besides the move: its number, annotations, check marks
_NUMBER = re.compile(r"^\d+\.(?:\.\.)?")
_SKIPPED = re.compile(r"^(?:\$\d+|[!?]+)$")
_DECORATION = re.compile(r"[\^#+]?[!?]*$")
_LETTER, _PIECE = re.compile(r"[A-Z]"), re.compile(r"\+?[A-Z]")  # a piece's letter, a hero's


@dataclass
class CotulenhRecord:
    """A record in the site's dialect: its tags, its moves (one text a turn), its result."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: str = "*"


# --- writing --------------------------------------------------------------------------
def _value(text: str) -> str:
    return text.replace('"', "'").replace("\\", "/").replace("\n", " ")


def write_cotulenh(tags: Mapping[str, str], moves: Sequence[str], result: str) -> str:
    """The record text as the site writes it (see the module docstring); ``tags`` in any
    order, the roster's missing ones as ``?``."""
    merged = {**ROSTER_DEFAULTS, **tags, "Result": result}
    order = [k for k in TAG_ORDER if k in merged] + [k for k in merged if k not in TAG_ORDER]
    lines = [f'[{key} "{_value(merged[key])}"]' for key in order]
    movetext = []
    for k, san in enumerate(moves):
        movetext.append(f"{k // 2 + 1}. {san}" if k % 2 == 0 else san)
    movetext.append(result)
    return "\n".join(lines) + ("\n\n" if moves else "\n") + " ".join(movetext)


def _written_square(step: Step) -> str:
    """The square a step's text ends with: where it goes, or what a stay capture hits."""
    return step.captures[0] if step.kind == "_" else step.target


def _leader(unit: str) -> str:
    match = _LETTER.search(unit)
    return match.group() if match else ""


@dataclass(frozen=True)
class LegalMoves:
    """What writing the site's SAN of a position's moves compares them with: the first step
    of every legal move (the site lists a deploy by its steps), and the deploys by the text
    of their steps."""

    moves: tuple[Move, ...]
    firsts: frozenset[Step]
    deploys: Mapping[str, tuple[Move, ...]]

    @classmethod
    def of(cls, rules: Variant, position: Position) -> LegalMoves:
        moves = tuple(rules.legal_moves(position))
        deploys: dict[str, list[Move]] = {}
        for move in moves:
            if move.kind == "deploy":
                deploys.setdefault(_deploy_steps(move), []).append(move)
        return cls(moves, frozenset(m.steps[0] for m in moves),
                   {k: tuple(v) for k, v in deploys.items()})


def cotulenh_san(rules: Variant, position: Position, move: Move,
                 legal: LegalMoves | None = None) -> str:
    """The site's SAN of ``move`` (a legal turn of ``position``); ``legal``: the position's
    `LegalMoves`, when the caller has them. A deploy that another legal deploy would write
    the same (the site's SAN never names the origin) is written in its long form,
    ``origin:stay:steps``, as §9.2.3 asks: the site would replay the wrong one."""
    legal = legal or LegalMoves.of(rules, position)
    if move.kind == "deploy":
        san = _deploy_san(rules, position, move)
        twins = [m for m in legal.deploys.get(_deploy_steps(move), ()) if m != move
                 and _deploy_san(rules, position, m) == san]
        return _cotulenh_lan(rules, position, move) if twins else san
    step = move.steps[0]
    square, letter = _written_square(step), _leader(step.unit)
    others = {s.origin for s in legal.firsts
              if s.origin != step.origin and _leader(s.unit) == letter
              and _written_square(s) == square}
    return f"{step.unit}{_disambiguation(step.origin, others)}{step.kind}{square}"


def _disambiguation(origin: str, others: Iterable[str]) -> str:
    """File, rank or square of ``origin`` against the other origins, as chess.js does."""
    others = list(others)
    if not others:
        return ""
    same_file = any(o[0] == origin[0] for o in others)
    same_rank = any(o[1:] == origin[1:] for o in others)
    if same_file and same_rank:
        return origin
    return origin[1:] if same_file else origin[0]


def _deploy_steps(move: Move) -> str:
    return ",".join(f"{s.unit}>{s.kind}{_written_square(s)}" for s in move.steps)


def _deploy_stay(rules: Variant, position: Position, move: Move) -> str:
    """The site's stay part: the pieces left on the origin that did not act."""
    stay = rules.format_lan(position, move).split(":")[1]  # type: ignore[attr-defined]
    pieces = _PIECE.findall(stay)
    for step in move.steps:
        if step.kind == "_" and step.unit in pieces:
            pieces.remove(step.unit)
    return notation_of(pieces)


def _deploy_san(rules: Variant, position: Position, move: Move) -> str:
    stay = _deploy_stay(rules, position, move)
    return (f"{stay}<" if stay else "") + _deploy_steps(move)


def _cotulenh_lan(rules: Variant, position: Position, move: Move) -> str:
    step = move.steps[0]
    if move.kind == "deploy":
        return f"{step.origin}:{_deploy_stay(rules, position, move)}:{_deploy_steps(move)}"
    return f"{step.unit}{step.origin}{step.kind}{_written_square(step)}"


# --- reading --------------------------------------------------------------------------
def read_tags(text: str) -> dict[str, str]:
    """The tag pairs at the top of a record (the site's tag syntax: no escapes)."""
    tags: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        tag = _TAG.match(line)
        if tag is None:
            break
        tags[tag["key"]] = tag["value"]
    return tags


def is_pgn_movetext(text: str) -> bool:
    """Whether the moves of a record are written as PGN (several turns on a line, or a
    move and the result on one line) rather than one numbered turn a line, our way."""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("[", ";")):
            continue
        if "{" in line:
            return True
        words = line.split()
        if _NUMBER.fullmatch(words[0]):
            words = words[1:]
        if any(a != "|" and b != "|" for a, b in zip(words, words[1:], strict=False)):
            return True
    return False


def read_cotulenh(text: str) -> CotulenhRecord:
    """The tags, moves and result of a record in the site's dialect (any PGN movetext)."""
    record = CotulenhRecord()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    body: list[str] = []
    in_moves = False
    for line in lines:
        tag = None if in_moves else _TAG.match(line)
        if tag is not None:
            record.tags[tag["key"]] = tag["value"]
        elif line.strip():
            in_moves = True
            body.append(line)
    for word in _COMMENT.sub(" ", "\n".join(body)).split():
        word = _NUMBER.sub("", word)
        if not word or _SKIPPED.match(word):
            continue
        if word in RESULTS:
            record.result = word
            continue
        record.moves.append(_DECORATION.sub("", word))
    if record.tags.get("Result", "*") not in RESULTS:
        raise RecordError(result_refused(record.tags["Result"]))
    return record


def our_turns(rules: Variant, start: Position, moves: Sequence[str]) -> list[tuple[str]]:
    """Each of the site's moves as our text of the same turn, played from ``start``;
    `RecordError` names the first that is no legal turn, or more than one."""
    position, turns = start, []
    for k, text in enumerate(moves):
        found = _find(rules, position, text)
        if len(found) != 1:
            number = f"{k // 2 + 1}{'.' if k % 2 == 0 else '...'}"
            why = (_("no legal move of {side} is written so here",
                     side=side_name(rules, position.side)) if not found else
                   _("{n} deploys are written so here; name the origin, as in {example}",
                     n=len(found), example=_cotulenh_lan(rules, position, found[0])))
            raise RecordError(_("move {number} {move}: {reason}", number=number, move=text,
                                reason=why))
        move = found[0]
        turns.append((rules.format_move(position, move),))
        position = rules.make_move(position, move)
    return turns


def _find(rules: Variant, position: Position, text: str) -> list[Move]:
    """The legal turns that the site's ``text`` names: by its site SAN or LAN (every deploy
    whose steps and stay part it writes, when it leaves the origin out), else by what our
    parser reads in it."""
    plain = _DECORATION.sub("", text)
    try:
        ours: Move | None = rules.parse_move(position, plain)
    except EngineError:
        ours = None
    if ours is not None and ours.kind == "step":  # the start of a deploy: no whole turn
        ours = None
    legal = LegalMoves.of(rules, position)
    if ours is not None and cotulenh_san(rules, position, ours, legal) == plain:
        return [ours]
    for move in legal.moves:
        if plain in (cotulenh_san(rules, position, move, legal),
                     _cotulenh_lan(rules, position, move)):
            return [move]
    steps = plain.rpartition("<")[2]
    deploys = [m for m in legal.deploys.get(steps, ())
               if _deploy_san(rules, position, m) == plain]
    return deploys or ([ours] if ours is not None else [])
