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
from bot import places, texts, timecontrol
from bot.challenges import views
from bot.challenges.expiry import ChallengeExpiry
from bot.challenges.service import Challenges, Elsewhere
from bot.core.game_settings import challenge_settings
from bot.core.options import TimeControlOption, game_command
from bot.core.players import Players
from bot.core.views import LEVEL_CHOICES, start_automatic_game
from bot.i18n import N_, _
from bot.model import Member, UserError
from bot.storage import ChallengeRow
from bot.ui.answers import reply
from bot.ui.areas import AreaHost
from bot.ui.context import channel_of, guild_of, in_bot_dm, member_of, service

FIRST = [
    app_commands.Choice(name=N_("me"), value="challenger"),
    app_commands.Choice(name=N_("my opponent"), value="opponent"),
    app_commands.Choice(name=N_("random"), value="random"),
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
            _("A level is for a game against me: name me as the opponent, or use `/practice`.")
        )
    if guild_of(interaction) == places.DMS:  # no server of mine: the game lives in DMs
        await challenge_elsewhere(
            interaction,
            game=game.name,
            options=options,
            opponent=member_of(opponent) if opponent else None,
            first=first.value if first else "challenger",
            rated=rated,
            settings=settings,
        )
        return
    if isinstance(opponent, discord.User):  # resolved without membership: not here
        raise UserError(
            _(
                "{name} is not a member of this server (any "
                "more): challenge someone who is, or leave the opponent empty.",
                name=opponent.display_name,
            )
        )
    # Inside a thread (a game's, say), the challenge goes to the channel the thread is
    # in, so that the new game gets a thread of its own there.
    channel = getattr(interaction, "channel", None)
    thread = channel if isinstance(channel, discord.Thread) else None
    home = thread.parent_id if thread is not None else channel_of(interaction)
    # Answered first: the message itself is posted through the outbox, stored with the
    # challenge, so that nothing (a crash, a slow answer) leaves a challenge unseen.
    await interaction.response.defer(ephemeral=True, thinking=True)
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
    service(interaction, ChallengeExpiry).poke()  # it may be the next challenge to expire
    # (the deferred answer filled in: an edit, safe when discord.py sends it again)
    await reply(interaction, posted_text(made, in_thread=thread is not None), ephemeral=True)


async def challenge_elsewhere(
    interaction: discord.Interaction,
    *,
    game: str,
    options: dict[str, Any],
    opponent: Member | None,
    first: str,
    rated: bool,
    settings: dict[str, Any],
) -> None:
    """A challenge where the bot can't post: made in its DM, the card goes to the
    opponent's DMs; made in a group DM or a server without the bot, the card is this
    command's answer (shown through its token, the outbox's, while it lives) with a copy
    in the opponent's DMs. Either way the game is played in both players' DMs."""
    in_dm = in_bot_dm(interaction)
    if in_dm and opponent is None:
        raise UserError(_(places.OPEN_CHALLENGE_IN_DM))
    if in_dm:
        await interaction.response.defer(ephemeral=True, thinking=True)
        where = Elsewhere("dms")
    else:  # the answer is the card: public (unless the server makes it private)
        await interaction.response.defer(thinking=True)
        origin = texts.jump_url(interaction.guild_id or places.DMS, channel_of(interaction))
        where = Elsewhere(
            "reply",
            token=interaction.token,
            until=interaction.created_at + places.TOKEN_LIFETIME,
            link=origin,
        )
    made = await service(interaction, Challenges).create(
        guild_id=places.DMS,
        channel_id=channel_of(interaction),
        challenger=member_of(interaction.user),
        game=game,
        options=options,
        opponent=opponent,
        first=first,
        rated=rated,
        settings=settings,
        where=where,
    )
    service(interaction, ChallengeExpiry).poke()
    if in_dm:
        assert opponent is not None
        await reply(interaction, places.sent_to_dms(opponent.name), ephemeral=True)
    elif made.status == "cancelled":  # the card could be shown nowhere
        raise UserError(places.no_dm_to(opponent.name if opponent else "anyone"))


def posted_text(challenge: ChallengeRow, *, in_thread: bool = False) -> str:
    """Where a new challenge's message is (or that it will be, once Discord answers)."""
    if challenge.message_id is None:
        return _(
            "Your challenge is saved: Discord is slow to answer, so its message will "
            "appear in {channel} in a moment.",
            channel=f"<#{challenge.channel_id}>",
        )
    url = texts.jump_url(challenge.guild_id, challenge.channel_id, challenge.message_id)
    if in_thread:
        return _(
            "Your challenge is posted in {channel}, where the game will "
            "get a thread of its own: {url}",
            channel=f"<#{challenge.channel_id}>",
            url=url,
        )
    whom = challenge.opponent_name or _("anyone")
    return _("Your challenge to {name} is posted: {url}", name=whom, url=url)


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
    bot.views.set_cancel_challenge(
        lambda challenge_id: views.ChallengeButton("cancel", challenge_id)
    )
