"""Storage adapter: SQLAlchemy 2 models, Alembic migrations and repositories.

SQLite (one file in WAL mode) by default; PostgreSQL through ``DUIYI_DATABASE_URL``. The cores
never import this package.

>>> from duiyi.store import normalise_url
>>> normalise_url("sqlite:///var/duiyi.sqlite3")
'sqlite+aiosqlite:///var/duiyi.sqlite3'
"""

from duiyi.store.db import Database, normalise_url, sync_url
from duiyi.store.repository import Repository, StoredAction, StoredGame

__all__ = ["Database", "Repository", "StoredAction", "StoredGame", "normalise_url", "sync_url"]
