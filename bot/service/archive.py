"""Whole games as records: export a game as text, import a record to continue or keep it,
and verify a stored game by replaying it from its start position and move list.

`Archive` is the service's `archive` topic; the record format is `bot.service.records`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine import EngineError, Outcome, Position, Variant, get_variant

from ..config import Settings
from ..i18n import Text, _, _n
from ..storage import DamagedGame, Database, Session
from . import cotulenh, outbox
from .boundary import guard
from .challenges import read_challenge
from .clock import DAY, Clock, parse_days, start_turn
from .clock import read as read_time_control
from .model import Challenge, Game, PlayedMove, Player, place_transport
from .notes import Note, record_comments
from .phrasing import players_line
from .records import GameRecord, RecordError, read_record, replay, write_record
from .results import Done, Reason, Refusal, Result, engine_words
from .turns import TurnEntry, turn_entries
from .words import or_list, plural, side_name, variant_name

RECORD = "commandpost"  # our record format (`records`)
FORMATS = (RECORD, cotulenh.FORMAT)


@guard  # every argument of every public method is checked before it runs
class Archive:
    """Game records: export, import, verification and salvage (`GameService.archive`): the
    database, the clock, the settings, and from the service: reading a game
    (``read_game(s, id)``), starting one (``create_game``) and ending one (``finish``) its
    way; from the other topics: a game's web address (``game_link``) and a reader's notes
    (``notes``)."""

    def __init__(self, db: Database, now: Clock, settings: Settings, *,
                 read_game: Callable[[Session, int], Awaitable[Game | None]],
                 create_game: Callable[..., Awaitable[Game]],
                 finish: Callable[..., Awaitable[Game]],
                 game_link: Callable[[int], Awaitable[str | None]],
                 notes: Callable[[Player, int], Awaitable[list[Note]]]) -> None:
        self.db, self.now, self.settings = db, now, settings
        self._game, self._create_game, self._finish = read_game, create_game, finish
        self._game_link, self._notes = game_link, notes

    async def _game_with_moves(self, game_id: int) -> tuple[Game | None, list[PlayedMove]]:
        """A game and its moves as they were at one moment."""
        async with self.db.snapshot() as s:
            game = await self._game(s, game_id)
            rows = await s.all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        try:
            return game, [PlayedMove.from_row(r) for r in rows]
        except (IndexError, KeyError, ValueError, TypeError) as err:
            raise DamagedGame(game_id) from err

    async def export(self, game_id: int, reader: Player | None = None,
                     format: str = RECORD) -> Result:
        """The game as a record text (in ``Done.text``): our record (`records`), whose
        ``reader``'s own notes on the game follow as comment lines (nobody else's); or, with
        ``format="cotulenh"``, a Commander Chess game in the cotulenh site's PGN dialect
        (`cotulenh`, without notes).

        Tags follow the PGN conventions that variant sites use: the seven of the roster
        first (``Event``, ``Site``, ``Date``, ``Round``, the players under the variant's
        side names, ``Result``), then ``Variant`` (our variant's id), ``Mode``,
        ``TimeControl`` in PGN's own form (``-``: no clock; ``1/259200``: one move in
        259200 seconds, i.e. 3 days per move, the form every PGN reader parses; a Fischer
        bank as ``bank+increment`` in seconds), ``Termination``, ``Rated``; and
        ``[SetUp "1"]`` with ``[FEN]`` only when the game started from another position
        than its variant's start for its mode (as python-chess and lichess write them;
        readers take a missing FEN for the variant's start). The cotulenh dialect always
        writes both, as that site's reader needs them."""
        if format not in FORMATS:
            return Refusal(Reason.BAD_INPUT, _("There is no record format {format}: write "
                                               "{formats}.", format=repr(format),
                                               formats=or_list(FORMATS)))
        game, played = await self._game_with_moves(game_id)
        if game is None:
            return Refusal(Reason.NO_SUCH_GAME, _("There is no game #{game}.", game=game_id))
        rules = get_variant(game.variant)
        if format == cotulenh.FORMAT and rules.name != "commander":
            return Refusal(Reason.BAD_INPUT, _("The cotulenh format is for Commander Chess "
                                               "games; game #{game} is {variant}.",
                                               game=game_id, variant=variant_name(rules)))
        try:
            turns = _turns(played)
        except RecordError as err:
            raise DamagedGame(game_id) from err
        # the Site is the game's web page when there is one, else where it is played
        link = await self._game_link(game_id)
        tags = {"Event": f"{'Rated' if game.rated else 'Casual'} correspondence game",
                "Site": link or self._site(game.place),
                "Date": datetime.fromtimestamp(game.created_at, UTC).strftime("%Y.%m.%d"),
                "Round": "-", rules.side_names[0]: game.names[0],
                rules.side_names[1]: game.names[1], "Result": game.result,
                "Variant": rules.name, "Mode": game.mode,
                "TimeControl": pgn_time_control(game.days, game.time_control)}
        if game.reason:
            tags["Termination"] = game.reason
        try:
            start = rules.parse_position(game.start_fen)
            for _step in replay(rules, start, turns):  # the stored moves must replay
                pass
            # each turn as every move list shows it (`turn_entries`), the steps of a turn
            # that is not one entry already joined by the record's separator
            entries = turn_entries(game, played)
            if format == cotulenh.FORMAT:  # every position's moves listed: CPU work
                text = await asyncio.to_thread(_cotulenh_record, rules, start, tags, entries,
                                               game.result)
                return Done(_("Record of game #{game} (cotulenh).", game=game_id), game=game,
                            text=text)
            tags["Rated"] = "yes" if game.rated else "no"
            if not _standard_start(rules, game.start_fen, game.mode):
                tags.update({"SetUp": "1", "FEN": game.start_fen})
            record = write_record(tags, start, [[entry.text] for entry in entries],
                                  game.result)
        except (EngineError, RecordError) as err:  # the stored moves do not replay
            raise DamagedGame(game_id) from err
        if reader is not None and game.side_of(reader.id) is not None:
            record += record_comments(await self._notes(reader, game_id))
        return Done(_("Record of game #{game}.", game=game_id), game=game, text=record)

    def _site(self, place: str) -> str:
        """Where a game without a web page is played, for its record: an e-mail game at
        the service's address (its place, ``email:mail``, means nothing to a reader)."""
        if place_transport(place) == "email" and self.settings.email_address:
            return f"commandpost <{self.settings.email_address}>"
        return place

    async def import_game(self, sender: Player, place: str, text: str,
                          opponent: Player) -> Result:
        """Start a game from a record, to continue it (or to keep a finished one) with the
        record's time control. The players take the sides whose tags bear their names (the
        sender plays the first side when neither is named); imported games are unrated.
        Players import through `offer_import`: the opponent accepts the game first."""
        plan = await asyncio.to_thread(_read_import, text, sender, opponent)  # CPU work
        if isinstance(plan, Refusal):
            return plan
        async with self.db.transaction() as s:
            game = await self._store_import(s, plan, place, sender, opponent, self.now())
        return self._imported(game, plan)

    async def offer_import(self, sender: Player, place: str, text: str,
                           opponent: Player) -> Result:
        """Offer ``opponent`` to continue a recorded game: a challenge carrying the record
        (checked now), which becomes the game when they accept (nobody is put into a game
        without asking)."""
        plan = await asyncio.to_thread(_read_import, text, sender, opponent)  # CPU work
        if isinstance(plan, Refusal):
            return plan
        now = self.now()
        rules = plan.rules
        async with self.db.transaction() as s:
            challenge_id = await s.insert(
                "INSERT INTO challenges (challenger_id, opponent_id, place, variant, mode, side, "
                "days, start_fen, rated, status, created_at, expires_at, record) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0, 'open', ?, ?, ?)",
                (sender.id, opponent.id, place, rules.name, plan.mode, plan.side, plan.days,
                 now, now + self.settings.challenge_days * DAY, text))
            offer = _("to continue a recorded game of {variant} ({steps} played; {name} plays "
                      "{side})", variant=variant_name(rules), steps=_steps(len(plan.steps)),
                      name=sender.display_name, side=side_name(rules, plan.side))
            await outbox.notify(s, now, transport=opponent.transport, kind="challenge",
                                player_id=opponent.id, place=place,
                                text=_("{name} invites you {offer}. Answer with "
                                       "`accept #{challenge}` or `decline #{challenge}`.",
                                       name=sender.display_name, offer=offer,
                                       challenge=challenge_id),
                                payload={"challenge": challenge_id})
            challenge = await read_challenge(s, challenge_id)
        return Done(_("Challenge #{challenge} sent to {name}: {offer}. The game starts when "
                      "{name} accepts.", challenge=challenge_id, name=opponent.display_name,
                      offer=offer), challenge=challenge)

    async def _accept_import(self, s: Session, challenge: Challenge, challenger: Player,
                             sender: Player, now: float) -> Result:
        """Accepting a challenge that carries a record: the recorded game, continued."""
        plan = await asyncio.to_thread(_read_import, challenge.record or "", challenger, sender)
        if isinstance(plan, Refusal):
            return plan
        game = await self._store_import(s, plan, challenge.place, challenger, sender, now,
                                        announce=False)
        await outbox.notify_side(s, game, plan.side, "game-start", now,
                                _("{name} accepted challenge #{challenge}: game #{game} "
                                  "continues the recorded game, {players}.",
                                  name=sender.display_name, challenge=challenge.id,
                                  game=game.id, players=players_line(game, plan.rules)))
        return self._imported(game, plan)

    async def _store_import(self, s: Session, plan: _Import, place: str, sender: Player,
                            opponent: Player, now: float, announce: bool = True) -> Game:
        """The imported game stored (moves, clock, and its end if the record has one)."""
        rules, steps, final = plan.rules, plan.steps, plan.final
        players = (sender.id, opponent.id) if plan.side == 0 else (opponent.id, sender.id)
        game = await self._create_game(s, rules, plan.mode, place, players, plan.start, False,
                                       plan.days, now, None, announce=False)
        for ply, step in enumerate(steps):
            await s.execute(
                "INSERT INTO moves (game_id, ply, turn, side, text, fen, partial, played_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, ply, step.turn, step.side, step.text,
                 rules.format_position(step.position), int(step.position.in_progress), now))
        turns = sum(1 for st in steps if not st.position.in_progress)
        clock = start_turn(plan.days, now, paused=game.on_vacation(final.side, now))
        await s.execute(
            "UPDATE games SET fen = ?, to_move = ?, ply = ?, turns = ?, revision = 1, "
            "deadline = ?, reminder_due = ?, paused_remaining = ? WHERE id = ?",
            (rules.format_position(final), final.side, len(steps), turns, clock.deadline,
             clock.reminder_due, clock.paused_remaining, game.id))
        game = await self._game(s, game.id)
        assert game is not None
        if announce:
            text = _("{name} imported a game record as game #{game}: {players}, {variant}.",
                     name=sender.display_name, game=game.id,
                     players=players_line(game, rules), variant=variant_name(rules))
            await outbox.notify_side(s, game, 1 - plan.side, "game-start", now, text)
        outcome, result = plan.outcome, plan.result
        if outcome.is_over:
            game = await self._finish(s, game, rules, outcome.winner, outcome.reason, now,
                                      draw=outcome.status == "draw", actor=sender.id)
        elif result != "*":
            winner = {"1-0": 0, "0-1": 1}.get(result)
            game = await self._finish(s, game, rules, winner, plan.termination, now,
                                      draw=winner is None, actor=sender.id)
        return game

    def _imported(self, game: Game, plan: _Import) -> Done:
        values = {"game": game.id, "steps": _steps(len(plan.steps)),
                  "players": players_line(game, plan.rules)}
        if game.is_over:
            return Done(_("Imported as game #{game} (finished, {steps}): {players}.", **values),
                        game=game)
        return Done(_("Imported as game #{game} (in progress, {steps}): {players}.", **values),
                    game=game)

    async def verify(self, game_id: int) -> list[str]:
        """Replay the game from its start and move list and compare every stored position;
        the problems found (none for a sound game), a row that cannot be read included."""
        async with self.db.snapshot() as s:
            row = await s.one(Game.GAME_SQL + " WHERE g.id = ?", (game_id,))
            rows = await s.all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        if row is None:
            return [f"there is no game #{game_id}"]
        try:
            game = Game.from_row(row)
            played = [PlayedMove.from_row(r) for r in rows]
        except (DamagedGame, IndexError, KeyError, ValueError, TypeError):
            return ["its stored row or moves cannot be read (a value or a column is damaged)"]
        # a replay is CPU work that a long game makes longer than a few milliseconds
        return await asyncio.to_thread(_compare, game, played)

    async def game_ids(self) -> list[int]:
        """The number of every game, however damaged its row."""
        async with self.db.snapshot() as s:
            rows = await s.all("SELECT id FROM games ORDER BY id")
        return [r["id"] for r in rows if isinstance(r["id"], int)]

    async def salvage(self, game_id: int) -> str:
        """What can be saved of a damaged game: the steps that replay from its start, as a
        record's move list (a game can be continued from a record: `offer_import`)."""
        async with self.db.snapshot() as s:
            row = await s.one("SELECT variant, start_fen FROM games WHERE id = ?", (game_id,))
            rows = await s.all("SELECT ply, turn, text FROM moves WHERE game_id = ? "
                               "ORDER BY ply", (game_id,))
        rules = start = None
        try:
            rules = get_variant(str(row["variant"])) if row else None
            start = rules.parse_position(str(row["start_fen"])) if rules and row else None
        except EngineError:
            pass
        if rules is None or start is None:
            return "nothing: its variant or start position cannot be read"
        turns: list[list[str]] = []
        for r in rows:
            if not isinstance(r["text"], str) or not isinstance(r["turn"], int):
                break
            if r["turn"] == len(turns):
                turns.append([])
            elif r["turn"] != len(turns) - 1:
                break
            turns[-1].append(r["text"])
        steps = 0
        try:
            for _step in replay(rules, start, turns):
                steps += 1
        except (RecordError, EngineError, ValueError, IndexError):
            pass
        texts = [t for turn in turns for t in turn][:steps]
        if not texts:
            return f"its start ({rules.display_name}); none of its {len(rows)} step(s) replay"
        return (f"{plural(len(texts), 'step')} of {len(rows)} replay from its start "
                f"({rules.display_name}): {' '.join(texts)}")


def _compare(game: Game, played: list[PlayedMove]) -> list[str]:
    """What differs between a stored game and its replay."""
    try:
        rules = get_variant(game.variant)
    except EngineError:
        return [f"its variant {game.variant[:40]!r} is unknown"]
    problems = []
    if [p.ply for p in played] != list(range(game.ply)):
        problems.append(f"the moves are numbered {[p.ply for p in played]}, "
                        f"expected 0..{game.ply - 1}")
    try:
        steps = list(replay(rules, rules.parse_position(game.start_fen), _turns(played)))
    except (RecordError, EngineError) as err:
        return problems + [f"the moves do not replay: {err}"]
    for p, step in zip(played, steps, strict=True):
        fen = rules.format_position(step.position)
        if fen != p.fen or p.partial != step.position.in_progress or p.side != step.side:
            problems.append(f"step {p.ply} ({p.text}) stored {p.fen!r}, replay gives {fen!r}")
    final = rules.format_position(steps[-1].position) if steps else game.start_fen
    if final != game.fen:
        problems.append(f"the game holds {game.fen!r}, replay gives {final!r}")
    if game.turns != sum(1 for p in played if not p.partial):
        problems.append(f"the game counts {game.turns} turns")
    return problems


def _turns(played: list[PlayedMove]) -> list[list[str]]:
    """The steps of each turn, from the stored moves."""
    turns: list[list[str]] = []
    for p in played:
        if p.turn == len(turns):
            turns.append([])
        elif p.turn != len(turns) - 1:  # a damaged row
            raise RecordError(f"step {p.ply} is numbered as turn {p.turn}")
        turns[-1].append(p.text)
    return turns


def pgn_time_control(days: int | None, time_control: str | None) -> str:
    """A game's clock as PGN's TimeControl tag writes it: ``-`` for none, ``1/S`` for one
    move in S seconds (days per move), ``B+I`` for a Fischer bank of B seconds gaining I a
    move. A bank's cap and a total per player have no PGN form and are left out."""
    tc = read_time_control(time_control)
    if tc is None:
        return "-" if days is None else f"1/{days * DAY:.0f}"
    if tc.fischer:
        assert tc.increment is not None
        return f"{tc.days * DAY:.0f}+{tc.increment * DAY:.0f}"
    return f"1/{tc.days * DAY:.0f}" if tc.days else "-"


def _days(time_control: str) -> int | None:
    """Days per move from a TimeControl tag: PGN's ``-`` or ``1/259200`` (what exports
    write), or the words older exports wrote (``3 days per move``, ``no clock``)."""
    text = time_control.strip()
    if text in ("-", "?", ""):
        return None
    moves, slash, seconds = text.partition("/")
    if slash and moves == "1" and seconds.isascii() and seconds.isdigit():
        whole, rest = divmod(int(seconds), int(DAY))
        return parse_days(f"{whole} days" if not rest else text)
    words = text.lower().removesuffix(" per move")
    return parse_days("none" if words == "no clock" else words)


def _standard_start(rules: Variant, fen: str, mode: str) -> bool:
    """Whether ``fen`` is the variant's start position for ``mode``."""
    try:
        return rules.format_position(rules.start_position(mode)) == fen
    except EngineError:  # a mode without a start position (Commander Chess sea-air)
        return False


def _cotulenh_record(rules: Variant, start: Position, tags: dict[str, str],
                     entries: list[TurnEntry], result: str) -> str:
    """A Commander Chess game in the cotulenh site's dialect: its completed turns in the
    site's SAN, from the start position the FEN tag gives."""
    site_tags = {k: v for k, v in tags.items() if k not in ("Variant", "Mode")}
    site_tags.update({"SetUp": "1", "FEN": rules.format_position(start),
                      "Variant": tags["Variant"], "Mode": tags["Mode"]})
    position, moves = start, []
    for entry in entries:
        if not entry.complete:
            break
        move = rules.parse_move(position, entry.text)
        moves.append(cotulenh.cotulenh_san(rules, position, move))
        position = rules.make_move(position, move)
    return cotulenh.write_cotulenh(site_tags, moves, result)


def _read_any(text: str) -> tuple[GameRecord, bool]:
    """A record in our format, or in the cotulenh site's dialect (then True, each turn its
    one move as the site writes it): the site's when it names its players ``Red`` and
    ``Blue`` without a Variant tag, or names Commander Chess and writes its moves as PGN
    movetext (several on a line), which our format never does for it."""
    tags = cotulenh.read_tags(text)
    variant = tags.get("Variant")
    if variant is None:
        site = "Red" in tags and "Blue" in tags
    else:
        site = _is_commander(variant) and cotulenh.is_pgn_movetext(text)
    if not site:
        return read_record(text), False
    read = cotulenh.read_cotulenh(text)
    return GameRecord({"Variant": "commander", **read.tags}, [(m,) for m in read.moves],
                      read.result), True


def _is_commander(name: str) -> bool:
    try:
        return get_variant(name).name == "commander"
    except EngineError:
        return False


@dataclass(frozen=True)
class _Import:
    """A record read and replayed, ready to become a game."""

    rules: Variant
    mode: str
    days: int | None
    start: Position
    steps: list[Any]
    final: Position
    outcome: Outcome
    result: str
    termination: str
    side: int  # the importer's side


def _steps(n: int) -> Text:
    """``1 step``, ``3 steps``: how many steps a record holds."""
    return _n("{n} step", "{n} steps", n)


def _words(err: ValueError) -> str:
    """What a record's reader or a clock's parser says in ``err``: its message, which the
    catalogue words in the reader's language (``str(err)`` keeps only the English)."""
    return err.args[0] if err.args and isinstance(err.args[0], str) else str(err)


def _cannot_import(reason: str) -> Refusal:
    """A record refused: ``reason`` is the record reader's or the engine's words."""
    return Refusal(Reason.BAD_RECORD, _("That record cannot be imported: {reason}",
                                        reason=reason))


def _read_import(text: str, sender: Player, opponent: Player) -> _Import | Refusal:
    """Read and replay a record to import: the game it describes, or why it cannot be."""
    if opponent.id == sender.id:
        return Refusal(Reason.SELF_CHALLENGE, _("You cannot play a game against yourself."))
    try:
        record, site = _read_any(text)
        rules = get_variant(record.tags.get("Variant", ""))
    except (RecordError, EngineError) as err:
        return _cannot_import(engine_words(err) if isinstance(err, EngineError) else
                              _words(err))
    mode = record.tags.get("Mode", rules.modes[0])
    if mode not in rules.modes:
        return Refusal(Reason.BAD_RECORD,
                       _("That record cannot be imported: {variant} has no mode {mode}.",
                         variant=variant_name(rules), mode=repr(mode)))
    try:
        days = _days(record.tags.get("TimeControl", "-"))
    except ValueError as err:
        if not site:
            return Refusal(Reason.BAD_RECORD,
                           _("That record cannot be imported: {reason}.", reason=_words(err)))
        days = None  # a game of the site's live clocks goes on without a clock here
    try:
        start = (rules.parse_position(record.tags["FEN"]) if "FEN" in record.tags
                 else rules.start_position(mode))
        turns = (cotulenh.our_turns(rules, start, [t[0] for t in record.turns]) if site
                 else record.turns)
        steps = list(replay(rules, start, turns))
    except (RecordError, EngineError) as err:
        return _cannot_import(engine_words(err) if isinstance(err, EngineError) else
                              _words(err))
    final = steps[-1].position if steps else start
    boundaries = [start] + [st.position for st in steps if not st.position.in_progress]
    outcome = rules.outcome(final, boundaries[:-1] if not final.in_progress else boundaries,
                            mode)
    result = record.tags.get("Result", record.result)
    if outcome.is_over and result not in ("*", outcome.score):
        return Refusal(Reason.BAD_RECORD,
                       _("That record cannot be imported: it says {result}, but the game "
                         "ended {score} ({reason}).", result=result, score=outcome.score,
                         reason=outcome.reason))
    named = [record.tags.get(n, "").lower() for n in rules.side_names]
    if sender.display_name.lower() in named:
        side = named.index(sender.display_name.lower())
    elif opponent.display_name.lower() in named:
        side = 1 - named.index(opponent.display_name.lower())
    else:
        side = 0
    return _Import(rules, mode, days, start, steps, final, outcome, result,
                   record.tags.get("Termination", "as recorded"), side)
