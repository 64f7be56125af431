"""The commands of mail: the shared command words, and those only mail has (watching a game
by mail, changing one's name, `stop`), with which of them need a key.

What a key allows: every command that changes a game or a challenge needs the key the
service sent that player (`KEYED_WORDS`); the sender's address alone (From, which anyone
can forge) may only ask for help and lists, look at games, watch them, start a challenge,
or say `stop`.
"""

from __future__ import annotations

from ..commands import Commands, Reply, _reply
from ..service.boundary import game_number
from ..service.model import Player
from ..service.results import Refusal
from .reading import NAME_CHARS, clean_header

TRANSPORT = "email"
GAME_WORDS = frozenset({"move", "end", "resign", "draw", "takeback", "abort"})
CHALLENGE_WORDS = frozenset({"accept", "decline", "cancel"})
PLAYER_WORDS = frozenset({"vacation", "back", "name", "digest"})
KEYED_WORDS = GAME_WORDS | CHALLENGE_WORDS | PLAYER_WORDS
LOOKING_WORDS = frozenset({"board", "moves", "export"})


class MailCommands(Commands):
    """The shared commands, and those of mail."""

    async def cmd_watch(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Get every move of a game by mail (without playing in it).

        watch #12
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
            return Reply(f"Which game? As in `{word} #12`.", ok=False)
        act = self.service.watch if word == "watch" else self.service.unwatch
        return _reply(await act(sender, numbers[0]))

    async def cmd_name(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Change the name others see (in a reply to a mail of one of your games).

        name Alice Liddell
        """
        name = clean_header(" ".join(args), NAME_CHARS)
        if not name or "@" in name or name.startswith("#"):
            return Reply("Which name? Write it after the word, as in `name Alice Liddell` "
                         "(not an address, not starting with #).", ok=False)
        taken = await self.service.find_player(TRANSPORT, name)
        if isinstance(taken, Player) and taken.id != sender.id:
            return Reply(f"Someone else is called {name!r} already; choose another name.",
                         ok=False)
        await self.service.player(TRANSPORT, sender.address, name)
        return Reply(f"Your name is {name} now.")

    async def cmd_stop(self, sender: Player, place: str, args: list[str]) -> Reply:
        """Never get mail from this service again (no challenges, no news; kept for good).

        stop
        """
        await self.service.mark_address(sender.address, "stopped_at")
        return Reply("Done: this is the last mail you get from me. Nobody can challenge "
                     "this address any more, and no news of games will be mailed to it.")


def refusal_text(found: Refusal) -> str:
    """A service refusal as the text of an answer."""
    return _reply(found).text
