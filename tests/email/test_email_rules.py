"""`rules` by e-mail over real SMTP on loopback: the players' document as plain text, with
the piece's diagram attached; a near miss is answered with what may be asked."""

from __future__ import annotations

from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
ALICE = "alice@players.test"


def _text(mail, answer) -> str:
    return mail.text_of(answer).replace("\r\n", "\n")  # SMTP lines end in CRLF


async def test_rules_of_a_piece_come_as_text_with_its_diagram_attached(mail):
    await mail.post.send(f"Alice <{ALICE}>", "rules clash hawk", subject="how does it move?")
    answer = await mail.relay.next_to(ALICE)
    assert answer["Subject"] == "Re: how does it move?"
    text = _text(mail, answer)
    assert text.startswith("Hawk (H)\n--------\n\nA Hawk steps one point forward to an empty "
                           "point, or captures along a line in any of the")
    assert "**" not in text and "![" not in text
    assert text.rstrip().endswith("(From docs/rules/clash.md, “Hawk (H)”.)")
    assert mail.png_of(answer) == (RULES / "diagrams" / "clash-hawk.png").read_bytes()
    [attachment] = list(answer.iter_attachments())
    assert attachment.get_filename() == "clash-hawk.png"


async def test_rules_of_a_section_come_without_a_picture(mail):
    await mail.post.send(f"Alice <{ALICE}>", "rules mini-chieftain how a game ends")
    answer = await mail.relay.next_to(ALICE)
    assert _text(mail, answer).startswith(
        "HOW A GAME ENDS\n===============\n\n- You win as soon as your opponent has no "
        "Chieftain left")
    assert mail.png_of(answer) is None


async def test_rules_keep_code_marked_as_the_mails_commands_are(mail):
    await mail.post.send(f"Alice <{ALICE}>", "rules micro-chieftain notation")
    text = _text(mail, await mail.relay.next_to(ALICE))
    assert ("A whole turn lists its moves, separated by `, ` (on input also `;` or\n"
            "spaces).") in text


async def test_rules_of_an_unknown_piece_say_what_may_be_asked(mail):
    await mail.post.send(f"Alice <{ALICE}>", "rules cab dragon")
    answer = await mail.relay.next_to(ALICE)
    assert _text(mail, answer).strip() == (
        "The rules of Combined Arms Brigade Chess have no part about 'dragon'. `rules "
        "combined-arms TOPIC` shows one part: pieces (King, Queen, Rook, Bishop, Knight, Pawn) "
        "or a section (the board, special rules, how a game ends, notation, choices this "
        "project made).")
    assert mail.png_of(answer) is None
