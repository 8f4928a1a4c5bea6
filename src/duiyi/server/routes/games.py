"""Game routes: create, read, act, download, and the live socket.

Player tokens come in ``Authorization: Bearer <token>``; on the socket also as the subprotocol
``bearer.<token>``. Never in a URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field
from starlette.responses import PlainTextResponse, Response
from starlette.websockets import WebSocketState

import duiyi.server.games.rematch as rematches
from duiyi import Color, games
from duiyi.actions import SESSION_ACTIONS, Arrive, is_game_action
from duiyi.codec import action_class
from duiyi.errors import DuiyiError, InvalidInput, InvalidPoint
from duiyi.server.auth import (
    SUBPROTOCOL,
    Forbidden,
    Unauthorized,
    bearer_token,
    refusal,
    secret_in_url,
)
from duiyi.server.games.action_schemas import ARBITER_ACTIONS, DOCUMENTED_AS_ACTIONS, PLAYER_ACTIONS
from duiyi.server.games.broadcast import RECONNECT_TEXT
from duiyi.server.games.host import GameHost
from duiyi.server.games.hosted import MOVED, Hosted
from duiyi.server.games.manager import NewGame
from duiyi.server.games.rulings import Ruling, ruling_in_game, ruling_table
from duiyi.server.games.spec import refused_by_rules
from duiyi.server.keyfirst import KeyFirstRoute
from duiyi.server.limits import TokenBucket, json_shape
from duiyi.server.problems import (
    RateLimited,
    RefusedByRules,
    Unavailable,
    attachment,
    file_answer,
    problem_body,
    problem_response,
    report_failure,
    status_for,
    store_outage,
)
from duiyi.server.routes.ui import answer_call, claim_call, release_call
from duiyi.server.schemas import GameSpec, normal_action, parse_action
from duiyi.server.state import games_of
from duiyi.store.repository import Conflict, NotFound

__all__ = ["perform", "router"]

# every action, ruling, ... checks its key before its body is read (keyfirst.KeyFirstRoute)
router = APIRouter(prefix="/api/games", tags=["games"], route_class=KeyFirstRoute)

MAX_WS_MESSAGE = 16_384

log = logging.getLogger("duiyi.server")


class Action(BaseModel):
    """An action: ``{"type": "move", "move": "D4"}``, ``{"type": "pass"}``, ... With an
    ``action_id`` (any string the client chooses, unique per action) the action is applied at
    most once: a retry with the same id is answered with the version it reached. Its fields
    are read by :func:`perform` once the sender is authorised; the document shows each
    action's own (``action_schemas.ActionBody``)."""

    model_config = ConfigDict(extra="allow")

    type: str
    action_id: str | None = Field(
        None, min_length=1, max_length=64, description="the client's id of this action"
    )


_PLAYER_NAMES = ", ".join(sorted(map(SESSION_ACTIONS.name_of, PLAYER_ACTIONS)))
_ARBITER_NAMES = ", ".join(sorted(map(SESSION_ACTIONS.name_of, ARBITER_ACTIONS)))


async def perform(host: Hosted, seat: Color | None, body: object, *, arbiter: bool = False) -> int:
    """Read the request ``body`` once into its typed action (:func:`schemas.parse_action`),
    authorise it and apply it: a player acts for its own seat only; the arbiter pauses,
    resumes and splits a shared pool (Go §14, Gomoku §8.1)."""
    kind = action_class(
        body, SESSION_ACTIONS
    )  # who may send it is known before its fields are read
    if arbiter:
        if not issubclass(kind, ARBITER_ACTIONS):
            raise Forbidden(f"the arbiter sends {_ARBITER_NAMES} here and rulings to /rulings")
    elif seat is None:
        raise Unauthorized("send your player token as 'Authorization: Bearer <token>'")
    elif not (is_game_action(kind) or issubclass(kind, PLAYER_ACTIONS)):
        if issubclass(kind, ARBITER_ACTIONS):
            raise Forbidden(
                f"players may not send {SESSION_ACTIONS.name_of(kind)!r}: only the game's arbiter key may "
                f"({_ARBITER_NAMES})"
            )
        raise Forbidden(
            f"players may not send {SESSION_ACTIONS.name_of(kind)!r} actions: a player sends the game's moves, "
            f"{_PLAYER_NAMES}"
        )
    # the document's schema of the action first (422): every point has the books' form then
    action, action_id = parse_action(body)
    # the point as the book writes it ("d4", "D04" -> "D4"): the log keeps one form
    normal = normal_action(action, games.get(host.record.kind))
    try:
        return await host.act(seat, normal, action_id)
    except InvalidPoint as exc:
        # a point of the books' form (the schema checked it) off this game's board, or a
        # column the book skips (Go's I): the board refuses it (409)
        raise RefusedByRules(exc.message, exc.article) from exc


@router.post("", status_code=201)
async def create_game(request: Request, spec: GameSpec) -> dict[str, Any]:
    """Create a game; answers its id and the two secret player tokens (shown once)."""
    # created for the process nginx sends the game to (behind its consistent hash)
    host, secrets_ = await games_of(request).create_routed(NewGame(refused_by_rules(spec.spec())))
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
    host = await games_of(request).find(game_id)
    return (await host.read())[1]


@router.get("/{game_id}/actions")
async def get_actions(
    request: Request, game_id: str, after: Annotated[int, Query(ge=0)] = 0
) -> dict[str, Any]:
    """The public log entries after version ``after``."""
    host = await games_of(request).find(game_id)
    actions, state = await host.read(after)
    return {"version": state["version"], "actions": actions}


@router.post("/{game_id}/actions")
async def post_action(
    request: Request, game_id: str, action: Annotated[Action, DOCUMENTED_AS_ACTIONS]
) -> dict[str, Any]:
    """Apply an action as the player whose token is sent; answers the new version."""
    host = await games_of(request).serve(game_id)
    token = bearer_token(request)
    body = action.model_dump()
    version = await perform(host, host.seat_for(token), body, arbiter=host.is_arbiter(token))
    return {"version": version, "state": (await host.read())[1]}


@router.post("/{game_id}/rulings")
async def post_ruling(
    request: Request, game_id: str, ruling: Annotated[Ruling, Body()]
) -> dict[str, Any]:
    """An arbiter's ruling, one typed request per kind: ``{"kind": "warning", "color": "black",
    "article": "Go §24"}``, ``{"kind": "moved_stones", "decision": "restore"}``, ... (void
    move, time penalty, adjudication, forfeit...), each citing its article; needs the arbiter
    key. A malformed ruling is a 422 problem and changes nothing. With an ``action_id`` a
    ruling sent again (a lost answer, a retry) is applied once and answered with its version."""
    host = await games_of(request).serve(game_id)
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("send the arbiter key as 'Authorization: Bearer <key>'")
    if not host.is_arbiter(token):
        raise Forbidden("only the arbiter of this game may make rulings")
    body = ruling.model_dump(mode="json", exclude_none=True)
    # what the schema cannot check: the article, the move number and the points against the
    # game itself (rulings.ruling_in_game)
    size = (await host.read())[1].get("size")
    played = (await host.current_session()).game.moves_played()
    try:
        body = ruling_in_game(body, games.get(host.record.kind), int(size or 0) or None, played)
    except InvalidPoint as exc:
        # a point of the books' form (the schema checked it) off this game's board: the board
        # refuses it (409), as it refuses an action's
        raise RefusedByRules(exc.message, exc.article, code=exc.code, values=exc.values) from exc
    call = body.pop("answers", None)
    action_id = body.pop("action_id", None)
    if call is not None:
        try:
            await claim_call(request, game_id, int(call), action_id)  # one answer per call
        except NotFound as exc:
            # the body names a call (1-1000, as the schema allows) the game does not have:
            # the game's state refuses it, as a call already answered (409), naming the field
            raise Conflict(f"answers: {exc.message}") from exc
    before = host.version
    try:
        version = await host.rule(body, action_id)
    except BaseException:
        if call is not None:
            await release_call(request, game_id, int(call))
        raise
    made = [
        e["ruling"]
        for e in await host.entries(min(before, version - 1))
        if e.get("type") == "ruling" and isinstance(e.get("ruling"), dict)
    ]
    if call is not None:
        # the call it was made for is answered by it, and only that call
        text = "; ".join(f"{r['kind']} · {r['article']}" for r in made)
        await answer_call(request, game_id, int(call), text, made[0] if made else None)
    return {"version": version, "state": (await host.read())[1], "rulings": made}


def _player_seat(request: Request, host: Hosted) -> Color:
    """The seat of the player whose token ``request`` sends; the players ask, anyone else is
    refused (:func:`~duiyi.server.auth.refusal`: the arbiter's key too, 403)."""
    token = bearer_token(request)
    seat = host.seat_for(token)
    if seat is None:
        raise refusal(token, "a player's token")
    return seat


@router.post("/{game_id}/rematch", status_code=201)
async def rematch(request: Request, game_id: str) -> dict[str, Any]:
    """After a casual game, a new one with the colours swapped and the same settings (issue
    21); a player's token asks. Against an engine it is made at once (the same engine and
    level; answered as ``POST /api/engine-games``). Between two people the first to ask offers
    it and the opponent's ask accepts it: the game is made then, each player's link seated at
    the other colour (no new secret), and both pages hear of it on the socket (``{"type":
    "rematch", "rematch": {"offered_by", "game"}}``). One rematch per game: its id is fixed by
    the game's. No rematch of an event's game."""
    manager = games_of(request)
    host = await manager.find(game_id)  # a read: the offer is stored, the game not acted on
    seat = _player_seat(request, host)
    record = await manager.repo.game(game_id)  # the offer as stored now (any process)
    rematches.check_casual(record)
    if (await host.current_session()).outcome() is None and getattr(host, "closed", None) is None:
        raise Conflict("the game is not over: finish it (or resign) before a rematch")
    engine = record.config.get("engine")
    if isinstance(engine, dict):
        from duiyi.server.routes.engines import engine_rematch  # the engines are optional

        return await engine_rematch(request, game_id, seat, engine)
    now = await rematches.offer(manager.repo, game_id, seat)
    if now.get("accepted") and not now.get("game"):
        again = rematches.rematch_id(game_id)
        spec = refused_by_rules(rematches.rematch_spec(record.config))
        try:
            # each player's token seated at the other colour; the creator's arbiter key kept
            await manager.create_routed(
                NewGame(
                    spec,
                    game_id=again,
                    token_hashes=(record.white_token_hash, record.black_token_hash),
                    arbiter_token_hash=record.arbiter_token_hash,
                )
            )
        except Conflict as exc:
            if again not in str(exc):
                raise
        else:
            names = rematches.swapped_names(record.config)
            if names:
                await manager.repo.update_config(again, lambda c: c.update(names=names))
        now = await rematches.made(manager.repo, game_id, again)
    manager.announce(game_id, {"type": "rematch", "rematch": now})
    return {"rematch": now, "id": now.get("game"), "seat": seat.opponent.value}


@router.delete("/{game_id}/rematch")
async def decline_rematch(request: Request, game_id: str) -> dict[str, Any]:
    """A player withdraws its rematch offer, or declines the opponent's; the pages hear of it
    on the socket."""
    manager = games_of(request)
    host = await manager.find(game_id)
    seat = _player_seat(request, host)
    now = await rematches.decline(manager.repo, game_id, seat)
    manager.announce(game_id, {"type": "rematch", "rematch": now})
    return {"rematch": now}


@router.get("/{game_id}/rulings")
async def get_ruling_table(request: Request, game_id: str) -> dict[str, Any]:
    """The rulings this game's rulebook lets its arbiter make (its ``Book``), each with the
    fields of its request, the article preselected and the articles to choose from: the forms
    of the arbiter's room and game page are built from it."""
    host = await games_of(request).find(game_id)
    game = str((await host.read())[1].get("game"))
    return {"game": game, "rulings": ruling_table(game)}


@router.get(
    "/{game_id}/sgf",
    response_class=PlainTextResponse,
    responses=file_answer("application/x-go-sgf", "the game record"),
)
async def get_sgf(request: Request, game_id: str) -> Response:
    """The game record as SGF (Go: FF[4] GM[1]; Gomoku: GM[4])."""
    host = await games_of(request).find(game_id)
    session = await host.current_session()
    return attachment(session.game.sgf(), "application/x-go-sgf", f"{game_id}.sgf")


# WebSocket close codes: 1003 a binary frame, 1011 an internal error, 1013 too many sockets
# (from this address, or watching this game), 1008 the message budget spent, 4400 a secret
# in the URL, 4404 no such game, 4409 the game moved on in the store (reconnect and resync).
CLOSE_BINARY = 1003
CLOSE_ERROR = 1011
CLOSE_TRY_LATER = 1013
CLOSE_POLICY = 1008
CLOSE_NO_SUBPROTOCOL = 1002  # a protocol error: the handshake offered no duiyi subprotocol
CLOSE_SECRET_IN_URL = 4400
CLOSE_NOT_FOUND = 4404
CLOSE_RECONNECT = 4409


class MessageBudget:
    """A connection's messages: ``burst`` at once, refilled at ``rate`` per second; a client
    that keeps sending past it is disconnected.

    >>> b = MessageBudget(rate=1.0, burst=2, strikes=1)
    >>> [b.take(0.0), b.take(0.0), b.take(0.0), b.exhausted]
    [True, True, False, True]
    """

    def __init__(self, rate: float = 20.0, burst: int = 60, strikes: int = 60) -> None:
        self.bucket = TokenBucket(rate, burst)
        self.refused = 0
        self.strikes = strikes

    def take(self, now: float) -> bool:
        """Spend one message; False (and one strike) when over budget."""
        if self.bucket.take(now):
            return True
        self.refused += 1
        return False

    @property
    def exhausted(self) -> bool:
        """True once the client ignored the refusals ``strikes`` times."""
        return self.refused >= self.strikes


@router.websocket("/{game_id}/socket")
async def socket(websocket: WebSocket, game_id: str) -> None:
    """Live game: receives ``update`` and ``call`` messages; send ``{"type": "act", "action":
    {...}}`` to play, ``{"type": "resync", "version": N}`` to get what you missed.

    Credentials come in the ``Authorization`` header or as the subprotocol ``bearer.<token>``
    (offered beside ``duiyi``, which the server answers); never in the URL."""
    if SUBPROTOCOL not in (websocket.scope.get("subprotocols") or []):
        # a client that does not speak this socket's messages is refused at the handshake
        no_protocol = InvalidInput(
            f"offer the WebSocket subprotocol {SUBPROTOCOL!r} (and 'bearer.<token>' to sit at "
            "the board): this socket speaks only the duiyi messages"
        )
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            await websocket.send_denial_response(problem_response(no_protocol))
        else:
            await websocket.close(code=CLOSE_NO_SUBPROTOCOL)
        return
    await websocket.accept(subprotocol=SUBPROTOCOL)
    if secret_in_url(websocket):
        problem = problem_body(
            InvalidInput(
                "secrets never travel in a URL (logs keep URLs): offer the subprotocols "
                "'duiyi' and 'bearer.<token>', or send 'Authorization: Bearer <token>'"
            )
        )
        await websocket.send_json({"type": "error", "problem": problem})
        await websocket.close(code=CLOSE_SECRET_IN_URL)
        return
    try:
        host = await games_of(websocket).serve(game_id)  # a socket is served live
    except Exception as exc:
        refusal = _refusal(exc, f"socket of game {game_id}")
        if refusal is None:
            raise
        await websocket.send_json({"type": "error", "problem": problem_body(refusal)})
        status = status_for(refusal)
        await websocket.close(code=CLOSE_TRY_LATER if status in (429, 503) else CLOSE_NOT_FOUND)
        return
    ws_token = bearer_token(websocket)
    seat = host.seat_for(ws_token)
    arbiter = host.is_arbiter(ws_token)
    state = websocket.app.state.duiyi
    settings = state.settings
    client = state.client(websocket.scope)
    # bounded (issue 25): sockets per client address, and spectators per game (the players
    # and the arbiter always get in)
    crowded = None
    if state.sockets.get(client, 0) >= settings.max_sockets_per_client:
        crowded = f"more than {settings.max_sockets_per_client} sockets from this address"
    elif seat is None and not arbiter and len(host.listeners) >= settings.max_sockets_per_game:
        crowded = f"this game has {settings.max_sockets_per_game} watchers (the limit)"
    if crowded is not None:
        await websocket.send_json(
            {"type": "error", "problem": problem_body(RateLimited(crowded + "; try later"))}
        )
        await websocket.close(code=CLOSE_TRY_LATER, reason="too many sockets")
        return
    state.sockets[client] = state.sockets.get(client, 0) + 1
    try:
        await _serve_socket(websocket, host, seat, arbiter)
    except WebSocketDisconnect:
        return  # the client left before its hello was sent: nobody to answer
    except Exception as exc:  # the store went away while the socket opened: come back later
        refusal = _refusal(exc, f"socket of game {game_id}")
        if refusal is None:
            raise
        if isinstance(refusal, Unavailable) and _moved_on(host):
            await _close_reconnect(websocket)  # taken over meanwhile: to the owner (4409)
            return
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "problem": problem_body(refusal)})
            await websocket.close(code=CLOSE_TRY_LATER, reason="try again shortly")
    finally:
        left = state.sockets.get(client, 1) - 1
        if left > 0:
            state.sockets[client] = left
        else:
            state.sockets.pop(client, None)


async def _serve_socket(
    websocket: WebSocket, host: Hosted, seat: Color | None, arbiter: bool
) -> None:
    """The socket of a player (``seat``), the arbiter or a spectator, once admitted."""
    game_id = host.id
    if seat is not None and seat.value in (await host.read())[1].get("absent", ()):
        # connecting to one's own game is sitting down at the board (Go §22, Gomoku §8.5)
        with contextlib.suppress(DuiyiError):
            await host.act(seat, Arrive())
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
            if message == RECONNECT_TEXT:  # another process serves the game now
                await _close_reconnect(websocket)
                return
            await websocket.send_text(message)

    sender = asyncio.create_task(pump())
    conn = Connection(seat, arbiter)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:  # a binary frame: the protocol is JSON text
                await websocket.close(code=CLOSE_BINARY, reason="text frames only")
                break
            if not conn.budget.take(time.monotonic()):
                if conn.budget.exhausted:
                    await websocket.close(code=CLOSE_POLICY, reason="message budget exceeded")
                    break
                await websocket.send_json(
                    {
                        "type": "error",
                        "problem": problem_body(
                            RateLimited("too many messages on this connection; slow down")
                        ),
                    }
                )
                continue
            if await _handle(websocket, host, conn, raw):
                break  # closed: the game moved on (4409)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:  # a bug: the client gets a close frame (1011), never a dropped socket
        log.exception("socket of game %s", game_id)
        with contextlib.suppress(Exception):
            await websocket.close(code=CLOSE_ERROR, reason="internal error")
    finally:
        host.listeners.discard(listener)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


class Connection:
    """What one socket is allowed, and what it was already sent."""

    def __init__(self, seat: Color | None, arbiter: bool) -> None:
        self.seat = seat
        self.arbiter = arbiter
        self.budget = MessageBudget()
        # the version of the last resync answered: a resync is answered once per version
        self.resynced: int | None = None


async def _handle(websocket: WebSocket, host: Hosted, conn: Connection, raw: str) -> bool:
    """Answer one message; True when the socket was closed instead (4409: this process no
    longer serves the game)."""
    ref: Any = None
    try:
        if len(raw) > MAX_WS_MESSAGE:
            raise InvalidInput(f"message too large ({len(raw)} bytes; limit {MAX_WS_MESSAGE})")
        wrong = json_shape(raw.encode())
        if wrong is not None:  # before the parser recurses or reads a 5,000-digit number
            raise InvalidInput(f"message refused: {wrong}")
        try:
            msg = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"malformed JSON: {exc.msg} at column {exc.colno}") from exc
        except (ValueError, RecursionError) as exc:
            raise InvalidInput(f"malformed JSON: {exc}") from exc
        if not isinstance(msg, dict):
            raise InvalidInput("a message is a JSON object with a 'type'")
        ref = msg.get("ref")
        kind = msg.get("type")
        if kind == "act":
            action = msg.get("action") or {}
            version = await perform(host, conn.seat, action, arbiter=conn.arbiter)
            await websocket.send_json({"type": "ack", "ref": ref, "version": version})
        elif kind == "resync":
            since = msg.get("version", 0)
            if not isinstance(since, int) or isinstance(since, bool):
                raise InvalidInput("resync needs an integer 'version'")
            if conn.resynced is not None and conn.resynced == host.version:
                raise RateLimited(
                    f"already resynced at version {conn.resynced}: wait for the next update"
                )
            actions, state = await host.read(since)
            conn.resynced = int(state["version"])
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
    except Exception as exc:
        refusal = _refusal(exc, f"a message on the socket of game {host.id}")
        if refusal is None:
            raise
        if isinstance(refusal, Unavailable) and _moved_on(host):
            # another process took the game over (this one is fenced out): the socket closes
            # with 4409, as every socket of the game here is told to (its listener's
            # RECONNECT); the client reconnects through nginx, to the owner, and sends the
            # action again with the same id. (The store down is still a 503 for the action,
            # then the 4409: the client learns the action was not stored.)
            await _close_reconnect(websocket)
            return True
        # a 503 (the store is down) is retryable: the client sends the action again, same id
        await websocket.send_json({"type": "error", "ref": ref, "problem": problem_body(refusal)})
    return False


def _moved_on(host: Hosted) -> bool:
    """Whether another process took ``host``'s game over from this one (MOVED)."""
    return isinstance(host, GameHost) and host.abandoned == MOVED


async def _close_reconnect(websocket: WebSocket) -> None:
    """Close with 4409 (reconnect), unless the socket is closed already (its listener's
    RECONNECT may have closed it first)."""
    if websocket.application_state != WebSocketState.DISCONNECTED:
        with contextlib.suppress(RuntimeError):
            await websocket.close(code=CLOSE_RECONNECT, reason="reconnect")
            websocket.app.state.duiyi.sockets_moved += 1  # /api/metrics


def _refusal(exc: Exception, what: str) -> DuiyiError | None:
    """What a socket answers for ``exc``: a duiyi error as it is, a store outage as a 503
    (logged as one warning line), None for anything else (a bug)."""
    if isinstance(exc, DuiyiError):
        return exc
    outage = store_outage(exc)
    if outage is not None:
        report_failure(what, exc)
    return outage
