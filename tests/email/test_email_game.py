"""A whole game by e-mail over real SMTP on loopback: challenge, accept, moves as replies in
one thread per game with the board attached, board, export, a draw offer (refused: the
variant has none) and resignation."""

from __future__ import annotations

import re

from bot.email_gateway.inbound import ADDRESS_TAG
from engine import get_variant
from engine.chieftain import step_text

OURS = "play@games.test"

ALICE = "alice@players.test"
BOB = "bob@players.test"
FROM = {ALICE: f"Alice <{ALICE}>", BOB: f"Bob <{BOB}>"}


async def _legal(mail, game_id: int) -> str:
    game = await mail.service.game(game_id)
    assert game is not None
    return (await mail.service.legal_moves(game))[0]


async def test_a_whole_game_by_email(mail):
    text_of, png_of = mail.text_of, mail.png_of
    relay, post = mail.relay, mail.post
    answer = await mail.confirmed(FROM[ALICE], "challenge bob@players.test white 3d",
                                  subject="a game?")  # her first mail: asked back of her
    assert "Challenge #1 for bob" in text_of(answer)
    assert answer["In-Reply-To"] == post.sent[-1]["Message-ID"]
    offer = await relay.next_to(BOB)
    assert "challenges you" in text_of(offer) and "accept #1" in text_of(offer)

    await post.send(FROM[BOB], "accept #1\n\nthanks!\n-- \nBob", reply_to=offer)
    to_bob = await relay.next_to(BOB)  # the answer to Bob: the game with his key
    to_alice = await relay.next_to(ALICE)  # the game's start, with hers
    game_id = 1
    root = await mail.gateway.game_root(game_id)
    for started in (to_bob, to_alice):
        assert root in str(started["References"])
        assert png_of(started) is not None and png_of(started)[:4] == b"\x89PNG"
        assert "+1.0." in str(started["Reply-To"])  # the key: in the reply address alone
        assert ADDRESS_TAG.search(str(started["Reply-To"]))[5] not in text_of(started)
        assert "+1." not in text_of(started)
        assert started["Subject"] == "Game #1: Alice vs Bob — Clash of Command"
    assert "Alice to move" in text_of(to_alice)
    alice_tag = ADDRESS_TAG.search(str(to_alice["Reply-To"]))
    bob_tag = ADDRESS_TAG.search(str(to_bob["Reply-To"]))
    assert alice_tag and bob_tag and alice_tag[5] != bob_tag[5]
    assert alice_tag[5] not in str(to_alice["Subject"])  # the key is never in the subject

    latest = {ALICE: to_alice, BOB: to_bob}
    for mover, other in ((ALICE, BOB), (BOB, ALICE), (ALICE, BOB), (BOB, ALICE)):
        move = await _legal(mail, game_id)
        await post.send(FROM[mover], f"move {move}\n\n> quoted board text\n> resign",
                        reply_to=latest[mover])
        answer = await relay.next_to(mover)
        assert f"{move} played in game #1" in text_of(answer), text_of(answer)
        news = await relay.next_to(other)
        assert "Your move" in text_of(news) and move in text_of(news)
        assert "to move (until " in text_of(news)  # whose turn it is, and the deadline
        assert root in str(news["References"]) and png_of(news) is not None
        assert "Moves:" in text_of(news)
        latest = {mover: answer, other: news}
    game = await mail.service.game(game_id)
    assert game is not None and game.ply == 4 and len(await mail.service.played_moves(1)) == 4

    await post.send(FROM[ALICE], "board", reply_to=latest[ALICE])
    board = await relay.next_to(ALICE)
    assert "Game #1: Alice" in text_of(board) and png_of(board) is not None

    await post.send(FROM[BOB], "export #1")  # looking needs no key
    record = text_of(await relay.next_to(BOB))
    assert re.search(r"1\.", record) and "Alice" in record

    await post.send(FROM[ALICE], "draw", reply_to=latest[ALICE])
    assert "has no draws by agreement" in text_of(await relay.next_to(ALICE))  # this variant

    await post.send(FROM[BOB], "resign", reply_to=latest[BOB])
    assert "You resigned game #1" in text_of(await relay.next_to(BOB))
    over = await relay.next_to(ALICE)
    assert "is over" in text_of(over) and "wins" in text_of(over)
    assert "+1.4." in str(over["Reply-To"])  # the key still serves `export` and `board`
    game = await mail.service.game(game_id)
    assert game is not None and game.status == "over" and game.winner == 0


async def test_a_watcher_by_email_gets_every_move_without_a_key(mail):
    text_of, service = mail.text_of, mail.service
    alice = await service.player("email", ALICE, "Alice")
    bob = await service.player("email", BOB, "Bob")
    made = await service.challenges.challenge(alice, "email:mail", bob, side=0)
    await service.challenges.accept(bob, made.challenge.id)  # type: ignore[union-attr]
    await mail.gateway.deliver_outbox()
    assert "Game #1 started" in text_of(await mail.relay.next_to(ALICE))
    # a private game: watched by its watch link (its web page's), confirmed by Carol
    link = f"https://games.test/game/1-{await service.watching.watch_token(1)}"
    answer = await mail.confirmed("Carol <carol@players.test>", f"watch {link}")
    assert "You are watching game #1" in text_of(answer) and mail.png_of(answer) is not None
    assert "+" not in str(answer["Reply-To"])

    token = await service.tokens.game_token(1, alice.id)
    move = await _legal(mail, 1)
    await mail.post.send(FROM[ALICE], f"move {move}\nresign",
                         to=f"play+1.0.{token}@games.test")
    played = text_of(await mail.relay.next_to(ALICE))
    assert f"{move} played" in played and "one command per mail" in played
    copy = await mail.relay.next_to("carol@players.test")
    assert move in text_of(copy) and "You are watching this game" in text_of(copy)
    assert "+" not in str(copy["Reply-To"])
    assert await mail.gateway.game_root(1) in str(copy["References"])
    assert "challenges you" in text_of(await mail.relay.next_to(BOB))
    assert "Your move" in text_of(await mail.relay.next_to(BOB))
    assert await mail.relay.nothing_to("carol@players.test")  # once, not once per recipient


async def test_the_steps_of_a_turn_may_follow_the_first_move_one_per_line(mail):
    service = mail.service
    alice = await service.player("email", ALICE, "Alice")
    bob = await service.player("email", BOB, "Bob")
    made = await service.challenges.challenge(alice, "email:mail", bob, "micro-chieftain", side=0)
    game = (await service.challenges.accept(bob, made.challenge.id)).game  # type: ignore[union-attr]
    rules = get_variant("micro-chieftain")
    position = await service.position(game)
    turn = next(m for m in rules.legal_moves(position) if len(m.steps) >= 2)
    steps = [step_text(s) for s in turn.steps[:2]]  # a turn of several moves, one at a time
    token = await service.tokens.game_token(game.id, alice.id)
    await mail.post.send(FROM[ALICE], f"move {steps[0]}\nmove {steps[1]}\n\nthanks",
                         to=f"play+{game.id}.0.{token}@games.test")
    while "played in game" not in (answer := mail.text_of(await mail.relay.next_to(ALICE))):
        pass  # the game's start
    assert f"{steps[0]} played" in answer and f"{steps[1]} played" in answer
    assert "not read" not in answer
    assert [m.text for m in await service.played_moves(game.id)] == steps


async def test_a_waiting_player_mails_moves_of_a_piece_to_plan_an_answer(mail, game):
    """Alice (White) is to move; Bob, replying to his game's mail, asks for his Factor's
    moves: those it would have on his turn, said so, with the picture."""
    await mail.post.send(BOB, "moves b8", reply_to=game[BOB])
    answer = await mail.relay.next_to(BOB)
    assert mail.text_of(answer).split("\r\n\r\n")[0] == (
        "It is not your turn in game #1; if it were, your Factor on b8 could make 4 moves: "
        "b8-b6/D b8-b6/H b8=D b8=H.")
    assert mail.png_of(answer) is not None
