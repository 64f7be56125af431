"""A local two-player game of Clash of Command at one keyboard."""

from __future__ import annotations

from engine import EngineError, get_variant


def main(argv: list[str]) -> int:
    variant = get_variant(argv[0] if argv else "clash")
    position = variant.start_position()
    history = [position]
    print(f"{variant.display_name}: type a move, 'moves', 'board' or 'quit'.")
    while not (outcome := variant.outcome(position, history)).is_over:
        try:
            line = input(f"{variant.side_names[position.side]} {position.fullmove}> ").strip()
        except EOFError:
            return 0
        if line in ("quit", "exit"):
            return 0
        if line in ("board", ""):
            print(variant.format_position(position))
            continue
        if line == "moves":
            print(" ".join(variant.format_move(position, m)
                           for m in variant.legal_moves(position)))
            continue
        try:
            move = variant.parse_move(position, line)
        except EngineError as err:
            print(f"Refused: {err}")
            continue
        position = variant.make_move(position, move)
        history.append(position)
    print(f"Game over: {outcome.score} ({outcome.reason})")
    return 0
