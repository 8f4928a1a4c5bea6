"""Engine opponents for one person trying duiyi alone: GNU Go (GTP) for Go, any Gomocup brain
(``DUIYI_GOMOKU_ENGINE``) for Gomoku.

An :class:`EngineSeat` watches one hosted game and, whenever its seat is to act, asks the
engine for a move and applies it through ``host.act`` like a player would: the rules, the clock
and the store see an ordinary player. The engine is given the whole position every time (GTP
``clear_board`` + ``play``; Gomocup ``BOARD``), so nothing can drift out of step.

>>> gnugo_command(env={"DUIYI_GNUGO": "/nowhere/gnugo"}) is None
True
>>> gomoku_command(env={}) is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
from collections.abc import Mapping
from typing import Any

from duiyi import BLACK, Color
from duiyi.errors import DuiyiError

__all__ = [
    "EngineSeat",
    "available_engines",
    "gnugo_command",
    "gomoku_command",
]

log = logging.getLogger("duiyi.server.engines")

GNUGO_PATHS = ("/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo")


def gnugo_command(env: Mapping[str, str] | None = None) -> list[str] | None:
    """The GNU Go command line in GTP mode, or None when GNU Go is not installed.

    ``DUIYI_GNUGO`` names the binary; else ``gnugo`` on the PATH or in /usr/games.
    """
    env = os.environ if env is None else env
    named = env.get("DUIYI_GNUGO")
    candidates = [named] if named else [shutil.which("gnugo"), *GNUGO_PATHS]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            level = env.get("DUIYI_GNUGO_LEVEL", "1")
            return [path, "--mode", "gtp", "--level", level]
    return None


def gomoku_command(env: Mapping[str, str] | None = None) -> str | None:
    """The Gomocup brain's command line from ``DUIYI_GOMOKU_ENGINE``, or None."""
    env = os.environ if env is None else env
    command = env.get("DUIYI_GOMOKU_ENGINE", "").strip()
    return command or None


def available_engines() -> dict[str, Any]:
    """Which engines this server can start: ``{"go": [...], "gomoku": [...]}``."""
    return {
        "go": ["gnugo"] if gnugo_command() else [],
        "gomoku": ["gomocup"] if gomoku_command() else [],
    }


class EngineSeat:
    """An engine that plays one seat of a hosted game until the game ends.

    ``host`` is a :class:`duiyi.server.games.GameHost`; ``command`` the engine's command line.
    """

    def __init__(self, host: Any, seat: Color, kind: str, command: list[str] | str) -> None:
        self.host = host
        self.seat = seat
        self.kind = kind
        self.command = command
        self.error: str | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._engine: Any = None

    def start(self) -> None:
        """Listen to the game and run the engine loop in the background."""
        self.host.listeners.add(self._listener)
        self._task = asyncio.create_task(self._run(), name=f"engine-{self.host.id}")

    async def stop(self) -> None:
        """Stop the loop and the engine process."""
        self.host.listeners.discard(self._listener)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._close()

    @property
    def running(self) -> bool:
        """True while the game is live and the loop runs."""
        return self._task is not None and not self._task.done()

    async def reap(self) -> bool:
        """Stop the engine process (not the seat) while nobody plays: it starts again when it
        is the engine's turn. True when a process was stopped."""
        if self._engine is None:
            return False
        await self._close()
        return True

    def _listener(self, message: object) -> None:
        # any broadcast (JSON text or a dict) may change whose turn it is: look again
        del message
        self._wake.set()

    async def _close(self) -> None:
        engine, self._engine = self._engine, None
        if engine is None:
            return
        with contextlib.suppress(Exception):
            if self.kind == "go":
                await engine.quit()
            else:
                await engine.end(grace=0.5)

    async def _run(self) -> None:
        try:
            while True:
                session = await self.host.current_session()
                if session.outcome() is not None:
                    break
                self._wake.clear()
                try:
                    await self._turn(session)
                except DuiyiError as exc:
                    # a refused engine move, a crashed engine: the human may resign or wait
                    self.error = str(exc)
                    log.warning("engine in game %s: %s", self.host.id, exc)
                    await self._close()
                    await asyncio.sleep(1.0)
                await self._wake.wait()
        finally:
            self.host.listeners.discard(self._listener)
            await self._close()

    async def _turn(self, session: Any) -> None:
        view = self.host.view()
        if self.kind == "go":
            await self._go_turn(session, view)
        else:
            await self._gomoku_turn(session, view)

    # -- Go --------------------------------------------------------------------------------
    async def _go_turn(self, session: Any, view: dict[str, Any]) -> None:
        game = session.game.game
        phase = view.get("phase")
        if phase == "counting":
            if self.seat.value not in view.get("accepted", []):
                # the engine agrees with the automatic proposal when nothing is marked yet,
                # and with whatever the human marked after that
                if not view.get("dead") and not view.get("accepted"):
                    proposal = sorted(str(p) for p in game.propose_dead())
                    if proposal:
                        await self.host.act(self.seat, "set_dead", {"points": proposal})
                await self.host.act(self.seat, "accept", {})
            return
        if view.get("to_move") != self.seat.value or phase != "playing":
            return
        from duiyi.go.engine import GtpEngine

        if self._engine is None:
            assert isinstance(self.command, list)
            self._engine = await GtpEngine.popen(self.command, timeout=30.0)
        engine = self._engine
        await engine.boardsize(game.size)
        await engine.clear_board()
        await engine.komi(_komi_points(game))
        handicap = _handicap_points(game)
        if handicap:
            await engine.set_free_handicap(handicap)
        for color, point in game.moves:
            await engine.play(color, None if point is None else str(point))
        move = await engine.genmove(self.seat)
        if move == "resign":
            await self.host.act(self.seat, "resign", {})
        elif move is None:
            await self.host.act(self.seat, "pass", {})
        else:
            await self.host.act(self.seat, "move", {"point": str(move)})

    # -- Gomoku ----------------------------------------------------------------------------
    async def _gomoku_turn(self, session: Any, view: dict[str, Any]) -> None:
        if view.get("to_move") != self.seat.value or view.get("phase") != "play":
            return
        from duiyi.gomoku.engine import GomocupEngine, GomocupRule

        game = session.game.game
        if self._engine is None:
            self._engine = await GomocupEngine.popen(self.command)
            await self._engine.start(15)
            rule = GomocupRule.RENJU if game.rules.fouls else GomocupRule.FREESTYLE
            await self._engine.configure(timeout_turn=2000, timeout_match=600_000, rule=rule)
        colour = game.to_act  # the engine's stones (no swap in the engine's free opening)
        stones = [(m.point, 1 if m.color is colour else 2) for m in game.moves if m.point]
        if stones:
            move = await self._engine.board(stones, timeout=30.0)
        else:
            move = await self._engine.begin(timeout=30.0)
        await self.host.act(self.seat, "move", {"point": move.to_book()})


def _komi_points(game: Any) -> str:
    """The komi in points for GTP (the Chinese rules count it in stones: 3¾ stones = 7.5)."""
    from duiyi.go.rules import Scoring

    komi = game.rules.komi
    if game.rules.scoring is Scoring.AREA_STONES:
        komi = komi * 2
    return str(float(komi))


def _handicap_points(game: Any) -> list[str]:
    """The handicap stones on the board before the first move (fixed placement, Go §15)."""
    if not game.handicap:
        return []
    from duiyi.go.game import Game

    fresh = Game(game.size, rules=game.rules, handicap=game.handicap)
    return sorted(str(p) for p in fresh.board.stones(BLACK))
