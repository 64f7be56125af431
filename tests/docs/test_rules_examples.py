"""Every notation example in ``docs/rules/*.md`` is a test: the engine accepts exactly
what the document says, and gives the position after the move where one is written."""

from __future__ import annotations

import pytest
from rules_examples import Example, examples

from engine import MoveError, Variant, get_variant


def _position(variant: Variant, text: str):
    return variant.start_position() if text == "start" else variant.parse_position(text)


def test_the_documents_hold_examples_for_every_variant() -> None:
    found = {e.variant for e in examples()}
    assert found == {"clash", "commander", "combined-arms", "mini-chieftain",
                     "micro-chieftain"}


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.id)
def test_example(example: Example) -> None:
    variant = get_variant(example.variant)
    position = _position(variant, example.position)
    if example.kind == "illegal":
        with pytest.raises(MoveError):
            variant.parse_move(position, example.text)
        return
    if example.kind == "moves":
        found = {variant.format_move(position, m) for m in variant.legal_moves(position)
                 if m.origin == example.text}
        assert found == {t.strip() for t in example.expect.split(",")}
        return
    move = variant.parse_move(position, example.text)
    if example.expect_kind == "means":
        assert variant.format_move(position, move) == example.expect
    elif example.expect_kind == "=>":
        after = variant.make_move(position, move)
        assert variant.format_position(after) == example.expect
