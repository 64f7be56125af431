"""Where a reply ends: the quoted mail, the attribution above it, a forwarded mail's header
block and the signature, as mail programs write them in many languages.

The text is bounded before anything is looked at (`READ_CHARS` characters, `READ_LINES`
lines, each cut at `LINE_CHARS`), and every check below is a fixed number of string
operations per line (prefix and suffix tests, set look-ups, substring searches on a bounded
line): reading a reply costs time linear in its bounded size, whatever a stranger sends.
No regular expression is used.

What counts as the start of quoted text (everything from there on is not the writer's):

- an attribution line, ending in ``:`` and naming a writer, in any of `WROTE_WORDS`'
  languages: ``On ... wrote:``, ``Am ... schrieb ...:``, ``Le ... a écrit :``,
  ``El ... escribió:``, ``Vào ... đã viết:``, also when a mail program wrapped it over two
  lines. Above any text of the writer's and followed by ``>`` lines, it only introduces the
  quote the writer answers below (bottom posting); otherwise the rest is quoted;
- a header block of the mail answered or forwarded, without ``>`` (Outlook, Apple Mail,
  forwards): two header lines (``Von:``, ``Gesendet:``, ``De :``, ``Envoyé :``, ``Från:``,
  ``Từ:``, ``Đã gửi:``, ...; see `HEADER_WORDS`) within three lines;
- a separator: ``-----Original Message-----`` and the forwarded-message lines of Gmail in
  any language (a line of words between runs of three or more dashes), a line of ten or more
  underscores (Outlook), ``Begin forwarded message:`` and its translations;
- the signature: ``-- `` (or ``--`` when a program lost the space), and a phone's
  ``Sent from my iPhone`` line in the languages of `SENT_FROM`.

Lines starting with ``>`` are quoted wherever they are; above the writer's first line they
are skipped (a bottom-posted or interleaved answer is read below them).
"""

from __future__ import annotations

READ_CHARS = 64 * 1024  # what is read of a text: a command is near its top
READ_LINES = 2000  # lines looked at, at most
LINE_CHARS = 1000  # a longer line is cut to this before it is looked at
ATTRIBUTION_CHARS = 400  # an attribution (with a wrapped second line) is no longer
WRAPPED_CHARS = 40  # a program wraps an attribution only after this many characters
HEADER_KEY_CHARS = 24  # the name of a header in a header block is no longer

# the verb of an attribution line, lower case ("On ..., Alice wrote:")
WROTE_WORDS = (
    "wrote", "writes", "schrieb", "geschrieben", "a écrit", "a ecrit", "escribió",
    "escribio", "đã viết", "skrev", "schreef", "ha scritto", "escreveu", "napisał",
    "kirjoitti", "írta", "написал", "написала", "написав", "yazdı", "έγραψε",
    "napsal", "napsala", "scrie", "pisze", "napisała", "写道", "寫道", "書きました",
    "작성", "ने लिखा",
)
# the first words of a header line in a quoted or forwarded mail's header block, lower case
HEADER_WORDS = frozenset({
    # English, German, French, Spanish, Swedish, Vietnamese, Dutch, Italian, Portuguese,
    # Danish/Norwegian, Polish, Finnish
    "from", "sent", "to", "cc", "subject", "date", "reply-to",
    "von", "gesendet", "an", "betreff", "datum",
    "de", "envoyé", "envoye", "à", "a", "objet", "date d'envoi",
    "enviado", "para", "asunto", "fecha",
    "från", "skickat", "till", "ämne", "kopia",
    "từ", "đã gửi", "đến", "chủ đề", "ngày",
    "van", "verzonden", "aan", "onderwerp",
    "da", "inviato", "oggetto",
    "enviada", "assunto",
    "fra", "sendt", "til", "emne",
    "od", "wysłano", "do", "temat",
    "lähettäjä", "lähetetty", "vastaanottaja", "aihe",
    # Russian, Ukrainian, Czech, Japanese, Chinese (simplified, traditional), Korean
    "от", "отправлено", "кому", "копия", "тема", "дата",
    "від", "надіслано", "копія",
    "odesláno", "komu", "předmět", "kopie",
    "差出人", "送信日時", "宛先", "件名",
    "发件人", "发送时间", "收件人", "主题", "抄送", "日期",
    "寄件者", "寄件日期", "收件者", "主旨", "副本",
    "보낸 사람", "보낸 날짜", "받는 사람", "제목",
})
# the header a quoted header block starts with (its sender), lower case
FROM_WORDS = frozenset({"from", "von", "de", "från", "từ", "van", "da", "fra", "od",
                        "lähettäjä", "date", "datum", "sent", "gesendet", "от",
                        "отправлено", "від", "надіслано", "odesláno", "差出人", "送信日時",
                        "发件人", "发送时间", "寄件者", "寄件日期", "보낸 사람"})
# lines that introduce a forwarded mail, lower case, without the closing colon
FORWARD_LINES = frozenset({
    "begin forwarded message", "anfang der weitergeleiteten nachricht",
    "début du message réexpédié", "debut du message reexpedie", "début du message transféré",
    "inicio del mensaje reenviado", "comienzo del mensaje reenviado",
    "vidarebefordrat brev", "vidarebefordrat meddelande", "bắt đầu thư được chuyển tiếp",
    "begin doorgestuurd bericht", "inizio messaggio inoltrato",
    "forwarded message", "original message",
})
# the first words of a phone's or web mailer's signature line, lower case
SENT_FROM = (
    "sent from my ", "sent from ", "get outlook for ", "sent with ", "sent via ",
    "von meinem ", "gesendet von ", "gesendet mit ", "holen sie sich outlook",
    "envoyé de mon ", "envoyé depuis ", "envoye de mon ", "obtenir outlook",
    "enviado desde mi ", "enviado desde ", "obtener outlook",
    "skickat från min ", "skickat från ", "hämta outlook",
    "gửi từ ", "tải outlook",
    "verzonden vanaf mijn ", "verstuurd vanaf mijn ", "inviato da ", "enviado do meu ",
)
SENT_FROM_WORDS = 10  # a signature line of a phone is short


def bounded_lines(text: str) -> list[str]:
    """The lines of ``text`` that are read: the first `READ_LINES` of its first
    `READ_CHARS` characters, each cut at `LINE_CHARS`, line ends made plain."""
    head = text[:READ_CHARS].replace("\r\n", "\n").replace("\r", "\n")
    return [line[:LINE_CHARS] for line in head.split("\n", READ_LINES)[:READ_LINES]]


def reply_lines(lines: list[str]) -> list[str]:
    """The writer's own lines among ``lines`` (from `bounded_lines`): above the quoted
    mail, the header block of a forward and the signature, without ``>`` lines."""
    own: list[str] = []
    k = 0
    while k < len(lines):
        raw = lines[k]
        line = raw.strip()
        if line.startswith(">"):
            if own:
                break
            k += 1
            continue
        if is_signature(raw):
            break
        if is_separator(line) or starts_header_block(lines, k):
            break
        if (width := attribution_lines(lines, k)) is not None:
            after = _next_text(lines, k + width)
            if own or after is None or not lines[after].lstrip().startswith(">"):
                break
            k = after  # bottom posting: the quote first, the answer below it
            continue
        if line:
            own.append(raw)
        k += 1
    return own


def said_anywhere(text: str) -> tuple[str, ...]:
    """Every line the writer may have written, wherever it stands: below a signature, or
    between and below ``>`` quotes too (a reply to a confirmation must not hide a "not
    me" there), up to the quoted original that a header block or a separator starts; a
    line ``?`` stands for what is beyond `READ_LINES` (unread)."""
    lines = bounded_lines(text)
    out: list[str] = []
    for k, raw in enumerate(lines):
        line = raw.strip()
        if is_separator(line) or starts_header_block(lines, k):
            return tuple(out)
        if line and not line.startswith(">"):
            out.append(line)
    if text.count("\n", 0, READ_CHARS) >= READ_LINES or len(text) > READ_CHARS:
        out.append("?")  # more than is read: no plain answer
    return tuple(out)


def _next_text(lines: list[str], k: int) -> int | None:
    while k < len(lines):
        if lines[k].strip():
            return k
        k += 1
    return None


def is_signature(raw: str) -> bool:
    """Whether ``raw`` starts a signature: ``-- `` (or ``--``), or a phone's short
    ``Sent from my iPhone`` line in one of `SENT_FROM`'s languages."""
    if raw.rstrip("\r") in ("-- ", "--"):
        return True
    line = raw.strip().lower()
    return line.startswith(SENT_FROM) and len(line.split()) <= SENT_FROM_WORDS


def is_separator(line: str) -> bool:
    """Whether ``line`` (stripped) separates a quoted or forwarded mail: words between runs
    of three or more dashes (``-----Original Message-----``, ``---------- Forwarded message
    ---------``, in any language), a line of ten or more underscores, or a line that
    introduces a forwarded mail (`FORWARD_LINES`)."""
    if len(line) >= 10 and line.strip("_") == "":
        return True
    if line.startswith("---") and line.endswith("---"):
        middle = line.strip("-").strip()
        return any(c.isalpha() for c in middle)
    return line.rstrip(": ").lower() in FORWARD_LINES


def header_key(line: str) -> str | None:
    """The header name of ``line`` if it is written as a header of a quoted mail
    (``Von: ...``, ``De : ...``, ``*From:* ...``), lower case; else None."""
    text = line.strip().lstrip("*").lstrip().replace("\uff1a", ":")  # also a full-width colon
    name, colon, _ = text[:HEADER_KEY_CHARS + 2].partition(":")
    if not colon:
        return None
    name = name.strip().strip("*").strip().lower()
    return name if name in HEADER_WORDS else None


def starts_header_block(lines: list[str], k: int) -> bool:
    """Whether line ``k`` starts the header block of a quoted or forwarded mail: a sender
    or date header, and another header within the next two lines."""
    if header_key(lines[k]) not in FROM_WORDS:
        return False
    return any(header_key(lines[j]) is not None for j in range(k + 1, min(k + 3, len(lines))))


def attribution_lines(lines: list[str], k: int) -> int | None:
    """How many lines (1 or 2) the attribution starting at line ``k`` takes
    (``On ... Alice <alice@example.org> wrote:``, perhaps wrapped: then its first line is
    long, `WRAPPED_CHARS` or more, so that a short line of the writer's above an
    attribution is not taken for part of it), or None."""
    if _is_attribution(lines[k]):
        return 1
    if k + 1 < len(lines) and len(lines[k].strip()) >= WRAPPED_CHARS \
            and lines[k + 1].strip() and not lines[k].rstrip().endswith(":"):
        if _is_attribution(lines[k].rstrip() + " " + lines[k + 1].strip()):
            return 2
    return None


def _is_attribution(text: str) -> bool:
    line = text.strip().lower().replace("\uff1a", ":")  # also a full-width colon
    if not line.endswith(":") or len(line) > ATTRIBUTION_CHARS:
        return False
    # Gmail in Japanese names no verb: "2026年11月24日(火) 9:58 Alice <alice@example.org>:"
    if line.endswith(">:") and "@" in line[line.rfind("<"):]:
        return True
    return any(_has_word(line, word) for word in WROTE_WORDS)


def _has_word(line: str, word: str) -> bool:
    """Whether ``word`` occurs in ``line`` as a word (not inside another word; Chinese,
    Japanese and Korean words stand between any characters)."""
    if word[0] >= "\u2e80":
        return word in line
    start = line.find(word)
    while start >= 0:
        end = start + len(word)
        before = line[start - 1] if start else " "
        after = line[end] if end < len(line) else " "
        if not before.isalnum() and not after.isalnum():
            return True
        start = line.find(word, start + 1)
    return False
