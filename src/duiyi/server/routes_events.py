"""Event routes: a tournament desk over HTTP.

The organiser key (created with the event) may change it; the arbiter key makes rulings in its
games; everybody may read pairings, results, standings and the crosstable. Each change loads
the event document, applies one pure ``duiyi.tournament.event`` operation and stores the new
version with a compare-and-set, so two desks never overwrite each other silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import itertools
import logging
import os
import random
import secrets
import time
import zipfile
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from duiyi import Color
from duiyi.errors import InvalidInput, TournamentError
from duiyi.server.auth import Forbidden, hash_token, new_token
from duiyi.server.csvsafe import check_names
from duiyi.server.event_changes import (
    _board_change,
    _change,
    _games,
    _organiser,
    _repo,
    _summary,
)
from duiyi.server.games import GameManager, new_session
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.pairing import pair_round
from duiyi.server.parsed_events import parsed_event, remember_event
from duiyi.server.problems import RateLimited
from duiyi.server.routes_knockout import needs_winner_rounds
from duiyi.server.schemas import (
    CHECKED,
    NO_BOOL,
    Club,
    EngineName,
    Name,
    check_extra_engine,
    text_field,
)
from duiyi.store.repository import (
    Conflict,
    EventRecord,
    GameRecord,
    NotFound,
    Report,
    ReportGone,
    Repository,
)
from duiyi.tournament import entries, roster
from duiyi.tournament import event as ops
from duiyi.tournament.formats import csvfiles, opengotha, wallchart
from duiyi.tournament.model import ROUNDS_FROM_SYSTEM, Event, Player
from duiyi.tournament.options import OPTIONS_SCHEMA, check_options
from duiyi.tournament.results import GameResult, ResultSheet, Source

__all__ = ["router"]

log = logging.getLogger("duiyi.server.events")

# every change checks the organiser key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/events", tags=["events"], route_class=KeyFirstRoute)

# printable text (no control, bidi override or zero-width character: schemas.check_text)
EventName = Annotated[str, text_field(200, 1), CHECKED]
Rank = Annotated[str, text_field(20), CHECKED]


class NewEvent(BaseModel):
    """An event to create."""

    model_config = ConfigDict(extra="forbid")

    name: EventName
    game: Literal["go", "gomoku"] = Field("go", description="'go' or 'gomoku'")
    system: str = Field("swiss", description="swiss, round-robin, knockout, mcmahon, ...")
    rounds: int | None = Field(
        None,
        ge=1,
        le=99,
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
    rounds: int | None = Field(None, ge=1, le=99)
    options: dict[str, Any] | None = Field(None, json_schema_extra=_options_or_null)
    online: dict[str, Any] | None = None


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

    seed: int | None = Field(None, ge=0, le=2**53)  # exact in every JSON reader


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
    black_warnings: int = Field(0, ge=0, le=2)
    white_warnings: int = Field(0, ge=0, le=2)
    penalty: list[Literal["black", "white"]] = Field(
        default_factory=list,
        description="sides that lose by a disciplinary ruling after the result (Gomoku §2.20(3))",
    )
    disqualified: list[Literal["black", "white"]] = Field(
        default_factory=list, description="sides disqualified from the event (Gomoku §2.20(4))"
    )
    force: bool = Field(False, description="confirm a change once the next round is paired")


def _online(record: EventRecord) -> dict[str, Any]:
    online: dict[str, Any] = record.data.get("online", {})
    return online


def _check_online(game: str, online: dict[str, Any]) -> None:
    """Refuse online game settings now rather than when a round's games start."""
    new_session({**online, "game": game})


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
    check_options(spec.options, client=True)  # the systems' schema: 422 now, not 500 later
    variant = spec.options.get("variant")
    if variant is not None and str(variant).upper() not in ("A", "B"):
        raise TournamentError("variant is A (total score) or B (points)", "Go §27.1(2)")
    options = dict(spec.options)
    if spec.system in ("knockout", "double-elimination"):
        options.setdefault("lines", "lot")  # appendix 一.3: the unseeded lines by lot
    event = ops.new_event(spec.name, spec.game, spec.system, rounds, options)
    _check_online(event.game, spec.online)
    organiser, arbiter = new_token(), new_token()
    event_id = await _repo(request).create_event(
        name=spec.name,
        data={"event": event.to_json(), "online": spec.online},
        organiser_token_hash=hash_token(organiser),
        arbiter_token_hash=hash_token(arbiter),
        wall=time.time(),
    )
    record = await _repo(request).event(event_id)
    return {
        "id": event_id,
        "organiser_token": organiser,
        "arbiter_token": arbiter,
        "event": _summary(record),
    }


@router.get("")
async def list_events(request: Request) -> dict[str, Any]:
    """Every event, newest first."""
    return {"events": [_summary(r) for r in await _repo(request).events()]}


@router.get("/{event_id}")
async def get_event(request: Request, event_id: str) -> dict[str, Any]:
    """The whole event document (players, rounds, results, withdrawals) and its version."""
    record = await _repo(request).event(event_id)
    games = await _repo(request).games_of_event(event_id)
    return {
        **_summary(record),
        "event": parsed_event(record).to_json(),
        "online": _online(record),
        "games": [_game_link(g) for g in games],
        # a director's request to play the engine boards of a round, while it runs
        "engine_play": record.data.get("engine_play"),
        # rounds whose drawn games are settled by replay or lot (POST .../settle-draw)
        "needs_winner": needs_winner_rounds(parsed_event(record)),
    }


def _game_link(g: GameRecord) -> dict[str, Any]:
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
    check_options(body.options or {}, client=True)  # the systems' schema: 422 now

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        from dataclasses import replace

        if body.rounds is not None and body.rounds < e.current_round:
            raise TournamentError(f"{e.current_round} rounds are paired already")
        e = replace(
            e,
            name=body.name or e.name,
            rounds=body.rounds or e.rounds,
            options={**e.options, **(body.options or {})},
        )
        if body.online is not None:
            _check_online(e.game, body.online)
            meta["online"] = body.online
        return e, None

    record, _ = await _change(request, event_id, {"op": "settings", **body.model_dump()}, apply)
    return _summary(record)


@router.post("/{event_id}/players", openapi_extra=PLAYERS_BODY)
async def add_players(request: Request, event_id: str) -> dict[str, Any]:
    """Enter players: one JSON player ``{name, rank, rating, club, country, team, extra}``, a
    JSON list of them, a CSV file (``Content-Type: text/csv``; header ``name,rank,rating,club``
    or the Chinese 姓名,段位,等级分,单位; commas, tabs or semicolons) or a plain list of names,
    one a line (``text/plain``). They are numbered after those already entered."""
    raw = await request.body()
    kind = request.headers.get("content-type", "")
    if "csv" in kind or "text/plain" in kind:
        players = csvfiles.parse_players(_text(raw, "the player list"))
        if not players:
            raise InvalidInput("the player list is empty")
        try:
            for p in players:
                check_names(p.name, p.club, p.rank, *(v for _, v in p.extra))
                check_extra_engine(dict(p.extra))  # an engine column names, never runs
        except ValueError as exc:
            raise InvalidInput(f"bad player {p.name!r}: {exc}") from exc
    else:
        import json

        try:
            items = json.loads(raw or b"null")
        except ValueError as exc:
            raise InvalidInput(f"malformed JSON: {exc}") from exc
        if isinstance(items, dict):
            items = [items]
        if isinstance(items, list) and len(items) > MAX_JSON_PLAYERS:
            raise InvalidInput(
                f"at most {MAX_JSON_PLAYERS} players in one JSON list ({len(items)} sent): "
                "send a CSV file for more"
            )
        if not isinstance(items, list) or not items:
            raise InvalidInput("send a JSON player, a non-empty JSON list, a CSV file or names")
        try:
            players = [NewPlayer.model_validate(p).player() for p in items]
        except ValueError as exc:
            raise InvalidInput(f"bad player: {exc}") from exc

    cap = request.app.state.duiyi.settings.max_players_per_event

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        if len(e.players) + len(players) > cap:
            raise Conflict(
                f"an event holds at most {cap} players on this server ({len(e.players)} "
                f"entered, {len(players)} sent; DUIYI_MAX_PLAYERS_PER_EVENT)"
            )
        return ops.add_players(e, players), None

    record, _ = await _change(request, event_id, {"op": "players", "count": len(players)}, apply)
    return {**_summary(record), "players": [p.to_json() for p in parsed_event(record).players]}


def _text(raw: bytes, what: str) -> str:
    """A text body (UTF-8, with or without a byte order mark), or a 422 naming ``what``."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{what} is not UTF-8 text: {exc}") from exc


def _players(record: EventRecord) -> dict[str, Any]:
    return {**_summary(record), "players": [p.to_json() for p in parsed_event(record).players]}


@router.patch("/{event_id}/players/{number}")
async def edit_player(
    request: Request, event_id: str, number: int, body: PlayerChange
) -> dict[str, Any]:
    """Change a player's name, rank, rating, club or extra columns, before their first
    pairing (409 afterwards)."""
    changes = body.model_dump(exclude_unset=True)
    extra = changes.pop("extra", None)
    if "rank" in changes and changes["rank"] is not None:
        changes["rank"] = csvfiles.normal_rank(changes["rank"])
    if any(v is None for k, v in changes.items() if k != "rating"):
        raise InvalidInput("name, rank and club cannot be null")

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return roster.edit_player(e, number, extra=extra, **changes), None

    change = {"op": "edit-player", "player": number, **body.model_dump(exclude_unset=True)}
    record, _ = await _change(request, event_id, change, apply)
    return _players(record)


@router.delete("/{event_id}/players/{number}")
async def remove_player(request: Request, event_id: str, number: int) -> dict[str, Any]:
    """Remove a player entered by mistake, before their first pairing (409 afterwards: a
    paired player withdraws instead); the players after move up one number."""

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return roster.remove_player(e, number), None

    record, _ = await _change(request, event_id, {"op": "remove-player", "player": number}, apply)
    return _players(record)


@router.post("/{event_id}/players/draw")
async def draw_numbers(request: Request, event_id: str, body: Draw | None = None) -> dict[str, Any]:
    """Draw the players' numbers by lot before round 1 (appendix 五.2(1)); the seed is kept
    in the event's history."""
    seed = body.seed if body is not None and body.seed is not None else secrets.randbits(63)

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        drawn = ops.draw_numbers(e, random.Random(seed))
        meta["numbers_drawn"] = {"seed": seed, "players": len(drawn.players)}  # the desk says so
        return drawn, None

    record, _ = await _change(request, event_id, {"op": "draw-numbers", "seed": seed}, apply)
    return {**_players(record), "seed": seed}


@router.post("/{event_id}/lots")
async def draw_lots(request: Request, event_id: str, body: Draw | None = None) -> dict[str, Any]:
    """Draw and keep lot numbers: standings settle remaining ties by them (Go §27.1(1)C)."""
    seed = body.seed if body is not None and body.seed is not None else secrets.randbits(63)

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return ops.draw_lots(e, random.Random(seed)), None

    record, _ = await _change(request, event_id, {"op": "lots", "seed": seed}, apply)
    lots = parsed_event(record).lots
    return {**_summary(record), "lots": {str(k): v for k, v in sorted(lots.items())}, "seed": seed}


@router.post("/{event_id}/players/{number}/withdraw")
async def withdraw(request: Request, event_id: str, number: int) -> dict[str, Any]:
    """Withdraw a player (Go §28, Gomoku §18.5)."""
    seed = secrets.randbits(64)

    wall = time.time()

    def apply(e: Event, _meta: dict[str, Any]) -> tuple[Event, Any]:
        return entries.withdraw(e, number, random.Random(seed), by="organiser", at=wall), None

    record, _ = await _change(
        request, event_id, {"op": "withdraw", "player": number, "seed": seed}, apply
    )
    return {
        **_summary(record),
        "withdrawn": [w.to_json() for w in parsed_event(record).withdrawals],
    }


@router.post("/{event_id}/rounds")
async def pair_next(request: Request, event_id: str) -> dict[str, Any]:
    """Pair the next round; every pairing says why it was chosen."""
    seed = secrets.randbits(64)

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        return pair_round(e, meta, seed)

    _, (answer, version) = await _change(request, event_id, {"op": "pair", "seed": seed}, apply)
    return {**answer, "version": version}


@router.get("/{event_id}/rounds/{number}")
async def get_round(request: Request, event_id: str, number: int) -> dict[str, Any]:
    """A round's pairings and results."""
    record = await _repo(request).event(event_id)
    e = parsed_event(record)
    if not 1 <= number <= e.current_round:
        raise NotFound(f"round {number} is not paired (paired: {e.current_round})")
    data: dict[str, Any] = e.round(number).to_json()
    explained = record.data.get("explanations", {}).get(str(number))
    if explained:
        data["explanation"] = explained
    return data


@router.put("/{event_id}/rounds/{number}/boards/{board}/result")
async def enter_result(
    request: Request, event_id: str, number: int, board: int, body: ResultEntry
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
        record, (done, version) = await _change(request, event_id, change, apply, closing)
        return record, done, version

    change = {"op": "result", "round": number, "board": board, **body.model_dump()}
    record, done, _version = await _board_change(
        request, event_id, number, board, change, enter, reason, whole
    )
    closed = request.state.closed_games
    return {**_summary(record), **_entered(done), "closed_games": closed}


# The results sheet is read by hand (CSV): documented for the OpenAPI document.
RESULTS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "text/csv": {
                "schema": {
                    "type": "string",
                    "description": "header round,board,result (optional black_warnings, "
                    "white_warnings); result codes as in a board's result",
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
    rows = csvfiles.parse_results(_text(await request.body(), "the results sheet"))
    if not rows:
        raise InvalidInput("the results sheet has no result")
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
    record, (done, _version) = await _change(request, event_id, change, apply, closing)
    closed = request.state.closed_games
    return {
        **_summary(record),
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

    accept: bool = Field(description="true: enter the disagreeing result; false: keep the board's")
    force: bool = Field(False, description="confirm a change once the next round is paired")


@router.post("/{event_id}/rounds/{number}/boards/{board}/conflict")
async def resolve_conflict(
    request: Request, event_id: str, number: int, board: int, body: Resolution
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
        record, (done, version) = await _change(request, event_id, change, apply)
        return record, done, version

    change = {"op": "conflict", "round": number, "board": board, **body.model_dump()}
    request.state.closed_games = []
    record, done, _version = await _board_change(
        request, event_id, number, board, change, resolve, lambda _d, _v: None, whole
    )
    return {**_summary(record), **_entered(done)}


@router.post("/{event_id}/rounds/{number}/games", status_code=201)
async def start_games(request: Request, event_id: str, number: int) -> dict[str, Any]:
    """Start the round's online games; answers each board's secret player links (shown once:
    hand each player their own). Boards between two engine players are left to ``POST
    .../rounds/{n}/play``."""
    from duiyi.tournament.roster import engine_command_of

    repo = _repo(request)
    record = await repo.event(event_id)
    _organiser(request, record)
    e = parsed_event(record)
    if not 1 <= number <= e.current_round:
        raise NotFound(f"round {number} is not paired (paired: {e.current_round})")

    def engines(g: Any) -> bool:
        players = (e.player(g.black), e.player(g.white))
        return all(engine_command_of(p) is not None for p in players)

    # a board with a result (entered at the desk) or with a game still to finish is left out:
    # a second "start" only starts what is missing (a drawn knockout game's replay)
    existing = {
        g.board or 0
        for g in await repo.games_of_event(event_id)
        if g.round == number
        and not isinstance(g.config.get("engine"), dict)
        and g.closed is None
        and g.outcome is None
    }
    todo = [
        g
        for g in e.round(number).games
        if g.black is not None
        and g.white is not None
        and not engines(g)
        and g.result is None
        and g.board not in existing
    ]
    if not todo:
        raise Conflict(
            f"round {number}: every board has a result or an online game already"
            + (f" (games on boards {sorted(existing)})" if existing else "")
        )
    spec = {"game": e.game, **_online(record)}
    spec["game"] = e.game
    if e.game == "gomoku":
        # an event's Renju game (DECISIONS.md): White claims a foul (Gomoku §10.1(2)) and
        # nobody is shown Black's forbidden points (help to Black, Gomoku §12.2(7)), unless
        # the event's online settings say otherwise
        rules = spec.get("rules")
        if not (isinstance(rules, dict) and "foul_policy" in rules):
            spec.setdefault("foul_policy", "claim")
        spec.setdefault("hints", False)
    boards = []
    for g in todo:
        host, tokens = await _games(request).create(
            spec,
            event_id=event_id,
            round=number,
            board=g.board,
            arbiter_token_hash=record.arbiter_token_hash,
        )
        boards.append(
            {
                "board": g.board,
                "game_id": host.id,
                "black": g.black,
                "white": g.white,
                "black_token": tokens["black"],
                "white_token": tokens["white"],
            }
        )
    return {"round": number, "games": boards}


class PlayEngines(BaseModel):
    """Play the round's boards between two engine players on this server."""

    model_config = ConfigDict(extra="forbid")

    concurrency: Annotated[int, Field(ge=1, le=16, description="games played at once"), NO_BOOL] = 1
    all_rounds: StrictBool = Field(
        default=False,
        description="pair and play the next rounds too, each once the last is complete",
    )


@router.post("/{event_id}/rounds/{number}/play", status_code=202)
async def play_engine_round(
    request: Request, event_id: str, number: int, body: PlayEngines | None = None
) -> dict[str, Any]:
    """Play the round's boards whose two players are engines (organiser; only on a server
    started with ``--engine-players``): each board becomes a live game with both seats driven
    by the server, ``concurrency`` at a time, refereed like any game; results enter the event
    through the outbox. The next round is paired first when ``number`` is the next one.
    With ``all_rounds`` the following rounds are paired and played in turn, each once the last
    is complete. Answers at once (202) with the boards to play; the games appear in ``GET
    /api/events/{id}`` and the room list as they start."""
    from duiyi.server.engine_rounds import PLAY_KEY, EnginePlay, check_engine_round
    from duiyi.server.limits import client_address
    from duiyi.server.routes_engines import client_key

    state = request.app.state.duiyi
    record = await _repo(request).event(event_id)
    _organiser(request, record)  # anonymous: 401, another key: 403, before anything else
    if not state.settings.engine_players or state.engine_rounds is None:
        raise Forbidden(
            "this server does not run engine players: start it with `duiyi serve "
            "--engine-players` (DUIYI_ENGINE_PLAYERS=1) to play engine rounds here"
        )
    body = body or PlayEngines()
    settings = state.settings
    client = client_key(
        client_address(request.scope, settings.proxy_header, settings.trusted_proxies)
    )
    play = EnginePlay(number, body.concurrency, settings.process_id, body.all_rounds, client)
    seed = secrets.randbits(64)

    def apply(e: Event, meta: dict[str, Any]) -> tuple[Event, Any]:
        if number == e.current_round + 1:
            e, _answer = pair_round(e, meta, seed)
        elif not 1 <= number <= e.current_round:
            raise NotFound(f"round {number} is not paired (paired: {e.current_round})")
        running = meta.get(PLAY_KEY)
        if isinstance(running, dict) and EnginePlay.from_json(running).round != number:
            raise Conflict(f"round {running['round']} is being played; wait for it to end")
        boards = check_engine_round(e, number, meta.get("online"))
        for board in boards:  # only engines the operator lists (422 before anything runs)
            state.engines.resolve(board.black_engine, e.game)
            state.engines.resolve(board.white_engine, e.game)
        meta[PLAY_KEY] = play.to_json()
        return e, boards

    change = {"op": "play-engines", "round": number, "seed": seed, **play.to_json()}
    record, (boards, _version) = await _change(request, event_id, change, apply)
    state.engine_rounds.start(event_id)
    return {
        **_summary(record),
        "round": number,
        "concurrency": play.concurrency,
        "all_rounds": play.all_rounds,
        "boards": [b.to_json() for b in boards],
    }


@router.get("/{event_id}/conflicts")
async def conflicts(request: Request, event_id: str) -> dict[str, Any]:
    """Every board whose result waits for the director: the board's result and the result
    that disagreed (settle each with ``POST .../boards/{b}/conflict``)."""
    e = parsed_event(await _repo(request).event(event_id))
    return {
        "conflicts": [
            {"round": rnd, **g.to_json()} for rnd, g in e.games() if g.conflict is not None
        ]
    }


@router.get("/{event_id}/standings")
async def standings(request: Request, event_id: str) -> dict[str, Any]:
    """Standings with the tiebreak columns of the event's system."""
    data: dict[str, Any] = wallchart.standings_json(
        parsed_event(await _repo(request).event(event_id))
    )
    return data


@router.get("/{event_id}/standings.html", response_class=HTMLResponse)
async def standings_html(
    request: Request, event_id: str, lang: Literal["en", "zh"] = "en"
) -> HTMLResponse:
    """The printable wall chart (``?lang=zh``: 成绩公告 in Chinese)."""
    e = parsed_event(await _repo(request).event(event_id))
    return HTMLResponse(wallchart.standings_html(e, lang=lang))


@router.get("/{event_id}/crosstable")
async def crosstable(request: Request, event_id: str) -> dict[str, Any]:
    """Each player's result cell for every round (``4b+``: beat player 4 with Black)."""
    e = parsed_event(await _repo(request).event(event_id))
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


@router.get("/{event_id}/export/opengotha.xml")
async def export_opengotha(request: Request, event_id: str) -> Response:
    """The event as an OpenGotha XML file."""
    record = await _repo(request).event(event_id)
    return Response(
        opengotha.to_opengotha(parsed_event(record), _online(record)),
        media_type="application/xml",
        headers={"content-disposition": f'attachment; filename="{event_id}.xml"'},
    )


@router.get("/{event_id}/export/results.h9")
async def export_egd(request: Request, event_id: str, egf_class: str = "") -> Response:
    """The event's results as an EGD tournament file (``egf_class``: A, B, C or D)."""
    from duiyi.tournament.formats.exports import export_event

    record = await _repo(request).event(event_id)
    text, _ = export_event(
        parsed_event(record), "egd", egf_class=egf_class[:1].upper(), online=_online(record)
    )
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{event_id}.h9"'},
    )


@router.get("/{event_id}/export/standings.csv")
async def export_standings_csv(request: Request, event_id: str) -> Response:
    """The standings as CSV (place, player, points, tiebreaks, one column per round)."""
    from duiyi.tournament.formats.exports import export_event

    e = parsed_event(await _repo(request).event(event_id))
    text, _ = export_event(e, "csv")
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{event_id}-standings.csv"'},
    )


@router.get("/{event_id}/export/players.csv", response_class=PlainTextResponse)
async def export_players(request: Request, event_id: str) -> PlainTextResponse:
    """The players as CSV (``name,rank,rating,club``)."""
    e = parsed_event(await _repo(request).event(event_id))
    text = csvfiles.format_players(list(e.players))  # the one CSV writer: formulas neutralised
    return PlainTextResponse(text, media_type="text/csv")


@router.get("/{event_id}/export/sgf.zip")
async def export_sgf(request: Request, event_id: str) -> Response:
    """Every online game of the event as SGF, in one zip."""
    await _repo(request).event(event_id)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for g in await _repo(request).games_of_event(event_id):
            host = await _games(request).get(g.id)
            session = await host.current_session()
            zf.writestr(f"round{g.round}-board{g.board}-{g.id}.sgf", session.game.sgf())
    return Response(
        buffer.getvalue(),
        media_type="application/zip",
        headers={"content-disposition": f'attachment; filename="{event_id}-games.zip"'},
    )


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
            except Exception:  # the store is down: the rows wait for the next pass
                log.exception("result outbox: pass failed")

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
                except Exception:
                    log.exception("results of event %s: not entered yet", event_id)
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
                    after, status = self._record(e, report, report.game_id in replayed)
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
        from duiyi.server.routes_knockout import start_replay

        for number, board in boards:
            if self.games is None:
                return
            try:
                await start_replay(self.games, self.repo, event_id, number, board)
            except Exception:  # the desk's "start the round's games" starts it instead
                log.exception("replay of round %s board %s not started", number, board)

    async def _draws(self, reports: list[Report]) -> tuple[set[str], set[str]]:
        """The games among ``reports`` that are drawn (settled by replay or lot in an
        elimination round) and, among them, the engine-round games (the server's engine
        players, docs/server.md "Engine rounds"), which the engine round replays itself."""
        from duiyi.server.engine_rounds import engine_game

        out = set()
        drawn_games = set()
        for report in reports:
            try:
                drawn = ResultSheet.from_json(report.sheet).result in _DRAWN
            except Exception:
                continue  # an unreadable sheet waits in the outbox (see _record)
            if not drawn:
                continue
            drawn_games.add(report.game_id)
            with contextlib.suppress(NotFound):
                if engine_game(await self.repo.game(report.game_id)):
                    out.add(report.game_id)
        return drawn_games, out

    @staticmethod
    def _record(e: Event, report: Report, engine_draw: bool = False) -> tuple[Event, str]:
        """The event with one report entered (or held as the board's conflict), and the entry's
        status; ``e`` itself when the report changes nothing or cannot be entered at all.

        A drawn game of an elimination round (``engine_draw``: an engine game or a players'
        online game) is settled as ``duiyi event play`` settles it (:func:`duiyi.tournament.event.settle_draw`): replayed with
        colours reversed (the engine round plays the board again), then decided by lot from
        ``Random(f"{seed}:lot:{round}:{board}")``, the seed being ``options.seed`` or else the
        drawn game's id (recorded with the change)."""
        sheet = ResultSheet.from_json(report.sheet)
        if engine_draw and _settled_by_replay(e, report, sheet):
            seed = e.options.get("seed", report.game_id)
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


_DRAWN = (GameResult.DRAW, GameResult.NO_RESULT)


def _settled_by_replay(e: Event, report: Report, sheet: ResultSheet) -> bool:
    """Whether a drawn engine game's report goes to :func:`ops.settle_draw`: a plain draw
    (no penalty, no disqualification) on a board still without a result, in a round that needs
    a winner, under ``options.knockout_draw`` other than ``refuse`` (which holds it for the
    director as before)."""
    from duiyi.tournament import systems

    if sheet.result not in _DRAWN or sheet.penalty or sheet.disqualified:
        return False
    if e.options.get("knockout_draw", "replay") == "refuse":
        return False
    game = e.round(report.round).game(report.board)
    return game.result is None and systems.of(e).needs_winner(e, report.round)


def install_result_hook(games: GameManager, repo: Repository) -> None:
    """Finished event games enter their results through the outbox (see :class:`ResultReader`)."""
    reader = ResultReader(repo, float(os.environ.get("DUIYI_RESULT_DELAY") or 0), games)
    games.on_report = reader.nudge
    games.closers.append(reader.close)
