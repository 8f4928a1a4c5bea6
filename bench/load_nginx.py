"""Load benchmark through nginx: bench/load.py's scripted WebSocket games against three
`duiyi serve` processes on one PostgreSQL + Redis behind nginx (deploy/nginx-duiyi.conf, the
deployment of docs/deploy.md), beside one process on PostgreSQL alone, same games, same seed.

    .venv/bin/python bench/load_nginx.py --games 150 --moves 20 --think 1.0

Prints moves/s and the client-measured ack latency (send to acknowledgement) of each setup and
their ratio. Loopback only; the client, nginx and the processes share this machine's cores, so
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

from tests.server.nginx import start_cluster


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
                        result = asyncio.run(
                            load.run(url, args.games, args.moves, args.think, args.seed)
                        )
                    finally:
                        proc.terminate()
                        proc.wait(30)
                    rows.append(("1 process", result))
                else:
                    cluster = start_cluster(
                        f"{base}/{dbname}", args.redis, workdir, processes=args.processes
                    )
                    try:
                        result = asyncio.run(
                            load.run(
                                cluster.nginx.url, args.games, args.moves, args.think, args.seed
                            )
                        )
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
    if len(rows) == 2 and rows[0][1]["p99_ms"]:
        one, many = rows[0][1], rows[1][1]
        print(
            f"ratio {rows[1][0]} / 1 process: moves/s {many['moves_per_s'] / one['moves_per_s']:.2f}, "
            f"ack p50 {many['p50_ms'] / one['p50_ms']:.2f}, ack p99 {many['p99_ms'] / one['p99_ms']:.2f}"
        )


if __name__ == "__main__":
    main()
