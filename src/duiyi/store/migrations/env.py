"""Alembic environment: online migrations against the configured URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool, text

from duiyi.store.models import Base

# the advisory lock of duiyi's migrations (any constant that no other program uses)
LOCK_KEY = 0x64756979  # "duiy"

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connectable = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                # processes started together on a new database migrate one after the other:
                # the lock is held until this transaction commits, and the next process reads
                # the version row only once it has the lock (issue 25, finding 8)
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            context.run_migrations()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
