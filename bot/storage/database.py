"""The storage's front: the :class:`Database` (one per process), the :class:`Connection`
its transactions and reads hand out, prepared reads (:class:`Query`) and writes
(:data:`Statement`), and the failures callers see.

Two backends stand behind it, chosen by the database's URL
(:func:`bot.storage.backends.open_database`):
SQLite (:mod:`bot.storage.sqlite`, a file: one process) and PostgreSQL
(:mod:`bot.storage.postgres`, a server several processes share). The SQL of the named
queries is written once, in what both accept, with ``?`` placeholders; each backend's
connection adapts the little that differs (PostgreSQL numbers its placeholders; SQLite,
whose write transactions lock the whole file, has no ``FOR UPDATE``).

Nothing outside this package sees a driver: the services hold the handles
:meth:`~Database.transaction` and :meth:`~Database.reading` give them only to pass them
on to the named queries of :mod:`bot.storage.queries`; a broken constraint comes out
as :class:`Conflict`, a write the database or its disk could not make as
:class:`WriteFailed`, a read it could not make as :class:`ReadFailed` (each logged in
one line for the operator where it failed).
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
P = ParamSpec("P")
#: One SQL statement with its parameters, for :meth:`Database.write` and :func:`apply`.
Statement = tuple[str, Sequence[Any]]

#: The URL schemes :func:`bot.storage.open_database` knows.
SQLITE_SCHEME = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Unavailable(Exception):
    """The database cannot be opened or migrated (the message says why)."""


class Conflict(Exception):
    """A write broke a constraint of the database (a second move for the same ply, say);
    nothing of it was kept."""


class WriteFailed(Exception):
    """The database could not make a write (a full disk, a file made read-only, a
    server refusing writes…); nothing of it was kept. ``reason`` says why in plain
    words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ReadFailed(Exception):
    """The database could not be read (a server out of reach, a disk that fails…):
    nothing was changed. ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Row(Protocol):
    """A row read: its values by column name or position, in order when iterated."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Connection(ABC):
    """What a named query may do with the handle it is given. ``sql`` has ``?``
    placeholders for ``args``."""

    @abstractmethod
    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> Sequence[Row]:
        """Every row the query gives."""

    @abstractmethod
    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        """The first row the query gives, or None."""

    @abstractmethod
    async def change(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run an ``INSERT``, ``UPDATE`` or ``DELETE``; the number of rows it changed."""

    @abstractmethod
    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run an ``INSERT`` of one row into a table with an ``id``; that row's id."""

    @abstractmethod
    async def change_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once for each set of arguments."""


@dataclass(frozen=True, slots=True)
class Query(Generic[T_co]):
    """A named read prepared with its arguments, for :meth:`Database.read`: several of
    them are read together, in one trip to SQLite's thread or in one snapshot of
    PostgreSQL."""

    name: str
    run: Callable[[Connection], Awaitable[T_co]]


def query(function: Callable[Concatenate[Connection, P], Awaitable[T]]) -> Callable[P, Query[T]]:
    """Make the named query ``function(conn, *args)`` preparable: ``function(*args)``
    prepares it for :meth:`Database.read`.

    The function may await only its connection's methods: on SQLite it runs to its end
    in the connection's own thread, without an event loop (see
    :func:`bot.storage.sqlite.run_now`)."""

    @functools.wraps(function)
    def prepared(*args: P.args, **kwargs: P.kwargs) -> Query[T]:
        return Query(function.__name__, lambda conn: function(conn, *args, **kwargs))

    return prepared


class Database(ABC):
    """The one owner of the process's database access: open it with
    :func:`bot.storage.open_database`."""

    #: ``"sqlite"`` or ``"postgresql"``.
    backend: str
    #: Where it is (a PostgreSQL URL without its password).
    where: str

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def migrate(self) -> int:
        """Apply the migrations not yet applied, each in its own transaction together
        with the new version number. Returns the resulting version."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """``async with db.transaction() as tx:`` all statements on ``tx`` commit
        together, or none do (a broken constraint: :class:`Conflict`). Rows read with
        ``FOR UPDATE`` stay as read until the commit."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """``async with db.reading() as conn:`` a consistent view for a few reads."""

    @abstractmethod
    async def read_many(self, *prepared: Query[Any]) -> list[Any]:
        """The answers of several prepared queries, in order, read together."""

    @abstractmethod
    async def write(
        self,
        statements: Sequence[Statement],
        *,
        durable: bool = True,
        required: Collection[int] = (),
    ) -> list[int]:
        """Execute ``statements`` as one transaction; the number of rows each changed.
        Any error (a :class:`Conflict`…) rolls all of them back, and so does a statement
        at one of the positions ``required`` that changes no row (a :class:`Conflict`).

        ``durable=False`` skips the wait for the disk at this commit: for what can be
        lost to a power cut without harm (where a board was posted). The transaction
        is still atomic and survives the bot crashing."""

    async def read(self, prepared: Query[T]) -> T:
        """The answer of one prepared query."""
        (answer,) = await self.read_many(prepared)
        return answer


def unchanged(counts: Sequence[int], required: Collection[int]) -> Conflict | None:
    """The :class:`Conflict` of a :meth:`Database.write` whose required statements did
    not all change a row, if so."""
    missing = [index for index in required if not counts[index]]
    return Conflict(f"statements {missing} changed no row") if missing else None


async def apply(tx: Connection, statements: Sequence[Statement]) -> list[int]:
    """Execute prepared statements inside ``tx`` (a :meth:`Database.transaction`); the
    number of rows each changed."""
    return [await tx.change(sql, args) for sql, args in statements]


def parse_url(url: str | Path) -> tuple[str, str]:
    """(``"sqlite"``, the file's path) or (``"postgresql"``, the URL). A bare path is a
    SQLite file; ``sqlite:///data/bot.sqlite3`` is relative, ``sqlite:////srv/bot.sqlite3``
    absolute."""
    text = str(url)
    if text.startswith(POSTGRES_SCHEMES):
        return "postgresql", text
    if text.startswith(SQLITE_SCHEME):
        return "sqlite", text[len(SQLITE_SCHEME) :] or "."
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", text):
        raise Unavailable(
            f"{text.split('://')[0]}:// databases are not supported: use "
            "sqlite:///path or postgresql://user:password@host/database"
        )
    return "sqlite", text
