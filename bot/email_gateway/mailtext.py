"""The text a person wrote, from the body part of a mail: format=flowed lines joined
(RFC 3676), HTML turned into the text a reader sees, hard-wrapped conditional moves joined.

Everything here works on bounded input (see `bot.email_gateway.replies.bounded_lines` and
`HTML_CHARS`) in time linear in it.

HTML goes through inscriptis (a maintained HTML-to-text converter that lays out block
elements, lists and tables as a reader sees them) after lxml has parsed it and we have
removed what a reader does not see (``<head>``, ``<style>``, ``<script>``, elements hidden
by ``display:none``, ``visibility:hidden`` or ``hidden``) and the quoted mail below a reply
(``<blockquote>``, Gmail's ``gmail_quote``, Yahoo's ``yahoo_quoted``, Thunderbird's
``moz-cite-prefix``, and from Outlook's ``<div id="appendonsend">`` or
``<div id="divRplyFwdMsg">``, or an ``<hr>`` followed by a header block, to the end).
"""

from __future__ import annotations

from inscriptis import Inscriptis
from lxml import etree, html

from .replies import LINE_CHARS, bounded_lines, header_key

HTML_CHARS = 256 * 1024  # what is read of an HTML part: the answer is at its top
LOOKED_AT = 200  # elements looked at for the text after an <hr>
IF_LINES = 4  # a wrapped conditional move takes at most this many lines more
WRAP_WIDTH = 76  # the column Outlook hard-wraps plain text at
WRAP_MIN = 60  # a shorter line was not broken by a wrap
# elements whose content nobody reads
UNSEEN_TAGS = ("head", "style", "script", "title", "template", "object", "iframe", "svg")
# classes and ids of the quoted mail below a reply
QUOTE_CLASSES = ("gmail_quote", "yahoo_quoted", "moz-cite-prefix", "gmail_extra",
                 "OutlookMessageHeader", "divRplyFwdMsg")
CUT_IDS = ("appendonsend", "divRplyFwdMsg", "x_divRplyFwdMsg", "x_appendonsend")


def unflow(lines: list[str], delsp: bool) -> list[str]:
    """``lines`` of a format=flowed text (RFC 3676) as written: a line ending in a space
    continues on the next one of the same quote depth (without that space with DelSp=yes),
    a space that stuffs a line is removed; the signature line ``-- `` is not flowed. A
    joined line stops growing at `replies.LINE_CHARS`."""
    out: list[str] = []
    open_depth: int | None = None  # quote depth of the last line if it flows on
    for line in lines:
        depth = len(line) - len(line.lstrip(">"))
        text = line[depth:]
        if text.startswith(" "):
            text = text[1:]
        flows = text.endswith(" ") and text != "-- "
        if flows and delsp:
            text = text[:-1]
        if open_depth == depth and out:
            if len(out[-1]) < LINE_CHARS:
                out[-1] = (out[-1] + text)[:LINE_CHARS]
        else:
            out.append(">" * depth + (" " if depth and text else "") + text)
        open_depth = depth if flows else None
    return out


def unwrap(lines: list[str]) -> list[str]:
    """``lines`` with what a hard wrap broke joined again (Outlook wraps plain text at 76
    columns, without the trailing space of format=flowed): a line of at least `WRAP_MIN`
    characters that the next line's first word would have made longer than `WRAP_WIDTH`
    was broken there, and a conditional move (``if ...``) goes on in a next line that
    starts with ``then``. An empty or quoted line between them keeps them apart, so that
    a sign-off below a command is never joined to it."""
    out: list[str] = []
    physical = ""  # the last line as the wrap left it
    for line in lines:
        text = line.strip()
        previous = out[-1] if out else ""
        if text and physical.strip() and not text.startswith(">") \
                and not previous.lstrip().startswith(">") and len(previous) < LINE_CHARS:
            first = text.split()[0]
            length = len(physical.rstrip())
            # a wrapped line is never longer than the wrap (a flowed paragraph may be)
            wrapped = WRAP_MIN <= length <= WRAP_WIDTH < length + 1 + len(first)
            goes_on = first.lower() == "then" and _starts_with_if(previous)
            if wrapped or goes_on:
                out[-1] = (previous.rstrip() + " " + text)[:LINE_CHARS]
                physical = line
                continue
        out.append(line)
        physical = line
    return out


def _starts_with_if(line: str) -> bool:
    return line.strip().lower().split(maxsplit=1)[:1] == ["if"]


def join_wrapped_if(lines: list[str]) -> list[str]:
    """``lines`` with a conditional move that a mail program wrapped (``if ... then ...``
    over several lines, as Outlook's 76-column wrap does) joined into one line: a line
    starting with ``if`` without ``then`` and a word after it takes in the following
    non-empty lines, at most `IF_LINES`, until it has both."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if line.strip().lower().split(maxsplit=1)[:1] == ["if"]:
            taken = 0
            while not _has_then_move(line) and taken < IF_LINES and k < len(lines) \
                    and lines[k].strip() and not lines[k].lstrip().startswith(">"):
                line = (line.rstrip() + " " + lines[k].strip())[:LINE_CHARS]
                k += 1
                taken += 1
        out.append(line)
    return out


def _has_then_move(line: str) -> bool:
    words = line.lower().split()
    return "then" in words and words.index("then") < len(words) - 1


def html_text(markup: str) -> str:
    """The text of an HTML part that a reader sees above any quoted mail."""
    try:
        root = html.fromstring(markup[:HTML_CHARS])
    except (etree.ParserError, ValueError):
        return ""
    _remove_unseen(root)
    _remove_quotes(root)
    return Inscriptis(root).get_text()


def _remove_unseen(root: html.HtmlElement) -> None:
    for element in list(root.iter(*UNSEEN_TAGS, etree.Comment)):
        _drop(element)
    for element in list(root.iter()):
        if not isinstance(element.tag, str):
            continue
        style = "".join((element.get("style") or "").lower().split())
        if "display:none" in style or "visibility:hidden" in style \
                or element.get("hidden") is not None or element.get("aria-hidden") == "true":
            _drop(element)


def _remove_quotes(root: html.HtmlElement) -> None:
    for element in list(root.iter()):
        if not isinstance(element.tag, str) or element.getparent() is None and element is not root:
            continue
        classes = (element.get("class") or "").split()
        if element.get("id") in CUT_IDS or (element.tag == "hr" and _header_follows(element)):
            _cut_from(element)
            return
        if element.tag == "blockquote" or any(c in QUOTE_CLASSES for c in classes):
            _drop(element)


def _header_follows(hr: html.HtmlElement) -> bool:
    """Whether the text after an ``<hr>`` starts with a header block (``From: ...``)."""
    following = hr.getnext()
    text = (hr.tail or "") + (_leading_text(following) if following is not None else "")
    first = [line for line in bounded_lines(text) if line.strip()][:1]
    return bool(first) and header_key(first[0]) is not None


def _leading_text(element: html.HtmlElement) -> str:
    """The first text in ``element``, looking at no more than `LOOKED_AT` elements."""
    pieces: list[str] = []
    for count, node in enumerate(element.iter()):
        if count == LOOKED_AT or sum(map(len, pieces)) >= LINE_CHARS:
            break
        pieces += [node.text or "", "\n", node.tail or "" if node is not element else ""]
    return "".join(pieces)[:LINE_CHARS]


def _cut_from(element: html.HtmlElement) -> None:
    """Remove ``element`` and everything after it in the document."""
    node = element
    while node is not None:
        parent = node.getparent()
        if parent is None:
            break
        for later in list(node.itersiblings()):
            parent.remove(later)
        node = parent
    _drop(element)


def _drop(element: html.HtmlElement) -> None:
    """Remove ``element`` and its content, keeping the text that follows it."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    previous = element.getprevious()
    parent.remove(element)
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
