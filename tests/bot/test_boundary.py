"""The service boundary: every reproduction of a crash by input, at the console and through
the service API, now answered with a clear refusal that changes nothing."""

from __future__ import annotations

import asyncio
import math
import threading

import pytest

import bot.service.service as service_module
from bot.console.console import Console, run
from bot.service import GameService, boundary
from bot.service.results import Reason, Refusal

from .conftest import PLACE, Session


async def _changes(service: GameService) -> int:
    return service.db.total_changes


@pytest.fixture
async def typed(service, settings) -> Session:
    """``await typed(line)``: what the console prints for one line typed by Alice (an
    exception would print the console's "Sorry, that failed", never an answer here)."""
    console = Console(service, settings, out=(lines := []).append)
    await console.switch("Alice")
    return Session(console, lines)


# --- game numbers -------------------------------------------------------------------------
async def test_a_game_number_beyond_any_integer_is_no_such_game(typed):
    assert await typed("board #99999999999999999999") == "There is no game #99999999999999999999."
    assert await typed("resign #9223372036854775808") == "There is no game #9223372036854775808."


async def test_thousands_of_digits_are_refused_without_reading_them_all(typed):
    out = await typed("board #" + "1234567890" * 400)  # 4,000 digits: a line may be 4,096
    assert out == "There is no game #12345678901234567890123…."


async def test_a_superscript_digit_is_not_a_game_number(typed, service, alice, bob, start_game):
    # isdigit() holds for ², int() fails: it is no number, so the game here is meant
    assert await typed("board #²") == ("You have no game in progress. Start one with "
                                       "`challenge NAME`.")
    assert await typed("accept #²") == ("`accept` does not take '#²'. For example: `accept`; "
                                        "`accept #4`")
    game = await start_game(alice, bob)
    out = await typed(f"board #{game.id} ²")  # nor is it a turn number
    assert out.splitlines()[0] == (
        f"'²' is not a turn number: `board #{game.id} 3.` shows the board after White's turn "
        f"3, `board #{game.id} 3...` after Black's, `board #{game.id} 0` the start.")


async def test_the_service_refuses_ids_that_no_integer_column_holds(service, alice):
    for game_id in (2**63, -1, 0, 2**200, True, 1.5, "1", None):
        result = await service.resign(alice, game_id)
        assert isinstance(result, Refusal) and result.reason == Reason.NO_SUCH_GAME, game_id
    assert (await service.challenges.accept(alice, 2**64)).message == (
        "There is no challenge #18446744073709551616.")


# --- names and texts ----------------------------------------------------------------------
async def test_undecodable_bytes_in_a_name_are_refused_or_cleaned(typed, service):
    name = b"Jos\xe9".decode("utf-8", "surrogateescape")  # Latin-1 typed in a UTF-8 console
    assert await typed(f"as {name}") == ("'Jos\\udce9' is not a name: it holds bytes that "
                                         "are not UTF-8 text; set the terminal to UTF-8 and "
                                         "type it again.")
    player = await service.player("console", name.lower(), name)  # through the API: cleaned
    assert (player.address, player.display_name) == ("jos\ufffd", "Jos\ufffd")


def test_a_line_that_is_not_utf8_is_answered_and_the_console_goes_on(settings, capsys):
    def lines(prompt: str) -> str:
        typed = next(script)
        if isinstance(typed, Exception):
            raise typed
        return typed

    script = iter([UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
                   "games", EOFError()])
    assert run(settings, "alice", lines) == 0
    out = capsys.readouterr().out
    assert "That line is not UTF-8 text; nothing was done. Type it again." in out
    assert out.count("No games in progress.") == 2  # the line after it still ran


async def test_surrogates_through_the_api_are_refused_or_cleaned(service, alice, bob,
                                                                 start_game):
    game = await start_game(alice, bob)
    before = await _changes(service)
    result = await service.move(alice, game.id, "b2-a3/\udcff")
    assert result == Refusal(Reason.BAD_MOVE, "That move holds characters that are not text.")
    result = await service.challenges.challenge(alice, "console:\ud800", bob)
    assert result == Refusal(Reason.BAD_INPUT, "That place holds characters that are not text.")
    assert await _changes(service) == before
    ghost = await service.player("console", "gh\udc80st", "Gh\udc80st")
    assert (ghost.address, ghost.display_name) == ("gh\ufffdst", "Gh\ufffdst")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x0b", "\x0c", "\x85", "\u202e",
                                       "\r\n", "\x00"])
async def test_a_display_name_loses_line_breaks_and_controls(service, separator):
    player = await service.player("email", "ann@players.test", f"Ann{separator}Lee")
    assert player.display_name == "Ann Lee"


def test_names_are_nfc_and_bounded_and_keep_joiners():
    assert boundary.clean_name("Jose\u0301") == "Jos\u00e9"
    assert boundary.clean_name("x" * 500) == "x" * boundary.MAX_NAME
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert boundary.clean_name(f"  {family}  ") == family
    assert boundary.clean_name("\u202eevil\u202c") == "evil"


async def test_a_name_of_nothing_but_controls_is_refused(service):
    assert await service.player("console", "\x07\x08") == Refusal(
        Reason.NO_SUCH_PLAYER, "An address needs at least one visible character.")
    assert await service.find_player("console", "\u2028") == Refusal(
        Reason.NO_SUCH_PLAYER, "A name needs at least one visible character.")


async def test_a_huge_move_text_is_refused_before_it_is_parsed(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    result = await service.move(alice, game.id, "b2-a3/D " * 125_000)
    assert result == Refusal(Reason.BAD_MOVE, "That move is too long (1,000,000 characters; "
                                              "at most 400).")
    assert (await service.game(game.id)).ply == 0


# --- days ---------------------------------------------------------------------------------
async def test_vacation_nan_is_refused_and_freezes_no_clock(typed, service, alice, bob,
                                                            start_game):
    game = await start_game(alice, bob, days=3)
    await typed("games")  # the notifications of the start are printed
    assert await typed("vacation nan") == "A vacation lasts at least a part of a day."
    assert await typed("vacation inf") == "A vacation lasts at least a part of a day."
    assert await typed("back") == "You are not on vacation."
    game = await service.game(game.id)
    assert not game.clock.paused and game.clock.deadline is not None
    assert (await service.get_player(alice.id)).vacation_until is None


@pytest.mark.parametrize("days", [math.nan, -math.inf, math.inf, -1.0, 0, 36_501, 1e308, True,
                                  "3"])
async def test_vacation_days_out_of_bounds_write_nothing(service, alice, days):
    before = await _changes(service)
    result = await service.vacations.start(alice, days)
    assert isinstance(result, Refusal) and result.reason == Reason.BAD_DAYS
    assert await _changes(service) == before
    assert (await service.vacations.end(alice)).reason == Reason.NOT_ON_VACATION


async def test_a_side_other_than_0_or_1_is_a_refusal_not_an_exception(service, alice, bob):
    result = await service.challenges.challenge(alice, PLACE, bob, side=2)
    assert result == Refusal(Reason.BAD_INPUT, "A side is the first (0) or the second (1).")


async def test_an_unknown_variant_is_a_refusal_everywhere(service, alice):
    refused = await service.standings.rating(alice, "chess")
    assert isinstance(refused, Refusal) and refused.reason == Reason.UNKNOWN_VARIANT
    assert isinstance(await service.standings.leaderboard("\x00"), Refusal)


async def test_concurrent_refusals_leave_the_writer_usable(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    results = await asyncio.gather(*(service.move(alice, game.id, "\udc80") for _ in range(5)),
                                   service.move(alice, game.id, "b2-a3/D"))
    assert [r.ok for r in results] == [False] * 5 + [True]


async def test_slow_rules_work_runs_in_a_worker_thread(service, alice, bob, start_game,
                                                       monkeypatch):
    game = await start_game(alice, bob)
    threads: list[int] = []
    play = service_module._play

    def spying(*args):
        threads.append(threading.get_ident())
        return play(*args)

    monkeypatch.setattr(service_module, "_play", spying)
    monkeypatch.setitem(service_module._rules_seconds, "clash", 0.0)  # quick: on the loop
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    monkeypatch.setitem(service_module._rules_seconds, "clash", 1.0)  # slow: in a worker
    assert (await service.move(bob, game.id, "h8-i7/D")).ok
    assert threads[0] == threading.get_ident() != threads[1]
