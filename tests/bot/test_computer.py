"""The computer as a player: challenged at the console, it accepts at once and answers;
it resigns lost games, answers draw offers and takebacks, thinks again after a restart,
never blocks the event loop and never looks at a game between people."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.service import GameService
from bot.service.computer import Computer
from engine import get_variant

PLACE = "console:test"


class Refusing(Executor):
    """A pool that must not be used: the computer has nothing to search."""

    def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
        raise AssertionError("the computer searched a position")


class Recording(ThreadPoolExecutor):
    """A pool that keeps the arguments of each search it runs."""

    def __init__(self) -> None:
        super().__init__(1)
        self.calls: list[tuple] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
        self.calls.append(args)
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def threads():
    pool = Recording()
    yield pool
    pool.shutdown()


@pytest.fixture
async def console(service, session, threads):
    """The console with the computer thinking in the background, as `commandpost` runs it."""
    session.console.use_computer(Computer(service, executor=threads, seconds=5.0, depth=1))
    await session.console.start()
    yield session
    await session.console.stop()


async def until_printed(session, since: int, text: str) -> str:
    """What the console printed from line ``since`` on, once ``text`` is among it (the
    computer answers in the background; at most 30 s)."""
    for _ in range(3000):
        out = "\n".join(session.lines[since:])
        if text in out:
            return out
        await asyncio.sleep(0.01)
    raise AssertionError(f"{text!r} was not printed within 30 s:\n{out}")


async def test_the_computer_accepts_at_once_and_answers_at_the_console(console, service):
    out = await console("challenge computer 2 clash white")
    assert out.splitlines()[0] == (
        "Computer (level 2) accepts at once. Game #1 started: Alice (White) vs Computer "
        "(level 2) (Black), Clash of Command, no clock. Alice (White) moves first.")
    # said once: no news of the start to Alice besides the answer
    assert [line for line in out.splitlines() if "started" in line] == [
        out.splitlines()[0], "  [to everyone here] Game #1 started: Alice (White) vs Computer "
                             "(level 2) (Black), Clash of Command, no clock. Alice (White) "
                             "moves first."]
    since = len(console.lines)
    out = await console("b2-a3/D")
    assert out.splitlines()[0] == ("1. b2-a3/D played in game #1. Computer (level 2) (Black) is "
                                   "to move.")
    out = await until_printed(console, since, "[to alice] Computer (level 2) played 1... ")
    game = await service.game(1)
    assert game.to_move == 0 and game.ply == 2  # the computer has answered
    played = await service.played_moves(1)
    assert f"[to alice] Computer (level 2) played 1... {played[1].text} in game #1" in out


async def test_the_computer_moves_first_when_it_has_the_first_side(console, service):
    await console("challenge computer commander blue")
    await until_printed(console, 0, "[to alice] Computer (level 3) played 1. ")
    game = await service.game(1)
    assert game.names == ("Computer (level 3)", "Alice") and game.ply == 1
    rules = get_variant("commander")
    played = (await service.played_moves(1))[0].text
    rules.parse_move(rules.start_position(), played)  # a legal first move


async def test_a_level_that_does_not_exist_is_refused(console):
    assert await console("challenge computer 9 clash") == (
        "There is no level 9: the computer plays at levels 1 to 5.")
    assert await console("challenge computer level") == (
        "There is no level 0: the computer plays at levels 1 to 5.")


async def test_each_variant_and_level_is_its_own_rated_player(service, alice, threads):
    computer = Computer(service, executor=threads, depth=1)
    done = await computer.challenge(alice, PLACE, 4, "cab", side=0)
    other = await computer.challenge(alice, PLACE, 1, "cab", side=0)
    assert done.game.names[1] == "Computer (level 4)"
    assert done.game.players[1] != other.game.players[1]
    assert done.game.rated
    assert await service.resign(alice, done.game.id)
    rating, games = await service.standings.rating(await computer.player("combined-arms", 4),
                                                   "combined-arms")
    assert games == 1 and rating.rating > 1500


async def test_the_computer_resigns_a_lost_game(service, alice, threads):
    computer = Computer(service, executor=threads, depth=1)
    # Black (the computer) has only its King against Queen and two Rooks
    fen = "7k/8/8/8/8/8/8/R2QK2R w - - 0 1"
    done = await computer.challenge(alice, PLACE, 3, "combined-arms", side=0, start_fen=fen)
    game_id = done.game.id
    assert (await service.move(alice, game_id, "Ra1-a2")).ok
    await computer.play_due()
    assert (await service.game(game_id)).is_over is False
    assert (await service.move(alice, game_id, "Ra2-a3")).ok
    await computer.play_due()
    game = await service.game(game_id)
    assert service.describe_result(game) == ("Alice (White) wins: Computer (level 3) "
                                             "resigned (1-0)")


@pytest.mark.parametrize(("fen", "answer"), [
    ("q6k/8/8/8/8/8/8/7K w - - 0 1", "declined"),  # the computer (Black) has a Queen
    ("7k/8/8/8/8/8/8/Q6K w - - 0 1", "accepted"),  # Alice has it
])
async def test_the_computer_answers_a_draw_offer(service, alice, threads, fen, answer):
    computer = Computer(service, executor=threads, depth=1)
    done = await computer.challenge(alice, PLACE, 3, "combined-arms", side=0, start_fen=fen)
    game_id = done.game.id
    assert (await service.offer_draw(alice, game_id)).ok
    await computer.play_due()
    game = await service.game(game_id)
    if answer == "accepted":
        assert game.is_over and game.result == "1/2-1/2"
    else:
        assert not game.is_over and game.draw_offer is None


async def test_a_restart_in_the_middle_of_the_computers_turn_makes_it_think_again(
        settings, clock, alice):
    service = await GameService.open(settings, now=clock, rng=random.Random(1))
    gate = asyncio.Event()

    class Stuck(Executor):
        """A search that never comes back: the service stops in the middle of it."""

        def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
            gate.set()
            return Future()

    first = Computer(service, executor=Stuck(), depth=1)
    done = await first.challenge(alice, PLACE, 2, "mini-chieftain", side=1)
    task = asyncio.create_task(first.play_due())
    await gate.wait()
    task.cancel()
    await service.close()
    service = await GameService.open(settings, now=clock, rng=random.Random(1))
    pool = ThreadPoolExecutor(1)
    try:
        again = Computer(service, executor=pool, depth=1)
        assert await again.play_due() == 1
        game = await service.game(done.game.id)
        assert game.to_move == 1 and game.turns == 1
    finally:
        pool.shutdown()
        await service.close()


async def test_the_computer_never_looks_at_a_game_between_people(service, alice, bob,
                                                                 start_game):
    game = await start_game(alice, bob)
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    computer = Computer(service, executor=Refusing(), depth=1)
    assert await computer.play_due() == 0


async def test_the_event_loop_runs_while_the_computer_thinks(service, alice):
    computer = Computer(service, searches=1, seconds=1.0)  # a real process pool
    try:
        done = await computer.challenge(alice, PLACE, 5, "clash", side=1)
        # the worker process starts first: what is measured is the loop while it thinks;
        # it thinks at a lower priority than the service
        niceness = await asyncio.get_running_loop().run_in_executor(computer.executor,
                                                                    os.nice, 0)
        assert niceness == min(os.nice(0) + 10, 19)  # 19: the lowest priority there is
        lag = 0.0
        stop = asyncio.Event()

        async def ticker() -> None:
            nonlocal lag
            while not stop.is_set():
                before = time.perf_counter()
                await asyncio.sleep(0.01)
                lag = max(lag, time.perf_counter() - before - 0.01)
        ticking = asyncio.create_task(ticker())
        answer = await computer.search(done.game, 5)  # one second of thinking
        stop.set()
        await ticking
        assert lag < 0.05, lag
        assert answer.seconds > 0.25  # it thought (no new depth past 45% of its time)
        assert await computer.play_due() == 1
        assert (await service.game(done.game.id)).ply == 1
    finally:
        computer.close()


async def test_the_computer_offers_a_draw_only_in_a_level_long_game(service, alice):
    from dataclasses import replace
    computer = Computer(service, executor=Refusing())
    done = await computer.challenge(alice, PLACE, 3, "combined-arms", side=0)
    game = done.game
    assert not computer._should_offer(replace(game, turns=20), 0)  # too early
    assert computer._should_offer(replace(game, turns=60), 0)
    assert not computer._should_offer(replace(game, turns=60), 200)  # it is better
    clash = (await computer.challenge(alice, PLACE, 3, "clash", side=0)).game
    assert not computer._should_offer(replace(clash, turns=60), 0)  # no draws by agreement


async def test_the_computer_is_told_the_positions_the_game_has_had(console, service, threads):
    await console("challenge computer 1 clash white")
    await console("b2-a3/D")
    await until_printed(console, 0, "played 1... ")
    await console((await service.legal_moves(await service.game(1)))[0])
    await until_printed(console, 0, "played 2... ")
    game = await service.game(1)
    moves = await service.played_moves(1)
    assert game.ply == 4 and len(threads.calls) == 2
    # each search knew the positions before the one it searched, from the start on
    fens = [(call[1], call[-1]) for call in threads.calls]
    assert fens == [(moves[0].fen, (game.start_fen,)),
                    (moves[2].fen, (game.start_fen, moves[0].fen, moves[1].fen))]


async def test_a_takeback_from_the_computer_in_a_rated_game_is_refused_at_once(service, alice,
                                                                                threads):
    """Rated: refused when asked, in one sentence (the computer would only decline);
    unrated: the computer accepts, and the turn is taken back."""
    computer = Computer(service, executor=threads, depth=1)
    for rated in (True, False):
        game = (await computer.challenge(alice, PLACE, 1, "clash", side=0, rated=rated)).game
        move = (await service.legal_moves(game))[0]
        assert (await service.move(alice, game.id, move)).ok
        await computer.play_due()  # its answer: alice has a turn to take back
        asked = await service.request_takeback(alice, game.id)
        if rated:
            assert not asked.ok and asked.message == (
                f"The computer allows takebacks in unrated games only, and game #{game.id} "
                f"is rated.")
            assert (await service.game(game.id)).takeback_offer is None
            continue
        assert asked.ok
        await computer.play_due()
        assert (await service.game(game.id)).ply == 0


# --- the pool survives Ctrl-C and a dead process ----------------------------------------
async def _worker_pid(computer: Computer) -> int:
    """The pid of the pool's (one) process, asked of the process itself."""
    return await asyncio.get_running_loop().run_in_executor(computer.executor, os.getpid)


async def _searching(computer: Computer, task: asyncio.Task) -> None:
    """Wait until ``task`` has handed a search to the pool (it holds the only slot from
    the moment it submits the search until the answer)."""
    for _ in range(3000):
        if computer._slots.locked():
            return
        assert not task.done(), "it finished without searching"
        await asyncio.sleep(0.01)
    raise AssertionError("no search started within 30 s")


async def test_ctrl_c_does_not_reach_the_computers_searches(service, alice):
    """Ctrl-C at the terminal is sent to every process of the foreground group, the pool's
    too: it killed them (a KeyboardInterrupt traceback) and broke the pool for good."""
    computer = Computer(service, searches=1, seconds=1.0)  # a real process pool
    try:
        done = await computer.challenge(alice, PLACE, 5, "clash", side=1)
        pid = await _worker_pid(computer)
        os.kill(pid, signal.SIGINT)  # while it waits for work
        assert await computer.play_due() == 1
        assert (await service.game(done.game.id)).ply == 1
        legal = await service.legal_moves(await service.game(done.game.id))
        assert (await service.move(alice, done.game.id, legal[0])).ok
        thinking = asyncio.create_task(computer.play_due())
        await _searching(computer, thinking)
        os.kill(pid, signal.SIGINT)  # while it thinks (a second)
        assert await thinking == 1
        assert (await service.game(done.game.id)).ply == 3
        assert await _worker_pid(computer) == pid  # the same process: it ignored both
    finally:
        computer.close()


async def test_a_broken_pool_is_replaced_and_the_move_searched_again(service, alice):
    computer = Computer(service, searches=1, seconds=30.0)  # a real process pool
    try:
        done = await computer.challenge(alice, PLACE, 5, "clash", side=1)
        pid = await _worker_pid(computer)
        thinking = asyncio.create_task(computer.play_due())
        await _searching(computer, thinking)  # its search (30 s) is in the pool
        computer.seconds = 0.2  # the search again, in the new pool, is short
        os.kill(pid, signal.SIGKILL)
        assert await asyncio.wait_for(thinking, 60) == 1
        game = await service.game(done.game.id)
        assert game.ply == 1  # it played: the search ran again
        assert await _worker_pid(computer) != pid
        # a pool that broke while idle is replaced at the next search
        os.kill(await _worker_pid(computer), signal.SIGKILL)
        legal = await service.legal_moves(game)
        assert (await service.move(alice, game.id, legal[0])).ok
        assert await computer.play_due() == 1
        assert (await service.game(game.id)).ply == 3
    finally:
        computer.close()


async def test_closing_ends_a_search_in_progress(service, alice):
    """Leaving (`quit`) does not wait for a search nobody will read."""
    computer = Computer(service, searches=1, seconds=60.0)
    done = await computer.challenge(alice, PLACE, 5, "clash", side=1)
    pool = computer.executor
    pid = await _worker_pid(computer)
    process = pool._processes[pid]  # type: ignore[attr-defined]
    thinking = asyncio.create_task(computer.search(done.game, 5))
    await _searching(computer, thinking)
    computer.close()
    await asyncio.get_running_loop().run_in_executor(None, process.join, 30)
    # The pool's own thread may reap the process a moment before it records the exit
    # code, so `join` can return while `exitcode` still reads None: wait for it.
    for _ in range(500):
        if process.exitcode is not None:
            break
        await asyncio.sleep(0.01)
    assert process.exitcode == -signal.SIGTERM  # ended, not left to think for a minute
    with pytest.raises((BrokenProcessPool, asyncio.CancelledError)):
        await thinking


# --- the console while the computer thinks ----------------------------------------------
class Gated(ThreadPoolExecutor):
    """A pool whose searches wait at a gate: the computer thinks until the test opens it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.thinking = threading.Event()
        self.gate = threading.Event()

    def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
        def search():
            self.thinking.set()
            assert self.gate.wait(60), "the test never let the computer answer"
            return fn(*args, **kwargs)
        return super().submit(search)


@pytest.fixture
async def thinking_console(service, session):
    gated = Gated()
    session.console.use_computer(Computer(service, executor=gated, depth=1))
    await session.console.start()
    yield session, gated
    gated.gate.set()
    await session.console.stop()
    gated.shutdown()


async def test_the_console_answers_while_the_computer_thinks(thinking_console, service):
    console, gated = thinking_console
    await console("challenge computer 5 clash white")
    await console("b2-a3/D")
    assert await asyncio.to_thread(gated.thinking.wait, 30)  # its search has begun
    assert await console("games") == ("Games in progress:\n  #1 Alice vs Computer (level 5) "
                                      "(Clash of Command), Computer (level 5) to move")
    moves = (await console("moves a3")).splitlines()
    assert moves[0] == ("It is not your turn in game #1; if it were, your Factor on a3 could "
                        "make 6 moves: a3-a5/D a3-a5/H a3-b4/D a3-b4/H a3=D a3=H.")
    assert (await service.game(1)).ply == 1  # it still thinks
    since = len(console.lines)
    gated.gate.set()
    out = await until_printed(console, since, "/game-1-2-white.png")
    assert (await service.game(1)).ply == 2
    assert out.startswith("  [to alice] Computer (level 5) played 1... ")
    assert "Computer (level 5) is thinking about its move in game #1 (about 8 s)…" in \
        console.lines[:since]  # said as it started, before the lines it answered meanwhile


async def test_the_computer_is_named_in_the_readers_language(session, service, threads,
                                                               offered):
    """Its name and its time to think, as a Vietnamese reader writes them; its name as
    stored, and in English, unchanged."""
    session.console.use_computer(Computer(service, executor=threads, seconds=0.5, depth=1))
    await session.console.start()
    try:
        assert await session("language vi") == "Từ nay ngôn ngữ của bạn là Tiếng Việt (vi)."
        out = await session("challenge computer 1 clash white")
        assert out.splitlines()[0] == (
            "Máy (cấp 1) nhận lời ngay. Ván #1 đã bắt đầu: Alice (Trắng) đấu với Máy (cấp 1) "
            "(Đen), Đại chiến Chỉ huy, không tính giờ. Alice (Trắng) đi trước.")
        since = len(session.lines)
        await session("b2-a3/D")
        out = await until_printed(session, since, "/game-1-2-white.png")
        assert "Máy (cấp 1) đang nghĩ nước đi trong ván #1 (khoảng 0,5 giây)…" in out
        await session("language en")
        assert await session("games") == ("Games in progress:\n  #1 Alice vs Computer "
                                          "(level 1) (Clash of Command), Alice to move")
    finally:
        await session.console.stop()


async def test_the_computers_move_is_shown_with_the_board(console, service, settings):
    """As a person's move is shown to the one who played it: the news, the board as text
    with the move marked, whose move it is, and the picture."""
    await console("challenge computer 1 clash white")
    since = len(console.lines)
    await console("b2-a3/D")
    out = await until_printed(console, since,
                              f"Picture: {settings.pictures_dir}/game-1-2-white.png")
    reply = out.splitlines()[:13]  # the reply to alice's own move, board and picture
    assert reply[0] == "1. b2-a3/D played in game #1. Computer (level 1) (Black) is to move."
    shown = out.splitlines()[13:]
    assert (await service.played_moves(1))[1].text == "g7xh8"  # level 1, seeded by the game
    assert shown == [
        "Computer (level 1) is thinking about its move in game #1 (about 5 s)…",
        "  [to alice] Computer (level 1) played 1... g7xh8 in game #1 (Clash of Command). "
        "Your move. There is no clock.",
        "9  b     c     c     c     c",
        "8     f     f     f     h*",
        "7  h     d     h     .*    .",
        "6     .     .     .     .",
        "5  .     .     .     .     .",
        "4     .     .     .     .",
        "3  F     D     H     D     H",
        "2     D     F     F     F",
        "1  C     C     C     C     B",
        "   a  b  c  d  e  f  g  h  i",
        "White to move, move 2.",
        f"Picture: {settings.pictures_dir}/game-1-2-white.png"]
    assert (settings.pictures_dir / "game-1-2-white.png").read_bytes()[:4] == b"\x89PNG"
