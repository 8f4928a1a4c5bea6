"""Event routes: the players (enter by JSON, CSV or names; edit, remove, withdraw) and the
draws by lot (numbers before round 1, lots that settle remaining ties)."""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from duiyi.errors import InvalidInput
from duiyi.server.engines.catalog import EngineList
from duiyi.server.events.changes import change_event, event_summary, text_body
from duiyi.server.events.csvsafe import check_names
from duiyi.server.events.parsed import parsed_event
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.schemas import (
    CHECKED,
    NO_BOOL,
    Club,
    EngineName,
    Name,
    Numbered,
    check_extra_engine,
    schema_error,
    text_field,
)
from duiyi.server.state import engines_of
from duiyi.store.repository import Conflict, EventRecord
from duiyi.tournament import entries, roster
from duiyi.tournament import event as ops
from duiyi.tournament.formats import csvfiles, opengotha
from duiyi.tournament.model import Event, Player

__all__ = ["router"]

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["events"], route_class=KeyFirstRoute)

# printable text (no control, bidi override or zero-width character: schemas.check_text)
Rank = Annotated[str, text_field(20), CHECKED]


class NewPlayer(BaseModel):
    """A player to enter."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    rank: Rank = ""
    rating: Annotated[int, Field(ge=-10_000, le=10_000), NO_BOOL] | None = None
    club: Club = ""
    country: Club = ""
    team: Annotated[
        Club, Field(description="the player's team (team events: board order = entry order)")
    ] = ""
    extra: Annotated[dict[str, Club], AfterValidator(check_extra_engine)] = Field(
        default_factory=dict, max_length=20, description="any other columns"
    )
    engine: EngineName = Field(
        "",
        description="an engine player's engine: a name from GET /api/engines ('NAME' or "
        "'NAME:LEVEL'), never a command (kept as its 'engine' column; played by POST "
        ".../rounds/{n}/play on a server started with --engine-players)",
        examples=["gnugo:1"],
    )

    def player(self) -> Player:
        """The player (numbered when entered)."""
        extra = dict(self.extra)
        if self.engine.strip():
            extra[roster.ENGINE_KEY] = self.engine.strip()
        if self.country:
            extra["country"] = self.country
        if self.team:
            extra["team"] = self.team
        rank = csvfiles.normal_rank(self.rank)
        return Player(0, self.name.strip(), rank, self.rating, self.club, tuple(extra.items()))


# A JSON list stays well under the 64 KiB body limit; longer lists come as CSV.
MAX_JSON_PLAYERS = 200

# The players' body is read by hand (JSON, CSV or names): documented for the OpenAPI document.
PLAYERS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "oneOf": [
                        NewPlayer.model_json_schema(),
                        {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": MAX_JSON_PLAYERS,
                            "items": NewPlayer.model_json_schema(),
                        },
                    ]
                }
            },
            # lines of printable text (tabs and line ends separate the cells)
            "text/csv": {
                "schema": {
                    "type": "string",
                    "minLength": 1,
                    "pattern": "^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$",
                }
            },
        },
    }
}


_LEFT_OUT: Any = None  # a field not sent (the schema does not allow null for it)


class PlayerChange(BaseModel):
    """Changes to a player not yet paired (fields left out stay as they are)."""

    model_config = ConfigDict(extra="forbid")

    # left out: unchanged (null is not a name, a rank or a club; the rating may be cleared)
    name: Name = Field(default=_LEFT_OUT)
    rank: Rank = Field(default=_LEFT_OUT)
    rating: Annotated[int, Field(ge=-10_000, le=10_000), NO_BOOL] | None = None
    club: Club = Field(default=_LEFT_OUT)
    extra: Annotated[dict[str, Club], AfterValidator(check_extra_engine)] = Field(default=_LEFT_OUT)


class Draw(BaseModel):
    """A draw by lot; without a seed the server draws one (and records it)."""

    model_config = ConfigDict(extra="forbid")

    # exact in every JSON reader; true is not a number (JSON Schema)
    seed: Annotated[int, Field(ge=0, le=2**53), NO_BOOL] | None = None

    def drawn(self) -> int:
        """The seed given, else one drawn by the server, also below 2**53 so that the desk
        (JavaScript numbers) shows the seed exactly.

        >>> Draw(seed=7).drawn(), Draw(seed=None).drawn() < 2**53
        (7, True)
        """
        return self.seed if self.seed is not None else secrets.randbits(53)


def _check_player(p: Player, index: int, *, engine: bool = False) -> None:
    """A player of a CSV list or a file, checked as the JSON schema checks one: each text
    field (:func:`check_names`), and with ``engine`` the engine column names an engine. A
    refusal keeps its code and names the player and the field (``0.name``: the first
    player's name), as the schema's refusals do (issue 32)."""
    fields = [("name", p.name), ("club", p.club), ("rank", p.rank), *p.extra]
    for key, value in fields:
        try:
            check_names(value)
            if engine and key == roster.ENGINE_KEY:
                check_extra_engine({key: value})  # an engine column names, never runs
        except InvalidInput as exc:
            raise InvalidInput(
                f"bad player {p.name!r}: {exc}",
                code=exc.code,
                values={**exc.values, "name": p.name, "field": f"{index}.{key}"},
            ) from exc


@router.post("/{event_id}/players", openapi_extra=PLAYERS_BODY)
async def add_players(request: Request, event_id: str) -> dict[str, Any]:
    """Enter players: one JSON player ``{name, rank, rating, club, country, team, extra}``, a
    JSON list of them, a CSV file (``Content-Type: text/csv``; header ``name,rank,rating,club``
    or the Chinese 姓名,段位,等级分,单位; commas, tabs or semicolons) or a plain list of names,
    one a line (``text/plain``). They are numbered after those already entered."""
    raw = await request.body()
    kind = request.headers.get("content-type", "")
    if "csv" in kind or "text/plain" in kind:
        players = csvfiles.parse_players(text_body(raw, "the player list"))
        if not players:
            raise InvalidInput("the player list is empty", code="players-empty")
        for i, p in enumerate(players):
            _check_player(p, i, engine=True)
    else:
        import json

        try:
            items = json.loads(raw or b"null")
        except ValueError as exc:
            raise InvalidInput(f"malformed JSON: {exc}", code="json-invalid") from exc
        if isinstance(items, dict):
            items = [items]
        if isinstance(items, list) and len(items) > MAX_JSON_PLAYERS:
            raise InvalidInput(
                f"at most {MAX_JSON_PLAYERS} players in one JSON list ({len(items)} sent): "
                "send a CSV file for more",
                code="players-json-many",
                values={"most": str(MAX_JSON_PLAYERS), "sent": str(len(items))},
            )
        if not isinstance(items, list) or not items:
            raise InvalidInput(
                "send a JSON player, a non-empty JSON list, a CSV file or names",
                code="players-empty",
            )
        players = []
        for i, item in enumerate(items):
            try:
                players.append(NewPlayer.model_validate(item).player())
            except ValidationError as exc:
                # the field of the list's item (``0.rating``: the first player's rating)
                raise schema_error(exc.errors(), "bad player", (i,)) from exc

    record = await _enter(request, event_id, players)
    return _players(record)


async def _enter(
    request: Request, event_id: str, players: list[Player], **change: Any
) -> EventRecord:
    """Enter ``players`` after those already entered (within the server's cap per event)."""
    cap = request.app.state.duiyi.settings.max_players_per_event
    engines = engines_of(request)

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        for p in players:
            _check_engine(engines, e, p, f"player {p.name!r}: engine")
        if len(e.players) + len(players) > cap:
            raise Conflict(
                f"an event holds at most {cap} players on this server ({len(e.players)} "
                f"entered, {len(players)} sent; DUIYI_MAX_PLAYERS_PER_EVENT)",
                code="players-cap",
                values={"cap": str(cap)},
            )
        return ops.add_players(e, players), None

    record, _ = await change_event(
        request, event_id, {"op": "players", "count": len(players), **change}, apply
    )
    return record


# The OpenGotha file is read by hand (the one reader): documented for the OpenAPI document. Its
# pattern shows a file of one player, so that a body the document allows is never a 422.
OPENGOTHA_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            media: {
                "schema": {
                    "type": "string",
                    "description": "an OpenGotha tournament file (its XML): each "
                    "<Tournament><Players><Player name=... firstName=... rank=.../> is "
                    "entered; no document type or entity declarations",
                    "pattern": '^<Tournament><Players><Player name="[A-Z][a-z]{1,15}" '
                    'firstName="[A-Z][a-z]{1,15}" rank="([1-9]|[12][0-9]|30)K"/>'
                    "</Players></Tournament>$",
                    "example": '<Tournament><Players><Player name="Honinbo" '
                    'firstName="Shusaku" rank="3K"/></Players></Tournament>',
                }
            }
            for media in ("application/xml", "text/xml")
        },
    }
}


@router.post("/{event_id}/players/opengotha", openapi_extra=OPENGOTHA_BODY)
async def import_opengotha(request: Request, event_id: str) -> dict[str, Any]:
    """Enter the players of an OpenGotha tournament file (its XML as the body), read by the
    one reader, :func:`duiyi.tournament.formats.opengotha.from_opengotha`: each keeps the
    file's surname and first name. The answer says what the file held (``read``: players,
    rounds, games, teams) and what was not entered (``not_entered``: the file's rounds and
    games, since an event on the desk pairs its own, and its teams; ``warnings``: the reader's
    notes)."""
    raw = await request.body()
    if not raw.strip():
        raise InvalidInput("the OpenGotha file is empty", code="opengotha-empty")
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise InvalidInput(
            "OpenGotha file: a document type or entity declaration is refused",
            code="opengotha-doctype",
        )
    read, warnings = opengotha.from_opengotha(raw)
    if not read.players:
        raise InvalidInput("the OpenGotha file has no players", code="opengotha-no-players")
    for i, p in enumerate(read.players):
        _check_player(p, i)
    # absences by round belong to the file's rounds, which are not entered
    players = [
        replace(p, number=0, extra=tuple(kv for kv in p.extra if kv[0] != "participating"))
        for p in read.players
    ]
    record = await _enter(request, event_id, players, file="opengotha")
    games = sum(len(r.games) for r in read.history)
    told = {"players": len(read.players), "rounds": len(read.history), "games": games}
    return {
        **_players(record),
        "read": {**told, "teams": len(read.teams)},
        "entered": len(players),
        "not_entered": {"rounds": len(read.history), "games": games, "teams": len(read.teams)},
        "warnings": warnings,
    }


def _check_engine(engines: EngineList, event: Event, player: Player, field: str) -> None:
    """An engine player's level is one its listed engine has (``gnugo:99`` refused at entry)."""
    spec = roster.engine_command_of(player)
    if spec is not None:
        engines.check_entered(spec, event.game.name, field)


def _players(record: EventRecord) -> dict[str, Any]:
    return {**event_summary(record), "players": [p.to_json() for p in parsed_event(record).players]}


@router.patch("/{event_id}/players/{number}")
async def edit_player(
    request: Request, event_id: str, number: Numbered, body: PlayerChange
) -> dict[str, Any]:
    """Change a player's name, rank, rating, club or extra columns, before their first
    pairing (409 afterwards)."""
    changes = body.model_dump(exclude_unset=True)
    extra = changes.pop("extra", None)
    if "rank" in changes and changes["rank"] is not None:
        changes["rank"] = csvfiles.normal_rank(changes["rank"])
    if any(v is None for k, v in changes.items() if k != "rating"):
        raise InvalidInput("name, rank and club cannot be null", code="player-fields-null")

    engines = engines_of(request)

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        edited = roster.edit_player(e, number, extra=extra, **changes)
        player = next(p for p in edited.players if p.number == number)
        _check_engine(engines, edited, player, "extra.engine")
        return edited, None

    change = {"op": "edit-player", "player": number, **body.model_dump(exclude_unset=True)}
    record, _ = await change_event(request, event_id, change, apply)
    return _players(record)


@router.delete("/{event_id}/players/{number}")
async def remove_player(request: Request, event_id: str, number: Numbered) -> dict[str, Any]:
    """Remove a player entered by mistake, before their first pairing (409 afterwards: a
    paired player withdraws instead); the players after move up one number."""

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return roster.remove_player(e, number), None

    record, _ = await change_event(
        request, event_id, {"op": "remove-player", "player": number}, apply
    )
    return _players(record)


@router.post("/{event_id}/players/draw")
async def draw_numbers(request: Request, event_id: str, body: Draw | None = None) -> dict[str, Any]:
    """Draw the players' numbers by lot before round 1 (appendix 五.2(1)); the seed is kept
    in the event's history."""
    seed = (body or Draw(seed=None)).drawn()

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        drawn = ops.draw_numbers(e, random.Random(seed))
        # the desk says so: how many players (and, in a team event, teams) the lot numbered
        told = {"seed": seed, "players": len(drawn.players)}
        meta["numbers_drawn"] = {**told, "teams": len(drawn.teams)} if drawn.teams else told
        return drawn, None

    record, _ = await change_event(request, event_id, {"op": "draw-numbers", "seed": seed}, apply)
    return {**_players(record), "seed": seed}


@router.post("/{event_id}/lots")
async def draw_lots(request: Request, event_id: str, body: Draw | None = None) -> dict[str, Any]:
    """Draw and keep lot numbers: standings settle remaining ties by them (Go §27.1(1)C)."""
    seed = (body or Draw(seed=None)).drawn()

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return ops.draw_lots(e, random.Random(seed)), None

    record, _ = await change_event(request, event_id, {"op": "lots", "seed": seed}, apply)
    lots = parsed_event(record).lots
    return {
        **event_summary(record),
        "lots": {str(k): v for k, v in sorted(lots.items())},
        "seed": seed,
    }


@router.post("/{event_id}/players/{number}/withdraw")
async def withdraw(request: Request, event_id: str, number: Numbered) -> dict[str, Any]:
    """Withdraw a player (Go §28, Gomoku §18.5)."""
    seed = secrets.randbits(64)

    wall = time.time()

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return entries.withdraw(e, number, random.Random(seed), by="organiser", at=wall), None

    record, _ = await change_event(
        request, event_id, {"op": "withdraw", "player": number, "seed": seed}, apply
    )
    return {
        **event_summary(record),
        "withdrawn": [w.to_json() for w in parsed_event(record).withdrawals],
    }
