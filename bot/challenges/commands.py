"""``/challenge``: offer a game to a member, or to anyone."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import texts
from bot.challenges.views import challenge_view
from bot.correspondence import timecontrol
from bot.correspondence.service import challenge_settings
from bot.model import UserError
from bot.ui.context import app_of, channel_of, guild_of, member_of
from bot.ui.options import GameKind, TimeControlOption

FIRST = [app_commands.Choice(name="me", value="challenger"),
         app_commands.Choice(name="my opponent", value="opponent"),
         app_commands.Choice(name="random", value="random")]


def _game_picked(interaction: discord.Interaction) -> list[rules.Game]:
    """The game picked so far in the command being typed (every game if none is)."""
    name = getattr(interaction.namespace, "game", None) or ""
    return [rules.GAMES[name]] if name in rules.GAMES else list(rules.GAMES.values())


async def openings(interaction: discord.Interaction,
                   current: str) -> list[app_commands.Choice[str]]:
    """The string options' choices of the game picked so far (Lifeline's openings)."""
    values: dict[str, None] = {}
    for game in _game_picked(interaction):
        for option in game.options():
            if option.name == "opening" and option.choices:
                values.update(dict.fromkeys(option.choices))
    return [app_commands.Choice(name=value, value=value) for value in values
            if current.lower() in value][:25]


async def sizes(interaction: discord.Interaction,
                current: str) -> list[app_commands.Choice[int]]:
    """The sizes the game picked so far allows, its default first."""
    name = getattr(interaction.namespace, "game", None) or ""
    if name not in rules.GAMES:
        return []
    option = next((o for o in rules.GAMES[name].options() if o.name == "size"), None)
    if option is None or option.minimum is None or option.maximum is None:
        return []
    allowed = [option.default] + [n for n in range(option.minimum, option.maximum + 1)
                                  if n != option.default]
    return [app_commands.Choice(name=f"{n}" + (" (default)" if n == option.default else ""),
                                value=n) for n in allowed if str(n).startswith(current)][:25]


class ChallengeCommands(commands.Cog):
    @app_commands.command(name="challenge", description="Challenge a member (or anyone) to a game")
    @app_commands.describe(game="Which game",
                           opponent="Whom to challenge (empty: anyone may accept)",
                           size="Board size (the game's default if empty)",
                           opening="Lifeline's opening: strong-pie, weak-pie or komi-pie",
                           first="Who plays first (Astralis: who is Yellow)",
                           rated="Whether the game changes ratings (default: yes; no = casual)",
                           time_control="Days per move (3d: the default), a bank "
                                        "(3d+1d/7d), or none",
                           takebacks="Whether a player may ask to take back a move (default: yes)",
                           vacation="Whether vacations stop this game's clock (default: yes)")
    @app_commands.autocomplete(opening=openings, size=sizes)
    @app_commands.choices(first=FIRST)
    async def challenge(self, interaction: discord.Interaction,
                        game: app_commands.Transform[rules.Game, GameKind],
                        opponent: discord.User | None = None, size: int | None = None,
                        opening: str | None = None,
                        first: app_commands.Choice[str] | None = None,
                        rated: bool = True,
                        time_control: app_commands.Transform[timecontrol.TimeControl,
                                                             TimeControlOption] | None = None,
                        takebacks: bool = True, vacation: bool = True) -> None:
        app = app_of(interaction)
        if isinstance(opponent, discord.User):  # resolved without membership: not here
            raise UserError(f"{opponent.display_name} is not a member of this server (any "
                            "more): challenge someone who is, or leave the opponent empty.")
        settings = challenge_settings(time_control, takebacks, vacation)
        challenge = await app.challenges.create(
            guild_id=guild_of(interaction), channel_id=channel_of(interaction),
            challenger=member_of(interaction.user), game=game.name,
            options={"size": size, "opening": opening},
            opponent=member_of(opponent) if opponent else None,
            first=first.value if first else "challenger", rated=rated, settings=settings)
        mentions = [opponent] if opponent else []
        await interaction.response.send_message(
            texts.challenge_text(challenge, app.expiry.expires_at(challenge)),
            view=challenge_view(challenge),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=mentions))
        message = await interaction.original_response()
        await app.challenges.set_message(challenge.id, message.id)
        app.expiry.poke()  # it may be the next challenge to expire


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ChallengeCommands())
