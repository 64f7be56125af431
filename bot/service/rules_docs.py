"""The players' rules documents (``docs/rules/*.md``): read, split and shaped per transport.

A document is Markdown: a ``#`` title, an introduction, then ``##`` sections (the board,
the pieces, special rules, the end of the game, notation, the choices this project made)
with ``###`` parts; each piece is one ``###`` part under "The pieces", named
``Name (letter)``, with its picture ``![...](diagrams/NAME.png)``. `rules_part` finds
what a player asks for (a piece by name or letter, or a section by a word of its title);
`as_plain_text` and `as_discord` shape it for the console and mail, or for Discord.

A document may be translated: ``docs/rules/LANGUAGE/NAME.md`` (``vi/commander.md``) has
the same sections in the same order, each with its title in that language, and the same
pictures (linked as ``../diagrams/...``). Each section keeps the English title as its
``key``, so that the board, the pieces and a piece's part are found in every language;
a language without its file is served the English document.

The documents are read from the source tree beside the packages (the bot runs from the
repository, ``pip install -e .``); the Docker image copies ``docs/rules`` to the same
place relative to its working directory, which is the second place looked at.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from engine import Variant

from ..i18n import _, render

PLACES = (Path(__file__).resolve().parents[2] / "docs" / "rules", Path("docs") / "rules")
# variant id -> its document (the two Chieftain games share one)
DOCUMENTS = {
    "clash": "clash.md",
    "commander": "commander.md",
    "combined-arms": "combined-arms.md",
    "mini-chieftain": "chieftain.md",
    "micro-chieftain": "chieftain.md",
}
PIECES_SECTION = "The pieces"
BOARD_SECTION = "The board"
SOURCE_LANGUAGE = "en"
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})?")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class Section:
    """A ``##`` section or a ``###`` part: its title, level, Markdown (heading included)
    and the pictures it shows (paths relative to the rules folder, whichever folder the
    document is in). ``key`` and ``parent_key`` are the English titles of the section and
    of its ``##`` section (the titles themselves in an English document); ``folder`` is
    where the document lies inside the rules folder ("" or "vi")."""

    title: str
    level: int
    text: str
    parent: str = ""
    key: str = ""
    parent_key: str = ""
    folder: str = ""

    @property
    def pictures(self) -> tuple[str, ...]:
        return tuple(posixpath.normpath(posixpath.join(self.folder, path))
                     for _, path in IMAGE.findall(self.text))


@dataclass(frozen=True)
class Document:
    """One rules document: its file name, title, introduction and sections in order, and
    its language."""

    file_name: str
    title: str
    intro: str
    sections: tuple[Section, ...]
    language: str = SOURCE_LANGUAGE

    @property
    def where(self) -> str:
        """The document's path in the repository."""
        folder = "" if self.language == SOURCE_LANGUAGE else f"{self.language}/"
        return f"docs/rules/{folder}{self.file_name}"

    def section(self, key: str) -> Section | None:
        """The section whose English title is ``key``."""
        return next((s for s in self.sections if s.key == key), None)

    def pieces(self) -> tuple[Section, ...]:
        return tuple(s for s in self.sections if s.parent_key == PIECES_SECTION)

    def translating(self, english: Document) -> Document | None:
        """This document (a translation) with the English titles of ``english`` as its
        sections' keys, or None when the two are not built alike."""
        if len(self.sections) != len(english.sections) or any(
                (mine.level, mine.pictures) != (theirs.level, theirs.pictures)
                for mine, theirs in zip(self.sections, english.sections, strict=True)):
            return None
        sections = tuple(replace(mine, key=theirs.key, parent_key=theirs.parent_key)
                         for mine, theirs in zip(self.sections, english.sections, strict=True))
        return replace(self, sections=sections)

    def whole(self, section: Section) -> Section:
        """``section`` with its ``###`` parts: a ``##`` section's heading alone would say
        nothing ("Special rules" is all parts)."""
        if section.level != 2:
            return section
        parts = [s.text for s in self.sections if s.level == 3 and s.parent == section.title]
        return replace(section, text="\n\n".join([section.text, *parts]))


def rules_folder() -> Path | None:
    """The folder holding the documents, or None when they are not installed."""
    return next((place for place in PLACES if (place / "clash.md").is_file()), None)


def language_folder(language: str) -> str:
    """The folder of ``language``'s documents: its primary tag in lower case (``vi`` for
    ``vi``, ``vi-VN`` or ``VI_vn``); "" for English or a tag that is not one."""
    tag = language.strip()[:16]
    if not LANGUAGE_TAG.fullmatch(tag):
        return ""
    primary = re.split(r"[-_]", tag)[0].lower()
    return "" if primary == SOURCE_LANGUAGE else primary


def document_path(variant: Variant, language: str = SOURCE_LANGUAGE) -> Path | None:
    """The variant's document in ``language``, else in English."""
    folder = rules_folder()
    name = DOCUMENTS.get(variant.name)
    if folder is None or name is None:
        return None
    translated = language_folder(language)
    if translated and (folder / translated / name).is_file():
        return folder / translated / name
    return folder / name


@lru_cache(maxsize=16)
def _read(path: Path, stamp: float, language: str) -> Document:
    return parse_document(path.name, path.read_text(encoding="utf-8"), language)


def _load(path: Path, language: str) -> Document:
    return _read(path, path.stat().st_mtime, language)


def document(variant: Variant, language: str = SOURCE_LANGUAGE) -> Document | None:
    """The variant's document in ``language`` (``vi``), or in English when that language
    has no document for it (or one not built like the English one); None when the
    documents are not installed."""
    english = document_path(variant)
    if english is None or not english.is_file():
        return None
    source = _load(english, SOURCE_LANGUAGE)
    path = document_path(variant, language)
    if path is None or path == english:
        return source
    return _load(path, language_folder(language)).translating(source) or source


def parse_document(file_name: str, text: str, language: str = SOURCE_LANGUAGE) -> Document:
    """Split Markdown into its title, introduction and ``##``/``###`` sections. Headings
    inside fenced blocks are text, not headings. A translation (``language`` other than
    English) lies in the folder of its language; its keys are its own titles until it is
    matched with its English document (`Document.translating`)."""
    folder = "" if language == SOURCE_LANGUAGE else language
    title, intro, sections = "", [], []
    current: list[str] | None = None
    heading: tuple[str, int, str] = ("", 0, "")
    parent, fenced = "", False

    def close() -> None:
        if current is not None:
            sections.append(Section(heading[0], heading[1], "\n".join(current).strip(),
                                    heading[2], heading[0], heading[2], folder))

    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        level = len(line) - len(line.lstrip("#")) if not fenced else 0
        if level and line[level:level + 1] == " ":
            name = line[level + 1:].strip()
            if level == 1:
                title = name
                continue
            if level in (2, 3):
                close()
                parent = name if level == 2 else parent
                heading, current = (name, level, parent if level == 3 else ""), [line]
                continue
        (intro if current is None else current).append(line)
    close()
    return Document(file_name, title, "\n".join(intro).strip(), tuple(sections),
                    language or SOURCE_LANGUAGE)


def _words(text: str) -> str:
    """``text`` as plain lower-case words: accents dropped (a Vietnamese player may type
    "tu lenh" for "Tư lệnh"), everything but letters and digits a space."""
    text = unicodedata.normalize("NFD", text.lower().replace("đ", "d"))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


def piece_part(doc: Document, name: str) -> Section | None:
    """The part about the piece called ``name`` in English, in the document's language."""
    return next((s for s in doc.pieces() if _words(s.key).startswith(_words(name))), None)


def find_section(doc: Document, variant: Variant, topic: str) -> Section | None:
    """The part a player asks for: a piece by letter or name (its English name or the
    document's), else the first section whose title contains the words asked for; in a
    translation, else the first whose English title does."""
    wanted = _words(topic)
    if not wanted:
        return None
    for letter, name in variant.piece_names.items():
        if wanted in (letter.lower(), _words(name), _words(piece_title(doc, name))):
            return piece_part(doc, name)
    return (next((s for s in doc.sections if wanted in _words(s.title)), None)
            or next((s for s in doc.sections if wanted in _words(s.key)), None))


@dataclass(frozen=True)
class RulesPart:
    """What a `rules` command shows: Markdown, and pictures (paths of PNG files)."""

    markdown: str
    pictures: tuple[Path, ...]
    found: bool = True


def piece_title(doc: Document, name: str) -> str:
    """The name the document gives the piece called ``name`` in English (its part's
    title without the letter)."""
    part = piece_part(doc, name)
    return name if part is None else re.sub(r"\s*\([^)]*\)$", "", part.title)


def topics(doc: Document, variant: Variant) -> str:
    """The words a player may ask about: the pieces, then the sections (in the
    document's language)."""
    pieces = ", ".join(piece_title(doc, name) for name in variant.piece_names.values())
    sections = ", ".join(s.title.lower() for s in doc.sections if s.level == 2
                         and s.key != PIECES_SECTION)
    return _("pieces ({pieces}) or a section ({sections})", pieces=pieces, sections=sections)


TEXT_COMMAND = "`rules {variant} TOPIC`"


def rules_part(variant: Variant, topic: str = "", command: str = TEXT_COMMAND,
               language: str = SOURCE_LANGUAGE) -> RulesPart:
    """The part of ``variant``'s document about ``topic`` (a piece or a section); without
    a topic, the introduction and the board. Unknown topics say what may be asked, with
    ``command`` (the transport's way of asking, ``{variant}`` filled in). The document is
    the one in ``language`` where there is one, else the English one."""
    doc = document(variant, language)
    folder = rules_folder()
    if doc is None or folder is None:
        text = variant.rules_text or render(_("{variant}: no rules text yet.",
                                              variant=variant.display_name), language)
        return RulesPart(text, ())
    where = doc.where
    ask = render(_("{command} shows one part: {topics}.", command=command.format(
        variant=variant.name), topics=topics(doc, variant)), language)
    if not topic.strip():
        board = doc.section(BOARD_SECTION)
        board = doc.whole(board) if board is not None else None
        body = [f"# {doc.title}", doc.intro]
        if board is not None:
            body.append(board.text)
        body.append(f"{ask} " + render(_("The whole document: {where}.", where=where),
                                       language))
        pictures = _own_pictures(board.pictures if board is not None else (), variant)
        return RulesPart("\n\n".join(body), tuple(folder / p for p in pictures))
    section = find_section(doc, variant, topic)
    if section is None:
        return RulesPart(render(_("The rules of {variant} have no part about {topic}.",
                                  variant=variant.display_name, topic=repr(topic.strip())),
                                language) + f" {ask}", (), found=False)
    section = doc.whole(section)
    text = f"{section.text}\n\n" + render(_("(From {where}, “{title}”.)", where=where,
                                              title=section.title), language)
    return RulesPart(text, tuple(folder / p for p in section.pictures))


def _own_pictures(pictures: tuple[str, ...], variant: Variant) -> tuple[str, ...]:
    """The pictures of a shared section that belong to ``variant``: a document covering
    two games shows both boards, a player asking about one gets its own."""
    others = [name for name in DOCUMENTS if name != variant.name]
    return tuple(p for p in pictures
                 if not any(Path(p).name.startswith(f"{other}-") for other in others))


# --- shaping for a transport ------------------------------------------------------------
def tables_as_lists(markdown: str) -> str:
    """Markdown tables as lists (chat windows and mail do not draw tables): one item per
    row, ``first: second; third``; the header row and the rule row go."""
    out: list[str] = []
    header = True
    for line in markdown.splitlines():
        if not line.startswith("|"):
            out.append(line)
            header = True
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header or set("".join(cells)) <= set("-: "):
            header = False
            continue
        out.append(f"- {cells[0]}: {'; '.join(c for c in cells[1:] if c)}")
    return "\n".join(out)


CODE_SPAN = re.compile(r"(`[^`\n]*`)")


def _plain_words(text: str) -> str:
    """Bold and emphasis marks taken out of prose (not of code: `Bc1*e3` keeps its sign)."""
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\1", text)


def as_plain_text(markdown: str) -> str:
    """Markdown as plain text for the console and mail: no bold or emphasis marks,
    pictures named by their caption, links by their words, fenced blocks indented. Code
    keeps its backticks, as every command word in the console's and mail's answers does:
    without them "separated by `,` (on input also `;`)" would read "separated by , (on
    input also ;)"."""
    lines, fenced = [], False
    for line in tables_as_lists(markdown).splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            lines.append("    " + line)
            continue
        if IMAGE.fullmatch(line.strip()):
            continue  # the transport attaches the picture or names its file
        line = LINK.sub(lambda m: m.group(1), line)
        heading = re.match(r"(#{1,6}) (.*)", line)
        if heading:
            title = heading.group(2)
            lines += [title.upper() if len(heading.group(1)) <= 2 else title,
                      ("=" if len(heading.group(1)) <= 2 else "-") * len(title)]
            continue
        lines.append("".join(piece if CODE_SPAN.fullmatch(piece) else _plain_words(piece)
                             for piece in CODE_SPAN.split(line)))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


BLOCK_START = re.compile(r"(- |\d+\. |\||#|!\[|```)")


def unwrap(markdown: str) -> str:
    """Join the hard-wrapped lines of each paragraph and list item (a chat window wraps
    by itself); headings, table rows and fenced blocks keep their lines."""
    out: list[str] = []
    fenced = joinable = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append(line)
            joinable = False
            continue
        stripped = line.strip()
        if fenced or not stripped:
            out.append(line)
            joinable = False
            continue
        if joinable and not BLOCK_START.match(stripped):
            out[-1] += " " + stripped
            continue
        out.append(line)
        joinable = not stripped.startswith(("|", "#", "!["))
    return "\n".join(out)


def as_discord(markdown: str) -> str:
    """Markdown for a Discord message: pictures go as attachments (dropped here), links
    to files of the repository keep their words (Discord cannot follow them), paragraphs
    are unwrapped."""
    text = IMAGE.sub("", tables_as_lists(markdown))
    text = LINK.sub(lambda m: m.group(1) if "://" not in m.group(2) else m.group(0), text)
    return re.sub(r"\n{3,}", "\n\n", unwrap(text)).strip()


def messages(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines (between
    paragraphs where possible); a fenced block cut in two is closed and opened again."""
    pieces: list[str] = []
    current: list[str] = []
    fence = ""  # the opening line of the block the current piece is inside, if any

    def size(lines: list[str]) -> int:
        return len("\n".join(lines)) + (4 if fence else 0)  # room for a closing fence

    width = limit - 8  # a line longer than a message is cut anywhere
    lines = [raw[k:k + width] for raw in text.split("\n") for k in range(0, len(raw) or 1, width)]
    for line in lines:
        if current and size(current + [line]) > limit:
            cut = _paragraph_end(current)
            head, current = current[:cut], current[cut:]
            open_fence = _open_fence(head, pieces)
            pieces.append("\n".join(head + (["```"] if open_fence else [])).strip("\n"))
            if open_fence:
                current = [open_fence] + current
        current.append(line)
        if line.lstrip().startswith("```"):
            fence = "" if fence else line.strip()
    if "\n".join(current).strip():
        pieces.append("\n".join(current).strip("\n"))
    return pieces


def _paragraph_end(lines: list[str]) -> int:
    """Where to cut ``lines``: after the last blank line in their second half, else at the
    end."""
    for k in range(len(lines) - 1, len(lines) // 2, -1):
        if not lines[k].strip():
            return k + 1
    return len(lines)


def _open_fence(head: list[str], before: list[str]) -> str:
    """The opening line of a fenced block left open at the end of ``head`` (with the
    pieces ``before`` it), or ""."""
    opened = ""
    for line in "\n".join([*before, *head]).split("\n"):
        if line.lstrip().startswith("```"):
            opened = "" if opened else line.strip()
    return opened
