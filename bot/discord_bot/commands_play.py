"""Playing: challenges, moves (by /move or typed in the game's thread), the board, legal
moves, resigning, draws, takebacks, aborting, game lists and records."""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from engine import EngineError, all_variants, get_variant
from engine.search import LEVELS

from ..i18n import SOURCE, Name, Text, _, _n, joined, message_id, render
from ..service.answers import Owed
from ..service.archive import FORMATS, RECORD
from ..service.clock import (
    ALLOWED_DAYS,
    TimeControl,
    describe_clock,
    is_clock_word,
    parse_time_control,
)
from ..service.inference import ANSWER, END_TURN
from ..service.model import Challenge, Game, Player
from ..service.phrasing import moment
from ..service.posts import time_left
from ..service.results import Done, Reason, Refusal, storage_words
from ..storage import StorageError
from . import failures, hints, homes, live, logs, permissions, pictures
from .client import literal, message_words, reader_language, result_text, writer_language
from .notifier import discord_times
from .owing import CHALLENGE_POST, GAME_THREAD, deed_of, owing, owing_move
from .pickers import show_piece
from .places import (
    TRANSPORT,
    channel_of,
    channel_place,
    is_discord_place,
    place_of,
    server_key,
    target_of,
)
from .translator import words
from .views import acted, challenge_view

if TYPE_CHECKING:
    from .client import Bot

log = logging.getLogger(__name__)
SITE = re.compile(r'^\[Site "[^"\n]*"\]', re.MULTILINE)
MAX_LISTED = 25
MAX_CHOICES = 25
GAME_HELP = message_id("The game's number (default: the one here, or your only one)")
# the command a "which game?" answer shows for each service action (`_game_action`)
ACTION_WORDS = {"resign": "resign", "abort": "abort", "offer_draw": "draw",
                "decline_draw": "draw decline"}
SIDES = [app_commands.Choice(name=message_id("first (White/Red)"), value=0),
         app_commands.Choice(name=message_id("second (Black/Blue)"), value=1),
         app_commands.Choice(name=message_id("random"), value=-1)]
COMPUTER_LEVELS = [app_commands.Choice(name=f"level {lv.number}: {lv.description}"[:100],
                                       value=lv.number) for lv in LEVELS.values()]
DAYS = [app_commands.Choice(name=message_id("no clock"), value=0)] + [
    app_commands.Choice(name=words(_n("{n} day per move", "{n} days per move", d)), value=d)
    for d in ALLOWED_DAYS]
# what each option of /challenge is for, as Discord shows it beside the option
CHALLENGE_OPTIONS = {
    "opponent": message_id("Who to play (leave empty in a server: anyone there may accept; "
                           "needed in a DM)"),
    "variant": message_id("The variant to play (default: the server's first)"),
    "mode": message_id("The variant's mode (default: its usual one)"),
    "side": message_id("Which side you play (default: random)"),
    "days": message_id("Time per move (default: the server's)"),
    "rated": message_id("Whether the game counts for ratings (default: yes)"),
    "clock": message_id("Or a Fischer clock and/or a total: 3d+1d max10d total60d"),
    "computer": message_id("Play the computer at this level (it accepts at once)")}


def _challenge_choices(names: list[tuple[str, int]],
                       current: str) -> list[app_commands.Choice[int]]:
    """Up to 25 challenges (name, number) whose name contains ``current``."""
    return [app_commands.Choice(name=n[:100], value=i) for n, i in names
            if current in n][:MAX_CHOICES]


def _choices(items: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 (name, value) pairs whose name or value contains ``current``."""
    current = current.lower()
    return [app_commands.Choice(name=name[:100], value=value[:100]) for name, value in items
            if current in name.lower() or current in value.lower()][:MAX_CHOICES]


class PlayCommands(commands.Cog, name="Playing"):
    """Challenges, moves and the end of games."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = bot.service

    # --- autocompletion -------------------------------------------------------------
    async def variant_names(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        """The variants this server plays (every variant in a DM or a server that chose
        none)."""
        allowed = (await self._server(interaction)).get("variants")
        language = reader_language(interaction)
        return _choices([(render(v.display_name, language), v.name) for v in all_variants()
                         if not allowed or v.name in allowed], current)

    def _days_of(self, server: dict[str, object]) -> int:
        """Days per move of a challenge that names none here: the server's choice, else the
        host's (`ChallengeDesk.default_days`, as on every transport); 0: no clock."""
        if "days" in server:
            return int(server["days"] or 0)  # type: ignore[call-overload]
        return self.service.challenges.default_days() or 0

    async def day_choices(self, interaction: discord.Interaction,
                          current: str) -> list[app_commands.Choice[int]]:
        """The time controls, this server's default first."""
        default = await self.default_days(interaction)
        choices = sorted(DAYS, key=lambda c: c.value != default)
        return [app_commands.Choice(name=c.name + (" (this server's default)"
                                                   if c.value == default else ""),
                                    value=c.value)
                for c in choices if current.strip().lower() in c.name][:MAX_CHOICES]

    async def default_days(self, interaction: discord.Interaction) -> int:
        """Days per move of a game made here that names none (a challenge's, a
        tournament's): `_days_of` this server; 0: no clock."""
        return self._days_of(await self._server(interaction))

    async def _server(self, interaction: discord.Interaction) -> dict[str, object]:
        if not interaction.guild_id:
            return {}
        return await self.service.rooms.server_settings(server_key(interaction.guild_id))

    async def mode_names(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        try:
            variant = get_variant(getattr(interaction.namespace, "variant", None)
                                  or all_variants()[0].name)
        except EngineError:
            return []
        return _choices([(m, m) for m in variant.modes], current)

    async def my_games(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[int]]:
        player = await self.bot.player_of(interaction.user)
        return _game_choices(await self.service.games(player), current,
                             reader_language(interaction))

    async def watchable_games(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[int]]:
        """This server's live games (in a DM: the sender's)."""
        if interaction.guild_id:
            games = [g for g in await self.service.games()
                     if self._on_server(g.place, interaction.guild_id)]
        else:
            games = await self.service.games(await self.bot.player_of(interaction.user))
        return _game_choices(games, current, reader_language(interaction))

    async def open_challenges(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[int]]:
        player = await self.bot.player_of(interaction.user)
        found = await self._answerable(interaction, player)
        language = reader_language(interaction)
        return _challenge_choices([(render(_("#{number} from {name}: {variant}", number=c.id,
                                             name=c.challenger_name,
                                             variant=get_variant(c.variant).display_name),
                                           language), c.id) for c in found], current)

    async def _autocomplete_game(self, interaction: discord.Interaction) -> Game | None:
        player = await self.bot.player_of(interaction.user)
        found = await self._find_game(interaction, player,
                                      getattr(interaction.namespace, "game", None), True)
        return None if isinstance(found, Refusal) else found

    async def legal_move_texts(self, interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        """Single steps (one piece's move, a deploy's next piece) matching what was typed,
        those starting with it first; `end` while a turn is in progress."""
        game = await self._autocomplete_game(interaction)
        if game is None:
            return []
        steps = [s for p in await self.service.turns.step_choices(game) for s in p.steps]
        if await self.service.turns.can_end_turn(game):
            steps.insert(0, "end")
        typed = current.strip().lower()
        steps.sort(key=lambda s: not s.lower().startswith(typed))
        return _choices([(s, s) for s in steps], typed)

    async def origin_squares(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        game = await self._autocomplete_game(interaction)
        if game is None:
            return []
        pieces = await self.service.turns.step_choices(game)
        language = reader_language(interaction)
        return _choices([(render(_("{piece} on {point}", piece=p.name, point=p.origin),
                                 language), p.origin) for p in pieces], current.strip())

    # --- finding things -------------------------------------------------------------
    def _challenge_place(self, interaction: discord.Interaction) -> str:
        return channel_place(channel_of(interaction.channel))

    def _on_server(self, place: str, guild_id: int) -> bool:
        """Whether ``place`` is a channel of the server ``guild_id``."""
        channel = self.bot.get_channel(target_of(place) or 0) if is_discord_place(place) else None
        return getattr(getattr(channel, "guild", None), "id", None) == guild_id

    async def _answerable(self, interaction: discord.Interaction,
                          player: Player) -> list[Challenge]:
        """The open challenges ``player`` may answer from here: those addressed to them,
        and those open to anyone in any channel of this server."""
        found = {c.id: c for c in await self.service.challenges.pending(player)
                 if c.challenger_id != player.id}
        if interaction.guild_id:
            for c in await self.service.challenges.pending():
                if (c.opponent_id is None and c.challenger_id != player.id
                        and self._on_server(c.place, interaction.guild_id)):
                    found[c.id] = c
        return [found[k] for k in sorted(found)]

    async def _find_game(self, interaction: discord.Interaction, player: Player,
                         game_id: int | None, to_move: bool = False,
                         purpose: str | None = None, example: str = "board",
                         move: str | None = None, point: str | None = None) -> Game | Refusal:
        """The game a command means, by the service's one rule (`bot.service.inference`): the one
        numbered, the one of this thread, the sender's only one, ... A game's thread after
        its end still means that game."""
        place = place_of(interaction.channel)
        found = await self.service.inference.find_game(player, place, game_id, to_move, purpose,
                                                       example, move, point)
        if isinstance(found, Refusal) and found.reason == Reason.NO_GAME_HERE \
                and isinstance(interaction.channel, discord.Thread):
            finished = await self.service.games(place=place, active=False)
            if len(finished) == 1:
                found = finished[0]
        if isinstance(found, Game):
            logs.set_context(game_id=found.id)
        return found

    # --- challenges -----------------------------------------------------------------
    @app_commands.command(name="challenge", description=message_id(
        "Challenge someone, or anyone here, or the computer, to a correspondence game."))
    @app_commands.describe(**CHALLENGE_OPTIONS)
    @app_commands.autocomplete(variant=variant_names, mode=mode_names, days=day_choices)
    @app_commands.choices(side=SIDES, computer=COMPUTER_LEVELS)
    async def challenge(self, interaction: discord.Interaction,
                        opponent: discord.User | None = None, variant: str | None = None,
                        mode: str | None = None, side: int | None = None,
                        days: int | None = None, rated: bool = True,
                        clock: str | None = None, computer: int | None = None) -> None:
        """Challenge someone, or anyone here, or the computer, to a correspondence game."""
        sender = await self.bot.player_of(interaction.user)
        place = self._challenge_place(interaction)
        if opponent is None and computer is None and not interaction.guild_id:
            await self.bot.answer(interaction, _("In a DM, name your opponent: "
                                                 "`/challenge opponent:@name`. To challenge "
                                                 "anyone, use `/challenge` in a server."))
            return
        server = await self._server(interaction)
        if server.get("channel"):
            place = channel_place(int(server["channel"]))  # type: ignore[arg-type]
        allowed = server.get("variants")
        if allowed and variant is None:
            variant = allowed[0]  # type: ignore[index]
        if allowed and variant is not None and _variant_key(variant) not in allowed:
            await self.bot.answer(interaction, _("This server plays only {variants}.",
                                                 variants=", ".join(allowed)))  # type: ignore[arg-type]
            return
        if await self._refused_for_permissions(interaction, place):
            return
        if days is None:
            days = self._days_of(server)
        chosen = clock_choice(clock, days)
        if isinstance(chosen, Refusal):
            await self.bot.answer(interaction, chosen)
            return
        time_control, days = chosen
        if computer is not None or (opponent is not None and self.bot.user is not None
                                    and opponent.id == self.bot.user.id):
            await self._challenge_computer(interaction, sender, place, computer, variant, mode,
                                           None if side in (None, -1) else side, days or None,
                                           rated)
            return
        target = None
        if opponent is not None:
            if opponent.bot:
                await self.bot.answer(interaction,
                                      _("Bots do not play here; challenge a person."))
                return
            target = await self.bot.player_of(opponent)
            logs.set_context(user_id=interaction.user.id)
        async with owing(self.bot, sender, interaction.channel, "challenge",
                         post=CHALLENGE_POST, post_in=place):
            result = await self.service.challenges.challenge(
                sender, place, target, variant, mode, None if side in (None, -1) else side,
                days or None, rated=rated, time_control=time_control and time_control.text())
            if isinstance(result, Refusal):
                await self.bot.answer(interaction, result)
                return
            number = result.challenge.id  # type: ignore[union-attr]
            language = reader_language(interaction)
            said = result.words(TRANSPORT, language, literal)
            if opponent is not None and not interaction.guild_id:  # our DM: theirs has them
                await interaction.response.send_message(discord_times(render(_(
                    "{result}\nI sent it to {name} by DM, with Accept and Decline; "
                    "`/cancel challenge:{number}` withdraws it.", result=said,
                    name=Name(opponent.display_name), number=number), language, literal)))
            else:
                text = (_("{result}\n{mention}, you are challenged: press Accept, or "
                          "`/accept challenge:{number}`.", result=said,
                          mention=opponent.mention, number=number) if opponent
                        else _("{result}\nAnyone here may accept: press Accept, or "
                               "`/accept challenge:{number}`.", result=said, number=number))
                await interaction.response.send_message(
                    discord_times(render(text, language)),
                    view=challenge_view(number, language))
        await self.bot.flush()

    async def _challenge_computer(self, interaction: discord.Interaction, sender: Player,
                                  place: str, level: int | None, variant: str | None,
                                  mode: str | None, side: int | None, days: int | None,
                                  rated: bool) -> None:
        """The computer accepts at once: the game's thread opens with the board."""
        async with owing(self.bot, sender, interaction.channel, "computer", post=GAME_THREAD,
                         post_in=place):
            result = await self.bot.computer.challenge(sender, place, level, variant, mode,
                                                       side, days, rated=rated)
            if isinstance(result, Refusal):
                await self.bot.answer(interaction, result)
                return
            await interaction.response.defer(thinking=True)
            assert result.game is not None
            thread = await homes.open_home(self.bot, result.game, sender.id)
            where = (_("Play in {thread}.", thread=thread.mention) if thread is not None
                     else _("Play here with `/move game:{game}`.", game=result.game.id))
            language = reader_language(interaction)
            await interaction.followup.send(render(joined(
                [result.words(TRANSPORT, language, literal), where], "\n"), language))
        await self.bot.flush()

    @app_commands.command(name="accept", description=message_id(
        "Accept a challenge: the game starts in its own thread."))
    @app_commands.describe(
        challenge=message_id("The challenge to accept (default: the only one for you)"))
    @app_commands.autocomplete(challenge=open_challenges)
    async def accept(self, interaction: discord.Interaction,
                     challenge: int | None = None) -> None:
        """Accept a challenge: the game starts in its own thread."""
        sender, found = await self._challenge_meant(interaction, challenge)
        if found is None:
            return
        await self.accept_challenge(interaction, sender, found.id)

    async def _challenge_meant(self, interaction: discord.Interaction, number: int | None,
                               own: bool = False) -> tuple[Player, Challenge | None]:
        """The sender and the challenge they mean (``own``: one they made); None (refusal
        answered) if there is none."""
        sender = await self.bot.player_of(interaction.user)
        if number is not None or own:
            found = await self.service.challenges.find_challenge(
                sender, self._challenge_place(interaction), number, own=own)
        else:
            found = _only_challenge(await self._answerable(interaction, sender))
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return sender, None
        return sender, found

    async def accept_challenge(self, interaction: discord.Interaction, sender: Player,
                               challenge_id: int) -> bool:
        """Accept a challenge for ``sender`` (by /accept or its button): refused only to the
        sender, else the game's thread opens and everyone here is told. True if accepted."""
        challenge = await self.service.challenges.get_challenge(challenge_id)
        if challenge is not None and await self._refused_for_permissions(interaction,
                                                                         challenge.place):
            return False
        async with owing(self.bot, sender, interaction.channel, "accept",
                         challenge_id=challenge_id, post=GAME_THREAD,
                         post_in=challenge.place if challenge else None):
            result = await self.service.challenges.accept(sender, challenge_id)
            if isinstance(result, Refusal):
                await self.bot.answer(interaction, result)
                return False
            await interaction.response.defer(thinking=True)
            game = result.game
            assert game is not None
            logs.set_context(game_id=game.id)
            thread = await homes.open_home(self.bot, game, result.challenge
                                           and result.challenge.challenger_id)
            language = reader_language(interaction)
            await interaction.followup.send(render(joined(
                [result.words(TRANSPORT, language, literal), _where_to_play(game, thread)], "\n"),
                language))
        await self.bot.flush()
        return True

    async def _refused_for_permissions(self, interaction: discord.Interaction,
                                       place: str) -> bool:
        """Refuse (to the member only) an action that would start a game in a channel where
        the bot lacks a permission a game needs, naming the missing ones."""
        channel = self.bot.get_channel(target_of(place) or 0) if is_discord_place(place) \
            else None
        if not isinstance(channel, discord.TextChannel):
            return False
        missing = permissions.missing_in(channel)
        if missing:
            await self.bot.answer(interaction, permissions.refusal(channel, missing))
        return bool(missing)

    @app_commands.command(name="decline", description=message_id(
        "Decline a challenge addressed to you."))
    @app_commands.describe(
        challenge=message_id("The challenge to decline (default: the only one for you)"))
    @app_commands.autocomplete(challenge=open_challenges)
    async def decline(self, interaction: discord.Interaction,
                      challenge: int | None = None) -> None:
        """Decline a challenge addressed to you."""
        sender, found = await self._challenge_meant(interaction, challenge)
        if found is None:
            return
        async with owing(self.bot, sender, interaction.channel, "decline",
                         challenge_id=found.id):
            declined = await self.service.challenges.decline(sender, found.id)
            await self.bot.answer(interaction, declined, public=True)
        await self.bot.flush()

    async def own_challenges(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[int]]:
        player = await self.bot.player_of(interaction.user)
        found = [c for c in await self.service.challenges.pending(player)
                 if c.challenger_id == player.id]
        language = reader_language(interaction)
        return _challenge_choices([(render(_("#{number} to {name}: {variant}", number=c.id,
                                             name=c.opponent_name or _("anyone"),
                                             variant=get_variant(c.variant).display_name),
                                           language), c.id) for c in found], current)

    @app_commands.command(name="cancel", description=message_id("Withdraw a challenge you made."))
    @app_commands.describe(
        challenge=message_id("Your challenge to withdraw (default: your only one)"))
    @app_commands.autocomplete(challenge=own_challenges)
    async def cancel(self, interaction: discord.Interaction,
                     challenge: int | None = None) -> None:
        """Withdraw a challenge you made."""
        sender, found = await self._challenge_meant(interaction, challenge, own=True)
        if found is None:
            return
        async with owing(self.bot, sender, interaction.channel, "cancel",
                         challenge_id=found.id):
            cancelled = await self.service.challenges.cancel(sender, found.id)
            await self.bot.answer(interaction, cancelled, public=True)
        await self.bot.flush()

    # --- moves ----------------------------------------------------------------------
    @app_commands.command(name="move", description=message_id(
        "Play a move. Example: /move move:c3-d4"))
    @app_commands.describe(
        move=message_id("The move, in the variant's notation (`end` ends a turn)"),
        game=GAME_HELP)
    @app_commands.autocomplete(move=legal_move_texts, game=my_games)
    async def move(self, interaction: discord.Interaction, move: str,
                   game: int | None = None) -> None:
        """Play a move. Example: /move move:c3-d4"""
        sender = await self.bot.player_of(interaction.user)
        played = move.split()[0][:40].replace("`", "'") if move.split() else "c3-d4"
        if played.lower() != "move" and isinstance(self.bot.tree.get_command(played.lower()),
                                                   app_commands.Command):
            await self.bot.answer(interaction, _(
                "{played} is a command, not a move: use `/{command}` instead (`/help "
                "command:{command}` tells more).", played=repr(played), command=played.lower()))
            return
        ending = move.strip().lower() == "end"
        found = await self._find_game(interaction, sender, game, to_move=True,
                                      purpose=END_TURN if ending else None,
                                      example=f"move {played}",
                                      move=None if ending or not move.strip() else move)
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return
        async with owing_move(self.bot, sender, interaction.channel, found) as owed:
            result = await self.service.move(sender, found.id, move)
            if isinstance(result, Refusal):
                await self.bot.answer(interaction, result)
                return
            await self.answer_move(interaction, result, owed)
        await self._moved(result, sender)

    async def answer_move(self, interaction: discord.Interaction, result: Done,
                          owed: Owed) -> None:
        """Answer a stored move's interaction (a /move, a step menu, End turn) with its
        board. A reply that failed but reached Discord after all (a timeout, a 5xx) is not
        answered again; one that did not is confirmed elsewhere and ended in words, once."""
        assert result.game is not None
        try:
            await self.bot.send_move(interaction, result)
        except (discord.HTTPException, TimeoutError) as error:  # the move is stored
            landed = await failures.answer_landed(interaction)
            if landed is not None:
                await self.bot.board_sent(result.game, landed, interaction.channel_id or 0)
            else:  # say so elsewhere, and end the interaction in words
                await self._confirm_elsewhere(interaction.user, interaction.channel,
                                              result, error, owed, interaction)

    async def _moved(self, result: Done, sender: Player) -> None:
        """After a move: offers it made moot say so; the notifications go out."""
        assert result.game is not None
        await live.settle_offers(self.bot, result.game, sender.display_name)
        await self.bot.flush()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A move typed in a game's thread by the player to move (a storage fault is
        answered, in the words of every transport)."""
        try:
            await self._typed_move(message)
        except StorageError as err:
            log.error("typed move not carried out: %s", err)
            await message.reply(storage_words(err), mention_author=False)

    async def _typed_move(self, message: discord.Message) -> None:
        if message.author.bot or not isinstance(message.channel, discord.Thread):
            return
        text = message.content.strip()
        if not text or len(text) > 40 or text.startswith(("/", "!", "<")) or "\n" in text:
            return
        games = await self.service.games(place=place_of(message.channel))
        if len(games) != 1:
            return
        game = games[0]
        sender = await self.bot.player_of(message.author)
        side = game.side_of(sender.id)
        language = writer_language(sender, message)
        if side is None:  # chat from spectators, or a move meant for another game
            if hints.looks_like_move(game, text) and (
                    elsewhere := await self._legal_elsewhere(sender, game, text)):
                await message.reply(render(_("You do not play in game #{game}. {elsewhere}",
                                             game=game.id, elsewhere=elsewhere), language),
                                    mention_author=False)
            return
        logs.set_context(game_id=game.id)
        if side != game.to_move:
            if hints.looks_like_move(game, text):  # a move typed out of turn
                result = await self.service.move(sender, game.id, text)
                if isinstance(result, Refusal):
                    elsewhere = await self._legal_elsewhere(sender, game, text)
                    await message.reply(self.bot_text(result, elsewhere, language),
                                        mention_author=False)
            return
        async with owing_move(self.bot, sender, message.channel, game) as owed:
            result = await self.service.move(sender, game.id, text)
            if isinstance(result, Refusal):
                await self._refused_typed(message, game, text, result, language)
                return
            assert result.game is not None
            try:
                async with message.channel.typing():
                    reply = await self.bot.move_message(result, language=language)
                sent = await message.reply(**reply, mention_author=False)
                await self.bot.board_sent(result.game, sent, message.channel.id)
            except TimeoutError as error:  # the move is stored; its reply may have landed
                landed = await failures.reply_landed(message, self.bot.user)
                if landed is not None:  # answered once: the reply is the live board
                    await self.bot.board_sent(result.game, landed, message.channel.id)
                else:
                    await self._confirm_elsewhere(message.author, message.channel, result,
                                                  error, owed)
            except discord.HTTPException as error:  # the move is stored: say so elsewhere
                await self._confirm_elsewhere(message.author, message.channel, result, error,
                                              owed)
        await self._moved(result, sender)

    async def _refused_typed(self, message: discord.Message, game: Game, text: str,
                             result: Refusal, language: str) -> None:
        """A typed move refused (answered in ``language``): said when it is a move; almost
        a move gets a hint; anything else is conversation."""
        if result.reason in (Reason.ILLEGAL_MOVE, Reason.AMBIGUOUS_MOVE):
            sender = await self.bot.player_of(message.author)
            elsewhere = await self._legal_elsewhere(sender, game, text)
            await message.reply(self.bot_text(result, elsewhere, language),
                                mention_author=False)
        elif result.reason == Reason.BAD_MOVE:
            hint = await hints.near_miss(self.service, game, text)
            if hint:
                await message.reply(render(hint, language), mention_author=False)

    async def _legal_elsewhere(self, sender: Player, here: Game, text: str) -> Text | None:
        """Where ``text``, typed in ``here``'s thread, is a legal move of ``sender``'s: the
        words pointing to that game (the one game where it is their turn and it is
        legal), or None when there is none (or several)."""
        found = []
        for game in await self.service.games(sender):
            if game.id != here.id and game.side_of(sender.id) == game.to_move and any(
                    m.lower() == text.lower() for m in await self.service.legal_moves(game)):
                found.append(game)
        if len(found) != 1:
            return None
        game = found[0]
        target = target_of(game.place) if is_discord_place(game.place) else None
        if target:
            return _("`{text}` is a legal move in your game #{game}: play it there in "
                     "<#{channel}>, or with `/move move:{text} game:{game}`.", text=text,
                     game=game.id, channel=target)
        return _("`{text}` is a legal move in your game #{game}: play it there, or with "
                 "`/move move:{text} game:{game}`.", text=text, game=game.id)

    async def _confirm_elsewhere(self, user: discord.abc.User, channel: object, result: Done,
                                 error: discord.HTTPException | TimeoutError, owed: Owed,
                                 interaction: discord.Interaction | None = None) -> None:
        """A move is stored, but Discord refused its reply: confirm it by DM (or, if DMs
        are closed, in the thread's channel), and tell the opponent the news the reply
        carried, both through the outbox so that they are retried. A /move's interaction
        is ended with that news in words (never left "thinking…"); only if Discord refuses
        that too does the news go through the outbox, so it is said once."""
        game = result.game
        assert game is not None
        log.warning("game #%s: the reply to a move failed: %s", game.id, error)
        # away from the game's thread, its news went there already (`send_move`): here
        # the move is named, nobody pinged
        home = self.bot.is_home(getattr(channel, "id", None), game) \
            or not is_discord_place(game.place)
        mentions = await self.bot.mentions(game) if home else game.names
        parts = [_("**{move}** played in game #{game}.", move=result.move, game=game.id)]
        if not game.is_over:
            parts.append(_("{mention}, your move.", mention=mentions[game.to_move]) if home
                         else _("{name} to move.", name=mentions[game.to_move]))
        news = joined(parts)
        refused = _("(I could not show the board here: {why}. {advice})",
                    why=failures.why_not(error), advice=failures.advice(error, board=True))
        # the news in words where the board did not go (the owed answer stays until the
        # confirmation below is stored: a restart in between still confirms the move)
        language = reader_language(interaction) if interaction is not None else SOURCE
        finished = interaction is not None and await failures.finish(
            interaction, message_words(joined([news, refused], "\n"), language))
        where = getattr(channel, "mention", None) or (
            _("our DM") if isinstance(channel, discord.DMChannel) else _("the game's thread"))
        text = (_("Your move **{move}** in game #{game} is played; I could not show the board "
                  "in {where} ({why}). {advice}", move=result.move, game=game.id, where=where,
                  why=failures.why_not(error), advice=failures.advice(error)) if finished
                else _("Your move **{move}** in game #{game} is played; I could not answer in "
                       "{where} ({why}). {advice}", move=result.move, game=game.id,
                       where=where, why=failures.why_not(error),
                       advice=failures.advice(error)))
        parent = getattr(channel, "parent_id", None)
        place = channel_place(parent) if parent else game.place
        owed.settled = owed.row_id is not None and await self.service.settle_answer(
            owed.row_id, text, owed.lane, owed.payload, place, game.id)
        if not owed.settled:
            sender = await self.bot.player_of(user)
            await self.service.queue_notification(
                "discord", "confirmation", text, player_id=sender.id, game_id=game.id,
                place=place, payload=owed.payload)
        if home and not finished:  # else the thread has the news already
            await self.service.queue_notification("discord", "news", news, place=game.place,
                                                  game_id=game.id)

    @staticmethod
    def bot_text(result: Refusal, elsewhere: Text | None = None,
                 language: str = SOURCE) -> str:
        """A typed move's refusal in ``language``, with where it is legal (``elsewhere``)."""
        return render(joined([result_text(result, language), *filter(None, [elsewhere])]),
                      language)

    @app_commands.command(name="board", description=message_id(
        "Show a game's board with the last move."))
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Show a game's board with the last move."""
        sender = await self.bot.player_of(interaction.user)
        found = await self._find_game(interaction, sender, game)
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return
        # a look at the board pings nobody, whoever asks (news of a move does)
        await self.bot.send_board(interaction, found, pictures.header(found) + ".",
                                  perspective=found.side_of(sender.id), mention=False)
        notes = await self.service.notes.notes_text(sender, found.id)
        if notes:  # the board may be public: the notes go to their author alone
            await interaction.followup.send(notes, ephemeral=True)

    @app_commands.command(name="moves", description=message_id(
        "Show where the piece on a point may go, on the board."))
    @app_commands.describe(
        square=message_id("The piece's point (its legal destinations are highlighted)"),
        game=GAME_HELP)
    @app_commands.autocomplete(square=origin_squares, game=my_games)
    async def moves(self, interaction: discord.Interaction, square: str,
                    game: int | None = None) -> None:
        """Show where the piece on a point may go, on the board."""
        sender = await self.bot.player_of(interaction.user)
        found = await self._find_game(interaction, sender, game, example=f"moves {square}",
                                      point=square)
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return
        await show_piece(self.bot, interaction, found, square)

    # --- the end of games and offers ------------------------------------------------
    async def _game_action(self, interaction: discord.Interaction, game: int | None,
                           action: str, purpose: str | None = None) -> None:
        sender = await self.bot.player_of(interaction.user)
        found = await self._find_game(interaction, sender, game, purpose=purpose,
                                      example=ACTION_WORDS.get(action, "board"))
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return
        async with owing(self.bot, sender, interaction.channel,
                         deed_of(found, sender, action), found.id):
            result = await getattr(self.service, action)(sender, found.id)
            if isinstance(result, Refusal):
                await self.bot.answer(interaction, result)
                return
            await acted(self.bot, interaction, sender, action, result)

    @app_commands.command(name="resign", description=message_id("Resign a game."))
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Resign a game."""
        await self._game_action(interaction, game, "resign")

    @app_commands.command(name="abort", description=message_id(
        "Call a game off (unrated) before both sides have moved."))
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Call a game off (unrated) before both sides have moved."""
        await self._game_action(interaction, game, "abort")

    @app_commands.command(name="draw", description=message_id(
        "Offer a draw, or accept the one offered."))
    @app_commands.describe(
        decline=message_id("Turn down your opponent's offer instead"),
        game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def draw(self, interaction: discord.Interaction, decline: bool = False,
                   game: int | None = None) -> None:
        """Offer a draw, or accept the one offered."""
        await self._game_action(interaction, game, "decline_draw" if decline else "offer_draw",
                                purpose=f"{ANSWER} draw")

    @app_commands.command(name="takeback", description=message_id(
        "Ask to take your last turn back, or accept your opponent's request."))
    @app_commands.describe(
        decline=message_id("Turn down your opponent's request instead"),
        game=GAME_HELP)
    @app_commands.autocomplete(game=my_games)
    async def takeback(self, interaction: discord.Interaction, decline: bool = False,
                       game: int | None = None) -> None:
        """Ask to take your last turn back, or accept your opponent's request."""
        sender = await self.bot.player_of(interaction.user)
        found = await self._find_game(interaction, sender, game, purpose=f"{ANSWER} takeback",
                                      example="takeback")
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return
        if decline:
            action = "decline_takeback"
        elif found.takeback_offer is not None and found.takeback_offer != found.side_of(
                sender.id):
            action = "accept_takeback"
        else:
            action = "request_takeback"
        await self._game_action(interaction, found.id, action)

    # --- lists and records ----------------------------------------------------------
    @app_commands.command(name="challenges", description=message_id(
        "List the open challenges you made or received, and those open to anyone here."))
    async def challenges(self, interaction: discord.Interaction) -> None:
        """List the open challenges you made or received, and those open to anyone here."""
        sender = await self.bot.player_of(interaction.user)
        found = await self.service.challenges.pending(sender, self._challenge_place(interaction))
        if not found:
            await self.bot.answer(interaction, _("There are no open challenges for you or here. "
                                                 "Make one with `/challenge`."))
            return
        lines: list[str] = [_("Open challenges:")]
        for c in found[:MAX_LISTED]:
            line = _("• #{number} {name} → {opponent}: {variant}, {clock}, expires {time}",
                     number=c.id, name=c.challenger_name, opponent=c.opponent_name or
                     _("anyone"), variant=get_variant(c.variant).display_name,
                     clock=describe_clock(c.days, c.time_control),
                     time=discord_times(moment(c.expires_at)))
            if c.challenger_id == sender.id:
                line = _("{line} (yours; `/cancel challenge:{number}` withdraws it)", line=line,
                         number=c.id)
            elif c.opponent_id == sender.id or c.opponent_id is None:
                line = _("{line} (`/accept challenge:{number}` or `/decline "
                         "challenge:{number}`)", line=line, number=c.id)
            lines.append(line)
        if len(found) > MAX_LISTED:
            lines.append(_("… and {n} more.", n=len(found) - MAX_LISTED))
        language = reader_language(interaction)
        await self.bot.answer(interaction, message_words(joined(lines, "\n"), language)[:2000])

    @app_commands.command(name="games", description=message_id(
        "List your games (your turn first, the least time left first), or this server's."))
    @app_commands.describe(
        here=message_id("List this server's live games, to watch, instead of yours"))
    async def games(self, interaction: discord.Interaction, here: bool = False) -> None:
        """List your games (your turn first, the least time left first), or this server's."""
        sender = await self.bot.player_of(interaction.user)
        mine = [] if here else await self.service.games(sender)
        if not mine and interaction.guild_id:  # a spectator: what there is to watch here
            here = True
        if here and interaction.guild_id:
            found = [g for g in await self.service.games()
                     if self._on_server(g.place, interaction.guild_id)]
            title = _("Live games on this server:")
        elif here:
            found = await self.service.games(place=channel_place(channel_of(
                interaction.channel)))
            title = _("Live games here:")
        else:
            found = sorted(mine, key=lambda g: (g.to_move != g.side_of(sender.id),
                                                time_left(g)))
            title = _("Your games:")
        if not found:
            await self.bot.answer(interaction, _("No games in progress.") if here else
                                  _("No games in progress. Start one with `/challenge`."))
            return
        lines = [title, *(self._game_line(g, None if here else sender)
                          for g in found[:MAX_LISTED])]
        if len(found) > MAX_LISTED:
            lines.append(_("… and {n} more.", n=len(found) - MAX_LISTED))
        language = reader_language(interaction)
        await self.bot.answer(interaction, message_words(joined(lines, "\n"), language)[:2000])

    def _game_line(self, game: Game, player: Player | None) -> Text:
        """One game of a list: its players, variant, whose turn and until when, its link."""
        variant = get_variant(game.variant).display_name
        if player is not None and game.side_of(player.id) == game.to_move:
            turn = _("**your turn**")
        else:
            turn = _("{name} to move", name=game.names[game.to_move])
        link = self._jump_url(game)
        where = f" {link}" if link.startswith("https://") else ""
        return _("• #{game} {first} vs {second} ({variant}): {turn}{deadline}{link}",
                 game=game.id, first=game.names[0], second=game.names[1], variant=variant,
                 turn=turn, deadline=_deadline(game), link=where)

    def _jump_url(self, game: Game) -> str:
        """The address of the game's thread (its place, for a game without one)."""
        target = target_of(game.place) if is_discord_place(game.place) else None
        channel = self.bot.get_channel(target) if target else None
        guild = getattr(channel, "guild", None)
        if guild is None:
            return game.place
        return f"https://discord.com/channels/{guild.id}/{target}"

    @app_commands.command(name="import", description=message_id(
        "Continue a recorded game: a challenge to your opponent carrying the record, which "
        "becomes the game,…"))
    @app_commands.describe(
        record=message_id("The game's record (a text file, as `/export` makes it)"),
        opponent=message_id("Who continues the game with you (they accept first)"))
    async def import_(self, interaction: discord.Interaction, record: discord.Attachment,
                      opponent: discord.Member) -> None:
        """Continue a recorded game: a challenge to your opponent carrying the record, which
        becomes the game, as far as it went, when they accept."""
        sender = await self.bot.player_of(interaction.user)
        if record.size > MAX_RECORD_BYTES:
            await self.bot.answer(interaction, _("That file is too big for a record (at most "
                                                 "{size} KiB).", size=MAX_RECORD_BYTES // 1024))
            return
        try:
            text = (await record.read())[:MAX_RECORD_BYTES].decode("utf-8-sig")
        except UnicodeDecodeError:
            await self.bot.answer(interaction, _("That file is not a text record (UTF-8), as "
                                                 "`/export` makes them."))
            return
        except discord.HTTPException as error:
            await self.bot.answer(interaction, _("I could not read that file ({status}); "
                                                 "please try again.", status=error.status))
            return
        if opponent.bot or opponent.id == interaction.user.id:
            await self.bot.answer(interaction, _("Name the member who continues the game with "
                                                 "you."))
            return
        other = await self.bot.player_of(opponent)
        place = self._challenge_place(interaction)
        async with owing(self.bot, sender, interaction.channel, "challenge"):
            result = await self.service.archive.offer_import(sender, place, text, other)
            if isinstance(result, Refusal) or result.challenge is None:
                await self.bot.answer(interaction, result)
                return
            number = result.challenge.id  # as a /challenge: the opponent pinged, with buttons
            language = reader_language(interaction)
            await interaction.response.send_message(
                discord_times(render(_("{result}\n{mention}, you are challenged: press Accept, "
                                       "or `/accept challenge:{number}`.",
                                       result=result.words(TRANSPORT, language, literal),
                                       mention=opponent.mention, number=number), language)),
                view=challenge_view(number, language))
        await self.bot.flush()

    @app_commands.command(name="export", description=message_id(
        "Get a game's record as a file (tags and numbered moves)."))
    @app_commands.describe(
        game=GAME_HELP,
        format=message_id("commandpost (ours) or cotulenh (PGN as the cotulenh site writes it, "
                          "Commander Chess)"))
    @app_commands.autocomplete(game=my_games)
    @app_commands.choices(format=[app_commands.Choice(name=f, value=f) for f in FORMATS])
    async def export(self, interaction: discord.Interaction, game: int | None = None,
                     format: str = RECORD) -> None:
        """Get a game's record as a file (tags and numbered moves)."""
        sender = await self.bot.player_of(interaction.user)
        found = await self._find_game(interaction, sender, game, example="export")
        if isinstance(found, Refusal):
            await self.bot.answer(interaction, found)
            return
        result = await self.service.archive.export(found.id, sender, format)
        if isinstance(result, Refusal) or not result.text:
            await self.bot.answer(interaction, result)
            return
        text = SITE.sub(f'[Site "{self._jump_url(found)}"]', result.text, count=1)
        name = f"game-{found.id}.{'txt' if format == RECORD else 'pgn'}"
        record = discord.File(io.BytesIO(text.encode()), name)
        await interaction.response.send_message(
            render(_("The record of game #{game}.", game=found.id),
                   reader_language(interaction)), file=record, ephemeral=True)


MAX_RECORD_BYTES = 256 * 1024  # a record file: far more than the longest game's record


def clock_choice(text: str | None, days: int | None
                 ) -> tuple[TimeControl | None, int | None] | Refusal:
    """The clock option of /challenge or /tournament create read, and the days per move
    that remain (0 once a Fischer bank replaces them)."""
    if not text:
        return None, days
    words = text.lower().split()
    wrong = [w for w in words if not is_clock_word(w)]
    try:
        if wrong:
            return Refusal(Reason.BAD_TIME_CONTROL, _(
                "{word} is not a clock choice: write e.g. `3d+1d max10d total60d`.",
                word=repr(wrong[0])))
        fischer = any("+" in w for w in words)
        chosen = parse_time_control(words, None if fischer else (days or None))
    except ValueError as err:
        return Refusal(Reason.BAD_TIME_CONTROL, f"{str(err)[:1].upper()}{str(err)[1:]}.")
    return chosen, 0 if chosen is not None and chosen.fischer else days


def _game_choices(games: list[Game], current: str,
                  language: str = SOURCE) -> list[app_commands.Choice[int]]:
    names = [(render(_("#{game} {first} vs {second} ({variant})", game=g.id, first=g.names[0],
                       second=g.names[1], variant=get_variant(g.variant).display_name),
                     language), g.id) for g in games]
    return [app_commands.Choice(name=n[:100], value=i) for n, i in names
            if current.lower() in n.lower()][:MAX_CHOICES]


def _only_challenge(found: list[Challenge]) -> Challenge | Refusal:
    """The one challenge meant when none is named, or why there is none."""
    if len(found) == 1:
        return found[0]
    if not found:
        return Refusal(Reason.NO_SUCH_CHALLENGE, _("You have no challenge to answer here."))
    listed = joined([_("#{number} ({name}, {variant})", number=c.id, name=c.challenger_name,
                       variant=get_variant(c.variant).display_name) for c in found], ", ")
    return Refusal(Reason.WHICH_CHALLENGE, _("There are several challenges: {listed}. Say "
                                             "which, as in `/accept challenge:{number}`.",
                                             listed=listed, number=found[0].id))


def _where_to_play(game: Game, thread: discord.Thread | None) -> Text:
    """Where an accepted challenge's game is played, for the reply that starts it."""
    if thread is not None:
        return _("Play in {thread}.", thread=thread.mention)
    if is_discord_place(game.place):
        return _("Play here with `/move game:{game}`.", game=game.id)
    # an e-mail challenge: the game has no thread
    return _("Your opponent plays by e-mail: their moves come to you by DM. Play with "
             "`/move game:{game}`.", game=game.id)


def _variant_key(name: str) -> str:
    try:
        return get_variant(name).name
    except EngineError:
        return name


def _deadline(game: Game) -> str:
    if game.clock.paused:
        return _(" (clock paused)")
    if game.clock.deadline is not None:
        stamp = f"<t:{int(game.clock.deadline)}:R>"  # Discord writes it in the reader's time
        return _(", due {time}", time=stamp)
    return ""
