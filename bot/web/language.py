"""The reader's language: the one they chose on the site, else their browser's, else English.

A page's language switch is a set of links (``?lang=vi``): the address itself says the
language, so a link passed on opens in the language it was sent in, and the choice is
remembered in a cookie (``lang``) for the reader's next pages. Without either, the
browser's ``Accept-Language`` decides, its tags taken in the order of their weights
(``q``); a tag weighted 0 is refused. Only shipped languages (`bot.i18n.shipped`) are ever
chosen.

Every part is read from strangers: each is cut to a bounded length before it is split,
and split without patterns that backtrack, so reading is linear in what was sent.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import i18n

PARAMETER = "lang"  # ?lang=vi
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600
MAX_CHOICE = 16  # characters of ?lang= or of the cookie's value
MAX_COOKIE_HEADER = 4096  # characters of a Cookie header read (a browser sends at most that)
MAX_TAGS = 20  # tags of an Accept-Language read


def wanted(tag: str | None) -> str | None:
    """The shipped language ``tag`` names (``vi``, ``vi-VN``), or None."""
    if not tag or len(tag) > MAX_CHOICE:
        return None
    primary = tag.strip().replace("_", "-").partition("-")[0].lower()
    return primary if primary in i18n.shipped() else None


def cookie_value(header: str | None, name: str = COOKIE) -> str | None:
    """The value of the cookie ``name`` in a Cookie header (its first part of that name)."""
    for part in (header or "")[:MAX_COOKIE_HEADER].split(";"):
        key, equals, value = part.partition("=")
        if equals and key.strip() == name:
            return value.strip().strip('"')[:MAX_CHOICE + 1]
    return None


def _weight(text: str) -> float:
    """The weight of a tag's parameters (``q=0.8``); 1 without one, 0 for a bad one."""
    for parameter in text.split(";"):
        key, _equals, value = parameter.partition("=")
        if key.strip().lower() == "q":
            value = value.strip()[:5]
            try:
                weight = float(value) if value[:1].isdigit() and value.isascii() else 0.0
            except ValueError:
                return 0.0
            return weight if 0 <= weight <= 1 else 0.0
    return 1.0


def accepted(header: str | None) -> list[str]:
    """The tags of an ``Accept-Language`` header, the most wanted first (a stable order
    among equals); the ones weighted 0 left out. At most `MAX_TAGS` tags of the first
    `bot.i18n.MAX_TAG` characters are read."""
    tags: list[tuple[float, int, str]] = []
    for order, part in enumerate((header or "")[:i18n.MAX_TAG].split(",")[:MAX_TAGS]):
        tag, _semicolon, parameters = part.partition(";")
        weight = _weight(parameters)
        if tag.strip() and weight > 0:
            tags.append((-weight, order, tag.strip()))
    return [tag for _weight_, _order, tag in sorted(tags)]


def reader_language(query: Mapping[str, str], cookie_header: str | None,
                    accept_language: str | None) -> tuple[str, str | None]:
    """The page's language, and the language to remember in the cookie (the one the
    address chose; None when nothing is to be remembered)."""
    chosen = wanted(query.get(PARAMETER))
    if chosen is not None:
        return chosen, chosen
    remembered = wanted(cookie_value(cookie_header))
    if remembered is not None:
        return remembered, None
    return i18n.choose(*accepted(accept_language)), None
