"""Game routes: create, read, act, download, and the live socket.

Player tokens come in ``Authorization: Bearer <token>``; on the socket also as ``?token=``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field
from starlette.responses import PlainTextResponse

from duiyi import Color
from duiyi.errors import DuiyiError, InvalidInput
from duiyi.server.auth import Forbidden, Unauthorized, bearer_token
from duiyi.server.games import GameManager, Hosted
from duiyi.server.problems import problem_body
from duiyi.session.adapters import GAME_ACTIONS

__all__ = ["action_data", "router"]

router = APIRouter(prefix="/api/games", tags=["games"])

MAX_WS_MESSAGE = 16_384


class NewGame(BaseModel):
    """A game to create."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field("go", description="'go' or 'gomoku'")
    size: int = Field(19, ge=5, le=25, description="Go board size (Gomoku is always 15)")
    rules: str | dict[str, Any] = Field(
        "chinese",
        description="a preset name (chinese, japanese, korean, ing; chinese_2013, "
        "free) or a rules JSON object",
    )
    handicap: int = Field(0, ge=0, le=9)
    time_control: dict[str, Any] | None = Field(
        None,
        description="a clock system: {'system': 'chinese-byoyomi', 'base': 3600, "
        "'reserved_minutes': 5}, {'system': 'absolute', 'base': 600}, ...",
    )
    overtime_pass: bool = False
    overrun_grace: float | None = Field(
        None,
        ge=0,
        description="seconds after an overrun of the last byo-yomi minute during which the "
        "player may still ask to count it as a pass (Go §22.5); default 10, 0: lost at once",
    )
    lateness: dict[str, Any] | None = Field(
        None,
        description="players start absent and arrive by connecting: {'limit': 900} (seconds; "
        "default Go §22.1 1 h, Gomoku §8.5 15 min), {'same_site': true} (Go §22.2, 15 min)",
    )


class Action(BaseModel):
    """An action: ``{"type": "move", "move": "D4"}``, ``{"type": "pass"}``, ..."""

    model_config = ConfigDict(extra="allow")

    type: str


def _manager(request: Request | WebSocket) -> GameManager:
    manager: GameManager = request.app.state.duiyi.games
    return manager


def action_data(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Split a request body into the session action type and its data.

    >>> action_data({"type": "move", "move": "D4"})
    ('move', {'point': 'D4'})
    """
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise InvalidInput("an action is an object with a 'type' such as 'move' or 'pass'")
    kind = body["type"]
    data = {k: v for k, v in body.items() if k != "type"}
    if kind == "move" and "move" in data and "point" not in data:
        data["point"] = data.pop("move")
    if kind in ("player", "at", "v"):
        raise InvalidInput(f"not an action type: {kind!r}")
    for reserved in ("player", "at", "v"):
        data.pop(reserved, None)
    return kind, data


# Players send the game's own actions plus adjourning (sealing their move), arriving late and
# asking for the Go §22.5 pass on overtime (in advance or at the overrun).
PLAYER_ACTIONS = GAME_ACTIONS | {"adjourn", "arrive", "request_overtime_pass"}  # Go §22.5


ARBITER_ACTIONS = frozenset({"pause", "resume", "split_pool"})


async def perform(
    host: Hosted, seat: Color | None, body: dict[str, Any], *, arbiter: bool = False
) -> int:
    """Authorise and apply one action: a player acts for its own seat only; the arbiter
    pauses, resumes and splits a shared pool (Go §14, Gomoku §8.1)."""
    kind, data = action_data(body)
    if arbiter:
        if kind not in ARBITER_ACTIONS:
            raise Forbidden(
                f"the arbiter sends {sorted(ARBITER_ACTIONS)} here and rulings to /rulings"
            )
        return await host.act(None, kind, data)
    if seat is None:
        raise Unauthorized("send your player token as 'Authorization: Bearer <token>'")
    if kind not in PLAYER_ACTIONS:
        raise Forbidden(f"players may not send {kind!r} actions (arbiters and organisers may)")
    return await host.act(seat, kind, data)


class RulingRequest(BaseModel):
    """An arbiter's ruling: a ``duiyi.referee.Referee`` method and its arguments, e.g.
    ``{"method": "warn", "args": ["black", "Go §24"]}``."""

    model_config = ConfigDict(extra="forbid")

    method: str
    args: list[Any] = Field(default_factory=list)
    kwargs: dict[str, Any] = Field(default_factory=dict)


def _ruling_args(values: list[Any]) -> list[Any]:
    return [Color(v) if v in ("black", "white") else v for v in values]


@router.post("", status_code=201)
async def create_game(request: Request, spec: NewGame) -> dict[str, Any]:
    """Create a game; answers its id and the two secret player tokens (shown once)."""
    host, secrets_ = await _manager(request).create(spec.model_dump())
    return {
        "id": host.id,
        "black_token": secrets_["black"],
        "white_token": secrets_["white"],
        "arbiter_token": secrets_["arbiter"],
        "version": host.version,
        "state": host.view(),
    }


@router.get("/{game_id}")
async def get_game(request: Request, game_id: str) -> dict[str, Any]:
    """The state: moves, version, to_move, phase, clocks, board, outcome."""
    host = await _manager(request).get(game_id)
    return (await host.read())[1]


@router.get("/{game_id}/actions")
async def get_actions(request: Request, game_id: str, after: int = 0) -> dict[str, Any]:
    """The public log entries after version ``after``."""
    host = await _manager(request).get(game_id)
    actions, state = await host.read(after)
    return {"version": state["version"], "actions": actions}


@router.post("/{game_id}/actions")
async def post_action(request: Request, game_id: str, action: Action) -> dict[str, Any]:
    """Apply an action as the player whose token is sent; answers the new version."""
    host = await _manager(request).get(game_id)
    token = bearer_token(request)
    body = action.model_dump()
    version = await perform(host, host.seat_for(token), body, arbiter=host.is_arbiter(token))
    return {"version": version, "state": (await host.read())[1]}


@router.post("/{game_id}/rulings")
async def post_ruling(request: Request, game_id: str, ruling: RulingRequest) -> dict[str, Any]:
    """An arbiter's ruling (warning, void move, time penalty, adjudication, forfeit...), each
    citing its article; needs the arbiter key."""
    host = await _manager(request).get(game_id)
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("send the arbiter key as 'Authorization: Bearer <key>'")
    if not host.is_arbiter(token):
        raise Forbidden("only the arbiter of this game may make rulings")
    kwargs = {
        k: Color(v) if k == "color" and v in ("black", "white") else v
        for k, v in ruling.kwargs.items()
    }
    version = await host.rule(ruling.method, _ruling_args(ruling.args), kwargs)
    return {"version": version, "state": (await host.read())[1]}


@router.get("/{game_id}/sgf", response_class=PlainTextResponse)
async def get_sgf(request: Request, game_id: str) -> PlainTextResponse:
    """The game record as SGF (Go: FF[4] GM[1]; Gomoku: GM[4])."""
    host = await _manager(request).get(game_id)
    session = await host.current_session()
    inner = session.game.game  # type: ignore[attr-defined]
    if session.game.kind == "go":
        text = inner.to_sgf()
    else:
        import importlib

        notation: Any = importlib.import_module("duiyi.gomoku.notation")
        text = notation.to_sgf(inner)
    return PlainTextResponse(
        text,
        media_type="application/x-go-sgf",
        headers={"content-disposition": f'attachment; filename="{game_id}.sgf"'},
    )


@router.websocket("/{game_id}/socket")
async def socket(websocket: WebSocket, game_id: str) -> None:
    """Live game: receives ``update`` and ``call`` messages; send ``{"type": "act", "action":
    {...}}`` to play, ``{"type": "resync", "version": N}`` to get what you missed."""
    await websocket.accept()
    try:
        host = await _manager(websocket).get(game_id)
    except DuiyiError as exc:
        await websocket.send_json({"type": "error", "problem": problem_body(exc)})
        await websocket.close(code=4404)
        return
    ws_token = bearer_token(websocket)
    seat = host.seat_for(ws_token)
    arbiter = host.is_arbiter(ws_token)
    if seat is not None and seat.value in (await host.read())[1].get("absent", ()):
        # connecting to one's own game is sitting down at the board (Go §22, Gomoku §8.5)
        with contextlib.suppress(DuiyiError):
            await host.act(seat, "arrive", {})
    # a client too slow to keep up loses the oldest messages; it sees the gap in the versions
    # and asks for a resync
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1000)

    def listener(message: str) -> None:
        if queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()
        queue.put_nowait(message)

    try:
        since = int(websocket.query_params.get("version", "0"))
    except ValueError:
        since = 0
    host.listeners.add(listener)
    actions, state = await host.read(min(max(since, 0), host.version))
    await websocket.send_json(
        {
            "type": "hello",
            "game_id": host.id,
            "seat": seat.value if seat else None,
            "version": state["version"],
            "actions": actions,
            "state": state,
        }
    )

    async def pump() -> None:
        while True:
            message = await queue.get()
            await websocket.send_text(message)

    sender = asyncio.create_task(pump())
    try:
        while True:
            raw = await websocket.receive_text()
            await _handle(websocket, host, seat, raw, arbiter)
    except WebSocketDisconnect:
        pass
    finally:
        host.listeners.discard(listener)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _handle(
    websocket: WebSocket, host: Hosted, seat: Color | None, raw: str, arbiter: bool
) -> None:
    ref: Any = None
    try:
        if len(raw) > MAX_WS_MESSAGE:
            raise InvalidInput(f"message too large ({len(raw)} bytes; limit {MAX_WS_MESSAGE})")
        try:
            msg = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"malformed JSON: {exc.msg} at column {exc.colno}") from exc
        if not isinstance(msg, dict):
            raise InvalidInput("a message is a JSON object with a 'type'")
        ref = msg.get("ref")
        kind = msg.get("type")
        if kind == "act":
            version = await perform(host, seat, msg.get("action") or {}, arbiter=arbiter)
            await websocket.send_json({"type": "ack", "ref": ref, "version": version})
        elif kind == "resync":
            since = msg.get("version", 0)
            if not isinstance(since, int):
                raise InvalidInput("resync needs an integer 'version'")
            actions, state = await host.read(since)
            await websocket.send_json(
                {
                    "type": "resync",
                    "ref": ref,
                    "version": state["version"],
                    "actions": actions,
                    "state": state,
                }
            )
        elif kind == "ping":
            await websocket.send_json({"type": "pong", "ref": ref})
        else:
            raise InvalidInput(f"unknown message type {kind!r}: use act, resync or ping")
    except DuiyiError as exc:
        await websocket.send_json({"type": "error", "ref": ref, "problem": problem_body(exc)})
