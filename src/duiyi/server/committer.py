"""Group commit: the log entries of many games written in one transaction.

Every game host waits for its own entries to be committed before it acknowledges (nothing
acknowledged is ever lost); while one transaction runs, the next batch gathers, so under load
one commit serves many games.

>>> GroupCommitter.MAX_BATCH
256
"""

from __future__ import annotations

import asyncio
import contextlib

from duiyi.store.repository import Append, Repository

__all__ = ["GroupCommitter"]


class GroupCommitter:
    """Batches :class:`~duiyi.store.repository.Append` items into shared transactions."""

    MAX_BATCH = 256

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._queue: list[tuple[Append, asyncio.Future[int]]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def append(self, item: Append) -> int:
        """Commit ``item`` (with whatever else is waiting); its new version, or its error."""
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.create_task(self._run(), name="group-commit")
        assert self._wake is not None
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        self._wake.set()
        return await future

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch = self._queue[: self.MAX_BATCH]
                del self._queue[: self.MAX_BATCH]
                try:
                    results = await self.repo.append_many([item for item, _ in batch])
                except Exception as exc:  # the store is down: every waiter learns it
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    else:
                        future.set_result(result)

    async def close(self) -> None:
        """Stop the writer task (after the hosts stopped sending)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
