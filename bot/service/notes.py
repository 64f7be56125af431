"""Private notes: a player of a game writes notes to themselves about it (plans, ideas,
what they fear). A note is seen only by its author: with the board they look at and in the
record they export, never by the opponent or a watcher. `Notes` is the service's
`notes` topic.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from engine import Position, get_variant

from ..i18n import Text, _, joined, moment
from ..storage import Database, Session
from .boundary import guard
from .clock import Clock
from .model import Game, PlayedMove, Player, Row
from .records import turn_label
from .results import Done, Reason, Refusal, Result

MAX_NOTE = 1_000  # characters in one note
MAX_NOTES = 100  # notes per game and player


@dataclass(frozen=True)
class Note:
    """One note as stored: the step of the game it was written at, its text and time."""

    ply: int
    text: str
    created_at: float
    when: str = ""  # the turn it was written at, as players number turns (`after 2...`)

    @classmethod
    def from_row(cls, row: Row) -> Note:
        return cls(row["ply"], row["text"], row["created_at"])

    def line(self) -> Text:
        """``after 2... (2026-03-02 12:00 UTC): text``."""
        return Text("{when} ({time}): {text}", {  # a layout, not words: no catalogue entry
            "when": self.when or _("at step {ply}", ply=self.ply),
            "time": moment(self.created_at), "text": self.text})


def written_when(start: Position, played: Sequence[PlayedMove], ply: int) -> Text:
    """When a note written after ``ply`` steps was written, in turn numbers: ``at the
    start``, ``after 2...``, or ``during 3.`` (a turn in progress)."""
    if ply <= 0 or ply > len(played):
        return _("at the start")
    step = played[ply - 1]
    turn = turn_label(start, step.turn)
    return _("during {turn}", turn=turn) if step.partial else _("after {turn}", turn=turn)


@guard  # every argument of every public method is checked before it runs
class Notes:
    """Players' notes on games (`GameService.notes`): the database, the clock, and
    reading a game and its moves through the service's own readers."""

    def __init__(self, db: Database, now: Clock,
                 read_game: Callable[[Session, int], Awaitable[Game | None]],
                 game: Callable[[int], Awaitable[Game | None]],
                 played_moves: Callable[[int], Awaitable[list[PlayedMove]]]) -> None:
        self.db, self.now = db, now
        self._read_game, self.game, self.played_moves = read_game, game, played_moves

    async def add_note(self, sender: Player, game_id: int, text: str) -> Result:
        """Keep ``text`` as a note of ``sender`` on the game (a player's, in any state)."""
        text = " ".join(text.split())
        async with self.db.transaction() as s:
            game = await self._read_game(s, game_id)
            refused = _author_refusal(game, game_id, sender)
            if refused:
                return refused
            if not text:
                return Refusal(Reason.BAD_NOTE, _("A note needs some text, as in "
                                                  "`note the left flank is weak`."))
            if len(text) > MAX_NOTE:
                return Refusal(Reason.BAD_NOTE, _("A note is at most {most} characters; this "
                                                  "one has {length}.", most=MAX_NOTE,
                                                  length=len(text)))
            count = await s.one("SELECT COUNT(*) AS n FROM game_notes WHERE game_id = ? "
                                "AND player_id = ?", (game.id, sender.id))
            if count is not None and count["n"] >= MAX_NOTES:
                return Refusal(Reason.BAD_NOTE, _("You have {count} notes on game #{game}, "
                                                  "the most kept.", count=MAX_NOTES,
                                                  game=game.id))
            await s.insert("INSERT INTO game_notes (game_id, player_id, ply, text, created_at) "
                           "VALUES (?, ?, ?, ?, ?)", (game.id, sender.id, game.ply, text,
                                                      self.now()))
        return Done(_("Note kept on game #{game} (only you see it).", game=game.id), game=game)

    async def read(self, reader: Player, game_id: int) -> list[Note]:
        """The notes ``reader`` wrote on the game (nobody else's, ever)."""
        async with self.db.snapshot() as s:
            found = await _notes(s, game_id, reader.id)
        game = await self.game(game_id)
        if not found or game is None:
            return found
        played = await self.played_moves(game_id)
        start = get_variant(game.variant).parse_position(game.start_fen)
        return [replace(n, when=written_when(start, played, n.ply)) for n in found]

    async def notes_text(self, reader: Player, game_id: int) -> str:
        """``reader``'s notes as lines to show with the board ('' when there are none)."""
        found = await self.read(reader, game_id)
        if not found:
            return ""
        # each note indented: a layout, not words (no entry of the catalogue)
        return joined([_("Your notes (only you see them):"),
                       *(Text("  {note}", {"note": n.line()}) for n in found)], "\n")


async def _notes(s: Session, game_id: int, player_id: int) -> list[Note]:
    rows = await s.all("SELECT ply, text, created_at FROM game_notes WHERE game_id = ? "
                       "AND player_id = ? ORDER BY id", (game_id, player_id))
    return [Note.from_row(r) for r in rows]


def _author_refusal(game: Game | None, game_id: int, sender: Player) -> Refusal | None:
    if game is None:
        return Refusal(Reason.NO_SUCH_GAME, _("There is no game #{game}.", game=game_id))
    if game.side_of(sender.id) is None:
        return Refusal(Reason.NOT_A_PLAYER, _("Only the players of game #{game} keep notes "
                                              "on it.", game=game.id))
    return None


def record_comments(notes: list[Note]) -> str:
    """Notes as comment lines a record keeps (reading a record skips them)."""
    return "".join(f"; Note {n.line()}\n" for n in notes)
