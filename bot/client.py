"""The discord.py client: slash commands only, no privileged intents.

It opens the database, builds the services with the composition root
(:func:`bot.app.build`) around its Discord poster and messenger, loads each area of
:data:`bot.app.AREAS` as an extension (whose ``setup()`` adds the area's commands,
buttons, forms and post actions: see :mod:`bot.ui.areas`), and gives the command
tree its one error handler.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import places
from bot.app import AREAS, App, build
from bot.config import Settings, hidden_password
from bot.i18n import _
from bot.model import Member, UserError
from bot.pace import Pace, share
from bot.poster import DiscordMessenger, DiscordPoster
from bot.services import Services
from bot.storage import Database, Unavailable, open_database
from bot.ui.answers import tolerate_repeated_answers
from bot.ui.areas import PostViews
from bot.ui.context import answering, bot_in_server, custom_id_of
from bot.ui.errors import STALE_BUTTON, BadOptions, report
from bot.ui.forms import submit_form
from bot.ui.translator import CatalogueTranslator, choices_translatable

log = logging.getLogger(__name__)


class DatabaseUnavailable(Exception):
    """The database file cannot be opened or migrated."""


def intents() -> discord.Intents:
    """Guilds only (channels and threads). No members, presences or message content."""
    return discord.Intents(guilds=True)


#: The commands that work anywhere (issue 29): in servers, in the bot's DM and in
#: private channels, installed to a server or to a member's own account. Every other
#: command is for a server that installed the bot (moderation, competitions...). The
#: one table of it: :meth:`BoardTree.open_anywhere` applies it once the areas are
#: loaded.
ANYWHERE = frozenset(
    {
        "abort",
        "board",
        "challenge",
        "conditional",
        "explore",
        "export",
        "games",
        "leaderboard",
        "move",
        "myturn",
        "note",
        "practice",
        "profile",
        "replay",
        "resign",
        "review",
        "rules",
        "seek",
    }
)
EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)


class BoardTree(app_commands.CommandTree):
    """The command tree: every command is for servers that installed the bot unless
    :data:`ANYWHERE` names it, and every failure of a command or an autocomplete ends
    in :func:`bot.ui.errors.report`."""

    def __init__(self, client: discord.Client) -> None:
        super().__init__(
            client,
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        )

    def open_anywhere(self) -> list[str]:
        """Let the commands of :data:`ANYWHERE` work in every context and install; the
        names opened."""
        opened = []
        for command in self.get_commands():
            if command.name in ANYWHERE:
                command.allowed_contexts = EVERY_CONTEXT
                command.allowed_installs = EVERY_INSTALL
                opened.append(command.name)
        return opened

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A server's command used where the bot can't serve it (a DM, a group DM, a
        server where only the member installed the app: an out-of-date Discord app may
        offer it) is refused before it runs."""
        command = interaction.command
        if command is None:
            return True
        root = getattr(command, "root_parent", None) or command
        contexts = self.allowed_contexts.merge(
            getattr(root, "allowed_contexts", None) or app_commands.AppCommandContext()
        )
        if not contexts.dm_channel and not bot_in_server(interaction):
            raise app_commands.NoPrivateMessage(_(places.SERVER_ONLY))
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        async with answering(interaction):
            await report(interaction, error)

    async def _call(self, interaction: discord.Interaction) -> None:
        """Run the command: discord.py reads its options before the command's own
        error handling begins, so an option of the wrong type (a user option holding
        no user id: a client's bug, or a command changed since the member's client
        loaded it) would go unanswered; it is answered here, and nothing runs."""
        async with answering(interaction):  # the member's language, for the command
            try:
                if interaction.type is discord.InteractionType.application_command:
                    check_option_types(interaction)
                await super()._call(interaction)
            except (BadOptions, ValueError, TypeError, KeyError) as error:
                if interaction.response.is_done():
                    raise  # the command ran: not a matter of its options
                log.warning("options of the wrong type for %s: %s", interaction.data, error)
                await report(interaction, BadOptions(str(error)))


#: The Python values each kind of option is, as discord.py reads a valid one.
_OPTION_VALUES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
    discord.AppCommandOptionType.user: (discord.User, discord.Member),
    discord.AppCommandOptionType.mentionable: (discord.User, discord.Member, discord.Role),
    discord.AppCommandOptionType.role: (discord.Role,),
    discord.AppCommandOptionType.attachment: (discord.Attachment,),
    discord.AppCommandOptionType.channel: (
        app_commands.AppCommandChannel,
        app_commands.AppCommandThread,
    ),
}


def check_option_types(interaction: discord.Interaction) -> None:
    """Refuse (:class:`BadOptions`) a command whose options are not of their kinds:
    text where a number belongs, a user option naming no user Discord resolved…"""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    namespace = interaction.namespace  # reading it may raise ValueError: a bad id
    for parameter in command.parameters:
        value = getattr(namespace, parameter.display_name, None)
        kinds = _OPTION_VALUES.get(parameter.type)
        if value is None or kinds is None:
            continue
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise BadOptions(f"{parameter.display_name}: {type(value).__name__}")


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
        #: Another process took this one's shards over (it stopped).
        self.lost = False
        self._closing: asyncio.Future[None] | None = None
        #: The services, found by type by the areas' commands and buttons.
        self.services = Services()
        #: The buttons and forms the areas add to the bot's posts.
        self.views = PostViews()
        #: The ``custom_id`` templates of every dynamic item added: a component
        #: interaction matching none of them is one the bot cannot answer otherwise.
        self.component_templates: list[re.Pattern[str]] = []

    async def open_database(self) -> Database:
        """Open and check the database (before Discord is reached, so that a database
        that cannot be used stops the bot at once)."""
        if self.db is None:
            try:
                self.db = await open_database(
                    self.settings.database,
                    pool_size=self.settings.database_pool_size,
                    pgbouncer=self.settings.database_pgbouncer,
                )
            except Unavailable as error:
                where = hidden_password(str(self.settings.database))
                raise DatabaseUnavailable(f"cannot use the database at {where}: {error}") from error
        return self.db

    async def enter(self) -> App:
        """Open the database, build the services and take this process's shards among
        the processes sharing the database (:class:`bot.processes.ShardsTaken` if another
        runs them): all before Discord is reached."""
        db = await self.open_database()
        if self.app is None:
            # Each process keeps to its share of Discord's global limit.
            pace = Pace(share(self.settings.shard_count, self.settings.shard_ids))
            self.app = build(
                db,
                DiscordPoster(
                    self,
                    self.views.post_view,
                    self.views.challenge_view,
                    pace=pace,
                ),
                DiscordMessenger(self, pace=pace),
                settings=self.settings,
                on_lost=self._lost,
                gateway=self.connected,
            )
            self.services = self.app.services
            self.services.add(self.views)  # what the areas add to posts, for the others
        await self.app.enter()
        return self.app

    def connected(self) -> bool:
        """Connected to Discord's gateway, on every shard of this process (ready: each
        shard has identified, which discord.py spaces out by five seconds)."""
        if self.is_closed() or not self.is_ready():
            return False
        shards = getattr(self, "shards", None)
        if isinstance(shards, dict):  # sharded: each of its shards
            return all(not shard.is_closed() for shard in shards.values())
        return self.ws is not None and self.ws.open

    def _lost(self) -> None:
        """Another process took this one's shards over: stop (a service manager starts
        it again, once the other is gone)."""
        self.lost = True
        self._closing = asyncio.ensure_future(self.close())

    async def setup_hook(self) -> None:
        await self.enter()
        assert self.app is not None
        await self.load_areas()
        assert isinstance(self.tree, BoardTree)
        self.tree.open_anywhere()  # after the areas: their commands are in the tree now
        # every command's names, descriptions and choices in each language (bot.i18n)
        choices_translatable(self.tree)
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server", len(synced))
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they may take a while to appear)", len(synced))
        if self.user is not None:  # the bot's own seat in the games it plays itself
            for player in self.app.players.automatic:
                player.me = Member(self.user.id, self.user.display_name)
        await self.app.start()  # the clocks and expiry apply what fell due while down

    async def load_areas(self) -> None:
        """Load every area: each adds its commands, buttons, forms and post actions."""
        for area in AREAS:
            await self.load_extension(f"bot.{area}.commands")

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d servers",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
        )

    def add_dynamic_items(self, *items: Any) -> None:  # an area's restart-proof buttons
        super().add_dynamic_items(*items)
        self.component_templates += [item.__discord_ui_compiled_template__ for item in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction passes here too (after discord.py's own dispatch). Forms
        are answered here from their ``custom_id``, restarts or not (see
        :mod:`bot.ui.forms`); a component none of our dynamic items claims (an older
        message format, a stale id) gets a polite answer instead of Discord's "This
        interaction failed"."""
        if interaction.type is discord.InteractionType.modal_submit:
            await submit_form(interaction, self.views.forms)
        elif interaction.type is discord.InteractionType.component:
            custom_id = custom_id_of(interaction) or ""
            if not any(t.fullmatch(custom_id) for t in self.component_templates):
                log.info("a component nobody handles: custom_id %r", custom_id[:100])
                async with answering(interaction):
                    await report(interaction, UserError(_(STALE_BUTTON)))

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
