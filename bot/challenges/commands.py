"""``/challenge``: offer a game to a member, or to anyone.

The game's own options (``size``, ``opening``…) come from ``Game.options()`` of every
game the bot plays when the command is made: one Discord option per name, suggesting
the values the game picked so far allows (its default first).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import texts, timecontrol
from bot.challenges import views
from bot.challenges.expiry import ChallengeExpiry
from bot.challenges.service import Challenges
from bot.challenges.views import challenge_view
from bot.core.game_settings import challenge_settings
from bot.core.options import TimeControlOption, game_command
from bot.core.players import Players
from bot.core.views import LEVEL_CHOICES, start_automatic_game
from bot.model import UserError
from bot.ui.areas import AreaHost
from bot.ui.context import channel_of, guild_of, member_of, service

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
    settings = challenge_settings(time_control, takebacks, vacation)
    automatic = (
        None if opponent is None else service(interaction, Players).automatic_member(opponent.id)
    )
    if automatic is not None:  # a game against the bot itself
        await start_automatic_game(
            interaction,
            automatic,
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
    made = await service(interaction, Challenges).create(
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
    content = texts.challenge_text(made, service(interaction, ChallengeExpiry).expires_at(made))
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
            await service(interaction, Challenges).cancel(
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
    await service(interaction, Challenges).set_message(made.id, message.id)
    service(interaction, ChallengeExpiry).poke()  # it may be the next challenge to expire


def _challenge_command() -> app_commands.Command:
    """``/challenge`` with one option per game option (see :func:`game_options`)."""
    command = game_command(
        "challenge",
        "Challenge a member (or anyone) to a game",
        challenge,
        cog="ChallengeCommands",
        before=[("opponent", discord.User | None, None)],
        after=[
            ("first", app_commands.Choice[str] | None, None),
            ("rated", bool, True),
            (
                "time_control",
                app_commands.Transform[timecontrol.TimeControl, TimeControlOption] | None,
                None,
            ),
            ("takebacks", bool, True),
            ("vacation", bool, True),
            ("level", app_commands.Choice[str] | None, None),
        ],
        descriptions=DESCRIPTIONS,
    )
    app_commands.choices(first=FIRST, level=LEVEL_CHOICES)(command)
    return command


class ChallengeCommands(commands.Cog):
    challenge = _challenge_command()


async def setup(bot: AreaHost) -> None:
    """The challenges area's commands, buttons in the bot."""
    await bot.add_cog(ChallengeCommands())
    bot.add_dynamic_items(*views.ITEMS)
    bot.views.add_action("rematch", views.rematch_items)
    bot.views.set_challenge_view(
        lambda challenge, disabled: views.challenge_view(challenge, disabled=disabled)
    )
