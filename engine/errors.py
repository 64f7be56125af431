"""The engine's errors: one hierarchy under `ValueError`.

Every message quotes the input and says why it was refused, so a transport can show it
to the player as it is; a move error's `reason` is a phrase (`engine.phrases`), which a
service can also word in its reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from .phrases import either, said


class EngineError(ValueError):
    """Base of every error the engine raises for bad input."""


class UnknownVariantError(EngineError):
    """No variant has this name or alias."""


class PositionError(EngineError):
    """A position string that cannot be read, or that describes an impossible position."""


class MoveError(EngineError):
    """Base of the errors about a move text or value."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        # the message is a phrase too: `args[0]` keeps the reason's words for a service
        super().__init__(said("{move}: {reason}", move=repr(text), reason=reason) if text
                         else reason)


class MoveSyntaxError(MoveError):
    """The text is not a move in this variant's notation."""


class IllegalMoveError(MoveError):
    """The text is well-formed but describes no legal move in this position."""


class AmbiguousMoveError(MoveError):
    """The text fits more than one legal move; `candidates` lists them canonically."""

    def __init__(self, text: str, candidates: Sequence[str]) -> None:
        self.candidates = tuple(candidates)
        super().__init__(text, said("ambiguous: it could be {moves}",
                                    moves=either(self.candidates)))
