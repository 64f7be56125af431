"""commandpost's rules engine: a pure library (no I/O) of boards, positions, moves,
notation and variants.

The core
========
* `Topology` (``topology.py``, boards in ``boards.py``): named nodes, named directions,
  edges as a per-direction neighbour table (a straight line continues while its edges
  exist), terrain tags per node and tags per edge.
* `Position` (``position.py``): an immutable value: one cell per node (``None`` or a
  variant-defined value: a letter, or a whole stack), side to move (0 first), full-move
  number, half-move clock, the steps of a turn still in progress (``pending``) and
  variant-defined ``extra`` data. Every variant writes it as a canonical string and reads
  it back exactly.
* `Move` and `Step` (``move.py``): a move is a tuple of steps plus a kind; a step is one
  piece or stack acting once: origin, target, captured nodes, a piece left behind
  (``drop``), a chosen transformation (``becomes``), the acting unit and a variant-defined
  kind letter. Moves are values: equal effect, equal move.
* `Variant` and the registry (``variant.py``): names and aliases (case-insensitive), start
  position, legal moves, parse/format of moves and positions, make a move, the pieces a
  move removes (and their points where the rules score them), outcome, status text, rules
  text, perft.
* Errors (``errors.py``): `MoveSyntaxError`, `IllegalMoveError`, `AmbiguousMoveError`
  (with the candidates), `PositionError`, `UnknownVariantError`, all `ValueError`s.

How each variant maps onto the core
===================================
* **Clash of Command** (``clash.py``): the 41-node `CLASH` graph with its own direction
  vectors. A cell is a piece letter. Every move is one step: a leave-behind is ``drop``,
  an in-place transformation is ``becomes`` with target = origin, the Hawk's and Slicer's
  captures are ``captures`` (several for a Slicer); Droid/Hawk flips and promotion to
  Slicer happen in `make_move`.
* **Commander Chess**: the 11×12 `COMMANDER` grid; terrain tags (sea, coast, mouth, land,
  navigable, land-capable, headquarters) and edge tags (river, reef, land-corner) carry
  the board rules. A cell is a stack (carrier first, heroic flags per piece). A whole-stack
  move is one step whose ``unit`` is the stack and whose ``kind`` is ``""``, ``x``, ``_``
  (stay capture: target = origin, the captured node in ``captures``), ``@`` (suicide) or
  ``&`` (join). A deploy is ``Move(kind="deploy")`` with one step per acting piece, all
  from one origin, in the order played. A deploy entered step by step is a position with
  ``pending`` steps; ``extra`` keeps what the FEN suffix needs (the start of the turn).
* **Combined Arms Brigade Chess**: the 8×8 `CHESS` board. A cell is a chess letter. A
  move is identified by its effect, so one step says origin, final square, every killed
  square (a shot, the armour's pass-through kills, a Queen's flight plus action) and the
  promotion in ``becomes``; castling is ``Move(kind="castle")`` with the King's and the
  Rook's steps.
* **mini-/micro-Chieftain**: the 8×8 board. A turn is ``Move(kind="turn")`` with one step
  per piece moved, in the canonical legal order; a turn entered move by move is a position
  with ``pending`` steps (the board shows them already made) and is closed by the
  variant's `end_turn` or when the allowance is used.
"""

import importlib
import pkgutil

from .errors import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    MoveError,
    MoveSyntaxError,
    PositionError,
    UnknownVariantError,
)
from .move import Move, Step
from .position import Piece, Position
from .topology import Topology
from .variant import ONGOING, Outcome, Variant, all_variants, get_variant, register

__all__ = [
    "AmbiguousMoveError", "EngineError", "IllegalMoveError", "MoveError", "MoveSyntaxError",
    "PositionError", "UnknownVariantError", "Move", "Step", "Piece", "Position", "Topology",
    "ONGOING", "Outcome", "Variant", "all_variants", "get_variant", "register",
]

# Every module of the package is imported, so each variant module registers itself by
# being there: adding a variant touches no other file.
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
