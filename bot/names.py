"""Names that people type for themselves or others (`as NAME` at the console, `name NAME` by
mail): what a name may hold, and why one is refused, in one sentence that names the problem.

A name is at most `MAX_TYPED` characters; it starts with a letter or a digit, and holds only
letters (with their accents and other combining marks), digits, spaces, the joiners that
Persian and Indic names need, and ``. ' - _``; it is not T and a number (``T3`` is how a
tournament is written, in every command that names one); and every letter in it can be drawn in the
board pictures (`renderer.fonts.missing`: a letter none of the shipped faces has would be
shown as �). Names that come from elsewhere (a Discord display name, a mail's From header)
are not refused: the service only cleans them (`bot.service.boundary.clean_name`) and the
pictures draw what they cannot show as �.

Every check is one pass over a name whose length is bounded first.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .i18n import _, _n
from .service.words import or_list

MAX_TYPED = 40  # characters of a name typed at the console or by mail
PUNCTUATION = ".'-_"
JOINERS = {"\u200c", "\u200d"}  # zero-width non-joiner and joiner
SHOWN = 5  # characters quoted in a refusal, at most


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a name, as a sentence quoting it; None when it is one."""
    shown = repr(name if len(name) <= MAX_TYPED + 10 else name[:MAX_TYPED] + "…")
    if any("\ud800" <= ch <= "\udfff" for ch in name):
        return _("{name} is not a name: it holds bytes that are not UTF-8 text; set the "
                 "terminal to UTF-8 and type it again.", name=shown)
    if len(name) > MAX_TYPED:
        return _("{name} is not a name: a name has at most {most} characters, this one "
                 "{length}.", name=shown, most=MAX_TYPED, length=format(len(name), ","))
    name = unicodedata.normalize("NFC", name)
    if not name or not unicodedata.category(name[0]).startswith(("L", "N")):
        return _("{name} is not a name: a name starts with a letter or a digit.", name=shown)
    wrong = _unique(ch for ch in name if not _allowed(ch))
    if wrong:
        return _("{name} is not a name: a name holds only letters, digits, spaces and "
                 "{punctuation}, not {chars}.", name=shown, punctuation=". ' - _",
                 chars=_listed(wrong))
    if name[:1] in ("T", "t") and name[1:].isascii() and name[1:].isdigit():
        return _("{name} cannot be a name: T and a number is how a tournament is written "
                 "(`join T3`). Choose another name.", name=shown)
    undrawable = _missing(name)
    if undrawable:
        return _("{name} cannot be a name here: the board pictures have no letter {chars}. "
                 "Write the name in another script (Latin letters, say).", name=shown,
                 chars=_listed(undrawable))
    return None


def _allowed(ch: str) -> bool:
    kind = unicodedata.category(ch)
    return kind[0] in "LMN" or ch == " " or ch in PUNCTUATION or ch in JOINERS


def _unique(chars: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for ch in chars:
        if ch not in seen:
            seen.append(ch)
    return seen


def _listed(chars: list[str]) -> str:
    """``'<' or '>'``: each quoted, an invisible one by its code point, the first few."""
    words = [repr(ch) if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
             for ch in chars[:SHOWN]]
    if len(chars) > SHOWN:
        words.append(_n("{n} other", "{n} others", len(chars) - SHOWN))
    return or_list(words)


def _missing(name: str) -> list[str]:
    """The letters of ``name`` that the pictures cannot draw (none without a renderer:
    then there are no pictures)."""
    try:
        from renderer.fonts import missing
    except ImportError:
        return []
    return missing(name)
