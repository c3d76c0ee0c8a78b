"""The languages servers and members speak (issue 30): Discord's locales as last seen,
and a member's choice (``/settings language``)."""

from __future__ import annotations

from bot.storage.database import Connection, Statement, query


@query
async def guild_locales(conn: Connection) -> dict[int, str]:
    """Every server's locale, as last seen."""
    rows = await conn.fetch_all("SELECT guild_id, locale FROM guild_locales")
    return {int(row[0]): str(row[1]) for row in rows}


def set_guild_locale_statement(guild_id: int, locale: str) -> Statement:
    return (
        "INSERT INTO guild_locales (guild_id, locale) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale",
        (guild_id, locale),
    )


@query
async def member_locale(conn: Connection, member_id: int) -> tuple[str | None, str | None]:
    """(the member's locale at their last interaction, the language they chose); None
    for what is not known or not chosen."""
    row = await conn.fetch_one(
        "SELECT locale, chosen FROM member_locales WHERE member_id = ?", (member_id,)
    )
    return (None, None) if row is None else (row[0], row[1])


def set_member_locale_statement(member_id: int, locale: str) -> Statement:
    return (
        "INSERT INTO member_locales (member_id, locale) VALUES (?, ?)"
        " ON CONFLICT (member_id) DO UPDATE SET locale = excluded.locale",
        (member_id, locale),
    )


def choose_member_language_statement(member_id: int, chosen: str | None) -> Statement:
    return (
        "INSERT INTO member_locales (member_id, chosen) VALUES (?, ?)"
        " ON CONFLICT (member_id) DO UPDATE SET chosen = excluded.chosen",
        (member_id, chosen),
    )
