"""Group commit: the log entries of many games written in one transaction.

Every game host waits for its own entries to be committed before it acknowledges (nothing
acknowledged is ever lost); while one transaction runs, the next batch gathers, so under load
one commit serves many games.

At a steady rate too low for batches to form that way (a process of a cluster gets a third of
the moves), the committer may wait a little before it sends a batch: only while actions have
been arriving less than ``2 × window`` seconds apart on average (another one is likely
within the window), and never more than ``window`` after the batch's first action arrived.
So a move's acknowledgement waits at most ``window`` longer, and only when another move is
expected meanwhile; at a trickle nothing waits.

>>> GroupCommitter.MAX_BATCH, GroupCommitter.WINDOW
(256, 0.004)
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from duiyi.store.repository import Append, Repository

__all__ = ["GroupCommitter"]


class GroupCommitter:
    """Batches :class:`~duiyi.store.repository.Append` items into shared transactions."""

    MAX_BATCH = 256
    # the default longest wait for more actions before a batch is sent (seconds; 0: never
    # wait). Settings.commit_window, DUIYI_COMMIT_WINDOW (bench/RESULTS.md, issue 26)
    WINDOW = 0.004
    # weight of the newest gap in the running mean of the gaps between arrivals
    SMOOTHING = 0.1

    def __init__(self, repo: Repository, window: float | None = None) -> None:
        self.repo = repo
        self.window = self.WINDOW if window is None else window
        # (item, its waiter, when it arrived)
        self._queue: list[tuple[Append, asyncio.Future[int], float]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        # running mean of the seconds between two arrivals (long until the rate is known)
        self._gap = 1.0
        self._last: float | None = None
        # batches sent, and how many of them waited for more (for the tests and /api/metrics)
        self.batches = 0
        self.lingered = 0

    async def append(self, item: Append) -> int:
        """Commit ``item`` (with whatever else is waiting); its new version, or its error."""
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.create_task(self._run(), name="group-commit")
        assert self._wake is not None
        now = time.monotonic()
        if self._last is not None:
            self._gap += (min(now - self._last, 1.0) - self._gap) * self.SMOOTHING
        self._last = now
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future, now))
        self._wake.set()
        return await future

    def _linger_for(self, now: float) -> float:
        """How long to wait for more actions before sending the queue (0: send now)."""
        if self.window <= 0 or len(self._queue) >= self.MAX_BATCH or self._gap >= 2 * self.window:
            return 0.0
        return max(0.0, self._queue[0][2] + self.window - now)

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                linger = self._linger_for(time.monotonic())
                if linger > 0:
                    self.lingered += 1
                    await asyncio.sleep(linger)
                batch = self._queue[: self.MAX_BATCH]
                del self._queue[: self.MAX_BATCH]
                self.batches += 1
                try:
                    results = await self.repo.append_many([item for item, _, _ in batch])
                except Exception as exc:  # the store is down: every waiter learns it
                    for _, future, _ in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future, _), result in zip(batch, results, strict=True):
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
