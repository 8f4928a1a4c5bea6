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

A match asks an engine for a move with one call, :meth:`EngineProtocol.play` (python-chess's
``engine.play(board, limit)``): the position (the game so far), the :class:`Limits` (how long
the answer is waited for, the time left on the clock) in; a :class:`PlayResult` (the move, or
:data:`PASS`, :data:`RESIGN`, :data:`SWAP`, and the thinking time) out. Each protocol tells
the engine what it has not heard yet (GTP ``play``, Gomocup ``BOARD`` or ``TURN``), the time
left (GTP ``time_left``, Gomocup ``INFO time_left``), then asks (``genmove``, ``BEGIN``,
``TURN``). What goes wrong before the question is a :class:`PositionRefused`.

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
import enum
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from duiyi.engines.process import LineProcess
from duiyi.errors import EngineError

__all__ = [
    "PASS",
    "RESIGN",
    "SWAP",
    "EngineProtocol",
    "Limits",
    "PlayResult",
    "PositionRefused",
    "Special",
]

M = TypeVar("M")


class Special(enum.Enum):
    """An answer that is no stone: a pass (Go §2.5, Gomoku §2.21), a resignation (Go §7.2,
    Gomoku §10.1(3)C), taking the other colour (Gomoku §2.9)."""

    PASS = "pass"
    RESIGN = "resign"
    SWAP = "swap"


PASS, RESIGN, SWAP = Special.PASS, Special.RESIGN, Special.SWAP


@dataclass(frozen=True)
class Limits:
    """What one move is allowed: ``timeout``, the seconds its answer is waited for (None: the
    protocol's default); ``time_left``, the seconds left on the mover's clock, told to the
    engine before it is asked (None: an untimed game, nothing told); ``stones``, the moves
    still due in the current overtime period (GTP ``time_left``; 0 in main time).

    >>> Limits(timeout=5.1, time_left=5.0)
    Limits(timeout=5.1, time_left=5.0, stones=0)
    """

    timeout: float | None = None
    time_left: float | None = None
    stones: int = 0


@dataclass(frozen=True)
class PlayResult(Generic[M]):
    """An engine's answer: ``move`` (the protocol's point, or :data:`PASS`, :data:`RESIGN`,
    :data:`SWAP`) and ``elapsed``, its thinking time in seconds (from the end of writing the
    question to the answer, :attr:`EngineProtocol.last_elapsed`).

    >>> PlayResult(RESIGN, 0.25).move is RESIGN
    True
    """

    move: M | Special
    elapsed: float


class PositionRefused(EngineError):
    """The engine failed while it was told the position or the time before it was asked to
    move: ``step`` is ``"move"`` (an earlier move, ``move``), ``"position"`` (the whole game,
    told again) or ``"time_left"``; ``cause`` is the protocol's error (a refusal, a crash ...).
    """

    def __init__(self, step: str, cause: Exception, move: object = None) -> None:
        super().__init__(str(cause))
        self.step = step
        self.cause = cause
        self.move = move


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

    async def play(self, position: Any, limits: Limits | None = None) -> PlayResult[Any]:
        """Tell the engine ``position`` (the game so far, as the protocol needs it: what it has
        not heard yet), then the time left of ``limits``, and ask it for the move of the side
        to move, waiting ``limits.timeout`` seconds. Raises :class:`PositionRefused` for what
        fails before the question, and the protocol's errors (timeout, crash, refusal, an
        unreadable answer) for the question itself."""
        raise NotImplementedError

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
