"""`commandpost render` and `commandpost gallery` write the pictures they are asked for."""

from __future__ import annotations

import io

from PIL import Image

from bot.cli.render import gallery_main, main, seeded_game
from engine import all_variants, get_variant


def test_render_writes_the_start_position(tmp_path):
    out = tmp_path / "start.png"
    assert main(["clash", "-o", str(out), "--size", "200"]) == 0
    image = Image.open(out)
    assert image.format == "PNG" and image.width == 200


def test_render_plays_moves_and_turns_the_board(tmp_path):
    plain, played = tmp_path / "a.png", tmp_path / "b.png"
    assert main(["clash", "-o", str(plain), "--size", "200"]) == 0
    assert main(["clash", "--move", "b2-a3/D", "--move", "h8-i7/D", "--perspective", "black",
                 "--legal", "a3", "-o", str(played), "--size", "200"]) == 0
    assert plain.read_bytes() != played.read_bytes()


def test_render_reads_a_position_string(tmp_path):
    out = tmp_path / "p.png"
    assert main(["clash", "c4/4/5/4/5/4/5/4/C4 w 3", "-o", str(out), "--size", "200"]) == 0


def test_render_refuses_an_illegal_move_with_the_reason(tmp_path, capsys):
    assert main(["clash", "--move", "b2-c3/D", "-o", str(tmp_path / "x.png")]) == 2
    assert "c3 is occupied" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_render_refuses_an_unknown_variant(tmp_path, capsys):
    assert main(["go", "-o", str(tmp_path / "x.png")]) == 2
    assert "no such variant" in capsys.readouterr().err


def test_render_names_a_point_that_is_not_on_the_board(tmp_path, capsys):
    for option in ("--legal", "--highlight"):
        assert main(["commander", option, "z99", "-o", str(tmp_path / "x.png")]) == 2
        assert capsys.readouterr().err == ("commandpost render: z99 is not a point of the "
                                           "Commander Chess (Cờ Tư Lệnh) board\n")
    assert not (tmp_path / "x.png").exists()


def test_render_writes_a_replay(tmp_path):
    out = tmp_path / "game.gif"
    assert main(["clash", "--move", "b2-a3/D", "--move", "h8-i7/D", "--replay",
                 "-o", str(out), "--size", "160"]) == 0
    assert Image.open(io.BytesIO(out.read_bytes())).n_frames == 3


def test_the_seeded_game_is_the_same_every_time():
    variant = get_variant("clash")
    assert seeded_game(variant, 12) == seeded_game(variant, 12)


def test_gallery_writes_every_variant(tmp_path):
    assert gallery_main([str(tmp_path), "--size", "160", "--plies", "4"]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    assert {"clash-start.png", "clash-middle-1.png", "clash-replay.gif"} <= names
    for variant in all_variants():
        assert f"{variant.name}-start.png" in names
