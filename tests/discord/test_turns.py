"""On Discord: a whole mini-Chieftain game played with the select menus (across a restart),
slash commands and typed moves, and a Commander Chess deploy entered step by step — exact
replies, every step of a turn marked on the picture, nobody pinged mid-turn, `end` refused
when no turn is in progress, single steps offered by autocomplete, and Discord's words
only."""

from __future__ import annotations

import re

import pytest

import bot.discord_bot.pictures as pictures
from bot.discord_bot.places import channel_place

CHIEFTAIN = "6n1/3mcc2/8/8/8/4M3/8/3C4 w - 1"
COMMANDER = "7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1"
FOREIGN = re.compile(r"`(end|draw|takeback|back|board|accept|decline|challenge|move|moves|"
                     r"help)[ `]|reply to|e-mail|\bmail\b|\d{4}-\d\d-\d\d \d\d:\d\d UTC",
                     re.IGNORECASE)
"""Console and e-mail syntax: bare command words, mail, written-out times."""


@pytest.fixture
def drawn(monkeypatch) -> list[dict]:
    """The options of every picture drawn."""
    seen: list[dict] = []

    def render(position, **options):
        seen.append(options)
        return b"\x89PNG fake"

    monkeypatch.setattr(pictures, "_render", render)
    return seen


def marked(drawn: list[dict]) -> list[tuple[str, str]]:
    last = drawn[-1]["last_move"] or []
    return [(s.origin, s.target) for m in last for s in m.steps]


async def _start_from(w, variant: str, fen: str):
    """A game from ``fen``: challenged through the service (Discord's /challenge has no
    start position), accepted with /accept, so it opens its thread."""
    alice = await w.service.player("discord", str(w.alice.id), "alice")
    bob = await w.service.player("discord", str(w.bob.id), "bob")
    made = await w.service.challenges.challenge(alice, channel_place(w.channel.id), bob, variant,
                                                side=0,
                                                start_fen=fen, rated=False)
    assert made.ok, made
    r = await w.bob.slash(w.channel, "accept")
    assert not r.ephemeral, r.response.content
    return w.channel.threads[-1]


def answer(result):
    """The message an interaction answered with (a deferred answer's follow-up)."""
    return result.followups[-1] if result.followups else result.response


def _contents(thread, *results) -> list[str]:
    return [m.content for m in thread.history()] + [
        m.content for r in results for m in (r.response, *r.followups) if m is not None]


async def test_a_whole_mini_chieftain_game_with_menus_across_a_restart(world, drawn):
    w = world
    thread = await _start_from(w, "mini-chieftain", CHIEFTAIN)
    r = await w.alice.slash(thread, "move", move="Me3-e4")
    assert r.response.content == (f"1. **Me3-e4** played in game #1.\n{w.bob.mention} "
                                   f"(Black) to move.")
    assert marked(drawn) == [("e3", "e4")] and drawn[-1]["perspective"] == 1
    # bob: Legal moves -> the pieces -> the kNight's moves -> Ng8-f6
    pieces = await w.bob.click(answer(r).message, label="Legal moves")  # the live board
    assert pieces.ephemeral and pieces.response.content == (
        "4 pieces of bob can move in game #1. Choose one to see its moves on the board.")
    options = pieces.response.components[0]["components"][0]["options"]
    assert [(o["label"], o["value"], o["description"]) for o in options] == [
        ("Man on d7", "d7", "7 moves"), ("Chieftain on e7", "e7", "16 moves"),
        ("Chieftain on f7", "f7", "16 moves"), ("Knight on g8", "g8", "2 moves")]
    knight = await w.bob.select(pieces.response.message, ["g8"])
    shown = answer(knight)
    assert shown.ephemeral and shown.content == "Knight on g8: 2 moves: `Ng8-f6` `Ng8-h6`"
    assert (drawn[-1]["selected"], drawn[-1]["highlights"]) == ("g8", ("f6", "h6"))
    step = await w.bob.select(shown.message, ["Ng8-f6"])
    goes_on = answer(step)
    assert goes_on.content == ("Ng8-f6 played in game #1. Your turn goes on: 1 more move "
                               "allowed, or `/move move:end` to finish it.\nbob (Black) to move.")
    assert "<@" not in goes_on.content  # nobody is pinged in the middle of a turn
    assert marked(drawn) == [("g8", "f6")]
    # the menu of the next step works after a restart
    await w.restart()
    man = await w.bob.select(goes_on.message, ["d7"])
    step = await w.bob.select(answer(man).message, ["Md7-d6"])
    assert answer(step).content == (
        f"1... **Ng8-f6, Md7-d6** played in game #1.\n{w.alice.mention} (White) to move.")
    assert marked(drawn) == [("g8", "f6"), ("d7", "d6")] and drawn[-1]["perspective"] == 0
    # a menu made for an earlier position is refused
    stale = await w.bob.select(pieces.response.message, ["d7"])
    assert stale.ephemeral and "has changed" in stale.response.content
    await w.alice.slash(thread, "move", move="Cd1-d2")
    assert [c["value"] for c in await w.bob.autocomplete(thread, "move", "move", "Nf")] == [
        "Nf6-d5", "Nf6-d7", "Nf6-e8", "Nf6-g4", "Nf6-g8", "Nf6-h5", "Nf6-h7", "Nf6xe4"]
    r1 = await w.bob.slash(thread, "move", move="Nf6xe4")
    assert [c["value"] for c in await w.bob.autocomplete(thread, "move", "move", "")][:2] == [
        "end", "Md6-c5"]
    r2 = await w.bob.click(answer(r1).message, label="End turn")  # or `/move move:end`
    assert answer(r2).content == (
        f"2... **Nf6xe4, end** played in game #1.\n{w.alice.mention} (White) to move.")
    assert marked(drawn) == [("f6", "e4")]
    r3 = await w.bob.slash(thread, "move", move="end")
    assert r3.ephemeral and r3.response.content == (
        "There is no turn in progress to end in game #1: your turn is over, and alice (White) "
        "is to move.")
    await w.alice.slash(thread, "move", move="Cd2-c3")
    await w.bob.send(thread, "Ne4xc3")
    assert thread.history()[-1].content == (  # the one announcement of the end
        "3... **Ne4xc3** played in game #1.\nGame #1 (mini-Chieftain, alice (White) vs bob "
        "(Black)) is over: bob (Black) wins: White has no Chieftain left (0-1).")
    said = _contents(thread, r, pieces, knight, step, stale, r1, r2, r3)
    assert not [t for t in said if FOREIGN.search(t)]


async def test_a_commander_deploy_step_by_step_with_the_menus(world, drawn):
    w = world
    thread = await _start_from(w, "commander", COMMANDER)
    r = await w.alice.slash(thread, "moves", square="e4")
    assert answer(r).content == (
        "Tank + Infantry on e4: 20 moves: `(TI)c4` `(TI)d4` `(TI)e2` `(TI)e3` `(TI)e5` "
        "`(TI)e6` `(TI)f4` `(TI)g4` `I>d4` `I>e3` `I>e5` `I>f4` `T>c4` `T>d4` `T>e2` `T>e3` "
        "`T>e5` `T>e6` `T>f4` `T>g4`")
    step = await w.alice.select(answer(r).message, ["T>e6"])
    goes_on = answer(step)
    assert goes_on.content == ("T>e6 played in game #1. Your turn goes on: send the next step, "
                               "or `/move move:end` to finish it.\nalice (Red) to move.")
    rows = [c for row in goes_on.components for c in row["components"]]
    assert [c.get("label") for c in rows if c["type"] == 2] == [
        "Legal moves", "Flip board", "Offer draw", "Resign", "End turn"]  # the game's stay
    menu = next(c for c in rows if c["type"] == 3)
    assert [o["value"] for o in menu["options"]] == ["I>d4", "I>e3", "I>e5", "I>f4"]
    done = await w.alice.select(goes_on.message, ["I>e5"])
    assert answer(done).content == (
        f"1. **T>e6,I>e5** played in game #1.\n{w.bob.mention} (Blue) to move.")
    assert marked(drawn) == [("e4", "e6"), ("e4", "e5")] and drawn[-1]["perspective"] == 1
    r2 = await w.bob.slash(thread, "move", move="end")
    assert r2.ephemeral and r2.response.content == (
        "There is no turn in progress to end in game #1: your turn has not started: send a "
        "move.")
    said = _contents(thread, r, step, done, r2)
    assert not [t for t in said if FOREIGN.search(t)]


async def test_offers_vacations_reminders_and_several_games_in_discord_words(world):
    w = world
    from bot.service.clock import DAY

    from .test_play import _start
    thread, game = await _start(w, "mini-chieftain", days=1)
    second, _ = await _start(w, "mini-chieftain", days=1)
    r1 = await w.alice.slash(thread, "draw")
    offer = thread.last_message.content
    assert offer == (f"alice offers a draw in game #1. {w.bob.mention}: accept or decline with "
                     f"the buttons, or `/draw` (`/draw decline:True`).")
    r2 = await w.bob.slash(w.channel, "draw", decline=True)  # the game with the offer
    assert r2.response.content == "bob declined alice's draw offer in game #1."
    await w.alice.slash(thread, "move", move="Md2-d3")
    await w.alice.slash(thread, "move", move="end")
    r3 = await w.alice.slash(w.channel, "board")  # Alice moves in #2 only: that one
    assert answer(r3).content.startswith("Game #2: alice (White) vs bob (Black)")
    await w.alice.slash(second, "move", move="Md2-d3")
    await w.alice.slash(second, "move", move="end")
    r3 = await w.alice.slash(w.channel, "board")
    assert r3.ephemeral and r3.response.content == (
        "Which game? You have 2 games in progress:\n"
        "• #1 alice vs bob (mini-Chieftain, bob to move): `/board game:1`\n"
        "• #2 alice vs bob (mini-Chieftain, bob to move): `/board game:2`")
    r4 = await w.bob.slash(w.channel, "vacation", days=1)
    until = int(w.clock.t + DAY)
    assert r4.response.content.startswith(
        f"You are on vacation until <t:{until}:f> (<t:{until}:R>) (1 day).")
    assert r4.response.content.endswith("send `/vacation end:True` when you return.")
    await w.bob.slash(w.channel, "vacation", end=True)
    w.clock.t += 0.9 * DAY  # past the reminder of game #2
    await w.bot.tick()
    reminder = second.last_message.content
    assert reminder.startswith(f"{w.bob.mention} Reminder: game #2 (mini-Chieftain) against "
                               f"alice waits for your move. You have ")
    assert "(until <t:" in reminder
    said = _contents(thread, r1, r2, r3, r4) + _contents(second) + [offer, reminder]
    assert not [t for t in said if FOREIGN.search(t)]


async def test_a_turn_by_dm_shows_the_board_from_the_readers_side(world, drawn):
    w = world
    thread = await _start_from(w, "mini-chieftain", CHIEFTAIN)
    await w.bob.slash(w.channel, "notify", dm=True)
    await w.alice.slash(thread, "move", move="Me3-e4")
    dm = w.bob.user.dm_channel.history()[-1]
    assert dm.content == ("alice played 1. Me3-e4 in game #1 (mini-Chieftain). Your move. "
                          "There is no clock.")
    assert dm.attachments and drawn[-1]["perspective"] == 1  # Black's side for Bob
    assert marked(drawn) == [("e3", "e4")]


async def test_a_board_asked_for_mid_deploy_keeps_the_step_menu_and_end_turn(world, drawn):
    """`/board` in the thread in the middle of a Commander deploy: the new board is the
    live one, with the next step's menu and End turn, and the deploy goes on from it."""
    w = world
    thread = await _start_from(w, "commander", COMMANDER)
    await w.alice.slash(thread, "move", move="T>e6")
    looked = answer(await w.carol.slash(thread, "board"))
    rows = [c for row in looked.components for c in row["components"]]
    assert [c.get("label") for c in rows if c["type"] == 2] == [
        "Legal moves", "Flip board", "Offer draw", "Resign", "End turn"]
    menu = next(c for c in rows if c["type"] == 3)
    assert [o["value"] for o in menu["options"]] == ["I>d4", "I>e3", "I>e5", "I>f4"]
    done = await w.alice.select(looked.message, ["I>e5"])  # the menu works
    assert answer(done).content == (
        f"1. **T>e6,I>e5** played in game #1.\n{w.bob.mention} (Blue) to move.")


async def test_the_pieces_are_named_in_the_rules_words_for_both_sides(world):
    """`/moves` offers the pieces that can move by their names (``Knight on g8``), the
    same for Black as for White, never bare letters (``n on g8``)."""
    w = world
    thread = await _start_from(w, "mini-chieftain", CHIEFTAIN)
    r = await w.alice.autocomplete(thread, "moves", "square", "")
    assert [(c["name"], c["value"]) for c in r] == [("Chieftain on d1", "d1"),
                                                    ("Man on e3", "e3")]
    await w.alice.slash(thread, "move", move="Me3-e4")
    await w.alice.slash(thread, "move", move="end")
    r = await w.bob.autocomplete(thread, "moves", "square", "kni")
    assert [(c["name"], c["value"]) for c in r] == [("Knight on g8", "g8")]


async def test_moves_of_a_waiting_players_piece_are_shown_as_if_it_were_their_turn(world,
                                                                                     drawn):
    """alice (White) is to move; bob asks for his kNight's moves to plan his answers: those
    it would have on his turn, highlighted from his side, with no menu to play them."""
    w = world
    thread = await _start_from(w, "mini-chieftain", CHIEFTAIN)
    r = await w.bob.slash(thread, "moves", square="g8")
    assert r.ephemeral and answer(r).content == (
        "It is not your turn in game #1; if it were, your Knight on g8 could make 2 moves: "
        "`Ng8-f6` `Ng8-h6`.")
    assert not answer(r).components
    assert (drawn[-1]["highlights"], drawn[-1]["selected"], drawn[-1]["perspective"]) == (
        ("f6", "h6"), "g8", 1)


async def test_which_game_names_each_game_with_the_slash_command_that_was_sent(world):
    w = world
    await _start_from(w, "mini-chieftain", CHIEFTAIN)
    await _start_from(w, "mini-chieftain", CHIEFTAIN)
    general = w.alice.guild.create_text_channel("general")
    r = await w.alice.slash(general, "resign")
    assert r.ephemeral and r.response.content == (
        "Which game? You have 2 games in progress:\n"
        "• #1 alice vs bob (mini-Chieftain, alice to move): `/resign game:1`\n"
        "• #2 alice vs bob (mini-Chieftain, alice to move): `/resign game:2`")
    r = await w.alice.slash(general, "draw")
    assert r.response.content.splitlines()[1:] == [
        "• #1 alice vs bob (mini-Chieftain, alice to move): `/draw game:1`",
        "• #2 alice vs bob (mini-Chieftain, alice to move): `/draw game:2`"]


async def test_moves_of_a_square_at_the_option_s_size_limit_is_no_point(world, drawn):
    """Discord lets an option hold 100 characters: such text is no point's name, is not
    matched, and is quoted back short."""
    w = world
    thread = await _start_from(w, "commander", COMMANDER)
    r = await w.alice.slash(thread, "moves", square="e" * 99 + "4")
    assert answer(r).content == f"No piece on {'e' * 23}… can move now in game #1."
    r = await w.alice.slash(thread, "moves", square="E4 ")  # almost right: case and a space
    assert answer(r).content.startswith("Tank + Infantry on e4: 20 moves: ")
