"""A database that stops taking writes while the bot runs (its disk full, its file made
read-only): the member whose move it was is told plainly that the move was not saved
and why, nothing changes, the operator gets one clear log line, and the game goes on
once the disk is fixed."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.model import Member, UserError
from bot.storage import Connection, Database, Query, WriteFailed, queries
from bot.ui.errors import message_for
from tests.bot.conftest import ANA, BO, GUILD, Env, start_game


async def fill_up(conn: Connection) -> None:
    """Let the file grow no more, then fill the moves table's last pages to the brim
    with another game's moves: the next move needs a page there is no room for."""
    (pages,) = await conn.fetch_one("PRAGMA page_count")
    await conn.fetch_one(f"PRAGMA max_page_count = {pages + 2}")
    (game_id,) = await conn.fetch_one("SELECT MAX(id) FROM games")
    ply = 1000
    for size in (3000, 300, 30, 1):
        while True:
            ply += 1
            try:
                await conn.change(
                    "INSERT INTO moves (game_id, ply, move, seat, member_id,"
                    " played_at) VALUES (?, ?, ?, 0, 0, '')",
                    (game_id, ply, "x" * size),
                )
            except sqlite3.OperationalError as error:
                assert "full" in str(error)
                break


async def make_room(conn: Connection) -> None:
    await conn.change("DELETE FROM moves WHERE ply > 1000")
    await conn.fetch_one("PRAGMA max_page_count = 1073741823")


async def refused_move(env: Env, game_id: int) -> str:
    row = await env.games.get_game(GUILD, game_id)
    state = await env.games.state_of(row)
    member = ANA if row.player_ids[state.to_move] == ANA.id else BO
    tables, posts = await env.dump(), len(env.poster.sent)
    with pytest.raises(UserError) as refused:
        await env.moves.play_move(
            guild_id=GUILD, game_id=game_id, member=member, text=state.legal_moves()[0]
        )
    assert await env.dump() == tables and len(env.poster.sent) == posts
    return refused.value.message


async def moves_of(db: Database, game_id: int) -> int:
    async with db.reading() as conn:
        return len(await queries.moves_of_game(conn, game_id))


async def test_a_full_disk_refuses_the_move_in_plain_words(env: Env, caplog) -> None:
    game_id = await start_game(env, "astralis", size=7)
    await start_game(env, "lifeline", size=3, challenger=BO, opponent=ANA)  # the filler's
    await env.db.read(Query("fill up", fill_up))
    with caplog.at_level(logging.ERROR, logger="bot.storage"):
        said = await refused_move(env, game_id)
    assert said.startswith("Your move `") and "was **not saved**: the disk is full." in said
    assert "try again in a moment" not in said
    [line] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "the disk is full" in line.getMessage() and line.exc_info is None

    await env.db.read(Query("make room", make_room))
    row = await env.games.get_game(GUILD, game_id)
    state = await env.games.state_of(row)
    member = Member(row.player_ids[state.to_move], "")
    update = await env.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=member, text=state.legal_moves()[0]
    )
    assert update.state.ply == 1 and await moves_of(env.db, game_id) == 1


async def test_a_read_only_database_refuses_the_move_in_plain_words(env: Env) -> None:
    game_id = await start_game(env, "astralis", size=7)
    await env.db.read(Query("read-only", lambda conn: conn.change("PRAGMA query_only = ON")))
    said = await refused_move(env, game_id)
    assert "was **not saved**: the database file is read-only." in said


async def test_any_other_write_that_fails_is_answered_too(env: Env) -> None:
    """Not only moves: whatever could not be stored is answered in the same words."""
    await env.db.read(Query("read-only", lambda conn: conn.change("PRAGMA query_only = ON")))
    with pytest.raises(WriteFailed) as failed:
        await start_game(env, "astralis", size=7)
    said = message_for(failed.value)
    assert said is not None and said.startswith(
        "That was **not saved**: the database file is read-only."
    )
