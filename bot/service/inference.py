"""The game you mean: which game a command without a game number is about, the same rule
on every transport.

1. the game numbered (``#12``, a Discord ``game`` option, a mail's game key);
2. the game of the place: the only game in progress where the command was given (a
   game's Discord thread), or the only one there that the sender plays;
3. the sender's only game in progress;
4. for answering an offer (``draw``, ``takeback``): the only game with a draw offer or
   takeback request to the sender — an answer goes where the question was asked, even when
   another game waits for the sender's move;
5. for ``end``: the only game where the sender has a turn in progress;
6. the only game where it is the sender's turn;
7. otherwise "several games — say which", listing them with whose turn it is.

`GameInference` is part of `bot.service.GameService` (which provides ``games`` and
``game``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from engine import get_variant

from .model import Game, Player
from .phrasing import command
from .results import Reason, Refusal

ANSWER, END_TURN = "answer", "end"
"""Purposes that narrow the choice (`GameInference.find_game`)."""


def _offered_to(game: Game, player_id: int, offer: str) -> bool:
    side = game.side_of(player_id)
    standing = game.draw_offer if offer == "draw" else game.takeback_offer
    return side is not None and standing == 1 - side


def _listed(games: list[Game]) -> str:
    return ", ".join(f"#{g.id} {g.names[0]} vs {g.names[1]} "
                     f"({get_variant(g.variant).display_name}, {g.names[g.to_move]} to move)"
                     for g in games)


def _example(example: str, game_id: int) -> str:
    word, _, args = example.partition(" ")
    return command(word, f"{args} #{game_id}".strip())


class GameInference:
    """One function for the game a command means (mixed into the service)."""

    games: Callable[..., Awaitable[list[Game]]]
    game: Callable[[int], Awaitable[Game | None]]

    async def find_game(self, sender: Player, place: str | None, game_id: int | None = None,
                        to_move: bool = False, purpose: str | None = None,
                        example: str = "board") -> Game | Refusal:
        """The game a command means (see the module's rule). ``purpose``: ``"answer"``
        answers an offer (``"answer draw"``, ``"answer takeback"`` narrow it), ``"end"``
        closes a turn. ``to_move`` (the command plays a move) changes nothing any more:
        every command prefers the only game where it is the sender's turn. ``example``:
        the command (and its words) that a refusal asking "which game?" shows with a game's
        number (``"move c3-d4"``: the move the sender tried)."""
        if game_id is not None:
            game = await self.game(game_id)
            return game if game else Refusal(Reason.NO_SUCH_GAME,
                                             f"There is no game #{game_id}.")
        here = await self.games(None, place) if place else []
        mine_here = [g for g in here if g.side_of(sender.id) is not None]
        for found in (here, mine_here):
            if len(found) == 1:
                return found[0]
        mine = await self.games(sender)
        if len(mine) == 1:
            return mine[0]
        for narrowed in await self._narrowings(sender, mine, purpose):
            if len(narrowed) == 1:
                return narrowed[0]
        if not mine:  # everyone else's games are not offered: a game played here is named
            look = (f" To look at a game played here, name it, as in "
                    f"{command('board', f'#{here[0].id}')}." if here else "")
            return Refusal(Reason.NO_GAME_HERE, f"You have no game in progress. Start one with "
                                                f"{command('challenge')}.{look}")
        listed = mine
        return Refusal(Reason.WHICH_GAME,
                       f"There are several games: {_listed(listed)}. Say which, as in "
                       f"{_example(example, listed[0].id)}.", games=tuple(listed))

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
        out.append(waiting)
        return out
