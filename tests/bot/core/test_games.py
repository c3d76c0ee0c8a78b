"""What the games keep in memory stays bounded: positions (the least recently used
dropped first, a finished game's at once) and locks (alive only while in use); a
dropped position is replayed, right, when it is needed again."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref

import pytest

from bot.core.games import Games
from bot.shards import Shards
from bot.storage import queries
from tests.bot.conftest import ANA, BO, GUILD, Env, start_game

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


async def play_some(env: Env, game_id: int, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        row = await env.games.get_game(GUILD, game_id)
        state = await env.games.state_of(row)
        member = ANA if row.player_ids[state.to_move] == ANA.id else BO
        await env.moves.play_move(
            guild_id=GUILD, game_id=game_id, member=member, text=rng.choice(state.legal_moves())
        )


async def test_the_position_cache_keeps_at_most_its_size(env: Env) -> None:
    env.games.cache_size = 3
    rng = random.Random(5)
    games = [await start_game(env, "astralis", size=7) for _ in range(8)]
    for _ in range(3):
        for game_id in games:
            await play_some(env, game_id, 1, rng)
            assert sum(env.games.cached(g) is not None for g in games) <= 3
    # The most recently used are the ones kept; the others are replayed, right, on demand.
    assert [g for g in games if env.games.cached(g) is not None] == games[-3:]
    for game_id in games:
        row = await env.games.get_game(GUILD, game_id)
        state = await env.games.state_of(row)
        async with env.db.reading() as conn:
            stored = tuple(move.move for move in await queries.moves_of_game(conn, game_id))
        assert state.history == stored and state.ply == 3
        assert sum(env.games.cached(g) is not None for g in games) <= 3


async def test_a_finished_games_position_is_dropped(env: Env) -> None:
    game_id = await start_game(env, "astralis", size=7)
    await play_some(env, game_id, 2, random.Random(1))
    assert env.games.cached(game_id) is not None
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    assert env.games.cached(game_id) is None


async def test_locks_live_only_while_in_use(env: Env) -> None:
    games = Games(env.db)
    held = games.lock(1)
    async with held:
        waiter = asyncio.ensure_future(_hold(games, 1))
        await asyncio.sleep(0)
        assert games.lock(1) is held  # the same lock while it is held or awaited
    await waiter
    used = [weakref.ref(await _use(games, game_id)) for game_id in range(2, 1000)]
    gone = weakref.ref(held)
    del held
    gc.collect()
    assert [ref for ref in [*used, gone] if ref() is not None] == []  # none kept


async def _hold(games: Games, game_id: int) -> None:
    async with games.lock(game_id):
        await asyncio.sleep(0)


async def test_the_warm_up_replays_only_the_games_of_this_process_shards(env: Env) -> None:
    """A process on shard 1 of 2 never replays shard 0's games (another process's)."""
    on_shard = {shard: (shard << 22) + 7 for shard in (0, 1)}  # Discord: (id >> 22) % 2
    games = {
        shard: [await start_game(env, "astralis", size=7, guild=guild) for _ in range(2 + shard)]
        for shard, guild in on_shard.items()
    }
    for shard in (0, 1):
        process = Games(env.db, shards=Shards(2, (shard,)))
        assert await process.warm_up() == len(games[shard])
        assert [g for g in games[0] + games[1] if process.cached(g) is not None] == games[shard]
    assert await Games(env.db, shards=Shards(2, None)).warm_up() == 5  # every shard


async def _use(games: Games, game_id: int) -> asyncio.Lock:
    """Take and let go of the game's lock; the lock."""
    lock = games.lock(game_id)
    async with lock:
        pass
    return lock
