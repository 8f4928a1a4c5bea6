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

import os
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from duiyi.errors import InvalidInput

__all__ = ["DEFAULT_URL", "Database", "normalise_url", "sync_url"]

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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Database:
    """An async engine plus a session factory, created from a URL.

    >>> db = Database("sqlite:///:memory:")  # doctest: +SKIP
    """

    #: PostgreSQL ends a session left idle inside a transaction this long (seconds): a process
    #: paused (SIGSTOP) or cut off between two statements of a commit cannot hold a game's row
    #: lock for longer, so another process can take the game over (docs/server.md).
    IDLE_IN_TRANSACTION = 10.0

    def __init__(self, url: str | None = None, *, idle_in_transaction: float | None = None) -> None:
        raw = url or os.environ.get("DUIYI_DATABASE_URL") or DEFAULT_URL
        self.url = normalise_url(raw)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            path = self.url.split(":///", 1)[1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {}
        if not self.is_sqlite:
            idle = self.IDLE_IN_TRANSACTION if idle_in_transaction is None else idle_in_transaction
            kwargs.update(
                pool_size=20,
                max_overflow=20,
                pool_pre_ping=True,
                connect_args={
                    "options": f"-c idle_in_transaction_session_timeout={round(idle * 1000)}"
                },
            )
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    def session(self) -> AsyncSession:
        """A new ORM session (use as ``async with db.session() as s``)."""
        return self.sessions()

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (synchronous; call before serving)."""
        from duiyi.store.migrate import upgrade

        upgrade(sync_url(self.url))

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()
