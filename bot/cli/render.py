"""`commandpost render` and `commandpost gallery`: board pictures from the command line.

``commandpost render VARIANT [POSITION] [-o FILE] [--size N] [--perspective SIDE]
[--highlight POINT ...] [--legal POINT] [--move MOVE ...] [--replay] [--language CODE]``

``commandpost gallery DIR [--size N] [--plies N] [--language CODE]`` writes every variant's
start position and two middle-game positions to DIR, and a replay of the first variant's
opening.

The pictures' words are English, or those of ``--language`` (a language with a catalogue,
offered to players or not yet, so that its pictures can be seen before it is; ``qps``, the
pseudo-language, shows where a longer language's words go). The result is the engine's.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import (
    EngineError,
    Move,
    Position,
    Variant,
    all_variants,
    get_variant,
)
from renderer import GameInfo, losses, render, render_replay

from .. import i18n
from ..i18n import SOURCE, _
from ..pictures import picture_words
from ..service.clock import DAY, describe_days, format_duration
from . import say


def _language(text: str) -> str:
    """A language the pictures can be drawn in: English, the pseudo-language, or one with
    a catalogue."""
    known = (SOURCE, i18n.PSEUDO, *sorted(p.name for p in i18n.LOCALES.iterdir() if p.is_dir()))
    code = text.strip().lower()
    if code not in known:
        raise argparse.ArgumentTypeError(f"{text!r}: the pictures speak {', '.join(known)}")
    return code


def _perspective(text: str) -> int:
    text = text.strip().lower()
    if text in ("0", "white", "red", "w", "r"):
        return 0
    if text in ("1", "black", "blue", "b"):
        return 1
    raise argparse.ArgumentTypeError(f"{text!r}: say white or black (red or blue)")


def _result(variant: Variant, position: Position, history: Sequence[Position]) -> str:
    outcome = variant.outcome(position, history)
    return f"{outcome.score} · {outcome.reason}" if outcome.is_over else ""


def _legal_targets(variant: Variant, position: Position, node: str) -> list[str]:
    """Where the piece on ``node`` may go (its moves' targets and captures)."""
    out: dict[str, None] = {}
    for move in variant.legal_moves(position):
        if move.origin == node:
            out.setdefault(move.target)
    return list(out)


def _busiest_piece(variant: Variant, position: Position) -> tuple[str | None, list[str]]:
    """The side to move's piece with the most targets, and its targets: a sample of the
    highlighting a player gets when asking where a piece may go."""
    by_origin: dict[str, dict[str, None]] = {}
    for move in variant.legal_moves(position):
        by_origin.setdefault(move.origin, {}).setdefault(move.target)
    if not by_origin:
        return None, []
    topology = variant.topology
    origin = max(sorted(by_origin, key=topology.node), key=lambda o: len(by_origin[o]))
    return origin, list(by_origin[origin])


def main(argv: list[str]) -> int:
    """Draw one position (or a replay) of a variant to a PNG file.

    commandpost render clash -o start.png
    commandpost render clash --move b2-a3/D --move h8-i7/D --perspective black -o b.png
    commandpost render clash --legal c3 -o c3.png
    commandpost render commander "6c4/11/.../6C4 r" --size 400
    """
    parser = argparse.ArgumentParser(prog="commandpost render", description=main.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variant")
    parser.add_argument("position", nargs="?", help="a position string (default: the start)")
    parser.add_argument("-o", "--output", help="the picture file (default: VARIANT.png)")
    parser.add_argument("--size", type=int, default=800, help="width in pixels (default 800)")
    parser.add_argument("--perspective", type=_perspective, default=0,
                        help="the side at the bottom: white or black (red or blue)")
    parser.add_argument("--highlight", nargs="+", action="extend", default=[], metavar="POINT",
                        help="points to highlight")
    parser.add_argument("--legal", metavar="POINT", help="highlight where the piece on POINT "
                                                        "may move")
    parser.add_argument("--move", action="append", default=[], metavar="MOVE",
                        help="play this move first (repeat for several); the last is marked")
    parser.add_argument("--replay", action="store_true",
                        help="write an animated replay of the moves (.gif, or .png for APNG)")
    parser.add_argument("--language", type=_language, default=SOURCE, metavar="CODE",
                        help="the language of the picture's words (default en)")
    args = parser.parse_args(argv)
    if not 64 <= args.size <= 4096:
        parser.error("--size must be between 64 and 4096 pixels")
    try:
        variant = get_variant(args.variant)
        position = (variant.parse_position(args.position) if args.position
                    else variant.start_position())
        history, moves = [position], [None]
        for text in args.move:
            move = variant.parse_move(history[-1], text)
            moves.append(move)
            history.append(variant.make_move(history[-1], move))
        position = history[-1]
        highlights, selected = list(args.highlight), None
        for name in [*highlights, *([args.legal] if args.legal else [])]:
            if name.strip().lower() not in variant.topology.index:
                raise ValueError(f"{name} is not a point of the {variant.display_name} board")
        if args.legal:
            selected = variant.topology.nodes[variant.topology.node(args.legal)]
            highlights += _legal_targets(variant, position, selected)
        result = _result(variant, position, history)
        words = picture_words(variant, args.language)
        output = Path(args.output or f"{variant.name}.{'gif' if args.replay else 'png'}")
        if args.replay:
            fmt = "png" if output.suffix.lower() in (".png", ".apng") else "gif"
            data = render_replay(history, moves, variant=variant, perspective=args.perspective,
                                 size=args.size, fmt=fmt, result=result, words=words)
        else:
            data = render(position, variant=variant, perspective=args.perspective,
                          last_move=moves[-1], highlights=highlights, selected=selected,
                          size=args.size, result=result, words=words)
    except (EngineError, KeyError, ValueError) as err:
        print(f"commandpost render: {err}", file=sys.stderr)
        return 2
    output.write_bytes(data)
    say(_("wrote {path} ({size} KB)", path=str(output), size=len(data) // 1024 + 1))
    return 0


# --- the gallery ---------------------------------------------------------------------------
REPLAY_PLIES = 12
GALLERY_SEED = 2001  # the year Clash of Command was published: any fixed number would do


def seeded_game(variant: Variant, plies: int, seed: int = GALLERY_SEED
                ) -> tuple[list[Position], list[Move | None]]:
    """A game of ``plies`` moves chosen by a seeded random generator among the legal ones
    (ending early if the game ends): its positions and the moves that led to each."""
    rng = random.Random(seed)
    positions, moves = [variant.start_position()], [None]
    for _ply in range(plies):
        legal = variant.legal_moves(positions[-1])
        if not legal or variant.outcome(positions[-1], positions).is_over:
            break
        move = legal[rng.randrange(len(legal))]
        moves.append(move)
        positions.append(variant.make_move(positions[-1], move))
    return positions, moves


# players from several scripts: the pictures show their names whole
GALLERY_PLAYERS = (("Alice Liddell", "Bob Büilder"), ("Nguyễn Thị Hường", "Пётр Смирнов"),
                   ("Ελένη Ζαφειρίου", "Zoë Łukasiewicz"))


def numbered_moves(variant: Variant, positions: Sequence[Position],
                   moves: Sequence[Move | None]) -> tuple[str, ...]:
    """The moves that led to ``positions[-1]`` in the variant's notation, numbered."""
    out = []
    for before, move in zip(positions, moves[1:], strict=False):
        if move is not None:
            marker = "." if before.side == 0 else "…"
            out.append(f"{before.fullmove}{marker} {variant.format_move(before, move)}")
    return tuple(out)


SAMPLE_DEADLINE = 1796306400  # 2026-12-03 14:00 UTC, the gallery's deadline


def gallery_info(variant: Variant, k: int, positions: Sequence[Position],
                 moves: Sequence[Move | None], language: str = SOURCE) -> GameInfo:
    """A sample of what a game's picture says around the board, its losses counted from
    the moves that led to ``positions[-1]``, its clocks worded in ``language``."""
    number = 7 + 10 * k + all_variants().index(variant)
    over = variant.outcome(positions[-1], positions).is_over
    left = _("{duration} left", duration=format_duration(2 * DAY + 4 * 3600)).render(language)
    per_move = i18n.render(describe_days(3), language)
    deadline = _("until {moment}", moment=i18n.moment(SAMPLE_DEADLINE)).render(language)
    return GameInfo(number=number, players=GALLERY_PLAYERS[k % len(GALLERY_PLAYERS)],
                    deadline="" if over else deadline,
                    clocks=("", "") if over else ((left, per_move) if positions[-1].side == 0
                                                  else (per_move, left)),
                    moves=numbered_moves(variant, positions, moves)[-12:],
                    losses=losses(variant, [(before, move) for before, move
                                            in zip(positions, moves[1:], strict=False)
                                            if move is not None]))


def gallery_pictures(size: int, plies: int = 24,
                     language: str = SOURCE) -> list[tuple[str, bytes]]:
    """(file name, bytes) of every gallery picture, in order, their words in
    ``language``."""
    out: list[tuple[str, bytes]] = []
    for variant in all_variants():
        words = picture_words(variant, language)
        out.append((f"{variant.name}-start.png", render(variant.start_position(),
                                                        variant=variant, size=size,
                                                        words=words)))
        positions, moves = seeded_game(variant, plies)
        for k, ply in enumerate((min(10, plies // 2), len(positions) - 1), start=1):
            ply = min(ply, len(positions) - 1)
            position = positions[ply]
            selected, highlights = _busiest_piece(variant, position) if k == 1 else (None, [])
            out.append((f"{variant.name}-middle-{k}.png", render(
                position, variant=variant, size=size, last_move=moves[ply],
                highlights=highlights, selected=selected, perspective=k - 1,
                result=_result(variant, position, positions[:ply + 1]), words=words,
                info=gallery_info(variant, k, positions[:ply + 1], moves[:ply + 1],
                                  language))))
        if variant is not all_variants()[0]:
            continue
        # one replay, of the first variant's opening moves, small: a sample of the feature
        out.append((f"{variant.name}-replay.gif", render_replay(
            positions[:REPLAY_PLIES + 1], moves[:REPLAY_PLIES + 1], variant=variant,
            size=min(size, 240), frame_ms=800, words=words)))
    return out


def gallery_main(argv: list[str]) -> int:
    """Write every variant's start position and a few middle games to a folder.

    commandpost gallery docs/gallery
    commandpost gallery pictures --size 800
    """
    parser = argparse.ArgumentParser(prog="commandpost gallery", description=gallery_main.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("--size", type=int, default=400, help="width in pixels (default 400)")
    parser.add_argument("--plies", type=int, default=24,
                        help="length of the seeded games (default 24)")
    parser.add_argument("--language", type=_language, default=SOURCE, metavar="CODE",
                        help="the language of the pictures' words (default en)")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in gallery_pictures(args.size, args.plies, args.language):
        (folder / name).write_bytes(data)
        print(f"{folder / name} ({len(data) // 1024 + 1} KB)")
    return 0
