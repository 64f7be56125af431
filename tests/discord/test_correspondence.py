"""Notes and conditional moves on Discord: answered to their author alone; the opponent
and watchers never see them, in the thread or anywhere else."""

from __future__ import annotations

from .test_play import _start


def _seen_by(w, viewer) -> str:
    """Every message of the games channel and its threads that ``viewer`` can see."""
    channels = [w.channel, *w.channel.threads]
    return "\n".join(m.content for c in channels for m in c.history(viewer=viewer))


async def test_a_note_is_seen_by_its_author_only(world):
    thread, game = await _start(world)
    r = await world.alice.slash(thread, "note", text="the left flank is weak")
    assert r.ephemeral
    assert r.response.content == "Note kept on game #1 (only you see it)."
    r = await world.alice.slash(thread, "note")
    assert r.ephemeral and r.response.content == (
        "Your notes (only you see them):\n"
        "  after step 0 (<t:1772452800:f>): the left flank is weak")
    r = await world.alice.slash(thread, "board")
    assert "left flank" not in r.response.content
    assert [(f.ephemeral, "left flank" in f.content) for f in r.followups] == [(True, True)]
    r = await world.bob.slash(thread, "board")
    assert not any("left flank" in f.content for f in [r.response, *r.followups])
    r = await world.bob.slash(thread, "note")
    assert r.response.content == "You have no notes on game #1."
    r = await world.carol.slash(thread, "note", text="spy")
    assert r.ephemeral and r.response.content == "Only the players of game #1 keep notes on it."
    for watcher in (world.bob, world.carol):
        assert "left flank" not in _seen_by(world, watcher)
    assert "left flank" in _seen_by(world, world.alice)
