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
from bot.i18n import N_, _
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


#: Shown as ``_(NO_SERVER_HERE)``.
NO_SERVER_HERE = N_(
    "There's no server of mine here, so no server leaderboard: use `scope: every server`, "
    "or ask in a server."
)


def leaderboard_title(game_title: str, scope: str) -> str:
    if scope == "global":
        return _("{game}: leaderboard of every server", game=game_title)
    return _("{game}: leaderboard", game=game_title)


def practice_line(record: LevelRecord) -> str:
    if record.draws:
        return _(
            "**{level}**: {wins} won, {losses} lost, {draws} drawn",
            level=_(record.level),
            wins=record.wins,
            losses=record.losses,
            draws=record.draws,
        )
    return _(
        "**{level}**: {wins} won, {losses} lost",
        level=_(record.level),
        wins=record.wins,
        losses=record.losses,
    )


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
            raise UserError(_(NO_SERVER_HERE))
        else:
            rows = await ratings.leaderboard(here, game.name)
        embed = discord.Embed(title=leaderboard_title(game.title, wide))
        embed.description = "\n".join(leaderboard_lines(rows)) or (
            _("Nobody is rated yet: ratings start with the first rated game.")
        )
        embed.set_footer(text=_("Glicko-2 rating ± deviation (wins–losses in games)"))
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
        embed = discord.Embed(title=_("{name}'s profile", name=who.display_name))
        for row in found.ratings:
            games = texts.plural(row.games, "rated game")
            record = (
                _(
                    "{games}: {wins} won, {losses} lost, {draws} drawn.",
                    games=games,
                    wins=row.wins,
                    losses=row.losses,
                    draws=row.draws,
                )
                if row.draws
                else _(
                    "{games}: {wins} won, {losses} lost.",
                    games=games,
                    wins=row.wins,
                    losses=row.losses,
                )
            )
            rating = _(
                "Rating **{rating}** ± {deviation}",
                rating=f"{row.rating:.0f}",
                deviation=f"{row.deviation:.0f}",
            )
            embed.add_field(name=texts.title_of(row.game), value=f"{rating}\n{record}")
        automatic = service(interaction, Players).automatic_member(who.id)
        if automatic is not None:  # the bot itself: its practice games, never rated
            embed.description = _(
                "I play practice games against members (`/practice`): never rated."
            )
        elif not found.ratings:
            embed.description = _("No rated games here yet.")
        current = [
            _("{game} vs {name}", game=texts.label(row), name=row.opponent_name(who.id))
            for row in found.current
        ]
        more = [_("…and {count} more", count=len(current) - 15)] if len(current) > 15 else []
        shown = current[:15] + more
        embed.add_field(
            name=_("Games in progress ({count})", count=len(current)),
            value="\n".join(shown) or _("None."),
            inline=False,
        )
        if automatic is not None:
            mine = await automatic.own_record(guild_id=guild_id)
            embed.add_field(
                name=_("My practice games against members"),
                inline=False,
                value="\n".join(practice_line(r) for r in mine) or _("None finished yet."),
            )
        practice = [
            record
            for player in service(interaction, Players).automatic
            if player is not automatic
            for record in await player.record(guild_id=guild_id, member_id=who.id)
        ]
        if practice:
            embed.add_field(
                name=_("Practice against me (not rated)"),
                inline=False,
                value="\n".join(practice_line(r) for r in practice),
            )
        competing = await service(interaction, MemberCompetitions).competitions_of(guild_id, who.id)
        if competing:
            embed.add_field(
                name=_("Competitions ({count})", count=len(competing)),
                inline=False,
                value="\n".join(competing)[:1024],
            )
        await interaction.response.send_message(
            embed=embed, ephemeral=not public, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: AreaHost) -> None:
    """The ratings area's commands in the bot."""
    await bot.add_cog(RatingCommands())
