"""The server's engine driver: an engine plays a seat of a hosted game (a person's opponent,
or an event's engine player). Which engines exist is the operator's list
(:mod:`duiyi.server.engines.catalog`); this module only runs what that list resolved.

An :class:`EngineSeat` watches one hosted game and, whenever its seat is to act, asks the
engine for a move and applies it through ``host.act`` like a player would: the rules, the clock
and the store see an ordinary player. A Gomocup brain is given the whole position every time
(``BOARD``); a GTP engine when it starts (``clear_board`` + ``play``) and whenever the game is
not the continuation of what it has, else the moves since its own: nothing can drift out of
step, and a restarted server puts the engine back in the game. Every engine process runs in
its own process group with the allow-listed environment of its entry, and is killed with its
group when the game, or the server, ends.

>>> gnugo_command(env={"DUIYI_GNUGO": "/nowhere/gnugo"}) is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Mapping
from typing import Any

from duiyi import BLACK, Color
from duiyi.actions import (
    Accept,
    AcceptTakeback,
    ClaimFoul,
    DeclineTakeback,
    Move,
    Pass,
    Resign,
    SetDead,
)
from duiyi.errors import (
    DuiyiError,
    EngineCrashed,
    EngineError,
    EngineTimeout,
    GameOver,
    GtpError,
    IllegalMove,
    InvalidInput,
)
from duiyi.games import EngineProtocol
from duiyi.games import get as get_game
from duiyi.server.engines.catalog import EngineRun, gnugo_program

__all__ = [
    "EngineSeat",
    "gnugo_command",
    "gnugo_program",
]

log = logging.getLogger("duiyi.server.engines")


def gnugo_command(env: Mapping[str, str] | None = None) -> list[str] | None:
    """The GNU Go command line in GTP mode (level ``DUIYI_GNUGO_LEVEL``, 1), or None when GNU
    Go is not installed (see :func:`gnugo_program`)."""
    env = os.environ if env is None else env
    path = gnugo_program(env)
    if path is None:
        return None
    return [path, "--mode", "gtp", "--level", env.get("DUIYI_GNUGO_LEVEL", "1")]


class EngineSeat:
    """An engine that plays one seat of a hosted game until the game ends.

    The engine is given the whole position when it starts (and whenever the game is not the
    continuation of what it has), then only the moves played since its last move.

    ``host`` is a :class:`duiyi.server.games.host.GameHost`; ``command`` the engine's command line.

    An engine opposite a human (``player=False``) that fails only shows the error: the human
    may resign or wait. An engine that is an event's player (``player=True``) is refereed like
    any player of the event (docs/server.md, "Engine rounds"): its failure is ruled through
    the game's referee at once, and the game's clock is sent to it (``time_settings``,
    ``time_left``):

    * an illegal move loses under the article that forbids it (Go §6 superko, ..., as in
      ``duiyi go match``; DECISIONS.md: engine play rejects illegal moves);
    * an engine that cannot start (its program is gone), crashes, or stays silent for ``move_timeout`` seconds in a
      game without a clock withdraws from the game (Go §28); with a clock, its flag falls
      first (Go §12.3-12.5, the session's timer rules it);
    * an answer that is no move, or an error to a legal position, loses by forfeit (Go §23:
      refusing to play by the rules).

    Anything else (the game ended or was closed meanwhile, the store is down) is no failure of
    the engine: it tries again while the game is live here.
    """

    def __init__(
        self,
        host: Any,
        seat: Color,
        kind: str,
        run: EngineRun,
        *,
        player: bool = False,
        move_timeout: float = 60.0,
    ) -> None:
        self.host = host
        self.seat = seat
        self.kind = kind
        self.gtp = get_game(kind).engine_protocol is EngineProtocol.GTP  # else Gomocup
        self.run = run
        self.command = list(run.argv)
        self.player = player
        # the entry's own limit first (the operator's), else the server's
        self.move_timeout = run.entry.move_seconds or move_timeout
        self.error: str | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._engine: Any = None
        self._killing: asyncio.Future[None] | None = None
        # the engine process and the moves it has on its board (the game's first moves)
        self._known: tuple[Any, list[Any]] | None = None
        # Go: the engine's own dead stones at the count (GTP final_status_list dead), with
        # the number of moves they were read after; None before the count or when it failed
        self.dead_opinion: tuple[int, list[str]] | None = None

    def start(self) -> None:
        """Listen to the game and run the engine loop in the background."""
        self.host.listeners.add(self._listener)
        self._task = asyncio.create_task(self._run(), name=f"engine-{self.host.id}")

    async def stop(self, *, kill: bool = False) -> None:
        """Stop the loop and the engine process (with ``kill`` at once, its whole process
        group: the server is stopping)."""
        self.host.listeners.discard(self._listener)
        if kill:
            self.kill_now()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if kill:
            engine, self._engine = self._engine, None
            if engine is not None:
                await _kill(engine)
        await self._close()

    def kill_now(self) -> None:
        """SIGKILL the engine's process group now (synchronous; the process is reaped by
        :meth:`stop`)."""
        engine = self._engine
        line = getattr(engine, "line", None)
        if line is not None:
            line.kill_group()
            with contextlib.suppress(ProcessLookupError):
                line.process.kill()

    @property
    def engine_running(self) -> bool:
        """Whether an engine process of this seat is up (it counts against its entry's
        ``max_concurrent``)."""
        return self._engine is not None

    @property
    def running(self) -> bool:
        """True while the game is live and the loop runs."""
        return self._task is not None and not self._task.done()

    async def reap(self) -> bool:
        """Stop the engine process (not the seat) while nobody plays: it starts again when it
        is the engine's turn. True when a process was stopped."""
        if self._engine is None or self.player:  # an event player's thinking is never idle
            return False
        await self._close()
        return True

    def _listener(self, message: object) -> None:
        # any broadcast (JSON text or a dict) may change whose turn it is: look again
        del message
        self._wake.set()
        over = self.host.session.outcome() is not None or self._gone()
        if self.player and self._engine is not None and over:
            # the game ended (a flag fell, the last act) or the director closed it: a pending
            # genmove stops now
            engine, self._engine = self._engine, None
            self._killing = asyncio.ensure_future(_kill(engine))

    async def _close(self) -> None:
        engine, self._engine = self._engine, None
        if engine is None:
            return
        with contextlib.suppress(Exception):
            await engine.close()  # the protocol's goodbye: GTP ``quit``, Gomocup ``END``

    async def _run(self) -> None:
        try:
            while True:
                session = await self.host.current_session()
                if session.outcome() is not None or self._gone():
                    break
                self._wake.clear()
                try:
                    await self._turn(session)
                except DuiyiError as exc:
                    self.error = str(exc)
                    if not self.player:
                        await self._close()
                    else:  # a failed engine is stopped at once (it may hang on quit)
                        engine, self._engine = self._engine, None
                        if engine is not None:
                            await _kill(engine)
                        if await self._rule_failure(exc):
                            continue  # ruled: the game is over
                    # a refused engine move, a crashed engine: the human may resign or wait;
                    # an event player's game stored nothing (the store is down): try again
                    log.warning("engine in game %s: %s", self.host.id, exc)
                    await asyncio.sleep(1.0)
                    if self.player:
                        continue
                await self._wake.wait()
        finally:
            self.host.listeners.discard(self._listener)
            await self._close()

    def _gone(self) -> bool:
        """The game was closed by the director or moved to another process."""
        return getattr(self.host, "closed", None) is not None or getattr(
            self.host, "abandoned", False
        )

    async def _rule_failure(self, exc: DuiyiError) -> bool:
        """An event player's failure ruled through the game's referee (see the class); False
        when ``exc`` is no failure of the engine."""
        if (await self.host.current_session()).outcome() is not None or self._gone():
            return True  # over already (its engine was stopped then): nothing to rule
        seat, note = self.seat.value, f"engine: {exc}"[:500]
        game = get_game(self.kind)
        ruling: dict[str, Any]
        if isinstance(exc, IllegalMove):
            # Gomoku: a stone on an occupied point (Gomoku §4.2, §10.1(3)G)
            article = exc.article or game.engine_illegal_article
            ruling = {"kind": "forfeit", "color": seat, "article": article, "note": note}
        elif isinstance(exc, (EngineCrashed, EngineTimeout)):
            ruling = {"kind": "withdrawal", "color": seat, "note": note}
        elif isinstance(exc, (GtpError, EngineError, InvalidInput)):
            # refusing to play by the rules: Go §23, Gomoku §10.1(3)G (as duiyi gomoku match)
            article = game.engine_refusal_article
            ruling = {"kind": "forfeit", "color": seat, "article": article, "note": note}
        else:
            return False
        log.warning("engine in game %s: %s; ruled %s", self.host.id, exc, ruling["kind"])
        with contextlib.suppress(GameOver):  # a flag fell meanwhile: that stands
            await self.host.rule(ruling)
        return True

    async def _turn(self, session: Any) -> None:
        if not self.player and session.takeback_request is self.seat.opponent:
            await self._agree_takeback(session)
            return
        view = self.host.view()
        if self.gtp:
            await self._go_turn(session, view)
        else:
            await self._gomoku_turn(session, view)

    async def _agree_takeback(self, session: Any) -> None:
        """The opponent asked to take back its last move (a casual game, issue 21): the
        engine agrees. A GTP engine takes the moves off its own board with ``undo`` (or, if
        it refuses, is given the whole position at its next turn); a Gomocup brain is given
        the whole position at every turn (``BOARD``), so nothing is left to replay."""
        if session.paused:
            return  # answered when the game resumes
        if not session.can_take_back(self.seat.opponent):
            # play stopped meanwhile (the engine's pass ended it, the count began): nothing
            # can be taken back now, the request is answered so that the game goes on
            await self.host.act(self.seat, DeclineTakeback())
            return
        await self.host.act(self.seat, AcceptTakeback())
        if not self.gtp or self._known is None or self._known[0] is not self._engine:
            return
        engine, known = self._known
        moves = list((await self.host.current_session()).game.game.moves)
        self._known = None  # until the engine's board is known to be the game's
        if moves != known[: len(moves)]:
            return
        try:
            for _ in range(len(known) - len(moves)):
                await engine.undo()
        except GtpError as exc:
            log.info("game %s: the engine refused undo (%s): replayed next turn", self.host.id, exc)
            return
        self._known = (engine, moves)

    # -- Go --------------------------------------------------------------------------------
    async def _go_turn(self, session: Any, view: dict[str, Any]) -> None:
        game = session.game.game
        phase = view.get("phase")
        if phase == "counting":
            if self.seat.value not in view.get("accepted", []):
                # nothing marked yet: duiyi's proposal, and the engine's own stones it gives
                # up (a player may always concede its own stones); the engine's view of the
                # human's stones is only shown where it differs (analysis: dead_views). After
                # that it agrees with whatever the human marked.
                if not view.get("dead") and not view.get("accepted"):
                    proposal = {str(p) for p in game.propose_dead()}
                    mine = set(game.board.stones(self.seat))
                    opinion = await self._dead_opinion(session, game)
                    conceded = {p for p in opinion or [] if _point(p, game.size) in mine}
                    marking = sorted(proposal | conceded)
                    if marking:
                        await self.host.act(self.seat, SetDead(tuple(marking)))
                await self.host.act(self.seat, Accept())
            return
        if view.get("to_move") != self.seat.value or phase != "playing":
            return
        engine = await self._synced_gtp(session, game)
        moves = list(game.moves)
        self._known = None  # until its answer is known to be the game's move
        timeout = self.run.entry.move_seconds
        if self.player:
            timeout = await _send_time_left(engine, session, self.seat, self.host.now())
            timeout = self.move_timeout if timeout is None else timeout
        move = await engine.genmove(self.seat, timeout=timeout)
        if move == "resign":
            await self.host.act(self.seat, Resign())
            return
        if move is None:
            await self.host.act(self.seat, Pass())
        else:
            await self.host.act(self.seat, Move(str(move)))
        # genmove played the move on the engine's board too: next turn, only what follows
        self._known = (engine, [*moves, (self.seat, move)])

    async def _synced_gtp(self, session: Any, game: Any) -> Any:
        """The GTP engine (started when needed) with the game's moves on its board: the whole
        position for a new engine or a game that went elsewhere than it knows, else only the
        moves since its own."""
        from duiyi.engines.gtp import GtpEngine

        if self._engine is None:
            try:
                self._engine = await GtpEngine.popen(
                    self.command, timeout=30.0, env=self.run.env, group=True
                )
            except InvalidInput as exc:  # no such program: it cannot play (Go §28)
                raise EngineCrashed(f"the engine did not start: {exc}") from exc
            if self.player:
                await _send_time_settings(self._engine, session.clock.system)
        engine = self._engine
        moves = list(game.moves)
        known = self._known[1] if self._known is not None and self._known[0] is engine else None
        if known is None or moves[: len(known)] != known:
            # a new engine, or a game that went elsewhere than it knows: the whole position
            await engine.boardsize(game.size)
            await engine.clear_board()
            await engine.komi(_komi_points(game))
            handicap = _handicap_points(game)
            if handicap:
                await engine.set_free_handicap(handicap)
            known = []
        for color, point in moves[len(known) :]:  # usually the opponent's last move only
            await engine.play_move(color, None if point is None else str(point))
        self._known = (engine, moves)
        return engine

    async def _dead_opinion(self, session: Any, game: Any) -> list[str] | None:
        """The engine's dead stones at the count (GTP ``final_status_list dead``), kept for
        the analysis (:attr:`dead_opinion`); None when the engine cannot tell (no such
        command, an error, 30 s without an answer): the count goes on with duiyi's proposal."""
        try:
            engine = await self._synced_gtp(session, game)
            dead = await engine.final_status_list("dead", timeout=30.0)
        except (DuiyiError, OSError) as exc:
            log.info("game %s: no dead-stone list from the engine (%s)", self.host.id, exc)
            self.dead_opinion = None
            return None
        opinion = sorted(str(p) for p in dead)
        self.dead_opinion = (len(game.moves), opinion)
        await self._keep_opinion(len(game.moves), opinion)
        return opinion

    async def _keep_opinion(self, moves: int, dead: list[str]) -> None:
        """Store the engine's dead stones with the game (``config["engine_dead"]``), so that
        the count shows them again after a restart (:func:`stored_opinion`); a store that
        fails only loses the display, never the count."""

        def change(config: dict[str, Any]) -> None:
            config["engine_dead"] = {"moves": moves, "dead": dead}

        try:
            await self.host.manager.repo.update_config(self.host.id, change)
        except Exception as exc:  # the count goes on with the view kept in memory
            log.warning("game %s: the engine's dead stones not stored (%s)", self.host.id, exc)

    # -- Gomoku ----------------------------------------------------------------------------
    async def _gomoku_turn(self, session: Any, view: dict[str, Any]) -> None:
        if view.get("to_move") != self.seat.value or view.get("phase") != "play":
            return
        from duiyi.engines.gomocup import GomocupEngine, GomocupRule

        game = session.game.game
        if self.player and game.pending_foul is not None:
            # Black's forbidden stone under the claim policy: a brain cannot claim, so its
            # seat claims for it at once (Gomoku §10.1(2); as duiyi gomoku match's referee)
            await self.host.act(self.seat, ClaimFoul())
            return
        timeout = self.run.entry.move_seconds or 30.0
        if self.player:
            timeout = _flag_timeout(session, self.host.now()) or self.move_timeout
        if self._engine is None:
            self._engine = await GomocupEngine.popen(self.command, env=self.run.env, group=True)
            await self._engine.start(15)
            rule = GomocupRule.RENJU if game.rules.fouls else GomocupRule.FREESTYLE
            turn_ms = int(timeout * 1000) if self.player else 2000
            await self._engine.configure(timeout_turn=turn_ms, timeout_match=600_000, rule=rule)
        colour = game.to_act  # the engine's stones (no swap in the engine's free opening)
        stones = [(m.point, 1 if m.color is colour else 2) for m in game.moves if m.point]
        if stones:
            move = await self._engine.board(stones, timeout=timeout)
        else:
            move = await self._engine.begin(timeout=timeout)
        await self.host.act(self.seat, Move(move.to_book()))


async def _kill(engine: Any) -> None:
    """Stop an engine (GTP or Gomocup) at once."""
    with contextlib.suppress(Exception):
        await engine.kill()


async def _send_time_settings(engine: Any, system: Any) -> None:
    """``time_settings`` for a timed game (an engine that does not know it plays on)."""
    from duiyi.clock import NoTime
    from duiyi.gtp.clock import time_settings

    if isinstance(system, NoTime):
        return
    with contextlib.suppress(GtpError):
        await engine.command("time_settings", *time_settings(system).args)


async def _send_time_left(engine: Any, session: Any, seat: Color, now: float) -> float | None:
    """``time_left`` before ``genmove`` in a timed game; the seconds to wait for the move (the
    time to the flag and a little more: the session's timer rules the flag first), or None
    without a clock."""
    from duiyi.clock import NoTime
    from duiyi.gtp.clock import time_left

    clock = session.clock
    if isinstance(clock.system, NoTime):
        return None
    with contextlib.suppress(GtpError):
        await engine.command("time_left", *time_left(clock, seat, now).args)
    return _flag_timeout(session, now)


def _flag_timeout(session: Any, now: float) -> float | None:
    """The seconds to wait for a move in a timed game (to the flag and a little more: the
    session's timer rules the flag first), or None without a clock."""
    from duiyi.clock import NoTime

    clock = session.clock
    if isinstance(clock.system, NoTime):
        return None
    flag = clock.flag_time()
    return None if flag is None else max(flag - now, 0.0) + 5.0


def _point(text: str, size: int) -> Any:
    from duiyi.go.point import Point

    return Point.parse(text, size)


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
