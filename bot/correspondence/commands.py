"""``/myturn``, ``/takeback``, ``/abort``, ``/vacation`` and ``/notify``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import places, texts, timecontrol
from bot.core.options import MyGame, game_meant
from bot.core.players import Players
from bot.correspondence import views
from bot.correspondence.clocks import Clocks
from bot.correspondence.notify import Notifier
from bot.correspondence.service import Correspondence
from bot.i18n import N_, _, _n
from bot.storage import GameRow
from bot.ui.areas import AreaHost
from bot.ui.context import guild_of, member_of, service

MyGameOption = app_commands.Transform[GameRow, MyGame]

MY_TURN_SHOWN = 20
VACATION = [
    app_commands.Choice(name=N_("on: stop my clocks"), value="on"),
    app_commands.Choice(name=N_("off: I'm back"), value="off"),
    app_commands.Choice(name=N_("status"), value="status"),
]
NOTIFY = [
    app_commands.Choice(name=N_("a mention in the game's thread (default)"), value="thread"),
    app_commands.Choice(name=N_("a direct message"), value="dm"),
    app_commands.Choice(name=N_("a daily digest by direct message"), value="digest"),
]
NOTIFY_SAID = {
    "thread": N_("I'll mention you in the game's thread when it's your turn."),
    "dm": N_(
        "I'll send you a direct message when it's your turn (a mention in the "
        "thread if your DMs are closed)."
    ),
    "digest": N_(
        "Once a day I'll send you a direct message listing the games waiting "
        "for you; deadline reminders still come by DM."
    ),
}


class CorrespondenceCommands(commands.Cog):
    @app_commands.command(
        name="myturn", description="Your games waiting for your move, most urgent first"
    )
    async def myturn(self, interaction: discord.Interaction) -> None:
        guild_id = guild_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # may replay games
        waiting = await service(interaction, Correspondence).my_turn(
            guild_id=guild_id, member_id=interaction.user.id
        )
        if not waiting:
            await interaction.followup.send(_("No game is waiting for your move."), ephemeral=True)
            return
        lines = [
            _n("**Your move in {count} game:**", "**Your move in {count} games:**", len(waiting))
        ]
        for item in waiting[:MY_TURN_SHOWN]:
            row = item.game
            opponent = row.opponent_name(interaction.user.id)
            when = (
                _("time runs out {relative}", relative=texts.relative(item.deadline))
                if item.deadline
                else _("no time limit")
            )
            url = texts.jump_url(guild_id, row.where_id, row.last_message_id)
            ref = places.game_ref(texts.label(row), url, row.in_dms)
            lines.append(_("- {game} vs {name}: {when}", game=ref, name=opponent, when=when))
        if len(waiting) > MY_TURN_SHOWN:
            lines.append(_("…and {count} more.", count=len(waiting) - MY_TURN_SHOWN))
        await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(
        name="takeback", description="Ask your opponent to take back your last move"
    )
    @app_commands.describe(game="Which game (implied inside a game's thread)")
    async def takeback(
        self, interaction: discord.Interaction, game: MyGameOption | None = None
    ) -> None:
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await game_meant(interaction, game)
        automatic = service(interaction, Players).automatic_in(row)
        if automatic is not None:  # the bot grants it at once
            await automatic.take_back(guild_id=guild_id, game_id=row.id, member=member)
            await interaction.followup.send(
                _("Taken back in {game}.", game=texts.label(row)), ephemeral=True
            )
            return
        await service(interaction, Correspondence).request_takeback(
            guild_id=guild_id, game_id=row.id, member=member
        )
        opponent = row.opponent_name(member.id)
        await interaction.followup.send(
            _("Asked {name} in {game}'s thread.", name=opponent, game=texts.label(row)),
            ephemeral=True,
        )

    @app_commands.command(
        name="abort",
        description="Call off a game before both players have moved (it counts for nothing)",
    )
    @app_commands.describe(game="Which game (implied inside a game's thread)")
    async def abort(
        self, interaction: discord.Interaction, game: MyGameOption | None = None
    ) -> None:
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await game_meant(interaction, game)
        update = await service(interaction, Correspondence).abort(
            guild_id=guild_id, game_id=row.id, member=member
        )
        await interaction.followup.send(
            _("{game} is aborted: it counts for nothing.", game=texts.label(update.game)),
            ephemeral=True,
        )

    @app_commands.command(
        name="vacation", description="Stop your clocks for a while (a yearly allowance)"
    )
    @app_commands.describe(action="Switch it on or off, or see how much is left")
    @app_commands.choices(action=VACATION)
    async def vacation(
        self, interaction: discord.Interaction, action: app_commands.Choice[str]
    ) -> None:
        clocks = service(interaction, Clocks)
        member_id = interaction.user.id
        if action.value == "on":
            started = await clocks.start_vacation(member_id)
            text = _(
                "Enjoy your vacation: your clocks are stopped until you use "
                "`/vacation off`, or at most until {moment} "
                "when this year's allowance runs out. (Games whose challenge disabled "
                "vacations keep running.)",
                moment=texts.when(started.end_at),
            )
        elif action.value == "off":
            await clocks.end_vacation(member_id)
            left = await clocks.vacation_left(member_id)
            text = _(
                "Welcome back: your clocks run again. {left} of vacation left this year.",
                left=timecontrol.describe_duration(left),
            )
        else:
            current = await clocks.current_vacation(member_id)
            left = await clocks.vacation_left(member_id)
            now = (
                _("You are on vacation until {moment}.", moment=texts.when(current.end_at))
                if current
                else _("You are not on vacation.")
            )
            left_text = _(
                "{left} of vacation left this year.", left=timecontrol.describe_duration(left)
            )
            text = f"{now} {left_text}"
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="notify", description="How I tell you it's your turn")
    @app_commands.describe(how="A thread mention, a direct message, or a daily digest")
    @app_commands.choices(how=NOTIFY)
    async def notify(self, interaction: discord.Interaction, how: app_commands.Choice[str]) -> None:
        await service(interaction, Notifier).set_preference(interaction.user.id, how.value)
        service(interaction, Clocks).poke()  # a digest may now be due
        await interaction.response.send_message(_(NOTIFY_SAID[how.value]), ephemeral=True)


async def setup(bot: AreaHost) -> None:
    """The correspondence area's commands, buttons in the bot."""
    await bot.add_cog(CorrespondenceCommands())
    bot.add_dynamic_items(*views.ITEMS)
    bot.views.add_action("takeback", views.takeback_items)
