"""Group commit: the log entries of many games written in one transaction.

Every game host waits for its own entries to be committed before it acknowledges (nothing
acknowledged is ever lost); while a transaction runs, the next batch gathers, so under load
one commit serves many games. On PostgreSQL two batches may be in flight at once (the store's
two writer connections): a batch no longer waits for a stalled one before it is sent. A game
has at most one action in flight (its host holds the game's lock until the commit), so two
batches never hold the same game.

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
import collections
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
        # seconds each batch's transaction took, and each action waited in the queue before
        # its batch was sent (for /api/metrics: where an acknowledgement's time goes)
        self.spent: collections.deque[float] = collections.deque(maxlen=20_000)
        self.queued: collections.deque[float] = collections.deque(maxlen=20_000)

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

    def _slots(self) -> int:
        """Batches in flight at once: the store's writer connections (PostgreSQL: 2, so that
        the next batch need not wait for the one in flight; SQLite: 1, one writer)."""
        db = getattr(self.repo, "db", None)
        return 1 if db is None or db.is_sqlite else max(1, int(db.WRITERS))

    async def _run(self) -> None:
        assert self._wake is not None
        slots = asyncio.Semaphore(self._slots())
        sending: set[asyncio.Task[None]] = set()
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    await slots.acquire()  # what arrives meanwhile joins this batch
                    linger = self._linger_for(time.monotonic())
                    if linger > 0:
                        self.lingered += 1
                        await asyncio.sleep(linger)
                    batch = self._queue[: self.MAX_BATCH]
                    del self._queue[: self.MAX_BATCH]
                    self.batches += 1
                    task = asyncio.create_task(self._send(batch), name="group-commit batch")
                    sending.add(task)
                    task.add_done_callback(sending.discard)
                    task.add_done_callback(lambda _t: slots.release())
        finally:
            for task in sending:
                task.cancel()

    async def _send(self, batch: list[tuple[Append, asyncio.Future[int], float]]) -> None:
        """Commit one batch; each waiter gets its version or its error."""
        sent = time.monotonic()
        self.queued.extend(sent - arrived for _, _, arrived in batch)
        try:
            results = await self.repo.append_many([item for item, _, _ in batch])
        except Exception as exc:  # the store is down: every waiter learns it
            for _, future, _ in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        self.spent.append(time.monotonic() - sent)
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
