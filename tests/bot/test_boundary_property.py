"""Property: every public service method, and every console and mail command word, called
with arbitrary arguments answers (a `Done`, a `Refusal`, or the value it promises) and never
raises; a refusal writes nothing."""

from __future__ import annotations

import asyncio
import inspect
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands import Commands
from bot.config import Settings
from bot.console.console import Console
from bot.email_gateway.gateway import EmailGateway
from bot.service import GameService, boundary
from bot.service.model import Post
from bot.service.results import Refusal
from bot.service.service import TOPICS

from .conftest import ManualClock

# every character, lone surrogates and controls included
TEXT = st.text(st.characters(exclude_categories=()), max_size=30)
NUMBER_WORDS = st.sampled_from(["#1", "#2", "#0", "#²", "#99999999999999999999", "1", "²",
                                "nan", "-inf", "1e999", "3d", "#" + "9" * 50, "-1", "0"])
ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.integers(0, 4),
                     st.floats(allow_nan=True, allow_infinity=True), TEXT, NUMBER_WORDS,
                     st.lists(st.integers(), max_size=2),
                     st.dictionaries(TEXT, st.floats(), max_size=2))


class World:
    """A service on a real database with two players, a game and a challenge, run on one
    event loop across examples."""

    def __init__(self, tmp: Path) -> None:
        self.runner = asyncio.Runner()
        self.settings = Settings(db_path=tmp / "games.db", email_address="play@games.test",
                                 email_rate_limit=10**9, pictures_dir=tmp / "boards")
        self.service: GameService = self.run(GameService.open(
            self.settings, now=ManualClock(), rng=random.Random(1)))
        self.alice = self.run(self.service.player("console", "alice", "Alice"))
        self.bob = self.run(self.service.player("console", "bob", "Bob"))
        made = self.run(self.service.challenges.challenge(self.alice, "console:local", self.bob,
                                                          days=3))
        self.game = self.run(self.service.challenges.accept(self.bob, made.challenge.id)).game
        self.run(self.service.challenges.challenge(self.bob, "console:local", self.alice))
        self.sent: list[object] = []

        async def send(mail: object) -> None:
            self.sent.append(mail)

        self.printed: list[str] = []
        self.console = Console(self.service, self.settings, out=self.printed.append)
        self.console.player = self.alice
        self.gateway = EmailGateway(self.service, self.settings, send=send)

    def run(self, coro: Any) -> Any:
        return self.runner.run(coro)

    def close(self) -> None:
        self.run(self.service.close())
        self.runner.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = World(tmp_path_factory.mktemp("property"))
    yield w
    w.close()


PARTS = {"": GameService, **TOPICS}  # the service itself, and each of its topics
METHODS = [(part, name) for part, cls in PARTS.items()
           for name, _ in boundary._public_methods(cls) if name != "close"]


def test_every_topic_of_the_service_is_checked(world):
    topics = {name for name, value in vars(world.service).items()
              if type(value).__module__.startswith("bot.service.")
              and boundary._public_methods(type(value))}
    assert topics - {"db", "sent_lines"} == set(TOPICS)


def test_every_parameter_of_every_public_method_has_a_rule():
    assert {part: boundary.unchecked(cls) for part, cls in PARTS.items()} == {
        part: [] for part in PARTS}


def _strategy(world: World, method: str, parameter: str) -> st.SearchStrategy[Any]:
    """Mostly hostile values, with plausible ones mixed in so that calls get deep."""
    good: dict[str, st.SearchStrategy[Any]] = {
        "sender": st.sampled_from([world.alice, world.bob]),
        "player": st.sampled_from([world.alice, world.bob]),
        "opponent": st.sampled_from([world.alice, world.bob]),
        "game": st.just(world.game),
        "game_id": st.integers(0, 3), "challenge_id": st.integers(0, 3),
        "player_id": st.integers(0, 3),
        "transport": st.sampled_from(["console", "email", "discord"]),
        "place": st.just("console:local"), "server": st.just("discord:1"),
        "variant": st.sampled_from(["clash", "commander", "cab", "mini-chieftain"]),
        "days": st.sampled_from([1, 3, 0.5, 14]),
        "text": st.sampled_from(["b2-a3/D", "h8-i7", "end", "resign"]),
        "send": st.just(_ignore),
        "post": st.builds(Post, st.just(world.game.id), TEXT, TEXT, TEXT),
        "posts": st.lists(st.builds(Post, st.just(world.game.id), TEXT, TEXT, TEXT),
                          max_size=2),
        "kind": st.sampled_from(["board", "offer"]),
    }
    hostile = ANYTHING
    if parameter in good:
        return st.one_of(good[parameter], hostile)
    return hostile


async def _ignore(notification: object) -> None:
    return None


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_arguments_to_any_service_method_answer_and_a_refusal_writes_nothing(world, data):
    part, method = data.draw(st.sampled_from(METHODS))
    parameters = list(inspect.signature(getattr(PARTS[part], method)).parameters.values())[1:]
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in parameters:
        strategy = _strategy(world, method, p.name)
        if p.kind is p.VAR_POSITIONAL:
            args += data.draw(st.lists(strategy, max_size=3), label=p.name)
        elif p.kind is p.KEYWORD_ONLY:
            kwargs[p.name] = data.draw(strategy, label=p.name)
        else:
            args.append(data.draw(strategy, label=p.name))
    before = world.service.db.total_changes
    target = getattr(world.service, part) if part else world.service
    result = world.run(getattr(target, method)(*args, **kwargs))
    if isinstance(result, Refusal):
        assert world.service.db.total_changes == before, (method, args, kwargs, result)
        assert result.message and len(result.message) < 2_000


WORDS = sorted(set(Commands.words(Commands)) | {"as", "quit", "import", "watch", "unwatch"})
LINE = st.builds(lambda word, args: " ".join([word, *args]),
                 st.sampled_from(WORDS) | TEXT,
                 st.lists(NUMBER_WORDS | TEXT, max_size=4))


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(line=LINE)
def test_any_console_line_is_answered(world, line):
    if line.split()[:1] in (["quit"], ["exit"]) or not line.strip():
        return
    world.console.player = world.alice
    world.printed.clear()
    assert world.run(world.console.run_line(line)) is True
    # the console's safety net turns an exception into "Sorry, that failed": never here
    assert not [p for p in world.printed if p.startswith("Sorry, that failed")], world.printed


def _mail(line: str) -> bytes:
    head = ("From: Carol <carol@players.test>\r\nTo: play@games.test\r\nSubject: hi\r\n"
            "Message-ID: <m@players.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
    return (head + line + "\r\n").encode("utf-8", "surrogateescape")


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(line=LINE)
def test_any_mail_command_is_answered(world, line):
    outcome = world.run(world.gateway.receive(_mail(line), "carol@players.test",
                                              ["play@games.test"]))
    assert isinstance(outcome, str)

