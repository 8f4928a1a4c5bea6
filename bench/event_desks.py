"""Benchmark: the director's desks on a 5,000-player Go Swiss on PostgreSQL (issue 26).

Starts ``duiyi serve`` on a new PostgreSQL database and creates two Go Swisses of N players
through the HTTP API (players as CSV, rounds paired by ``POST /rounds``, the rounds before the
measured one entered as results sheets, ``POST /results``): one in round 1, one in round 5.
Then, for each (the one-desk samples taken in turns, so that both rounds see the same load of
the shared machine):

1. **One desk**: ``--sample`` results entered one board at a time through
   ``PUT /api/events/{id}/rounds/{r}/boards/{b}/result`` by one client: CPU seconds per result of
   the server process plus the PostgreSQL backends connected to the bench's database (read from
   ``/proc``: the machine is shared, so CPU, not wall time, is the cost), the median request,
   the size of the answer, and results per second;
2. **Five desks**: ``--desks`` client processes started together enter the rest of the round's
   boards (each its own share): results per second, 409 and 5xx answers, CPU per result. With
   ``--servers K``, K server processes share the database and desk i talks to server i mod K
   (the one desk to the first); the CPU is that of every server process.

Printed: one table line per measured round (with the desk clients' own CPU per result), the
ratios the issue asks for (round 5 / round 1 per result, five desks / one desk in results per
second), and the physics of the second: five desks go at most as fast as the cores allow for a
result's CPU (server, PostgreSQL, client) and the server processes for theirs, one desk at
1 / its latency, so their ratio is at most (that bound) x (one desk's latency); and how often a
backend of the bench's database waited for a lock while the five desks ran (sampled from
``pg_locks`` every 10 ms): the desks queueing behind each other in the store.

``--rtt MS``: each desk waits MS milliseconds before each request, counted in its request's
time: the network round trip between a desk at the venue and the server, which loopback lacks
(this machine's kernel has no ``netem`` to add it on an interface). A desk is a person's
laptop or tablet on the venue's network, so its latency is partly waiting on the network; with
0 (the default), every millisecond of a desk's latency is CPU of this machine.

Usage: .venv/bin/python bench/event_desks.py [--players 5000] [--rounds 5] [--sample 200]
       [--turns 4] [--desks 5] [--rtt 0] [--admin postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import start_server

TICK = os.sysconf("SC_CLK_TCK")
CHUNK = 1500  # players per CSV body (the body limit is 64 KiB)
RESULTS = ("1-0", "0-1")


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of a process, 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


class Meter:
    """CPU seconds of the server processes and of the PostgreSQL backends of one database."""

    def __init__(self, servers: list[int], admin: str, database: str) -> None:
        self.servers, self.admin, self.database = servers, admin, database

    def server(self) -> float:
        return sum(cpu_of(p) for p in self.servers)

    def backends(self) -> list[int]:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.database,)
            ).fetchall()
        return [int(r[0]) for r in rows]

    def read(self) -> dict[int, float]:
        return {p: cpu_of(p) for p in self.backends()}

    def start(self) -> tuple[float, dict[int, float]]:
        return self.server(), self.read()

    def stop(self, started: tuple[float, dict[int, float]]) -> tuple[float, float]:
        """(server CPU s, PostgreSQL CPU s) since ``started`` (a backend that came meanwhile
        counts from 0)."""
        server0, pg0 = started
        pg1 = self.read()
        pg = sum(max(0.0, c - pg0.get(p, 0.0)) for p, c in pg1.items())
        return self.server() - server0, pg


class LockWatch:
    """Samples, every 10 ms while the desks run, whether a backend of the bench's database waits
    for a lock (``pg_locks`` not granted): how often desks queue behind each other in the store
    (the event's row, a board). Its own backend is on the admin database (not metered)."""

    def __init__(self, admin: str, database: str) -> None:
        import threading

        self.admin, self.database = admin, database
        self.samples = self.waiting = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> LockWatch:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True) as conn:
            while not self.stop.wait(0.01):
                row = conn.execute(
                    "SELECT count(*) FROM pg_locks AS l JOIN pg_stat_activity AS a "
                    "ON a.pid = l.pid WHERE NOT l.granted AND a.datname = %s",
                    (self.database,),
                ).fetchone()
                self.samples += 1
                self.waiting += bool(row and row[0])

    @property
    def share(self) -> float:
        """The share of samples with a backend waiting for a lock."""
        return self.waiting / max(1, self.samples)


def desk(
    url: str, event_id: str, key: str, number: int, boards: list[int], go: Any, rtt: float = 0.0
) -> dict[str, Any]:
    """One desk client: enter ``boards`` one at a time, each after ``rtt`` seconds of network
    (counted in the request's time); statuses and request times."""
    auth = {"Authorization": f"Bearer {key}"}
    times: list[float] = []
    statuses: dict[int, int] = {}
    size = 0
    rng = random.Random(number * 100003 + (boards[0] if boards else 0))
    with httpx.Client(base_url=url, headers=auth, timeout=120) as client:
        client.get("/api/health")
        if go is not None:
            go.wait()
        began = time.perf_counter()
        cpu = time.process_time()
        for b in boards:
            t = time.perf_counter()
            if rtt:
                time.sleep(rtt)
            r = client.put(
                f"/api/events/{event_id}/rounds/{number}/boards/{b}/result",
                json={"result": rng.choice(RESULTS)},
            )
            times.append(time.perf_counter() - t)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            size = max(size, len(r.content))
        wall = time.perf_counter() - began
        cpu = time.process_time() - cpu
    return {"times": times, "statuses": statuses, "wall": wall, "size": size, "client": cpu}


def _desk_process(args: tuple[Any, ...], out: Any) -> None:
    out.put(desk(*args))


def five_desks(
    urls: list[str],
    event_id: str,
    key: str,
    number: int,
    boards: list[int],
    desks: int,
    rtt: float = 0.0,
) -> dict[str, Any]:
    """``desks`` processes, started together, each entering its share of ``boards`` (desk i
    through server i modulo the servers)."""
    ctx = multiprocessing.get_context("fork")
    go = ctx.Event()
    out = ctx.Queue()
    shares = [boards[i::desks] for i in range(desks)]
    procs = [
        ctx.Process(
            target=_desk_process,
            args=((urls[i % len(urls)], event_id, key, number, s, go, rtt), out),
        )
        for i, s in enumerate(shares)
    ]
    for p in procs:
        p.start()
    time.sleep(1.0)  # every client connected
    began = time.perf_counter()
    go.set()
    answers = [out.get() for _ in procs]
    wall = time.perf_counter() - began
    for p in procs:
        p.join()
    statuses: dict[int, int] = {}
    for a in answers:
        for code, n in a["statuses"].items():
            statuses[code] = statuses.get(code, 0) + n
    times = [t for a in answers for t in a["times"]]
    return {
        "times": times,
        "statuses": statuses,
        "wall": wall,
        "size": max(a["size"] for a in answers),
        "client": sum(a["client"] for a in answers),
    }


def fill(client: httpx.Client, event_id: str, key: str, number: int, boards: list[int]) -> None:
    """Results for ``boards`` of round ``number`` as one results sheet."""
    rng = random.Random(number)
    for start in range(0, len(boards), 2000):
        body = "round,board,result\n" + "".join(
            f"{number},{b},{rng.choice(RESULTS)}\n" for b in boards[start : start + 2000]
        )
        r = client.post(
            f"/api/events/{event_id}/results",
            content=body,
            headers={"Content-Type": "text/csv", "Authorization": f"Bearer {key}"},
        )
        r.raise_for_status()


def make_event(client: httpx.Client, players: int, rounds: int, played: int) -> tuple[str, str]:
    """A Go Swiss of ``players`` with ``played`` rounds entered as results sheets and the next
    round paired; (event id, organiser key)."""
    made = client.post(
        "/api/events", json={"name": "Big", "game": "go", "system": "swiss", "rounds": rounds}
    ).json()
    event_id, key = made["id"], made["organiser_token"]
    auth = {"Authorization": f"Bearer {key}"}
    for start in range(0, players, CHUNK):
        body = "name,rating\n" + "".join(
            f"P{i},{1000 + i * 7 % 1700}\n" for i in range(start, min(players, start + CHUNK))
        )
        client.post(
            f"/api/events/{event_id}/players",
            content=body,
            headers={**auth, "Content-Type": "text/csv"},
        ).raise_for_status()
    for number in range(1, played + 2):
        client.post(f"/api/events/{event_id}/rounds", headers=auth).raise_for_status()
        if number <= played:
            fill(client, event_id, key, number, boards_of(client, event_id, number))
    return event_id, key


def boards_of(client: httpx.Client, event_id: str, number: int) -> list[int]:
    return [
        int(g["board"])
        for g in client.get(f"/api/events/{event_id}/rounds/{number}").json()["games"]
    ]


def run(args: argparse.Namespace, workdir: Path) -> None:
    import psycopg

    name = "duiyi_bench_" + secrets.token_hex(4)
    with psycopg.connect(args.admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    database = args.admin.rsplit("/", 1)[0] + "/" + name
    servers = [start_server(database, workdir, env={"DUIYI_MAX_EVENT_WRITES": "16"})]
    servers += [
        start_server(database, workdir, env={"DUIYI_MAX_EVENT_WRITES": "16"})
        for _ in range(args.servers - 1)
    ]
    url = servers[0][1]
    meter = Meter([p.pid for p, _ in servers], args.admin, name)
    rows: list[dict[str, Any]] = []
    try:
        with httpx.Client(base_url=url, timeout=600) as client:
            # one event in round 1, one in the last round, on the same server: measured in
            # turns, so that both see the same load of the shared machine
            events = []
            for number in (1, args.rounds):
                event_id, key = make_event(client, args.players, args.rounds, number - 1)
                events.append((number, event_id, key, boards_of(client, event_id, number)))
            one: dict[int, dict[str, Any]] = {
                n: {"times": [], "cpu": 0.0, "server": 0.0, "wall": 0.0, "size": 0, "client": 0.0}
                for n, *_ in events
            }
            step = max(1, args.sample // args.turns)
            for turn in range(args.turns):
                for number, event_id, key, boards in events:
                    sample = boards[turn * step : (turn + 1) * step]
                    started = meter.start()
                    done = desk(url, event_id, key, number, sample, None, args.rtt / 1000)
                    server, pg = meter.stop(started)
                    acc = one[number]
                    acc["times"] += done["times"]
                    acc["cpu"] += server + pg
                    acc["server"] += server
                    acc["wall"] += done["wall"]
                    acc["client"] += done["client"]
                    acc["size"] = max(acc["size"], done["size"])
                    for code, n in done["statuses"].items():
                        acc.setdefault("statuses", {})
                        acc["statuses"][code] = acc["statuses"].get(code, 0) + n
            for number, event_id, key, boards in events:
                rest = boards[args.turns * step :]
                started = meter.start()
                with LockWatch(args.admin, name) as locks:
                    many = five_desks(
                        [u for _, u in servers],
                        event_id,
                        key,
                        number,
                        rest,
                        args.desks,
                        args.rtt / 1000,
                    )
                server5, pg5 = meter.stop(started)
                acc = one[number]
                count = len(acc["times"])
                document = len(client.get(f"/api/events/{event_id}").content)
                row = {
                    "round": number,
                    "document": document,
                    "cpu": acc["cpu"] / count,
                    "server": acc["server"] / count,
                    "pg": (acc["cpu"] - acc["server"]) / count,
                    "median_ms": statistics.median(acc["times"]) * 1000,
                    "size": acc["size"],
                    "one_rate": count / acc["wall"],
                    "one_statuses": acc.get("statuses", {}),
                    "many_rate": len(rest) / many["wall"],
                    "many_statuses": many["statuses"],
                    "many_cpu": (server5 + pg5) / max(1, len(rest)),
                    "many_server": server5 / max(1, len(rest)),
                    "lock_waits": locks.share,
                    "client": acc["client"] / count,
                    "many_client": many["client"] / max(1, len(rest)),
                    "results": len(rest),
                }
                rows.append(row)
                print(_line(row), flush=True)
    finally:
        for p, _ in servers:
            p.terminate()
            p.wait(30)
        with psycopg.connect(args.admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    first, last = rows[0], rows[-1]
    print(
        f"round {last['round']} / round {first['round']}: CPU per result "
        f"{last['cpu'] / first['cpu']:.2f}x, median request "
        f"{last['median_ms'] / first['median_ms']:.2f}x"
    )
    cores = os.cpu_count() or 1
    for r in rows:
        print(
            f"round {r['round']}: {args.desks} desks / one desk, results per second: "
            f"{r['many_rate'] / r['one_rate']:.1f}x"
        )
        # the physics: N desks can go no faster than the cores allow for the CPU of a result
        # (server, PostgreSQL and the desk client), nor than the server processes allow for
        # theirs; one desk goes at 1 / its latency. So N desks / one desk is at most
        # (that rate) x (one desk's latency): a latency that is all CPU caps it at the cores.
        whole = r["many_cpu"] + r["many_client"]
        bound = min(cores / whole, args.servers / r["many_server"])
        print(
            f"round {r['round']}: a result costs {whole * 1000:.1f} ms CPU with its client "
            f"({r['many_client'] * 1000:.1f} ms): {cores} cores allow at most {cores / whole:.0f}"
            f"/s, {args.servers} server process(es) {args.servers / r['many_server']:.0f}/s; one "
            f"desk waits {r['median_ms']:.1f} ms a result ({1000 / r['median_ms']:.1f}/s), so "
            f"{args.desks} desks / one desk <= {bound * r['median_ms'] / 1000:.1f}x; a backend "
            f"waited for a lock in {r['lock_waits']:.1%} of the samples"
        )


HEADER = (
    f"{'round':>5} {'event MB':>9} {'CPU s/result':>13} {'(server':>8} {'pg)':>7} "
    f"{'median ms':>10} {'answer B':>9} {'1 desk /s':>10} {'N desks /s':>11} "
    f"{'N desks CPU s':>14} {'client CPU s':>13} {'1 desk statuses':>16} "
    f"{'N desks statuses':>17}"
)


def _line(r: dict[str, Any]) -> str:
    return (
        f"{r['round']:>5} {r['document'] / 1e6:>9.2f} {r['cpu']:>13.4f} {r['server']:>8.4f} "
        f"{r['pg']:>7.4f} {r['median_ms']:>10.1f} {r['size']:>9} {r['one_rate']:>10.1f} "
        f"{r['many_rate']:>11.1f} {r['many_cpu']:>14.4f} {r['client']:>13.4f} "
        f"{r['one_statuses']!s:>16} "
        f"{r['many_statuses']!s:>17}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=200, help="results entered by one desk")
    parser.add_argument("--desks", type=int, default=5)
    parser.add_argument("--turns", type=int, default=4, help="one desk's turns per event")
    parser.add_argument(
        "--rtt", type=float, default=0.0, help="ms of network before each desk request"
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes (the desks spread over them)"
    )
    parser.add_argument(
        "--admin",
        default=os.environ.get("DUIYI_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--workdir", help="keep the server's log in this folder")
    args = parser.parse_args()
    print(HEADER, flush=True)
    if args.workdir:
        Path(args.workdir).mkdir(parents=True, exist_ok=True)
        run(args, Path(args.workdir))
        return
    with tempfile.TemporaryDirectory() as tmp:
        run(args, Path(tmp))


if __name__ == "__main__":
    main()
