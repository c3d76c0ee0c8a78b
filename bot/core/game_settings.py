"""A game's settings as a challenge gives them: its time control (offered, read,
refused in words a member can act on), takebacks and vacation."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

import rules
from bot import texts, timecontrol
from bot.i18n import N_, _, said
from bot.model import UserError
from bot.storage import GameRow


def game_options(rule_set: rules.Game, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options, every one the member left out at its default; a refusal
    that quotes what the member gave (shortened) when the game can't be played so."""
    given = {name: value for name, value in (options or {}).items() if value is not None}
    try:
        return dict(rule_set.resolve_options(**given))
    except rules.OptionError as error:
        why = said(error)
        for value in given.values():
            why = texts.echoing(why, str(value))
        raise UserError(
            _("{game} can't be played like that: {why}.", game=rule_set.title, why=why)
        ) from None


class GameDeadlines(Protocol):
    """When the player to move runs out of time (the correspondence clocks)."""

    async def deadline_of(self, row: GameRow) -> datetime | None:
        """None without a limit or once the game is over."""
        ...


#: The time controls offered by the challenge's autocomplete (any other is typed out).
TIME_CONTROL_CHOICES = (
    (N_("3 days per move (default)"), "3d"),
    (N_("1 day per move"), "1d"),
    (N_("2 days per move"), "2d"),
    (N_("5 days per move"), "5d"),
    (N_("7 days per move"), "7d"),
    (N_("14 days per move"), "14d"),
    (N_("bank: 3 days, +1 day per move, up to 7 days"), "3d+1d/7d"),
    (N_("bank: 7 days, +2 days per move, up to 14 days"), "7d+2d/14d"),
    (N_("no time limit"), "none"),
)


def read_time_control(text: str | None) -> timecontrol.TimeControl:
    """A challenge's time control (default: 3 days per move), or a refusal saying how
    to write one."""
    try:
        return timecontrol.parse_time_control(text or "3d")
    except timecontrol.TimeControlError as error:
        why = texts.echoing(said(error), text or "")
        raise UserError(
            _(
                "That time control can't be used: {why}. Examples: 3d (days per "
                "move: 1, 2, 3, 5, 7 or 14), 3d+1d/7d (a bank), none.",
                why=why,
            )
        ) from None


def challenge_settings(
    time_control: str | timecontrol.TimeControl | None = None,
    takebacks: bool | None = None,
    vacation: bool | None = None,
) -> dict[str, Any]:
    """The challenge's clock options, checked: refused with a UserError if unreadable."""
    control = (
        time_control
        if isinstance(time_control, timecontrol.TimeControl)
        else read_time_control(time_control)
    )
    return {
        "time_control": timecontrol.format_time_control(control),
        "takebacks": takebacks is not False,
        "vacation": vacation is not False,
    }
