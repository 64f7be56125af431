"""The console transport: the command words, the text board, the PNG file, two players at
one keyboard, and `commandpost` starting it."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bot.pictures
from bot.textboard import caption, text_board
from engine import all_variants, get_variant

ROOT = Path(__file__).resolve().parents[2]

CLASH_START = """\
9  b     c     c     c     c
8     f     f     f     f
7  h     d     h     d     .
6     .     .     .     .
5  .     .     .     .     .
4     .     .     .     .
3  .     D*    H     D     H
2     F*    F     F     F
1  C     C     C     C     B
   a  b  c  d  e  f  g  h  i"""


def test_the_text_board_places_every_node_at_its_coordinates():
    clash = get_variant("clash")
    assert text_board(clash, clash.start_position(), ["b2", "c3"]) == CLASH_START
    assert caption(clash, clash.start_position()) == "White to move, move 1."


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_the_text_board_shows_every_piece_of_every_variant(variant):
    rules = get_variant(variant)
    position = rules.start_position()
    board = text_board(rules, position)
    symbols = "".join(p.symbol for node in rules.topology.nodes
                      for p in rules.pieces_at(position, node))
    drawn = "".join(line[3:] for line in board.splitlines()[:-1]).replace(".", "")
    assert sorted(drawn.replace(" ", "").replace("*", "")) == sorted(symbols)
    assert len(board.splitlines()) == len(rules.topology.ranks) + 1


async def test_two_players_play_at_one_keyboard(session, settings):
    out = await session("challenge bob 3d white")
    assert out.startswith("Challenge #1 sent to bob: Clash of Command, 3 days per move, "
                          "Alice plays White, rated.")
    assert "[to bob] Alice challenges you" in out
    assert await session("as bob") == "You are bob."
    out = await session("accept")
    assert "Game #1 started: Alice (White) vs bob (Black)" in out
    assert await session("as Alice") == "You are Alice. Your move in game #1."
    out = (await session("moves b2")).splitlines()
    assert out[0] == "F on b2: 6 moves: b2-a3/D b2-a3/H b2-b4/D b2-b4/H b2=D b2=H"
    assert out[7:9] == ["3  .*    D     H     D     H", "2     F     F     F     F"]
    out = await session("b2-a3/D")
    lines = out.splitlines()
    assert lines[0] == "1. b2-a3/D played in game #1. bob (Black) is to move."
    assert lines[4:7] == ["6     .     .     .     .", "5  .     .     .     .     .",
                          "4     .     .     .     ."]
    assert lines[7] == "3  F*    D     H     D     H"
    assert lines[8] == "2     D*    F     F     F"
    assert lines[11] == "Black to move, move 1."
    assert lines[13].startswith("  [to bob] Alice played 1. b2-a3/D in game #1")
    assert await session("h8-i7/D") == ("It is not your turn in game #1: bob (Black) is to "
                                        "move.")
    await session("as bob")
    assert await session("move h8-i7") == ("h8-i7 is ambiguous: it could be h8-i7/D or "
                                           "h8-i7/H. Send the one you mean.\n  h8-i7/D\n"
                                           "  h8-i7/H")
    assert (await session("draw")) == "Clash of Command has no draws by agreement."
    out = await session("resign")
    assert out.startswith("You resigned game #1: Alice (White) wins: bob resigned (1-0).")


async def test_the_board_picture_is_written_to_a_file(session, settings):
    await session("challenge bob white")
    await session("as bob")
    await session("accept")
    out = await session("board #1")
    path = settings.pictures_dir / "game-1-0-black.png"  # as bob, who plays Black, sees it
    assert f"Picture: {path}" in out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


async def test_without_the_renderer_there_is_no_picture_but_the_game_goes_on(
        session, settings, monkeypatch):
    monkeypatch.setattr(bot.pictures, "_renderer", lambda: None)
    await session("challenge bob white")
    await session("as bob")
    out = await session("accept")
    assert out.splitlines()[-2] == "(no picture: the renderer is not available)"
    assert out.splitlines()[-1].startswith("  [to alice] Game #1 started: ")  # said once
    assert not settings.pictures_dir.exists()


async def test_export_to_a_file_and_import_it_again(session, tmp_path):
    await session("challenge bob white")
    await session("as bob")
    await session("accept")
    await session("as Alice")
    await session("b2-a3/D")
    record = tmp_path / "game.txt"
    out = await session(f"export #1 {record}")
    assert out.endswith(f"Written to {record}.")
    assert "1. b2-a3/D" in record.read_text()
    out = await session(f"import {record} vs bob")
    assert out.splitlines()[0] == (
        "Challenge #2 sent to bob: to continue a recorded game of Clash of Command (1 step "
        "played; Alice plays White). The game starts when bob accepts.")
    assert "[to bob] Alice invites you to continue a recorded game" in out
    assert "No games" not in await session("games")
    await session("as bob")
    out = await session("accept #2")
    assert out.startswith("Challenge #2 accepted. Imported as game #2 (in progress, 1 step): "
                          "Alice (White) vs bob (Black).")
    assert "[to alice] bob accepted challenge #2: game #2 continues the recorded game" in out
    await session("as Alice")
    assert await session(f"import {tmp_path / 'missing.txt'} vs bob") == (
        f"I cannot read {tmp_path / 'missing.txt'}: no such file.")


async def test_help_lists_every_command_word(session):
    out = await session("help")
    for word in ("challenge", "accept", "decline", "cancel", "move", "board", "moves",
                 "resign", "draw", "takeback", "abort", "export", "vacation", "back",
                 "rating", "leaderboard", "as NAME", "import FILE vs NAME", "quit"):
        assert f"\n  {word}" in out
    assert (await session("help challenge")).startswith("challenge: Challenge someone")


async def test_a_game_over_shows_in_ratings_and_leaderboard(session):
    await session("challenge bob white from 5/4/5/4/5/1c2/1B3/4/C4 w 1")
    await session("as bob")
    await session("accept")
    await session("as Alice")
    out = await session("c3xd4")
    assert out.startswith("1. c3xd4 played in game #1. Game over: Alice (White) wins: Black has "
                          "no Commander left (1-0).")
    # the text board says the result, not whose move it would be
    assert "Black to move" not in out
    assert "Game over: Alice (White) wins: Black has no Commander left (1-0)." in out.splitlines()
    assert await session("rating") == "You have no rated Clash of Command games yet (you " \
                                      "start at 1500)."
    assert await session("leaderboard") == "No rated Clash of Command games yet."


def _run_commandpost(args: list[str], script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMMANDPOST_DB": str(tmp_path / "main.db"),
           "COMMANDPOST_PICTURES": str(tmp_path / "pictures"),
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot", *args], input=script, text=True,
                          capture_output=True, timeout=60, env=env, cwd=tmp_path)


def test_commandpost_without_arguments_runs_the_console_on_the_configured_database(tmp_path):
    done = _run_commandpost([], "as alice\nchallenge bob\nquit\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"commandpost console on {tmp_path / 'main.db'}" in done.stdout
    assert "Challenge #1 sent to bob" in done.stdout
    assert (tmp_path / "main.db").exists()
    again = _run_commandpost(["console", "--as", "bob"], "challenges\n", tmp_path)  # then EOF
    assert again.returncode == 0, again.stderr
    assert "#1 alice → bob: Clash of Command" in again.stdout


@pytest.mark.sqlite_only(reason="engine-bound; its storage runs on both in test_games.py")
@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
async def test_a_whole_game_of_every_variant_is_challenged_played_and_finished(
        session, service, variant):
    """Challenge, accept and play a game to its end at one keyboard: moves chosen from the
    legal ones (captures first, so that games end by the rules), typed into the console."""
    rng = random.Random(variant)
    await session(f"challenge bob {variant} white none")
    await session("as bob")
    assert "started" in await session("accept")
    names = {0: "Alice", 1: "bob"}
    game = (await service.games())[0]
    for _ in range(300):
        game = await service.game(game.id)
        if game.is_over:
            break
        await session(f"as {names[game.side_of(game.players[game.to_move])]}")
        legal = await service.legal_moves(game)
        captures = [m for m in legal if any(sign in m for sign in "x_@*")]
        out = await session(rng.choice(captures or legal))
        assert "played in game #1" in out, out
    else:
        assert "You resigned game #1" in await session("resign")
    game = await service.game(game.id)
    assert game.is_over and game.result in ("1-0", "0-1", "1/2-1/2")


# --- a console that behaves like a terminal program ----------------------------------------
CONSOLE_WORDS = ("as", "import")  # the console's own, beside the service's command words


async def _game_on(session) -> None:
    await session("challenge bob white")
    await session("as bob")
    await session("accept")
    await session("as Alice")


async def test_every_word_answers_bad_arguments_in_one_line(session, tmp_path, monkeypatch):
    """Every command word with extra, invalid and unknown arguments: one line each, never a
    traceback nor an internal failure."""
    monkeypatch.chdir(tmp_path)  # a file an answer might write lands here
    await _game_on(session)
    words = [*session.console.commands.words(), *CONSOLE_WORDS]
    assert len(words) > 20
    for word in words:
        for args in ("zz qq yy", "#999", "-1", "abc def", "#x 7 7 7 7"):
            out = await session(f"{word} {args}")
            assert out and "\n" not in out, (word, args, out)
            assert "Traceback" not in out and "Sorry, that failed" not in out, (word, out)
    for word in words:  # and with nothing after the word
        out = await session(word)
        assert out and "Traceback" not in out and "Sorry, that failed" not in out, (word, out)


async def test_silent_caps_and_wrong_points_are_said(session):
    await _game_on(session)
    assert await session("rating cab bob") == ("`rating` does not take 'bob'. For example: "
                                               "`rating`; `rating clash`")
    for step in ("999", "-1"):
        assert await session(f"board {step}") == ("Game #1 has no turn played yet: name one "
                                                  "of them, or 0 for the start.") \
            if step == "999" else ("'-1' is not a turn number: `board #1 3.` shows the board "
                                   "after White's turn 3, `board #1 3...` after Black's, "
                                   "`board #1 0` the start.")
    assert await session("board abc") == ("'abc' is not a turn number: `board #1 3.` shows the "
                                          "board after White's turn 3, `board #1 3...` after "
                                          "Black's, `board #1 0` the start.")
    assert await session("moves z9") == ("z9 is not a point of this board (Clash of Command: "
                                         "files a-i, ranks 1-9).")
    assert (await session("vacation 400")).startswith(
        "You asked for 400 days, but only 10 days of vacation are left this year; you get "
        "those. You are on vacation until ")
    assert await session("challenge") == ("Challenge whom? Name an opponent (`challenge bob`), "
                                          "or say `challenge anyone` to let anyone here "
                                          "accept.")
    assert await session("help nonsense") == "There is no command 'nonsense'; `help` lists them."


async def test_moving_ends_a_vacation_and_says_so(session):
    await _game_on(session)
    await session("vacation 3")
    out = await session("b2-a3/D")
    assert out.splitlines()[0] == ("1. b2-a3/D played in game #1. bob (Black) is to move. Moving "
                                   "ends your vacation: your clocks run again.")
    assert await session("back") == "You are not on vacation."


async def test_moves_on_the_opponents_turn_say_whose_they_are(session):
    await _game_on(session)
    await session("as bob")
    out = (await session("moves b2")).splitlines()
    assert out[0] == ("Alice (White) is to move. F on b2: 6 moves: b2-a3/D b2-a3/H b2-b4/D "
                      "b2-b4/H b2=D b2=H")


async def test_file_errors_are_answered(session, tmp_path):
    await _game_on(session)
    assert await session("export #1 /nonexistent/dir/x.txt") == (
        "I cannot write /nonexistent/dir/x.txt: no such folder.")
    assert await session(f"export #1 {tmp_path}/") == f"I cannot write {tmp_path}/: it is a folder."
    assert await session(f"import {tmp_path} vs bob") == \
        f"I cannot read {tmp_path}: it is a folder."
    assert await session("export #1 a.txt b.txt") == (
        "Give one file: `export #3 game.txt` (I read 2: a.txt, b.txt).")


async def test_help_knows_every_word_of_the_console(session):
    for word in ("as", "import", "quit", "exit", "export", *session.console.commands.words()):
        out = await session(f"help {word}")
        assert out.startswith(f"{word}: "), out
    assert "a challenge they accept" in await session("help import")


async def test_terminal_keys_are_not_read_as_a_move(session):
    assert await session("\x1b[A") == ("That line holds terminal keys (an arrow key, say), "
                                       "not a command: type it again.")


def test_markdown_is_shown_bold_on_a_terminal_and_plain_elsewhere():
    from bot.console.console import terminal_text
    text = "# Moves\n**Armour** moves *two* points; see [rules](https://x.org) or `moves`."
    assert terminal_text(text) == ("Moves\nArmour moves two points; see rules (https://x.org) "
                                   "or `moves`.")
    assert terminal_text(text, bold=True).startswith("\x1b[1mMoves\x1b[0m\n\x1b[1mArmour\x1b[0m")


def test_ctrl_c_cancels_the_line_and_ctrl_d_quits(settings, capsys):
    from bot.console.console import run
    typed = iter([KeyboardInterrupt, "challenge", EOFError])

    def lines(prompt: str) -> str:
        item = next(typed)
        if isinstance(item, type):
            raise item()
        return item

    assert run(settings, "alice", lines) == 0
    out = capsys.readouterr().out
    assert "^C (line cancelled; Ctrl-D or `quit` leaves)" in out
    assert "Challenge whom?" in out
    assert "Traceback" not in out


def test_the_pictures_are_warmed_in_the_background():
    from bot.console.console import warm_up
    from renderer.picture import _palette_for
    _palette_for.cache_clear()
    thread = warm_up("colour-blind")
    assert thread.daemon
    thread.join(timeout=60)
    assert _palette_for.cache_info().currsize >= len(all_variants())


async def test_usage_examples_are_the_commands_examples_not_their_description(session):
    """A description that takes several lines is not shown as examples (it was: "For
    example: `first side's third turn, ...`")."""
    await _game_on(session)
    assert await session("board #1 3. 4.") == ("`board` does not take '4.'. For example: "
                                               "`board`; `board #3`")
    assert await session("moves #1 c3 d4") == ("`moves` does not take 'd4'. For example: "
                                               "`moves`; `moves c3`")


async def test_variants_are_listed_in_one_column_whatever_the_length_of_their_ids(session):
    assert await session("variants") == (
        "Variants:\n"
        "  clash            Clash of Command (modes: standard)\n"
        "  commander        Commander Chess (Cờ Tư Lệnh) (modes: standard, marine, air, land, "
        "raid, sea-air)\n"
        "  combined-arms    Combined Arms Brigade Chess (modes: standard)\n"
        "  mini-chieftain   mini-Chieftain (modes: standard)\n"
        "  micro-chieftain  micro-Chieftain (modes: standard)")


async def test_export_in_the_cotulenh_format(session, tmp_path):
    """`export #N cotulenh`: a Commander Chess game as PGN of the cotulenh site, also to a
    file; other variants are refused in one line."""
    for line in ("challenge bob commander white", "as bob", "accept", "as Alice", "Tfg4"):
        await session(line)
    out = await session("export #1 cotulenh")
    assert out == (
        '[Event "Rated correspondence game"]\n[Site "console:local"]\n'
        '[Date "2026.03.02"]\n[Round "-"]\n[Red "Alice"]\n[Blue "bob"]\n[Result "*"]\n'
        '[TimeControl "-"]\n[SetUp "1"]\n'
        '[FEN "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/'
        '1N2FH1HF2/6C4 r - - 0 1"]\n[Variant "commander"]\n[Mode "standard"]\n\n1. Tfg4 *')
    record = tmp_path / "game.pgn"
    assert await session(f"export #1 COTULENH {record}") == f"{out}\nWritten to {record}."
    assert record.read_text() == out
    await session("challenge bob")
    await session("as bob")
    await session("accept")
    assert await session("export #2 cotulenh") == (
        "The cotulenh format is for Commander Chess games; game #2 is Clash of Command.")
