"""A name is shown as its owner wrote it: on Discord, the markdown in a display name
(``*star*``, ``__x__``, ``~~y~~``, a backtick) is escaped wherever the bot writes the name
in a message, so it is neither bold, underlined, struck out nor code; a mention still
pings. A thread's name or a button's label reads no markdown, and keeps the name as it
is, as do the console's, the mail's and the web's words."""

from __future__ import annotations

from bot.i18n import render
from bot.service.tournaments import standings_text


def _now(channel, message):
    return next(m for m in channel.history() if m.id == message.id)


def _thread(w, name: str):
    return next(t for t in w.channel.threads if t.name == name)


STAR, UNDER, STRIKE = r"\*star\*", r"\_\_x\_\_", r"\~\~y\~\~"


async def _members(w):
    guild = w.alice.guild
    return [guild.add_member(w.env.create_user(name)) for name in ("*star*", "__x__", "~~y~~")]


async def test_a_tournaments_posts_standings_and_games_show_names_literally(world):
    w = world
    star, under, strike = await _members(w)
    r = await star.slash(w.channel, "tournament create", variant="clash", name="Spring", days=3)
    post = _now(w.channel, r.response)
    for member in (star, under, strike):
        await member.click(post, label="Join")
    assert _now(w.channel, post).content.split("\n")[1:4] == [
        f"3 players: {STAR}, {UNDER}, {STRIKE}.",
        "Sign up with the Join button or `/tournament join tournament:1`.",
        f"{STAR} starts it with `/tournament start tournament:1`."]
    await star.slash(w.channel, "tournament start", tournament=1)
    thread = _thread(w, "T1 Spring")
    games = [_thread(w, name) for name in ("#1 __x__ vs ~~y~~ (Clash of Command)",
                                           "#2 *star* vs __x__ (Clash of Command)",
                                           "#3 ~~y~~ vs *star* (Clash of Command)")]
    said = [m.content for m in thread.history()]
    assert said[:3] == [f"{STAR} joined tournament T1 (1 player).",
                        f"{UNDER} joined tournament T1 (2 players).",
                        f"{STRIKE} joined tournament T1 (3 players)."]
    assert said[4] == (f"{star.mention} Tournament T1: your games have started (3 days per "
                       f"move): game #2 against {UNDER}, you play White; game #3 against "
                       f"{STRIKE}, you play Black.")
    assert said[-1] == (f"Game #1: {UNDER} – {STRIKE} <#{games[0].id}>\n"
                        f"Game #2: {STAR} – {UNDER} <#{games[1].id}>\n"
                        f"Game #3: {STRIKE} – {STAR} <#{games[2].id}>")
    deadline = int((await w.service.game(1)).clock.deadline)
    assert games[0].history()[0].content == (
        f"Game #1: {UNDER} (White) vs {STRIKE} (Black), Clash of Command. Type your moves "
        f"here, or use `/move`.\n{under.mention} (White) to move, by <t:{deadline}:f> "
        f"(<t:{deadline}:R>).")

    r = await star.slash(w.channel, "tournament standings", tournament=1)
    shown = r.followups[-1] if r.followups else r.response
    assert shown.content.split("\n")[1:] == [f"1=. {STAR}: 0 (DE –, SB 0, Wins 0)",
                                             f"1=. {UNDER}: 0 (DE –, SB 0, Wins 0)",
                                             f"1=. {STRIKE}: 0 (DE –, SB 0, Wins 0)"]
    r = await star.slash(w.channel, "tournament pairings", tournament=1)
    assert r.response.content.split("\n")[1] == f"1. {UNDER} – {STRIKE} (game #1): in play"

    await under.slash(games[0], "resign", game=1)
    assert thread.last_message.content == (
        f"Tournament T1: game #1 <#{games[0].id}>, {UNDER} – {STRIKE}: 0-1.")

    # elsewhere no markdown is read: the names as they were written
    table = await w.service.tournaments.table(1)
    assert standings_text(table).split("\n")[1] == "1. ~~y~~: 1 (DE –, SB 0, Wins 1)"
    assert render(standings_text(table), "vi").split("\n")[1].startswith("1. ~~y~~: 1")


async def test_a_challenge_and_its_game_show_names_literally(world):
    w = world
    star = (await _members(w))[0]
    tick = w.alice.guild.add_member(w.env.create_user("a`b"))
    r = await star.slash(w.channel, "challenge", opponent=tick, variant="clash")
    expires = int(w.clock.t + 7 * 86_400)  # a challenge stands a week
    assert r.response.content == (
        r"Challenge #1 sent to a\`b: Clash of Command, no clock, side chosen at random, "
        f"rated. It expires <t:{expires}:f> (<t:{expires}:R>).\n{tick.mention}, you are "
        "challenged: press Accept, or `/accept challenge:1`.")
    r = await tick.slash(w.channel, "accept", challenge=1)
    white, black = (await w.service.game(1)).names  # sides are drawn by lot
    game = _thread(w, f"#1 {white} vs {black} (Clash of Command)")
    shown = {"a`b": r"a\`b", "*star*": STAR}
    answer = r.followups[-1] if r.followups else r.response
    assert answer.content == (
        f"Challenge #1 accepted. Game #1 started: {shown[white]} (White) vs {shown[black]} "
        f"(Black), Clash of Command, no clock. {shown[white]} (White) moves first.\n"
        f"Play in <#{game.id}>.")
    assert game.history()[0].content.startswith(
        f"Game #1: {shown[white]} (White) vs {shown[black]} (Black), Clash of Command. Type "
        "your moves here")
