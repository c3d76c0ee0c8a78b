"""The layout's rules, checked on the source (see docs/architecture.md):

* no import cycle among our modules (imports under ``TYPE_CHECKING`` and inside
  functions count: a reader follows them all the same);
* ``rules`` imports nothing of ours, ``render`` and ``ai`` only ``rules``, and nothing
  imports ``bot`` (but the tests and benchmarks);
* the Discord side of the bot is its areas' ``commands.py`` and ``views.py``, ``bot/ui/``
  and the client, poster, error handler and entry point; every other module is
  Discord-free and imports no ``discord``, except ``bot.texts``, which takes
  ``discord.utils`` (Discord's timestamp markup) and nothing else;
* no module imports an area's commands (the client loads them as extensions);
* bot/ stands in floors (each folder of bot/, and each module at its top, is one
  *room*): the shared pieces, then the game core (``bot/core``), then the areas, then
  the composition (``app``, ``client``, ``__main__``). No cycle between rooms, a room
  imports only rooms of its own floor or below, and an area uses another only
  through the names it declares (``DECLARED_INTERFACES``): they meet in the core;
* nothing outside ``bot.storage`` sees a database driver (``sqlite3``, ``aiosqlite``,
  ``asyncpg``);
* only ``bot.pictures`` draws, with ``render``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = tuple(name for name in ("rules", "render", "ai", "bot") if (ROOT / name).is_dir())
#: The modules of the bot that talk to Discord (besides areas' commands.py and views.py).
DISCORD_SIDE = {"bot.__main__", "bot.client", "bot.poster", "bot.core.options"}
#: What each package may import of ours.
ALLOWED = {
    "rules": {"rules"},
    "render": {"rules", "render"},
    "ai": {"rules", "ai"},
    "bot": {"rules", "render", "ai", "bot"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


@cache
def imports(module: str) -> tuple[str, ...]:
    """Every module ``module`` imports, ours or not, as written (resolved to a module of
    ours where one exists: ``from bot.storage import queries`` is ``bot.storage.queries``)."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.append(candidate if candidate in modules() else base)
    return tuple(found)


def ours(module: str) -> Iterator[str]:
    """The modules of ours that ``module`` imports."""
    for name in imports(module):
        while name and name not in modules():
            name = name.rpartition(".")[0]
        if name and name != module:
            yield name


def is_discord_side(module: str) -> bool:
    leaf = module.rpartition(".")[2]
    return (
        module in DISCORD_SIDE
        or module.startswith("bot.ui")
        or (module.startswith("bot.") and leaf in ("commands", "views"))
    )


def test_there_are_modules_to_check() -> None:
    assert {"rules", "render", "bot"} <= set(PACKAGES)
    assert "bot.app" in modules() and "bot.play.commands" in modules()


#: Cycles found and reported, each to its package's owner: the test of that package is
#: expected to fail (strictly: once the cycle is broken, remove the entry).
KNOWN_CYCLES: dict[str, str] = {}


@pytest.mark.parametrize(
    "package",
    [
        pytest.param(package, marks=pytest.mark.xfail(strict=True, reason=KNOWN_CYCLES[package]))
        if package in KNOWN_CYCLES
        else package
        for package in PACKAGES
    ],
)
def test_no_import_cycles(package: str) -> None:
    """Within a package (across packages, the upward rule below already forbids them)."""
    graph = {
        module: sorted(set(ours(module))) for module in modules() if module.split(".")[0] == package
    }
    cycles = [sorted(component) for component in strongly_connected(graph) if len(component) > 1]
    assert cycles == [], "import cycles:\n" + "\n".join(" ↔ ".join(c) for c in cycles)


@pytest.mark.parametrize("package", PACKAGES)
def test_nothing_imports_upward(package: str) -> None:
    wrong = [
        f"{module} imports {target}"
        for module in modules()
        if module.split(".")[0] == package
        for target in ours(module)
        if target.split(".")[0] not in ALLOWED[package]
    ]
    assert wrong == []


def test_discord_free_modules_do_not_import_discord() -> None:
    wrong = []
    for module in modules():
        if is_discord_side(module):
            continue
        for name in imports(module):
            if name.split(".")[0] != "discord":
                continue
            if module == "bot.texts" and name == "discord.utils":
                continue
            wrong.append(f"{module} imports {name}")
    assert wrong == []


def test_the_discord_side_is_where_the_docs_say() -> None:
    """Each area holds its commands and views; the Discord side has nothing else in bot/
    but the shared pieces named above."""
    side = sorted(module for module in modules() if is_discord_side(module))
    assert {"bot.client", "bot.play.commands", "bot.play.views", "bot.core.options"} <= set(side)
    assert all(module.startswith("bot") for module in side)


def test_no_module_imports_an_areas_commands() -> None:
    wrong = [
        f"{module} imports {target}"
        for module in modules()
        for target in ours(module)
        if target.startswith("bot.") and target.endswith(".commands")
    ]
    assert wrong == []


def test_only_storage_sees_a_connection() -> None:
    wrong = [
        f"{module} imports {name}"
        for module in modules()
        if module.startswith("bot") and not module.startswith("bot.storage")
        for name in imports(module)
        if name.split(".")[0] in ("sqlite3", "aiosqlite", "asyncpg")
    ]
    assert wrong == []


def test_only_the_pictures_module_draws() -> None:
    drawing = sorted(
        module
        for module in modules()
        if module.startswith("bot")
        for target in ours(module)
        if target.split(".")[0] == "render"
    )
    assert set(drawing) == {"bot.pictures"}


#: The floors of bot/, bottom up (by room: a folder of bot/ or a module at its top).
SHARED = {
    "config",
    "places",
    "model",
    "events",
    "outbox",
    "claims",
    "timers",
    "shards",
    "storage",
    "texts",
    "pictures",
    "poster",
    "ui",
    "timecontrol",
    "services",
    "pace",
    "processes",
    "liveness",
    "i18n",
}
CORE = {"core"}
COMPOSITION = {"app", "client", "__main__"}


def room(module: str) -> str | None:
    """The room of a module of bot/ (None outside bot/, "" for bot/__init__)."""
    parts = module.split(".")
    if parts[0] != "bot":
        return None
    return parts[1] if len(parts) > 1 else ""


def areas() -> set[str]:
    """The areas: the rooms the composition root composes (``bot.app.AREAS``)."""
    from bot.app import AREAS

    return set(AREAS)


def floor(name: str) -> int:
    if name in SHARED or name == "":
        return 0
    if name in CORE:
        return 1
    return 3 if name in COMPOSITION else 2


def room_imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module in modules():
        here = room(module)
        if here is None:
            continue
        for target in ours(module):
            there = room(target)
            if there is not None and there != here:
                graph.setdefault(here, set()).add(there)
    return graph


def test_every_room_of_bot_is_on_a_floor() -> None:
    """A new folder or top-level module of bot/ is named here as a shared piece, or
    composed by the root as an area: nothing stands between floors."""
    assert {"challenges", "play", "practice", "learning"} <= areas()
    rooms = {room(module) for module in modules() if module.startswith("bot.")}
    unplaced = sorted(str(r) for r in rooms - SHARED - CORE - COMPOSITION - areas() - {""})
    assert unplaced == [], "rooms on no floor (name them in SHARED, or in bot.app.AREAS)"
    assert not (SHARED | CORE | COMPOSITION) & areas()


def test_no_import_cycle_between_rooms_of_bot() -> None:
    graph = {here: sorted(there) for here, there in room_imports().items()}
    for targets in list(graph.values()):
        for target in targets:
            graph.setdefault(target, [])
    cycles = [sorted(c) for c in strongly_connected(graph) if len(c) > 1]
    assert cycles == [], "cycles between bot/'s rooms:\n" + "\n".join(map(str, cycles))


def test_a_room_imports_only_its_floor_and_below() -> None:
    wrong = [
        f"{module} imports {target}"
        for module in modules()
        if room(module) is not None
        for target in ours(module)
        if room(target) is not None and floor(room(target) or "") > floor(room(module) or "")
    ]
    assert wrong == []


#: The modules an area declares for the others to use, and why: nothing else of an
#: area is imported by another.
DECLARED_INTERFACES = {
    # the Explore and Analysis buttons the review shows under its browser and /import
    "bot.learning.views": ("browser_items", "explore_record"),
}


def test_an_area_is_used_by_another_only_through_its_declared_interface() -> None:
    """Areas meet in the core (players, services, the hooks the root wires), or through
    the few names an area declares for the others."""
    every = areas()
    wrong = []
    for module in modules():
        if room(module) not in every:
            continue
        tree = ast.parse(modules()[module].read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("bot."):
                continue
            target = node.module or ""
            if room(target) not in every or room(target) == room(module):
                continue
            names = tuple(alias.name for alias in node.names)
            allowed = DECLARED_INTERFACES.get(target, ())
            if not set(names) <= set(allowed):
                wrong.append(f"{module} imports {names} of {target}")
    assert wrong == []
    # and plain ``import bot.x.y`` of another area's module, which names nothing
    plain = [
        f"{module} imports {target}"
        for module in modules()
        if room(module) in every
        for target in ours(module)
        if room(target) in every
        and room(target) != room(module)
        and target not in DECLARED_INTERFACES
    ]
    assert plain == []


def strongly_connected(graph: dict[str, list[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, []))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components
