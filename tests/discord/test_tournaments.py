"""Tournaments on Discord: `/tournament create` posts a sign-up message with Join and Leave
buttons (which work after a restart) and opens the tournament's thread, where its news goes:
the entries, the start, each game with a link to its own thread, the results, withdrawals,
the end. Its director, or a server admin, starts it and adjudicates its games; the
standings come in words and as a crosstable; a member who leaves the server withdraws."""

from __future__ import annotations

import dataclasses

import pytest

from bot.pictures import crosstable
from renderer.crosstable import Crosstable

DESCRIPTION = "T1 Spring: Clash of Command, round-robin, 3 days per move, rated"
JOIN = "Sign up with the Join button or `/tournament join tournament:1`."


def _labels(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


def _now(channel, message):
    """``message`` as it reads now (edited since, perhaps)."""
    return next(m for m in channel.history() if m.id == message.id)


def _answer(result):
    """The message an interaction answered with (a deferred answer's follow-up)."""
    return result.followups[-1] if result.followups else result.response


def _thread(w, name: str):
    return next(t for t in w.channel.threads if t.name == name)


async def _created(w):
    """Alice makes tournament T1 in the games channel: its sign-up post."""
    r = await w.alice.slash(w.channel, "tournament create", variant="clash", name="Spring",
                            days=3)
    assert not r.ephemeral
    return _now(w.channel, r.response)


async def _signed_up(w):
    """T1 made, and alice, bob and carol signed up with its Join button."""
    post = await _created(w)
    for member in (w.alice, w.bob, w.carol):
        r = await member.click(post, label="Join")
        assert r.ephemeral, r.response.content
    return post


async def _started(w):
    post = await _signed_up(w)
    r = await w.alice.slash(w.channel, "tournament start", tournament=1)
    assert not r.ephemeral, r.response.content
    return post


async def test_a_round_robin_from_its_sign_up_post_to_its_standings(world):
    w = world
    post = await _created(w)
    thread = _thread(w, "T1 Spring")
    assert thread.id == post.id  # opened on the sign-up post
    assert post.content == (f"Tournament {DESCRIPTION}.\nNo one has signed up yet.\n{JOIN}\n"
                            f"alice starts it with `/tournament start tournament:1`.\n"
                            f"Its news: <#{thread.id}>")
    assert _labels(post) == ["Join", "Leave"]

    said = []
    for member in (w.alice, w.bob, w.carol):
        r = await member.click(post, label="Join")
        assert r.ephemeral
        said.append(r.response.content)
    assert said == ["You joined tournament T1 (Spring); 1 player so far.",
                    "You joined tournament T1 (Spring); 2 players so far.",
                    "You joined tournament T1 (Spring); 3 players so far."]
    r = await w.bob.click(post, label="Join")
    assert r.ephemeral and r.response.content == "You are already in tournament T1."
    assert _now(w.channel, post).content.split("\n")[1] == "3 players: alice, bob, carol."

    r = await w.bob.slash(w.channel, "tournament start", tournament=1)
    assert r.ephemeral and r.response.content == (
        "Only the director of tournament T1 (alice) or a server admin can do that.")
    r = await w.alice.slash(w.channel, "tournament start", tournament=1)
    assert not r.ephemeral and r.response.content == (
        "Tournament T1 (Spring) has started: 3 players, 1 section; all 3 games started at "
        f"once.\nIts news: <#{thread.id}>")
    after = _now(w.channel, post)
    assert after.content.split("\n")[2:] == ["Sign-up is closed: the tournament has started.",
                                            f"Its news: <#{thread.id}>"]
    assert _labels(after) == []  # sign-up is closed

    games = {g: _thread(w, name) for g, name in ((1, "#1 bob vs carol (Clash of Command)"),
                                                 (2, "#2 alice vs bob (Clash of Command)"),
                                                 (3, "#3 carol vs alice (Clash of Command)"))}
    a, b, c = w.alice.mention, w.bob.mention, w.carol.mention
    assert [m.content for m in thread.history()] == [
        "alice joined tournament T1 (1 player).",
        "bob joined tournament T1 (2 players).",
        "carol joined tournament T1 (3 players).",
        "Tournament T1 (Spring) has started: 3 players, 1 section; all 3 games started at "
        "once.",
        f"{a} Tournament T1: your games have started (3 days per move): "
        "game #2 against bob, you play White; game #3 against carol, you play Black.",
        f"{b} Tournament T1: your games have started (3 days per move): "
        "game #1 against carol, you play White; game #2 against alice, you play Black.",
        f"{c} Tournament T1: your games have started (3 days per move): "
        "game #1 against bob, you play Black; game #3 against alice, you play White.",
        f"Game #1: bob – carol <#{games[1].id}>\nGame #2: alice – bob <#{games[2].id}>\n"
        f"Game #3: carol – alice <#{games[3].id}>"]
    assert games[1].history()[0].content.startswith(
        "Game #1: bob (White) vs carol (Black), Clash of Command. Type your moves here")

    # game #1 played to its end in its thread: the tournament's thread tells the result
    r = await w.bob.slash(games[1], "resign", game=1)
    assert not r.ephemeral
    assert thread.last_message.content == (
        f"Tournament T1: game #1 <#{games[1].id}>, bob – carol: 0-1.")

    r = await w.alice.slash(w.channel, "tournament standings", tournament=1)
    shown = _answer(r)
    assert not r.ephemeral and shown.content == (
        f"{DESCRIPTION} (running).\n1. carol: 1 (DE –, SB 0, Wins 1)\n"
        "2=. alice: 0 (DE –, SB 0, Wins 0)\n2=. bob: 0 (DE –, SB 0, Wins 0)")
    assert [a.filename for a in shown.attachments] == ["tournament-1-section-1.png"]
    r = await w.alice.slash(w.channel, "tournament pairings", tournament=1)
    assert r.response.content == (
        "Tournament T1, every game:\n1. bob – carol (game #1): 0-1\n"
        "2. alice – bob (game #2): in play\n3. carol – alice (game #3): in play")
    r = await w.carol.slash(w.channel, "tournament list")
    assert r.response.content == (f"Tournaments here:\n• {DESCRIPTION} (running, 3 players)")


async def test_the_join_button_still_works_after_a_restart(world):
    post = await _created(world)
    await world.alice.click(post, label="Join")
    await world.restart()
    r = await world.bob.click(post, label="Join")
    assert r.ephemeral and r.response.content == (
        "You joined tournament T1 (Spring); 2 players so far.")
    assert _now(world.channel, post).content.split("\n")[1] == "2 players: alice, bob."
    r = await world.bob.click(post, label="Leave")
    assert r.ephemeral and r.response.content == "You left tournament T1."
    assert _now(world.channel, post).content.split("\n")[1] == "1 player: alice."
    assert [m.content for m in _thread(world, "T1 Spring").history()][-2:] == [
        "bob joined tournament T1 (2 players).", "bob left tournament T1 (1 player)."]


async def test_a_member_who_leaves_the_server_withdraws(world):
    """With `member_events` on, carol leaving the server withdraws her: none of her games
    was over, so they are struck out (ICCF's rule), and the thread says so."""
    world.settings = dataclasses.replace(world.settings, member_events="on")
    await world.restart()
    await _started(world)
    world.carol.guild.remove_member(world.carol)
    await world.env.settle()
    thread = _thread(world, "T1 Spring")
    assert "carol withdrew from tournament T1: their games are struck out." in [
        m.content for m in thread.history()]
    assert (await world.service.game(1)).is_over and (await world.service.game(3)).is_over
    r = await world.alice.slash(world.channel, "tournament standings", tournament=1)
    assert _answer(r).content == (
        f"{DESCRIPTION} (running).\n1=. alice: 0 (DE –, SB 0, Wins 0)\n1=. bob: 0 (DE –, SB "
        "0, Wins 0)\n3. carol (withdrawn): 0 (DE –, SB 0, Wins 0)")


async def test_a_server_admin_directs_and_a_director_adjudicates(world, moderator):
    await _signed_up(world)
    r = await moderator.slash(world.channel, "tournament start", tournament=1)
    assert not r.ephemeral and r.response.content.startswith("Tournament T1 (Spring) has started")
    r = await world.bob.slash(world.channel, "tournament adjudicate", game=3, result="draw")
    assert r.ephemeral and r.response.content == (
        "Only the director of tournament T1 (alice) or a server admin may adjudicate its "
        "games.")
    r = await world.alice.slash(world.channel, "tournament adjudicate", game=1, result="0")
    assert not r.ephemeral and r.response.content.startswith("Game #1")  # bob vs carol
    assert (await world.service.game(1)).winner == 0
    r = await moderator.slash(world.channel, "tournament adjudicate", game=3, result="draw")
    assert not r.ephemeral
    assert (await world.service.game(3)).is_over
    r = await world.alice.slash(world.channel, "tournament adjudicate", game=9, result="draw")
    assert r.ephemeral and r.response.content == "Game #9 is not a tournament game."


async def test_a_tournament_is_made_in_a_servers_channel(world):
    r = await world.alice.user.slash("tournament create", variant="clash")
    assert r.ephemeral and r.response.content == (
        "Make a tournament in a server's channel: its sign-up post and thread go there.")
    r = await world.carol.slash(world.channel, "tournament list")
    assert r.response.content == ("No tournament is signing up or running here. Make one "
                                  "with `/tournament create`.")
    r = await world.carol.slash(world.channel, "tournament join", tournament=7)
    assert r.ephemeral and r.response.content == "There is no tournament T7."


async def test_a_swiss_tournaments_round_is_paired_in_its_thread(world):
    """A Swiss round's pairings come in the tournament's thread, each game in a thread of
    its own where its players are told of it; the crosstable counts by rounds."""
    r = await world.alice.slash(world.channel, "tournament create", variant="clash",
                                format="swiss", rounds=2, name="Open", days=3)
    post = _now(world.channel, r.response)
    for member in (world.alice, world.bob, world.carol):
        await member.click(post, label="Join")
    r = await world.alice.slash(world.channel, "tournament start", tournament=1)
    assert not r.ephemeral, r.response.content
    thread = _thread(world, "T1 Open")
    game = _thread(world, "#1 carol vs bob (Clash of Command)")
    assert [m.content for m in thread.history()][3:] == [
        "Tournament T1 (Open) has started with 3 players.",
        f"{world.alice.mention} Tournament T1, round 1: you have the bye (one point).",
        "Tournament T1, round 1 of 2: carol – bob (game #1); alice: bye.",
        f"Game #1: carol – bob <#{game.id}>"]
    assert [m.content for m in game.history()][1:] == [
        f"{world.carol.mention} Tournament T1, round 1: your game #1 against bob has "
        "started; you play White, 3 days per move.",
        f"{world.bob.mention} Tournament T1, round 1: your game #1 against carol has started; "
        "you play Black, 3 days per move."]

    await world.bob.slash(game, "resign", game=1)  # round 1 is over: round 2 is paired
    second = _thread(world, "#2 alice vs carol (Clash of Command)")
    assert sorted(m.content for m in thread.history()[7:]) == sorted([
        "Tournament T1, round 2 of 2: alice – carol (game #2); bob: bye.",
        f"{world.bob.mention} Tournament T1, round 2: you have the bye (one point).",
        f"Tournament T1: game #1 <#{game.id}>, carol – bob: 1-0.",
        f"Game #2: alice – carol <#{second.id}>"])
    table = await world.service.tournaments.table(1)
    drawn = crosstable(table, "en", None, Crosstable)
    assert drawn.headers[:6] == ("#", "Name", "Rating", "1", "2", "Score")
    # bob's bye of round 2 counts when round 2 is over: until then he is below carol,
    # who beat him (alice's bye of round 1, a round complete, counts)
    assert [(row.name, row.cells, row.score) for row in drawn.rows] == [
        ("alice", ("+", "W2"), "1"), ("carol", ("+W3", "B1"), "1"), ("bob", ("-B2", "bye"), "0")]
    assert drawn.subtitle == "round 2 of 2 · 1 of 2 games played"
    await world.carol.slash(second, "resign", game=2)  # the last round over: T1 is over
    r = await world.alice.slash(world.channel, "tournament pairings", tournament=1, round=9)
    assert r.response.content == "Tournament T1 had 2 rounds."  # not "no games yet"


@pytest.fixture
def vietnamese(client_locale, offered) -> str:
    """A Vietnamese client, Vietnamese offered."""
    client_locale("vi")
    return "vi"


async def test_a_vietnamese_client_reads_its_answers_in_vietnamese(world, vietnamese,
                                                                    moderator):
    """A Vietnamese member's answers are in Vietnamese; the sign-up post, which is for
    everyone, in the server's language: Vietnamese, as its admins chose."""
    r = await world.carol.slash(world.channel, "tournament list")
    assert r.response.content == ("Ở đây không có giải đấu nào đang nhận đăng ký hoặc đang "
                                  "diễn ra. Hãy tạo một giải bằng `/tournament create`.")
    await moderator.slash(world.channel, "server settings", language="vi")
    post = await _created(world)
    thread = _thread(world, "T1 Spring")
    assert post.content.split("\n")[1:] == [
        "Chưa có ai đăng ký.",
        "Đăng ký bằng nút Tham gia hoặc `/tournament join tournament:1`.",
        "alice sẽ bắt đầu giải bằng `/tournament start tournament:1`.",
        f"Tin tức của giải: <#{thread.id}>"]
    assert _labels(post) == ["Tham gia", "Rời giải"]
    r = await world.bob.slash(world.channel, "tournament adjudicate", game=1, result="draw")
    assert r.response.content == "Ván #1 không phải là ván của giải đấu."
    drawn = crosstable(await world.service.tournaments.table(1), "vi", None, Crosstable)
    assert (drawn.title, drawn.headers[:3]) == ("Giải đấu T1 — Spring",
                                                ("#", "Tên", "Điểm xếp hạng"))


async def test_a_ladder_challenge_starts_a_game_in_its_own_thread(world):
    r = await world.alice.slash(world.channel, "tournament create", variant="clash",
                                format="ladder", name="Club ladder", days=3)
    post = _now(world.channel, r.response)
    for member in (world.alice, world.bob):
        r = await member.click(post, label="Join")
    assert r.response.content.startswith("You joined the ladder T1 (Club ladder) in place 2.")
    assert _labels(_now(world.channel, post)) == ["Join", "Leave"]  # a ladder takes players
    r = await world.alice.slash(world.channel, "tournament ladder", tournament=1,
                                opponent=world.bob)
    assert r.ephemeral and r.response.content == (
        "bob is not above you on the ladder T1: challenge someone above you.")
    r = await world.bob.slash(world.channel, "tournament ladder", tournament=1,
                              opponent=world.alice)
    game = _thread(world, "#1 bob vs alice (Clash of Command)")
    assert not r.ephemeral and r.response.content == (
        "Ladder T1: you challenged alice; game #1 has started. Win it and you take their "
        f"place.\nThe game's thread: <#{game.id}>")
    # bob, who challenged, was answered: alice is told (one message each)
    assert [m.content for m in game.history()][1:] == [
        f"{world.alice.mention} Ladder T1: your game #1 against bob has started; you play "
        "Black, 3 days per move."]
    await world.alice.slash(game, "resign", game=1)
    assert "Ladder T1: bob beat alice and takes place 1." in [
        m.content for m in _thread(world, "T1 Club ladder").history()]


async def test_a_tournament_whose_reply_was_lost_gets_its_sign_up_post_all_the_same(world):
    """Made, but the reply never went out (the process died, say): delivery waits for the
    reply a while, then posts the sign-up post itself, with its buttons and its thread."""
    alice = await world.service.player("discord", str(world.alice.id), "alice")
    made = await world.service.tournaments.create(alice, f"discord:{world.channel.id}",
                                                  variant="clash", name="Lost", days=3)
    assert made.ok
    await world.bot.flush()
    assert world.channel.history() == []  # the reply may still come
    world.clock.t += 60
    await world.bot.flush()
    post = world.channel.history()[0]
    assert post.content.startswith("Tournament T1 Lost: Clash of Command, round-robin")
    assert _labels(post) == ["Join", "Leave"]
    r = await world.bob.click(post, label="Join")
    assert r.response.content == "You joined tournament T1 (Lost); 1 player so far."
    assert _thread(world, "T1 Lost").last_message.content == (
        "bob joined tournament T1 (1 player).")


# --- what a tester found ----------------------------------------------------------------
async def test_a_member_of_another_server_cannot_join(world):
    """A tournament is played on its server: a member of another server who names it is
    refused, so no one gets games in threads they cannot see."""
    post = await _created(world)
    other = world.env.create_guild()
    elsewhere = other.create_text_channel("lobby")
    stranger = other.add_member(world.env.create_user("stranger"))
    r = await stranger.slash(elsewhere, "tournament join", tournament=1)
    assert r.ephemeral and r.response.content == (
        "Tournament T1 is played on another Discord server: only its members may join it.")
    assert _now(world.channel, post).content.split("\n")[1] == "No one has signed up yet."


async def test_no_one_rules_on_their_own_game_and_a_wrong_number_is_refused(world, moderator):
    """The director who plays is refused a ruling on her own game (a server admin rules
    on it); a game number of 0 or below is refused in words, not with a failure."""
    await _started(world)
    r = await world.alice.slash(world.channel, "tournament adjudicate", game=2, result="0")
    assert r.ephemeral and r.response.content == (
        "You play in game #2: another director or a server admin must rule on it.")
    assert not (await world.service.game(2)).is_over
    r = await moderator.slash(world.channel, "tournament adjudicate", game=2, result="draw")
    assert not r.ephemeral and (await world.service.game(2)).is_over
    for number in (0, -5):
        r = await world.alice.slash(world.channel, "tournament adjudicate", game=number,
                                    result="draw")
        assert r.ephemeral and r.response.content == f"There is no game #{number}."


async def test_the_sign_up_post_closes_at_its_deadline(world):
    """The sign-up post says when sign-up closes; once the deadline has passed, a pass of
    the scheduler takes its Join button away and it says sign-up closed (its players may
    still leave before the start); a Join pressed before that pass is answered that
    sign-up closed, and the post is closed then."""
    w = world
    r = await w.alice.slash(w.channel, "tournament create", variant="clash", name="Spring",
                            days=3, signup_days=2, start_days=4)
    post = _now(w.channel, r.response)
    closes, starts = int(w.clock.t + 2 * 86_400), int(w.clock.t + 4 * 86_400)
    thread = _thread(w, "T1 Spring")
    assert post.content.split("\n")[1:] == [
        "No one has signed up yet.", JOIN,
        f"Sign-up closes <t:{closes}:f> (<t:{closes}:R>).",
        f"It starts <t:{starts}:f> (<t:{starts}:R>).", f"Its news: <#{thread.id}>"]
    await w.bob.click(post, label="Join")
    w.clock.t = closes - 1
    await w.bot.tick()
    assert _labels(_now(w.channel, post)) == ["Join", "Leave"]  # not yet

    w.clock.t = closes  # the scheduler's pass is still to come: the button is there
    r = await w.carol.click(post, label="Join")
    assert r.ephemeral and r.response.content == (
        f"Sign-up for tournament T1 closed <t:{closes}:f> (<t:{closes}:R>).")
    closed = _now(w.channel, post)  # the refusal closed the post at once
    assert closed.content.split("\n")[1:] == [
        "1 player: bob.", f"Sign-up closed <t:{closes}:f> (<t:{closes}:R>).",
        f"It starts <t:{starts}:f> (<t:{starts}:R>).", f"Its news: <#{thread.id}>"]
    assert _labels(closed) == ["Leave"]
    r = await w.carol.slash(w.channel, "tournament join", tournament=1)
    assert r.ephemeral and r.response.content == (
        f"Sign-up for tournament T1 closed <t:{closes}:f> (<t:{closes}:R>).")
    edited = closed.edited_at
    assert edited is not None
    await w.bot.tick()  # closed already: not edited again
    assert _now(w.channel, post).edited_at == edited

    w.clock.t = starts  # too few players: cancelled at its start, and the post says so
    await w.bot.tick()
    assert _now(w.channel, post).content.split("\n")[2:] == [
        "The tournament was cancelled.", f"Its news: <#{thread.id}>"]
    assert _labels(_now(w.channel, post)) == []


async def test_a_ladders_sign_up_post_keeps_leave_after_its_deadline(world):
    r = await world.alice.slash(world.channel, "tournament create", variant="clash",
                                format="ladder", name="Club ladder", days=3, signup_days=1)
    post = _now(world.channel, r.response)
    await world.alice.click(post, label="Join")
    closes = int(world.clock.t + 86_400)
    world.clock.t = closes + 60
    await world.bot.tick()
    closed = _now(world.channel, post)
    assert closed.content.split("\n")[1:3] == [
        "1 player: alice.", f"Sign-up closed <t:{closes}:f> (<t:{closes}:R>)."]
    assert _labels(closed) == ["Leave"]


async def test_the_sign_up_deadline_in_vietnamese(world, vietnamese, moderator):
    await moderator.slash(world.channel, "server settings", language="vi")
    r = await world.alice.slash(world.channel, "tournament create", variant="clash",
                                name="Spring", days=3, signup_days=2)
    post = _now(world.channel, r.response)
    closes = int(world.clock.t + 2 * 86_400)
    assert post.content.split("\n")[2:4] == [
        "Đăng ký bằng nút Tham gia hoặc `/tournament join tournament:1`.",
        f"Hạn đăng ký là <t:{closes}:f> (<t:{closes}:R>)."]
    world.clock.t += 86_400
    await world.alice.slash(world.channel, "tournament create", variant="clash", name="Autumn",
                            days=3, signup_days=1, start_days=3)
    autumn = next(m for m in world.channel.history() if "Autumn" in m.content)
    world.clock.t += 86_400
    await world.bot.tick()  # Spring starts (and is cancelled), Autumn's sign-up closes
    assert _now(world.channel, autumn).content.split("\n")[2] == (
        f"Đã đóng đăng ký lúc <t:{closes}:f> (<t:{closes}:R>).")
    assert _labels(_now(world.channel, autumn)) == ["Rời giải"]
    r = await world.bob.slash(world.channel, "tournament join", tournament=2)
    assert r.ephemeral and r.response.content == (
        f"Việc đăng ký giải đấu T2 đã đóng lúc <t:{closes}:f> (<t:{closes}:R>).")


async def test_a_deadline_that_passed_while_the_bot_was_down_closes_the_post_after(world):
    r = await world.alice.slash(world.channel, "tournament create", variant="clash",
                                name="Spring", days=3, signup_days=1, start_days=3)
    post = _now(world.channel, r.response)
    closes = int(world.clock.t + 86_400)
    world.clock.t = closes + 3_600
    await world.restart()
    await world.bot.tick()
    assert _now(world.channel, post).content.split("\n")[2] == (
        f"Sign-up closed <t:{closes}:f> (<t:{closes}:R>).")
    assert _labels(_now(world.channel, post)) == ["Leave"]


async def test_an_option_of_another_format_is_refused_on_discord(world):
    """`/tournament create` with a Swiss's rounds on a round-robin, or a start on a ladder
    (which runs at once): refused in words, nothing made (the text commands refuse them
    first, in their own words)."""
    r = await world.alice.slash(world.channel, "tournament create", variant="clash",
                                format="round-robin", rounds=5)
    assert r.response.content == "A round-robin tournament takes no rounds."
    r = await world.alice.slash(world.channel, "tournament create", variant="clash",
                                format="ladder", start_days=2)
    assert r.response.content == "A ladder tournament takes no start days."
    assert await world.service.tournaments.listing() == []
