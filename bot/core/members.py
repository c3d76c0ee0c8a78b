"""A member's settings, stored in the database and the same in every server: the
theme of the pictures only they see (``/board``, ``/review``, a move to confirm…),
whether ``/move`` shows the move on the board and waits for **Confirm**, and how they
hear of their turn (the notifier's, which keeps its own cache of it). Posts in a
game's thread are public and keep the default theme."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.i18n import _
from bot.model import DEFAULT_THEME, UserError
from bot.storage import Database, Statement, queries

THEMES = ("dark", "light")
#: How a member hears of their turn: a mention in the game's thread, a DM, or a
#: daily digest.
NOTIFY_CHOICES = ("thread", "dm", "digest")


class TurnNotices(Protocol):
    """Who keeps how each member hears of their turn (the correspondence notifier)."""

    async def set_preference(self, member_id: int, how: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Preferences:
    notify: str = "thread"
    theme: str = DEFAULT_THEME
    confirm_moves: bool = False


class MemberSettings:
    def __init__(
        self, db: Database, notifier: TurnNotices, *, on_notify: Callable[[], None] | None = None
    ) -> None:
        self.db = db
        self.notifier = notifier
        #: Told when a member changes how they hear of their turn (a digest may now be
        #: due: the clocks look again).
        self.on_notify = on_notify

    async def of(self, member_id: int) -> Preferences:
        notify, theme, confirm = await self.db.read(queries.member_settings(member_id))
        return Preferences(notify, theme if theme in THEMES else DEFAULT_THEME, confirm)

    async def theme(self, member_id: int, *, private: bool = True) -> str:
        """The theme of a picture for ``member_id``: theirs when only they see it."""
        return (await self.of(member_id)).theme if private else DEFAULT_THEME

    async def change(
        self,
        member_id: int,
        *,
        theme: str | None = None,
        confirm_moves: bool | None = None,
        notify: str | None = None,
    ) -> Preferences:
        """Change what is given; the settings after."""
        if theme is not None and theme not in THEMES:
            raise UserError(
                _(
                    "The theme is {themes}, not {theme}.",
                    themes=" / ".join(THEMES),
                    theme=repr(theme),
                )
            )
        if notify is not None and notify not in NOTIFY_CHOICES:
            raise UserError(_("Choose one of: {choices}.", choices=", ".join(NOTIFY_CHOICES)))
        statements: list[Statement] = []
        if theme is not None:
            statements.append(queries.set_theme_statement(member_id, theme))
        if confirm_moves is not None:
            statements.append(queries.set_confirm_moves_statement(member_id, confirm_moves))
        if statements:
            await self.db.write(statements)
        if notify is not None:
            await self.notifier.set_preference(member_id, notify)
            if self.on_notify is not None:
                self.on_notify()
        return await self.of(member_id)
