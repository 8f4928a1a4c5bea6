"""Alembic, configured in code: the migration scripts ship inside the package.

>>> config_for("sqlite:///x.db").get_main_option("script_location")
'duiyi.store:migrations'
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config

__all__ = ["config_for", "upgrade"]


def config_for(url: str) -> Config:
    """An Alembic config for a synchronous database URL."""
    cfg = Config()
    cfg.set_main_option("script_location", "duiyi.store:migrations")
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` on the database at ``url``."""
    command.upgrade(config_for(url), revision)
