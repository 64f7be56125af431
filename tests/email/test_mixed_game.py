"""A mixed game: Alice plays on Discord (the real bot against SimCord), Eve by e-mail (real
SMTP on loopback), on one game service."""

from __future__ import annotations

import pytest

simcord = pytest.importorskip("simcord")
discord_bot = pytest.importorskip("bot.discord_bot")

EVE = "eve@players.test"


def _dms(member) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


async def test_a_discord_player_and_an_email_player_play_one_game(mail):
    service, relay, post = mail.service, mail.relay, mail.post
    text_of, png_of = mail.text_of, mail.png_of
    bot = discord_bot.create_bot(service, mail.settings)
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        r = await alice.slash(channel, "notify", dm=True)  # her news by DM
        assert "DM" in r.response.content

        await post.send(f"Eve <{EVE}>", "challenge alice white")
        assert "Challenge #1 sent to alice" in text_of(await relay.next_to(EVE))
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
