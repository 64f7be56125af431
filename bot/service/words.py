"""Small helpers that put things into words for players."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache

from engine import Variant, all_variants

from ..i18n import Name, Text, _, from_json, joined, message_id, message_of


def or_list(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    return _("{items} or {last}", items=joined(items[:-1], ", "), last=items[-1])


def plural(count: int, word: str) -> str:
    """``1 step``, ``3 steps``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def side_name(rules: Variant, side: int) -> str:
    """The name of ``side`` of ``rules`` as a message (``White``, in Vietnamese ``Đỏ``):
    the engine's phrase, which the catalogue words."""
    return message_of(rules.side_names[side])


COMPUTER_NAME = "Computer (level {level})"
MAX_LEVEL_DIGITS = 2


def computer_name(level: int) -> Text:
    """The name of the computer opponent at ``level``, in the reader's language (``Máy
    (cấp 1)``); stored in English, as `shown_name` reads it back."""
    return _("Computer (level {level})", level=level)


def shown_name(name: str, transport: str | None) -> str:
    """A player's name as the messages give it: the computer's in the reader's language,
    anyone else's as they wrote it (a `Name`: shown literally on every transport)."""
    if transport != "computer":
        return Name(name)
    head, _sep, tail = COMPUTER_NAME.partition("{level}")
    level = name.removeprefix(head).removesuffix(tail)
    if name == head + level + tail and level.isdigit() and len(level) <= MAX_LEVEL_DIGITS:
        return computer_name(int(level))
    return name


def variant_name(rules: Variant) -> str:
    """The name of the variant as a message (in Vietnamese ``Cờ Tư Lệnh``): the engine's
    phrase, which the catalogue words."""
    return message_of(rules.display_name)


# --- the end of a game as the games table keeps it -----------------------------------
# A game's end (its `reason`) is stored as the message's data (`Text.to_json`, a JSON
# object) so that it can be worded in any reader's language; a game that ended before
# (or a reason given as plain words: an imported record's Termination) keeps its words,
# and those the service wrote itself are recognised again (`ENDINGS`) when they are read.
RESIGNED = message_id("{name} resigned")
RAN_OUT = message_id("{name} ran out of time")
ABORTED_BY = message_id("aborted by {name}")
ADJUDICATED_DRAW = message_id("adjudicated a draw by {name}")
ADJUDICATED = message_id("adjudicated by {name}")
# the service's endings as an older row has their words: before the name, after it
ENDINGS = (("", " resigned", RESIGNED), ("", " ran out of time", RAN_OUT),
           ("aborted by ", "", ABORTED_BY), ("adjudicated a draw by ", "", ADJUDICATED_DRAW),
           ("adjudicated by ", "", ADJUDICATED))
BY_AGREEMENT = message_id("by agreement")
MAX_ENDING = 2000  # characters of a stored ending read as a message
# the engine's endings (`Outcome.reason`, its phrases: their templates are in the catalogue
# already) as an older row has their words, a side's name in place of ``{side}`` and
# ``{winner}``; an ending of a battle mode (points, objectives) keeps its words
ENGINE_ENDINGS = (
    "{side} has no Commander left", "{side} has no Chieftain left", "{side} has no legal move",
    "{side}'s commander has been captured", "{side} is checkmated",
    "stalemate: {side} has no legal turn and is not in check",
    "stalemate: {side} has no move at all", "{winner} killed the {side} headquarters (King)",
    "no Commander is left on either side; the side that made the last move wins",
    "threefold repetition: this position has occurred three times",
    "the same position has occurred three times with the same side to move",
    "the same position occurred three times at the start of a turn")
FIFTY_MOVES = "fifty-move rule: {n} turns in a row without a capture"


def ending(key: str, name: str) -> Text:
    """One of the service's endings (`ENDINGS`, by its message) naming ``name``."""
    return Text(key, {"name": name})


def stored_ending(reason: str) -> str:
    """The reason a game ended as the games table keeps it: a message as its data (JSON),
    plain words as they are."""
    reason = message_of(reason)  # the engine's words: a message of the catalogue too
    return json.dumps(reason.to_json(), ensure_ascii=False) if isinstance(reason, Text) \
        else reason


def read_ending(stored: str) -> str:
    """The reason a game ended, as read from the games table: the message it was stored as
    (its English words as a string), an older row's words recognised as the message that
    wrote them (the service's, the engine's), or other words (an imported record's, a
    battle mode's points) as they are."""
    if not isinstance(stored, str):
        return stored
    if stored.startswith('{"id"') and len(stored) <= MAX_ENDING:
        try:
            data = json.loads(stored)
            return from_json(data) if isinstance(data, dict) else stored
        except ValueError:
            return stored
    if stored == BY_AGREEMENT:
        return Text(BY_AGREEMENT, {})
    for before, after, key in ENDINGS:
        if stored.startswith(before) and stored.endswith(after) and \
                len(stored) > len(before) + len(after):
            return ending(key, stored[len(before):len(stored) - len(after)])
    return _engine_ending(stored)


def _engine_ending(stored: str) -> str:
    """An older row's words of one of the engine's endings (`ENGINE_ENDINGS`) as its
    message, any other words as they are."""
    found = _engine_endings().get(stored)
    return Text(*found) if found else stored


@cache
def _engine_endings() -> dict[str, tuple[str, dict[str, Text | int]]]:
    """Each of the engine's endings in its English words, with its template and values."""
    sides = [message_of(name) for name in dict.fromkeys(
        name for rules in all_variants() for name in rules.side_names)]
    endings: dict[str, tuple[str, dict[str, Text | int]]] = {}
    for template in ENGINE_ENDINGS:
        for side in sides if "{side}" in template else [None]:
            for winner in sides if "{winner}" in template else [None]:
                values = {k: v for k, v in (("side", side), ("winner", winner)) if v}
                endings[str(Text(template, values))] = (template, values)
    endings[str(Text(FIFTY_MOVES, {"n": 100}))] = (FIFTY_MOVES, {"n": 100})
    return endings
