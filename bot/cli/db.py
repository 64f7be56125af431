"""``commandpost db``: look after the database.

    commandpost db check [--db FILE]                   (`bot.cli.dbcheck`)
    commandpost db copy SQLITE_FILE postgresql://...   (`bot.cli.db_copy`)

One parser knows both actions, so ``commandpost db --help`` lists them and each action's
``--help`` shows its own options.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..config import add_db_option
from . import db_copy, dbcheck


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="commandpost db", description="Look after the database.")
    actions = p.add_subparsers(dest="action", required=True, metavar="{check,copy}")
    checking = actions.add_parser(
        "check", help="check every page and replay every game",
        description="Check every page of the database and replay every game from its moves; "
                    "exit 0 when all is sound, 1 when something is damaged.")
    add_db_option(checking)
    copying = actions.add_parser(
        "copy", help="copy a SQLite file into a new, empty PostgreSQL database",
        description="Copy a SQLite database file into a new, empty PostgreSQL database and "
                    "replay every game there.")
    copying.add_argument("source", type=Path, help="the SQLite database file")
    copying.add_argument("target", type=db_copy.postgres_target,
                         help="postgresql://user:password@host/database")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    return db_copy.run(args) if args.action == "copy" else dbcheck.run(args)
