"""One thread, one picture: the subject of a game never changes (not after a player is
renamed), the mail attaches the very picture the Discord bot posts, a watcher's copy is
worded for a watcher, `board` says its first line once, the record names the service's
address as its Site, and an over-size mail is answered by us, not bounced."""

from __future__ import annotations

from email import policy

from bot.discord_bot import pictures as discord_pictures
from bot.email_gateway.gamemail import game_subject

from .conftest import OURS

ALICE = "alice@players.test"
BOB = "bob@players.test"
CAROL = "carol@players.test"


async def test_the_subject_of_a_game_stays_after_a_rename(mail, game):
    subject = str(game[ALICE]["Subject"])
    assert subject == "Game #1: Alice vs bob — Clash of Command"
    await mail.service.player("email", ALICE, "Zed")  # Alice is renamed
    renamed = await mail.service.game(1)
    assert game_subject(renamed).startswith("Game #1: Zed vs bob")  # as it would say now
    await mail.post.send(f"Alice <{ALICE}>", "board", reply_to=game[ALICE])
    assert str((await mail.relay.next_to(ALICE))["Subject"]) == subject


async def test_the_mail_picture_is_the_discord_picture(mail, game):
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
    to_alice = await mail.relay.next_to(ALICE)
    to_bob = await mail.relay.next_to(BOB)
    now = await mail.service.game(1)
    for mailed, side in ((to_alice, 0), (to_bob, 1)):
        posted = await discord_pictures.picture(mail.service, now, perspective=side)
        assert posted is not None
        assert mail.png_of(mailed) == posted.fp.read()
    assert mail.png_of(to_alice) != mail.png_of(to_bob)  # each from their own side


async def test_a_watchers_copy_of_a_resignation_is_worded_for_a_watcher(mail, game):
    # a private game: watched by its watch link, which Carol confirms
    await mail.confirmed(f"Carol <{CAROL}>",
                         f"watch 1-{await mail.service.watching.watch_token(1)}")
    await mail.post.send(f"Alice <{ALICE}>", "resign", reply_to=game[ALICE])
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith("You resigned game #1")
    copy = mail.text_of(await mail.relay.next_to(CAROL))
    assert copy.splitlines()[0] == ("Game #1 is over: bob (Black) wins: Alice resigned (0-1).")
    assert "You resigned" not in copy


async def test_board_by_mail_says_its_first_line_once(mail, game):
    await mail.post.send(f"Alice <{ALICE}>", "board", reply_to=game[ALICE])
    text = mail.text_of(await mail.relay.next_to(ALICE)).replace("\r\n", "\n")
    first = mail.gateway.commands.describe(await mail.service.game(1))
    assert text.startswith(f"Here is game #1 as it stands.\n\n{first}\n")
    assert text.count(first) == 1


async def test_the_record_names_the_services_address_as_its_site(mail, game):
    await mail.post.send(f"Alice <{ALICE}>", "export", reply_to=game[ALICE])
    text = mail.text_of(await mail.relay.next_to(ALICE))
    assert f'[Site "commandpost <{OURS}>"]' in text
    assert "email:mail" not in text


async def test_an_over_size_mail_is_answered_by_us(mail):
    limit = mail.settings.email_max_bytes
    await mail.post.send(f"Bob <{BOB}>", "help\n\n" + "x" * 76 * (9 * limit // 76))
    # 9 times the limit: over the old 8 times, under `server.OVERSIZE_FLOOR`
    text = mail.text_of(await mail.relay.next_to(BOB))
    size = len(mail.post.sent[-1].as_bytes(policy=policy.SMTP)) // 1024
    assert text.startswith(f"Your mail is {size} KiB, more than the {limit // 1024} KiB I "
                           f"accept, so I did not read it. Please reply without attachments "
                           f"or quoted pictures, with just your command.")
