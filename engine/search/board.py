"""What the games of the variants whose turn is one move share: a state is (cells, side
to move, Zobrist key) and the royal piece's letter decides a lost game."""

from __future__ import annotations

from ..move import Move
from ..position import Position
from .core import WIN
from .zobrist import board_key

State = tuple[tuple[str | None, ...], int, int]  # cells, side to move, key


class OneMoveGame:
    """Base of `core.Game`s whose turn is one move; ``royal`` is the letter whose loss
    (all of them) loses the game, whoever took the last one (Clash of Command: a side
    may take or transform its own Commanders)."""

    royal: str

    def root(self, position: Position) -> State:
        return position.cells, position.side, board_key(position.cells, position.side)

    def side(self, state: State) -> int:
        return state[1]

    def key(self, state: State) -> int:
        return state[2]

    def result(self, state: State) -> int | None:
        cells = state[0]
        mine, theirs = (self.royal, self.royal.lower())[::1 if state[1] == 0 else -1]
        if mine not in cells:
            return -WIN  # also when both are gone: the side that moved last wins
        return WIN if theirs not in cells else None

    def stuck(self, state: State) -> int:
        return 0  # no move at all is a draw in both variants

    def several_steps(self, state: State) -> bool:
        return False

    def step_width(self, state: State) -> int:
        return 0

    def to_turn(self, position: Position, moves: list) -> Move:
        """The engine's move for the search's move (a turn here is one move)."""
        return self.to_move(position, moves[0])

    def to_move(self, position: Position, raw: tuple) -> Move:
        raise NotImplementedError
