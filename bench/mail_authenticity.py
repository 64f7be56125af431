"""The cost of checking a mail's DKIM signature (`bot.email_gateway.authenticity.judge`) on
hostile bodies at the size limit (1 MiB): runs of blanks and tabs without a line end,
thousands of empty lines, one long line, lines of padded blanks; each signed with relaxed
and with simple body canonicalisation. Prints the median time per mail and per KiB (target:
<= 10 ms per KiB), beside the anchor measured in the same run: dkimpy's own `dkim.verify` of
an ordinary 1 MiB text body. It also shows why the body is prepared first: dkimpy alone on
a run of blanks of 16 and 32 KiB (quadratic: the ratio is near 4).

Run: ``.venv/bin/python bench/mail_authenticity.py [--runs N]``. DNS is answered in
memory: nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import base64
import re
import statistics
import time
from collections.abc import Callable

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.email_gateway.authenticity import judge

SIZE = 1024 * 1024
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
PEM = KEY.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                        serialization.NoEncryption())
RECORD = b"v=DKIM1; k=rsa; p=" + base64.b64encode(KEY.public_key().public_bytes(
    serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo))
DNS = {"s1._domainkey.signed.test": [RECORD], "_dmarc.signed.test": [b"v=DMARC1; p=reject"]}
HEAD = (b"From: a@signed.test\r\nTo: play@games.test\r\nSubject: hi\r\n"
        b"Message-ID: <1@signed.test>\r\nContent-Type: text/plain\r\n\r\n")
BODIES = {
    "blanks, no line end": b" " * SIZE + b"x",
    "tabs and blanks": b"\t \t" * (SIZE // 3) + b"x",
    "empty lines": b"\r\n" * (SIZE // 2) + b"x",
    "one long line": b"a" * SIZE,
    "padded lines": (b"a" + b" " * 70 + b"b\r\n") * (SIZE // 74),
}


def lookup(name: str, timeout: float) -> list[bytes]:
    return DNS.get(name, [])


def signed(body: bytes, canon: bytes) -> bytes:
    """``body`` signed by signed.test (a relaxed signature is made over the body with its
    blanks folded, which hashes the same: dkimpy's signing is quadratic in them too)."""
    made = body if canon == b"simple" else re.sub(rb"[\t ]+", b" ", body)
    header = dkim.sign(HEAD + made, b"s1", b"signed.test", PEM,
                       canonicalize=(b"relaxed", canon), include_headers=[b"from", b"subject"])
    return header + HEAD + body


def median_seconds(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ordinary = signed((b"The quick brown fox jumps over the lazy dog.\r\n" * 23000)[:SIZE],
                      b"relaxed")
    anchor = median_seconds(lambda: dkim.verify(ordinary, dnsfunc=lambda n, timeout=5:
                                                DNS.get(n.decode().rstrip("."), [None])[0]),
                            args.runs)
    print(f"anchor: dkim.verify of an ordinary 1 MiB body: {anchor * 1000:.1f} ms")
    worst = 0.0
    for name, body in BODIES.items():
        for canon in (b"relaxed", b"simple"):
            raw = signed(body, canon)
            seconds = median_seconds(lambda raw=raw: judge(raw, "signed.test", lookup), args.runs)
            per_kib = seconds * 1000 / (len(raw) / 1024)
            worst = max(worst, per_kib)
            print(f"{name:22} {canon.decode():8} {seconds * 1000:8.1f} ms  "
                  f"{per_kib:.3f} ms/KiB  {seconds / anchor:5.2f}x anchor")
    print(f"worst: {worst:.3f} ms per KiB (target <= 10)")
    small = [median_seconds(lambda n=n: dkim.canonicalization.Relaxed.canonicalize_body(
        b" " * n + b"x"), 1) for n in (16384, 32768)]
    print(f"dkimpy alone on blanks: 16 KiB {small[0] * 1000:.0f} ms, 32 KiB "
          f"{small[1] * 1000:.0f} ms (ratio {small[1] / small[0]:.1f}: quadratic)")


if __name__ == "__main__":
    main()
