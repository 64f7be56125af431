"""The computer as a player: one player per variant and level, which accepts challenges at
once, answers each move within its level's time, offers and accepts draws and resigns lost
games.

The search (`engine.search`) is CPU work: it runs in a `ProcessPoolExecutor`, so the event
loop never waits for it, and at most ``Settings.computer_searches`` searches run at once.
The pool's processes ignore Ctrl-C (SIGINT belongs to whoever runs the service: the console
cancels a line with it); a pool broken all the same (a process killed) is replaced and the
search run again in the new one, so the computer never stops playing until a restart.
What the computer has to do is read from the database on every pass (`Computer.play_due`):
the games where a computer player is to move, or has a draw offer or a takeback request to
answer. So a restart in the middle of the computer's turn simply finds that game again and
thinks again; nothing is kept only in memory except the count of bad scores behind a
resignation.

The computer only ever looks at games it plays in: the passes select games by the computer
players' ids, and no command asks it about any other game (no engine help in games between
people).

Choices where the issue is silent:

* A computer player's address is ``VARIANT/LEVEL`` on the ``computer`` transport and its
  name ``Computer (level N)``; its rating is kept per variant like anyone's, and since
  there is one player per variant and level, per level too.
* Resigning: when two of its searches in a row (in one run of the service) score the game
  as lost: a forced loss seen, or `RESIGN_SCORE` centipawns down.
* Draws (variants that allow them): it accepts an offer when its last search does not
  score it better than `DRAW_ACCEPT_SCORE`; it offers one in a level position
  (`DRAW_OFFER_SCORE`) once `MIN_TURNS_TO_OFFER` turns have been played, at most once every
  `OFFER_EVERY` turns.
* Takebacks: accepted in unrated games (a learner's game), declined in rated ones.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import resource_tracker

from engine import EngineError, all_variants, get_variant
from engine.search import LEVELS, WIN, Thinker

from ..i18n import Text, _
from .challenges import game_started
from .model import Game, PlayedMove, Player
from .phrasing import COMPUTER
from .results import Done, Reason, Refusal, Result
from .service import GameService
from .words import computer_name

log = logging.getLogger(__name__)

TRANSPORT = COMPUTER
WORDS = ("computer", "cpu", "bot", "engine")
DEFAULT_LEVEL = 3
RESIGN_SCORE = -1500
DRAW_ACCEPT_SCORE = 30
DRAW_OFFER_SCORE = 15
MIN_TURNS_TO_OFFER = 60
OFFER_EVERY = 20


@dataclass(frozen=True)
class Answer:
    """What a search in the pool sends back: the move's text and its score (for the mover)."""

    text: str
    score: int
    seconds: float


def think(variant: str, fen: str, level: int, seed: int, seconds: float | None = None,
          depth: int | None = None, history: tuple[str, ...] = ()) -> Answer:
    """One search, run in a worker process: the canonical text of the computer's move.
    ``history`` holds the FENs of the game's earlier positions, so the search sees a
    move that would repeat one of them (and scores it as a draw)."""
    rules = get_variant(variant)
    position = rules.parse_position(fen)
    earlier = [rules.parse_position(f) for f in history]
    thinker = Thinker(rules.name, time.monotonic, seed)
    thought = thinker.think(position, LEVELS[level], seconds, depth, earlier)
    return Answer(rules.format_move(position, thought.move), thought.score, thought.seconds)


#: How much lower than the service's the searches' scheduling priority is: on a host whose
#: cores are all busy, the players' commands are answered before the computer thinks on.
SEARCH_NICENESS = 10


def _start_worker() -> None:
    """Run in each worker process as it starts: Ctrl-C is not for the searches (it reached
    them from the terminal and killed the pool), and they think at a lower priority."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # blocked while it started (`_sigint_blocked`)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    os.nice(SEARCH_NICENESS)


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread while the pool may start a process: the process
    inherits the mask, so a Ctrl-C while it starts up (before `_start_worker` ignores it)
    waits and is dropped instead of killing it; here it is delivered at the end."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no terminal signals to fear
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        # the resource tracker's start unblocks SIGINT in the thread starting it (whatever
        # its mask was): blocked again here, and the thread's own mask put back at the end,
        # so a thread that kept SIGINT away (the console's service thread) still does
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _stop_pool(pool: Executor) -> None:
    """Shut a pool down without waiting for its searches: its processes are ended, so
    leaving (or replacing a broken pool) never waits for a search nobody will read."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()


def earlier_positions(game: Game, moves: list[PlayedMove]) -> tuple[str, ...]:
    """The FENs of the positions the game has had at the start of a turn, the position now
    left out (the search's repetition rule needs only the earlier ones)."""
    fens = [game.start_fen, *(m.fen for m in moves if not m.partial)]
    if fens[-1] == game.fen:
        fens.pop()
    return tuple(fens)


def computer_address(variant: str, level: int) -> str:
    return f"{get_variant(variant).name}/{level}"


def level_of(player: Player) -> int | None:
    """The level of a computer player, None for a person."""
    if player.transport != TRANSPORT:
        return None
    return int(player.address.rsplit("/", 1)[1])


def read_level(words: list[str]) -> tuple[int | None, list[str]] | None:
    """If ``words`` start with a word for the computer: (its level, or None for the default,
    and the other words); None when they do not. ``computer 4``, ``computer level 4`` and
    ``computer L4`` name level 4."""
    if not words or words[0].lower() not in WORDS:
        return None
    rest = list(words[1:])
    level = None
    if rest and rest[0].lower() == "level":
        rest = rest[1:]
        if not rest:
            return 0, []
    if rest:
        word = rest[0].lower().removeprefix("l")
        if word.isdigit():
            level, rest = int(word), rest[1:]
    return level, rest


def level_error(level: int) -> Text:
    return _("There is no level {level}: the computer plays at levels 1 to {top}.",
             level=level, top=max(LEVELS))


def levels_help() -> str:
    return "; ".join(f"{lv.number}: {lv.description} ({lv.seconds:g} s a move)"
                     for lv in LEVELS.values())


class Computer:
    """The computer players of one service, with the process pool their searches run in."""

    def __init__(self, service: GameService, searches: int | None = None,
                 executor: Executor | None = None, seconds: float | None = None,
                 depth: int | None = None) -> None:
        self.service = service
        self.searches = searches or service.settings.computer_searches
        self._executor = executor
        self._own_pool = executor is None  # a pool it made is one it may replace
        self._closes = 0  # searches broken by `close` are not run again
        self.seconds = seconds  # overrides every level's time (tests, benchmarks)
        self.depth = depth  # overrides every level's depth (tests)
        self._slots = asyncio.Semaphore(self.searches)
        self._busy: set[int] = set()
        self._lost: dict[int, int] = {}  # game id -> its moves in a row scored as lost
        self._offered: dict[int, int] = {}  # game id -> turn of the last draw offer
        self._wake = asyncio.Event()
        #: called after a pass that answered something (transports deliver what it queued)
        self.on_answer: list[Callable[[], Awaitable[None]]] = []
        #: called with the game after each move the computer plays (the console shows it)
        self.on_move: list[Callable[[Game], Awaitable[None]]] = []
        #: called with the game, the computer player and the seconds its level thinks, as
        #: the computer starts to think about its move (the console says so)
        self.on_think: list[Callable[[Game, Player, float], Awaitable[None]]] = []

    def wake(self) -> None:
        """Make the running loop (`run`) look for games now."""
        self._wake.set()

    # --- the pool -------------------------------------------------------------------
    @property
    def executor(self) -> Executor:
        if self._executor is None:
            # spawn: the service's threads (database, event loop) must not be forked;
            # making the pool's locks starts the resource tracker (see `_sigint_blocked`)
            with _sigint_blocked():
                self._executor = ProcessPoolExecutor(
                    self.searches, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker)
        return self._executor

    def close(self) -> None:
        """Stop the pool at once: a search in progress is abandoned (after a restart the
        computer thinks again)."""
        self._closes += 1
        if self._executor is not None:
            if self._own_pool:
                _stop_pool(self._executor)
            else:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def _replace(self, broken: Executor) -> None:
        """Drop a broken pool (the next search starts a new one); searches that broke in
        it at the same moment replace it once."""
        if self._executor is broken:
            self._executor = None
            _stop_pool(broken)

    # --- players and challenges -----------------------------------------------------
    async def player(self, variant: str, level: int) -> Player:
        """The computer player of ``variant`` at ``level``."""
        return await self.service.player(TRANSPORT, computer_address(variant, level),
                                         computer_name(level))

    async def challenge(self, sender: Player, place: str, level: int | None = None,
                        variant: str | None = None, mode: str | None = None,
                        side: int | None = None, days: int | None = None,
                        start_fen: str | None = None, rated: bool | None = None) -> Result:
        """Challenge the computer: it accepts at once and the game starts."""
        level = DEFAULT_LEVEL if level is None else level
        if level not in LEVELS:
            return Refusal(Reason.NO_SUCH_LEVEL, level_error(level))
        try:
            rules = get_variant(variant) if variant else all_variants()[0]
        except EngineError:
            # its refusal
            return await self.service.challenges.challenge(sender, place, None, variant)
        opponent = await self.player(rules.name, level)
        made = await self.service.challenges.challenge(sender, place, opponent, rules.name, mode,
                                                       side,
                                                       days, start_fen, rated)
        if isinstance(made, Refusal):
            return made
        assert made.challenge is not None
        accepted = await self.service.challenges.accept(opponent, made.challenge.id,
                                                        challenger_answered=True)
        if isinstance(accepted, Refusal):
            return accepted
        game = accepted.game
        assert game is not None
        rules = get_variant(game.variant)
        # the only news of the start the challenger gets (see `accept`)
        return Done(_("{computer} accepts at once. {started}", computer=computer_name(level),
                      started=game_started(game, rules)), game=game,
                    challenge=accepted.challenge)

    # --- what the computer has to do ------------------------------------------------
    async def due_games(self) -> list[Game]:
        """Active games in which a computer player has something to answer."""
        async with self.service.db.snapshot() as s:
            rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' AND "
                               "(a.transport = ? OR b.transport = ?) ORDER BY g.id",
                               (TRANSPORT, TRANSPORT))
        games = Game.readable(rows)
        return [g for g in games if g.id not in self._busy and self._needs_answer(g)]

    def _needs_answer(self, game: Game) -> bool:
        for side in (0, 1):
            if game.transports[side] != TRANSPORT:
                continue
            other = 1 - side
            if game.to_move == side or game.draw_offer == other or \
                    game.takeback_offer == other:
                return True
        return False

    async def play_due(self) -> int:
        """Answer in every game where a computer player has something to do, each in its
        own task (at most ``searches`` searches at once); how many games were answered."""
        await self.service.deliver(TRANSPORT, _drop)
        games = await self.due_games()
        for game in games:
            self._busy.add(game.id)
        results = await asyncio.gather(*(self._answer(g) for g in games),
                                       return_exceptions=True)
        for game, result in zip(games, results, strict=True):
            if isinstance(result, BaseException):
                log.error("the computer could not answer in game #%d", game.id,
                          exc_info=result)
        await self.service.deliver(TRANSPORT, _drop)
        if games:
            for listener in self.on_answer:
                await listener()
        return len(games)

    async def run(self, stop: asyncio.Event, poll_seconds: float = 1.0) -> None:
        """Pass after pass until ``stop`` is set (the first pass finds the games whose
        answer a restart interrupted)."""
        while not stop.is_set():
            try:
                await self.play_due()
            except Exception:
                log.exception("computer pass failed; retrying")
            waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
            try:
                await asyncio.wait(waits, timeout=poll_seconds,
                                   return_when=asyncio.FIRST_COMPLETED)
            finally:  # also when cancelled (the console stopping): no task left pending
                for waiting in waits:
                    waiting.cancel()
            self._wake.clear()

    async def _answer(self, game: Game) -> None:
        try:
            side = 0 if game.transports[0] == TRANSPORT else 1
            me = await self.service.get_player(game.players[side])
            assert me is not None
            if game.takeback_offer == 1 - side:
                await self._answer_takeback(me, game)
                return
            if game.draw_offer == 1 - side:
                await self._answer_draw(me, game)
                return
            if game.to_move == side:
                await self._move(me, game)
        finally:
            self._busy.discard(game.id)

    async def search(self, game: Game, level: int, seconds: float | None = None) -> Answer:
        """Search the game's position in the pool (waiting for a free slot)."""
        seed = game.id * 1009 + game.ply
        history = earlier_positions(game, await self.service.played_moves(game.id))
        args = (game.variant, game.fen, level, seed,
                self.seconds if seconds is None else seconds, self.depth, history)
        async with self._slots:
            closes = self._closes
            try:
                return await self._in_pool(args)
            except BrokenProcessPool:
                if not self._own_pool or self._closes != closes:
                    raise
                log.warning("a search process died (game #%d): searching again in a new "
                            "pool", game.id)
                return await self._in_pool(args)

    async def _in_pool(self, args: tuple) -> Answer:
        """One search in the pool; a pool found broken is dropped (the next starts anew)."""
        pool = self.executor
        try:
            with _sigint_blocked():  # submitting may start a process
                searching = asyncio.get_running_loop().run_in_executor(pool, think, *args)
            return await searching
        except BrokenProcessPool:
            if self._own_pool:
                self._replace(pool)
            raise

    async def _move(self, me: Player, game: Game) -> None:
        level = level_of(me)
        assert level is not None
        seconds = LEVELS[level].seconds if self.seconds is None else self.seconds
        for listener in self.on_think:
            try:
                await listener(game, me, seconds)
            except Exception:  # saying so is the transport's; the computer thinks anyway
                log.exception("a listener failed as the computer started thinking in game "
                              "#%d", game.id)
        answer = await self.search(game, level)
        if self._should_resign(game, answer.score):
            await self.service.resign(me, game.id)
            return
        result = await self.service.move(me, game.id, answer.text, expected_ply=game.ply)
        if isinstance(result, Refusal):
            log.warning("computer move %r refused in game #%d: %s", answer.text, game.id,
                        result.message)
            return
        after = result.game
        if after is not None:
            for listener in self.on_move:
                try:
                    await listener(after)
                except Exception:  # showing the move is the transport's; the move stands
                    log.exception("a listener failed on the computer's move in game #%d",
                                  game.id)
        if after is not None and not after.is_over and self._should_offer(after, answer.score):
            self._offered[game.id] = after.turns
            await self.service.offer_draw(me, game.id)

    def _should_resign(self, game: Game, score: int) -> bool:
        lost = score <= -WIN + 1000 or score <= RESIGN_SCORE
        self._lost[game.id] = self._lost.get(game.id, 0) + 1 if lost else 0
        return self._lost[game.id] >= 2

    def _should_offer(self, game: Game, score: int) -> bool:
        if not get_variant(game.variant).draw_by_agreement or game.draw_offer is not None:
            return False
        last = self._offered.get(game.id)
        return (abs(score) <= DRAW_OFFER_SCORE and game.turns >= MIN_TURNS_TO_OFFER
                and (last is None or game.turns - last >= OFFER_EVERY))

    async def _answer_draw(self, me: Player, game: Game) -> None:
        level = level_of(me)
        assert level is not None
        side = game.side_of(me.id)
        score = 0
        if game.to_move == side:
            score = (await self.search(game, level)).score
        else:  # judge from the opponent's side: its best is our worst
            score = -(await self.search(game, level)).score
        if score <= DRAW_ACCEPT_SCORE:
            await self.service.accept_draw(me, game.id)
        else:
            await self.service.decline_draw(me, game.id)

    async def _answer_takeback(self, me: Player, game: Game) -> None:
        if game.rated:
            await self.service.decline_takeback(me, game.id)
        else:
            await self.service.accept_takeback(me, game.id)


async def _drop(notification: object) -> None:
    """Notifications to the computer need no delivery: it reads the games themselves."""

