"""The command tree in the reader's language: Discord shows each user the descriptions of
the commands, of their options and the names of their choices in the language of their
client, from the localisations uploaded with the tree; `CatalogueTranslator` gives
discord.py those words from the catalogue (`bot.i18n`).

Only words are localised. The names of commands and of their options stay as they are in
every language: they are command tokens, like notation, which every message, the help,
the rules and the players' guide quote (``/move``, ``/notify dm:True``), and which the
console and the e-mail commands share; a player who reads Vietnamese descriptions types
the same ``/move`` that the bot's Vietnamese messages tell them to.

A description or a choice is marked for the template where it is written
(`bot.i18n.message_id`, its English words as the message id); a choice whose name is
made of values (``3 days per move``) carries its message (`words`). A language is given
to Discord only once it is shipped (`bot.i18n.shipped`)."""

from __future__ import annotations

import discord
from discord import app_commands

from .. import i18n
from ..i18n import Text

# where the translator keeps the words: command and option names are tokens, never translated
TOKENS = frozenset({app_commands.TranslationContextLocation.command_name,
                    app_commands.TranslationContextLocation.group_name,
                    app_commands.TranslationContextLocation.parameter_name})
MAX_DESCRIPTION = 100  # characters Discord takes of a description or a choice's name


def words(text: Text) -> app_commands.locale_str:
    """A description or a choice's name made of a message with values: its English words
    for Discord, its message for the translator."""
    return app_commands.locale_str(str(text), words=text)


def translated(string: app_commands.locale_str | str, language: str) -> str | None:
    """``string`` in ``language`` from the catalogue; None where it has no translation
    (Discord then shows the English)."""
    if language == i18n.SOURCE:
        return None
    text = string.extras.get("words") if isinstance(string, app_commands.locale_str) else None
    message = string.message if isinstance(string, app_commands.locale_str) else string
    if isinstance(text, Text):
        worded = text.render(language)
        return worded if worded != str(text) else None
    if language == i18n.PSEUDO:  # the tests' language: every message, accented
        return Text(message, {}).render(language)
    found = i18n.catalogue(language).get((message, None))
    return found if isinstance(found, str) and found else None


class CatalogueTranslator(app_commands.Translator):
    """Descriptions and choices in each shipped language (the module's text)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if context.location in TOKENS:
            return None
        return translated(string, i18n.choose(locale.value))
