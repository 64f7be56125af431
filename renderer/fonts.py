"""Text faces: Pillow's built-in scalable font, so no font file ships with the project."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont


@lru_cache(maxsize=128)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's default font at ``size`` pixels (Aileron, under the SIL Open Font Licence)."""
    return ImageFont.load_default(size=max(1, size))
