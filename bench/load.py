"""Load benchmark: N concurrent Go games of scripted players over WebSockets.

Starts `duiyi serve` (SQLite, then PostgreSQL) on a free local port, creates N games, connects
both players of every game by WebSocket and plays M moves per game; each player waits ``--think``
seconds (jittered) before its move. Prints moves/s and the p50/p99 latency from sending a move
to receiving its acknowledgement (the action is committed to the store before the ack).

    .venv/bin/python bench/load.py --games 1000 --moves 20 --think 2.0

Loopback only: the client and the server share this machine's two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Subprotocol

COLUMNS = "ABCDEFGHJKLMNOPQRST"
# a player that hears nothing for this long gives up (an error), so a lost message never hangs
# the benchmark
STUCK = 60.0
# Black fills rows 1-4, White rows 16-19: no capture ever, every move legal.
BLACK_POINTS = [f"{c}{r}" for r in range(1, 5) for c in COLUMNS]
WHITE_POINTS = [f"{c}{r}" for r in range(19, 15, -1) for c in COLUMNS]
# the operator's key of the servers started here (DUIYI_OPERATOR_KEY): /api/metrics asks for it
OPERATOR_KEY = os.environ.get("DUIYI_OPERATOR_KEY") or secrets.token_urlsafe(24)


def metrics(url: str, timeout: float = 10.0) -> dict[str, Any]:
    """A server's ``/api/metrics`` (with the operator's key)."""
    r = httpx.get(
        url + "/api/metrics",
        headers={"Authorization": f"Bearer {OPERATOR_KEY}"},
        timeout=timeout,
    )
    r.raise_for_status()
    answer: dict[str, Any] = r.json()
    return answer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    database: str,
    workdir: Path,
    redis: str | None = None,
    env: dict[str, str] | None = None,
    port: int | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    port = port or free_port()
    log = (workdir / f"server-{port}.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "duiyi",
            "serve",
            "--port",
            str(port),
            "--database",
            database,
            "--log-level",
            "warning",
            *(["--redis", redis] if redis else []),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=workdir,
        # one client process plays every game: lift the per-client rate limit
        env={
            **os.environ,
            "DUIYI_RATE_PER_SECOND": "100000",
            "DUIYI_MAX_SOCKETS_PER_CLIENT": "100000",
            "DUIYI_MAX_CONNECTIONS_PER_CLIENT": "100000",
            "DUIYI_OPERATOR_KEY": OPERATOR_KEY,
            **(env or {}),
        },
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"server did not start ({database})")


async def player(
    url: str,
    game_id: str,
    token: str,
    me: str,
    moves: int,
    think: float,
    rng: random.Random,
    latencies: list[float],
    errors: list[str],
    ready: asyncio.Event,
    connected: list[int],
) -> None:
    ws_url = url.replace("http", "ws") + f"/api/games/{game_id}/socket"
    points = BLACK_POINTS if me == "black" else WHITE_POINTS
    mine = 0
    async with websockets.connect(
        ws_url,
        max_size=2**22,
        open_timeout=60,
        subprotocols=[Subprotocol("duiyi"), Subprotocol(f"bearer.{token}")],
    ) as ws:
        hello = json.loads(await ws.recv())
        to_move = hello["state"]["to_move"]
        connected[0] += 1
        await ready.wait()
        while mine < moves // 2:
            if to_move == me:
                await asyncio.sleep(think * (0.5 + rng.random()))
                sent = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "ref": mine,
                            "action": {"type": "move", "move": points[mine]},
                        }
                    )
                )
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), STUCK))
                    if msg["type"] == "ack":
                        latencies.append(time.perf_counter() - sent)
                        break
                    if msg["type"] == "error":
                        errors.append(msg["problem"]["detail"])
                        return
                    if msg["type"] == "update":
                        to_move = msg["state"]["to_move"]
                mine += 1
                to_move = "white" if me == "black" else "black"
            else:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), STUCK))
                except TimeoutError:
                    # the opponent's move never came (its player gave up on an error)
                    errors.append(f"no update for {STUCK:g} s")
                    return
                if msg["type"] == "update":
                    to_move = msg["state"]["to_move"]


async def run(
    url: str,
    games: int,
    moves: int,
    think: float,
    seed: int,
    on_phase: Callable[[str], None] | None = None,
) -> dict[str, float]:
    """Play the games; ``on_phase("play")`` is called once every socket is open, just before
    the first move, and ``on_phase("done")`` when the last player is done (bench/cluster.py
    reads the processes' CPU time there)."""
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        sem = asyncio.Semaphore(50)

        async def create() -> dict[str, str]:
            async with sem:
                for attempt in range(3):
                    try:
                        r = await client.post("/api/games", json={"game": "go", "size": 19})
                        break
                    except httpx.TransportError:
                        # a pooled keep-alive connection the server had just closed
                        if attempt == 2:
                            raise
                r.raise_for_status()
                data: dict[str, str] = r.json()
                return data

        created = await asyncio.gather(*(create() for _ in range(games)))
    latencies: list[float] = []
    errors: list[str] = []
    ready = asyncio.Event()
    connected = [0]
    tasks = []
    for g in created:
        for me in ("black", "white"):
            tasks.append(
                asyncio.create_task(
                    player(
                        url,
                        g["id"],
                        g[f"{me}_token"],
                        me,
                        moves,
                        think,
                        random.Random(rng.random()),
                        latencies,
                        errors,
                        ready,
                        connected,
                    )
                )
            )
            await asyncio.sleep(0.002)  # don't open thousands of sockets in one burst
    while connected[0] < len(tasks):
        await asyncio.sleep(0.05)
        if any(t.done() for t in tasks):
            break
    if on_phase is not None:
        on_phase("play")
    start = time.perf_counter()
    ready.set()
    ended = await asyncio.gather(*tasks, return_exceptions=True)
    errors.extend(repr(e) for e in ended if isinstance(e, BaseException))
    elapsed = time.perf_counter() - start
    if on_phase is not None:
        on_phase("done")
    server = metrics(url)
    lat = sorted(latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [0.0] * 99
    return {
        "games": games,
        "moves": len(lat),
        "errors": len(errors),
        "seconds": elapsed,
        "moves_per_s": len(lat) / elapsed if elapsed else 0.0,
        "p50_ms": q[49] * 1000,
        "p99_ms": q[98] * 1000,
        "server_p50_ms": server["action_commit_ms_p50"] or 0.0,
        "server_p99_ms": server["action_commit_ms_p99"] or 0.0,
    }


def start_nginx(ports: list[int], workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """nginx in front of the processes on ``ports``, configured by deploy/nginx-duiyi.conf (the
    deployment of docs/deploy.md), as the scale tests run it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.server.nginx
    from tests.server.nginx import Nginx

    nginx = Nginx(ports).start(workdir)
    assert nginx.proc is not None
    return nginx.proc, nginx.url


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--moves", type=int, default=20, help="moves per game (both players)")
    ap.add_argument("--think", type=float, default=2.0, help="mean seconds before each move")
    ap.add_argument(
        "--backends",
        default="sqlite,postgres",
        help="sqlite, postgres (one process each), nginx3 (nginx in front of three processes "
        "on PostgreSQL + Redis)",
    )
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir", help="keep the servers' logs in this folder")
    ap.add_argument("--url", help="play against this running server instead of starting one")
    args = ap.parse_args()
    rows = []
    if args.url:
        rows.append(
            (args.url, asyncio.run(run(args.url, args.games, args.moves, args.think, args.seed)))
        )
        args.backends = ""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for backend in filter(None, args.backends.split(",")):
            dbname = None
            if backend == "sqlite":
                database = f"sqlite:///{workdir / 'load.sqlite3'}"
            else:
                import psycopg

                dbname = "duiyi_bench_" + secrets.token_hex(4)
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{dbname}"')
                database = (
                    args.pg.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
                    + "/"
                    + dbname
                )
            procs = []
            if backend == "nginx3":
                ports = []
                for _ in range(3):
                    proc, one = start_server(database, workdir, args.redis)
                    procs.append(proc)
                    ports.append(int(one.rsplit(":", 1)[1]))
                proc, url = start_nginx(ports, workdir)
                procs.append(proc)
            else:
                proc, url = start_server(database, workdir)
                procs.append(proc)
            try:
                result = asyncio.run(run(url, args.games, args.moves, args.think, args.seed))
            finally:
                for proc in reversed(procs):
                    proc.terminate()
                    proc.wait(30)
                if dbname:
                    import psycopg

                    with psycopg.connect(args.pg, autocommit=True) as conn:
                        conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
            rows.append((backend, result))
    print(
        "ack = client-measured send-to-ack over the socket; commit = server-side receive-to-commit"
    )
    print(
        f"{'store':10} {'games':>6} {'moves':>7} {'errors':>6} {'moves/s':>8} "
        f"{'ack p50':>8} {'ack p99':>8} {'commit p50':>10} {'commit p99':>10}"
    )
    for backend, r in rows:
        print(
            f"{backend:10} {r['games']:6d} {r['moves']:7d} {r['errors']:6d} {r['moves_per_s']:8.1f} "
            f"{r['p50_ms']:8.1f} {r['p99_ms']:8.1f} {r['server_p50_ms']:10.1f} "
            f"{r['server_p99_ms']:10.1f}"
        )
    if len(rows) == 2:
        a, b = rows[0][1], rows[1][1]
        if a["p99_ms"]:
            print(f"ratio p99 {rows[1][0]}/{rows[0][0]}: {b['p99_ms'] / a['p99_ms']:.2f}")


if __name__ == "__main__":
    main()
