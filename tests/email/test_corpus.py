"""Replies as real mail programs write them (tests/email/corpus/: each ``.eml`` with a
``.json`` giving the command it must yield, or null, and the first paragraph of its
answer), each sent over real SMTP in answer to Alice's your-move mail: the move is played
exactly when there is a command, and the answer is the one given. `bench/mailcorpus.py`
prints the score over the same files."""

from __future__ import annotations

import pytest

from .bench_corpus import mailcorpus

CORPUS = mailcorpus.CORPUS
ALICE = mailcorpus.ALICE
BOB = mailcorpus.BOB
CASES = mailcorpus.cases()


def test_the_corpus_has_every_client_the_issue_names():
    assert len(CASES) >= 25
    for name in ("outlook_de", "outlook_fr", "outlook_es", "outlook_sv", "outlook_vi",
                 "outlook_en", "gmail_web_en", "gmail_web_de", "gmail_web_fr", "gmail_web_vi",
                 "gmail_mobile_en", "gmail_mobile_de", "gmail_mobile_fr", "gmail_mobile_vi",
                 "apple_mail", "thunderbird_plain", "thunderbird_flowed", "yahoo", "k9",
                 "fairemail", "html_only", "forward"):
        assert any(case.startswith(name) or name in case for case in CASES), name


@pytest.mark.parametrize("case", CASES)
async def test_a_reply_from_a_real_mail_program(mail, game, case):
    expected = mailcorpus.expected(case)
    await mail.post.send(f"Alice <{ALICE}>", "move c3-d4", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    await mail.post.send(f"Bob <{BOB}>", "g7-g5", reply_to=await mail.relay.next_to(BOB))
    await mail.relay.next_to(BOB)
    your_move = await mail.relay.next_to(ALICE)
    assert mail.text_of(your_move).startswith("bob played 1... g7-g5 in game #1")

    raw = mailcorpus.fill((CORPUS / f"{case}.eml").read_text(encoding="utf-8"), your_move,
                          f"<{case}@players.test>")
    await mail.post.send(ALICE, raw=raw, to=mailcorpus.recipient(raw), envelope_from=ALICE)
    answer = mail.text_of(await mail.relay.next_to(ALICE)).replace("\r\n", "\n")
    assert answer.split("\n\n")[0] == expected["answer"]
    moves = [m.text for m in await mail.service.played_moves(1)]
    if expected["command"] is None:
        assert moves == ["c3-d4", "g7-g5"]
    else:
        assert moves == ["c3-d4", "g7-g5", mailcorpus.played(expected["answer"])]

