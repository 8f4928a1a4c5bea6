"""Event routes: the results the director enters (one board, a results sheet), the conflicts
between an entered and an online result, and their settlement. An entry closes the board's
online game in the same transaction."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from duiyi import Color
from duiyi.errors import InvalidInput
from duiyi.server.events.changes import (
    change_board,
    change_event,
    event_summary,
    repo_of,
    text_body,
)
from duiyi.server.events.parsed import parsed_event
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.schemas import NO_BOOL, Numbered
from duiyi.store.repository import EventRecord
from duiyi.tournament import entries
from duiyi.tournament.formats import csvfiles
from duiyi.tournament.model import Event
from duiyi.tournament.results import GameResult, Source

__all__ = ["router"]

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["events"], route_class=KeyFirstRoute)


class ResultEntry(BaseModel):
    """A result: ``1-0`` (Black wins), ``0-1``, ``draw``, ``forfeit-black``, ... or null to
    clear it."""

    model_config = ConfigDict(extra="forbid")

    result: (
        Literal[
            "1-0",
            "0-1",
            "draw",
            "forfeit-black",
            "forfeit-white",
            "double-forfeit",
            "both-lose",
            "no-result",
        ]
        | None
    )
    black_warnings: Annotated[int, Field(ge=0, le=2), NO_BOOL] = 0
    white_warnings: Annotated[int, Field(ge=0, le=2), NO_BOOL] = 0
    penalty: list[Literal["black", "white"]] = Field(
        default_factory=list,
        description="sides that lose by a disciplinary ruling after the result (Gomoku §2.20(3))",
    )
    disqualified: list[Literal["black", "white"]] = Field(
        default_factory=list, description="sides disqualified from the event (Gomoku §2.20(4))"
    )
    force: StrictBool = Field(False, description="confirm a change once the next round is paired")


@router.put("/{event_id}/rounds/{number}/boards/{board}/result")
async def enter_result(
    request: Request, event_id: str, number: Numbered, board: Numbered, body: ResultEntry
) -> dict[str, Any]:
    """Enter or correct a result (organiser). The board records it as the director's, with an
    audit entry; the board's online game is closed (its later actions are refused, 409). Once
    the next round is paired a change needs ``force`` and the answer lists the pairings made
    on the old result (``affected``)."""
    result = GameResult.parse(body.result) if body.result is not None else None
    sheet = entries.sheet_of(
        result,
        body.black_warnings,
        body.white_warnings,
        tuple(Color(c) for c in body.penalty),
        tuple(Color(c) for c in body.disqualified),
    )
    wall = time.time()

    def enter(e: Event) -> entries.Entered:
        return entries.record_result(
            e,
            number,
            board,
            sheet,
            source=Source.DIRECTOR,
            by="organiser",
            at=wall,
            force=body.force,
        )

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        done = enter(e)
        return done.event, done

    def reason(done: entries.Entered, version: int) -> str | None:
        if sheet is None or done.status == "unchanged":
            return None
        return _closing(event_id, version, number, board, sheet.result)

    def closing(done: entries.Entered, version: int) -> dict[tuple[int, int], str]:
        why = reason(done, version)
        return {} if why is None else {(number, board): why}

    async def whole() -> tuple[EventRecord, entries.Entered, int]:
        record, (done, version) = await change_event(request, event_id, change, apply, closing)
        return record, done, version

    # one board's rows, read and written alone (issue 26): the whole event only when the
    # change needs it (a disqualification, a team or groups event)
    change = {"op": "result", "round": number, "board": board, **body.model_dump()}
    record, done, _version = await change_board(
        request, event_id, number, board, change, enter, reason, whole
    )
    closed = request.state.closed_games
    return {**event_summary(record), **_entered(done), "closed_games": closed}


# The results sheet is read by hand (CSV): documented for the OpenAPI document.
RESULTS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "text/csv": {
                "schema": {
                    "type": "string",
                    "description": "header round,board,result (optional black_warnings, "
                    "white_warnings); result codes as in a board's result; one line a "
                    "board (the pattern shows a sheet of one line)",
                    # what the sheet reader reads (csvfiles.parse_results), so that a body the
                    # document allows is never a 422
                    "pattern": "^round,board,result\\r?\\n[1-9][0-9]{0,2},[1-9][0-9]{0,2},"
                    "(1-0|0-1|draw|forfeit-black|forfeit-white|double-forfeit|both-lose|"
                    "no-result)\\r?\\n?$",
                }
            }
        },
    }
}


@router.post("/{event_id}/results", openapi_extra=RESULTS_BODY)
async def enter_results(request: Request, event_id: str, force: bool = False) -> dict[str, Any]:
    """Enter a results sheet (organiser): CSV ``round,board,result`` with optional
    ``black_warnings,white_warnings``, as ``duiyi event result --file`` reads it. The whole
    sheet enters in one change or not at all (a bad line or board stores nothing); each board
    records the director's entry with an audit entry, and its online game is closed. A change
    to a round followed by a paired round needs ``?force=true``."""
    rows = csvfiles.parse_results(text_body(await request.body(), "the results sheet"))
    if not rows:
        raise InvalidInput("the results sheet has no result", code="results-empty")
    wall = time.time()

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return entries.record_sheet(
            e,
            [(r.round, r.board, r.sheet) for r in rows],
            source=Source.DIRECTOR,
            by="organiser (results sheet)",
            at=wall,
            force=force,
        )

    def closing(done: list[entries.Entered], version: int) -> dict[tuple[int, int], str]:
        # every game of the sheet's boards closes in the sheet's own transaction
        return {
            (d.round, d.board): _closing(event_id, version, d.round, d.board, row.result)
            for d, row in zip(done, rows, strict=True)
            if d.status != "unchanged"
        }

    change = {"op": "results", "count": len(rows), "force": force}
    record, (done, _version) = await change_event(request, event_id, change, apply, closing)
    closed = request.state.closed_games
    return {
        **event_summary(record),
        "entered": [{"round": d.round, "board": d.board, "status": d.status} for d in done],
        "affected": [a.to_json() for d in done for a in d.affected],
        "withdrawn": [p for d in done for p in d.withdrawn],
        "closed_games": closed,
    }


def _entered(done: entries.Entered) -> dict[str, Any]:
    """What a board's change did, with the board (its result record), not its whole round."""
    return {
        "status": done.status,
        "affected": [a.to_json() for a in done.affected],
        "withdrawn": list(done.withdrawn),
        "round": done.round,
        "board": done.game.to_json(),
    }


def _closing(event_id: str, version: int, number: int, board: int, result: GameResult) -> str:
    """What the players of a board's online game are told when the director's entry closes it."""
    return (
        f"round {number} board {board}: the director entered {result.value} "
        f"(event {event_id} version {version}); this online game is closed"
    )


class Resolution(BaseModel):
    """The director's answer to a board's conflict."""

    model_config = ConfigDict(extra="forbid")

    accept: StrictBool = Field(
        description="true: enter the disagreeing result; false: keep the board's"
    )
    force: StrictBool = Field(False, description="confirm a change once the next round is paired")


@router.post("/{event_id}/rounds/{number}/boards/{board}/conflict")
async def resolve_conflict(
    request: Request, event_id: str, number: Numbered, board: Numbered, body: Resolution
) -> dict[str, Any]:
    """Settle the board's conflict (an online result that disagreed with the entered one)."""
    wall = time.time()

    def resolve(e: Event) -> entries.Entered:
        return entries.resolve_conflict(
            e, number, board, accept=body.accept, by="organiser", at=wall, force=body.force
        )

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        done = resolve(e)
        return done.event, done

    async def whole() -> tuple[EventRecord, entries.Entered, int]:
        record, (done, version) = await change_event(request, event_id, change, apply)
        return record, done, version

    change = {"op": "conflict", "round": number, "board": board, **body.model_dump()}
    request.state.closed_games = []
    record, done, _version = await change_board(
        request, event_id, number, board, change, resolve, lambda _d, _v: None, whole
    )
    return {**event_summary(record), **_entered(done)}


@router.get("/{event_id}/conflicts")
async def conflicts(request: Request, event_id: str) -> dict[str, Any]:
    """Every board whose result waits for the director: the board's result and the result
    that disagreed (settle each with ``POST .../boards/{b}/conflict``)."""
    e = parsed_event(await repo_of(request).event(event_id))
    return {
        "conflicts": [
            {"round": rnd, **g.to_json()} for rnd, g in e.games() if g.conflict is not None
        ]
    }
