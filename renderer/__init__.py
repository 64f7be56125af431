"""commandpost's renderer: pure drawing, a position (plus options) in, PNG bytes out.

* `render` draws one position; `render_replay` animates a whole game.
* `draw_crosstable` draws a tournament's standings (`crosstable.py`), worded by the caller.
* Boards come from the engine's topology data (`board.py`, styles in `layout.py`).
* Pieces come from a glyph table keyed by (family, letter) (`pieces.py`).
* Colours come from a `Theme` (`theme.py`).
* The words it draws of its own are English unless the caller gives a `Words` (`words.py`).

No file or network I/O happens here, and no move is ever generated.
"""

from .crosstable import CrossRow, Crosstable, draw_crosstable
from .info import GameInfo, Material, losses
from .layout import BOARD_STYLES, BoardStyle, Layout
from .picture import compose, encode_png, render, render_image
from .pieces import GLYPHS, VARIANT_FAMILY, Glyph, family_of, register_glyph
from .replay import render_replay
from .theme import THEMES, SideColours, Theme, get_theme
from .words import Words

__all__ = [
    "BOARD_STYLES", "BoardStyle", "Layout", "encode_png", "render", "render_image", "GLYPHS",
    "VARIANT_FAMILY", "Glyph", "family_of", "register_glyph", "render_replay", "THEMES",
    "SideColours", "Theme", "get_theme", "GameInfo", "Material", "losses", "compose",
    "Words", "Crosstable", "CrossRow", "draw_crosstable",
]
