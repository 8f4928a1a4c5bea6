"""Engine rounds: the boards of an event round whose two players are engines, played on this
server as ordinary live games (docs/server.md, "Engine rounds").

The director asks ``POST /api/events/{id}/rounds/{n}/play`` (organiser key; only on a server
started with ``--engine-players``). The request is stored in the event document as an
:class:`EnginePlay` (``engine_play``), and an :class:`EngineRounds` runner plays the round's
engine boards ``concurrency`` at a time: each board is a game created like
``POST .../rounds/{n}/games`` creates one, with both seats driven by the server's engine driver
(:class:`~duiyi.server.engines.driver.EngineSeat` as an event player), refereed by the game's session
and referee like any game. Spectators find it in the room list and watch it over the same
socket; its result enters the event through the result outbox (source ``online``). When every
engine board has its game and every game has ended, the request leaves the event document.

A restart resumes: live games are restored with their log and their engines (each engine is
given the whole position at every move), and the stored request restarts the runner.

>>> from duiyi.tournament import event as ops
>>> from duiyi.tournament.model import Player
>>> gnugo = (("engine", "gnugo:1"),)
>>> e = ops.new_event("cup", "go", "round-robin", None, {})
>>> e = ops.add_players(e, [Player(0, "a", extra=gnugo), Player(0, "Ann"),
...                         Player(0, "c", extra=gnugo), Player(0, "d", extra=gnugo)])
>>> e, _ = ops.pair_next_round(e)
>>> [(g.board, g.black, g.white) for g in e.round(1).games]
[(1, 1, 4), (2, 2, 3)]
>>> [b.to_json() for b in engine_boards(e, 1)]   # board 2 has a person: not an engine board
[{'board': 1, 'black': 1, 'white': 4}]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any

from duiyi.errors import TournamentError
from duiyi.games import EngineProtocol
from duiyi.server.engines.catalog import EngineList, EngineNotOffered
from duiyi.server.events.pairing import pair_round
from duiyi.server.events.parsed import parsed_event
from duiyi.server.games.manager import GameManager, NewGame
from duiyi.server.problems import report_failure
from duiyi.server.settings import Settings
from duiyi.store.repository import Conflict, EventRecord, NotFound, Repository, StoredGame
from duiyi.tournament.model import Event
from duiyi.tournament.roster import engine_command_of
from duiyi.tournament.systems.base import withdrawn_before

__all__ = [
    "EngineBoard",
    "EnginePlay",
    "EngineRounds",
    "engine_boards",
    "engine_game",
]

log = logging.getLogger("duiyi.server.engine_rounds")

# Where the director's request lives in the event document.
PLAY_KEY = "engine_play"


@dataclass(frozen=True)
class EngineBoard:
    """A board of a round between two engines, with each side's engine as the event names it
    (an entry of the operator's list, resolved only when the game starts)."""

    board: int
    black: int
    white: int
    black_engine: str
    white_engine: str

    def to_json(self) -> dict[str, Any]:
        """The board as the play request answers it."""
        return {"board": self.board, "black": self.black, "white": self.white}


def engine_boards(event: Event, number: int) -> list[EngineBoard]:
    """The boards of round ``number`` still without a result whose two players are engines
    (and neither withdrew before the round: those boards are the withdrawal rule's)."""
    gone = withdrawn_before(event, number)
    out = []
    for g in event.round(number).games:
        if g.result is not None or g.black in gone or g.white in gone:
            continue
        black = engine_command_of(event.player(g.black))
        white = engine_command_of(event.player(g.white))
        if black is not None and white is not None:
            out.append(EngineBoard(g.board, g.black, g.white, black, white))
    return out


@dataclass(frozen=True)
class EnginePlay:
    """The director's request: play round ``round``'s engine boards, ``concurrency`` games at
    once, run by process ``owner``; with ``all_rounds``, pair and play the next round once
    this one is complete, up to the last. ``client`` is the digest of the director's address
    (``routes.engines.client_key``): the games count against that client's engine cap.

    >>> EnginePlay.from_json(EnginePlay(2, 3, "p-1").to_json())
    EnginePlay(round=2, concurrency=3, owner='p-1', all_rounds=False, client='')
    """

    round: int
    concurrency: int
    owner: str
    all_rounds: bool = False
    client: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON kept in the event document."""
        return {
            "round": self.round,
            "concurrency": self.concurrency,
            "owner": self.owner,
            "all_rounds": self.all_rounds,
            "client": self.client,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EnginePlay:
        """Read :meth:`to_json`'s output."""
        return cls(
            int(data["round"]),
            int(data["concurrency"]),
            str(data["owner"]),
            bool(data.get("all_rounds", False)),
            str(data.get("client", "")),
        )


class EngineRounds:
    """Plays the engine boards of the rounds directors asked for (one task per event), with
    the engines of the operator's list ``engines`` only."""

    POLL = 0.5

    def __init__(
        self,
        games: GameManager,
        repo: Repository,
        settings: Settings,
        engines: EngineList | None = None,
    ) -> None:
        self.games = games
        self.repo = repo
        self.settings = settings
        self.engines = engines or EngineList()
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def start(self, event_id: str) -> None:
        """Run (or keep running) the event's stored request."""
        task = self.tasks.get(event_id)
        if task is None or task.done():
            self.tasks[event_id] = asyncio.create_task(
                self._run(event_id), name=f"engine-round-{event_id}"
            )

    async def resume(self) -> int:
        """At start-up: take over the requests whose process is gone (alone, every one);
        returns how many runners started."""
        count = 0
        for record in await self.repo.events():
            stored = record.data.get(PLAY_KEY)
            if not isinstance(stored, dict):
                continue
            play = EnginePlay.from_json(stored)
            if play.owner != self.games.process_id and not await self._gone(play.owner):
                continue
            if await self._claim(record, play):
                self.start(record.id)
                count += 1
        return count

    async def adopt(self) -> None:
        """Now and then (the manager's sweep): take over the requests of a process that died
        while this one runs (alone, a process has nothing to adopt: it resumed all at start)."""
        if self.games.forward is not None:
            await self.resume()

    async def _gone(self, owner: str) -> bool:
        if self.games.forward is None:  # alone: any other owner was this server before
            return True
        return await self.games.stale(owner)

    async def _claim(self, record: EventRecord, play: EnginePlay) -> bool:
        if play.owner == self.games.process_id:
            return True
        mine = replace(play, owner=self.games.process_id)
        data = {**record.data, PLAY_KEY: mine.to_json()}
        change = {"op": "engine-play-resumed", "by": self.games.process_id}
        try:
            await self.repo.save_event(
                record.id, record.version, data, change, time.time(), before=record
            )
        except Conflict:
            return False  # changed meanwhile: the next start looks again
        return True

    async def close(self) -> None:
        """Stop the runners (the requests stay in the event documents)."""
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()

    async def _run(self, event_id: str) -> None:
        while True:
            try:
                if await self._step(event_id):
                    return
            except NotFound:
                return  # the event is gone
            except EngineNotOffered as exc:  # the operator's list changed since the request
                log.error("engine round of event %s stopped: %s", event_id, exc)
                return
            except Exception as exc:  # the store is down, a game could not start: try again
                report_failure(f"engine round of event {event_id}: a pass", exc)
            await asyncio.sleep(self.POLL)

    async def _step(self, event_id: str) -> bool:
        """Start the games a free slot allows; True once the request is done (and removed)."""
        record = await self.repo.event(event_id)
        stored = record.data.get(PLAY_KEY)
        if not isinstance(stored, dict):
            return True
        play = EnginePlay.from_json(stored)
        if play.owner != self.games.process_id:
            return True  # another process took it over
        event = parsed_event(record)
        ours = [g for g in await self.repo.games_of_event(event_id) if g.round == play.round]
        live = [g for g in ours if g.status == "live" and engine_game(g)]
        for g in live:
            # hosted here, or by a live process; a dead owner's game (and its engines) comes
            # here, as it would for a spectator's request
            await self.games.serve(g.id)
        todo = [b for b in engine_boards(event, play.round) if _to_start(event, play, ours, b)]
        if not todo and not live:
            if await self._results_pending(event_id):
                return False  # a drawn knockout game may yet be replayed (settle_draw)
            if play.all_rounds:
                went_on = await self._next_round(record, event, play, ours)
                if went_on is None or went_on:
                    return False  # results still on their way, or the next round is paired
            return await self._finish(record)
        if not todo or len(live) >= play.concurrency:
            return False  # waiting for live games: no count of the cluster's engines needed
        # the caps of every engine game count these too: the cluster's and the client's (the
        # director who asked), counted in the store like a game against the computer
        since = time.time() - self.settings.engine_idle_seconds
        total, mine = await self.repo.engine_games(play.client, since)
        free = min(
            play.concurrency - len(live),
            self.settings.max_engine_games - total,
            self.settings.max_engine_games_per_client - mine,
        )
        for board in todo[: max(free, 0)]:
            if not await self._start_game(record, event, play, board):
                break
        return False

    async def _results_pending(self, event_id: str) -> bool:
        """Whether a finished game of the event still has its result in the outbox."""
        return any(r.event_id == event_id for r in await self.repo.reports())

    async def _next_round(
        self, record: EventRecord, event: Event, play: EnginePlay, ours: list[StoredGame]
    ) -> bool | None:
        """Pair the next round for an ``all_rounds`` request once this one is complete: True
        when paired (the request moves on to it), False when there is none to play (the last
        round, or a board without a result that is no engine game's), None to wait (a finished
        game's result is still in the outbox, or the event changed meanwhile)."""
        from duiyi.tournament import event as ops

        results = {g.board: g.result for g in event.round(play.round).games}
        if any(g.status == "finished" and results.get(g.board or 0) is None for g in ours):
            return None
        last = play.round >= ops.total_rounds(event) or event.current_round != play.round
        if last or not event.round(play.round).complete:
            return False
        seed = secrets.randbits(64)
        meta = {k: v for k, v in record.data.items() if k != "event"}
        event, answer = pair_round(event, meta, seed)
        nxt = replace(play, round=int(answer["round"]))
        data = {**meta, PLAY_KEY: nxt.to_json()}
        change = {"op": "pair", "seed": seed, "by": "engine rounds (all_rounds)"}
        try:
            await self.repo.save_event(
                record.id, record.version, data, change, time.time(), event=event, before=record
            )
        except Conflict:
            return None
        log.info("event %s: round %d paired for its engine players", record.id, nxt.round)
        return True

    async def _start_game(
        self, record: EventRecord, event: Event, play: EnginePlay, board: EngineBoard
    ) -> bool:
        """Start the board's game; False (nothing started) while an engine is at its
        ``max_concurrent``. A name the operator does not list raises EngineNotOffered."""
        from duiyi.server.engines.seats import check_concurrency, player_seats, seat_engines
        from duiyi.server.problems import Unavailable

        number = play.round
        names = {"black": board.black_engine, "white": board.white_engine}
        runs = {seat: self.engines.resolve(name, event.game.name) for seat, name in names.items()}
        try:
            check_concurrency(list(runs.values()))
        except Unavailable:
            return False  # the engines are busy: the next pass looks again
        spec = {**record.data.get("online", {}), "game": event.game.name}
        host, _tokens = await self.games.create(
            NewGame(
                spec,
                event_id=record.id,
                round=number,
                board=board.board,
                arbiter_token_hash=record.arbiter_token_hash,
                # the names are stored (never a command): a restart resolves them again
                engine={"kind": event.game.name, "players": {k: r.spec for k, r in runs.items()}},
                engine_client=play.client,
            )
        )
        timeout = self.settings.engine_move_timeout
        seat_engines(host, player_seats(host, runs, timeout, event.game.name))
        log.info("event %s round %d board %d: game %s", record.id, number, board.board, host.id)
        return True

    async def _finish(self, record: EventRecord) -> bool:
        """Every engine board has its game and every game ended: the request is done (True).
        False when the event changed since ``record`` was read (a result entered meanwhile may
        replay a drawn game): the next pass looks again at the event as it is now."""
        data = {k: v for k, v in record.data.items() if k != PLAY_KEY}
        try:
            await self.repo.save_event(
                record.id,
                record.version,
                data,
                {"op": "engine-play-done"},
                time.time(),
                before=record,
            )
        except Conflict:
            return False
        return True


def _to_start(event: Event, play: EnginePlay, ours: list[StoredGame], board: EngineBoard) -> bool:
    """Whether ``board`` needs a new game: it has none yet, or every game it had was drawn
    and replayed (an elimination game, ``settle_draw``: one game more per replay)."""
    played = sum(1 for g in ours if g.board == board.board)
    return played <= event.round(play.round).game(board.board).replays


def engine_game(game: StoredGame) -> bool:
    """Whether ``game`` is an engine-round game (both seats the event players' engines)."""
    engine = game.config.get("engine")
    return isinstance(engine, dict) and isinstance(engine.get("players"), dict)


def check_engine_round(
    event: Event, number: int, online: dict[str, Any] | None = None
) -> list[EngineBoard]:
    """The boards to play, after the checks a play request needs (TournamentError: 409).

    A Gomoku event's brains play here only with a free opening in its online rules (``free``,
    ``free_renju``, or a rules object with ``"opening": "free"``): the Gomocup protocol has no
    command for the designated opening's swap and fifth-move N-dab (Gomoku §3.2-§3.4).

    >>> from duiyi.tournament import event as ops
    >>> from duiyi.tournament.model import Player
    >>> brain = (("engine", "brain"),)
    >>> e = ops.new_event("cup", "gomoku", "round-robin", None, {})
    >>> e = ops.add_players(e, [Player(0, "a", extra=brain), Player(0, "b", extra=brain)])
    >>> e, _ = ops.pair_next_round(e)
    >>> [b.board for b in check_engine_round(e, 1, {"rules": "free_renju"})]
    [1]
    >>> check_engine_round(e, 1, {})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: ... designated opening ... `duiyi event play` ...
    """
    if event.game.engine_protocol is EngineProtocol.GOMOCUP and _designated(online or {}):
        raise TournamentError(
            "the event's online rules use the designated opening (Gomoku §3.2), which a "
            "Gomocup brain cannot play (no swap or fifth-move N-dab in the protocol): play its "
            "brains with `duiyi event play` (it draws the openings and places them with BOARD), "
            "or set the event's online rules to free or free_renju"
        )
    boards = engine_boards(event, number)
    if not boards:
        raise TournamentError(f"round {number} has no board left between two engine players")
    return boards


def _designated(online: dict[str, Any]) -> bool:
    """Whether the Gomoku rules of an event's online settings use the designated opening
    (the default preset, chinese_2013, does).

    >>> _designated({}), _designated({"rules": "free"}), _designated({"rules": "chinese_2013"})
    (True, False, True)
    """
    from duiyi.gomoku.rules import OpeningRule, RenjuRules

    spec = online.get("rules", "chinese_2013")
    rules = RenjuRules.from_json(spec) if isinstance(spec, dict) else RenjuRules.preset(str(spec))
    return rules.opening is OpeningRule.DESIGNATED
