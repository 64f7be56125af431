"""The game you mean: which game a command without a game number is about, the same rule
on every transport.

1. the game numbered (``#12``, a Discord ``game`` option, a mail's game key);
2. the game of the place: the only game in progress where the command was given (a
   game's Discord thread), or the only one there that the sender plays;
3. the sender's only game in progress;
4. for answering an offer (``draw``, ``takeback``): the only game with a draw offer or
   takeback request to the sender — an answer goes where the question was asked, even when
   another game waits for the sender's move;
5. for ``end``: the only game where the sender has a turn in progress; for a conditional
   move (``if``): the only game where the sender waits for the opponent's move, since
   conditional moves are for the player who waits;
6. for a move: among the sender's games, those where the text is a move in that game's
   notation, narrowed to those where it is legal now, or else to those where it is the
   sender's turn (see `GameInference._by_move`); text that is a move in none of the games
   the sender may move in is refused with each game's reason, one a line;
   for a command naming a point (`moves c3`): the games whose board has it;
7. the only game where it is the sender's turn;
8. otherwise "which game?", listing the games, one a line, each with whose turn it is and
   the command that names it.

`GameInference` is the service's `inference` topic (it reads games and positions through
the service).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from engine import EngineError, MoveSyntaxError, Position, get_variant

from ..i18n import Text, _, _n, joined
from ..storage import DamagedGame
from .boundary import guard
from .model import Game, Player
from .phrasing import command
from .results import Reason, Refusal, engine_words, move_refusal
from .words import variant_name

ANSWER, END_TURN, FORECAST = "answer", "end", "forecast"
"""Purposes that narrow the choice (`GameInference.find_game`)."""


def _offered_to(game: Game, player_id: int, offer: str) -> bool:
    side = game.side_of(player_id)
    standing = game.draw_offer if offer == "draw" else game.takeback_offer
    return side is not None and standing == 1 - side


def _listed(head: Text, games: list[Game], example: str, move: str | None) -> Text:
    """``head``, then the games, one a line, each with whose turn it is and how to name
    it."""
    return joined([head, *(_("#{game} {first} vs {second} ({variant}, {name} to move): "
                             "{example}", game=g.id, first=g.names[0], second=g.names[1],
                             variant=variant_name(get_variant(g.variant)),
                             name=g.names[g.to_move], example=_example(example, g.id, move))
                           for g in games)], "\n  ")


def _example(example: str, game_id: int, move: str | None = None) -> str:
    """The command that names game ``game_id``: the move sent, led by its number (as a
    player types it), or the example command with the number."""
    if move is not None:
        return command("move", f"#{game_id} {move}")
    word, _space, args = example.partition(" ")
    return command(word, f"#{game_id} {args}".strip())


def _shown(move: str) -> str:
    """The move as a refusal quotes it: one line, short, no markup or token braces."""
    text = " ".join(move.split()[:8])
    text = text if len(text) <= 40 else text[:39] + "…"
    return text.translate(str.maketrans("`{}", "'()"))


def _which_game(games: list[Game], example: str, move: str | None = None,
                legal: bool = False) -> Refusal:
    """Which game? The games listed one a line (the move sent, if any, named with each)."""
    move = None if move is None else _shown(move)
    if move is None:
        head = _n("Which game? You have {n} game in progress:",
                  "Which game? You have {n} games in progress:", len(games))
    elif legal:
        head = _n("Which game? {move} can be played in {n} of your games:",
                  "Which game? {move} can be played in {n} of your games:", len(games),
                  move=move)
    else:
        head = _n("Which game? {move} could be a move in {n} of your games:",
                  "Which game? {move} could be a move in {n} of your games:", len(games),
                  move=move)
    return Refusal(Reason.WHICH_GAME, _listed(head, games, example, move), games=tuple(games))


def _not_a_move_anywhere(games: list[Game], errors: dict[int, EngineError],
                         move: str) -> Refusal:
    """``move`` is a move in none of ``games`` that the sender may play now: each game's
    reason, one a line (a game where it reads is one where it is not the sender's turn)."""
    reasons: dict[tuple[str, str], list[int]] = {}  # games of one variant and reason: a line
    for g in games:
        err = errors.get(g.id)
        why = (getattr(err, "reason", engine_words(err)) if err is not None
               else _("it is not your turn ({name} is to move)", name=g.names[g.to_move]))
        reasons.setdefault((variant_name(get_variant(g.variant)), why), []).append(g.id)
    # one line per variant and reason: layout, no words of its own
    lines = [Text("{games} ({variant}): {reason}", {
        "games": ", ".join(f"#{n}" for n in ids), "variant": variant, "reason": why})
        for (variant, why), ids in reasons.items()]
    head = _("{move} is not a move you can play now in any of your games:", move=_shown(move))
    return Refusal(Reason.BAD_MOVE, joined([head, *lines], "\n  "))


@guard  # every argument of every public method is checked before it runs
class GameInference:
    """The game a command means (`GameService.inference`): reads games and positions
    through the service's own readers."""

    def __init__(self, game: Callable[[int], Awaitable[Game | None]],
                 games: Callable[..., Awaitable[list[Game]]],
                 position: Callable[..., Awaitable[Position]]) -> None:
        self.game, self.games, self.position = game, games, position

    async def find_game(self, sender: Player, place: str | None, game_id: int | None = None,
                        to_move: bool = False, purpose: str | None = None,
                        example: str = "board", move: str | None = None,
                        point: str | None = None) -> Game | Refusal:
        """The game a command means (see the module's rule). ``purpose``: ``"answer"``
        answers an offer (``"answer draw"``, ``"answer takeback"`` narrow it), ``"end"``
        closes a turn, ``"forecast"`` records a conditional move (in a game where the sender
        waits). ``to_move`` (the command plays a move) changes nothing any more:
        every command prefers the only game where it is the sender's turn. ``example``:
        the command (and its words) that a refusal asking "which game?" shows with a game's
        number (``"move c3-d4"``: the move the sender tried). ``move``: the text of the move
        the command plays, which narrows the sender's games to those it fits. ``point``: a
        point the command names (`moves c3`), which narrows them to the games whose board
        has it."""
        if game_id is not None:
            game = await self.game(game_id)
            return game if game else Refusal(Reason.NO_SUCH_GAME,
                                             _("There is no game #{game}.", game=game_id))
        here = await self.games(None, place) if place else []
        mine_here = [g for g in here if g.side_of(sender.id) is not None]
        for found in (here, mine_here):
            if len(found) == 1:
                return found[0]
        mine = await self.games(sender)
        if point is not None:  # a board without the point is not the one meant
            mine = [g for g in mine if point.lower() in get_variant(g.variant).topology.index
                    ] or mine
        if len(mine) == 1:
            return mine[0]
        if move is not None and mine and purpose is None:
            return await self._by_move(sender, mine, move, example)
        for narrowed in await self._narrowings(sender, mine, purpose):
            if len(narrowed) == 1:
                return narrowed[0]
        if not mine:  # everyone else's games are not offered: a game played here is named
            said = [_("You have no game in progress. Start one with {challenge}.",
                      challenge=command("challenge"))]
            if here:
                said.append(_("To look at a game played here, name it, as in {board}.",
                              board=command("board", f"#{here[0].id}")))
            return Refusal(Reason.NO_GAME_HERE, joined(said))
        if (purpose or "").split()[:1] == [END_TURN] and not [
                g for g in mine if g.to_move == g.side_of(sender.id)
                and get_variant(g.variant).parse_position(g.fen).in_progress]:
            return Refusal(Reason.NO_TURN_IN_PROGRESS,
                           _("You have no turn of several steps in progress to end: {end} "
                             "closes a Chieftain turn or a Commander Chess deploy before all "
                             "its moves are made.", end=command("end")))
        return _which_game(mine, example)

    async def _by_move(self, sender: Player, mine: list[Game], move: str,
                       example: str) -> Game | Refusal:
        """The game among ``mine`` (two or more) that the move ``move`` is meant for:

        * the only game where it is legal now (several: "which game?");
        * else the only game where it is the sender's turn and it reads as a move (it is
          then refused there for what it is: illegal, say);
        * else, when no game where it is the sender's turn reads it: the only game reading
          it if the sender has no game to move in (refused there as not their turn), or the
          only game at all whose notation reads it is one where it is not their turn while
          others wait for them: then, as when no game reads it, each game's own reason,
          one a line (one game waiting for them: that game's reason alone)."""
        readable: list[Game] = []
        legal: list[Game] = []
        errors: dict[int, EngineError] = {}
        candidates: list[Game] = []
        for game in mine:
            waiting = game.to_move == game.side_of(sender.id)
            try:
                rules = get_variant(game.variant)
                rules.parse_move(await self.position(game), move)
            except DamagedGame:  # its commands are refused; the other games play on
                continue
            except MoveSyntaxError as err:
                errors[game.id] = err
                candidates.append(game)
                continue
            except EngineError:  # read, but not legal (or not one move) now
                pass
            else:
                legal += [game] if waiting else []
            readable.append(game)
            candidates.append(game)
        waiting_readable = [g for g in readable if g.to_move == g.side_of(sender.id)]
        if legal:
            return legal[0] if len(legal) == 1 else _which_game(legal, example, move, legal=True)
        if waiting_readable:
            return (waiting_readable[0] if len(waiting_readable) == 1
                    else _which_game(waiting_readable, example, move))
        waiting = [g for g in candidates if g.to_move == g.side_of(sender.id)]
        if readable and not waiting:
            return readable[0] if len(readable) == 1 else _which_game(readable, example, move)
        if not candidates:  # no game's position could be read
            return _which_game(mine, example)
        if len(waiting) == 1 and not readable:
            return move_refusal(errors[waiting[0].id], move)
        return _not_a_move_anywhere(candidates, errors, move)

    async def _narrowings(self, sender: Player, mine: list[Game],
                          purpose: str | None) -> list[list[Game]]:
        """The candidate lists tried in turn, narrowest first."""
        waiting = [g for g in mine if g.to_move == g.side_of(sender.id)]
        out = []
        words = (purpose or "").split()
        if words[:1] == [ANSWER]:
            offers = words[1:] or ["draw", "takeback"]
            out.append([g for g in mine if any(_offered_to(g, sender.id, o) for o in offers)])
        if words[:1] == [END_TURN]:
            out.append([g for g in waiting
                        if get_variant(g.variant).parse_position(g.fen).in_progress])
        if words[:1] == [FORECAST]:  # the games where the opponent is to move
            out.append([g for g in mine if g not in waiting])
        out.append(waiting)
        return out
