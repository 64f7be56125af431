"""The service boundary: every argument of every public service method is checked here,
before the method runs, so that no input can crash the service or reach the database half
checked.

`guard` wraps each public coroutine method of a class (the game service and each of its
topics) once, at import time. The rule for an argument is chosen by its parameter name (`RULES`;
``method.parameter`` overrides a name for one method): numbers must be bounded integers,
days finite and within bounds, texts bounded in length and free of surrogates, names are
normalised (Unicode NFC; control, format, line-separator and surrogate characters become
spaces; bounded length). A rule answers with the value to use or a `Refusal`, which the
wrapped method returns without running — so a refused call writes nothing. (A method that
answers something else than a `Result`, a game or a list, answers the `Refusal` too when an
argument is refused; transports pass arguments that pass.)

Parsing of words typed by people (``#12``, ``12``) is here too (`parse_number`), so that
every transport reads a number the same bounded way: ASCII digits only, at most
`MAX_DIGITS` of them.

Choices: a Player, Game or callback argument is an object the service itself handed out,
so it is checked for its type and a sane id, not looked up again; display names keep the
zero-width joiner and non-joiner (emoji sequences, Persian and Indic names) but lose every
other format character (bidirectional overrides could make a name read as another).
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from ..i18n import Text, _, message_id
from .model import Game, Player, Post
from .results import Done, Reason, Refusal

MAX_ID = 2**63 - 1  # SQLite's largest integer
MAX_DIGITS = 18  # a typed number of more digits is no number we ever hand out
MAX_NAME = 64  # characters of a display name
MAX_ADDRESS = 320  # characters of an address (the longest e-mail address)
MAX_WORD = 200  # a variant, mode, place, server, preference key, point on the board
MAX_MOVE = 400  # characters of a move text: the longest real turn is far shorter
MAX_FEN = 2_000
MAX_RECORD = 1_000_000  # characters of a game record to import
MAX_JSON = 4_096  # characters of a preference or server setting, as JSON
MAX_DAYS = 366.0  # days of a time control
MAX_VACATION_ASKED = 36_500.0  # days of vacation one may ask for (what is left is given)
MAX_LIMIT = 1_000  # rows a listing may ask for
KEEP_FORMAT = {"\u200c", "\u200d"}  # zero-width non-joiner and joiner
BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}  # control, format, surrogate, separators
SHOWN = 24  # characters of a refused value quoted back


# --- plain checks, usable anywhere ------------------------------------------------------
def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis), safe to print anywhere."""
    text = "".join(c if _allowed(c) else "\ufffd" for c in text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _allowed(c: str) -> bool:
    return unicodedata.category(c) not in BAD_CATEGORIES or c in KEEP_FORMAT


def clean_name(text: str, limit: int = MAX_NAME) -> str:
    """A name as stored and shown: NFC, every control, format, separator or surrogate
    character a space, runs of spaces one, at most ``limit`` characters."""
    text = unicodedata.normalize("NFC", _no_surrogates(text))
    text = "".join(c if _allowed(c) else " " for c in text)
    return " ".join(text.split())[:limit].strip()


def _no_surrogates(text: str) -> str:
    """Each lone surrogate (a byte of undecodable input) as U+FFFD: it cannot be encoded,
    not even to be normalised."""
    if not _has_surrogates(text):
        return text
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


def _has_surrogates(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


def parse_number(word: str) -> int | None:
    """The number written as ASCII digits in ``word`` (None if it is not one). More than
    `MAX_DIGITS` digits are read as `MAX_ID` + 1, a number nothing has."""
    if not word or not word.isascii() or not word.isdigit():
        return None
    return int(word) if len(word) <= MAX_DIGITS else MAX_ID + 1


def game_number(word: str) -> int | None:
    """The number of a ``#12`` word (None if the word is not one)."""
    return parse_number(word[1:]) if word.startswith("#") else None


def no_such(what: str, number: object) -> str:
    shown = shorten(str(number))
    if what == "game":
        return _("There is no game #{game}.", game=shown)
    if what == "challenge":
        return _("There is no challenge #{challenge}.", challenge=shown)
    if what == "tournament":
        return _("There is no tournament T{t}.", t=shown)
    return _("There is no {thing} #{number}.", thing=thing(what), number=shown)


# what a parameter holds, as a refusal names it (`thing`)
THINGS = {name: message_id(name) for name in (
    message_id("bucket"), message_id("challenge"), message_id("clock"),
    message_id("confirmation"), message_id("digest"), message_id("example"),
    message_id("format"), message_id("game"), message_id("key"), message_id("kind"),
    message_id("lane"), message_id("mark"), message_id("mode"), message_id("move"),
    message_id("note"), message_id("notification"), message_id("place"), message_id("player"),
    message_id("point"), message_id("post"), message_id("purpose"), message_id("reason"),
    message_id("record format"), message_id("record"), message_id("rule"),
    message_id("server"), message_id("setting"), message_id("start position"),
    message_id("subject"), message_id("thread"), message_id("tournament"),
    message_id("transport"), message_id("value"), message_id("variant"))}


def thing(what: str) -> str:
    """What a parameter holds in the reader's language (``move``, ``nước đi``)."""
    return Text(what, {}) if what in THINGS else what


# --- rules by parameter name ------------------------------------------------------------
Rule = Callable[[Any], Any]  # the value to use, or a Refusal


def _id(what: str, reason: Reason) -> Rule:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
            return Refusal(reason, no_such(what, value))
        return value
    return check


def _count(value: Any) -> Any:
    """A move number or a count from 0."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        return Refusal(Reason.BAD_INPUT, _("{value} is not a move number.",
                                                   value=shorten(repr(value))))
    return value


def _whole(value: Any) -> Any:
    """A whole number (a tournament's size, rounds, ...), whose bounds its method checks."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        return Refusal(Reason.BAD_INPUT, _("{value} is not a whole number.",
                                           value=shorten(repr(value))))
    return value


def _limit(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LIMIT:
        return Refusal(Reason.BAD_INPUT, _("A list holds 1 to {most} entries.",
                                                   most=MAX_LIMIT))
    return value


def _days(most: float) -> Rule:
    """A finite number of days above 0, at most ``most``."""
    def check(value: Any) -> Any:
        ok = (isinstance(value, int | float) and not isinstance(value, bool)
              and math.isfinite(value) and 0 < value <= most)
        if not ok:
            shown = format(value, "g") if isinstance(value, float) and math.isfinite(value) \
                else repr(value)  # 100000, not 100000.0
            return Refusal(Reason.BAD_DAYS, _(
                "{value} is not a number of days I can use: give a number above 0 and at "
                "most {most}.", value=shorten(shown), most=format(most, ",g")))
        return value
    return check


def _text(limit: int, what: str, reason: Reason = Reason.BAD_INPUT) -> Rule:
    """A string of at most ``limit`` characters that can be stored (no surrogates)."""
    def check(value: Any) -> Any:
        if not isinstance(value, str):
            return Refusal(reason, _("That {thing} is not text.", thing=thing(what)))
        if len(value) > limit:
            return Refusal(reason, _("That {thing} is too long ({length} characters; at most "
                                     "{most}).", thing=thing(what), length=format(len(value), ","),
                                     most=format(limit, ",")))
        if _has_surrogates(value) or "\x00" in value:
            return Refusal(reason, _("That {thing} holds characters that are not text.",
                                     thing=thing(what)))
        return value
    return check


def _word(what: str, reason: Reason = Reason.BAD_INPUT) -> Rule:
    plain = _text(MAX_WORD, what, reason)

    def check(value: Any) -> Any:
        value = plain(value)
        if isinstance(value, str) and not all(_allowed(c) for c in value):
            return Refusal(reason, _("That {thing} holds control characters.",
                                     thing=thing(what)))
        return value
    return check


def _one_of(what: str, choices: tuple[str, ...]) -> Rule:
    def check(value: Any) -> Any:
        return value if value in choices else Refusal(Reason.BAD_INPUT, _(
            "That is no {thing}.", thing=thing(what)))
    return check


def _variant(value: Any) -> Any:
    from engine import EngineError, all_variants, get_variant
    checked = _word("variant", Reason.UNKNOWN_VARIANT)(value)
    if isinstance(checked, Refusal):
        return checked
    try:
        get_variant(checked)
    except EngineError:
        known = ", ".join(v.name for v in all_variants())
        return Refusal(Reason.UNKNOWN_VARIANT, _(
            "There is no variant called {name}. Choose one of: {known}.",
            name=repr(shorten(checked)), known=known))
    return checked


def _name(value: Any) -> Any:
    if not isinstance(value, str):
        return Refusal(Reason.NO_SUCH_PLAYER, _("A name is text."))
    name = clean_name(value[: MAX_ADDRESS * 4])
    return name or Refusal(Reason.NO_SUCH_PLAYER, _(
        "A name needs at least one visible character."))


def _address(value: Any) -> Any:
    if not isinstance(value, str):
        return Refusal(Reason.NO_SUCH_PLAYER, _("An address is text."))
    address = clean_name(value[: MAX_ADDRESS * 4], MAX_ADDRESS)
    return address or Refusal(Reason.NO_SUCH_PLAYER, _(
        "An address needs at least one visible character."))


def _display_name(value: Any) -> Any:
    """An optional name: one that cleans to nothing counts as none given."""
    if value is None:
        return None
    name = _name(value)
    return None if isinstance(name, Refusal) else name


def _instance(kind: type, reason: Reason, message: str) -> Rule:
    def check(value: Any) -> Any:
        if not isinstance(value, kind) or not isinstance(getattr(value, "id", None), int) \
                or not 0 <= value.id <= MAX_ID:
            return Refusal(reason, message)
        return value
    return check


def _instance_of(kind: type, message: str) -> Rule:
    def check(value: Any) -> Any:
        return value if isinstance(value, kind) else Refusal(Reason.BAD_INPUT, message)
    return check


def _side(value: Any) -> Any:
    if value is None or (value in (0, 1) and type(value) is int):
        return value
    return Refusal(Reason.BAD_INPUT, _("A side is the first (0) or the second (1)."))


def _flag(value: Any) -> Any:
    return value if isinstance(value, bool) else Refusal(Reason.BAD_INPUT, _("Say yes or no."))


def _json(value: Any) -> Any:
    try:
        text = json.dumps(value, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError):
        return Refusal(Reason.BAD_INPUT, _("That setting cannot be stored."))
    if len(text) > MAX_JSON or _has_surrogates(text):
        return Refusal(Reason.BAD_INPUT, _("That setting cannot be stored."))
    return value


def _settings(value: Any) -> Any:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        return Refusal(Reason.BAD_INPUT, _("Settings are names with values."))
    for key in value:
        if isinstance(_word("setting")(key), Refusal):
            return Refusal(Reason.BAD_INPUT, _("That setting name cannot be used."))
    checked = _json(dict(value))
    return checked if isinstance(checked, Refusal) else value


def _seconds(value: Any) -> Any:
    ok = (isinstance(value, int | float) and not isinstance(value, bool)
          and math.isfinite(value) and 0 < value <= MAX_DAYS * 86_400 * 10)
    return value if ok else Refusal(Reason.BAD_INPUT, _("{value} is not a time span I can use.",
                                                        value=shorten(repr(value))))


def _each(rule: Rule) -> Rule:
    """A list (or the tuple of ``*args``) whose every item passes ``rule``."""
    def check(value: Any) -> Any:
        if not isinstance(value, list | tuple) or len(value) > MAX_LIMIT:
            return Refusal(Reason.BAD_INPUT, _("That is no list I can use."))
        refused = next((r for r in map(rule, value) if isinstance(r, Refusal)), None)
        return refused or value
    return check


def _callable(value: Any) -> Any:
    return value if callable(value) else Refusal(Reason.BAD_INPUT, _("That is no callback."))


def _post(value: Any) -> Any:
    """A message a transport posted (`bot.service.model.Post`): its game, and texts that fit."""
    fields = (getattr(value, "kind", None), getattr(value, "channel", None),
              getattr(value, "message", None))
    if not isinstance(value, Post) or isinstance(_id("game", Reason.NO_SUCH_GAME)(
            value.game_id), Refusal) or any(isinstance(_word("post")(f), Refusal)
                                            for f in fields):
        return Refusal(Reason.BAD_INPUT, _("That is no message of a game."))
    return value


def _payload(value: Any) -> Any:
    """What a transport needs to send a notification besides its text, as JSON."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return Refusal(Reason.BAD_INPUT, _("That notification cannot be stored."))
    if not isinstance(value, Mapping) or len(text) > MAX_RECORD or _has_surrogates(text):
        return Refusal(Reason.BAD_INPUT, _("That notification cannot be stored."))
    return value


PLAYER = _instance(Player, Reason.NO_SUCH_PLAYER, _("I do not know that player."))
RULES: dict[str, Rule] = {
    # who
    "sender": PLAYER,
    "player": PLAYER,
    "opponent": PLAYER,
    "transport": _word("transport"),
    "address": _address,
    "display_name": _display_name,
    "name": _name,
    "by": _name,
    # what
    "game": _instance(Game, Reason.NO_SUCH_GAME, _("There is no such game.")),
    "game_id": _id("game", Reason.NO_SUCH_GAME),
    "game_ids": _each(_id("game", Reason.NO_SUCH_GAME)),
    "challenge_id": _id("challenge", Reason.NO_SUCH_CHALLENGE),
    "player_id": _id("player", Reason.NO_SUCH_PLAYER),
    "place": _word("place"),
    "server": _word("server"),
    "variant": _variant,
    "mode": _word("mode", Reason.UNKNOWN_MODE),
    "side": _side,
    "winner": _side,
    "days": _days(MAX_DAYS),
    # a longer vacation than the allowance is granted as the allowance
    "start.days": _days(MAX_VACATION_ASKED),  # a vacation asked for (`Vacations.start`)
    "start_fen": _text(MAX_FEN, "start position", Reason.BAD_POSITION),
    "text": _text(MAX_MOVE, "move", Reason.BAD_MOVE),
    "move": _text(MAX_MOVE, "move", Reason.BAD_MOVE),  # a move that narrows `find_game`
    "import_game.text": _text(MAX_RECORD, "record", Reason.BAD_RECORD),
    "export.format": _word("record format"),
    # an answer or notification a transport owes (an answer may carry a game's record)
    "queue_notification.text": _text(MAX_RECORD, "notification"),
    "settle_answer.text": _text(MAX_RECORD, "notification"),
    "note_id": _id("notification", Reason.BAD_INPUT),
    "note_ids": _each(_id("notification", Reason.BAD_INPUT)),
    "payload": _payload,
    "lane": _text(MAX_WORD + MAX_ADDRESS, "lane"),
    "token": _text(MAX_WORD, "key"),
    "node": _word("point"),
    "point": _word("point"),
    "expected_ply": _count,
    "ply": _count,
    "limit": _limit,
    "key": _word("setting"),
    "value": _json,
    "changes": _settings,
    "send": _callable,
    "done": _instance_of(Done, _("That is no answer of a command.")),
    "post": _post,
    "posts": _each(_post),
    "kind": _word("kind"),
    "purpose": _word("purpose"),  # what the game meant is for (`bot.service.inference`)
    "example": _text(MAX_WORD + MAX_MOVE, "example"),  # a command shown if it is unclear
    "within": _word("place"),  # a transport's places (``discord:``)
    "last": _limit,  # how many of the last entries of a list
    "set_transport_state.value": _text(MAX_JSON, "value"),
    # the e-mail gateway's ledger (rate limits, mails already answered)
    "bucket": _text(MAX_WORD + MAX_ADDRESS, "bucket"),
    "window": _seconds,
    "what": _word("mark"),
    "mark_address.what": _one_of("mark", ("wrote_at", "invited_at", "stopped_at")),
    "digest": _text(MAX_WORD + MAX_ADDRESS, "digest"),
    "mark_bounced.reason": _text(MAX_JSON, "reason"),
    "note_bounced.reason": _text(MAX_JSON, "reason"),
    "answered": _flag,
    "challenger_answered": _flag,  # the computer's acceptance: its answer says it all
    "quiet": _seconds,
    "thread": _word("thread"),
    "mail_subject.subject": _text(MAX_WORD + MAX_ADDRESS, "subject"),
    "digests": _each(_text(MAX_WORD + MAX_ADDRESS, "digest")),
    # confirmations asked of an address (`bot.service.tokens`): what a reply carries out
    "ask_confirmation.command": _payload,
    "confirm.number": _id("confirmation", Reason.BAD_INPUT),
    # yes or no
    "rated": _flag,
    "active": _flag,
    "to_move": _flag,
    "own": _flag,
    "abort": _flag,
    "confirm.use": _flag,
    # correspondence: notes, conditional moves, clock choices (bot.service.notes,
    # bot.service.forecasts, bot.service.timecontrol, which say more exactly what is too long)
    "reader": PLAYER,
    "add_note.text": _text(20_000, "note", Reason.BAD_NOTE),  # the note says "at most 1000"
    "words": _each(_text(MAX_MOVE, "move", Reason.BAD_FORECAST)),
    "time_control": _text(MAX_WORD, "clock", Reason.BAD_TIME_CONTROL),
    # tournaments (bot.service.tournaments, which checks the bounds of each number)
    "tournament_id": _id("tournament", Reason.NO_SUCH_TOURNAMENT),
    "format": _word("format"),
    "size": _whole,
    "section_size": _whole,
    "rounds": _whole,
    "cycles": _whole,
    "reach": _whole,
    "round_days": _days(MAX_DAYS),
    "signup_days": _days(MAX_DAYS),
    "start_days": _days(MAX_DAYS),
    "adjudication": _word("rule"),
    "director": _flag,
    "finished": _flag,
}


def rule_for(method: str, parameter: str) -> Rule | None:
    """The rule of ``parameter`` of ``method`` (None: the parameter has no rule)."""
    return RULES.get(f"{method}.{parameter}", RULES.get(parameter))


def unchecked(cls: type) -> list[str]:
    """``method.parameter`` of every public coroutine method of ``cls`` without a rule."""
    missing = []
    for name, method in _public_methods(cls):
        for parameter in list(inspect.signature(method).parameters)[1:]:
            if rule_for(name, parameter) is None:
                missing.append(f"{name}.{parameter}")
    return missing


def _public_methods(cls: type) -> list[tuple[str, Callable[..., Any]]]:
    return [(name, method) for name, method in inspect.getmembers(cls, inspect.iscoroutinefunction)
            if not name.startswith("_") and not isinstance(inspect.getattr_static(cls, name),
                                                           classmethod | staticmethod)]


def _guarded(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    signature = inspect.signature(method)
    rules = {p: rule_for(name, p) for p in list(signature.parameters)[1:]}
    optional = {p for p, param in signature.parameters.items() if param.default is None}

    @functools.wraps(method)
    async def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        for parameter, value in list(bound.arguments.items())[1:]:
            rule = rules.get(parameter)
            if rule is None or (value is None and parameter in optional):
                continue
            verdict = rule(value)
            if isinstance(verdict, Refusal):
                return verdict
            bound.arguments[parameter] = verdict
        return await method(*bound.args, **bound.kwargs)

    checked.__wrapped_by_boundary__ = True  # type: ignore[attr-defined]
    return checked


def guard(cls: type) -> type:
    """Check the arguments of every public coroutine method of ``cls`` (the service, or one
    of its topics)."""
    for name, method in _public_methods(cls):
        if not getattr(method, "__wrapped_by_boundary__", False):
            setattr(cls, name, _guarded(name, method))
    return cls
