"""The options several commands take, each resolved once by its
:class:`~discord.app_commands.Transformer` (with its autocomplete) before the command
runs: which game (``game``), which kind of game (``game`` of ``/challenge``,
``/leaderboard``, ``/rules``) and a time control. A refusal while resolving reaches
the member as it is (see :func:`bot.errors.message_for`)."""

from __future__ import annotations

import discord
from discord import app_commands

import rules
from bot.correspondence import timecontrol
from bot.correspondence.service import TIME_CONTROL_CHOICES, parse_time_control
from bot.play.games import game_rules
from bot.play.suggest import LIMIT, Suggestion
from bot.storage import GameRow
from bot.ui.context import app_of, channel_of, guild_of

#: What an autocomplete offers: choices of any option's type (as discord.py types it).
Choices = list[app_commands.Choice[str | int | float]]
#: What the member has typed so far (text, for every option here).
Typed = str | int | float


def _choices(suggestions: list[Suggestion]) -> Choices:
    return [app_commands.Choice(name=s.name, value=s.value) for s in suggestions]


class GameKind(app_commands.Transformer):
    """A game the bot plays, by name: its rules."""

    async def transform(self, interaction: discord.Interaction, value: str) -> rules.Game:
        return game_rules(value)

    async def autocomplete(self, interaction: discord.Interaction, value: Typed, /) -> Choices:
        needle = str(value).strip().lower()
        found: Choices = [
            app_commands.Choice(name=game.title, value=name)
            for name, game in rules.GAMES.items()
            if needle in name or needle in game.title.lower()
        ]
        return found[:LIMIT]


class GameOfServer(app_commands.Transformer):
    """A game of this server, by number (``12``, ``#12``, or a suggestion's label)."""

    async def transform(self, interaction: discord.Interaction, value: str) -> GameRow:
        return await app_of(interaction).games.find_game(
            guild_id=guild_of(interaction),
            channel_id=channel_of(interaction),
            member_id=interaction.user.id,
            ref=value,
        )


class MyGame(GameOfServer):
    """One of the member's games; suggests their active games, theirs to move first."""

    async def autocomplete(self, interaction: discord.Interaction, value: Typed, /) -> Choices:
        if interaction.guild_id is None:
            return []
        return _choices(
            await app_of(interaction).autocomplete.game_suggestions(
                guild_id=interaction.guild_id, member_id=interaction.user.id, typed=str(value)
            )
        )


class AnyGame(GameOfServer):
    """Any game of the server; suggests the recent ones, newest first."""

    async def autocomplete(self, interaction: discord.Interaction, value: Typed, /) -> Choices:
        if interaction.guild_id is None:
            return []
        return _choices(
            await app_of(interaction).browser.game_suggestions(
                guild_id=interaction.guild_id, typed=str(value)
            )
        )


class TimeControlOption(app_commands.Transformer):
    """A time control: days per move (``3d``), a bank (``3d+1d/7d``) or ``none``;
    suggests the usual ones and offers whatever else is typed as it is."""

    async def transform(
        self, interaction: discord.Interaction, value: str
    ) -> timecontrol.TimeControl:
        return parse_time_control(value)

    async def autocomplete(self, interaction: discord.Interaction, value: Typed, /) -> Choices:
        typed = str(value).strip()
        needle = typed.lower()
        offered: Choices = [
            app_commands.Choice(name=name, value=control)
            for name, control in TIME_CONTROL_CHOICES
            if needle in name.lower() or control.startswith(needle)
        ]
        if needle and needle not in [choice.value for choice in offered]:
            offered.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
        return offered[:LIMIT]
