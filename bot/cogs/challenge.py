"""``/challenge``: offer a game to a member, or to anyone."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import texts
from bot.cogs.autocomplete import game_names
from bot.correspondence import TIME_CONTROL_CHOICES, challenge_settings
from bot.interactions import channel_of, expiry_of, guild_of, member_of, service_of
from bot.model import UserError
from bot.views import challenge_view

FIRST = [app_commands.Choice(name="me", value="challenger"),
         app_commands.Choice(name="my opponent", value="opponent"),
         app_commands.Choice(name="random", value="random")]


async def openings(interaction: discord.Interaction,
                   current: str) -> list[app_commands.Choice[str]]:
    """The string options' choices of the game picked so far (Lifeline's openings)."""
    name = getattr(interaction.namespace, "game", None) or ""
    games = [rules.GAMES[name]] if name in rules.GAMES else list(rules.GAMES.values())
    values: dict[str, None] = {}
    for game in games:
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


async def time_controls(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    """The usual time controls; whatever else is typed is offered as it is."""
    needle = current.strip().lower()
    offered = [app_commands.Choice(name=name, value=value)
               for name, value in TIME_CONTROL_CHOICES
               if needle in name.lower() or value.startswith(needle)]
    if needle and needle not in [choice.value for choice in offered]:
        offered.insert(0, app_commands.Choice(name=current.strip()[:100],
                                              value=current.strip()[:100]))
    return offered[:25]


class Challenges(commands.Cog):
    @app_commands.command(name="challenge", description="Challenge a member (or anyone) to a game")
    @app_commands.guild_only()
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
    @app_commands.autocomplete(game=game_names, opening=openings, size=sizes,
                               time_control=time_controls)
    @app_commands.choices(first=FIRST)
    async def challenge(self, interaction: discord.Interaction, game: str,
                        opponent: discord.User | None = None, size: int | None = None,
                        opening: str | None = None,
                        first: app_commands.Choice[str] | None = None,
                        rated: bool = True, time_control: str | None = None,
                        takebacks: bool = True, vacation: bool = True) -> None:
        service = service_of(interaction)
        if isinstance(opponent, discord.User):  # resolved without membership: not here
            raise UserError(f"{opponent.display_name} is not a member of this server (any "
                            "more): challenge someone who is, or leave the opponent empty.")
        settings = challenge_settings(time_control, takebacks, vacation)
        challenge = await service.create_challenge(
            guild_id=guild_of(interaction), channel_id=channel_of(interaction),
            challenger=member_of(interaction.user), game=game,
            options={"size": size, "opening": opening},
            opponent=member_of(opponent) if opponent else None,
            first=first.value if first else "challenger", rated=rated, settings=settings)
        mentions = [opponent] if opponent else []
        expiry = expiry_of(interaction)
        expires = expiry.expires_at(challenge) if expiry is not None else None
        await interaction.response.send_message(
            texts.challenge_text(challenge, expires), view=challenge_view(challenge),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=mentions))
        message = await interaction.original_response()
        await service.set_challenge_message(challenge.id, message.id)
        if expiry is not None:
            expiry.poke()  # it may be the next challenge to expire


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Challenges())
