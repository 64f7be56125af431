"""Keys, not From, carry authority; every answer can be answered: each problem a player met
by mail, as a test over real SMTP on loopback with replies written the way Thunderbird and
Gmail write them."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.email_gateway.gamemail import example_move
from bot.email_gateway.inbound import ADDRESS_TAG
from bot.service.rules_docs import as_plain_text, rules_part
from engine import get_variant

from .conftest import asked, gmail_reply, thunderbird_reply

ALICE = "alice@players.test"
BOB = "bob@players.test"
OURS = "play@games.test"


async def _legal(mail, game_id: int = 1) -> str:
    return (await mail.service.legal_moves(await mail.service.game(game_id)))[0]


async def _names(service) -> dict[str, str]:
    async with service.db.snapshot() as s:
        rows = await s.all("SELECT address, display_name FROM players ORDER BY id")
    return {r["address"]: r["display_name"] for r in rows}


def _key(mail_message) -> str:
    found = ADDRESS_TAG.search(str(mail_message["Reply-To"]))
    assert found, mail_message["Reply-To"]
    return found[0][1:-1]


async def test_a_refusal_keeps_the_key_and_the_thread(mail, game):
    """'Not your turn' comes back with Bob's key and in the game's thread."""
    move = await _legal(mail)
    await mail.post.send(f"Bob <{BOB}>", f"move {move}", reply_to=game[BOB])
    answer = await mail.relay.next_to(BOB)
    bob_token = await mail.service.tokens.game_token(1, 2)
    assert str(answer["Reply-To"]) == f"play+1.0.{bob_token}@games.test"
    assert answer["Subject"] == "Game #1: Alice vs bob — Clash of Command"
    assert answer["In-Reply-To"] == mail.post.sent[-1]["Message-ID"]
    assert await mail.gateway.game_root(1) in answer["References"]
    assert mail.text_of(answer).startswith("It is not your turn in game #1")
    assert (await mail.service.game(1)).ply == 0


async def test_a_command_without_a_key_is_asked_back_of_the_address(mail, game):
    """No going round in circles: the question carries a one-time key, so replying to it
    carries the command out."""
    move = await _legal(mail)
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}")  # a new mail, not a reply
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer) == await asked(mail, ALICE, f"`move {move}` (game #1)")
    assert re.fullmatch(r"play\+ok\d+\.[0-9a-f]{20}@games\.test", str(answer["Reply-To"]))
    assert (await mail.service.game(1)).ply == 0
    await mail.post.send(f"Alice <{ALICE}>", "yes", reply_to=answer)
    played = mail.text_of(await mail.relay.next_to(ALICE))
    assert played.split(" ", 1)[1].startswith(f"{move} played in game #1")  # after "1. "
    await mail.post.send(f"Alice <{ALICE}>", "yes", reply_to=answer)  # once only
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        "This confirmation was used already: what it asked about was carried out once, and "
        "is not again.")
    assert (await mail.service.game(1)).ply == 1


async def test_a_forged_accept_starts_no_game(mail):
    """A forged `accept #1` from Bob's address is answered to Bob, with the key to confirm."""
    await mail.confirmed(f"Alice <{ALICE}>", "challenge bob@players.test")
    offer = await mail.relay.next_to(BOB)
    await mail.post.send(f"Bob <{BOB}>", "accept #1")  # From alone: anyone can write it
    answer = await mail.relay.next_to(BOB)
    assert mail.text_of(answer).startswith(
        "To accept challenge #1, reply to this mail with `accept` on the first line: its reply "
        "address carries your key for the challenge, which is how I know that the mail comes "
        "from you. Nothing was changed yet.")
    assert await mail.service.game(1) is None
    assert (await mail.service.challenges.pending())[0].status == "open"
    assert _key(answer) == _key(offer)  # the same key Bob got with the challenge
    await mail.post.send(f"Bob <{BOB}>", "accept", reply_to=answer)
    started = await mail.relay.next_to(BOB)
    assert mail.text_of(started).startswith("Challenge #1 accepted. Game #1 started")


async def test_another_players_key_does_nothing(mail, game):
    await mail.post.send(f"Bob <{BOB}>", "resign", reply_to=game[ALICE])
    answer = await mail.relay.next_to(BOB)
    assert mail.text_of(answer).startswith(
        f"Wrong sender: the key of this mail was sent to another address than {BOB}, so I "
        f"did not carry out your command.")
    assert _key(answer).endswith(await mail.service.tokens.game_token(1, 2))  # Bob's own key
    assert not (await mail.service.game(1)).is_over


async def test_a_name_changes_only_by_the_name_command_with_a_key_or_confirmed(mail, game):
    await mail.post.send(f"Alice the Cheater <{ALICE}>", "board", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    await mail.post.send(f"Alice <{ALICE}>", "name Alice Liddell")  # no key
    asking = await mail.relay.next_to(ALICE)
    assert mail.text_of(asking) == await asked(mail, ALICE, "`name Alice Liddell`")
    assert (await _names(mail.service))[ALICE] == "Alice"
    await mail.post.send(f"Alice <{ALICE}>", "no", reply_to=asking)
    assert mail.text_of(await mail.relay.next_to(ALICE)) == (
        "As you asked, I did not carry it out: nothing was changed.\r\n\r\n"
        "Your games and challenges (to act in one, reply to its latest mail, or send `board "
        "#N` for a fresh mail of game N):\r\n"
        "  Game #1: Alice vs bob (Clash of Command), your move\r\n")
    assert (await _names(mail.service))[ALICE] == "Alice"
    await mail.post.send(f"Alice <{ALICE}>", "name Alice Liddell", reply_to=game[ALICE])
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer).startswith("Your name is Alice Liddell now.")
    assert (await _names(mail.service))[ALICE] == "Alice Liddell"


async def test_a_name_by_mail_is_refused_with_the_reason_that_fits(mail, game):
    await mail.post.send(f"Alice <{ALICE}>", "name Eve<b>", reply_to=game[ALICE])
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith(
        "'Eve<b>' is not a name: a name holds only letters, digits, spaces and . ' - _, "
        "not '<' or '>'.\r\n"), answer
    await mail.post.send(f"Alice <{ALICE}>", "name Ram राम", reply_to=game[ALICE])
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith(
        "'Ram राम' cannot be a name here: the board pictures have no letter 'र' or 'म'. "
        "Write the name in another script (Latin letters, say).\r\n"), answer
    assert (await _names(mail.service))[ALICE] == "Alice"
    await mail.post.send(f"Alice <{ALICE}>", "name 张伟", reply_to=game[ALICE])
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith("Your name is 张伟 now.")
    assert (await _names(mail.service))[ALICE] == "张伟"


@pytest.mark.parametrize(("text", "start"), [
    ("Help!", "help: "),
    ("Hello, I would like to play a game.", "I found no command in your mail."),
    ("\u201erules clash\u201c", "rules"),
    ("Thanks for the game, Bob!", "I found no command in your mail."),
])
async def test_an_unknown_first_line_is_not_read_as_a_move(mail, text, start):
    await mail.post.send("Carol <carol@players.test>", text)
    answer = mail.text_of(await mail.relay.next_to("carol@players.test"))
    if start == "help: ":
        assert answer.startswith("Commands (`help WORD` for examples)")
    elif start == "rules":  # the rules document, as `rules clash` shows it everywhere
        shown = as_plain_text(rules_part(get_variant("clash"), "").markdown)
        assert answer.splitlines()[0] == shown.splitlines()[0]
    else:
        assert answer.startswith(start)
    assert "`move` changes a game" not in answer


async def test_an_unreadable_reply_gets_the_help_of_its_state(mail, game):
    await mail.post.send(f"Alice <{ALICE}>", "Hello Bob, nice to meet you!", reply_to=game[ALICE])
    answer = await mail.relay.next_to(ALICE)
    text = mail.text_of(answer)
    assert text.startswith("I found no command in your mail. Write it on the first line, above "
                           "any quoted text; what you may send is below.")
    assert "Your move. Reply to this mail with your move on the first line" in text
    assert "+1.0." in str(answer["Reply-To"])


async def test_greetings_and_signatures_around_a_move_from_thunderbird(mail, game):
    move = await _legal(mail)
    dashed = move.replace("-", "\u2013")  # as a word processor types it
    raw = thunderbird_reply(f"Alice <{ALICE}>", game[ALICE],
                            f"Hi Bob,\n\n{dashed}\n\nCheers,\nAlice")
    await mail.post.send(ALICE, raw=raw, to=str(game[ALICE]["Reply-To"]))
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith(f"1. {move} played in game #1. bob (Black) is to move.\r\n\r\n")
    assert [m.text for m in await mail.service.played_moves(1)] == [move]


async def test_a_gmail_reply_html_first_with_a_quote_below(mail, game):
    move = await _legal(mail)
    raw = gmail_reply(f"Alice <{ALICE}>", game[ALICE], f"move\u00a0{move}")
    await mail.post.send(ALICE, raw=raw, to=str(game[ALICE]["Reply-To"]))
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith(f"1. {move} played in game #1.")


async def test_a_latin_1_reply_is_read(mail, game):
    raw = thunderbird_reply(f"Al\u00efce <{ALICE}>", game[ALICE], "Bonjour, \u00e7a va?\nboard",
                            charset="iso-8859-1")
    await mail.post.send(ALICE, raw=raw, to=str(game[ALICE]["Reply-To"]))
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith("Here is game #1 as it stands.\r\n\r\nGame #1: Alice (White) vs "
                             "bob (Black), Clash of Command")


async def test_one_subject_per_game_and_a_threaded_chain(mail, game):
    subjects, latest = set(), game
    for mover, other in ((ALICE, BOB), (BOB, ALICE), (ALICE, BOB)):
        await mail.post.send(mover, f"move {await _legal(mail)}", reply_to=latest[mover])
        answer = await mail.relay.next_to(mover)
        news = await mail.relay.next_to(other)
        assert answer["In-Reply-To"] == mail.post.sent[-1]["Message-ID"]
        assert mail.post.sent[-1]["Message-ID"] in answer["References"]
        subjects |= {answer["Subject"], news["Subject"]}
        latest = {mover: answer, other: news}
    assert subjects == {"Game #1: Alice vs bob — Clash of Command"}
    assert re.search(r"[0-9a-f]{20}", str(subjects)) is None


async def test_the_text_board_whose_turn_the_last_turn_and_the_line_to_send(mail, game):
    move = await _legal(mail)
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    news = mail.text_of(await mail.relay.next_to(BOB))
    assert f"Last turn: Alice (White): 1. {move}." in news  # numbered as in the record
    assert "\r\n9  b     c     c     c     c\r\n" in news  # the console's text board
    assert "Black to move, move 1." in news
    example = await _legal(mail)
    # Clash of Command has no draws by agreement: no `draw` is offered
    assert f"Your move. Reply to this mail with your move on the first line, for example " \
           f"`move {example}` (or `moves` for the legal moves, `board`, `resign`, " \
           f"`takeback`, `help`).\r\n" in news
    assert "play+" not in news and "+1.1." not in news  # the key is in Reply-To alone
    assert news.index("Last turn") < news.index("9  b")  # all above the picture


async def test_an_html_only_reply_and_a_move_after_the_end_keep_the_key(mail, game):
    await mail.post.send(f"Alice <{ALICE}>", html="<p>moves</p>", reply_to=game[ALICE])
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer).startswith("13 pieces can move in game #1")
    assert "+1.0." in str(answer["Reply-To"]) and answer["Subject"].startswith("Game #1: ")
    await mail.post.send(f"Bob <{BOB}>", "resign", reply_to=game[BOB])
    await mail.relay.next_to(BOB)
    over = await mail.relay.next_to(ALICE)
    await mail.post.send(f"Alice <{ALICE}>", "move a1-a3/B", reply_to=over)
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer).startswith("Game #1 is over: Alice (White) wins: bob resigned")
    assert "+1.0." in str(answer["Reply-To"])


async def test_a_game_command_from_someone_with_nothing_in_progress(mail):
    await mail.post.send("Carol <carol@players.test>", "move c3-d4")
    answer = await mail.relay.next_to("carol@players.test")
    assert mail.text_of(answer) == (
        "You have no game or challenge in progress, so there is nothing for `move` to change. "
        "Write `help` for the commands, or `challenge ADDRESS` to start a game.\r\n")
    assert str(answer["Reply-To"]) == OURS


@pytest.mark.parametrize(("results", "answered"), [
    ("mx.games.test; dkim=pass header.d=players.test; spf=fail", True),
    ("mx.games.test; dmarc=pass header.from=players.test", True),
    ("mx.games.test; dkim=pass header.d=evilplayers.test; spf=fail", False),
    ("other.test; dmarc=pass header.from=players.test", False),
])
async def test_a_trusted_front_server_must_have_verified_the_sender(mail, results, answered):
    mail.gateway.settings = replace(mail.gateway.settings,
                                    email_trust_auth_results="mx.games.test")
    await mail.post.send("Carol <carol@players.test>", "help",
                         headers={"Authentication-Results": results})
    assert (await mail.relay.nothing_to("carol@players.test")) is not answered


async def test_a_forward_to_the_plain_address_acts_on_no_key_in_its_text(mail, game):
    """A mail program that ignores Reply-To, or a forward: the quoted game mail's text holds
    no key, and a key written in a text or subject is never read."""
    move = await _legal(mail)
    key = _key(game[ALICE])
    raw = thunderbird_reply(f"Alice <{ALICE}>", game[ALICE],
                            f"move {move}\n\nplay+{key}@games.test",
                            subject=f"Fwd: [{key}] Game #1")
    raw = raw.replace(str(game[ALICE]["Reply-To"]).encode(), OURS.encode(), 1)  # To: only
    await mail.post.send(ALICE, raw=raw, to=OURS)
    answer = mail.text_of(await mail.relay.next_to(ALICE))  # asked of Alice herself
    assert answer == await asked(mail, ALICE, f"`move {move}` (game #1)")
    assert (await mail.service.game(1)).ply == 0


async def test_a_forged_mail_with_an_old_key_does_not_resign(mail, game):
    """The forward-and-forge attack: Alice's game mail of move 0, forwarded to someone who
    writes From her address to its key once the game has moved on: refused as stale."""
    old_key = _key(game[ALICE])
    await mail.post.send(f"Alice <{ALICE}>", f"move {await _legal(mail)}", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    news = await mail.relay.next_to(BOB)
    await mail.post.send(f"Bob <{BOB}>", f"move {await _legal(mail)}", reply_to=news)
    await mail.relay.next_to(BOB)
    await mail.relay.next_to(ALICE)
    token = old_key.split(".")[2]
    await mail.post.send(f"Alice <{ALICE}>", "resign", to=f"play+1.2.{token}@games.test")
    answer = mail.text_of(await mail.relay.next_to(ALICE))  # to Alice: the forger sees nothing
    assert answer.startswith("Wrong key: the key in the address you wrote to does not belong "
                             "to game #1, so I did not carry out your command.")
    await mail.post.send(f"Alice <{ALICE}>", "resign", to=f"play+{old_key}@games.test")
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith("Not carried out: your mail answers an earlier position of game "
                             "#1, and 2 moves have been played since it, so the position may "
                             "not be the one you saw. Here it is as it stands: reply to this "
                             "mail with your command.")
    game_now = await mail.service.game(1)
    assert not game_now.is_over and game_now.ply == 2


async def test_a_stale_key_is_refused_for_every_keyed_command(mail, game):
    await mail.post.send(f"Alice <{ALICE}>", f"move {await _legal(mail)}", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    await mail.relay.next_to(BOB)
    await mail.post.send(f"Alice <{ALICE}>", "resign", reply_to=game[ALICE])  # the old mail
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer).startswith("Not carried out: your mail answers an earlier "
                                           "position of game #1, and a move has been played "
                                           "since it")
    assert str(answer["Reply-To"]).startswith("play+1.1.")  # a fresh key, to Alice alone
    assert not (await mail.service.game(1)).is_over
    await mail.post.send(f"Alice <{ALICE}>", "resign", reply_to=answer)
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith("You resigned game #1")


async def test_an_explicit_number_is_obeyed_only_with_its_own_key(mail, game):
    """`resign #2` in reply to game #1's mail resigns neither game."""
    await mail.confirmed(f"Alice <{ALICE}>", "challenge carol@players.test")
    offer = await mail.relay.next_to("carol@players.test")
    await mail.post.send("Carol <carol@players.test>", "accept", reply_to=offer)
    await mail.relay.next_to("carol@players.test")
    await mail.relay.next_to(ALICE)
    await mail.post.send(f"Alice <{ALICE}>", "resign #2", reply_to=game[ALICE])
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer).startswith(
        "Not carried out: your mail carries the key of game #1, not of game #2, so I did not "
        "`resign` either. To `resign` game #2, reply to the latest mail of game #2 (or send "
        "`board #2` for a fresh one).")
    assert not (await mail.service.game(1)).is_over
    assert not (await mail.service.game(2)).is_over
    await mail.post.send(f"Alice <{ALICE}>", "resign #1", reply_to=game[ALICE])
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith("You resigned game #1")


async def test_whoever_answers_a_forwarded_game_mail_gets_no_key(mail, game):
    """Alice forwards her game mail, reply address and all, to Carol, who answers it: Carol
    is told it is not hers, and the answer carries no key (its reply address is the plain
    one). The answer to a keyless mail from Alice's own address does carry her key: it
    goes to her mailbox only, whoever wrote the mail."""
    carol = "carol@players.test"
    await mail.post.send(f"Carol <{carol}>", "What is this? Alice sent it to me.",
                         reply_to=game[ALICE])
    told = await mail.relay.next_to(carol)
    assert mail.text_of(told) == (
        f"Wrong sender: the key of this mail was sent to another address than {carol}, so I "
        f"did not carry out your command. Send your commands for game #1 from the address "
        f"it was sent to.\r\n")
    assert str(told["Reply-To"]) == OURS
    assert await mail.relay.nothing_to(ALICE)
    assert (await mail.service.game(1)).ply == 0


async def test_an_invited_player_is_named_by_the_from_header_of_their_answer(mail):
    """Bob, invited by address, is called `bob` until his first mail, which carries his key:
    then as his From header says. A keyless first mail names nobody, and a later keyed
    mail with another name changes nothing."""
    carol = "carol@players.test"
    await mail.confirmed(f"Alice <{ALICE}>", f"challenge {BOB} white")
    await mail.confirmed(f"Alice <{ALICE}>", f"challenge {carol} white")
    offer = await mail.relay.next_to(BOB)
    await mail.relay.next_to(carol)
    await mail.post.send(f"Bob Smith <{BOB}>", "accept", reply_to=offer)
    started = await mail.relay.next_to(BOB)
    assert str(started["Subject"]) == "Game #1: Alice vs Bob Smith — Clash of Command"
    await mail.post.send(f"Robert Evil <{BOB}>", "board", reply_to=started)
    await mail.relay.next_to(BOB)
    await mail.post.send(f"Carol Forged <{carol}>", "accept #2")  # no key
    await mail.relay.next_to(carol)
    names = await _names(mail.service)
    assert (names[BOB], names[carol]) == ("Bob Smith", "carol")


@pytest.mark.parametrize(("moves", "example"), [
    (["a1xa3", "a1-a3/B", "a1=B", "c3-d4"], "c3-d4"),  # a plain step first
    (["Ha1-a3, Nb1-c3", "Ha1-a3"], "Ha1-a3"),
    (["a1xa3", "a1=B"], "a1xa3"),  # no plain step: the first move
    ([], "c3-d4"),
])
def test_the_example_move_is_a_plain_step_where_there_is_one(moves, example):
    assert example_move(moves) == example


async def test_the_your_move_mail_shows_a_legal_plain_step(mail, game):
    text = mail.text_of(game[ALICE])
    example = text.split("for example `move ", 1)[1].split("`", 1)[0]
    legal = await mail.service.legal_moves(await mail.service.game(1))
    assert example == example_move(legal) and example in legal
    assert example == "c3-b4"
