"""Game options: what a game takes at creation (size, opening, ...)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import OptionError


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a game, with its type, range or choices, and default.

    ``kind`` is ``int`` or ``str``. Integer options have ``minimum`` and
    ``maximum`` (inclusive); string options have ``choices``.
    """

    name: str
    kind: type
    default: Any
    description: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None

    def validate(self, value: Any) -> Any:
        """Return ``value`` in its canonical form, or raise :class:`OptionError`."""
        if self.kind is int:
            if isinstance(value, bool):
                raise OptionError(
                    "{option} must be a whole number, not {value}",
                    option=self.name,
                    value=repr(value),
                )
            if isinstance(value, str):
                text = value.strip()
                if not text.lstrip("+-").isdigit():
                    raise OptionError(
                        "{option} must be a whole number, not {value}",
                        option=self.name,
                        value=repr(value),
                    )
                value = int(text)
            if not isinstance(value, int):
                raise OptionError(
                    "{option} must be a whole number, not {value}",
                    option=self.name,
                    value=repr(value),
                )
            if self.minimum is not None and value < self.minimum:
                raise OptionError(
                    "{option} must be at least {least}, not {value}",
                    option=self.name,
                    least=self.minimum,
                    value=value,
                )
            if self.maximum is not None and value > self.maximum:
                raise OptionError(
                    "{option} must be at most {most}, not {value}",
                    option=self.name,
                    most=self.maximum,
                    value=value,
                )
            return value
        if not isinstance(value, str):
            raise OptionError(
                "{option} must be text, not {value}", option=self.name, value=repr(value)
            )
        text = value.strip().lower()
        if self.choices is not None and text not in self.choices:
            allowed = ", ".join(self.choices)
            raise OptionError(
                "{option} must be one of {allowed}, not {value}",
                option=self.name,
                allowed=allowed,
                value=repr(value),
            )
        return text

    def describe(self) -> str:
        """A one-line description for help texts: ``size: 3–12 (default 7)``."""
        if self.choices is not None:
            values = ", ".join(self.choices)
        elif self.minimum is not None and self.maximum is not None:
            values = f"{self.minimum}–{self.maximum}"
        else:
            values = self.kind.__name__
        return f"{self.name}: {values} (default {self.default})"


def resolve_options(specs: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``given`` against ``specs``, fill in defaults, reject unknown names."""
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        allowed = ", ".join(known) or "none"
        raise OptionError(
            "unknown option {option} (this game takes: {allowed})",
            option=repr(unknown[0]),
            allowed=allowed,
        )
    resolved: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name)
        resolved[spec.name] = spec.default if value is None else spec.validate(value)
    return resolved
