"""Reading what people write: text normalised the way mail programs and phones mangle it,
header values made safe, and the one command line found among greetings and sign-offs.

The command of a mail is the first line (above any quoted text) that starts with a command
word or looks like a move; the lines before it (``Hi Bob,``, ``Thanks for the game!``) are
skipped. A word that gives a game or a challenge up (``resign``, ``draw``, ...) counts only
on a short line, so that ``Draw is not what I want`` is not read as a draw offer.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from email.errors import HeaderParseError
from email.header import decode_header

LINE_CHARS = 1000  # a line is compared up to this length
FINGERPRINT_CHARS = 32  # hex digits of a line's hash kept (128 bits)
NAME_CHARS = 64  # a display name taken from a mail is cut to this length
SUBJECT_CHARS = 120  # a subject taken from a mail is cut to this length
# what phones and word processors type instead of the plain characters of a command
TRANSLATE = str.maketrans({
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d", "-"),
    **dict.fromkeys("\u00a0\u2007\u202f\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008"
                    "\u2009\u200a\u3000", " "),
    **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad", None),
})
QUOTES = "\"'`*_"  # around a command: quoted or marked bold/italic by a mail program
MOVE_CHARS = 64  # a longer word is not a move
FILES = frozenset("abcdefghijklmnoABCDEFGHIJKLMNO")  # the files a point's letter names
RANK_DIGITS = 2  # a point's rank is written with one or two digits
LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
DIGITS = frozenset("0123456789")
MOVE_MARKS = frozenset("-x:=/+*#,")  # between the points of a move
END_MARKS = "!?+#"  # after a move
# Commander Chess: the kinds of move (`M&f4`, `F@e5`, `A_b2`), deploys (`I<T>e6`) and stacks
STACK_MARKS = frozenset("&@_<>()")
# what mail programs put before the subject of a reply or a forward, lower case
REPLY_PREFIXES = frozenset({
    "re", "aw", "antw", "antwort", "sv", "vs", "r", "rif", "ynt", "odp", "vá", "tr", "fw",
    "fwd", "wg", "rv", "enc", "doorst", "vl", "trl", "i", "res", "ref", "tl", "fs", "trả lời",
    "chuyển tiếp",
})
# words that end a game or answer a challenge: only on a line of at most this many words
FINAL_WORDS = frozenset({"resign", "abort", "draw", "end", "takeback", "accept", "decline",
                         "cancel", "stop", "back", "vacation"})
FINAL_LINE_WORDS = 3


def normalise(text: str) -> str:
    """``text`` with curly quotes, dashes and odd spaces made plain, and NFC composed."""
    return unicodedata.normalize("NFC", text).translate(TRANSLATE)


def decode_header_value(raw: str) -> str | None:
    """A raw header value decoded: encoded-words (RFC 2047), or 8-bit bytes (UTF-8, else
    Windows-1252); None when it cannot be decoded faithfully (a broken encoded-word, an
    unknown charset), so that no mojibake is ever stored or sent on."""
    if any("\udc80" <= c <= "\udcff" for c in raw):
        data = raw.encode("utf-8", "surrogateescape")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("cp1252", "replace")
    try:
        words = decode_header(raw)
        text = "".join(w.decode(charset or "ascii") if isinstance(w, bytes) else w
                       for w, charset in words)
    except (LookupError, UnicodeError, ValueError, HeaderParseError):
        return None
    return None if "\ufffd" in text or "=?" in text else text


def clean_header(value: object, limit: int) -> str:
    """A decoded header value made safe to store and to send again: no control characters
    (NUL, CR, LF, ...), no replacement characters left by a broken encoding, one space
    between words, at most ``limit`` characters."""
    text = str(value or "")
    if any("\udc80" <= c <= "\udcff" for c in text):  # 8-bit bytes of a raw header
        raw = text.encode("utf-8", "surrogateescape")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:  # not UTF-8: the 8-bit charset of the West, as mail is
            text = raw.decode("cp1252", "replace")
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs") else c
                   for c in text if c != "\ufffd")
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[:limit - 1].rstrip() + "…"
    return text


def first_word(line: str) -> str:
    """The first word of ``line``, lower case, without quotes or closing punctuation."""
    words = line.strip(QUOTES + " ").split()
    return words[0].strip(QUOTES).rstrip("!?.,:;").lower() if words else ""


def looks_like_move(line: str) -> bool:
    """Whether ``line`` starts with something written like a move (``Ee5``, ``c3-d4``,
    ``a1-a3/B``, ``Ha1-a3, Nb1-c3``)."""
    words = line.strip(QUOTES + " ").split(maxsplit=1)
    return bool(words) and is_move_word(words[0].strip(QUOTES).rstrip(".,;"))


def is_move_word(word: str) -> bool:
    """Whether ``word`` is written like a move: at most three letters of a piece, then a
    point (a file ``a``-``o``, a rank of one or two digits), then any letters, points and
    marks (``-x:=/+*#,``), then perhaps ``!?+#``; at most `MOVE_CHARS` characters.

    A point off every board (``a55``, ``a0``) still makes a move: a player who mistypes
    one is told by the rules what is wrong with the move, not that no command was found.

    One pass over the word (a regular expression for this nests quantifiers, and
    backtracks exponentially on ``a1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%``): every run of digits
    must be a rank's one or two digits right after a file's letter, and the first comes
    after one to four letters (the piece's, then the file's)."""
    if len(word) > MOVE_CHARS:
        return False
    body = word.rstrip(END_MARKS)
    if _stack_move(body):
        return True
    lead = 0
    while lead < len(body) and body[lead] in LETTERS:
        lead += 1
    if not 1 <= lead <= 4 or lead == len(body) or body[lead] not in DIGITS:
        return False
    return _points(body, MOVE_MARKS) is not None


def _stack_move(body: str) -> bool:
    """Whether ``body`` is written like a Commander Chess move (``M&f4``, ``F@e5``,
    ``A_b2``, ``(NF)b6``, ``I<T>e6``, ``T>e6,I>e5``): a piece letter or a stack's bracket
    or ``+`` first, one of `STACK_MARKS` in it, and at least one point, every run of
    digits a rank right after a file's letter. One pass, as `is_move_word`."""
    if not body or not (body[0] in LETTERS or body[0] in "(+") \
            or not any(c in STACK_MARKS for c in body):
        return False
    return bool(_points(body, MOVE_MARKS | STACK_MARKS))


def _points(body: str, marks: frozenset[str]) -> int | None:
    """How many points ``body`` names, when it is made of letters, ``marks`` and ranks (each
    run of digits right after a file's letter, at most `RANK_DIGITS` long); None when it
    is not. One pass."""
    points = 0
    k = 0
    while k < len(body):
        if body[k] in DIGITS:
            start = k
            while k < len(body) and body[k] in DIGITS:
                k += 1
            if k - start > RANK_DIGITS or body[start - 1] not in FILES:
                return None
            points += 1
        elif body[k] in LETTERS or body[k] in marks:
            k += 1
        else:
            return None
    return points


def is_command_line(line: str, words: Iterable[str]) -> bool:
    """Whether ``line`` is a command: a command word first (a final one only on a short
    line), or a move."""
    word = first_word(line)
    if word in words:
        return word not in FINAL_WORDS or len(line.split()) <= FINAL_LINE_WORDS
    return looks_like_move(line)


def command_line(line: str) -> str:
    """The command as the commands read it: without quotes, the first word's punctuation
    (``Help!``) and a trailing full stop."""
    text = line.strip(QUOTES + " ")
    words = text.split()
    if not words:
        return ""
    head = words[0].strip(QUOTES)
    if head.rstrip("!?.,:;").lower().isalpha():
        head = head.rstrip("!?.,:;")
    rest = " ".join(words[1:]).strip(QUOTES + " ").rstrip(".!")
    return f"{head} {rest}".strip() if rest else head


def find_command(lines: Sequence[str], words: Iterable[str]) -> int | None:
    """The index of the command line among ``lines``, or None."""
    words = frozenset(words)
    for k, line in enumerate(lines):
        if is_command_line(line, words):
            return k
    return None


def line_fingerprint(line: str) -> str:
    """What is remembered of a line of a mail we sent (`bot.service.sent_lines`): a hash
    of it normalised as the lines of a reply are, in lower case."""
    text = " ".join(normalise(line[:LINE_CHARS]).split()).lower()
    return hashlib.sha256(text.encode()).hexdigest()[:FINGERPRINT_CHARS]


def fingerprints_of(text: str) -> set[str]:
    """The fingerprints of the non-empty lines of ``text`` (a mail we send)."""
    return {line_fingerprint(line) for line in text.splitlines() if line.strip()}


def without_quoted_lines(lines: Sequence[str], ours: Collection[str]) -> tuple[str, ...]:
    """``lines`` of a reply without the text of the mail it answers (``ours``: the
    fingerprints of its lines): two lines in a row that were lines of that mail start the
    quoted text, and all below them is quoted too; a single line that was a line of that
    mail is left out wherever it stands, so that no line the service wrote (an example, a
    list of moves) is ever taken for the writer's command. The service writes its examples
    inside sentences, so a player who copies one into a line of their own means it."""
    if not ours:
        return tuple(lines)
    known = [line_fingerprint(line) in ours for line in lines]
    end = next((k for k in range(len(lines) - 1) if known[k] and known[k + 1]), len(lines))
    return tuple(lines[k] for k in range(end) if not known[k])


def is_reply_subject(subject: str) -> bool:
    """Whether ``subject`` is a reply's or a forward's (``Re:``, ``AW:``, ``Fwd:``, ``SV:``,
    ... in many languages, also ``Re[2]:``): its words are the subject of the mail answered."""
    head = subject.lstrip()[:12].partition(":")
    if not head[1]:
        return False
    word = head[0].strip().lower().partition("[")[0].strip()
    return word in REPLY_PREFIXES
