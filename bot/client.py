"""The discord.py client: slash commands only, no privileged intents.

It opens the database, builds the services with the composition root
(:func:`bot.app.build`) around its Discord poster and messenger, loads one extension
per area (its commands), registers every area's buttons and forms, and gives the
command tree its one error handler.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import App, Tuning, build
from bot.challenges import views as challenge_views
from bot.config import Settings, hidden_password
from bot.correspondence import views as correspondence_views
from bot.errors import STALE_BUTTON, report
from bot.learning import views as learning_views
from bot.model import Member, Post, UserError
from bot.play import views as play_views
from bot.poster import DiscordMessenger, DiscordPoster
from bot.practice.views import thread_typing
from bot.review import views as review_views
from bot.shards import Shards
from bot.storage import ChallengeRow, Database, GameRow, Unavailable, open_database
from bot.ui.answers import tolerate_repeated_answers
from bot.ui.context import custom_id_of
from bot.ui.forms import submit_form

log = logging.getLogger(__name__)

#: The commands of each area.
EXTENSIONS = (
    "bot.challenges.commands",
    "bot.play.commands",
    "bot.correspondence.commands",
    "bot.review.commands",
    "bot.ratings.commands",
    "bot.settings.commands",
    "bot.learning.commands",
    "bot.practice.commands",
)
#: The restart-proof buttons and menus of every area.
DYNAMIC_ITEMS = (
    *challenge_views.ITEMS,
    *play_views.ITEMS,
    *correspondence_views.ITEMS,
    *review_views.ITEMS,
    *learning_views.ITEMS,
)
#: The forms of every area (see bot.ui.forms).
FORMS = (*play_views.FORMS,)
#: The buttons a post's ``actions`` stand for (``name`` or ``name:argument``), by area.
ACTIONS = {
    "rematch": challenge_views.rematch_items,
    "takeback": correspondence_views.takeback_items,
}


class DatabaseUnavailable(Exception):
    """The database file cannot be opened or migrated."""


def intents() -> discord.Intents:
    """Guilds only (channels and threads). No members, presences or message content."""
    return discord.Intents(guilds=True)


def post_view(game: GameRow, post: Post) -> discord.ui.View | None:
    """The buttons of a post in a game's thread: the decisions it asks for, then its
    actions (takeback answers, rematch)."""
    items = play_views.decision_items(game.id, post)
    for action in post.actions:
        name, _, argument = action.partition(":")
        if name not in ACTIONS:
            raise ValueError(f"unknown post action {action!r}")
        items += ACTIONS[name](game.id, argument)
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def challenge_buttons(challenge: ChallengeRow, disabled: bool) -> discord.ui.View:
    """A challenge message's buttons (disabled once it expired)."""
    return challenge_views.challenge_view(challenge, disabled=disabled)


class BoardTree(app_commands.CommandTree):
    """The command tree: every command is for servers unless it says otherwise, and
    every failure of a command or an autocomplete ends in :func:`bot.errors.report`."""

    def __init__(self, client: discord.Client) -> None:
        super().__init__(
            client,
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A server's command used outside one (an out-of-date Discord app may offer it)
        is refused before it runs."""
        command = interaction.command
        if interaction.guild_id is None and command is not None:
            contexts = self.allowed_contexts.merge(
                getattr(command, "allowed_contexts", None) or app_commands.AppCommandContext()
            )
            if not contexts.dm_channel:
                raise app_commands.NoPrivateMessage()
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)


class BoardBot(commands.Bot):
    def __init__(self, settings: Settings, **options: Any) -> None:
        # The bot never joins a voice channel: discord.py's start-up warnings that the
        # voice libraries (PyNaCl, davey) are missing would only read as faults.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=BoardTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        # A first answer discord.py repeats after a 5xx, which Discord had carried out,
        # is refused with 40060: the command goes on (see bot.ui.answers).
        tolerate_repeated_answers()
        self.db: Database | None = None
        self.app: App | None = None
        #: The ``custom_id`` templates of every dynamic item added: a component
        #: interaction matching none of them is one the bot cannot answer otherwise.
        self.component_templates: list[re.Pattern[str]] = []

    async def open_database(self) -> Database:
        """Open and check the database (before Discord is reached, so that a database
        that cannot be used stops the bot at once)."""
        if self.db is None:
            try:
                self.db = await open_database(self.settings.database)
            except Unavailable as error:
                where = hidden_password(str(self.settings.database))
                raise DatabaseUnavailable(f"cannot use the database at {where}: {error}") from error
        return self.db

    async def setup_hook(self) -> None:
        self.db = await self.open_database()
        self.app = build(
            self.db,
            DiscordPoster(self, post_view, challenge_buttons),
            DiscordMessenger(self),
            tuning=Tuning(
                reminder_share=self.settings.reminder_share,
                vacation_days=self.settings.vacation_days,
                challenge_expiry_days=self.settings.challenge_expiry_days,
                rules_url_base=self.settings.rules_url_base,
                ai_workers=self.settings.ai_workers,
                ai_test_playouts=self.settings.ai_test_playouts,
                shards=Shards(self.settings.shard_count, self.settings.shard_ids),
            ),
            typing=thread_typing(self),
        )
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server", len(synced))
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they may take a while to appear)", len(synced))
        if self.user is not None:  # the bot's own seat in practice games
            self.app.practice.me = Member(self.user.id, self.user.display_name)
        await self.app.start()  # the clocks and expiry apply what fell due while down

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d servers",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
        )

    def add_dynamic_items(self, *items: Any) -> None:
        super().add_dynamic_items(*items)
        self.component_templates += [item.__discord_ui_compiled_template__ for item in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction passes here too (after discord.py's own dispatch). Forms
        are answered here from their ``custom_id``, restarts or not (see
        :mod:`bot.ui.forms`); a component none of our dynamic items claims (an older
        message format, a stale id) gets a polite answer instead of Discord's "This
        interaction failed"."""
        if interaction.type is discord.InteractionType.modal_submit:
            await submit_form(interaction, FORMS)
        elif interaction.type is discord.InteractionType.component:
            custom_id = custom_id_of(interaction) or ""
            if not any(t.fullmatch(custom_id) for t in self.component_templates):
                log.info("a component nobody handles: custom_id %r", custom_id[:100])
                await report(interaction, UserError(STALE_BUTTON))

    async def close(self) -> None:
        if self.app is not None:
            await self.app.stop()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None


class ShardedBoardBot(BoardBot, commands.AutoShardedBot):
    """The bot on some of Discord's shards (``SHARD_COUNT``, ``SHARD_IDS``): Discord sends
    this process the events of the servers on its shards; other processes, sharing the
    database, serve the others."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            settings,
            shard_count=settings.shard_count,
            shard_ids=None if settings.shard_ids is None else list(settings.shard_ids),
        )


def make_client(settings: Settings) -> BoardBot:
    """The client the settings ask for: on every shard of one connection, or sharded."""
    return BoardBot(settings) if settings.shard_count is None else ShardedBoardBot(settings)
