"""The bot as its parts see it: the command cogs, views, pickers, live boards and the
notifier take the bot's type from here (`Bot`, what they call on it) and not from
`app`, which builds the bot out of them; the buttons and menus take the playing cog's
(`Playing`) from here and not from `commands_play`, which sends them; and `result_text`,
how a result reads here, `message_words` and `news_words`, how a message and a
notification read as a message's content here (names shown literally: `literal`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from discord.utils import escape_markdown

from .. import i18n
from ..service.outbox import worded
from ..service.phrasing import phrase
from ..service.results import Done, Reason, Refusal, Result
from .places import TRANSPORT

if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from ..config import Settings
    from ..service import GameService
    from ..service.answers import Owed
    from ..service.computer import Computer
    from ..service.model import Game, Notification, Player


class Bot(Protocol):
    """What the bot's parts use of `app.CommandPost` (a discord.py bot)."""

    service: GameService
    settings: Settings
    computer: Computer

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_partial_messageable(self, id: int, **kwargs: Any) -> discord.PartialMessageable: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    async def known_user(self, user_id: int) -> discord.User: ...

    async def flush(self) -> None: ...

    async def player_of(self, user: discord.abc.User) -> Player: ...

    async def mentions(self, game: Game, what: str = "turn") -> tuple[str, str]: ...

    async def ping(self, player: Player, place: str | None, what: str = "turn") -> str: ...

    async def board_message(self, game: Game, lead: str, perspective: int | None = None,
                            mention: bool = True, language: str = i18n.SOURCE,
                            ) -> dict[str, object]: ...

    async def reply(self, interaction: discord.Interaction, **message: object,
                    ) -> discord.InteractionMessage | discord.WebhookMessage | None: ...

    async def send_board(self, interaction: discord.Interaction, game: Game, lead: str,
                         perspective: int | None = None,
                         message: dict[str, object] | None = None,
                         mention: bool = True) -> None: ...

    async def board_sent(self, game: Game, sent: discord.abc.Snowflake | None,
                         channel_id: int) -> None: ...

    async def move_message(self, result: Done, mention: bool = True,
                           language: str = i18n.SOURCE) -> dict[str, object]: ...

    async def send_move(self, interaction: discord.Interaction, result: Done) -> None: ...

    async def answer(self, interaction: discord.Interaction, result: Result | str,
                     *, public: bool = False) -> None: ...


@runtime_checkable
class Playing(Protocol):
    """What buttons and menus call on the playing cog (`commands_play.PlayCommands`, which
    ``bot.get_cog("Playing")`` finds): a choice from a menu is answered as `/move` is, and
    a challenge's Accept button as `/accept`."""

    async def answer_move(self, interaction: discord.Interaction, result: Done,
                          owed: Owed) -> None: ...

    async def accept_challenge(self, interaction: discord.Interaction, sender: Player,
                               challenge_id: int) -> bool: ...


def writer_language(player: Player, message: discord.Message) -> str:
    """The language to answer a message typed in a game's thread in (a message carries no
    client locale): the one the player chose (`bot.i18n.LANGUAGE`), else the server's."""
    chosen = player.preferences.get(i18n.LANGUAGE)
    guild = message.guild
    return i18n.choose(chosen if isinstance(chosen, str) else None,
                       str(guild.preferred_locale or "") if guild is not None else "")


def reader_language(interaction: discord.Interaction) -> str:
    """The language to answer an interaction in: the user's Discord client's, else the
    server's (`bot.i18n.choose`: English unless the language is offered)."""
    return i18n.choose(str(interaction.locale or ""), str(interaction.guild_locale or ""))


def literal(name: str) -> str:
    """A name as a Discord message shows it literally: its markdown escaped, so that
    ``*star*`` or ``__x__`` is not bold or underlined (mentions and links are left)."""
    return escape_markdown(name)


def message_words(text: str, language: str = i18n.SOURCE) -> str:
    """A message as the content of a Discord message: in the reader's ``language``, its
    command and time tokens in Discord's words, each name in it shown literally
    (`literal`). Not for a label, a choice or a thread's name, where no markdown is
    read."""
    return phrase(i18n.render(text, language, literal), TRANSPORT)


def news_words(note: Notification, language: str = i18n.SOURCE) -> str:
    """A notification as the content of a Discord message (`bot.service.outbox.worded`),
    each name in it shown literally (`literal`)."""
    return worded(note, language, literal)


def result_text(result: Result, language: str = i18n.SOURCE) -> str:
    """A result in Discord's words (and the reader's ``language``): a refusal with its
    candidates as a list."""
    if isinstance(result, Refusal):
        text = result.words(TRANSPORT, language, literal)
        if result.reason == Reason.WHICH_GAME:  # the games listed, one a line, as bullets
            text = text.replace("\n  ", "\n• ")
        if result.candidates:
            text += "\n" + "\n".join(f"• `{c}`" for c in result.candidates)
        return text
    assert isinstance(result, Done)
    return result.words(TRANSPORT, language, literal)
