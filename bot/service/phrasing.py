"""Words that fit each transport: the service names commands and moments as tokens, and each
transport phrases them in its own syntax.

The service writes what a player can do next as a command token, ``{{draw decline}}`` or
``{{board #12}}``, and a moment as ``{{time 1772452800}}``. `phrase` turns them into the
transport's language: the console's and e-mail's command words (```draw decline```), the
Discord slash command with its option (```/draw decline:True```) and Discord timestamps
(``<t:…:f>``). A text without tokens is left as it is, so phrasing twice is harmless.
Notifications are phrased when they are queued (the recipient's transport is known then);
answers when the transport shows them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine import Variant, get_variant

from ..i18n import SOURCE, Literal, Moment, Text, _, format_moment, message_id
from .model import Game
from .words import side_name

TOKEN = re.compile(r"\{\{([a-z]+)((?: [^{}]*)?)\}\}")
CONSOLE, DISCORD, EMAIL = "console", "discord", "email"
COMPUTER = "computer"  # the computer opponent (`bot.service.computer`)


# the placeholder of a command's example, as each transport names it in a language other
# than English (English keeps `challenge NAME` everywhere, as it always said)
PLACEHOLDERS = {"challenge": message_id("NAME")}
MAIL_PLACEHOLDERS = {"challenge": message_id("ADDRESS")}
READER = "@"  # before the reader's language in an example's token: ``{{challenge @vi}}``


class Example(Text):
    """The token of a command's example (``{{challenge}}``): worded in a language, it
    carries that language, so that its placeholder is phrased in it (``challenge TÊN``)."""

    def render(self, language: str, literal: Literal | None = None) -> str:
        if language == SOURCE:
            return str(self)
        return str(self)[:-2] + f" {READER}{language}" + "}}"


def command(word: str, args: str = "") -> str:
    """A command token: what a player may send next (``command("draw", "decline")``)."""
    token = "{{" + " ".join(w for w in (word, args) if w) + "}}"
    return Example(token, {}) if word in PLACEHOLDERS and not args else token


def moment(t: float) -> Moment:
    """A time token, phrased as each transport shows times (and, in a message worded in
    another language, as that language writes dates: `bot.i18n.Moment`)."""
    return Moment(t, token=True)


def _words(word: str, args: str) -> str:
    """The console's and e-mail's command words."""
    if word == "withdraw" and args[:1] not in ("T", "t"):  # one's own challenge (an older
        return f"; withdraw it with `cancel {args}`"  # token; `withdraw T3`: a tournament)
    if word in PLACEHOLDERS and args.startswith(READER):
        placeholder = Text(PLACEHOLDERS[word], {}).render(args[len(READER):])
        return f"`{word} {placeholder}`"
    examples = {"challenge": "challenge NAME", "move": "move c3-d4"}
    if word in examples and not args:
        return f"`{examples[word]}`"
    if word == "move" and args.startswith("#"):  # a move in a numbered game: `#3 c3-d4`
        return f"`{args}`"
    return f"`{word}{' ' + args if args else ''}`"


def _mail_words(word: str, args: str) -> str:
    """E-mail's command words: the console's, but a mail's first line must begin with a
    command word or a move, so a move in a numbered game keeps its `move`."""
    if word == "move" and args.startswith("#"):
        return f"`move {args}`"
    if word in MAIL_PLACEHOLDERS and args.startswith(READER):
        placeholder = Text(MAIL_PLACEHOLDERS[word], {}).render(args[len(READER):])
        return f"`{word} {placeholder}`"
    return _words(word, args)


def _number(args: str) -> str:
    return next((w[1:] for w in args.split() if w.startswith("#") and w[1:].isdigit()), "")


def _slash(word: str, args: str) -> str:
    """The Discord slash command that does what ``word args`` does elsewhere."""
    number = _number(args)
    declining = "decline" in args.split()
    game = f" game:{number}" if number else ""
    if word == "end":
        return f"`/move move:end{game}`"
    if word == "withdraw" and args[:1] in ("T", "t"):  # a tournament: Discord's leave
        return _tournament_slash("leave", args)
    if word == "withdraw":  # how to withdraw one's own challenge
        return f"; withdraw it with `/cancel{f' challenge:{number}' if number else ''}`"
    if word in ("draw", "takeback"):
        return f"`/{word}{' decline:True' if declining else ''}{game}`"
    if word == "back":
        return "`/vacation end:True`"
    if word in ("accept", "decline", "cancel"):
        return f"`/{word}{f' challenge:{number}' if number else ''}`"
    played = next((w for w in args.split() if not w.startswith("#")), "")
    if word == "move" and played:  # the move tried, in a game of the number given
        return f"`/move move:{played}{f' game:{number}' if number else ''}`"
    if word == "moves" and played:  # a piece's moves, in a game of the number given
        return f"`/moves square:{played}{f' game:{number}' if number else ''}`"
    if word in ("board", "move", "moves", "resign", "export", "games", "watch"):
        return f"`/{word}{f' game:{number}' if number else ''}`"
    if word == "help":
        return "`/help`"
    return _tournament_slash(word, args) or f"`/{word}`"


TOURNAMENT_WORDS = ("join", "leave", "standings", "pairings", "ladder")


def _tournament_slash(word: str, args: str) -> str:
    """The `/tournament` sub-command of a tournament's command (``join T3``, ``tournament
    start T3``, ``tournaments``); '' for any other command."""
    if word == "tournaments":
        return "`/tournament list`"
    words = args.split()
    if word == "tournament" and words:
        word, words = words[0], words[1:]
    elif word not in TOURNAMENT_WORDS:
        return ""
    ref = next((w[1:] for w in words if w[:1] in "Tt" and w[1:].isdigit()), "")
    return f"`/tournament {word}{f' tournament:{ref}' if ref else ''}`"


def _time_text(args: str) -> str:
    t, _sep, language = args.partition(" ")
    return format_moment(float(t), language.strip() or SOURCE)


def _discord_time(args: str) -> str:  # Discord shows it in its reader's language itself
    t = int(float(args.partition(" ")[0]))
    return f"<t:{t}:f> (<t:{t}:R>)"


PHRASES: dict[str, tuple[Callable[[str, str], str], Callable[[str], str]]] = {
    CONSOLE: (_words, _time_text),
    EMAIL: (_mail_words, _time_text),
    DISCORD: (_slash, _discord_time),
}


def phrase(text: str, transport: str) -> str:
    """``text`` with its tokens in ``transport``'s language (console words by default)."""
    if "{{" not in text:
        return text
    commands, times = PHRASES.get(transport, PHRASES[CONSOLE])

    def one(match: re.Match[str]) -> str:
        word, args = match[1], match[2].strip()
        return times(args) if word == "time" else commands(word, args)

    return TOKEN.sub(one, text)


# --- games in words ----------------------------------------------------------------
def players_line(game: Game, rules: Variant) -> Text:
    return _("{first} ({first_side}) vs {second} ({second_side})", first=game.names[0],
             first_side=side_name(rules, 0), second=game.names[1],
             second_side=side_name(rules, 1))


def describe_result(game: Game) -> str:
    """``alice (White) wins: Black has no Commander left (1-0)``, ``drawn ...``."""
    if game.status == "aborted":
        return _("aborted ({reason})", reason=game.reason)
    if game.status == "active":
        return _("in progress")
    if game.winner is None:
        return _("drawn, {reason} ({result})", reason=game.reason, result=game.result)
    rules = get_variant(game.variant)
    return _("{name} ({side}) wins: {reason} ({result})", name=game.names[game.winner],
             side=side_name(rules, game.winner), reason=game.reason, result=game.result)
