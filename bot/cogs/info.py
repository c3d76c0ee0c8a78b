"""``/board``, ``/games`` and ``/rules``: looking, not touching."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import texts
from bot.cogs.autocomplete import game_names, my_games
from bot.interactions import clocks_of, game_meant, guild_of, service_of
from bot.model import UserError


class Info(commands.Cog):
    def __init__(self, rules_url_base: str) -> None:
        self.rules_url_base = rules_url_base

    @app_commands.command(name="board", description="Show the current board of a game")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (implied inside a game's thread)",
                           public="Show it to everyone in the channel (default: only you)")
    @app_commands.autocomplete(game=my_games)
    async def board(self, interaction: discord.Interaction, game: str | None = None,
                    public: bool = False) -> None:
        service = service_of(interaction)
        guild_id = guild_of(interaction)
        row = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        row, state, picture = await service.board(guild_id=guild_id, game_id=row.id)
        lines = [f"**{texts.label(row)}**: {texts.player(row, state, 0)} vs "
                 f"{texts.player(row, state, 1)} · move {state.ply}"
                 + (f" (last: `{state.last_move}`)" if state.last_move else "")]
        if row.is_active:
            seat = state.to_move
            lines.append(f"{row.player_names[seat]} to play: {state.prompt}." if seat is not None
                         else "")
            clocks = clocks_of(interaction)
            deadline = await clocks.deadline_of(row) if clocks is not None else None
            if seat is not None and deadline is not None:
                lines.append(texts.deadline_line(row.player_names[seat], deadline))
        else:
            lines.append(f"**Game over.** {row.result}")
        kwargs = {"file": discord.File(io.BytesIO(picture), filename="board.png")} if picture \
            else {}
        await interaction.followup.send("\n".join(line for line in lines if line),
                                        ephemeral=not public,
                                        allowed_mentions=discord.AllowedMentions.none(), **kwargs)

    @app_commands.command(name="games", description="A member's games in progress and recent ones")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose games (default: yours)")
    async def games(self, interaction: discord.Interaction,
                    member: discord.User | None = None) -> None:
        guild_id = guild_of(interaction)
        who = member or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)  # may replay games
        listing = await service_of(interaction).list_games(guild_id=guild_id, member_id=who.id)
        embed = discord.Embed(title=f"{who.display_name}'s games")
        active = []
        for row, state in listing.active:
            seat = row.seat_of(who.id)
            where = texts.jump_url(guild_id, row.where_id)
            active.append(f"[{texts.label(row)}]({where}) vs {row.player_names[1 - seat]}: "
                          f"{texts.status_line(row, state, who.id)}")
        finished = []
        for row in listing.finished:
            seat = row.seat_of(who.id)
            outcome = ("won" if row.winner_seat == seat else "draw" if row.winner_seat is None
                       else "lost")
            where = texts.jump_url(guild_id, row.where_id)
            finished.append(f"[{texts.label(row)}]({where}) vs {row.player_names[1 - seat]}: "
                            f"{outcome} ({row.result})")
        embed.add_field(name=f"In progress ({len(active)})",
                        value=_fit(active) or "None: start one with /challenge.", inline=False)
        embed.add_field(name="Recently finished", value=_fit(finished) or "None yet.",
                        inline=False)
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="rules", description="How a game is played, and its notation")
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=game_names)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        try:
            rule_set = rules.get_game(game)
        except rules.UnknownGame as error:
            raise UserError(f"{error}.") from None
        url = f"{self.rules_url_base}/{rule_set.name}.md"
        embed = discord.Embed(title=rule_set.title, url=url,
                              description=_cut(rule_set.summary or "", 4000))
        embed.add_field(name="Options for /challenge",
                        value="\n".join(o.describe() for o in rule_set.options()) or "None",
                        inline=False)
        embed.add_field(name="Full rules and rulings", value=url, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fit(lines: list[str], limit: int = 1024) -> str:
    """Lines joined within an embed field's 1024 characters."""
    shown: list[str] = []
    for number, line in enumerate(lines):
        more = f"…and {len(lines) - number} more"
        if len("\n".join([*shown, line, more])) > limit:
            shown.append(more)
            break
        shown.append(line)
    return "\n".join(shown)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot.settings.rules_url_base))  # type: ignore[attr-defined]
