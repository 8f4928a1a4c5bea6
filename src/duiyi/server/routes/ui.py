"""Small routes the browser UI needs beyond the game and event APIs: each game as the pages
show it (its description from the registry), who sits at a game (names), finished games to
review, calls to the arbiter, the arbiter's room of an event, and games that
wait for both players before their clock starts.

Names, calls and the waiting flag live in the game's stored configuration (``config``), which
no commit of the action log ever rewrites; the rules themselves stay in the action log.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from duiyi import Color
from duiyi.actions import Resume
from duiyi.errors import InvalidInput
from duiyi.games import get as get_game
from duiyi.games.ui import GameUi, describe_all
from duiyi.server.auth import Forbidden, Unauthorized, bearer_token, hash_token, refusal
from duiyi.server.events.parsed import parsed_event
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.schemas import CHECKED, Numbered, text_field
from duiyi.server.state import engines_of, games_of, repo_of
from duiyi.store.models import GameRow
from duiyi.store.repository import Conflict, NotFound, Repository, StoredGame

__all__ = [
    "UI_HEADERS",
    "Seat",
    "UiFiles",
    "event_seats",
    "five_line",
    "given_seats",
    "router",
    "seat_texts",
]

#: What every file of the browser UI (``/ui/``) is sent with, so that a page stays its own:
#: scripts, styles and sockets from this origin only (no inline script or style; the UI has
#: none), never framed by another site (clickjacking), no address (with a seat's token in it)
#: sent to a site a page links to, and no type guessed from a file's contents.
UI_HEADERS: dict[str, str] = {
    "Content-Security-Policy": "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    ),
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
}


class UiFiles(StaticFiles):
    """The browser UI's static files, each sent with :data:`UI_HEADERS`.

    >>> from pathlib import Path
    >>> UiFiles(directory=Path("."), check_dir=False).headers["Referrer-Policy"]
    'no-referrer'
    """

    headers = UI_HEADERS

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(self.headers)
        return response


# names, calls, ready: the key is checked before the body is read (keyfirst.KeyFirstRoute)
router = APIRouter(tags=["ui"], route_class=KeyFirstRoute)

MAX_NAME = 60
MAX_CALLS = 50


def _seat(record: StoredGame, token: str | None) -> Color | None:
    if not token:
        return None
    h = hash_token(token)
    if h == record.black_token_hash:
        return Color.BLACK
    if h == record.white_token_hash:
        return Color.WHITE
    return None


def _arbiter(record: StoredGame, token: str | None) -> bool:
    return bool(token) and record.arbiter_token_hash == hash_token(str(token))


#: A seat's player as the pages show it: the name and, apart, the rank (``{"name": "Team 3d",
#: "rank": "1k"}``), so that no page reads a rank out of a name (issue 32: "Team 3d" was cut).
Seat = dict[str, str]


def given_seats(names: Any) -> dict[str, Seat]:
    """Names given for the seats (a casual game's, an engine's), which carry no rank.

    >>> given_seats({"black": "Team 3d", "white": ""})
    {'black': {'name': 'Team 3d', 'rank': ''}}
    """
    return {str(k): {"name": str(v), "rank": ""} for k, v in (names or {}).items() if v}


def seat_texts(seats: dict[str, Seat]) -> dict[str, str]:
    """The seats as the older ``names`` field reads: "name rank" a seat (kept for the CLI and
    readers of the API before ``seats``).

    >>> seat_texts({"black": {"name": "Team 3d", "rank": "1k"}, "white": {"name": "Bo", "rank": ""}})
    {'black': 'Team 3d 1k', 'white': 'Bo'}
    """
    return {k: f"{s['name']} {s['rank']}" if s["rank"] else s["name"] for k, s in seats.items()}


async def event_seats(
    repo: Repository, record: StoredGame, known: dict[str, Any] | None = None
) -> tuple[dict[str, Seat], Any]:
    """The players of an event game, name and rank (from the pairing of its round and board).
    ``known``: the events read so far by the request (id -> (record, parsed event)), so that
    a page of many boards reads each event once, not once a board (the arbiter's room of 31
    boards read the event 31 times: over nginx's 10 s on a loaded machine, issue 33)."""
    if record.event_id is None:
        return {}, None
    found = None if known is None else known.get(record.event_id)
    if found is None:
        try:
            stored = await repo.event(record.event_id)
        except NotFound:
            return {}, None
        found = (stored, parsed_event(stored))
        if known is not None:
            known[record.event_id] = found
    ev, e = found
    names: dict[str, Seat] = {}
    for rnd in e.history:
        if rnd.number != record.round:
            continue
        for pairing in rnd.games:
            if pairing.board != record.board:
                continue
            for seat, number in (("black", pairing.black), ("white", pairing.white)):
                if 1 <= number <= len(e.players):
                    p = e.players[number - 1]
                    names[seat] = {"name": p.name, "rank": p.rank or ""}
    where = {"id": record.event_id, "name": ev.name, "round": record.round, "board": record.board}
    return names, where


def five_line(stones: list[str], last: str | None) -> list[str]:
    """The five (or more) in a row through ``last`` among ``stones`` (Gomoku point names).

    >>> five_line(["h8", "i8", "j8", "k8", "l8", "a1"], "j8")
    ['h8', 'i8', 'j8', 'k8', 'l8']
    >>> five_line(["h8", "i9"], "h8")
    []
    """
    if not last or last == "pass":
        return []
    have = {(ord(p[0]) - 97, int(p[1:])) for p in stones}
    c0, r0 = ord(last[0]) - 97, int(last[1:])
    if (c0, r0) not in have:
        return []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        line = [(c0, r0)]
        for sign in (1, -1):
            c, r = c0 + sign * dc, r0 + sign * dr
            while (c, r) in have:
                line.append((c, r))
                c, r = c + sign * dc, r + sign * dr
        if len(line) >= 5:
            return [f"{chr(97 + c)}{r}" for c, r in sorted(line)]
    return []


def _five(state: dict[str, Any]) -> list[str]:
    outcome = state.get("outcome") or {}
    if not get_game(str(state.get("game"))).ends_in_a_line or outcome.get("termination") != "five":
        return []
    stones = state.get("stones") or {}
    last = state.get("last_move")
    for colour in ("black", "white"):
        line = five_line(list(stones.get(colour, [])), last)
        if line:
            return line
    return []


@router.get("/api/games/{game_id}/info")
async def game_info(request: Request, game_id: str) -> dict[str, Any]:
    """Who sits at the game (names), its event and board, whether it waits for its players,
    and for a finished Gomoku game the winning five; 404 for an unknown game."""
    repo = repo_of(request)
    record = await repo.game(game_id)
    names, where = await event_seats(repo, record)
    seats = {**given_seats(record.config.get("names")), **names}
    wait = record.config.get("wait") or {}
    out: dict[str, Any] = {
        "id": record.id,
        "game": record.kind,
        "status": record.status,
        "names": seat_texts(seats),
        "seats": seats,
        "event": where,
        "outcome": record.outcome,
        "waiting": bool(wait.get("waiting")),
        "ready": sorted(wait.get("ready", [])),
        "calls": record.config.get("calls", []),
        "rematch": record.config.get("rematch") or {},  # a casual game's (issue 21)
        "five": [],
    }
    if record.outcome is not None and get_game(record.kind).ends_in_a_line:
        host = await games_of(request).find(game_id)
        out["five"] = _five((await host.read())[1])
    return out


# printable text (no control, bidi override or zero-width character: schemas.check_text)
SeatName = Annotated[str, text_field(MAX_NAME), CHECKED]


class Names(BaseModel):
    """Names for a game: a player names its own seat (``name``); whoever holds the arbiter key
    (the creator of a casual game) names both seats."""

    model_config = ConfigDict(extra="forbid")

    name: SeatName | None = None
    black: SeatName | None = None
    white: SeatName | None = None


@router.put("/api/games/{game_id}/names")
async def set_names(request: Request, game_id: str, body: Names) -> dict[str, Any]:
    """Set the names shown for the seats."""
    repo = repo_of(request)
    record = await repo.game(game_id)
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("send your player token as 'Authorization: Bearer <token>'")
    seat = _seat(record, token)
    changes: dict[str, str] = {}
    if seat is not None and body.name is not None:
        changes[seat.value] = body.name.strip()
    elif _arbiter(record, token):
        for s in ("black", "white"):
            v = getattr(body, s)
            if v is not None:
                changes[s] = v.strip()
    else:
        raise Forbidden("a player names its own seat; the arbiter key names both")

    def change(config: dict[str, Any]) -> None:
        config["names"] = {**(config.get("names") or {}), **changes}

    config = await repo.update_config(game_id, change)
    return {"names": config["names"]}


@router.post("/api/games/{game_id}/ready")
async def ready(request: Request, game_id: str) -> dict[str, Any]:
    """A player sits down at a game that waits for both players (the demo's games): once both
    sat down the arbiter's pause is lifted and the clock starts."""
    repo = repo_of(request)
    record = await repo.game(game_id)
    token = bearer_token(request)
    seat = _seat(record, token)
    if seat is None:
        raise refusal(token, "a player's token")
    both = False

    def change(config: dict[str, Any]) -> None:
        nonlocal both
        wait = dict(config.get("wait") or {})
        if not wait.get("waiting"):
            return
        sat = set(wait.get("ready", [])) | {seat.value}
        wait["ready"] = sorted(sat)
        both = sat == {"black", "white"}
        if both:
            wait["waiting"] = False
        config["wait"] = wait

    config = await repo.update_config(game_id, change)
    if both:
        host = await games_of(request).serve(game_id)  # an action on the game
        if (await host.read())[1].get("paused"):
            await host.act(None, Resume())
    wait = config.get("wait") or {}
    return {"waiting": bool(wait.get("waiting")), "ready": wait.get("ready", [])}


class Call(BaseModel):
    """A player's call to the arbiter: what about (``foul``, ``count``, ``time``, ``other``)
    and a few words."""

    model_config = ConfigDict(extra="forbid")

    about: Literal["foul", "count", "time", "draw", "other"] = "other"
    text: Annotated[str, text_field(300), CHECKED] = ""


class Close(BaseModel):
    """The arbiter closes a call, naming the ruling made (or none)."""

    model_config = ConfigDict(extra="forbid")

    ruling: Annotated[str, text_field(300), CHECKED] = ""


@router.post("/api/games/{game_id}/calls", status_code=201)
async def call_arbiter(request: Request, game_id: str, body: Call) -> dict[str, Any]:
    """A player calls the arbiter to the board (a claim the arbiter decides)."""
    repo = repo_of(request)
    record = await repo.game(game_id)
    token = bearer_token(request)
    seat = _seat(record, token)
    if seat is None:  # a player calls; the arbiter's key is refused (403)
        raise refusal(token, "a player's token (a player calls the arbiter)")
    if body.about not in ("foul", "count", "time", "draw", "other"):
        raise InvalidInput(f"about is foul, count, time, draw or other, not {body.about!r}")
    made: dict[str, Any] = {}

    def change(config: dict[str, Any]) -> None:
        calls = list(config.get("calls") or [])
        if sum(1 for c in calls if c.get("open")) >= 3:
            raise Conflict("three calls are open already: the arbiter is on the way")
        if len(calls) >= MAX_CALLS:
            raise Conflict("too many calls in this game")
        made.update(
            n=len(calls) + 1,
            seat=seat.value,
            about=body.about,
            text=body.text.strip(),
            at=time.time(),
            open=True,
            ruling="",
        )
        calls.append(dict(made))
        config["calls"] = calls

    config = await repo.update_config(game_id, change)
    games_of(request).announce(game_id, {"type": "calls", "calls": config.get("calls", [])})
    return made


@router.post("/api/games/{game_id}/calls/{n}/close")
async def close_call(request: Request, game_id: str, n: Numbered, body: Close) -> dict[str, Any]:
    """The arbiter answers a call (after the ruling, if any, was made on the game)."""
    repo = repo_of(request)
    record = await repo.game(game_id)
    if not _arbiter(record, bearer_token(request)):
        raise Forbidden("only the arbiter of this game may close its calls")
    return await answer_call(request, game_id, n, body.ruling.strip(), None)


#: what a call taken for a ruling on its way says until the ruling is made
_BEING_ANSWERED = "a ruling on its way"


async def claim_call(request: Request, game_id: str, n: int, action_id: str | None) -> None:
    """Take call ``n`` for a ruling about to be made: one answer per call, whatever the number
    of the arbiter's tabs. A call answered already (or being answered) is refused with what
    answered it (409, nothing is ruled); the same ruling sent again (its ``action_id``) may
    take it again. :func:`release_call` gives it back if the ruling is refused."""

    def change(config: dict[str, Any]) -> None:
        calls = [dict(c) for c in config.get("calls") or []]
        call = next((c for c in calls if c.get("n") == n), None)
        if call is None:
            raise NotFound(f"no call {n} in game {game_id!r}")
        again = action_id is not None and call.get("taken_by") == action_id
        if not call.get("open") and not again:
            raise Conflict(
                f"call {n} was already answered by {call.get('ruling') or 'the arbiter'}",
                code="call-answered",
                values={"call": str(n)},
            )
        call["open"] = False
        call["ruling"] = call.get("ruling") or _BEING_ANSWERED
        if action_id is not None:
            call["taken_by"] = action_id
        config["calls"] = [call if c.get("n") == n else c for c in calls]

    await repo_of(request).update_config(game_id, change)


async def release_call(request: Request, game_id: str, n: int) -> None:
    """Open call ``n`` again after the ruling taken for it was refused."""

    def change(config: dict[str, Any]) -> None:
        calls = [dict(c) for c in config.get("calls") or []]
        for c in calls:
            if c.get("n") == n and c.get("ruling") == _BEING_ANSWERED:
                c.update(open=True, ruling="")
                c.pop("taken_by", None)
        config["calls"] = calls

    await repo_of(request).update_config(game_id, change)


async def answer_call(
    request: Request, game_id: str, n: int, text: str, ruling: dict[str, Any] | None
) -> dict[str, Any]:
    """Close call ``n`` of a game with ``text`` and the ruling made for it (``ruling``: its
    JSON, article and note included, or None); the other calls stay open. The game's sockets
    hear of it at once."""
    closed: dict[str, Any] = {}

    def change(config: dict[str, Any]) -> None:
        calls = [dict(c) for c in config.get("calls") or []]
        for c in calls:
            if c.get("n") == n:
                c["open"] = False
                c["ruling"] = text
                if ruling is not None:
                    c["answer"] = ruling
                closed.update(c)
        if not closed:
            raise NotFound(f"no call {n} in game {game_id!r}")
        config["calls"] = calls

    config = await repo_of(request).update_config(game_id, change)
    games_of(request).announce(game_id, {"type": "calls", "calls": config.get("calls", [])})
    return closed


@router.get("/api/game-types")
async def game_types() -> dict[str, GameUi]:
    """Each game duiyi plays, by name, as the browser pages show it (:mod:`duiyi.games.ui`):
    its board's letters and star points, its forms' presets and settings, the phases and panels
    of its game page, the book's words. Built from the registry; the pages never compare a
    game's name."""
    return describe_all()


@router.get("/api/finished-games")
async def finished_games(request: Request, limit: int = 30) -> dict[str, Any]:
    """The most recent finished games, newest first, to review."""
    repo = repo_of(request)
    async with repo.db.session() as s:
        rows = await s.scalars(
            select(GameRow)
            .where(GameRow.status != "live")
            .order_by(GameRow.created_at.desc())
            .limit(max(1, min(limit, 200)))
        )
        records = [StoredGame.of(r) for r in rows]
    out = []
    known: dict[str, Any] = {}
    for record in records:
        names, where = await event_seats(repo, record, known)
        seats = {**given_seats(record.config.get("names")), **names}
        out.append(
            {
                "id": record.id,
                "game": record.kind,
                "size": get_game(record.kind).stored_size(record.config),
                "names": seat_texts(seats),
                "seats": seats,
                "event": where,
                "outcome": record.outcome,
                "moves": record.version,
            }
        )
    return {"games": out}


def _engine_seat_name(engine: Any, engines: Any) -> dict[str, str]:
    """The engine's seat of a game against the computer named as its player sees it (the
    entry's label, else its name): ``{}`` for a game without one.

    >>> from duiyi.server.engines.catalog import EngineList
    >>> _engine_seat_name({"seat": "white", "name": "gnugo:3"}, EngineList())
    {'white': 'gnugo'}
    >>> _engine_seat_name(None, EngineList())
    {}
    """
    if not isinstance(engine, dict) or engine.get("seat") not in ("black", "white"):
        return {}
    name = str(engine.get("name") or "").partition(":")[0]
    entry = engines.entries.get(name) if engines is not None else None
    label = (entry.label or entry.name) if entry is not None else name
    return {str(engine["seat"]): label} if label else {}


@router.get("/api/live-games/names")
async def live_names(request: Request, limit: int = 50) -> dict[str, Any]:
    """The players at each game in play (for the home page's live list), newest games first:
    ``seats`` ``{id: {black: {name, rank}, white: …}}`` and ``names`` ``{id: {black: "name
    rank", …}}`` as before."""
    repo = repo_of(request)
    records = sorted(await repo.live_games(), key=lambda r: r.created_at, reverse=True)
    out: dict[str, dict[str, Seat]] = {}
    known: dict[str, Any] = {}
    engines = engines_of(request)
    for record in records[: max(1, min(limit, 200))]:
        names, _where = await event_seats(repo, record, known)
        engine = _engine_seat_name(record.config.get("engine"), engines)
        merged = {**given_seats(engine), **given_seats(record.config.get("names")), **names}
        if merged:
            out[record.id] = merged
    return {"names": {k: seat_texts(v) for k, v in out.items()}, "seats": out}


@router.get("/api/events/{event_id}/room")
async def arbiter_room(request: Request, event_id: str) -> dict[str, Any]:
    """The arbiter's room: every online game of the event's latest round with an online game
    (state, clocks, calls, rulings); needs the event's arbiter key."""
    repo = repo_of(request)
    ev = await repo.event(event_id)
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("send the arbiter key as 'Authorization: Bearer <key>'")
    if ev.arbiter_token_hash != hash_token(token):
        raise Forbidden("only the event's arbiter may open its room")
    games = await repo.games_of_event(event_id)
    rounds = sorted({g.round for g in games if g.round is not None})
    show = rounds[-1] if rounds else None
    boards = []
    known = {event_id: (ev, parsed_event(ev))}  # the event read once for every board
    shown = [record for record in games if record.round == show]
    # each board's log and state: from memory when hosted here, else from the store, every
    # log in one query (issue 33: read through each game's host, a game another process owns
    # was read and replayed several times over, and the room of 31 boards took 2-20 s)
    states = await games_of(request).states(shown)
    for record in shown:
        if record.id not in states:
            continue  # its stored log cannot be replayed (logged)
        entries, state = states[record.id]
        names, _where = await event_seats(repo, record, known)
        rulings = [e.get("ruling") for e in entries if e.get("type") == "ruling"]
        boards.append(
            {
                "id": record.id,
                "round": record.round,
                "board": record.board,
                "names": seat_texts(names),
                "seats": names,
                "state": state,
                "calls": record.config.get("calls", []),
                "rulings": [r for r in rulings if isinstance(r, dict)],
            }
        )
    boards.sort(key=lambda b: b["board"] or 0)
    game = str(parsed_event(ev).game)  # the game's name (a GameType prints as it)
    return {
        "event": {"id": event_id, "name": ev.name, "game": game},
        "round": show,
        "boards": boards,
    }
