"""Server settings, from arguments or the environment.

>>> Settings(database_url="sqlite:///x.db").max_body_bytes
65536
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """Everything the server needs to start.

    ``DUIYI_DATABASE_URL`` and ``DUIYI_REDIS_URL`` fill the first two when they are not given;
    ``DUIYI_RATE_PER_SECOND`` sets the per-client rate limit (bursts of four times that).
    """

    database_url: str | None = None
    redis_url: str | None = None
    process_id: str = field(default_factory=lambda: "p-" + secrets.token_hex(6))
    heartbeat_seconds: float = 1.0
    # finished games nobody watches leave memory after this long (they reload on demand)
    idle_seconds: float = 600.0
    max_body_bytes: int = 65536
    rate_per_second: float = 50.0
    rate_burst: int = 200
    demo: bool = False
    tune_gc: bool = True

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings with the environment filling what ``overrides`` leaves out."""
        values: dict[str, object] = {
            "database_url": os.environ.get("DUIYI_DATABASE_URL"),
            "redis_url": os.environ.get("DUIYI_REDIS_URL") or None,
        }
        rate = os.environ.get("DUIYI_RATE_PER_SECOND")
        if rate:
            values["rate_per_second"] = float(rate)
            values["rate_burst"] = max(1, int(float(rate) * 4))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
