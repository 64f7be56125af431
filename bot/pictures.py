"""Board pictures as PNG files, through the renderer when it is installed.

The renderer is imported only when a picture is wanted, so the service runs (and a console
game is played) without it: `write_png` then writes nothing and says why. Rendering never
runs inside a database transaction: a transport draws after the move is stored.
`game_info` gathers what a picture says around the board from the stored game, and
`picture_options` everything a transport passes to the renderer for a game's picture, so
that the Discord bot and the mail show the same picture of the same game from the same side.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import EngineError, Move, Position, get_variant

from .service.clock import describe_days, format_duration, format_time
from .service.model import Game, PlayedMove
from .service.records import END
from .service.turns import numbered_turns

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger(__name__)
LAST_MOVES = 12  # moves the picture's panel lists at most
SIZE = 640  # one size for every transport, so the renderer's caches stay warm


def _renderer() -> Callable[..., bytes] | None:
    """The renderer's ``render`` function, or None while there is none."""
    try:
        from renderer import render
    except ImportError:
        return None
    return render if callable(render) else None


def game_info(game: Game, played: Sequence[PlayedMove], ply: int | None = None,
              now: float | None = None) -> Any:
    """The renderer's `GameInfo` for ``game`` after ``ply`` steps (default: now): number,
    players, deadline, each side's clock, the losses counted from the moves
    (`game_losses`) and the last moves numbered by turn (None without a renderer)."""
    try:
        from renderer import GameInfo
    except ImportError:
        return None
    ply = game.ply if ply is None else ply
    current = ply >= game.ply and not game.is_over
    now = time.time() if now is None else now
    deadline, clocks = "", ("", "")
    if current and game.days is not None:
        per_move = describe_days(game.days)
        mover = game.to_move
        if game.clock.paused:
            left = "clock paused: vacation"
        elif game.clock.deadline is not None:
            deadline = f"until {format_time(game.clock.deadline)}"
            left = f"{format_duration(game.clock.deadline - now)} left"
        else:
            left = per_move
        clocks = (left, per_move) if mover == 0 else (per_move, left)
        if game.banks[1 - mover] is not None:  # Fischer: the waiting side's bank
            bank = f"{format_duration(game.banks[1 - mover] or 0)} in the bank"
            clocks = (left, bank) if mover == 0 else (bank, left)
    # whole turns under their numbers, as in the record and the notices
    moves = numbered_turns(game, played[:ply])
    return GameInfo(number=game.id, players=game.names, deadline=deadline, clocks=clocks,
                    moves=tuple(moves[-LAST_MOVES:]), losses=game_losses(game, played, ply))


def game_losses(game: Game, played: Sequence[PlayedMove], ply: int | None = None) -> Any:
    """The renderer's `Material` for ``game`` after ``ply`` steps (default: now): what each
    side's pieces lost to the moves played since the game's own start (a set-up position
    included), and the points destroyed where the rules score them (None without a
    renderer). A stored step that no longer reads is left out: a picture must never
    fail."""
    try:
        from renderer import losses
    except ImportError:
        return None
    return losses(get_variant(game.variant), _steps(game, played, ply))


def points_destroyed(game: Game, played: Sequence[PlayedMove],
                     ply: int | None = None) -> tuple[int, int] | None:
    """The points each side has destroyed in ``game`` after ``ply`` steps (default: now),
    counted from the moves played as the pictures count them; None where the rules score
    no points. The text board's caption shows them without the renderer."""
    variant = get_variant(game.variant)
    if not variant.piece_points:
        return None
    destroyed = [0, 0]
    for position, move in _steps(game, played, ply):
        for piece in variant.removed_pieces(position, move):
            destroyed[1 - piece.side] += variant.piece_points.get(piece.letter, 0)
    return destroyed[0], destroyed[1]


def _steps(game: Game, played: Sequence[PlayedMove],
           ply: int | None) -> list[tuple[Position, Move]]:
    """Each stored step of ``game`` up to ``ply`` with the position it was played in (an
    `end` step removes nothing; a step that no longer reads is left out)."""
    ply = game.ply if ply is None else ply
    steps = []
    for k, step in enumerate(played[:ply]):
        if step.text == END:
            continue
        before = played[k - 1].fen if k else game.start_fen
        found = _played_step(game.variant, before, step.text)
        if found is not None:
            steps.append(found)
    return steps


@lru_cache(maxsize=2048)
def _played_step(variant: str, before: str, text: str) -> tuple[Position, Move] | None:
    """The position before a stored step and the step's move (None if either does not
    read), kept so that each new picture of a game reads only its new steps."""
    rules = get_variant(variant)
    try:
        position = rules.parse_position(before)
        return position, rules.parse_move(position, text)
    except (EngineError, ValueError, IndexError, KeyError, TypeError):
        return None


async def picture_options(service: GameService, game: Game, *, perspective: int = 0,
                          ply: int | None = None, highlights: tuple[str, ...] = (),
                          selected: str | None = None, show_last: bool = True,
                          theme: str | None = None) -> tuple[Position, dict[str, Any]]:
    """The position and the renderer's options for the picture of ``game`` after ``ply``
    steps (default: now) seen from ``perspective``: the header, the players with their
    colours, the clocks and deadline, the losses and the last moves (`game_info`), every
    step of the last turn marked (unless ``show_last`` is false), or a piece's moves
    (``selected``, ``highlights``); the result once it is over. Every transport draws its
    game pictures from these, so they are the same everywhere."""
    ply = game.ply if ply is None else max(0, min(ply, game.ply))
    position = await service.position(game, ply)
    last = await service.turns.turn_moves(game, ply) if show_last else None
    result = service.describe_result(game) if game.is_over else ""
    info = game_info(game, await service.played_moves(game.id), ply)
    return position, {"variant": get_variant(game.variant), "perspective": perspective,
                      "last_move": last, "highlights": highlights, "selected": selected,
                      "result": result, "info": info, "size": SIZE,
                      "theme": theme or service.settings.theme}


def picture_file_name(game: Game, ply: int, perspective: int, highlights: Sequence[str] = (),
                      selected: str | None = None) -> str:
    """The file name of the picture of ``game`` after ``ply`` steps as one viewer sees it:
    the side it is drawn from, and a piece's moves when they are shown (the piece's point
    and a short key of the points marked), so that two viewers' pictures of one position,
    or one with and one without a piece's moves, are two files (``game-3-12-red.png``,
    ``game-3-12-blue-c4-1f0e9a.png``)."""
    side = get_variant(game.variant).side_names[perspective]
    parts = [f"game-{game.id}-{ply}", _file_word(side)]
    if selected:
        parts.append(_file_word(selected))
    if highlights:
        marked = ",".join(sorted(highlights)).encode()
        parts.append(hashlib.blake2s(marked, digest_size=3).hexdigest())
    return "-".join(parts) + ".png"


def _file_word(text: str) -> str:
    """``text`` as a part of a file name: lower-case ASCII letters and digits only."""
    return "".join(ch for ch in text.lower() if ch.isascii() and ch.isalnum()) or "x"


def write_png(position: Position, path: Path, last_move: Move | Sequence[Move] | None = None,
              caption: str = "", result: str = "", info: Any = None,
              theme: str = "classic", **options: object) -> tuple[Path | None, str]:
    """Draw ``position`` into ``path`` in ``theme`` (``last_move``: one move or every step
    of the last turn; ``options``: the renderer's, such as ``perspective`` and
    ``highlights``); the path written (None if none) and a note."""
    render = _renderer()
    if render is None:
        return None, "no picture: the renderer is not available"
    try:
        png = render(position, last_move=last_move, caption=caption, result=result, info=info,
                     theme=theme, **options)
    except Exception as err:  # a picture must never break a game
        log.debug("rendering failed", exc_info=True)
        return None, f"no picture: rendering failed ({err})"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
    except OSError as err:
        return None, f"no picture: cannot write {path}: {err.strerror or err}"
    return path, str(path)
