"""The discord.py client: slash commands only, no privileged intents."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from typing import Any

import discord
from discord.ext import commands

from bot import texts
from bot.clocks import Clocks
from bot.cogs import EXTENSIONS
from bot.config import Settings
from bot.correspondence import Correspondence, DeadlinePoster
from bot.ending import GameEnd
from bot.errors import STALE_BUTTON, on_app_command_error, report
from bot.expiry import ChallengeExpiry
from bot.model import UserError
from bot.notify import DiscordMessenger, Notifier
from bot.poster import DiscordPoster
from bot.service import Service
from bot.storage import ChallengeRow, Database
from bot.views import DYNAMIC_ITEMS, challenge_view, submit_form

log = logging.getLogger(__name__)


class DatabaseUnavailable(Exception):
    """The database file cannot be opened or migrated."""


def intents() -> discord.Intents:
    """Guilds only (channels and threads). No members, presences or message content."""
    return discord.Intents(guilds=True)


class BoardBot(commands.Bot):
    def __init__(self, settings: Settings) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True))
        self.settings = settings
        self.db: Database | None = None
        self._warm_up: asyncio.Task[int] | None = None
        self.service: Service
        self.clocks: Clocks | None = None
        self.correspondence: Correspondence
        self.expiry: ChallengeExpiry | None = None
        #: The ``custom_id`` templates of every dynamic item added: a component
        #: interaction matching none of them is one the bot cannot answer otherwise.
        self.component_templates: list[re.Pattern[str]] = []

    async def setup_hook(self) -> None:
        try:
            self.db = await Database.open(self.settings.database_path)
        except (OSError, sqlite3.Error) as error:
            raise DatabaseUnavailable(
                f"cannot use the database at {self.settings.database_path}: {error}") from error
        poster = DeadlinePoster(DiscordPoster(self))
        self.service = Service(self.db, poster)
        self.service.listeners.append(GameEnd(self.service))  # ratings, replay, summary
        notifier = Notifier(self.service, DiscordMessenger(self))
        self.clocks = Clocks(self.service, notifier,
                             reminder_share=self.settings.reminder_share,
                             vacation_days=self.settings.vacation_days)
        poster.clocks = self.clocks
        self.correspondence = Correspondence(self.service, self.clocks)
        self.expiry = ChallengeExpiry(self.service, days=self.settings.challenge_expiry_days,
                                      on_expired=self.show_expired)
        self._warm_up = asyncio.create_task(self.service.warm_up(), name="replay active games")
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = on_app_command_error
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
        await self.clocks.start()  # applies what fell due while the bot was down
        await self.expiry.start()  # likewise for challenges

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user and self.user.id,
                 len(self.guilds))

    async def show_expired(self, challenge: ChallengeRow) -> None:
        """Edit an expired challenge's message: it says so, its buttons disabled."""
        if challenge.message_id is None:
            return
        try:
            channel = self.get_channel(challenge.channel_id) \
                or await self.fetch_channel(challenge.channel_id)
            await channel.get_partial_message(challenge.message_id).edit(  # type: ignore
                content=texts.challenge_expired_text(challenge),
                view=challenge_view(challenge, disabled=True),
                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:  # deleted, or out of reach: nothing to show
            log.info("could not mark challenge %d expired: %s", challenge.id, error)

    def add_dynamic_items(self, *items: Any) -> None:
        super().add_dynamic_items(*items)
        self.component_templates += [item.__discord_ui_compiled_template__ for item in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction passes here too (after discord.py's own dispatch). Forms
        are answered here from their ``custom_id``, restarts or not (see
        :func:`bot.views.submit_form`); a component none of our dynamic items claims
        (an older message format, a stale id) gets a polite answer instead of
        Discord's "This interaction failed"."""
        if interaction.type is discord.InteractionType.modal_submit:
            await submit_form(interaction)
        elif interaction.type is discord.InteractionType.component:
            custom_id = str((interaction.data or {}).get("custom_id", ""))
            if not any(t.fullmatch(custom_id) for t in self.component_templates):
                log.info("a component nobody handles: custom_id %r", custom_id[:100])
                await report(interaction, UserError(STALE_BUTTON))

    async def close(self) -> None:
        if self._warm_up is not None:
            self._warm_up.cancel()
        if self.clocks is not None:
            await self.clocks.stop()
        if self.expiry is not None:
            await self.expiry.stop()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None
