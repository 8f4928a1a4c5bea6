"""Routes the director's desk needs beyond the event API (issue 20).

- ``GET /api/events/{id}/desk``: the organiser key is checked at once (401/403), so a desk
  opened with a wrong key says so before it shows a control; the answer also carries what the
  desk tells the director (numbers drawn by lot or not, rounds complete).
- ``GET /api/events/{id}/rounds/{n}/boards/{b}/affected``: the later pairings made on a board's
  result, shown before a correction is confirmed (decisions: results after pairing).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from duiyi.server.parsed_events import parsed_event
from duiyi.server.routes_events import _organiser, _repo
from duiyi.tournament import entries

__all__ = ["router"]

router = APIRouter(prefix="/api/events", tags=["desk"])


@router.get("/{event_id}/desk")
async def desk(request: Request, event_id: str) -> dict[str, Any]:
    """The desk's check of the organiser key (404 unknown event, 401 no key, 403 wrong key)
    and the director's reminders: whether round 1's numbers were drawn by lot (appendix
    五.2(1)) and how many rounds have all their results."""
    record = await _repo(request).event(event_id)
    _organiser(request, record)
    e = parsed_event(record)
    drawn = record.data.get("numbers_drawn")
    return {
        "id": record.id,
        "version": record.version,
        "numbers_drawn": drawn,
        "completed_rounds": e.completed_rounds,
        "current_round": e.current_round,
    }


@router.get("/{event_id}/rounds/{number}/boards/{board}/affected")
async def affected(request: Request, event_id: str, number: int, board: int) -> dict[str, Any]:
    """The later pairings made on this board's result (each round and board with its
    players): what a correction confirmed with ``force`` reaches into."""
    record = await _repo(request).event(event_id)
    _organiser(request, record)
    e = parsed_event(record)
    e.round(number).game(board)  # 404/422 for a board that is not there
    later = entries.affected_pairings(e, number, board)
    return {"round": number, "board": board, "affected": [a.to_json() for a in later]}
