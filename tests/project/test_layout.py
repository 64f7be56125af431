"""The import arrows point down (docs/architecture.md, "Layers"): a transport imports
neither another transport nor the runner and sub-commands in `bot.cli` (the runner
composes transports); what transports share imports no transport; the game service
imports no transport, no sub-command and no drawing; storage imports neither the service
nor a transport; the renderer imports nothing of the bot, and the engine nothing above it
and no I/O. Inside the Discord transport only the package imports `app`, which builds the
bot. And no module imports itself through others: no import circle, not even a deferred
one."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRANSPORTS = ("bot.console", "bot.discord_bot", "bot.email_gateway", "bot.web")
SHARED = ("bot.commands", "bot.textboard", "bot.pictures", "bot.startup", "bot.redact")


def module_of(path: Path) -> str:
    """The dotted name of the module in file ``path`` (a package is its ``__init__``)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_statements(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Each import statement of the file ``path``, those under TYPE_CHECKING and inside
    functions too: the module it names, relative imports resolved, and the names it takes
    from it ([] for ``import X``)."""
    module = module_of(path)
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[:len(here) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            yield base, [alias.name for alias in node.names]


@cache
def imports(package: str) -> dict[str, frozenset[str]]:
    """Each module of ``package`` (a package or one module) -> every name it imports."""
    folder = ROOT / package.replace(".", "/")
    paths = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
    return {module_of(path): frozenset(name for base, names in import_statements(path)
                                       for name in [base, *(f"{base}.{n}" for n in names)])
            for path in paths}


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


# --- no import circles ----------------------------------------------------------------------
def project_modules() -> dict[str, Path]:
    """Every module of the project's packages (the engine, the renderer, the bot, and
    ``bench`` once it is a package: today its scripts are run one by one) -> its file; a
    package is its ``__init__``."""
    packages = [p for p in ("engine", "renderer", "bot", "bench")
                if (ROOT / p / "__init__.py").is_file()]
    return {module_of(path): path for package in packages
            for path in sorted((ROOT / package).rglob("*.py"))}


@cache
def module_graph() -> dict[str, frozenset[str]]:
    """Each project module -> the project modules it imports. ``import X.Y`` imports X.Y;
    ``from X import Y`` imports the module X.Y when there is one, else X (a package: its
    ``__init__``); relative imports are resolved. Every import statement counts, those inside
    functions and under ``if TYPE_CHECKING:`` too: an import deferred to break a circle hides
    the circle without breaking it (the two modules still need each other, and which one is
    read first still decides whether the program starts)."""
    modules = project_modules()
    graph = {}
    for module, path in modules.items():
        targets = set()
        for base, names in import_statements(path):
            targets |= {f"{base}.{n}" if f"{base}.{n}" in modules else base
                        for n in names} if names else {base}
        graph[module] = frozenset(t for t in targets if t in modules and t != module)
    return graph


def circles(graph: dict[str, frozenset[str]]) -> list[frozenset[str]]:
    """The modules of ``graph`` that import one another, each group of them once: the
    strongly connected components of more than one module (Tarjan's algorithm, walked with a
    stack of its own)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        walk = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while walk:
            module, rest = walk[-1]
            target = next(rest, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    walk.append((target, iter(sorted(graph[target]))))
                elif target in stack:
                    low[module] = min(low[module], index[target])
                continue
            walk.pop()
            if walk:
                low[walk[-1][0]] = min(low[walk[-1][0]], low[module])
            if low[module] == index[module]:
                group = set()
                while not group or module not in group:
                    group.add(stack.pop())
                if len(group) > 1:
                    found.append(frozenset(group))
    return found


def shortest_circle(graph: dict[str, frozenset[str]], start: str) -> list[str]:
    """The shortest way from ``start`` through its imports back to itself, in order."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(graph[module]):
                if target == start:
                    way = [module]
                    while way[-1] != start:
                        way.append(came_from[way[-1]])
                    return [start, *reversed(way[:-1]), start]
                if target not in came_from:
                    came_from[target] = module
                    following.append(target)
        frontier = following
    return []


def described(graph: dict[str, frozenset[str]], group: frozenset[str]) -> list[str]:
    """A group's circles as ``a -> b -> a``: the shortest circle through each of its modules,
    each circle once (written from its first module in sorted order)."""
    ways = set()
    for module in group:
        way = shortest_circle(graph, module)[:-1]
        first = way.index(min(way))
        way = way[first:] + way[:first]
        ways.add(" -> ".join([*way, way[0]]))
    return sorted(ways)


def test_no_module_imports_itself_through_others():
    graph = module_graph()
    found = [way for group in circles(graph) for way in described(graph, group)]
    assert found == [], "modules that import themselves through others:\n" + "\n".join(found)


def test_the_circle_walk_finds_every_circle_and_names_it_in_order():
    """The walk on a made graph: a circle of three beside a circle of two that hangs off
    it, a module outside any circle, a module importing itself (not a circle of modules)."""
    graph = {"a": frozenset({"b"}), "b": frozenset({"c", "d"}), "c": frozenset({"a"}),
             "d": frozenset({"e"}), "e": frozenset({"d", "f"}), "f": frozenset(),
             "g": frozenset({"a"}), "h": frozenset({"h"})}
    assert sorted(map(sorted, circles(graph))) == [["a", "b", "c"], ["d", "e"]]
    assert described(graph, frozenset({"a", "b", "c"})) == ["a -> b -> c -> a"]
    assert described(graph, frozenset({"d", "e"})) == ["d -> e -> d"]
    assert circles({"a": frozenset({"b"}), "b": frozenset()}) == []
    # two circles sharing a module are one group, each circle named
    pair = {"a": frozenset({"b"}), "b": frozenset({"a", "c"}), "c": frozenset({"b"})}
    assert circles(pair) == [frozenset({"a", "b", "c"})]
    assert described(pair, frozenset({"a", "b", "c"})) == ["a -> b -> a", "b -> c -> b"]


def test_the_graph_resolves_imports_to_modules():
    """``from . import live`` is the module `live`; ``from .storage import StorageError``
    the package `bot.storage`; an import inside a function counts."""
    graph = module_graph()
    assert "bot.discord_bot.live" in graph["bot.discord_bot.notifier"]
    assert "bot.discord_bot" not in graph["bot.discord_bot.notifier"]
    assert "bot.storage" in graph["bot.startup"]
    assert "bot.discord_bot.commands_play" in graph["bot.discord_bot.app"]  # in setup_hook
