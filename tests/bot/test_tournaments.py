"""Tournaments through the service: sign-up, start, play, withdrawals, time-outs, round
deadlines, ladders, restarts and two processes, on both databases with a clock moved by
hand. The pairing and tie-break rules themselves are tested in test_pairing.py and
test_tiebreaks.py; here, what a director and the players see."""

from __future__ import annotations

import asyncio
import random

import pytest
from conftest import PLACE, ManualClock, in_both

from bot.config import Settings
from bot.i18n import render
from bot.service import GameService, outbox
from bot.service.model import Player
from bot.service.results import Reason
from bot.service.tournaments import pairings_text, standings_text, swiss_entrant

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")


async def players(service: GameService, count: int) -> list[Player]:
    return [await service.player("console", name.lower(), name) for name in NAMES[:count]]


async def signed_up(service: GameService, people: list[Player], fmt: str, **terms: object) -> int:
    """A tournament directed by the first player, everyone signed up; its id."""
    made = await service.tournaments.create(people[0], PLACE, "clash", fmt, **terms)
    assert made.ok, made.message
    for p in people:
        assert (await service.tournaments.join(p, made.tournament.id)).ok
    return made.tournament.id


def by_name(people: list[Player]) -> dict[int, Player]:
    return {p.id: p for p in people}


async def open_games(service: GameService, tournament_id: int, round_number: int | None = None):
    table = await service.tournaments.table(tournament_id)
    return [p for s in table.sections for p in s.pairings
            if p.result is None and (round_number is None or p.round == round_number)]


async def lose(service: GameService, people: dict[int, Player], game_id: int, side: int) -> None:
    """The player of ``side`` resigns game ``game_id``."""
    game = await service.game(game_id)
    assert (await service.resign(people[game.players[side]], game_id)).ok


async def draw(service: GameService, game_id: int) -> None:
    """Game ``game_id`` adjudicated a draw by its director (Clash has no draw offers)."""
    assert (await service.rooms.adjudicate(game_id, None, "Ann")).ok


# --- refusals -------------------------------------------------------------------------
async def test_the_life_of_a_sign_up_and_its_refusals(service: GameService, offered) -> None:
    ann, bob, cat, dan = await players(service, 4)
    made = await service.tournaments.create(ann, PLACE, "clash", "round-robin", name="Spring",
                                            days=3, size=3)
    assert in_both(made) == (
        "New tournament T1 Spring: Clash of Command, round-robin, 3 "
        "days per move, rated, at most 3 players. Sign up with `join T1`; Ann starts it with "
        "`tournament start T1`.",
        "Giải đấu mới T1 Spring: Đại chiến Chỉ huy, vòng tròn, 3 ngày "
        "mỗi nước, tính điểm, tối đa 3 người chơi. Đăng ký bằng `join T1`; Ann bắt đầu giải "
        "bằng `tournament start T1`.")
    t = made.tournament.id
    assert in_both(await service.tournaments.join(bob, t)) == (
        "You joined tournament T1 (Spring); 1 player so far.",
        "Bạn đã tham gia giải đấu T1 (Spring); hiện có 1 người chơi.")
    refused = await service.tournaments.join(bob, t)
    assert (refused.reason, *in_both(refused)) == (
        Reason.ALREADY_IN, "You are already in tournament T1.",
        "Bạn đã ở trong giải đấu T1 rồi.")
    refused = await service.tournaments.start(bob, t)
    assert (refused.reason, *in_both(refused)) == (
        Reason.NOT_DIRECTOR,
        "Only the director of tournament T1 (Ann) or a server admin can do that.",
        "Chỉ người điều hành giải đấu T1 (Ann) hoặc quản trị viên máy chủ mới làm được "
        "việc đó.")
    refused = await service.tournaments.start(ann, t)
    assert (refused.reason, *in_both(refused)) == (
        Reason.TOO_FEW_PLAYERS,
        "Tournament T1 needs at least 3 players to start; it has 1.",
        "Giải đấu T1 cần ít nhất 3 người chơi để bắt đầu; hiện có 1.")
    assert (await service.tournaments.join(cat, t)).ok
    assert (await service.tournaments.join(ann, t)).ok
    refused = await service.tournaments.join(dan, t)
    assert (refused.reason, *in_both(refused)) == (
        Reason.TOURNAMENT_FULL, "Tournament T1 is full (3 players).",
        "Giải đấu T1 đã đủ người (3 người chơi).")
    assert in_both(await service.tournaments.leave(cat, t)) == (
        "You left tournament T1.", "Bạn đã rời giải đấu T1.")
    refused = await service.tournaments.leave(cat, t)
    assert (refused.reason, refused.message) == (Reason.NOT_IN,
                                                 "You are not in tournament T1.")
    assert (await service.tournaments.join(dan, t)).ok  # the place Cat left
    assert (await service.tournaments.start(ann, t)).ok
    refused = await service.tournaments.join(cat, t)
    assert (refused.reason, *in_both(refused)) == (
        Reason.TOURNAMENT_CLOSED, "Tournament T1 has started; sign-up is closed.",
        "Giải đấu T1 đã bắt đầu; đã hết hạn đăng ký.")
    refused = await service.tournaments.start(ann, t)
    assert refused.message == "Tournament T1 has started already."
    refused = await service.tournaments.join(cat, 99)
    assert (refused.reason, *in_both(refused)) == (
        Reason.NO_SUCH_TOURNAMENT, "There is no tournament T99.", "Không có giải đấu T99.")
    game = (await open_games(service, t))[0].game_id
    people = by_name([ann, bob, dan])
    refused = await service.abort(people[(await service.game(game)).players[0]], game)
    assert (refused.reason, *in_both(refused)) == (
        Reason.TOURNAMENT_GAME,
        f"Game #{game} is a tournament game: it cannot be aborted; you may resign.",
        f"Ván #{game} là ván của giải đấu: không thể hủy ván; bạn có thể xin thua.")


@pytest.mark.parametrize(("terms", "message"), [
    ({"format": "knockout"},
     "There is no tournament format 'knockout'; choose round-robin, swiss or ladder."),
    ({"format": "swiss", "rounds": 31}, "The rounds must be from 1 to 30."),
    ({"size": 2}, "The size must be from 3 to 1000."),
    ({"cycles": 3}, "The cycles must be from 1 to 2."),
    ({"format": "ladder", "reach": 0}, "The reach must be from 1 to 20."),
    ({"adjudication": "coin"},
     "A game unfinished at a round's deadline can continue or draw, not 'coin'."),
    ({"signup_days": 5, "start_days": 2},
     "A tournament cannot start before its sign-up closes."),
    ({"days": 4}, "'4' is not a time control: the time per move is 1, 2, 3, 5, 7 or 14 days, "
     "or none."),
    ({"variant": "checkers"}, "There is no variant called 'checkers'. Choose one of: clash, "
     "commander, combined-arms, mini-chieftain, micro-chieftain."),
    ({"size": -1}, "-1 is not a whole number."),
    ({"signup_days": float("inf")}, "inf is not a number of days I can use: give a number "
     "above 0 and at most 366."),
])
async def test_terms_a_director_gets_wrong(service: GameService, terms: dict, message: str
                                           ) -> None:
    ann, = await players(service, 1)
    terms = {"variant": "clash", **terms}
    refused = await service.tournaments.create(ann, PLACE, **terms)
    assert (refused.ok, refused.message) == (False, message)
    assert await service.tournaments.listing() == []


async def test_the_computer_and_a_ladder_command_elsewhere(service: GameService) -> None:
    ann, bob, cat = await players(service, 3)
    computer = await service.player("computer", "1", "Computer (level 1)")
    t = await signed_up(service, [ann, bob, cat], "round-robin")
    refused = await service.tournaments.join(computer, t)
    assert refused.message == "The computer does not play in tournaments."
    refused = await service.tournaments.ladder_challenge(bob, t, ann)
    assert refused.message == "Tournament T1 is no ladder."


# --- round-robin ----------------------------------------------------------------------
async def test_a_six_player_round_robin_played_through(service: GameService,
                                                       clock: ManualClock, offered) -> None:
    people = await players(service, 6)
    t = await signed_up(service, people, "round-robin", name="Spring", days=3)
    started = await service.tournaments.start(people[0], t)
    assert in_both(started) == (
        "Tournament T1 (Spring) has started: 6 players, 1 section; all 15 games started at "
        "once.",
        "Giải đấu T1 (Spring) đã bắt đầu: 6 người chơi, 1 bảng; cả 15 ván cùng bắt đầu một "
        "lúc.")
    table = await service.tournaments.table(t)
    games = table.sections[0].pairings
    assert len(games) == 15 and {p.round for p in games} == {1, 2, 3, 4, 5}
    met = {frozenset((p.first, p.second)) for p in games}
    assert len(met) == 15  # everyone meets everyone once
    for p in people:  # colours balanced: 3 and 2, or 2 and 3
        firsts = sum(1 for g in games if g.first == p.id)
        assert firsts in (2, 3)
    # each player is told of all five of their games at once
    notes = [n for n in await service.pending_notifications("console", limit=1000)
             if n.kind == "tournament-games"]
    assert sorted(n.player_id for n in notes) == sorted(p.id for p in people)
    # the lower pairing number wins; the games of round 5 are drawn
    numbers = {e.player_id: e.number for e in table.entries}
    who = by_name(people)
    for p in games:
        if p.round == 5:
            await draw(service, p.game_id)
        else:
            await lose(service, who, p.game_id, 0 if numbers[p.first] > numbers[p.second] else 1)
        clock.advance(seconds=60)
    table = await service.tournaments.table(t)
    assert table.tournament.status == "over"
    lines = table.sections[0].lines
    assert [numbers[line.player_id] for line in lines] == [1, 2, 3, 4, 5, 6]
    assert all(line.played == 5 for line in lines)
    over = [n for n in await service.pending_notifications("console", limit=1000)
            if n.kind == "tournament-over"]
    assert len(over) == 7  # the place and each player
    text = standings_text(table)
    assert (str(text), render(text, "vi")) == (
        "T1 Spring: Clash of Command, round-robin, 3 days per move, rated (over).\n"
        "1. Fay: 4½ (DE –, SB 9.75, Wins 4)\n"
        "2. Dan: 3½ (DE –, SB 5.75, Wins 3)\n"
        "3. Ann: 2½ (DE 1, SB 4.25, Wins 2)\n"
        "4. Cat: 2½ (DE 0, SB 3.75, Wins 2)\n"
        "5. Bob: 1½ (DE –, SB 2.75, Wins 1)\n"
        "6. Eve: ½ (DE –, SB 1.25, Wins 0)",
        "T1 Spring: Đại chiến Chỉ huy, vòng tròn, 3 ngày mỗi nước, tính điểm (đã kết thúc).\n"
        "1. Fay: 4½ (ĐĐ –, SB 9.75, Thắng 4)\n"
        "2. Dan: 3½ (ĐĐ –, SB 5.75, Thắng 3)\n"
        "3. Ann: 2½ (ĐĐ 1, SB 4.25, Thắng 2)\n"
        "4. Cat: 2½ (ĐĐ 0, SB 3.75, Thắng 2)\n"
        "5. Bob: 1½ (ĐĐ –, SB 2.75, Thắng 1)\n"
        "6. Eve: ½ (ĐĐ –, SB 1.25, Thắng 0)")
    # Ann beat Cat (a lower pairing number wins): the direct encounter splits their 2½
    assert (over[-1].text, outbox.worded(over[-1], "vi")) == (
        "Tournament T1 (Spring) is over. Winner: Fay (4½). Standings: `standings T1`. "
        "Ratings: Fay 1500 → 1825, Dan 1500 → 1648, Ann 1500 → 1450, Cat 1500 → 1536, Bob "
        "1500 → 1380, Eve 1500 → 1151.",
        "Giải đấu T1 (Spring) đã kết thúc. Vô địch: Fay (4½). Bảng xếp hạng: `standings "
        "T1`. Điểm xếp hạng: Fay 1500 → 1825, Dan 1500 → 1648, Ann 1500 → 1450, Cat 1500 → "
        "1536, Bob 1500 → 1380, Eve 1500 → 1151.")


async def test_a_double_round_robin_in_sections(service: GameService) -> None:
    people = await players(service, 8)
    t = await signed_up(service, people, "round-robin", cycles=2, section_size=4)
    started = await service.tournaments.start(people[0], t)
    assert started.message == ("Tournament T1 (Clash of Command round-robin) has started: 8 "
                               "players, 2 sections; all 24 games started at once.")
    table = await service.tournaments.table(t)
    assert [len(s.lines) for s in table.sections] == [4, 4]
    for section in table.sections:
        pairs = [(p.first, p.second) for p in section.pairings]
        assert len(pairs) == 12 and len(set(pairs)) == 12  # each pair twice, both colours
        assert {frozenset(p) for p in pairs} == {frozenset((a.player_id, b.player_id))
                                                 for a in section.lines for b in section.lines
                                                 if a.player_id < b.player_id}
    # snake-wise by rating (all 1500 here: by lot), the sections even in size
    assert str(standings_text(table)).splitlines()[1] == "Section 1:"


async def test_no_section_has_fewer_than_three_players(service: GameService) -> None:
    """Seven players in sections of at most three made sections of three, two and two (a
    tester's finding): two sections of four and three now."""
    people = await players(service, 7)
    t = await signed_up(service, people, "round-robin", section_size=3)
    started = await service.tournaments.start(people[0], t)
    assert started.message == ("Tournament T1 (Clash of Command round-robin) has started: 7 "
                               "players, 2 sections; all 9 games started at once.")
    table = await service.tournaments.table(t)
    assert sorted(len(s.lines) for s in table.sections) == [3, 4]


async def four_started(service: GameService):
    """A four-player round-robin started: its id, its players by id, the fourth player
    (Dan) and Dan's games."""
    people = await players(service, 4)
    t = await signed_up(service, people, "round-robin")
    await service.tournaments.start(people[0], t)
    dan = people[3]
    return t, by_name(people), dan, [p for p in await open_games(service, t)
                                     if dan.id in (p.first, p.second)]


async def test_withdrawing_before_half_strikes_every_game_out(service: GameService,
                                                              offered) -> None:
    t, who, gus, mine = await four_started(service)
    await lose(service, who, mine[0].game_id, 0 if mine[0].first == gus.id else 1)
    english, vietnamese = in_both(await service.tournaments.leave(gus, t))
    assert english == ("You withdrew from tournament T1: fewer than half of your games were "
                       "finished, so all of them are struck out.")
    assert vietnamese == ("Bạn đã rút lui khỏi giải đấu T1: chưa đến một nửa số ván của bạn "
                          "đã xong, nên tất cả đều bị hủy kết quả.")
    table = await service.tournaments.table(t)
    struck = [p for p in table.sections[0].pairings if gus.id in (p.first, p.second)]
    assert [p.result for p in struck] == ["void"] * 3
    for p in struck[1:]:
        game = await service.game(p.game_id)
        assert (game.status, game.rated) == ("aborted", False)
        result = service.describe_result(game)
        assert (str(result), render(result, "vi")) == (
            "aborted (struck out of the tournament, as Dan withdrew)",
            "đã hủy (bị xóa khỏi giải đấu, vì Dan đã rút lui)")
    line = next(x for x in table.sections[0].lines if x.player_id == gus.id)
    assert (line.withdrawn, line.score, line.played) == (True, 0.0, 0)
    assert "Dan (withdrawn): 0" in str(standings_text(table))


async def test_withdrawing_after_half_loses_the_rest(service: GameService, offered) -> None:
    t, who, dan, mine = await four_started(service)
    for p in mine[:2]:  # Dan wins two
        await lose(service, who, p.game_id, 1 if p.first == dan.id else 0)
    left = await service.tournaments.leave(dan, t)
    assert in_both(left) == (
        "You withdrew from tournament T1: your 1 unfinished game is lost.",
        "Bạn đã rút lui khỏi giải đấu T1: bạn bị xử thua 1 ván chưa xong.")
    last = await service.game(mine[2].game_id)
    assert (last.status, last.rated) == ("over", False)
    assert last.reason == "Dan withdrew from the tournament"
    table = await service.tournaments.table(t)
    results = [p.result for p in table.sections[0].pairings if dan.id in (p.first, p.second)]
    assert results[2] in ("+-", "-+") and results[:2] in (["0-1", "0-1"], ["1-0", "0-1"],
                                                          ["0-1", "1-0"], ["1-0", "1-0"])
    line = next(x for x in table.sections[0].lines if x.player_id == dan.id)
    assert (line.score, line.withdrawn) == (2.0, True)


# --- Swiss ----------------------------------------------------------------------------
async def test_a_nine_player_swiss_with_a_bye_a_timeout_and_a_withdrawal(
        service: GameService, clock: ManualClock, offered) -> None:
    people = await players(service, 9)
    who = by_name(people)
    t = await signed_up(service, people, "swiss", rounds=4, days=1, round_days=20,
                        adjudication="continue")
    started = await service.tournaments.start(people[0], t)
    assert started.message == "Tournament T1 (Clash of Command Swiss) has started with 9 players."
    byes = set()
    for round_number in (1, 2, 3, 4):
        table = await service.tournaments.table(t)
        assert table.tournament.round == round_number
        this = [p for p in table.sections[0].pairings if p.round == round_number]
        bye = [p.first for p in this if p.second is None]
        active = [e for e in table.entries if e.status == "in"]
        assert len(bye) == len(active) % 2
        assert not byes & set(bye)  # one bye per player
        byes |= set(bye)
        games = [p for p in this if p.second is not None]
        if round_number == 2:  # a time-out: the first side of board 1 never moves
            clock.advance(days=1, seconds=1)
            assert (await service.process_due())["timeouts"] == len(games)
            for p in games:
                assert (await service.game(p.game_id)).reason.endswith("ran out of time")
            continue
        if round_number == 3:  # one withdraws, after half of their games
            quitter = who[games[-1].second]
            left = await service.tournaments.leave(quitter, t)
            assert left.message == ("You withdrew from tournament T1: your 1 unfinished "
                                    "game is lost.")
            games = games[:-1]
        for k, p in enumerate(games):
            if k == 0 and round_number == 4:
                continue  # unfinished at the deadline: goes on outside the tournament
            await lose(service, who, p.game_id, 1)
        if round_number == 4:  # its players keep moving, within a day, past the deadline
            for _step in range(24):
                game = await service.game(games[0].game_id)
                move = (await service.legal_moves(game))[0]
                assert (await service.move(who[game.players[game.to_move]], game.id, move)).ok
                clock.advance(days=0.9)
            assert (await service.process_due())["tournaments"] == 1
            unplayed = next(p for p in (await service.tournaments.table(t)).sections[0]
                            .pairings if p.round == 4 and p.second is not None)
            assert unplayed.result == "unplayed"
            assert (await service.game(unplayed.game_id)).status == "active"
    table = await service.tournaments.table(t)
    assert table.tournament.status == "over"
    met: set[frozenset[int]] = set()
    for p in table.sections[0].pairings:
        if p.second is not None:
            pair = frozenset((p.first, p.second))
            assert pair not in met  # no one meets twice
            met.add(pair)
    quitter_line = next(x for x in table.sections[0].lines if x.withdrawn)
    assert not any(quitter_line.player_id in (p.first, p.second)
                   for p in table.sections[0].pairings if p.round == 4)
    assert pairings_text(table, 4)


async def test_a_round_deadline_adjudicated_as_draws(service: GameService,
                                                     clock: ManualClock) -> None:
    people = await players(service, 4)
    t = await signed_up(service, people, "swiss", rounds=2, round_days=10, adjudication="draw")
    await service.tournaments.start(people[0], t)
    clock.advance(days=10)
    assert (await service.process_due())["tournaments"] == 1
    table = await service.tournaments.table(t)
    first = [p for p in table.sections[0].pairings if p.round == 1]
    assert [p.result for p in first] == ["1/2-1/2", "1/2-1/2"]
    game = await service.game(first[0].game_id)
    assert (game.status, game.result, game.rated) == ("over", "1/2-1/2", False)
    assert game.reason == "adjudicated a draw at the deadline of tournament T1's round"
    assert table.tournament.round == 2 and len(await open_games(service, t, 2)) == 2


async def test_the_scheduler_starts_a_tournament_or_cancels_it(
        service: GameService, clock: ManualClock, offered) -> None:
    people = await players(service, 3)
    full = await signed_up(service, people, "round-robin", signup_days=2)
    small = (await service.tournaments.create(people[0], PLACE, "clash", "swiss",
                                              signup_days=2, start_days=3)).tournament.id
    await service.tournaments.join(people[1], small)
    clock.advance(days=2)
    refused = await service.tournaments.join(people[2], small)
    assert refused.message.startswith("Sign-up for tournament T2 closed ")
    assert (await service.process_due())["tournaments"] == 1
    assert (await service.tournaments.get(full)).status == "running"
    assert (await service.tournaments.get(small)).status == "signup"
    clock.advance(days=1)
    assert (await service.process_due())["tournaments"] == 1
    assert (await service.tournaments.get(small)).status == "cancelled"
    news = [n for n in await service.pending_notifications("console", limit=1000)
            if n.kind == "tournament-over" and n.player_id == people[1].id]
    assert (news[-1].text, outbox.worded(news[-1], "vi")) == (
        "Tournament T2 (Clash of Command Swiss) is cancelled: it needs at least 3 players and "
        "has 1.",
        "Giải đấu T2 (Đại chiến Chỉ huy hệ Thụy Sĩ) bị hủy: giải cần ít nhất 3 người chơi và "
        "chỉ có 1.")
    assert await service.next_due() is None or await service.next_due() > clock()


# --- ladders --------------------------------------------------------------------------
async def test_a_ladder(service: GameService, offered) -> None:
    people = await players(service, 5)
    ann, bob, cat, dan, eve = people
    who = by_name(people)
    made = await service.tournaments.create(ann, PLACE, "clash", "ladder", reach=2)
    t = made.tournament.id
    joined = await service.tournaments.join(ann, t)
    assert in_both(joined) == (
        "You joined the ladder T1 (Clash of Command ladder) in place 1, at the top: the "
        "players who join after you challenge you.",
        "Bạn đã tham gia bậc thang T1 (Đại chiến Chỉ huy bậc thang) ở bậc 1, trên cùng: "
        "những người chơi tham gia sau sẽ thách đấu bạn.")
    assert in_both(await service.tournaments.join(bob, t)) == (
        "You joined the ladder T1 (Clash of Command ladder) in place 2. Challenge a player "
        "up to 2 places above you: `ladder T1` and their name.",
        "Bạn đã tham gia bậc thang T1 (Đại chiến Chỉ huy bậc thang) ở bậc 2. Hãy thách đấu "
        "người chơi cao hơn bạn tối đa 2 bậc: `ladder T1` kèm tên của họ.")
    for p in people[2:]:
        await service.tournaments.join(p, t)
    refused = await service.tournaments.ladder_challenge(eve, t, bob)
    assert in_both(refused) == (
        "You may challenge players up to 2 places above you; Bob is 3 places above.",
        "Bạn chỉ được thách đấu người chơi cao hơn bạn tối đa 2 bậc; Bob cao hơn 3 bậc.")
    refused = await service.tournaments.ladder_challenge(bob, t, eve)
    assert refused.message == ("Eve is not above you on the ladder T1: challenge someone "
                               "above you.")
    challenged = await service.tournaments.ladder_challenge(eve, t, cat)
    game = challenged.game
    assert challenged.message == (f"Ladder T1: you challenged Cat; game #{game.id} has "
                                  "started. Win it and you take their place.")
    assert game.players == (eve.id, cat.id)
    again = await service.tournaments.ladder_challenge(eve, t, cat)
    assert again.message == f"You are already playing Cat on this ladder: game #{game.id}."
    # one challenge at a time for each player (a tester had two games between places that
    # the first result changed, the second meaning nothing)
    assert in_both(await service.tournaments.ladder_challenge(eve, t, dan)) == (
        f"You are playing a challenge on the ladder T1 already (game #{game.id}): one at a "
        "time.",
        f"Bạn đang đấu một trận thách đấu trên bậc thang T1 rồi (ván #{game.id}): mỗi lần "
        "chỉ một trận.")
    assert in_both(await service.tournaments.ladder_challenge(dan, t, cat)) == (
        f"Cat is playing a challenge on the ladder T1 already (game #{game.id}): challenge "
        "them when it is over.",
        f"Cat đang đấu một trận thách đấu trên bậc thang T1 rồi (ván #{game.id}): hãy thách "
        "đấu họ khi ván đó kết thúc.")
    await lose(service, who, game.id, 1)  # Eve wins: Cat and Dan move down
    table = await service.tournaments.table(t)
    assert [line.name for line in table.sections[0].lines] == ["Ann", "Bob", "Eve", "Cat",
                                                                "Dan"]
    lost = await service.tournaments.ladder_challenge(cat, t, bob)
    await lose(service, who, lost.game.id, 0)  # Cat loses: nothing changes
    open_game = (await service.tournaments.ladder_challenge(eve, t, bob)).game
    assert (await service.tournaments.leave(bob, t)).ok  # places close up
    # Eve, whose challenge was in play, is told it no longer counts (a tester's finding)
    told = [n for n in await service.pending_notifications("console", limit=1000)
            if n.kind == "tournament-news" and n.player_id == eve.id]
    assert (told[-1].text, outbox.worded(told[-1], "vi")) == (
        f"Ladder T1: Bob left the ladder, so game #{open_game.id} no longer counts for it; "
        "it goes on as an ordinary game.",
        f"Bậc thang T1: Bob đã rời bậc thang, nên ván #{open_game.id} không còn được tính "
        "cho bậc thang nữa; ván vẫn tiếp tục như một ván thường.")
    assert not (await service.game(open_game.id)).is_over
    table = await service.tournaments.table(t)
    assert [(line.rank, line.name) for line in table.sections[0].lines
            if not line.withdrawn] == [(1, "Ann"), (2, "Eve"), (3, "Cat"), (4, "Dan")]
    assert table.tournament.status == "running"


# --- restarts and two processes -------------------------------------------------------
async def test_a_restart_between_rounds_loses_nothing(settings: Settings,
                                                      clock: ManualClock) -> None:
    first = await GameService.open(settings, now=clock, rng=random.Random(3))
    people = await players(first, 4)
    t = await signed_up(first, people, "swiss", rounds=3)
    await first.tournaments.start(people[0], t)
    await first.close()
    again = await GameService.open(settings, now=clock, rng=random.Random(4))
    try:
        who = by_name(people)
        for p in await open_games(again, t, 1):
            await lose(again, who, p.game_id, 0)
        table = await again.tournaments.table(t)
        assert table.tournament.round == 2
        assert len([p for p in table.sections[0].pairings if p.round == 2]) == 2
    finally:
        await again.close()


async def test_two_processes_never_pair_a_round_twice(settings: Settings,
                                                      clock: ManualClock) -> None:
    one = await GameService.open(settings, now=clock, rng=random.Random(1))
    two = await GameService.open(settings, now=clock, rng=random.Random(2))
    try:
        people = await players(one, 6)
        t = await signed_up(one, people, "swiss", rounds=3, round_days=5)
        await one.tournaments.start(people[0], t)
        clock.advance(days=5)
        await asyncio.gather(one.process_due(), two.process_due())
        table = await one.tournaments.table(t)
        assert table.tournament.round == 2
        assert len([p for p in table.sections[0].pairings if p.round == 2]) == 3
    finally:
        await one.close()
        await two.close()


async def test_mixed_transports_each_player_hears_on_their_own(service: GameService,
                                                                offered) -> None:
    """A tournament made on Discord with a player by mail: every player's news goes by
    their own transport, the place's to the tournament's channel; a game's news too."""
    place = "discord:1/2"
    ann = await service.player("discord", "11", "Ann")
    bob = await service.player("discord", "12", "Bob")
    zoe = await service.player("email", "zoe@example.org", "zoe@example.org")
    await service.set_preference(zoe, "language", "vi")
    made = await service.tournaments.create(ann, place, "commander", "round-robin", days=3)
    t = made.tournament.id
    for p in (ann, bob, zoe):
        assert (await service.tournaments.join(p, t)).ok
    assert (await service.tournaments.start(ann, t)).ok
    mail = [n for n in await service.pending_notifications("email", limit=100)]
    assert [n.kind for n in mail] == ["tournament-start", "tournament-games"]
    assert {n.player_id for n in mail} == {zoe.id}
    assert outbox.worded(mail[0], "vi") == (
        "Giải đấu T1 (Cờ Tư Lệnh vòng tròn) đã bắt đầu: 3 người chơi, 1 bảng; cả 3 ván cùng "
        "bắt đầu một lúc.")
    discord = await service.pending_notifications("discord", limit=100)
    assert {n.place for n in discord if n.player_id is None} == {place}
    zoes = [p for p in (await service.tournaments.table(t)).sections[0].pairings
            if zoe.id in (p.first, p.second)]
    game = await service.game(zoes[0].game_id)
    assert game.place == place and "email" in game.transports
    other = ann if ann.id in game.players else bob
    assert (await service.resign(other, game.id)).ok
    over = [n for n in await service.pending_notifications("email", limit=100)
            if n.kind == "game-over"]
    assert [n.game_id for n in over] == [game.id]


# --- what a tester found --------------------------------------------------------------
async def test_a_swiss_longer_than_it_can_be_paired_says_why_it_ends(
        service: GameService, clock: ManualClock) -> None:
    """Three players, thirty rounds: after three rounds everyone has met everyone and had
    the bye; the place is told why it ends, a future round is 'not paired yet', and no
    game rated means no 'Ratings:' line."""
    people = await players(service, 3)
    t = await signed_up(service, people, "swiss", rounds=30, days=7, round_days=2,
                        adjudication="draw")
    await service.tournaments.start(people[0], t)
    assert str(pairings_text(await service.tournaments.table(t), 2)) == (
        "Round 2 of tournament T1 is not paired yet.")
    for _round in range(3):
        clock.advance(days=2)
        await service.process_due()
    table = await service.tournaments.table(t)
    assert (table.tournament.status, table.tournament.rounds) == ("over", 3)
    news = [n.text for n in await service.pending_notifications("console", limit=1000)
            if n.player_id is None and n.kind in ("tournament-news", "tournament-over")]
    assert news == [
        "Tournament T1: round 4 cannot be paired (the players have met everyone they may "
        "meet), so the tournament ends after round 3.",
        "Tournament T1 (Clash of Command Swiss) is over. Winners: Cat, Ann, Bob (2). "
        "Standings: `standings T1`."]


async def test_news_of_a_tournament_follows_the_end_of_the_game_that_caused_it(
        service: GameService) -> None:
    """The end of a tournament game and the next round's pairings share one lane, so a
    place gets them in that order; leaving before the start is news there too, and
    withdrawing twice is refused as such."""
    people = await players(service, 4)
    who = by_name(people)
    t = await signed_up(service, people, "swiss", rounds=2)
    assert (await service.tournaments.leave(people[3], t)).ok
    assert (await service.tournaments.join(people[3], t)).ok
    await service.tournaments.start(people[0], t)
    for p in await open_games(service, t, 1):
        await lose(service, who, p.game_id, 1)
    place = [n for n in await service.pending_notifications("console", limit=1000)
             if n.player_id is None]
    kinds = [(n.kind, n.lane) for n in place if n.kind in ("game-over", "tournament-round")]
    lane = f"place:{PLACE}/"
    assert kinds == [("tournament-round", lane), ("game-over", lane), ("game-over", lane),
                     ("tournament-round", lane)]
    assert "Dan left tournament T1 (3 players)." in [n.text for n in place]
    assert (await service.tournaments.leave(people[1], t)).ok
    again = await service.tournaments.leave(people[1], t)
    assert again.message == "You have withdrawn from tournament T1 already."


async def test_a_mail_player_in_a_discord_swiss_gets_the_rounds_news(service: GameService,
                                                                       offered) -> None:
    """Mail has no place where a Discord tournament's news is posted: its mail players
    get each round's pairings and each withdrawal themselves, in their language."""
    place = "discord:1/2"
    people = [await service.player("discord", str(n), name)
              for n, name in enumerate(("Ann", "Bob", "Cat"), start=11)]
    zoe = await service.player("email", "zoe@example.org", "zoe@example.org")
    await service.set_preference(zoe, "language", "vi")
    made = await service.tournaments.create(people[0], place, "clash", "swiss", rounds=2)
    for p in (*people, zoe):
        assert (await service.tournaments.join(p, made.tournament.id)).ok
    assert (await service.tournaments.start(people[0], made.tournament.id)).ok
    assert (await service.tournaments.leave(people[2], made.tournament.id)).ok
    mail = [n for n in await service.pending_notifications("email", limit=100)
            if n.kind in ("tournament-round", "tournament-news")]
    assert [n.player_id for n in mail] == [zoe.id, zoe.id]
    assert outbox.worded(mail[0], "vi").startswith("Giải đấu T1, vòng 1/2: ")
    assert outbox.worded(mail[1], "vi").startswith("Cat đã rút lui khỏi giải đấu T1")
    discord = [n for n in await service.pending_notifications("discord", limit=100)
               if n.kind == "tournament-round" and n.player_id is not None]
    assert discord == []  # Discord players read the place


async def test_a_bye_counts_in_the_standings_when_its_round_is_over(
        service: GameService, offered) -> None:
    """Three players: in round 1 Ann beats Cat and Bob has the bye; in round 2 Cat has the
    bye while Ann and Bob play. Until their game ends Cat's bye is not counted (neither
    its point nor its dummy opponent in the Buchholz), so Cat is not above Ann, who beat
    her; when Bob wins it the round is complete and the bye counts. Round 3's bye goes to
    Ann, the only one without one, and the pairing counts Cat's bye."""
    people = await players(service, 3)
    ann, bob, cat = people
    who = by_name(people)
    t = await signed_up(service, people, "swiss", rounds=3)
    await service.tournaments.start(ann, t)
    one = await open_games(service, t, 1)
    table = await service.tournaments.table(t)
    byes = {p.round: p.first for p in table.sections[0].pairings if p.second is None}
    assert ([(p.first, p.second) for p in one], byes) == ([(ann.id, cat.id)], {1: bob.id})
    await lose(service, who, one[0].game_id, 1)  # Ann beats Cat: round 2 is paired
    two = await open_games(service, t, 2)
    table = await service.tournaments.table(t)
    byes = {p.round: p.first for p in table.sections[0].pairings if p.second is None}
    assert ({two[0].first, two[0].second}, byes) == ({ann.id, bob.id}, {1: bob.id, 2: cat.id})
    text = standings_text(table)
    assert (str(text), render(text, "vi")) == (
        "T1 Clash of Command Swiss: 3 rounds, no clock, rated (round 2 of 3).\n"
        "1. Bob: 1 (Bh-1 0, Bh 1, SB 1, DE –, Wins 0)\n"
        "2. Ann: 1 (Bh-1 0, Bh 0, SB 0, DE –, Wins 1)\n"
        "3. Cat: 0 (Bh-1 0, Bh 1, SB 0, DE –, Wins 0)",
        "T1 Đại chiến Chỉ huy hệ Thụy Sĩ: 3 vòng, không tính giờ, tính điểm (vòng 2/3).\n"
        "1. Bob: 1 (Bh-1 0, Bh 1, SB 1, ĐĐ –, Thắng 0)\n"
        "2. Ann: 1 (Bh-1 0, Bh 0, SB 0, ĐĐ –, Thắng 1)\n"
        "3. Cat: 0 (Bh-1 0, Bh 1, SB 0, ĐĐ –, Thắng 0)")
    await lose(service, who, two[0].game_id, 0 if two[0].first == ann.id else 1)  # Bob wins
    table = await service.tournaments.table(t)
    assert str(standings_text(table)).splitlines()[1:] == [
        "1. Bob: 2 (Bh-1 2, Bh 3, SB 3, DE –, Wins 1)",
        "2. Ann: 1 (Bh-1 2, Bh 3, SB 1, DE –, Wins 1)",
        "3. Cat: 1 (Bh-1 1, Bh 2, SB 1, DE –, Wins 0)"]
    # round 3: Ann has the bye (Bob and Cat have had theirs), paired on scores that count
    # Cat's bye
    three = [p for p in table.sections[0].pairings if p.round == 3]
    assert [(p.first, p.second) if p.second is None else ({p.first, p.second}, None)
            for p in three] == [({bob.id, cat.id}, None), (ann.id, None)]
    before = [p for p in table.sections[0].pairings if p.round < 3]
    entrants = {e.player_id: swiss_entrant(e, before) for e in table.entries}
    assert [(entrants[p.id].score, entrants[p.id].had_bye) for p in people] == [
        (1.0, False), (2.0, True), (1.0, True)]
