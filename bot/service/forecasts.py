"""Conditional moves ("forecasts"): the player who waits records lines as a tree — if the
opponent plays X, answer Y; then if they play Z, answer W — and when the opponent's turn
matches a line, the answer is played at once as that player's own move, inside the same
command and transaction as the opponent's turn.

A line is written ``if X then Y then if Z then W`` (``then`` before a further ``if`` may be
left out). A turn of several steps is written as its steps separated by ``|`` (as in game
records), a deploy as its one compound move. Every turn is checked when the line is
entered: legal in the position it would be played in, and complete. The opponent's turn
matches a line when it leads to the same position (so a turn typed step by step matches
the same turn written as one compound move). A turn that matches no line drops the tree,
and its author is told; a takeback drops it too. Lines are stored per game and player
(table ``forecasts``) and seen by their author alone until played.
`Forecasts` is the service's `forecasts` topic.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from engine import EngineError, Position, Variant, get_variant

from ..i18n import Text, _, _n, joined
from ..storage import Database, Session
from . import outbox
from .boundary import guard
from .clock import Clock
from .model import Game, Player
from .phrasing import describe_result
from .records import END, STEP_SEPARATOR, play_step
from .results import Done, Reason, Refusal, Result, move_refusal
from .words import variant_name

Tree = list[dict[str, Any]]  # nodes: {"if": text, "fen": after it, "then": [steps], "next": Tree}
MAX_DEPTH = 10  # exchanges in one line
MAX_NODES = 200  # nodes in one player's tree


class ForecastError(ValueError):
    """A line that cannot be recorded; the message says which turn and why."""

    def __init__(self, message: Text) -> None:
        super().__init__(message)
        self.message = message  # the catalogue's message, to be worded for its reader


@dataclass(frozen=True)
class Turn:
    """One whole turn of a line: its canonical steps and the position after it."""

    steps: tuple[str, ...]
    after: Position

    @property
    def text(self) -> str:
        return STEP_SEPARATOR.join(self.steps)


def read_line(words: list[str]) -> list[tuple[str, str]]:
    """``if X then Y [then] if Z then W`` as [(X, Y), (Z, W)]; ForecastError otherwise."""
    pairs: list[tuple[str, str]] = []
    k = 0
    while k < len(words):
        if words[k].lower() != "if":
            raise ForecastError(joined([_("I expected `if` where you wrote {word}.",
                                          word=repr(words[k])), USAGE]))
        theirs, k = _until(words, k + 1, ("then",))
        if k >= len(words):
            raise ForecastError(joined([_("`if {theirs}` needs `then` and your answer.",
                                          theirs=theirs), USAGE]))
        ours, k = _until(words, k + 1, ("then", "if"))
        if not theirs or not ours:
            raise ForecastError(joined([_("Each `if` needs their turn and each `then` your "
                                          "answer."), USAGE]))
        pairs.append((theirs, ours))
        if k < len(words) and words[k].lower() == "then":
            k += 1
    if not pairs:
        raise ForecastError(USAGE)
    if len(pairs) > MAX_DEPTH:
        raise ForecastError(_n("A line is at most {n} exchange long.",
                               "A line is at most {n} exchanges long.", MAX_DEPTH))
    return pairs


USAGE = _("Write a line as `if h8-i7/D then b2-a3/D then if i7-h6/D then a3-b4/D`.")


def _until(words: list[str], k: int, stops: tuple[str, ...]) -> tuple[str, int]:
    start = k
    while k < len(words) and words[k].lower() not in stops:
        k += 1
    return " ".join(words[start:k]), k


def play_turn(rules: Variant, position: Position, text: str) -> Turn:
    """The whole turn ``text`` (steps separated by ``|``) from ``position``; EngineError
    when a step is illegal, ForecastError when the turn is not complete."""
    steps: list[str] = []
    parts = [p.strip() for p in text.split("|")]
    for k, part in enumerate(parts):
        if k and not position.in_progress:
            raise ForecastError(_("{turn} is a whole turn already; {step} would be the next "
                                  "turn.", turn=STEP_SEPARATOR.join(steps), step=repr(part)))
        step, position = play_step(rules, position, part)
        steps.append(step)
    if position.in_progress:
        raise ForecastError(_("{turn} is not a whole turn: add its next steps with `|`, or "
                              "`| {end}` to finish it.", turn=text, end=END))
    return Turn(tuple(steps), position)


def describe_tree(tree: Tree, head: str = "") -> list[str]:
    """Every line of a tree, as the player would write it."""
    lines = []
    for node in tree:
        text = f"{head}if {node['if']} then {' | '.join(node['then'])}"
        lines += describe_tree(node["next"], text + " then ") if node["next"] else [text]
    return lines


def _count(tree: Tree) -> int:
    return sum(1 + _count(n["next"]) for n in tree)


def _merge(tree: Tree, path: list[dict[str, Any]]) -> tuple[Tree, bool]:
    """``tree`` with the line ``path`` (nodes without branches) added; whether an answer
    already recorded was replaced."""
    if not path:
        return tree, False
    node, rest = path[0], path[1:]
    for k, old in enumerate(tree):
        if old["fen"] != node["fen"]:
            continue
        if old["then"] != node["then"]:
            return [*tree[:k], _chain(path), *tree[k + 1:]], True
        merged, replaced = _merge(old["next"], rest)
        return [*tree[:k], {**old, "next": merged}, *tree[k + 1:]], replaced
    return [*tree, _chain(path)], False


def _chain(path: list[dict[str, Any]]) -> dict[str, Any]:
    node = dict(path[0])
    node["next"] = [_chain(path[1:])] if len(path) > 1 else []
    return node


async def drop_forecasts(s: Session, game_id: int) -> None:
    """Forget every line of the game (a takeback changed what they answer)."""
    await s.execute("DELETE FROM forecasts WHERE game_id = ?", (game_id,))

async def recorded_lines(s: Session, game: Game) -> Tree:
    """The lines the player to move has recorded in ``game``."""
    return await _tree(s, game.id, game.players[game.to_move])

def answer_ready(tree: Tree, rules: Variant, after: Position) -> bool:
    """Whether ``tree`` (the lines of the player to move) answers the turn that led to
    ``after`` (they are then told of both together, not asked to move)."""
    fen = rules.format_position(after)
    return any(n["fen"] == fen for n in tree)


@guard  # every argument of every public method is checked before it runs
class Forecasts:
    """Conditional moves (`GameService.forecasts`): the database, the clock, and the
    service's own move machinery: opening a game for a command (``open_game``), its line
    of positions (``line``, ``keep``) and playing a step on it (``advance``)."""

    def __init__(self, db: Database, now: Clock, *, open_game: Callable[..., Awaitable[Any]],
                 line: Callable[..., Awaitable[Any]], keep: Callable[[int, Any], None],
                 advance: Callable[..., Awaitable[tuple[Done, Any]]]) -> None:
        self.db, self.now = db, now
        self._open, self._line, self._keep, self._advance = open_game, line, keep, advance

    async def add_forecast(self, sender: Player, game_id: int, words: list[str]) -> Result:
        """Record the line ``words`` (``if X then Y ...``) for ``sender``, who waits."""
        async with self.db.transaction() as s:
            game = await self._open(s, game_id, sender)
            if isinstance(game, Refusal):
                return game
            side = game.side_of(sender.id)
            if game.to_move == side:
                return Refusal(Reason.BAD_FORECAST,
                               _("It is your turn in game #{game}: conditional moves are for "
                                 "the player who waits. Play your move, then record them.",
                                 game=game.id))
            rules = get_variant(game.variant)
            line = await self._line(s, game, rules)
            self._keep(game.id, line)
            try:
                path = _path(rules, line.boundaries[-1], read_line(words))
            except ForecastError as err:
                return Refusal(Reason.BAD_FORECAST, err.message)
            except EngineError as err:
                return move_refusal(err, " ".join(words))
            tree, replaced = _merge(await _tree(s, game.id, sender.id), path)
            if _count(tree) > MAX_NODES:
                return Refusal(Reason.BAD_FORECAST, _n(
                    "You may keep at most {n} conditional move in one game.",
                    "You may keep at most {n} conditional moves in one game.", MAX_NODES))
            await _store(s, game.id, sender.id, game.ply, tree, self.now())
        said = describe_tree([_chain(path)])[0]
        said = [_("Conditional line recorded in game #{game}: {line}.", game=game.id,
                  line=said)]
        if replaced:
            said.append(_("It replaces the answer you had recorded to the same move."))
        said.append(_("Only you see it until it is played."))
        return Done(joined(said), game=game)

    async def forecast_lines(self, reader: Player, game_id: int) -> list[str]:
        """``reader``'s recorded lines in the game (nobody else's, ever)."""
        async with self.db.snapshot() as s:
            return describe_tree(await _tree(s, game_id, reader.id))

    async def clear_forecast(self, sender: Player, game_id: int) -> Result:
        """Drop all of ``sender``'s lines in the game."""
        async with self.db.transaction() as s:
            dropped = await s.execute("DELETE FROM forecasts WHERE game_id = ? AND "
                                      "player_id = ?", (game_id, sender.id))
        if not dropped:
            return Refusal(Reason.BAD_FORECAST, _("You have no conditional moves in game "
                                                  "#{game}.", game=game_id))
        return Done(_("Your conditional moves in game #{game} are dropped.", game=game_id))

    async def _answer_forecast(self, s: Session, rules: Variant, line: Any,
                               done: Done) -> tuple[Done, Any]:
        """After a turn that passed the move to the other side: play that side's recorded
        answer if a line matches the turn, else drop their lines and tell them. What the
        turn's own step read (its steps, the waiting side's lines: on ``line``) is not read
        again."""
        game = done.game
        if game is None or game.is_over or line.position.in_progress:
            return done, line
        waiting = game.players[game.to_move]
        tree = line.answers if line.answers is not None else await _tree(s, game.id, waiting)
        if not tree:
            return done, line
        fen = rules.format_position(line.position)
        node = next((n for n in tree if n["fen"] == fen), None)
        steps = line.turn_steps
        if steps is None:
            rows = await s.all("SELECT text FROM moves WHERE game_id = ? AND turn = ? "
                               "ORDER BY ply", (game.id, game.turns - 1))
            steps = [r["text"] for r in rows]
        theirs = STEP_SEPARATOR.join(steps)
        now = self.now()
        if node is None:
            await s.execute("DELETE FROM forecasts WHERE game_id = ? AND player_id = ?",
                            (game.id, waiting))
            await outbox.notify_side(
                s, game, game.to_move, "forecast", now,
                _("{name} played {turn} in game #{game}, which none of your conditional "
                  "lines expected: they are dropped.", name=game.names[1 - game.to_move],
                  turn=theirs, game=game.id))
            return done, line
        for step in node["then"]:
            move_text, after = play_step(rules, line.position, step)
            answer, line = await self._advance(
                s, game, rules, line, move_text, after, conditional=True)
            game = answer.game
        if node["next"] and not game.is_over:
            await _store(s, game.id, waiting, game.ply, node["next"], now)
        else:
            await s.execute("DELETE FROM forecasts WHERE game_id = ? AND player_id = ?",
                            (game.id, waiting))
        answer_text = " | ".join(node["then"])
        side = game.side_of(waiting)
        news = [_("{name} played {turn} in game #{game} ({variant}); your conditional move "
                  "{answer} was played in answer.", name=game.names[1 - side], turn=theirs,
                  game=game.id, variant=variant_name(rules), answer=answer_text)]
        if not node["next"]:
            news.append(_("You have no conditional moves left there."))
        await outbox.notify_side(s, game, side, "forecast", now, joined(news))
        said = [done.template, _("{name} answered at once with {answer}, a conditional move.",
                                name=game.names[side], answer=answer_text)]
        said.append(_("Game over: {result}.", result=describe_result(game)) if game.is_over
                    else _("Your move."))
        return replace(done, message=joined(said), game=game, answer=answer_text), line


def _path(rules: Variant, position: Position,
          pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The nodes of one line, each turn played from the position before it."""
    path = []
    for k, (theirs, ours) in enumerate(pairs):
        their_turn = play_turn(rules, position, theirs)
        if rules.outcome(their_turn.after).is_over:
            raise ForecastError(_("{turn} ends the game: nothing can answer it.",
                                  turn=their_turn.text))
        our_turn = play_turn(rules, their_turn.after, ours)
        if rules.outcome(our_turn.after).is_over and k + 1 < len(pairs):
            raise ForecastError(_("{turn} ends the game: the line cannot go on after it.",
                                  turn=our_turn.text))
        path.append({"if": their_turn.text, "fen": rules.format_position(their_turn.after),
                     "then": list(our_turn.steps), "next": []})
        position = our_turn.after
    return path


async def _tree(s: Session, game_id: int, player_id: int) -> Tree:
    row = await s.one("SELECT lines FROM forecasts WHERE game_id = ? AND player_id = ?",
                      (game_id, player_id))
    return json.loads(row["lines"]) if row else []


async def _store(s: Session, game_id: int, player_id: int, ply: int, tree: Tree,
                 now: float) -> None:
    await s.execute(
        "INSERT INTO forecasts (game_id, player_id, ply, lines, updated_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player_id) DO UPDATE SET "
        "ply = excluded.ply, lines = excluded.lines, updated_at = excluded.updated_at",
        (game_id, player_id, ply, json.dumps(tree), now))

