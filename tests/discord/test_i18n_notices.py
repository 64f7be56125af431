"""The Discord bot in Vietnamese: the answers of the information, server and notes
commands in the user's client language, a DM in the language its reader chose whoever
sent the news, a game thread's posts in its server's language; and, in the
pseudo-language, no English word of these parts that bypasses the catalogue."""

from __future__ import annotations

import discord
import pytest
import simcord.interactions

from bot import i18n
from bot.service import answers, outbox

from .test_delivery import _refuse_posts_in, _reminders_due
from .test_owed_answers import _after_the_restart, _dies_before_replying
from .test_play import _start


@pytest.fixture
def clients(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """The locale of each user's Discord client, by user id (others: English)."""
    locales: dict[int, str] = {}
    made = simcord.interactions.base_payload

    def with_locale(*args, **kwargs):
        record, payload = made(*args, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return locales


@pytest.fixture
def vietnamese(world, clients, moderator, offered):
    """alice, bob, carol and the moderator use Discord in Vietnamese."""
    for member in (world.alice, world.bob, world.carol, moderator):
        clients[member.id] = "vi"


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch, vietnamese):
    """Whoever would be answered in Vietnamese is answered in the pseudo-language."""
    choose = i18n.choose

    def pseudo_for_vietnamese(*wishes, among=None):
        chosen = choose(*wishes, among=among)
        return i18n.PSEUDO if chosen == "vi" else chosen

    monkeypatch.setattr(i18n, "choose", pseudo_for_vietnamese)


def _dms(member) -> list[discord.Message]:
    return member.user.dm_channel.history()


async def _said(member, where, name: str, /, **options) -> str:
    r = await member.slash(where, name, **options)
    return r.response.content


# --- answers in the user's language ---------------------------------------------------
async def test_help_answers_in_vietnamese(world, vietnamese):
    assert await _said(world.carol, world.channel, "help", command="mvoe") == (
        "Không có lệnh `/mvoe`. `/help` liệt kê các lệnh.")
    assert await _said(world.carol, world.channel, "help", command="resign") == (
        "`/resign`: Đầu hàng một ván.\nTùy chọn:\n• `game` (không bắt buộc): Số của ván "
        "(mặc định: ván ở đây, hoặc ván duy nhất của bạn)")
    r = await world.carol.slash(world.channel, "help")
    listed = "\n".join([r.response.content, *[m.content for m in r.followups]]).split("\n")
    assert listed[0] == ("Các lệnh (`/help command:NAME` giải thích từng lệnh; trong chủ đề "
                         "của ván, bạn cũng có thể gõ nước đi thành một tin nhắn):")
    assert "`/unwatch`: Thôi theo dõi một ván." in listed


async def test_settings_and_notifications_answer_in_vietnamese(world, vietnamese):
    assert await _said(world.carol, world.channel, "notify") == (
        "Bạn nhận thông báo trong chủ đề của các ván; bạn không nhận bản tin hằng ngày.")
    assert await _said(world.carol, world.channel, "notify", dm=True, digest=True) == (
        "Từ giờ bạn nhận thông báo qua tin nhắn riêng. Bạn sẽ nhận tin tổng hợp hằng ngày về "
        "các ván đang chờ bạn đi.")
    assert await _said(world.carol, world.channel, "settings") == (
        "Tôi nhắc đến bạn: theo máy chủ (`/settings pings:` để tự chọn): mặc định, khi có "
        "tin về nước đi của đối thủ, lời đề nghị và lời nhắc.")
    assert await _said(world.carol, world.channel, "settings", pings="none") == (
        "Tôi nhắc đến bạn: không bao giờ (chỉ ghi tên bạn).")


async def test_server_commands_answer_in_vietnamese(world, vietnamese, moderator):
    assert await _said(moderator, world.channel, "server settings") == (
        "Cài đặt máy chủ:\nKênh chơi cờ: nơi dùng lệnh /challenge\nBiến thể: tất cả\n"
        "Thời gian mỗi nước: không tính giờ\nHình bàn cờ: cổ điển\nNhắc tên: tất cả\n"
        "Ngôn ngữ: English (en)")
    assert await _said(moderator, world.channel, "server check") == (
        "Chưa đặt kênh chơi cờ (`/server settings channel:`); ván đấu bắt đầu ở nơi dùng "
        "lệnh /challenge. Những việc tôi được làm trong từng kênh:\n"
        f"<#{world.channel.id}>: sẵn sàng cho ván đấu (có đủ mọi quyền cần thiết).")
    assert await _said(moderator, world.channel, "server ruling", game=99, ruling="draw") == (
        "Không có ván #99 nào trên máy chủ này.")


async def test_notes_and_conditional_moves_answer_in_vietnamese(world, vietnamese):
    thread, game = await _start(world)
    assert await _said(world.alice, thread, "note") == "Bạn chưa có ghi chú nào về ván #1."
    assert await _said(world.alice, thread, "forecast", show=True) == (
        "Bạn không có nước đi có điều kiện nào trong ván #1.")
    assert await _said(world.carol, world.channel, "watch", game=game.id) == (
        f"Bạn đang theo dõi ván #1. Hãy theo dõi ván trong <#{thread.id}>.")


async def test_an_english_client_is_answered_in_english_as_before(world, clients, offered):
    assert await _said(world.carol, world.channel, "notify") == (
        "Your notifications come in the games' threads; you get no digest.")


# --- news in its reader's language -------------------------------------------------------
async def test_a_dm_goes_out_in_the_language_its_reader_chose(world, clients, offered):
    """bob chose Vietnamese and takes his news by DM; alice plays in English."""
    assert await _said(world.bob, world.channel, "settings", language="vi") == (
        "Your language is now Tiếng Việt (vi). I mention you: as the server decides "
        "(`/settings pings:` chooses for you): by default, news of your opponents' moves, "
        "offers and reminders.")  # his client is English: the answer is, too
    await world.bob.slash(world.channel, "notify", dm=True)
    thread, game = await _start(world)
    r = await world.alice.slash(thread, "move", move="b2-a3/D")
    assert r.response.content.startswith("1. **b2-a3/D** played in game #1.\n")
    deadline = int((await world.service.game(game.id)).clock.deadline)
    assert _dms(world.bob)[-1].content == (
        "alice đã đi 1. b2-a3/D trong ván #1 (Đại chiến Chỉ huy). Đến lượt bạn. Bạn còn "
        f"3 ngày (đến <t:{deadline}:f> (<t:{deadline}:R>)).")
    assert not _dms(world.alice)


async def test_a_threads_posts_are_in_the_servers_language(world, clients, offered, moderator):
    await moderator.slash(world.channel, "server settings", language="vi")
    thread, game = await _start(world)  # alice and bob use Discord in English
    assert thread.name == "#1 alice đấu bob (Đại chiến Chỉ huy)"
    opening = thread.history()[0].content
    assert opening == (
        "Ván #1: alice (Trắng) đấu với bob (Đen), Đại chiến Chỉ huy. Hãy gõ nước đi của bạn "
        "tại đây, hoặc dùng `/move`.\n"
        f"Đến lượt {world.alice.mention} (Trắng), hạn chót <t:1772712000:f> (<t:1772712000:R>).")


async def test_the_posts_owed_after_a_restart_are_in_the_servers_language(
        world, clients, offered, moderator, monkeypatch):
    """A move's board and a challenge's announcement, posted by delivery after the reply
    that would have made them died: in the server's language, as the reply's post is."""
    await moderator.slash(world.channel, "server settings", language="vi")
    thread, game = await _start(world)
    move = (await world.service.legal_moves(game))[0]
    _dies_before_replying(world, monkeypatch)
    await world.alice.slash(thread, "move", move=move)
    await world.bob.slash(world.channel, "challenge", opponent=world.alice, variant="clash")
    before = len(thread.history()), len(world.channel.history())
    await _after_the_restart(world, monkeypatch)
    deadline = int((await world.service.game(game.id)).clock.deadline)
    [board] = thread.history()[before[0]:]
    assert board.content == (
        f"alice đã đi **1. {move}** trong ván #1.\nĐến lượt {world.bob.mention} (Đen), "
        f"hạn chót <t:{deadline}:f> (<t:{deadline}:R>).")
    [announced] = world.channel.history()[before[1]:]
    assert announced.content == (
        f"bob thách đấu {world.alice.mention} một ván Đại chiến Chỉ huy (lời thách đấu #2): "
        "bấm Nhận lời, hoặc `/accept challenge:2`.")
    assert [c.label for row in announced.components for c in row.children] == [
        "Nhận lời", "Từ chối"]


async def test_why_a_player_cannot_be_reached_is_said_in_the_readers_language(
        world, clients, offered):
    """Discord's refusal, as the DM telling bob (who chose Vietnamese) that alice cannot
    be reached gives it; Discord's own words (its error's text) stay as Discord said them."""
    thread, game = await _start(world)
    bob = await world.service.player("discord", str(world.bob.id), "bob")
    await world.service.set_preference(bob, i18n.LANGUAGE, "vi")
    _refuse_posts_in(world, thread)
    await _reminders_due(world)
    for _ in range(outbox.TRIES_WHEN_REFUSED - 1):
        world.clock.t += outbox.LONGEST_WAIT * 2
        await world.bot.tick()
    deadline = int((await world.service.game(game.id)).clock.deadline)
    assert _dms(world.bob)[-1].content == (
        "Không thể liên lạc với alice trên Discord (Discord từ chối: 403 Missing Permissions); "
        f"đồng hồ của họ vẫn chạy: họ sẽ thua vì hết giờ lúc <t:{deadline}:f> nếu không đi."
    )  # the time as a Discord timestamp, shown in the reader's time zone, as in English


def test_a_moment_written_in_vietnamese_is_shown_as_a_discord_timestamp():
    from bot.discord_bot.notifier import discord_times

    t = 1798664820  # 2026-12-30 21:07 UTC
    assert i18n.format_moment(t, "vi") == "21:07 UTC 30/12/2026"
    assert discord_times(f"lúc {i18n.format_moment(t, 'vi')}; {i18n.format_moment(t)}.") == (
        f"lúc <t:{t}:f>; <t:{t}:f>.")
    assert discord_times("lúc 25:07 UTC 30/2/2026, 2026-02-30 21:07 UTC") == (
        "lúc 25:07 UTC 30/2/2026, 2026-02-30 21:07 UTC")  # no such moments: left as written


async def test_a_language_not_offered_is_refused_as_a_servers_language(not_offered, world,
                                                                      moderator):
    i18n.shipped.cache_clear()
    assert await _said(moderator, world.channel, "server settings", language="vi") == (
        "Tiếng Việt (vi) is not offered yet: its words are being translated.")


# --- the pseudo-language: nothing of these parts bypasses the catalogue ------------------
async def test_no_english_bypasses_the_catalogue_in_these_commands(world, pseudo, moderator):
    thread, game = await _start(world)
    replies = [
        await _said(world.carol, world.channel, "help", command="mvoe"),
        await _said(world.carol, world.channel, "help", command="resign"),
        await _said(world.carol, world.channel, "notify"),
        await _said(world.carol, world.channel, "notify", dm=False, digest=False),
        await _said(world.carol, world.channel, "settings"),
        await _said(world.carol, world.channel, "settings", pings="turns"),
        await _said(moderator, world.channel, "server settings", days=3),
        await _said(moderator, world.channel, "server check"),
        await _said(moderator, world.channel, "server ruling", game=99, ruling="draw"),
        await _said(world.alice, thread, "note"),
        await _said(world.alice, thread, "forecast", show=True),
        await _said(world.carol, world.channel, "watch", game=game.id),
    ]
    # the names of the players, variants and languages are values, never words
    names = ["alice", "bob", "carol", "clash", "English"]
    assert [i18n.untranslated(text, allowed=names) for text in replies] == [[]] * len(replies)


async def test_no_english_bypasses_the_catalogue_in_news_and_offers(world, pseudo, moderator):
    await moderator.slash(world.channel, "server settings", language="vi")
    await world.bob.slash(world.channel, "notify", dm=True)
    bob = await world.service.player("discord", str(world.bob.id), "bob")
    await world.service.set_preference(bob, i18n.LANGUAGE, "vi")
    thread, game = await _start(world)
    await world.alice.slash(thread, "move", move="b2-a3/D")
    r = await world.alice.slash(thread, "takeback")
    news = [thread.history()[0].content, _dms(world.bob)[-2].content,
            _dms(world.bob)[-1].content, r.response.content]
    names = ["alice", "bob"]  # the players
    assert [i18n.untranslated(text, allowed=names) for text in news] == [[], [], [], []]


async def test_a_confirmation_owed_after_a_restart_is_in_the_language_its_reader_chose(
        world, clients, offered):
    thread, game = await _start(world)
    alice = await world.service.player("discord", str(world.alice.id), "alice")
    await world.service.set_preference(alice, i18n.LANGUAGE, "vi")
    move = (await world.service.legal_moves(game))[0]
    with pytest.MonkeyPatch.context() as dying:  # the process dies before its reply
        async def dies(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the process died")

        for name in ("reply", "send_board", "send_move", "move_message"):
            dying.setattr(world.bot, name, dies)
        await world.alice.slash(thread, "move", move=move)
    world.env._errors.clear()  # the failure is the point here
    await world.restart()
    world.clock.t += answers.HOLD + 1
    await world.bot.flush()
    assert _dms(world.alice)[-1].content == (
        "Nước đi của bạn trong ván #1 đã được thực hiện, nhưng câu trả lời của tôi bị mất "
        "(tôi vừa khởi động lại). `/board game:1` cho xem ván đấu hiện giờ.")
