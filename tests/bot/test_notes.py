"""Private notes: only their author sees them, with the board and in the export; the
opponent and watchers never do, on the console or by e-mail (Discord: tests/discord)."""

from __future__ import annotations

from bot.commands import Commands
from bot.service.results import Reason

NOTE_LINE = "  after 1. (2026-03-02 12:00 UTC): the left flank is weak"


async def test_a_note_is_kept_for_its_author_only(service, alice, bob, carol, start_game):
    game = await start_game(alice, bob)
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    done = await service.notes.add_note(alice, game.id, "  the left   flank is weak ")
    assert done.message == "Note kept on game #1 (only you see it)."
    assert await service.notes.notes_text(alice, game.id) == (
        "Your notes (only you see them):\n" + NOTE_LINE)
    assert await service.notes.notes_text(bob, game.id) == ""
    assert await service.notes.notes_text(carol, game.id) == ""
    refused = await service.notes.add_note(carol, game.id, "spy")
    assert refused.reason == Reason.NOT_A_PLAYER
    assert refused.message == "Only the players of game #1 keep notes on it."
    assert (await service.notes.add_note(bob, game.id, "   ")).message == (
        "A note needs some text, as in `note the left flank is weak`.")
    assert (await service.notes.add_note(bob, game.id, "x" * 1001)).message == (
        "A note is at most 1000 characters; this one has 1001.")
    assert (await service.notes.add_note(bob, 9, "x")).reason == Reason.NO_SUCH_GAME
    # nothing about the note went to anyone
    texts = [n.text for n in await service.pending_notifications("console")]
    assert not any("flank" in t for t in texts)


async def test_the_export_keeps_the_readers_notes_only(service, alice, bob, carol,
                                                       start_game):
    game = await start_game(alice, bob)
    await service.notes.add_note(alice, game.id, "open with the droid")
    await service.notes.add_note(bob, game.id, "Alice likes droids")
    mine = (await service.archive.export(game.id, alice)).text
    assert mine.endswith("*\n; Note at the start (2026-03-02 12:00 UTC): open with the droid\n")
    assert "Alice likes droids" not in mine
    assert "droid" not in (await service.archive.export(game.id, carol)).text
    assert "droid" not in (await service.archive.export(game.id)).text
    # the record with notes is still a record: it reads back
    assert (await service.archive.offer_import(alice, "console:test", mine, bob)).ok


async def test_notes_at_the_console(session):  # noqa: F811
    await session("challenge bob white")
    await session("as bob")
    await session("accept")
    await session("as Alice")
    await session("b2-a3/D")
    out = await session("note the left flank is weak")
    assert out == "Note kept on game #1 (only you see it)."
    assert await session("note") == "Your notes (only you see them):\n" + NOTE_LINE
    assert (await session("board")).splitlines()[:3] == [
        "Game #1: Alice (White) vs bob (Black), Clash of Command, no clock. bob to move.",
        "Your notes (only you see them):", NOTE_LINE]
    await session("as bob")
    board = await session("board")
    assert "left flank" not in board and "Your notes" not in board
    assert await session("note") == ("You have no notes on game #1. For example: "
                                     "`note the left flank is weak`; "
                                     "`note #3 trade the droid next`")
    out = await session("h8-i7/D")
    assert "left flank" not in out


async def test_notes_by_mail_words_are_the_same_commands(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    commands = Commands(service, lambda name: service.find_player("console", name))
    reply = await commands.handle(alice, "console:test", f"note #{game.id} keep calm")
    assert (reply.ok, reply.text, reply.game) == (True, "Note kept on game #1 (only you see "
                                                        "it).", None)
    assert "keep calm" not in (await commands.handle(bob, "console:test", "board")).text
