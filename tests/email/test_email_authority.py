"""Authority for every word, over real SMTP on loopback: a command without a key is asked
back of the sender's address, so a forged From only mails the real owner a question; `stop`
can be undone by its owner; private games are seen only by their players and the holders
of their watch link; a refused challenge leaves no player; a second address is linked only
from that address; addresses stay out of the log at INFO."""

from __future__ import annotations

import io
import logging
from dataclasses import replace

import pytest

from bot import redact
from bot.email_gateway.gateway import LOOP_LIMIT
from bot.email_gateway.inbound import ADDRESS_TAG

from .conftest import asked

ALICE = "alice@players.test"
BOB = "bob@players.test"
CAROL = "carol@players.test"
MALLORY = "mallory@elsewhere.test"
PHONE = "alice@phone.test"
OURS = "play@games.test"
LISTING = ("Your games and challenges (to act in one, reply to its latest mail, or send "
           "`board #N` for a fresh mail of game N):\r\n")
STOPPED = ("Done: this is the last mail you get from me. Nobody can challenge this address any "
           "more, and no news of games will be mailed to it. Write `start` to me if you change "
           "your mind.\r\n")


async def _legal(mail, game_id: int = 1) -> str:
    return (await mail.service.legal_moves(await mail.service.game(game_id)))[0]


async def _addresses(mail) -> set[str]:
    async with mail.service.db.snapshot() as s:
        return {str(r["address"]) for r in await s.all("SELECT address FROM players")}


async def _move(mail, who: str, reply_to) -> tuple:
    """``who`` plays a legal move in reply to ``reply_to``: their answer, the other's news."""
    other = BOB if who == ALICE else ALICE
    await mail.post.send(who, f"move {await _legal(mail)}", reply_to=reply_to)
    return await mail.relay.next_to(who), await mail.relay.next_to(other)


async def test_a_forged_stop_only_asks_the_owner_who_can_undo_a_real_one(mail, game):
    _, news = await _move(mail, ALICE, game[ALICE])
    await mail.post.send(f"Alice <{ALICE}>", "stop")  # forged: no key
    asking = await mail.relay.next_to(ALICE)  # to the real Alice
    assert mail.text_of(asking) == await asked(mail, ALICE, "`stop`")
    assert ADDRESS_TAG.search(str(asking["Reply-To"]))[4]  # a confirmation key
    assert (await mail.service.mail.mail_address(ALICE))["stopped_at"] is None
    _, your_move = await _move(mail, BOB, news)  # her your-move mail still comes
    assert "Your move." in mail.text_of(your_move)
    assert not (await mail.service.game(1)).is_over

    _, news = await _move(mail, ALICE, your_move)
    await mail.post.send(ALICE, "yes", reply_to=asking)  # the real Alice confirms
    assert mail.text_of(await mail.relay.next_to(ALICE)) == (
        STOPPED + "\r\n" + LISTING + "  Game #1: Alice vs bob (Clash of Command), bob to move\r\n")
    assert (await mail.service.mail.mail_address(ALICE))["stopped_at"] is not None
    await _move_quietly(mail, news)
    assert await mail.relay.nothing_to(ALICE)  # stopped: no news

    await mail.post.send(f"Alice <{ALICE}>", "board #1")  # looking: answered, with her key
    board = await mail.relay.next_to(ALICE)
    await mail.post.send(ALICE, "board", reply_to=board)
    text = mail.text_of(await mail.relay.next_to(ALICE))
    assert ("(You had said `stop`; as you wrote to me with your key, you get mail from me "
            "again. `stop` ends it again.)") in text
    assert (await mail.service.mail.mail_address(ALICE))["stopped_at"] is None


async def _move_quietly(mail, news) -> None:
    """Bob moves in reply to ``news``; his own answer is read."""
    await mail.post.send(BOB, f"move {await _legal(mail)}", reply_to=news)
    await mail.relay.next_to(BOB)


async def test_start_undoes_stop_once_confirmed(mail, game):
    await mail.post.send(ALICE, "stop", reply_to=game[ALICE])  # with her key: at once
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(STOPPED)
    answer = await mail.confirmed(f"Alice <{ALICE}>", "start")
    assert mail.text_of(answer).startswith(
        "Welcome back: this address gets mail from me again (news of your games, and "
        "challenges).")
    assert (await mail.service.mail.mail_address(ALICE))["stopped_at"] is None


async def test_resign_2_in_reply_to_game_1_resigns_nothing_and_asks_nothing(mail, game):
    await mail.post.send(ALICE, "resign #2", reply_to=game[ALICE])
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        "Not carried out: your mail carries the key of game #1, not of game #2")
    assert not (await mail.service.game(1)).is_over


async def test_a_strangers_looks_at_a_private_game_reveal_nothing(mail, game):
    mail.gateway.settings = replace(mail.gateway.settings, email_rate_limit=50)
    for word in ("export", "watch", "board", "moves"):
        for number in (1, 9):  # a private game reads like one that does not exist
            await mail.post.send(f"Mallory <{MALLORY}>", f"{word} #{number}")
            answer = await mail.relay.next_to(MALLORY)
            assert mail.text_of(answer) == f"There is no game #{number}.\r\n", word
            assert str(answer["Reply-To"]) == OURS
    await mail.post.send(f"Carol <{CAROL}>", "watch #1")  # a forged watch for Carol
    assert mail.text_of(await mail.relay.next_to(CAROL)) == "There is no game #1.\r\n"
    await mail.post.send(f"Mallory <{MALLORY}>", f"watch 1-{'0' * 24}")  # a wrong link
    assert mail.text_of(await mail.relay.next_to(MALLORY)) == "There is no game #1.\r\n"
    assert await mail.service.rooms.watchers(1) == []
    assert MALLORY not in await _addresses(mail) and CAROL not in await _addresses(mail)

    link = f"https://games.test/game/1-{await mail.service.watching.watch_token(1)}"
    await mail.post.send(f"Carol <{CAROL}>", f"watch {link}")
    asking = await mail.relay.next_to(CAROL)
    assert mail.text_of(asking) == await asked(mail, CAROL, "`watch 1-…`")
    assert link not in mail.text_of(asking)  # the link's secret is not repeated
    await mail.post.send(CAROL, "yes", reply_to=asking)
    watching = await mail.relay.next_to(CAROL)
    assert mail.text_of(watching).startswith("You are watching game #1.")
    assert [w.address for w in await mail.service.rooms.watchers(1)] == [CAROL]
    await mail.post.send(CAROL, "export #1")  # a watcher may look
    record = mail.text_of(await mail.relay.next_to(CAROL))
    assert record.startswith('[Event "') and '\n[Variant "clash"]' in record


async def test_a_refused_or_unconfirmed_challenge_creates_no_player(mail, game):
    before = await _addresses(mail)
    await mail.post.send(f"Mallory <{MALLORY}>", "challenge dave@players.test")
    asking = await mail.relay.next_to(MALLORY)  # asked, and never confirmed
    assert mail.text_of(asking) == await asked(mail, MALLORY, "`challenge dave@players.test`")
    assert await mail.relay.nothing_to("dave@players.test")
    await mail.post.send(ALICE, "challenge dave@players.test sideways", reply_to=game[ALICE])
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        "I do not understand 'sideways'.")
    assert await _addresses(mail) == before
    assert await mail.service.challenges.pending() == []


async def test_a_second_address_is_linked_only_from_that_address(mail, game):
    await mail.post.send(ALICE, f"link {PHONE}", reply_to=game[ALICE])
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        f"I have mailed {PHONE} to confirm: once a reply to that mail comes from it, mail from "
        f"{PHONE} acts as you. Nothing changes until then.")
    request = await mail.relay.next_to(PHONE)
    text = mail.text_of(request)
    assert text.startswith(f"Alice <{ALICE}> asks to use this address ({PHONE}) for their "
                           f"games at {OURS}: mail from it would act as them. To agree, reply "
                           f"`yes` to this mail. If you did not ask for this, ignore "
                           f"this mail: nothing changes, and I will not mail you unasked "
                           f"again. This request expires ")
    assert str(request["Subject"]) == "Please confirm: link this address"
    # someone else cannot answer it: the key is the phone's alone
    forged = ADDRESS_TAG.search(str(request["Reply-To"]))[0][1:-1].rsplit(".", 1)[0]
    await mail.post.send(MALLORY, "yes", to=f"play+{forged}.{'0' * 20}@games.test")
    assert mail.text_of(await mail.relay.next_to(MALLORY)).startswith("Wrong key: ")
    await mail.post.send(MALLORY, "yes", reply_to=request)  # Mallory From, the right key
    assert mail.text_of(await mail.relay.next_to(MALLORY)).startswith("Wrong key: ")
    assert await mail.service.tokens.linked_player(PHONE) is None

    await mail.post.send(PHONE, "yes", reply_to=request)
    assert mail.text_of(await mail.relay.next_to(PHONE)) == (
        f"Linked: mail from {PHONE} now acts as Alice. Your keys still come with each mail: "
        f"reply to the latest mail of a game to play in it, from either address.\r\n")
    told = await mail.relay.next_to(ALICE)  # her own address hears of it
    assert mail.text_of(told) == (
        f"{PHONE} is linked to you now: mail from it acts as you in your games here. If you "
        f"did not ask for this, send `unlink {PHONE}` from this address.\r\n")
    move = await _legal(mail)
    await mail.post.send(PHONE, f"move {move}", reply_to=game[ALICE])  # her key, her phone
    played = await mail.relay.next_to(PHONE)  # answered where the mail came from
    assert mail.text_of(played).startswith(f"1. {move} played in game #1.")
    await mail.relay.next_to(BOB)
    await mail.post.send(PHONE, "resign")  # no key: asked back of the phone
    assert mail.text_of(await mail.relay.next_to(PHONE)) == await asked(
        mail, PHONE, "`resign` (game #1)")
    # unlinking: with her key now (or confirmed), from either address
    await mail.post.send(ALICE, "unlink", reply_to=played)
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        "Which address? Write it after the word, as in `unlink alice@work.example.org`.")
    await mail.post.send(ALICE, "unlink bob@players.test", reply_to=played)
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        "bob@players.test is not linked to you: nothing changed.")
    await mail.post.send(PHONE, f"unlink {PHONE.upper()}", reply_to=played)
    # the phone is no longer hers when the answer goes: it goes to her own address
    assert await mail.relay.nothing_to(PHONE)
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        f"Unlinked: mail from {PHONE} no longer acts as you; your games stay as they are.")
    assert await mail.service.tokens.linked_player(PHONE) is None


async def test_a_stranger_cannot_link_a_players_address(mail, game):
    mail.gateway.settings = replace(mail.gateway.settings, email_rate_limit=50)
    answer = await mail.confirmed(f"Mallory <{MALLORY}>", f"link {ALICE}")
    assert mail.text_of(answer) == (f"{ALICE} is a player's address already, so it cannot be "
                                    f"linked to you.\r\n")
    await mail.confirmed(f"Mallory <{MALLORY}>", "link victim@players.test")
    request = await mail.relay.next_to("victim@players.test")  # asked; Mallory cannot answer
    assert "Mallory <mallory@elsewhere.test> asks to use this address" in mail.text_of(request)
    assert await mail.service.tokens.linked_player("victim@players.test") is None
    again = await mail.confirmed(f"Mallory <{MALLORY}>", "link victim@players.test")
    assert mail.text_of(again) == (
        "victim@players.test has never written to this service and was mailed unasked once "
        "already; I mail an address unasked only once. Write `help` to me from it first.\r\n")
    assert await mail.relay.nothing_to("victim@players.test")  # mailed unasked only once


async def test_no_address_reaches_the_log_at_info(mail, game):
    log = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    handler = redact.configure("INFO", stream=log)
    try:
        await mail.post.send(f"Carol <{CAROL}>", "help")
        await mail.relay.next_to(CAROL)
        await _move(mail, ALICE, game[ALICE])
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])
        handler.close()
    text = log.getvalue()
    assert "…@players.test" in text
    assert not [a for a in (ALICE, BOB, CAROL, "alice@", "carol@") if a in text]


async def test_a_confirmation_answered_no_in_a_sentence_carries_nothing_out(mail, game):
    await mail.post.send(ALICE, "stop")  # forged: no key
    request = await mail.relay.next_to(ALICE)
    await mail.post.send(ALICE, "No! I did not send this, please do not stop anything.",
                         reply_to=request)
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        "As you asked, I did not carry it out: nothing was changed.")
    assert (await mail.service.mail.mail_address(ALICE))["stopped_at"] is None


UNCLEAR = ("I did not carry out `resign` (game #1): your reply is not a plain `yes`. To "
           "confirm, reply with just `yes`; if you did not ask for it, reply `no` or ignore "
           "this mail: nothing changes.\r\n")


@pytest.mark.parametrize("answer", [
    "Thanks for your mail, I will answer soon.",  # an auto-responder without any marker
    "Who are you? I never wrote this.",
    "?",
    "Ich bin bis 7.12. nicht im Büro.",
    "Danke, ich melde mich.",
    "resign",  # the command itself is no consent either: only a yes is
    # auto-replies that start with a yes-like word
    "Yes, I received your message and will reply when I am back.",
    "OK - your message has been received and will be answered.",
    "Có việc bận, tôi sẽ trả lời sau.",
    # questions and refusals that start with one
    "Okay?? who is this", "Ok? Who are you? I never wrote this.", "Yes?",
    "Yes I did NOT send this, stop it.", "Yeah right, nice try.",
    "Sure... not. I never wrote this.", "Si no fui yo, no lo hagas.", "Sí?? ¿quién eres?",
    "Si, pero no. No lo envié yo.", "Ja? Wer sind Sie? Das habe ich nicht geschrieben.",
    "Ja, nein! Das war ich nicht.", "Jawohl nicht, das war ich nie.",
    "Oui ? Qui êtes-vous ? Je n'ai jamais écrit ça.", "Oui, mais non : ce n'était pas moi.",
    "Ouais, c'est ça, bien essayé.", "Có phải bạn không? Tôi không gửi thư này.",
    "Có ai đó đã giả mạo thư của tôi.", "YES — wait, no.",
    # a yes alone on its line, and more said below it: an auto-reply, or a refusal
    "OK\n\nYour message has been received. This mailbox is not monitored.",
    "Yes\nI am out of the office until Monday.", "Ja\n\nIch bin bis 5.12. im Urlaub.",
    "Có\nTôi đang đi vắng.", "yes\nWho is this? I never sent that.",
    "Yes\n\nWait, no. I did not send this. Who are you?", "yes\nnot me!", "yes\nno",
    "Yes\nIch war das nicht.", "Oui\nCe n'est pas moi.", "Sí\nNo fui yo.",
    "Có\nKhông phải tôi.", "Hi,\n\nyes\nWho is this?",
    # a yes with a refusal below a signature or between quotes
    "yes\n-- \nI never sent this mail.", "yes\n--\nwho is this?",
    "yes\n\nThanks,\nAlice\n--\nwho are you?", "yes\n\nSent from my iPhone\nI never sent that",
    "Yes\n\nVon meinem iPhone gesendet\n\nDas war ich nicht!",
    "yes\n> Please confirm\nNot me.", "yes\n\n> Please confirm\n\nwho are you?",
    "yes" + "\n" * 3000 + "who is this?",
])
async def test_only_a_yes_confirms_a_forged_command(mail, game, answer):
    """Mallory forges `resign` From Bob; Bob (or his auto-responder) answers the request
    with anything but a yes: nothing is carried out, he is told how to confirm, and the
    request stays open under the same reply address."""
    await mail.post.send(f"Bob <{BOB}>", "resign")  # forged: no key
    request = await mail.relay.next_to(BOB)
    assert mail.text_of(request) == await asked(mail, BOB, "`resign` (game #1)")
    await mail.post.send(f"Bob <{BOB}>", answer, reply_to=request)
    told = await mail.relay.next_to(BOB)
    assert mail.text_of(told) == UNCLEAR
    assert str(told["Reply-To"]) == str(request["Reply-To"])
    assert not (await mail.service.game(1)).is_over
    assert await mail.relay.nothing_to(ALICE)


@pytest.mark.parametrize("answer", [
    "yes", "Yes, that was me.", "OK", "Ja, das war ich", "Oui", "Có", "Đồng ý", "Vâng ạ",
    "Yes, please do.", "Oui, c'est moi.", "Có, đúng là tôi.",
    # greetings, sign-offs and a name around the yes
    "Hi,\n\nyes\n\nThanks,\nAlice", "Hallo,\n\nja\n\nViele Grüße\nAnna",
    "Bonjour,\n\noui\n\nCordialement,\nMarie", "Chào bạn,\n\ncó\n\nCảm ơn,\nHoa",
    # the request quoted below, as mail programs quote it (its words of refusal are ours)
    "yes\n\nOn Tue, 24 Nov 2026, commandpost wrote:\n> Please confirm: I have not carried "
    "it out\n> If you did not send it, ignore this mail",
    "yes\n\n________________________________\nFrom: commandpost <play@games.test>\nSent: "
    "Tuesday, 24 November 2026 09:58\nTo: bob@players.test\nSubject: Please confirm\n\n"
    "Please confirm: a mail from bob@players.test asked me for `resign` (game #1), but it\n"
    "carries no key of yours, so I have not carried it out yet. Who knows?",
])
async def test_a_yes_in_any_of_our_players_languages_confirms(mail, game, answer):
    await mail.post.send(f"Bob <{BOB}>", "resign")
    request = await mail.relay.next_to(BOB)
    await mail.post.send(f"Bob <{BOB}>", answer, reply_to=request)
    assert mail.text_of(await mail.relay.next_to(BOB)).startswith("You resigned game #1")
    assert (await mail.service.game(1)).is_over


async def test_an_auto_responder_never_confirms_and_is_silenced(mail, game):
    """A forged `link` From Carol's address, whose auto-responder answers every mail
    without any marker: it never confirms, and after the loop limit it is not answered."""
    await mail.post.send(f"Carol <{CAROL}>", f"link {MALLORY}")
    answered = 0
    while True:  # the responder answers every mail it gets
        try:
            to_carol = await mail.relay.next_to(CAROL, 1.0)
        except TimeoutError:
            break
        answered += 1
        assert answered <= LOOP_LIMIT + 2, mail.text_of(to_carol)
        await mail.post.send(f"Carol <{CAROL}>", "Thanks for your mail, I will answer soon.",
                             reply_to=to_carol)
    assert answered == LOOP_LIMIT + 2  # the request, then answers up to the loop's notice
    assert await mail.relay.nothing_to(MALLORY)  # never asked: nothing was confirmed
    assert await mail.service.tokens.linked_player(MALLORY) is None


async def test_an_auto_reply_to_the_last_mail_after_stop_does_not_undo_it(mail, game):
    """Alice says `stop` with her key; her auto-responder answers that last mail (with its
    key, no command): she stays stopped, and gets nothing more."""
    await mail.post.send(ALICE, "stop", reply_to=game[ALICE])
    done = await mail.relay.next_to(ALICE)
    assert mail.text_of(done).startswith(STOPPED)
    await mail.post.send(ALICE, "Thanks for your mail, I will answer soon.", reply_to=done)
    assert (await mail.service.mail.mail_address(ALICE))["stopped_at"] is not None
