"""The options several commands take, each resolved once by its
:class:`~discord.app_commands.Transformer` (with its autocomplete) before the command
runs: which game (``game``), which kind of game (``game`` of ``/challenge``,
``/leaderboard``, ``/rules``) and a time control. A refusal while resolving reaches
the member as it is (see :func:`bot.ui.errors.message_for`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

import rules
from bot import timecontrol
from bot.core.autocomplete import Autocomplete
from bot.core.game_settings import TIME_CONTROL_CHOICES, read_time_control
from bot.core.games import Games, game_rules
from bot.core.move_choices import LIMIT, MoveChoice
from bot.i18n import _
from bot.storage import GameRow
from bot.ui.context import channel_of, guild_of, service

#: What an autocomplete offers: choices of any option's type (as discord.py types it).
Choices = list[app_commands.Choice[str | int | float]]
#: What the member has typed so far (text, for every option here).
Typed = str | int | float


def _choices(suggestions: list[MoveChoice]) -> Choices:
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
        return await service(interaction, Games).find_game(
            guild_id=guild_of(interaction),
            channel_id=channel_of(interaction),
            member_id=interaction.user.id,
            ref=value,
        )


class MyGame(GameOfServer):
    """One of the member's games; suggests their active games, theirs to move first."""

    async def autocomplete(self, interaction: discord.Interaction, value: Typed, /) -> Choices:
        return _choices(
            await service(interaction, Autocomplete).game_suggestions(
                guild_id=guild_of(interaction), member_id=interaction.user.id, typed=str(value)
            )
        )


class AnyGame(GameOfServer):
    """Any game of the server; suggests the recent ones, newest first."""

    async def autocomplete(self, interaction: discord.Interaction, value: Typed, /) -> Choices:
        return _choices(
            await service(interaction, Autocomplete).server_game_suggestions(
                guild_id=guild_of(interaction), typed=str(value), member_id=interaction.user.id
            )
        )


class TimeControlOption(app_commands.Transformer):
    """A time control: days per move (``3d``), a bank (``3d+1d/7d``) or ``none``;
    suggests the usual ones and offers whatever else is typed as it is."""

    async def transform(
        self, interaction: discord.Interaction, value: str
    ) -> timecontrol.TimeControl:
        return read_time_control(value)

    async def autocomplete(self, interaction: discord.Interaction, value: Typed, /) -> Choices:
        typed = str(value).strip()
        needle = typed.lower()
        offered: Choices = [
            app_commands.Choice(name=_(name), value=control)
            for name, control in TIME_CONTROL_CHOICES
            if needle in _(name).lower() or needle in name or control.startswith(needle)
        ]
        if needle and needle not in [choice.value for choice in offered]:
            offered.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
        return offered[:LIMIT]


async def game_meant(interaction: discord.Interaction, game: GameRow | None) -> GameRow:
    """The game a command means: ``game`` if the member named one (resolved by
    :class:`bot.core.options.MyGame` or :class:`~bot.core.options.AnyGame`), else the game
    of the thread the command is used in, else the member's only active game."""
    if game is not None:
        return game
    return await service(interaction, Games).find_game(
        guild_id=guild_of(interaction),
        channel_id=channel_of(interaction),
        member_id=interaction.user.id,
    )


# -- a command with one option per game option ------------------------------------

Suggest = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[Any]]]]


def game_options() -> dict[str, list[rules.Option]]:
    """The options of every game, by name, in the order they first appear."""
    found: dict[str, list[rules.Option]] = {}
    for game in rules.GAMES.values():
        for option in game.options():
            found.setdefault(option.name, []).append(option)
    return found


def _description(name: str, options: list[rules.Option]) -> str:
    said = {option.description for option in options}
    if len(said) == 1 and options[0].description:
        text = options[0].description
        return f"{text[0].upper()}{text[1:]} (the game's default if empty)"[:100]
    return f"The game's {name.replace('_', ' ')} (its default if empty)"[:100]


def _picked(interaction: discord.Interaction) -> rules.Game | None:
    """The game picked so far in the command being typed."""
    return rules.GAMES.get(getattr(interaction.namespace, "game", None) or "")


def option_values(name: str) -> Suggest:
    """The autocomplete of the game option ``name``: the values the game picked so far
    allows (its default first); with no game picked, the choices of every game."""

    async def values(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[Any]]:
        picked = _picked(interaction)
        games = [picked] if picked else list(rules.GAMES.values())
        options = [o for game in games for o in game.options() if o.name == name]
        if not options:
            return []
        option = options[0]
        if option.kind is int and picked is None:
            return _numbers_of_every_game(name, current)
        if option.kind is not int:
            offered = dict.fromkeys(v for o in options for v in o.choices or ())
            return [
                app_commands.Choice(name=value, value=value)  # option values, as typed
                for value in offered
                if current.lower() in value
            ][:LIMIT]
        if option.minimum is None or option.maximum is None:
            return []
        allowed = [option.default] + [
            n for n in range(option.minimum, option.maximum + 1) if n != option.default
        ]
        return [
            app_commands.Choice(
                name=_("{number} (default)", number=n) if n == option.default else str(n), value=n
            )
            for n in allowed
            if str(n).startswith(current)
        ][:LIMIT]

    return values


def _numbers_of_every_game(name: str, current: str) -> list[app_commands.Choice[Any]]:
    """A number option's hint before the game is picked: what each game takes
    (``Asli: 5–25, default 13``, picking its default), or which games take the number
    typed."""
    ranges = [
        (game.title, o.minimum, o.maximum, o.default)
        for game in rules.GAMES.values()
        for o in game.options()
        if o.name == name and o.minimum is not None and o.maximum is not None
    ]
    typed = current.strip()
    if typed.isdigit() and len(typed) < 10:
        n = int(typed)
        takers = [title for title, low, high, _ in ranges if low <= n <= high]
        said = (
            _("for {games}", games=", ".join(takers))
            if takers
            else _("no game takes this {option}", option=name)
        )
        return [app_commands.Choice(name=f"{n}: {said}"[:100], value=n)]
    return [
        app_commands.Choice(
            name=_(
                "{game}: {low}–{high}, default {default} (pick the game first)",
                game=title,
                low=low,
                high=high,
                default=default,
            )[:100],
            value=default,
        )
        for title, low, high, default in ranges
    ][:LIMIT]


#: A parameter of a command: its name, its type (as discord.py reads options from
#: annotations) and its default.
Parameter = tuple[str, Any, Any]


def game_command(
    name: str,
    description: str,
    handler: Callable[..., Coroutine[Any, Any, None]],
    *,
    cog: str,
    before: Sequence[Parameter],
    after: Sequence[Parameter],
    descriptions: Mapping[str, str],
) -> app_commands.Command:
    """A command (of the cog named ``cog``) taking a game, the parameters ``before``,
    one option per game option of every game (see :func:`game_options`), then those
    ``after``; it calls ``handler(cog, interaction, game=…, …, **game_options)``."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    extra = game_options()
    fixed = {"game", *(p[0] for p in before), *(p[0] for p in after)}
    clash = sorted(fixed & set(extra))
    if clash:
        raise TypeError(f"a game option is named like a /{name} option: {clash}")
    parameters = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("game", keyword, annotation=app_commands.Transform[rules.Game, GameKind]),
        *(inspect.Parameter(n, keyword, default=d, annotation=a) for n, a, d in before),
        *(
            inspect.Parameter(
                option,
                keyword,
                default=None,
                annotation=(int if all(o.kind is int for o in found) else str) | None,
            )
            for option, found in extra.items()
        ),
        *(inspect.Parameter(n, keyword, default=d, annotation=a) for n, a, d in after),
    ]

    async def callback(self: Any, interaction: discord.Interaction, **values: Any) -> None:
        await handler(self, interaction, **values)

    callback.__qualname__ = f"{cog}.{name}"
    # what discord.py reads the options from (a function's attribute mypy does not know)
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    made = app_commands.command(name=name, description=description)
    command: app_commands.Command[Any, ..., None] = made(callback)
    app_commands.describe(
        **descriptions, **{option: _description(option, found) for option, found in extra.items()}
    )(command)
    app_commands.autocomplete(**{option: option_values(option) for option in extra})(command)
    return command
