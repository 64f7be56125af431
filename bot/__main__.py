"""The `commandpost` command: the main job and the tools around it.

``commandpost`` alone runs the main job: the Discord bot when a token is configured,
otherwise a local console game on the default database. ``commandpost COMMAND ...`` runs
one of `COMMANDS`; ``commandpost --help`` (or ``commandpost help``) lists them, one line
each, and ``commandpost help COMMAND`` shows a command's own help.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class SubCommand:
    """A sub-command: the ``module[:function]`` whose ``main(argv)`` runs it, and what it
    does, in the one line `usage` shows."""

    entry: str
    summary: str


COMMANDS = {
    "console": SubCommand("bot.console.console",
                          "play at the terminal (two players at one keyboard, or the computer)"),
    "discord": SubCommand("bot.cli.run",
                          "run the Discord bot (`discord sync`: upload its slash commands now)"),
    "email": SubCommand("bot.email_gateway.runner", "play by e-mail: run the mail gateway"),
    "web": SubCommand("bot.web.runner", "serve the game pages in a browser"),
    "scheduler": SubCommand("bot.cli.scheduler", "apply time-outs, reminders and expiries; "
                                                 "play the computer's moves"),
    "db": SubCommand("bot.cli.db", "check the database (`db check`), copy it to PostgreSQL "
                                   "(`db copy`)"),
    "outbox": SubCommand("bot.cli.outbox",
                         "list, retry, drop or prune undelivered notifications"),
    "render": SubCommand("bot.cli.render", "draw a variant's position (or a replay) to a PNG "
                                           "file"),
    "gallery": SubCommand("bot.cli.render:gallery_main",
                          "draw every variant's start and a few middle games into a folder"),
    "diagrams": SubCommand("bot.cli.rules_diagrams:diagrams_main",
                           "draw the rules documents' pictures (`--check` lists stale ones)"),
    "catalogue": SubCommand("bot.cli.catalogue", "list every message of the code for "
                                                 "translators (`--check`: is the list stale?)"),
    "help": SubCommand("bot.__main__:help_main",
                       "list these commands, or show one command's help (`help db`)"),
}
HELP_WORDS = ("help", "--help", "-h")


def usage() -> str:
    """What ``commandpost --help`` prints: every sub-command with one line each."""
    width = max(len(name) for name in COMMANDS) + 2
    lines = [
        "usage: commandpost [COMMAND] [OPTIONS]",
        "",
        "Correspondence games of wargame chess variants on Discord, by e-mail and at the",
        "console. Without a COMMAND: the Discord bot when COMMANDPOST_DISCORD_TOKEN is",
        "set, otherwise the console (its options, such as --db FILE, may follow).",
        "",
        "commands:",
        *(f"  {name:<{width}}{command.summary}" for name, command in COMMANDS.items()),
        "",
        "`commandpost COMMAND --help` or `commandpost help COMMAND`: a command's options;",
        "`commandpost --version`: the version installed.",
    ]
    return "\n".join(lines)


def help_main(argv: list[str]) -> int:
    """``commandpost help [COMMAND]``: the list of commands, or one command's help."""
    if not argv:
        print(usage())
        return 0
    if len(argv) == 1 and argv[0] in COMMANDS and argv[0] != "help":
        return run(argv[0], ["--help"])
    if len(argv) == 1 and argv[0] in ("help", *HELP_WORDS):
        print(usage())
        return 0
    return refuse(" ".join(argv))


def version() -> str:
    """The installed package's version (``unknown`` when run from a folder not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("commandpost")
    except PackageNotFoundError:
        return "unknown"


def refuse(word: str) -> int:
    """A word that is no command: say so on standard error, with where the list is."""
    from .cli import say
    from .i18n import _

    say(_("commandpost: there is no command {word}; `commandpost --help` lists them.",
          word=repr(word[:40])), file=sys.stderr)
    return 2


def run(name: str, args: list[str]) -> int:
    """Run sub-command ``name`` with ``args``; its exit status."""
    module, _, func = COMMANDS[name].entry.partition(":")
    return int(getattr(importlib.import_module(module), func or "main")(args) or 0)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in HELP_WORDS:
        return help_main(args[1:])
    if args == ["--version"]:
        print(f"commandpost {version()}")
        return 0
    if args and args[0] in COMMANDS:
        return run(args[0], args[1:])
    if args and not args[0].startswith("-"):  # not an option of the main job either
        return refuse(args[0])
    return run(_main_job(), args)


def _main_job() -> str:
    """The Discord bot when a token is configured, else the console."""
    return "discord" if os.environ.get("COMMANDPOST_DISCORD_TOKEN") else "console"


if __name__ == "__main__":
    raise SystemExit(main())
