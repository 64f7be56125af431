"""A tournament's standings as the renderer's crosstable (`bot.pictures.crosstable`): a
round-robin's cells by opponent, in the order of the rows (a double round's two results
side by side, forfeits as + and -, struck-out games empty), a Swiss tournament's by round
(+W2, =B1, a bye +), the winners marked once it is over, and every word in the reader's
language."""

from __future__ import annotations

import dataclasses

from bot.pictures import crosstable
from bot.service.tournaments import (
    TIEBREAKS,
    Entry,
    Line,
    Pairing,
    Section,
    Table,
    Tournament,
    standings,
)
from renderer.crosstable import Crosstable, draw_crosstable

T = Tournament(id=4, name="Autumn", variant="clash", mode="standard", format="round-robin",
               cycles=2, rounds=None, days=3, time_control=None, rated=True, size=None,
               section_size=None, round_days=None, adjudication="continue", reach=None,
               place="discord:1", director_id=1, director_name="ann", status="over",
               round=1, signup_until=None, starts_at=None, round_deadline=None,
               created_at=0.0, started_at=0.0, ended_at=0.0)
ENTRIES = tuple(Entry(i, n, "discord", "in", 1500.0 + i, 1, i) for i, n in
                ((1, "ann"), (2, "ben"), (3, "cat")))


def _line(rank, player, score, withdrawn=False, shared=False):
    return Line(rank, shared, player, ENTRIES[player - 1].name, 1500.0 + player, score,
                (), 2, withdrawn)


def _table(t, lines, pairings):
    return Table(t, ENTRIES, (Section(1, tuple(lines), tuple(pairings)),), ())


def test_a_double_round_robins_cells_are_by_opponent_both_games_side_by_side():
    games = [Pairing(1, 1, 1, 1, 1, 2, 1, "1-0"), Pairing(2, 2, 1, 1, 2, 1, 2, "1/2-1/2"),
             Pairing(3, 1, 1, 2, 1, 3, 3, "+-"), Pairing(4, 2, 1, 2, 3, 1, 4, None),
             Pairing(5, 1, 1, 3, 2, 3, 5, "void")]
    lines = [_line(1, 1, 2.5), _line(2, 2, 0.5), _line(3, 3, 0.0, withdrawn=True)]
    drawn = crosstable(_table(T, lines, games), "en", None, Crosstable)
    assert drawn.title == "Tournament T4 — Autumn"
    assert drawn.subtitle == "over · 3 of 4 games played"
    assert drawn.headers == ("#", "Name", "Rating", "1", "2", "3", "Score")
    assert [(r.rank, r.name, r.rating, r.cells, r.score, r.winner) for r in drawn.rows] == [
        ("1", "ann", "1501", ("×", "1½", "+"), "2½", True),
        ("2", "ben", "1502", ("0½", "×", ""), "½", False),
        ("3", "cat (withdrawn)", "1503", ("-", "", "×"), "0", False)]
    assert draw_crosstable(drawn)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_swiss_tournaments_cells_are_by_round_with_side_and_opponents_row():
    t = dataclasses.replace(T, format="swiss", cycles=1, rounds=2, round=2, status="running")
    games = [Pairing(1, 1, 1, 1, 2, 3, 1, "0-1"), Pairing(2, 1, 1, 2, 1, None, None, "bye"),
             Pairing(3, 2, 1, 1, 3, 1, 2, "1/2-1/2"), Pairing(4, 2, 1, 2, 2, None, None, "bye")]
    lines = [_line(1, 3, 1.5), _line(2, 1, 1.5, shared=True), _line(3, 2, 1.0)]
    drawn = crosstable(_table(t, lines, games), "en", None, Crosstable)
    assert drawn.headers[3:5] == ("1", "2")
    assert [(r.name, r.cells, r.winner) for r in drawn.rows] == [
        ("cat", ("+B3", "=W2"), False), ("ann", ("+", "=B1"), False),
        ("ben", ("-W1", "+"), False)]


def test_the_crosstables_words_are_the_readers():
    drawn = crosstable(_table(T, [], []), "vi", None, Crosstable)
    assert (drawn.title, drawn.headers) == ("Giải đấu T4 — Autumn",
                                            ("#", "Tên", "Điểm xếp hạng", "Điểm"))


def test_a_bye_not_counted_yet_is_a_word_and_a_tie_break_that_does_not_apply_a_dash():
    """Round 2 in play: ben's bye is not counted until it is over (the word, no ``+``, and
    no point), cat's bye of round 1 is; direct encounter applies to no one (ann and cat,
    tied on points, are parted by Buchholz and have not met)."""
    t = dataclasses.replace(T, format="swiss", cycles=1, rounds=2, round=2, status="running")
    games = [Pairing(1, 1, 1, 1, 1, 2, 1, "1-0"), Pairing(2, 1, 1, 2, 3, None, None, "bye"),
             Pairing(3, 2, 1, 1, 1, 3, 2, None), Pairing(4, 2, 1, 2, 2, None, None, "bye")]
    table = Table(t, ENTRIES, standings(t, ENTRIES, games), TIEBREAKS["swiss"])
    drawn = crosstable(table, "en", None, Crosstable)
    assert drawn.headers[3:] == ("1", "2", "Score", "Bh-1", "Bh", "SB", "DE", "Wins")
    assert [(r.rank, r.name, r.cells, r.score, r.tiebreaks) for r in drawn.rows] == [
        ("1", "cat", ("+", "B2"), "1", ("0", "1", "1", "–", "0")),
        ("2", "ann", ("+W3", "W1"), "1", ("0", "0", "0", "–", "1")),
        ("3", "ben", ("-B2", "bye"), "0", ("0", "1", "0", "–", "0"))]
    assert crosstable(table, "vi", None, Crosstable).rows[2].cells[1] == "miễn đấu"
    over = [*games[:2], dataclasses.replace(games[2], result="1/2-1/2"), games[3]]
    table = Table(t, ENTRIES, standings(t, ENTRIES, over), TIEBREAKS["swiss"])
    assert [(r.name, r.cells, r.score) for r in crosstable(table, "en", None, Crosstable).rows
            ] == [("cat", ("+", "=B2"), "1½"), ("ann", ("+W3", "=W1"), "1½"),
                  ("ben", ("-B2", "+"), "1")]
