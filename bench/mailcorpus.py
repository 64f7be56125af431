"""The corpus score: of the replies in tests/email/corpus/ (as real mail programs write
them), how many commands are found and played, and how many commands are taken from
quoted text (a reply with no command of its own that plays a move or gets any answer but
"I found no command").

Each reply answers Alice's your-move mail in a game played by mail through the gateway
(in this process, on a fresh database each, the mails it sends collected). Targets: 100%
of commands found, 0 taken from quoted text. `tests/email/test_corpus.py` sends the same
files over real SMTP and asserts each answer.

Run: ``.venv/bin/python bench/mailcorpus.py``
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import tempfile
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "email" / "corpus"
MACHINE = CORPUS / "machine"  # auto-replies and bounces
OURS = "play@games.test"
ALICE = "alice@players.test"
BOB = "bob@players.test"
_PLAYED = re.compile(r"\d+\.(?:\.\.)? (\S+)")  # the move after its number


def played(answer: str) -> str:
    """The move an answer says was played, in any language: the word after its number
    (``2. g3-f4 played in game #1…``, ``Đã đi 2. g3-f4 trong ván #1…``)."""
    found = _PLAYED.search(answer)
    return found.group(1) if found else ""


def fill(raw: str, mail_to_answer: EmailMessage, message_id: str) -> bytes:
    """A corpus mail as sent in answer to ``mail_to_answer`` (its placeholders filled)."""
    refs = (str(mail_to_answer.get("References", "")) + " "
            + str(mail_to_answer["Message-ID"])).strip()
    for name, value in (("FROM", ALICE), ("TO", str(mail_to_answer["Reply-To"])),
                        ("IN_REPLY_TO", str(mail_to_answer["Message-ID"])),
                        ("REFERENCES", refs), ("MESSAGE_ID", message_id)):
        raw = raw.replace("{{" + name + "}}", value)
    return raw.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def recipient(raw: bytes) -> str:
    """The To address of a corpus mail."""
    for line in raw.split(b"\r\n"):
        if line.lower().startswith(b"to:"):
            return line[3:].strip().strip(b"<>").decode()
    raise ValueError("a corpus mail without To")


def cases() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.eml"))


def expected(case: str) -> dict[str, str | None]:
    return json.loads((CORPUS / f"{case}.json").read_text(encoding="utf-8"))


def machine_cases() -> list[str]:
    return sorted(p.stem for p in MACHINE.glob("*.eml"))


def machine_expected(case: str) -> dict[str, str | bool | None]:
    """What a machine mail must come to, its ``{{FROM}}`` placeholders filled."""
    text = (MACHINE / f"{case}.json").read_text(encoding="utf-8")
    return json.loads(text.replace("{{FROM}}", ALICE))


def _text(mail: EmailMessage) -> str:
    body = mail.get_body(preferencelist=("plain",))
    return str(body.get_content()) if body is not None else ""


class Table:
    """A game by mail between Alice and Bob, through a gateway in this process."""

    def __init__(self, gateway, service) -> None:  # type: ignore[no-untyped-def]
        self.gateway = gateway
        self.service = service
        self.sent: list[EmailMessage] = []

    async def mail(self, sender: str, text: str, reply_to: EmailMessage | None = None) -> None:
        mail = EmailMessage()
        mail["From"] = sender
        mail["To"] = str(reply_to["Reply-To"]) if reply_to is not None else OURS
        mail["Subject"] = "Re: " + str(reply_to["Subject"]) if reply_to is not None else "hi"
        mail["Message-ID"] = make_msgid(domain="players.test")
        if reply_to is not None:
            mail["In-Reply-To"] = str(reply_to["Message-ID"])
        mail.set_content(text)
        await self.raw(sender, mail.as_bytes(policy=policy.SMTP), str(mail["To"]))

    async def raw(self, sender: str, raw: bytes, to: str) -> None:
        await self.gateway.receive(raw, sender, [to])
        await self.gateway.deliver_outbox()

    def last_to(self, address: str) -> EmailMessage:
        return [m for m in self.sent if address in str(m["To"])][-1]


async def _table(folder: Path, name: str):  # type: ignore[no-untyped-def]
    """A game by mail on a fresh database, Alice to move: the table and her your-move
    mail."""
    from bot.config import Settings
    from bot.email_gateway.gateway import EmailGateway
    from bot.service import GameService

    settings = Settings(db_path=folder / f"{name}.db", email_address=OURS,
                        pictures_dir=folder / "boards")
    service = await GameService.open(settings, rng=random.Random(3))
    table = Table(None, service)

    async def send(mail: EmailMessage) -> None:  # parsed again, as the relay would
        table.sent.append(BytesParser(policy=policy.default).parsebytes(
            mail.as_bytes(policy=policy.SMTP)))  # type: ignore[arg-type]

    table.gateway = EmailGateway(service, settings, send=send)
    await table.mail(f"Alice <{ALICE}>", f"challenge {BOB} white")
    # a challenge without a key is asked back of Alice's address first
    await table.mail(f"Alice <{ALICE}>", "yes", reply_to=table.last_to(ALICE))
    await table.mail(f"Bob <{BOB}>", "accept", reply_to=table.last_to(BOB))
    await table.mail(f"Alice <{ALICE}>", "move c3-d4", reply_to=table.last_to(ALICE))
    await table.mail(f"Bob <{BOB}>", "g7-g5", reply_to=table.last_to(BOB))
    return table, table.last_to(ALICE)


async def score_case(case: str, folder: Path) -> tuple[bool, bool]:
    """Whether the case's command was found (or it had none), and whether a command was
    taken from its quoted text."""
    table, your_move = await _table(folder, case)
    try:
        raw = fill((CORPUS / f"{case}.eml").read_text(encoding="utf-8"), your_move,
                   f"<{case}@players.test>")
        await table.raw(ALICE, raw, recipient(raw))
        answer = _text(table.last_to(ALICE)).replace("\r\n", "\n").split("\n\n")[0]
        moves = [m.text for m in await table.service.played_moves(1)]
    finally:
        await table.service.close()
    want = expected(case)
    if want["command"] is None:
        return True, len(moves) > 2 or answer != want["answer"]
    return moves[2:] == [played(str(want["answer"]))], False


async def score_machine(case: str, folder: Path) -> bool:
    """Whether a machine mail came to what it must: never played, answered only when it
    carries no machine marker at all, and a bounce believed exactly when it is genuine."""
    table, your_move = await _table(folder, "machine-" + case)
    want = machine_expected(case)
    try:
        raw = fill((MACHINE / f"{case}.eml").read_text(encoding="utf-8"), your_move,
                   f"<{case}@players.test>")
        sent = len(table.sent)
        envelope = want["envelope_from"]
        outcome = await table.gateway.receive(
            raw, None if envelope is None else str(envelope),
            () if envelope is None else [recipient(raw)])
        await table.gateway.deliver_outbox()
        answered = any(ALICE in str(m["To"]) for m in table.sent[sent:])
        moves = [m.text for m in await table.service.played_moves(1)]
        bounced = (await table.service.mail.mail_address(ALICE))["bounced_at"] is not None
    finally:
        await table.service.close()
    return (outcome == want["outcome"] and moves == ["c3-d4", "g7-g5"]
            and answered == (want["answer"] is not None) and bounced == want["bounced"])


async def main() -> None:
    found = commands = taken = quiet = 0
    with tempfile.TemporaryDirectory() as folder:
        for case in cases():
            ok, from_quote = await score_case(case, Path(folder))
            has_command = expected(case)["command"] is not None
            commands += has_command
            found += has_command and ok
            quiet += not has_command
            taken += from_quote
            mark = "ok" if ok and not from_quote else "WRONG"
            print(f"  {case:34} {expected(case)['command'] or '(no command)':18} {mark}")
        print(f"commands found: {found}/{commands} ({100 * found / max(1, commands):.0f}%); "
              f"commands taken from quoted text: {taken} (of {quiet} replies without one)")
        right = 0
        for case in machine_cases():
            ok = await score_machine(case, Path(folder))
            right += ok
            print(f"  {case:34} {machine_expected(case)['outcome']!s:.60} "
                  f"{'ok' if ok else 'WRONG'}")
    print(f"machine mail handled as it must: {right}/{len(machine_cases())} (auto-replies "
          f"never answered or played, genuine bounces believed, forged ones not)")


if __name__ == "__main__":
    asyncio.run(main())
