"""Words in the reader's language: one catalogue of every message, English as its source.

A message is written once, in English, with named placeholders, and given to `_`:
``_("Game #{number} started.", number=3)``. That returns a `Text`: a string holding the
English words, so that code which only needs English works as before, which also keeps
the message's id and values, so that any transport can word it later in its reader's
language (`Text.render`), also after a trip through the database (`Text.to_json`,
`from_json`): a notification is queued in a form that belongs to no language and worded
when it is delivered, in the language of the one who reads it.

- Values are given by name; a value that is itself a `Text` is rendered in the same
  language, any other value as it is: notation (moves, positions, points), names,
  numbers and command tokens (`bot.service.phrasing`) are never translated.
- A name (`Name`: a player's, a tournament's, as people wrote it) is a value shown
  literally: a transport whose readers' text is markup (Discord's markdown) words a
  message with a ``literal`` function that quotes each name (``*star*`` stays as it was
  typed), and no other value; every other transport, and every use that is not a
  message's text (a button's label, a thread's name), words it as it is.
- A moment (`moment`) is a value worded as the reader's language writes dates and times
  (Babel's data): English keeps the transports' own form, ``2026-05-01 13:05 UTC``.
- Plural forms (`_n`) follow each language's rules as gettext writes them (Babel's data:
  English has two forms, Vietnamese one).
- The catalogues are gettext ``.po`` files, ``bot/locales/<language>/*.po`` (several files
  per language, merged), read with Babel at first use; English is the source and has
  none. ``bot/locales/commandpost.pot`` lists every message of the code (kept up to date
  by ``commandpost catalogue``; a test checks it). A language is *shipped* when it is
  offered (`OFFERED`) and its catalogue translates every message of the template; only
  shipped languages are chosen for a reader (`choose`), so a reader never meets a
  half-translated service.
- The pseudo-language ``qps`` (`PSEUDO`) accents every letter of the English words and
  makes them 40% longer, leaving placeholders, tokens and code alone: tests word replies
  in it to find text that bypasses the catalogue and layouts that break.

Languages are named by their ISO 639-1 code (``vi``); `choose` reads the forms readers
send (``vi-VN``, ``vi_VN.UTF-8``, an ``Accept-Language`` list).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from engine.phrases import Phrase

SOURCE = "en"
PSEUDO = "qps"
LOCALES = Path(__file__).with_name("locales")
TEMPLATE = LOCALES / "commandpost.pot"
# Languages offered to readers (each once its catalogue is complete): Vietnamese
# (bot/locales/vi) translates every message of the code, the engine's phrases included.
OFFERED: frozenset[str] = frozenset({"vi"})
MAX_TAG = 200  # characters of a language list read from outside (a header, LANG)
_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")  # a named placeholder: {number}
_TAG = re.compile(r"[A-Za-z]{2,3}")  # the language of a tag: vi, vi-VN, vi_VN.UTF-8
Literal = Callable[[str], str]  # a name as a transport's markup shows it literally


class Name(str):
    """A name as someone wrote it (a player's, a tournament's), as a value of a message:
    shown literally, so that a transport's markup may quote it (`Text.render`)."""

    __slots__ = ()

    def to_json(self) -> dict[str, str]:
        return {"name": str(self)}


class Text(str):
    """A message of the catalogue: its English words (the string itself), its id (the
    English text with placeholders) and its values, to be worded in any language."""

    __slots__ = ("msgid", "plural", "values")
    msgid: str
    plural: str | None
    values: dict[str, Any]

    def __new__(cls, msgid: str, values: Mapping[str, Any], plural: str | None = None) -> Text:
        values = {key: message_of(value) for key, value in values.items()}
        text = super().__new__(cls, _fill(_form(msgid, plural, values, SOURCE), values,
                                          SOURCE))
        text.msgid, text.plural, text.values = msgid, plural, values
        return text

    def __reduce__(self) -> tuple[type[Text], tuple[str, dict[str, Any], str | None]]:
        return Text, (self.msgid, self.values, self.plural)  # pickled, copied: a message still

    def render(self, language: str, literal: Literal | None = None) -> str:
        """The message in ``language`` (English where the catalogue has no translation),
        each name in it (`Name`, at any depth) quoted by ``literal`` if given."""
        if language == SOURCE and literal is None:
            return str(self)
        if language == PSEUDO:
            return _fill(_pseudo(_form(self.msgid, self.plural, self.values, SOURCE)),
                         self.values, language, literal)
        return _fill(_form(self.msgid, self.plural, self.values, language), self.values,
                     language, literal)

    def to_json(self) -> dict[str, Any]:
        """The message as data that any language can be worded from (`from_json`)."""
        data: dict[str, Any] = {"id": self.msgid, "values": {
            k: v.to_json() if isinstance(v, Text | Moment | Name) else v
            for k, v in self.values.items()}}
        if self.plural is not None:
            data["plural"] = self.plural
        return data


class Moment(str):
    """A moment as a value of a message, worded as the reader's language writes dates
    (`format_moment`): its English words (the string itself) are ``2026-05-01 13:05 UTC``.
    A *token* moment is the time token of `bot.service.phrasing` instead (``{{time
    1772452800}}``), which each transport phrases as it shows times; worded in another
    language than English, the token carries the language (``{{time 1772452800 vi}}``)."""

    __slots__ = ("t", "token")
    t: int
    token: bool

    def __new__(cls, t: float, token: bool = False) -> Moment:
        words = "{{time " + str(int(t)) + "}}" if token else format_moment(t)
        value = super().__new__(cls, words)
        value.t, value.token = int(t), token
        return value

    def __reduce__(self) -> tuple[type[Moment], tuple[int, bool]]:
        return Moment, (self.t, self.token)

    def render(self, language: str) -> str:
        if language in (SOURCE, PSEUDO):
            return str(self)
        if self.token:
            return "{{time " + f"{self.t} {language}" + "}}"
        return format_moment(self.t, language)

    def to_json(self) -> dict[str, int | bool]:
        return {"moment": self.t, "token": True} if self.token else {"moment": self.t}


def moment(t: float) -> Moment:
    """The moment ``t`` (seconds since the epoch) as a value of a message."""
    return Moment(t)


def format_moment(t: float, language: str = SOURCE) -> str:
    """A moment as a reader of ``language`` reads it: ``2026-05-01 13:05 UTC`` in English,
    the date and time as Babel's data for the language writes them otherwise (Vietnamese:
    ``13:05 UTC 1/5/2026``); times are UTC."""
    from datetime import UTC, datetime

    when = datetime.fromtimestamp(t, UTC)
    if language in (SOURCE, PSEUDO):
        return when.strftime("%Y-%m-%d %H:%M UTC")
    from babel import Locale, UnknownLocaleError
    from babel.dates import format_skeleton

    try:
        locale = Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return when.strftime("%Y-%m-%d %H:%M UTC")
    date = format_skeleton("yMMdd", when, locale=locale)
    pattern = locale.datetime_formats.get("short", "{1} {0}")
    return str(pattern).replace("{0}", when.strftime("%H:%M UTC")).replace("{1}", date)


def format_number(x: float, language: str = SOURCE) -> str:
    """A number as a reader of ``language`` writes it: ``0.5`` in English, ``0,5`` in
    Vietnamese (Babel's data for the language)."""
    if language in (SOURCE, PSEUDO):
        return format(x, "g")
    from babel import UnknownLocaleError
    from babel.numbers import format_decimal

    try:
        return format_decimal(x, locale=language)
    except (UnknownLocaleError, ValueError):
        return format(x, "g")


def _(msgid: str, /, **values: Any) -> Text:
    """The catalogue's message ``msgid`` (its English words) with ``values``."""
    return Text(msgid, values)


def message_id(msgid: str, /) -> str:
    """``msgid`` as it is, marked for the template: a message kept in a table and given
    its values later (``Text(msgid, values)``)."""
    return msgid


def _n(singular: str, plural: str, n: int, /, **values: Any) -> Text:
    """The message in the form for ``n`` (also a value, ``{n}``) of the reader's language."""
    return Text(singular, {"n": n, **values}, plural)


LANGUAGE = "language"  # the player preference: the language they chose


def display_name(code: str) -> str:
    """A language's name in itself (``Tiếng Việt``); '' for a code Babel does not know."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_display_name(code) if _TAG.fullmatch(code) else None
    except (UnknownLocaleError, ValueError):
        return ""
    return (name or "")[:1].upper() + (name or "")[1:]


def joined(parts: Iterable[str], separator: str = " ") -> Text:
    """One message of several, each worded in the reader's language, in the order given
    (a sentence made of sentences: the answer to a move, then whose turn it is)."""
    parts = list(parts)
    names = [f"p{k}" for k in range(len(parts))]
    return Text(separator.join("{" + name + "}" for name in names), dict(zip(names, parts,
                                                                             strict=True)))


def system_language() -> str | None:
    """The language the system names for its user (POSIX: LC_ALL, LC_MESSAGES, LANG)."""
    import os

    return next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG")
                 if os.environ.get(name)), None)


def render(text: str, language: str, literal: Literal | None = None) -> str:
    """``text`` in ``language``: a `Text` (or an engine's `Phrase`) worded, a `Name`
    quoted by ``literal`` (if given: see `Text.render`), any other string as it is."""
    text = message_of(text)
    if isinstance(text, Text):
        return text.render(language, literal)
    return literal(text) if literal is not None and isinstance(text, Name) else text


def message_of(value: Any) -> Any:
    """``value``, an engine's `Phrase` made a message of the catalogue (the engine's
    templates are in it too: a variant's, side's or piece's name), anything else as it
    is."""
    if isinstance(value, Phrase):
        return Text(value.msgid, value.values, value.plural)
    return value


def from_json(data: Mapping[str, Any]) -> Text:
    """The message `Text.to_json` wrote (a value that was a message is one again);
    ValueError for data it did not write."""
    msgid, values, plural = data.get("id"), data.get("values") or {}, data.get("plural")
    if not isinstance(msgid, str) or not isinstance(values, dict) or \
            not isinstance(plural, str | None):
        raise ValueError("not a message of the catalogue")
    return Text(msgid, {k: _value(v) for k, v in values.items()}, plural)


def _value(value: Any) -> Any:
    """A value of a stored message as it was given: a message, a moment, a name, or as it
    is."""
    if isinstance(value, dict) and "id" in value:
        return from_json(value)
    if isinstance(value, dict) and set(value) == {"name"} and isinstance(value["name"], str):
        return Name(value["name"])
    if isinstance(value, dict) and set(value) - {"token"} == {"moment"} and \
            isinstance(value["moment"], int | float) and not isinstance(value["moment"], bool):
        return Moment(value["moment"], token=value.get("token") is True)
    return value


def _fill(template: str, values: Mapping[str, Any], language: str,
          literal: Literal | None = None) -> str:
    """``template`` with each ``{name}`` replaced by its value, worded in ``language``
    (names quoted by ``literal``, if given); a brace that names no value stays as it is
    (a translation cannot break a reply)."""
    def one(match: re.Match[str]) -> str:
        if match[1] not in values:
            return match[0]
        value = values[match[1]]
        if isinstance(value, Moment):
            return value.render(language)
        return render(value, language, literal) if isinstance(value, str) else str(value)

    return _FIELD.sub(one, template)


def _form(msgid: str, plural: str | None, values: Mapping[str, Any], language: str) -> str:
    """The template of the message in ``language``: its translation, or the English."""
    found = catalogue(language).get((msgid, plural))
    if plural is None:
        return found if isinstance(found, str) and found else msgid
    index = plural_index(language)(int(values.get("n", 0)))
    if isinstance(found, tuple) and index < len(found) and found[index]:
        return found[index]
    return msgid if plural_index(SOURCE)(int(values.get("n", 0))) == 0 else plural


@cache
def plural_index(language: str) -> Callable[[int], int]:
    """Which of the language's plural forms a count takes (gettext's rule for it)."""
    try:
        return gettext.c2py(get_plural(language).plural_expr)
    except (ValueError, KeyError):
        return gettext.c2py("(n != 1)")


Entry = str | tuple[str, ...]


@cache
def catalogue(language: str) -> dict[tuple[str, str | None], Entry]:
    """Every translation of ``language``: (id, plural id) -> its words, or its forms."""
    found: dict[tuple[str, str | None], Entry] = {}
    folder = LOCALES / language
    if language in (SOURCE, PSEUDO) or not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.po")):
        with path.open("rb") as f:
            for message in read_po(f, locale=language):
                if not message.id or message.fuzzy:
                    continue
                if isinstance(message.id, tuple):
                    found[(message.id[0], message.id[1])] = tuple(message.string)
                else:
                    found[(message.id, None)] = message.string
    return found


@cache
def template() -> frozenset[tuple[str, str | None]]:
    """Every message of the code, as the template lists it."""
    if not TEMPLATE.is_file():
        return frozenset()
    with TEMPLATE.open("rb") as f:
        return frozenset((m.id[0], m.id[1]) if isinstance(m.id, tuple) else (m.id, None)
                         for m in read_po(f) if m.id)


def missing(language: str) -> list[tuple[str, str | None]]:
    """The messages of the template that ``language``'s catalogue does not translate."""
    have = catalogue(language)
    return sorted(key for key in template() if not have.get(key))


@cache
def shipped() -> tuple[str, ...]:
    """The languages a reader can be given: English, and each language of `OFFERED`
    whose catalogue is complete."""
    return (SOURCE, *(language for language in sorted(OFFERED) if not missing(language)))


def choose(*wishes: str | None, among: Iterable[str] | None = None) -> str:
    """The first shipped language (or one of ``among``) that one of ``wishes`` names,
    each a tag (``vi-VN``, ``vi_VN.UTF-8``) or a list of them (``vi, en;q=0.8``); English
    when none does. Read in linear time, each wish cut to `MAX_TAG` characters."""
    offered = tuple(among) if among is not None else shipped()
    for wish in wishes:
        for part in (wish or "")[:MAX_TAG].replace(";", ",").split(","):
            match = _TAG.match(part.strip())
            if match and match[0].lower() in offered:
                return match[0].lower()
    return SOURCE


# --- the pseudo-language -------------------------------------------------------------
_ACCENTED = str.maketrans("aceinosuyACEINOSUY", "àçéîñöšûýÀÇÉÎÑÖŠÛÝ")
_KEEP = re.compile(r"\{[a-z_][a-z0-9_]*\}|`[^`]*`|\{\{[^{}]*\}\}")  # placeholders, code


def _pseudo(english: str) -> str:
    """``english`` accented and 40% longer, its placeholders and code left alone."""
    parts, last = [], 0
    for match in _KEEP.finditer(english):
        parts += [english[last:match.start()].translate(_ACCENTED), match[0]]
        last = match.end()
    parts.append(english[last:].translate(_ACCENTED))
    words = "".join(parts)
    padding = "~" * max(1, (len(english) * 2 + 4) // 5)
    return f"[{words} {padding}]"


_PSEUDO_PART = re.compile(r"\[[^\[\]]*~\]")  # one message worded in the pseudo-language
_WORD = re.compile(r"\b[A-Za-z]{3,}\b")


def untranslated(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text``, a reply worded in the pseudo-language, that no
    message of the catalogue gave: the words a reader of another language would meet in
    English (names in ``allowed``, and code between backticks, are not counted)."""
    rest, depth = re.sub(r"`[^`]*`", "", text), 0
    while depth < 50:  # one pass per level of messages within messages
        rest, found = _PSEUDO_PART.subn(" ", rest)
        if not found:
            break
        depth += 1
    keep = {word.lower() for word in allowed}
    return [word for word in _WORD.findall(rest) if word.lower() not in keep]


# --- the template: every message of the code ----------------------------------------
Keywords = Mapping[str, tuple[int, int] | None]
KEYWORDS: Keywords = {"_": None, "_n": (1, 2), "message_id": None}  # the bot's markers
PHRASES: Keywords = {"said": None, "said_n": (1, 2)}  # the engine's (`engine.phrases`)


def extracted(*sources: tuple[Path, Keywords]) -> list[tuple[str, str | None, str]]:
    """Every message the Python code under each source's folder gives to one of its
    keywords (`_`, `_n`, or the engine's `said`): (id, plural id, where, as
    ``path:line``), in the order found."""
    from babel.messages.extract import extract_from_dir  # only for the template

    found = []
    for root, keywords in sources:
        for path, line, message, _comments, _context in extract_from_dir(
                str(root), method_map=[("**.py", "python")], keywords=keywords):
            msgid, plural = (message[0], message[1]) if isinstance(message, tuple) else (
                message, None)
            found.append((msgid, plural, f"{Path(root.name) / path}:{line}"))
        found += command_helps(root)
    return found


HELP_PREFIX = "cmd_"  # a text command's method, whose docstring is its help (`help WORD`)


def help_parts(doc: str, word: str) -> list[tuple[str, bool]]:
    """A command's help (its docstring, cleaned) in paragraphs, each with whether it is
    words to translate: a paragraph of examples alone (each line begins with the command's
    word) is not, the examples keep their words."""
    return [(part, not all(line.split(" ", 1)[0] == word for line in part.splitlines()))
            for part in doc.split("\n\n")]


def command_helps(root: Path) -> list[tuple[str, str | None, str]]:
    """The help texts of the text commands under ``root``: each paragraph of words of the
    docstring of each method named ``cmd_*`` (`help_parts`), a message of its own."""
    import ast
    import inspect

    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef) and \
                    node.name.startswith(HELP_PREFIX) and ast.get_docstring(node):
                where = f"{Path(root.name) / path.relative_to(root)}:{node.lineno}"
                doc = inspect.cleandoc(ast.get_docstring(node, clean=False) or "")
                found += [(part, None, where) for part, words in
                          help_parts(doc, node.name.removeprefix(HELP_PREFIX)) if words]
    return found


def write_template(sources: Iterable[tuple[Path, Keywords]], out: Path = TEMPLATE) -> int:
    """Write the template of every message of ``sources`` (the ``bot`` package with
    `KEYWORDS`, the ``engine`` with `PHRASES`); how many messages it lists."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="commandpost", charset="utf-8")
    for msgid, plural, where in extracted(*sources):
        path, _, line = where.rpartition(":")
        catalog.add((msgid, plural) if plural else msgid, locations=[(path, int(line))])
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        write_po(f, catalog, omit_header=True, sort_output=True, include_lineno=False)
    template.cache_clear()
    return len(catalog)
