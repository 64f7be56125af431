"""Colour themes: every colour a picture uses, named once.

A `Theme` is plain data. Piece colours are chosen by the side's name (``White``, ``Black``,
``Red``, ``Blue``), so a variant gets the colours its players call themselves by.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class SideColours:
    """How one side's pieces are painted: body, outline, and the letter/symbol ink."""

    fill: RGB
    outline: RGB
    ink: RGB


@dataclass(frozen=True)
class Theme:
    """Every colour of a picture. Frozen and hashable, so it can key the caches."""

    name: str
    frame: RGB  # margins and caption band
    coordinates: RGB
    caption: RGB
    caption_dim: RGB
    # the Clash of Command graph
    wood: RGB
    wood_edge: RGB
    line: RGB
    promotion_row: RGB
    # the 8×8 board
    light_square: RGB
    dark_square: RGB
    # the Commander Chess grid
    sea: RGB
    sea_line: RGB
    coast: RGB
    mouth: RGB
    land: RGB
    grid_line: RGB
    river: RGB
    bridge: RGB
    bridge_edge: RGB
    headquarters: RGB
    # marks
    last_move: RGBA
    mark_edge: RGB  # the dark edge of the last move's rings and arrow
    capture: RGBA
    highlight: RGBA
    heroic: RGB
    shadow: RGBA
    # pieces by side name (lower case)
    sides: tuple[tuple[str, SideColours], ...]

    def side_colours(self, side_name: str, side: int = 0) -> SideColours:
        """The colours of the side called ``side_name`` (White, Black, Red, Blue); a side
        with a name the theme does not know gets White's or Black's by its number."""
        key = side_name.lower()
        for name, colours in self.sides:
            if name == key:
                return colours
        return self.sides[min(side, 1)][1]

    def backgrounds(self) -> dict[str, RGB]:
        """Every colour a mark can lie on: the boards' faces and terrain."""
        names = ("wood", "promotion_row", "light_square", "dark_square", "sea", "coast",
                 "mouth", "land", "river", "bridge")
        return {name: getattr(self, name) for name in names}


CLASSIC = Theme(
    name="classic",
    frame=(46, 42, 38),
    coordinates=(214, 200, 176),
    caption=(244, 238, 226),
    caption_dim=(178, 166, 146),
    wood=(232, 206, 156),
    wood_edge=(196, 160, 104),
    line=(112, 78, 44),
    promotion_row=(214, 176, 98),
    light_square=(240, 217, 181),
    dark_square=(181, 136, 99),
    sea=(92, 150, 196),
    sea_line=(170, 204, 228),
    coast=(196, 214, 178),
    mouth=(136, 186, 214),
    land=(222, 226, 170),
    grid_line=(98, 96, 60),
    river=(112, 168, 212),
    bridge=(150, 102, 54),
    bridge_edge=(84, 54, 26),
    headquarters=(200, 64, 40),
    last_move=(246, 214, 52, 130),
    mark_edge=(34, 26, 18),
    capture=(220, 40, 32, 200),
    highlight=(40, 150, 70, 190),
    heroic=(236, 178, 20),
    shadow=(0, 0, 0, 90),
    sides=(
        ("white", SideColours(fill=(248, 243, 230), outline=(40, 34, 28), ink=(40, 34, 28))),
        ("black", SideColours(fill=(42, 42, 48), outline=(12, 12, 14), ink=(246, 240, 226))),
        ("red", SideColours(fill=(200, 36, 40), outline=(84, 10, 12), ink=(255, 248, 236))),
        ("blue", SideColours(fill=(26, 64, 156), outline=(8, 22, 66), ink=(255, 248, 236))),
    ),
)

# Colours safe for the commonest colour-vision deficiencies (red-green: deuteranopia and
# protanopia): sides told apart by lightness as well as hue (vermillion against a deep blue,
# from the Okabe-Ito palette), highlights in sky blue and reddish purple instead of a green
# beside a red, and a yellow last move inside a dark edge.
COLOUR_BLIND = replace(
    CLASSIC,
    name="colour-blind",
    last_move=(240, 228, 66, 140),
    capture=(213, 94, 0, 220),
    highlight=(0, 158, 115, 200),
    sides=(
        ("white", SideColours(fill=(250, 248, 240), outline=(30, 30, 30), ink=(30, 30, 30))),
        ("black", SideColours(fill=(36, 36, 44), outline=(10, 10, 12), ink=(250, 248, 240))),
        ("red", SideColours(fill=(230, 140, 40), outline=(90, 40, 0), ink=(30, 20, 10))),
        ("blue", SideColours(fill=(0, 70, 150), outline=(0, 24, 60), ink=(255, 255, 255))),
    ),
)

THEMES: dict[str, Theme] = {t.name: t for t in (CLASSIC, COLOUR_BLIND)}
ALIASES = {"colourblind": "colour-blind", "colorblind": "colour-blind",
           "color-blind": "colour-blind", "cb": "colour-blind", "default": "classic"}


def get_theme(theme: str | Theme) -> Theme:
    """A theme by name (or the theme itself)."""
    if isinstance(theme, Theme):
        return theme
    try:
        key = theme.strip().lower()
        return THEMES[ALIASES.get(key, key)]
    except KeyError:
        raise ValueError(f"{theme!r}: no such theme (known: {', '.join(THEMES)})") from None
