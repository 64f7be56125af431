"""Small helpers that put things into words for players."""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine import Variant

from ..i18n import Text, _, from_json, joined, message_id


def or_list(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    return _("{items} or {last}", items=joined(items[:-1], ", "), last=items[-1])


def plural(count: int, word: str) -> str:
    """``1 step``, ``3 steps``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# the names of the sides and of the variants as players read them in messages, keyed by the
# engine's English names (a name not listed, a variant added later, is shown as it is)
SIDE_NAMES = {name: message_id(name) for name in (
    message_id("White"), message_id("Black"), message_id("Red"), message_id("Blue"))}
VARIANT_NAMES = {name: message_id(name) for name in (
    message_id("Commander Chess (Cờ Tư Lệnh)"), message_id("Clash of Command"),
    message_id("Combined Arms Brigade Chess"), message_id("mini-Chieftain"),
    message_id("micro-Chieftain"))}


def side_name(rules: Variant, side: int) -> str:
    """The name of ``side`` of ``rules`` in the reader's language (``White``, ``Đỏ``)."""
    name = rules.side_names[side]
    return Text(name, {}) if name in SIDE_NAMES else name


def variant_name(rules: Variant) -> str:
    """The name of the variant in the reader's language (``Cờ Tư Lệnh``)."""
    name = rules.display_name
    return Text(name, {}) if name in VARIANT_NAMES else name


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


def ending(key: str, name: str) -> Text:
    """One of the service's endings (`ENDINGS`, by its message) naming ``name``."""
    return Text(key, {"name": name})


def stored_ending(reason: str) -> str:
    """The reason a game ended as the games table keeps it: a message as its data (JSON),
    plain words as they are."""
    return json.dumps(reason.to_json(), ensure_ascii=False) if isinstance(reason, Text) \
        else reason


def read_ending(stored: str) -> str:
    """The reason a game ended, as read from the games table: the message it was stored as
    (its English words as a string), an older row's words recognised as the message that
    wrote them, or other words (an engine's, an imported record's) as they are."""
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
    return stored
