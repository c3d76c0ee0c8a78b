"""Which language to speak to whom (issue 30):

- a member's own answers: their ``/settings language``, else their Discord's locale
  (``interaction.locale``);
- posts in a game's thread: the server's locale (``guild_locale``, stored when seen);
- DMs: the member's choice, else their locale at their last interaction.

:class:`Languages` is the service (built by the root; it reads and writes the tables of
``bot.storage.queries.languages``). It is also this process's one registry (the last
started), so that what composes a post finds a server's language without being given
the service: :func:`guild_language` (from memory: the servers of this process are
loaded at start and kept as seen) and :func:`member_language` (read)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.i18n import LOCALES, catalogue_locale
from bot.storage import Database, ReadFailed, WriteFailed, queries

log = logging.getLogger(__name__)

#: ``/settings language``: no choice, the member's Discord's language.
AUTOMATIC = "auto"


class Languages:
    def __init__(self, db: Database) -> None:
        global _registry
        self.db = db
        #: Each server's Discord locale, as last seen (or stored).
        self._guilds: dict[int, str] = {}
        #: Each member's catalogue, as last read or seen by this process (the words of
        #: posts of a game in the members' DMs, composed where nothing is awaited).
        self._members: dict[int, str] = {}
        _registry = self  # the process's one (the last built: the root builds one)

    async def start(self) -> None:
        """Read every server's locale, and be the registry of :func:`guild_language`
        (before the outbox delivers what the last run owed: its posts are worded so)."""
        global _registry
        _registry = self
        try:
            stored = await self.db.read(queries.guild_locales())
        except ReadFailed:
            log.warning("the servers' languages could not be read: English until seen")
            return
        self._guilds = {**stored, **self._guilds}

    def of_guild(self, guild_id: int | None) -> str:
        """The catalogue of a server's posts (English when never seen)."""
        if guild_id is None:
            return "en"
        return catalogue_locale(self._guilds.get(guild_id))

    async def guild_seen(self, guild_id: int | None, locale: str | None) -> None:
        """Remember a server's locale (written only when it changed)."""
        if guild_id is None or not locale or self._guilds.get(guild_id) == locale:
            return
        self._guilds[guild_id] = locale
        try:
            await self.db.write([queries.set_guild_locale_statement(guild_id, locale)])
        except WriteFailed:
            log.warning("the language of server %d could not be stored", guild_id)

    async def member_seen(self, member_id: int, locale: str | None) -> str:
        """The catalogue of a member's own answers (their choice, else ``locale``, their
        Discord's), remembering ``locale`` as their last known one."""
        try:
            known, chosen = await self.db.read(queries.member_locale(member_id))
            if locale and locale != known:
                await self.db.write([queries.set_member_locale_statement(member_id, locale)])
        except (ReadFailed, WriteFailed):
            log.warning("the language of member %d could not be read or stored", member_id)
            return catalogue_locale(locale)
        found = chosen if chosen in LOCALES else catalogue_locale(locale or known)
        self._members[member_id] = found
        return found

    async def of_member(self, member_id: int) -> str:
        """The catalogue of a member's DMs: their choice, else their last known locale
        (English for a member never seen)."""
        try:
            known, chosen = await self.db.read(queries.member_locale(member_id))
        except ReadFailed:
            return self._members.get(member_id, "en")
        found = chosen if chosen in LOCALES else catalogue_locale(known)
        self._members[member_id] = found
        return found

    def known_of_member(self, member_id: int) -> str | None:
        """A member's catalogue as this process last knew it (None: not known yet)."""
        return self._members.get(member_id)

    async def chosen(self, member_id: int) -> str | None:
        """The language a member chose (None: automatic)."""
        _known, chosen = await self.db.read(queries.member_locale(member_id))
        return chosen if chosen in LOCALES else None

    async def choose(self, member_id: int, choice: str | None) -> None:
        """``/settings language``: a catalogue code, or None (automatic)."""
        if choice is not None and choice not in LOCALES:
            raise ValueError(f"no catalogue {choice!r}")
        await self.db.write([queries.choose_member_language_statement(member_id, choice)])
        self._members.pop(member_id, None)  # read again at the next interaction


_registry: Languages | None = None


def guild_language(guild_id: int | None) -> str:
    """The catalogue of a server's posts (English without a registry or when unseen)."""
    return "en" if _registry is None else _registry.of_guild(guild_id)


async def member_language(member_id: int) -> str:
    """The catalogue of a member's DMs (English without a registry)."""
    return "en" if _registry is None else await _registry.of_member(member_id)


def dm_language(member_ids: Sequence[int]) -> str:
    """The catalogue of a post that every one of ``member_ids`` reads in their own DMs
    (a game of the DMs: one text for both players): their language when this process
    knows it, the first known of them when they differ; English when none is known."""
    if _registry is None:
        return "en"
    known = [_registry.known_of_member(m) for m in member_ids]
    found = [k for k in known if k is not None]
    return found[0] if found else "en"
