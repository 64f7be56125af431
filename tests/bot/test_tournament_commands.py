"""Tournaments at the console: `tournaments`, `tournament create|start|adjudicate`, `join`,
`leave`, `standings`, `pairings` and `ladder`, their answers in English and in Vietnamese,
how a tournament is named (or meant without a name), and the refusals of words almost
right."""

from __future__ import annotations

import pytest

from bot.commands import closest_word, slips
from bot.console.console import PLACE
from bot.service.boundary import shorten
from bot.tournament_commands import day_count, tournament_ref

CREATED = ("New tournament T1 Spring open: Clash of Command, round-robin, 3 days per move, "
           "rated. Sign up with `join T1`; Alice starts it with `tournament start T1`.")
OPTIONS = ("The options of `tournament create`: round-robin, swiss, ladder, 3d, 3d+1d max10d, "
           "total60d, none, rated, unrated, double, rounds N, size N, sections N, round-days N, "
           "adjudicate continue|draw, reach N, signup N, start N, name … (`help tournament` "
           "tells more).")


async def _three_signed_up(session, create: str = "tournament create clash round-robin 3d "
                                                   "name Spring open") -> None:
    """Alice makes a tournament (T1) and she, Bob and Carol join it; Alice types next."""
    assert "T1" in await session(create)
    for name in ("Alice", "Bob", "Carol"):
        await session(f"as {name}")
        assert "T1" in await session("join T1")
    await session("as Alice")


async def _first_move(service, game_id: int) -> str:
    return (await service.legal_moves(await service.game(game_id)))[0]


# --- a round-robin from the first word to the last -------------------------------------------
async def test_a_round_robin_is_made_joined_started_played_and_left_at_the_console(session,
                                                                                  service):
    assert await session("tournaments") == (
        "There are no tournaments here. Make one with `tournament create clash round-robin`.")
    assert await session("tournament create clash round-robin 3d name Spring open") == (
        CREATED)
    assert await session("tournaments") == (
        "Tournaments:\n  T1 Spring open: Clash of Command, round-robin, 3 days per move, rated "
        "(signing up): 0 players; join with `join T1`.")
    # the one tournament open here is meant without its name
    assert await session("join") == ("You joined tournament T1 (Spring open); 1 player so "
                                     "far.\n  [to everyone here] Alice joined tournament T1 "
                                     "(1 player).")
    await session("as Bob")
    assert (await session("join T1")).startswith(
        "You joined tournament T1 (Spring open); 2 players so far.")
    await session("as Carol")
    assert (await session("join #t1")).startswith(
        "You joined tournament T1 (Spring open); 3 players so far.")
    assert await session("join T1") == "You are already in tournament T1."
    await session("as Alice")

    started = await session("tournament start")  # the one she directs
    assert started.splitlines()[0] == ("Tournament T1 (Spring open) has started: 3 players, "
                                       "1 section; all 3 games started at once.")
    assert ("  [to bob] Tournament T1: your games have started (3 days per move): game #2 "
            "against Carol, you play White; game #3 against Alice, you play Black.") in started
    assert await session("pairings") == (
        "Tournament T1, every game:\n1. Carol – Alice (game #1): in play\n"
        "2. Bob – Carol (game #2): in play\n3. Alice – Bob (game #3): in play")

    # game #3, Alice (White) against Bob, played at the console until Bob resigns
    for name in ("Alice", "Bob", "Alice"):
        await session(f"as {name}")
        move = await _first_move(service, 3)
        assert (await session(f"move #3 {move}")).splitlines()[0].endswith(
            "is to move.")
    await session("as Bob")
    assert (await session("resign #3")).startswith(
        "You resigned game #3: Alice (White) wins: Bob resigned (1-0).")
    assert await session("standings") == (
        "T1 Spring open: Clash of Command, round-robin, 3 days per move, rated (running).\n"
        "1. Alice: 1 (DE –, SB 0, Wins 1)\n2=. Bob: 0 (DE –, SB 0, Wins 0)\n"
        "2=. Carol: 0 (DE –, SB 0, Wins 0)")

    # Carol withdraws having finished none of her games: they are struck out, and with
    # every game over the tournament ends
    await session("as Carol")
    # `leave` does not withdraw from a tournament that has started (a `leave` confirmed by
    # mail after the start withdrew a tester): `withdraw` does
    assert await session("leave") == (
        "Tournament T1 has started, so leaving it now is withdrawing: your unfinished games "
        "are lost, or, with fewer than half of your games finished, all of them are struck "
        "out. To withdraw, send `withdraw T1`.")
    left = await session("withdraw")
    assert left.splitlines()[0] == ("You withdrew from tournament T1: fewer than half of your "
                                    "games were finished, so all of them are struck out.")
    # each player is told, and at one keyboard the place's copy is not printed again
    assert ("  [to alice] Tournament T1 (Spring open) is over. Winner: Alice (1). "
            "Standings: `standings T1`. Ratings: Alice 1500 → 1662, Bob 1500 → 1338.") in left
    # Carol, who withdrew, is told too: her results are in it (a tester's finding)
    async with service.db.snapshot() as s:
        told = await s.all("SELECT p.display_name AS name FROM outbox o JOIN players p ON "
                           "p.id = o.player_id WHERE o.kind = 'tournament-over'")
    assert sorted(r["name"] for r in told) == ["Alice", "Bob", "Carol"]
    assert await session("standings T1") == (
        "T1 Spring open: Clash of Command, round-robin, 3 days per move, rated (over).\n"
        "1. Alice: 1 (DE –, SB 0, Wins 1)\n2. Bob: 0 (DE –, SB 0, Wins 0)\n"
        "3. Carol (withdrawn): 0 (DE –, SB 0, Wins 0)")
    assert await session("pairings T1") == (
        "Tournament T1, every game:\n1. Carol – Alice (game #1): struck out\n"
        "2. Bob – Carol (game #2): struck out\n3. Alice – Bob (game #3): 1-0")
    assert (await session("board #2")).splitlines()[0] == (
        "Game #2: Bob (White) vs Carol (Black), Clash of Command. Game over: aborted (struck "
        "out of the tournament, as Carol withdrew).")
    assert (await service.tournaments.get(1)).status == "over"


async def test_a_player_leaves_before_the_start_and_withdraw_says_the_same(session):
    await _three_signed_up(session)
    assert await session("leave T1") == ("You left tournament T1.\n  [to everyone here] Alice "
                                         "left tournament T1 (2 players).")
    assert await session("withdraw T1") == "You are not in tournament T1."
    assert await session("leave") == ("Which tournament? Name it, as in `leave T3`; "
                                      "`tournaments` lists those here.")


# --- the words in Vietnamese -------------------------------------------------------------------
async def test_the_tournaments_words_in_vietnamese(session, offered):
    await session("language vi")
    assert await session("tournaments") == (
        "Ở đây chưa có giải đấu nào. Hãy tạo một giải bằng `tournament create clash "
        "round-robin`.")
    created = await session("tournament create clash round-robin 3d name Xuân")
    assert created.splitlines()[0] == (
        "Giải đấu mới T1 Xuân: Đại chiến Chỉ huy, vòng tròn, 3 ngày mỗi "
        "nước, tính điểm. Đăng ký bằng `join T1`; Alice bắt đầu giải bằng `tournament start "
        "T1`.")
    assert await session("tournaments") == (
        "Các giải đấu:\n  T1 Xuân: Đại chiến Chỉ huy, vòng tròn, 3 ngày mỗi nước, tính điểm "
        "(đang đăng ký): 0 người chơi; tham gia bằng `join T1`.")
    assert (await session("join")).startswith(
        "Bạn đã tham gia giải đấu T1 (Xuân); hiện có 1 người chơi.")
    assert await session("joni T1") == (
        "'joni' không phải là lệnh: có phải ý bạn là `join T1`? (`help` liệt kê các lệnh.)")
    assert await session("join 1") == (
        "'1' không phải tên một giải đấu: tên giải đấu bắt đầu bằng chữ T, ví dụ `join T1`.")
    assert await session("tournament create clash swiss rouns 5") == (
        "Tôi không hiểu 'rouns': có phải ý bạn là `rounds`? Các tùy chọn của `tournament "
        "create`: round-robin, swiss, ladder, 3d, 3d+1d max10d, total60d, none, rated, unrated, "
        "double, rounds N, size N, sections N, round-days N, adjudicate continue|draw, reach "
        "N, signup N, start N, name … (`help tournament` nói rõ hơn).")
    assert await session("tournament create clash swiss double") == (
        "`double` dành cho giải vòng tròn (mỗi cặp đấu hai lần, cầm cả hai màu), không dành "
        "cho thể thức hệ Thụy Sĩ.")
    assert await session("tournament create clash swiss rounds x") == (
        "`rounds` nhận một số nguyên, ví dụ `rounds 5`.")
    assert await session("tournament create clash ladder reach 2 start 3") == (
        "`start` là tùy chọn của giải đấu vòng tròn hoặc hệ Thụy Sĩ, không phải của giải "
        "bậc thang.")
    assert await session("tournament create clash swiss ladder") == (
        "Một giải đấu chỉ có một thể thức: hệ Thụy Sĩ hoặc bậc thang, không phải cả hai.")
    assert await session("pairings T1 2") == (
        "Giải đấu T1 không chia vòng: `pairings T1` liệt kê mọi ván.")
    assert await session("standings") == (
        "T1 Xuân: Đại chiến Chỉ huy, vòng tròn, 3 ngày mỗi nước, tính điểm (đang đăng ký).\n"
        "1. Alice: 0 (ĐĐ –, SB 0, Thắng 0)")
    assert await session("tournament adjudicate T1 #1 draw") == (
        "Ván #1 không phải là một ván của giải đấu T1.")
    assert (await session("help tournament")).startswith(
        "tournament: Tạo một giải đấu, cho nó bắt đầu, hoặc phân xử một ván của nó (với tư "
        "cách người điều hành).\n\ntournament create clash round-robin 3d\n")
    listed = await session("help")
    assert ("\n  tournaments  Liệt kê các giải đấu ở đây, kèm số người chơi và cách tham gia.\n"
            in listed)
    assert "\n  withdraw     Rút lui khỏi một giải đấu đang diễn ra: nếu chưa đến một nửa số " \
        "ván của bạn đã\n" in listed


async def test_each_reader_reads_the_news_in_their_own_language(session, offered):
    await session("language vi")
    await _three_signed_up(session)  # Alice reads Vietnamese, Bob and Carol English
    started = await session("tournament start T1")
    assert started.splitlines()[0] == ("Giải đấu T1 (Spring open) đã bắt đầu: 3 người chơi, "
                                       "1 bảng; cả 3 ván cùng bắt đầu một lúc.")
    assert ("  [to bob] Tournament T1 (Spring open) has started: 3 players, 1 section; all 3 "
            "games started at once.") in started


# --- the options of `create` -------------------------------------------------------------------
async def test_create_reads_every_option_as_a_word(session, service):
    await session('tournament create commander swiss 7d rounds 5 round-days 30 adjudicate '
                  'draw size 20 unrated signup 3 start 4.5 name "Spring open" marine')
    t = await service.tournaments.get(1)
    assert (t.variant, t.mode, t.format, t.days, t.rounds, t.round_days, t.adjudication,
            t.size, t.section_size, t.rated, t.name) == (
        "commander", "marine", "swiss", 7, 5, 30.0, "draw", 20, None, False, "Spring open")
    assert (t.signup_until - t.created_at, t.starts_at - t.created_at) == (3 * 86400,
                                                                          4.5 * 86400)
    await session("tournament create clash double 3d+1d max10d sections 8 name Autumn double "
                  "cup")
    t = await service.tournaments.get(2)
    assert (t.format, t.cycles, t.time_control, t.name, t.rated, t.section_size) == (
        "round-robin", 2, "3d+1d max10d", "Autumn double cup", True, 8)
    await session("tournament create clash ladder reach 5 none")
    t = await service.tournaments.get(3)
    assert (t.format, t.reach, t.days, t.status) == ("ladder", 5, None, "running")


@pytest.mark.parametrize(("line", "answer"), [
    ("tournament create clash swiss rouns 5", "I do not know 'rouns': did you mean `rounds`? "
     + OPTIONS),
    # options of another format are refused, not ignored (a tester's finding)
    ("tournament create clash round-robin rounds 5", "`rounds` is an option of Swiss "
     "tournaments, not of a round-robin."),
    ("tournament create clash ladder round-days 5", "`round-days` is an option of Swiss "
     "tournaments, not of a ladder."),
    ("tournament create clash ladder start 2", "`start` is an option of round-robin or Swiss "
     "tournaments, not of a ladder."),
    ("tournament create clash swiss sections 4", "`sections` is an option of round-robin "
     "tournaments, not of a Swiss."),
    ("tournament create clash swiss reach 2", "`reach` is an option of ladder tournaments, "
     "not of a Swiss."),
    ("tournament create clash swiss round-robin", "A tournament has one format: Swiss or "
     "round-robin, not both."),
    ("tournament create clash swis", "I do not know 'swis': did you mean `swiss`? " + OPTIONS),
    ("tournament create clsh swiss", "I do not know 'clsh': did you mean `clash`? " + OPTIONS),
    ("tournament create clash swiss frobnicate", "I do not know 'frobnicate'. " + OPTIONS),
    ("tournament create clash swiss rounds", "`rounds` takes a whole number, as in "
     "`rounds 5`."),
    ("tournament create clash swiss round-days soon", "`round-days` takes a number of days, "
     "as in `round-days 7`."),
    ("tournament create clash swiss adjudicate", "`adjudicate` takes `continue` or `draw`, "
     "as in `adjudicate draw`."),
    ("tournament create clash swiss adjudicate resign", "A game unfinished at a round's "
     "deadline can continue or draw, not 'resign'."),
    ("tournament create clash swiss double", "`double` is for a round-robin (each pair plays "
     "twice, both colours), not a Swiss."),
    ("tournament create clash swiss 4d", "'4d' is not a time control: the time per move is 1, "
     "2, 3, 5, 7 or 14 days, or none."),
    ("tournament create clash swiss 3d 3d+1d", "Choose either 3d per move or a Fischer clock "
     "such as 3d+1d, not both."),
    ("tournament create clash swiss size 2", "The size must be from 3 to 1000."),
    ("tournament create clash swiss name", "Which name? Write it after `name`, last, as in "
     "`tournament create clash swiss name Spring open`."),
    ("tournament create clash swiss name " + "x" * 61, "A tournament's name has at most 60 "
     f"characters; {shorten('x' * 61)!r} has 61."),
    ("tournament frob", "I do not know 'frob'. `tournament` takes `create`, `start`, "
     "`adjudicate`, `join`, `leave`, `withdraw`, `standings`, `pairings`, `ladder` or `list`."),
    ("tournament strat T1", "I do not know 'strat': did you mean `start`? `tournament` takes "
     "`create`, `start`, `adjudicate`, `join`, `leave`, `withdraw`, `standings`, `pairings`, "
     "`ladder` or `list`."),
    ("tournament", "Say what to do with a tournament: `create`, `start`, `adjudicate`, `join`, "
     "`leave`, `withdraw`, `standings`, `pairings`, `ladder` or `list`, as in "
     "`tournament start T3`."),
])
async def test_a_word_almost_right_is_refused_naming_the_closest(session, service, line,
                                                                 answer):
    assert await session(line) == answer
    assert await service.tournaments.listing() == []  # nothing was made


async def test_the_longest_line_of_words_is_refused_at_once(session):
    """Every word is looked at once, and only the first characters of one compared with the
    options: the longest line a command may be answers as fast as a short one."""
    words = " ".join(["roundsx"] * 500)[:4096 - len("tournament create clash ")]
    assert (await session("tournament create clash " + words)).startswith(
        "I do not know 'roundsx': did you mean `rounds`?")
    word = "r" * (4096 - len("tournament create clash "))
    assert (await session("tournament create clash " + word)).startswith(
        "I do not know 'rrrrrrrr")
    assert (await session("tournament create clash name " + "Spring " * 580)).startswith(
        "A tournament's name has at most 60 characters")


def test_a_tournament_is_named_with_a_t_and_days_are_read_in_a_few_characters():
    assert [tournament_ref(w) for w in ("T3", "t3", "#T3", "#t12", "3", "#3", "T", "Tx", "T-1")] \
        == [3, 3, 3, 12, None, None, None, None, None]
    assert [day_count(w) for w in ("7", "7d", "0.5", "1.5days", "d", "x", "1.2.3", "9" * 9,
                                   "٣")] == [7.0, 7.0, 0.5, 1.5, None, None, None, None, None]


# --- which tournament ------------------------------------------------------------------------
async def test_a_command_without_a_name_means_the_only_one_or_lists_them(session):
    await session("tournament create clash round-robin name Spring")
    await session("tournament create clash swiss name Autumn")
    assert await session("join") == ("Which tournament? Name one: `join T2` (Autumn); "
                                     "`join T1` (Spring).")
    assert (await session("join T2")).startswith("You joined tournament T2 (Autumn)")
    assert (await session("join")).startswith("You joined tournament T1 (Spring)")
    assert await session("join") == ("Which tournament? Name it, as in `join T3`; "
                                     "`tournaments` lists those here.")
    assert await session("leave") == ("Which tournament? Name one: `leave T2` (Autumn); "
                                      "`leave T1` (Spring).")
    assert await session("join 2") == ("'2' names no tournament: a tournament is named with a "
                                       "T, as in `join T2`.")
    assert await session("join #2") == ("'#2' names no tournament: a tournament is named with "
                                        "a T, as in `join T2`.")
    assert await session("join T99") == "There is no tournament T99."
    assert await session("join T99999999999") == "There is no tournament T99999999999."
    assert await session("joni T1") == (
        "'joni' is no command: did you mean `join T1`? (`help` lists the commands.)")
    assert await session("join T1 now") == (
        "`join` does not take 'now'. For example: `join T3`")
    await session("as Bob")
    assert await session("tournament start") == (
        "Which tournament? Name it, as in `tournament start T3`; `tournaments` lists those "
        "here.")
    assert await session("tournament start T1") == (
        "Only the director of tournament T1 (Alice) or a server admin can do that.")


async def test_the_tournaments_of_another_place_are_not_listed_here(session, service, bob):
    made = await service.tournaments.create(bob, "console:elsewhere", "clash", "swiss")
    assert made.ok
    assert (await session("tournaments")).splitlines()[0] == (
        "There are no tournaments here. Make one with `tournament create clash round-robin`.")
    await service.tournaments.create(bob, PLACE, "clash", "swiss", name="Here")
    assert (await session("tournaments")).splitlines()[:2] == [
        "Tournaments:", "  T2 Here: Clash of Command, Swiss, no clock, rated (signing up): 0 "
        "players; join with `join T2`."]


# --- Swiss pairings by round, the director's ruling, a ladder ----------------------------------
async def test_a_swiss_rounds_pairings_and_the_directors_ruling(session, service):
    await _three_signed_up(session, "tournament create clash swiss rounds 2 name Open")
    await session("as Dan")
    await session("join T1")
    await session("as Alice")
    started = await session("tournament start T1")
    assert started.splitlines()[0] == "Tournament T1 (Open) has started with 4 players."
    pairings = await session("pairings T1")
    assert pairings.splitlines()[0] == "Tournament T1, round 1:"
    assert pairings.splitlines()[1:] == (await session("pairings T1 1")).splitlines()[1:]
    assert await session("pairings T1 2") == "Tournament T1 has paired 1 round so far."
    table = await service.tournaments.table(1)
    games = [p for s in table.sections for p in s.pairings if p.game_id is not None]
    alice = (await service.find_player("console", "Alice")).id
    mine = next(p for p in games if alice in (p.first, p.second))
    game = next(p for p in games if alice not in (p.first, p.second))
    assert await session(f"tournament adjudicate T1 #{mine.game_id} 1-0") == (
        f"You play in game #{mine.game_id}: another director or a server admin must rule on "
        "it.")
    await session("as Bob")
    assert await session(f"tournament adjudicate T1 #{game.game_id} 1-0") == (
        "Only the director of tournament T1 (Alice) or a server admin may adjudicate its "
        "games.")
    await session("as Alice")
    assert await session("tournament adjudicate T1 1-0") == (
        "Say the game and its result (`1-0`, `0-1` or `draw`), as in `tournament adjudicate "
        "T1 #12 1-0`.")
    # with a second tournament of hers signing up, the game names its tournament, and
    # `tournament start` offers only the one that has not started
    await session("tournament create clash round-robin name Later")
    assert await session("tournament start") == (
        "Tournament T2 needs at least 3 players to start; it has 0.")
    ruled = await session(f"tournament adjudicate #{game.game_id} draw")
    assert ruled.startswith(f"Game #{game.game_id} adjudicated: drawn, adjudicated a draw by "
                            f"Alice (1/2-1/2).")
    assert (await service.game(game.game_id)).is_over
    assert f"(game #{game.game_id}): 1/2-1/2" in await session("pairings T1 1")


async def test_a_ladder_challenge_names_a_player_of_the_ladder(session, service):
    await session("tournament create clash ladder reach 2 name Club ladder")
    for name in ("Alice", "Bob", "Carol"):
        await session(f"as {name}")
        assert (await session("join")).startswith("You joined the ladder T1 (Club ladder) in "
                                                  "place ")
    # Carol, third, challenges Alice, first, by her name in any case
    challenged = await session("ladder alice")
    assert challenged.splitlines()[0] == ("Ladder T1: you challenged Alice; game #1 has "
                                          "started. Win it and you take their place.")
    assert await session("ladder T1 Zed") == "I do not know anyone called 'Zed'."
    await session("as Alice")
    assert await session("ladder T1 carol") == (
        "Carol is not above you on the ladder T1: challenge someone above you.")
    assert await session("ladder T1 alice") == "You cannot challenge yourself."
    assert await session("ladder T1") == (
        "You are at the top of the ladder T1: the players below you challenge you.")
    await session("as Bob")
    assert await session("ladder T1") == (
        "Challenge whom? Name a player above you, as in `ladder T1 Alice`.")
    await session("language vi")
    assert await session("ladder T1") == (
        "Thách đấu ai? Hãy nêu tên một người chơi ở trên bạn, ví dụ `ladder T1 Alice`.")
    await session("as Alice")
    await session("language vi")
    assert await session("ladder T1") == (
        "Bạn đang ở đỉnh bậc thang T1: những người chơi bên dưới sẽ thách đấu bạn.")
    await session("as Carol")
    await session("resign #1")
    assert await session("standings T1") == (
        "T1 Club ladder: Clash of Command, ladder, no clock, rated (running).\n"
        "1. Alice\n2. Bob\n3. Carol")


def test_a_slip_is_a_letter_off_with_the_same_first_letter():
    known = ["join", "back", "note", "start", "standings", "tournament", "adjudicate"]
    assert [closest_word(w, known) for w in (
        "joni", "jion", "jon", "joinn", "strat", "standing", "tournamnet", "adjudikate",
        "tack", "frob", "ljoin", "JOIN", "join")] == [
        "join", "join", "join", "join", "start", "standings", "tournament", "adjudicate",
        None, None, None, None, None]
    assert (slips("joni", "join"), slips("rouns", "rounds"), slips("tack", "back"),
            slips("ab", "ba"), slips("", "abc")) == (1, 1, 1, 1, 3)
    # the longest word a line may hold is compared by its first characters alone
    assert closest_word("j" + "o" * 5000, known) is None


async def test_a_tournament_is_no_player_and_no_ones_name(session):
    """`challenge T1` does not make a player called T1 (a tester's finding), and no one
    may take a name that reads as a tournament; a name with more in it is a name."""
    made = await session("tournament create clash ladder")
    assert made.splitlines()[0] == (
        "New tournament T1 Clash of Command ladder: no clock, rated. Sign up with `join T1`.")
    for line in ("challenge T1", "challenge t1 clash 3d"):
        assert await session(line) == (
            "T1 is a tournament, not a player. To challenge someone on its ladder, send "
            "`ladder T1 bob`; to play in it, `join T1`.")
    assert await session("as T7") == (
        "'T7' cannot be a name: T and a number is how a tournament is written (`join T3`). "
        "Choose another name.")
    assert await session("as T7x") == "You are T7x."
    await session("language vi")
    assert await session("challenge T1") == (
        "T1 là một giải đấu, không phải người chơi. Để thách đấu ai đó trên bậc thang của "
        "nó, hãy gửi `ladder T1 bob`; để tham gia giải, `join T1`.")
    assert await session("as t12") == (
        "'t12' không thể là tên: T kèm một số là cách viết tên một giải đấu (`join T3`). "
        "Hãy chọn tên khác.")
    assert await session("tournaments") == (
        "Các giải đấu:\n  T1 Đại chiến Chỉ huy bậc thang: không tính giờ, tính điểm (đang "
        "diễn ra): 0 người chơi; tham gia bằng `join T1`.")


async def test_the_list_tells_a_player_the_tournaments_they_are_in(session):
    """`tournaments` offers `join T1` only to those not in it (a tester was offered to
    join one he was in)."""
    await _three_signed_up(session)
    assert await session("tournaments") == (
        "Tournaments:\n  T1 Spring open: Clash of Command, round-robin, 3 days per move, "
        "rated (signing up): 3 players; you are signed up; `leave T1` takes you off.")
    await session("as Dan")
    assert await session("tournaments") == (
        "Tournaments:\n  T1 Spring open: Clash of Command, round-robin, 3 days per move, "
        "rated (signing up): 3 players; join with `join T1`.")
    await session("as Alice")
    await session("tournament start T1")
    await session("language vi")
    assert await session("tournaments") == (
        "Các giải đấu:\n  T1 Spring open: Đại chiến Chỉ huy, vòng tròn, 3 ngày mỗi nước, "
        "tính điểm (đang diễn ra): 3 người chơi; bạn đang thi đấu trong giải; bảng xếp "
        "hạng: `standings T1`.")


async def test_withdraw_without_a_name_lists_the_players_tournaments(session):
    """A tester in three tournaments was offered `; withdraw it with `cancel T3``, the
    words of a challenge's withdrawal, in English in Vietnamese too."""
    for name in ("Spring", "Autumn"):
        await session(f"tournament create clash round-robin 3d name {name}")
    await session("join T1")
    await session("join T2")
    assert await session("withdraw") == (
        "Which tournament? Name one: `withdraw T2` (Autumn); `withdraw T1` (Spring).")
    await session("language vi")
    assert await session("withdraw") == (
        "Giải đấu nào? Hãy nêu một giải: `withdraw T2` (Autumn); `withdraw T1` (Spring).")


async def test_numbers_out_of_range_are_answered_as_typed(session):
    """A tester's numbers: twenty nines read as 9223372036854775808, 100000 days as
    100000.0, and a tournament not started yet had "paired rounds 1 to 0"."""
    assert await session("tournament create clash swiss rounds 99999999999999999999") == (
        "The rounds must be from 1 to 30.")
    assert await session("tournament create clash swiss round-days 100000") == (
        "100000 is not a number of days I can use: give a number above 0 and at most 366.")
    await session("tournament create clash swiss rounds 2 name Open")
    assert await session("pairings T1 2") == "Tournament T1 has paired no round yet."
    await session("language vi")
    assert await session("pairings T1 1") == "Giải đấu T1 chưa xếp cặp vòng nào."
