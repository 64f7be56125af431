"""What a service call answers: `Done` when it was carried out, `Refusal` when it was not.

A refusal is a value, never an exception: it names its `Reason` (for programs and tests)
and carries a message for the player (for people), plus the candidate moves when a move
text was ambiguous. Nothing is stored when a call is refused, except a loss on time that
the refused call found due.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from engine import AmbiguousMoveError, EngineError, MoveSyntaxError

from ..i18n import SOURCE, Literal, _, message_id, render
from ..storage import DamagedGame, StorageError
from .model import Challenge, Game, Player
from .phrasing import phrase
from .words import or_list


class _Phrased:
    """What `Refusal` and `Done` share: the service's text (with command and time tokens)
    kept as ``template``, ``message`` in console words (the default wording), and `words`
    for any transport."""

    message: str
    template: str

    def __post_init__(self) -> None:
        if not self.template or phrase(self.template, "console") != self.message:
            # a new result, or one copied with a new message (`dataclasses.replace`)
            object.__setattr__(self, "template", self.message)
        object.__setattr__(self, "message", phrase(self.template, "console"))

    def words(self, transport: str, language: str = SOURCE,
              literal: Literal | None = None) -> str:
        """The message in ``transport``'s command words (`bot.service.phrasing`) and in the
        reader's ``language`` (`bot.i18n`), its names quoted by ``literal`` if given."""
        return phrase(render(self.template, language, literal), transport)

    def __str__(self) -> str:
        return self.message


# what every transport answers when a command met a storage fault (full disk, locked or
# read-only database): the transaction was rolled back, so the player may simply try again
# (its English words as they are for a mail server's reply; `storage_words` for a reader)
STORAGE_DOWN = message_id("The service cannot store moves right now; nothing was changed. "
                          "Please try again later.")


def storage_words(err: StorageError) -> str:
    """What a player is told of a storage fault, in the reader's language: a damaged game
    says which (the others play on); any other fault is `STORAGE_DOWN`."""
    if not isinstance(err, DamagedGame):
        return _(STORAGE_DOWN)
    if err.game_id is None:
        return _("A game is damaged in the database; the host can run `commandpost db check` "
                 "to see what can be saved of it.")
    return _("Game #{number} is damaged in the database; the host can run `commandpost db "
             "check` to see what can be saved of it.", number=err.game_id)


class Reason(StrEnum):
    """Why a command was refused."""

    # the fixed order of validation of game commands
    NO_SUCH_GAME = "no-such-game"
    GAME_OVER = "game-over"
    NOT_A_PLAYER = "not-a-player"
    POSITION_CHANGED = "position-changed"
    NOT_YOUR_TURN = "not-your-turn"
    BAD_MOVE = "bad-move"  # not readable as a move
    ILLEGAL_MOVE = "illegal-move"
    AMBIGUOUS_MOVE = "ambiguous-move"
    # which game or challenge a command without a number means
    NO_GAME_HERE = "no-game-here"
    WHICH_GAME = "which-game"
    # game actions
    NO_TURN_IN_PROGRESS = "no-turn-in-progress"
    DRAW_NOT_ALLOWED = "draw-not-allowed"
    TAKEBACK_NOT_ALLOWED = "takeback-not-allowed"
    ALREADY_OFFERED = "already-offered"
    NO_OFFER = "no-offer"
    NOTHING_TO_TAKE_BACK = "nothing-to-take-back"
    TOO_LATE_TO_ABORT = "too-late-to-abort"
    # challenges
    UNKNOWN_VARIANT = "unknown-variant"
    UNKNOWN_MODE = "unknown-mode"
    BAD_TIME_CONTROL = "bad-time-control"
    BAD_POSITION = "bad-position"
    SELF_CHALLENGE = "self-challenge"
    NO_SUCH_CHALLENGE = "no-such-challenge"
    WHICH_CHALLENGE = "which-challenge"
    CHALLENGE_CLOSED = "challenge-closed"
    NOT_YOUR_CHALLENGE = "not-your-challenge"
    NO_SUCH_LEVEL = "no-such-level"  # the computer's levels
    # players
    NO_SUCH_PLAYER = "no-such-player"
    ALREADY_ON_VACATION = "already-on-vacation"
    NO_VACATION_LEFT = "no-vacation-left"
    NOT_ON_VACATION = "not-on-vacation"
    BAD_NOTE = "bad-note"
    BAD_FORECAST = "bad-forecast"
    # records
    BAD_RECORD = "bad-record"
    # tournaments
    NO_SUCH_TOURNAMENT = "no-such-tournament"
    BAD_TOURNAMENT = "bad-tournament"
    TOURNAMENT_CLOSED = "tournament-closed"
    TOURNAMENT_FULL = "tournament-full"
    ALREADY_IN = "already-in"
    NOT_IN = "not-in"
    NOT_DIRECTOR = "not-director"
    TOO_FEW_PLAYERS = "too-few-players"
    LADDER_REACH = "ladder-reach"
    TOURNAMENT_GAME = "tournament-game"
    # arguments refused at the service boundary (`bot.service.boundary`)
    BAD_INPUT = "bad-input"
    BAD_DAYS = "bad-days"


@dataclass(frozen=True)
class Refusal(_Phrased):
    """A command that was not carried out, and why."""

    reason: Reason
    message: str
    candidates: tuple[str, ...] = ()
    template: str = ""  # the message with its tokens, for `words`
    games: tuple[Game, ...] = ()  # the games a WHICH_GAME refusal lists
    ok: ClassVar[bool] = False


@dataclass(frozen=True)
class Done(_Phrased):
    """A command that was carried out: a message for the sender and what it changed."""

    message: str
    game: Game | None = None
    challenge: Challenge | None = None
    player: Player | None = None
    move: str | None = None  # the canonical text of an accepted move
    text: str | None = None  # a longer answer (a game record, a list)
    turn: str | None = None  # the whole turn, when this step closed it
    number: str | None = None  # that turn's number as in records (``3.``, ``3...``)
    steps_left: int | None = None  # in a turn that goes on: steps still allowed, if counted
    tournament: Any = None  # the tournament it made or changed (`bot.service.tournaments`)
    goes_on: bool = False  # the mover's turn goes on after this step
    template: str = ""  # the message with its tokens, for `words`
    answer: str | None = None  # the opponent's conditional move played at once after it
    ok: ClassVar[bool] = True


Result = Done | Refusal


def engine_words(err: EngineError) -> str:
    """What the engine says in ``err``: its phrase, which the catalogue words in the
    reader's language (``str(err)`` keeps only the English)."""
    return err.args[0] if err.args and isinstance(err.args[0], str) else str(err)


def move_refusal(err: EngineError, text: str) -> Refusal:
    quoted = getattr(err, "text", "") or text.strip()
    reason = getattr(err, "reason", engine_words(err))
    if isinstance(err, AmbiguousMoveError):
        return Refusal(Reason.AMBIGUOUS_MOVE,
                       _("{move} is ambiguous: it could be {candidates}. Send the one you "
                         "mean.", move=quoted, candidates=or_list(err.candidates)),
                       err.candidates)
    if isinstance(err, MoveSyntaxError):
        return Refusal(Reason.BAD_MOVE, _("I cannot read {move} as a move: {reason}.",
                                          move=repr(quoted), reason=reason))
    return Refusal(Reason.ILLEGAL_MOVE, _("{move} is not a legal move here: {reason}.",
                                          move=quoted, reason=reason))
