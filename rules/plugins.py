"""Each game's plug-ins in the other layers, declared once, next to the game.

A game is more than its rules: a fast search position (``rules/fast/``), the AI's
knowledge of it (``ai/games/``), a painter (``render/games/``), a guide for ``/rules``
(``bot/learning/guides/``). A game names them in one :class:`Plugins`, a class
attribute of its :class:`~rules.Game`, as ``"module:attribute"`` text, so that rules
still imports nothing of ours; each layer asks :func:`load` for its kind::

    class Asli(Game):
        plugins = Plugins(
            fast="rules.fast.asli:position",
            ai="ai.games.asli:knowledge",
            painter="render.games.asli:PAINTER",
            guide="bot.learning.guides.asli:GUIDE",
        )

    load(rules.get_game("asli"), "painter")   # the AsliPainter

A kind a game does not declare is None, and the layer uses its default (the generic
:class:`~rules.position.StatePosition`, the default knowledge, the plain painter, a
guide of one page made of the game's summary). A declared plug-in that cannot be
found (a module or attribute misspelled) raises :class:`PluginError`: never a quiet
fall back to the default.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, Protocol, TypeVar, get_args, overload

from rules.errors import PluginError

#: The kinds of plug-in a game may declare, one field of :class:`Plugins` each.
Kind = Literal["fast", "ai", "painter", "guide"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Plugins:
    """Where a game's plug-ins are, each ``"module:attribute"`` or None (none: the
    layer's default).

    ``fast``: ``position(state) -> rules.position.SearchPosition``;
    ``ai``: ``knowledge(options) -> ai.games.Knowledge``;
    ``painter``: a ``render.Painter``;
    ``guide``: a ``bot.learning.guide.Guide`` of this game.
    """

    fast: str | None = None
    ai: str | None = None
    painter: str | None = None
    guide: str | None = None

    def __post_init__(self) -> None:
        for spec in (self.fast, self.ai, self.painter, self.guide):
            if spec is not None:
                _split(spec)


#: The kinds, in the order of :class:`Plugins`' fields.
KINDS: tuple[Kind, ...] = get_args(Kind)


class Declares(Protocol):
    """What :func:`load` needs of a game: its name and its declaration."""

    @property
    def name(self) -> str: ...

    @property
    def plugins(self) -> Plugins: ...


def _split(spec: str) -> tuple[str, str]:
    module, colon, attribute = spec.partition(":")
    if not (colon and module and attribute):
        raise ValueError(f"a plug-in is 'module:attribute', not {spec!r}")
    return module, attribute


@overload
def load(game: Declares, kind: Kind, expected: type[T]) -> T | None: ...
@overload
def load(game: Declares, kind: Kind) -> Any: ...
def load(game: Declares, kind: Kind, expected: type[Any] | None = None) -> Any:
    """The plug-in of ``kind`` that ``game`` declares, imported; None when it declares
    none. Raises :class:`PluginError`, naming the game, the kind and what is missing,
    when the declared module or attribute cannot be found, or (with ``expected``) is
    not an instance of that class."""
    if kind not in KINDS:
        raise PluginError(f"{game.name}: there is no kind of plug-in called {kind!r}")
    spec: str | None = getattr(game.plugins, kind)
    if spec is None:
        return None
    found = _resolve(game.name, kind, spec)
    if expected is not None and not isinstance(found, expected):
        raise PluginError(
            f"{game.name}'s {kind} plug-in {spec!r} is a {type(found).__name__},"
            f" not a {expected.__name__}"
        )
    return found


@cache
def _resolve(game: str, kind: str, spec: str) -> Any:
    module_name, attribute = _split(spec)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if not (module_name == missing or module_name.startswith(missing + ".")):
            raise  # the module exists but something it imports is missing: as it is
        raise PluginError(
            f"{game}'s {kind} plug-in {spec!r}: there is no module {error.name!r}"
        ) from error
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise PluginError(
            f"{game}'s {kind} plug-in {spec!r}: module {module_name!r} has no {attribute!r}"
        ) from None
