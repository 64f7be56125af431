"""The HTML of the web pages: a game, the list of live games, a rules document, an error
(a tournament's page, `tournament_pages`, is built on `page` here).

Every page carries the same stylesheet and script, inline and written here; the
Content-Security-Policy allows exactly these two (by their SHA-256) and nothing from
anywhere else. The script only improves the page: without it, the steps are links, the
times are shown in UTC and a reload shows new moves. With it, the times are in the
viewer's time zone, the arrow keys (and Home/End) step through the game, and the page
follows the game through its event stream (a tournament's page: each event brings its
main part anew, which replaces the old one).
"""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime
from html import escape

from babel.dates import format_datetime
from markdown_it import MarkdownIt

from .. import i18n
from ..i18n import SOURCE, Text, _, message_id
from .views import GameView

STYLE = """
:root{color-scheme:light dark;--ink:#1d1b18;--paper:#faf8f3;--line:#c9c2b3;--accent:#8a4b12}
@media (prefers-color-scheme:dark){:root{--ink:#ece8df;--paper:#1b1a18;--line:#4a463f;
--accent:#f0a55a}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:72rem;padding:1rem;font:1rem/1.5 system-ui,sans-serif;
color:var(--ink);background:var(--paper);overflow-wrap:anywhere}
a{color:var(--accent)}
a:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline}
h1{font-size:1.4rem;margin:.2rem 0}
.game{display:grid;grid-template-columns:minmax(0,640px) minmax(14rem,1fr);gap:1.5rem}
@media (max-width:50rem){.game{grid-template-columns:1fr}}
.board img{width:100%;height:auto;display:block;border:1px solid var(--line)}
nav.steps{display:flex;gap:.4rem;margin:.6rem 0;flex-wrap:wrap;align-items:center}
nav.steps a{display:inline-block;min-width:2.8rem;padding:.3rem .6rem;border:1px solid
var(--line);border-radius:.3rem;text-align:center;text-decoration:none}
nav.steps a[aria-disabled=true]{opacity:.4;pointer-events:none}
.players{list-style:none;padding:0;margin:0}
.players li{margin:.2rem 0}
.swatch{display:inline-block;width:.9rem;height:.9rem;border:1px solid var(--ink);
border-radius:50%;vertical-align:-.1rem;margin-right:.4rem}
.c-white{background:#f4f1e8}.c-black{background:#26231f}.c-red{background:#c8372d}
.c-blue{background:#2f5fb3}
ol.moves{list-style:none;padding-left:.5rem;max-height:28rem;overflow:auto}
ol.moves .turn{display:inline-block;min-width:3.2rem;font-variant-numeric:tabular-nums}
ol.moves a{text-decoration:none;padding:0 .2rem}
ol.moves .result{font-weight:bold;padding-left:3.2rem}
ol.moves a[aria-current=step]{background:var(--accent);color:var(--paper);border-radius:.2rem}
.side{font-size:.85rem;opacity:.75;margin-right:.3rem}
.note{font-size:.9rem;opacity:.8}
table{border-collapse:collapse}
td,th{border:1px solid var(--line);padding:.2rem .5rem;text-align:left}
pre,code{font-family:ui-monospace,monospace}
pre{overflow:auto;padding:.5rem;border:1px solid var(--line)}
.rules img{max-width:100%;height:auto}
nav.languages{margin-top:2rem;font-size:.9rem}
.crosstable,.round{margin:.6rem 0 1rem;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:bold;padding:.2rem 0}
.crosstable td{text-align:center;white-space:nowrap}
.crosstable td.self{background:var(--line)}
.crosstable a,.round a{text-decoration:none}
tr.withdrawn .name{opacity:.6}
.gone{font-size:.85rem;font-weight:normal}
main#tournament{overflow-x:auto}
"""

SCRIPT = """
(function () {
  "use strict";
  // times in the page's language, in the reader's own form of it (en-GB on an English page)
  var lang = document.documentElement.lang;
  var locale = (navigator.languages || []).filter(function (l) {
    return l.split("-")[0].toLowerCase() === lang;
  })[0] || lang;
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d)) { return; }
      t.textContent = d.toLocaleString(locale, {dateStyle: "medium", timeStyle: "short"});
      // the hover title too: the full date, time and zone, in the page's language
      t.title = d.toLocaleString(locale, {dateStyle: "full", timeStyle: "long"});
    });
  }
  localTimes(document);
  var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var link = keys[e.key] && document.getElementById(keys[e.key]);
    if (link && link.getAttribute("href")) { e.preventDefault(); location.assign(link.href); }
  });
  var page = document.body.dataset;
  if (page.follow && window.EventSource) {
    // a tournament's page: each state event brings the whole of its main part, built by
    // the server as the page was, put in place of the old one when its version is new
    var feed = new EventSource(page.follow);
    feed.addEventListener("state", function (e) {
      var s = JSON.parse(e.data);
      if (s.version === page.version) { return; }
      var main = document.getElementById("tournament");
      main.innerHTML = s.html;
      page.version = s.version;
      localTimes(main);
    });
    window.addEventListener("pagehide", function () { feed.close(); });
    window.addEventListener("pageshow", function (e) { if (e.persisted) { location.reload(); } });
    return;
  }
  if (!page.events || !window.EventSource) { return; }
  function setLink(id, ply, href) {
    var a = document.getElementById(id);
    if (!a) { return; }
    if (href === null) { a.removeAttribute("href"); a.setAttribute("aria-disabled", "true"); }
    else { a.setAttribute("href", href); a.removeAttribute("aria-disabled"); }
  }
  function moveList(s, shown) {
    var list = document.getElementById("moves");
    list.textContent = "";
    s.turns.forEach(function (turn) {
      var li = document.createElement("li");
      var label = document.createElement("span");
      label.className = "turn";
      label.textContent = turn[0];
      li.appendChild(label);
      li.appendChild(document.createTextNode(" "));
      var a = document.createElement("a");
      a.href = "?ply=" + turn[3];
      a.title = turn[5];
      a.textContent = turn[1];
      if (shown > turn[2] && shown <= turn[3]) { a.setAttribute("aria-current", "step"); }
      li.appendChild(a);
      if (!turn[4]) { li.appendChild(document.createTextNode(" \\u2026")); }
      list.appendChild(li);
    });
    if (s.result) {
      var end = document.createElement("li");
      end.className = "result";
      end.textContent = s.result;
      list.appendChild(end);
    }
  }
  function update(s) {
    var live = page.live === "1";
    var shown = live ? s.ply : Number(page.ply);
    moveList(s, shown);
    setLink("last", s.ply, shown === s.ply ? null : s.live);
    setLink("next", s.ply, shown < s.ply ? "?ply=" + (shown + 1) : null);
    var status = document.getElementById("status");
    status.textContent = s.status + " ";
    if (s.deadline) {
      var t = document.createElement("time");
      t.setAttribute("datetime", s.deadline);
      t.textContent = s.deadline;
      status.appendChild(t);
      localTimes(status);
    }
    if (!live) { return; }
    var img = document.getElementById("board");
    img.src = s.board;
    img.alt = s.alt;
    page.ply = String(s.ply);
    setLink("prev", s.ply, s.ply > 0 ? "?ply=" + (s.ply - 1) : null);
    setLink("first", s.ply, s.ply > 0 ? "?ply=0" : null);
    document.getElementById("shown").textContent = s.shown;
  }
  var source = new EventSource(page.events);
  source.addEventListener("state", function (e) { update(JSON.parse(e.data)); });
  // a page kept for the back button holds no stream; shown again, it is read afresh
  window.addEventListener("pagehide", function () { source.close(); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { location.reload(); } });
})();
"""


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


CSP = ("default-src 'none'; img-src 'self'; connect-src 'self'; "
       f"style-src {_digest(STYLE)}; script-src {_digest(SCRIPT)}; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def page(title: str, body: str, data: dict[str, str] | None = None, language: str = SOURCE,
         switch: str = "") -> str:
    """A whole HTML document around ``body`` (already HTML), in ``language``; ``switch``:
    the query (without ``lang``) that the language switch's links keep."""
    attrs = "".join(f' data-{k}="{escape(v)}"' for k, v in (data or {}).items())
    return (f'<!doctype html>\n<html lang="{escape(language)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<meta name="referrer" content="no-referrer">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f"<body{attrs}>{body}{language_switch(language, switch)}"
            f"<script>{SCRIPT}</script></body></html>\n")


def language_switch(language: str, keep: str = "") -> str:
    """Links choosing the page's language, each named in itself (none while English is
    the only language shipped). ``keep``: the query the links keep (``ply=3``)."""
    languages = i18n.shipped()
    if len(languages) < 2:
        return ""
    links = []
    for code in languages:
        name = escape(i18n.display_name(code) or code)
        if code == language:
            links.append(f'<a lang="{code}" aria-current="true">{name}</a>')
        else:
            query = f"?{keep}&lang={code}" if keep else f"?lang={code}"
            links.append(f'<a href="{escape(query)}" hreflang="{code}" lang="{code}">{name}</a>')
    label = escape(_("Language").render(language))
    return f'<nav class="languages" aria-label="{label}">' + " · ".join(links) + "</nav>"


def _t(message: Text, language: str) -> str:
    """A message in ``language``, escaped for HTML."""
    return escape(message.render(language))


ERROR_HEADINGS = {400: message_id("Bad request"), 404: message_id("Not found"),
                  405: message_id("Read-only"), 429: message_id("Slow down"),
                  500: message_id("Something went wrong"),
                  503: message_id("Not available just now")}


def error_page(status: int, message: str, language: str = SOURCE) -> str:
    """The page of a refusal or a failure: a heading for its status, the message in words."""
    back = _t(_("Games being played"), language)
    heading = (Text(ERROR_HEADINGS[status], {}) if status in ERROR_HEADINGS else
               _("Not possible") if status < 500 else _("Error")).render(language)
    return page(f"{heading} — commandpost",
                f"<main><h1>{escape(heading)}</h1><p>{escape(i18n.render(message, language))}</p>"
                f'<p><a href="/live">{back}</a></p></main>',
                language=language)


def step_label(view: GameView, ply: int, language: str = SOURCE) -> str:
    """Where the shown position is: ``Step 9 of 9: 4. N<F>d2 (Red)``, the turn as the move
    list writes it (its steps so far, when ``ply`` is inside it)."""
    entry = view.entry_at(ply)
    if entry is None:
        return _("Start position").render(language)
    turn = " ".join((entry.label, view.turn_text(ply)))
    return _("Step {ply} of {last}: {turn} ({side})", ply=ply, last=view.last_ply, turn=turn,
             side=view.variant.side_names[entry.side]).render(language)


def _link(href: str | None, label: str, key: str, name: str) -> str:
    if href is None:
        return f'<a id="{key}" aria-disabled="true" aria-label="{name}">{label}</a>'
    return f'<a id="{key}" href="{escape(href)}" aria-label="{name}">{label}</a>'


def deadline_text(iso: str, language: str) -> str:
    """The deadline as the page writes it before its script shows it in the reader's
    time zone: in UTC, in the words and order of ``language``."""
    if language in (SOURCE, i18n.PSEUDO):
        return iso.replace("T", " ")
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return format_datetime(moment, "long", tzinfo=UTC, locale=language)


def _status(view: GameView, language: str) -> str:
    text = escape(view.status_in(language))
    if view.deadline:
        text += (f' <time datetime="{view.deadline}">'
                 f"{escape(deadline_text(view.deadline, language))}</time>")
    return text


def _players(view: GameView, language: str) -> str:
    items = []
    for s in view.sides:
        rating = f"{s.rating}{'?' if s.provisional else ''}"
        about = _t(_("({side}, rating {rating})", side=s.side_name, rating=rating), language)
        items.append(f'<li><span class="swatch c-{s.colour}" aria-hidden="true"></span>'
                     f'{escape(s.name)} <span class="side">{about}</span></li>')
    return '<ul class="players">' + "".join(items) + "</ul>"


def _moves(view: GameView, shown: int, language: str = SOURCE) -> str:
    """The move list: one entry a turn, numbered and written as in the game's record, its
    link the position after the turn (marked while a position of that turn is shown)."""
    items = []
    for e in view.entries:
        current = " aria-current=step" if e.first < shown <= e.last else ""
        going = "" if e.complete else " …"
        items.append(f'<li><span class="turn">{escape(e.label)}</span> '
                     f'<a href="?ply={e.last}"{current} '
                     f'title="{escape(i18n.render(view.variant.side_names[e.side], language))}">'
                     f"{escape(e.text)}</a>{going}</li>")
    if result_of(view):  # as the record ends: 1-0, 0-1 or 1/2-1/2
        items.append(f'<li class="result">{escape(result_of(view))}</li>')
    return "".join(items)


def result_of(view: GameView) -> str:
    """The result as the game's record ends (``1-0``, ``0-1``, ``1/2-1/2``); empty while
    it goes on."""
    result = view.game.result
    return result if view.game.is_over and result != "*" else ""


def players_of(view: GameView) -> Text:
    """``Alice vs Bob``."""
    return _("{first} vs {second}", first=view.sides[0].name, second=view.sides[1].name)


def game_page(view: GameView, shown: int, live: bool, base: str,
              language: str = SOURCE) -> str:
    """The page of a game showing the position after ``shown`` steps; ``live``: the
    latest position, followed as the game goes on. ``base`` is the page's own path."""
    g, v = view.game, view.variant
    last = view.last_ply
    heading = _("Game #{game}: {players}", game=g.id, players=players_of(view)).render(language)

    def t(message: Text) -> str:
        return _t(message, language)

    nav = " ".join((
        _link("?ply=0" if shown > 0 else None, "«", "first", t(_("First position"))),
        _link(f"?ply={shown - 1}" if shown > 0 else None, "◀", "prev", t(_("Previous step"))),
        _link(f"?ply={shown + 1}" if shown < last else None, "▶", "next", t(_("Next step"))),
        _link(base if not live else None, "»", "last", t(_("Latest position"))),
    ))
    replays = t(_("Keys: {back} {forward} step, Home/End first/latest. Replay: {gif} · {png}",
                  back="←", forward="→", gif="{gif}", png="{png}"))
    animated = t(_("animated PNG"))
    lang = picture_query(language)
    replays = replays.replace(
        "{gif}", f'<a href="{base}/replay.gif{lang}" download>GIF</a>').replace(
        "{png}", f'<a href="{base}/replay.png{lang}" download>{animated}</a>')
    rules, board, steps = t(_("rules")), t(_("Board")), t(_("Steps"))
    players, moves = t(_("Players")), t(_("Moves"))
    body = (
        f"<header><h1>{escape(heading)}</h1>"
        f"<span>{escape(i18n.render(v.display_name, language))}"
        f' · <a href="/rules/{escape(v.name)}">{rules}</a></span></header>'
        f'<main class="game"><section class="board" aria-label="{board}">'
        f'<img id="board" src="{base}/board/{shown}-{view.picture_key(shown)}.png{lang}" '
        f'width="640" alt="{escape(view.alt_text(shown, language))}">'
        f'<nav class="steps" aria-label="{steps}">{nav}'
        f' <span id="shown" aria-live="polite">{escape(step_label(view, shown, language))}'
        f"</span></nav>"
        f'<p class="note">{replays}</p></section>'
        f"<section><h2>{players}</h2>{_players(view, language)}"
        f'<p id="status" aria-live="polite">{_status(view, language)}</p>'
        f'<h2>{moves}</h2><ol class="moves" id="moves">{_moves(view, shown, language)}</ol>'
        f"</section></main>")
    return page(f"{heading} — commandpost", body,
                {"events": f"{base}/events", "live": "1" if live else "0", "ply": str(shown)},
                language=language, switch="" if live else f"ply={shown}")


def picture_query(language: str) -> str:
    """What a picture's address adds for its language: nothing for English, else
    ``?lang=vi`` (a picture is cached for ever under its address, so the address alone
    decides its words, never a cookie or a header)."""
    return "" if language == SOURCE else f"?lang={language}"


def state_event(view: GameView, base: str, language: str = SOURCE) -> dict[str, object]:
    """What the event stream tells an open page: the latest position and the move list."""
    last = view.last_ply
    return {
        "ply": last,
        "board": f"{base}/board/{last}-{view.picture_key(last)}.png{picture_query(language)}",
        "alt": view.alt_text(last, language),
        "shown": step_label(view, last, language),
        "status": view.status_in(language),
        "deadline": view.deadline,
        "live": base,
        "over": view.game.is_over,
        "result": result_of(view),
        "turns": [[e.label, e.text, e.first, e.last, e.complete,
                   i18n.render(view.variant.side_names[e.side], language)]
                  for e in view.entries],
    }


def live_page(games: list[tuple[int, str, str, str, str]], language: str = SOURCE) -> str:
    """The games anyone may watch: (id, link, players, variant, whose turn)."""
    rows = "".join(f'<li><a href="{escape(link)}">#{gid} {escape(players)}</a> '
                   f'<span class="side">{escape(variant)} · {escape(turn)}</span></li>'
                   for gid, link, players, variant, turn in games)
    title = _("Games being played").render(language)
    none = _t(_("No game is being played just now."), language)
    rules = _t(_("Rules: {documents}", documents="{documents}"), language).replace(
        "{documents}",
        " · ".join(f'<a href="/rules/{name}">{_t(Text(words, {}), language)}</a>'
                   for name, words in RULES_LINKS))
    body = (f"<header><h1>{escape(title)}</h1></header><main>"
            + (f"<ul>{rows}</ul>" if rows else f"<p>{none}</p>")
            + f'<p class="note">{rules}</p></main>')
    return page(f"{title} — commandpost", body, language=language)


# the rules documents the list of games links to, by their short names
RULES_LINKS = (("clash", message_id("Clash of Command")),
               ("commander", message_id("Commander Chess")),
               ("combined-arms", message_id("Combined Arms")),
               ("mini-chieftain", message_id("Chieftain")))


def rules_page(title: str, markdown: str, language: str = SOURCE) -> str:
    """A rules document as HTML (raw HTML in the Markdown is shown as text)."""
    html = _markdown.render(markdown)
    back = _t(_("Games being played"), language)
    return page(f"{title} — commandpost", f'<main class="rules">{html}</main>'
                                           f'<p><a href="/live">{back}</a></p>',
                language=language)
