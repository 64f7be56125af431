"""The header section of a mail made safe for the stdlib parser, which takes seconds on a
folded header of a megabyte or on tens of thousands of fields: what it is given is cut
first, in one pass over the bytes."""

from __future__ import annotations

HEADER_BYTES = 64 * 1024  # a longer header section is not read (the mail is refused)
HEADER_FIELD_BYTES = 8 * 1024  # a longer header field is ignored
HEADER_FIELDS = 500  # header fields after these are ignored


def cap_header(raw: bytes) -> tuple[bytes, int]:
    """``raw`` with its header section made safe for the stdlib parser, and the size of
    the header section as it came: a field over `HEADER_FIELD_BYTES` is left out, and
    fields after the first `HEADER_FIELDS`; a section over `HEADER_BYTES` keeps only what
    fits in it and no body (the mail is refused: see `read_mail`)."""
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\n\r\n")) if i >= 0]
    end = min(ends) + 1 if ends else len(raw)
    head, body = raw[:end], raw[end:]
    fields: list[list[bytes]] = []  # each field's lines
    lengths: list[int] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line)
            lengths[-1] += len(line) + 1
        elif line.strip():
            if len(fields) == HEADER_FIELDS:
                fields.append([])  # one more than are kept: some were left out
                break
            fields.append([line])
            lengths.append(len(line) + 1)
    kept: list[bytes] = []
    size = 0
    for field, length in zip(fields, lengths, strict=False):
        if length > HEADER_FIELD_BYTES or size + length > HEADER_BYTES:
            continue
        kept.append(b"\n".join(field))
        size += length
    if len(head) > HEADER_BYTES:
        body = b"\r\n"
    if len(kept) == len(fields) and len(head) <= HEADER_BYTES:
        return raw, len(head)
    return b"\n".join(kept) + b"\n" + body, len(head)
