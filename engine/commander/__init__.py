"""Commander Chess (Cờ Tư Lệnh): the variant and the four modules of its rules.

`variant` is the `Variant` registered as ``commander``; `pieces`, `board`, `rules` and
`notation` are the rules it is built from (see `variant`'s docstring).
"""

from .variant import CommanderChess

__all__ = ["CommanderChess"]
