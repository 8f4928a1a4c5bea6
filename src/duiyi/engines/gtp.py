"""Drive external Go engines over GTP v2, asyncio underneath, with a synchronous facade.

Modelled on python-chess's UCI driver: :meth:`GtpEngine.popen` starts a process (through the
shared :class:`~duiyi.engines.process.LineProcess`) and returns a connected engine; every method
is a coroutine that sends one GTP command and waits for its answer. A failed command (``?``
answer) raises :class:`~duiyi.errors.GtpError`; silence raises
:class:`~duiyi.errors.EngineTimeout`, a crash or a closed pipe
:class:`~duiyi.errors.EngineCrashed`, a broken answer :class:`~duiyi.errors.EngineProtocolError`
(all of them :class:`~duiyi.errors.EngineError`; after any of them the process is killed, since
its answers could no longer be matched to our commands).

>>> import asyncio
>>> async def main() -> str:  # doctest: +SKIP
...     engine = await GtpEngine.popen(["/usr/games/gnugo", "--mode", "gtp"])
...     await engine.boardsize(9)
...     await engine.play_move(BLACK, "E5")
...     move = await engine.genmove(WHITE)
...     await engine.quit()
...     return str(move)

For scripts, :class:`duiyi.engines.sync.SimpleGtpEngine` offers the same calls as blocking
methods:

>>> from duiyi.engines.sync import SimpleGtpEngine
>>> with SimpleGtpEngine.popen(["/usr/games/gnugo", "--mode", "gtp"]) as e:  # doctest: +SKIP
...     e.boardsize(9); e.genmove("b")
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Literal

from duiyi import BLACK, WHITE, Color
from duiyi.engines.process import LineProcess, launch
from duiyi.engines.protocol import PASS, RESIGN, EngineProtocol, Limits, PlayResult, PositionRefused
from duiyi.errors import (
    EngineCrashed,
    EngineError,
    EngineProtocolError,
    EngineTimeout,
    GtpError,
    InvalidInput,
)
from duiyi.go import Game, Point

__all__ = [
    "DEFAULT_TIMEOUT",
    "GtpEngine",
    "GtpMove",
    "effective_komi_points",
    "format_vertex",
    "parse_vertex",
    "play_game",
]

GtpMove = Point | None | Literal["resign"]
"""What :meth:`GtpEngine.genmove` answers: a point, ``None`` for a pass, or ``"resign"``."""

DEFAULT_TIMEOUT = 30.0


def parse_vertex(text: str, size: int) -> Point | None:
    """Read a GTP vertex ("D4", "pass", case-insensitive) on a board of ``size``; None = pass.

    >>> parse_vertex("d4", 19), parse_vertex("PASS", 19)
    (Point.parse('D4'), None)
    """
    t = text.strip()
    if t.lower() == "pass":
        return None
    return Point.parse(t.upper(), size=size)


def format_vertex(point: Point | str | None) -> str:
    """Write a GTP vertex; ``None`` is ``"pass"``.

    >>> format_vertex(None), format_vertex("d4")
    ('pass', 'D4')
    """
    if point is None:
        return "pass"
    if isinstance(point, str):
        return point.strip().upper()
    return str(point)


def _color_word(color: Color | str) -> str:
    c = color if isinstance(color, Color) else Color.parse(color)
    return "b" if c is BLACK else "w"


def _komi_text(komi: Fraction | float | int | str) -> str:
    if isinstance(komi, str):
        return komi
    value = Fraction(komi)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


class GtpEngine(EngineProtocol):
    """A connected GTP engine. Create it with :meth:`popen`.

    Commands are serialised: concurrent callers wait their turn. ``size`` follows the last
    ``boardsize`` sent (19 until then) and is used to read vertices.

    >>> GtpEngine.__name__
    'GtpEngine'
    """

    def __init__(self, process: LineProcess, *, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        super().__init__(process)
        self.timeout = timeout
        self.size = 19
        self._lock = asyncio.Lock()
        self._next_id = 1
        self._commands: frozenset[str] | None = None
        #: the moves the engine's board has had since it was cleared (told or generated), so
        #: that :meth:`play` tells it only the new ones
        self._known: list[tuple[Color, Point | None]] = []
        #: False once the engine refused ``time_left`` (it is not told again)
        self._tells_time = True

    # -- life cycle --------------------------------------------------------------------------

    @classmethod
    async def popen(
        cls,
        argv: str | Sequence[str],
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        stderr: int | None = asyncio.subprocess.DEVNULL,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        group: bool = False,
    ) -> GtpEngine:
        """Start ``argv`` (a list, or a string split like a shell would) and check it speaks
        GTP v2 (``protocol_version``). A program that cannot start raises
        :class:`~duiyi.errors.EngineCrashed`. ``env`` is the process's whole environment
        (None: the caller's); with ``group`` it leads its own process group (see
        :meth:`~duiyi.engines.process.LineProcess.start`).

        >>> GtpEngine.popen  # doctest: +ELLIPSIS
        <bound method GtpEngine.popen of <class '...GtpEngine'>>
        """
        if not argv:
            raise InvalidInput("popen needs a command line (e.g. ['gnugo', '--mode', 'gtp'])")

        async def greet(line: LineProcess) -> GtpEngine:
            engine = cls(line, timeout=timeout)
            try:
                version = await engine.protocol_version()
            except (GtpError, EngineError) as exc:
                raise EngineError(f"engine {line.name!r} does not speak GTP: {exc}") from exc
            if version.strip() != "2":
                raise EngineError(f"engine {line.name!r} speaks GTP version {version!r}, not 2")
            return engine

        return await launch(argv, greet, cwd=cwd, env=env, stderr=stderr, group=group)

    async def close(self) -> int | None:
        """``quit`` (:meth:`quit`); the exit status."""
        await self.quit()
        return self.returncode

    async def quit(self) -> None:
        """Send ``quit`` and wait for the process to exit (killing it if it lingers)."""
        if self._closed:
            return
        with contextlib.suppress(GtpError, EngineError):
            await self.command("quit", timeout=5.0)
        self._closed = True
        if await self.line.wait(5.0) is None:
            await self.line.kill()
        else:
            await self.line.kill()  # reaps the reader task

    # -- raw protocol ----------------------------------------------------------------------

    async def command(self, name: str, *args: object, timeout: float | None = None) -> str:
        """Send one command and return the text of its ``=`` answer (without ``=id``).

        Raises :class:`GtpError` for a ``?`` answer, :class:`~duiyi.errors.EngineTimeout` when
        no answer comes in time (the engine is killed: later answers could not be matched to
        our commands), :class:`~duiyi.errors.EngineCrashed` when the process ends.
        """
        words = [name, *(str(a) for a in args)]
        for w in words:
            if any(ch in w for ch in "\n\r#") or not w:
                raise InvalidInput(f"GTP argument {w!r} is empty or contains a newline or '#'")
        if self._closed:
            raise EngineError(f"engine is closed; cannot send {name!r}")
        async with self._lock:
            cid = self._next_id
            self._next_id += 1
            try:
                await self.line.send([f"{cid} {' '.join(words)}"])
            except EngineCrashed:
                await self.kill()
                raise
            limit = self.timeout if timeout is None else timeout
            try:
                ok, text = await self._read_response(cid, name, limit)
            except EngineTimeout as exc:
                await self.kill()
                raise EngineTimeout(f"engine did not answer {name!r} within {limit} s") from exc
            except EngineError:
                await self.kill()
                raise
            finally:
                self.last_elapsed = time.monotonic() - self.line.last_sent
        if not ok:
            raise GtpError(f"engine refused {' '.join(words)!r}: {text}")
        return text

    async def _read_response(self, cid: int, name: str, limit: float | None) -> tuple[bool, str]:
        deadline = None if limit is None else time.monotonic() + limit
        lines: list[str] = []
        while True:
            text = (await self.line.readline(repr(name), deadline=deadline)).rstrip("\r")
            if not lines:
                if not text.strip():
                    continue  # stray blank line between answers
                if text[0] not in "=?":
                    continue  # some engines print chatter on stdout; skip until an answer
            elif not text.strip():
                break
            lines.append(text)
        head = lines[0]
        ok = head[0] == "="
        rest = head[1:]
        digits = len(rest) - len(rest.lstrip("0123456789"))
        rid = rest[:digits]
        if rid and int(rid) != cid:
            raise EngineProtocolError(f"engine answered id {rid} to command {cid} ({name!r})")
        first = rest[digits:].strip()
        body = "\n".join([first, *lines[1:]]) if len(lines) > 1 else first
        return ok, body.strip("\n")

    # -- standard commands -----------------------------------------------------------------

    async def protocol_version(self) -> str:
        """The engine's GTP version ("2")."""
        return await self.command("protocol_version")

    async def name(self) -> str:
        """The engine's name."""
        return await self.command("name")

    async def version(self) -> str:
        """The engine's version text."""
        return await self.command("version")

    async def list_commands(self) -> frozenset[str]:
        """The commands the engine knows (cached after the first call)."""
        if self._commands is None:
            text = await self.command("list_commands")
            self._commands = frozenset(w.strip() for w in text.split("\n") if w.strip())
        return self._commands

    async def known_command(self, name: str) -> bool:
        """Whether the engine knows ``name``."""
        return (await self.command("known_command", name)).strip() == "true"

    async def boardsize(self, size: int) -> None:
        """Set the board size (the board is cleared, as GTP says)."""
        await self.command("boardsize", int(size))
        self.size = int(size)
        self._known = []

    async def clear_board(self) -> None:
        """Empty the board."""
        await self.command("clear_board")
        self._known = []

    async def komi(self, komi: Fraction | float | int | str) -> None:
        """Set komi in points (Fractions are sent as decimals)."""
        await self.command("komi", _komi_text(komi))

    async def play(self, position: Game, limits: Limits | None = None) -> PlayResult[Point]:
        """The move of ``position``'s side to move (the protocol base's :meth:`play`): the
        moves of ``position`` the engine has not had are sent with GTP ``play`` (a board that
        is not this game's is set up again, :meth:`set_position`), the time left of
        ``limits`` with ``time_left`` (an engine that refuses it is not told again), then
        ``genmove`` waits ``limits.timeout`` seconds. A pass is :data:`PASS`, ``resign``
        :data:`RESIGN`; ``elapsed`` is the ``genmove``'s thinking time."""
        limits = limits or Limits()
        color = position.to_move
        moves = list(position.moves)
        step, move = "move", None
        try:
            if moves[: len(self._known)] != self._known:
                step = "position"
                await self.set_position(position)
            for c, p in moves[len(self._known) :]:
                move = p
                await self.play_move(c, p)
            if limits.time_left is not None and self._tells_time:
                step = "time_left"
                try:
                    # the colour's full name, as duiyi.gtp.clock writes the command
                    secs, stones = int(limits.time_left), limits.stones
                    await self.command("time_left", color.value, secs, stones)
                except GtpError:
                    self._tells_time = False
        except (GtpError, EngineError) as exc:
            raise PositionRefused(step, exc, move) from exc
        answer = await self.genmove(color, timeout=limits.timeout)
        if answer == "resign":
            return PlayResult(RESIGN, self.last_elapsed)
        return PlayResult(PASS if answer is None else answer, self.last_elapsed)

    async def play_move(self, color: Color | str, point: Point | str | None) -> None:
        """GTP ``play``: a move on the engine's board (``None`` or ``"pass"`` passes). An
        illegal move raises GtpError."""
        await self.command("play", _color_word(color), format_vertex(point))
        c = color if isinstance(color, Color) else Color.parse(color)
        self._known.append(
            (c, point if not isinstance(point, str) else parse_vertex(point, self.size))
        )

    async def genmove(self, color: Color | str, *, timeout: float | None = None) -> GtpMove:
        """Ask the engine for a move of ``color`` (the engine plays it on its board)."""
        text = await self.command("genmove", _color_word(color), timeout=timeout)
        move = self._read_move(text)
        if move != "resign":
            c = color if isinstance(color, Color) else Color.parse(color)
            self._known.append((c, move))
        return move

    async def reg_genmove(self, color: Color | str, *, timeout: float | None = None) -> GtpMove:
        """Ask for a move without playing it (GTP ``reg_genmove``)."""
        text = await self.command("reg_genmove", _color_word(color), timeout=timeout)
        return self._read_move(text)

    def _read_move(self, text: str) -> GtpMove:
        t = text.strip()
        if t.lower() == "resign":
            return "resign"
        try:
            return parse_vertex(t, self.size)
        except InvalidInput as exc:
            raise EngineError(f"engine answered a move that is not a vertex: {t!r}") from exc

    async def undo(self) -> None:
        """Take back the last move."""
        await self.command("undo")
        if self._known:
            self._known.pop()

    async def showboard(self) -> str:
        """The engine's own board diagram (free text)."""
        return await self.command("showboard")

    async def fixed_handicap(self, stones: int) -> list[Point]:
        """Place fixed handicap stones; returns where the engine put them."""
        text = await self.command("fixed_handicap", int(stones))
        return self._read_vertices(text)

    async def place_free_handicap(self, stones: int) -> list[Point]:
        """Let the engine choose free handicap stones."""
        text = await self.command("place_free_handicap", int(stones))
        return self._read_vertices(text)

    async def set_free_handicap(self, points: Iterable[Point | str]) -> None:
        """Place Black handicap stones at the given points."""
        await self.command("set_free_handicap", *(format_vertex(p) for p in points))

    def _read_vertices(self, text: str) -> list[Point]:
        out: list[Point] = []
        for word in text.split():
            p = parse_vertex(word, self.size)
            if p is not None:
                out.append(p)
        return out

    async def final_score(self, *, timeout: float | None = None) -> str:
        """The engine's score in SGF form ("B+3.5", "W+0.5", "0")."""
        return (await self.command("final_score", timeout=timeout)).strip()

    async def final_status_list(self, status: str, *, timeout: float | None = None) -> list[Point]:
        """Stones with status ``dead``, ``alive`` or ``seki`` according to the engine."""
        text = await self.command("final_status_list", status, timeout=timeout)
        return self._read_vertices(text)

    async def is_legal(self, color: Color | str, point: Point | str) -> bool:
        """Whether a move is legal for the engine (GNU Go extension ``is_legal``)."""
        return (await self.command("is_legal", _color_word(color), format_vertex(point))) == "1"

    async def list_stones(self, color: Color | str) -> frozenset[Point]:
        """Stones of a colour on the engine's board (GNU Go extension ``list_stones``)."""
        text = await self.command("list_stones", _color_word(color))
        return frozenset(self._read_vertices(text))

    async def time_settings(self, main_time: int, byo_yomi_time: int, byo_yomi_stones: int) -> None:
        """Send GTP ``time_settings`` (seconds, seconds, stones)."""
        await self.command(
            "time_settings", int(main_time), int(byo_yomi_time), int(byo_yomi_stones)
        )

    async def time_left(self, color: Color | str, seconds: int, stones: int) -> None:
        """Send GTP ``time_left``."""
        await self.command("time_left", _color_word(color), int(seconds), int(stones))

    async def set_position(self, game: Game) -> None:
        """Make the engine's board that of ``game``: size, komi, setup stones, then every move.

        Komi sent is the game's effective compensation in points: komi plus any handicap
        return (Chinese rules: ½ stone = 1 point per handicap stone), so that the engine's
        ``final_score`` counts as duiyi does. Black-only setups (handicap, AB) go through
        ``set_free_handicap``; a setup with White stones is sent as ``play`` commands (GTP has
        no general setup command).
        """
        from duiyi.go.sgf import game_setup

        await self.boardsize(game.size)
        await self.clear_board()
        await self.komi(effective_komi_points(game))
        black, white, _first = game_setup(game)
        if len(black) >= 2 and not white:
            stones: list[Point] = sorted(black, key=_point_key)
            await self.set_free_handicap(stones)
        else:
            for p in sorted(black, key=_point_key):
                await self.play_move(BLACK, p)
            for p in sorted(white, key=_point_key):
                await self.play_move(WHITE, p)
            self._known = []  # set-up stones are no moves
        for color, point in game.moves:
            await self.play_move(color, point)


def _point_key(p: Point) -> tuple[int, int]:
    return (p.row, p.col)


def effective_komi_points(game: Game) -> Fraction:
    """Komi plus handicap return of ``game``, in points (what a GTP ``komi`` should say).

    >>> from duiyi.go import Rules
    >>> effective_komi_points(Game(19)), effective_komi_points(Game(19, handicap=4))
    (Fraction(15, 2), Fraction(4, 1))
    """
    komi, ret = game.rules.compensation(game.handicap)
    return (komi + ret) * game.rules.unit_points


async def play_game(
    black: GtpEngine,
    white: GtpEngine,
    game: Game | None = None,
    *,
    size: int = 19,
    max_moves: int = 1000,
    move_timeout: float | None = None,
) -> Game:
    """Play a game between two engines with duiyi as the referee; returns the finished game.

    Both engines are set to the game's position first. Every generated move is checked by
    duiyi's rules before the other engine hears it: an illegal one raises
    :class:`~duiyi.errors.IllegalMove` naming the engine (Go §5, §6, §20; DECISIONS.md: engine
    moves are rejected, the game is unchanged). ``resign`` ends the game (Go §7.2). After two
    passes the dead stones are those of duiyi's life engine, accepted for both sides, and the
    game is counted (Go §8, §9). ``max_moves`` caps the moves played here; a game still going
    is returned unfinished.
    """
    from duiyi.errors import IllegalMove
    from duiyi.go import Phase

    game = game if game is not None else Game(size)
    for engine in (black, white):
        await engine.set_position(game)
    played = 0
    while game.phase is Phase.PLAYING and played < max_moves:
        color = game.to_move
        mover, other = (black, white) if color is BLACK else (white, black)
        move = await mover.genmove(color, timeout=move_timeout)
        if move == "resign":
            game.resign(color)
            break
        try:
            game.play(move, color)
        except IllegalMove as exc:
            who = f"{color} engine ({mover.label})"
            raise IllegalMove(exc.reason, exc.article, f"{exc.move} by the {who}") from None
        await other.play_move(color, move)
        played += 1
    if game.phase is Phase.COUNTING:
        game.set_dead(game.propose_dead())
        game.accept(BLACK)
        game.accept(WHITE)
    return game
