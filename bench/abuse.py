"""Abuse benchmark (issue 25): an unrelated game's move latency before, during and after an
abusive client, on this tree's server and, side by side, on another release's.

One `duiyi serve` (default settings, SQLite in a temporary directory, 127.0.0.1 only). The
victim plays moves in its own games over HTTP from the source address 127.0.0.2 (another
client for the per-address limits) at ``--rate`` moves per second for the whole run. During
the middle third the abuser, from 127.0.0.1 and in its own process, opens (bounded counts)
idle TCP connections, half-sent requests (a head without its end, a body that never
completes), idle game sockets, and floods writes with a forged ``X-Forwarded-For``. Prints
the victim's p50/p99/max per phase and what the abuse achieved.

    .venv/bin/python bench/abuse.py --seconds 60
    .venv/bin/python bench/abuse.py --seconds 60 --other /work/wt/old-f154797/.venv/bin/python

``--other`` runs the same abuse on the server of another interpreter (a worktree of an older
commit with its own venv) and prints both side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))


import load  # bench/load.py: free_port, the move lists

VICTIM_ADDRESS = "127.0.0.2"
IDLE_CONNECTIONS = 3000
HALF_SENT = 1500
IDLE_SOCKETS = 600
FLOODERS = 16


def start(python: str, workdir: Path) -> tuple[subprocess.Popen[bytes], str, int]:
    """A server of ``python`` (its own installed duiyi) with default settings."""
    port = load.free_port()
    log = (workdir / f"server-{port}.log").open("wb")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DUIYI_")}
    env.pop("PYTHONPATH", None)
    proc = subprocess.Popen(
        [
            python,
            "-m",
            "duiyi",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--database",
            f"sqlite:///{workdir / f'abuse-{port}.sqlite3'}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=workdir,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return proc, url, port
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class Victim:
    """Moves in games of its own from 127.0.0.2, alternating Black and White."""

    def __init__(self, url: str) -> None:
        transport = httpx.HTTPTransport(local_address=VICTIM_ADDRESS)
        self.client = httpx.Client(base_url=url, transport=transport, timeout=60)
        self.game: dict[str, Any] = {}
        self.turn = 0

    def _new_game(self) -> None:
        r = self.client.post("/api/games", json={"game": "go", "size": 19})
        r.raise_for_status()
        self.game = r.json()
        self.turn = 0

    def move(self) -> tuple[float, bool]:
        """One move: its latency in seconds and whether it was accepted."""
        if not self.game or self.turn >= 2 * len(load.BLACK_POINTS):
            self._new_game()
        seat = "black" if self.turn % 2 == 0 else "white"
        points = load.BLACK_POINTS if seat == "black" else load.WHITE_POINTS
        point = points[self.turn // 2]
        t0 = time.perf_counter()
        try:
            r = self.client.post(
                f"/api/games/{self.game['id']}/actions",
                json={"type": "move", "move": point},
                headers={"Authorization": f"Bearer {self.game[f'{seat}_token']}"},
            )
            ok = r.status_code == 200
        except httpx.HTTPError:
            ok = False
        latency = time.perf_counter() - t0
        self.turn += 1
        if not ok:
            self.game = {}  # start again in a new game
        return latency, ok


async def _abuse(host: str, port: int, seconds: float, game_id: str) -> dict[str, Any]:
    """The abuser (run in its own process): what it opened and what the flood got."""
    deadline = time.monotonic() + seconds
    stats: dict[str, Any] = {}
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    gate = asyncio.Semaphore(64)  # connections being opened at once

    async def open_one(first: bytes) -> bool:
        async with gate:
            if time.monotonic() > deadline:
                return False
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(host, port), timeout=3
                )
            except (OSError, TimeoutError):
                return False
            if first:
                writer.write(first)
            held.append((reader, writer))
            return True

    async def open_many(count: int, first: bytes, name: str) -> None:
        opened = await asyncio.gather(*(open_one(first) for _ in range(count)))
        stats[f"{name}_opened"] = sum(opened)

    sockets: list[Any] = []

    async def one_socket() -> bool:
        import websockets
        from websockets.typing import Subprotocol

        async with gate:
            if time.monotonic() > deadline:
                return False
            try:
                ws = await asyncio.wait_for(
                    websockets.connect(
                        f"ws://{host}:{port}/api/games/{game_id}/socket",
                        subprotocols=[Subprotocol("duiyi")],
                    ),
                    timeout=3,
                )
                sockets.append(ws)
                hello = json.loads(await asyncio.wait_for(ws.recv(), timeout=3))
            except Exception:
                return False
            return bool(hello.get("type") == "hello")

    async def idle_sockets(count: int) -> None:
        accepted = await asyncio.gather(*(one_socket() for _ in range(count)))
        stats["idle_sockets_accepted"] = sum(accepted)

    flood = {"ok": 0, "refused": 0, "errors": 0}

    async def flooder(i: int) -> None:
        rng = random.Random(i)
        async with httpx.AsyncClient(base_url=f"http://{host}:{port}", timeout=10) as client:
            while time.monotonic() < deadline:
                forged = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}"
                try:
                    r = await client.post(
                        "/api/games", json={"size": 9}, headers={"X-Forwarded-For": forged}
                    )
                    if r.status_code == 201:
                        flood["ok"] += 1
                    else:
                        flood["refused"] += 1
                        await asyncio.sleep(0.05)
                except httpx.HTTPError:
                    flood["errors"] += 1
                    await asyncio.sleep(0.05)

    floods = [asyncio.create_task(flooder(i)) for i in range(FLOODERS)]
    await asyncio.gather(
        open_many(IDLE_CONNECTIONS, b"", "idle_connections"),
        open_many(
            HALF_SENT // 2, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Ty", "half_head"
        ),
        open_many(
            HALF_SENT // 2,
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{",
            "half_body",
        ),
        idle_sockets(IDLE_SOCKETS),
    )
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    await asyncio.gather(*floods, return_exceptions=True)

    # how many of the connections the server still holds open at the end (no end of file
    # after reading what it sent: a 408 or a 429 before closing)
    async def open_still(reader: asyncio.StreamReader) -> bool:
        try:
            while await asyncio.wait_for(reader.read(65536), timeout=0.5):
                pass
        except TimeoutError:
            return True
        except (OSError, ConnectionError):
            return False
        return False

    still = sum(await asyncio.gather(*(open_still(reader) for reader, _ in held)))
    stats["tcp_still_open_at_end"] = still
    stats["flood"] = flood
    for _, w in held:
        w.close()
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    return stats


def run(python: str, seconds: float, rate: float) -> dict[str, Any]:
    """One whole run against the server of ``python``: the phases and the abuser's report."""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        proc, url, port = start(python, workdir)
        try:
            victim = Victim(url)
            watched = httpx.post(url + "/api/games", json={"size": 9}).json()["id"]
            third = seconds / 3
            phases: dict[str, list[float]] = {"before": [], "during": [], "after": []}
            failed = {k: 0 for k in phases}
            abuser: subprocess.Popen[str] | None = None
            t_start = time.monotonic()
            while (elapsed := time.monotonic() - t_start) < seconds:
                phase = (
                    "before" if elapsed < third else "during" if elapsed < 2 * third else "after"
                )
                if phase == "during" and abuser is None:
                    abuser = subprocess.Popen(
                        [
                            sys.executable,
                            __file__,
                            "--abuse",
                            str(port),
                            "--seconds",
                            str(third),
                            "--game",
                            watched,
                        ],
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                latency, ok = victim.move()
                phases[phase].append(latency)
                failed[phase] += not ok
                time.sleep(max(0.0, 1 / rate - latency))
            report: dict[str, Any] = {}
            if abuser is not None:
                out, _ = abuser.communicate(timeout=120)
                report = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
            health = httpx.get(url + "/api/health", timeout=10).status_code
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
    return {"phases": phases, "failed": failed, "abuse": report, "health_after": health}


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


def show(label: str, result: dict[str, Any]) -> None:
    """One run as a table."""
    print(f"\n{label}")
    print(f"  {'phase':<8} {'moves':>6} {'failed':>7} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    for phase, values in result["phases"].items():
        mx = f"{max(values) * 1000:.1f}" if values else "-"
        med = f"{statistics.median(values) * 1000:.1f}" if values else "-"
        print(
            f"  {phase:<8} {len(values):>6} {result['failed'][phase]:>7} {med:>9} "
            f"{_ms(values, 0.99):>9} {mx:>9}"
        )
    print(f"  abuse: {json.dumps(result['abuse'])}")
    print(f"  /api/health after the run: {result['health_after']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--rate", type=float, default=10.0, help="the victim's moves per second")
    ap.add_argument("--other", help="the python of another release's venv, run side by side")
    ap.add_argument("--abuse", type=int, help=argparse.SUPPRESS)  # the abuser process: a port
    ap.add_argument("--game", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.abuse:
        stats = asyncio.run(_abuse("127.0.0.1", args.abuse, args.seconds, args.game))
        print(json.dumps(stats))
        return
    this = run(sys.executable, args.seconds, args.rate)
    show(f"this tree ({sys.executable})", this)
    if args.other:
        other = run(args.other, args.seconds, args.rate)
        show(f"other release ({args.other})", other)
        print("\n  during-abuse p99, other / this:", end=" ")
        a, b = other["phases"]["during"], this["phases"]["during"]
        if a and b:
            ratio = sorted(a)[int(0.99 * (len(a) - 1))] / sorted(b)[int(0.99 * (len(b) - 1))]
            print(f"{ratio:.1f}x")
        else:
            print("-")


if __name__ == "__main__":
    main()
