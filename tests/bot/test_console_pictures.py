"""Each viewer's picture is a file of its own: the side it is drawn from and the piece's
moves shown are in its name, so one player's picture never replaces another's."""

from __future__ import annotations

import hashlib

from bot.pictures import picture_file_name

PNG = b"\x89PNG\r\n\x1a\n"


def _picture(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("Picture: "))[9:]


async def test_two_players_pictures_of_one_position_are_two_files(session, settings):
    await session("challenge bob white")
    await session("as bob")
    await session("accept")
    bobs = await session("board #1")
    await session("as Alice")
    alices = await session("board #1")
    boards = settings.pictures_dir
    assert _picture(bobs) == str(boards / "game-1-0-black.png")
    assert _picture(alices) == str(boards / "game-1-0-white.png")
    assert sorted(p.name for p in boards.iterdir()) == ["game-1-0-black.png",
                                                         "game-1-0-white.png"]
    black, white = (boards / "game-1-0-black.png").read_bytes(), \
        (boards / "game-1-0-white.png").read_bytes()
    assert black[:8] == white[:8] == PNG and black != white  # each from its own side


async def test_a_pieces_moves_are_a_picture_beside_the_plain_board(session, settings):
    await session("challenge bob white")
    await session("as bob")
    await session("accept")
    await session("as Alice")
    plain = _picture(await session("board #1"))
    moves = _picture(await session("moves b2"))
    key = hashlib.blake2s(b"a3,b4", digest_size=3).hexdigest()  # the points b2's F reaches
    assert plain.endswith("/game-1-0-white.png")
    assert moves.endswith(f"/game-1-0-white-b2-{key}.png")
    files = sorted(p.name for p in settings.pictures_dir.iterdir())
    assert files == sorted(["game-1-0-black.png",  # bob's, when he accepted
                            "game-1-0-white.png", f"game-1-0-white-b2-{key}.png"])


async def test_the_file_name_says_the_side_and_the_piece_in_file_safe_words(session, service):
    await session("challenge bob clash white")
    await session("as bob")
    await session("accept")
    game = await service.game(1)
    assert picture_file_name(game, 3, 1) == "game-1-3-black.png"
    assert picture_file_name(game, 3, 0, ("c3", "a3"), "b2") == (
        "game-1-3-white-b2-" + hashlib.blake2s(b"a3,c3", digest_size=3).hexdigest() + ".png")
    assert picture_file_name(game, 3, 0, (), "../B 2") == "game-1-3-white-b2.png"
