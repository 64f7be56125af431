"""Shared fixtures for the service tests: a clock moved by hand, a service on a real
database, players and a way to start games.

Every test that uses the service runs twice: on a SQLite file in a temporary directory
(``[sqlite]``) and on its own database of a real PostgreSQL server (``[postgresql]``, one
server per test run, see `local_postgres`). A test about SQLite itself (its file, its
locking) is marked ``@pytest.mark.sqlite_only``, and so is a long test bound by the engine
whose storage another test covers on both drivers (its ``reason`` says which), to keep the
run short."""

from __future__ import annotations

import random
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import engine.variant as variant_module
from bot.config import Settings
from bot.console.console import Console
from bot.service import GameService
from bot.service.clock import DAY
from bot.service.model import Game, Player
from bot.service.results import Result
from engine import IllegalMoveError, Move, Outcome, Position, Step, Variant
from engine.clash import ClashOfCommand

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # tests/ is not a package: the helper module next to this one
    sys.path.insert(0, HERE)

from local_postgres import LocalPostgres  # noqa: E402

DRIVERS = ("sqlite", "postgresql")
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC).timestamp()  # a Monday, mid-year
PLACE = "console:test"


class ManualClock:
    """A ``now()`` that moves only when told to."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, days: float = 0.0, seconds: float = 0.0) -> None:
        self.t += days * DAY + seconds


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): runs on the SQLite driver only")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test on a database runs on both drivers (SQLite only when marked so)."""
    if "db_target" not in metafunc.fixturenames:
        return
    only_sqlite = metafunc.definition.get_closest_marker("sqlite_only") is not None
    metafunc.parametrize("db_target", DRIVERS[:1] if only_sqlite else DRIVERS, indirect=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[LocalPostgres]:
    """One PostgreSQL server for the whole run, started when a test first needs it."""
    server = LocalPostgres()
    yield server
    server.stop()


@pytest.fixture
async def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Path | str]:
    """Where the test's database is: a SQLite file, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        yield tmp_path / "games.db"
        return
    server: LocalPostgres = request.getfixturevalue("postgres_server")
    url = await server.create()
    yield url
    await server.drop(url)


@pytest.fixture
def settings(tmp_path: Path, db_target: Path | str) -> Settings:
    return Settings(db_path=db_target, vacation_days=10, challenge_days=7,
                    pictures_dir=tmp_path / "boards")


@pytest.fixture
async def service(settings: Settings, clock: ManualClock) -> AsyncIterator[GameService]:
    svc = await GameService.open(settings, now=clock, rng=random.Random(7))
    yield svc
    await svc.close()


@pytest.fixture
async def alice(service: GameService) -> Player:
    return await service.player("console", "alice", "Alice")


@pytest.fixture
async def bob(service: GameService) -> Player:
    return await service.player("console", "bob", "Bob")


@pytest.fixture
async def carol(service: GameService) -> Player:
    return await service.player("console", "carol", "Carol")


class Session:
    """A console whose output is kept."""

    def __init__(self, console: Console, lines: list[str]) -> None:
        self.console = console
        self.lines = lines

    async def __call__(self, line: str) -> str:
        start = len(self.lines)
        assert await self.console.run_line(line)
        return "\n".join(self.lines[start:])


@pytest.fixture
async def session(service: GameService, settings: Settings) -> Session:
    lines: list[str] = []
    console = Console(service, settings, out=lines.append)
    await console.switch("Alice")
    return Session(console, lines)


StartGame = Callable[..., Awaitable[Game]]


@pytest.fixture
def start_game(service: GameService) -> StartGame:
    """``await start_game(first, second, **challenge options)``: an accepted challenge in
    which ``first`` plays the first side."""

    async def start(first: Player, second: Player, **options: object) -> Game:
        options.setdefault("side", 0)
        made = await service.challenges.challenge(first, PLACE, second, **options)  # type: ignore[arg-type]
        assert made.ok, made
        accepted = await service.challenges.accept(second, made.challenge.id)  # type: ignore[union-attr]
        assert accepted.ok, accepted
        return accepted.game  # type: ignore[union-attr,return-value]

    return start


# --- a variant whose turns have two steps ----------------------------------------------
class PairsOfClash(ClashOfCommand):
    """Clash of Command in which a turn is two moves by the same side (or one, then
    ``end``): the service's multi-step turns without depending on a variant in progress."""

    name = "pairs"
    aliases = ()
    display_name = "Pairs of Clash"
    draw_by_agreement = True
    start_fen = ClashOfCommand.start_fen + " -"

    def make_move(self, position: Position, move: Move) -> Position:
        after = super().make_move(position, move)
        if position.pending or self.outcome(after).is_over:
            return after
        step = Step(move.steps[0].origin, move.steps[0].target)
        return after.with_(side=position.side, fullmove=position.fullmove, pending=(step,))

    def end_turn(self, position: Position) -> Position:
        if not position.pending:
            raise IllegalMoveError("end", "there is no turn in progress to end")
        return position.with_(side=1 - position.side,
                              fullmove=position.fullmove + position.side, pending=())

    def format_position(self, position: Position) -> str:
        steps = ",".join(f"{s.origin}-{s.target}" for s in position.pending) or "-"
        return f"{super().format_position(position)} {steps}"

    def parse_position(self, text: str) -> Position:
        *board, steps = text.split()
        position = super().parse_position(" ".join(board))
        pending = tuple(Step(*s.split("-")) for s in steps.split(",")) if steps != "-" else ()
        return position.with_(variant=self.name, pending=pending)

    def outcome(self, position, history=(), mode="standard"):
        over = super().outcome(position, history, mode)
        if over.is_over or position.pending:
            return over
        # threefold repetition of the position at the end of a turn, counted from history
        key = self.repetition_key(position)
        if sum(self.repetition_key(p) == key for p in (*history, position)) >= 3:
            return Outcome("draw", None, "threefold repetition")
        return over


@pytest.fixture
def pairs(monkeypatch: pytest.MonkeyPatch) -> Variant:
    """The two-step variant, findable by `get_variant` during one test only."""
    variant = PairsOfClash()
    monkeypatch.setitem(variant_module._REGISTRY, variant.name, variant)
    return variant


def in_both(result: Result) -> tuple[str, str]:
    """A result's words in English and in Vietnamese, as the console shows them."""
    return result.message, result.words("console", "vi")
