"""Replies as real mail programs write them (tests/email/corpus/: each ``.eml`` with a
``.json`` giving the command it must yield, or null, and the first paragraph of its
answer), each sent over real SMTP in answer to Alice's your-move mail: the move is played
exactly when there is a command, and the answer is the one given. `bench/mailcorpus.py`
prints the score over the same files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
ALICE = "alice@players.test"
BOB = "bob@players.test"
CASES = sorted(p.stem for p in CORPUS.glob("*.eml"))


def test_the_corpus_has_every_client_the_issue_names():
    assert len(CASES) >= 25
    for name in ("outlook_de", "outlook_fr", "outlook_es", "outlook_sv", "outlook_vi",
                 "outlook_en", "gmail_web_en", "gmail_web_de", "gmail_web_fr", "gmail_web_vi",
                 "gmail_mobile_en", "gmail_mobile_de", "gmail_mobile_fr", "gmail_mobile_vi",
                 "apple_mail", "thunderbird_plain", "thunderbird_flowed", "yahoo", "k9",
                 "fairemail", "html_only", "forward"):
        assert any(case.startswith(name) or name in case for case in CASES), name


def fill(raw: str, mail_to_answer, message_id: str) -> bytes:
    """A corpus mail as sent in answer to ``mail_to_answer`` (the placeholders filled)."""
    refs = (str(mail_to_answer.get("References", "")) + " "
            + str(mail_to_answer["Message-ID"])).strip()
    for name, value in (("FROM", ALICE), ("TO", str(mail_to_answer["Reply-To"])),
                        ("IN_REPLY_TO", str(mail_to_answer["Message-ID"])),
                        ("REFERENCES", refs), ("MESSAGE_ID", message_id)):
        raw = raw.replace("{{" + name + "}}", value)
    return raw.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


@pytest.mark.parametrize("case", CASES)
async def test_a_reply_from_a_real_mail_program(mail, game, case):
    expected = json.loads((CORPUS / f"{case}.json").read_text(encoding="utf-8"))
    await mail.post.send(f"Alice <{ALICE}>", "move c3-d4", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    await mail.post.send(f"Bob <{BOB}>", "g7-g5", reply_to=await mail.relay.next_to(BOB))
    await mail.relay.next_to(BOB)
    your_move = await mail.relay.next_to(ALICE)
    assert mail.text_of(your_move).startswith("bob played 1... g7-g5 in game #1")

    raw = fill((CORPUS / f"{case}.eml").read_text(encoding="utf-8"), your_move,
               f"<{case}@players.test>")
    await mail.post.send(ALICE, raw=raw, to=_to(raw), envelope_from=ALICE)
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.split("\r\n\r\n")[0] == expected["answer"]
    moves = [m.text for m in await mail.service.played_moves(1)]
    if expected["command"] is None:
        assert moves == ["c3-d4", "g7-g5"]
    else:
        assert moves == ["c3-d4", "g7-g5", expected["answer"].split()[1]]


def _to(raw: bytes) -> str:
    for line in raw.split(b"\r\n"):
        if line.lower().startswith(b"to:"):
            return line[3:].strip().strip(b"<>").decode()
    raise AssertionError("a corpus mail without To")
