"""PostgreSQL in operation: the pool's size and PgBouncer's mode as set, and reads while
the server is out of reach (a real outage: the connection to the real server cut by a
proxy in between) answered in plain words, logged in one line."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from bot.storage import Database, ReadFailed, open_database, queries
from bot.ui.errors import message_for
from tests.bot.conftest import ANA, BO, GUILD, Env, start_game
from tests.bot.fakes import FakeClock, FakePoster


class Cable:
    """A TCP port on 127.0.0.1 that carries connections to the test server's Unix
    socket, until it is cut (every connection dropped, new ones refused)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        folder = query.pop("host", None)  # the run's own server: a Unix socket
        self.socket = (
            None
            if folder is None
            else next(p for p in Path(folder).glob(".s.PGSQL.*") if p.suffix != ".lock")
        )
        self.server_address = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._parts, self._query = parts, query
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    @property
    def url(self) -> str:
        user = self._parts.netloc.rsplit("@", 1)[0] if "@" in self._parts.netloc else ""
        netloc = f"{user}@127.0.0.1:{self.port}" if user else f"127.0.0.1:{self.port}"
        return urlunsplit(self._parts._replace(netloc=netloc, query=urlencode(self._query)))

    async def connect(self) -> None:
        self._server = await asyncio.start_server(self._carry, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.close()
        await self._server.wait_closed()
        self._server = None

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = (
            await asyncio.open_connection(*self.server_address)
            if self.socket is None
            else await asyncio.open_unix_connection(str(self.socket))
        )
        self._writers |= {writer, server_writer}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, server_writer), pipe(server_reader, writer))
        self._writers -= {writer, server_writer}


async def prepared_statements(db: Database) -> int:
    async with db.reading() as conn:
        row = await conn.fetch_one("SELECT COUNT(*) AS n FROM pg_prepared_statements")
    assert row is not None
    return int(row["n"])


async def test_pgbouncer_mode_keeps_no_prepared_statement_on_a_connection(
    postgres_server,
) -> None:
    """PgBouncer in transaction pooling hands each transaction whichever server
    connection is free: a statement prepared on one is unknown on the next."""
    url = await postgres_server.fresh()
    for pgbouncer, kept in ((False, True), (True, False)):
        db = await open_database(url, pool_size=1, pgbouncer=pgbouncer)  # one connection
        try:
            for _ in range(3):
                await db.read(queries.processes())
                await db.read(queries.oldest_undelivered())
            assert (await prepared_statements(db) > 0) is kept
        finally:
            await db.close()


async def test_reads_while_the_server_is_out_of_reach_get_a_plain_answer(
    postgres_server, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cable = Cable(await postgres_server.fresh())
    await cable.connect()
    db = await open_database(cable.url, pool_size=2)
    env = Env.compose(tmp_path, db, FakePoster(), FakeClock())
    try:
        game_id = await start_game(env, "astralis", size=7)
        await env.outbox.stop()  # its opening board delivered: nothing else at work
        await cable.cut()
        for read in (
            lambda: env.games.list_games(guild_id=GUILD, member_id=ANA.id),  # /games
            lambda: env.games.get_game(GUILD, game_id),  # /move, /board…
            lambda: env.moves.play_move(guild_id=GUILD, game_id=game_id, member=BO, text="a1"),
        ):
            caplog.clear()
            with caplog.at_level(logging.ERROR), pytest.raises(ReadFailed) as failed:
                await read()
            said = message_for(failed.value)
            assert said is not None and said.startswith("That could not be done: the ")
            assert "database server" in said and "Nothing changed." in said
            [line] = [
                r for r in caplog.records if r.levelno >= logging.ERROR and r.name != "asyncpg.pool"
            ]
            assert line.name == "bot.storage.postgres" and line.exc_info is None
            assert "a read from the database" in line.getMessage()
        await cable.connect()  # back: the game goes on
        assert (await env.games.get_game(GUILD, game_id)).id == game_id
    finally:
        await env.outbox.stop()
        await db.close()
        with contextlib.suppress(AssertionError):
            await cable.cut()
