"""The pictures of the rules documents (``docs/rules/diagrams/*.png``), kept as data.

Each `Diagram` is a position and what to mark on it: the board of each variant at the
start, and for every piece one piece on an otherwise empty board (plus the pieces a rule
needs: the Commanders, Kings or Chieftains without which there is no game, and a few
enemy pieces to show captures), with the piece ``selected`` and every point where it may
move or capture highlighted. A test checks that the highlights are exactly what the
engine allows and that the committed pictures are what `render_diagram` draws now.

``commandpost diagrams docs/rules`` writes them (``--check`` only says which are stale).
"""

from __future__ import annotations

import argparse
import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from engine import Position, Variant, get_variant
from renderer import render

from ..i18n import _
from . import say

SIZE = 320  # small: the repository stays light and the staleness test fast
FOLDER = "diagrams"  # inside the rules folder


@dataclass(frozen=True)
class Diagram:
    """One picture: ``name`` (its file is ``diagrams/NAME.png``), the variant, a position
    string, the selected point, the highlighted points and what they show: ``moves`` (where
    the selected piece may move or capture), ``ring`` (a Commander Chess ring of fire around
    the selected piece) or ``command`` (the squares a Chieftain commands)."""

    name: str
    variant: str
    position: str
    selected: str | None = None
    highlights: tuple[str, ...] = ()
    shows: str = "moves"

    @property
    def file_name(self) -> str:
        return f"{self.name}.png"


def _start(variant: str) -> Diagram:
    return Diagram(f"{variant}-board", variant, get_variant(variant).start_fen)


def _piece(variant: str, piece: str, position: str, selected: str, highlights: str) -> Diagram:
    name = f"{variant}-{piece.lower().replace(' ', '-')}"
    return Diagram(name, variant, position, selected, tuple(highlights.split()))


DIAGRAMS: tuple[Diagram, ...] = (
    # --- Clash of Command: Commanders a1 and i9 keep the game going ------------------------
    _start("clash"),
    _piece("clash", "Commander", "4c/4/5/4/5/1C2/5/4/5 w 1", "d4", "c5 e5 d6"),
    _piece("clash", "Factor", "4c/4/5/4/5/1F2/5/4/C4 w 1", "d4", "c5 e5 d6"),
    _piece("clash", "Droid", "4c/4/5/1d2/5/1Dd1/1F3/4/C4 w 1", "d4", "c3 f4 c5 e5"),
    _piece("clash", "Hawk", "4c/4/5/d3/5/1Hd1/1d3/4/C4 w 1", "d4", "b2 c3 c5 e5 b6 d6"),
    _piece("clash", "Brute", "4c/4/5/1dd1/5/1B2/5/F3/C4 w 1", "d4", "b2 d6 f6"),
    _piece("clash", "Slicer", "4c/4/1d3/4/1S3/4/2d2/2h1/C4 w 1", "c5", "g1 f2 e3 c7"),
    # --- Commander Chess: Red commander j1, Blue commander k12 ------------------------------
    _start("commander"),
    # (Blue's Engineers keep the Infantry from being Blue's last guard, a hero reaching f4)
    _piece("commander", "Commander", "8eec/11/11/11/11/11/5i5/5C5/11/11/11/11 r - - 0 1", "f5",
           "f1 f2 f3 f4 c5 d5 e5 g5 h5 i5 j5 f6"),
    _piece("commander", "Infantry", "10c/11/11/11/11/11/11/5Ii4/11/11/11/9C1 r - - 0 1", "f5",
           "f4 e5 g5 f6"),
    _piece("commander", "Tank", "10c/11/11/11/11/5i5/11/5T5/11/11/11/9C1 r - - 0 1", "f5",
           "f3 f4 d5 e5 g5 h5 f6 f7"),
    _piece("commander", "Militia", "10c/11/11/11/11/11/6i4/5M5/11/11/11/9C1 r - - 0 1", "f5",
           "e4 f4 g4 e5 g5 e6 f6 g6"),
    _piece("commander", "Engineer", "10c/11/11/11/11/11/5i5/5E5/11/11/11/9C1 r - - 0 1", "f5",
           "f4 e5 g5 f6"),
    _piece("commander", "Artillery", "10c/11/11/11/5i5/7t3/5I5/5A5/11/11/11/9C1 r - - 0 1",
           "f5", "c2 f2 i2 d3 f3 h3 e4 f4 g4 c5 d5 e5 g5 h5 i5 e6 g6 h7 f8"),
    _piece("commander", "Anti-aircraft gun", "10c/11/11/11/11/11/11/5Gi4/11/11/11/9C1 r - - 0 1",
           "f5", "f4 e5 g5 f6"),
    _piece("commander", "Missile", "10c/11/11/11/11/5i5/4f6/5S5/11/11/11/9C1 r - - 0 1", "f5",
           "f3 e4 f4 g4 d5 e5 g5 h5 e6 f6 g6"),
    _piece("commander", "Air force", "10c/11/11/11/5i5/7t3/11/5F5/11/11/11/9C1 r - - 0 1", "f5",
           "f1 j1 c2 f2 i2 d3 f3 h3 e4 f4 g4 c5 d5 e5 g5 h5 i5 j5 e6 f6 g6 d7 f7 h7 c8 f8 i8 "
           "f9 j9"),
    _piece("commander", "Navy", "10c/11/11/1n9/11/11/11/1N1i7/11/11/11/9C1 r - - 0 1", "b5",
           "b1 b2 b3 a4 b4 c4 a5 c5 d5 a6 b6 c6 b7 d7 b8 b9"),
    Diagram("commander-ring-of-fire", "commander",
            "10c/11/6s4/11/11/11/11/11/6F4/11/11/6C4 r - - 0 1", "g10",
            tuple("g8 f9 g9 h9 e10 f10 h10 i10 f11 g11 h11 g12".split()), "ring"),
    _piece("commander", "Headquarters", "10c/11/11/11/11/11/6i4/5+H5/11/11/11/9C1 r - - 0 1",
           "f5", "d3 f3 h3 e4 f4 g4 d5 e5 g5 h5 e6 f6 g6 d7 f7"),
    # --- Combined Arms Brigade Chess: the Kings h1 and a8 -----------------------------------
    _start("combined-arms"),
    _piece("combined-arms", "Pawn", "k7/8/8/8/8/4p3/3P4/7K w - - 0 1", "d2",
           "c1 d1 e1 c2 e2 c3 d3 e3 d4"),
    _piece("combined-arms", "Knight", "k7/8/4p3/3p4/3N4/8/8/7K w - - 0 1", "d4",
           "d1 c2 e2 b3 d3 f3 a4 c4 e4 g4 b5 d5 f5 c6 e6 d7"),
    _piece("combined-arms", "Bishop", "k7/8/1n3p2/8/3B4/8/8/7K w - - 0 1", "d4",
           "a1 g1 b2 f2 c3 e3 c5 e5 b6 f6 a7 g7 h8"),
    _piece("combined-arms", "Rook", "k7/3p2n1/8/8/p2R4/8/8/7K w - - 0 1", "d4",
           "d1 d2 d3 a4 b4 c4 e4 f4 g4 h4 d5 d6 d7 g7"),
    _piece("combined-arms", "Queen", "k7/6b1/3p4/8/3Q4/8/8/7K w - - 0 1", "d4",
           "a1 b1 c1 d1 e1 f1 g1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 b4 c4 e4 "
           "f4 g4 h4 a5 b5 c5 d5 f5 h5 a6 b6 c6 d6 e6 a7 b7 c7 d7 a8 b8 c8 d8 e8"),
    _piece("combined-arms", "King", "k7/8/8/4p3/3K4/8/8/8 w - - 0 1", "d4", "c3 d3 e3 c4 c5 e5"),
    # --- mini- and micro-Chieftain: a White Chieftain on a1 activates the piece on d4 -------
    _start("mini-chieftain"),
    _start("micro-chieftain"),
    _piece("mini-chieftain", "Chieftain", "7c/8/8/8/3C4/8/8/8 w - 1", "d4",
           "b2 c2 d2 e2 f2 b3 c3 d3 e3 f3 b4 c4 e4 f4 b5 c5 d5 e5 f5 b6 c6 d6 e6 f6"),
    _piece("mini-chieftain", "Hero", "7c/3m4/8/3M4/3H4/8/8/C7 w - 1", "d4",
           "d1 d2 d3 a4 b4 c4 e4 f4 g4 d6 d7"),
    _piece("mini-chieftain", "Shaman", "7c/6m1/8/4M3/3S4/8/8/C7 w - 1", "d4",
           "g1 b2 f2 c3 e3 c5 b6 f6 a7 g7"),
    _piece("mini-chieftain", "kNight", "7c/8/4m3/8/3N4/8/8/C7 w - 1", "d4",
           "c2 e2 b3 f3 b5 f5 c6 e6"),
    _piece("mini-chieftain", "Man", "7c/8/8/4m3/3M4/8/8/C7 w - 1", "d4",
           "c3 d3 e3 c4 e4 c5 d5 e5"),
    Diagram("mini-chieftain-command", "mini-chieftain", "c6M/6M1/8/8/3C4/8/8/8 w - 1", "d4",
            tuple("a1 b1 c1 d1 e1 f1 g1 a2 b2 c2 d2 e2 f2 g2 a3 b3 c3 d3 e3 f3 g3 a4 b4 c4 e4 "
                  "f4 g4 a5 b5 c5 d5 e5 f5 g5 a6 b6 c6 d6 e6 f6 g6 a7 b7 c7 d7 e7 f7 g7".split()),
            "command"),
    _piece("micro-chieftain", "Gold", "7c/8/8/4m3/3G4/8/8/C7 w - 1", "d4", "d3 c4 e4 c5 d5 e5"),
    _piece("micro-chieftain", "Silver", "7c/8/8/4m3/3V4/8/8/C7 w - 1", "d4", "c3 e3 c5 d5 e5"),
)


def diagram(name: str) -> Diagram:
    """The diagram called ``name`` (raises KeyError)."""
    for found in DIAGRAMS:
        if found.name == name:
            return found
    raise KeyError(name)


def piece_reach(variant: Variant, position: Position, node: str) -> tuple[str, ...]:
    """Every point where the piece on ``node`` may move or capture (its legal moves'
    targets and captured points), in board order: what a piece diagram highlights."""
    reach: set[str] = set()
    for move in variant.legal_moves(position):
        if move.origin == node:
            reach.add(move.target)
            reach.update(move.captures)
    reach.discard(node)
    return tuple(sorted(reach, key=variant.topology.node))


def render_diagram(found: Diagram, size: int = SIZE) -> bytes:
    """The diagram's picture as PNG bytes (the same bytes for the same renderer)."""
    variant = get_variant(found.variant)
    position = variant.parse_position(found.position)
    return render(position, variant=variant, selected=found.selected,
                  highlights=found.highlights, size=size)


def compact(png: bytes) -> bytes:
    """The same picture, encoded as small as the PNG encoder can (for the repository)."""
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).save(out, format="PNG", optimize=True)
    return out.getvalue()


def same_picture(a: bytes, b: bytes) -> bool:
    """Whether two PNGs show the same pixels (the encoder's bytes may differ)."""
    first, second = Image.open(io.BytesIO(a)), Image.open(io.BytesIO(b))
    if first.size != second.size:
        return False
    return first.convert("RGBA").tobytes() == second.convert("RGBA").tobytes()


def stale_diagrams(rules_folder: Path) -> list[str]:
    """The file names under ``rules_folder/diagrams`` that are missing, differ from what
    the renderer draws now, or belong to no diagram."""
    folder = rules_folder / FOLDER
    stale = []
    for found in DIAGRAMS:
        path = folder / found.file_name
        if not path.is_file() or not same_picture(path.read_bytes(), render_diagram(found)):
            stale.append(found.file_name)
    known = {found.file_name for found in DIAGRAMS}
    if folder.is_dir():
        stale += sorted(p.name for p in folder.glob("*.png") if p.name not in known)
    return stale


def diagrams_main(argv: list[str]) -> int:
    """Draw the pictures of the rules documents into RULES_FOLDER/diagrams.

    commandpost diagrams docs/rules
    commandpost diagrams docs/rules --check
    """
    parser = argparse.ArgumentParser(prog="commandpost diagrams", description=diagrams_main.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="the rules folder (docs/rules)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list stale pictures and exit 1 if there are any")
    args = parser.parse_args(argv)
    rules_folder = Path(args.folder)
    if args.check:
        stale = stale_diagrams(rules_folder)
        for name in stale:
            say(_("stale: {path}", path=str(rules_folder / FOLDER / name)))
        return 1 if stale else 0
    folder = rules_folder / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    known = {found.file_name for found in DIAGRAMS}
    for path in sorted(folder.glob("*.png")):
        if path.name not in known:
            path.unlink()
            say(_("removed {path}", path=str(path)))
    for found in DIAGRAMS:
        path = folder / found.file_name
        data = render_diagram(found)
        if path.is_file() and same_picture(path.read_bytes(), data):
            continue  # an unchanged picture keeps its bytes: no churn in the repository
        data = compact(data)
        path.write_bytes(data)
        say(_("wrote {path} ({size} KB)", path=str(path), size=len(data) // 1024 + 1))
    return 0
