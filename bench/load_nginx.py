"""Load benchmark through nginx: bench/load.py's scripted WebSocket games against three
`duiyi serve` processes on one PostgreSQL + Redis behind nginx (deploy/nginx-duiyi.conf, the
deployment of docs/deploy.md), beside one process on PostgreSQL alone, same games, same seed.

    .venv/bin/python bench/load_nginx.py --games 150 --moves 20 --think 1.0

Prints moves/s and the client-measured ack latency (send to acknowledgement) of each setup and
their ratio; for the nginx run also the share of acknowledged moves that were forwarded from one
process to another (each process's /api/metrics ``forwarded``), the messages published to Redis,
and the CPU seconds of the server processes per 1,000 moves (user + system time from /proc, not
wall time: the machine is shared). ``--no-ring`` starts the processes without DUIYI_PEERS (the
creator of a game owns it, as before issue 26: about two thirds of the moves are forwarded). Loopback only; the client, nginx and the processes share this machine's cores, so
three processes cannot be faster than one here: the figures show what the proxy and the
forwarding between processes cost, not what more machines would gain.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

import load  # bench/load.py

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.server.nginx

from tests.server.conftest import operator
from tests.server.nginx import start_cluster


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes used so far (/proc/<pid>/stat)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def cluster_counts(urls: list[str]) -> dict[str, Any]:
    """Moves forwarded between the processes, and messages published, summed over them."""
    import httpx

    forwarded = 0
    published: dict[str, int] = {}
    for url in urls:
        # the cluster's processes have the tests' operator key (tests.server.conftest)
        m = httpx.get(url + "/api/metrics", headers=operator(), timeout=10).json()
        forwarded += m["forwarded"]
        for kind, n in m["published"].items():
            published[kind] = published.get(kind, 0) + n
    return {"forwarded": forwarded, "published": published}


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--moves", type=int, default=20, help="moves per game (both players)")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds before each move")
    ap.add_argument("--processes", type=int, default=3)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-single", action="store_true", help="only the nginx run")
    ap.add_argument(
        "--no-ring", action="store_true", help="processes without DUIYI_PEERS (creator owns)"
    )
    args = ap.parse_args()
    # one client address plays every game: lift the per-client rate limit
    os.environ["DUIYI_RATE_PER_SECOND"] = "100000"
    os.environ["DUIYI_MAX_SOCKETS_PER_CLIENT"] = "100000"
    os.environ["DUIYI_PROXY_HEADER"] = "X-Forwarded-For"
    import psycopg

    base = args.pg.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    rows: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for setup in ["single"] * (not args.skip_single) + ["nginx"]:
            dbname = "duiyi_bench_" + secrets.token_hex(4)
            with psycopg.connect(args.pg, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{dbname}"')
            try:
                if setup == "single":
                    proc, url = load.start_server(f"{base}/{dbname}", workdir)
                    try:
                        before = cpu_seconds([proc.pid])
                        result = asyncio.run(
                            load.run(url, args.games, args.moves, args.think, args.seed)
                        )
                        result["cpu_s"] = cpu_seconds([proc.pid]) - before
                    finally:
                        proc.terminate()
                        proc.wait(30)
                    rows.append(("1 process", result))
                else:
                    cluster = start_cluster(
                        f"{base}/{dbname}",
                        args.redis,
                        workdir,
                        processes=args.processes,
                        ring=not args.no_ring,
                    )
                    try:
                        pids = [s.proc.pid for s in cluster.servers if s.proc is not None]
                        before = cpu_seconds(pids)
                        result = asyncio.run(
                            load.run(
                                cluster.nginx.url, args.games, args.moves, args.think, args.seed
                            )
                        )
                        result["cpu_s"] = cpu_seconds(pids) - before
                        result.update(cluster_counts([s.url for s in cluster.servers]))
                    finally:
                        cluster.stop()
                    rows.append((f"nginx+{args.processes}", result))
            finally:
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    print("PostgreSQL; ack = client-measured send-to-ack over the socket")
    print(
        f"{'setup':10} {'games':>6} {'moves':>7} {'errors':>6} {'moves/s':>8} "
        f"{'ack p50':>8} {'ack p99':>8}"
    )
    for name, r in rows:
        print(
            f"{name:10} {r['games']:6d} {r['moves']:7d} {r['errors']:6d} "
            f"{r['moves_per_s']:8.1f} {r['p50_ms']:8.1f} {r['p99_ms']:8.1f}"
        )
    for name, r in rows:
        line = f"{name}: server CPU {1000 * r['cpu_s'] / max(1, r['moves']):.2f} s per 1,000 moves"
        if "forwarded" in r:
            share = 100 * r["forwarded"] / max(1, r["moves"])
            line += (
                f"; moves forwarded {int(r['forwarded'])} of {r['moves']} ({share:.1f}%); "
                f"published to Redis {r['published']}"
            )
        print(line)
    if len(rows) == 2 and rows[0][1]["p99_ms"]:
        one, many = rows[0][1], rows[1][1]
        print(
            f"ratio {rows[1][0]} / 1 process: moves/s {many['moves_per_s'] / one['moves_per_s']:.2f}, "
            f"ack p50 {many['p50_ms'] / one['p50_ms']:.2f}, ack p99 {many['p99_ms'] / one['p99_ms']:.2f}"
        )


if __name__ == "__main__":
    main()
