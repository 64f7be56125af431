"""What players of a well-kept bot expect: `/help` (every command from its own description,
and one command with its options), `/challenges` (open ones: mine, to me, open here) and
`/cancel` (withdraw one's own challenge)."""

from __future__ import annotations

import inspect

from discord import app_commands


def _all_commands(tree) -> dict[str, object]:
    found = {}
    for item in tree.get_commands():
        for c in item.walk_commands() if isinstance(item, app_commands.Group) else [item]:
            found[c.qualified_name] = c
    return dict(sorted(found.items()))


async def test_help_lists_every_command_with_its_description(world):
    r = await world.carol.slash(world.channel, "help")
    assert r.ephemeral
    said = "\n".join([r.response.content, *[m.content for m in r.followups]])
    lines = said.split("\n")
    assert lines[0] == ("Commands (`/help command:NAME` explains one; in a game's thread you "
                        "may also type a move as a message):")
    # each command's whole first paragraph (Discord cuts descriptions at 100 characters)
    assert lines[1:] == [
        f"`/{name}`: {' '.join(inspect.cleandoc(c.callback.__doc__).split(chr(10) * 2)[0].split())}"
        for name, c in _all_commands(world.bot.tree).items()]
    assert ("`/import`: Continue a recorded game: a challenge to your opponent carrying the "
            "record, which becomes the game, as far as it went, when they accept.") in lines
    assert "`/help`: List the commands, or explain one" in said
    assert "`/server check`: " in said and "`/challenges`: " in said


async def test_help_for_one_command_shows_its_options(world):
    r = await world.carol.slash(world.channel, "help", command="/Move")
    assert r.ephemeral and r.response.content == (
        "`/move`: Play a move. Example: /move move:c3-d4\n"
        "Options:\n"
        "• `move`: The move, in the variant's notation (`end` ends a turn)\n"
        "• `game` (optional): " + _all_commands(world.bot.tree)["move"].parameters[1].description)
    r = await world.carol.slash(world.channel, "help", command="mvoe")
    assert r.ephemeral and r.response.content == (
        "There is no command `/mvoe`. `/help` lists them.")
    r = await world.carol.autocomplete(world.channel, "help", "command", "serv")
    assert [c["value"] for c in r] == ["server check", "server ruling", "server settings"]


async def test_challenges_lists_mine_and_those_to_me_and_cancel_withdraws_mine(world):
    r = await world.alice.slash(world.channel, "challenges")
    assert r.ephemeral and r.response.content == (
        "There are no open challenges for you or here. Make one with `/challenge`.")
    await world.alice.slash(world.channel, "challenge", opponent=world.bob, variant="clash",
                            side=0, days=3)
    await world.carol.slash(world.channel, "challenge", variant="cab", days=2)  # to anyone
    expiry = int((await world.service.challenges.get_challenge(1)).expires_at)
    later = int((await world.service.challenges.get_challenge(2)).expires_at)
    r = await world.bob.slash(world.channel, "challenges")
    assert r.response.content == (
        f"Open challenges:\n"
        f"• #1 alice → bob: Clash of Command, 3 days per move, expires <t:{expiry}:f> "
        f"(<t:{expiry}:R>) (`/accept challenge:1` or `/decline challenge:1`)\n"
        f"• #2 carol → anyone: Combined Arms Brigade Chess, 2 days per move, expires "
        f"<t:{later}:f> (<t:{later}:R>) (`/accept challenge:2` or `/decline challenge:2`)")
    r = await world.alice.slash(world.channel, "challenges")
    assert r.response.content.split("\n")[1] == (
        f"• #1 alice → bob: Clash of Command, 3 days per move, expires <t:{expiry}:f> "
        f"(<t:{expiry}:R>) (yours; `/cancel challenge:1` withdraws it)")
    r = await world.alice.autocomplete(world.channel, "cancel", "challenge", "")
    assert r == [{"name": "#1 to bob: Clash of Command", "value": 1}]
    r = await world.bob.slash(world.channel, "cancel", challenge=1)  # not his
    assert r.ephemeral
    r = await world.alice.slash(world.channel, "cancel")
    assert not r.ephemeral and r.response.content == "Challenge #1 cancelled."
    assert (await world.service.challenges.get_challenge(1)).status == "cancelled"


async def test_import_a_record_to_continue_with_an_opponent(world):
    """alice exports a game and imports it against carol: a challenge carrying the
    record; carol accepts, and the game goes on from where the record left it."""
    from .test_play import _start
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    await world.alice.slash(thread, "move", move=move)
    alice = await world.bot.player_of(world.bot.get_user(world.alice.id) or await
                                      world.bot.fetch_user(world.alice.id))
    text = (await world.service.archive.export(game.id, alice)).text  # what /export attaches
    r = await world.alice.slash(world.channel, "import", record=("game-1.txt", text.encode()),
                                opponent=world.carol)
    assert not r.ephemeral
    assert r.response.content == (
        "Challenge #2 sent to carol: to continue a recorded game of Clash of Command (1 step "
        "played; alice plays White). The game starts when carol accepts.\n"
        f"{world.carol.mention}, you are challenged: press Accept, or `/accept challenge:2`.")
    assert [c["label"] for row in r.response.components for c in row["components"]] == [
        "Accept", "Decline"]
    r = await world.carol.slash(world.channel, "accept", challenge=2)
    assert not r.ephemeral, r.response.content
    imported = (await world.service.games(place=None))[-1]
    assert imported.id == 2 and imported.ply == 1
    r = await world.alice.slash(world.channel, "import", record=("x.png", b"\x89PNG\xff\xfe"),
                                opponent=world.carol)
    assert r.ephemeral and r.response.content == (
        "That file is not a text record (UTF-8), as `/export` makes them.")


async def test_cancel_with_several_challenges_asks_which_in_its_own_words(world):
    await world.alice.slash(world.channel, "challenge", opponent=world.bob, variant="clash")
    await world.alice.slash(world.channel, "challenge", opponent=world.carol, variant="clash")
    r = await world.alice.slash(world.channel, "cancel")
    assert r.ephemeral and r.response.content == (
        "There are several challenges: #1 (alice, Clash of Command), #2 (alice, Clash of "
        "Command). Say which, as in `/cancel challenge:1`.")
    r = await world.alice.slash(world.channel, "accept", challenge=1)
    assert r.ephemeral and r.response.content == (
        "You cannot accept your own challenge; withdraw it with `/cancel challenge:1`.")
