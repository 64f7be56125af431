"""The mails about a game: the answer or news, then the game as text — whose turn, the
deadline, the last turn in full, a text board (the console's, for mail programs that block
pictures), the last moves and the exact line to send — and the board as a PNG picture.

`GameMails` is part of `EmailGateway` (which provides the service, the address and the
commands).
"""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage
from typing import Any

from engine import get_variant

from ..commands import Commands
from ..i18n import SOURCE, Text, _, render
from ..pictures import picture_options, points_destroyed
from ..service import GameService
from ..service.model import Challenge, Game, Player
from ..service.phrasing import phrase
from ..service.tournaments import Tournament
from ..service.turns import turn_entries
from ..textboard import caption, text_board
from .inbound import ChallengeTag, GameTag
from .machine import root_id
from .outbound import Picture, compose, domain_of

log = logging.getLogger(__name__)
LAST_MOVES = 8


def game_subject(game: Game) -> Text:
    """The subject of the first mail about ``game``: no key, no move number. It is kept
    (`MailLedger.mail_subject`, per language) and every later mail has it, whatever is
    renamed."""
    return _("Game #{game}: {white} vs {black} — {variant}", game=game.id,
             white=game.names[0], black=game.names[1],
             variant=get_variant(game.variant).display_name)


def challenge_subject(challenge: Challenge) -> Text:
    """The one subject of every mail about ``challenge``."""
    return _("Challenge #{challenge}: {challenger} vs {opponent} — {variant}",
             challenge=challenge.id, challenger=challenge.challenger_name,
             opponent=challenge.opponent_name or _("anyone"),
             variant=get_variant(challenge.variant).display_name)


def tournament_subject(t: Tournament, kind: str, round_number: int | None = None) -> Text:
    """The subject of a tournament's news of ``kind`` (an outbox kind, `TOURNAMENT_KINDS`):
    the tournament's name first, then what happened (``Tournament T3: round 2``)."""
    if kind == "tournament-new":
        return _("New tournament {ref}: {name}", ref=t.ref, name=t.name)
    if kind == "tournament-entry":
        return _("Tournament {ref}: a new player", ref=t.ref)
    if kind == "tournament-start":
        return _("Tournament {ref}: it has started", ref=t.ref)
    if kind == "tournament-games":
        return _("Tournament {ref}: your games", ref=t.ref)
    if kind == "tournament-round":
        return _("Tournament {ref}: round {round}", ref=t.ref, round=round_number or t.round)
    if kind == "tournament-over":
        return _("Tournament {ref}: it is over", ref=t.ref)
    return _("Tournament {ref}: news", ref=t.ref)


TOURNAMENT_KINDS = frozenset({"tournament-new", "tournament-entry", "tournament-start",
                              "tournament-games", "tournament-round", "tournament-news",
                              "tournament-over"})


def thread_of(what: str, number: int, language: str) -> str:
    """The key of a thread's kept subject (``game:12``): one per language its readers
    read, so that each reader's subject stays the same in their own language."""
    return f"{what}:{number}" if language == SOURCE else f"{what}:{number}:{language}"


def _board_png(position: object, options: dict[str, Any]) -> bytes | None:
    """The board as PNG bytes, or None without a renderer (CPU work: run it in a thread)."""
    try:
        from renderer import render
    except ImportError:
        return None
    try:
        return render(position, **options)  # type: ignore[arg-type]
    except Exception:  # a picture must never stop a mail
        log.warning("rendering a game's picture failed", exc_info=True)
        return None


class GameMails:
    """Composing the mails about games and challenges."""

    service: GameService
    address: str
    commands: Commands
    _secret: str | None = None  # this database's Message-ID secret, once read

    async def mail_secret(self) -> str:
        """This database's secret for the Message-IDs it sends (read once)."""
        if self._secret is None:
            self._secret = await self.service.mail.mail_secret()
        return self._secret

    async def game_root(self, game_id: int) -> str:
        """The Message-ID every mail of game ``game_id`` refers to (see `machine.root_id`)."""
        return root_id(await self.mail_secret(), game_id, domain_of(self.address))

    async def tag_for(self, player: Player, game: Game) -> GameTag | None:
        """``player``'s key of ``game`` at its move number now (None: not a player)."""
        if player.id == 0 or game.side_of(player.id) is None:
            return None
        token = await self.service.tokens.game_token(game.id, player.id, game.ply)
        return GameTag(game.id, game.ply, str(token))

    async def challenge_tag(self, player: Player, challenge: Challenge) -> ChallengeTag:
        return ChallengeTag(challenge.id,
                            await self.service.tokens.challenge_token(challenge.id, player.id))

    async def game_mail(self, recipient: Player, game: Game, text: str, *,
                        in_reply_to: str | None = None, references: tuple[str, ...] = (),
                        message_id: str | None = None, ply: int | None = None,
                        keyed: bool = True, highlights: tuple[str, ...] = (),
                        selected: str | None = None, language: str = SOURCE) -> EmailMessage:
        """A mail about ``game``: ``text``, the game as text, and the board picture, seen
        from the reader's side (a watcher's: the side to move), with the whole last turn
        marked, or a piece's moves (``selected``, ``highlights``). A player's copy carries
        their key of the game's move number now, in Reply-To only (never in the text, which
        a forward or a quote passes on). Worded in the reader's ``language``."""
        tag = await self.tag_for(recipient, game) if keyed else None
        body = [render(text, language), "", *await self.game_text(game, recipient, language)]
        side = game.side_of(recipient.id) if recipient.id else None
        picture = await self._picture(game, ply, game.to_move if side is None else side,
                                      highlights, selected, language)
        if picture is None:
            body += ["", render(_("(No board picture: the renderer is not available.)"),
                                language)]
        link = await self.service.watching.game_link(game.id)
        if link:
            body += ["", render(_("Watch the game in a browser: {link}", link=link), language)]
        subject = await self.service.mail.mail_subject(thread_of("game", game.id, language),
                                                       render(game_subject(game), language))
        return compose(self.address, recipient.address, subject,
                       phrase("\n".join(body), "email"), language=language,
                       tag=tag, root=(root := await self.game_root(game.id)),
                       in_reply_to=in_reply_to or root,
                       references=references, message_id=message_id, picture=picture,
                       auto="auto-replied" if in_reply_to else "auto-generated")

    async def game_text(self, game: Game, reader: Player,
                        language: str = SOURCE) -> list[str]:
        """The game as text: state, last turn, text board, moves, what to send, in the
        reader's ``language``."""
        rules = get_variant(game.variant)
        played = await self.service.played_moves(game.id)
        position = await self.service.position(game)
        lines: list[str] = [self.commands.describe(game)]
        entries = turn_entries(game, played)  # as the record and every move list write them
        if entries:
            last = entries[-1]
            turn = last.line + ("." if last.complete else "")
            lines.append(_("Last turn: {name} ({side}): {turn}", name=game.names[last.side],
                           side=rules.side_names[last.side], turn=turn))
        marked = await self._marked(game)
        lines += ["", text_board(rules, position, marked)]
        lines += [""] if game.is_over else [
            caption(rules, position, points_destroyed(game, played)), ""]
        lines += _move_list([entry.line for entry in entries])
        lines += ["", *await self._what_to_send(game, reader)]
        return [render(line, language) for line in lines]

    async def _what_to_send(self, game: Game, reader: Player) -> list[str]:
        side = game.side_of(reader.id) if reader.id else None
        if side is None:
            watching = reader.id and any(w.id == reader.id
                                         for w in await self.service.rooms.watchers(game.id))
            if game.is_over:
                return [_("The game is over.")]
            return ([_("You are watching this game; `unwatch #{game}` stops these mails.",
                       game=game.id)]
                    if watching else [_("You do not play in this game; `watch #{game}` mails "
                                        "you its every move.", game=game.id)])
        # a variant without draws by agreement offers no `draw`
        draw = "`draw`, " if get_variant(game.variant).draw_by_agreement else ""
        if game.is_over:
            what = [_("The game is over. Reply with `export` for its record, or `board` for "
                      "the final position.")]
        elif game.to_move == side:
            example = example_move(await self.service.legal_moves(game))
            # the example stays inside the sentence: a line of this mail is never read as
            # a command (`reading.without_quoted_lines`), a line the player writes is
            what = [_("Your move. Reply to this mail with your move on the first line, for "
                      "example `move {example}` (or `moves` for the legal moves, `board`, "
                      "{draw}`resign`, `takeback`, `help`).", example=example, draw=draw)]
        else:
            what = [_("It is {name}'s turn: you get a mail when they have moved. Meanwhile "
                      "you may reply with `board`, {draw}`resign`, `takeback`, `export` or "
                      "`help`.", name=game.names[game.to_move], draw=draw)]
        return what

    async def _marked(self, game: Game) -> list[str]:
        """The points of every step of the last turn, to mark on the text board."""
        return [p for move in await self.service.turns.turn_moves(game) for p in move.touched]

    async def _picture(self, game: Game, ply: int | None, perspective: int = 0,
                       highlights: tuple[str, ...] = (), selected: str | None = None,
                       language: str = SOURCE) -> Picture | None:
        """The board picture of ``game`` after ``ply`` steps, its words in the reader's
        ``language`` (the language the mail is written in)."""
        ply = game.ply if ply is None else max(0, min(ply, game.ply))
        position, options = await picture_options(
            self.service, game, perspective=perspective, ply=ply, highlights=highlights,
            selected=selected, show_last=not selected, language=language)
        png = await asyncio.to_thread(_board_png, position, options)
        return Picture(png, f"game-{game.id}-{ply}.png") if png else None


def _move_list(turns: list[str]) -> list[str]:
    """The last turns, numbered as in the game's record."""
    if not turns:
        return [_("No moves yet.")]
    head = _("Moves:") if len(turns) <= LAST_MOVES else _(
        "Moves (the last {last} of {count}):", last=LAST_MOVES, count=len(turns))
    return [head, *(f"  {line}" for line in turns[-LAST_MOVES:])]


PLAIN_MARKS = frozenset("x:/,=*+#>")  # what a plain step (``c3-d4``) has none of


def example_move(moves: list[str]) -> str:
    """The legal move a your-move mail shows as its example: the first plain step (from one
    point to another, no capture, build, transformation or second part) where there is one,
    so that the example reads like an ordinary move, not like taking one's own piece."""
    plain = [m for m in moves if "-" in m and not PLAIN_MARKS & set(m)]
    return (plain or moves or ["c3-d4"])[0]
