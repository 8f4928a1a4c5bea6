"""The group commit's window (issue 26): at a steady rate too low for batches to form while a
commit runs, the committer waits a little for more actions, but never longer than its window
after a batch's first action, and not at all at a trickle."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from duiyi.server.committer import GroupCommitter
from duiyi.server.settings import Settings
from duiyi.server.state import State
from duiyi.store.repository import Append


class InstantStore:
    """A store whose commits take no time: without a window every action is its own batch."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    async def append_many(self, items: list[Append]) -> list[int]:
        self.batches.append(len(items))
        await asyncio.sleep(0)
        return [item.new_version for item in items]


def item(n: int) -> Append:
    return Append(f"g{n}", 0, [{"type": "move", "move": "D4"}], 0.0)


async def steady(committer: GroupCommitter, count: int, gap: float) -> list[int]:
    """``count`` actions of different games, one every ``gap`` seconds; their versions."""

    async def one(n: int) -> int:
        await asyncio.sleep(gap * n)
        return await committer.append(item(n))

    try:
        return await asyncio.gather(*(one(n) for n in range(count)))
    finally:
        await committer.close()


async def test_a_steady_rate_forms_batches_within_the_window() -> None:
    store = InstantStore()
    committer = GroupCommitter(store, window=0.05)  # type: ignore[arg-type]
    assert await steady(committer, 60, 0.002) == [1] * 60  # every action acknowledged
    assert sum(store.batches) == 60
    assert committer.lingered > 0
    assert max(store.batches) > 1  # the window gathered several games into one commit


async def test_no_window_never_waits() -> None:
    store = InstantStore()
    committer = GroupCommitter(store, window=0.0)  # type: ignore[arg-type]
    assert await steady(committer, 30, 0.002) == [1] * 30
    assert committer.lingered == 0
    assert sum(store.batches) == 30


async def test_a_trickle_never_waits() -> None:
    # actions 20 ms apart, a 1 ms window: no other action is expected within it
    store = InstantStore()
    committer = GroupCommitter(store, window=0.001)  # type: ignore[arg-type]
    assert await steady(committer, 15, 0.02) == [1] * 15
    assert committer.lingered == 0


async def test_the_wait_ends_a_window_after_the_batch_s_first_action() -> None:
    committer = GroupCommitter(InstantStore(), window=0.05)  # type: ignore[arg-type]
    committer._gap = 0.001  # a steady rate: another action is expected within the window
    future: Any = asyncio.get_running_loop().create_future()
    committer._queue.append((item(0), future, 10.0))  # the batch's first action came at 10 s
    assert committer._linger_for(10.0) == pytest.approx(0.05)
    assert committer._linger_for(10.03) == pytest.approx(0.02)
    assert committer._linger_for(10.06) == 0.0  # it waited a whole window already
    committer._gap = 0.2  # a trickle: send at once
    assert committer._linger_for(10.0) == 0.0
    committer._gap = 0.001
    committer._queue.extend([(item(n), future, 10.0) for n in range(GroupCommitter.MAX_BATCH)])
    assert committer._linger_for(10.0) == 0.0  # a full batch goes at once


def test_the_window_is_a_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    assert Settings().commit_window == GroupCommitter.WINDOW
    monkeypatch.setenv("DUIYI_COMMIT_WINDOW", "0")
    settings = Settings.from_env(database_url=f"sqlite:///{tmp_path}/w.sqlite3")
    assert settings.commit_window == 0.0
    assert State(settings).games.committer.window == 0.0


class SlowStore:
    """A store whose first commit stalls until released (PostgreSQL under load: a transaction
    that waits for a CPU or for the disk), with ``writers`` connections like Database's."""

    def __init__(self, writers: int, sqlite: bool = False) -> None:
        self.db = type("Db", (), {"WRITERS": writers, "is_sqlite": sqlite})()
        self.release = asyncio.Event()
        self.batches: list[list[str]] = []

    async def append_many(self, items: list[Append]) -> list[int]:
        self.batches.append([i.game_id for i in items])
        if len(self.batches) == 1:
            await self.release.wait()
        return [item.new_version for item in items]


@pytest.mark.parametrize(("writers", "sqlite"), [(2, False), (2, True)], ids=["pg", "sqlite"])
async def test_a_batch_is_sent_while_another_is_in_flight(writers: int, sqlite: bool) -> None:
    # issue 33 (the acknowledgement's time): a move waited in the queue behind a stalled
    # transaction of other games, then for its own. With two writer connections (PostgreSQL)
    # the next batch goes at once and is acknowledged first; SQLite has one writer.
    store = SlowStore(writers, sqlite)
    committer = GroupCommitter(store, window=0.0)  # type: ignore[arg-type]
    try:
        first = asyncio.create_task(committer.append(item(1)))
        await asyncio.sleep(0.01)
        second = asyncio.create_task(committer.append(item(2)))
        await asyncio.sleep(0.05)
        if sqlite:
            assert store.batches == [["g1"]] and not second.done()  # waits for the first
        else:
            assert store.batches == [["g1"], ["g2"]]
            assert second.done() and not first.done()  # not held behind the stalled one
        store.release.set()
        assert await first == 1 and await second == 1
    finally:
        await committer.close()
