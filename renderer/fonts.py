"""Text faces: DejaVu Sans Condensed, shipped in ``renderer/fonts/`` with its licence.

DejaVu covers Latin with every Vietnamese diacritic (Commander Chess is Cờ Tư Lệnh, and its
players write their names that way), Greek and Cyrillic, which Pillow's built-in face does
not; the condensed cut fits more of a name or a caption in the width of a board.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FOLDER = Path(__file__).with_name("fonts")
REGULAR = FOLDER / "DejaVuSansCondensed.ttf"
BOLD = FOLDER / "DejaVuSansCondensed-Bold.ttf"


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The text face at ``size`` pixels (bold for headings)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), max(1, size))
