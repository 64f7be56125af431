"""One move list for every transport: a game's stored steps become numbered turn entries
exactly as the record writes them (`turn_entries`), whatever way a turn was typed; the
picture of any step of a turn marks the whole turn so far, an `end` step the turn it
closes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.pictures import game_info
from bot.service import GameService
from bot.service.model import Game, Player
from bot.service.turns import TurnEntry, numbered_turns, turn_entries

GAMES = json.loads((Path(__file__).parents[1] / "data" / "move_lists.json").read_text())["games"]
TURN_LINE = re.compile(r"^\d+\.(?:\.\.)? ")


async def play_inputs(service: GameService, start_game, alice: Player, bob: Player,
                      name: str, inputs: int | None = None) -> Game:
    """The game ``name`` of the data file, its inputs (the first ``inputs`` of them) each
    sent by the player to move."""
    data = GAMES[name]
    options = {"variant": data["variant"], "rated": False}
    if data["fen"]:
        options["start_fen"] = data["fen"]
    game = await start_game(alice, bob, **options)
    for text in data["inputs"][:inputs]:
        mover = (alice, bob)[(await service.game(game.id)).to_move]
        done = await service.move(mover, game.id, text)
        assert done.ok, (text, done)
    return await service.game(game.id)


def record_lines(record: str) -> list[str]:
    return [line for line in record.splitlines() if TURN_LINE.match(line)]


@pytest.mark.parametrize("name", list(GAMES))
async def test_the_move_list_is_the_records(service, alice, bob, start_game, name):
    game = await play_inputs(service, start_game, alice, bob, name)
    played = await service.played_moves(game.id)
    expected = GAMES[name]["record"]
    assert [e.line for e in turn_entries(game, played)] == expected
    assert record_lines((await service.archive.export(game.id)).text) == expected
    # the pictures' panel of last moves, after the whole game
    assert game_info(game, played).moves == tuple(expected)


async def test_black_turns_are_numbered_with_three_dots_from_the_first(service, alice, bob,
                                                                     start_game):
    game = await play_inputs(service, start_game, alice, bob, "clash")
    entries = turn_entries(game, await service.played_moves(game.id))
    assert [(e.label, e.side, e.first, e.last) for e in entries] == [
        ("1.", 0, 0, 1), ("1...", 1, 1, 2), ("2.", 0, 2, 3), ("2...", 1, 3, 4),
        ("3.", 0, 4, 5), ("3...", 1, 5, 6)]
    assert entries[-1].line == "3... c7-b6"


async def test_a_deploy_closed_by_end_is_one_entry_under_its_full_san(service, alice, bob,
                                                                     start_game):
    game = await play_inputs(service, start_game, alice, bob, "commander-deploy")
    played = await service.played_moves(game.id)
    assert [p.text for p in played[6:8]] == ["T>e6", "end"]  # stored as typed, step by step
    assert turn_entries(game, played)[6] == TurnEntry("4.", "I<T>e6", 0, 6, 8, True)
    # the board after `end` marks the turn it closes; after the step before, the same step
    marked = [[(s.origin, s.target) for m in await service.turns.turn_moves(game, ply)
               for s in m.steps] for ply in (7, 8, 9)]
    assert marked == [[("e4", "e6")], [("e4", "e6")], [("i10", "i9")]]


async def test_a_turn_in_progress_shows_its_steps_so_far(service, alice, bob, start_game):
    game = await play_inputs(service, start_game, alice, bob, "commander-deploy", inputs=7)
    played = await service.played_moves(game.id)
    last = turn_entries(game, played)[-1]
    assert last == TurnEntry("4.", "T>e6", 0, 6, 7, False)
    assert last.line == "4. T>e6 …"
    assert numbered_turns(game, played)[-1] == "4. T>e6 …"
    assert record_lines((await service.archive.export(game.id)).text)[-1] == "4. T>e6"


async def test_a_chieftain_turn_is_the_same_entry_typed_on_one_line_or_move_by_move(
        service, alice, bob, start_game):
    by_move = await play_inputs(service, start_game, alice, bob, "chieftain-move-by-move")
    one_line = await play_inputs(service, start_game, alice, bob, "chieftain-one-line")
    steps = await service.played_moves(by_move.id)
    lines = await service.played_moves(one_line.id)
    assert (len(steps), len(lines)) == (9, 6)  # stored as typed
    # the moves of a line are kept in the order given, as when sent one by one (rules §3)
    assert [p.text for p in lines] == ["Me3-e4", "Ng8-f6, Md7-d6", "Cd1-d2",
                                       "Nf6-h5, Md6-c5", "Cd2-c3", "Nh5-g3, end"]

    def entries(game: Game, played) -> list[tuple[str, str, int]]:
        return [(e.label, e.text, e.side) for e in turn_entries(game, played)]

    assert entries(by_move, steps) == entries(one_line, lines)
    assert by_move.fen == one_line.fen
    assert record_lines((await service.archive.export(by_move.id)).text) == \
        record_lines((await service.archive.export(one_line.id)).text)


async def test_discord_watchers_are_told_the_turn_an_end_closes_as_the_record_writes_it(
        service, alice, bob, start_game):
    game = await play_inputs(service, start_game, alice, bob, "commander-deploy", inputs=7)
    carol = await service.player("discord", "333", "Carol")
    assert (await service.rooms.watch(carol, game.id)).ok
    assert await service.rooms.watch_news(game.id) is None  # the turn goes on
    assert (await service.move(alice, game.id, "end")).ok
    assert await service.rooms.watch_news(game.id) == (
        f"Alice played 4. I<T>e6 in game #{game.id} (Commander Chess (Cờ Tư Lệnh)). Bob (Blue) "
        f"is to move.")
