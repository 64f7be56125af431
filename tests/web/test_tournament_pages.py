"""A tournament's web page, ``/t/<id>``: its heading, its crosstable (a round-robin's
players × players, a Swiss tournament's ``+W5`` cells), its rounds with a link to each
game's page, the list of tournaments at ``/t``, the 404 of a tournament that is not there,
the page in Vietnamese, and the page following the tournament live (its event stream, and
a real headless Chromium seeing a result arrive without a reload).

The tournaments are made and played through the game service, as players would: a
4-player round-robin with four results of its six games, and a 5-player Swiss with a bye
and a withdrawal. Who meets whom (and with which side) is the service's draw, read back
from its standings; what each cell shows is asserted exactly."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot import i18n
from bot.config import Settings
from bot.service import GameService
from bot.service.model import Player
from bot.service.tournaments import Pairing, Table
from bot.web import pages
from bot.web.server import NO_TOURNAMENT, SITE, make_app

from .test_browser import browser_installed, chromium, until  # noqa: F401
from .test_i18n_web import ALLOWED, pseudo, vietnamese_browser, visible  # noqa: F401
from .test_routes import read_event

PLACE = "discord:4242"
NAMES = ("Ann", "Bob", "Cai", "Dee", "Eve")
NOT_THERE = ("There is no tournament at this address. Check the link you were given.")
VI_NOT_THERE = ("Không có giải đấu nào ở địa chỉ này. Hãy kiểm tra lại đường dẫn bạn nhận "
                "được.")


# --- reading a page --------------------------------------------------------------------
@dataclass
class Cell:
    text: str
    href: str | None
    title: str | None


class Tables(HTMLParser):
    """Every table of a page: its caption, then each row's cells (their text, and the
    first link's address and title within)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[Cell]]]] = []
        self._cell: Cell | None = None
        self._caption: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append(("", []))
        elif tag == "caption":
            self._caption = ""
        elif tag == "tr":
            self.tables[-1][1].append([])
        elif tag in ("td", "th"):
            self._cell = Cell("", None, dict(attrs).get("title"))
        elif tag in ("a", "span") and self._cell is not None and self._cell.href is None:
            found = dict(attrs)
            if tag == "a":
                self._cell.href = found.get("href")
            if found.get("title") and self._cell.title is None:
                self._cell.title = found["title"]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][1][-1].append(self._cell)
            self._cell = None
        elif tag == "caption" and self._caption is not None:
            self.tables[-1] = (self._caption, self.tables[-1][1])
            self._caption = None

    def handle_data(self, data: str) -> None:
        if self._caption is not None:
            self._caption += data
        elif self._cell is not None:
            self._cell.text += data


def tables_of(html: str) -> dict[str, list[list[Cell]]]:
    reader = Tables()
    reader.feed(html)
    return dict(reader.tables)


def texts(rows: list[list[Cell]]) -> list[list[str]]:
    return [[cell.text for cell in row] for row in rows]


def body(html: str) -> str:
    return html.split("<body", 1)[1].split("<script>", 1)[0]


def between(html: str, start: str, end: str) -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


# --- making tournaments through the service -------------------------------------------
async def entrants(service: GameService, count: int) -> list[Player]:
    return [await service.player("discord", str(500 + k), NAMES[k]) for k in range(count)]


async def started(service: GameService, players: list[Player], place: str = PLACE,
                  **terms: Any) -> int:
    made = await service.tournaments.create(players[0], place, variant="clash", days=3,
                                            **terms)
    assert made.ok, made
    tournament_id = made.tournament.id  # type: ignore[attr-defined]
    for player in players:
        assert (await service.tournaments.join(player, tournament_id)).ok
    assert (await service.tournaments.start(players[0], tournament_id)).ok
    return tournament_id


async def standings(service: GameService, tournament_id: int) -> Table:
    table = await service.tournaments.table(tournament_id)
    assert isinstance(table, Table), table
    return table


def pairing_of(table: Table, one: Player, other: Player) -> Pairing:
    """The (first) game of ``one`` and ``other``."""
    return next(p for s in table.sections for p in s.pairings
                if {p.first, p.second} == {one.id, other.id})


async def win(service: GameService, table: Table, winner: Player, loser: Player) -> Pairing:
    """``loser`` resigns their game against ``winner``."""
    p = pairing_of(table, winner, loser)
    assert p.game_id is not None
    assert (await service.resign(loser, p.game_id)).ok
    return p


async def draw(service: GameService, table: Table, one: Player, other: Player) -> Pairing:
    """The director adjudicates the game of ``one`` and ``other`` drawn (Clash of Command
    has no draws by agreement)."""
    p = pairing_of(table, one, other)
    assert p.game_id is not None
    assert (await service.rooms.adjudicate(p.game_id, None, by="the director")).ok
    return p


async def link(service: GameService, game_id: int | None) -> str:
    assert game_id is not None
    return f"/game/{game_id}-{await service.watching.watch_token(game_id)}"


def tiebreak_cells(table: Table, player: Player, language: str = "en") -> list[str]:
    """The tie-break cells of a player's row: the service's values, as the page writes
    numbers ("–" where direct encounter does not apply, blank where the service gives
    none)."""
    line = next(line for s in table.sections for line in s.lines if line.player_id == player.id)
    values = ["–" if v is None else i18n.format_number(v, language) for v in line.tiebreaks]
    return values + [""] * (len(table.tiebreaks) - len(values))


@pytest.fixture
async def round_robin(service: GameService) -> tuple[int, list[Player]]:
    """A 4-player round-robin with four of its six games over: Ann beat Bob and Cai and
    drew with Dee, Bob beat Cai; Bob–Dee and Cai–Dee go on. Ann 2½, Bob 1, Dee ½, Cai 0."""
    ann, bob, cai, dee = players = await entrants(service, 4)
    tournament_id = await started(service, players, name="Spring open")
    table = await standings(service, tournament_id)
    await win(service, table, ann, bob)
    await win(service, table, ann, cai)
    await win(service, table, bob, cai)
    await draw(service, table, ann, dee)
    return tournament_id, players


# --- a round-robin ---------------------------------------------------------------------
async def test_a_round_robin_page_shows_its_heading_crosstable_and_rounds(
        service: GameService, client: TestClient,
        round_robin: tuple[int, list[Player]]) -> None:
    tournament_id, (ann, bob, cai, dee) = round_robin
    assert (await client.get(f"/t/0{tournament_id}")).status == 404  # one address a page
    response = await client.get(f"/t/{tournament_id}")
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Content-Language"] == "en"
    html = await response.text()
    assert "<title>Tournament T1: Spring open — commandpost</title>" in html
    assert f'data-follow="/t/{tournament_id}/events"' in html
    assert between(html, "<header>", "</header>") == "<h1>Tournament T1: Spring open</h1>"
    assert between(html, '<p class="facts">', "</p>") == (
        '<a href="/rules/clash">Clash of Command</a> · round-robin · 3 days per move · '
        'rated · <span id="status">running</span>')
    table = await standings(service, tournament_id)
    found = tables_of(html)
    crosstable = found["Crosstable"]
    assert texts(crosstable) == [
        ["No.", "Player", "Rating", "1", "2", "3", "4", "Pts", "DE", "SB", "Wins", "Place"],
        ["1", "Ann", "1500", "", "1", "½", "1", "2½", *tiebreak_cells(table, ann), "1"],
        ["2", "Bob", "1500", "0", "", "*", "1", "1", *tiebreak_cells(table, bob), "2"],
        ["3", "Dee", "1500", "½", "*", "", "*", "½", *tiebreak_cells(table, dee), "3"],
        ["4", "Cai", "1500", "0", "0", "*", "", "0", *tiebreak_cells(table, cai), "4"]]
    # no two are tied: direct encounter applies to no one, and says so with a dash
    assert [row[8].text for row in crosstable[1:]] == ["–", "–", "–", "–"]
    # each head says what it is; the short names of the tie-breaks are the service's
    assert [cell.title for cell in crosstable[0]] == [
        "The row's number, which the columns and the cells name",
        "The player (withdrawn players are marked)", "The player's rating at the start",
        None, None, None, None, "Points: 1 for a win or a bye, ½ for a draw",
        "Direct encounter: the points scored in the games between the players tied, when "
        "they have all met each other (– otherwise)",
        "Sonneborn-Berger: the scores of the opponents beaten, and half the scores of the "
        "opponents drawn", "The games won", "The place in the standings (= shared)"]
    # every cell with a game links to its page, titled with the game in words
    ann_bob = pairing_of(table, ann, bob)
    assert crosstable[1][4].href == crosstable[2][3].href == await link(service, ann_bob.game_id)
    first, second = (table.name_of(ann_bob.first), table.name_of(ann_bob.second))
    assert crosstable[1][4].title == (f"{first} – {second} (game #{ann_bob.game_id}): "
                                      f"{'1-0' if ann_bob.first == ann.id else '0-1'}")
    bob_dee = pairing_of(table, bob, dee)
    assert crosstable[2][5].href == await link(service, bob_dee.game_id)
    assert crosstable[2][5].title.endswith(f"(game #{bob_dee.game_id}): in play")
    assert '<td class="self"></td>' in html  # the diagonal is blank
    # the rounds: each board, its players by side, the result and the game's link
    captions = [name for name in found if name.startswith("Round ")]
    assert captions == ["Round 1", "Round 2", "Round 3"]
    names = {p.id: p.display_name for p in (ann, bob, cai, dee)}
    results = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", None: "in play"}
    for number in (1, 2, 3):
        rows = found[f"Round {number}"]
        games = [p for p in table.sections[0].pairings if p.round == number]
        assert texts(rows) == [["Board", "White", "Black", "Result", "Game"]] + [
            [str(p.board), names[p.first], names[p.second or 0], results[p.result],
             f"#{p.game_id}"] for p in games]
        assert [row[4].href for row in rows[1:]] == [await link(service, p.game_id)
                                                      for p in games]


async def test_a_round_robin_withdrawal_is_marked_and_the_game_going_on_lost(
        service: GameService, client: TestClient,
        round_robin: tuple[int, list[Player]]) -> None:
    """Cai withdraws having finished two of three games (not fewer than half): the results
    stand, and the game going on is lost by forfeit (a mark without a side's letter)."""
    tournament_id, (ann, bob, cai, dee) = round_robin
    assert (await service.tournaments.leave(cai, tournament_id)).ok
    html = await (await client.get(f"/t/{tournament_id}")).text()
    table = await standings(service, tournament_id)
    rows = texts(tables_of(html)["Crosstable"])
    assert rows[1:] == [
        ["1", "Ann", "1500", "", "½", "1", "1", "2½", *tiebreak_cells(table, ann), "1"],
        ["2", "Dee", "1500", "½", "", "*", "+", "1½", *tiebreak_cells(table, dee), "2"],
        ["3", "Bob", "1500", "0", "*", "", "1", "1", *tiebreak_cells(table, bob), "3"],
        ["4", "Cai (withdrawn)", "1500", "0", "-", "0", "", "0", *tiebreak_cells(table, cai),
         "4"]]
    assert ('<tr class="withdrawn"><td>4</td><th scope="row" class="name">Cai '
            '<span class="gone">(withdrawn)</span></th>') in html
    cai_dee = pairing_of(table, cai, dee)
    forfeit = "1-0 by forfeit" if cai_dee.first == dee.id else "0-1 by forfeit"
    assert f"(game #{cai_dee.game_id}): {forfeit}" in html


# --- a Swiss tournament ----------------------------------------------------------------
async def test_a_swiss_page_shows_each_round_with_its_bye_and_a_withdrawal(
        service: GameService, client: TestClient) -> None:
    """Five players, three rounds: in round 1 the first board's first player wins, the
    second board is drawn and one player has the bye; round 2 is paired when it is over,
    and its first board's first player withdraws (their game is lost by forfeit)."""
    players = await entrants(service, 5)
    by_id = {p.id: p for p in players}
    tournament_id = await started(service, players, format="swiss", rounds=3)
    table = await standings(service, tournament_id)
    one = [p for p in table.sections[0].pairings if p.round == 1]
    assert [p.second is None for p in one] == [False, False, True]
    await win(service, table, by_id[one[0].first], by_id[one[0].second or 0])
    await draw(service, table, by_id[one[1].first], by_id[one[1].second or 0])
    table = await standings(service, tournament_id)
    two = [p for p in table.sections[0].pairings if p.round == 2]
    assert table.tournament.round == 2 and [p.second is None for p in two] == [False, False, True]
    gone = by_id[two[0].first]
    assert (await service.tournaments.leave(gone, tournament_id)).ok

    html = await (await client.get(f"/t/{tournament_id}")).text()
    table = await standings(service, tournament_id)
    assert between(html, '<p class="facts">', "</p>") == (
        '<a href="/rules/clash">Clash of Command</a> · Swiss, 3 rounds · 3 days per move · '
        'rated · <span id="status">round 2 of 3</span>')
    lines = table.sections[0].lines
    row = {line.player_id: k for k, line in enumerate(lines, start=1)}
    # what each player's cells are, from the games played: round 1, then round 2
    expected: dict[int, list[str]] = {p.id: [] for p in players}
    a, b = one[0].first, one[0].second or 0
    expected[a].append(f"+W{row[b]}")
    expected[b].append(f"-B{row[a]}")
    c, d = one[1].first, one[1].second or 0
    expected[c].append(f"=W{row[d]}")
    expected[d].append(f"=B{row[c]}")
    expected[one[2].first].append("bye")
    opponent = two[0].second or 0
    expected[gone.id].append(f"-{row[opponent]}")  # a forfeit: no side
    expected[opponent].append(f"+{row[gone.id]}")
    e, f = two[1].first, two[1].second or 0
    expected[e].append(f"*W{row[f]}")
    expected[f].append(f"*B{row[e]}")
    expected[two[2].first].append("bye")
    scores = {a: 1.0, b: 0.0, c: 0.5, d: 0.5, one[2].first: 1.0}
    scores[opponent] += 1  # round 2's bye counts when its round is over: not yet
    score_words = {0.0: "0", 0.5: "½", 1.0: "1", 1.5: "1½", 2.0: "2"}
    crosstable = tables_of(html)["Crosstable"]
    assert texts(crosstable) == [
        ["No.", "Player", "Rating", "R1", "R2", "R3", "Pts", "Bh-1", "Bh", "SB", "DE", "Wins",
         "Place"]] + [
        [str(row[line.player_id]),
         line.name + (" (withdrawn)" if line.player_id == gone.id else ""), "1500",
         *expected[line.player_id], "", score_words[scores[line.player_id]],
         *tiebreak_cells(table, by_id[line.player_id]),
         f"{line.rank}{'=' if line.shared else ''}"] for line in lines]
    assert [cell.title for cell in crosstable[0][3:6]] == ["Round 1", "Round 2", "Round 3"]
    # the cell of a game links to it; a bye is no game
    assert crosstable[row[a]][3].href == await link(service, one[0].game_id)
    assert crosstable[row[e]][4].href == await link(service, two[1].game_id)
    assert crosstable[row[one[2].first]][3].href is None
    assert ("+ won, = drawn, - lost, * in play, × not counted; W or B: the side played (White "
            "or Black); the number: the opponent&#x27;s row. A forfeit has no side.") in html
    rounds = tables_of(html)
    assert texts(rounds["Round 1"])[1:] == [
        ["1", by_id[a].display_name, by_id[b].display_name, "1-0", f"#{one[0].game_id}"],
        ["2", by_id[c].display_name, by_id[d].display_name, "1/2-1/2", f"#{one[1].game_id}"],
        ["3", by_id[one[2].first].display_name, "", "bye", ""]]
    assert texts(rounds["Round 2"])[1:] == [
        ["1", gone.display_name, by_id[opponent].display_name, "0-1 by forfeit",
         f"#{two[0].game_id}"],
        ["2", by_id[e].display_name, by_id[f].display_name, "in play", f"#{two[1].game_id}"],
        ["3", by_id[two[2].first].display_name, "", "bye", ""]]
    assert "Round 3" not in rounds  # not paired yet


# --- a ladder, sign-up, the list -------------------------------------------------------
async def test_a_ladder_shows_its_places_and_its_games(service: GameService,
                                                       client: TestClient) -> None:
    ann, bob, cai = await entrants(service, 3)
    made = await service.tournaments.create(ann, PLACE, variant="clash", format="ladder",
                                            name="Club ladder")
    tournament_id = made.tournament.id  # type: ignore[union-attr]
    for player in (ann, bob, cai):
        assert (await service.tournaments.join(player, tournament_id)).ok
    challenged = await service.tournaments.ladder_challenge(cai, tournament_id, bob)
    assert challenged.ok, challenged
    assert (await service.resign(bob, challenged.game.id)).ok  # type: ignore[union-attr]
    html = await (await client.get(f"/t/{tournament_id}")).text()
    found = tables_of(html)
    assert texts(found["Ladder"]) == [["Place", "Player", "Rating", "Games"],
                                      ["1", "Ann", "1500", "0"], ["2", "Cai", "1500", "1"],
                                      ["3", "Bob", "1500", "1"]]
    assert texts(found["Challenge 1"])[1:] == [
        ["1", "Cai", "Bob", "1-0", f"#{challenged.game.id}"]]  # type: ignore[union-attr]
    assert "<h2>Ladder games</h2>" in html


async def test_a_tournament_signing_up_lists_its_players(service: GameService,
                                                         client: TestClient) -> None:
    ann, bob = await entrants(service, 2)
    made = await service.tournaments.create(ann, PLACE, variant="commander", days=3,
                                            signup_days=2)
    tournament_id = made.tournament.id  # type: ignore[union-attr]
    for player in (ann, bob):
        assert (await service.tournaments.join(player, tournament_id)).ok
    html = await (await client.get(f"/t/{tournament_id}")).text()
    assert between(html, "<h1>", "</h1>") == ("Tournament T1: Commander Chess (Cờ Tư Lệnh) "
                                              "round-robin")
    assert between(html, '<p class="facts">', "</p>") == (
        '<a href="/rules/commander">Commander Chess (Cờ Tư Lệnh)</a> · round-robin · 3 days '
        'per move · rated · <span id="status">signing up</span> · 2 players signed up · '
        'sign-up closes '
        '<time datetime="2026-03-04T12:00:00Z">2026-03-04 12:00:00Z</time>')
    assert "<h2>Players</h2><ul><li>Ann</li><li>Bob</li></ul>" in html
    assert "Crosstable" not in html


async def test_the_list_links_the_tournaments_anyone_may_see(
        service: GameService, client: TestClient,
        round_robin: tuple[int, list[Player]]) -> None:
    tournament_id, players = round_robin
    by_mail = await service.player("email", "zoe@mail.example.net", "zoe@mail.example.net")
    mailed = await started(service, [by_mail, *players[1:]], place="email:zoe@mail.example.net",
                           name="By mail")
    response = await client.get("/t")
    assert response.status == 200
    assert between(await response.text(), "<main>", "</main>") == (
        f'<ul><li><a href="/t/{tournament_id}">Tournament T1: Spring open</a> <span '
        'class="side">Clash of Command · round-robin · 4 players · running</span></li></ul>'
        '<p><a href="/live">Games being played</a></p>')
    moved = await client.get("/tournaments", allow_redirects=False)
    assert (moved.status, moved.headers["Location"]) == (302, "/t")
    # a tournament played by mail is not listed, and its games are not linked: an e-mail
    # game is its players' affair; its page names the players as strangers may see them
    html = await (await client.get(f"/t/{mailed}")).text()
    assert "Tournament T2: By mail" in html and "/game/" not in html
    assert "zoe@…" in html and "mail.example.net" not in html


async def test_no_tournament_yet(client: TestClient) -> None:
    html = await (await client.get("/t")).text()
    assert "<p>No tournament is signing up or running just now.</p>" in html


# --- refusals --------------------------------------------------------------------------
@pytest.mark.parametrize("address", [
    "/t/1", "/t/abc", "/t/0", "/t/99999999999999999999999", "/t/١", "/t/1.5", "/t/-1",
    "/t/" + "9" * 2000, "/t/1/events", "/t/abc/events"])
async def test_a_tournament_that_is_not_there_is_the_404_page(client: TestClient,
                                                              address: str) -> None:
    response = await client.get(address)
    assert response.status == 404
    assert await response.text() == pages.error_page(404, NO_TOURNAMENT)
    assert NO_TOURNAMENT == NOT_THERE


async def test_the_404_page_of_a_tournament_in_vietnamese(offered: None,
                                                          client: TestClient) -> None:
    response = await client.get("/t/abc", headers={"Accept-Language": "vi-VN,vi"})
    assert response.status == 404
    html = await response.text()
    assert f"<main><h1>Không tìm thấy</h1><p>{VI_NOT_THERE}</p>" in html


# --- Vietnamese ------------------------------------------------------------------------
async def test_a_round_robin_page_in_vietnamese(
        offered: None, service: GameService, client: TestClient,
        round_robin: tuple[int, list[Player]]) -> None:
    tournament_id, (ann, bob, cai, dee) = round_robin
    chosen = await client.get(f"/t/{tournament_id}?lang=vi")
    assert chosen.headers["Content-Language"] == "vi"
    assert "lang=vi" in chosen.headers["Set-Cookie"]
    asked = await client.get(f"/t/{tournament_id}", headers={"Accept-Language": "vi"})
    html = await asked.text()
    assert html == await chosen.text()
    assert "<title>Giải đấu T1: Spring open — commandpost</title>" in html
    assert between(html, '<p class="facts">', "</p>") == (
        '<a href="/rules/clash">Đại chiến Chỉ huy</a> · vòng tròn · 3 ngày mỗi nước · '
        'tính điểm · <span id="status">đang diễn ra</span>')
    table = await standings(service, tournament_id)
    found = tables_of(html)
    assert texts(found["Bảng kết quả chéo"]) == [
        ["STT", "Người chơi", "Điểm xếp hạng", "1", "2", "3", "4", "Điểm", "ĐĐ", "SB", "Thắng",
         "Hạng"],
        ["1", "Ann", "1500", "", "1", "½", "1", "2½", *tiebreak_cells(table, ann, "vi"), "1"],
        ["2", "Bob", "1500", "0", "", "*", "1", "1", *tiebreak_cells(table, bob, "vi"), "2"],
        ["3", "Dee", "1500", "½", "*", "", "*", "½", *tiebreak_cells(table, dee, "vi"), "3"],
        ["4", "Cai", "1500", "0", "0", "*", "", "0", *tiebreak_cells(table, cai, "vi"), "4"]]
    assert texts(found["Vòng 1"])[0] == ["Bàn cờ", "Trắng", "Đen", "Kết quả", "Ván"]
    assert "đang đấu" in [row[3] for row in texts(found["Vòng 3"])] or \
        "đang đấu" in [row[3] for row in texts(found["Vòng 2"])]
    assert "<h2>Bảng xếp hạng</h2>" in html and "<h2>Các vòng</h2>" in html
    assert '<a href="/t">Các giải đấu</a>' in html


async def test_a_swiss_page_in_vietnamese_names_the_sides_in_vietnamese(
        offered: None, service: GameService, client: TestClient) -> None:
    players = await entrants(service, 3)
    by_id = {p.id: p for p in players}
    tournament_id = await started(service, players, format="swiss", rounds=2)
    table = await standings(service, tournament_id)
    game = table.sections[0].pairings[0]
    await win(service, table, by_id[game.first], by_id[game.second or 0])
    html = await (await client.get(f"/t/{tournament_id}?lang=vi")).text()
    table = await standings(service, tournament_id)
    row = {line.player_id: k for k, line in enumerate(table.sections[0].lines, start=1)}
    cells = {line[1]: line[3] for line in texts(tables_of(html)["Bảng kết quả chéo"])[1:]}
    assert cells[by_id[game.first].display_name] == f"+T{row[game.second or 0]}"
    assert cells[by_id[game.second or 0].display_name] == f"-Đ{row[game.first]}"
    assert "miễn đấu" in cells.values()
    assert "T hoặc Đ: bên đã cầm quân (Trắng hoặc Đen)" in html


async def test_every_word_of_the_tournament_pages_comes_from_the_catalogue(
        pseudo: None, service: GameService, client: TestClient,  # noqa: F811
        round_robin: tuple[int, list[Player]]) -> None:
    tournament_id, players = round_robin
    assert (await service.tournaments.leave(players[2], tournament_id)).ok
    swiss = await started(service, players[:3], format="swiss", rounds=2)
    cookie = {"Cookie": "lang=qps"}
    names = ["Ann", "Bob", "Cai", "Dee", "Spring", "open", "W", "B", "R1", "R2"]
    for address in (f"/t/{tournament_id}", f"/t/{swiss}", "/t", "/t/abc"):
        html = await (await client.get(address, headers=cookie)).text()
        assert '<html lang="qps">' in html
        assert i18n.untranslated(visible(html), allowed=[*ALLOWED, *names]) == [], address


# --- live updates ----------------------------------------------------------------------
async def test_the_event_stream_sends_the_page_again_when_a_game_ends(
        service: GameService, client: TestClient,
        round_robin: tuple[int, list[Player]]) -> None:
    tournament_id, (ann, bob, cai, dee) = round_robin
    page = await (await client.get(f"/t/{tournament_id}")).text()
    stream = await client.get(f"/t/{tournament_id}/events")
    assert stream.status == 200
    assert stream.headers["Content-Type"] == "text/event-stream"
    first = await asyncio.wait_for(read_event(stream), 5)
    assert f'data-version="{first["version"]}"' in page
    assert first["html"] == between(page, '<main id="tournament">', "</main><p>")
    hub = client.server.app[SITE].tournament_hub
    assert hub.viewers(tournament_id) == 1
    table = await standings(service, tournament_id)
    # a move in one of its games refreshes the page at once (a move may end the game)
    assert list(hub.keys_of(pairing_of(table, dee, cai).game_id)) == [tournament_id]
    await win(service, table, dee, cai)
    await hub.poll_once()  # what the hub does every two seconds
    second = await asyncio.wait_for(read_event(stream), 5)
    assert second["version"] != first["version"]
    rows = texts(tables_of(second["html"])["Crosstable"])
    assert rows[2][:8] == ["2", "Dee", "1500", "½", "", "*", "1", "1½"]
    assert rows[4][:8] == ["4", "Cai", "1500", "0", "0", "0", "", "0"]
    stream.close()


@pytest.fixture
def driver(browser_installed: None, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    yield from chromium(tmp_path, ("--lang=en-US", "--window-size=1200,1000"))


def crosstable_in(driver: Any) -> list[list[str]]:
    """The crosstable as the browser shows it, row by row."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('table.crosstable tr'),"
        " tr => Array.from(tr.children, c => c.textContent));")


async def test_a_browser_follows_the_crosstable_live(
        driver: Any, service: GameService, web_settings: Settings,
        round_robin: tuple[int, list[Player]]) -> None:
    tournament_id, (ann, bob, cai, dee) = round_robin
    app = make_app(service, web_settings)
    async with TestServer(app, host="127.0.0.1") as server:
        await asyncio.to_thread(driver.get, str(server.make_url(f"/t/{tournament_id}")))
        assert driver.title == "Tournament T1: Spring open — commandpost"
        rows = crosstable_in(driver)
        assert [row[:8] for row in rows] == [
            ["No.", "Player", "Rating", "1", "2", "3", "4", "Pts"],
            ["1", "Ann", "1500", "", "1", "½", "1", "2½"],
            ["2", "Bob", "1500", "0", "", "*", "1", "1"],
            ["3", "Dee", "1500", "½", "*", "", "*", "½"],
            ["4", "Cai", "1500", "0", "0", "*", "", "0"]]
        hub = app[SITE].tournament_hub
        for _ in range(200):
            if hub.viewers(tournament_id):
                break
            await asyncio.sleep(0.025)
        assert hub.viewers(tournament_id) == 1
        driver.execute_script("window.notReloaded = true;")
        # Dee beats Bob: the page shows it without a reload (the hub's poll finds it)
        table = await standings(service, tournament_id)
        await win(service, table, dee, bob)
        await until(driver, lambda d: crosstable_in(d)[2][1] == "Dee", seconds=8.0)
        assert [row[:8] for row in crosstable_in(driver)[1:]] == [
            ["1", "Ann", "1500", "", "½", "1", "1", "2½"],
            ["2", "Dee", "1500", "½", "", "1", "*", "1½"],
            ["3", "Bob", "1500", "0", "0", "", "1", "1"],
            ["4", "Cai", "1500", "0", "*", "0", "", "0"]]
        assert driver.execute_script("return window.notReloaded === true")
        # the rounds are followed too: the game's result in its round
        dee_bob = pairing_of(table, dee, bob)
        result = "1-0" if dee_bob.first == dee.id else "0-1"
        assert driver.execute_script(
            "return Array.from(document.querySelectorAll('table.round tr'),"
            " tr => tr.lastElementChild.textContent + ':' + tr.children[3].textContent)"
        ).count(f"#{dee_bob.game_id}:{result}") == 1


async def test_the_event_stream_sends_the_next_swiss_round_once_it_is_paired(
        service: GameService, client: TestClient) -> None:
    players = await entrants(service, 3)
    by_id = {p.id: p for p in players}
    tournament_id = await started(service, players, format="swiss", rounds=2)
    stream = await client.get(f"/t/{tournament_id}/events")
    first = await asyncio.wait_for(read_event(stream), 5)
    assert "Round 1" in tables_of(first["html"]) and "Round 2" not in tables_of(first["html"])
    table = await standings(service, tournament_id)
    game = table.sections[0].pairings[0]
    await win(service, table, by_id[game.first], by_id[game.second or 0])
    await client.server.app[SITE].tournament_hub.poll_once()
    second = await asyncio.wait_for(read_event(stream), 5)
    paired = [p for p in (await standings(service, tournament_id)).sections[0].pairings
              if p.round == 2]
    assert [row[0] for row in texts(tables_of(second["html"])["Round 2"])[1:]] == [
        str(p.board) for p in paired] != []
    assert '<span id="status">round 2 of 2</span>' in second["html"]
    stream.close()


async def test_each_section_of_a_round_robin_has_its_table(service: GameService,
                                                           client: TestClient) -> None:
    """Six players in sections of three: two crosstables, and the rounds of each."""
    players = [await service.player("discord", str(600 + k), name)
               for k, name in enumerate(("Ann", "Bob", "Cai", "Dee", "Eve", "Fay"))]
    tournament_id = await started(service, players, section_size=3)
    table = await standings(service, tournament_id)
    html = await (await client.get(f"/t/{tournament_id}")).text()
    found = tables_of(html)
    assert [name for name in found if name.startswith("Section")] == [
        "Section 1", "Section 2", *(f"Section {s}, round {r}" for s in (1, 2) for r in (1, 2, 3))]
    for section in table.sections:
        rows = texts(found[f"Section {section.number}"])
        assert rows[0][:6] == ["No.", "Player", "Rating", "1", "2", "3"]
        assert [row[1] for row in rows[1:]] == [line.name for line in section.lines]
        assert [row[3:6] for row in rows[1:]] == [["", "*", "*"], ["*", "", "*"],
                                                  ["*", "*", ""]]


async def test_a_double_round_robin_cell_holds_both_games(service: GameService,
                                                          client: TestClient) -> None:
    ann, bob, cai = players = await entrants(service, 3)
    tournament_id = await started(service, players, cycles=2)
    table = await standings(service, tournament_id)
    games = [p for p in table.sections[0].pairings if {p.first, p.second} == {ann.id, bob.id}]
    assert len(games) == 2 and games[0].round < games[1].round
    assert games[0].game_id is not None
    assert (await service.resign(bob, games[0].game_id)).ok  # the first cycle's game
    html = await (await client.get(f"/t/{tournament_id}")).text()
    rows = {row[1]: row for row in texts(tables_of(html)["Crosstable"])[1:]}
    number = {name: row[0] for name, row in rows.items()}
    assert rows["Ann"][2 + int(number["Bob"])] == "1 *"
    assert rows["Bob"][2 + int(number["Ann"])] == "0 *"
    assert rows["Cai"][2 + int(number["Ann"])] == "* *"
    assert between(html, '<p class="facts">', "</p>").split(" · ")[1] == "double round-robin"


async def test_a_vietnamese_browser_reads_the_tournament_in_vietnamese(
        offered: None, vietnamese_browser: Any, service: GameService,  # noqa: F811
        web_settings: Settings, round_robin: tuple[int, list[Player]]) -> None:
    driver = vietnamese_browser
    tournament_id, players = round_robin
    app = make_app(service, web_settings)
    async with TestServer(app, host="127.0.0.1") as server:
        await asyncio.to_thread(driver.get, str(server.make_url(f"/t/{tournament_id}")))
        assert driver.execute_script("return document.documentElement.lang") == "vi"
        assert driver.title == "Giải đấu T1: Spring open — commandpost"
        assert crosstable_in(driver)[:2] == [
            ["STT", "Người chơi", "Điểm xếp hạng", "1", "2", "3", "4", "Điểm", "ĐĐ", "SB",
             "Thắng", "Hạng"],
            ["1", "Ann", "1500", "", "1", "½", "1", "2½",
             *tiebreak_cells(await standings(service, tournament_id), players[0], "vi"), "1"]]


async def test_a_swiss_round_with_a_deadline_says_when_it_ends(service: GameService,
                                                               client: TestClient) -> None:
    players = await entrants(service, 3)
    tournament_id = await started(service, players, format="swiss", rounds=2, round_days=7)
    html = await (await client.get(f"/t/{tournament_id}")).text()
    assert between(html, '<p class="facts">', "</p>").endswith(
        '<span id="status">round 1 of 2</span> · the round ends '
        '<time datetime="2026-03-09T12:00:00Z">2026-03-09 12:00:00Z</time>')
    vietnamese = await (await client.get(f"/t/{tournament_id}?lang=vi")).text()
    assert "vòng đấu kết thúc lúc <time datetime=\"2026-03-09T12:00:00Z\">" in vietnamese
