"""Choosing a language at the console (and by mail, whose commands are the same): the
`language` command, the system's language as the default, answers and news worded in each
reader's own language. Vietnamese is not offered to readers yet; `offered` offers it."""

from __future__ import annotations

import pytest

from bot import i18n


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_language_command_says_which_languages_are_offered(not_offered, session):
    i18n.shipped.cache_clear()
    offered = "Languages offered: English (en)."
    for line, answer in [
            ("language", f"Your language: English (en). {offered}"),
            ("language vi", f"Tiếng Việt (vi) is not offered yet: its words are being "
                            f"translated. {offered}"),
            ("language xx", f"'xx' is no language I know. {offered}")]:
        assert await session(line) == answer
    assert (await session("language vi en")).startswith("`language` does not take 'en'. ")


@pytest.mark.sqlite_only(reason="console words only")
async def test_a_player_who_chooses_vietnamese_reads_vietnamese_and_the_other_english(
        session, offered):
    assert await session("language vi") == "Từ nay ngôn ngữ của bạn là Tiếng Việt (vi)."
    assert await session("language") == (
        "Ngôn ngữ của bạn: Tiếng Việt (vi). Các ngôn ngữ hiện có: English (en), "
        "Tiếng Việt (vi).")
    await session("challenge bob 3d white")
    await session("as bob")
    await session("accept")
    await session("as Alice")
    said = await session("b2-a3/D")
    assert said.startswith("Đã đi 1. b2-a3/D trong ván #1. Đến lượt bob (Đen).\n")
    # bob's news, printed at the same keyboard, is in bob's language
    assert "  [to bob] Alice played 1. b2-a3/D in game #1 (Clash of Command). Your move." \
        in said


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_systems_language_is_the_default_and_a_choice_wins_over_it(
        session, offered):
    session.console.commands.language = "vi_VN.UTF-8"  # LANG
    assert await session("language") == (
        "Ngôn ngữ của bạn: Tiếng Việt (vi). Các ngôn ngữ hiện có: English (en), "
        "Tiếng Việt (vi).")
    assert await session("language en") == "Your language is now English (en)."
    assert await session("language") == (
        "Your language: English (en). Languages offered: English (en), Tiếng Việt (vi).")


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_rules_are_read_in_the_players_language(session, offered):
    english = await session("rules commander")
    assert english.startswith("COMMANDER CHESS (CỜ TƯ LỆNH)\n")
    await session("language vi")
    vietnamese = await session("rules commander")
    assert vietnamese.startswith("CỜ TƯ LỆNH (COMMANDER CHESS)\n"), vietnamese[:80]
    assert "docs/rules/vi/commander.md" in vietnamese
    assert "Tư lệnh" in await session("rules commander tư lệnh")
