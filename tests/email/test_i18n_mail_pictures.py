"""The board picture a game mail attaches speaks its reader's language, as the mail does:
the very picture the Discord bot posts in that language (its words, the result on it),
and an English reader's exactly as before."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_bot import pictures as discord_pictures
from bot.email_gateway import gamemail
from bot.pictures import picture_words
from engine import get_variant

ALICE = "alice@players.test"
BOB = "bob@players.test"


async def _posted(mail, perspective: int, language: str = "en") -> bytes:
    """The Discord bot's picture of game #1 now, from ``perspective``, in ``language``."""
    posted = await discord_pictures.picture(mail.service, await mail.service.game(1),
                                            perspective=perspective, language=language)
    assert posted is not None
    return posted.fp.read()


async def test_each_player_gets_the_picture_in_their_own_language(mail, game, offered):
    await mail.confirmed(f"Alice <{ALICE}>", "language vi")
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
    to_alice = await mail.relay.next_to(ALICE)
    to_bob = await mail.relay.next_to(BOB)
    assert str(to_alice["Content-Language"]) == "vi"
    assert mail.png_of(to_alice) == await _posted(mail, 0, "vi")
    assert mail.png_of(to_alice) != await _posted(mail, 0)
    assert mail.png_of(to_bob) == await _posted(mail, 1)  # Bob reads English

    await mail.post.send(f"Alice <{ALICE}>", "resign", reply_to=to_alice)
    over = await mail.relay.next_to(ALICE)
    assert mail.png_of(over) == await _posted(mail, 0, "vi")  # the result in Vietnamese too
    assert mail.png_of(await mail.relay.next_to(BOB)) == await _posted(mail, 1)


async def test_the_words_and_result_a_vietnamese_mail_picture_is_drawn_with(
        mail, game, offered, monkeypatch: pytest.MonkeyPatch):
    drawn: list[dict[str, Any]] = []

    def board_png(position: object, options: dict[str, Any]) -> bytes:
        drawn.append(options)
        return b"\x89PNG\r\n\x1a\n"

    monkeypatch.setattr(gamemail, "_board_png", board_png)
    await mail.confirmed(f"Alice <{ALICE}>", "language vi")
    await mail.post.send(f"Alice <{ALICE}>", "resign", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    await mail.relay.next_to(BOB)
    english, vietnamese = sorted(drawn, key=lambda options: options["perspective"],
                                 reverse=True)  # Bob's (Black's) first, then Alice's
    clash = get_variant("clash")
    assert vietnamese["words"] == picture_words(clash, "vi")
    assert vietnamese["words"].sides == ("Trắng", "Đen")
    assert vietnamese["result"] == "bob (Đen) thắng: Alice xin thua (0-1)"
    assert english["words"] == picture_words(clash)
    assert english["result"] == "bob (Black) wins: Alice resigned (0-1)"
