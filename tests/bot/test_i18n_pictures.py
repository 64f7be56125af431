"""The pictures' words in the reader's language: the clocks and deadline a picture shows,
the words every transport's picture options carry, the lines the Discord bot sends with a
picture, and the command line's pictures (the English words stay exactly as they were)."""

from __future__ import annotations

import pytest

from bot.cli import render as render_cli
from bot.discord_bot import pictures as discord_pictures
from bot.i18n import PSEUDO, render, untranslated
from bot.pictures import game_info, picture_options, picture_words, write_png
from engine import get_variant
from renderer import render as draw


async def test_the_clocks_and_deadline_are_worded_in_the_readers_language(
        service, alice, bob, start_game, clock):
    game = await start_game(alice, bob, days=3, variant="commander")
    played = await service.played_moves(game.id)
    english = game_info(game, played, now=clock())
    assert (english.deadline, english.clocks) == (
        "until 2026-03-05 12:00 UTC", ("3 days left", "3 days per move"))
    vietnamese = game_info(game, played, now=clock(), language="vi")
    assert (vietnamese.deadline, vietnamese.clocks) == (
        "hạn chót 12:00 UTC 5/3/2026", ("còn 3 ngày", "3 ngày mỗi nước"))


async def test_a_paused_clock_says_so_in_vietnamese(service, alice, bob, start_game, clock):
    game = await start_game(alice, bob, days=3, variant="commander")
    assert (await service.vacations.start(alice)).ok
    game = await service.game(game.id)
    assert game.clock.paused
    info = game_info(game, await service.played_moves(game.id), now=clock(), language="vi")
    assert info.clocks[0] == "đồng hồ tạm dừng: đang nghỉ"


async def test_every_transports_picture_options_carry_the_readers_words(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, days=3, variant="commander")
    _position, english = await picture_options(service, game)
    assert english["words"] == picture_words(get_variant("commander"))
    assert english["words"].variant == "Commander Chess (Cờ Tư Lệnh)"
    assert english["words"].pieces == ()  # the letters are the English names' initials
    _position, options = await picture_options(service, game, language="vi")
    words = options["words"]
    assert (words.variant, words.sides, words.to_move) == ("Cờ Tư Lệnh", ("Đỏ", "Xanh"),
                                                           "Đến lượt {mover}")
    assert [name for _letter, name in words.pieces] == [
        "Tư lệnh", "Sở chỉ huy", "Bộ binh", "Dân quân", "Xe tăng", "Công binh", "Pháo binh",
        "Pháo phòng không", "Tên lửa", "Không quân", "Hải quân"]
    assert [letter for letter, _name in words.pieces] == list("CHIMTEAGSFN")
    assert options["info"].clocks[1] == "3 ngày mỗi nước"


async def test_the_result_banner_is_worded_in_the_readers_language(service, alice, bob,
                                                                     start_game):
    game = await start_game(alice, bob, variant="commander")
    await service.resign(bob, game.id)
    game = await service.game(game.id)
    _position, english = await picture_options(service, game)
    _position, options = await picture_options(service, game, language="vi")
    assert english["result"] == render(service.describe_result(game), "en")
    assert options["result"] == render(service.describe_result(game), "vi")
    assert options["result"].startswith("Alice (") and " thắng: " in options["result"]


async def test_the_discord_lines_beside_a_picture_are_catalogue_messages(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, days=3, variant="commander")
    line = discord_pictures.status_line(service, game, ("<@1>", "<@2>"))
    t = int(game.clock.deadline)
    assert line == f"<@1> (Red) to move, by <t:{t}:f> (<t:{t}:R>)."
    assert line.render("vi") == f"Đến lượt <@1> (Đỏ), hạn chót <t:{t}:f> (<t:{t}:R>)."
    header = discord_pictures.header(game)
    assert header == "Game #1: Alice (Red) vs Bob (Blue), Commander Chess (Cờ Tư Lệnh)"
    assert header.render("vi") == "Ván #1: Alice (Đỏ) đấu với Bob (Xanh), Cờ Tư Lệnh"
    assert untranslated(header.render(PSEUDO), allowed=["Alice", "Bob"]) == []
    assert untranslated(line.render(PSEUDO)) == []


async def test_an_untimed_game_says_only_whose_turn_it_is(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    line = discord_pictures.status_line(service, game, ("<@1>", "<@2>"))
    assert (line, line.render("vi")) == ("<@1> (White) to move.", "Đến lượt <@1> (Trắng).")


def test_a_picture_file_is_drawn_in_the_readers_language(tmp_path):
    variant = get_variant("commander")
    position = variant.start_position()
    written, _note = write_png(position, tmp_path / "vi.png", language="vi", size=400)
    assert written == tmp_path / "vi.png"
    assert written.read_bytes() == draw(position, size=400, words=picture_words(variant, "vi"))
    english, _note = write_png(position, tmp_path / "en.png", size=400)
    assert english.read_bytes() == draw(position, size=400)


def test_the_command_line_draws_in_the_language_asked(tmp_path, capsys):
    out = tmp_path / "c.png"
    assert render_cli.main(["commander", "--size", "400", "--language", "vi",
                            "-o", str(out)]) == 0
    variant = get_variant("commander")
    assert out.read_bytes() == draw(variant.start_position(), variant=variant, size=400,
                                    words=picture_words(variant, "vi"))
    with pytest.raises(SystemExit):
        render_cli.main(["commander", "--language", "xx", "-o", str(out)])
    assert "'xx': the pictures speak en, qps, vi" in capsys.readouterr().err


def test_the_gallery_speaks_the_language_asked():
    clash = get_variant("clash")
    positions, moves = render_cli.seeded_game(clash, 2)
    english = render_cli.gallery_info(clash, 1, positions, moves)
    assert english.clocks == ("2 days 4 hours left", "3 days per move")
    assert english.deadline == "until 2026-12-03 14:00 UTC"
    vietnamese = render_cli.gallery_info(clash, 1, positions, moves, "vi")
    assert vietnamese.clocks == ("còn 2 ngày 4 giờ", "3 ngày mỗi nước")
    assert vietnamese.deadline == "hạn chót 14:00 UTC 3/12/2026"
    pseudo = render_cli.gallery_info(clash, 1, positions, moves, PSEUDO)
    assert untranslated(" ".join([pseudo.deadline, *pseudo.clocks])) == []
    pictures = render_cli.gallery_pictures(240, 4, "vi")
    assert [name for name, _data in pictures][:3] == [
        "clash-start.png", "clash-middle-1.png", "clash-middle-2.png"]
    assert pictures[0][1] == draw(clash.start_position(), variant=clash, size=240,
                                  words=picture_words(clash, "vi"))
