"""The per-move path of one process without the sockets: ``GameHost.act`` (the session, the
group commit to the store, the update encoded for the game's listeners) for G games played at
once, in this process, on PostgreSQL (or SQLite). Prints this process's CPU microseconds per
move and the PostgreSQL backends' (pg_stat_activity, /proc), so each step of issue 26's
per-move work can be measured without nginx, uvicorn or a client sharing the cores;
``--profile`` prints cProfile's top functions (cumulative).

    PYTHONPATH=src .venv/bin/python bench/per_move.py --games 100 --moves 60
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from duiyi import BLACK, WHITE
from duiyi.actions import Move
from duiyi.server.games.manager import GameManager, NewGame
from duiyi.store import Database, Repository

COLUMNS = "ABCDEFGHJKLMNOPQRST"
BLACK_POINTS = [f"{c}{r}" for r in range(1, 5) for c in COLUMNS]
WHITE_POINTS = [f"{c}{r}" for r in range(19, 15, -1) for c in COLUMNS]
TICK = os.sysconf("SC_CLK_TCK")


def backends_cpu(admin: str, dbname: str) -> float:
    with psycopg.connect(admin, autocommit=True) as conn:
        pids = [
            r[0]
            for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (dbname,),
            ).fetchall()
        ]
    total = 0
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICK


async def play(
    url: str,
    games: int,
    moves: int,
    think: float,
    admin: str,
    dbname: str | None,
    profile: bool,
    window: float | None = None,
) -> dict[str, float]:
    db = Database(url)
    db.migrate()
    manager = GameManager(Repository(db), "p-bench")
    if window is not None:
        manager.committer.window = window
    hosts = [(await manager.create(NewGame({"game": "go", "size": 19})))[0] for _ in range(games)]
    received = [0]

    def listener(text: str) -> None:
        received[0] += len(text)

    for host in hosts:
        host.listeners.add(listener)
        host.listeners.add(lambda text: None)

    async def one(host: Any, offset: float) -> None:
        await asyncio.sleep(offset)
        for i in range(moves):
            seat = BLACK if i % 2 == 0 else WHITE
            point = (BLACK_POINTS if seat is BLACK else WHITE_POINTS)[i // 2]
            await host.act(seat, Move(point))
            if think:
                await asyncio.sleep(think)

    await asyncio.gather(*(h.act(BLACK, Move("K10")) for h in hosts[:1]))
    batches = manager.committer.batches
    pg_before = backends_cpu(admin, dbname) if dbname else 0.0
    profiler = cProfile.Profile() if profile else None
    cpu, wall = time.process_time(), time.perf_counter()
    if profiler:
        profiler.enable()
    await asyncio.gather(*(one(h, think * i / games) for i, h in enumerate(hosts[1:] or hosts)))
    if profiler:
        profiler.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    pg = (backends_cpu(admin, dbname) - pg_before) if dbname else 0.0
    batches = manager.committer.batches - batches
    await manager.close()
    await db.dispose()
    n = moves * len(hosts[1:] or hosts)
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    return {
        "moves": n,
        "cpu_us": cpu / n * 1e6,
        "pg_us": pg / n * 1e6,
        "wall": wall,
        "per_batch": n / batches if batches else float("nan"),
        "latency_ms": statistics.median(manager.latencies) * 1000,
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--think", type=float, default=0.0, help="seconds between a game's moves")
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--sqlite", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument(
        "--window",
        type=float,
        help="the group commit's window in seconds (default: GroupCommitter.WINDOW)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dbname = None
        if args.sqlite:
            url = f"sqlite:///{tmp}/m.sqlite3"
        else:
            dbname = "duiyi_per_move_" + secrets.token_hex(4)
            with psycopg.connect(args.pg, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{dbname}"')
            url = args.pg.rsplit("/", 1)[0] + "/" + dbname
        try:
            r = asyncio.run(
                play(
                    url,
                    args.games + 1,
                    args.moves,
                    args.think,
                    args.pg,
                    dbname,
                    args.profile,
                    args.window,
                )
            )
        finally:
            if dbname:
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    print(
        f"{r['moves']:.0f} moves in {r['wall']:.1f} s: {r['cpu_us']:.0f} µs CPU per move in this "
        f"process, {r['pg_us']:.0f} µs in PostgreSQL's backends; {r['per_batch']:.2f} moves "
        f"per commit, median act {r['latency_ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
