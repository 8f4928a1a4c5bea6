"""The fan-out's Redis connections: more publishes at once than the pool holds wait for a
free connection instead of failing (redis-py's default pool raises MaxConnectionsError past
its cap; a forwarded action's reply died that way and its game stalled, issue 26)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from tests.server.conftest import REDIS_URL

from duiyi.server.cluster import fanout


def _redis_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except Exception:
        return False


@pytest.mark.skipif(not _redis_up(), reason=f"no Redis at {REDIS_URL}")
def test_publishes_past_the_pool_cap_wait_for_a_connection(monkeypatch: Any) -> None:
    monkeypatch.setattr(fanout, "REDIS_CONNECTIONS", 2)
    state: Any = SimpleNamespace(settings=SimpleNamespace(process_id="pool-test"))

    async def run() -> list[int]:
        hub = fanout.RedisFanout(REDIS_URL, state)
        try:
            # 40 replies at once through 2 connections: each waits its turn
            return await asyncio.gather(
                *(hub.redis.publish(f"duiyi:reply:pool-test-{i}", "{}") for i in range(40))
            )
        finally:
            await hub.redis.aclose()

    assert asyncio.run(run()) == [0] * 40
