"""Event routes: a tournament desk over HTTP; this module holds the event as a whole (create,
list, read, settings), its neighbours the players, rounds, results and standings.

The organiser key (created with the event) may change it; the arbiter key makes rulings in its
games; everybody may read pairings, results, standings and the crosstable. Each change loads
the event document, applies one pure ``duiyi.tournament.event`` operation and stores the new
version with a compare-and-set, so two desks never overwrite each other silently.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from duiyi.errors import InvalidInput, TournamentError
from duiyi.games import GameType
from duiyi.server.auth import hash_token, new_token
from duiyi.server.events.changes import change_event, event_summary, online_of, repo_of
from duiyi.server.events.parsed import parsed_event
from duiyi.server.games.spec import new_session
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.problems import RateLimited
from duiyi.server.routes.knockout import needs_winner_rounds
from duiyi.server.schemas import CHECKED, NO_BOOL, text_field
from duiyi.store.repository import StoredGame
from duiyi.tournament import event as ops
from duiyi.tournament.model import ROUNDS_FROM_SYSTEM, Event
from duiyi.tournament.options import OPTIONS_SCHEMA, EventOptions

__all__ = ["router"]

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["events"], route_class=KeyFirstRoute)

# printable text (no control, bidi override or zero-width character: schemas.check_text)
EventName = Annotated[str, text_field(200, 1), CHECKED]


class NewEvent(BaseModel):
    """An event to create."""

    model_config = ConfigDict(extra="forbid")

    name: EventName
    game: Literal["go", "gomoku"] = Field("go", description="'go' or 'gomoku'")
    system: str = Field("swiss", description="swiss, round-robin, knockout, mcmahon, ...")
    rounds: Annotated[int, Field(ge=1, le=99), NO_BOOL] | None = Field(
        None,
        description="planned rounds of a Swiss-type system (default 5); round robins, groups, "
        "eliminations, matches and relays take theirs from the system",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="system options as in `duiyi event new --option`: tiebreaks, variant "
        "(A/B), cycles, groups, bar, floor, boards, games, seeds, place_matches, ...",
        json_schema_extra=OPTIONS_SCHEMA,  # the systems' schema (duiyi.tournament.options)
    )
    online: dict[str, Any] = Field(
        default_factory=dict,
        description="settings of the online games: size, rules, handicap, time_control",
    )


def _options_or_null(schema: dict[str, Any]) -> None:
    """The OpenAPI form of an optional ``options``: the systems' schema, or null."""
    schema.pop("additionalProperties", None)
    schema.pop("type", None)
    schema["anyOf"] = [OPTIONS_SCHEMA, {"type": "null"}]


class Settings(BaseModel):
    """Changes to an event's settings."""

    model_config = ConfigDict(extra="forbid")

    name: EventName | None = None
    rounds: Annotated[int, Field(ge=1, le=99), NO_BOOL] | None = None
    options: dict[str, Any] | None = Field(None, json_schema_extra=_options_or_null)
    online: dict[str, Any] | None = None


def _check_online(game: GameType, online: dict[str, Any]) -> None:
    """Refuse online game settings now rather than when a round's games start: the game's
    settings, and a Gomoku event's foul policy (``foul_policy``: ``claim``, White points the
    foul out, Gomoku §10.1(2), or ``auto``) and ``hints`` (Black's forbidden points shown,
    true or false, Gomoku §12.2(7))."""
    if not game.has_fouls and ("hints" in online or "foul_policy" in online):
        raise InvalidInput(
            f"a {game.name} event has no forbidden moves: no foul_policy or hints",
            code="online-no-fouls",
        )
    if "hints" in online and not isinstance(online["hints"], bool):
        raise InvalidInput(
            f"online.hints is true or false, not {online['hints']!r}",
            code="field-bool",
            values={"field": "online.hints"},
        )
    if online.get("foul_policy") not in (None, "claim", "auto"):
        raise InvalidInput(
            f"online.foul_policy is 'claim' or 'auto', not {online['foul_policy']!r}",
            "Gomoku §10.1(2)",
            code="field-one-of",
            values={"field": "online.foul_policy", "expected": "'claim' or 'auto'"},
        )
    new_session({**online, "game": game.name})


@router.post("", status_code=201)
async def create_event(request: Request, spec: NewEvent) -> dict[str, Any]:
    """Create an event; answers its id, the organiser key and the arbiter key (shown once)."""
    state = request.app.state.duiyi
    if not state.event_quota.take(state.client(request.scope), time.monotonic()):
        raise RateLimited(
            f"this address created {state.settings.max_events_per_client} events in the last "
            "hour (the limit); try again later"
        )
    rounds = spec.rounds
    if rounds is None and spec.system not in ROUNDS_FROM_SYSTEM:
        rounds = 5
    # the systems' schema: 422 now, not 500 later; typed once (duiyi.tournament.options)
    options = EventOptions.from_json(spec.options, client=True)
    if options.variant is not None and options.variant.upper() not in ("A", "B"):
        raise TournamentError(
            "variant is A (total score) or B (points)", "Go §27.1(2)", code="variant-ab"
        )
    if spec.system in ("knockout", "double-elimination") and options.lines is None:
        options = options.updated(lines="lot")  # appendix 一.3: the unseeded lines by lot
    event = ops.new_event(spec.name, spec.game, spec.system, rounds, options)
    _check_online(event.game, spec.online)
    organiser, arbiter = new_token(), new_token()
    event_id = await repo_of(request).create_event(
        name=spec.name,
        data={"event": event.to_json(), "online": spec.online},
        organiser_token_hash=hash_token(organiser),
        arbiter_token_hash=hash_token(arbiter),
        wall=time.time(),
    )
    record = await repo_of(request).event(event_id)
    return {
        "id": event_id,
        "organiser_token": organiser,
        "arbiter_token": arbiter,
        "event": event_summary(record),
    }


@router.get("")
async def list_events(request: Request) -> dict[str, Any]:
    """Every event, newest first."""
    return {"events": [event_summary(r) for r in await repo_of(request).events()]}


@router.get("/{event_id}")
async def get_event(request: Request, event_id: str) -> dict[str, Any]:
    """The whole event document (players, rounds, results, withdrawals) and its version."""
    record = await repo_of(request).event(event_id)
    games = await repo_of(request).games_of_event(event_id)
    return {
        **event_summary(record),
        "event": parsed_event(record).to_json(),
        "online": online_of(record),
        "games": [_game_link(g) for g in games],
        # a director's request to play the engine boards of a round, while it runs
        "engine_play": record.data.get("engine_play"),
        # rounds whose drawn games are settled by replay or lot (POST .../settle-draw)
        "needs_winner": needs_winner_rounds(parsed_event(record)),
    }


def _game_link(g: StoredGame) -> dict[str, Any]:
    return {
        "id": g.id,
        "round": g.round,
        "board": g.board,
        "status": g.status,
        "outcome": g.outcome,
        "closed": g.closed,
    }


@router.patch("/{event_id}")
async def change_settings(request: Request, event_id: str, body: Settings) -> dict[str, Any]:
    """Change the name, number of rounds, system options or online game settings."""
    EventOptions.from_json(body.options or {}, client=True)  # the systems' schema: 422 now

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        from dataclasses import replace

        if body.rounds is not None and body.rounds < e.current_round:
            raise TournamentError(
                f"{e.current_round} rounds are paired already",
                code="rounds-below-paired",
                values={"rounds": str(e.current_round)},
            )
        e = replace(
            e,
            name=body.name or e.name,
            rounds=body.rounds or e.rounds,
            options=EventOptions.from_json({**e.options.to_json(), **(body.options or {})}),
        )
        if body.online is not None:
            _check_online(e.game, body.online)
            meta["online"] = body.online
        return e, None

    record, _ = await change_event(
        request, event_id, {"op": "settings", **body.model_dump()}, apply
    )
    return event_summary(record)
