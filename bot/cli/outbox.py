"""``commandpost outbox``: a view of what is stuck in the outbox, for the host.

    commandpost outbox [--db FILE] [--failed | --pending]   list what is not delivered
    commandpost outbox retry ID... | --failed                try again now
    commandpost outbox drop ID...                            give up, without sending
    commandpost outbox prune [--days N]                      forget old delivered rows

Delivered rows are also pruned by the scheduler (after `outbox.KEEP_DELIVERED`); failed ones
stay until they are retried or dropped, so that what went wrong can be looked at.
"""

from __future__ import annotations

import argparse
import asyncio

from ..config import Settings, add_db_option, db_target, settings_or_say
from ..i18n import Text, _, _n
from ..service import outbox
from ..service.clock import DAY, format_time
from ..service.model import Notification
from ..startup import missing_database, open_service
from . import say


def describe(note: Notification, now: float) -> Text:
    """One line of the list: id, transport, recipient, kind, tries, state and reason."""
    to: str = note.address or (_("player {number}", number=note.player_id)
                               if note.player_id is not None else note.place or "?")
    if note.failed_at is not None:
        state = _("failed {moment}", moment=format_time(note.failed_at))
    elif note.attempts:
        state = _("pending, next try {moment}",
                  moment=format_time(max(note.next_attempt_at or now, now)))
    else:
        state = _("pending, due now")
    reason = ": " + note.failure if note.failure else ""
    game = _(" game #{game}", game=note.game_id) if note.game_id is not None else ""
    return _n("#{number} {transport} to {to} {kind}{game}, {n} try, {state}{reason}",
              "#{number} {transport} to {to} {kind}{game}, {n} tries, {state}{reason}",
              note.attempts, number=note.id, transport=note.transport, to=to, kind=note.kind,
              game=game, state=state, reason=reason)


async def run(settings: Settings, args: argparse.Namespace) -> int:
    service = await open_service(settings)
    if service is None:
        return 1
    async with service:
        db, now = service.db, service.now()
        if args.action == "retry":
            ids = [n.id for n in await outbox.stuck(db, failed=True)] if args.failed \
                else args.ids
            count = await outbox.retry(db, ids)
            say(_("{count} notification(s) will be tried again now.", count=count))
        elif args.action == "drop":
            count = await outbox.drop(db, args.ids, now)
            say(_("{count} notification(s) dropped.", count=count))
        elif args.action == "prune":
            count = await outbox.prune(db, now, args.days * DAY)
            say(_("{count} delivered notification(s) older than {days} days pruned.",
                  count=count, days=format(args.days, "g")))
        else:
            notes = await outbox.stuck(db, failed=True if args.failed else
                                       False if args.pending else None)
            for note in notes:
                say(describe(note, now))
            if not notes:
                say(_("Nothing is waiting: every notification was delivered."))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="commandpost outbox",
                                description="List, retry or drop undelivered notifications.")
    add_db_option(p)
    actions = p.add_subparsers(dest="action")
    listing = p.add_mutually_exclusive_group()
    listing.add_argument("--failed", action="store_true", help="only the given-up ones")
    listing.add_argument("--pending", action="store_true", help="only the ones still tried")
    retry = actions.add_parser("retry", help="try notifications again now")
    retry.add_argument("ids", nargs="*", type=int, metavar="ID")
    retry.add_argument("--failed", action="store_true", help="every failed notification")
    drop = actions.add_parser("drop", help="give up on notifications without sending them")
    drop.add_argument("ids", nargs="+", type=int, metavar="ID")
    prune = actions.add_parser("prune", help="forget delivered notifications")
    prune.add_argument("--days", type=float, default=outbox.KEEP_DELIVERED / DAY,
                       help="keep those delivered within this many days (default: 7)")
    for action in (retry, drop, prune):  # --db before or after the action's name
        action.add_argument("--db", type=db_target, default=argparse.SUPPRESS,
                            help="database file or postgresql:// URL (default: "
                                 "$COMMANDPOST_DB or commandpost.db)")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.action == "retry" and not (args.ids or args.failed):
        say(_("commandpost outbox retry: name the notifications (their #numbers) or "
              "--failed"))
        return 2
    settings = settings_or_say(args)
    if settings is None:
        return 2
    missing = missing_database(settings.db_path)
    if missing:  # opening it would make an empty database, with an empty outbox
        print(f"commandpost outbox: {missing}")
        return 1
    return asyncio.run(run(settings, args))
