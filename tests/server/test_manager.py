"""The game manager in-process: hosting, forgetting finished games, reloading them."""

from __future__ import annotations

from pathlib import Path

from duiyi import BLACK
from duiyi.server.games import GameManager
from duiyi.store import Database, Repository


async def test_finished_games_leave_memory_and_come_back(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    db.migrate()
    manager = GameManager(Repository(db), "p-test")
    try:
        live, _ = await manager.create({"game": "go", "size": 9})
        done, _ = await manager.create({"game": "go", "size": 9})
        await done.act(BLACK, "resign", {})
        assert await manager.sweep(idle_seconds=0) == 1
        assert set(manager.hosts) == {live.id}
        # the store keeps it: asking for it loads it again, with its result (Go §7 resignation)
        again = await manager.get(done.id)
        assert again.view()["outcome"]["termination"] == "resignation"
        assert again.version == 1
        # a live game stays, however idle; the reloaded finished one goes again
        assert await manager.sweep(idle_seconds=0) == 1
        assert set(manager.hosts) == {live.id}
    finally:
        await manager.close()
        await db.dispose()
