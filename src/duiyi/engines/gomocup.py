"""Drive Gomoku AI "brains" over the Gomocup (Piskvork) pipe protocol.

This is an adapter (it starts processes and reads the monotonic clock); the decisions of a
refereed game live in the pure :mod:`duiyi.gomoku.match`. The shape follows python-chess's
``chess.engine``: an asyncio protocol object (:class:`GomocupEngine`, started with
:meth:`GomocupEngine.popen`) and a small synchronous facade for scripts
(:class:`SimpleGomocupEngine`).

Coordinates
-----------
Gomocup numbers points from zero: ``x`` is the column counted from the left, ``y`` the row
counted **from the top**. The rulebook (Gomoku §1) names columns ``a``-``o`` from the left and rows
``1``-``15`` **from the bottom**, with ``h8`` at the centre. So on a board of size ``n``::

    column letter  = "abcdefghijklmno..."[x]
    row number     = n - y

>>> GomocupMove.from_book("h8")        # the centre is the same point either way
GomocupMove(7, 7)
>>> GomocupMove.from_book("a1"), GomocupMove.from_book("o15")
(GomocupMove(0, 14), GomocupMove(14, 0))
>>> GomocupMove(0, 0).to_book()        # Gomocup's origin is the book's top-left corner
'a15'

Protocol in one paragraph
-------------------------
Every line ends with CR LF from us; the brain may end lines with CR, LF or CR LF, and empty lines
are ignored. ``START n`` answers ``OK`` (or ``ERROR msg``); ``INFO key value`` has no answer;
``BEGIN`` (play first on an empty board), ``TURN x,y`` (the opponent's move) and
``BOARD`` ... ``DONE`` (a whole position, one ``x,y,field`` line per stone, field 1 = own stone,
2 = opponent's, 3 = winning-line/forbidden marker of the continuous game) all answer ``x,y``;
``RESTART`` answers ``OK`` (or ``UNKNOWN`` from old brains); ``ABOUT`` answers one line of
``key="value"`` pairs; ``END`` asks the brain to exit. Before (or instead of) an answer a brain
may send ``MESSAGE``, ``DEBUG``, ``ERROR`` or ``UNKNOWN`` lines; the first two are collected in
:attr:`GomocupEngine.messages`, the last two refuse the command (:class:`EngineRefusal`).
``SUGGEST x,y`` is answered with ``PLAY x,y`` (as Gomocup does) and the echoed move is the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import TracebackType
from typing import IO, Any, Final

from duiyi import BLACK, WHITE, Color
from duiyi.clock import Absolute, MultiPeriod, PlayerTime, Stage, TimeSystem
from duiyi.engines.process import LineProcess, engine_label, launch, launch_or_error
from duiyi.engines.score import MatchScore
from duiyi.engines.sync import BackgroundLoop
from duiyi.errors import (
    EngineCrashed,
    EngineError,
    EngineProtocolError,
    EngineRefusal,
    EngineTimeout,
    InvalidInput,
    InvalidPoint,
)
from duiyi.gomoku.match import (
    ARTICLES,
    Ending,
    Failure,
    GameRecord,
    MoveJudge,
    ScheduledGame,
    TimeControl,
    forfeit,
    schedule,
)
from duiyi.gomoku.point import Point
from duiyi.gomoku.rules import RenjuRules
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee import Referee
from duiyi.tournament.results import GameResult

__all__ = [
    "DEFAULT_SIZE",
    "BoardField",
    "EngineCrashed",
    "EngineLine",
    "EngineProtocolError",
    "EngineRefusal",
    "EngineTimeout",
    "GameClock",
    "GomocupEngine",
    "GomocupMove",
    "GomocupRule",
    "MatchTally",
    "SimpleGomocupEngine",
    "parse_about",
    "play_game",
    "play_match",
    "run_game",
    "run_match",
]

DEFAULT_SIZE: Final = 15
_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"
_MOVE_RE: Final = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_BOOK_RE: Final = re.compile(r"^\s*([a-zA-Z])\s*(\d{1,2})\s*$")


# --------------------------------------------------------------------------------------------
# values


class BoardField(enum.IntEnum):
    """The third number of a ``BOARD`` line: whose stone it is, from the receiving brain's view.

    >>> BoardField(2).name
    'OPPONENT'
    """

    OWN = 1
    OPPONENT = 2
    WINNING = 3  # continuous game only: part of a winning line, or forbidden under renju


class GomocupRule(enum.IntFlag):
    """The ``INFO rule`` bitmask. ``0`` is freestyle gomoku (five or more wins).

    >>> int(GomocupRule.RENJU), int(GomocupRule.EXACT_FIVE | GomocupRule.CONTINUOUS)
    (4, 3)
    """

    FREESTYLE = 0
    EXACT_FIVE = 1  # exactly five in a row wins; an overline does not
    CONTINUOUS = 2  # play goes on after a five (stones marked with field 3)
    RENJU = 4  # renju: Black's forbidden moves (Gomoku §2.19)
    CARO = 8  # caro: a five blocked at both ends does not win


@dataclass(frozen=True)
class GomocupMove:
    """A point in Gomocup coordinates: ``x`` from the left, ``y`` from the top, both from 0.

    >>> m = GomocupMove.parse("7, 6")
    >>> m, str(m), m.to_book()
    (GomocupMove(7, 6), '7,6', 'h9')
    >>> GomocupMove.from_book(m.to_book()) == m
    True
    """

    x: int
    y: int

    @classmethod
    def parse(cls, text: str) -> GomocupMove:
        """Read the protocol's ``x,y`` (spaces around the comma are forgiven).

        >>> GomocupMove.parse("hello")
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidPoint: not a Gomocup move: 'hello' (expected x,y)
        """
        match = _MOVE_RE.match(text)
        if match is None:
            raise InvalidPoint(f"not a Gomocup move: {text!r} (expected x,y)")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def from_book(cls, point: object, size: int = DEFAULT_SIZE) -> GomocupMove:
        """Convert the book's name of a point (``"h8"``, Gomoku §1) to Gomocup coordinates.

        Anything whose ``str()`` is such a name (e.g. a ``duiyi.gomoku.Point``) is accepted.

        >>> GomocupMove.from_book("H8"), GomocupMove.from_book("a15")
        (GomocupMove(7, 7), GomocupMove(0, 0))
        >>> GomocupMove.from_book("p1")
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidPoint: 'p1' is not on a 15x15 board (columns a-o, rows 1-15; Gomoku §1)
        """
        _check_size(size)
        text = str(point)
        match = _BOOK_RE.match(text)
        if match is not None:
            x = _LETTERS.index(match.group(1).lower())
            row = int(match.group(2))
            if x < size and 1 <= row <= size:
                return cls(x, size - row)
        last = _LETTERS[size - 1]
        raise InvalidPoint(
            f"{text!r} is not on a {size}x{size} board (columns a-{last}, rows 1-{size}; Gomoku §1)"
        )

    def to_book(self, size: int = DEFAULT_SIZE) -> str:
        """The book's name of this point (column letter, row counted from the bottom).

        >>> GomocupMove(14, 14).to_book(), GomocupMove(19, 0).to_book(size=20)
        ('o1', 't20')
        """
        _check_size(size)
        if not self.on_board(size):
            raise InvalidPoint(f"{self} is off a {size}x{size} board (Gomocup x,y from 0)")
        return f"{_LETTERS[self.x]}{size - self.y}"

    def on_board(self, size: int = DEFAULT_SIZE) -> bool:
        """True when both coordinates lie in ``0 .. size-1``.

        >>> GomocupMove(15, 3).on_board(), GomocupMove(15, 3).on_board(20)
        (False, True)
        """
        return 0 <= self.x < size and 0 <= self.y < size

    def __str__(self) -> str:
        return f"{self.x},{self.y}"

    def __repr__(self) -> str:
        return f"GomocupMove({self.x}, {self.y})"


def _check_size(size: int) -> None:
    if not 5 <= size <= len(_LETTERS):
        raise InvalidInput(f"board size {size} is not supported (5-{len(_LETTERS)})")


@dataclass(frozen=True)
class EngineLine:
    """A line the brain sent besides its answers: ``MESSAGE``, ``DEBUG``, ``ERROR``, ``UNKNOWN``.

    >>> EngineLine("MESSAGE", "I will win", 0.25).text
    'I will win'
    """

    kind: str
    text: str
    at: float  # monotonic seconds since the engine was started


_INFO_LINE_KINDS: Final = ("MESSAGE", "DEBUG")
_REFUSAL_KINDS: Final = ("ERROR", "UNKNOWN")
_ABOUT_RE: Final = re.compile(r'\s*([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"\s*,?')


def parse_about(line: str) -> dict[str, str]:
    """Read an ``ABOUT`` answer: ``key="value"`` pairs separated by commas.

    Old brains answer free text; then the whole line is returned under ``"name"``.

    >>> parse_about('name="SomeBrain", version="1.0", author="Nymand", country="USA"')
    {'name': 'SomeBrain', 'version': '1.0', 'author': 'Nymand', 'country': 'USA'}
    >>> parse_about("Pisq 5 by somebody")
    {'name': 'Pisq 5 by somebody'}
    """
    found: dict[str, str] = {}
    pos = 0
    text = line.strip()
    while pos < len(text):
        match = _ABOUT_RE.match(text, pos)
        if match is None:
            break
        found[match.group(1).lower()] = match.group(2)
        pos = match.end()
    if not found or text[pos:].strip():
        return {"name": text} if not found else {**found, "extra": text[pos:].strip()}
    return found


# --------------------------------------------------------------------------------------------
# the asyncio protocol manager


class GomocupEngine:
    """One running brain, spoken to over its stdin/stdout.

    Start it with :meth:`popen`; every command is a coroutine. ``timeout`` arguments are seconds
    (``None`` waits forever); an answer that does not come in time raises
    :class:`EngineTimeout` and leaves the brain running (the caller usually :meth:`kill`\\ s it).
    :attr:`last_elapsed` holds the monotonic seconds from sending the last move command
    (``BEGIN``/``TURN``/``BOARD``) to its answer, for a referee's clock.

    >>> import asyncio, sys
    >>> async def demo() -> str:
    ...     script = "import sys; print('OK', flush=True); sys.stdin.readline()"
    ...     engine = await GomocupEngine.popen([sys.executable, "-c", script])
    ...     await engine.start(15)
    ...     await engine.kill()
    ...     return "started"
    >>> asyncio.run(demo())
    'started'
    """

    def __init__(
        self,
        line: LineProcess,
        *,
        on_line: Callable[[EngineLine], None] | None = None,
    ) -> None:
        self.line = line
        self.size = DEFAULT_SIZE
        self.messages: list[EngineLine] = []
        self.on_line = on_line
        self.last_elapsed = 0.0

    # -- lifecycle ------------------------------------------------------------------------

    @classmethod
    async def popen(
        cls,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stderr: int | IO[Any] | None = asyncio.subprocess.DEVNULL,
        on_line: Callable[[EngineLine], None] | None = None,
        group: bool = False,
    ) -> GomocupEngine:
        """Start a brain. A string command is split like a shell would (``shlex``); with
        ``group`` it leads its own process group (killed whole, see ``LineProcess.start``).

        Nothing is sent yet; call :meth:`start` next. A command that cannot be executed raises
        :class:`EngineCrashed`.
        """

        async def greet(line: LineProcess) -> GomocupEngine:
            return cls(line, on_line=on_line)

        return await launch(command, greet, cwd=cwd, env=env, stderr=stderr, group=group)

    @classmethod
    async def open(
        cls,
        command: str | Sequence[str],
        size: int = DEFAULT_SIZE,
        *,
        timeout: float | None = 10.0,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stderr: int | IO[Any] | None = asyncio.subprocess.DEVNULL,
        on_line: Callable[[EngineLine], None] | None = None,
    ) -> GomocupEngine:
        """Start a brain and send ``START size`` (:meth:`popen`, then :meth:`start`): the
        brain, ready to play; a brain that does not answer ``OK`` is killed and the error
        raised (:class:`EngineRefusal`, :class:`EngineTimeout`, :class:`EngineCrashed`).
        """

        async def greet(line: LineProcess) -> GomocupEngine:
            engine = cls(line, on_line=on_line)
            await engine.start(size, timeout=timeout)
            return engine

        return await launch(command, greet, cwd=cwd, env=env, stderr=stderr)

    @property
    def process(self) -> asyncio.subprocess.Process:
        """The brain's process."""
        return self.line.process

    @property
    def command(self) -> tuple[str, ...]:
        """The command line the brain was started with."""
        return self.line.argv

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended, else ``None``."""
        return self.line.returncode

    @property
    def name(self) -> str:
        """A short label for reports: the program, or the script an interpreter runs."""
        return self.line.name

    @property
    def suspended(self) -> bool:
        """True while the brain is stopped with ``SIGSTOP`` (:meth:`suspend`)."""
        return self.line.suspended

    async def __aenter__(self) -> GomocupEngine:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.end()

    async def end(self, *, grace: float = 1.0) -> int | None:
        """Send ``END`` and wait up to ``grace`` seconds for the brain to exit, then kill it.

        Returns the exit status. Safe to call on a brain that already died.
        """
        if self.line.returncode is None:
            with contextlib.suppress(EngineError):
                await self._send("END")
            await self.line.wait(grace)
        return await self.kill()

    def suspend(self) -> bool:
        """Stop the brain's process (``SIGSTOP``) so it cannot think on the opponent's time.

        Gomocup forbids pondering; a referee suspends a brain between its turns. Returns False
        where signals are not available (Windows) or the process has ended. Commands and
        :meth:`end`/:meth:`kill` resume it first.
        """
        return self.line.suspend()

    def resume(self) -> None:
        """Let a suspended brain run again (``SIGCONT``)."""
        self.line.resume()

    async def kill(self) -> int | None:
        """Kill the process at once (if it still runs) and reap it; returns the exit status."""
        return await self.line.kill()

    # -- commands -------------------------------------------------------------------------

    async def start(self, size: int = DEFAULT_SIZE, *, timeout: float | None = 10.0) -> None:
        """``START size``: the brain sets up an empty board and must answer ``OK``.

        A brain that answers ``ERROR`` (e.g. it only plays on 20x20) raises
        :class:`EngineRefusal`.
        """
        _check_size(size)
        await self._send(f"START {size}")
        await self._expect_ok(f"START {size}", timeout)
        self.size = size

    async def restart(self, *, timeout: float | None = 10.0) -> bool:
        """``RESTART``: a new empty board of the same size. False if the brain does not know it.

        (Old brains answer ``UNKNOWN``; a manager then ends and restarts the process.)
        """
        await self._send("RESTART")
        try:
            await self._expect_ok("RESTART", timeout)
        except EngineRefusal as exc:
            if exc.kind == "UNKNOWN":
                return False
            raise
        return True

    async def info(self, key: str, value: int | str) -> None:
        """``INFO key value`` (no answer is expected). Keys are checked for spaces only.

        Known keys: ``timeout_turn``, ``timeout_match``, ``time_left`` (milliseconds),
        ``max_memory`` (bytes), ``game_type`` (0 human, 1 brain, 2 tournament, 3 network),
        ``rule`` (a :class:`GomocupRule` bitmask), ``folder``.
        """
        if not key or any(c.isspace() for c in key) or "\n" in str(value) or "\r" in str(value):
            raise InvalidInput(f"bad INFO key or value: {key!r} {value!r}")
        if isinstance(value, enum.Enum):
            value = int(value.value)
        await self._send(f"INFO {key} {value}")

    async def configure(
        self,
        *,
        timeout_turn: int | None = None,
        timeout_match: int | None = None,
        time_left: int | None = None,
        max_memory: int | None = None,
        game_type: int | None = None,
        rule: GomocupRule | int | None = None,
        folder: str | None = None,
    ) -> None:
        """Send the given ``INFO`` lines (times in milliseconds, memory in bytes)."""
        items: list[tuple[str, int | str | None]] = [
            ("timeout_turn", timeout_turn),
            ("timeout_match", timeout_match),
            ("max_memory", max_memory),
            ("game_type", game_type),
            ("rule", int(rule) if rule is not None else None),
            ("folder", folder),
            ("time_left", time_left),
        ]
        for key, value in items:
            if value is not None:
                await self.info(key, value)

    async def begin(self, *, timeout: float | None = None) -> GomocupMove:
        """``BEGIN``: play the first move on the empty board."""
        await self._send("BEGIN")
        return await self._expect_move("BEGIN", timeout)

    async def turn(
        self, move: GomocupMove | Point | str, *, timeout: float | None = None
    ) -> GomocupMove:
        """``TURN x,y``: tell the opponent's move (Gomocup move or the book's ``"h8"``)."""
        gm = self._coerce(move)
        await self._send(f"TURN {gm}")
        return await self._expect_move(f"TURN {gm}", timeout)

    async def board(
        self,
        stones: Iterable[tuple[GomocupMove | Point | str, BoardField | int]],
        *,
        timeout: float | None = None,
    ) -> GomocupMove:
        """``BOARD`` ... ``DONE``: give a whole position and ask for a move.

        ``stones`` are ``(point, field)`` pairs **in the order the moves were played** (required
        under renju); the field is 1 for the receiving brain's own stones, 2 for the opponent's.
        """
        lines = ["BOARD"]
        for point, fld in stones:
            try:
                code = BoardField(int(fld))
            except ValueError:
                raise InvalidInput(f"a BOARD field is 1, 2 or 3, not {fld!r}") from None
            lines.append(f"{self._coerce(point)},{int(code)}")
        lines.append("DONE")
        await self._send_many(lines)
        return await self._expect_move("BOARD", timeout)

    async def about(self, *, timeout: float | None = 10.0) -> dict[str, str]:
        """``ABOUT``: the brain's name, version, author... as a dict (see :func:`parse_about`)."""
        await self._send("ABOUT")
        kind, text = await self._answer("ABOUT", timeout)
        if kind in _REFUSAL_KINDS:
            raise EngineRefusal("ABOUT", kind, text)
        return parse_about(text)

    # -- plumbing ---------------------------------------------------------------------------

    def _coerce(self, move: GomocupMove | Point | str) -> GomocupMove:
        gm = move if isinstance(move, GomocupMove) else GomocupMove.from_book(move, self.size)
        if not gm.on_board(self.size):
            raise InvalidPoint(f"{gm} is off the {self.size}x{self.size} board")
        return gm

    async def _send(self, line: str) -> None:
        await self._send_many([line])

    async def _send_many(self, lines: Sequence[str]) -> None:
        await self.line.send(lines, eol="\r\n")

    async def _next_line(self, command: str, deadline: float | None) -> str:
        while True:
            line = (await self.line.readline(command, deadline=deadline)).strip()
            if line:
                return line

    async def _answer(self, command: str, timeout: float | None) -> tuple[str, str]:
        """Skip MESSAGE/DEBUG lines; return (keyword or "", rest) of the first other line."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            line = await self._next_line(command, deadline)
            word, _, rest = line.partition(" ")
            kind = word.upper()
            if kind in _INFO_LINE_KINDS or kind in _REFUSAL_KINDS:
                note = EngineLine(kind, rest.strip(), time.monotonic() - self.line.born)
                self.messages.append(note)
                if self.on_line is not None:
                    self.on_line(note)
                if kind in _INFO_LINE_KINDS:
                    continue
                return kind, rest.strip()
            if kind in ("OK", "SUGGEST"):
                return kind, rest.strip()
            return "", line

    async def _expect_ok(self, command: str, timeout: float | None) -> None:
        kind, text = await self._answer(command, timeout)
        if kind in _REFUSAL_KINDS:
            raise EngineRefusal(command, kind, text)
        if kind != "OK":
            raise EngineProtocolError(f"engine {self.name} answered {text!r} to {command}")

    async def _expect_move(self, command: str, timeout: float | None) -> GomocupMove:
        # the brain's time runs from the moment its command is written (as Piskvork measures),
        # never from before: what the manager does before writing is not the brain's time
        sent = self.line.last_sent
        deadline = None if timeout is None else sent + timeout
        try:
            kind, text = await self._answer(command, timeout)
            if kind == "SUGGEST":
                # Gomocup's manager always accepts the suggestion: PLAY it and read the echo.
                suggested = self._parse_move(command, text)
                await self._send(f"PLAY {suggested}")
                left = None if deadline is None else deadline - time.monotonic()
                kind, text = await self._answer(f"PLAY {suggested}", left)
        finally:
            self.last_elapsed = time.monotonic() - sent
        if kind in _REFUSAL_KINDS:
            raise EngineRefusal(command, kind, text)
        if kind:
            raise EngineProtocolError(f"engine {self.name} answered {kind} {text} to {command}")
        return self._parse_move(command, text)

    def _parse_move(self, command: str, text: str) -> GomocupMove:
        try:
            return GomocupMove.parse(text)
        except InvalidPoint:
            raise EngineProtocolError(
                f"engine {self.name} answered {text!r} to {command} (expected x,y)"
            ) from None


# --------------------------------------------------------------------------------------------
# the synchronous facade


class SimpleGomocupEngine:
    """A blocking wrapper for scripts: the asyncio engine runs in a background thread.

    >>> import sys
    >>> script = "import sys; print('OK', flush=True); sys.stdin.readline()"
    >>> with SimpleGomocupEngine.popen([sys.executable, "-c", script]) as engine:
    ...     engine.start(15)
    """

    def __init__(self, engine: GomocupEngine, loop: BackgroundLoop) -> None:
        self.engine = engine
        self._loop = loop

    @classmethod
    def popen(
        cls,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> SimpleGomocupEngine:
        """Start a brain (see :meth:`GomocupEngine.popen`) behind a private event loop thread."""
        loop = BackgroundLoop("duiyi-gomocup")
        try:
            engine = loop.run(GomocupEngine.popen(command, cwd=cwd, env=env))
        except BaseException:
            loop.close()
            raise
        return cls(engine, loop)

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

    def turn(self, move: GomocupMove | Point | str, *, timeout: float | None = None) -> GomocupMove:
        """Blocking :meth:`GomocupEngine.turn`."""
        return self._loop.run(self.engine.turn(move, timeout=timeout))

    def board(
        self,
        stones: Iterable[tuple[GomocupMove | Point | str, BoardField | int]],
        *,
        timeout: float | None = None,
    ) -> GomocupMove:
        """Blocking :meth:`GomocupEngine.board`."""
        return self._loop.run(self.engine.board(list(stones), timeout=timeout))

    def about(self, *, timeout: float | None = 10.0) -> dict[str, str]:
        """Blocking :meth:`GomocupEngine.about`."""
        return self._loop.run(self.engine.about(timeout=timeout))

    def close(self, *, grace: float = 1.0) -> int | None:
        """Send ``END``, reap the process and stop the background loop; returns the exit status."""
        if self._loop.closed:
            return self.engine.returncode
        try:
            return self._loop.run(self.engine.end(grace=grace))
        finally:
            self._loop.close()

    def __enter__(self) -> SimpleGomocupEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# --------------------------------------------------------------------------------------------
# refereed games between two brains


_label = engine_label


async def _launch(
    command: str | Sequence[str], size: int, timeout: float
) -> GomocupEngine | EngineError:
    return await launch_or_error(GomocupEngine.open(command, size, timeout=timeout))


# --------------------------------------------------------------------------------------------
# the clock of an engine game


class GameClock:
    """Both brains' thinking time in one game, on the shared clock's time systems.

    The move limit is the one-move stage of :class:`duiyi.clock.MultiPeriod` (读秒, Gomoku
    §8.2: each move within ``turn_ms``), the game limit :class:`duiyi.clock.Absolute` (单一时限,
    §8.2: one side's moves within ``match_ms``); each side keeps its own
    :class:`~duiyi.clock.PlayerTime` in each. The adapter measures; :meth:`charge` decides,
    with limits compared in whole milliseconds. A move is late only past its limit plus
    ``tolerance_ms`` (exactly on the limit is in time); a late side loses (§10.1(3)B).

    >>> clock = GameClock(TimeControl(turn_ms=100, tolerance_ms=20))
    >>> clock.budget_ms(WHITE)
    120
    >>> clock.charge(WHITE, 115) is None  # within the tolerance
    True
    >>> clock.used_ms[WHITE], clock.charge(BLACK, 121).termination.value
    (115, 'time')
    """

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.used_ms: dict[Color, int] = {BLACK: 0, WHITE: 0}
        self.moves: dict[Color, int] = {BLACK: 0, WHITE: 0}
        self._turn: TimeSystem | None = None
        self._game: TimeSystem | None = None
        if control.turn_ms is not None:
            self._turn = MultiPeriod((Stage(control.turn_ms / 1000, 1),), carry_over=False)
        if control.match_ms is not None:
            self._game = Absolute(control.match_ms / 1000)
        self._state: dict[tuple[Color, str], PlayerTime] = {}
        for color in (BLACK, WHITE):
            for key, system in (("turn", self._turn), ("game", self._game)):
                if system is not None:
                    self._state[color, key] = system.initial()

    def _limit_ms(self, color: Color, key: str) -> int | None:
        system = self._turn if key == "turn" else self._game
        if system is None:
            return None
        return round(system.flag_after(self._state[color, key]) * 1000)

    def time_left_ms(self, color: Color) -> int | None:
        """What is left of ``color``'s game limit (never below 0), ``None`` when unlimited."""
        return self._limit_ms(color, "game")

    def budget_ms(self, color: Color) -> int | None:
        """How long the referee waits for ``color``'s next move before ruling, tolerance included.

        >>> c = GameClock(TimeControl(turn_ms=1000, match_ms=1500, tolerance_ms=50))
        >>> c.charge(BLACK, 1000); c.budget_ms(BLACK), c.budget_ms(WHITE)
        (550, 1050)
        """
        limits = [
            v for v in (self._limit_ms(color, "turn"), self.time_left_ms(color)) if v is not None
        ]
        if not limits:
            return None
        return min(limits) + self.control.tolerance_ms

    def charge(self, color: Color, elapsed_ms: int) -> Outcome | None:
        """Record a move that took ``elapsed_ms``; the outcome if that broke a limit, else None.

        The move limit is checked first, then the game limit (Gomoku §8.2); either way the side
        over time loses (§10.1(3)B).

        >>> c = GameClock(TimeControl(match_ms=1000, tolerance_ms=0))
        >>> c.charge(WHITE, 600), c.charge(WHITE, 401).winner
        (None, Color.BLACK)
        """
        if elapsed_ms < 0:
            raise InvalidInput(f"elapsed time cannot be negative: {elapsed_ms} ms")
        tol = self.control.tolerance_ms
        late = False
        for key, system in (("turn", self._turn), ("game", self._game)):
            limit = self._limit_ms(color, key)
            if system is None or limit is None:
                continue
            late = late or elapsed_ms > limit + tol
            self._state[color, key] = system.spend(self._state[color, key], elapsed_ms / 1000)
        self.used_ms[color] += elapsed_ms
        self.moves[color] += 1
        return self.overtime(color) if late else None

    def overtime(self, color: Color) -> Outcome:
        """The outcome when ``color`` is out of time (Gomoku §8.2, §10.1(3)B).

        >>> GameClock(TimeControl(turn_ms=10)).overtime(BLACK).winner
        Color.WHITE
        """
        return Outcome.win(color.opponent, Termination.TIME, ARTICLES["time"])

    def describe_overtime(self, color: Color, elapsed_ms: int | None = None) -> str:
        """A human line saying which limit ``color`` broke (``elapsed_ms``: the last move's time,
        ``None`` when no move came at all).

        >>> c = GameClock(TimeControl(turn_ms=300, match_ms=1000, tolerance_ms=0))
        >>> c.describe_overtime(WHITE)
        'white did not move within the 300 ms move limit'
        >>> _ = c.charge(BLACK, 900); c.describe_overtime(BLACK)
        'black used up the 1000 ms game limit'
        >>> c.describe_overtime(WHITE, 450)
        'white took 450 ms, over the 300 ms move limit'
        """
        turn = self.control.turn_ms
        tol = self.control.tolerance_ms
        if elapsed_ms is not None and turn is not None and elapsed_ms > turn + tol:
            return f"{color} took {elapsed_ms} ms, over the {turn} ms move limit"
        left = self.time_left_ms(color)
        if left is not None and (elapsed_ms is not None or turn is None or left < turn):
            return f"{color} used up the {self.control.match_ms} ms game limit"
        return f"{color} did not move within the {turn} ms move limit"


def _rule(judge: MoveJudge, ledger: Referee, color: Color, failure: Failure, reason: str) -> Ending:
    """A brain's failure, ruled through the shared referee ledger: a crash, a refusal
    (``ERROR``/``UNKNOWN``) or a brain that cannot start withdraws from the game (Gomoku
    §10.1(3)D); an unreadable answer or a point off the board breaks the rules of play
    (§10.1(3)G, §4.2)."""
    if failure in (Failure.CRASH, Failure.REFUSAL, Failure.START):
        entry = ledger.withdrawal(color, note=reason)
    else:
        entry = ledger.forfeit(color, forfeit(color, failure).article, note=reason)
    assert entry.outcome is not None
    return judge.end(entry.outcome, reason)


async def play_game(
    black: str | Sequence[str],
    white: str | Sequence[str],
    *,
    opening: Sequence[str | Point] = (),
    opening_name: str | None = None,
    rules: RenjuRules | None = None,
    time_control: TimeControl | None = None,
    number: int = 1,
    names: tuple[str, str] | None = None,
    start_timeout: float = 10.0,
    rule: GomocupRule | None = None,
    max_memory: int | None = None,
    suspend_idle: bool = False,
) -> GameRecord:
    """Play one refereed game between two brains (fresh processes) and return its record.

    ``opening`` lists the stones already on the board (Black first, e.g. a designated opening's
    three stones); each brain receives the position with ``BOARD`` (in move order) when it is
    first asked to move. With an empty opening Black gets ``BEGIN`` and White ``TURN``, as in
    Piskvork. Afterwards each brain gets ``TURN`` with the opponent's move.

    Each move's time is measured here with the monotonic clock, from writing the command to
    reading the answer, and judged by :class:`GameClock`; a brain that does
    not answer within its budget is ruled out of time at once and killed. The time a brain
    needs to start (``START``) is not charged but limited to ``start_timeout`` seconds.

    ``rules`` (default: :meth:`RenjuRules.chinese_2013` with an opening, :meth:`RenjuRules.free`
    on an empty board) are judged by :class:`~duiyi.gomoku.match.MoveJudge`; ``rule`` is the
    ``INFO rule`` sent (default: renju when the rules have forbidden moves, else freestyle).
    ``max_memory`` (bytes) is announced with ``INFO max_memory`` but not enforced. With
    ``suspend_idle`` a brain is stopped (``SIGSTOP``) whenever it is not its turn, as Gomocup
    does against pondering.
    """
    control = time_control or TimeControl()
    if rules is None:
        rules = RenjuRules.chinese_2013() if opening else RenjuRules.free()
    judge = MoveJudge(opening, rules=rules)
    ledger = Referee("gomoku")
    clock = GameClock(control)
    labels = names or (_label(black), _label(white))
    commands = {BLACK: black, WHITE: white}
    launched = await asyncio.gather(
        *(_launch(commands[c], DEFAULT_SIZE, start_timeout) for c in (BLACK, WHITE))
    )
    engines: dict[Color, GomocupEngine] = {}
    failures: dict[Color, EngineError] = {}
    for color, item in zip((BLACK, WHITE), launched, strict=True):
        if isinstance(item, GomocupEngine):
            engines[color] = item
        else:
            failures[color] = item
    notes: list[str] = []
    times: list[int] = [0] * len(judge.moves)  # each stone's thinking time; opening stones 0

    def collect(color: Color) -> Callable[[EngineLine], None]:
        def keep(line: EngineLine) -> None:
            if len(notes) < 500:
                notes.append(f"{color} {line.kind} {line.text}")

        return keep

    for color, eng in engines.items():
        keep = collect(color)
        for line in eng.messages:  # what it said while starting
            keep(line)
        eng.on_line = keep

    ruling: Ending | None
    if len(failures) == 2:
        why = "; ".join(f"{c}: {e}" for c, e in failures.items())
        entry = ledger.no_show({BLACK, WHITE}, note=why)  # both absent: both lose (§8.5)
        assert entry.outcome is not None
        ruling = judge.end(entry.outcome, f"neither engine started ({why})")
    elif failures:
        (color, error), *_ = failures.items()
        reason = f"{color} engine did not start: {error}"
        ruling = _rule(judge, ledger, color, Failure.START, reason)
    else:
        ruling = None
        try:
            ruling = await _play_moves(
                engines, judge, ledger, clock, rule, max_memory, suspend_idle, times
            )
        finally:
            await asyncio.gather(*(e.end(grace=0.5) for e in engines.values()))
    if ruling is None:  # pragma: no cover - _play_moves always ends with a ruling
        raise EngineError("the game ended without a ruling")
    return GameRecord(
        number=number,
        black=labels[0],
        white=labels[1],
        opening=opening_name,
        moves=tuple(str(p) for p in judge.moves),
        outcome=ruling.outcome,
        reason=ruling.reason,
        used_ms=(clock.used_ms[BLACK], clock.used_ms[WHITE]),
        messages=tuple(notes),
        move_ms=tuple(times),
    )


async def _play_moves(
    engines: dict[Color, GomocupEngine],
    judge: MoveJudge,
    ledger: Referee,
    clock: GameClock,
    rule: GomocupRule | None,
    max_memory: int | None,
    suspend_idle: bool,
    times: list[int],
) -> Ending:
    control = clock.control
    default_rule = GomocupRule.RENJU if judge.fouls else GomocupRule.FREESTYLE
    info_rule = rule if rule is not None else default_rule
    limits = control.gomocup_info()
    for color, eng in engines.items():
        try:
            await eng.configure(
                timeout_turn=limits.get("timeout_turn"),
                timeout_match=limits.get("timeout_match"),
                max_memory=max_memory,
                game_type=1,
                rule=info_rule,
            )
        except EngineError as exc:  # only a dead pipe can fail here: INFO has no answer
            reason = f"{color} engine exited before play: {exc}"
            return _rule(judge, ledger, color, Failure.CRASH, reason)
        if suspend_idle:
            eng.suspend()
    synced: dict[Color, bool] = {BLACK: False, WHITE: False}
    while True:
        color = judge.to_move
        eng = engines[color]
        left = clock.time_left_ms(color)
        budget = clock.budget_ms(color)
        timeout = None if budget is None else budget / 1000.0
        try:
            if left is not None:
                await eng.info("time_left", left)
            if not judge.moves:
                answer = await eng.begin(timeout=timeout)
            elif not synced[color] and len(judge.moves) > 1:
                stones = [
                    (p, BoardField.OWN if (i % 2 == 0) == (color is BLACK) else BoardField.OPPONENT)
                    for i, p in enumerate(judge.moves)
                ]
                answer = await eng.board(stones, timeout=timeout)
            else:
                answer = await eng.turn(GomocupMove.from_book(judge.moves[-1]), timeout=timeout)
            synced[color] = True
        except EngineTimeout:
            waited = round((time.monotonic() - eng.line.last_sent) * 1000)
            reason = clock.describe_overtime(color)  # which limit bound the wait
            clock.charge(color, waited)
            await eng.kill()
            return judge.overtime(color, reason)
        except EngineCrashed as exc:
            status = f" with status {exc.returncode}" if exc.returncode is not None else ""
            n = len(judge.moves) + 1
            reason = f"{color} engine exited{status} when move {n} was due"
            return _rule(judge, ledger, color, Failure.CRASH, reason)
        except EngineRefusal as exc:
            reason = f"{color} engine refused: {exc}"
            return _rule(judge, ledger, color, Failure.REFUSAL, reason)
        except EngineProtocolError as exc:
            return _rule(judge, ledger, color, Failure.PROTOCOL, f"{color} engine: {exc}")
        # the brain's time: from the end of writing its move command to its answer (Piskvork
        # measures the same way); the INFO lines and the referee's own work are not charged
        elapsed = round(eng.last_elapsed * 1000)
        if suspend_idle:
            eng.suspend()  # no thinking on the opponent's time
        if clock.charge(color, elapsed) is not None:
            return judge.overtime(color, clock.describe_overtime(color, elapsed))
        if not answer.on_board(DEFAULT_SIZE):
            reason = f"{color} answered {answer}, which is off the 15x15 board"
            return _rule(judge, ledger, color, Failure.OFF_BOARD, reason)
        placed = len(judge.moves)
        ruling = judge.play(answer.to_book())
        if len(judge.moves) > placed:  # the stone is on the board (a losing one too)
            times.append(elapsed)
        if ruling is not None:
            return ruling


# --------------------------------------------------------------------------------------------
# the score of a match


@dataclass
class MatchTally:
    """The running score of engine A against engine B, on the tournament's results.

    Each game's :class:`~duiyi.outcome.Outcome` is read as a
    :class:`~duiyi.tournament.results.GameResult` (the same reading an event makes) and
    counted by a :class:`~duiyi.engines.score.MatchScore` (Gomoku §18: win 1, draw ½, loss 0;
    both lost: nothing), which also gives the Elo figures as cutechess-cli prints them.

    >>> from duiyi.outcome import Outcome, Termination
    >>> t = MatchTally("a", "b")
    >>> r = GameRecord(1, "a", "b", None, ("h8",), Outcome.win(BLACK, Termination.FIVE, "x"), "")
    >>> t.add(r, a_is_black=True); (t.wins, t.draws, t.losses), t.score_a
    ((1, 0, 0), Fraction(1, 1))
    """

    a: str
    b: str
    score: MatchScore = field(init=False)
    reasons: Counter[str] = field(default_factory=Counter)
    records: list[GameRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.score = MatchScore(self.a, self.b)

    def add(self, record: GameRecord, *, a_is_black: bool) -> None:
        """Count one finished game."""
        self.records.append(record)
        result = GameResult.from_outcome(record.outcome)
        self.score.add(result, a_is_black=a_is_black)
        a_color = BLACK if a_is_black else WHITE
        term = record.outcome.termination.value
        if record.outcome.result is Result.WIN:
            who = self.a if record.outcome.winner is a_color else self.b
            self.reasons[f"{who} won by {term}"] += 1
        elif record.outcome.result is Result.DRAW:
            self.reasons[f"draw by {term}"] += 1
        else:
            self.reasons[f"{record.outcome.result.value} by {term}"] += 1

    @property
    def wins(self) -> int:
        """Engine A's wins."""
        return self.score.wins

    @property
    def draws(self) -> int:
        """Draws."""
        return self.score.draws

    @property
    def losses(self) -> int:
        """Engine A's losses."""
        return self.score.losses

    @property
    def both_lost(self) -> int:
        """Games both sides lost (or without a result)."""
        return self.score.other

    @property
    def by_colour(self) -> dict[tuple[Color, str], int]:
        """Engine A's results by its colour: ``(colour, "+" | "=" | "-" | "0")`` -> games."""
        return self.score.by_colour

    @property
    def games(self) -> int:
        """Games counted so far."""
        return len(self.records)

    @property
    def score_a(self) -> Fraction:
        """Engine A's points."""
        return self.score.points_a

    @property
    def score_b(self) -> Fraction:
        """Engine B's points."""
        return self.score.points_b

    def summary(self) -> str:
        """The score, engine A's results by colour, each way games ended, then the Elo line.

        >>> print(MatchTally("a", "b").summary())
        a vs b: 0 games, +0 =0 -0 (a 0 : 0 b)
        """

        def pts(x: Fraction) -> str:
            whole, half = divmod(x, 1)
            return f"{whole}½" if half and whole else ("½" if half else f"{whole}")

        head = (
            f"{self.a} vs {self.b}: {self.games} game{'' if self.games == 1 else 's'}, "
            f"+{self.wins} ={self.draws} "
            f"-{self.losses} ({self.a} {pts(self.score_a)} : {pts(self.score_b)} {self.b})"
        )
        if self.both_lost:
            head += f", both lost {self.both_lost}"
        lines = [head]
        if self.games:
            parts = []
            for color in (BLACK, WHITE):
                got = {k: self.by_colour.get((color, k), 0) for k in "+=-"}
                parts.append(f"with {color} +{got['+']} ={got['=']} -{got['-']}")
            lines.append(f"  {self.a} " + ", ".join(parts))
        for reason, n in sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {n:3d}  {reason}")
        if self.games:
            lines.append(f"  {self.score.elo_line()}")
        return "\n".join(lines)


async def play_match(
    engine_a: str | Sequence[str],
    engine_b: str | Sequence[str],
    *,
    games: int = 2,
    openings: Sequence[tuple[str, Sequence[str | Point]]] | None = None,
    rules: RenjuRules | None = None,
    time_control: TimeControl | None = None,
    names: tuple[str, str] | None = None,
    start_timeout: float = 10.0,
    max_memory: int | None = None,
    suspend_idle: bool = False,
    on_game: Callable[[GameRecord, ScheduledGame], None] | None = None,
) -> MatchTally:
    """Play ``games`` refereed games of engine A against engine B, one after another.

    ``openings`` are ``(name, stones)`` pairs; the games follow :func:`~duiyi.gomoku.match.schedule`
    (each opening twice, colours swapped, cycling through the list); ``None`` means an empty
    board with colours alternating. ``rules`` default as in :func:`play_game` (the book's rules
    with openings, the free opening without forbidden moves on an empty board).
    ``on_game`` is called after every game.
    """
    a_name, b_name = names or (_label(engine_a), _label(engine_b))
    if a_name == b_name:
        a_name, b_name = f"{a_name} (A)", f"{b_name} (B)"
    by_name = dict(openings) if openings else {}
    plan = schedule(games, [name for name, _ in openings] if openings else None)
    tally = MatchTally(a_name, b_name)
    for game in plan:
        black, white = (engine_a, engine_b) if game.a_is_black else (engine_b, engine_a)
        labels = (a_name, b_name) if game.a_is_black else (b_name, a_name)
        stones = by_name[game.opening] if game.opening is not None else ()
        record = await play_game(
            black,
            white,
            opening=stones,
            opening_name=game.opening,
            rules=rules,
            time_control=time_control,
            number=game.number,
            names=labels,
            start_timeout=start_timeout,
            max_memory=max_memory,
            suspend_idle=suspend_idle,
        )
        tally.add(record, a_is_black=game.a_is_black)
        if on_game is not None:
            on_game(record, game)
    return tally


def run_game(
    black: str | Sequence[str],
    white: str | Sequence[str],
    **options: Any,
) -> GameRecord:
    """Blocking :func:`play_game` for scripts (runs its own event loop).

    >>> import sys
    >>> from duiyi.gomoku.rules import RenjuRules
    >>> dies = "import sys; print('OK', flush=True); sys.stdin.readline()"   # exits after START
    >>> waits = "import sys; print('OK', flush=True); sys.stdin.read()"
    >>> record = run_game([sys.executable, "-c", dies], [sys.executable, "-c", waits],
    ...                   rules=RenjuRules.free())
    >>> record.outcome.winner, record.outcome.termination.value
    (Color.WHITE, 'forfeit')
    """
    return asyncio.run(play_game(black, white, **options))


def run_match(
    engine_a: str | Sequence[str],
    engine_b: str | Sequence[str],
    **options: Any,
) -> MatchTally:
    """Blocking :func:`play_match` for scripts and the CLI (runs its own event loop)."""
    return asyncio.run(play_match(engine_a, engine_b, **options))
