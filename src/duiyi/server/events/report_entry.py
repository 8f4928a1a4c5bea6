"""How one finished event game's report enters its event (pure: an event in, an event out):
entered as the online result, held as the board's conflict when the event's rules refuse it,
or, for a drawn game of an elimination round, settled by replay or by lot (the engine-draw
policy, docs/server.md "Engine rounds")."""

from __future__ import annotations

import logging
import random

from duiyi.errors import TournamentError
from duiyi.store.repository import Report
from duiyi.tournament import entries
from duiyi.tournament import event as ops
from duiyi.tournament.model import Event
from duiyi.tournament.results import GameResult, ResultSheet, Source

__all__ = ["DRAWN", "enter_report", "settled_by_replay"]

log = logging.getLogger("duiyi.server.events")

# the results a drawn game of an elimination round has (settled by replay or lot)
DRAWN = (GameResult.DRAW, GameResult.NO_RESULT)


def settled_by_replay(e: Event, report: Report, sheet: ResultSheet) -> bool:
    """Whether a drawn engine game's report goes to :func:`ops.settle_draw`: a plain draw
    (no penalty, no disqualification) on a board still without a result, in a round that needs
    a winner, under ``options.knockout_draw`` other than ``refuse`` (which holds it for the
    director as before)."""
    from duiyi.tournament import systems

    if sheet.result not in DRAWN or sheet.penalty or sheet.disqualified:
        return False
    if e.options.knockout_draw == "refuse":
        return False
    game = e.round(report.round).game(report.board)
    return game.result is None and systems.of(e).needs_winner(e, report.round)


def enter_report(e: Event, report: Report, engine_draw: bool = False) -> tuple[Event, str]:
    """The event with one report entered (or held as the board's conflict), and the entry's
    status; ``e`` itself when the report changes nothing or cannot be entered at all.

    A drawn game of an elimination round (``engine_draw``: an engine game or a players'
    online game) is settled as ``duiyi event play`` settles it (:func:`duiyi.tournament.event.settle_draw`): replayed with
    colours reversed (the engine round plays the board again), then decided by lot from
    ``Random(f"{seed}:lot:{round}:{board}")``, the seed being ``options.seed`` or else the
    drawn game's id (recorded with the change)."""
    sheet = ResultSheet.from_json(report.sheet)
    if engine_draw and settled_by_replay(e, report, sheet):
        seed = report.game_id if e.options.seed is None else e.options.seed
        lot = random.Random(f"{seed}:lot:{report.round}:{report.board}")
        after = ops.settle_draw(e, report.round, report.board, sheet.result, lot)
        settled = after.round(report.round).game(report.board)
        return after, "replay" if settled.result is None else "lot"
    # a penalty or a disqualification on the sheet is the arbiter's ruling in that game
    source = Source.ARBITER if sheet.penalty or sheet.disqualified else Source.ONLINE
    by, at = f"game {report.game_id}", report.wall
    try:
        done = entries.record_result(
            e, report.round, report.board, sheet, source=source, by=by, at=at
        )
    except TournamentError as exc:
        # refused by the event's rules: the director sees it on the board
        try:
            done = entries.hold(e, report.round, report.board, sheet, source, by, at, str(exc))
        except TournamentError:
            log.warning("result of game %s not entered: %s", report.game_id, exc)
            return e, "refused"
    if done.status == "unchanged" and done.event == e:
        return e, done.status
    return done.event, done.status
