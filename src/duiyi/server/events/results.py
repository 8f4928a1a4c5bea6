"""Entering a result in its event: the one way every result of an event goes on the server.

Every path ends here: a finished online game's sheet from the outbox (:class:`ResultReader`),
and, through :func:`results_entered`, the director's entries at the desk (one board, a results
sheet, a settled conflict, a knockout draw settled by replay or lot, ``routes/results.py``,
``routes/knockout.py``). The rules are the tournament's
(:func:`duiyi.tournament.entries.record_online` for an online sheet,
:func:`~duiyi.tournament.entries.record_result` for the desk); this module reads an online sheet once (:func:`read_report`: the outbox row's JSON into an
:class:`OnlineSheet` holding its typed :class:`~duiyi.tournament.results.ResultSheet`), enters
it (:func:`enter_online`), stores the event change, and then
does what follows a result (:func:`results_entered`): the online replay of a drawn board
(:func:`start_replay`) and the end of the round told to its games (Gomoku §8.11,
:mod:`duiyi.server.events.round_end`).

The result's forms: the typed sheet (made from the game's outcome when it finished), its JSON
(the outbox row, the change in the event's log), the typed sheet again (read here once), and
the board it lands on (``Game.with_sheet``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import os
import time
from collections.abc import Iterable
from typing import Any

from duiyi.errors import TournamentError
from duiyi.server.events.parsed import parsed_event, remember_event
from duiyi.server.games.manager import GameManager, NewGame
from duiyi.server.problems import report_failure
from duiyi.store.repository import Conflict, NotFound, Report, ReportGone, Repository
from duiyi.tournament import entries
from duiyi.tournament.model import Event
from duiyi.tournament.results import ResultSheet

__all__ = [
    "DRAWN",
    "OnlineSheet",
    "ResultReader",
    "enter_online",
    "install_result_hook",
    "read_report",
    "results_entered",
    "start_replay",
]

log = logging.getLogger("duiyi.server.events")

# the results a drawn game of an elimination round has (settled by replay or lot)
DRAWN = entries.DRAWN


@dataclasses.dataclass(frozen=True)
class OnlineSheet:
    """A finished online game's report with its sheet read (once, by :func:`read_report`)."""

    report: Report
    sheet: ResultSheet

    @property
    def drawn(self) -> bool:
        """Whether the game ended without a winner (settled by replay or lot in an
        elimination round)."""
        return self.sheet.result in DRAWN


def read_report(report: Report) -> OnlineSheet | None:
    """The report with its sheet read, or None (logged) when the sheet cannot be read: it
    waits in the outbox for the next pass and holds no other report back."""
    try:
        return OnlineSheet(report, ResultSheet.from_json(report.sheet))
    except Exception:
        log.exception("result of game %s: its sheet cannot be read yet", report.game_id)
        return None


def enter_online(
    e: Event, entry: OnlineSheet, engine_draw: bool = False, earlier_games: int | None = None
) -> tuple[Event, str]:
    """The event with one online sheet entered (or held as the board's conflict), and the
    entry's status; ``e`` itself when the sheet changes nothing or cannot be entered at all
    (``refused``, logged). ``engine_draw``: a drawn game of an elimination round (an engine
    game or a players' online game) is settled by replay or lot
    (:func:`duiyi.tournament.entries.record_online`, the engine-draw policy, docs/server.md
    "Engine rounds"); ``earlier_games``, how many online games its board played before it,
    keeps a draw the director settled meanwhile from being settled again."""
    report = entry.report
    try:
        return entries.record_online(
            e,
            report.round,
            report.board,
            entry.sheet,
            game_id=report.game_id,
            at=report.wall,
            settle_draw=engine_draw,
            earlier_games=earlier_games,
        )
    except TournamentError as exc:
        log.warning("result of game %s not entered: %s", report.game_id, exc)
        return e, "refused"


async def results_entered(
    games: GameManager | None,
    repo: Repository,
    event_id: str,
    event: Event | None,
    rounds: Iterable[int] | None,
    replays: Iterable[tuple[int, int]] = (),
) -> None:
    """What follows a stored result change, best effort (the results are stored): the online
    replay of each board ``(round, board)`` whose drawn game is replayed, then the end of the
    ``rounds`` (None: any round) told to their games (Gomoku §8.11). ``event`` is the event
    stored, when the change had the whole of it (else it is read once no game is live)."""
    from duiyi.server.events.round_end import tell_round_ended

    for number, board in replays:
        if games is None:
            break
        try:
            await start_replay(games, repo, event_id, number, board)
        except Exception as exc:  # the desk's "start the round's games" starts it instead
            report_failure(f"replay of round {number} board {board}: its start", exc)
    try:
        await tell_round_ended(games, repo, event_id, rounds, event)
    except Exception as exc:  # the appeals of those rounds then have no deadline
        report_failure("the end of a round: telling its games", exc)


async def start_replay(
    games: GameManager, repo: Repository, event_id: str, number: int, board: int
) -> dict[str, Any] | None:
    """Start the online replay of a board whose drawn game is replayed with colours reversed,
    when the board (or its round) was played online: the new game's seats keep the players'
    links of the board's last game, swapped (the player who had Black now has White). A board
    whose round has no online game is played over the board: None. Answers the new game's id,
    and new links only when the board had no game of its own."""
    record = await repo.event(event_id)
    mine = [g for g in await repo.games_of_event(event_id) if g.round == number]
    if not mine:
        return None
    board_games = [g for g in mine if g.board == board]
    # the event's online games' settings, as the round's own games got them (the foul policy
    # and hints of a Gomoku event included)
    spec = parsed_event(record).game.event_game_spec(record.data.get("online", {}))
    last = board_games[-1] if board_games else None
    if last is not None:
        if isinstance(last.config.get("engine"), dict):
            return None  # the engine round replays its own boards
        if last.closed is None and last.status == "live" and last.outcome is None:
            await games.close_event_game(
                last.id, f"round {number} board {board}: replayed with colours reversed"
            )
    host, tokens = await games.create_routed(
        NewGame(
            spec,
            event_id=event_id,
            round=number,
            board=board,
            arbiter_token_hash=record.arbiter_token_hash,
            # the players' links of the board's last game, colours swapped
            token_hashes=None if last is None else (last.white_token_hash, last.black_token_hash),
        )
    )
    if last is not None:
        return {"board": board, "game_id": host.id, "replay_of": last.id}
    return {
        "board": board,
        "game_id": host.id,
        "black_token": tokens["black"],
        "white_token": tokens["white"],
    }


class ResultReader:
    """Enters the result sheets of finished event games from the outbox (``event_outbox``).

    A sheet is written with the action that finished its game (one transaction); the reader
    reads it once (:func:`read_report`), enters it (:func:`enter_online`) and deletes the row
    in the same transaction as the event change, retrying a concurrent event write for as long
    as it takes. It runs when a game reports, every few seconds, and at start-up, so a sheet
    left by a crash enters its event after the restart. ``DUIYI_RESULT_DELAY`` (seconds, for
    the crash test) holds each pass back.
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
        read = [entry for entry in map(read_report, reports) if entry is not None]
        replayed, engine = await self._draws(read)  # read once: no retry changes it
        earlier = await self._earlier_games(event_id, read, replayed)
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
            for entry in read:
                report = entry.report
                try:
                    after, status = enter_online(
                        e, entry, report.game_id in replayed, earlier.get(report.game_id)
                    )
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
                rounds = {r.round for r in reports if r.id in used}
                await results_entered(self.games, self.repo, event_id, e, rounds, replays)
                return len(used)
            except ReportGone:  # another reader entered some of them: read the outbox again
                return 0
            except Conflict:
                await asyncio.sleep(min(0.02 * 2**attempt, 1.0))
        raise AssertionError("unreachable")  # pragma: no cover

    async def _earlier_games(
        self, event_id: str, read: list[OnlineSheet], drawn: set[str]
    ) -> dict[str, int]:
        """For each drawn game among ``read``, how many online games its board played before
        it (the store's games in the order they were made): a board settled more often than
        that had this draw settled at the desk already."""
        if not drawn:
            return {}
        games = await self.repo.games_of_event(event_id)
        out = {}
        for entry in read:
            r = entry.report
            if r.game_id not in drawn:
                continue
            board = [g.id for g in games if (g.round, g.board) == (r.round, r.board)]
            if r.game_id in board:
                out[r.game_id] = board.index(r.game_id)
        return out

    async def _draws(self, read: list[OnlineSheet]) -> tuple[set[str], set[str]]:
        """The games among the reports ``read`` that are drawn (settled by replay or lot in
        an elimination round) and, among them, the engine-round games (the server's engine
        players, docs/server.md "Engine rounds"), which the engine round replays itself."""
        from duiyi.server.engines.rounds import engine_game

        out = set()
        drawn_games = set()
        for entry in read:
            if not entry.drawn:
                continue
            drawn_games.add(entry.report.game_id)
            with contextlib.suppress(NotFound):
                if engine_game(await self.repo.game(entry.report.game_id)):
                    out.add(entry.report.game_id)
        return drawn_games, out


def install_result_hook(games: GameManager, repo: Repository) -> None:
    """Finished event games enter their results through the outbox (see :class:`ResultReader`)."""
    reader = ResultReader(repo, float(os.environ.get("DUIYI_RESULT_DELAY") or 0), games)
    games.on_report = reader.nudge
