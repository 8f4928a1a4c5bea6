"""A process's heartbeat and its read of the others' in one call (Repository.beat, issue 26:
every process of a cluster runs it every second, so on PostgreSQL it is one statement on the
group commit's connection, outside SQLAlchemy's pool)."""

from __future__ import annotations

from tests.server.conftest import Backend

from duiyi.store import Database, Repository


async def test_a_beat_stores_this_process_and_reads_the_others(backend: Backend) -> None:
    db = Database(backend.database)
    db.migrate()
    repo = Repository(db)
    try:
        assert await repo.beat("p-1", 10.0, None) == {}  # no read asked for
        await repo.heartbeat("p-2", 9.0)
        await repo.heartbeat("p-3", 4.0)
        # the others that beat at 6.0 or later, as stored before this beat
        assert await repo.beat("p-2", 11.0, 6.0) == {"p-1": 10.0, "p-2": 9.0}
        assert await repo.last_heartbeat("p-2") == 11.0
        assert await repo.heartbeats(0.0) == {"p-1": 10.0, "p-2": 11.0, "p-3": 4.0}
        if backend.name == "postgres":
            # the beats took no pooled connection (their statements bypass SQLAlchemy)
            pool = db.engine.sync_engine.pool
            before = pool.checkedin()
            for n in range(8):  # past psycopg's preparing threshold
                assert "p-2" in await repo.beat("p-1", 20.0 + n, 6.0)
            assert pool.checkedin() == before and pool.checkedout() == 0
    finally:
        await db.dispose()
