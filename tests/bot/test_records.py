"""Game records: the text format, and export → import giving the same game."""

from __future__ import annotations

import random

import pytest

from bot.service.records import RecordError, read_record, write_record
from bot.service.results import Reason
from engine import get_variant

PLACE = "console:test"


def test_a_record_reads_back_its_tags_turns_and_result():
    variant = get_variant("clash")
    tags = {"Variant": "clash", "White": 'Al "the Hawk" \\ Smith', "Black": "Bob"}
    text = write_record(tags, variant.start_position(), [["b2-a3/D"], ["h8-i7/D"],
                                                         ["a3-b4", "end"]], "*")
    assert text == ('[Variant "clash"]\n[White "Al \\"the Hawk\\" \\\\ Smith"]\n'
                    '[Black "Bob"]\n\n1. b2-a3/D\n1... h8-i7/D\n2. a3-b4 | end\n\n*\n')
    record = read_record(text)
    assert record.tags == tags
    assert record.turns == [("b2-a3/D",), ("h8-i7/D",), ("a3-b4", "end")]
    assert record.result == "*"


def test_numbering_follows_the_start_position():
    start = get_variant("clash").parse_position("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB b 7")
    text = write_record({}, start, [["h8-i7/D"], ["b2-a3/D"]], "1-0")
    assert text == "\n7... h8-i7/D\n8. b2-a3/D\n\n1-0\n"


@pytest.mark.parametrize(("text", "message"), [
    ('[Variant "clash"]\n1. b2-a3/D\n[Black "x"]\n',
     "line 3: '[Black \"x\"]' is not a tag pair like [Variant \"clash\"], or it comes after "
     "the moves"),
    ('[Variant "clash"]\n\nb2-a3/D\n',
     "line 3: 'b2-a3/D' is not a numbered turn like '12. c3-d4' or '12... d6-c5'"),
    ('[Result "2-0"]\n', "the Result tag '2-0' is not one of 1-0, 0-1, 1/2-1/2, *"),
    ("1. b2-a3/D |  | end\n", "line 1: an empty step in '1. b2-a3/D |  | end'"),
])
def test_an_unreadable_record_says_which_line(text, message):
    with pytest.raises(RecordError) as err:
        read_record(text)
    assert str(err.value) == message


async def test_an_exported_game_reads_like_a_record(service, alice, bob, start_game):
    game = await start_game(alice, bob, days=3)
    for player, text in [(alice, "b2-a3/D"), (bob, "h8-i7/D"), (alice, "h2-h4/D")]:
        await service.move(player, game.id, text)
    await service.resign(bob, game.id)
    exported = await service.archive.export(game.id)
    assert exported.text == """\
[Event "Rated correspondence game"]
[Site "console:test"]
[Date "2026.03.02"]
[Round "-"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]
[Variant "clash"]
[Mode "standard"]
[TimeControl "1/259200"]
[Termination "Bob resigned"]
[Rated "yes"]

1. b2-a3/D
1... h8-i7/D
2. h2-h4/D

1-0
"""


async def _same_game(service, original_id: int, copy_id: int) -> None:
    original, copy = await service.game(original_id), await service.game(copy_id)
    fields = ("variant", "mode", "place", "names", "start_fen", "fen", "to_move", "ply",
              "turns", "status", "result", "winner", "reason")
    assert [getattr(copy, f) for f in fields] == [getattr(original, f) for f in fields]
    strip = [(m.ply, m.turn, m.side, m.text, m.fen, m.partial)
             for m in await service.played_moves(original_id)]
    assert [(m.ply, m.turn, m.side, m.text, m.fen, m.partial)
            for m in await service.played_moves(copy_id)] == strip
    copied = (await service.archive.export(copy_id)).text
    assert copied == (await service.archive.export(original_id)).text
    assert await service.archive.verify(copy_id) == []


async def test_export_then_import_gives_the_same_finished_game(service, alice, bob, start_game):
    game = await start_game(alice, bob, rated=False)
    rng = random.Random(5)
    while not (game := await service.game(game.id)).is_over:
        moves = await service.legal_moves(game)
        await service.move((alice, bob)[game.to_move], game.id, rng.choice(moves))
    done = await service.archive.import_game(alice, PLACE,
                                             (await service.archive.export(game.id)).text, bob)
    assert done.ok and done.game.is_over
    await _same_game(service, game.id, done.game.id)


async def test_export_then_import_continues_a_game_in_the_middle_of_a_turn(
        service, alice, bob, start_game, pairs):
    game = await start_game(alice, bob, variant="pairs", rated=False)
    for player, text in [(alice, "b2-a3/D"), (alice, "h2-h4/D"), (bob, "h8-i7/D"),
                         (bob, "end"), (alice, "d2=H")]:
        assert (await service.move(player, game.id, text)).ok
    record = (await service.archive.export(game.id)).text
    assert "\n1. b2-a3/D | h2-h4/D\n1... h8-i7/D | end\n2. d2=H\n" in record
    done = await service.archive.import_game(bob, PLACE, record, alice)
    assert done.message == ("Imported as game #2 (in progress, 5 steps): Alice (White) vs Bob "
                            "(Black).")
    await _same_game(service, game.id, done.game.id)
    assert (await service.move(alice, done.game.id, "f2=H")).ok  # the turn goes on
    assert (await service.game(done.game.id)).to_move == 1


async def test_an_imported_record_may_start_from_a_set_up_position(service, alice, bob):
    record = ('[Variant "clash"]\n[White "Bob"]\n[FEN "5/4/5/4/5/1c2/1B3/4/C4 w 1"]\n\n'
              '1. c3xd4\n\n1-0\n')
    done = await service.archive.import_game(alice, PLACE, record, bob)
    game = done.game
    assert (game.names, game.result, game.reason) == (("Bob", "Alice"), "1-0",
                                                      "Black has no Commander left")


@pytest.mark.parametrize(("record", "message"), [
    ('[Variant "shogi"]\n', "'shogi': no such variant"),
    ('[Variant "clash"]\n[Mode "blitz"]\n', "Clash of Command has no mode 'blitz'."),
    ('[Variant "clash"]\n\n1. b2-a3/D\n1... b2-a3/D\n',
     "turn 1... b2-a3/D: 'b2-a3/D': the Droid on b2 is White's, and it is Black's turn"),
    ('[Variant "clash"]\n\n1. b2-a3/D | h2-h4/D\n',
     "turn 1. b2-a3/D | h2-h4/D: the turn is complete after 'b2-a3/D'; 'h2-h4/D' belongs "
     "on a new line"),
    ('[Variant "clash"]\n[Result "0-1"]\n[FEN "5/4/5/4/5/1c2/1B3/4/C4 w 1"]\n\n1. c3xd4\n',
     "it says 0-1, but the game ended 1-0 (Black has no Commander left)."),
])
async def test_a_record_that_does_not_replay_is_refused(service, alice, bob, record, message):
    refused = await service.archive.import_game(alice, PLACE, record, bob)
    assert refused.reason == Reason.BAD_RECORD
    assert refused.message.startswith("That record cannot be imported: ")
    assert message in refused.message
    assert await service.games(alice) == []


async def test_an_incomplete_turn_before_the_last_is_refused(service, alice, bob, pairs):
    refused = await service.archive.import_game(
        alice, PLACE, '[Variant "pairs"]\n\n1. b2-a3/D\n1... h8-i7/D\n', bob)
    assert refused.message == ("That record cannot be imported: turn 1. b2-a3/D: the turn is "
                               "not complete; add its remaining steps or 'end'")


async def test_an_imported_game_keeps_its_time_control(service, clock, alice, bob, start_game):
    game = await start_game(alice, bob, days=3)
    await service.move(alice, game.id, "b2-a3/D")
    done = await service.archive.import_game(alice, PLACE,
                                             (await service.archive.export(game.id)).text, bob)
    assert done.game.days == 3
    assert done.game.clock.deadline == clock() + 3 * 86_400
    refused = await service.archive.import_game(
        alice, PLACE, '[Variant "clash"]\n[TimeControl "4 days per move"]\n', bob)
    assert refused.message == ("That record cannot be imported: '4 days' is not a time control: "
                               "the time per move is 1, 2, 3, 5, 7 or 14 days, or none.")


async def test_a_deploy_entered_step_by_step_is_one_entry_under_its_full_san(
        service, alice, bob, start_game):
    """Commander Chess §5.5: the server records the completed turn under its full deploy
    SAN, however its steps were entered; importing the record gives the same game."""
    game = await start_game(alice, bob, variant="commander", rated=False,
                            start_fen="7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1")
    for text in ("T>e6", "I>e5"):
        assert (await service.move(alice, game.id, text)).ok
    assert (await service.move(bob, game.id, "Ci12")).ok
    record = (await service.archive.export(game.id)).text
    assert "\n1. T>e6,I>e5\n1... Ci12\n" in record
    done = await service.archive.import_game(alice, PLACE, record, bob)
    assert done.ok, done
    await _same_position_and_turns(service, game.id, done.game.id)


async def test_a_chieftain_turn_entered_move_by_move_is_one_entry_in_the_players_order(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="mini-chieftain", rated=False)
    for text in ("Md2-d3", "Cd1-d2"):
        assert (await service.move(alice, game.id, text)).ok
    record = (await service.archive.export(game.id)).text
    assert "\n1. Md2-d3, Cd1-d2\n" in record
    done = await service.archive.import_game(alice, PLACE, record, bob)
    assert done.ok, done
    await _same_position_and_turns(service, game.id, done.game.id)


async def _same_position_and_turns(service, original_id: int, copy_id: int) -> None:
    """The same game, except that a turn entered step by step is one stored move in the
    copy (so the ply counts differ)."""
    original, copy = await service.game(original_id), await service.game(copy_id)
    fields = ("variant", "mode", "names", "start_fen", "fen", "to_move", "turns", "status")
    assert [getattr(copy, f) for f in fields] == [getattr(original, f) for f in fields]
