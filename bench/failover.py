"""Failover time: how long after its owner is paused (SIGSTOP) a game is served again.

Two `duiyi serve` processes on one PostgreSQL + Redis; a game owned by A, a spectator socket on
B. At t=0 A is paused. Measured on B, for each trial:

- ``close``: the spectator's socket is closed with 4409 (reconnect);
- ``accept``: a move sent through B is accepted (B has taken the game over). A move sent
  while B still believes A alive is forwarded and waits for A, so the client polls the game's
  owner in the store (``GET`` on B is what makes B claim a stale owner's game) and sends the
  move once B owns it; ``accept`` is when the answer comes back.

    .venv/bin/python bench/failover.py --trials 5 --stale-after 5 3

Prints the median and the worst of each figure per lease (``DUIYI_STALE_AFTER``).
"""

from __future__ import annotations

import argparse
import json
import secrets
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.server.conftest

from tests.server.conftest import Server, spectating
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def trial(database: str, redis: str, stale_after: float, tmp: Path) -> tuple[float, float]:
    """One failover: (seconds to the 4409 close on B, seconds to an accepted move on B)."""
    env = {"DUIYI_STALE_AFTER": str(stale_after)}
    a = Server(database, redis, env=env).start(tmp)
    b = Server(database, redis, env=env).start(tmp)
    assert a.proc is not None
    dsn = database.replace("postgresql+psycopg://", "postgresql://")
    try:
        g = httpx.post(a.url + "/api/games", json={"game": "go", "size": 9}).json()
        gid = g["id"]
        with psycopg.connect(dsn, autocommit=True) as db:
            owner_a = db.execute("SELECT owner FROM games WHERE id = %s", (gid,)).fetchone()
        with connect(f"{b.ws_url}/api/games/{gid}/socket", subprotocols=spectating()) as spectator:
            json.loads(spectator.recv(5))
            time.sleep(1.5)  # a heartbeat or two after the start
            a.proc.send_signal(signal.SIGSTOP)
            t0 = time.monotonic()
            try:
                spectator.recv(60)
                raise AssertionError("the spectator got a message instead of a close")
            except ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 4409, exc
                closed = time.monotonic() - t0
        with psycopg.connect(dsn, autocommit=True) as db:
            while True:
                httpx.get(f"{b.url}/api/games/{gid}", timeout=30)  # B claims a stale owner's
                row = db.execute("SELECT owner FROM games WHERE id = %s", (gid,)).fetchone()
                if row != owner_a:
                    break
                time.sleep(0.05)
        return closed, _accept(b, gid, g["black_token"], t0)
    finally:
        a.proc.send_signal(signal.SIGCONT)
        a.stop()
        b.stop()


def _accept(b: Server, gid: str, token: str, t0: float) -> float:
    while True:
        r = httpx.post(
            f"{b.url}/api/games/{gid}/actions",
            json={"type": "move", "move": "E5"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        if r.status_code == 200:
            return time.monotonic() - t0
        time.sleep(0.05)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--stale-after", type=float, nargs="+", default=[5.0, 3.0])
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = ap.parse_args()
    base = args.pg.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    for lease in args.stale_after:
        closes, accepts = [], []
        for _ in range(args.trials):
            name = "duiyi_bench_" + secrets.token_hex(4)
            with psycopg.connect(args.pg, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    c, acc = trial(f"{base}/{name}", args.redis, lease, Path(tmp))
                closes.append(c)
                accepts.append(acc)
            finally:
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print(
            f"lease {lease:.1f} s, {args.trials} trials: 4409 close median "
            f"{statistics.median(closes):.2f} s (max {max(closes):.2f}); move accepted median "
            f"{statistics.median(accepts):.2f} s (max {max(accepts):.2f})"
        )


if __name__ == "__main__":
    main()
