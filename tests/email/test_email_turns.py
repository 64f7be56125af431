"""By e-mail: a whole mini-Chieftain game with turns entered one step per mail and a
Commander Chess deploy entered step by step — exact answers and news, the moves list
numbered as in the record, every step of a turn marked on the picture seen from the
reader's side, nobody told anything mid-turn, `end` refused when no turn is in progress,
and mail words only."""

from __future__ import annotations

import dataclasses
import re

import pytest

import bot.email_gateway.gamemail as gamemail

ALICE = "alice@players.test"
BOB = "bob@players.test"
CAROL = "carol@players.test"
FROM = {ALICE: f"Alice <{ALICE}>", BOB: f"Bob <{BOB}>"}
CHIEFTAIN = "6n1/3mcc2/8/8/8/4M3/8/3C4 w - 1"
COMMANDER = "7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1"
FOREIGN = re.compile(r"`/|<t:|<@|`as NAME`|\bconsole\b")
"""Discord's slash commands, timestamps and mentions; the console's own words."""


@pytest.fixture
def drawn(monkeypatch) -> list[dict]:
    seen: list[dict] = []

    def board_png(position, options):
        seen.append({"last": options["last_move"] or [], "perspective": options["perspective"],
                     "highlights": options["highlights"], "selected": options["selected"]})
        return b"\x89PNG fake"

    monkeypatch.setattr(gamemail, "_board_png", board_png)
    return seen


def marked(picture: dict) -> list[tuple[str, str]]:
    return [(s.origin, s.target) for m in picture["last"] for s in m.steps]


class Players:
    """Alice and Bob writing to the game, each replying to the latest mail they got."""

    def __init__(self, mail) -> None:
        self.mail = mail
        self.latest: dict[str, object] = {}
        self.read: list[str] = []

    async def send(self, who: str, text: str) -> str:
        await self.mail.post.send(FROM[who], text, reply_to=self.latest.get(who),
                                  subject="a game")
        return await self.receive(who)

    async def receive(self, who: str) -> str:
        got = await self.mail.relay.next_to(who)
        self.latest[who] = got
        self.read.append(self.mail.text_of(got).replace("\r\n", "\n"))
        return self.read[-1]


async def _start(mail, variant: str, fen: str) -> Players:
    # a whole game is more mails than the tests' limit
    mail.gateway.settings = dataclasses.replace(mail.gateway.settings, email_rate_limit=100)
    players = Players(mail)
    await players.send(ALICE, f"challenge {BOB} {variant} white unrated from {fen}")
    await players.send(ALICE, "yes")  # her first mail is asked back of her address
    await players.receive(BOB)  # the challenge
    await players.send(BOB, "accept #1")
    await players.receive(ALICE)  # the game starts
    return players


async def test_a_whole_mini_chieftain_game_one_step_per_mail(mail, drawn):
    players = await _start(mail, "mini-chieftain", CHIEFTAIN)
    answer = await players.send(ALICE, "move Me3-e4")
    assert answer.startswith("1. Me3-e4 played in game #1. Bob (Black) is to move.\n")
    news = await players.receive(BOB)
    assert news.startswith("Alice played 1. Me3-e4 in game #1 (mini-Chieftain). Your move. "
                           "There is no clock.\n")
    assert "Black to move, move 1." in news
    assert marked(drawn[-1]) == [("e3", "e4")] and drawn[-1]["perspective"] == 1
    watching = await mail.confirmed(f"Carol <{CAROL}>",
                                    f"watch 1-{await mail.service.watching.watch_token(1)}")
    assert "You are watching game #1" in mail.text_of(watching)
    answer = await players.send(BOB, "move Ng8-f6")
    assert answer.startswith("Ng8-f6 played in game #1. Your turn goes on: 1 more move "
                             "allowed, or `end` to finish it.\n")
    assert await mail.relay.nothing_to(ALICE)  # nobody is told anything mid-turn
    assert await mail.relay.nothing_to(CAROL)
    answer = await players.send(BOB, "move Md7-d6")
    assert answer.startswith("1... Ng8-f6, Md7-d6 played in game #1. Alice (White) is to "
                             "move.\n")
    news = await players.receive(ALICE)
    assert news.startswith("Bob played 1... Ng8-f6, Md7-d6 in game #1 (mini-Chieftain). Your "
                           "move. There is no clock.\n")
    assert "Moves:\n  1. Me3-e4\n  1... Ng8-f6, Md7-d6\n" in news
    assert "White to move, move 2." in news
    assert "(or `moves` for the legal moves, `board`, `draw`, `resign`, `takeback`, " \
           "`help`)." in news  # mini-Chieftain has draws by agreement
    assert marked(drawn[-1]) == [("g8", "f6"), ("d7", "d6")]
    assert drawn[-1]["perspective"] == 0  # Alice's side
    copy = await players.receive(CAROL)
    assert copy.startswith("1... Ng8-f6, Md7-d6 played in game #1. Alice (White) is to move.\n")
    assert "You are watching this game" in copy
    assert drawn[-1]["perspective"] == 0  # a watcher sees the side to move
    await players.send(ALICE, "move Cd1-d2")
    await players.receive(BOB)
    await players.send(BOB, "move Nf6xe4")
    answer = await players.send(BOB, "end")
    assert answer.startswith("2... Nf6xe4, end played in game #1. Alice (White) is to move.\n")
    news = await players.receive(ALICE)
    assert news.startswith("Bob played 2... Nf6xe4, end in game #1 (mini-Chieftain). Your "
                           "move. There is no clock.\n")
    assert marked(drawn[-1]) == [("f6", "e4")]
    refused = await players.send(BOB, "end")
    assert refused.startswith("There is no turn in progress to end in game #1: your turn is "
                              "over, and Alice (White) is to move.")
    await players.send(ALICE, "move Cd2-c3")
    await players.receive(BOB)
    answer = await players.send(BOB, "move Ne4xc3")
    assert answer.startswith("3... Ne4xc3 played in game #1. Game over: Bob (Black) wins: "
                             "White has no Chieftain left (0-1).\n")
    news = await players.receive(ALICE)
    assert news.startswith("Bob played 3... Ne4xc3. Game #1 (mini-Chieftain, Alice (White) vs "
                           "Bob (Black)) is over: Bob (Black) wins: White has no Chieftain left "
                           "(0-1).\n")
    assert not [text for text in players.read if FOREIGN.search(text)]


async def test_a_commander_deploy_one_step_per_mail(mail, drawn):
    players = await _start(mail, "commander", COMMANDER)
    answer = await players.send(ALICE, "move T>e6")
    assert answer.startswith("T>e6 played in game #1. Your turn goes on: send the next step, "
                             "or `end` to finish it.\n")
    assert marked(drawn[-1]) == [("e4", "e6")]
    assert await mail.relay.nothing_to(BOB)
    answer = await players.send(ALICE, "move I>e5")
    assert answer.startswith("1. T>e6,I>e5 played in game #1. Bob (Blue) is to move.\n")
    news = await players.receive(BOB)
    assert news.startswith("Alice played 1. T>e6,I>e5 in game #1 (Commander Chess (Cờ Tư "
                           "Lệnh)). Your move. There is no clock.\n")
    assert "Moves:\n  1. T>e6,I>e5\n" in news
    assert marked(drawn[-1]) == [("e4", "e6"), ("e4", "e5")]
    assert drawn[-1]["perspective"] == 1  # Blue's side for Bob
    refused = await players.send(BOB, "end")
    assert refused.startswith("There is no turn in progress to end in game #1: your turn has "
                              "not started: send a move.")
    assert not [text for text in players.read if FOREIGN.search(text)]


async def test_offers_and_vacations_in_mail_words(mail, drawn):
    players = await _start(mail, "mini-chieftain", CHIEFTAIN)
    answer = await players.send(ALICE, "draw")
    assert answer.startswith("Draw offered in game #1.\n")
    news = await players.receive(BOB)
    assert news.startswith("Alice offers a draw in game #1. Answer with `draw` to accept or "
                           "`draw decline`.")
    answer = await players.send(BOB, "draw decline")
    assert answer.startswith("Draw offer declined in game #1.")
    answer = await players.send(BOB, "vacation 2")
    assert answer.startswith("You are on vacation until 2026-")
    assert "send `back` when you return." in answer
    assert not [text for text in players.read if FOREIGN.search(text)]


async def test_looking_without_a_key_finds_the_game_meant_and_highlights_a_piece(mail, drawn):
    players = await _start(mail, "mini-chieftain", CHIEFTAIN)
    await mail.post.send(FROM[ALICE], "moves e3", subject="which moves?")  # a new mail, no key
    answer = mail.text_of(await mail.relay.next_to(ALICE)).replace("\r\n", "\n")
    assert answer.startswith("M on e3: 8 moves: Me3-d2 Me3-d3 Me3-d4 Me3-e2 Me3-e4 Me3-f2 "
                             "Me3-f3 Me3-f4\n")
    assert (drawn[-1]["selected"], drawn[-1]["last"]) == ("e3", [])
    assert drawn[-1]["highlights"] == ("d2", "e2", "f2", "d3", "f3", "d4", "e4", "f4")
    assert not FOREIGN.search(answer) and players.read


@pytest.mark.parametrize(("reply", "start"), [
    ("decline", "Draw offer declined in game #1."),
    ("Accept", "Game #1 is drawn by agreement.\n"),
])
async def test_accept_or_decline_in_reply_to_a_draw_offer_answers_it(mail, drawn, reply,
                                                                     start):
    """The offer's mail says `draw` or `draw decline`; a player who answers it with the
    words of a challenge means the same."""
    players = await _start(mail, "mini-chieftain", CHIEFTAIN)
    await players.send(ALICE, "draw")
    await players.receive(BOB)
    answer = await players.send(BOB, reply)
    assert answer.startswith(start), answer
