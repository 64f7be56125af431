"""`commandpost outbox`: the host sees what is stuck, with the reason, and retries or drops
it."""

from __future__ import annotations

import asyncio

from bot.__main__ import main
from bot.service import GameService, outbox
from bot.service.outbox import DeliveryFailure

from .conftest import START


async def _stuck_game(settings) -> None:
    """A game whose notifications to bob were refused for good, one to alice pending."""
    clock = [START]
    service = await GameService.open(settings, now=lambda: clock[0])
    async with service:
        alice = await service.player("console", "alice")
        bob = await service.player("console", "bob")
        made = await service.challenges.challenge(alice, "console:test", bob, side=0)
        await service.challenges.accept(bob, made.challenge.id)

        async def refuse(note) -> None:
            if note.address == "bob":
                raise DeliveryFailure("550 User unknown", permanent=True)
            raise DeliveryFailure("connection refused", permanent=False)

        for _ in range(outbox.TRIES_WHEN_REFUSED):
            await service.deliver("console", refuse)
            clock[0] += outbox.LONGEST_WAIT * 2


def test_the_outbox_lists_retries_and_drops(settings, capsys):
    asyncio.run(_stuck_game(settings))
    db = ["--db", str(settings.db_path)]
    assert main(["outbox", *db, "--failed"]) == 0
    assert capsys.readouterr().out == (
        "#1 console to bob challenge, 3 tries, failed 2026-03-02 16:00 UTC: 550 User unknown\n")
    assert main(["outbox", *db, "--pending"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # its next try fell due long ago (the list reads the real clock): it is shown as now
    assert lines[0].startswith("#2 console to alice game-start game #1, 3 tries, pending, next "
                               "try ")
    assert lines[0].endswith(": connection refused")
    assert main(["outbox", "retry", *db]) == 2
    assert "name the notifications" in capsys.readouterr().out
    assert main(["outbox", "retry", "--failed", *db]) == 0
    assert capsys.readouterr().out == "1 notification(s) will be tried again now.\n"
    assert main(["outbox", "drop", "1", "2", *db]) == 0
    assert capsys.readouterr().out == "2 notification(s) dropped.\n"
    assert main(["outbox", *db, "--failed"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("dropped by the host")
    assert main(["outbox", "prune", *db]) == 0
    assert capsys.readouterr().out == ("0 delivered notification(s) older than 7 days "
                                       "pruned.\n")
