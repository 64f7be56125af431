"""Combined Arms Brigade Chess, properties over random games and random input (hypothesis).

Every legal move formats to a text that parses back to the same move, every position
string round-trips, nothing raises but engine errors, and a finished game has no legal
move. The example counts keep the whole file near 20 seconds.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineError, Move, Position, get_variant

CAB = get_variant("combined-arms")
MIDDLE = "rQ2k2r/2p1pp1p/5p1b/6B1/1q5P/5P2/P3P3/R3KBNR b KQkq - 0 10"
EXPOSED = "4k1n1/Q2B4/5p2/2p5/7P/2P1P3/P2P3P/RNB1K1NR b KQ - 0 18"
SLOW = settings(max_examples=30, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_position(position: Position) -> list[Move]:
    """The invariants of one position; its legal moves."""
    text = CAB.format_position(position)
    assert CAB.parse_position(text) == position
    assert CAB.format_position(CAB.parse_position(text)) == text
    moves = CAB.legal_moves(position)
    assert len(set(moves)) == len(moves)
    assert CAB.count_moves(position) == len(moves)
    for move in moves:
        move_text = CAB.format_move(position, move)
        assert CAB.parse_move(position, move_text) == move, move_text
    outcome = CAB.outcome(position)
    assert outcome.is_over == (not moves), text
    CAB.status_text(position)
    return moves


@SLOW
@given(st.data(), st.sampled_from([CAB.start_fen, MIDDLE, EXPOSED]), st.booleans())
def test_random_games_keep_every_invariant(data: st.DataObject, start: str,
                                           sharp: bool) -> None:
    """Moves are drawn by hypothesis; a ``sharp`` game takes a King when it can and
    otherwise prefers kills, so games end."""
    position = CAB.parse_position(start)
    for _ in range(30):
        moves = check_position(position)
        if not moves:
            break
        if sharp:
            kings = [m for m in moves if any(CAB.pieces_at(position, c)[0].letter == "K"
                                             for c in m.captures)]
            kills = [m for m in moves if m.captures]
            moves = kings or kills or moves
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        position = CAB.apply(position, move)


MOVE_ALPHABET = st.sampled_from(list("abcdefghKQRBNPkqrbnpxX-*>=O0o+#12345678 9i/"))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(MOVE_ALPHABET, max_size=16).map("".join),
       st.sampled_from([CAB.start_fen, MIDDLE, "4k3/1P6/8/3Np3/8/8/8/R3K2R w KQ - 0 1"]))
def test_parser_raises_only_engine_errors(text: str, start: str) -> None:
    position = CAB.parse_position(start)
    try:
        move = CAB.parse_move(position, text)
    except EngineError:
        return
    assert move in CAB.legal_moves(position)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=12))
def test_parser_raises_only_engine_errors_on_any_text(text: str) -> None:
    try:
        CAB.parse_move(CAB.start_position(), text)
    except EngineError:
        pass


POSITION_ALPHABET = st.sampled_from(list("KQRBNPkqrbnp12345678/ wb-KQkq0123456789x"))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(POSITION_ALPHABET, max_size=60).map("".join))
def test_position_parser_raises_only_position_errors(text: str) -> None:
    try:
        position = CAB.parse_position(text)
    except EngineError:
        return
    assert CAB.parse_position(CAB.format_position(position)) == position
    CAB.legal_moves(position)
