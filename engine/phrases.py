"""The engine's words, ready to be said in any language.

The engine speaks English (its errors and descriptions are read as they are by its own
callers and tests), but a service that answers players in other languages needs more than
the English words: `said` gives a `Phrase`, a string holding the English text, that also
keeps the template it was made from and its values. A service with a message catalogue
looks the template up and fills in the values in its reader's language; anything else
just uses the string. Values are notation (squares, moves), numbers, or other phrases
(a piece's name inside a sentence); a template names them as ``{name}``.

The templates are literal strings in the code, given to `said` or `said_n`, so that a
catalogue's extraction finds them. This module does no I/O and knows no language but
English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


class Phrase(str):
    """English words with their template (`msgid`, and `plural` for a counted phrase) and
    `values`."""

    __slots__ = ("msgid", "plural", "values")
    msgid: str
    plural: str | None
    values: dict[str, Any]

    def __new__(cls, msgid: str, values: Mapping[str, Any], plural: str | None = None) -> Phrase:
        values = dict(values)
        form = msgid if plural is None or values.get("n") == 1 else plural
        text = super().__new__(cls, _FIELD.sub(
            lambda m: str(values[m[1]]) if m[1] in values else m[0], form))
        text.msgid, text.plural, text.values = msgid, plural, values
        return text

    def __reduce__(self) -> tuple[type[Phrase], tuple[str, dict[str, Any], str | None]]:
        return Phrase, (self.msgid, self.values, self.plural)


def said(msgid: str, /, **values: Any) -> Phrase:
    """The phrase ``msgid`` with ``values`` (``said("no piece on {square}", square="e4")``)."""
    return Phrase(msgid, values)


def said_n(singular: str, plural: str, n: int, /, **values: Any) -> Phrase:
    """The phrase in the form for ``n`` (also a value, ``{n}``): English's two forms."""
    return Phrase(singular, {"n": n, **values}, plural)


def either(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: alternatives, as a phrase."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return said("{items} or {last}", items=", ".join(items[:-1]), last=items[-1])


def every(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: all of them, as a phrase."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return said("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def a_or_an(words: str) -> str:
    """``a tank``, ``an air force``: the words with their English article, as a phrase
    (a language without articles says the words alone)."""
    return said("an {thing}", thing=words) if words[:1].lower() in tuple("aeiou") else \
        said("a {thing}", thing=words)
