"""The bot's services, found by their type: what the composition root (:mod:`bot.app`)
builds, each area's commands and buttons look up here (through
:func:`bot.ui.context.service`), so that no area imports the root."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


class Services:
    """One service of each type."""

    def __init__(self, *services: object) -> None:
        self._by_type: dict[type[Any], object] = {}
        for one in services:
            self.add(one)

    def add(self, service: object, *, kind: type[Any] | None = None) -> None:
        """Add ``service``, found as its type (or as ``kind``: a stand-in's)."""
        kind = kind or type(service)
        if kind in self._by_type:
            raise ValueError(f"a second {kind.__name__} service")
        self._by_type[kind] = service

    def get(self, kind: type[T]) -> T:
        """The service of type ``kind`` (LookupError: none was built)."""
        try:
            found = self._by_type[kind]
        except KeyError:
            raise LookupError(f"no {kind.__name__} service was built") from None
        return found  # type: ignore[return-value]

    def __contains__(self, kind: type[Any]) -> bool:
        return kind in self._by_type

    def all(self) -> list[object]:
        return list(self._by_type.values())
