"""The Discord transport: a discord.py bot that translates slash commands, typed moves and
buttons into calls of the game service, and the service's answers and outbox into Discord
messages. No rules and no storage live here."""

from .app import CommandPost, create_bot, run

__all__ = ["CommandPost", "create_bot", "run"]
