"""The command tree in Vietnamese (`bot.discord_bot.translator`): every description of a
command or an option, and every choice, is uploaded with its Vietnamese words once
Vietnamese is offered, within Discord's limits; the names of commands and options stay
the command tokens every message quotes, and obey Discord's rules for names."""

from __future__ import annotations

import unicodedata
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.discord_bot.languages import language_choices
from bot.discord_bot.translator import CatalogueTranslator, translated

MAX_NAME, MAX_DESCRIPTION = 32, 100
# choices whose names are values, never words: the record formats (`/export format:`),
# the languages, each named in itself (`/settings language:`), and the computer's levels,
# described in the engine's words (engine texts are not translated: `engine.search.LEVELS`)
TOKEN_CHOICES = {"commandpost", "cotulenh", *(c.name for c in language_choices())}


def is_discord_name(name: str) -> bool:
    """Discord's rule for a command's or an option's name: 1 to 32 lowercase letters,
    digits, ``-`` or ``_`` (``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``)."""
    return 1 <= len(name) <= MAX_NAME and name == name.lower() and all(
        c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)


async def payloads(world: Any) -> list[dict[str, Any]]:
    tree = world.bot.tree
    return [await c.get_translated_payload(tree, CatalogueTranslator())
            for c in tree.get_commands()]


def options_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in payload.get("options", []) if o["type"] > 2]  # not sub-commands


def subcommands_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in payload.get("options", []) if o["type"] <= 2]


def every_command(tree: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for payload in tree:
        found.append(payload)
        found += subcommands_of(payload)
    return found


async def test_every_description_and_choice_has_its_vietnamese_words(world, offered):
    untranslated = []
    for command in every_command(await payloads(world)):
        words = [(command["description"], command.get("description_localizations", {}))]
        for option in options_of(command):
            words.append((option["description"], option.get("description_localizations", {})))
            words += [(c["name"], c.get("name_localizations", {}))
                      for c in option.get("choices", [])
                      if c["name"] not in TOKEN_CHOICES and not c["name"].startswith("level ")]
        untranslated += [english for english, local in words if not local.get("vi")]
    assert untranslated == []


async def test_vietnamese_words_fit_discords_limits(world, offered):
    for command in every_command(await payloads(world)):
        texts = [command.get("description_localizations", {}).get("vi", "")]
        for option in options_of(command):
            texts.append(option.get("description_localizations", {}).get("vi", ""))
            texts += [c.get("name_localizations", {}).get("vi", "")
                      for c in option.get("choices", [])]
        too_long = [t for t in texts if len(t) > MAX_DESCRIPTION]
        assert too_long == [], command["name"]


async def test_names_stay_tokens_that_obey_discords_rules_unique_at_each_level(world, offered):
    tree = await payloads(world)
    levels = [[p["name"] for p in tree]]
    for command in every_command(tree):
        assert "vi" not in command.get("name_localizations", {}), command["name"]
        levels.append([o["name"] for o in subcommands_of(command) or options_of(command)])
        for option in options_of(command):
            assert "vi" not in option.get("name_localizations", {}), option["name"]
    for names in levels:
        assert [n for n in names if not is_discord_name(n)] == []
        assert len(set(names)) == len(names), names


async def test_a_choice_made_of_values_is_worded_in_vietnamese(world, offered):
    settings = next(p for p in await payloads(world) if p["name"] == "server")
    days = next(o for o in options_of(subcommands_of(settings)[0]) if o["name"] == "days")
    assert [(c["name"], c["name_localizations"]["vi"]) for c in days["choices"][:3]] == [
        ("no clock", "không tính giờ"), ("1 day per move", "1 ngày mỗi nước"),
        ("2 days per move", "2 ngày mỗi nước")]


async def test_the_help_commands_words_in_vietnamese(world, offered):
    help_ = next(p for p in await payloads(world) if p["name"] == "help")
    assert help_["description_localizations"]["vi"] == (
        "Liệt kê các lệnh, hoặc giải thích một lệnh (công dụng, tùy chọn, ví dụ).")
    assert help_["options"][0]["description_localizations"]["vi"] == (
        "Một lệnh, để xem công dụng và các tùy chọn của lệnh")


async def test_a_language_not_offered_is_not_uploaded(not_offered, world):
    i18n.shipped.cache_clear()
    for command in every_command(await payloads(world)):
        assert "vi" not in command.get("description_localizations", {})
    assert translated("Resign a game.", "en") is None


async def test_the_bot_uploads_its_tree_with_the_translator(world):
    assert isinstance(world.bot.tree.translator, CatalogueTranslator)
    assert discord.Locale.vietnamese.value == "vi"
    assert app_commands.locale_str("x").message == "x"
