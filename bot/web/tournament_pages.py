"""The HTML of a tournament's page and of the list of tournaments.

A tournament's page shows what a correspondence director publishes: the heading (name,
variant, format, clock, status and round), the crosstable of each section and each
round's pairings, every game linked to its page where the public may watch it.

- A **round-robin** section is a players × players table in the order of the standings
  (the ``No.`` column numbers the rows, the columns are those numbers), each cell the row
  player's results against the column's (two in a double round-robin), the diagonal blank.
- A **Swiss** table has one column per round, each cell ``+W5``: the result (``+`` won,
  ``=`` drawn, ``-`` lost, ``*`` in play, ``×`` not counted), the side played (the first
  letter of the side's name in the reader's language) and the opponent's row; a forfeit
  has no side (no game was played out), a bye is the word.
- A **ladder** lists its places.

Score and tie-break columns carry their short names (the service's `TIEBREAK_NAMES`) with
a title explaining each; a withdrawn player is marked. Everything inside ``<main>`` is
`tournament_main`, which the page's script also receives in its live ``state`` event and
puts in place of the old one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from html import escape

from engine import Variant, get_variant

from .. import i18n
from ..i18n import SOURCE, Text, _, _n, message_id
from ..service.clock import describe_clock
from ..service.tournaments import (
    NO_VALUE,
    RESULT_WORDS,
    TIEBREAK_NAMES,
    Line,
    Pairing,
    Section,
    Table,
    Tournament,
    format_name,
    result_text,
    score_text,
    status_text,
)
from ..service.words import variant_name
from .pages import deadline_text, page
from .views import public_name

# what each column of the standings means, said in its title
TIEBREAK_TITLES = {
    "direct": message_id("Direct encounter: the points scored in the games between the "
                         "players tied, when they have all met each other (– otherwise)"),
    "sb": message_id("Sonneborn-Berger: the scores of the opponents beaten, and half the "
                     "scores of the opponents drawn"),
    "wins": message_id("The games won"),
    "buchholz": message_id("Buchholz: the sum of the opponents' scores"),
    "buchholz-cut1": message_id("Buchholz cut 1: the sum of the opponents' scores but the "
                                "lowest"),
}
# a finished pairing's mark in a round-robin cell, for its first player and its second
MARKS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("½", "½"), "+-": ("+", "-"),
         "-+": ("-", "+"), "void": ("×", "×"), "unplayed": ("×", "×")}
IN_PLAY = "*"  # a game still going on, as a PGN writes it
# the sign of a Swiss cell: by the row player's score, or the pairing's kind
SIGNS = {1.0: "+", 0.5: "=", 0.0: "-"}
FORFEITS = {"+-", "-+"}

Links = Mapping[int, str]  # game id -> its page's address, for the games the public may see


def _t(message: Text, language: str) -> str:
    return escape(message.render(language))


def _words(text: str, language: str) -> str:
    """A value of the service's words (a message or a plain string) in ``language``,
    escaped."""
    return escape(i18n.render(text, language))


def tournament_name(t: Tournament, language: str = SOURCE) -> str:
    """The tournament's name in ``language`` (one made without a name is named by its
    variant and format)."""
    return i18n.render(t.name, language)


def table_version(table: Table) -> str:
    """The version of what the page shows: it changes with any result, pairing, place,
    withdrawal, round or status."""
    return hashlib.sha256(repr(table).encode()).hexdigest()[:16]


def heading(t: Tournament, language: str = SOURCE) -> str:
    """``Tournament T3: Spring open``."""
    return _("Tournament {ref}: {name}", ref=t.ref,
             name=tournament_name(t, language)).render(language)


def _moment(at: float, language: str) -> str:
    iso = datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return f'<time datetime="{iso}">{escape(deadline_text(iso, language))}</time>'


def facts(table: Table, language: str = SOURCE) -> str:
    """The line under the heading: variant (linked to its rules), format, clock, rated or
    not, status (a Swiss tournament's round), and the round's or the sign-up's end."""
    t = table.tournament
    rules = get_variant(t.variant)
    parts = [f'<a href="/rules/{escape(rules.name)}">{_words(variant_name(rules), language)}</a>',
             _words(format_name(t), language),
             _words(describe_clock(t.days, t.time_control), language),
             _t(_("rated") if t.rated else _("unrated"), language),
             f'<span id="status">{_words(status_text(t), language)}</span>']
    if t.status == "signup":
        signed = sum(1 for e in table.entries if e.status == "in")
        parts.append(_t(_n("{n} player signed up", "{n} players signed up", signed), language))
    words = " · ".join(parts)
    if t.status == "running" and t.round_deadline:
        words += " · " + _t(_("the round ends {moment}", moment="{moment}"), language).replace(
            "{moment}", _moment(t.round_deadline, language))
    elif t.status == "signup" and t.signup_until:
        words += " · " + _t(_("sign-up closes {moment}", moment="{moment}"), language).replace(
            "{moment}", _moment(t.signup_until, language))
    return f'<p class="facts">{words}</p>'


def side_letters(rules: Variant, language: str = SOURCE) -> tuple[str, str]:
    """The first letter of each side's name in ``language`` (``W``/``B``, ``T``/``Đ``)."""
    first, second = (i18n.render(rules.side_names[side], language)[:1] for side in (0, 1))
    return first, second


def _header(label: Text, title: Text, language: str) -> str:
    """A column's head: its short name, and what it means as its title."""
    return f'<th scope="col" title="{_t(title, language)}">{_t(label, language)}</th>'


def _name_cell(line: Line, language: str) -> str:
    name = escape(public_name(line.name))
    if line.withdrawn:
        gone = _t(_("(withdrawn)"), language)
        name += f' <span class="gone">{gone}</span>'
    return f'<th scope="row" class="name">{name}</th>'


def _rating(line: Line) -> str:
    return "" if line.rating is None else str(round(line.rating))


def _number(value: float, language: str) -> str:
    return escape(i18n.format_number(value, language))


def _tiebreak(value: float | None, language: str) -> str:
    """A tie-break's value in ``language``; ``–`` where it does not apply (None)."""
    return NO_VALUE if value is None else _number(value, language)


def _mark(table: Table, p: Pairing, text: str, links: Links, language: str) -> str:
    """One result in a cell: its mark, linked to the game's page when the public may
    watch it, titled with the game in words."""
    title = escape(_("{first} – {second} (game #{game}): {result}",
                     first=public_name(table.name_of(p.first)),
                     second=public_name(table.name_of(p.second)), game=p.game_id,
                     result=result_text(p)).render(language))
    href = links.get(p.game_id) if p.game_id is not None else None
    if href is None:
        return f'<span title="{title}">{escape(text)}</span>'
    return f'<a href="{escape(href)}" title="{title}">{escape(text)}</a>'


def _standing_heads(table: Table, language: str) -> tuple[str, str]:
    """The first columns' heads (number, player, rating) and the last ones' (score,
    tie-breaks, place)."""
    first = (_header(_("No."), _("The row's number, which the columns and the cells name"),
                     language)
             + _header(_("Player"), _("The player (withdrawn players are marked)"), language)
             + _header(_("Rating"), _("The player's rating at the start"), language))
    last = _header(_("Pts"), _("Points: 1 for a win or a bye, ½ for a draw"), language)
    for key in table.tiebreaks:
        last += _header(Text(TIEBREAK_NAMES[key], {}), Text(TIEBREAK_TITLES[key], {}), language)
    last += _header(_("Place"), _("The place in the standings (= shared)"), language)
    return first, last


def _row(table: Table, line: Line, number: int, cells: Sequence[str], language: str) -> str:
    """A player's row: number, name, rating, ``cells``, score, tie-breaks and place (a
    tie-break the service has not worked out is left blank, one that does not apply —
    direct encounter among players not tied — is ``–``, as in the text standings)."""
    tail = f'<td class="score">{escape(score_text(line.score))}</td>'
    for k in range(len(table.tiebreaks)):
        value = _tiebreak(line.tiebreaks[k], language) if k < len(line.tiebreaks) else ""
        tail += f"<td>{value}</td>"
    tail += f'<td class="place">{line.rank}{"=" if line.shared else ""}</td>'
    return (f"<tr{_gone(line)}><td>{number}</td>{_name_cell(line, language)}"
            f"<td>{_rating(line)}</td>{''.join(cells)}{tail}</tr>")


def round_robin_table(table: Table, section: Section, links: Links,
                      language: str = SOURCE) -> str:
    """A section's players × players crosstable, in the order of its standings."""
    rows = {line.player_id: k for k, line in enumerate(section.lines, start=1)}
    first, last = _standing_heads(table, language)
    heads = "".join(f'<th scope="col">{k}</th>' for k in rows.values())
    body = []
    for line in section.lines:
        cells = []
        for other in section.lines:
            if other.player_id == line.player_id:
                cells.append('<td class="self"></td>')
                continue
            games = [p for p in section.pairings
                     if {p.first, p.second} == {line.player_id, other.player_id}]
            marks = []
            for p in games:
                mine = 0 if p.first == line.player_id else 1
                text = MARKS[p.result][mine] if p.result in MARKS else IN_PLAY
                marks.append(_mark(table, p, text, links, language))
            cells.append(f"<td>{' '.join(marks)}</td>")
        body.append(_row(table, line, rows[line.player_id], cells, language))
    legend = _t(_("1 won, ½ drawn, 0 lost, * in play; + and - won and lost by forfeit; "
                  "× struck out (counts for no one)."), language)
    return _crosstable(first + heads + last, body, legend, section, table, language)


def swiss_table(table: Table, section: Section, links: Links, language: str = SOURCE) -> str:
    """The Swiss crosstable: one column per round, each cell ``+W5``."""
    t = table.tournament
    rows = {line.player_id: k for k, line in enumerate(section.lines, start=1)}
    letters = side_letters(get_variant(t.variant), language)
    first, last = _standing_heads(table, language)
    rounds = range(1, max([t.rounds or 0, t.round, *(p.round for p in section.pairings)]) + 1)
    heads = "".join(_header(_("R{round}", round=r), _("Round {round}", round=r), language)
                    for r in rounds)
    by_round = {(p.round, player): p for p in section.pairings
                for player in (p.first, p.second) if player is not None}
    body = []
    for line in section.lines:
        cells = []
        for r in rounds:
            p = by_round.get((r, line.player_id))
            cell = "" if p is None else _swiss_cell(table, p, line.player_id, rows, letters,
                                                    links, language)
            cells.append(f"<td>{cell}</td>")
        body.append(_row(table, line, rows[line.player_id], cells, language))
    rules = get_variant(t.variant)
    legend = _t(_("+ won, = drawn, - lost, * in play, × not counted; {first} or {second}: the "
                  "side played ({first_side} or {second_side}); the number: the opponent's "
                  "row. A forfeit has no side.", first=letters[0], second=letters[1],
                  first_side=i18n.render(rules.side_names[0], language),
                  second_side=i18n.render(rules.side_names[1], language)), language)
    return _crosstable(first + heads + last, body, legend, section, table, language)


def _swiss_cell(table: Table, p: Pairing, player: int, rows: Mapping[int, int],
                letters: tuple[str, str], links: Links, language: str) -> str:
    """``+W5``: the result for ``player``, the side played and the opponent's row."""
    if p.second is None:
        return _t(Text(RESULT_WORDS["bye"], {}), language)
    mine = 0 if p.first == player else 1
    opponent = rows.get(p.second if mine == 0 else p.first, "?")
    scores = p.scores()
    if p.result is None:
        sign = IN_PLAY
    elif scores is None:
        sign = "×"
    else:
        sign = SIGNS.get(scores[mine], "?")
    side = "" if p.result in FORFEITS else letters[mine]
    return _mark(table, p, f"{sign}{side}{opponent}", links, language)


def _gone(line: Line) -> str:
    return ' class="withdrawn"' if line.withdrawn else ""


def _crosstable(heads: str, body: Sequence[str], legend: str, section: Section, table: Table,
                language: str) -> str:
    caption = (_t(_("Section {section}", section=section.number), language)
               if len(table.sections) > 1 else _t(_("Crosstable"), language))
    return (f'<table class="crosstable"><caption>{caption}</caption><thead><tr>{heads}</tr>'
            f"</thead><tbody>{''.join(body)}</tbody></table>"
            f'<p class="note">{legend}</p>')


def ladder_table(table: Table, section: Section, language: str = SOURCE) -> str:
    """A ladder's places, the top first."""
    heads = (_header(_("Place"), _("The place on the ladder"), language)
             + _header(_("Player"), _("The player (withdrawn players are marked)"), language)
             + _header(_("Rating"), _("The player's rating when they joined"), language)
             + _header(_("Games"), _("Ladder games finished"), language))
    body = "".join(f"<tr{_gone(line)}><td>{line.rank}</td>{_name_cell(line, language)}"
                   f"<td>{_rating(line)}</td><td>{line.played}</td></tr>"
                   for line in section.lines)
    caption = _t(_("Ladder"), language)
    return (f'<table class="crosstable"><caption>{caption}</caption>'
            f"<thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table>")


def rounds_html(table: Table, links: Links, language: str = SOURCE) -> str:
    """Each round's pairings (a ladder: its games), every game linked where it may be."""
    t = table.tournament
    rules = get_variant(t.variant)
    heads = (_header(_("Board"), _("The board of the round"), language)
             + f'<th scope="col">{_words(rules.side_names[0], language)}</th>'
             + f'<th scope="col">{_words(rules.side_names[1], language)}</th>'
             + _header(_("Result"), _("The result, or what became of the game"), language)
             + _header(_("Game"), _("The game's page, where the public may watch it"),
                       language))
    parts = []
    for section in table.sections:
        for r in sorted({p.round for p in section.pairings}):
            if t.format == "ladder":
                caption = _("Challenge {round}", round=r)
            elif len(table.sections) > 1:
                caption = _("Section {section}, round {round}", section=section.number, round=r)
            else:
                caption = _("Round {round}", round=r)
            rows = "".join(_pairing_row(table, p, links, language)
                           for p in section.pairings if p.round == r)
            parts.append(f'<table class="round"><caption>{_t(caption, language)}</caption>'
                         f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>")
    if not parts:
        none = _t(_("No games yet."), language)
        return f"<p>{none}</p>"
    return "".join(parts)


def _pairing_row(table: Table, p: Pairing, links: Links, language: str) -> str:
    first = escape(public_name(table.name_of(p.first)))
    if p.second is None:
        return (f"<tr><td>{p.board}</td><td>{first}</td><td></td>"
                f"<td>{_t(Text(RESULT_WORDS['bye'], {}), language)}</td><td></td></tr>")
    second = escape(public_name(table.name_of(p.second)))
    href = links.get(p.game_id) if p.game_id is not None else None
    game = f"#{p.game_id}" if p.game_id is not None else ""
    if href is not None:
        game = f'<a href="{escape(href)}">{game}</a>'
    return (f"<tr><td>{p.board}</td><td>{first}</td><td>{second}</td>"
            f"<td>{_words(result_text(p), language)}</td><td>{game}</td></tr>")


def tournament_main(table: Table, links: Links, language: str = SOURCE) -> str:
    """Everything the page shows of the tournament (what a live update replaces)."""
    t = table.tournament
    parts = [f"<header><h1>{escape(heading(t, language))}</h1></header>", facts(table, language)]
    if t.status == "signup" or not any(s.lines for s in table.sections):
        names = [escape(public_name(e.name)) for e in table.entries if e.status == "in"]
        players, none = _t(_("Players"), language), _t(_("No players yet."), language)
        parts.append(f"<h2>{players}</h2>"
                     + (f"<ul>{''.join(f'<li>{n}</li>' for n in names)}</ul>" if names
                        else f"<p>{none}</p>"))
        return "".join(parts)
    standings = _t(_("Standings"), language)
    parts.append(f"<h2>{standings}</h2>")
    for section in table.sections:
        if t.format == "ladder":
            parts.append(ladder_table(table, section, language))
        elif t.format == "swiss":
            parts.append(swiss_table(table, section, links, language))
        else:
            parts.append(round_robin_table(table, section, links, language))
    title = _("Ladder games") if t.format == "ladder" else _("Rounds")
    parts.append(f"<h2>{_t(title, language)}</h2>{rounds_html(table, links, language)}")
    return "".join(parts)


def tournament_page(table: Table, links: Links, events: str, language: str = SOURCE) -> str:
    """The whole page of a tournament; ``events``: the address of its event stream."""
    t = table.tournament
    back = _t(_("Tournaments"), language)
    body = (f'<main id="tournament">{tournament_main(table, links, language)}</main>'
            f'<p><a href="/t">{back}</a></p>')
    return page(f"{heading(t, language)} — commandpost", body,
                {"follow": events, "version": table_version(table)}, language=language)


def tournament_event(table: Table, links: Links, language: str = SOURCE) -> dict[str, str]:
    """What the event stream tells an open tournament page: its version and its content."""
    return {"version": table_version(table), "html": tournament_main(table, links, language)}


def tournaments_page(listed: Sequence[tuple[Tournament, int]], language: str = SOURCE) -> str:
    """The tournaments signing up and running, each linked to its page."""
    title = _("Tournaments").render(language)
    items = []
    for t, players in listed:
        about = " · ".join((_words(variant_name(get_variant(t.variant)), language),
                            _words(format_name(t), language),
                            _t(_n("{n} player", "{n} players", players), language),
                            _words(status_text(t), language)))
        items.append(f'<li><a href="/t/{t.id}">{escape(heading(t, language))}</a> '
                     f'<span class="side">{about}</span></li>')
    none = _t(_("No tournament is signing up or running just now."), language)
    back = _t(_("Games being played"), language)
    body = (f"<header><h1>{escape(title)}</h1></header><main>"
            + (f"<ul>{''.join(items)}</ul>" if items else f"<p>{none}</p>")
            + f'<p><a href="/live">{back}</a></p></main>')
    return page(f"{title} — commandpost", body, language=language)
