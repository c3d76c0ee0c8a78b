"""``/leaderboard`` (a game's best rated members in this server, or over every
server: ``scope:global``) and ``/profile``
(a member's ratings, record and games in progress here)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import places, texts
from bot.core.competing import MemberCompetitions
from bot.core.options import GameKind
from bot.core.players import LevelRecord, Players
from bot.model import UserError
from bot.ratings.ranking import Ratings
from bot.ui.areas import AreaHost
from bot.ui.context import guild_of, service


def leaderboard_lines(rows: list) -> list[str]:
    return [
        f"{rank}. **{row.member_name}** {row.rating:.0f} ± {row.deviation:.0f} "
        f"({row.wins}–{row.losses}" + (f"–{row.draws}" if row.draws else "") + f" in {row.games})"
        for rank, row in enumerate(rows, 1)
    ]


#: Whose leaderboard: this server's players, or every server's (one pool).
SCOPES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="every server", value="global"),
]


NO_SERVER_HERE = (
    "There's no server of mine here, so no server leaderboard: use `scope: every server`, "
    "or ask in a server."
)


def leaderboard_title(game_title: str, scope: str) -> str:
    return f"{game_title}: leaderboard" + (" of every server" if scope == "global" else "")


def practice_line(record: LevelRecord) -> str:
    draws = f", {record.draws} drawn" if record.draws else ""
    return f"**{record.level}**: {record.wins} won, {record.losses} lost{draws}"


class RatingCommands(commands.Cog):
    @app_commands.command(name="leaderboard", description="The best rated members of a game")
    @app_commands.describe(
        game="Which game",
        public="Post it for everyone (default: only you see it)",
        scope="This server's players, or every server's (default: this server; in DMs: all)",
    )
    @app_commands.choices(scope=SCOPES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Transform[rules.Game, GameKind],
        public: bool = False,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        here = guild_of(interaction)  # places.DMS: no server of mine here
        wide = scope.value if scope else ("global" if here == places.DMS else "server")
        ratings = service(interaction, Ratings)
        if wide == "global":
            rows = await ratings.global_leaderboard(game.name)
        elif here == places.DMS:
            raise UserError(NO_SERVER_HERE)
        else:
            rows = await ratings.leaderboard(here, game.name)
        embed = discord.Embed(title=leaderboard_title(game.title, wide))
        embed.description = "\n".join(leaderboard_lines(rows)) or (
            "Nobody is rated yet: ratings start with the first rated game."
        )
        embed.set_footer(text="Glicko-2 rating ± deviation (wins–losses in games)")
        await interaction.response.send_message(
            embed=embed, ephemeral=not public, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="profile", description="A member's ratings and games here")
    @app_commands.describe(
        member="Whose profile (default: yours)",
        public="Post it for everyone (default: only you see it)",
    )
    async def profile(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        public: bool = False,
    ) -> None:
        guild_id = guild_of(interaction)
        who = member or interaction.user
        found = await service(interaction, Ratings).profile(guild_id, who.id)
        embed = discord.Embed(title=f"{who.display_name}'s profile")
        for row in found.ratings:
            draws = f", {row.draws} drawn" if row.draws else ""
            embed.add_field(
                name=texts.title_of(row.game),
                value=f"Rating **{row.rating:.0f}** ± {row.deviation:.0f}\n"
                f"{texts.plural(row.games, 'rated game')}: {row.wins} won, "
                f"{row.losses} lost{draws}.",
            )
        automatic = service(interaction, Players).automatic_member(who.id)
        if automatic is not None:  # the bot itself: its practice games, never rated
            embed.description = "I play practice games against members (`/practice`): never rated."
        elif not found.ratings:
            embed.description = "No rated games here yet."
        current = [f"{texts.label(row)} vs {row.opponent_name(who.id)}" for row in found.current]
        shown = current[:15] + ([f"…and {len(current) - 15} more"] if len(current) > 15 else [])
        embed.add_field(
            name=f"Games in progress ({len(current)})",
            value="\n".join(shown) or "None.",
            inline=False,
        )
        if automatic is not None:
            mine = await automatic.own_record(guild_id=guild_id)
            embed.add_field(
                name="My practice games against members",
                inline=False,
                value="\n".join(practice_line(r) for r in mine) or "None finished yet.",
            )
        practice = [
            record
            for player in service(interaction, Players).automatic
            if player is not automatic
            for record in await player.record(guild_id=guild_id, member_id=who.id)
        ]
        if practice:
            embed.add_field(
                name="Practice against me (not rated)",
                inline=False,
                value="\n".join(practice_line(r) for r in practice),
            )
        competing = await service(interaction, MemberCompetitions).competitions_of(guild_id, who.id)
        if competing:
            embed.add_field(
                name=f"Competitions ({len(competing)})",
                inline=False,
                value="\n".join(competing)[:1024],
            )
        await interaction.response.send_message(
            embed=embed, ephemeral=not public, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: AreaHost) -> None:
    """The ratings area's commands in the bot."""
    await bot.add_cog(RatingCommands())
