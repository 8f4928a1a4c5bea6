"""The one synchronous facade: an asyncio engine driven from blocking code.

:class:`BackgroundLoop` runs an event loop in a daemon thread; :meth:`BackgroundLoop.run` hands
it a coroutine and blocks until the answer. The protocol facades
(:class:`~duiyi.engines.gtp.SimpleGtpEngine`, :class:`~duiyi.engines.gomocup.SimpleGomocupEngine`)
own one each and spell out every method they offer (no attribute forwarding), so that type
checkers and readers see exactly what a script can call.

>>> async def answer() -> int:
...     return 42
>>> with BackgroundLoop("demo") as loop:
...     loop.run(answer())
42
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from duiyi.errors import EngineError

__all__ = ["BackgroundLoop"]

_T = TypeVar("_T")


class BackgroundLoop:
    """An event loop running in its own daemon thread until :meth:`close`."""

    def __init__(self, name: str = "duiyi-engine") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self._thread.start()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran."""
        return self.loop.is_closed()

    def run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        """Run ``coro`` on the loop and wait for its result (its exception is raised here)."""
        if self.loop.is_closed():
            coro.close()
            raise EngineError("engine is closed")
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self) -> None:
        """Stop the loop and join its thread (idempotent)."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()

    def __enter__(self) -> BackgroundLoop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
