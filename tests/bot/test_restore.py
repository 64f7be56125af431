"""A backup restored as the hosting guide says (docs/hosting.md, "Backups and restores"):
the guide's own shell blocks are run as they are written, on a database with a game in
progress, and the restored game plays on through the service. SQLite with the `sqlite3`
command-line tool; PostgreSQL with `pg_dump` and `pg_restore` of the server's own
binaries (pgserver's)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

from pgserver._commands import POSTGRES_BIN_PATH

from bot.config import Settings
from bot.service import GameService
from bot.service.results import Done

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "hosting.md"
PLACE = "console:test"


def guide_blocks(section: str, part: str) -> list[str]:
    """The ```sh blocks of the hosting guide's ``### part`` of ``## section``, in order."""
    text = GUIDE.read_text(encoding="utf-8")
    chapter = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert chapter is not None, f"docs/hosting.md has no section {section!r}"
    found = re.search(rf"^### {re.escape(part)}\n(.*?)(?=^##|\Z)", chapter[1], re.M | re.S)
    assert found is not None, f"docs/hosting.md has no part {part!r} in {section!r}"
    return re.findall(r"^```sh\n(.*?)^```$", found[1], re.M | re.S)


def commandpost_on_path(tmp_path: Path) -> Path:
    """A folder holding a `commandpost` command that runs this checkout's code."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "commandpost"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m bot "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    return folder


def shell(block: str, cwd: Path, path: list[Path], **environ: str) -> str:
    """Run a block of the guide as a host pastes it (bash, stopping at the first failure);
    its output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "PATH": os.pathsep.join([*map(str, path), os.environ.get("PATH", "")]), **environ}
    if "COMMANDPOST_DB" not in environ:  # the guide's commands name their database
        env.pop("COMMANDPOST_DB", None)
    done = subprocess.run(["bash", "-e", "-c", block], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{block}\nfailed ({done.returncode}): {done.stdout}{done.stderr}"
    return done.stdout


async def game_in_progress(service: GameService) -> tuple[int, list[str]]:
    """A Clash of Command game between alice and bob with a move of each; its number and
    the moves played."""
    alice = await service.player("console", "alice", "Alice")
    bob = await service.player("console", "bob", "Bob")
    made = await service.challenges.challenge(alice, PLACE, bob, side=0)
    assert made.ok, made
    accepted = await service.challenges.accept(bob, made.challenge.id)  # type: ignore[union-attr]
    assert accepted.ok, accepted
    game = accepted.game
    assert game is not None
    for player in (alice, bob):
        await play_first_legal(service, game.id, player.address)
    return game.id, await texts(service, game.id)


async def play_first_legal(service: GameService, game_id: int, address: str) -> str:
    """The first legal move of the player at ``address`` in the game, played."""
    game = await service.game(game_id)
    assert game is not None
    player = await service.player("console", address)
    move = (await service.legal_moves(game))[0]
    result = await service.move(player, game_id, move)
    assert isinstance(result, Done), result
    return move


async def texts(service: GameService, game_id: int) -> list[str]:
    return [m.text for m in await service.played_moves(game_id)]


async def plays_on(settings: Settings, clock: object, game_id: int, before: list[str]) -> None:
    """The restored game stands as it was at the backup, and both players play on."""
    service = await GameService.open(settings, now=clock, rng=random.Random(7))  # type: ignore[arg-type]
    try:
        assert await texts(service, game_id) == before
        game = await service.game(game_id)
        assert game is not None and game.ply == 2 and not game.is_over and game.to_move == 0
        played = [await play_first_legal(service, game_id, "alice"),
                  await play_first_legal(service, game_id, "bob")]
        assert await texts(service, game_id) == before + played
        game = await service.game(game_id)
        assert game is not None and game.ply == 4 and game.to_move == 0
    finally:
        await service.close()


async def test_a_sqlite_backup_is_restored_as_the_guide_says_and_the_game_plays_on(
        tmp_path: Path, clock: object) -> None:
    backup, restore = guide_blocks("Backups and restores", "SQLite")
    assert backup == 'sqlite3 commandpost.db ".backup backup.db"\n'
    host = tmp_path / "host"
    host.mkdir()
    bin_folder = commandpost_on_path(tmp_path)
    settings = Settings(db_path=host / "commandpost.db", pictures_dir=tmp_path / "boards")
    service = await GameService.open(settings, now=clock, rng=random.Random(7))  # type: ignore[arg-type]
    try:
        game_id, before = await game_in_progress(service)
        shell(backup, host, [bin_folder])  # while the service runs, its log not yet merged
        later = await play_first_legal(service, game_id, "alice")  # after the backup: lost
        assert await texts(service, game_id) == [*before, later]
    finally:
        await service.close()
    said = shell(restore, host, [bin_folder])
    assert said == ("integrity_check: ok\ntables: as expected\n"
                    "1 game(s) replayed: all sound\n")
    assert sorted(p.name for p in (host / "replaced").iterdir())[0] == "commandpost.db"
    await plays_on(settings, clock, game_id, before)


async def test_a_postgresql_dump_is_restored_as_the_guide_says_and_the_game_plays_on(
        tmp_path: Path, clock: object, postgres_server) -> None:
    dump, restore = guide_blocks("Backups and restores", "PostgreSQL")
    assert dump.startswith("pg_dump ")
    bin_folder = commandpost_on_path(tmp_path)
    tools = [bin_folder, Path(POSTGRES_BIN_PATH)]
    live = await postgres_server.create()
    empty = await postgres_server.create(schema=False)
    try:
        settings = Settings(db_path=live, pictures_dir=tmp_path / "boards")
        service = await GameService.open(settings, now=clock, rng=random.Random(7))  # type: ignore[arg-type]
        try:
            game_id, before = await game_in_progress(service)
            shell(dump, tmp_path, tools, COMMANDPOST_DB=live)
            await play_first_legal(service, game_id, "alice")  # after the dump: not in it
        finally:
            await service.close()
        said = shell(restore, tmp_path, tools, COMMANDPOST_DB=empty)
        assert said == ("integrity_check: SQLite's check of a database file; a PostgreSQL "
                        "server checks its own pages\n1 game(s) replayed: all sound\n")
        await plays_on(Settings(db_path=empty, pictures_dir=tmp_path / "boards"), clock,
                       game_id, before)
    finally:
        await postgres_server.drop(live)
        await postgres_server.drop(empty)
