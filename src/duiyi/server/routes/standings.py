"""Event routes: what an event shows and hands out (standings, the wall chart, the crosstable,
OpenGotha, EGD, CSV and SGF exports); reads only."""

from __future__ import annotations

import io
import zipfile
from typing import Any, Literal

from fastapi import APIRouter, Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from duiyi.errors import TournamentError
from duiyi.server.events.changes import games_of, online_of, repo_of
from duiyi.server.events.parsed import parsed_event
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.problems import attachment, file_answer
from duiyi.tournament import event as ops
from duiyi.tournament.formats import csvfiles, opengotha, wallchart
from duiyi.tournament.formats.records import missing_records, missing_text, named_record

__all__ = ["router"]

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["events"], route_class=KeyFirstRoute)


@router.get("/{event_id}/standings")
async def standings(request: Request, event_id: str) -> dict[str, Any]:
    """Standings with the tiebreak columns of the event's system."""
    data: dict[str, Any] = wallchart.standings_json(
        parsed_event(await repo_of(request).event(event_id))
    )
    return data


@router.get("/{event_id}/standings.html", response_class=HTMLResponse)
async def standings_html(
    request: Request, event_id: str, lang: Literal["en", "zh"] = "en"
) -> HTMLResponse:
    """The printable wall chart (``?lang=zh``: 成绩公告 in Chinese)."""
    e = parsed_event(await repo_of(request).event(event_id))
    return HTMLResponse(wallchart.standings_html(e, lang=lang))


@router.get("/{event_id}/crosstable")
async def crosstable(request: Request, event_id: str) -> dict[str, Any]:
    """Each player's result cell for every round (``4b+``: beat player 4 with Black)."""
    e = parsed_event(await repo_of(request).event(event_id))
    cells = ops.crosstable(e)
    return {
        "rounds": e.current_round,
        "players": [
            {
                "number": p.number,
                "name": p.name,
                "rounds": {str(r): c for r, c in sorted(cells[p.number].items())},
            }
            for p in e.players
        ],
    }


@router.get(
    "/{event_id}/export/opengotha.xml",
    response_class=Response,
    responses=file_answer("application/xml", "the OpenGotha file"),
)
async def export_opengotha(request: Request, event_id: str) -> Response:
    """The event as an OpenGotha XML file."""
    record = await repo_of(request).event(event_id)
    return attachment(
        opengotha.to_opengotha(parsed_event(record), online_of(record)),
        "application/xml",
        f"{event_id}.xml",
    )


@router.get(
    "/{event_id}/export/results.h9",
    response_class=Response,
    responses=file_answer("text/plain", "the EGD results file"),
)
async def export_egd(request: Request, event_id: str, egf_class: str = "") -> Response:
    """The event's results as an EGD tournament file (``egf_class``: A, B, C or D)."""
    from duiyi.tournament.formats.exports import export_event

    record = await repo_of(request).event(event_id)
    e = parsed_event(record)
    if not e.game.has_egd:
        raise TournamentError(
            f"the European Go Database holds Go results only: a {e.game.title} event has no "
            "EGD file",
            code="egd-go-only",
        )
    text, _ = export_event(e, "egd", egf_class=egf_class[:1].upper(), online=online_of(record))
    return attachment(text, "text/plain; charset=utf-8", f"{event_id}.h9")


@router.get(
    "/{event_id}/export/standings.csv",
    response_class=Response,
    responses=file_answer("text/csv", "the standings"),
)
async def export_standings_csv(request: Request, event_id: str) -> Response:
    """The standings as CSV (place, player, points, tiebreaks, one column per round)."""
    from duiyi.tournament.formats.exports import export_event

    e = parsed_event(await repo_of(request).event(event_id))
    text, _ = export_event(e, "csv")
    return attachment(text, "text/csv; charset=utf-8", f"{event_id}-standings.csv")


@router.get(
    "/{event_id}/export/players.csv",
    response_class=PlainTextResponse,
    responses=file_answer("text/csv", "the players"),
)
async def export_players(request: Request, event_id: str) -> PlainTextResponse:
    """The players as CSV (``name,rank,rating,club``)."""
    e = parsed_event(await repo_of(request).event(event_id))
    text = csvfiles.format_players(list(e.players))  # the one CSV writer: formulas neutralised
    return PlainTextResponse(text, media_type="text/csv")


@router.get(
    "/{event_id}/export/sgf.zip",
    response_class=Response,
    responses=file_answer("application/zip", "the games' SGF records"),
)
async def export_sgf(request: Request, event_id: str) -> Response:
    """Every online game of the event as SGF, in one zip, named as the event names it (PB, PW,
    EV, RO; RE from the event when the director entered the result at the desk). A board
    without an online game (its result entered at the desk, a forfeit, not played yet) has no
    record: the zip's ``missing.txt`` names each such board and why (the desk says it too)."""
    e = parsed_event(await repo_of(request).event(event_id))
    buffer = io.BytesIO()
    stored = sorted(await repo_of(request).games_of_event(event_id), key=lambda g: g.created_at)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for i, g in enumerate(stored):
            host = await games_of(request).find(g.id)
            session = await host.current_session()
            text = session.game.sgf()
            if g.round is not None and g.board is not None and g.round <= e.current_round:
                later = sum(1 for x in stored[i + 1 :] if (x.round, x.board) == (g.round, g.board))
                text = named_record(e, g.round, g.board, text, later)
            zf.writestr(f"round{g.round}-board{g.board}-{g.id}.sgf", text)
        online = {(g.round, g.board) for g in stored if g.round is not None and g.board}
        missing = missing_text(e, missing_records(e, online))
        if missing:
            zf.writestr("missing.txt", missing)
    return attachment(buffer.getvalue(), "application/zip", f"{event_id}-games.zip")
