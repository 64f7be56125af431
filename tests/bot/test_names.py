"""A name typed for a player (`as NAME`, `challenge NAME`) is refused with the reason that
fits it, and every name accepted can be drawn in the pictures."""

from __future__ import annotations

import pytest

from bot.console.console import Console
from bot.names import MAX_TYPED, name_problem

from .conftest import Session


@pytest.fixture
async def typed(service, settings) -> Session:
    console = Console(service, settings, out=(lines := []).append)
    await console.switch("Alice")
    return Session(console, lines)


async def test_a_name_with_markup_is_refused_for_its_characters(typed):
    assert await typed("as Eve<b>") == (
        "'Eve<b>' is not a name: a name holds only letters, digits, spaces and . ' - _, "
        "not '<' or '>'.")


@pytest.mark.parametrize(("name", "answer"), [
    ("#3", "'#3' is not a name: a name starts with a letter or a digit."),
    ("-1", "'-1' is not a name: a name starts with a letter or a digit."),
    ("Smith, John", "'Smith, John' is not a name: a name holds only letters, digits, spaces "
                    "and . ' - _, not ','."),
    ("a<b>c&d;e!?", "'a<b>c&d;e!?' is not a name: a name holds only letters, digits, spaces "
                    "and . ' - _, not '<', '>', '&', ';', '!' or 1 other."),
    ("Bob 😀", "'Bob 😀' is not a name: a name holds only letters, digits, spaces and "
               ". ' - _, not '😀'."),
    ("x" * 45, f"'{'x' * 45}' is not a name: a name has at most 40 characters, this one 45."),
    ("Ram राम", "'Ram राम' cannot be a name here: the board pictures have no letter 'र' or "
                "'म'. Write the name in another script (Latin letters, say)."),
])
async def test_each_bad_name_is_told_what_is_wrong_with_it(typed, name, answer):
    assert await typed(f"as {name}") == answer
    assert name_problem(name) == answer


async def test_a_bad_name_to_challenge_gets_the_same_reason(typed):
    assert await typed("challenge Eve<b>") == (
        "'Eve<b>' is not a name: a name holds only letters, digits, spaces and . ' - _, "
        "not '<' or '>'.")


@pytest.mark.parametrize("name", ["张伟", "山田はなこ", "김민준", "Nguyễn Thị Hường", "Zoë",
                                  "O'Brien", "Anne-Marie", "Dr. Who", "محمد", "Пётр",
                                  "x" * MAX_TYPED])
async def test_names_in_scripts_the_pictures_draw_are_taken(typed, name):
    quoted = f' Others challenge you with `challenge "{name}"`.' if " " in name else ""
    assert await typed(f"as {name}") == f"You are {name}.{quoted}"


async def test_a_name_typed_with_separate_accents_is_taken_as_one_letter_each(typed, service):
    assert name_problem("Nguye\u0302\u0303n") is None
    assert (await typed("as Nguye\u0302\u0303n")) == "You are Nguyễn."


def test_a_huge_name_is_refused_for_its_length_and_quoted_short():
    name = "x" * 100_000 + "<"
    assert name_problem(name) == (
        f"'{'x' * MAX_TYPED}…' is not a name: a name has at most 40 characters, this one "
        f"100,001.")
