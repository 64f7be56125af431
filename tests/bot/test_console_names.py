"""Names at the console: naming a known player in another case finds them and renames no
one; a name with spaces is written in double quotes to challenge it; the words `challenge`
gives a meaning (the computer, an open challenge) are no one's names."""

from __future__ import annotations

from bot.commands import split_words


async def test_a_known_player_named_in_another_case_keeps_the_name_as_first_written(
        session, service):
    assert await session("as bob") == "You are bob."
    assert await session("as Bob") == "You are bob (the name as first written)."
    assert await session("as Alice") == "You are Alice."
    assert (await session("challenge BOB")).startswith("Challenge #1 sent to bob: ")
    bob = await service.find_player("console", "bob")
    assert bob.display_name == "bob"  # type: ignore[union-attr]


async def test_a_name_with_spaces_is_challenged_in_double_quotes(session, service):
    assert await session("as Nguyễn Văn Anh") == (
        'You are Nguyễn Văn Anh. Others challenge you with `challenge "Nguyễn Văn Anh"`.')
    assert await session("as Alice") == "You are Alice."
    answer = await session('challenge "nguyễn  văn anh" clash')
    assert answer.startswith("Challenge #1 sent to Nguyễn Văn Anh: Clash of Command")
    assert await session('as "Nguyễn Văn Anh') == (
        'You are Nguyễn Văn Anh. Others challenge you with `challenge "Nguyễn Văn Anh"`.')


async def test_the_computer_s_and_open_challenges_words_are_no_one_s_names(session, service):
    for word in ("computer", "Anyone", "bot"):
        reason = "the computer" if word != "Anyone" else "an open challenge"
        assert await session(f"as {word}") == (
            f"{word!r} cannot be a player's name here: `challenge {word.lower()}` means "
            f"{reason}. Choose another name.")
    assert await service.find_player("console", "computer") is not None
    assert [p for p in ("computer", "anyone", "bot")
            if not hasattr(await service.find_player("console", p), "reason")] == []


def test_words_in_double_quotes_are_one_word():
    assert split_words('challenge "Nguyễn   Văn Anh" clash') == [
        "challenge", "Nguyễn Văn Anh", "clash"]
    assert split_words('as "Anne Marie') == ["as", "Anne Marie"]
    assert split_words('note "" x') == ["note", "x"]
    assert split_words("b2-a3/D") == ["b2-a3/D"]
    assert split_words('"' * 2000) == []


async def test_a_name_ending_in_a_full_stop_gets_no_second_one(session):
    assert await session("as Jean-Luc.") == "You are Jean-Luc."
    assert await session("as jean-luc.") == "You are Jean-Luc. (the name as first written)."
