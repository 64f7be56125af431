"""Reading hostile mail: the worst time per KiB that `read_mail` takes over mails built to
be slow (each at the size limit), and the longest the event loop is held while the gateway
receives them.

The inputs (`adversarial_mails`): the move word that made the old move pattern backtrack
(``a1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%``) and a longer one, repeated; a quoted-printable line
of ``am schrieb schrieb ...``; a folded Subject of nearly the whole size; a mail of nothing
but headers; deeply nested MIME; a line of spaces, one of ``>``; HTML bombs (deep nesting,
hidden elements, many ``<hr>``). The anchor is the stdlib parsing a plain mail of the same
size, measured in the same run.

Targets: at most 10 ms per KiB for the worst input, and no receive holding the event loop
for more than 50 ms (the loop is watched by a task that wakes every millisecond).

Run: ``.venv/bin/python bench/mailparse.py [--kib N] [--runs N]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable
from email import policy
from email.parser import BytesParser
from pathlib import Path

OURS = "play@games.test"
HEAD = (b"From: Mallory <mallory@players.test>\r\nTo: play@games.test\r\n"
        b"Message-ID: <m-%d@players.test>\r\nMIME-Version: 1.0\r\n")
TARGET_MS_PER_KIB = 10.0
TARGET_HOLD_MS = 50.0


def _mail(n: int, headers: bytes, body: bytes) -> bytes:
    return HEAD % n + headers + b"\r\n" + body


def _fill(unit: bytes, size: int) -> bytes:
    return unit * (size // len(unit))


def _soft_wrapped(line: bytes) -> bytes:
    """``line`` as quoted-printable with soft line breaks: one line once decoded, lines
    short enough for SMTP on the way (``line`` must hold no ``=``)."""
    return b"=\r\n".join(line[k:k + 72] for k in range(0, len(line), 72))


def adversarial_mails(size: int) -> dict[str, bytes]:
    """Mails of about ``size`` bytes (one of 33 bytes) built to be slow to read, by name.
    A line longer than SMTP allows is sent quoted-printable with soft line breaks."""
    plain = b"Subject: hi\r\nContent-Type: text/plain; charset=utf-8\r\n"
    qp = plain + b"Content-Transfer-Encoding: quoted-printable\r\n"
    html = b"Subject: hi\r\nContent-Type: text/html\r\n"
    room = size - 400
    line = room * 72 // 75 - 16  # the length of a line that fits once soft-wrapped
    return {
        "move word 33 bytes": _mail(1, plain, b"a1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%\r\n"),
        "move words at the limit": _mail(2, plain, _fill(
            b"a1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%\r\n", room)),
        "qp line am schrieb": _mail(3, qp, _soft_wrapped(b"am " + _fill(b"schrieb ", line))),
        "folded subject": _mail(4, b"Subject: x" + _fill(b"\r\n  x", room) + b"\r\n"
                                + plain[13:], b"help\r\n"),
        "many headers": _mail(5, _fill(b"X-Filler: 1\r\n", room) + plain, b"help\r\n"),
        "headers under the limit": _mail(13, _fill(b"X: 1\r\n", 60 * 1024) + plain,
                                         b"help\r\n" + _fill(b"thanks\r\n", room - 61440)),
        "many mime parts": _mail(14, b"Subject: hi\r\nContent-Type: multipart/mixed; "
                                     b"boundary=\"p\"\r\n", _fill(
            b"--p\r\nContent-Type: text/plain\r\n\r\nhelp\r\n", room) + b"--p--\r\n"),
        "nested mime": _mail(6, b"Subject: hi\r\nContent-Type: multipart/mixed; "
                                b"boundary=\"top\"\r\n", _nested(90, room)),
        "a line of spaces": _mail(7, qp, _soft_wrapped(b"help" + b" " * line) + b"x\r\n"),
        "a line of >": _mail(8, qp, _soft_wrapped(b">" * line) + b"\r\nhelp\r\n"),
        "lines of > and attributions": _mail(9, plain, _fill(b"On a wrote\r\n> x\r\n", room)),
        "html deep nesting": _mail(10, html, _fill(b"<div><blockquote>\r\n", room)),
        "html hidden and hr": _mail(11, html, _fill(
            b"<hr><p style='display:none'>resign</p>\r\n", room)),
        "html plain paragraphs": _mail(12, html, _fill(b"<p>hello <b>there</b></p>\r\n", room)),
    }


def _nested(depth: int, size: int) -> bytes:
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n'
                       % (k, k) for k in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % k for k in reversed(range(depth)))
    text = b"Content-Type: text/plain\r\n\r\nhelp\r\n"
    filler = _fill(b"x" * 70 + b"\r\n", size - len(opening) - len(closing) - len(text))
    return b"--top\r\n" + opening + text + filler + closing + b"\r\n--top--\r\n"


def anchor_mail(size: int) -> bytes:
    """A plain mail of ``size`` bytes: ordinary lines of text."""
    rng = random.Random(1)
    words = [b"game", b"move", b"thanks", b"board", b"tomorrow", b"good", b"the", b"a"]
    lines = []
    total = 0
    while total < size - 400:
        line = b" ".join(rng.choice(words) for _ in range(12)) + b"\r\n"
        lines.append(line)
        total += len(line)
    return _mail(0, b"Subject: hi\r\nContent-Type: text/plain\r\n", b"".join(lines))


def _median_seconds(work, runs: int) -> float:  # type: ignore[no-untyped-def]
    work()  # once untimed: the first call of a process pays for imports and compiling
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


async def _hold_during(work: Awaitable[object]) -> float:
    """The longest the event loop went without running a task that wakes every
    millisecond, while ``work`` was awaited."""
    longest = 0.0
    done = asyncio.Event()

    async def watch() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    watcher = asyncio.create_task(watch())
    await asyncio.sleep(0.005)
    await work
    done.set()
    await watcher
    return longest


async def _longest_hold(mails: dict[str, bytes], kib: int) -> dict[str, float]:
    """The longest the event loop was held while the gateway received each mail."""
    from bot.config import Settings
    from bot.email_gateway.gateway import EmailGateway
    from bot.service import GameService

    sent = []

    async def send(mail: object) -> None:
        sent.append(mail)

    holds: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db_path=Path(folder) / "games.db", email_address=OURS,
                            email_max_bytes=kib * 1024, pictures_dir=Path(folder) / "boards")
        service = await GameService.open(settings)
        gateway = EmailGateway(service, settings, send=send)
        # the first mail of a process pays for imports: not what a stranger's mail costs
        holds["a plain mail (anchor)"] = await _hold_during(
            gateway.receive(anchor_mail(kib * 1024), "anchor@players.test", [OURS]))
        for name, raw in mails.items():
            holds[name] = await _hold_during(
                gateway.receive(raw, "mallory@players.test", [OURS]))
        await service.close()
    return holds


def no_dns(name: str, timeout: float) -> list[bytes]:
    """No DKIM key or DMARC record anywhere: the time measured is reading, not DNS."""
    return []


def main() -> None:
    from bot.email_gateway.inbound import read_mail

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kib", type=int, default=1024, help="size of each mail (KiB)")
    parser.add_argument("--runs", type=int, default=3, help="runs per input (median)")
    args = parser.parse_args()
    size = args.kib * 1024
    mails = adversarial_mails(size)

    plain = anchor_mail(size)
    anchor = _median_seconds(lambda: BytesParser(policy=policy.default).parsebytes(plain)
                             .get_body(preferencelist=("plain",)).get_content(), args.runs)
    anchor_per_kib = anchor * 1000 / (len(plain) / 1024)
    print(f"anchor: stdlib parse of a plain {len(plain) // 1024} KiB mail: "
          f"{anchor * 1000:.1f} ms ({anchor_per_kib:.3f} ms/KiB)")
    worst = 0.0
    for name, raw in mails.items():
        seconds = _median_seconds(lambda raw=raw: read_mail(  # type: ignore[misc]
            raw, "mallory@players.test", [OURS], our_address=OURS, max_bytes=size,
            lookup=no_dns), args.runs)
        per_kib = seconds * 1000 / max(1.0, len(raw) / 1024)
        worst = max(worst, per_kib)
        print(f"  {name:30} {len(raw) // 1024:5} KiB {seconds * 1000:8.1f} ms "
              f"{per_kib:7.3f} ms/KiB ({per_kib / anchor_per_kib:5.1f}x anchor)")
    print(f"worst: {worst:.3f} ms/KiB (target <= {TARGET_MS_PER_KIB} ms/KiB): "
          f"{'met' if worst <= TARGET_MS_PER_KIB else 'MISSED'}")
    holds = asyncio.run(_longest_hold(mails, args.kib))
    name, hold = max(holds.items(), key=lambda item: item[1])
    print(f"longest event-loop hold while receiving: {hold * 1000:.1f} ms ({name}; "
          f"target <= {TARGET_HOLD_MS:.0f} ms): "
          f"{'met' if hold * 1000 <= TARGET_HOLD_MS else 'MISSED'}")


if __name__ == "__main__":
    main()
