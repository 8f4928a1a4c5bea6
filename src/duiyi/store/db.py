"""Connecting to the database and migrating it.

``DUIYI_DATABASE_URL`` (or ``--database``) picks the store: ``sqlite:///path.sqlite3`` (default,
WAL mode) or ``postgresql+psycopg://user@host/db``. The server talks to it asynchronously;
migrations run synchronously through Alembic before the server starts.

>>> sync_url("sqlite+aiosqlite:///x.db")
'sqlite:///x.db'
>>> normalise_url("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from duiyi.errors import InvalidInput

__all__ = ["DEFAULT_URL", "Database", "is_outage", "normalise_url", "sync_url"]

DEFAULT_URL = "sqlite:///var/duiyi.sqlite3"


def normalise_url(url: str) -> str:
    """The async driver form of a database URL (aiosqlite for SQLite, psycopg 3 for PostgreSQL)."""
    url = url.strip()
    if url.startswith("sqlite:///") or url.startswith("sqlite+pysqlite:///"):
        return "sqlite+aiosqlite:///" + url.split(":///", 1)[1]
    if url.startswith("sqlite+aiosqlite:///"):
        return url
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith("postgresql+psycopg://"):
        return url
    raise InvalidInput(
        f"unsupported database URL {url!r}: use sqlite:///FILE or postgresql+psycopg://USER@HOST/DB"
    )


def sync_url(url: str) -> str:
    """The synchronous driver form (Alembic migrations)."""
    url = normalise_url(url)
    if url.startswith("sqlite+aiosqlite:///"):
        return "sqlite:///" + url.split(":///", 1)[1]
    return url


#: what SQLite says when the file cannot be written now (another writer, the disk): retryable
_SQLITE_BUSY = ("database is locked", "database is busy", "unable to open database", "disk i/o")


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the store cannot be reached now (PostgreSQL refused, lost or ended
    the connection, is restarting or starting up; SQLite's file is locked): nothing it was asked
    was done for sure, and the same request may be sent again once it is back (the server
    answers 503 with Retry-After). Any other error is a bug and stays one.

    >>> is_outage(ConnectionRefusedError(111, "Connection refused"))
    True
    >>> is_outage(sqlite3.OperationalError("database is locked"))
    True
    >>> is_outage(sqlite3.OperationalError("no such table: games"))
    False
    >>> is_outage(ValueError("bad"))
    False
    """
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:
            return True
        exc = exc.orig if isinstance(exc.orig, BaseException) else exc
    if isinstance(exc, ConnectionError):
        return True
    if isinstance(exc, sqlite3.OperationalError):
        return str(exc).lower().startswith(_SQLITE_BUSY)
    psycopg = sys.modules.get("psycopg")  # an error of psycopg's means psycopg is loaded
    return psycopg is not None and isinstance(
        exc, (psycopg.OperationalError, psycopg.InterfaceError)
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _ping_when_idle(engine: AsyncEngine, idle: float) -> None:
    """Ping a pooled connection at checkout only when it sat unused for ``idle`` seconds; a
    dead one is replaced before it is handed out (DisconnectionError: the pool retries)."""

    def checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    def checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since <= idle:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise DisconnectionError(f"a pooled connection idle for {idle} s is gone") from exc

    event.listen(engine.sync_engine, "checkin", checkin)
    event.listen(engine.sync_engine, "checkout", checkout)


async def _close(conn: Any) -> None:
    """Close a psycopg connection, whatever state it is in."""
    with contextlib.suppress(Exception):
        await conn.close()


class Database:
    """An async engine plus a session factory, created from a URL.

    >>> db = Database("sqlite:///:memory:")  # doctest: +SKIP
    """

    #: PostgreSQL ends a session left idle inside a transaction this long (seconds): a process
    #: paused (SIGSTOP) or cut off between two statements of a commit cannot hold a game's row
    #: lock for longer, so another process can take the game over (docs/server.md).
    IDLE_IN_TRANSACTION = 10.0
    #: the group commit's connection is pinged before a batch after this many idle seconds
    WRITER_IDLE = 2.0
    #: PostgreSQL: the group commit's connections (batches in flight at once)
    WRITERS = 2
    #: a pooled connection is pinged when checked out after this many idle seconds (SQLAlchemy's
    #: pool_pre_ping pings at every checkout: a round trip per request)
    POOL_IDLE = 2.0

    def __init__(self, url: str | None = None, *, idle_in_transaction: float | None = None) -> None:
        raw = url or os.environ.get("DUIYI_DATABASE_URL") or DEFAULT_URL
        self.url = normalise_url(raw)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            path = self.url.split(":///", 1)[1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {}
        self._connect_args: dict[str, Any] = {}
        if not self.is_sqlite:
            idle = self.IDLE_IN_TRANSACTION if idle_in_transaction is None else idle_in_transaction
            self._connect_args = {
                "options": f"-c idle_in_transaction_session_timeout={round(idle * 1000)}"
            }
            kwargs.update(
                pool_size=20,
                max_overflow=20,
                # the most recently used connection first: the busy few stay warm (no ping)
                pool_use_lifo=True,
                connect_args=self._connect_args,
            )
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            _ping_when_idle(self.engine, self.POOL_IDLE)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # PostgreSQL: the group commit's own idle connections, with when each was last used
        # (writer())
        self._writers: list[tuple[Any, float]] = []
        self._writer_slots: Any = None

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[Any]:
        """PostgreSQL only: one of the ``WRITERS`` autocommit psycopg connections of the group
        commit (one batch at a time on each), outside SQLAlchemy's pool: a batch is one
        statement, sent with no BEGIN, COMMIT or checkout ping (psycopg prepares it once it
        has run a few times). With two, the next batch is sent while one is in flight instead
        of waiting for it (bench/RESULTS.md, "Where an acknowledgement's time goes").

        After ``WRITER_IDLE`` seconds unused a connection is pinged before the batch (one that
        died meanwhile is replaced before anything is sent); a connection that fails during a
        batch is dropped, and the next batch opens a new one."""
        import asyncio

        import psycopg

        if self._writer_slots is None:
            self._writer_slots = asyncio.Semaphore(self.WRITERS)
        async with self._writer_slots:
            conn, used = self._writers.pop() if self._writers else (None, 0.0)
            if conn is not None and (
                conn.closed or conn.broken or time.monotonic() - used > self.WRITER_IDLE
            ):
                try:
                    await conn.execute("SELECT 1")
                except psycopg.Error:
                    await _close(conn)
                    conn = None
            if conn is None or conn.closed:
                conn = await psycopg.AsyncConnection.connect(
                    self.conninfo(), autocommit=True, **self._connect_args
                )
            try:
                yield conn
            except psycopg.OperationalError:
                await _close(conn)
                raise
            except Exception:  # refused (a conflict): the connection is as good as before
                self._writers.append((conn, time.monotonic()))
                raise
            except BaseException:  # cancelled mid-statement: its state is unknown
                await _close(conn)
                raise
            self._writers.append((conn, time.monotonic()))

    async def _drop_writers(self) -> None:
        conns, self._writers = self._writers, []
        for conn, _ in conns:
            await _close(conn)

    def conninfo(self) -> str:
        """The URL as libpq takes it (no SQLAlchemy driver name)."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def session(self) -> AsyncSession:
        """A new ORM session (use as ``async with db.session() as s``)."""
        return self.sessions()

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (synchronous; call before serving)."""
        from duiyi.store.migrate import upgrade

        upgrade(sync_url(self.url))

    async def dispose(self) -> None:
        """Close every pooled connection (and the group commit's)."""
        await self._drop_writers()
        await self.engine.dispose()
