"""Notes and conditional moves by e-mail over real SMTP: answered to their author alone;
the opponent and a watcher by e-mail never read them; a recorded answer is played at once."""

from __future__ import annotations

ALICE = "alice@players.test"
BOB = "bob@players.test"
CAROL = "carol@players.test"


async def test_notes_and_conditional_moves_by_mail(mail):
    text_of, service, relay, post = mail.text_of, mail.service, mail.relay, mail.post
    alice = await service.player("email", ALICE, "Alice")
    bob = await service.player("email", BOB, "Bob")
    made = await service.challenges.challenge(alice, "email:mail", bob, side=0)
    await service.challenges.accept(bob, made.challenge.id)  # type: ignore[union-attr]
    await mail.gateway.deliver_outbox()
    await relay.next_to(ALICE)
    await relay.next_to(BOB)
    await mail.confirmed(f"Carol <{CAROL}>", f"watch 1-{await service.watching.watch_token(1)}")

    async def key_of(player) -> str:  # the player's key of the move number now
        ply = (await service.game(1)).ply
        return f"play+1.{ply}.{await service.tokens.game_token(1, player.id)}@games.test"

    await post.send(f"Alice <{ALICE}>", "b2-a3/D", to=await key_of(alice))
    await relay.next_to(ALICE)
    assert "Your move" in text_of(await relay.next_to(BOB))
    keyed = await key_of(alice)
    await post.send(f"Alice <{ALICE}>", "note the left flank is weak", to=keyed)
    assert text_of(await relay.next_to(ALICE)).startswith(
        "Note kept on game #1 (only you see it).")
    await post.send(f"Alice <{ALICE}>", "if h8-i7/D then a3-b4/D", to=keyed)
    assert text_of(await relay.next_to(ALICE)).startswith(
        "Conditional line recorded in game #1: if h8-i7/D then a3-b4/D. Only you see it "
        "until it is played.")
    await post.send(f"Alice <{ALICE}>", "if h8-i7/D then a3-a9/D", to=keyed)
    assert text_of(await relay.next_to(ALICE)).startswith("a3-a9/D is not a legal move here")

    await post.send(f"Bob <{BOB}>", "h8-i7/D", to=await key_of(bob))
    # the answer to Bob's mail and the news of Alice's move travel in lanes of their own
    mails = sorted([text_of(await relay.next_to(BOB)) for _ in range(2)],
                   key=lambda text: not text.startswith("1... "))
    assert mails[0].startswith("1... h8-i7/D played in game #1. Alice (White) is to move. "
                               "Alice answered at once with a3-b4/D, a conditional move. Your "
                               "move.")
    assert mails[1].startswith("Alice played 2. a3-b4/D (a conditional move) in game #1 "
                               "(Clash of Command). Your move.")
    told = text_of(await relay.next_to(ALICE))
    assert told.startswith("Bob played h8-i7/D in game #1 (Clash of Command); your "
                           "conditional move a3-b4/D was played in answer.")
    await post.send(f"Bob <{BOB}>", "board #1")
    assert "left flank" not in text_of(await relay.next_to(BOB))
    seen = []
    while not await relay.nothing_to(CAROL):
        seen.append(text_of(await relay.next_to(CAROL)))
    await post.send(f"Carol <{CAROL}>", "export #1")
    seen.append(text_of(await relay.next_to(CAROL)))
    assert not any("left flank" in t or "Conditional line" in t for t in seen)
    await post.send(f"Alice <{ALICE}>", "export #1")
    assert "; Note after 1." in text_of(await relay.next_to(ALICE))
