"""At the console: a whole mini-Chieftain game and a Commander Chess deploy entered step by
step, with the exact answers and notices, the whole turn marked on every picture, legal
moves one step at a time, `end` refused when no turn is in progress, and console words
only."""

from __future__ import annotations

import re

import pytest

import bot.pictures
from bot.console.console import Console

CHIEFTAIN = "6n1/3mcc2/8/8/8/4M3/8/3C4 w - 1"  # White: one Chieftain; Black: two
COMMANDER = "7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1"

BOARD_LINE = re.compile(r" ?\d+  ")  # a rank of the text board
FOREIGN = re.compile(r"`/|<t:|<@|reply to|e-mail|\bmail\b", re.IGNORECASE)
"""Another transport's syntax: Discord's slash commands, timestamps and mentions, mail."""


class Keyboard:
    """A console session whose answers and pictures are kept."""

    def __init__(self, console: Console, lines: list[str], drawn: list[dict]) -> None:
        self.console, self.lines, self.drawn = console, lines, drawn

    async def __call__(self, line: str) -> list[str]:
        start = len(self.lines)
        assert await self.console.run_line(line)
        return [x for x in "\n".join(self.lines[start:]).splitlines() if not BOARD_LINE.match(x)
                and not x.startswith(("   ", "Picture: ")) and "to move, move" not in x]

    def marked(self) -> list[tuple[str, str]]:
        """The steps marked on the last picture drawn."""
        last = self.drawn[-1]["last_move"] or []
        return [(s.origin, s.target) for m in last for s in m.steps]


@pytest.fixture
async def keys(service, settings, monkeypatch) -> Keyboard:
    drawn: list[dict] = []

    def render(position, **options):
        drawn.append(options)
        return b"\x89PNG fake"

    monkeypatch.setattr(bot.pictures, "_renderer", lambda: render)
    lines: list[str] = []
    console = Console(service, settings, out=lines.append)
    await console.switch("alice")
    return Keyboard(console, lines, drawn)


async def _chieftain_game(keys: Keyboard) -> None:
    """Alice (White) and Bob start a game from `CHIEFTAIN`; Alice is typing."""
    await keys(f"challenge bob mini-chieftain white unrated from {CHIEFTAIN}")
    await keys("as bob")
    await keys("accept")
    await keys("as alice")


async def test_a_whole_mini_chieftain_game_turn_by_turn(keys):
    await _chieftain_game(keys)
    assert await keys("Me3-e4") == [
        "1. Me3-e4 played in game #1. bob (Black) is to move.",
        "  [to bob] alice played 1. Me3-e4 in game #1 (mini-Chieftain). Your move. There is no "
        "clock."]
    assert keys.marked() == [("e3", "e4")]
    await keys("as bob")
    assert await keys("Ng8-f6") == [
        "Ng8-f6 played in game #1. Your turn goes on: 1 more move allowed, or `end` to finish "
        "it."]  # and nobody else is told anything
    assert keys.marked() == [("g8", "f6")]
    assert await keys("Md7-d6") == [
        "1... Ng8-f6, Md7-d6 played in game #1. alice (White) is to move.",
        "  [to alice] bob played 1... Ng8-f6, Md7-d6 in game #1 (mini-Chieftain). Your move. "
        "There is no clock."]
    assert keys.marked() == [("g8", "f6"), ("d7", "d6")]
    assert keys.drawn[-1]["perspective"] == 1  # bob is typing: Black's side
    await keys("as alice")
    await keys("Cd1-d2")
    await keys("as bob")
    await keys("Nf6xe4")
    assert await keys("end") == [
        "2... Nf6xe4, end played in game #1. alice (White) is to move.",
        "  [to alice] bob played 2... Nf6xe4, end in game #1 (mini-Chieftain). Your move. "
        "There is no clock."]
    assert keys.marked() == [("f6", "e4")]
    assert await keys("end") == ["There is no turn in progress to end in game #1: your turn is "
                                 "over, and alice (White) is to move."]
    await keys("as alice")
    assert await keys("end") == ["There is no turn in progress to end in game #1: your turn has "
                                 "not started: send a move."]
    await keys("Cd2-c3")
    await keys("as bob")
    assert await keys("Ne4xc3") == [
        "3... Ne4xc3 played in game #1. Game over: bob (Black) wins: White has no Chieftain "
        "left (0-1).",
        "Game over: bob (Black) wins: White has no Chieftain left (0-1).",  # under the board
        "  [to alice] bob played 3... Ne4xc3. Game #1 (mini-Chieftain, alice (White) vs bob "
        "(Black)) is over: bob (Black) wins: White has no Chieftain left (0-1)."]
    # the same news to everyone here is not printed again: at one keyboard, all have read it
    record = "\n".join(await keys("export #1"))
    assert "\n1. Me3-e4\n1... Ng8-f6, Md7-d6\n2. Cd1-d2\n2... Nf6xe4, end\n3. Cd2-c3\n" \
           "3... Ne4xc3\n" in record
    assert not [line for line in keys.lines if FOREIGN.search(line)]


async def test_legal_moves_one_step_at_a_time_by_piece(keys):
    await _chieftain_game(keys)
    await keys("Me3-e4")
    await keys("as bob")
    assert await keys("moves") == [
        "4 pieces can move in game #1 (name a point for one piece's moves, as in `moves d7`):",
        "  m d7: Md7-c6 Md7-c7 Md7-c8 Md7-d6 Md7-d8 Md7-e6 Md7-e8",
        "  c e7: Ce7-c5 Ce7-c6 Ce7-c7 Ce7-c8 Ce7-d5 Ce7-d6 Ce7-d8 Ce7-e5 Ce7-e6 Ce7-e8 Ce7-f5 "
        "Ce7-f6 Ce7-f8 Ce7-g5 Ce7-g6 Ce7-g7",
        "  c f7: Cf7-d5 Cf7-d6 Cf7-d8 Cf7-e5 Cf7-e6 Cf7-e8 Cf7-f5 Cf7-f6 Cf7-f8 Cf7-g5 Cf7-g6 "
        "Cf7-g7 Cf7-h5 Cf7-h6 Cf7-h7 Cf7-h8",
        "  n g8: Ng8-f6 Ng8-h6"]
    assert await keys("moves g8") == ["n on g8: 2 moves: Ng8-f6 Ng8-h6"]
    assert (keys.drawn[-1]["selected"], keys.drawn[-1]["highlights"]) == ("g8", ("f6", "h6"))
    await keys("Ng8-f6")
    assert await keys("moves f6") == ["There is no legal move from f6 in game #1. Or `end` to "
                                      "finish the turn."]  # a piece moves once a turn
    assert await keys("moves d7") == ["m on d7: 7 moves: Md7-c6 Md7-c7 Md7-c8 Md7-d6 Md7-d8 "
                                      "Md7-e6 Md7-e8. Or `end` to finish the turn."]


async def test_a_commander_deploy_entered_step_by_step(keys):
    await keys(f"challenge bob commander red unrated from {COMMANDER}")
    await keys("as bob")
    await keys("accept")
    await keys("as alice")
    assert await keys("moves e4") == [
        "TI on e4: 20 moves: (TI)c4 (TI)d4 (TI)e2 (TI)e3 (TI)e5 (TI)e6 (TI)f4 (TI)g4 I>d4 I>e3 "
        "I>e5 I>f4 T>c4 T>d4 T>e2 T>e3 T>e5 T>e6 T>f4 T>g4"]
    assert await keys("T>e6") == [
        "T>e6 played in game #1. Your turn goes on: send the next step, or `end` to finish it."]
    assert keys.marked() == [("e4", "e6")]
    assert await keys("moves") == [
        "1 piece can move in game #1 (name a point for one piece's moves, as in `moves e4`):",
        "  I e4: I>d4 I>e3 I>e5 I>f4",
        "Or `end` to finish the turn."]
    assert await keys("I>e5") == [
        "1. T>e6,I>e5 played in game #1. bob (Blue) is to move.",
        "  [to bob] alice played 1. T>e6,I>e5 in game #1 (Commander Chess (Cờ Tư Lệnh)). "
        "Your move. There is no clock."]
    assert keys.marked() == [("e4", "e6"), ("e4", "e5")]
    await keys("as bob")
    await keys("board")
    assert keys.drawn[-1]["perspective"] == 1  # the picture from bob's side
    assert keys.marked() == [("e4", "e6"), ("e4", "e5")]
    assert await keys("end") == ["There is no turn in progress to end in game #1: your turn has "
                                 "not started: send a move."]
    assert await keys("Ci12") == [
        "1... Ci12 played in game #1. alice (Red) is to move.",
        "  [to alice] bob played 1... Ci12 in game #1 (Commander Chess (Cờ Tư Lệnh)). Your "
        "move. There is no clock."]
    assert not [line for line in keys.lines if FOREIGN.search(line)]


async def test_offers_vacations_and_several_games_in_console_words(keys):
    await keys(f"challenge bob mini-chieftain white unrated from {CHIEFTAIN}")
    await keys("challenge carol mini-chieftain black unrated")
    await keys("as bob")
    await keys("accept")
    await keys("as carol")
    await keys("accept")
    await keys("as alice")
    assert (await keys("board"))[0].startswith("Game #1:")  # her move is in #1 only
    await keys("Me3-e4")
    assert await keys("board") == [
        "Which game? You have 2 games in progress:",
        "  #1 alice vs bob (mini-Chieftain, bob to move): `board #1`",
        "  #2 carol vs alice (mini-Chieftain, carol to move): `board #2`"]
    assert await keys("draw #1") == [
        "Draw offered in game #1.",
        "  [to bob] alice offers a draw in game #1. Answer with `draw` to accept or "
        "`draw decline`."]
    await keys("as bob")
    assert await keys("draw decline") == [  # the only game with an offer to answer
        "Draw offer declined in game #1.",
        "  [to alice] bob declined your draw offer in game #1."]
    out = await keys("vacation 2")
    assert out[0] == ("You are on vacation until 2026-03-04 12:00 UTC (2 days). Your clocks "
                      "are paused (games to move in: none at the moment); send `back` when you "
                      "return.")
    assert not [line for line in keys.lines if FOREIGN.search(line)]


async def _accepted(keys, *challenges: str) -> None:
    """alice challenges (``bob clash white``: an unrated game each), each one accepted."""
    for line in challenges:
        await keys(f"challenge {line} unrated")
    for number, line in enumerate(challenges, 1):
        await keys(f"as {line.split()[0]}")
        await keys(f"accept #{number}")
    await keys("as alice")


async def test_a_move_goes_to_the_game_its_notation_fits_or_asks_a_line_each(keys):
    """Alice plays a Commander Chess game and two Clash games, her move in each: `M&f4` can
    only be Commander notation and is played there; `b2-a3/D` fits both Clash games and is
    asked back, one game a line, each with the line that plays it there."""
    await _accepted(keys, "bob commander red", "bob clash white", "carol clash white")
    assert await keys("M&f4") == [
        "1. M&f4 played in game #1. bob (Blue) is to move.",
        "  [to bob] alice played 1. M&f4 in game #1 (Commander Chess (Cờ Tư Lệnh)). Your move. "
        "There is no clock."]
    assert await keys("b2-a3/D") == [
        "Which game? b2-a3/D can be played in 2 of your games:",
        "  #2 alice vs bob (Clash of Command, alice to move): `#2 b2-a3/D`",
        "  #3 alice vs carol (Clash of Command, alice to move): `#3 b2-a3/D`"]
    assert (await keys("#3 b2-a3/D"))[0] == ("1. b2-a3/D played in game #3. carol (Black) is "
                                             "to move.")
    # read by no game: the error of the one game where it is still her turn
    assert await keys("xyz") == ["I cannot read 'xyz' as a move: a move starts with the point "
                                 "of the piece that moves, as in c3-d4."]


async def test_a_command_word_sent_as_a_move_is_told_how_to_use_that_command(keys):
    await _chieftain_game(keys)
    assert await keys("move moves") == [
        "'moves' is a command, not a move: begin the line with it, as in `moves` or "
        "`moves c3` (`help moves` tells more)."]
    assert await keys("#1 board") == [
        "'board' is a command, not a move: begin the line with it, as in `board` or "
        "`board #3` (`help board` tells more)."]
    assert await keys("Moves-d3") == [
        "I cannot read 'Moves-d3' as a move: a move is written like Cd1-c3 (piece letter, "
        "from, - or x, to), and moves are separated by commas."]


async def test_moves_of_a_waiting_players_piece_are_those_it_would_have_on_their_turn(keys):
    """Alice (White) is to move; Bob, planning his answers, asks for his Knight's moves:
    those it would have were it his turn, said so and highlighted. Alice's pieces and an
    empty point still show what the side to move can do."""
    await _chieftain_game(keys)
    await keys("as bob")
    assert await keys("moves g8") == [
        "It is not your turn in game #1; if it were, your Knight on g8 could make 2 moves: "
        "Ng8-f6 Ng8-h6."]
    assert (keys.drawn[-1]["highlights"], keys.drawn[-1]["selected"]) == (("f6", "h6"), "g8")
    assert await keys("moves e3") == [
        "alice (White) is to move. M on e3: 8 moves: Me3-d2 Me3-d3 Me3-d4 Me3-e2 Me3-e4 "
        "Me3-f2 Me3-f3 Me3-f4"]
    assert await keys("moves d4") == [
        "alice (White) is to move. There is no legal move from d4 in game #1."]


async def test_which_game_names_each_game_with_the_command_that_was_sent(keys):
    await _accepted(keys, "bob clash white", "carol clash white")
    assert await keys("resign") == [
        "Which game? You have 2 games in progress:",
        "  #1 alice vs bob (Clash of Command, alice to move): `resign #1`",
        "  #2 alice vs carol (Clash of Command, alice to move): `resign #2`"]
    assert (await keys("draw"))[1:] == [
        "  #1 alice vs bob (Clash of Command, alice to move): `draw #1`",
        "  #2 alice vs carol (Clash of Command, alice to move): `draw #2`"]
