"""The posts of a game whose buttons act on its play (a decision, a takeback request):
kept until the buttons are removed, so that a game that ends, even while the bot is
down, leaves none that still look clickable."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.database import Connection, Statement, query
from bot.storage.queries.games import on_shards


def add_button_post_statement(game_id: int, channel_id: int, message_id: int) -> Statement:
    return (
        "INSERT INTO button_posts (message_id, game_id, channel_id) VALUES (?, ?, ?)"
        " ON CONFLICT (message_id) DO NOTHING",
        (message_id, game_id, channel_id),
    )


def drop_button_post_statement(message_id: int) -> Statement:
    return "DELETE FROM button_posts WHERE message_id = ?", (message_id,)


@query
async def button_posts_of_game(conn: Connection, game_id: int) -> list[tuple[int, int]]:
    """(channel id, message id) of the game's posts with buttons, oldest first."""
    return [
        (row[0], row[1])
        for row in await conn.fetch_all(
            "SELECT channel_id, message_id FROM button_posts WHERE game_id = ? ORDER BY message_id",
            (game_id,),
        )
    ]


@query
async def button_posts_of_ended_games(
    conn: Connection,
    after: int = 0,
    limit: int = 500,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
) -> list[tuple[int, int, int]]:
    """(game id, channel id, message id) of posts with buttons of games that are over,
    a page at a time (message ids above ``after``); with ``shard_ids`` of
    ``shard_count``, only those of the servers on these shards."""
    shards, args = on_shards("games.guild_id", shard_count, shard_ids)
    return [
        (row[0], row[1], row[2])
        for row in await conn.fetch_all(
            "SELECT button_posts.game_id, button_posts.channel_id, button_posts.message_id"
            " FROM button_posts JOIN games ON games.id = button_posts.game_id"
            f" WHERE games.status <> 'active' AND button_posts.message_id > ?{shards}"
            " ORDER BY button_posts.message_id LIMIT ?",
            (after, *args, limit),
        )
    ]
