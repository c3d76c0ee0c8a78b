"""``/tournament create|join|leave|start|standings|cancel|withdraw`` and ``/h2h``.

Discord lets a command's default permissions be set only on the whole ``/tournament``
group, which members must reach to join: so who may create, start or cancel is
checked here, at each call: Manage Server creates; Manage Server or the organiser
starts and cancels.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import texts, timecontrol
from bot.competitions import views
from bot.competitions.ladders import ANSWER_DAYS, Ladders
from bot.competitions.leagues import (
    LARGEST_DIVISION,
    LONGEST_BREAK_HOURS,
    SEASON_BREAK_HOURS,
    SMALLEST_DIVISION,
    Leagues,
)
from bot.competitions.posts import (
    SIGNUP_ACTION,
    bracket_text,
    format_line,
    record_text,
    standings_text,
)
from bot.competitions.service import FORMATS, Tournaments, status_word
from bot.competitions.tables import ladder_picture, tournament_picture
from bot.core.members import MemberSettings
from bot.core.options import GameKind, TimeControlOption, game_command
from bot.i18n import _
from bot.model import UserError
from bot.ui.answers import reply
from bot.ui.areas import AreaHost
from bot.ui.context import channel_of, guild_of, member_of, service

FORMAT_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in FORMATS.items()]
DESCRIPTIONS = {
    "game": "Which game",
    "name": "The tournament's name",
    "format": "Round robin, double round robin, Swiss or knockout",
    "deadline": "When sign-up ends, from now: 2d, 12h, 90m (then it starts)",
    "rounds": "A Swiss's number of rounds",
    "min_players": "The fewest players it starts with (default 4)",
    "max_players": "The most players it takes (default 16)",
    "time_control": "Days per move (3d: the default), a bank (3d+1d/7d), or none",
    "rated": "Whether its games change ratings (default: yes)",
    "vacation": "Whether a player's vacation stops their clock in its games (default: no)",
}
_DURATION = re.compile(r"^\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?\s*$", re.IGNORECASE)


def read_duration(text: str) -> timedelta:
    found = _DURATION.match(text or "")
    if not found or not any(found.groups()):
        raise UserError(
            _(
                "Say when sign-up ends as a time from now, like 2d, 12h or 1d12h: not `{typed}`.",
                typed=texts.echo(text),
            )
        )
    days, hours, minutes = (int(g or 0) for g in found.groups())
    return timedelta(days=days, hours=hours, minutes=minutes)


def may_manage(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions is not None and permissions.manage_guild)


async def create(
    self: TournamentCommands,
    interaction: discord.Interaction,
    game: rules.Game,
    name: str,
    format: app_commands.Choice[str],
    deadline: str,
    rounds: int | None = None,
    min_players: int = 4,
    max_players: int = 16,
    time_control: timecontrol.TimeControl | None = None,
    rated: bool = True,
    vacation: bool = False,
    **options: Any,
) -> None:
    if not may_manage(interaction):
        raise UserError(_("Making a tournament needs the Manage Server permission."))
    tournaments = service(interaction, Tournaments)
    starts_at = tournaments.now() + read_duration(deadline)
    await interaction.response.defer(ephemeral=True, thinking=True)
    made = await tournaments.create(
        guild_id=guild_of(interaction),
        channel_id=channel_of(interaction),
        organiser=member_of(interaction.user),
        name=name,
        format=format.value,
        game=game.name,
        options=options,
        starts_at=starts_at,
        time_control=None
        if time_control is None
        else timecontrol.format_time_control(time_control),
        min_players=min_players,
        max_players=max_players,
        rounds=rounds,
        rated=rated,
        vacation=vacation,
    )
    await reply(
        interaction,
        _(
            "**{name}** (#{number}), {what}, is open for sign-up until {moment}: its post "
            "with Join and Leave is in {channel}.",
            name=made.name,
            number=made.id,
            what=format_line(made),
            moment=texts.when(made.starts_at),
            channel=f"<#{made.channel_id}>",
        ),
        ephemeral=True,
    )


def _create_command() -> app_commands.Command[Any, ..., None]:
    command = game_command(
        "create",
        "Make a tournament: members sign up until the deadline, then it starts",
        create,
        cog="TournamentCommands",
        before=[
            ("name", app_commands.Range[str, 1, 80], None),
            ("format", app_commands.Choice[str], None),
            ("deadline", str, None),
        ],
        after=[
            ("rounds", app_commands.Range[int, 1, 50] | None, None),
            ("min_players", app_commands.Range[int, 2, 256], 4),
            ("max_players", app_commands.Range[int, 2, 256], 16),
            (
                "time_control",
                app_commands.Transform[timecontrol.TimeControl, TimeControlOption] | None,
                None,
            ),
            ("rated", bool, True),
            ("vacation", bool, False),
        ],
        descriptions=DESCRIPTIONS,
    )
    app_commands.choices(format=FORMAT_CHOICES)(command)
    return command


async def tournament_choices(
    interaction: discord.Interaction, typed: str
) -> list[app_commands.Choice[int]]:
    if interaction.guild_id is None:
        return []
    found = await service(interaction, Tournaments).listed(
        interaction.guild_id, ("signup", "running", "finished")
    )
    needle = typed.strip().lower().lstrip("#")
    return [
        app_commands.Choice(name=f"#{t.id} {t.name} ({status_word(t.status)})"[:100], value=t.id)
        for t in found
        if needle in t.name.lower() or needle == str(t.id)
    ][:25]


WHICH = "Which tournament (its number, or type to search)"


class TournamentCommands(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Tournaments run by the bot")
    tournament.add_command(_create_command())

    @tournament.command(name="join", description="Sign up for a tournament")
    @app_commands.describe(tournament=WHICH)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def join(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await service(interaction, Tournaments).join(
            guild_id=guild_of(interaction),
            tournament_id=tournament,
            member=member_of(interaction.user),
        )
        await interaction.response.send_message(
            _("You're in **{name}**.", name=t.name), ephemeral=True
        )

    @tournament.command(name="leave", description="Leave a tournament before it starts")
    @app_commands.describe(tournament=WHICH)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def leave(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await service(interaction, Tournaments).leave(
            guild_id=guild_of(interaction),
            tournament_id=tournament,
            member=member_of(interaction.user),
        )
        await interaction.response.send_message(
            _("You left **{name}**.", name=t.name), ephemeral=True
        )

    @tournament.command(name="start", description="Start a tournament now (its organiser)")
    @app_commands.describe(tournament=WHICH)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def start(self, interaction: discord.Interaction, tournament: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        t = await service(interaction, Tournaments).start_now(
            guild_id=guild_of(interaction),
            tournament_id=tournament,
            member=member_of(interaction.user),
            manager=may_manage(interaction),
        )
        await reply(
            interaction, _("**{name}** has started: round 1 is on.", name=t.name), ephemeral=True
        )

    @tournament.command(name="cancel", description="Cancel a tournament (its organiser)")
    @app_commands.describe(tournament=WHICH)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def cancel(self, interaction: discord.Interaction, tournament: int) -> None:
        t = await service(interaction, Tournaments).cancel(
            guild_id=guild_of(interaction),
            tournament_id=tournament,
            member=member_of(interaction.user),
            manager=may_manage(interaction),
        )
        await interaction.response.send_message(
            _("**{name}** is cancelled.", name=t.name), ephemeral=True
        )

    @tournament.command(
        name="withdraw", description="Withdraw from a tournament: your games left are lost"
    )
    @app_commands.describe(tournament=WHICH)
    @app_commands.autocomplete(tournament=tournament_choices)
    async def withdraw(self, interaction: discord.Interaction, tournament: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        t = await service(interaction, Tournaments).withdraw(
            guild_id=guild_of(interaction),
            tournament_id=tournament,
            member=member_of(interaction.user),
        )
        await reply(
            interaction, _("You have withdrawn from **{name}**.", name=t.name), ephemeral=True
        )

    @tournament.command(name="standings", description="A tournament's standings and crosstable")
    @app_commands.describe(
        tournament=WHICH, public="Post it for everyone (default: only you see it)"
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    async def standings(
        self, interaction: discord.Interaction, tournament: int, public: bool = False
    ) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        table = await service(interaction, Tournaments).table(guild_of(interaction), tournament)
        t = table.tournament
        names = {p.member_id: p.member_name for p in table.entrants}
        head = _(
            "**{name}**: {what}, {status}",
            name=t.name,
            what=format_line(t),
            status=status_word(t.status),
        )
        if t.status == "running":
            head = _("{head}, round {number}", head=head, number=t.round)
        if t.status == "signup":
            listed = ", ".join(p.member_name for p in table.entrants) or _("nobody yet")
            signed = _("{head}. Signed up: {names}.", head=head, names=listed)
            await reply(interaction, signed, ephemeral=not public)
            return
        body = (
            bracket_text(table.bracket, names)
            if table.bracket is not None
            else standings_text(table.standings, names)
        )
        theme = (
            None
            if public
            else await service(interaction, MemberSettings).theme(interaction.user.id)
        )
        picture = await tournament_picture(
            table.tournament,
            table.entrants,
            table.games,
            table.standings,
            table.bracket,
            **({"theme": theme} if theme else {}),
        )
        files = {} if picture is None else {"file": discord.File(_bytes(picture), "standings.png")}
        await reply(
            interaction,
            f"{head}.\n{body}"[:2000],
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
            **files,
        )

    @app_commands.command(name="h2h", description="Your record against another member")
    @app_commands.describe(member="Against whom", game="Only this game (default: every game)")
    async def h2h(
        self,
        interaction: discord.Interaction,
        member: discord.Member | discord.User,
        game: app_commands.Transform[rules.Game, GameKind] | None = None,
    ) -> None:
        me = member_of(interaction.user)
        record = await service(interaction, Tournaments).head_to_head(
            guild_id=guild_of(interaction),
            member_id=me.id,
            other_id=member.id,
            game=None if game is None else game.name,
        )
        text = record_text(record, me.id, member.display_name)
        await interaction.response.send_message(
            text[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


async def league_choices(
    interaction: discord.Interaction, typed: str
) -> list[app_commands.Choice[int]]:
    if interaction.guild_id is None:
        return []
    found = await service(interaction, Leagues).listed(interaction.guild_id)
    needle = typed.strip().lower().lstrip("#")
    return [
        app_commands.Choice(name=f"#{one.id} {one.name}"[:100], value=one.id)
        for one in found
        if needle in one.name.lower() or needle == str(one.id)
    ][:25]


async def create_league(
    self: LeagueCommands,
    interaction: discord.Interaction,
    game: rules.Game,
    name: str,
    deadline: str,
    division_size: int = 8,
    time_control: timecontrol.TimeControl | None = None,
    rated: bool = True,
    break_hours: int = SEASON_BREAK_HOURS,
    vacation: bool = False,
    **options: Any,
) -> None:
    if not may_manage(interaction):
        raise UserError(_("Making a league needs the Manage Server permission."))
    leagues = service(interaction, Leagues)
    made = await leagues.create(
        guild_id=guild_of(interaction),
        channel_id=channel_of(interaction),
        organiser=member_of(interaction.user),
        name=name,
        game=game.name,
        options=options,
        starts_at=leagues.now() + read_duration(deadline),
        time_control=None
        if time_control is None
        else timecontrol.format_time_control(time_control),
        division_size=division_size,
        rated=rated,
        break_hours=break_hours,
        vacation=vacation,
    )
    await interaction.response.send_message(
        _(
            "**{name}** (league #{number}) takes members until its first season starts, "
            "{moment}: `/league join` to play.",
            name=made.name,
            number=made.id,
            moment=texts.when(made.starts_at),
        ),
        ephemeral=True,
    )


def _create_league_command() -> app_commands.Command[Any, ..., None]:
    return game_command(
        "create",
        "Make a league: seasons of divisions, promotion and relegation",
        create_league,
        cog="LeagueCommands",
        before=[("name", app_commands.Range[str, 1, 80], None), ("deadline", str, None)],
        after=[
            (
                "division_size",
                app_commands.Range[int, SMALLEST_DIVISION, LARGEST_DIVISION],
                8,
            ),
            (
                "time_control",
                app_commands.Transform[timecontrol.TimeControl, TimeControlOption] | None,
                None,
            ),
            ("rated", bool, True),
            (
                "break_hours",
                app_commands.Range[int, 0, LONGEST_BREAK_HOURS],
                SEASON_BREAK_HOURS,
            ),
            ("vacation", bool, False),
        ],
        descriptions={
            "game": DESCRIPTIONS["game"],
            "time_control": DESCRIPTIONS["time_control"],
            "rated": DESCRIPTIONS["rated"],
            "break_hours": "Hours between a season's last game and the next season (default 24)",
            "vacation": DESCRIPTIONS["vacation"],
            "name": "The league's name",
            "deadline": "When the first season starts, from now: 2d, 12h",
            "division_size": "Players per division, 6 to 10 (default 8)",
        },
    )


LEAGUE = "Which league (its number, or type to search)"


class LeagueCommands(commands.Cog):
    league = app_commands.Group(name="league", description="Leagues run by the bot")
    league.add_command(_create_league_command())

    @league.command(name="join", description="Join a league: you play every season")
    @app_commands.describe(league=LEAGUE)
    @app_commands.autocomplete(league=league_choices)
    async def join(self, interaction: discord.Interaction, league: int) -> None:
        made = await service(interaction, Leagues).join(
            guild_id=guild_of(interaction), league_id=league, member=member_of(interaction.user)
        )
        await interaction.response.send_message(
            _("You're in **{name}** from its next season on.", name=made.name), ephemeral=True
        )

    @league.command(name="leave", description="Leave a league after the season being played")
    @app_commands.describe(league=LEAGUE)
    @app_commands.autocomplete(league=league_choices)
    async def leave(self, interaction: discord.Interaction, league: int) -> None:
        made = await service(interaction, Leagues).leave(
            guild_id=guild_of(interaction), league_id=league, member=member_of(interaction.user)
        )
        await interaction.response.send_message(
            _("You leave **{name}** once this season is over.", name=made.name), ephemeral=True
        )

    @league.command(name="standings", description="A league's divisions, this season or before")
    @app_commands.describe(
        league=LEAGUE,
        season="Which season (default: the one being played)",
        public="Post it for everyone (default: only you see it)",
    )
    @app_commands.autocomplete(league=league_choices)
    async def standings(
        self,
        interaction: discord.Interaction,
        league: int,
        season: int | None = None,
        public: bool = False,
    ) -> None:
        found, which, tables = await service(interaction, Leagues).season_tables(
            guild_of(interaction), league, season
        )
        parts = [_("**{name}**, season {number}:", name=found.name, number=which)]
        for number, (t, table) in enumerate(tables, start=1):
            names = {}
            for one in await service(interaction, Tournaments).entrants(t.id):
                names[one.member_id] = one.member_name
            division = _(
                "Division {number} ({status}):", number=number, status=status_word(t.status)
            )
            parts.append(division + "\n" + standings_text(table, names))
        await interaction.response.send_message(
            "\n".join(parts)[:2000],
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def ladder_choices(
    interaction: discord.Interaction, typed: str
) -> list[app_commands.Choice[int]]:
    if interaction.guild_id is None:
        return []
    found = await service(interaction, Ladders).listed(interaction.guild_id)
    needle = typed.strip().lower().lstrip("#")
    return [
        app_commands.Choice(name=f"#{one.id} {one.name}"[:100], value=one.id)
        for one in found
        if needle in one.name.lower() or needle == str(one.id)
    ][:25]


async def create_ladder(
    self: LadderCommands,
    interaction: discord.Interaction,
    game: rules.Game,
    name: str,
    answer_days: int = 3,
    time_control: timecontrol.TimeControl | None = None,
    rated: bool = True,
    **options: Any,
) -> None:
    if not may_manage(interaction):
        raise UserError(_("Making a ladder needs the Manage Server permission."))
    made = await service(interaction, Ladders).create(
        guild_id=guild_of(interaction),
        channel_id=channel_of(interaction),
        organiser=member_of(interaction.user),
        name=name,
        game=game.name,
        options=options,
        time_control=None
        if time_control is None
        else timecontrol.format_time_control(time_control),
        answer_days=answer_days,
        rated=rated,
    )
    await interaction.response.send_message(
        _(
            "**{name}** (ladder #{number}) is open: `/ladder join` to get on it.",
            name=made.name,
            number=made.id,
        ),
        ephemeral=True,
    )


def _create_ladder_command() -> app_commands.Command[Any, ..., None]:
    return game_command(
        "create",
        "Make a ladder: members challenge those just above them",
        create_ladder,
        cog="LadderCommands",
        before=[("name", app_commands.Range[str, 1, 80], None)],
        after=[
            ("answer_days", app_commands.Range[int, ANSWER_DAYS[0], ANSWER_DAYS[1]], 3),
            (
                "time_control",
                app_commands.Transform[timecontrol.TimeControl, TimeControlOption] | None,
                None,
            ),
            ("rated", bool, True),
        ],
        descriptions={
            "game": DESCRIPTIONS["game"],
            "time_control": DESCRIPTIONS["time_control"],
            "rated": DESCRIPTIONS["rated"],
            "name": "The ladder's name",
            "answer_days": "Days a challenge waits for an answer before it is lost (default 3)",
        },
    )


LADDER = "Which ladder (its number, or type to search)"


class LadderCommands(commands.Cog):
    ladder = app_commands.Group(name="ladder", description="Ladders run by the bot")
    ladder.add_command(_create_ladder_command())

    @ladder.command(name="join", description="Get on a ladder, at the bottom")
    @app_commands.describe(ladder=LADDER)
    @app_commands.autocomplete(ladder=ladder_choices)
    async def join(self, interaction: discord.Interaction, ladder: int) -> None:
        place = await service(interaction, Ladders).join(
            guild_id=guild_of(interaction), ladder_id=ladder, member=member_of(interaction.user)
        )
        await interaction.response.send_message(
            _("You're on it, in place {place}.", place=place), ephemeral=True
        )

    @ladder.command(name="leave", description="Get off a ladder (your open challenges end)")
    @app_commands.describe(ladder=LADDER)
    @app_commands.autocomplete(ladder=ladder_choices)
    async def leave(self, interaction: discord.Interaction, ladder: int) -> None:
        made = await service(interaction, Ladders).leave(
            guild_id=guild_of(interaction), ladder_id=ladder, member=member_of(interaction.user)
        )
        await interaction.response.send_message(
            _("You're off **{name}**.", name=made.name), ephemeral=True
        )

    @ladder.command(name="challenge", description="Challenge a member up to 3 places above you")
    @app_commands.describe(ladder=LADDER, member="Whom to challenge")
    @app_commands.autocomplete(ladder=ladder_choices)
    async def challenge(
        self,
        interaction: discord.Interaction,
        ladder: int,
        member: discord.Member | discord.User,
    ) -> None:
        if isinstance(member, discord.User):  # resolved without membership: not here
            raise UserError(
                _(
                    "{name} is not a member of this server (any more): challenge someone who is.",
                    name=member.display_name,
                )
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        made = await service(interaction, Ladders).challenge(
            guild_id=guild_of(interaction),
            ladder_id=ladder,
            member=member_of(interaction.user),
            defender=member_of(member),
        )
        await reply(
            interaction,
            _(
                "Challenge posted: {name} has until {moment} to accept, or loses the place.",
                name=member.display_name,
                moment=texts.when(made.expires_at),
            ),
            ephemeral=True,
        )

    @ladder.command(name="show", description="A ladder's places, and its picture")
    @app_commands.describe(ladder=LADDER, public="Post it for everyone (default: only you see it)")
    @app_commands.autocomplete(ladder=ladder_choices)
    async def show(
        self, interaction: discord.Interaction, ladder: int, public: bool = False
    ) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        view = await service(interaction, Ladders).view(guild_of(interaction), ladder)
        lines = [f"**{view.ladder.name}** ({texts.title_of(view.ladder.game)}):"]
        lines += [
            f"{r.place}. {r.member_name} ({view.won.get(r.member_id, 0)}–"
            f"{view.lost.get(r.member_id, 0)})"
            for r in view.rungs[:40]
        ] or [_("Nobody yet: `/ladder join`.")]
        theme = (
            None
            if public
            else await service(interaction, MemberSettings).theme(interaction.user.id)
        )
        picture = await ladder_picture(
            view.ladder, view.rungs, view.won, view.lost, **({"theme": theme} if theme else {})
        )
        files = {} if picture is None else {"file": discord.File(_bytes(picture), "ladder.png")}
        await reply(
            interaction,
            "\n".join(lines)[:2000],
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
            **files,
        )


def _bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


async def setup(bot: AreaHost) -> None:
    """The competitions area's commands and buttons in the bot."""
    await bot.add_cog(TournamentCommands())
    await bot.add_cog(LeagueCommands())
    await bot.add_cog(LadderCommands())
    bot.add_dynamic_items(*views.ITEMS)
    bot.views.add_action(SIGNUP_ACTION, views.signup_items)
