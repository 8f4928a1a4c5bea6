"""Benchmark: the arbiter's room (``GET /api/events/{id}/room``) of a round of many boards on
the deployment of docs/deploy.md (issue 33: on the event day the room of 31 boards answered in
2 s at the median and 19.6 s at worst, reading every board through its host).

Starts nginx + ``--processes`` ``duiyi serve`` processes (tests/server/nginx.py) on a new
PostgreSQL database and a private Redis; makes a Go Swiss of ``--players`` players, starts
round 1 (its boards spread over the processes by nginx's hash), plays ``--moves`` moves on
every board through nginx, then reads the room ``--reads`` times through nginx (round robin:
every process in turn, each hosting about a third of the boards). Printed: the room's median
and worst time, and the servers' CPU seconds per read.

``--out FILE`` writes the figures as JSON; ``--before FILE`` prints the ratios before / after.
To measure an older tree, put its ``src`` first on ``PYTHONPATH`` (the servers inherit it).

Usage: .venv/bin/python bench/room_reads.py [--players 62] [--moves 30] [--reads 30]
       [--admin postgresql://postgres@127.0.0.1:5432/postgres] [--out FILE] [--before FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from tests.server.nginx import start_cluster, wait_peers_alive  # noqa: E402

import cluster  # noqa: E402
from round_games import POINTS, cpu_of  # noqa: E402


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    import psycopg

    name = "duiyi_room_reads_" + secrets.token_hex(4)
    with psycopg.connect(args.admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = args.admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    redis = cluster.PrivateRedis(work).start()
    os.environ["DUIYI_RATE_PER_SECOND"] = "100000"
    os.environ["DUIYI_PROXY_HEADER"] = "X-Forwarded-For"
    deployment = start_cluster(f"{base}/{name}", redis.url, work, processes=args.processes)
    try:
        wait_peers_alive(deployment)
        http = httpx.Client(base_url=deployment.nginx.url, timeout=60)
        made = http.post(
            "/api/events",
            json={
                "name": "Room",
                "game": "go",
                "system": "swiss",
                "rounds": 3,
                "online": {"size": 19, "time_control": {"system": "absolute", "base": 3600}},
            },
        ).json()
        eid, org = made["id"], {"Authorization": f"Bearer {made['organiser_token']}"}
        body = "name,rating\n" + "".join(f"P{i},{2400 - 7 * i}\n" for i in range(args.players))
        http.post(
            f"/api/events/{eid}/players", content=body, headers={**org, "Content-Type": "text/csv"}
        ).raise_for_status()
        http.post(f"/api/events/{eid}/rounds", headers=org).raise_for_status()
        started = http.post(f"/api/events/{eid}/rounds/1/games", headers=org)
        started.raise_for_status()
        games = started.json()["games"]
        for n in range(args.moves):
            color = "black" if n % 2 == 0 else "white"
            for g in games:
                r = http.post(
                    f"/api/games/{g['game_id']}/actions",
                    json={"type": "move", "move": POINTS[color][n // 2], "action_id": f"m{n}"},
                    headers={"Authorization": f"Bearer {g[color + '_token']}"},
                )
                r.raise_for_status()
        pids = [s.proc.pid for s in deployment.servers if s.proc is not None]
        arbiter = {"Authorization": f"Bearer {made['arbiter_token']}"}
        times = []
        cpu0 = sum(cpu_of(p) for p in pids)
        for _ in range(args.reads):
            began = time.monotonic()
            r = http.get(f"/api/events/{eid}/room", headers=arbiter)
            times.append((time.monotonic() - began) * 1000)
            r.raise_for_status()
            assert len(r.json()["boards"]) == len(games)
        cpu = sum(cpu_of(p) for p in pids) - cpu0
        figures = {
            "boards": len(games),
            "moves_per_board": args.moves,
            "room_median_ms": statistics.median(times),
            "room_max_ms": max(times),
            "cpu_ms_per_read": cpu * 1000 / args.reads,
            "load": os.getloadavg(),
        }
        print(
            f"{len(games)} boards, {args.moves} moves each, {args.reads} reads: median "
            f"{figures['room_median_ms']:.0f} ms, worst {figures['room_max_ms']:.0f} ms, "
            f"servers' CPU {figures['cpu_ms_per_read']:.0f} ms per read (load {os.getloadavg()})"
        )
        return figures
    finally:
        deployment.stop()
        redis.stop()
        with psycopg.connect(args.admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


KEYS = ("room_median_ms", "room_max_ms", "cpu_ms_per_read")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=62)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--reads", type=int, default=30)
    parser.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--out")
    parser.add_argument("--before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = run(args, Path(tmp))
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1))
    if args.before:
        b = json.loads(Path(args.before).read_text())
        print(
            "before / after: "
            + ", ".join(
                f"{k} {b[k]:.0f} -> {figures[k]:.0f} ({b[k] / figures[k]:.1f}x)" for k in KEYS
            )
        )


if __name__ == "__main__":
    main()
