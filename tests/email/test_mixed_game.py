"""A mixed game: Alice plays on Discord (the real bot against SimCord), Eve by e-mail (real
SMTP on loopback), on one game service."""

from __future__ import annotations

import pytest

from .conftest import asked

simcord = pytest.importorskip("simcord")
discord_bot = pytest.importorskip("bot.discord_bot")

EVE = "eve@players.test"


def _dms(member) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


async def test_a_discord_player_and_an_email_player_play_one_game(mail):
    service, relay, post = mail.service, mail.relay, mail.post
    text_of, png_of = mail.text_of, mail.png_of
    bot = discord_bot.create_bot(service, mail.settings)
    async with simcord.run(bot, shard_count=1) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        r = await alice.slash(channel, "notify", dm=True)  # her news by DM
        assert "DM" in r.response.content

        answer = await mail.confirmed(f"Eve <{EVE}>", "challenge alice white")
        assert "Challenge #1 sent to alice" in text_of(answer)
        await bot.flush()
        assert any("Eve challenges you" in m for m in _dms(alice))

        r = await alice.slash(channel, "accept", challenge=1)
        assert "Game #1 started" in (r.followups[0].content if r.followups
                                     else r.response.content)
        await mail.gateway.deliver_outbox()  # at once, not at the next poll of the outbox
        started = await relay.next_to(EVE)
        assert "Eve to move" in text_of(started) and png_of(started) is not None

        latest = started
        for k in range(4):
            game = await service.game(1)
            move = (await service.legal_moves(game))[0]
            if k % 2 == 0:  # Eve, by replying to her latest mail
                await post.send(f"Eve <{EVE}>", f"move {move}", reply_to=latest)
                assert f"{move} played in game #1" in text_of(await relay.next_to(EVE))
                await bot.flush()
                assert any(move in m and "Your move" in m for m in _dms(alice))
            else:  # Alice, on Discord
                r = await alice.slash(channel, "move", move=move, game=1)
                assert not r.ephemeral, r.response.content
                await mail.gateway.deliver_outbox()
                latest = await relay.next_to(EVE)
                assert move in text_of(latest) and "Your move" in text_of(latest)
                assert png_of(latest) is not None
        game = await service.game(1)
        assert game.ply == 4 and game.transports == ("email", "discord")

        await post.send(f"Eve <{EVE}>", "resign", reply_to=latest)
        assert "You resigned game #1" in text_of(await relay.next_to(EVE))
        await bot.flush()
        assert any("is over" in m for m in _dms(alice))
        bot.scheduler.cancel()


async def test_a_discord_player_hears_of_an_email_players_moves_without_asking(mail):
    """A game started by an e-mail challenge has no Discord thread: its Discord player gets
    the opponent's moves by DM, with the board, though she never chose DMs."""
    service, relay, post = mail.service, mail.relay, mail.post
    bot = discord_bot.create_bot(service, mail.settings)
    async with simcord.run(bot, shard_count=1) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        await alice.slash(channel, "games")  # she is known to the service, with no DMs chosen

        await mail.confirmed(f"Eve <{EVE}>", "challenge alice white")
        await bot.flush()
        assert any("Eve challenges you" in m for m in _dms(alice))
        r = await alice.slash(channel, "accept", challenge=1)
        reply = r.followups[0].content if r.followups else r.response.content
        assert "their moves come to you by DM" in reply
        await mail.gateway.deliver_outbox()
        started = await relay.next_to(EVE)

        game = await service.game(1)
        move = (await service.legal_moves(game))[0]
        await post.send(f"Eve <{EVE}>", f"move {move}", reply_to=started)
        await relay.next_to(EVE)
        await bot.flush()
        last = alice.user.dm_channel.history()[-1]
        assert move in last.content and "Your move" in last.content
        assert last.attachments and last.attachments[0].filename.endswith(".png")
        assert not channel.history() or all(move not in m.content for m in channel.history()
                                            if m.author.bot)
        bot.scheduler.cancel()


async def test_an_open_discord_challenge_accepted_by_mail_gets_its_thread(mail):
    """An open challenge in a Discord channel, accepted by e-mail: the game gets its own
    thread (opened with the board, the Discord player told there), the e-mail player's
    moves are posted there with the board and the buttons, and the Discord player types
    moves there; the channel itself gets no game news."""
    service, relay, post = mail.service, mail.relay, mail.post
    bot = discord_bot.create_bot(service, mail.settings)
    async with simcord.run(bot, shard_count=1) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        r = await alice.slash(channel, "challenge", variant="clash", side=1)
        assert not r.ephemeral, r.response.content
        before = len(channel.history())
        await post.send(f"Eve <{EVE}>", "accept #1")
        asking = await relay.next_to(EVE)  # From alone is no proof: asked back of her address
        assert mail.text_of(asking) == await asked(mail, EVE, "`accept #1`")
        assert await service.game(1) is None
        await post.send(f"Eve <{EVE}>", "yes", reply_to=asking)
        started = await relay.next_to(EVE)
        assert "Game #1 started" in mail.text_of(started), mail.text_of(started)
        await bot.flush()
        thread = channel.threads[-1]
        game = await service.game(1)
        assert game.place.endswith(f"/{thread.id}")
        said = thread.history()
        assert said[0].content.startswith("Game #1: Eve (White) vs alice (Black), Clash of "
                                          "Command. Type your moves here, or use `/move`.")
        assert said[0].attachments
        assert said[1].content.startswith(f"{alice.mention} Game #1 started")
        assert not [m for m in channel.history()[before:] if "Game #1 started" in m.content]

        move = (await service.legal_moves(game))[0]
        await post.send(f"Eve <{EVE}>", f"move {move}", reply_to=started)
        await relay.next_to(EVE)
        await bot.flush()
        last = thread.history()[-1]
        assert alice.mention in last.content and move in last.content
        assert last.attachments and last.components  # the live board
        answer = (await service.legal_moves(await service.game(1)))[0]
        r = await alice.slash(thread, "move", move=answer)
        assert not r.ephemeral, r.response.content
        assert (await service.game(1)).ply == 2
        bot.scheduler.cancel()
