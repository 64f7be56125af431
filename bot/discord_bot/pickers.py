"""Legal-move help on Discord, one step at a time, with select menus.

The first menu lists the pieces that can move (``n on g8``: 2 moves); choosing one
answers, to the chooser only, with that piece's moves highlighted on the board and a
second menu of its moves; choosing a move plays it, as `/move` would. When the turn goes
on (a Chieftain's second move, a Commander Chess deploy's next piece), the answer to the
move carries the menu of the next step and an End turn button. Each menu and button is a
`discord.ui.DynamicItem` whose custom id holds the game, the move number it was made for
and the piece (``cp-pick:GAME:PLY[:PAGE]``, ``cp-step:GAME:PLY:POINT[:PAGE]``,
``cp-end:GAME:PLY``), so those sent before a restart keep working after it; one made for
an earlier position is refused as "the position has changed".
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from ..i18n import SOURCE, _, _n, render
from ..service.boundary import shorten
from ..service.model import Game, Player
from ..service.results import Refusal, Result
from ..service.turns import PieceSteps, if_my_turn_words
from . import live, logs, pictures
from .client import Playing, reader_language
from .owing import owing_move

if TYPE_CHECKING:
    from .client import Bot

OPTIONS = 25  # Discord's limit of options per select menu
ROWS = 5  # and of rows per message
TEXT_LIMIT = 1900


def words_within(words: list[str], limit: int = TEXT_LIMIT, language: str = SOURCE) -> str:
    """``words`` joined by spaces, as many as fit in ``limit`` characters, never cutting one;
    the rest counted (in ``language``)."""
    out: list[str] = []
    size = 0
    room = len(render(_("… and {n} more", n="{n}"), language)) + 1  # as the count's room
    for k, word in enumerate(words):
        if size + len(word) + 1 + room + 4 > limit:
            return " ".join(out) + " " + render(_("… and {n} more", n=len(words) - k), language)
        out.append(word)
        size += len(word) + 1
    return " ".join(out)


def fit(text: str, limit: int = 2000, language: str = SOURCE) -> str:
    """``text`` within Discord's message limit, cut at a line or word break (never inside
    a word), saying (in ``language``) that more was left out."""
    if len(text) <= limit:
        return text
    note = "\n" + render(_("… (more left out)"), language)
    head = text[:limit - len(note)]
    cut = max(head.rfind("\n"), head.rfind(" "))
    return (head[:cut] if cut > 0 else head).rstrip() + note


def _pages(items: list[Any]) -> list[list[Any]]:
    return [items[k:k + OPTIONS] for k in range(0, len(items), OPTIONS)][:ROWS - 1]


class PiecePicker(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"cp-pick:(?P<game>\d+):(?P<ply>\d+)(?::(?P<page>\d+))?"):
    """A menu of the pieces that can move in one game at one move number."""

    def __init__(self, game_id: int, ply: int, pieces: list[PieceSteps] | None = None,
                 page: int = 0, language: str = SOURCE) -> None:
        options = [discord.SelectOption(
            label=render(_("{piece} on {point}", piece=p.name, point=p.origin), language),
            value=p.origin,
            description=render(_n("{n} move", "{n} moves", len(p.steps)), language))
                   for p in pieces or []] or [discord.SelectOption(label="…", value="-")]
        super().__init__(discord.ui.Select(
            custom_id=f"cp-pick:{game_id}:{ply}" + (f":{page}" if page else ""),
            placeholder=render(_("Choose a piece to move"), language), options=options))
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Select[Any], match: Any) -> PiecePicker:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        logs.set_context(game_id=self.game_id)
        origin = (interaction.data or {}).get("values", ["-"])[0]  # type: ignore[union-attr]
        game = await _current(bot, interaction, self.game_id, self.ply)
        if game is None:
            return
        await show_piece(bot, interaction, game, origin)


class StepPicker(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"cp-step:(?P<game>\d+):(?P<ply>\d+):(?P<origin>[a-z]+\d+)"
                          r"(?::(?P<page>\d+))?"):
    """A menu of one piece's next steps; choosing one plays it."""

    def __init__(self, game_id: int, ply: int, origin: str, steps: tuple[str, ...] = (),
                 page: int = 0, language: str = SOURCE) -> None:
        options = [discord.SelectOption(label=s[:100], value=s[:100]) for s in steps] or [
            discord.SelectOption(label="…", value="-")]
        super().__init__(discord.ui.Select(
            custom_id=f"cp-step:{game_id}:{ply}:{origin}" + (f":{page}" if page else ""),
            placeholder=render(_("Choose the move from {point}", point=origin), language),
            options=options))
        self.game_id, self.ply, self.origin = game_id, ply, origin

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Select[Any], match: Any) -> StepPicker:
        return cls(int(match["game"]), int(match["ply"]), match["origin"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        logs.set_context(game_id=self.game_id)
        text = (interaction.data or {}).get("values", ["-"])[0]  # type: ignore[union-attr]
        sender = await bot.player_of(interaction.user)
        await _play(bot, interaction, sender, self.game_id, "move",
                    lambda: bot.service.move(sender, self.game_id, text, expected_ply=self.ply))


class EndTurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"cp-end:(?P<game>\d+):(?P<ply>\d+)"):
    """Finish the turn in progress now (``end``), for the move number it was made for."""

    def __init__(self, game_id: int, ply: int, language: str = SOURCE) -> None:
        super().__init__(discord.ui.Button(label=render(_("End turn"), language),
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"cp-end:{game_id}:{ply}"))
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Button[Any], match: Any) -> EndTurnButton:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Bot = interaction.client  # type: ignore[assignment]
        logs.set_context(game_id=self.game_id)
        sender = await bot.player_of(interaction.user)
        await _play(bot, interaction, sender, self.game_id, "end_turn",
                    lambda: bot.service.end_turn(sender, self.game_id, expected_ply=self.ply))


async def _play(bot: Bot, interaction: discord.Interaction, sender: Player,
                game_id: int, deed: str, play: Callable[[], Awaitable[Result]]) -> None:
    """Play a step from a menu or button (``play``) and answer as `/move` would
    (`PlayCommands.answer_move`: a reply that failed is ended once): the move's message (the
    live board in the game's thread), offers it made moot settled, the news sent; the answer
    is owed with the step (`owing`)."""
    game = await bot.service.game(game_id)
    if game is None:
        await bot.answer(interaction, _("There is no game #{game}.", game=game_id))
        return
    cog = bot.get_cog("Playing")
    assert isinstance(cog, Playing)
    async with owing_move(bot, sender, interaction.channel, game, deed) as owed:
        result = await play()
        if isinstance(result, Refusal):
            await bot.answer(interaction, result)
            return
        assert result.game is not None
        await cog.answer_move(interaction, result, owed)
    await live.settle_offers(bot, result.game, sender.display_name)
    await bot.flush()


async def _current(bot: Bot, interaction: discord.Interaction, game_id: int,
                   ply: int) -> Game | None:
    """The game, if the menu still fits its position; otherwise the chooser is told."""
    game = await bot.service.game(game_id)
    if game is None:
        await bot.answer(interaction, _("There is no game #{game}.", game=game_id))
        return None
    if game.is_over:
        await bot.answer(interaction, _("Game #{game} is over: {result}.", game=game.id,
                                        result=bot.service.describe_result(game)))
        return None
    if game.ply != ply:
        await bot.answer(interaction, _("The position in game #{game} has changed since this "
                                        "menu was made: press Legal moves again.", game=game.id))
        return None
    return game


def piece_view(game: Game, pieces: list[PieceSteps],
               language: str = SOURCE) -> discord.ui.View | None:
    """The menu (or menus, 25 pieces each) of the pieces that can move."""
    if not pieces:
        return None
    view = discord.ui.View(timeout=None)
    for page, chunk in enumerate(_pages(pieces)):
        view.add_item(PiecePicker(game.id, game.ply, chunk, page, language))
    return view


def step_view(game: Game, piece: PieceSteps, language: str = SOURCE) -> discord.ui.View:
    """The menu (or menus, 25 moves each) of one piece's next steps."""
    view = discord.ui.View(timeout=None)
    for page, chunk in enumerate(_pages(list(piece.steps))):
        view.add_item(StepPicker(game.id, game.ply, piece.origin, tuple(chunk), page,
                                 language))
    return view


async def next_step_view(bot: Bot, game: Game,
                         language: str = SOURCE) -> discord.ui.View | None:
    """For a turn that goes on: the menu of the next step (the piece's moves when only one
    piece can go on, as in a deploy; else the pieces)."""
    pieces = await bot.service.turns.step_choices(game)
    view = (step_view(game, pieces[0], language) if len(pieces) == 1
            else piece_view(game, pieces, language))
    if await bot.service.turns.can_end_turn(game):
        view = view or discord.ui.View(timeout=None)
        view.add_item(EndTurnButton(game.id, game.ply, language))
    return view


async def show_pieces(bot: Bot, interaction: discord.Interaction, game: Game) -> None:
    """Answer (to the asker only) with the menu of the pieces that can move."""
    pieces = await bot.service.turns.step_choices(game)
    if not pieces:
        await bot.answer(interaction, _("There is no legal move in game #{game} now.",
                                        game=game.id))
        return
    language = reader_language(interaction)
    text = _n("{n} piece of {name} can move in game #{game}. Choose one to see its moves on "
              "the board.", "{n} pieces of {name} can move in game #{game}. Choose one to "
              "see its moves on the board.", len(pieces), name=game.names[game.to_move],
              game=game.id)
    await interaction.response.send_message(render(text, language),
                                            view=piece_view(game, pieces, language) or
                                            discord.utils.MISSING, ephemeral=True)


MAX_POINT = 4  # the longest point's name on any board, with room to spare (``k12``)


async def show_piece(bot: Bot, interaction: discord.Interaction, game: Game,
                     origin: str, viewer_side: int | None = None) -> None:
    """Answer (to the asker only) with the moves of the piece on ``origin``: the board with
    its targets highlighted, the moves as text and the menu that plays one."""
    origin = origin.strip().lower()
    sender = await bot.player_of(interaction.user)
    # a point's name is short (``k12``): longer text is no point, and is not matched at all
    point = len(origin) <= MAX_POINT and re.fullmatch(r"[a-z]+\d+", origin) is not None
    if point and (
            waiting := await bot.service.turns.steps_if_my_turn(game, sender, origin)) is not None:
        await _show_if_my_turn(bot, interaction, game, waiting, game.side_of(sender.id))
        return
    found = await bot.service.turns.step_choices(game, origin) if point else []
    if not found:
        await bot.answer(interaction, _("No piece on {point} can move now in game #{game}.",
                                        point=shorten(origin), game=game.id))
        return
    piece = found[0]
    await interaction.response.defer(ephemeral=True, thinking=True)
    side = game.side_of(sender.id) if viewer_side is None else viewer_side
    language = reader_language(interaction)
    picture = await pictures.picture(bot.service, game, highlights=piece.targets,
                                     selected=origin, show_last=False,
                                     perspective=game.to_move if side is None else side,
                                     language=language)
    moves = [f"`{s}`" for s in piece.steps]
    text = _n("{piece} on {point}: {n} move: {moves}", "{piece} on {point}: {n} moves: {moves}",
              len(moves), piece=piece.name, point=origin,
              moves=words_within(moves, language=language))
    await interaction.followup.send(render(text, language),
                                    file=picture or discord.utils.MISSING,
                                    view=step_view(game, piece, language), ephemeral=True)


async def _show_if_my_turn(bot: Bot, interaction: discord.Interaction, game: Game,
                           piece: PieceSteps, side: int | None) -> None:
    """A waiting player's piece: the moves it would have were it their turn, on the board,
    with no menu (they cannot be played now)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    language = reader_language(interaction)
    picture = await pictures.picture(bot.service, game, highlights=piece.targets,
                                     selected=piece.origin, show_last=False,
                                     perspective=game.to_move if side is None else side,
                                     language=language)
    text = if_my_turn_words(game.id, piece, words_within([f"`{s}`" for s in piece.steps],
                                                         language=language))
    await interaction.followup.send(render(text, language),
                                    file=picture or discord.utils.MISSING, ephemeral=True)
