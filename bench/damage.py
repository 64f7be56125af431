"""Random damage of database files: every failure must be a clear sentence, never a
traceback, and every damaged game must be named.

    .venv/bin/python bench/damage.py [--files 300] [--seed 1] [--json]

A database with games of every variant (moves played, one game over) is copied and each
copy changed at one to three random bytes. On each copy, as a host and players would:
the service is opened (refusing damage, then as ``COMMANDPOST_DB_DAMAGED=start``), every
game is read, listed and answered through the text commands (``board``, ``moves``, a
move, ``export``), and ``commandpost db check`` runs. Anything that raises other than
the service's `StorageError` (which every transport turns into a sentence) is a
traceback. A game whose replay differs from what is stored must be named by
``db check`` (``game #N: ...``). It prints the figures (the anchor is the number of
files: 0 tracebacks out of it, and the damaged games named out of those found).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.cli.dbcheck import check  # noqa: E402
from bot.commands import Commands  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import DamagedGame, StorageError  # noqa: E402

PLACE = "console:damage"
GAMES = (("clash", 6), ("commander", 4), ("combined-arms", 6), ("mini-chieftain", 4),
         ("micro-chieftain", 4), ("clash", 0))


async def build(path: Path) -> None:
    """The undamaged database: a game of each variant with a few steps, one game over."""
    service = await GameService.open(Settings(db_path=path), rng=random.Random(5))
    try:
        alice = await service.player("console", "alice", "Alice")
        bob = await service.player("console", "bob", "Bob")
        for variant, steps in GAMES:
            made = await service.challenges.challenge(alice, PLACE, bob, variant, side=0)
            game = (await service.challenges.accept(bob, made.challenge.id)).game
            for _ in range(steps):
                game = await service.game(game.id)
                mover = alice if game.to_move == 0 else bob
                moves = await service.legal_moves(game)
                if not moves:
                    break
                await service.move(mover, game.id, moves[0])
        last = (await service.games())[-1]
        await service.resign(alice, last.id)
    finally:
        await service.close()


async def _play_every_game(service: GameService) -> set[int]:
    """What players do: list, read and answer every game, through the text commands; the
    games the service said were damaged."""
    alice = await service.player("console", "alice", "Alice")
    words = Commands(service, lambda name: service.find_player("console", name))
    damaged = set()
    for game_id in await service.archive.game_ids():
        for line in (f"board #{game_id}", f"moves #{game_id}", f"export #{game_id}",
                     f"move zz #{game_id}", "games"):
            if f"Game #{game_id} is damaged" in (await words.handle(alice, PLACE, line)).text:
                damaged.add(game_id)
        try:
            game = await service.game(game_id)
            if game is not None:
                await service.legal_moves(game)
                await service.position(game, 1)
        except DamagedGame:
            damaged.add(game_id)
    return damaged


async def one_file(path: Path) -> dict[str, object]:
    """One damaged copy: the tracebacks it gave, the games found damaged and named."""
    tracebacks: list[str] = []
    found: set[int] = set()
    for damaged in ("refuse", "start"):
        try:
            service = await GameService.open(Settings(db_path=path, db_damaged=damaged))
        except StorageError:
            continue
        except Exception:
            tracebacks.append(traceback.format_exc())
            continue
        try:
            found |= await _play_every_game(service)
        except StorageError:
            pass
        except Exception:
            tracebacks.append(traceback.format_exc())
        finally:
            await service.close()
    lines: list[str] = []
    try:
        await check(path, lines.append)
    except Exception:
        tracebacks.append(traceback.format_exc())
    named = {int(line.split(":")[0][6:]) for line in lines if line.startswith("game #")}
    return {"tracebacks": tracebacks, "named": len(named), "missed": len(found - named)}


def _pages_of_rows(path: Path) -> list[tuple[int, int]]:
    """The file offset and size of the pages holding the schema, the games and the moves
    (where damage reaches rows rather than free space)."""
    import sqlite3
    db = sqlite3.connect(path)
    try:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        roots = [r[0] for r in db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name IN ('games', 'moves')")]
    finally:
        db.close()
    return [((page - 1) * size, size) for page in (1, *roots)]


async def main(files: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "base.db"
        await build(base)
        data = base.read_bytes()
        pages = _pages_of_rows(base)
        tracebacks: list[str] = []
        named = damaged_files = missed = 0
        for n in range(files):
            copy = Path(folder) / f"copy{n % 4}.db"
            for old in Path(folder).glob(f"copy{n % 4}.db*"):
                old.unlink()
            changed = bytearray(data)
            for _ in range(rng.randrange(1, 4)):
                if rng.random() < 0.5:  # anywhere in the file
                    at = rng.randrange(len(changed))
                else:  # in the rows of the schema, the games or their moves
                    start, size = rng.choice(pages)
                    at = start + rng.randrange(size)
                changed[at] = rng.randrange(256)
            copy.write_bytes(bytes(changed))
            said = await one_file(copy)
            tracebacks += said["tracebacks"]  # type: ignore[arg-type]
            named += said["named"]  # type: ignore[operator]
            damaged_files += bool(said["named"])
            missed += said["missed"]  # type: ignore[operator]
        shutil.rmtree(folder, ignore_errors=True)
    return {"files": files, "tracebacks": len(tracebacks), "first": tracebacks[:3],
            "files_with_damaged_games": damaged_files, "damaged_games_named": named,
            "found_in_play_not_named": missed}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(main(args.files, args.seed))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"random damage of {result['files']} files: {result['tracebacks']} tracebacks; "
              f"{result['files_with_damaged_games']} files with damaged games, "
              f"{result['damaged_games_named']} damaged games named by db check, "
              f"{result['found_in_play_not_named']} found damaged in play but not named")
        for shown in result["first"]:  # type: ignore[union-attr]
            print(shown)
