"""Routes the director's desk needs beyond the event API (issue 20).

- ``GET /api/events/{id}/desk``: the organiser key is checked at once (401/403), so a desk
  opened with a wrong key says so before it shows a control; the answer also carries what the
  desk tells the director (numbers drawn by lot or not, rounds complete).
- ``GET /api/events/{id}/rounds/{n}/boards/{b}/affected``: the later pairings made on a board's
  result, shown before a correction is confirmed (decisions: results after pairing).
- ``PUT /api/events/{id}/players/{n}/rounds/{r}``: present or absent for a round not paired.
- ``GET /api/events/{id}/players/{n}/withdrawal``: what a withdrawal would do (the article, the
  effect on the results and on the game in play), shown before the director confirms;
  ``POST .../withdraw/undo`` takes it back until the next round is paired.
- ``POST /api/events/{id}/rounds/{n}/pairings/check`` and ``PUT .../pairings``: pairing by
  hand before the round's games start, with warnings (rematch, colours, score groups, bye).
"""

from __future__ import annotations

import random
import re
import time
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from duiyi.errors import TournamentError
from duiyi.server.events.changes import (
    change_event,
    check_organiser,
    check_organiser_first,
    repo_of,
)
from duiyi.server.events.parsed import parsed_event
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.schemas import Numbered
from duiyi.tournament import entries, flags, hand, participation, systems, withdrawal
from duiyi.tournament.model import Event

__all__ = ["router"]

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["desk"], route_class=KeyFirstRoute)


# the pairing's note on who has the bye and why (duiyi.tournament.pairing.swiss)
_BYE_NOTE = re.compile(r"^\d+ has the bye\b")


@router.get("/{event_id}/desk")
async def desk(request: Request, event_id: str) -> dict[str, Any]:
    """The desk's check of the organiser key (404 unknown event, 401 no key, 403 wrong key)
    and the director's reminders: whether round 1's numbers were drawn by lot (appendix
    五.2(1)) and how many rounds have all their results."""
    record = await repo_of(request).event(event_id)
    check_organiser(request, record)
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
async def affected(
    request: Request, event_id: str, number: Numbered, board: Numbered
) -> dict[str, Any]:
    """The later pairings made on this board's result (each round and board with its
    players): what a correction confirmed with ``force`` reaches into."""
    record = await repo_of(request).event(event_id)
    check_organiser(request, record)
    e = parsed_event(record)
    e.round(number).game(board)  # 404/422 for a board that is not there
    later = entries.affected_pairings(e, number, board)
    return {"round": number, "board": board, "affected": [a.to_json() for a in later]}


class Presence(BaseModel):
    """A player's participation in one round."""

    model_config = ConfigDict(extra="forbid")

    present: StrictBool = Field(description="true: paired in the round; false: absent from it")


@router.put("/{event_id}/players/{number}/rounds/{round_number}")
async def set_presence(
    request: Request, event_id: str, number: Numbered, round_number: Numbered, body: Presence
) -> dict[str, Any]:
    """Mark a player present or absent for a round not paired yet (Swiss-type systems): an
    absent player is not paired and plays no game in it (docs/decisions.md, absent rounds)."""

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return participation.set_present(e, number, round_number, body.present), None

    change = {"op": "presence", "player": number, "round": round_number, "present": body.present}
    record, _ = await change_event(request, event_id, change, apply)
    e = parsed_event(record)
    return {"player": number, "participating": flags.flags_of(e, number)}


@router.get("/{event_id}/players/{number}/withdrawal")
async def withdrawal_preview(request: Request, event_id: str, number: Numbered) -> dict[str, Any]:
    """What withdrawing the player would do, before the director confirms: the article, the
    effect on the player's results (Go §28, Gomoku §18.5) and on the game now in play."""
    record = await repo_of(request).event(event_id)
    check_organiser(request, record)
    e = parsed_event(record)
    e.player(number)
    started = bool(e.history)
    out: dict[str, Any] = {
        "player": number,
        "article": (
            withdrawal.article(e.game, systems.of(e).family) if started else e.game.redraw_article
        ),
        "started": started,
        "effect": "redraw",
        "game": None,
    }
    if not started:
        return out
    after = entries.withdraw(e, number, random.Random(0), by="preview")
    out["effect"] = systems.of(after).effects(after)[number].value
    last = e.history[-1]
    game = last.game_of(number)
    if game is not None:
        now = after.round(last.number).game(game.board)
        out["game"] = {
            "round": last.number,
            "board": game.board,
            "black": game.black,
            "white": game.white,
            "result": None if game.result is None else game.result.value,
            "after": None if now.result is None else now.result.value,
        }
    return out


@router.post("/{event_id}/players/{number}/withdraw/undo")
async def undo_withdraw(request: Request, event_id: str, number: Numbered) -> dict[str, Any]:
    """Take a withdrawal back before the next round is paired (409 afterwards): the player is
    paired again and a game the withdrawal forfeited has no result again."""
    wall = time.time()

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return participation.undo_withdrawal(e, number, by="organiser", at=wall), None

    record, _ = await change_event(
        request, event_id, {"op": "undo-withdraw", "player": number}, apply
    )
    return {"withdrawn": [w.to_json() for w in parsed_event(record).withdrawals]}


class HandPairing(BaseModel):
    """A round paired by hand: boards in order, each ``[black, white]``, and the byes."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"games": [[1, 2], [3, 4]], "byes": []}]},
    )

    games: list[Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(max_length=1000)
    byes: list[int] = Field(default_factory=list, max_length=1000)


async def _not_started(request: Request, event_id: str, number: int) -> None:
    games = await repo_of(request).games_of_event(event_id)
    if any(g.round == number for g in games):
        raise TournamentError(
            f"round {number}'s online games have started: its pairing is no longer changed by hand",
            code="hand-online-started",
            values={"round": str(number)},
        )


@router.post("/{event_id}/rounds/{number}/pairings/check")
async def check_pairing(
    request: Request, event_id: str, number: Numbered, body: HandPairing
) -> dict[str, Any]:
    """The warnings of a pairing by hand (a rematch, colours unbalanced, a score-group jump, a
    second bye) without storing it; 422 when it leaves out, repeats or adds a player."""
    record = await repo_of(request).event(event_id)
    check_organiser(request, record)
    await _not_started(request, event_id, number)
    games = [(g[0], g[1]) for g in body.games]
    notes = hand.check(parsed_event(record), number, games, body.byes)
    return {"warnings": [w.to_json() for w in notes]}


@router.put("/{event_id}/rounds/{number}/pairings")
async def put_pairing(
    request: Request, event_id: str, number: Numbered, body: HandPairing
) -> dict[str, Any]:
    """Store a pairing by hand of the latest round before its games start (results or online
    games: 409); each board changed is explained as paired by hand. Answers the warnings."""
    await check_organiser_first(request, event_id)
    await _not_started(request, event_id, number)
    games = [(g[0], g[1]) for g in body.games]

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        before = {frozenset(g.players): g for g in e.round(number).games}
        out, notes = hand.repair(e, number, games, body.byes)
        kept = meta.get("explanations", {}).get(str(number)) or {}
        old = {p["board"]: p.get("reason", "") for p in kept.get("pairings", [])}
        pairings = []
        for g in out.round(number).games:
            was = before.get(frozenset(g.players))
            same = was is not None and (was.black, was.white) == (g.black, g.white)
            reason = old.get(was.board, "") if same and was is not None else "paired by hand"
            pairings.append(
                {"board": g.board, "black": g.black, "white": g.white, "reason": reason}
            )
        said = list(kept.get("notes", []))
        if set(body.byes) != set(e.round(number).byes):  # the bye moved: its reason too
            said = [n for n in said if not _BYE_NOTE.match(n)]
            said += [f"{p} has the bye: moved by hand" for p in body.byes]
        meta["explanations"] = {
            **meta.get("explanations", {}),
            str(number): {
                **kept,
                "round": number,
                "pairings": pairings,
                "byes": list(body.byes),
                "notes": said,
            },
        }
        return out, notes

    change = {"op": "hand-pairing", "round": number, **body.model_dump()}
    record, (notes, version) = await change_event(request, event_id, change, apply)
    return {
        "round": parsed_event(record).round(number).to_json(),
        "warnings": [w.to_json() for w in notes],
        "version": version,
    }
