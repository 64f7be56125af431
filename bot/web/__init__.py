"""The web pages: anyone with a game's link watches it in a browser.

* `server` — the aiohttp application: routes, security headers, the rate limit.
* `views` — what a page shows of a game, read through the game service (never more than
  the players see: names, sides, ratings, moves, the clock).
* `pages` — the HTML, with its one stylesheet and one script of our own inline.
* `tournament_pages` — the HTML of a tournament's page (crosstable, rounds) and of the list
  of tournaments.
* `live` — server-sent events: every page open on a game or a tournament is told when it
  changes.
* `language` — the reader's language: the page's switch (``?lang=``, kept in a cookie),
  else the browser's ``Accept-Language``, else English; every word comes from the
  catalogue (`bot.i18n`).
* `runner` — ``commandpost web``, and the server started beside the bot.

The server is read-only: it never changes a game.
"""
