"""``/challenge``: offer a game to a member, or to anyone.

The game's own options (``size``, ``opening``…) come from ``Game.options()`` of every
game the bot plays when the command is made: one Discord option per name, suggesting
the values the game picked so far allows (its default first).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import texts
from bot.challenges.views import challenge_view
from bot.correspondence import timecontrol
from bot.correspondence.service import challenge_settings
from bot.model import UserError
from bot.play.suggest import LIMIT
from bot.practice.views import LEVEL_CHOICES, start_practice
from bot.ui.context import app_of, channel_of, guild_of, member_of
from bot.ui.options import GameKind, TimeControlOption

FIRST = [
    app_commands.Choice(name="me", value="challenger"),
    app_commands.Choice(name="my opponent", value="opponent"),
    app_commands.Choice(name="random", value="random"),
]
DESCRIPTIONS = {
    "game": "Which game",
    "opponent": "Whom to challenge (empty: anyone may accept)",
    "first": "Who plays first (takes the first seat)",
    "rated": "Whether the game changes ratings (default: yes; no = casual)",
    "time_control": "Days per move (3d: the default), a bank (3d+1d/7d), or none",
    "takebacks": "Whether a player may ask to take back a move (default: yes)",
    "vacation": "Whether vacations stop this game's clock (default: yes)",
    "level": "Against me (the bot): how strong I play (default: easy)",
}
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
        if not options or (options[0].kind is int and picked is None):
            return []
        option = options[0]
        if option.kind is not int:
            offered = dict.fromkeys(v for o in options for v in o.choices or ())
            return [
                app_commands.Choice(name=value, value=value)
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
                name=f"{n}" + (" (default)" if n == option.default else ""), value=n
            )
            for n in allowed
            if str(n).startswith(current)
        ][:LIMIT]

    return values


async def challenge(
    self: ChallengeCommands,
    interaction: discord.Interaction,
    game: rules.Game,
    opponent: discord.User | discord.Member | None = None,
    first: app_commands.Choice[str] | None = None,
    rated: bool = True,
    time_control: timecontrol.TimeControl | None = None,
    takebacks: bool = True,
    vacation: bool = True,
    level: app_commands.Choice[str] | None = None,
    **options: Any,
) -> None:
    app = app_of(interaction)
    settings = challenge_settings(time_control, takebacks, vacation)
    me = app.practice.me
    if opponent is not None and me is not None and opponent.id == me.id:  # practice
        await start_practice(
            interaction,
            game=game.name,
            options=options,
            level=level.value if level else None,
            first=first.value if first else "challenger",
            settings=settings,
        )
        return
    if level is not None:
        raise UserError(
            "A level is for a game against me: name me as the opponent, or use `/practice`."
        )
    if isinstance(opponent, discord.User):  # resolved without membership: not here
        raise UserError(
            f"{opponent.display_name} is not a member of this server (any "
            "more): challenge someone who is, or leave the opponent empty."
        )
    # Inside a thread (a game's, say), the challenge goes to the channel the thread is
    # in, so that the new game gets a thread of its own there.
    channel = getattr(interaction, "channel", None)
    thread = channel if isinstance(channel, discord.Thread) else None
    home = thread.parent_id if thread is not None else channel_of(interaction)
    made = await app.challenges.create(
        guild_id=guild_of(interaction),
        channel_id=home,
        challenger=member_of(interaction.user),
        game=game.name,
        options=options,
        opponent=member_of(opponent) if opponent else None,
        first=first.value if first else "challenger",
        rated=rated,
        settings=settings,
    )
    content = texts.challenge_text(made, app.expiry.expires_at(made))
    view = challenge_view(made)
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[opponent] if opponent else []
    )
    message: discord.Message
    if thread is None:
        await interaction.response.send_message(content, view=view, allowed_mentions=mentions)
        message = await interaction.original_response()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            channel = interaction.client.get_channel(
                home
            ) or await interaction.client.fetch_channel(home)
            # (a forum, the home of a forum post's thread, takes no messages)
            posted = (
                await channel.send(content, view=view, allowed_mentions=mentions)
                if isinstance(channel, discord.abc.Messageable)
                else None
            )
        except discord.HTTPException:
            posted = None
        if posted is None:
            await app.challenges.cancel(
                guild_id=made.guild_id, challenge_id=made.id, member=member_of(interaction.user)
            )
            raise UserError(
                f"I can't post in <#{home}>, where this thread is: use "
                "`/challenge` in a channel where I can."
            )
        message = posted
        await interaction.followup.send(
            f"Your challenge is posted in <#{home}>, where the game will get a thread of its "
            f"own: {message.jump_url}",
            ephemeral=True,
        )
    await app.challenges.set_message(made.id, message.id)
    app.expiry.poke()  # it may be the next challenge to expire


def _challenge_command() -> app_commands.Command:
    """``/challenge`` with one option per game option (see :func:`game_options`)."""
    keyword = inspect.Parameter.KEYWORD_ONLY

    def parameter(name: str, annotation: Any, default: Any = None) -> inspect.Parameter:
        return inspect.Parameter(name, keyword, default=default, annotation=annotation)

    fixed = {name for name in inspect.signature(challenge).parameters}
    extra = game_options()
    clash = sorted(fixed & set(extra))
    if clash:
        raise TypeError(f"a game option is named like a /challenge option: {clash}")
    parameters = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        parameter("game", app_commands.Transform[rules.Game, GameKind], inspect.Parameter.empty),
        parameter("opponent", discord.User | None),
        *(
            parameter(name, (int if all(o.kind is int for o in found) else str) | None)
            for name, found in extra.items()
        ),
        parameter("first", app_commands.Choice[str] | None),
        parameter("rated", bool, True),
        parameter(
            "time_control",
            app_commands.Transform[timecontrol.TimeControl, TimeControlOption] | None,
        ),
        parameter("takebacks", bool, True),
        parameter("vacation", bool, True),
        parameter("level", app_commands.Choice[str] | None),
    ]

    async def callback(
        self: ChallengeCommands, interaction: discord.Interaction, **values: Any
    ) -> None:
        await challenge(self, interaction, **values)

    callback.__qualname__ = "ChallengeCommands.challenge"
    # what discord.py reads the options from (a function's attribute mypy does not know)
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command = app_commands.command(
        name="challenge", description="Challenge a member (or anyone) to a game"
    )(callback)
    app_commands.describe(
        **DESCRIPTIONS, **{name: _description(name, found) for name, found in extra.items()}
    )(command)
    app_commands.autocomplete(**{name: option_values(name) for name in extra})(command)
    app_commands.choices(first=FIRST, level=LEVEL_CHOICES)(command)
    return command


class ChallengeCommands(commands.Cog):
    challenge = _challenge_command()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ChallengeCommands())
