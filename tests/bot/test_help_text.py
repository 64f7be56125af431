"""`help` at the console (and by mail, which shares the command words, the tournaments' too):
each command's description whole, never cut in the middle of a sentence."""

from __future__ import annotations

import inspect

from bot.tournament_commands import TournamentCommands


def _description(word: str) -> str:
    doc = inspect.cleandoc(getattr(TournamentCommands, f"cmd_{word}").__doc__ or "")
    return " ".join(doc.split("\n\n")[0].split())


async def test_help_lists_each_command_with_its_whole_description(session):
    out = await session("help")
    entries: dict[str, str] = {}
    word = ""
    for line in out.splitlines()[1:]:
        if line.startswith("  ") and not line.startswith(" " * 15):
            word, _, text = line[2:].partition(" ")
            entries.setdefault(word, text.strip())  # the console's own lines follow
        else:  # a description that goes on, indented under the one above
            entries[word] += " " + line.strip()
    for word in session.console.commands.words():
        assert entries[word] == _description(word), word
        assert entries[word][-1] in ".)", (word, entries[word])
    assert all(len(line) <= 96 for line in out.splitlines())


async def test_the_descriptions_once_cut_are_whole_sentences(session):
    out = await session("help")
    assert "\n  board        Show a game's board, now or after the turn you name.\n" in out
    assert ("\n  if           Record a conditional move: if they play X, your answer Y is played "
            "at once.\n") in out
    assert ("\n  moves        List the moves you may make next, one step at a time, by "
            "piece.\n") in out


async def test_help_for_a_word_keeps_what_the_list_leaves_out(session):
    assert await session("help board") == (
        "board: Show a game's board, now or after the turn you name.\n"
        "\n"
        "board\n"
        "board #3\n"
        "board #3 12...\n"
        "\n"
        "A turn is named as in the record: `3.` after the first side's third turn, `3...`\n"
        "after the second side's, `3` after both, `0` the start.")


async def test_help_says_where_a_move_goes_and_what_a_waiting_player_sees(session):
    assert (await session("help move")).endswith(
        "Without a game's number, a move goes to the one game of yours whose notation reads\n"
        "it (where it is legal now, or else where it is your turn, if several read it); when\n"
        "it fits several, you are asked which, one game a line.")
    assert (await session("help moves")).endswith(
        "the board. While your opponent is to move, a piece of yours shows the moves it\n"
        "would have if it were your turn (to plan conditional moves with `if`).")
