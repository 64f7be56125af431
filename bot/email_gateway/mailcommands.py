"""The commands of mail: the shared command words, and those only mail has (watching a game
by mail, changing one's name, `stop`, `start`, `link`), with what each needs to be obeyed.

What a key allows: a command about a game (`GAME_WORDS`) needs that player's key of that
game, of the game's move number now; a command about a challenge (`CHALLENGE_WORDS`) needs
the player's key of it; a command that changes anything else about the player
(`PLAYER_WORDS`: settings, watching, challenging in their name, linking an address;
`TOURNAMENT_WORDS`: joining, leaving, making and directing tournaments) needs any key the
service sent that player. Without it, the command is asked back of the sender's
address (a confirmation mail whose reply address carries a one-time key), so a forged From
(which anyone can write) only mails the real owner a question. Help, rules, lists
(`tournaments`, `standings`, `pairings`) and looking at games need nothing, but a private
game is shown only to its players, its watchers and holders of its watch link
(`bot.service.watching`).
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass, fields

from ..commands import Commands, Reply, _reply
from ..i18n import _
from ..names import name_problem
from ..service.boundary import game_number
from ..service.model import Player
from ..service.results import Refusal
from ..tournament_commands import TournamentCommands
from .reading import NAME_CHARS, clean_header

TRANSPORT = "email"
GAME_WORDS = frozenset({"move", "end", "resign", "draw", "takeback", "abort", "note", "if",
                        "forecast"})
CHALLENGE_WORDS = frozenset({"accept", "decline", "cancel"})
PLAYER_WORDS = frozenset({"vacation", "back", "name", "digest", "stop", "start", "watch",
                          "unwatch", "challenge", "link", "unlink", "language"})
# commands that change what tournaments the player is in (or, `tournament`, that make or
# direct one): carried out with any key of the player's, else confirmed, as `PLAYER_WORDS`;
# a key of a game's old move number is no key for them (they are about no game)
TOURNAMENT_WORDS = frozenset({"join", "leave", "withdraw", "ladder", "tournament"})
# what `tournament` does that only looks (`tournament standings T3`): no key needed
TOURNAMENT_LOOKING = frozenset({"standings", "pairings", "list"})
# the words about tournaments, not about the game whose mail they may answer: their answer
# is no game mail (a `join T3` in reply to a finished game's mail does not bring its board)
ABOUT_TOURNAMENTS = TOURNAMENT_WORDS | {"tournaments", "standings", "pairings"}
# what the mail being answered says of its language (Content-Language, Accept-Language)
MAIL_LANGUAGE: ContextVar[str | None] = ContextVar("mail_language", default=None)
KEYED_WORDS = GAME_WORDS | CHALLENGE_WORDS | PLAYER_WORDS
LOOKING_WORDS = frozenset({"board", "moves", "export"})
# a game's watch link (its web page's address) or just its end: 12-<24 hex digits>
WATCH_LINK = re.compile(r"(?:^|/)(\d{1,9})-([0-9a-fA-F]{24})/?$")
MAX_LINK_CHARS = 300
MAX_ADDRESS_CHARS = 254


@dataclass(frozen=True)
class LinkRequest(Reply):
    """`link ADDRESS` accepted for asking: the gateway mails ``address`` to confirm."""

    address: str = ""


@dataclass(frozen=True)
class ChallengeMade(Reply):
    """`challenge` made one: the gateway mails its answer with the challenge's key."""


def watch_link(word: str) -> tuple[int, str] | None:
    """The game number and watch token of a watch link (``https://…/game/12-<token>`` or
    ``12-<token>``), or None."""
    if len(word) > MAX_LINK_CHARS:
        return None
    found = WATCH_LINK.search(word.split("?", 1)[0])
    return (int(found[1]), found[2].lower()) if found else None


class MailCommands(TournamentCommands):
    """The shared commands (the tournaments' too), and those of mail."""

    def tournament_place(self, place: str) -> str | None:
        """Mail has no place of its own to hold tournaments: every tournament signing up
        or running, wherever it is, is listed (and may be joined) by mail."""
        return None

    async def handle(self, sender: Player, place: str, line: str,
                     language: str | None = None) -> Reply:
        """As `Commands.handle`, worded in the language the mail asks for, unless the
        sender chose one (`language`)."""
        return await super().handle(sender, place, line, language or MAIL_LANGUAGE.get())

    async def cmd_challenge(self, sender: Player, place: str, args: list[str]) -> Reply:
        reply = await super().cmd_challenge(sender, place, args)
        # read while the answer is still English, before it is worded for its reader
        if reply.ok and reply.text.startswith("Challenge #"):
            return ChallengeMade(**{f.name: getattr(reply, f.name) for f in fields(reply)})
        return reply

    cmd_challenge.__doc__ = Commands.cmd_challenge.__doc__

    async def cmd_watch(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Get every move of a game by mail (without playing in it; a private game by its
        watch link).

        watch #12
        watch https://games.example.org/game/12-0123456789abcdef01234567
        """
        return await self._watching(sender, "watch", args)

    async def cmd_unwatch(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Stop getting the moves of a game you watch.

        unwatch #12
        """
        return await self._watching(sender, "unwatch", args)

    async def _watching(self, sender: Player, word: str, args: list[str]) -> Reply:
        numbers = [n for n in map(game_number, args) if n is not None]
        if not numbers:
            return Reply(_("Which game? As in `{word} #12`.", word=word), ok=False)
        act = self.service.rooms.watch if word == "watch" else self.service.rooms.unwatch
        return _reply(await act(sender, numbers[0]))

    async def cmd_name(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Change the name others see (in a reply to a mail of one of your games).

        name Alice Liddell
        """
        # cut only far past the longest name, so that a long one is told its length
        name = clean_header(" ".join(args), NAME_CHARS * 4)
        if not name or "@" in name or name.startswith("#"):
            return Reply(_("Which name? Write it after the word, as in `name Alice Liddell` "
                           "(not an address, not starting with #)."), ok=False)
        problem = name_problem(name)
        if problem is not None:
            return Reply(problem, ok=False)
        taken = await self.service.find_player(TRANSPORT, name)
        if isinstance(taken, Player) and taken.id != sender.id:
            return Reply(_("Someone else is called {name} already; choose another name.",
                           name=repr(name)), ok=False)
        await self.service.player(TRANSPORT, sender.address, name)
        return Reply(_("Your name is {name} now.", name=name))

    async def cmd_stop(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Never get mail from this service again (no challenges, no news) until you write
        `start`.

        stop
        """
        await self.service.mail.mark_address(sender.address, "stopped_at")
        return Reply(_("Done: this is the last mail you get from me. Nobody can challenge "
                       "this address any more, and no news of games will be mailed to it. "
                       "Write `start` to me if you change your mind."))

    async def cmd_start(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Get mail from this service again after `stop`.

        start
        """
        if not await self.service.mail.clear_stop(sender.address):
            return Reply(_("This address gets mail from me already: there was nothing to "
                           "start."))
        return Reply(_("Welcome back: this address gets mail from me again (news of your "
                       "games, and challenges)."))

    async def cmd_link(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Use a second address for your games (confirmed from that address).

        link alice@work.example.org
        """
        address = args[0].strip("<>").lower() if len(args) == 1 else ""
        if (not address or len(address) > MAX_ADDRESS_CHARS or address.count("@") != 1
                or not sender.id):
            return Reply(_("Which address? Write it after the word, as in `link "
                           "alice@work.example.org`; you need a game or challenge first."),
                         ok=False)
        if address == sender.address:
            return Reply(_("{address} is the address you are writing from: it is yours "
                           "already.", address=address), ok=False)
        return LinkRequest(_("I have mailed {address} to confirm: once a reply to that mail "
                             "comes from it, mail from {address} acts as you. Nothing "
                             "changes until then.", address=address), address=address)


    async def cmd_unlink(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Stop using a second address for your games.

        unlink alice@work.example.org
        """
        address = args[0].strip("<>").lower() if len(args) == 1 else ""
        if not address or len(address) > MAX_ADDRESS_CHARS or address.count("@") != 1:
            return Reply(_("Which address? Write it after the word, as in `unlink "
                           "alice@work.example.org`."), ok=False)
        if not sender.id or not await self.service.tokens.unlink_address(address, sender.id):
            return Reply(_("{address} is not linked to you: nothing changed.",
                           address=address), ok=False)
        return Reply(_("Unlinked: mail from {address} no longer acts as you; your games "
                       "stay as they are.", address=address))

def refusal_text(found: Refusal) -> str:
    """A service refusal as the text of an answer."""
    return _reply(found).text
