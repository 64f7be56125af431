"""The e-mail transport: an incoming mail becomes one command on the game service, and its
answer, and every notification for an e-mail player, becomes a mail.

A game command (a move, resign, draw, end, takeback, abort) must come from the registered
address of a player of the game and carry that player's game key, whose move number must
be the game's move number now: a forged sender, a wrong token or a stale or repeated mail
is refused and changes nothing. Looking (board, moves, export) needs no key, and commands
about no game (help, challenge, accept, games, ...) are the shared command words.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path

from engine import EngineError, Move, get_variant

from ..commands import Commands, Reply, _reply
from ..computer import Computer
from ..config import Settings
from ..model import Game, Notification, Player
from ..records import END
from ..results import Refusal, Result
from ..service import GameService
from .inbound import SUBJECT_TAG, Drop, GameTag, Inbound, RateLimit, read_mail
from .inbound import Refusal as MailRefusal
from .outbound import Mailer, Picture, compose, game_root

log = logging.getLogger(__name__)

TRANSPORT = "email"
PLACE = "email:mail"  # where games started by mail are played; it has no public channel
ACTING_WORDS = frozenset({"move", "end", "resign", "draw", "takeback", "abort"})
LOOKING_WORDS = frozenset({"board", "moves", "export"})
LAST_MOVES = 8
ACTED = ("ran end", "ran resign", "ran draw", "ran takeback", "ran abort")
WATCHED_KINDS = frozenset({"news", "game-start", "your-move", "game-over", "takeback"})
Send = Callable[[EmailMessage], Awaitable[None]]


def _file_picture(path: Path) -> Picture | None:
    """A picture file (a rules diagram) as an attachment; None if it cannot be read."""
    try:
        return Picture(path.read_bytes(), path.name)
    except OSError:  # a missing picture must never stop a mail
        log.warning("picture %s unreadable", path, exc_info=True)
        return None


def _board_png(game: Game, position: object, last: Move | None, result: str) -> bytes | None:
    """The board as PNG bytes, or None without a renderer (CPU work: run it in a thread)."""
    try:
        from renderer import render
    except ImportError:
        return None
    try:
        return render(position, last_move=last, caption=f"Game #{game.id}: {game.names[0]} vs "
                                                      f"{game.names[1]}", result=result)
    except Exception:  # a picture must never stop a mail
        log.warning("rendering game #%s failed", game.id, exc_info=True)
        return None


class EmailGateway:
    """Turns mails into service calls and service answers and notifications into mails."""

    def __init__(self, service: GameService, settings: Settings,
                 send: Send | None = None, computer: Computer | None = None) -> None:
        self.service = service
        self.settings = settings
        self.address = settings.email_address
        self.send = send or Mailer(settings).send
        self.commands = Commands(service, self.find_player, computer)
        self.rate = RateLimit(settings.email_rate_limit)
        self.outbox_ready = asyncio.Event()  # set when a command may have queued mail
        self._delivering = asyncio.Lock()
        self._watched: set[tuple[int, int, str]] = set()  # (game, ply, kind) sent to watchers
        self._unsent: list[EmailMessage] = []  # answers the relay did not take yet

    # --- players --------------------------------------------------------------------
    async def find_player(self, name: str) -> Player | Refusal:
        """An e-mail address is an e-mail player (new ones are welcome); another name is
        looked up among e-mail players, then Discord players."""
        name = name.strip().strip("<>")
        if "@" in name:
            address = name.lower()
            known = await self.service.find_player(TRANSPORT, address)
            if isinstance(known, Player) and known.address == address:
                return known  # as they named themselves
            return await self.service.player(TRANSPORT, address, address.split("@")[0])
        found = await self.service.find_player(TRANSPORT, name)
        if isinstance(found, Refusal):
            other = await self.service.find_player("discord", name)
            return found if isinstance(other, Refusal) else other
        return found

    # --- incoming mail ----------------------------------------------------------------
    async def receive(self, raw: bytes, envelope_from: str | None = None,
                      rcpt_tos: Iterable[str] = ()) -> str:
        """Judge and answer one incoming mail; what happened, for the log and tests."""
        verdict = read_mail(raw, envelope_from, rcpt_tos, our_address=self.address,
                            max_bytes=self.settings.email_max_bytes, rate=self.rate)
        if isinstance(verdict, Drop):
            log.info("mail not answered: %s", verdict.reason)
            return f"dropped: {verdict.reason}"
        if isinstance(verdict, MailRefusal):
            log.info("mail from %s refused: %s", verdict.sender, verdict.reason)
            await self.send(compose(self.address, verdict.sender, _re(verdict.subject),
                                    verdict.text, in_reply_to=verdict.message_id,
                                    references=verdict.references))
            return f"refused: {verdict.reason}"
        player = await self._sender(verdict)
        reply, outcome = await self._run(player, verdict)
        if reply.ok and player.id and verdict.name != player.display_name \
                and verdict.name != verdict.sender.split("@")[0]:
            player = await self.service.player(TRANSPORT, player.address, verdict.name)
        if len(verdict.lines) > 1 + (len(_more_steps(verdict.lines)) if outcome == "moved"
                                     else 0):
            reply = replace(reply, text=reply.text + "\n\n(The lines after your command were "
                                                     "not read: one command per mail.)")
        await self._answer(player, verdict, reply)
        if reply.ok and reply.game is not None and outcome in ("moved", *ACTED):
            game = await self.service.game(reply.game.id)
            if game is not None:  # what the mover's answer says, the watchers get too
                await self._copy_to_watchers(game, "news", reply.text)
        self.outbox_ready.set()
        return outcome

    async def _sender(self, mail: Inbound) -> Player:
        """The player who sent ``mail``: known ones as they are (a refused mail changes
        nothing, not even a name); a new address becomes a player only by a command that
        needs no game key."""
        found = await self.service.find_player(TRANSPORT, mail.sender)
        if isinstance(found, Player) and found.address == mail.sender:
            return found
        if mail.tag is not None and self._is_game_command(mail.lines[0]):
            # a game command from an unknown address is refused without storing anyone
            return Player(0, TRANSPORT, mail.sender, mail.name)
        return await self.service.player(TRANSPORT, mail.sender, mail.name)

    async def _run(self, player: Player, mail: Inbound) -> tuple[Reply, str]:
        """Run the mail's command: its first line, since each mail carries the one move
        number it answers; only the further steps of a turn may follow, as ``move STEP``."""
        line = mail.lines[0]
        words = line.split()
        word = words[0].lower()
        if word in ("watch", "unwatch"):
            return await self._watch(player, word, words[1:])
        if word not in ACTING_WORDS | LOOKING_WORDS and hasattr(self.commands, f"cmd_{word}"):
            return await self.commands.handle(player, PLACE, line), f"ran {word}"
        if word not in ACTING_WORDS | LOOKING_WORDS:
            word, line = "move", f"move {line}"  # a line that is no command is a move
            words = line.split()
        if mail.tag is None:
            if word in LOOKING_WORDS and any(w.startswith("#") for w in words):
                return await self.commands.handle(player, PLACE, line), f"ran {word}"
            return Reply(f"`{word}` is a command for a game, so I need to know which game and "
                         f"that it is you: reply to the latest mail of the game (its reply "
                         f"address carries your key), or for looking at a game say its "
                         f"number, as in `board #12`.", ok=False), "refused: no key"
        game = await self._authenticate(player, mail.tag, word)
        if isinstance(game, Reply):
            return game, "refused: " + game.text.split(":")[0].lower()
        args = [w for w in words[1:] if not (w.startswith("#") and w[1:].isdigit())]
        if word == "move":
            if not args:
                return Reply("Which move? Write it on the first line, as in `move c3-d4`.",
                             ok=False), "refused: no move"
            return await self._steps(player, game, [" ".join(args), *_more_steps(mail.lines)],
                                     mail.tag.ply)
        reply = await self.commands.handle(player, PLACE, " ".join([word, f"#{game.id}", *args]))
        return reply, (f"ran {word}" if reply.ok else f"refused: {word}")

    def _is_game_command(self, line: str) -> bool:
        word = line.split()[0].lower()
        return word in ACTING_WORDS | LOOKING_WORDS or not hasattr(self.commands, f"cmd_{word}")

    async def _steps(self, player: Player, game: Game, steps: list[str],
                     ply: int) -> tuple[Reply, str]:
        """Play the steps of a turn in order, each expected at the next move number; the
        first refusal ends them (what was played before it stays played)."""
        texts: list[str] = []
        reply = Reply("")
        for k, step in enumerate(steps):
            reply = self.commands_reply(await self.service.move(player, game.id, step,
                                                                expected_ply=ply + k))
            texts.append(reply.text)
            if not reply.ok:
                break
        played = len(texts) - (not reply.ok)
        reply = replace(reply, text="\n".join(texts), ok=reply.ok or played > 0,
                        game=reply.game or (await self.service.game(game.id) if played else None))
        return reply, ("moved" if played else "refused: move")

    @staticmethod
    def commands_reply(result: Result) -> Reply:
        """A service result in the shared wording of answers."""
        return _reply(result)

    async def _authenticate(self, player: Player, tag: GameTag, word: str) -> Game | Reply:
        """The tagged game, if the key is this player's and (for acting) the move number is
        the game's now."""
        game = await self.service.game(tag.game_id)
        holder = await self.service.token_holder(tag.game_id, tag.token)
        if game is None or holder is None:
            return Reply(f"Wrong key: the key in your reply address does not belong to game "
                         f"#{tag.game_id}. Reply to a mail of the game that I sent you, without "
                         f"changing the address.", ok=False)
        if holder != player.id:
            return Reply(f"Wrong sender: the key of this mail belongs to another address than "
                         f"{player.address}. Send your commands for game #{game.id} from the "
                         f"address you play it with.", ok=False)
        if word in ACTING_WORDS and not game.is_over and tag.ply != game.ply:
            return Reply(f"Stale mail: it answers move {tag.ply} of game #{game.id}, but the "
                         f"game is at move {game.ply} now (the command was carried out already, "
                         f"or something else happened first). Nothing was changed; reply to "
                         f"the latest mail of the game.", ok=False, game=game)
        return game

    async def _watch(self, player: Player, word: str, args: list[str]) -> tuple[Reply, str]:
        numbers = [int(a[1:]) for a in args if a.startswith("#") and a[1:].isdigit()]
        if not numbers:
            return Reply(f"Which game? As in `{word} #12`.", ok=False), f"refused: {word}"
        act = self.service.watch if word == "watch" else self.service.unwatch
        reply = self.commands_reply(await act(player, numbers[0]))
        return reply, (f"ran {word}" if reply.ok else f"refused: {word}")

    async def _answer(self, player: Player, mail: Inbound, reply: Reply) -> None:
        """Mail the command's answer to its sender, with the board when it shows one."""
        text = reply.text
        game = reply.game
        if reply.record and reply.record != text:
            text += "\n\n" + reply.record
        if game is None:
            picture = _file_picture(reply.pictures[0]) if reply.pictures else None
            await self._send_answer(compose(self.address, player.address, _re(mail.subject), text,
                                    in_reply_to=mail.message_id, references=mail.references,
                                    picture=picture))
            return
        game = await self.service.game(game.id) or game
        await self._send_answer(await self.game_mail(
            player, game, text, subject=_re(mail.subject) if mail.subject else None,
            in_reply_to=mail.message_id, references=mail.references, ply=reply.ply))

    async def _send_answer(self, mail: EmailMessage) -> None:
        """Send the answer to a command that has run; if the relay fails, keep it to send
        with the next delivery (the sender's server must not retry a command that ran)."""
        try:
            await self.send(mail)
        except Exception:
            log.warning("answer to %s kept for later: the relay failed", mail["To"],
                        exc_info=True)
            self._unsent.append(mail)

    async def _send_unsent(self) -> None:
        while self._unsent:
            await self.send(self._unsent[0])
            self._unsent.pop(0)

    # --- game mails -------------------------------------------------------------------
    async def game_mail(self, recipient: Player, game: Game, text: str, *,
                        subject: str | None = None, in_reply_to: str | None = None,
                        references: Iterable[str] = (), message_id: str | None = None,
                        ply: int | None = None, keyed: bool = True) -> EmailMessage:
        """A mail about ``game``: ``text``, the game's state, its last moves, the deadline
        and the board; with the recipient's game key when they play in it."""
        side = game.side_of(recipient.id)
        tag = None
        if keyed and side is not None and not game.is_over:
            tag = GameTag(game.id, game.ply, await self.service.game_token(game.id, recipient.id))
        body = [text, "", self.commands.describe(game)]
        body += await self._last_moves(game)
        if tag is not None:
            body += ["", f"This is move {game.ply} of the game. Reply to this mail with your "
                         f"command on the first line: a move (`move c3-d4`), `board`, "
                         f"`resign`, `draw`, `export` or `help`."]
        elif not game.is_over:
            body += ["", f"You are watching this game; `unwatch #{game.id}` stops these mails."]
        picture = await self._picture(game, ply)
        if picture is None:
            body += ["", "(No board picture: the renderer is not available.)"]
        base = subject or f"Game #{game.id}: {game.names[0]} vs {game.names[1]}"
        return compose(self.address, recipient.address, base, "\n".join(body), tag=tag,
                       game_id=game.id, in_reply_to=in_reply_to or game_root(game.id,
                                                                             self.address),
                       references=tuple(references), message_id=message_id, picture=picture,
                       auto="auto-replied" if in_reply_to else "auto-generated")

    async def _last_moves(self, game: Game) -> list[str]:
        played = await self.service.played_moves(game.id)
        if not played:
            return ["No moves yet."]
        names = get_variant(game.variant).side_names
        shown = [f"  {m.ply + 1}. {names[m.side]}: {m.text}" for m in played[-LAST_MOVES:]]
        more = "" if len(played) <= LAST_MOVES else f" (the last {LAST_MOVES} of {len(played)})"
        return [f"Moves{more}:", *shown]

    async def _picture(self, game: Game, ply: int | None) -> Picture | None:
        ply = game.ply if ply is None else max(0, min(ply, game.ply))
        position = await self.service.position(game, ply)
        last = await self._last_move(game, ply)
        result = self.service.describe_result(game) if game.is_over else ""
        png = await asyncio.to_thread(_board_png, game, position, last, result)
        return Picture(png, f"game-{game.id}-{ply}.png") if png else None

    async def _last_move(self, game: Game, ply: int) -> Move | None:
        if ply == 0:
            return None
        played = await self.service.played_moves(game.id)
        if ply > len(played) or played[ply - 1].text == END:
            return None
        before = await self.service.position(game, ply - 1)
        try:
            return get_variant(game.variant).parse_move(before, played[ply - 1].text)
        except EngineError:
            return None

    # --- the outbox -------------------------------------------------------------------
    async def deliver_outbox(self) -> int:
        """Mail every pending notification for e-mail players; how many were sent."""
        async with self._delivering:
            self.outbox_ready.clear()
            await self._send_unsent()
            return await self.service.deliver(TRANSPORT, self._deliver)

    async def _deliver(self, note: Notification) -> None:
        game = await self.service.game(note.game_id) if note.game_id is not None else None
        message_id = f"<note-{note.id}@{self.address.rsplit('@', 1)[-1]}>"
        if note.player_id is not None and note.address:
            player = await self.service.get_player(note.player_id)
            if player is not None and game is not None:
                await self.send(await self.game_mail(player, game, note.text,
                                                     message_id=message_id))
            elif player is not None:
                await self.send(compose(self.address, player.address, _subject(note),
                                        note.text, message_id=message_id,
                                        auto="auto-generated"))
        if game is not None:
            await self._copy_to_watchers(game, note.kind, note.text)

    async def _copy_to_watchers(self, game: Game, kind: str, text: str) -> None:
        """The same mail to the game's e-mail watchers, once per move or ending."""
        key = (game.id, game.ply, "over" if game.is_over else "news")
        if key in self._watched or kind not in WATCHED_KINDS:
            return
        if len(self._watched) > 100_000:  # only recent events can come twice
            self._watched.clear()
        self._watched.add(key)
        for watcher in await self.service.watchers(game.id):
            if watcher.transport == TRANSPORT and game.side_of(watcher.id) is None:
                await self._send_answer(await self.game_mail(watcher, game, text, keyed=False))


def _more_steps(lines: tuple[str, ...]) -> list[str]:
    """The further steps of a turn written below the first move, one per line, each as
    ``move STEP`` (or ``end``); other lines are not commands."""
    steps = []
    for line in lines[1:]:
        words = line.split()
        if words[0].lower() == "end" and len(words) == 1:
            steps.append("end")
        elif words[0].lower() == "move" and len(words) > 1:
            steps.append(" ".join(w for w in words[1:] if not w.startswith("#")))
        else:
            break
    return steps


def _re(subject: str) -> str:
    """The subject of an answer to ``subject``, without the game key it carried."""
    subject = " ".join(SUBJECT_TAG.sub("", subject).split())
    if not subject:
        return "Your mail to commandpost"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _subject(note: Notification) -> str:
    return {"challenge": "A challenge for you", "reminder": "A reminder"}.get(
        note.kind, "News from commandpost")
