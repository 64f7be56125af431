"""The e-mail transport: an incoming mail becomes one command on the game service, and its
answer, and every notification for an e-mail player, becomes a mail.

Authority comes from keys, not from the From header (which anyone can write). Every mail
the service sends about a game or a challenge carries the recipient's key in its Reply-To
address, and only there (never in a text, which forwards and quotes pass on); a game key is
the player's for one move number, so it stops working once the game has moved on
(`bot.service.tokens`). A command that changes a game or a challenge (see
`mailcommands.KEYED_WORDS`) is carried out only with the key of a player of it, sent from
that player's address, and a key of an older move number is refused as stale, whatever the
command. An explicit number (`resign #2`) is obeyed only with that game's key: in a reply
about another game it is refused, never replaced by the key's game. Without a key, the
answer tells what to send and lists the sender's games and challenges by number: it goes to
the real owner of the address, so a forger learns nothing. Where the sender's domain signs
its mail, its valid signature is required too (`authenticity`): without it the mail is not
read, and its From address is told why at most once an hour (`_not_authentic`).

Every answer keeps the thread (In-Reply-To, References, one subject per game) and the key,
whatever it says. Every mail is worded in its reader's language: the one they chose
(`language`), else, for an answer, the one the mail answered says it is in
(Content-Language, Accept-Language: `MAIL_LANGUAGE`), else English; news of a game (a move,
a challenge, a watcher's copy) in the language of the one it goes to, never its sender's.
A mail with the same Message-ID as one answered, or the same command with
the same key, gets no second answer. Rate limits count per key and per unkeyed sender
apart, in the database; a keyed move over the limit is answered with when to retry.

Every answer is written to the outbox before `receive` returns, that is before our SMTP
server says 250 to the sender's: a relay that is down, or a restart, delays an answer but
never loses it (it is mailed by the outbox's delivery, with retries, like every
notification; the mail is composed when it is sent, so it carries the key of that moment).
A command that changes something writes a placeholder of its answer in the same
transaction as the change (`bot.service.answers`), and the answer replaces it: a crash between the
two still answers the sender, after a short hold, with their games and keys (`CARRIED_OUT`).
The mail is remembered as answered in that same transaction, so the sender's server sending
it again after such a crash (no 250 came) gets no second answer: the held one is the answer.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from email.message import EmailMessage
from pathlib import Path

from engine import get_variant

from ..commands import Reply, _reply
from ..config import Settings
from ..i18n import SOURCE, Text, _, _n, joined, moment, render
from ..service import GameService
from ..service.answers import Owed, owe_answer
from ..service.boundary import game_number
from ..service.computer import Computer
from ..service.mail_ledger import remember_seen
from ..service.model import Challenge, Game, Notification, Player
from ..service.outbox import MESSAGE, DeliveryFailure, worded
from ..service.phrasing import phrase
from ..service.results import Refusal, Result
from ..service.tournaments import Pairing, Tournament, game_started
from ..service.turns import numbered_turns
from ..storage import Session
from ..tournament_commands import ANSWERED_GAME
from .authority import (
    NAMED,
    NO_WORDS,
    YES_WORDS,
    Authority,
    Confirmed,
    Confirming,
    Key,
    confirmed_key,
    doubted,
    says_no,
    says_yes,
    unclear,
)
from .gamemail import (
    TOURNAMENT_KINDS,
    GameMails,
    challenge_subject,
    thread_of,
    tournament_subject,
)
from .inbound import NOT_AUTHENTIC, ConfirmTag, Drop, GameTag, Inbound, Tag, read_mail
from .inbound import Refusal as MailRefusal
from .machine import looks_like_bounce, message_id, parse_headers, quoted_notes, read_bounce
from .mailcommands import (
    ABOUT_TOURNAMENTS,
    CHALLENGE_WORDS,
    GAME_WORDS,
    KEYED_WORDS,
    LOOKING_WORDS,
    MAIL_LANGUAGE,
    PLAYER_WORDS,
    TOURNAMENT_LOOKING,
    TOURNAMENT_WORDS,
    TRANSPORT,
    ChallengeMade,
    LinkRequest,
    MailCommands,
)
from .outbound import Mailer, Picture, compose, domain_of, failure_of, refused_recipient
from .reading import (
    command_line,
    find_command,
    fingerprints_of,
    first_word,
    is_command_line,
    is_reply_subject,
    normalise,
    without_quoted_lines,
)

log = logging.getLogger(__name__)

# the threads that read incoming mail: their own, so that mail waiting for DNS (a sender's
# DKIM key, up to 6 s when DNS is down) never holds the threads that draw pictures
READERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="mail-reader")
PLACE = "email:mail"  # where games started by mail are played; it has no public channel
HOUR = 3600.0
ACTED = ("ran end", "ran resign", "ran draw", "ran takeback", "ran abort")
WATCHED_KINDS = frozenset({"news", "game-start", "your-move", "game-over", "takeback"})
# keyed commands that mean nothing twice: the same one with the same key is a duplicate
# (a draw offer or takeback request may be made again after it was declined)
ONCE_WORDS = frozenset({"move", "end", "resign", "abort", "accept", "decline", "cancel"})
# a tournament's news of its place that its e-mail players get each (`_to_tournament_players`)
PLACE_NEWS = frozenset({"tournament-round", "tournament-news"})
SLIP_WORDS = 4  # a first line of more words is prose, not a command's slip
SILENT = Reply("", ok=False)  # over a limit again: no answer
LOOP_LIMIT = 3  # mails in a row answered with "no command" before a sender's silence
BOUNCED = "a bounce reported it undeliverable"  # the reason a believed bounce gives
LOOP_QUIET = HOUR  # how long such a sender gets no answer to mail without a command
ANSWER = "answer"  # the outbox kind of an answer to a mail
# what a command's answer says when it was lost (see `bot.service.answers`): the games follow
CARRIED_OUT = _("Your mail was received and carried out, but its answer was lost on the "
                "way; here is where your games stand now.")
Send = Callable[[EmailMessage], Awaitable[None]]


def _file_picture(path: Path) -> Picture | None:
    """A picture file (a rules diagram) as an attachment; None if it cannot be read."""
    try:
        return Picture(path.read_bytes(), path.name)
    except OSError:  # a missing picture must never stop a mail
        log.warning("picture %s unreadable", path, exc_info=True)
        return None


@dataclass(frozen=True)
class MailReply(Reply):
    """An answer about a challenge (whose key its mail carries)."""

    challenge: Challenge | None = None


class EmailGateway(GameMails, Authority):
    """Turns mails into service calls and service answers and notifications into mails."""

    def __init__(self, service: GameService, settings: Settings,
                 send: Send | None = None, computer: Computer | None = None) -> None:
        self.service = service
        self.settings = settings
        self.address = settings.email_address
        self.send = self._recorded(send or Mailer(settings).send)
        self.commands = MailCommands(service, self.find_player, TRANSPORT, computer)
        self.outbox_ready = asyncio.Event()  # set when a command may have queued mail
        self.courier = service.courier(TRANSPORT, self._deliver)
        self._watched: set[tuple[int, int, str]] = set()  # (game, ply, kind) sent to watchers

    def _recorded(self, send: Send) -> Send:
        """``send``, remembering first the lines of every mail it sends (their fingerprints,
        by Message-ID): a reply that quotes them is not read as a command."""
        async def recorded(mail: EmailMessage) -> None:
            body = mail.get_body(preferencelist=("plain",))
            if mail["Message-ID"] and body is not None:
                await self.service.sent_lines.record(
                    str(mail["Message-ID"]).strip(), fingerprints_of(str(body.get_content())))
            await send(mail)
        return recorded

    # --- players --------------------------------------------------------------------
    async def find_player(self, name: str) -> Player | Refusal:
        """An e-mail address is an e-mail player (new ones are welcome, unless the address
        said `stop`, or never wrote and was mailed a challenge once already); another name
        is looked up among e-mail players, then Discord players."""
        name = name.strip().strip("<>")
        if "@" in name:
            address = name.lower()
            refused = await self.unreachable(address)
            if refused is not None:
                return refused
            known = await self.service.find_player(TRANSPORT, address)
            if isinstance(known, Player) and known.address == address:
                return known  # as they named themselves
            linked = await self.service.tokens.linked_player(address)
            if linked is not None and (player := await self.service.get_player(linked)):
                return player
            made = await self.service.player(TRANSPORT, address, address.split("@")[0])
            if isinstance(made, Player) and (named := NAMED.get()) is not None:
                named.append(made.id)  # removed again if the challenge is refused
            return made
        found = await self.service.find_player(TRANSPORT, name)
        if isinstance(found, Refusal):
            other = await self.service.find_player("discord", name)
            return found if isinstance(other, Refusal) else other
        if (refused := await self.unreachable(found.address)) is not None:
            return refused
        return found

    async def _header_name(self, player: Player, name: str) -> Player:
        """An invited player, called by their address's local part (``bob``), takes the
        name their From header gives (``Bob Smith``) when their first mail to us carries
        their key (the answer to the invitation); later mails never change a name (`name`
        does)."""
        if player.display_name != player.address.split("@")[0] or not name \
                or "@" in name or name.startswith("#") or name == player.display_name:
            return player
        taken = await self.service.find_player(TRANSPORT, name)
        if isinstance(taken, Player) and taken.id != player.id:
            return player
        named = await self.service.player(TRANSPORT, player.address, name)
        return named if isinstance(named, Player) else player

    async def _sender(self, mail: Inbound | MailRefusal, proven: bool) -> Player:
        """The player who sent ``mail``: known ones as they are (a mail never changes a
        name), by their address or a linked one; a new address becomes a player, named as
        its From header says, only by a command it confirmed (``proven``): else the answer
        goes to a player that is not stored, and a forged or merely curious mail leaves no
        player behind."""
        found = await self.player_by_address(mail.sender)
        if found is not None:
            return found
        if proven:
            made = await self.service.player(TRANSPORT, mail.sender, mail.name)
            if isinstance(made, Player):
                return made
        return Player(0, TRANSPORT, mail.sender, mail.name)

    # --- incoming mail ----------------------------------------------------------------
    async def receive(self, raw: bytes, envelope_from: str | None = None,
                      rcpt_tos: Iterable[str] = ()) -> str:
        """Judge and answer one incoming mail; what happened, for the log and tests."""
        if (bounce := await self._bounce(raw, envelope_from)) is not None:
            return bounce
        # in a thread: parsing a stranger's mail must never hold up the event loop (the
        # Discord bot shares it), and checking a DKIM signature may wait for DNS
        verdict = await asyncio.get_running_loop().run_in_executor(READERS, functools.partial(
            read_mail, raw, envelope_from, list(rcpt_tos), our_address=self.address,
            max_bytes=self.settings.email_max_bytes,
            authserv=self.settings.email_trust_auth_results))
        if isinstance(verdict, Drop):
            log.info("mail not answered: %s", verdict.reason)
            return f"dropped: {verdict.reason}"
        seen = f"id:{verdict.message_id}" if verdict.message_id else None
        if seen and await self.service.mail.seen_before(seen):
            return "dropped: a duplicate (this Message-ID was answered)"
        if isinstance(verdict, MailRefusal) and verdict.reason == NOT_AUTHENTIC:
            return await self._not_authentic(verdict)
        outcome = await self._handle(verdict)
        if seen:
            await self.service.mail.mark_seen(seen)
        self.outbox_ready.set()
        return outcome

    async def _bounce(self, raw: bytes, envelope_from: str | None) -> str | None:
        """For a bounce (never answered), what it did: the addresses it reports failed are
        marked bounced, as a 5xx would, each only if the bounce quotes the Message-ID of a
        mail we sent to it. None for other mail."""
        if not looks_like_bounce(await asyncio.to_thread(parse_headers, raw), envelope_from):
            return None
        bounce = await asyncio.to_thread(read_bounce, raw)
        if not bounce.failed:
            return None  # machine mail all the same: `read_mail` drops it
        notes = quoted_notes(bounce.text, await self.mail_secret(), domain_of(self.address))
        mailed = {n: await self.service.mail.mail_recipient(n) for n in notes}
        believed = [a for a in bounce.failed if a in mailed.values()]
        for address in believed:
            await self.service.mail.mark_bounced(address, BOUNCED)
        for note, address in mailed.items():
            if address in believed:  # a challenge that never arrived is withdrawn
                await self.service.mail.note_bounced(note, BOUNCED)
        if believed:
            log.info("a bounce marked %s address(es) unreachable", len(believed))
            return f"dropped: a bounce (marked {', '.join(believed)} bounced)"
        return "dropped: a bounce not about mail we sent"

    async def _not_authentic(self, mail: MailRefusal) -> str:
        """A signing domain's mail without its valid signature: its From address is told
        why, at most once an hour (the mail may be forged, and the answer then goes to the
        one whose address was used: once tells them, more would be mail we make others
        send), and not at all after `stop`. Nothing else happens: the address does not count
        as having written, no player is made, no key is listed, and its Message-ID is not
        remembered (the same mail coming directly, unbroken, must still be read)."""
        if (await self.service.mail.mail_address(mail.sender))["stopped_at"] is not None:
            return "dropped: not authentic (the address said stop)"
        count = await self.service.mail.count_mail(f"forged:{mail.sender}", HOUR)
        if count.count > 1:
            return "dropped: not authentic (told within the hour)"
        stranger = Player(0, TRANSPORT, mail.sender, mail.name)
        language = self.commands.language_of(await self.player_by_address(mail.sender),
                                             mail.language)
        await self._answer(stranger, replace(mail, tag=None),
                           Reply(render(mail.text, language), ok=False), None)
        self.outbox_ready.set()
        return f"refused: {NOT_AUTHENTIC}"

    async def _handle(self, mail: Inbound | MailRefusal) -> str:
        wish = MAIL_LANGUAGE.set(mail.language)
        try:
            return await self._take(mail)
        finally:
            MAIL_LANGUAGE.reset(wish)

    async def _take(self, mail: Inbound | MailRefusal) -> str:
        first = (await self.service.mail.mail_address(mail.sender))["wrote_at"] is None
        await self.service.mail.mark_address(mail.sender, "wrote_at")
        if (await self.service.mail.mail_address(mail.sender))["bounced_at"] is not None:
            await self.service.mail.mark_bounced(mail.sender, None)  # it works: it wrote
        # a confirmation is answered by a mail that can be read: a refused one leaves it open
        tag = mail.tag if isinstance(mail, Inbound) or not isinstance(mail.tag, ConfirmTag) \
            else None
        lines = await self._command_lines(mail)
        # only a yes confirms (a no is used up too); anything else leaves the request open,
        # a yes with a doubt anywhere in the reply too (below a signature, between quotes)
        consent = says_no(lines) or says_yes(lines) and isinstance(mail, Inbound) and not \
            doubted(mail.said, await self.service.sent_lines.of(mail.references))
        key = await self._resolve(mail.sender, tag, use=consent)
        if isinstance(key, Confirmed) and not consent:
            assert isinstance(tag, ConfirmTag)
            key = unclear(key, tag)
        if isinstance(key, Confirmed):
            if key.link is not None:
                reply = await self.link(mail.sender, key)
                await self._answer(Player(0, TRANSPORT, mail.sender, mail.name), mail, reply,
                                   None)
                return "linked" if reply.ok else "refused: link"
            if says_no(lines):
                key = Reply(_("As you asked, I did not carry it out: nothing was changed."))
            else:
                if key.name:  # a new player is named as the mail that asked said
                    mail = replace(mail, name=key.name)
                key, lines = await self._confirmed_key(mail, key), (key.line, *key.rest)
        proven = isinstance(tag, ConfirmTag) and not isinstance(key, Reply) or \
            isinstance(key, Key) and not key.stale
        keyed = key if isinstance(key, Key) else None
        index = find_command(lines, self.commands.words())
        line = command_line(lines[index]) if index is not None else ""
        word = first_word(line)
        if word and word not in self.commands.words():
            word = "move"
        run, quiet_until = await self.service.mail.count_unanswered(
            mail.sender, index is not None, LOOP_LIMIT, LOOP_QUIET)
        if quiet_until is not None and run > LOOP_LIMIT + 1:
            return "dropped: a mail loop (no command again)"
        limited = await self._limit(mail.sender, keyed, word)
        if limited is SILENT:
            return "dropped: over the rate limit"
        player = keyed.player if keyed else await self._sender(mail, proven)
        if keyed and not keyed.stale and first:
            player = await self._header_name(player, mail.name)
        owed: Owed | None = None
        digest = f"cmd:{keyed.tag}:{line.lower()}" if keyed and word in ONCE_WORDS else None
        if limited is not None:
            reply, outcome = limited, "refused: rate-limited"
        elif isinstance(mail, MailRefusal):
            reply, outcome = Reply(mail.text, ok=False), f"refused: {mail.reason}"
        elif isinstance(key, Reply):
            reply, outcome = key, "refused: key"
        elif index is None:
            reply, outcome = await self._unreadable(player, keyed, lines), "refused: no command"
        elif digest and await self.service.mail.seen_before(digest):
            return "dropped: a duplicate (this command with this key was carried out)"
        else:
            with owe_answer(self._owed(player, mail, digest)) as owed:
                reply, outcome = await self._command(player, keyed, line, lines[index + 1:],
                                                     proven)
        reply = replace(reply, text=self.worded(reply.text, player))  # in the reader's language
        # a command with the key undoes `stop` (an auto-reply to the last mail does not)
        if proven and word and word != "stop" and await self.service.mail.clear_stop(mail.sender):
            reply = replace(reply, text=joined([reply.text, _(
                "(You had said `stop`; as you wrote to me with your key, you get mail from "
                "me again. `stop` ends it again.)")], "\n\n"))
        reply = await self._with_ratings(reply, self._language(player, reply))
        if quiet_until is not None:  # the run of mails without a command just went over
            reply = replace(reply, text=joined([reply.text, _loop_notice(quiet_until)],
                                               "\n\n"))
            outcome += " (a mail loop: silent from now on)"
        await self._answer(player, mail, reply, None if word in ABOUT_TOURNAMENTS else keyed,
                           owed)
        if reply.ok and reply.game is not None and outcome in ("moved", *ACTED):
            game = await self.service.game(reply.game.id)
            # what the mover's answer says, the watchers get too, once the turn is whole
            if game is not None and not await self.service.turns.can_end_turn(game):
                await self._copy_to_watchers(game, "game-over" if game.is_over else "news")
        if digest and (outcome == "moved" or reply.ok):  # once all it owes is queued
            await self.service.mail.mark_seen(digest)
        return outcome

    async def _command_lines(self, mail: Inbound | MailRefusal) -> tuple[str, ...]:
        """The lines of ``mail`` that may hold its command: not those quoted from the mail
        it answers (`reading.without_quoted_lines`); when they hold none, the subject of a
        new mail (not a reply's or a forward's, which is our subject) if it is a command."""
        if not isinstance(mail, Inbound):
            return ()
        ours = await self.service.sent_lines.of(mail.references)
        lines = without_quoted_lines(mail.lines, ours)
        words = self.commands.words()
        if find_command(lines, words) is None and not is_reply_subject(mail.subject):
            subject = " ".join(normalise(mail.subject).split())
            if is_command_line(subject, words):
                return (subject,)
        return lines

    async def _command(self, player: Player, key: Key | None, line: str,
                       rest: tuple[str, ...], proven: bool) -> tuple[Reply, str]:
        """Run the command line; a note when more commands follow it (not read)."""
        reply, outcome = await self._run(player, key, line, rest, proven)
        unread = rest[len(_more_steps(rest)) if outcome == "moved" else 0:]
        if any(is_command_line(extra, self.commands.words()) for extra in unread):
            reply = replace(reply, text=joined([reply.text, _(
                "(The lines after your command were not read: one command per mail.)")],
                "\n\n"))
        return reply, outcome

    async def _confirmed_key(self, mail: Inbound | MailRefusal,
                             confirmed: Confirmed) -> Key | Reply | None:
        """The key a confirmed command acts with: for a game command, that of the game and
        move number it was asked at (None for other commands)."""
        if confirmed.game_id is None:
            return None
        game = await self.service.game(confirmed.game_id)
        player = await self.player_by_address(mail.sender)
        if game is None or player is None or game.side_of(player.id) is None:
            return Reply(_("There is no game #{game} of yours in progress, so I did not "
                           "carry out anything.", game=confirmed.game_id), ok=False)
        return confirmed_key(player, game, confirmed)

    async def _resolve(self, sender: str, tag: Tag | None,
                       use: bool = True) -> Key | Confirmed | Reply | None:
        """The key of a mail: valid (``Key``), a confirmation's (``Confirmed``, used up
        with ``use``), refused (the answer), or absent (None)."""
        if tag is None:
            return None
        if isinstance(tag, ConfirmTag):
            return await self.confirmed(sender, tag, use)
        game = challenge = None
        if isinstance(tag, GameTag):
            game = await self.service.game(tag.game_id)
            holder = (await self.service.tokens.token_holder(tag.game_id, tag.token, tag.ply)
                      if game else None)
            what = _("game #{game}", game=tag.game_id)
        else:
            found = await self.service.challenges.find_challenge(
                Player(0, TRANSPORT, sender, ""), PLACE, tag.challenge_id)
            challenge = found if isinstance(found, Challenge) else None
            holder = (await self.service.tokens.challenge_token_holder(tag.challenge_id, tag.token)
                      if challenge else None)
            what = _("challenge #{challenge}", challenge=tag.challenge_id)
        player = await self.service.get_player(holder) if holder is not None else None
        if player is None:
            return Reply(_("Wrong key: the key in the address you wrote to does not belong "
                           "to {what}, so I did not carry out your command.", what=what),
                         ok=False)
        if player.transport != TRANSPORT or player.address != sender and \
                await self.service.tokens.linked_player(sender) != player.id:
            shown = game if game is not None and await self._plays(sender, game) else None
            return Reply(_("Wrong sender: the key of this mail was sent to another address "
                           "than {sender}, so I did not carry out your command. Send your "
                           "commands for {what} from the address it was sent to.",
                           sender=sender, what=what), ok=False, game=shown)
        if player.address != sender:  # a linked address: answered where the mail came from
            player = replace(player, address=sender)
        return Key(tag, player, game, challenge,
                   stale=game is not None and isinstance(tag, GameTag) and tag.ply != game.ply)

    async def _plays(self, address: str, game: Game) -> bool:
        found = await self.service.find_player(TRANSPORT, address)
        return isinstance(found, Player) and game.side_of(found.id) is not None

    async def _limit(self, sender: str, key: Key | None, word: str) -> Reply | None:
        """None within the limits; over one, the answer saying so (a keyed move always
        gets one; other mail once per hour), or `SILENT`."""
        if key is not None:
            bucket, limit = key.bucket, self.settings.email_key_rate_limit
        else:
            bucket, limit = f"from:{sender}", self.settings.email_rate_limit
        count = await self.service.mail.count_mail(bucket, HOUR)
        if count.count <= limit:
            return None
        if count.told and not (key is not None and word in GAME_WORDS):
            return SILENT
        await self.service.mail.mark_told(bucket)
        if key is not None:
            return Reply(_("You have sent more than {limit} mails with this key within an "
                           "hour, so I did not carry out this one. Please send it again "
                           "after {time}.", limit=limit, time=moment(count.retry_at)),
                         ok=False)
        return Reply(_("You have sent more than {limit} mails within an hour, so I did not "
                       "carry out this one. Please send it again after {time}.", limit=limit,
                       time=moment(count.retry_at)), ok=False)

    async def _run(self, player: Player, key: Key | None, line: str,
                   rest: tuple[str, ...], proven: bool = False) -> tuple[Reply, str]:
        """Run the command ``line``: a keyed word only with its key, or once confirmed
        (``proven``: the mail carried a key of the sender's, or confirmed a request)."""
        words = line.split()
        word = words[0].lower()
        if word not in self.commands.words():
            words = ["move", *words]
            word = "move"
        misplaced = self.commands.command_as_move(words[1:]) if word == "move" else None
        if misplaced is not None:  # `move moves`, `#3 board`: how to use that command
            return misplaced, "refused: move"
        if key is not None and key.stale:
            if key.game is not None and word in KEYED_WORDS | LOOKING_WORDS:
                return _stale(key, word, await self.service.game(key.game.id) or key.game), \
                    "refused: stale"
            key = None  # help, rules, lists: answered as without a key
        if key is not None and (other := _other_number(key, word, words[1:])) is not None:
            return other, "refused: another number"
        side = key.game.side_of(player.id) if key is not None and key.game else None
        if word in ("accept", "decline") and key is not None and key.game is not None \
                and side is not None and key.game.draw_offer == 1 - side:
            # the answer to a draw offer's mail: `accept` accepts the draw
            words = ["draw"] if word == "accept" else ["draw", "decline"]
            word = "draw"
        words, hidden = await self.hidden(player, words)
        if hidden is not None:
            return hidden, "refused: private"
        if word == "tournament" and len(words) > 1 and words[1].lower() in TOURNAMENT_LOOKING:
            word = words[1].lower()  # it only looks: as `standings T3`, no key needed
        if word == "games":  # the games of a place: those of mail are private
            words = [w for w in words if w.lower() != "here"]
        args = [w for w in words[1:] if game_number(w) is None]
        if word in GAME_WORDS:
            if key is None or key.game is None:
                return await self._ask_game(player, word, words, rest, key)
            return await self._game_command(player, key, word, args, rest)
        if word in CHALLENGE_WORDS:
            if key is not None and key.challenge is not None:
                words = [word, f"#{key.challenge.id}"]
            elif not proven:
                if player.id:
                    return await self._needs_key(player, word, key, words[1:]), \
                        "refused: no key"
                return await self.ask(player, line), "asked: confirm"
        elif word in TOURNAMENT_WORDS and not proven:
            # one bound to be refused is answered so at once, not asked to confirm first
            refused = await self.commands.refused_at_once(player, PLACE, " ".join(words))
            if refused is not None:  # worded and phrased as a command's answer is
                words_of = phrase(self.worded(refused.text, player), TRANSPORT)
                return replace(refused, text=words_of), f"refused: {word}"
            return await self.ask(player, line), "asked: confirm"
        elif word in PLAYER_WORDS and not proven:
            return await self.ask(player, line), "asked: confirm"
        elif word in LOOKING_WORDS and key is not None and key.game is not None \
                and len(args) == len(words) - 1:
            words = [word, f"#{key.game.id}", *args]
        named = NAMED.set([] if word == "challenge" else None)
        answered = ANSWERED_GAME.set(key.game.id if key is not None and key.game else None)
        try:
            reply = await self.commands.handle(player, PLACE, " ".join(words))
            await self.forget_named(reply)
        finally:
            NAMED.reset(named)
            ANSWERED_GAME.reset(answered)
        if word == "board" and reply.ok and reply.game is not None:
            reply = self._board_answer(reply, reply.game, self._language(player, reply))
        if isinstance(reply, LinkRequest):
            reply = await self.ask_link(player, reply)
        return reply, (f"ran {word}" if reply.ok else f"refused: {word}")

    async def _ask_game(self, player: Player, word: str, words: list[str],
                        rest: tuple[str, ...], key: Key | None) -> tuple[Reply, str]:
        """A game command without its game's key: asked back of the sender's address, for
        the game it names or the only one the sender plays; else what to send."""
        games = [g for g in await self.service.games(player)
                 if player.id and g.side_of(player.id) is not None]
        number = next((n for n in map(game_number, words[1:]) if n is not None), None)
        if not games:
            return await self._needs_key(player, word, key), "refused: no key"
        if number is not None:
            game = next((g for g in games if g.id == number), None)
            if game is None:
                return Reply(_("You play no game #{game} in progress, so there is nothing "
                               "for `{word}` to change.", game=number, word=word),
                             ok=False), "refused: no key"
        elif len(games) == 1:
            game = games[0]
        elif word == "move" and words[1:]:  # the games the move fits (`bot.service.inference`)
            found = await self.service.inference.find_game(player, PLACE, move=" ".join(words[1:]))
            if isinstance(found, Refusal):
                return _which_move_game(found, self._language(player)), "refused: no key"
            game = found
        else:
            return Reply(_n("Which game? You play {n} game: reply with `{word}` to the "
                            "latest mail of the one you mean, or write `{word} #N`.",
                            "Which game? You play {n} games: reply with `{word}` to the "
                            "latest mail of the one you mean, or write `{word} #N`.",
                            len(games), word=word), ok=False), "refused: no key"
        return await self.ask(player, " ".join(words), rest, game), "asked: confirm"

    def _board_answer(self, reply: Reply, game: Game, language: str = SOURCE) -> Reply:
        """`board`'s answer without the game's first line, which the game mail gives below
        it anyway (``language``: the one the answer is worded in)."""
        lines = reply.text.split("\n")
        if lines and lines[0] == render(self.commands.describe(game), language):
            lines = lines[1:]
        head = (_("Here is game #{game} as it stands.", game=game.id) if reply.ply is None
                else _("Here is game #{game}: the picture shows it after move {ply}, the "
                       "text below as it stands.", game=game.id, ply=reply.ply))
        return replace(reply, text=joined([head, "\n".join(lines)], "\n")
                       if lines else head)

    async def _game_command(self, player: Player, key: Key, word: str, args: list[str],
                            rest: tuple[str, ...]) -> tuple[Reply, str]:
        assert key.game is not None and isinstance(key.tag, GameTag)
        game = await self.service.game(key.game.id) or key.game
        if key.tag.ply != game.ply:  # moved on since the key was checked
            return _stale(key, word, game), "refused: stale"
        if word == "move":
            if not args:
                return Reply(_("Which move? Write it on the first line, as in `move c3-d4`."),
                             ok=False, game=game), "refused: no move"
            return await self._steps(player, game, [" ".join(args), *_more_steps(rest)],
                                     key.tag.ply)
        reply = await self.commands.handle(player, PLACE, " ".join([word, f"#{game.id}", *args]))
        return reply, (f"ran {word}" if reply.ok else f"refused: {word}")

    async def _needs_key(self, player: Player, word: str, key: Key | None,
                         args: Iterable[str] = ()) -> Reply:
        """The answer to a command that needs a key it does not have."""
        if word in CHALLENGE_WORDS:
            offer = await self._challenge_offer(player, word, list(args))
            if offer is not None:
                return offer
        about = (_("a challenge") if word in CHALLENGE_WORDS else
                 _("a game") if word in GAME_WORDS else None)
        if about is not None and not (await self.keyed_list(player))[0]:
            return Reply(_("You have no game or challenge in progress, so there is nothing "
                           "for `{word}` to change. Write `help` for the commands, or "
                           "`challenge ADDRESS` to start a game.", word=word), ok=False)
        where = (_("this mail is about a challenge, not a game") if key and key.challenge
                 else _("this mail is about a game, not a challenge") if key and key.game
                 else _("your mail carries no key"))
        return Reply(_("`{word}` changes {about}, so I carry it out only from a reply to a "
                       "mail I sent you (its reply address carries your key), but {where}. "
                       "Nothing was changed. Send `{word}` as a reply to the latest mail of "
                       "the game or challenge.", word=word,
                       about=about or _("your settings"), where=where), ok=False)

    async def _challenge_offer(self, player: Player, word: str, args: list[str]) -> Reply | None:
        """For ``accept #4`` without a key from the one it is for: the answer that carries
        the key, asking to confirm by replying."""
        if player.id == 0:
            return None
        number = next((n for n in map(game_number, args) if n is not None), None)
        found = await self.service.challenges.find_challenge(player, PLACE, number,
                                                             own=word == "cancel")
        if isinstance(found, Refusal):
            return Reply(_reply(found).text, ok=False)
        if found.status != "open":
            return None
        mine = (found.challenger_id == player.id if word == "cancel"
                else found.opponent_id in (None, player.id) and found.challenger_id != player.id)
        if not mine:
            return None
        return MailReply(_("To {word} challenge #{challenge}, reply to this mail with "
                           "`{word}` on the first line: its reply address carries your key "
                           "for the challenge, which is how I know that the mail comes from "
                           "you. Nothing was changed yet.", word=word, challenge=found.id),
                         ok=False, challenge=found)

    async def _unreadable(self, player: Player, key: Key | None,
                          lines: tuple[str, ...] = ()) -> Reply:
        """A short help fitting the state of the mail's game or challenge, or of none; for a
        first line that begins with a command's slip (``joni T3``), the line meant."""
        first = next((command_line(line) for line in lines if line.strip()), "").split()
        # a command is a few words; a longer line, a yes or a no is prose
        slip = self.commands.slip(first) if 0 < len(first) <= SLIP_WORDS and \
            first[0].lower() not in NO_WORDS | YES_WORDS else None
        if slip is not None:
            return replace(slip, game=key.game if key is not None else None)
        if key is not None and key.game is not None:
            return Reply(_("I found no command in your mail. Write it on the first line, "
                           "above any quoted text; what you may send is below."), ok=False,
                         game=key.game)
        if key is not None and key.challenge is not None:
            if key.challenge.challenger_id == player.id:
                return Reply(_("I found no command in your mail. Reply to this mail with "
                               "`cancel` on the first line."), ok=False)
            return Reply(_("I found no command in your mail. Reply to this mail with "
                           "`accept` or `decline` on the first line."), ok=False)
        return Reply(_("I found no command in your mail. Write one command on the first "
                       "line, above any quoted text, for example `help` (all commands), "
                       "`games` (your games) or `challenge ADDRESS`."), ok=False)

    async def _steps(self, player: Player, game: Game, steps: list[str],
                     ply: int) -> tuple[Reply, str]:
        """Play the steps of a turn in order, each expected at the next move number; the
        first refusal ends them (what was played before it stays played)."""
        texts: list[str] = []
        reply = Reply("")
        language = self.commands.language_of(player, MAIL_LANGUAGE.get())
        for k, step in enumerate(steps):
            reply = self.commands_reply(await self.service.move(player, game.id, step,
                                                                expected_ply=ply + k), language)
            texts.append(reply.text)
            if not reply.ok:
                break
        played = len(texts) - (not reply.ok)
        reply = replace(reply, text="\n".join(texts), ok=reply.ok or played > 0,
                        game=reply.game or await self.service.game(game.id))
        return reply, ("moved" if played else "refused: move")

    @staticmethod
    def commands_reply(result: Result, language: str = SOURCE) -> Reply:
        """A service result in the words of mail, in the reader's ``language``."""
        reply = _reply(result)
        return replace(reply, text=phrase(render(reply.text, language), TRANSPORT))

    def _language(self, player: Player, reply: Reply | None = None) -> str:
        """The language an answer to ``player`` is worded in: the one they chose (as the
        command left them), else the one their mail says, else English."""
        who = reply.player if reply is not None and reply.player is not None else player
        return self.commands.language_of(who, MAIL_LANGUAGE.get())

    async def _with_ratings(self, reply: Reply, language: str = SOURCE) -> Reply:
        """A rated game's result, with both players' ratings (as the opponent's mail has)."""
        game = await self.service.game(reply.game.id) if reply.game is not None else None
        # the service's own note of ratings, as the answer words it
        noted = render(Text("Ratings: {changes}.", {"changes": ""}), language).rstrip(" .")
        if game is None or not game.is_over or not game.rated or "Ratings" in reply.text \
                or noted in render(reply.text, language):
            return reply
        ratings = []
        for side, player_id in enumerate(game.players):
            player = await self.service.get_player(player_id)
            if player is not None:
                rating, _unused = await self.service.standings.rating(player, game.variant)
                ratings.append(f"{game.names[side]} {rating.rating:.0f}")
        return replace(reply, text=joined([reply.text, _("Ratings now: {ratings}.",
                                                         ratings=", ".join(ratings))], "\n"))

    # --- answers ----------------------------------------------------------------------
    @staticmethod
    def _owed(player: Player, mail: Inbound | MailRefusal, digest: str | None) -> Owed:
        """The answer a command owes its sender, as recorded with its change: until the
        real one replaces it, an answer that lists the sender's games with their keys.
        The mail (its Message-ID, its keyed command) is remembered as answered with it:
        the same mail sent again after a crash gets no second answer."""
        seen = tuple(d for d in (f"id:{mail.message_id}" if mail.message_id else None,
                                 digest) if d)

        async def remember(s: Session, now: float) -> None:
            await remember_seen(s, now, seen)

        return Owed(TRANSPORT, ANSWER, CARRIED_OUT, player_id=player.id or None, place=PLACE,
                    lane=f"answer:{player.address}/", payload=_threading(player, mail),
                    with_it=remember if seen else None)

    async def _answer(self, player: Player, mail: Inbound | MailRefusal, reply: Reply,
                      key: Key | None, owed: Owed | None = None) -> None:
        """Queue the command's answer to its sender (see `_answer_mail`): about a game, a
        game mail with the sender's key; about a challenge, with its key; else with the
        sender's games and challenges listed by number. A command that
        changed something recorded a placeholder with its change (`bot.service.answers`): the
        answer replaces it."""
        asking = reply.tag if isinstance(reply, Confirming) else None
        # a request to confirm `language X` is worded in X, which its asker reads
        wished = reply.language if isinstance(reply, Confirming) else None
        text = render(reply.text, wished or self._language(player, reply))
        if reply.record and reply.record != reply.text:
            text += "\n\n" + reply.record
        game = None if asking else reply.game or (key.game if key else None)
        game_id = game.id if game is not None and player.id else None
        challenge = (await self._challenge_of(player, reply, key)
                     if game_id is None and not asking else None)
        lane = f"answer:{player.address}/{game_id or ''}"
        # a picture file that goes with a text answer (a rules diagram) is named by its path
        payload = _threading(player, mail) | {
            "confirm": [asking.confirmation_id, asking.token] if asking else None,
            "ply": reply.ply, "challenge": challenge.id if challenge else None,
            "picture": str(reply.pictures[0]) if reply.pictures else None,
            "highlights": list(reply.highlights), "selected": reply.selected}
        if wished:
            payload["worded_in"] = wished
        if owed is not None and owed.row_id is not None and await self.service.settle_answer(
                owed.row_id, text, lane, payload, PLACE, game_id):
            return
        await self.service.queue_notification(
            TRANSPORT, ANSWER, text, player_id=player.id or None, place=PLACE,
            game_id=game_id, lane=lane, payload=payload)

    async def _answer_mail(self, note: Notification, game: Game | None,
                           message_id: str) -> EmailMessage:
        """The answer to a mail, as `_answer` queued it, composed now: with the key of
        the game or challenge as it is when the mail goes."""
        p = note.payload
        found = await self.service.get_player(note.player_id) \
            if note.player_id is not None else None
        player = found or Player(0, TRANSPORT, p["to"], "")  # an address not stored
        # the reader's language as it is now (a `language` just chosen), else the mail's
        language = self.commands.language_of(player, p.get("language"))
        text = worded(note, language)
        refs = tuple(p.get("references") or ())
        if p.get("confirm"):  # a confirmation request: its own one-time key
            language = p.get("worded_in") or language  # of `language X`: in X
            return self.confirm_mail(p["to"], p.get("subject") or _re("", language), text,
                                     *p["confirm"], in_reply_to=p.get("in_reply_to"),
                                     references=refs, message_id=message_id,
                                     language=language)
        if found is not None and p.get("to") not in (None, found.address) \
                and await self.service.tokens.linked_player(p["to"]) == found.id:
            player = replace(found, address=p["to"])  # answered where the mail came from
        if game is not None and player.id:
            return await self.game_mail(player, game, text,
                                        in_reply_to=p.get("in_reply_to"), references=refs,
                                        ply=p.get("ply"), message_id=message_id,
                                        highlights=tuple(p.get("highlights") or ()),
                                        selected=p.get("selected"), language=language)
        challenge = await self.service.challenges.get_challenge(p["challenge"]) \
            if p.get("challenge") is not None and player.id else None
        if challenge is not None:
            return await self.challenge_mail(player, challenge, text,
                                             in_reply_to=p.get("in_reply_to"),
                                             references=refs, message_id=message_id,
                                             language=language)
        picture = _file_picture(Path(p["picture"])) if p.get("picture") else None
        return await self.listed_mail(player, p.get("subject") or _re("", language), text,
                                      in_reply_to=p.get("in_reply_to"), references=refs,
                                      message_id=message_id, picture=picture,
                                      language=language)

    async def _challenge_of(self, player: Player, reply: Reply,
                            key: Key | None) -> Challenge | None:
        """The challenge an answer is about: the mail's key's, the one offered a key, or
        the one just made."""
        if not player.id:
            return None
        if key is not None and key.challenge is not None:
            return key.challenge
        if isinstance(reply, MailReply) and reply.challenge is not None:  # a key offered
            return reply.challenge
        if reply.ok and (isinstance(reply, ChallengeMade)
                         or reply.text.startswith("Challenge #")):
            mine = [c for c in await self.service.challenges.pending(player)
                    if c.challenger_id == player.id]
            return mine[-1] if mine else None
        return None

    async def challenge_mail(self, player: Player, challenge: Challenge, text: str, *,
                             in_reply_to: str | None = None, references: tuple[str, ...] = (),
                             message_id: str | None = None,
                             language: str = SOURCE) -> EmailMessage:
        """A mail about ``challenge``, whose reply address carries the player's key, in
        the reader's ``language``."""
        tag = None
        lines = [render(text, language)]
        if challenge.status == "open":
            tag = await self.challenge_tag(player, challenge)
            how = (_("Reply to this mail with `cancel` on the first line to withdraw it.")
                   if challenge.challenger_id == player.id else
                   _("Reply to this mail with `accept` or `decline` on the first line."))
            lines += ["", render(how, language)]
        subject = await self.service.mail.mail_subject(
            thread_of("challenge", challenge.id, language),
            render(challenge_subject(challenge), language))
        return compose(self.address, player.address, subject,
                       "\n".join(lines), tag=tag, in_reply_to=in_reply_to,
                       references=references, message_id=message_id,
                       auto="auto-replied" if in_reply_to else "auto-generated",
                       language=language)

    async def listed_mail(self, player: Player, subject: str, text: str, *,
                          in_reply_to: str | None = None, references: tuple[str, ...] = (),
                          message_id: str | None = None, picture: Picture | None = None,
                          language: str = SOURCE) -> EmailMessage:
        """A mail about no game: ``text``, then the player's games and challenges by number;
        its own reply address is the key when there is only one (keys are never in a text).
        Worded in the reader's ``language``."""
        text = render(text, language)
        listed, tags = await self.keyed_list(player)
        if listed:
            text += "\n\n" + "\n".join(render(line, language) for line in listed)
        return compose(self.address, player.address, render(subject, language), text,
                       tag=tags[0] if len(tags) == 1 else None, in_reply_to=in_reply_to,
                       references=references, message_id=message_id, picture=picture,
                       auto="auto-replied" if in_reply_to else "auto-generated",
                       language=language)

    async def keyed_list(self, player: Player) -> tuple[list[str], list[Tag]]:
        """The player's games in progress and open challenges, by number (the lines), and
        their keys (for the reply address, never for the text)."""
        if not player.id:
            return [], []
        lines: list[str] = []
        tags: list[Tag] = []
        for game in await self.service.games(player):
            tag = await self.tag_for(player, game)
            if tag is None:
                continue
            turn = _("your move") if game.to_move == game.side_of(player.id) else \
                _("{name} to move", name=game.names[game.to_move])
            lines.append(_("  Game #{game}: {white} vs {black} ({variant}), {turn}",
                           game=game.id, white=game.names[0], black=game.names[1],
                           variant=get_variant(game.variant).display_name, turn=turn))
            tags.append(tag)
        for challenge in await self.service.challenges.pending(player):
            if player.id not in (challenge.challenger_id, challenge.opponent_id):
                continue
            ctag = await self.challenge_tag(player, challenge)
            lines.append(_("  Challenge #{challenge}: {challenger} vs {opponent}",
                           challenge=challenge.id, challenger=challenge.challenger_name,
                           opponent=challenge.opponent_name or _("anyone")))
            tags.append(ctag)
        if lines:
            lines.insert(0, _("Your games and challenges (to act in one, reply to its latest "
                              "mail, or send `board #N` for a fresh mail of game N):"))
        return lines, tags

    # --- the outbox -------------------------------------------------------------------
    async def deliver_outbox(self) -> int:
        """Mail every due notification and answer: each lane (an address's mail about one
        game) in order, lanes independently; how many were sent."""
        self.outbox_ready.clear()
        return await self.courier.deliver()

    async def _deliver(self, note: Notification) -> None:
        """Mail one notification, or raise `DeliveryFailure` saying why the relay would not;
        an address the relay refused for good (a 5xx) is marked bounced."""
        try:
            await self._mail(note)
        except DeliveryFailure:
            raise
        except Exception as error:
            failure = failure_of(error)
            if (address := refused_recipient(error)) is not None:
                await self.service.mail.mark_bounced(address, failure.reason)
            raise failure from error

    async def message_id(self, note_id: int) -> str:
        """The Message-ID of notification ``note_id`` (see `machine.message_id`)."""
        return message_id(await self.mail_secret(), note_id, domain_of(self.address))

    async def _mail(self, note: Notification) -> None:
        """Mail ``note``; one that may not be mailed (see `_why_not_mail`) is a final
        failure with its reason, never "delivered"."""
        game = await self.service.game(note.game_id) if note.game_id is not None else None
        # the stable id: a repeated delivery (a crash before it was marked) is recognisable
        message_id = await self.message_id(note.id)
        if note.kind == ANSWER:
            await self.send(await self._answer_mail(note, game, message_id))
            return
        player = await self.service.get_player(note.player_id) \
            if note.player_id is not None and note.address else None
        keyed = note.payload.get("keyed", True)  # False: a watcher's copy
        if game is not None and keyed:  # a watcher's copy is not copied again
            await self._copy_to_watchers(game, note.kind)
        if player is None:  # news of a place: e-mail games have no channel to post it in
            await self._to_tournament_players(note)
            return
        if (why := await self._why_not_mail(player, note)) is not None:
            raise DeliveryFailure(why, permanent=True, final=True)
        # news is worded for its reader (the one it goes to), whoever caused it
        language = self.commands.language_of(player)
        text = worded(note, language)
        if game is not None:
            await self.send(await self.game_mail(player, game, text, message_id=message_id,
                                                 keyed=keyed, language=language))
        elif (challenge := await self._note_challenge(player, note)) is not None:
            invitation = await self._invitation(player, challenge)
            if invitation is not None:
                text += "\n\n" + render(invitation, language)
            await self.send(await self.challenge_mail(player, challenge, text,
                                                      message_id=message_id,
                                                      language=language))
            if (await self.service.mail.mail_address(player.address))["wrote_at"] is None:
                await self.service.mail.mark_address(player.address, "invited_at")  # it went
        elif (about := await self._challenge_about(player, note)) is not None:
            await self.send(await self.challenge_mail(player, about, text,
                                                      message_id=message_id,
                                                      language=language))
        else:
            first = await self._first_moves(player, note)
            if note.kind == "tournament-games":
                text += "\n\n" + render(_your_first_moves(len(first)), language)
            await self.send(await self.listed_mail(player, await self._news_subject(note),
                                                   text, message_id=message_id,
                                                   language=language))
            await self._mail_first_moves(player, note, first)

    async def _news_subject(self, note: Notification) -> Text:
        """The subject of news about no game: a tournament's names it and what happened
        (a round's number as its news says it), other news says what it is."""
        number = note.payload.get("tournament")
        found = await self.service.tournaments.get(number) \
            if note.kind in TOURNAMENT_KINDS and isinstance(number, int) else None
        if found is None:
            return _subject(note)
        said = note.payload.get(MESSAGE)
        values = said.get("values") if isinstance(said, dict) else None
        round_number = values.get("round") if isinstance(values, dict) else None
        return tournament_subject(found, note.kind,
                                  round_number if isinstance(round_number, int) else None)

    async def _first_moves(self, player: Player, note: Notification,
                           ) -> list[tuple[Tournament, Pairing, Game]]:
        """For a round-robin's one message of all a player's games ("tournament-games"):
        those of its games where the player is to move (none for other news)."""
        number = note.payload.get("tournament")
        if note.kind != "tournament-games" or not isinstance(number, int):
            return []
        table = await self.service.tournaments.table(number)
        if isinstance(table, Refusal):
            return []
        found = []
        for pairing in (p for section in table.sections for p in section.pairings):
            game = await self.service.game(pairing.game_id) \
                if player.id in (pairing.first, pairing.second) and pairing.game_id else None
            if game is not None and not game.is_over \
                    and game.to_move == game.side_of(player.id):
                found.append((table.tournament, pairing, game))
        return found

    async def _mail_first_moves(self, player: Player, note: Notification,
                                first: list[tuple[Tournament, Pairing, Game]]) -> None:
        """After the message of all a round-robin player's games: the mail of each game
        where they move, as the start of any game is mailed (the board, and the key in its
        reply address, so that a reply with a move plays it). The service tells a
        round-robin's players of all their games in one message (a game each would flood
        a Discord player); by mail a move is played only in reply to its game's own mail.
        The other games' mails come when the opponent has moved. Each game's is queued
        once, however often the message is tried (`mail_seen`)."""
        for t, pairing, game in first:
            once = f"game-start:{player.id}:{game.id}"
            if await self.service.mail.seen_before(once):
                continue
            side = game.side_of(player.id)
            assert side is not None
            await self.service.queue_notification(
                TRANSPORT, "game-start", game_started(t, pairing.round, game, side),
                player_id=player.id, place=game.place, game_id=game.id,
                payload={"tournament": t.id})
            await self.service.mail.mark_seen(once)
        if first:
            self.outbox_ready.set()

    async def _to_tournament_players(self, note: Notification) -> None:
        """News a tournament held by mail posts to its place (a Swiss round's pairings, a
        withdrawal, a ladder's result), queued for each of its e-mail players, since mail
        has no place where it is posted. Its start and end reach each player already."""
        number = note.payload.get("tournament")
        if note.kind not in PLACE_NEWS or not isinstance(number, int):
            return
        table = await self.service.tournaments.table(number)
        if isinstance(table, Refusal):
            return
        for entry in table.entries:
            if entry.status == "in" and entry.transport == TRANSPORT:
                await self.service.queue_notification(
                    TRANSPORT, note.kind, note.text, player_id=entry.player_id,
                    place=note.place, payload=dict(note.payload))

    async def _why_not_mail(self, player: Player, note: Notification) -> str | None:
        """Why ``player``'s address may not get ``note`` (None: it may): not after `stop`,
        not after a bounce, and a challenge to an address that never wrote only once."""
        known = await self.service.mail.mail_address(player.address)
        if known["stopped_at"] is not None:
            return f"{player.address} asked never to get mail from this service (`stop`)"
        if known["bounced_at"] is not None:
            return f"mail to {player.address} bounced ({known['bounce_reason']})"
        if note.kind == "challenge" and known["wrote_at"] is None \
                and known["invited_at"] is not None:
            return (f"{player.address} has never written to this service and was mailed a "
                    f"challenge once already")
        return None

    async def _challenge_about(self, player: Player, note: Notification) -> Challenge | None:
        """The challenge a notice names in its payload (one that could not be delivered)."""
        number = note.payload.get("challenge")
        if not isinstance(number, int):
            return None
        challenge = await self.service.challenges.get_challenge(number)
        return challenge if challenge is not None and challenge.challenger_id == player.id \
            else None

    async def _note_challenge(self, player: Player, note: Notification) -> Challenge | None:
        """The open challenge a challenge notification announces (made in its transaction,
        so at the same moment)."""
        if note.kind != "challenge":
            return None
        for challenge in await self.service.challenges.pending(player):
            if challenge.created_at == note.created_at and player.id in (
                    challenge.challenger_id, challenge.opponent_id):
                return challenge
        return None

    async def _invitation(self, player: Player, challenge: Challenge) -> Text | None:
        """Who the challenge is from (their address), and for an address that never wrote,
        how to never hear from us again."""
        challenger = await self.service.get_player(challenge.challenger_id)
        if challenger is None or challenge.opponent_id != player.id:
            return None
        where = (f"<{challenger.address}>" if challenger.transport == TRANSPORT
                 else _("(on {transport})", transport=challenger.transport.capitalize()))
        parts = [_("The challenge comes from {name} {where}.",
                   name=challenger.display_name, where=where)]
        known = await self.service.mail.mail_address(player.address)
        if known["wrote_at"] is None:
            parts.append(_("You have not written to this service before: it mails an "
                           "address unasked only once. To never get mail from it again, "
                           "reply `stop`."))
        return joined(parts)

    async def _copy_to_watchers(self, game: Game, kind: str) -> None:
        """News of the game to its e-mail watchers, once per move or ending, worded for a
        watcher (the place's news, not a player's): what happened is in the mail's game
        text (the last turn, the result)."""
        key = (game.id, game.ply, "over" if game.is_over else "news")
        if key in self._watched or kind not in WATCHED_KINDS:
            return
        if len(self._watched) > 100_000:  # only recent events can come twice
            self._watched.clear()
        self._watched.add(key)
        text = await self.watcher_text(game)
        for watcher in await self.service.rooms.watchers(game.id):
            if watcher.transport != TRANSPORT or game.side_of(watcher.id) is not None:
                continue
            if (await self.service.mail.mail_address(watcher.address))["stopped_at"] is None:
                await self.service.queue_notification(
                    TRANSPORT, kind, text, player_id=watcher.id, place=game.place,
                    game_id=game.id, payload={"keyed": False})

    async def watcher_text(self, game: Game) -> Text:
        """The news of ``game`` as a watcher reads it: how it ended, or the last turn and
        who is to move."""
        if game.is_over:
            return _("Game #{game} is over: {result}.", game=game.id,
                     result=self.service.describe_result(game))
        turns = numbered_turns(game, await self.service.played_moves(game.id))
        side = game.to_move
        to_move = _("{name} ({side}) is to move.", name=game.names[side],
                    side=get_variant(game.variant).side_names[side])
        return _("{turn} played in game #{game}. {to_move}", turn=turns[-1], game=game.id,
                 to_move=to_move) if turns else \
            _("Game #{game}: {to_move}", game=game.id, to_move=to_move)


def _your_first_moves(count: int) -> Text:
    """What the mail of all a round-robin player's games says of the games' own mails."""
    if not count:
        return _("The mail of each game, with the board, comes when it is your move in it: "
                 "reply to it with your move.")
    return _n("It is your move in {n} game: its mail follows, with the board; reply to it "
              "with your move. The mail of each other game comes when it is your move in it.",
              "It is your move in {n} games: the mail of each follows, with the board; reply "
              "to it with your move. The mail of each other game comes when it is your move "
              "in it.", count)


def _loop_notice(quiet_until: float) -> Text:
    """What the mail that starts a sender's silence says (see `LOOP_LIMIT`)."""
    return _("I found no command in your last {count} mails, so I will not answer your "
             "mails without a command until {time}: this stops mail loops with automatic "
             "replies. A mail with a command is carried out and answered as usual.",
             count=LOOP_LIMIT + 1, time=moment(quiet_until))


def _stale(key: Key, word: str, game: Game) -> Reply:
    """The answer to a command sent with the key of a move number the game has left."""
    assert isinstance(key.tag, GameTag)
    since = game.ply - key.tag.ply  # steps, as the mail's key counts them
    played = (_("{count} moves have been played since it", count=since) if since > 1
              else _("a move has been played since it") if since == 1
              else _("a move it answered has been taken back"))
    if word in ("move", "end"):
        text = _("Not played: your mail answers an earlier position of game #{game}, and "
                 "{played}, so the position may not be the one you saw. Here it is as it "
                 "stands: reply to this mail with your command.", game=game.id,
                 played=played)
    else:
        text = _("Not carried out: your mail answers an earlier position of game #{game}, "
                 "and {played}, so the position may not be the one you saw. Here it is as "
                 "it stands: reply to this mail with your command.", game=game.id,
                 played=played)
    return Reply(text, ok=False, game=game)


def _other_number(key: Key, word: str, args: list[str]) -> Reply | None:
    """The refusal of a command that names another game (challenge) than the one whose key
    its mail carries: an explicit number is obeyed only with its own key, never replaced."""
    if key.game is not None and word in GAME_WORDS:
        own = key.game.id
    elif key.challenge is not None and word in CHALLENGE_WORDS:
        own = key.challenge.id
    else:
        return None
    named = [n for n in map(game_number, args) if n is not None]
    if not named or all(n == own for n in named):
        return None
    other = next(n for n in named if n != own)
    if key.game is not None and word in GAME_WORDS:
        text = _("Not carried out: your mail carries the key of game #{own}, not of game "
                 "#{other}, so I did not `{word}` either. To `{word}` game #{other}, reply "
                 "to the latest mail of game #{other} (or send `board #{other}` for a fresh "
                 "one).", own=own, other=other, word=word)
    else:
        text = _("Not carried out: your mail carries the key of challenge #{own}, not of "
                 "challenge #{other}, so I did not `{word}` either. To `{word}` challenge "
                 "#{other}, reply to the latest mail of challenge #{other}.", own=own,
                 other=other, word=word)
    return Reply(text, ok=False, game=key.game)


def _more_steps(lines: tuple[str, ...]) -> list[str]:
    """The further steps of a turn written below the first move, one per line, each as
    ``move STEP`` (or ``end``); other lines are not commands."""
    steps = []
    for line in lines:
        words = line.split()
        if words[0].lower() == "end" and len(words) == 1:
            steps.append("end")
        elif words[0].lower() == "move" and len(words) > 1:
            steps.append(" ".join(w for w in words[1:] if not w.startswith("#")))
        else:
            break
    return steps


def _threading(player: Player, mail: Inbound | MailRefusal) -> dict[str, object]:
    """Where an answer to ``mail`` goes, and the thread it keeps."""
    # no subject: ours, worded when the answer goes, in its reader's language
    return {"to": player.address, "subject": _re(mail.subject) if mail.subject else "",
            "in_reply_to": mail.message_id, "references": list(mail.references),
            "language": MAIL_LANGUAGE.get()}


def _re(subject: str, language: str = SOURCE) -> str:
    """The subject of an answer to ``subject`` (cleaned already): the mail's own with
    ``Re:``, as every mail program writes it whatever its language; without one, ours in
    the reader's ``language``."""
    if not subject:
        return render(_("Your mail to commandpost"), language)
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _subject(note: Notification) -> Text:
    if note.kind == "challenge":
        return _("A challenge for you")
    if note.kind == "reminder":
        return _("A reminder")
    return _("News from commandpost")


def _which_move_game(found: Refusal, language: str = SOURCE) -> Reply:
    """A move mailed without a game's key that fits several games (each listed with the
    line that names it), or none (why it cannot be read), in the reader's ``language``."""
    text = found.words(TRANSPORT, language)
    if found.games:
        return Reply(joined([text, _("Write the line of the game you mean, or reply with the "
                                     "move to the latest mail of that game.")], "\n"),
                     ok=False)
    return Reply(text, ok=False)
