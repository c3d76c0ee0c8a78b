"""Which language to speak to whom: a member's own answers, a server's posts, DMs, and
/settings language; remembered in the database (both backends)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n.languages import Languages, guild_language, member_language
from bot.storage import open_database

pytestmark = pytest.mark.both_backends

ADA, BO = 101, 102
PARIS, BERLIN = 501, 502


@pytest.fixture
async def db(database_url: Path | str):
    database = await open_database(database_url)
    yield database
    await database.close()


async def test_a_member_is_answered_in_their_discord_language(db) -> None:
    languages = Languages(db)
    assert await languages.member_seen(ADA, "de") == "de"
    assert await languages.member_seen(ADA, "pt-BR") == "pt_BR"
    assert await languages.member_seen(BO, "ko") == "en"  # no Korean catalogue
    assert await languages.member_seen(BO, None) == "en"  # no locale given: the last one
    # DMs: the last locale seen
    assert await languages.of_member(ADA) == "pt_BR"
    assert await languages.of_member(BO) == "en"
    assert await languages.of_member(999) == "en"  # never seen


async def test_settings_language_overrides_the_members_own(db) -> None:
    languages = Languages(db)
    await languages.member_seen(ADA, "de")
    await languages.choose(ADA, "ja")
    assert await languages.member_seen(ADA, "de") == "ja"
    assert await languages.of_member(ADA) == "ja"
    assert await languages.chosen(ADA) == "ja"
    await languages.choose(ADA, None)  # automatic again
    assert await languages.member_seen(ADA, "fr") == "fr"
    assert await languages.chosen(ADA) is None
    with pytest.raises(ValueError):
        await languages.choose(ADA, "xx")
    # a choice made before the member was ever seen
    await languages.choose(BO, "es")
    assert await languages.of_member(BO) == "es"


async def test_a_servers_language_is_remembered_across_a_restart(db) -> None:
    languages = Languages(db)
    await languages.start()
    assert guild_language(PARIS) == "en"  # never seen
    await languages.guild_seen(PARIS, "fr")
    await languages.guild_seen(BERLIN, "de")
    await languages.guild_seen(BERLIN, "es-419")
    assert guild_language(PARIS) == "fr"
    again = Languages(db)
    await again.start()
    assert (again.of_guild(PARIS), again.of_guild(BERLIN)) == ("fr", "es")
    assert guild_language(BERLIN) == "es"
    assert guild_language(None) == "en"
    await again.member_seen(ADA, "ja")
    assert await member_language(ADA) == "ja"
