"""What an area adds to the bot when it is loaded (its ``commands`` module's
``setup()``), and the one place a post's buttons are put together from what the
areas added: the client is the :class:`AreaHost`, and knows no area by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.model import Post
from bot.services import Services
from bot.storage import ChallengeRow, GameRow
from bot.ui.forms import Form

#: The buttons of a post of game ``game_id`` (or of a named action with its argument).
PostItems = Callable[[int, Post], list[discord.ui.Item[Any]]]
ActionItems = Callable[[int, str], list[discord.ui.Item[Any]]]
#: A challenge message's buttons (disabled once it expired).
ChallengeView = Callable[[ChallengeRow, bool], discord.ui.View]


class AreaHost(Protocol):
    """The bot, as an area's ``setup()`` sees it."""

    services: Services
    views: PostViews

    async def add_cog(self, cog: commands.Cog, /) -> None: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def get_channel(self, id: int, /) -> Any: ...


class PostViews:
    """The buttons the areas put on the bot's posts: on every board post (a decision
    the player to move faces), under a post's named ``actions`` (a takeback's answers,
    a rematch offer), and on a challenge message; and the forms they open."""

    def __init__(self) -> None:
        self._every: list[PostItems] = []
        self._actions: dict[str, ActionItems] = {}
        self._challenge: ChallengeView | None = None
        self._cancel: Callable[[int], discord.ui.Item[Any]] | None = None
        self.forms: list[Form] = []

    def add_to_every_post(self, items: PostItems) -> None:
        self._every.append(items)

    def add_action(self, name: str, items: ActionItems) -> None:
        if name in self._actions:
            raise ValueError(f"a second post action {name!r}")
        self._actions[name] = items

    def set_challenge_view(self, view: ChallengeView) -> None:
        self._challenge = view

    def set_cancel_challenge(self, item: Callable[[int], discord.ui.Item[Any]]) -> None:
        """The button that cancels a challenge (by its id), wherever it is shown."""
        self._cancel = item

    def cancel_challenge(self, challenge_id: int) -> discord.ui.Item[Any] | None:
        return None if self._cancel is None else self._cancel(challenge_id)

    def add_forms(self, *forms: Form) -> None:
        self.forms += forms

    def post_view(self, game: GameRow, post: Post) -> discord.ui.View | None:
        """The buttons of a post in a game's thread: those of every post, then its
        actions'."""
        items = [item for every in self._every for item in every(game.id, post)]
        for action in post.actions:
            name, _colon, argument = action.partition(":")
            if name not in self._actions:
                raise ValueError(f"unknown post action {action!r}")
            items += self._actions[name](game.id, argument)
        if not items:
            return None
        view = discord.ui.View(timeout=None)
        for item in items:
            view.add_item(item)
        return view

    def challenge_view(self, challenge: ChallengeRow, disabled: bool) -> discord.ui.View:
        if self._challenge is None:
            raise LookupError("no area shows challenges")
        return self._challenge(challenge, disabled)
