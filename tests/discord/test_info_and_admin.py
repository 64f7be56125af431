"""The commands around the games: rules, ratings, the leaderboard, vacations, records,
DM notifications, the server's settings and rulings, and the buttons of offers."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
import simcord

from .test_play import _start


def _dms(member) -> list[discord.Message]:
    return member.user.dm_channel.history()


async def _finished_rated_game(w):
    """A rated Clash game that Bob won: Alice resigned after both sides moved."""
    thread, game = await _start(w)
    await w.alice.slash(thread, "move", move="b2-a3/D")
    await w.bob.slash(thread, "move", move="h8-i7/D")
    r = await w.alice.slash(thread, "resign")
    assert not r.ephemeral, r.response.content
    return thread, await w.service.game(game.id)


# --- /rules -------------------------------------------------------------------------
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
CLASH_TOPICS = ("pieces (Commander, Factor, Droid, Hawk, Brute, Slicer) or a section (the "
                "board, special rules, how a game ends, notation, choices this project made)")


async def test_rules_show_the_introduction_and_the_board_with_its_picture(world):
    r = await world.carol.slash(world.channel, "rules", variant="clash")
    assert r.ephemeral
    content = r.response.content
    assert content.startswith("# Clash of Command\n\nClash of Command (Peter Stobbe, 2001) "
                              "is played on a web of 41 points.")
    assert "\n\n## The board\n\nThe points are named like chess squares" in content
    assert content.endswith(f"`/rules variant:clash piece:…` shows one part: {CLASH_TOPICS}. "
                            f"The whole document: docs/rules/clash.md.")
    assert "![" not in content and len(content) <= 2000
    assert [a.filename for a in r.response.attachments] == ["clash-board.png"]


async def test_rules_of_a_piece_show_its_part_with_its_diagram(world):
    r = await world.carol.slash(world.channel, "rules", variant="clash", piece="Droid")
    assert r.ephemeral
    assert r.response.content == (
        "### Droid (D)\n\nA Droid steps one point forward to an empty point, or captures by "
        "moving one point sideways or backwards onto an occupied point — here the Black Droid "
        "on f4 or the own Factor on c3, but not the Droid straight ahead on d6. After either "
        "it turns into a Hawk.\n\n(From docs/rules/clash.md, “Droid (D)”.)")
    assert [a.filename for a in r.response.attachments] == ["clash-droid.png"]
    assert await r.response.attachments[0].read() == (
        RULES / "diagrams" / "clash-droid.png").read_bytes()
    r = await world.carol.slash(world.channel, "rules", variant="commander", piece="g")
    assert r.response.content.startswith("### Anti-aircraft gun (G)\n\nMoves and captures")
    assert [a.filename for a in r.response.attachments] == ["commander-anti-aircraft-gun.png"]


async def test_a_long_section_goes_on_in_further_messages(world):
    r = await world.carol.slash(world.channel, "rules", variant="commander", piece="choices")
    texts = [r.response.content] + [m.content for m in r.followups]
    assert len(texts) == 3 and all(len(t) <= 2000 and t.count("```") % 2 == 0 for t in texts)
    assert texts[0].startswith("## Choices this project made\n\n- An impossible move")
    # the source line goes on its own when the last part has no room left for it
    assert texts[-1] == "(From docs/rules/commander.md, “Choices this project made”.)"
    assert all(m.ephemeral for m in r.followups) and r.response.attachments == []


async def test_a_section_of_parts_comes_whole_with_its_code_marked(world):
    r = await world.carol.slash(world.channel, "rules", variant="commander",
                                piece="special rules")
    text = "\n".join([r.response.content] + [m.content for m in r.followups])
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "## Special rules", "### Stacks and carrying", "### Deploys: splitting a stack",
        "### Three kinds of capture", "### Air defence", "### Heroes", "### Check"]
    assert "A **normal** capture (`x`) moves onto the point. A **stay** capture (`_`)" in text
    assert [a.filename for a in r.response.attachments] == ["commander-ring-of-fire.png"]


async def test_rules_of_an_unknown_piece_or_variant_say_what_exists(world):
    r = await world.carol.slash(world.channel, "rules", variant="clash", piece="Queen")
    assert r.ephemeral
    assert r.response.content == (
        f"The rules of Clash of Command have no part about 'Queen'. "
        f"`/rules variant:clash piece:…` shows one part: {CLASH_TOPICS}.")
    r = await world.carol.slash(world.channel, "rules", variant="nonesuch")
    assert r.ephemeral and "nonesuch" in r.response.content


# --- /rating and /leaderboard -------------------------------------------------------
async def test_rating_and_leaderboard_after_a_rated_game(world):
    await _finished_rated_game(world)
    r = await world.bob.slash(world.channel, "rating", variant="clash")
    assert not r.ephemeral
    assert r.response.content.startswith("Your Clash of Command rating: ")
    assert "after 1 rated game" in r.response.content
    r = await world.carol.slash(world.channel, "rating", variant="clash", player=world.alice)
    assert r.response.content.startswith("alice's Clash of Command rating: ")
    r = await world.carol.slash(world.channel, "leaderboard", variant="clash")
    assert not r.ephemeral
    board = r.response.content
    assert board.startswith("```\nClash of Command leaderboard:")
    assert board.index("bob") < board.index("alice")
    r = await world.bob.slash(world.channel, "rating", variant="cab", player=world.carol)
    assert r.response.content == ("carol has no rated Combined Arms Brigade Chess games yet (a "
                                  "new player starts at 1500).")
    r = await world.carol.slash(world.channel, "rating", variant="nonesuch")
    assert r.ephemeral


# --- /vacation ----------------------------------------------------------------------
async def test_a_vacation_pauses_the_clocks_and_ends_on_request(world):
    thread, game = await _start(world)
    r = await world.alice.slash(world.channel, "vacation", days=2.0)
    assert r.ephemeral and "vacation" in r.response.content.lower()
    assert (await world.service.game(game.id)).clock.paused
    r = await world.alice.slash(world.channel, "games")
    assert "(clock paused)" in r.response.content
    r = await world.alice.slash(world.channel, "vacation", end=True)
    assert r.ephemeral and "Vacation left this year" in r.response.content
    assert not (await world.service.game(game.id)).clock.paused


# --- /export ------------------------------------------------------------------------
async def test_export_attaches_a_record_the_service_can_import(world):
    thread, game = await _finished_rated_game(world)
    r = await world.alice.slash(thread, "export")
    assert r.ephemeral and f"game #{game.id}" in r.response.content
    attachment = r.response.attachments[0]
    assert attachment.filename == f"game-{game.id}.txt"
    record = (await attachment.read()).decode()
    assert "b2-a3/D" in record and "h8-i7/D" in record
    alice = await world.service.player("discord", str(world.alice.id))
    bob = await world.service.player("discord", str(world.bob.id))
    imported = await world.service.archive.import_game(alice, "discord:1", record, bob)
    assert imported.ok, imported.message
    moves = [m.text for m in await world.service.played_moves(imported.game.id)]
    assert moves[:2] == ["b2-a3/D", "h8-i7/D"]


async def test_export_in_the_cotulenh_format_attaches_the_sites_pgn(world):
    thread, game = await _start(world, variant="commander")
    await world.alice.slash(thread, "move", move="Tfg4")
    r = await world.alice.slash(thread, "export", format="cotulenh")
    assert r.ephemeral and r.response.content == f"The record of game #{game.id}."
    attachment = r.response.attachments[0]
    assert attachment.filename == f"game-{game.id}.pgn"
    record = (await attachment.read()).decode()
    site = f"https://discord.com/channels/{world.alice.guild.id}/{thread.id}"
    assert record == (
        f'[Event "Rated correspondence game"]\n[Site "{site}"]\n[Date "2026.03.02"]\n'
        '[Round "-"]\n[Red "alice"]\n[Blue "bob"]\n[Result "*"]\n[TimeControl "1/259200"]\n'
        '[SetUp "1"]\n[FEN "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/'
        '2N1GT1TG2/3A2S2A1/1N2FH1HF2/6C4 r - - 0 1"]\n[Variant "commander"]\n'
        '[Mode "standard"]\n\n1. Tfg4 *')
    clash, other = await _start(world)
    r = await world.alice.slash(clash, "export", format="cotulenh")
    assert r.ephemeral and r.response.content == (
        f"The cotulenh format is for Commander Chess games; game #{other.id} is Clash of "
        f"Command.")


# --- /notify ------------------------------------------------------------------------
async def test_notify_dm_sends_the_turn_by_direct_message(world):
    thread, game = await _start(world)
    r = await world.bob.slash(world.channel, "notify", dm=True)
    assert r.ephemeral and "DM" in r.response.content
    await world.alice.slash(thread, "move", move="b2-a3/D")
    dms = _dms(world.bob)
    assert dms and "b2-a3/D" in dms[-1].content and "Your move" in dms[-1].content
    assert dms[-1].attachments[0].filename.endswith(".png")  # the board comes along
    assert not _dms(world.alice)  # she did not ask for DMs
    r = await world.bob.slash(world.channel, "notify", dm=False)
    assert "threads" in r.response.content
    await world.bob.slash(thread, "move", move="h8-i7/D")
    await world.alice.slash(thread, "move", move="a3-b4/D")
    assert len(_dms(world.bob)) == len(dms)


# --- /server ------------------------------------------------------------------------
async def test_server_settings_need_manage_server_and_restrict_variants(world, moderator):
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await world.carol.slash(world.channel, "server settings", variants="clash")
    # a server may show the command to more members; the bot still checks Manage Server
    command = next(c for c in await world.bot.tree.fetch_commands() if c.name == "server")
    world.alice.guild.set_command_permissions(command, {world.carol: True})
    r = await world.carol.slash(world.channel, "server settings", variants="clash")
    assert r.ephemeral and r.response.content.startswith("Only members who may manage")
    assert await world.service.rooms.server_settings(f"discord:{world.alice.guild.id}") == {}
    r = await moderator.slash(world.channel, "server settings", variants="mini-chieftain")
    assert r.ephemeral and "Variants: mini-chieftain" in r.response.content
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob, variant="clash")
    assert r.ephemeral and r.response.content == "This server plays only mini-chieftain."
    r = await world.alice.slash(world.channel, "challenge", opponent=world.bob)
    assert not r.ephemeral
    r = await world.bob.slash(world.channel, "accept")
    game = (await world.service.games(place=None))[-1]
    assert game.variant == "mini-chieftain"
    r = await moderator.slash(world.channel, "server settings", variants="nonesuch")
    assert r.ephemeral and "nonesuch" in r.response.content
    r = await moderator.slash(world.channel, "server settings", variants="all")
    assert "Variants: all" in r.response.content


async def test_a_ruling_ends_a_game_of_this_server(world, moderator):
    thread, game = await _start(world)
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await world.carol.slash(world.channel, "server ruling", game=game.id, ruling="draw")
    r = await moderator.slash(world.channel, "server ruling", game=99, ruling="draw")
    assert r.ephemeral and r.response.content == "There is no game #99 on this server."
    r = await moderator.slash(world.channel, "server ruling", game=game.id, ruling="1")
    assert not r.ephemeral
    ended = await world.service.game(game.id)
    assert ended.is_over and ended.winner == 1


async def test_a_server_chooses_the_colour_blind_pictures(world, moderator):
    from bot.discord_bot.pictures import theme_of
    thread, game = await _start(world)
    assert await theme_of(world.service, game) == "classic"  # the host's setting
    r = await moderator.slash(world.channel, "server settings", theme="colour-blind")
    assert r.ephemeral and "Pictures: colour-blind" in r.response.content
    assert await theme_of(world.service, game) == "colour-blind"
    r = await world.alice.slash(thread, "board")
    assert r.response.attachments[0].filename.endswith(".png")
