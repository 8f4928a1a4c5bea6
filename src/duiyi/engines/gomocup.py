"""Drive Gomoku AI "brains" over the Gomocup (Piskvork) pipe protocol.

This is an adapter (it starts processes and reads the monotonic clock); the decisions of a
refereed game live in the pure :mod:`duiyi.gomoku.match`. The shape follows python-chess's
``chess.engine``: an asyncio protocol object (:class:`GomocupEngine`, started with
:meth:`GomocupEngine.popen`, on the shared :class:`~duiyi.engines.protocol.EngineProtocol`)
and the small synchronous facade for scripts (:class:`duiyi.engines.sync.SimpleGomocupEngine`).
Refereed games between two brains are :mod:`duiyi.engines.gomocup_match`.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Final

from duiyi import BLACK
from duiyi.engines.process import LineProcess, launch
from duiyi.engines.protocol import EngineProtocol, Limits, PlayResult
from duiyi.errors import (
    EngineCrashed,
    EngineError,
    EngineProtocolError,
    EngineRefusal,
    EngineTimeout,
    InvalidInput,
    InvalidPoint,
)
from duiyi.gomoku.point import Point

__all__ = [
    "DEFAULT_SIZE",
    "BoardField",
    "EngineCrashed",
    "EngineLine",
    "EngineProtocolError",
    "EngineRefusal",
    "EngineTimeout",
    "GomocupEngine",
    "GomocupMove",
    "GomocupRule",
    "parse_about",
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


class GomocupEngine(EngineProtocol):
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
        super().__init__(line)
        self.size = DEFAULT_SIZE
        self.messages: list[EngineLine] = []
        self.on_line = on_line
        #: True once the brain has seen this game's board (after its first answer)
        self._synced = False

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
    def command(self) -> tuple[str, ...]:
        """The command line the brain was started with (:attr:`argv`)."""
        return self.argv

    @property
    def name(self) -> str:
        """A short label for reports: the program, or the script an interpreter runs
        (:attr:`label`)."""
        return self.label

    async def close(self) -> int | None:
        """``END`` (:meth:`end`); the exit status."""
        return await self.end()

    async def end(self, *, grace: float = 1.0) -> int | None:
        """Send ``END`` and wait up to ``grace`` seconds for the brain to exit, then kill it.

        Returns the exit status. Safe to call on a brain that already died.
        """
        if self.line.returncode is None:
            with contextlib.suppress(EngineError):
                await self._send("END")
            await self.line.wait(grace)
        return await self.kill()

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
        self._synced = False

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
        self._synced = False
        return True

    async def play(self, position: Any, limits: Limits | None = None) -> PlayResult[GomocupMove]:
        """The move of ``position``'s side to move (the protocol base's :meth:`play`).
        ``position`` has ``moves``, the stones in the order played, Black first, and
        ``to_move`` (a :class:`~duiyi.gomoku.match.MoveJudge`). The time left of ``limits`` is
        sent as ``INFO time_left`` (milliseconds); then an empty board asks ``BEGIN``, a brain
        that has not seen this game yet gets the whole position with ``BOARD`` (in move order,
        as renju requires), and otherwise ``TURN`` with the opponent's last stone; the answer
        is waited for ``limits.timeout`` seconds. Gomocup tells the position with the
        question itself, so its errors are the question's (a brain answers no pass, no
        resignation, no swap here: only stones).

        >>> Limits(timeout=1.0, time_left=0.5).time_left
        0.5
        """
        limits = limits or Limits()
        moves, color = list(position.moves), position.to_move
        if limits.time_left is not None:
            await self.info("time_left", round(limits.time_left * 1000))
        if not moves:
            answer = await self.begin(timeout=limits.timeout)
        elif not self._synced and len(moves) > 1:
            own = 0 if color is BLACK else 1  # Black's stones are the even ones
            stones = [
                (p, BoardField.OWN if i % 2 == own else BoardField.OPPONENT)
                for i, p in enumerate(moves)
            ]
            answer = await self.board(stones, timeout=limits.timeout)
        else:
            answer = await self.turn(GomocupMove.from_book(moves[-1]), timeout=limits.timeout)
        self._synced = True
        return PlayResult(answer, self.last_elapsed)

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
