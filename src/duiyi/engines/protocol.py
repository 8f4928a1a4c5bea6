"""The engine protocol base: what GTP (:class:`~duiyi.engines.gtp.GtpEngine`) and the Gomocup
protocol (:class:`~duiyi.engines.gomocup.GomocupEngine`) share, as python-chess's
``chess.engine.Protocol`` sits above its UCI and XBoard protocols.

An engine is one :class:`~duiyi.engines.process.LineProcess`; the base owns its life cycle (the
process, its label and exit status, suspend and resume, kill, an ``async with`` block that
ends with the protocol's polite :meth:`EngineProtocol.close`), and the thinking time of the last
answer (:attr:`EngineProtocol.last_elapsed`, measured from the end of writing the command, as
Piskvork does). Each protocol adds its commands and its own :meth:`~EngineProtocol.close`
(GTP ``quit``, Gomocup ``END``). The blocking facade over any of them is
:class:`duiyi.engines.sync.SimpleEngine`.

>>> import asyncio, sys
>>> class Echo(EngineProtocol):
...     async def close(self) -> int | None:
...         return await self.kill()
>>> async def demo() -> tuple[bool, bool, bool]:
...     line = await LineProcess.start([sys.executable, "-c", "input()"])
...     async with Echo(line) as engine:
...         running = engine.returncode is None
...     return running, engine.closed, engine.returncode is not None
>>> asyncio.run(demo())
(True, True, True)
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Self

from duiyi.engines.process import LineProcess

__all__ = ["EngineProtocol"]


class EngineProtocol:
    """One engine process spoken to over a line protocol (the subclasses say which)."""

    def __init__(self, line: LineProcess) -> None:
        self.line = line
        #: monotonic seconds from the end of writing the last command to its answer
        self.last_elapsed = 0.0
        self._closed = False

    @property
    def process(self) -> asyncio.subprocess.Process:
        """The engine's process."""
        return self.line.process

    @property
    def argv(self) -> tuple[str, ...]:
        """The command line the engine was started with."""
        return self.line.argv

    @property
    def label(self) -> str:
        """A short name of the engine's command (see :func:`~duiyi.engines.process.engine_label`)."""
        return self.line.name

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended, else ``None``."""
        return self.line.returncode

    @property
    def closed(self) -> bool:
        """True once the engine was closed or killed (or broke: its answers could no longer be
        matched to the commands)."""
        return self._closed

    @property
    def suspended(self) -> bool:
        """True while the engine is stopped with ``SIGSTOP`` (:meth:`suspend`)."""
        return self.line.suspended

    def suspend(self) -> bool:
        """Stop the engine's process (``SIGSTOP``) so it cannot think on the opponent's time
        (Gomocup forbids pondering). False where signals are not available (Windows) or the
        process has ended. Commands, :meth:`close` and :meth:`kill` resume it first."""
        return self.line.suspend()

    def resume(self) -> None:
        """Let a suspended engine run again (``SIGCONT``)."""
        self.line.resume()

    async def kill(self) -> int | None:
        """Kill the process at once (if it still runs) and reap it; the exit status."""
        self._closed = True
        return await self.line.kill()

    async def close(self) -> int | None:
        """End the engine politely (the protocol's goodbye), killing it if it lingers; the exit
        status. Safe on an engine that already died."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
