"""The floor of bench/cluster.py: a minimal Starlette server that plays bench/load.py's scripted
games with duiyi's Go core and one INSERT per move, and nothing else (no clock, no referee, no
action ids, no fencing, no fan-out).

    python bench/minimal_server.py --port 8100 --pg postgresql://postgres@127.0.0.1:5432/db

It speaks the part of duiyi's socket protocol the scripted players use: ``POST /api/games``
answers ``id``, ``black_token``, ``white_token``; the socket (subprotocols ``duiyi`` and
``bearer.<token>``) says ``hello`` with ``state.to_move``, takes ``act`` with a move, answers
``ack`` once the move's row is committed (autocommit INSERT) and sends every socket of the game
an ``update`` with the new ``state.to_move``. Run by uvicorn with the same options as
``duiyi serve`` (httptools, websockets-sansio, no per-message deflate).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from duiyi.go import Game, Rules

SCHEMA = """
CREATE TABLE IF NOT EXISTS mini_games (id text PRIMARY KEY, created double precision);
CREATE TABLE IF NOT EXISTS mini_moves (
    game_id text REFERENCES mini_games(id), version integer, move text, wall double precision,
    PRIMARY KEY (game_id, version)
);
"""


class Live:
    """One game in memory: the Go core, its players' tokens and its sockets."""

    def __init__(self, game_id: str) -> None:
        self.id = game_id
        self.game = Game(19, rules=Rules.chinese())
        self.tokens = {secrets.token_urlsafe(16): "black", secrets.token_urlsafe(16): "white"}
        self.sockets: set[WebSocket] = set()
        self.lock = asyncio.Lock()
        self.version = 0


class Pool:
    """A few autocommit connections, handed out one at a time."""

    def __init__(self, url: str, size: int) -> None:
        self.url, self.size = url, size
        self.free: asyncio.Queue[psycopg.AsyncConnection[Any]] = asyncio.Queue()

    async def open(self) -> None:
        for _ in range(self.size):
            self.free.put_nowait(await psycopg.AsyncConnection.connect(self.url, autocommit=True))

    async def execute(self, sql: str, params: tuple[Any, ...]) -> None:
        conn = await self.free.get()
        try:
            await conn.execute(sql, params)
        finally:
            self.free.put_nowait(conn)


def build(url: str, pool_size: int = 10) -> Starlette:
    games: dict[str, Live] = {}
    pool = Pool(url, pool_size)
    latencies: list[float] = []

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(SCHEMA)
        await pool.open()
        yield

    async def health(_: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def metrics(_: Request) -> JSONResponse:
        lat = sorted(latencies)

        def q(x: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(x * len(lat)))] * 1000, 3) if lat else None

        return JSONResponse(
            {"action_commit_ms_p50": q(0.5), "action_commit_ms_p99": q(0.99), "process": "mini"}
        )

    async def create(_: Request) -> JSONResponse:
        live = Live(secrets.token_hex(6))
        await pool.execute("INSERT INTO mini_games (id, created) VALUES (%s, %s)", (live.id, 0.0))
        games[live.id] = live
        tokens = {seat: token for token, seat in live.tokens.items()}
        return JSONResponse(
            {"id": live.id, "black_token": tokens["black"], "white_token": tokens["white"]}
        )

    async def socket(ws: WebSocket) -> None:
        live = games.get(ws.path_params["game_id"])
        offered = ws.scope.get("subprotocols") or []
        await ws.accept(subprotocol="duiyi" if "duiyi" in offered else None)
        token = next((p[7:] for p in offered if p.startswith("bearer.")), "")
        if live is None or token not in live.tokens:
            await ws.close(code=4004)
            return
        seat = live.tokens[token]
        live.sockets.add(ws)
        await ws.send_text(
            json.dumps({"type": "hello", "state": {"to_move": live.game.to_move.value}})
        )
        try:
            while True:
                msg = json.loads(await ws.receive_text())
                if msg.get("type") != "act":
                    continue
                started = time.perf_counter()
                move = str(msg["action"]["move"])
                async with live.lock:
                    if live.game.to_move.value != seat:
                        await ws.send_text(
                            json.dumps(
                                {
                                    "type": "error",
                                    "ref": msg.get("ref"),
                                    "problem": {"detail": "turn"},
                                }
                            )
                        )
                        continue
                    live.game.play(move)
                    live.version += 1
                    await pool.execute(
                        "INSERT INTO mini_moves (game_id, version, move, wall) "
                        "VALUES (%s, %s, %s, %s)",
                        (live.id, live.version, move, time.time()),
                    )
                    version = live.version
                    update = json.dumps(
                        {
                            "type": "update",
                            "version": version,
                            "state": {"to_move": live.game.to_move.value},
                        }
                    )
                latencies.append(time.perf_counter() - started)
                await ws.send_text(
                    json.dumps({"type": "ack", "ref": msg.get("ref"), "version": version})
                )
                for other in list(live.sockets):
                    try:
                        await other.send_text(update)
                    except Exception:
                        live.sockets.discard(other)
        except WebSocketDisconnect:
            pass
        finally:
            live.sockets.discard(ws)

    return Starlette(
        routes=[
            Route("/api/health", health),
            Route("/api/metrics", metrics),
            Route("/api/games", create, methods=["POST"]),
            WebSocketRoute("/api/games/{game_id}/socket", socket),
        ],
        lifespan=lifespan,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pg", required=True, help="postgresql://user@host:port/db")
    args = ap.parse_args()
    url = args.pg.replace("postgresql+psycopg://", "postgresql://")
    uvicorn.run(
        build(url),
        host="127.0.0.1",
        port=args.port,
        http="httptools",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
