"""Benchmark: starting a round's online games (``POST /api/events/{id}/rounds/{n}/games``) on
one ``duiyi serve`` process, and what it does to the moves of the games already playing (issue
33: the event day's round of 31 Go boards took more than nginx's 10 s and stalled every other
game's acknowledgements meanwhile).

For each backend (SQLite file, PostgreSQL database of its own) one server is started; then
``--trials`` times: a new Go Swiss of ``--players`` players is made (its online games 19x19,
30 s absolute) and round 1 paired; a casual game (the probe) is played over HTTP by one
client, a move at a time as fast as they are acknowledged, while the round's games are
started. Printed per trial: the request's wall time, the server's CPU seconds during it, per
game created, and the probe's acknowledgements during the request (count, median, p99, worst).

``--out FILE`` writes the figures as JSON; ``--before FILE`` (an earlier ``--out``) prints the
ratios before / after of the medians over the trials.

Usage: .venv/bin/python bench/round_games.py [--players 62] [--trials 5]
       [--backends sqlite,postgres] [--admin postgresql://postgres@127.0.0.1:5432/postgres]
       [--out FILE] [--before FILE] [--profile DIR]

``--profile DIR``: each server runs under pyinstrument (``pip install pyinstrument``; not a
dependency of duiyi), its profile written as DIR/BACKEND.txt when it stops.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import OPERATOR_KEY, free_port

TICK = os.sysconf("SC_CLK_TCK")
COLUMNS = "ABCDEFGHJKLMNOPQRST"
# Black's stones on rows 1-7, White's on rows 13-19: never touching, every move legal (Go §5)
POINTS = {
    "black": [f"{c}{r}" for r in range(1, 8) for c in COLUMNS],
    "white": [f"{c}{r}" for r in range(19, 12, -1) for c in COLUMNS],
}


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of a process, 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


class Probe(threading.Thread):
    """A casual game played as fast as its moves are acknowledged; the acknowledgement times
    (sent, seconds) of each move."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=url, timeout=60)
        self.game = self.http.post("/api/games", json={"game": "go", "size": 19}).json()
        self.acks: list[tuple[float, float]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        for n in range(2 * len(POINTS["black"])):
            if self.stop.is_set():
                return
            color = "black" if n % 2 == 0 else "white"
            auth = {"Authorization": f"Bearer {self.game[color + '_token']}"}
            body = {"type": "move", "move": POINTS[color][n // 2], "action_id": f"m{n}"}
            sent = time.monotonic()
            r = self.http.post(f"/api/games/{self.game['id']}/actions", json=body, headers=auth)
            r.raise_for_status()
            self.acks.append((sent, time.monotonic() - sent))


def make_event(client: httpx.Client, players: int) -> tuple[str, dict[str, str]]:
    made = client.post(
        "/api/events",
        json={
            "name": "Round games",
            "game": "go",
            "system": "swiss",
            "rounds": 3,
            "online": {"size": 19, "time_control": {"system": "absolute", "base": 30}},
        },
    )
    made.raise_for_status()
    event_id, auth = (
        made.json()["id"],
        {"Authorization": f"Bearer {made.json()['organiser_token']}"},
    )
    body = "name,rating\n" + "".join(f"P{i},{2400 - 7 * i % 1400}\n" for i in range(players))
    client.post(
        f"/api/events/{event_id}/players",
        content=body,
        headers={**auth, "Content-Type": "text/csv"},
    ).raise_for_status()
    client.post(f"/api/events/{event_id}/rounds", headers=auth).raise_for_status()
    return event_id, auth


def trial(url: str, pid: int, players: int) -> dict[str, Any]:
    with httpx.Client(base_url=url, timeout=120) as client:
        event_id, auth = make_event(client, players)
        probe = Probe(url)
        probe.start()
        time.sleep(1.0)  # the probe's moves before the request, for comparison
        cpu0, began = cpu_of(pid), time.monotonic()
        r = client.post(f"/api/events/{event_id}/rounds/1/games", headers=auth)
        ended, cpu1 = time.monotonic(), cpu_of(pid)
        time.sleep(0.5)
        probe.stop.set()
        probe.join(30)
    r.raise_for_status()
    games = len(r.json()["games"])
    during = [s * 1000 for t, s in probe.acks if t + s >= began and t <= ended]
    before = [s * 1000 for t, s in probe.acks if t + s < began]
    return {
        "games": games,
        "wall_s": ended - began,
        "cpu_s": cpu1 - cpu0,
        "cpu_ms_per_game": (cpu1 - cpu0) * 1000 / max(1, games),
        "probe_before_median_ms": statistics.median(before) if before else float("nan"),
        "probe_during": len(during),
        "probe_during_median_ms": statistics.median(during) if during else float("nan"),
        "probe_during_p99_ms": quantile(during, 0.99),
        "probe_during_max_ms": max(during, default=float("nan")),
    }


def start_server(
    database: str, workdir: Path, profile: Path | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """``duiyi serve`` on ``database`` (under pyinstrument, writing ``profile``, if given)."""
    port = free_port()
    cmd = [sys.executable, "-m", "duiyi", "serve", "--port", str(port), "--database", database]
    if profile is not None:
        cmd[1:3] = [
            "-m",
            "pyinstrument",
            "-r",
            "text",
            "--show-all",
            "-o",
            str(profile),
            "-m",
            "duiyi",
        ]
    proc = subprocess.Popen(
        [*cmd, "--log-level", "warning"],
        stdout=(workdir / f"server-{port}.log").open("wb"),
        stderr=subprocess.STDOUT,
        cwd=workdir,
        env={
            **os.environ,
            "DUIYI_RATE_PER_SECOND": "100000",
            "DUIYI_OPERATOR_KEY": OPERATOR_KEY,
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


def run_backend(backend: str, args: argparse.Namespace, workdir: Path) -> list[dict[str, Any]]:
    database_name = None
    if backend == "sqlite":
        database = f"sqlite:///{workdir / 'round-games.sqlite3'}"
    else:
        import psycopg

        database_name = "duiyi_round_games_" + secrets.token_hex(4)
        with psycopg.connect(args.admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database_name}"')
        base = args.admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
        database = f"{base}/{database_name}"
    profile = None if args.profile is None else Path(args.profile) / f"{backend}.txt"
    proc, url = start_server(database, workdir, profile)
    try:
        out = []
        for n in range(args.trials):
            t = trial(url, proc.pid, args.players)
            out.append(t)
            print(backend, n + 1, _line(t), flush=True)
        return out
    finally:
        proc.send_signal(signal.SIGINT)  # pyinstrument writes its profile as the server ends
        proc.wait(60)
        if database_name is not None:
            import psycopg

            with psycopg.connect(args.admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{database_name}" WITH (FORCE)')


def _line(t: dict[str, Any]) -> str:
    return (
        f"{t['games']} games: {t['wall_s'] * 1000:.0f} ms, CPU {t['cpu_ms_per_game']:.1f} ms/game; "
        f"probe before {t['probe_before_median_ms']:.1f} ms, during (n={t['probe_during']}) "
        f"median {t['probe_during_median_ms']:.1f} p99 {t['probe_during_p99_ms']:.1f} "
        f"max {t['probe_during_max_ms']:.1f} ms"
    )


KEYS = ("wall_s", "cpu_ms_per_game", "probe_during_median_ms", "probe_during_max_ms")


def medians(trials: list[dict[str, Any]]) -> dict[str, float]:
    return {k: statistics.median(t[k] for t in trials) for k in KEYS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=62)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--out", help="write the figures here (JSON)")
    parser.add_argument("--profile", help="a folder: each server runs under pyinstrument")
    parser.add_argument("--before", help="an earlier --out: print the ratios before / after")
    args = parser.parse_args()
    figures: dict[str, Any] = {"players": args.players, "load": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            trials = run_backend(backend, args, Path(tmp))
            figures[backend] = {"trials": trials, "median": medians(trials)}
    figures["load_after"] = os.getloadavg()
    print(f"load average before {figures['load']}, after {figures['load_after']}")
    for backend in args.backends.split(","):
        print(backend, "median of", args.trials, figures[backend]["median"])
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1))
    if args.before:
        before = json.loads(Path(args.before).read_text())
        for backend in args.backends.split(","):
            if backend not in before:
                continue
            b, a = before[backend]["median"], figures[backend]["median"]
            ratios = ", ".join(f"{k} {b[k]:.1f} -> {a[k]:.1f} ({b[k] / a[k]:.1f}x)" for k in KEYS)
            print(f"{backend}: before / after: {ratios}")


if __name__ == "__main__":
    main()
