"""Mail the gateway refuses: each gets the right reply (or, for machine mail, none) and
leaves every stored row as it was."""

from __future__ import annotations

import aiosmtplib
import pytest

from bot.email_gateway import server

from .conftest import asked

ALICE = "alice@players.test"
BOB = "bob@players.test"
MALLORY = "mallory@elsewhere.test"
OURS = "play@games.test"
TABLES = {t: "*" for t in ("players", "challenges", "games", "moves", "game_tokens")}
# what the outbox holds, but not when delivery (which goes on meanwhile) marked it sent,
# nor the answers to mails (each refusal is answered through the outbox)
TABLES["outbox"] = "id, transport, player_id, place, game_id, kind, text, created_at"
WHERE = {"outbox": " WHERE kind != 'answer'"}


async def _stored(service) -> dict[str, list[tuple]]:
    """Every row of every table a command could change."""
    async with service.db.snapshot() as s:
        return {t: [tuple(r) for r in await s.all(
            f"SELECT {columns} FROM {t}{WHERE.get(t, '')} ORDER BY 1, 2")]
            for t, columns in TABLES.items()}


@pytest.fixture
async def game(mail):
    """A game between Alice (to move) and Bob, and the mails that started it (with keys)."""
    post, relay = mail.post, mail.relay
    await mail.confirmed(f"Alice <{ALICE}>", "challenge bob@players.test white")
    offer = await relay.next_to(BOB)
    await post.send(f"Bob <{BOB}>", "accept #1", reply_to=offer)
    to_bob = await relay.next_to(BOB)
    to_alice = await relay.next_to(ALICE)
    await mail.gateway.deliver_outbox()
    return {"alice": to_alice, "bob": to_bob}


async def _move(mail) -> str:
    game = await mail.service.game(1)
    return (await mail.service.legal_moves(game))[0]


async def test_a_forged_sender_with_a_real_key_is_refused(mail, game):
    before = await _stored(mail.service)
    await mail.post.send(f"Mallory <{MALLORY}>", f"move {await _move(mail)}",
                         reply_to=game["alice"])
    answer = await mail.relay.next_to(MALLORY)
    assert "Wrong sender" in mail.text_of(answer) and "#1" in mail.text_of(answer)
    assert "+" not in str(answer["Reply-To"]) and mail.png_of(answer) is None  # no key, no board
    assert await _stored(mail.service) == before
    assert await mail.relay.nothing_to(ALICE) and await mail.relay.nothing_to(BOB)


async def test_the_opponents_key_is_refused_for_the_registered_sender(mail, game):
    before = await _stored(mail.service)
    await mail.post.send(f"Bob <{BOB}>", f"move {await _move(mail)}", reply_to=game["alice"])
    answer = mail.text_of(await mail.relay.next_to(BOB))
    assert "Wrong sender" in answer
    assert await _stored(mail.service) == before


async def test_a_wrong_token_is_refused(mail, game):
    before = await _stored(mail.service)
    forged = f"play+1.0.{'0' * 20}@games.test"
    await mail.post.send(f"Alice <{ALICE}>", f"move {await _move(mail)}", to=forged)
    answer = await mail.relay.next_to(ALICE)
    token = await mail.service.tokens.game_token(1, 1)
    assert "Wrong key" in mail.text_of(answer)
    assert str(answer["Reply-To"]) == f"play+1.0.{token}@games.test"  # her real key
    assert await _stored(mail.service) == before


async def test_a_game_command_without_a_key_changes_nothing_until_confirmed(mail, game):
    before = await _stored(mail.service)
    move = await _move(mail)
    await mail.post.send(f"Alice <{ALICE}>", f"move #1 {move}")
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer == await asked(mail, ALICE, f"`move #1 {move}`")
    assert await _stored(mail.service) == before


async def test_a_stale_or_repeated_move_is_refused_and_never_applied_twice(mail, game):
    move = await _move(mail)
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game["alice"])
    assert "played in game #1" in mail.text_of(await mail.relay.next_to(ALICE))
    await mail.relay.next_to(BOB)
    before = await _stored(mail.service)
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game["alice"])  # again
    assert await mail.relay.nothing_to(ALICE)  # the same command with the same key: no answer
    other = (await mail.service.legal_moves(await mail.service.game(1)))[0]
    await mail.post.send(f"Alice <{ALICE}>", f"move {other}", reply_to=game["alice"])
    stale = await mail.relay.next_to(ALICE)
    assert mail.text_of(stale).startswith(
        "Not played: your mail answers an earlier position of game #1, and a move has been "
        "played since it")
    assert "+1.1." in str(stale["Reply-To"])  # the answer carries the current key
    assert await _stored(mail.service) == before
    assert len(await mail.service.played_moves(1)) == 1


async def test_html_only_mail_is_read_as_a_reader_sees_it(mail):
    await mail.post.send(f"Alice <{ALICE}>", html=(
        "<html><head><style>p {color: red}</style><title>resign</title></head><body>"
        "<div style='display: none'>resign</div><p>challenge bob@players.test</p>"
        "<blockquote>move a1-a3/B</blockquote></body></html>"))
    asking = await mail.relay.next_to(ALICE)  # the visible command, asked back of her
    assert mail.text_of(asking) == await asked(mail, ALICE, "`challenge bob@players.test`")
    assert asking["In-Reply-To"] == mail.post.sent[-1]["Message-ID"]
    await mail.post.send(f"Alice <{ALICE}>", "yes", reply_to=asking)
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer).startswith("Challenge #1 for bob: Clash of Command")
    assert [c.opponent_name for c in await mail.service.challenges.pending()] \
        == ["bob"]


async def test_the_text_part_of_a_multipart_mail_is_read_not_the_html(mail):
    await mail.post.send(f"Alice <{ALICE}>", "help", html="<p>resign</p>")
    assert "Commands" in mail.text_of(await mail.relay.next_to(ALICE))


@pytest.mark.parametrize("headers", [{"Auto-Submitted": "auto-replied"},
                                     {"Precedence": "bulk"},
                                     {"List-Id": "<games.lists.test>"}])
async def test_machine_mail_is_never_answered(mail, headers):
    await mail.post.send(f"Robot <{ALICE}>", "I am away until Monday.", headers=headers)
    assert await mail.relay.nothing_to(ALICE)
    assert all(not rows for rows in (await _stored(mail.service)).values())


async def test_our_own_mail_coming_back_is_not_answered(mail):
    await mail.post.send(f"commandpost <{OURS}>", "help")
    await mail.post.send("play+1.0.abc@games.test", "help")
    assert await mail.relay.nothing_to(OURS)
    assert await mail.relay.nothing_to("play+1.0.abc@games.test")


async def test_a_bounce_is_not_answered(mail):
    raw = (f"From: Mailer <{ALICE}>\r\nTo: {OURS}\r\nSubject: Undeliverable\r\n\r\n"
           f"help\r\n").encode()
    await mail.post.send(ALICE, raw=raw, envelope_from="")
    assert await mail.relay.nothing_to(ALICE)


async def test_a_sender_over_the_rate_limit_is_told_once_then_ignored(mail):
    limit = mail.settings.email_rate_limit
    for _ in range(limit):
        await mail.post.send(f"Alice <{ALICE}>", "help")
        assert "Commands" in mail.text_of(await mail.relay.next_to(ALICE))
    await mail.post.send(f"Alice <{ALICE}>", "help")
    assert f"more than {limit} mails within an hour" in mail.text_of(
        await mail.relay.next_to(ALICE))
    await mail.post.send(f"Alice <{ALICE}>", "help")
    assert await mail.relay.nothing_to(ALICE)


async def test_a_malformed_mime_message_is_refused(mail, game):
    before = await _stored(mail.service)
    raw = (f"From: Alice <{ALICE}>\r\nTo: {game['alice']['Reply-To']}\r\nSubject: x\r\n"
           f"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zzz\"\r\n\r\n"
           f"move {await _move(mail)}\r\n").encode()
    await mail.post.send(ALICE, raw=raw, to=str(game["alice"]["Reply-To"]))
    assert "MIME structure is broken" in mail.text_of(await mail.relay.next_to(ALICE))
    assert await _stored(mail.service) == before


async def test_a_mail_without_a_command_is_answered(mail):
    await mail.post.send(f"Alice <{ALICE}>", "> only a quote\n\n-- \nAlice")
    assert "no command" in mail.text_of(await mail.relay.next_to(ALICE))


async def test_a_huge_message_is_refused_unread(mail, game):
    before = await _stored(mail.service)
    padding = "x" * 80 + "\n"
    body = f"move {await _move(mail)}\n\n" + padding * 4000  # 324 KB, over the 200 KB limit
    await mail.post.send(f"Alice <{ALICE}>", body, reply_to=game["alice"])
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert "more than the 195 KiB I accept" in answer
    assert await _stored(mail.service) == before


async def test_a_message_far_over_the_limit_is_refused_by_the_smtp_server(mail, monkeypatch):
    monkeypatch.setattr(server, "OVERSIZE_FLOOR", 0)  # 8 times the limit, not 40 MiB
    body = ("x" * 80 + "\n") * 25_000  # 2 MB, over 8 times the limit
    with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
        await mail.post.send(f"Alice <{ALICE}>", body)
    assert refused.value.code == 552
    assert await mail.relay.nothing_to(ALICE)
