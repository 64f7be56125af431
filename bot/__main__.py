"""The `commandpost` command: the main job and the tools around it.

* ``commandpost`` — the main job: the Discord bot when a token is configured, otherwise
  a local console game on the default database.
* ``commandpost console`` — the local console; ``commandpost discord`` — the Discord bot;
  ``commandpost discord sync`` — upload the bot's slash commands now.
* ``commandpost db check`` — a full check of the database and a replay of every game.
* ``commandpost render VARIANT [POSITION] -o FILE`` and ``commandpost gallery DIR`` —
  board pictures.
* ``commandpost diagrams docs/rules`` — the pictures of the rules documents.
* ``commandpost db copy SQLITE_FILE postgresql://…`` — move a host's data to PostgreSQL.
* ``commandpost outbox`` — undelivered notifications: list, retry, drop, prune.
* ``commandpost web`` — the game pages in a browser (`bot.web`).
* ``commandpost scheduler`` — time-outs, reminders, expiries and the computer's moves as a
  process of its own (`bot.cli.scheduler`).
* ``commandpost discord --shards 0-3 --shard-count 16`` — a share of the bot's shards.
"""

from __future__ import annotations

import importlib
import os
import sys

# subcommand -> module whose main(argv) runs it
COMMANDS = {
    "console": "bot.console.console",
    "email": "bot.email_gateway.runner",
    "discord": "bot.cli.run",
    "render": "bot.cli.render",
    "gallery": "bot.cli.render:gallery_main",
    "db": "bot.cli.db_copy",  # `db copy` there; `db check` handed on to bot.cli.dbcheck
    "diagrams": "bot.cli.rules_diagrams:diagrams_main",
    "outbox": "bot.cli.outbox",
    "web": "bot.web.runner",
    "scheduler": "bot.cli.scheduler",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    name = args[0] if args and args[0] in COMMANDS else _main_job()
    if args and args[0] in COMMANDS:
        args = args[1:]
    module, _, func = COMMANDS[name].partition(":")
    return int(getattr(importlib.import_module(module), func or "main")(args) or 0)


def _main_job() -> str:
    """The Discord bot when a token is configured, else the console."""
    return "discord" if os.environ.get("COMMANDPOST_DISCORD_TOKEN") else "console"


if __name__ == "__main__":
    raise SystemExit(main())
