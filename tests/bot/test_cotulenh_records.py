"""Commander Chess records in the cotulenh site's PGN dialect (`bot.service.cotulenh`), and
the PGN conventions of every variant's export (`Archive.export`)."""

from __future__ import annotations

import random

import pytest

from bot.service.archive import _days, pgn_time_control
from bot.service.boundary import MAX_RECORD
from bot.service.cotulenh import (
    cotulenh_san,
    is_pgn_movetext,
    our_turns,
    read_cotulenh,
    write_cotulenh,
)
from bot.service.results import Reason
from engine import all_variants, get_variant

PLACE = "console:test"
# a lone tank on g6, a stack of an air force carrying a tank on e5, a Blue infantry on e8
SET_UP = "7c3/11/11/11/4i6/11/6T4/4(FT)6/11/11/11/6C4 r - - 0 1"
START = ("6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/"
         "1N2FH1HF2/6C4 r - - 0 1")

# As the site's engine writes a game (its pgn(): the roster with Red and Blue, SetUp and
# FEN always, the moves in numbered pairs on one line, no newline at the end). Its SAN
# writes the lone tank's move Tge6, as the tank in the stack could also go to e6 (our SAN
# is Te6); Blue's last infantry is heroic from the first turn on (the last guard), and the
# deploy captures it with the air force, which becomes heroic by giving check.
SITE_PGN = """\
[Event "Friendly Match"]
[Site "?"]
[Date "2026.01.07"]
[Round "?"]
[Red "Alice"]
[Blue "Bob"]
[Result "*"]
[SetUp "1"]
[FEN "7c3/11/11/11/4i6/11/6T4/4(FT)6/11/11/11/6C4 r - - 0 1"]

1. Tge6 Ch11 2. F>xe8,T>f5 Ci11 *"""


async def test_a_record_as_the_site_writes_it_imports_exactly(service, alice, bob):
    done = await service.archive.import_game(bob, PLACE, SITE_PGN, alice)
    assert done.message == ("Imported as game #1 (in progress, 4 steps): Alice (Red) vs Bob "
                            "(Blue).")
    game = done.game
    assert (game.variant, game.mode, game.start_fen, game.days) == ("commander", "standard",
                                                                    SET_UP, None)
    assert [(m.text, m.fen) for m in await service.played_moves(game.id)] == [
        ("Te6", "7c3/11/11/11/4+i6/11/4T6/4(FT)6/11/11/11/6C4 b - - 1 1"),
        ("Ch11", "11/7c3/11/11/4+i6/11/4T6/4(FT)6/11/11/11/6C4 r - - 2 2"),
        ("F>xe8,T>f5", "11/7c3/11/11/4+F6/11/4T6/5T5/11/11/11/6C4 b - - 0 2"),
        ("Ci11", "11/8c2/11/11/4+F6/11/4T6/5T5/11/11/11/6C4 r - - 1 3")]
    assert await service.archive.verify(game.id) == []


def test_reading_takes_comments_numbers_and_annotations_out():
    record = read_cotulenh('[Red "A"]\n[Blue "B"]\n\n{opening} 1. Tge6 $1 Ch11!? ; aside\n'
                           "2.F>xe8,T>f5 2... Ci11 1-0")
    assert (record.tags, record.moves, record.result) == (
        {"Red": "A", "Blue": "B"}, ["Tge6", "Ch11", "F>xe8,T>f5", "Ci11"], "1-0")


def test_the_site_numbers_in_pairs_from_one_and_ends_without_a_newline():
    assert write_cotulenh({"Red": 'Al "Hawk"', "FEN": SET_UP, "SetUp": "1", "Mode": "air"},
                          ["Ci11"], "*") == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[Red "Al \'Hawk\'"]\n'
        f'[Blue "?"]\n[Result "*"]\n[SetUp "1"]\n[FEN "{SET_UP}"]\n[Mode "air"]\n\n1. Ci11 *')
    assert write_cotulenh({}, [], "1/2-1/2").endswith('[Result "1/2-1/2"]\n1/2-1/2')


async def test_a_game_exports_as_the_site_writes_it(service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander", rated=False, start_fen=SET_UP)
    for player, text in [(alice, "Te6"), (bob, "Ch11"), (alice, "F>xe8,T>f5"),
                         (bob, "Ci11")]:
        assert (await service.move(player, game.id, text)).ok
    done = await service.archive.export(game.id, alice, format="cotulenh")
    assert done.message == "Record of game #1 (cotulenh)."
    assert done.text == f"""\
[Event "Casual correspondence game"]
[Site "console:test"]
[Date "2026.03.02"]
[Round "-"]
[Red "Alice"]
[Blue "Bob"]
[Result "*"]
[TimeControl "-"]
[SetUp "1"]
[FEN "{SET_UP}"]
[Variant "commander"]
[Mode "standard"]

1. Tge6 Ch11 2. F>xe8,T>f5 Ci11 *"""


async def _play(service, players, game_id: int, texts) -> None:
    for text in texts:
        game = await service.game(game_id)
        assert (await service.move(players[game.to_move], game_id, text)).ok, text


async def _random_game(service, players, game_id: int, seed: int, turns: int) -> None:
    """Random turns, deploys and joins preferred, so that stacks form and split."""
    rng = random.Random(seed)
    for _ in range(turns):
        game = await service.game(game_id)
        if game.is_over:
            return
        moves = await service.legal_moves(game)
        split = [m for m in moves if "," in m or "<" in m]
        joins = [m for m in moves if "&" in m or m.startswith("(")]
        pick = rng.random()
        choice = rng.choice(split if split and pick < 0.4 else
                            joins if joins and pick < 0.7 else moves)
        assert (await service.move(players[game.to_move], game_id, choice)).ok


async def _through_the_site(service, alice, bob, game_id: int) -> None:
    """Our game → the site's PGN → our game again: the same turns, positions and end."""
    site = (await service.archive.export(game_id, format="cotulenh")).text
    copy = await service.archive.import_game(alice, PLACE, site, bob)
    assert copy.ok, copy
    original = await service.game(game_id)
    fields = ("variant", "names", "start_fen", "fen", "to_move", "turns", "status", "result",
              "winner")
    assert [getattr(copy.game, f) for f in fields] == [getattr(original, f) for f in fields]
    # a turn entered step by step is one stored move in the copy, its whole turn's text
    ours = [m.fen for m in await service.played_moves(game_id) if not m.partial]
    assert [m.fen for m in await service.played_moves(copy.game.id)] == ours
    assert (await service.archive.export(copy.game.id)).text == (
        await service.archive.export(game_id)).text
    assert (await service.archive.export(copy.game.id, format="cotulenh")).text == site
    assert await service.archive.verify(copy.game.id) == []


@pytest.mark.parametrize("seed", [2, 3, 5])
async def test_random_games_go_through_the_site_dialect_unchanged(
        service, alice, bob, start_game, seed):
    game = await start_game(alice, bob, variant="commander", rated=False)
    await _random_game(service, (alice, bob), game.id, seed, 70)
    moves = await service.played_moves(game.id)
    played = [m.text for m in moves]
    assert any("x" in t for t in played) and any("," in t or "<" in t for t in played)
    assert any(t.startswith("(") or "&" in t for t in played)  # stacks move and form
    assert any("+" in m.fen.split()[0] for m in moves)  # a hero
    await _through_the_site(service, alice, bob, game.id)


async def test_a_deploy_of_three_steps_entered_one_by_one_goes_through_the_site(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander", rated=False,
                            start_fen="7c3/11/11/11/11/11/2(NFT)8/11/11/11/11/6C4 r - - 0 1")
    await _play(service, (alice, bob), game.id, ["N>c8", "T>d6", "F>e6", "Ch11"])
    assert [m.text for m in await service.played_moves(game.id)] == [
        "N>c8", "T>d6", "F>e6", "Ch11"]
    site = (await service.archive.export(game.id, format="cotulenh")).text
    assert site.endswith("\n\n1. N>c8,T>d6,F>e6 Ch11 *")
    await _through_the_site(service, alice, bob, game.id)


async def _site_record(service, start_game, players, fen: str, moves: list[str]):
    """A Commander Chess game from ``fen`` with ``moves`` played, and its site record."""
    game = await start_game(*players, variant="commander", rated=False, start_fen=fen)
    await _play(service, players, game.id, moves)
    return game, (await service.archive.export(game.id, format="cotulenh")).text


async def test_a_turn_in_progress_is_left_out_of_the_site_record(
        service, alice, bob, start_game):
    _game, site = await _site_record(service, start_game, (alice, bob),
                                     "7c3/11/11/11/11/11/2(NFT)8/11/11/11/11/6C4 r - - 0 1",
                                     ["N>c8"])
    assert site.endswith('[Mode "standard"]\n*')


async def test_a_game_won_by_capturing_the_commander_goes_through_the_site(
        service, alice, bob, start_game):
    game, site = await _site_record(service, start_game, (alice, bob),
                                    "7c3/11/7T3/11/11/11/11/11/11/11/11/6C4 r - - 0 1",
                                    ["Txh12"])
    assert '[Result "1-0"]' in site and site.endswith("\n\n1. Txh12 1-0")
    await _through_the_site(service, alice, bob, game.id)


async def test_a_resigned_game_goes_through_the_site(service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander", rated=False, days=3)
    await _play(service, (alice, bob), game.id, ["Tfg4", "Tf7"])
    assert (await service.resign(alice, game.id)).ok
    site = (await service.archive.export(game.id, format="cotulenh")).text
    assert '[Result "0-1"]\n[TimeControl "1/259200"]\n' in site
    assert '[Termination "Alice resigned"]' in site
    await _through_the_site(service, alice, bob, game.id)


@pytest.mark.parametrize(("record", "message"), [
    (SITE_PGN.replace("2. F>xe8,T>f5", "2. F>xe9"),
     "move 2. F>xe9: no legal move of Red is written so here"),
    (SITE_PGN.replace('[Result "*"]', '[Result "red"]'),
     "the Result tag 'red' is not one of 1-0, 0-1, 1/2-1/2, *"),
])
async def test_a_site_record_that_does_not_replay_is_refused(service, alice, bob, record,
                                                             message):
    refused = await service.archive.import_game(alice, PLACE, record, bob)
    assert refused.message == f"That record cannot be imported: {message}"


async def test_the_site_format_is_for_commander_chess_games(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    refused = await service.archive.export(game.id, format="cotulenh")
    assert (refused.reason, refused.message) == (
        Reason.BAD_INPUT, "The cotulenh format is for Commander Chess games; game #1 is "
                          "Clash of Command.")
    refused = await service.archive.export(game.id, format="pgn")
    assert refused.message == "There is no record format 'pgn': write commandpost or cotulenh."


# --- the PGN conventions of every variant's export -------------------------------------
@pytest.mark.parametrize("name", [v.name for v in all_variants()])
async def test_every_variant_exports_the_seven_tags_then_its_own(
        service, alice, bob, start_game, name):
    rules = get_variant(name)
    game = await start_game(alice, bob, variant=name, days=3)
    text = (await service.archive.export(game.id)).text
    red, blue = rules.side_names
    assert text == (f'[Event "Rated correspondence game"]\n[Site "console:test"]\n'
                    f'[Date "2026.03.02"]\n[Round "-"]\n[{red} "Alice"]\n[{blue} "Bob"]\n'
                    f'[Result "*"]\n[Variant "{name}"]\n[Mode "{rules.modes[0]}"]\n'
                    f'[TimeControl "1/259200"]\n[Rated "yes"]\n\n*\n')
    done = await service.archive.import_game(alice, PLACE, text, bob)
    assert (done.game.variant, done.game.start_fen, done.game.days) == (
        name, rules.format_position(rules.start_position()), 3)


async def test_a_set_up_start_is_written_with_setup_and_fen(service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander", start_fen=SET_UP, days=None,
                            rated=False)
    text = (await service.archive.export(game.id)).text
    assert text.endswith(f'[TimeControl "-"]\n[Rated "no"]\n[SetUp "1"]\n[FEN "{SET_UP}"]\n'
                         f'\n*\n')


async def test_an_export_written_before_the_pgn_tags_still_imports(service, alice, bob):
    old = """\
[Variant "commander"]
[Mode "standard"]
[Site "console:test"]
[Date "2026.03.02"]
[Red "Alice"]
[Blue "Bob"]
[Result "*"]
[TimeControl "3 days per move"]
[Rated "yes"]
[FEN "7c3/11/11/11/4i6/11/6T4/4(FT)6/11/11/11/6C4 r - - 0 1"]

1. Te6
1... Ch11
2. F>xe8,T>f5

*
"""
    done = await service.archive.import_game(alice, PLACE, old, bob)
    assert done.message == ("Imported as game #1 (in progress, 3 steps): Alice (Red) vs Bob "
                            "(Blue).")
    assert (done.game.days, done.game.fen) == (
        3, "11/7c3/11/11/4+F6/11/4T6/5T5/11/11/11/6C4 b - - 0 2")
    no_clock = old.replace("3 days per move", "no clock")
    assert (await service.archive.import_game(alice, PLACE, no_clock, bob)).game.days is None


@pytest.mark.parametrize(("days", "choice", "tag"), [
    (None, None, "-"), (3, None, "1/259200"), (14, None, "1/1209600"),
    (None, "2d+1d max10d", "172800+86400"), (3, "3d total30d", "1/259200"),
])
def test_the_time_control_tag_takes_pgn_form(days, choice, tag):
    assert pgn_time_control(days, choice) == tag


@pytest.mark.parametrize(("tag", "days"), [
    ("-", None), ("?", None), ("1/259200", 3), ("1/86400", 1), ("7 days per move", 7),
    ("no clock", None)])
def test_the_time_control_tag_reads_back(tag, days):
    assert _days(tag) == days


@pytest.mark.parametrize(("tag", "message"), [
    ("1/345600", "'4 days' is not a time control"),
    ("1/3600", "'1/3600' is not a time control"),
    ("259200+86400", "'259200+86400' is not a time control")])
def test_a_time_control_without_days_per_move_is_refused(tag, message):
    with pytest.raises(ValueError) as err:
        _days(tag)
    assert str(err.value).startswith(message)


def test_a_deploy_whose_piece_fired_from_the_stack_leaves_it_out_of_the_stay_part():
    """The site counts a piece that made a stay capture as gone from the stack (its stay
    part has only the pieces that did not act); ours keeps it there (§9.2.3)."""
    rules = get_variant("commander")
    position = rules.parse_position(
        "3m5c1/1n3h1h3/6s1g2/2i1e(ft)3e1/5t4(fi)/2N1g1C1T2/2n2T4A/2E6MI/4GF5/2IA2S1G2/"
        "4FH1H3/2N8 b - - 22 32")
    move = rules.parse_move(position, "F<F>_k5,I>j8")
    assert cotulenh_san(rules, position, move) == "F>_k5,I>j8"
    assert our_turns(rules, position, ["F>_k5,I>j8"]) == [("F<F>_k5,I>j8",)]


async def test_a_live_clock_of_the_site_is_dropped(service, alice, bob):
    record = SITE_PGN.replace('[SetUp "1"]', '[TimeControl "600+5"]\n[SetUp "1"]')
    done = await service.archive.import_game(alice, PLACE, record, bob)
    assert done.ok and done.game.days is None


TWO_STACKS = "7c3/11/11/11/11/11/11/4(TI)1(TI)4/11/11/11/6C4 r - - 0 1"


async def test_a_deploy_two_stacks_could_make_is_written_with_its_origin(
        service, alice, bob, start_game):
    """The site's SAN of a deploy never names its origin: when another stack could make
    the same deploy, the record writes the long form, which the site reads as LAN."""
    game = await start_game(alice, bob, variant="commander", rated=False, start_fen=TWO_STACKS)
    await _play(service, (alice, bob), game.id, ["g5:I:T>f5"])
    site = (await service.archive.export(game.id, format="cotulenh")).text
    assert site.endswith("\n\n1. g5:I:T>f5 *")
    await _through_the_site(service, alice, bob, game.id)
    refused = await service.archive.import_game(
        alice, PLACE, site.replace("g5:I:T>f5", "I<T>f5"), bob)
    assert refused.message == ("That record cannot be imported: move 1. I<T>f5: 2 deploys "
                               "are written so here; name the origin, as in e5:I:T>f5")


def test_reading_the_longest_record_of_open_braces_and_brackets_is_linear():
    """The worst inputs at the size limit of a record (`MAX_RECORD`): every `{` opens a
    comment that never closes, every line a tag that never ends."""
    assert read_cotulenh("{" * MAX_RECORD).moves == []
    quotes = '"' * (MAX_RECORD - 3)
    assert read_cotulenh("[A " + quotes).moves == ["[A", quotes]
    assert is_pgn_movetext("1. " + "{" * MAX_RECORD)  # a comment: PGN, not ours
