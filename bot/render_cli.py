"""`commandpost render` and `commandpost gallery`: board pictures from the command line.

``commandpost render VARIANT [POSITION] [-o FILE] [--size N] [--perspective SIDE]
[--highlight NODE ...] [--legal NODE] [--move MOVE ...] [--replay]``

``commandpost gallery DIR [--size N] [--plies N]`` writes every variant's start position
and two middle-game positions to DIR, and a replay of the first variant's opening.

A variant whose rules are not implemented yet is shown through a *preview*: its board and
start set-up from its rule file, enough to draw it, nothing more (no moves).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import (
    EngineError,
    Move,
    Piece,
    Position,
    UnknownVariantError,
    Variant,
    all_variants,
    get_variant,
)
from engine.boards import CHESS, COMMANDER
from engine.topology import Topology
from renderer import render, render_replay

# --- previews of variants whose rules come in later issues -------------------------------
_TOKEN = re.compile(r"\d+|\((?P<stack>[^)]*)\)|\+?[A-Za-z]")
_PIECE = re.compile(r"(\+?)([A-Za-z])")


class Preview(Variant):
    """A variant's board and set-up, for drawing only: positions are placements in FEN
    style (ranks from the top, digits for empty points, ``+`` for heroic, ``(...)`` for a
    stack, carrier first) followed by the side to move."""

    def __init__(self, name: str, display_name: str, topology: Topology,
                 side_names: tuple[str, str], start_fen: str,
                 piece_points: dict[str, int] | None = None) -> None:
        self.name = name
        self.display_name = display_name
        self.topology = topology
        self.side_names = side_names
        self.start_fen = start_fen
        self.piece_points = piece_points or {}

    def parse_position(self, text: str) -> Position:
        fields = text.split()
        if not fields:
            raise EngineError(f"{text!r}: empty position")
        rows = fields[0].split("/")
        n_ranks, n_files = len(self.topology.ranks), len(self.topology.files)
        if len(rows) != n_ranks:
            raise EngineError(f"{text!r}: the placement needs {n_ranks} ranks separated by '/'")
        cells: list[tuple[Piece, ...] | None] = [None] * len(self.topology)
        for k, row in enumerate(rows):
            rank, file_ = n_ranks - 1 - k, 0
            for token in _TOKEN.finditer(row):
                if token.group().isdigit():
                    file_ += int(token.group())
                    continue
                body = token.group("stack") or token.group()
                stack = tuple(Piece(m.group(2).upper(), 0 if m.group(2).isupper() else 1,
                                    bool(m.group(1))) for m in _PIECE.finditer(body))
                if file_ < n_files:
                    cells[self.topology.node(f"{self.topology.files[file_]}{rank + 1}")] = stack
                file_ += 1
            if file_ != n_files:
                raise EngineError(f"{text!r}: rank {rank + 1} describes {file_} points, "
                                  f"not {n_files}")
        side = 1 if len(fields) > 1 and fields[1].lower() in ("b", "blue", "black") else 0
        number = int(fields[-1]) if len(fields) > 2 and fields[-1].isdigit() else 1
        return Position(self.name, tuple(cells), side, number)

    def pieces_at(self, position: Position, node: str) -> tuple[Piece, ...]:
        return position.cells[self.topology.node(node)] or ()

    def status_text(self, position: Position) -> str:
        """The points each side has won (Commander Chess), counted from missing pieces."""
        if not self.piece_points:
            return ""
        start = self.start_position()
        won = []
        for side in (0, 1):
            lost = _material(start, 1 - side, self.piece_points) - \
                _material(position, 1 - side, self.piece_points)
            won.append(f"{self.side_names[side]} {lost}")
        return " · ".join(won) + " points"


def _material(position: Position, side: int, points: dict[str, int]) -> int:
    return sum(points.get(p.letter, 0) for stack in position.cells if stack
               for p in stack if p.side == side)


COMMANDER_POINTS = {"C": 100, "I": 10, "T": 20, "M": 10, "E": 10, "A": 30, "G": 10, "S": 20,
                    "F": 40, "N": 80, "H": 0}
PREVIEWS: dict[str, Preview] = {p.name: p for p in (
    Preview("commander", "Commander Chess", COMMANDER, ("Red", "Blue"),
            "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/"
            "1N2FH1HF2/6C4 r 1", COMMANDER_POINTS),
    Preview("cab", "Combined Arms Brigade Chess", CHESS, ("White", "Black"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 1"),
    Preview("mini-chieftain", "mini-Chieftain", CHESS, ("White", "Black"),
            "hnsccsnh/mmmmmmmm/8/8/8/8/MMMMMMMM/HNSCCSNH w 1"),
    Preview("micro-chieftain", "micro-Chieftain", CHESS, ("White", "Black"),
            "hnsccsnh/vgvggvgv/8/8/8/8/VGVGGVGV/HNSCCSNH w 1"),
)}
PREVIEW_MIDDLE_GAMES: dict[str, list[tuple[str, Move | None]]] = {
    # a navy carrying an air force and a tank, a heroic tank, the commander in its
    # headquarters, Blue's tank just crossed the river capturing on f6
    "commander": [("6c4/1n2fh1hf2/3a2s2a1/4g2tg2/2i3m2ei/11/5t5/2(NFT)E2M2EI/4G2+TG2/"
                   "3A2S2A1/5(HC)1HF2/11 r 9", Move.single("f8", "f6", ("f6",)))],
    "cab": [("r1bqk2r/ppp2ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPP2PPP/R1BQKB1R w 5",
             Move.single("f8", "b4"))],
}


def unimplemented_previews() -> dict[str, Preview]:
    """The previews of the variants that no registered variant answers to yet."""
    out = {}
    for name, preview in PREVIEWS.items():
        try:
            get_variant(name)
        except UnknownVariantError:
            out[name] = preview
    return out


def find_variant(name: str) -> Variant:
    """A registered variant by any of its names, or else a preview of one."""
    try:
        return get_variant(name)
    except UnknownVariantError:
        preview = PREVIEWS.get(name.strip().lower())
        if preview is None:
            raise
        return preview


def _perspective(text: str) -> int:
    text = text.strip().lower()
    if text in ("0", "white", "red", "w", "r"):
        return 0
    if text in ("1", "black", "blue", "b"):
        return 1
    raise argparse.ArgumentTypeError(f"{text!r}: say white or black (red or blue)")


def _result(variant: Variant, position: Position, history: Sequence[Position]) -> str:
    if isinstance(variant, Preview):
        return ""
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
    parser.add_argument("--highlight", nargs="+", action="extend", default=[], metavar="NODE",
                        help="points to highlight")
    parser.add_argument("--legal", metavar="NODE", help="highlight where the piece on NODE "
                                                        "may move")
    parser.add_argument("--move", action="append", default=[], metavar="MOVE",
                        help="play this move first (repeat for several); the last is marked")
    parser.add_argument("--replay", action="store_true",
                        help="write an animated replay of the moves (.gif, or .png for APNG)")
    args = parser.parse_args(argv)
    if not 64 <= args.size <= 4096:
        parser.error("--size must be between 64 and 4096 pixels")
    try:
        variant = find_variant(args.variant)
        position = (variant.parse_position(args.position) if args.position
                    else variant.start_position())
        if (args.move or args.legal) and isinstance(variant, Preview):
            raise EngineError(f"{variant.display_name}'s rules are not implemented yet: "
                              f"it can be drawn but not played")
        history, moves = [position], [None]
        for text in args.move:
            move = variant.parse_move(history[-1], text)
            moves.append(move)
            history.append(variant.make_move(history[-1], move))
        position = history[-1]
        highlights, selected = list(args.highlight), None
        if args.legal:
            selected = variant.topology.nodes[variant.topology.node(args.legal)]
            highlights += _legal_targets(variant, position, selected)
        result = _result(variant, position, history)
        output = Path(args.output or f"{variant.name}.{'gif' if args.replay else 'png'}")
        if args.replay:
            fmt = "png" if output.suffix.lower() in (".png", ".apng") else "gif"
            data = render_replay(history, moves, variant=variant, perspective=args.perspective,
                                 size=args.size, fmt=fmt, result=result)
        else:
            data = render(position, variant=variant, perspective=args.perspective,
                          last_move=moves[-1], highlights=highlights, selected=selected,
                          size=args.size, result=result)
    except (EngineError, KeyError, ValueError) as err:
        print(f"commandpost render: {err}", file=sys.stderr)
        return 2
    output.write_bytes(data)
    print(f"wrote {output} ({len(data) // 1024 + 1} KB)")
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
    for _ in range(plies):
        legal = variant.legal_moves(positions[-1])
        if not legal or variant.outcome(positions[-1], positions).is_over:
            break
        move = legal[rng.randrange(len(legal))]
        moves.append(move)
        positions.append(variant.make_move(positions[-1], move))
    return positions, moves


def gallery_pictures(size: int, plies: int = 24) -> list[tuple[str, bytes]]:
    """(file name, bytes) of every gallery picture, in order."""
    out: list[tuple[str, bytes]] = []
    for variant in all_variants():
        out.append((f"{variant.name}-start.png", render(variant.start_position(),
                                                        variant=variant, size=size)))
        positions, moves = seeded_game(variant, plies)
        for k, ply in enumerate((min(10, plies // 2), len(positions) - 1), start=1):
            ply = min(ply, len(positions) - 1)
            position = positions[ply]
            selected, highlights = _busiest_piece(variant, position) if k == 1 else (None, [])
            out.append((f"{variant.name}-middle-{k}.png", render(
                position, variant=variant, size=size, last_move=moves[ply],
                highlights=highlights, selected=selected, perspective=k - 1,
                result=_result(variant, position, positions[:ply + 1]))))
        if variant is not all_variants()[0]:
            continue
        # one replay, of the first variant's opening moves, small: a sample of the feature
        out.append((f"{variant.name}-replay.gif", render_replay(
            positions[:REPLAY_PLIES + 1], moves[:REPLAY_PLIES + 1], variant=variant,
            size=min(size, 240), frame_ms=800)))
    for name, preview in unimplemented_previews().items():
        out.append((f"{name}-start.png", render(preview.start_position(), variant=preview,
                                                size=size)))
        for k, (fen, move) in enumerate(PREVIEW_MIDDLE_GAMES.get(name, ()), start=1):
            out.append((f"{name}-middle-{k}.png", render(preview.parse_position(fen),
                                                         variant=preview, size=size,
                                                         last_move=move)))
    return out


def gallery_main(argv: list[str]) -> int:
    """Write every variant's start position and a few middle games to a folder.

    commandpost gallery docs/gallery
    commandpost gallery /tmp/pictures --size 800
    """
    parser = argparse.ArgumentParser(prog="commandpost gallery", description=gallery_main.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("--size", type=int, default=400, help="width in pixels (default 400)")
    parser.add_argument("--plies", type=int, default=24,
                        help="length of the seeded games (default 24)")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in gallery_pictures(args.size, args.plies):
        (folder / name).write_bytes(data)
        print(f"{folder / name} ({len(data) // 1024 + 1} KB)")
    return 0
