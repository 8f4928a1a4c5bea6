"""The worker that enters finished event games' result sheets from the outbox in their events
(:class:`ResultReader`); how one report enters is :mod:`duiyi.server.events.report_entry`."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import os
import time
from typing import Any

from duiyi.server.events.parsed import parsed_event, remember_event
from duiyi.server.events.report_entry import DRAWN, enter_report
from duiyi.server.games.manager import GameManager
from duiyi.server.problems import report_failure
from duiyi.store.repository import Conflict, NotFound, Report, ReportGone, Repository
from duiyi.tournament.results import ResultSheet

__all__ = ["ResultReader", "install_result_hook"]

log = logging.getLogger("duiyi.server.events")


class ResultReader:
    """Enters the result sheets of finished event games from the outbox (``event_outbox``).

    A sheet is written with the action that finished its game (one transaction); the reader
    enters it with :func:`duiyi.tournament.entries.record_result` and deletes the row in the
    same transaction as the event change, retrying a concurrent event write for as long as it
    takes. It runs when a game reports, every few seconds, and at start-up, so a sheet left
    by a crash enters its event after the restart. ``DUIYI_RESULT_DELAY`` (seconds, for the
    crash test) holds each pass back.
    """

    POLL = 5.0

    def __init__(
        self, repo: Repository, delay: float = 0.0, games: GameManager | None = None
    ) -> None:
        self.repo = repo
        self.delay = delay
        self.games = games  # starts the online replay of a drawn knockout game
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def nudge(self) -> None:
        """A report entered the outbox (or the server started): read it soon."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name="results")
        self.wake.set()

    async def close(self) -> None:
        """Stop reading (unread rows stay for the next start)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=self.POLL)
            self.wake.clear()
            if self.delay:
                await asyncio.sleep(self.delay)
            try:
                await self.drain()
            except Exception as exc:  # the store is down: the rows wait for the next pass
                report_failure("result outbox: a pass", exc)

    async def drain(self) -> int:
        """Enter every waiting report; how many were consumed. The reports of one event enter
        in one event change (a round of a large event is one write per pass, not one per
        board); a report that fails stays for the next pass and does not hold the others back."""
        count = 0
        while True:
            reports = await self.repo.reports()
            by_event: dict[str, list[Report]] = {}
            for report in reports:
                by_event.setdefault(report.event_id, []).append(report)
            progressed = False
            for event_id, batch in by_event.items():
                try:
                    consumed = await self.enter(event_id, batch)
                except Exception as exc:
                    report_failure(f"results of event {event_id}: entering them", exc)
                    continue
                count += consumed
                progressed = progressed or consumed > 0
            if not progressed:
                return count

    async def enter(self, event_id: str, reports: list[Report]) -> int:
        """Enter ``reports`` (oldest first) in their event in one change, keeping a disagreeing
        result as the board's conflict; how many reports were consumed."""
        replayed, engine = await self._draws(reports)  # read once: no retry changes it
        for attempt in itertools.count():
            try:
                ev = await self.repo.event(event_id)
            except NotFound:
                log.warning("results of %d games: event %s is gone", len(reports), event_id)
                return sum([await self.repo.drop_report(r.id) for r in reports])
            e = parsed_event(ev)
            changes: list[dict[str, Any]] = []
            used: list[int] = []
            replays: list[tuple[int, int]] = []  # boards whose drawn online game is replayed
            for report in reports:
                try:
                    after, status = enter_report(e, report, report.game_id in replayed)
                except Exception:  # this report waits for the next pass; the others go on
                    log.exception("result of game %s: not entered yet", report.game_id)
                    continue
                used.append(report.id)
                if after is not e:
                    changes.append(
                        {"game": report.game_id, "status": status, "sheet": report.sheet}
                    )
                    if status == "replay" and report.game_id not in engine:
                        replays.append((report.round, report.board))
                e = after
            if not used:
                return 0
            if not changes:
                return sum([await self.repo.drop_report(r) for r in used])
            data = dict(ev.data)
            change = {"op": "game-results", "games": changes}
            try:
                wall = time.time()
                version = await self.repo.save_event(
                    ev.id, ev.version, data, change, wall, reports=used, event=e, before=ev
                )
                remember_event(
                    dataclasses.replace(ev, data=data, version=version, updated_at=wall, event=e),
                    e,
                )
                await self._replays(event_id, replays)
                return len(used)
            except ReportGone:  # another reader entered some of them: read the outbox again
                return 0
            except Conflict:
                await asyncio.sleep(min(0.02 * 2**attempt, 1.0))
        raise AssertionError("unreachable")  # pragma: no cover

    async def _replays(self, event_id: str, boards: list[tuple[int, int]]) -> None:
        """Start the online replay game of each board whose drawn game is replayed."""
        from duiyi.server.routes.knockout import start_replay

        for number, board in boards:
            if self.games is None:
                return
            try:
                await start_replay(self.games, self.repo, event_id, number, board)
            except Exception as exc:  # the desk's "start the round's games" starts it instead
                report_failure(f"replay of round {number} board {board}: its start", exc)

    async def _draws(self, reports: list[Report]) -> tuple[set[str], set[str]]:
        """The games among ``reports`` that are drawn (settled by replay or lot in an
        elimination round) and, among them, the engine-round games (the server's engine
        players, docs/server.md "Engine rounds"), which the engine round replays itself."""
        from duiyi.server.engines.rounds import engine_game

        out = set()
        drawn_games = set()
        for report in reports:
            try:
                drawn = ResultSheet.from_json(report.sheet).result in DRAWN
            except Exception:
                continue  # an unreadable sheet waits in the outbox (see report_entry.enter_report)
            if not drawn:
                continue
            drawn_games.add(report.game_id)
            with contextlib.suppress(NotFound):
                if engine_game(await self.repo.game(report.game_id)):
                    out.add(report.game_id)
        return drawn_games, out


def install_result_hook(games: GameManager, repo: Repository) -> None:
    """Finished event games enter their results through the outbox (see :class:`ResultReader`)."""
    reader = ResultReader(repo, float(os.environ.get("DUIYI_RESULT_DELAY") or 0), games)
    games.on_report = reader.nudge
