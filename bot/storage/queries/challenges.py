"""Challenges: offered, then accepted (a game), declined, cancelled or expired."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.storage.database import Connection, Statement, query
from bot.storage.queries.games import dump
from bot.storage.rows import ChallengeRow


async def insert_challenge(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int,
    challenger_id: int,
    challenger_name: str,
    opponent_id: int | None,
    opponent_name: str | None,
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    created_at: datetime,
    place: str = "server",
    reply_token: str | None = None,
    reply_until: datetime | None = None,
    link: str | None = None,
) -> int:
    """A pending challenge; ``place`` (see :class:`ChallengeRow`): where its card is."""
    return await conn.insert(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name,"
        " opponent_id, opponent_name, game, options, settings, created_at, place,"
        " reply_token, reply_until, link) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            challenger_id,
            challenger_name,
            opponent_id,
            opponent_name,
            game,
            dump(options),
            dump(settings),
            created_at.isoformat(),
            place,
            reply_token,
            None if reply_until is None else reply_until.isoformat(),
            link,
        ),
    )


async def get_challenge(conn: Connection, challenge_id: int) -> ChallengeRow | None:
    row = await conn.fetch_one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
    return ChallengeRow.from_row(row) if row else None


challenge_by_id = query(get_challenge)


async def find_pending_challenge(
    conn: Connection, *, guild_id: int, challenger_id: int, opponent_id: int | None, game: str
) -> ChallengeRow | None:
    opponent, args = ("IS NULL", ()) if opponent_id is None else ("= ?", (opponent_id,))
    row = await conn.fetch_one(
        f"SELECT * FROM challenges WHERE guild_id = ? AND challenger_id = ? AND opponent_id"
        f" {opponent} AND game = ? AND status = 'pending' ORDER BY id LIMIT 1",
        (guild_id, challenger_id, *args, game),
    )
    return ChallengeRow.from_row(row) if row else None


async def set_challenge_message(conn: Connection, challenge_id: int, message_id: int) -> None:
    await conn.change(
        "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
    )


def set_challenge_message_statement(challenge_id: int, message_id: int) -> Statement:
    return "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)


def set_challenge_card_statement(
    challenge_id: int, *, link: str | None, dm_channel_id: int | None, dm_message_id: int | None
) -> Statement:
    """Where a challenge's card went besides its ``message_id`` (a challenge of no
    server the bot is in): its link, and its copy in the opponent's DMs."""
    return (
        "UPDATE challenges SET link = ?, dm_channel_id = ?, dm_message_id = ? WHERE id = ?",
        (link, dm_channel_id, dm_message_id, challenge_id),
    )


def cancel_unposted_challenge_statement(challenge_id: int) -> Statement:
    """A pending challenge whose message can never be posted is cancelled: nobody
    could see or answer it."""
    return (
        "UPDATE challenges SET status = 'cancelled', closed_at = created_at"
        " WHERE id = ? AND status = 'pending' AND message_id IS NULL",
        (challenge_id,),
    )


async def close_challenge(
    conn: Connection,
    challenge_id: int,
    *,
    status: str,
    closed_at: datetime,
    game_id: int | None = None,
) -> bool:
    """Move a pending challenge to ``status``; False if it was no longer pending."""
    return (
        await conn.change(
            "UPDATE challenges SET status = ?, closed_at = ?, game_id = ?"
            " WHERE id = ? AND status = 'pending'",
            (status, closed_at.isoformat(), game_id, challenge_id),
        )
        == 1
    )


async def pending_challenges_of(
    conn: Connection, guild_id: int, challenger_id: int, *, limit: int = 25
) -> list[ChallengeRow]:
    """The pending challenges a member made in one server, oldest first."""
    rows = await conn.fetch_all(
        "SELECT * FROM challenges WHERE guild_id = ? AND challenger_id = ?"
        " AND status = 'pending' ORDER BY id LIMIT ?",
        (guild_id, challenger_id, limit),
    )
    return [ChallengeRow.from_row(row) for row in rows]


async def pending_challenges_created_by(conn: Connection, cutoff: datetime) -> list[ChallengeRow]:
    """The pending challenges made at ``cutoff`` or before (the ones to expire)."""
    rows = await conn.fetch_all(
        "SELECT * FROM challenges WHERE status = 'pending' AND created_at <= ? ORDER BY id",
        (cutoff.isoformat(),),
    )
    return [ChallengeRow.from_row(row) for row in rows]


async def oldest_pending_challenge(conn: Connection) -> ChallengeRow | None:
    row = await conn.fetch_one(
        "SELECT * FROM challenges WHERE status = 'pending' ORDER BY created_at, id LIMIT 1"
    )
    return ChallengeRow.from_row(row) if row else None
