"""The import arrows point down (README, "Layout"): a transport imports neither another
transport nor the runner and sub-commands in `bot.cli` (the runner composes transports);
what transports share imports no transport; the game service imports no transport, no
sub-command and no drawing; storage imports neither the service nor a transport; the
renderer imports nothing of the bot, and the engine nothing above it and no I/O. Inside
the Discord transport only the package imports `app`, which builds the bot."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRANSPORTS = ("bot.console", "bot.discord_bot", "bot.email_gateway", "bot.web")
SHARED = ("bot.commands", "bot.textboard", "bot.pictures", "bot.startup", "bot.redact")


@cache
def imports(package: str) -> dict[str, frozenset[str]]:
    """Each module of ``package`` (a package or one module) -> every name it imports,
    relative imports resolved (those under TYPE_CHECKING and inside functions too)."""
    folder = ROOT / package.replace(".", "/")
    paths = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
    found = {}
    for path in paths:
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = here[:len(here) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                names |= {base} | {f"{base}.{alias.name}" for alias in node.names}
        found[module] = frozenset(names)
    return found


def offences(packages: tuple[str, ...], *forbidden: str) -> list[str]:
    """``module -> name`` for each import in ``packages`` of a name under ``forbidden``."""
    return [f"{module} -> {name}" for package in packages
            for module, names in imports(package).items() for name in sorted(names)
            if any(name == f or name.startswith(f + ".") for f in forbidden)]


def test_a_transport_imports_neither_another_nor_the_runner():
    for transport in TRANSPORTS:
        others = (t for t in TRANSPORTS if t != transport)
        assert offences((transport,), *others, "bot.cli") == []


def test_what_transports_share_imports_no_transport():
    assert offences(SHARED, *TRANSPORTS, "bot.cli") == []


def test_the_service_imports_no_transport_sub_command_or_drawing():
    assert offences(("bot.service",), *TRANSPORTS, "bot.cli", *SHARED, "renderer",
                    "PIL") == []


def test_storage_imports_neither_the_service_nor_a_transport():
    assert offences(("bot.storage",), "bot.service", *TRANSPORTS, "bot.cli", *SHARED) == []


def test_the_renderer_and_the_engine_import_nothing_above_them():
    assert offences(("renderer",), "bot") == []
    assert offences(("engine",), "bot", "renderer", "discord", "sqlite3", "aiosqlite",
                    "asyncpg", "PIL", "asyncio") == []


def test_only_the_discord_package_imports_the_module_that_builds_the_bot():
    importers = {line.partition(" -> ")[0]
                 for line in offences(("bot.discord_bot",), "bot.discord_bot.app")}
    assert importers == {"bot.discord_bot"}


def test_the_walk_resolves_relative_imports():
    """The checks above are only as good as the walk: it resolves ``from ..x import y``."""
    assert "bot.service.GameService" in imports("bot.startup")["bot.startup"]
    assert "bot.discord_bot.client.Bot" in imports("bot.discord_bot")["bot.discord_bot.views"]
    runner = {line.partition(" -> ")[0] for line in offences(("bot.cli",), "bot.discord_bot")}
    assert runner == {"bot.cli.run"}
