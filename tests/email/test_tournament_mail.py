"""Tournaments by mail, over real SMTP on loopback: a tournament made, joined and started by
mail (a stranger's command confirmed from their address, as every command without a key
is), a round's news mailed to each player with a subject of its own, the standings by
mail, mails almost right answered at once, a reader of Vietnamese, a round-robin's players each
mailed the games where they move (once), and a mail player in a tournament of console
players, playing their game by mail."""

from __future__ import annotations

from dataclasses import replace
from email.message import EmailMessage

import pytest

from bot.config import Settings
from bot.console.console import Console
from bot.email_gateway.gamemail import TOURNAMENT_KINDS, tournament_subject
from bot.service.model import Player
from bot.service.tournaments import standings_text

ALICE, BOB, CAROL, EVE = ("alice@players.test", "bob@players.test", "carol@players.test",
                          "eve@players.test")
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", EVE: "Eve"}


@pytest.fixture
def email_settings(email_settings: Settings) -> Settings:
    """A director's and their players' commands, each confirmed by a second mail, are more
    than the 5 mails an hour without a key the other tests allow."""
    return replace(email_settings, email_rate_limit=40)


def text(mail: EmailMessage) -> str:
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")


async def about(mail, address: str, subject: str, opening: str = "") -> EmailMessage:
    """The next mail to ``address`` with ``subject`` (whose text begins with ``opening``);
    the mails to it before that one are kept, in order, for the next look."""
    skipped: list[EmailMessage] = []
    try:
        while True:
            got = await mail.relay.next_to(address)
            if str(got["Subject"]) == subject and text(got).startswith(opening):
                return got
            skipped.append(got)
    finally:
        mail.relay.held[:0] = [([address], m) for m in skipped]


async def started_by_alice(mail) -> EmailMessage:
    """Alice starts T1 by mail, confirming it; the answer to her command. The start's news
    to her goes in a lane of its own, so it may come before the answer or after it: the
    answer is found by its subject (the reply to her "yes")."""
    await mail.post.send(f"Alice <{ALICE}>", "tournament start T1")
    asked = await mail.relay.next_to(ALICE)
    await mail.post.send(f"Alice <{ALICE}>", "yes", reply_to=asked)
    return await about(mail, ALICE, f"Re: {asked['Subject']}")


async def signed_up(mail, create: str = "tournament create clash swiss 3d rounds 2 name "
                                        "Mail open") -> None:
    """Alice makes a tournament by mail (T1) and Alice, Bob and Carol join it by mail, each
    confirming from their address (none has a key)."""
    made = await mail.confirmed(f"Alice <{ALICE}>", create)
    assert text(made).startswith("New tournament T1 Mail open: "), text(made)
    for address in (ALICE, BOB, CAROL):
        joined = await mail.confirmed(f"{NAMES[address]} <{address}>", "join T1")
        assert text(joined).startswith("You joined tournament T1 (Mail open); "), text(joined)


# --- a Swiss tournament by mail --------------------------------------------------------------
async def test_a_tournament_made_joined_started_and_played_by_mail(mail):
    made = await mail.confirmed(f"Alice <{ALICE}>", "tournament create clash swiss 3d rounds 2 "
                                                    "name Mail open")
    assert text(made).startswith(
        "New tournament T1 Mail open: Clash of Command, Swiss, 2 "
        "rounds, 3 days per move, rated. Sign up with `join T1`; Alice starts it with "
        "`tournament start T1`.\n")
    # a list needs no key: a stranger is answered at once
    await mail.post.send(f"Bob <{BOB}>", "tournaments")
    assert text(await mail.relay.next_to(BOB)) == (
        "Tournaments:\n  T1 Mail open: Clash of Command, Swiss, 2 rounds, 3 days per move, "
        "rated (signing up): 0 players; join with `join T1`.\n")
    # signing up changes what a player takes part in: asked back of the address first
    assert not isinstance(await mail.service.find_player("email", BOB), Player)
    for address in (BOB, ALICE, CAROL):
        joined = await mail.confirmed(f"{NAMES[address]} <{address}>", "join T1")
        assert text(joined).startswith("You joined tournament T1 (Mail open); "), text(joined)
    bob = await mail.service.find_player("email", BOB)
    assert isinstance(bob, Player) and bob.display_name == "Bob"

    started = await started_by_alice(mail)
    assert text(started).startswith(
        "Tournament T1 (Mail open) has started with 3 players.\n"), text(started)
    for address in (ALICE, BOB, CAROL):
        news = await about(mail, address, "Tournament T1: it has started")
        assert text(news).startswith("Tournament T1 (Mail open) has started with 3 players.")
        # the round's pairings, posted to the tournament's place, come to each player
        paired = await about(mail, address, "Tournament T1: round 1", "Tournament T1, round 1 "
                             "of 2: ")
        assert text(paired).splitlines()[0] == (
            "Tournament T1, round 1 of 2: Carol – Alice (game #1); Bob: bye.")

    # the game of round 1, played by mail: each player gets its mail, with their key; the
    # first moves in reply to it, the second resigns in reply to theirs
    game = await mail.service.game(1)
    first, second = (next(a for a in NAMES if NAMES[a] == name) for name in game.names)
    subject = f"Game #1: {game.names[0]} vs {game.names[1]} — Clash of Command"
    to_move = await about(mail, first, subject)
    assert text(to_move).startswith(
        f"Tournament T1, round 1: your game #1 against {game.names[1]} has started; you play "
        "White, 3 days per move.\n\nGame #1: "), text(to_move)
    assert "\nYour move. Reply to this mail with your move on the first line" in text(to_move)
    move = (await mail.service.legal_moves(game))[0]
    await mail.post.send(first, move, reply_to=to_move)
    assert text(await about(mail, first, subject)).startswith(f"1. {move} played in game #1.")
    started_game = await about(mail, second, subject)
    assert ("Tournament T1, round 1: your game #1 against "
            f"{game.names[0]} has started; you play Black, 3 days per move.") in text(started_game)
    moved = await about(mail, second, subject)
    assert text(moved).startswith(f"{game.names[0]} played 1. {move} in game #1 "), text(moved)
    await mail.post.send(second, "resign", reply_to=moved)
    resigned = await about(mail, second, subject)
    assert text(resigned).startswith(f"You resigned game #1: {game.names[0]} (White) wins")
    # a tournament's command in reply to the finished game's mail is answered about the
    # tournament: no board picture of that game (a tester's finding)
    await mail.post.send(second, "standings T1", reply_to=resigned)
    answer = await about(mail, second, f"Re: {subject}")
    assert text(answer).startswith("T1 Mail open: Clash of Command, Swiss, 2 rounds"), \
        text(answer)
    assert [p.get_content_type() for p in answer.walk() if not p.is_multipart()] == [
        "text/plain"]

    # round 2 is paired at once, and its news is mailed with the round in its subject
    for address in (ALICE, BOB, CAROL):
        paired = await about(mail, address, "Tournament T1: round 2", "Tournament T1, round 2 "
                             "of 2: ")
        assert text(paired).splitlines()[0].endswith(" bye."), text(paired)

    # the standings by mail: the standings' words, as any reader is answered
    await mail.post.send(f"Carol <{CAROL}>", "standings T1")
    table = await mail.service.tournaments.table(1)
    standings = text(await about(mail, CAROL, "Re: hi"))
    assert standings.startswith(str(standings_text(table)) + "\n"), standings
    assert standings.startswith("T1 Mail open: Clash of Command, Swiss, 2 rounds, 3 days per "
                                "move, rated (round 2 of 2).\n")
    await mail.post.send(f"Carol <{CAROL}>", "pairings T1 1")
    assert text(await about(mail, CAROL, "Re: hi")).startswith(
        f"Tournament T1, round 1:\n1. {game.names[0]} – {game.names[1]} (game #1): 1-0\n")


async def test_a_stranger_without_a_key_is_asked_to_confirm_and_nothing_changes_before(mail):
    await mail.confirmed(f"Alice <{ALICE}>", "tournament create clash round-robin 3d name Club")
    await mail.post.send("Dan <dan@players.test>", "join T1")
    asked = await mail.relay.next_to("dan@players.test")
    assert text(asked).startswith("Please confirm: a mail from dan@players.test asked me for "
                                  "`join T1`, but it carries no key of yours")
    assert (await mail.service.tournaments.listing())[0][1] == 0  # nobody joined yet
    assert not isinstance(await mail.service.find_player("email", "dan@players.test"), Player)
    await mail.post.send("Dan <dan@players.test>", "no", reply_to=asked)
    assert text(await mail.relay.next_to("dan@players.test")).startswith(
        "As you asked, I did not carry it out: nothing was changed.")
    assert (await mail.service.tournaments.listing())[0][1] == 0


async def test_mails_almost_right_are_answered_at_once(mail):
    await mail.confirmed(f"Alice <{ALICE}>", "tournament create clash round-robin 3d name Club")
    answers = {
        "joni T1": "'joni' is no command: did you mean `join T1`? (`help` lists the commands.)",
        "join 1": "'1' names no tournament: a tournament is named with a T, as in `join T1`.",
        "join T99": "There is no tournament T99.",
        "join #T1 now": "`join` does not take 'now'. For example: `join T3`",
        "tournament create clash swiss rouns 5": (
            "I do not know 'rouns': did you mean `rounds`? The options of `tournament "
            "create`: round-robin, swiss, ladder, 3d, 3d+1d max10d, total60d, none, rated, "
            "unrated, double, rounds N, size N, sections N, round-days N, adjudicate "
            "continue|draw, reach N, signup N, start N, name … (`help tournament` tells "
            "more)."),
        "leave": ("Which tournament? Name it, as in `leave T3`; `tournaments` lists those "
                  "here."),
    }
    for line, answer in answers.items():
        await mail.post.send(f"Bob <{BOB}>", line)
        got = text(await mail.relay.next_to(BOB))
        # the almost-right `join` is not asked to confirm: it is answered as it would be
        assert got == answer + "\n", (line, got)
    assert (await mail.service.tournaments.listing())[0][1] == 0


async def test_a_reader_of_vietnamese_gets_the_tournaments_words_and_subjects_in_it(mail,
                                                                                    offered):
    await signed_up(mail)
    await mail.confirmed(f"Carol <{CAROL}>", "language vi")
    await mail.post.send(f"Carol <{CAROL}>", "tournaments", language="vi")
    assert text(await mail.relay.next_to(CAROL)) == (
        "Các giải đấu:\n  T1 Mail open: Đại chiến Chỉ huy, hệ Thụy Sĩ, 2 vòng, 3 ngày mỗi "
        "nước, tính điểm (đang đăng ký): 3 người chơi; bạn đã đăng ký; `leave T1` để rút "
        "tên.\n")  # she is in it: not offered to join it (a tester's finding)
    await mail.post.send(f"Carol <{CAROL}>", "join 1", language="vi")
    assert text(await mail.relay.next_to(CAROL)) == (
        "'1' không phải tên một giải đấu: tên giải đấu bắt đầu bằng chữ T, ví dụ "
        "`join T1`.\n")
    await mail.confirmed(f"Alice <{ALICE}>", "tournament start T1")
    news = await about(mail, CAROL, "Giải đấu T1: đã bắt đầu")
    assert text(news).startswith("Giải đấu T1 (Mail open) đã bắt đầu với 3 người chơi."), \
        text(news)
    paired = await about(mail, CAROL, "Giải đấu T1: vòng 1")
    assert text(paired).startswith("Giải đấu T1, vòng 1/2: "), text(paired)
    # the others read English
    assert text(await about(mail, BOB, "Tournament T1: round 1")).startswith(
        "Tournament T1, round 1 of 2: ")


# --- a round-robin by mail: a mail for each game where one moves ---------------------------
LISTED = ("Your games and challenges (to act in one, reply to its latest mail, or send "
          "`board #N` for a fresh mail of game N):\n")
CLOCK = "3 days per move"


def game_subject(game) -> str:
    return f"Game #{game.id}: {game.names[0]} vs {game.names[1]} — Clash of Command"


async def round_robin_started(mail) -> None:
    """Alice, Bob and Carol play a round-robin by mail (T1), started by Alice: games #1
    Alice–Carol, #2 Bob–Alice, #3 Carol–Bob (the first named plays White and moves)."""
    await signed_up(mail, "tournament create clash round-robin 3d name Mail open")
    started = await started_by_alice(mail)
    assert text(started).startswith("Tournament T1 (Mail open) has started: 3 players, 1 "
                                    "section; all 3 games started at once.\n"), text(started)
    for address in (ALICE, BOB, CAROL):
        await about(mail, address, "Tournament T1: it has started")


async def test_a_round_robins_mail_player_gets_the_mail_of_each_game_where_they_move(mail):
    await round_robin_started(mail)
    games = {g: await mail.service.game(g) for g in (1, 2, 3)}
    assert {g: (games[g].names, games[g].to_move) for g in games} == {
        1: (("Alice", "Carol"), 0), 2: (("Bob", "Alice"), 0), 3: (("Carol", "Bob"), 0)}
    # the one message of all their games stays, and says what comes by mail
    summary = await about(mail, ALICE, "Tournament T1: your games")
    assert text(summary) == (
        f"Tournament T1: your games have started ({CLOCK}): game #1 against Carol, you play "
        "White; game #2 against Bob, you play Black.\n\n"
        "It is your move in 1 game: its mail follows, with the board; reply to it with your "
        "move. The mail of each other game comes when it is your move in it.\n\n"
        + LISTED + "  Game #1: Alice vs Carol (Clash of Command), your move\n"
        "  Game #2: Bob vs Alice (Clash of Command), Bob to move\n")
    # then the mail of the game where she moves, as any game's start: board, key, her move
    started = {}
    for address, number, opponent in ((ALICE, 1, "Carol"), (BOB, 2, "Alice"),
                                      (CAROL, 3, "Bob")):
        started[address] = await about(mail, address, game_subject(games[number]))
        said = text(started[address])
        assert said.startswith(
            f"Tournament T1: your game #{number} against {opponent} has started; you play "
            f"White, {CLOCK}.\n\nGame #{number}: "), said
        assert "\nYour move. Reply to this mail with your move on the first line" in said
        assert str(started[address]["Reply-To"]).startswith(f"play+{number}.0.")
        assert mail.png_of(started[address]) is not None
    for address in (BOB, CAROL):
        assert (await about(mail, address, "Tournament T1: your games")) is not None
    # nothing of the games where the opponent moves first, and no game mail twice
    for address in (ALICE, BOB, CAROL):
        assert await mail.relay.nothing_to(address)

    # a plain reply with a move plays it; the opponent gets the game's mail, their move now
    move = (await mail.service.legal_moves(games[2]))[0]
    await mail.post.send(f"Bob <{BOB}>", f"Hi,\n\n{move}\n\nBob", reply_to=started[BOB])
    assert text(await about(mail, BOB, game_subject(games[2]))).startswith(
        f"1. {move} played in game #2.")
    yours = await about(mail, ALICE, game_subject(games[2]))
    assert text(yours).startswith(f"Bob played 1. {move} in game #2 (Clash of Command). "
                                  "Your move. You have 3 days"), text(yours)
    assert "\nYour move. Reply to this mail with your move on the first line" in text(yours)
    assert str(yours["Reply-To"]).startswith("play+2.1.")
    reply = (await mail.service.legal_moves(await mail.service.game(2)))[0]
    await mail.post.send(f"Alice <{ALICE}>", reply, reply_to=yours)
    assert f"1... {reply} played in game #2." in text(await about(mail, ALICE,
                                                                  game_subject(games[2])))
    assert (await mail.service.game(2)).ply == 2


async def test_a_game_mail_is_queued_once_when_the_message_of_all_games_goes_again(mail):
    """A crash after the message of all a player's games was sent, before it was marked
    sent: it goes again (with its Message-ID), the mails of the games do not."""
    await round_robin_started(mail)
    summary = await about(mail, ALICE, "Tournament T1: your games")
    await about(mail, ALICE, "Game #1: Alice vs Carol — Clash of Command")
    async with mail.service.db.transaction() as s:
        await s.execute("UPDATE outbox SET delivered_at = NULL WHERE kind = 'tournament-games' "
                        "AND player_id = (SELECT id FROM players WHERE address = ?)", (ALICE,))
    mail.gateway.outbox_ready.set()
    again = await mail.relay.next_to(ALICE)
    assert str(again["Message-ID"]) == str(summary["Message-ID"])
    assert await mail.relay.nothing_to(ALICE)


async def test_a_reader_of_vietnamese_gets_the_round_robins_game_mails_in_it(mail, offered):
    await signed_up(mail, "tournament create clash round-robin 3d name Mail open")
    await mail.confirmed(f"Carol <{CAROL}>", "language vi")
    await mail.confirmed(f"Alice <{ALICE}>", "tournament start T1")
    summary = await about(mail, CAROL, "Giải đấu T1: các ván của bạn")
    assert text(summary).startswith(
        "Giải đấu T1: các ván của bạn đã bắt đầu (3 ngày mỗi nước): ván #1 với Alice, bạn cầm "
        "quân Đen; ván #3 với Bob, bạn cầm quân Trắng.\n\n"
        "Bạn đang tới lượt đi trong 1 ván: thư của từng ván sẽ đến ngay sau, kèm bàn cờ; hãy "
        "trả lời thư ấy bằng nước đi của bạn. Thư của mỗi ván còn lại sẽ đến khi tới lượt bạn "
        "đi trong ván đó.\n\n"), text(summary)
    started = await about(mail, CAROL, "Ván #3: Carol đấu với Bob — Đại chiến Chỉ huy")
    assert text(started).startswith(
        "Giải đấu T1: ván #3 của bạn với Bob đã bắt đầu; bạn cầm quân Trắng, 3 ngày mỗi "
        "nước.\n\n"), text(started)
    # the others read English
    assert text(await about(mail, BOB, "Game #2: Bob vs Alice — Clash of Command")).startswith(
        f"Tournament T1: your game #2 against Alice has started; you play White, {CLOCK}.\n")


# --- mixed transports --------------------------------------------------------------------------
async def test_a_mail_player_plays_in_a_tournament_of_console_players(mail):
    lines: list[str] = []
    console = Console(mail.service, mail.settings, out=lines.append)

    async def at_console(who: str, line: str) -> str:
        await console.switch(who)
        start = len(lines)
        assert await console.run_line(line)
        return "\n".join(lines[start:])

    made = await at_console("Dan", "tournament create clash round-robin 3d name Mixed")
    assert made.startswith("New tournament T1 Mixed: ")
    assert (await at_console("Dan", "join")).startswith("You joined tournament T1 (Mixed)")
    assert (await at_console("Fay", "join T1")).startswith("You joined tournament T1 (Mixed)")
    # by mail, every tournament open anywhere is listed, and the only one meant
    await mail.post.send(f"Eve <{EVE}>", "tournaments")
    assert "T1 Mixed: Clash of Command, round-robin" in text(await mail.relay.next_to(EVE))
    joined = await mail.confirmed(f"Eve <{EVE}>", "join")
    assert text(joined).startswith("You joined tournament T1 (Mixed); 3 players so far.")

    started = await at_console("Dan", "tournament start T1")
    assert started.startswith("Tournament T1 (Mixed) has started: 3 players, 1 section; all "
                              "3 games started at once.")
    games = await about(mail, EVE, "Tournament T1: your games")
    assert text(games).startswith(
        "Tournament T1: your games have started (3 days per move): game #"), text(games)
    assert "`board #N`" in text(games)  # how to get the mail of a game, with its key
    await about(mail, EVE, "Tournament T1: it has started")

    # Eve's game with Dan, played by mail: a fresh mail of the game, then her moves
    eve = await mail.service.find_player("email", EVE)
    mine = [g for g in await mail.service.games(eve) if "Dan" in g.names]
    assert len(mine) == 1
    game = mine[0]
    subject = f"Game #{game.id}: {game.names[0]} vs {game.names[1]} — Clash of Command"
    await mail.post.send(f"Eve <{EVE}>", f"board #{game.id}")
    latest = await about(mail, EVE, subject)
    if game.names[0] == "Dan":  # Dan moves first, at the console
        move = (await mail.service.legal_moves(game))[0]
        assert f"played in game #{game.id}" in await at_console("Dan", f"move #{game.id} {move}")
        latest = await about(mail, EVE, subject)
        assert "Your move." in text(latest)
    move = (await mail.service.legal_moves(await mail.service.game(game.id)))[0]
    await mail.post.send(f"Eve <{EVE}>", f"move {move}", reply_to=latest)
    latest = await about(mail, EVE, subject)
    assert f"played in game #{game.id}" in text(latest), text(latest)
    await mail.post.send(f"Eve <{EVE}>", "resign", reply_to=latest)
    assert text(await about(mail, EVE, subject)).startswith(f"You resigned game #{game.id}")
    assert (await mail.service.game(game.id)).is_over
    standings = await at_console("Dan", "standings T1")
    assert "\n1. Dan: 1" in standings and "Eve: 0" in standings, standings
    # Fay resigns her two games at the console: the tournament is over, and Eve is told
    fay = await mail.service.find_player("console", "fay")
    for left in await mail.service.games(fay):
        await at_console("Fay", f"resign #{left.id}")
    over = await about(mail, EVE, "Tournament T1: it is over")
    assert text(over).startswith("Tournament T1 (Mixed) is over. Winner: "), text(over)


async def test_each_kind_of_tournament_news_has_its_subject_in_both_languages(mail):
    alice = await mail.service.player("email", ALICE, "Alice")
    made = await mail.service.tournaments.create(alice, "email:mail", "clash", "swiss",
                                                 name="Mail open")
    t = made.tournament
    subjects = {kind: tournament_subject(t, kind, 2) for kind in sorted(TOURNAMENT_KINDS)}
    assert {k: (str(s), s.render("vi")) for k, s in subjects.items()} == {
        "tournament-entry": ("Tournament T1: a new player", "Giải đấu T1: có người chơi mới"),
        "tournament-games": ("Tournament T1: your games", "Giải đấu T1: các ván của bạn"),
        "tournament-new": ("New tournament T1: Mail open", "Giải đấu mới T1: Mail open"),
        "tournament-news": ("Tournament T1: news", "Giải đấu T1: tin mới"),
        "tournament-over": ("Tournament T1: it is over", "Giải đấu T1: đã kết thúc"),
        "tournament-round": ("Tournament T1: round 2", "Giải đấu T1: vòng 2"),
        "tournament-start": ("Tournament T1: it has started", "Giải đấu T1: đã bắt đầu"),
    }


async def test_a_mail_player_of_a_console_tournament_is_told_of_a_withdrawal(mail):
    """The news of the tournament's place (the console's) reaches its players by mail: a
    withdrawal, and what it does to their game with the one who left."""
    lines: list[str] = []
    console = Console(mail.service, mail.settings, out=lines.append)

    async def at_console(who: str, line: str) -> None:
        await console.switch(who)
        assert await console.run_line(line)

    await at_console("Dan", "tournament create clash round-robin 3d name Mixed")
    await at_console("Dan", "join T1")
    await at_console("Fay", "join T1")
    await at_console("Gus", "join T1")
    await mail.confirmed(f"Eve <{EVE}>", "join T1")
    await at_console("Dan", "tournament start T1")
    await about(mail, EVE, "Tournament T1: it has started")
    await at_console("Fay", "withdraw T1")
    news = await about(mail, EVE, "Tournament T1: news")
    assert text(news).splitlines()[0] == (
        "Fay withdrew from tournament T1: their games are struck out.")
    eve = await mail.service.find_player("email", EVE)
    struck = next(g for g in await mail.service.games(eve, active=False) if "Fay" in g.names)
    over = await about(mail, EVE, f"Game #{struck.id}: {struck.names[0]} vs {struck.names[1]} "
                                  "— Clash of Command")
    assert "is over: aborted (struck out of the tournament, as Fay withdrew)." in text(over), \
        text(over)


async def test_a_leave_asked_before_the_start_and_confirmed_after_it_withdraws_no_one(mail):
    """A tester asked to `leave` during sign-up and confirmed after the start: that
    withdrew her and struck out her games. Now the confirmed `leave` says what withdrawing
    would do and asks for `withdraw`."""
    await signed_up(mail)
    await mail.post.send(f"Bob <{BOB}>", "leave T1")
    asked = await mail.relay.next_to(BOB)
    await started_by_alice(mail)
    await mail.post.send(f"Bob <{BOB}>", "yes", reply_to=asked)
    answer = await about(mail, BOB, f"Re: {asked['Subject']}")
    assert text(answer).startswith(
        "Tournament T1 has started, so leaving it now is withdrawing: your unfinished games "
        "are lost, or, with fewer than half of your games finished, all of them are struck "
        "out. To withdraw, send `withdraw T1`.\n"), text(answer)
    table = await mail.service.tournaments.table(1)
    assert [e.status for e in table.entries] == ["in"] * 3


async def test_a_command_in_reply_to_a_tournament_games_mail_means_its_tournament(mail):
    """A player in two tournaments replies `standings` to a game's mail: the standings of
    that game's tournament, as the guide says (a tester was asked which one)."""
    await signed_up(mail)
    await mail.confirmed(f"Alice <{ALICE}>", "tournament create clash round-robin 3d name "
                                             "Second")
    await mail.confirmed(f"Carol <{CAROL}>", "join T2")
    await started_by_alice(mail)
    game = await mail.service.game(1)  # Carol plays White (the pairing's lot gives her)
    subject = f"Game #1: {game.names[0]} vs {game.names[1]} — Clash of Command"
    assert game.names[0] == "Carol"
    started = await about(mail, CAROL, subject)
    await mail.post.send(f"Carol <{CAROL}>", "standings", reply_to=started)
    answer = await about(mail, CAROL, f"Re: {subject}")
    assert text(answer).startswith("T1 Mail open: Clash of Command, Swiss, 2 rounds, 3 days "
                                   "per move, rated (round 1 of 2).\n"), text(answer)
    await mail.post.send(f"Carol <{CAROL}>", "standings")
    assert text(await about(mail, CAROL, "Re: hi")).startswith(
        "Which tournament? Name one: `standings T2` (Second); `standings T1` (Mail open).")
