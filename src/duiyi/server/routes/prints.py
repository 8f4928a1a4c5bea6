"""What the desk's prints need beyond the event document: a round's pairing sheet with each
player's points before the round and club (对阵表: 台次, 黑方, 单位, 积分, 白方, 结果).

The points come from the tournament core (the standings through the rounds before), so the
page computes nothing rule-related.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fastapi import APIRouter, Request

from duiyi.server.events.changes import repo_of
from duiyi.server.events.parsed import parsed_event
from duiyi.server.schemas import Numbered
from duiyi.store.repository import NotFound
from duiyi.tournament.formats import wallchart
from duiyi.tournament.model import Event

__all__ = ["points_before", "router"]

router = APIRouter(prefix="/api/events", tags=["events"])


def points_before(e: Event, number: int) -> dict[int, str]:
    """Each competitor's points before round ``number`` (exact, as the standings print them).

    >>> from duiyi.tournament.event import _example
    >>> points_before(_example(), 1)[1]
    '0'
    """
    if number <= 1:
        return {p.number: "0" for p in e.players} | {t.number: "0" for t in e.teams}
    before = dataclasses.replace(e, history=e.history[: number - 1])
    rows = wallchart.standings_json(before)["standings"]
    return {int(r["number"]): str(r["points"]) for r in rows}


@router.get("/{event_id}/rounds/{number}/sheet")
async def pairing_sheet(request: Request, event_id: str, number: Numbered) -> dict[str, Any]:
    """Round ``number``'s boards with both players' names, ranks, clubs and points before
    the round (the printed 对阵表 and result slips)."""
    e = parsed_event(await repo_of(request).event(event_id))
    if not 1 <= number <= e.current_round:
        raise NotFound(f"round {number} is not paired (paired: {e.current_round})")
    points = points_before(e, number)
    team_of = {m: t.name for t in e.teams for m in t.members}

    def side(n: int | None) -> dict[str, Any] | None:
        if n is None:
            return None
        p = e.player(n)
        return {
            "number": n,
            "name": p.name,
            "rank": p.rank,
            "club": p.club,
            "team": team_of.get(n, ""),
            "points": points.get(n, "0") if not e.is_team_event else "",
        }

    rnd = e.round(number)
    return {
        "round": number,
        "name": e.name,
        "game": e.game.name,
        "system": e.system,
        "teams": e.is_team_event,
        "boards": [
            {
                "board": g.board,
                "black": side(g.black),
                "white": side(g.white),
                "result": g.result.value if g.result is not None else None,
            }
            for g in rnd.games
        ],
        "byes": [side(b) for b in rnd.byes],
    }
