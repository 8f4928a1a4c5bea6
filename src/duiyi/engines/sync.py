"""The one synchronous facade: an asyncio engine driven from blocking code, as python-chess's
``SimpleEngine`` drives its ``Protocol``.

:class:`BackgroundLoop` runs an event loop in a daemon thread; :meth:`BackgroundLoop.run` hands
it a coroutine and blocks until the answer. :class:`SimpleEngine` owns one loop and one
:class:`~duiyi.engines.protocol.EngineProtocol` (start behind the loop, close, ``with``
blocks); its protocol facades (:class:`SimpleGtpEngine`, :class:`SimpleGomocupEngine`) spell
out every method they offer (no attribute forwarding), so that type checkers and readers see
exactly what a script can call.

>>> async def answer() -> int:
...     return 42
>>> with BackgroundLoop("demo") as loop:
...     loop.run(answer())
42
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from fractions import Fraction
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from duiyi import Color
from duiyi.engines.gomocup import DEFAULT_SIZE, BoardField, EngineLine, GomocupEngine, GomocupMove
from duiyi.engines.gtp import DEFAULT_TIMEOUT, GtpEngine, GtpMove
from duiyi.engines.protocol import EngineProtocol
from duiyi.errors import EngineError
from duiyi.go import Game, Point
from duiyi.gomoku.point import Point as GomokuPoint

__all__ = ["BackgroundLoop", "SimpleEngine", "SimpleGomocupEngine", "SimpleGtpEngine"]

_T = TypeVar("_T")
P = TypeVar("P", bound=EngineProtocol)


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


class SimpleEngine(Generic[P]):
    """A blocking facade over one engine protocol: the asyncio engine (:attr:`engine`, for
    anything the facade does not offer) runs on a private :class:`BackgroundLoop`.

    >>> SimpleEngine.started  # doctest: +ELLIPSIS
    <bound method SimpleEngine.started of <class '...SimpleEngine'>>
    """

    def __init__(self, engine: P, loop: BackgroundLoop) -> None:
        self.engine = engine
        self._loop = loop

    @classmethod
    def started(cls, start: Callable[[], Coroutine[Any, Any, P]], name: str) -> Self:
        """The facade of the engine ``start()`` makes, on a new loop thread called ``name``
        (the thread stops again if the engine does not start)."""
        loop = BackgroundLoop(name)
        try:
            engine = loop.run(start())
        except BaseException:
            loop.close()
            raise
        return cls(engine, loop)

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended, else ``None``."""
        return self.engine.returncode

    def _closing(self, goodbye: Coroutine[Any, Any, int | None]) -> int | None:
        if self._loop.closed:
            goodbye.close()
            return self.engine.returncode
        try:
            return self._loop.run(goodbye)
        finally:
            self._loop.close()

    def close(self) -> int | None:
        """End the engine politely (:meth:`EngineProtocol.close`), reap it and stop the
        background loop; the exit status. Idempotent."""
        return self._closing(self.engine.close())

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class SimpleGtpEngine(SimpleEngine[GtpEngine]):
    """Blocking facade over :class:`GtpEngine` (its event loop runs in a background thread).

    Every method is spelled out here; :attr:`engine` is the asyncio engine for anything else.

    >>> SimpleGtpEngine.popen  # doctest: +ELLIPSIS
    <bound method SimpleGtpEngine.popen of <class '...SimpleGtpEngine'>>
    """

    @classmethod
    def popen(
        cls, argv: str | Sequence[str], *, timeout: float | None = DEFAULT_TIMEOUT
    ) -> SimpleGtpEngine:
        """Start an engine process (see :meth:`GtpEngine.popen`)."""
        return cls.started(lambda: GtpEngine.popen(argv, timeout=timeout), "duiyi-gtp-engine")

    def quit(self) -> None:
        """Quit the engine and stop the background loop (:meth:`close`)."""
        self.close()

    @property
    def size(self) -> int:
        """Board size the engine was last told."""
        return self.engine.size

    def command(self, name: str, *args: object, timeout: float | None = None) -> str:
        """Send a raw command (see :meth:`GtpEngine.command`)."""
        return self._loop.run(self.engine.command(name, *args, timeout=timeout))

    def protocol_version(self) -> str:
        """The engine's GTP version."""
        return self._loop.run(self.engine.protocol_version())

    def name(self) -> str:
        """The engine's name."""
        return self._loop.run(self.engine.name())

    def version(self) -> str:
        """The engine's version text."""
        return self._loop.run(self.engine.version())

    def list_commands(self) -> frozenset[str]:
        """The commands the engine knows."""
        return self._loop.run(self.engine.list_commands())

    def known_command(self, name: str) -> bool:
        """Whether the engine knows ``name``."""
        return self._loop.run(self.engine.known_command(name))

    def boardsize(self, size: int) -> None:
        """Set the board size."""
        self._loop.run(self.engine.boardsize(size))

    def clear_board(self) -> None:
        """Empty the board."""
        self._loop.run(self.engine.clear_board())

    def komi(self, komi: Fraction | float | int | str) -> None:
        """Set komi in points."""
        self._loop.run(self.engine.komi(komi))

    def play(self, color: Color | str, point: Point | str | None) -> None:
        """Play a move."""
        self._loop.run(self.engine.play_move(color, point))

    def genmove(self, color: Color | str, *, timeout: float | None = None) -> GtpMove:
        """Ask the engine for a move."""
        return self._loop.run(self.engine.genmove(color, timeout=timeout))

    def reg_genmove(self, color: Color | str, *, timeout: float | None = None) -> GtpMove:
        """Ask for a move without playing it."""
        return self._loop.run(self.engine.reg_genmove(color, timeout=timeout))

    def undo(self) -> None:
        """Take back the last move."""
        self._loop.run(self.engine.undo())

    def showboard(self) -> str:
        """The engine's own board diagram."""
        return self._loop.run(self.engine.showboard())

    def fixed_handicap(self, stones: int) -> list[Point]:
        """Place fixed handicap stones."""
        return self._loop.run(self.engine.fixed_handicap(stones))

    def place_free_handicap(self, stones: int) -> list[Point]:
        """Let the engine choose free handicap stones."""
        return self._loop.run(self.engine.place_free_handicap(stones))

    def set_free_handicap(self, points: Iterable[Point | str]) -> None:
        """Place Black handicap stones."""
        self._loop.run(self.engine.set_free_handicap(list(points)))

    def final_score(self, *, timeout: float | None = None) -> str:
        """The engine's score ("B+3.5")."""
        return self._loop.run(self.engine.final_score(timeout=timeout))

    def final_status_list(self, status: str, *, timeout: float | None = None) -> list[Point]:
        """Stones with a status according to the engine."""
        return self._loop.run(self.engine.final_status_list(status, timeout=timeout))

    def is_legal(self, color: Color | str, point: Point | str) -> bool:
        """GNU Go's ``is_legal``."""
        return self._loop.run(self.engine.is_legal(color, point))

    def list_stones(self, color: Color | str) -> frozenset[Point]:
        """GNU Go's ``list_stones``."""
        return self._loop.run(self.engine.list_stones(color))

    def time_settings(self, main_time: int, byo_yomi_time: int, byo_yomi_stones: int) -> None:
        """Send GTP ``time_settings``."""
        self._loop.run(self.engine.time_settings(main_time, byo_yomi_time, byo_yomi_stones))

    def time_left(self, color: Color | str, seconds: int, stones: int) -> None:
        """Send GTP ``time_left``."""
        self._loop.run(self.engine.time_left(color, seconds, stones))

    def set_position(self, game: Game) -> None:
        """Mirror a game on the engine."""
        self._loop.run(self.engine.set_position(game))


class SimpleGomocupEngine(SimpleEngine[GomocupEngine]):
    """A blocking wrapper for scripts: the asyncio engine runs in a background thread.

    >>> import sys
    >>> script = "import sys; print('OK', flush=True); sys.stdin.readline()"
    >>> with SimpleGomocupEngine.popen([sys.executable, "-c", script]) as engine:
    ...     engine.start(15)
    """

    @classmethod
    def popen(
        cls,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> SimpleGomocupEngine:
        """Start a brain (see :meth:`GomocupEngine.popen`) behind a private event loop thread."""
        return cls.started(lambda: GomocupEngine.popen(command, cwd=cwd, env=env), "duiyi-gomocup")

    @property
    def messages(self) -> list[EngineLine]:
        """The MESSAGE/DEBUG/ERROR/UNKNOWN lines received so far."""
        return self.engine.messages

    def start(self, size: int = DEFAULT_SIZE, *, timeout: float | None = 10.0) -> None:
        """Blocking :meth:`GomocupEngine.start`."""
        self._loop.run(self.engine.start(size, timeout=timeout))

    def restart(self, *, timeout: float | None = 10.0) -> bool:
        """Blocking :meth:`GomocupEngine.restart`."""
        return self._loop.run(self.engine.restart(timeout=timeout))

    def info(self, key: str, value: int | str) -> None:
        """Blocking :meth:`GomocupEngine.info`."""
        self._loop.run(self.engine.info(key, value))

    def configure(self, **settings: Any) -> None:
        """Blocking :meth:`GomocupEngine.configure`."""
        self._loop.run(self.engine.configure(**settings))

    def begin(self, *, timeout: float | None = None) -> GomocupMove:
        """Blocking :meth:`GomocupEngine.begin`."""
        return self._loop.run(self.engine.begin(timeout=timeout))

    def turn(
        self, move: GomocupMove | GomokuPoint | str, *, timeout: float | None = None
    ) -> GomocupMove:
        """Blocking :meth:`GomocupEngine.turn`."""
        return self._loop.run(self.engine.turn(move, timeout=timeout))

    def board(
        self,
        stones: Iterable[tuple[GomocupMove | GomokuPoint | str, BoardField | int]],
        *,
        timeout: float | None = None,
    ) -> GomocupMove:
        """Blocking :meth:`GomocupEngine.board`."""
        return self._loop.run(self.engine.board(list(stones), timeout=timeout))

    def about(self, *, timeout: float | None = 10.0) -> dict[str, str]:
        """Blocking :meth:`GomocupEngine.about`."""
        return self._loop.run(self.engine.about(timeout=timeout))

    def end(self, *, grace: float = 1.0) -> int | None:
        """Send ``END`` (waiting up to ``grace`` seconds), reap the process and stop the
        background loop; the exit status (:meth:`close` waits 1 s)."""
        return self._closing(self.engine.end(grace=grace))
