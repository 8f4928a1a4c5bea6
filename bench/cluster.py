"""Issue 26's first table in one script: CPU seconds per 1,000 acknowledged moves of one
`duiyi serve`, of nginx + 3 processes (deploy/nginx-duiyi.conf, as shipped) and of a minimal
Starlette server (duiyi's Go core + one INSERT per move: bench/minimal_server.py), playing the
same scripted WebSocket games (bench/load.py) on PostgreSQL (+ Redis for the cluster).

    .venv/bin/python bench/cluster.py                       # the issue's table, 3 runs each
    .venv/bin/python bench/cluster.py --runs 1 --loads 30:1,60:4 --moves 20   # a quick look

``--loads G:R,...``: G games at R moves per second per game (each player thinks 1/R s on
average, uniform 0.5-1.5×). Counted: the CPU time (user + system, from /proc) of EVERY process
of the setup, from the first move to the last acknowledgement: the servers, nginx (master and
worker), PostgreSQL (postmaster, its backends and background processes, the ones that exited
too) and Redis. PostgreSQL and Redis are private instances started by this script (initdb into
a scratch folder; as root through runuser -u postgres), so nobody else's work is counted; the
scripted client is not counted. CPU seconds, not wall time: the machine is shared.

"moves forwarded": the share of the moves sent on a socket that nginx gave to a process other
than the game's owner (nginx's access log: the socket's upstream; the store: the game's owner;
each process's /api/metrics: its id), so the action crossed Redis to the owner.

Prints, per load, each setup's median CPU s per 1,000 moves (with the range over the runs and
the share of servers / nginx / PostgreSQL / Redis), then the ratios cluster / one process and
one process / minimal server. The cluster's processes get ``DUIYI_PEERS`` (the upstream
addresses in nginx's order: each game is owned by the process nginx's consistent hash sends it
to; ``--no-ring``: not set). ``--server-env K=V`` passes other settings to every duiyi process,
``--site-conf`` puts another nginx site file in place of deploy/nginx-duiyi.conf.
``--setups ...,third`` adds one process playing a third of the games (each of the cluster's
three processes serves a third): the cluster against it is what being a cluster costs beyond
each process's own cost at its share of the load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

import load  # bench/load.py

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.server.nginx
TICK = os.sysconf("SC_CLK_TCK")
SETUPS = ("one", "nginx3", "minimal")
# also accepted by --setups: nginx1, nginx2 (the shipped configuration with fewer processes);
# third: one process playing a third of the games (what each of the cluster's three serves)
EXTRA_SETUPS = ("nginx1", "nginx2", "third")
LABELS = {
    "one": "one `duiyi serve`",
    "nginx1": "nginx + 1 process",
    "nginx2": "nginx + 2 processes",
    "nginx3": "nginx + 3 processes",
    "minimal": "minimal Starlette server",
    "third": "one process, 1/3 of the games",
}


# ------------------------------------------------------------------ CPU time from /proc


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, user + system + reaped children's CPU seconds) of a process, or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    # after the name: state ppid ... utime(14) stime(15) cutime(16) cstime(17), 1-based
    ticks = sum(int(x) for x in fields[11:15])
    return int(fields[1]), ticks / TICK


def tree_cpu(roots: list[int]) -> float:
    """CPU seconds of ``roots`` and all their descendants, alive or reaped (a reaped child's
    time is in its parent's cutime/cstime)."""
    table: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found is not None:
                table[int(entry)] = found
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    total, todo, seen = 0.0, list(roots), set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in table:
            continue
        seen.add(pid)
        total += table[pid][1]
        todo.extend(children.get(pid, ()))
    return total


@dataclass
class Group:
    """The processes of one part of a setup (servers, nginx, PostgreSQL, Redis)."""

    name: str
    pids: list[int] = field(default_factory=list)

    def cpu(self) -> float:
        return tree_cpu(self.pids)


# ------------------------------------------------------------------ private PostgreSQL and Redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivatePostgres:
    """A PostgreSQL cluster of this run only (initdb into a scratch folder, trust on loopback)."""

    def __init__(self, workdir: Path, bindir: str | None = None) -> None:
        self.dir = workdir / "pgdata"
        self.port = free_port()
        self.bindir = bindir or str(
            Path(shutil.which("initdb") or "/usr/lib/postgresql/15/bin/initdb").parent
        )
        self.proc: subprocess.Popen[bytes] | None = None
        self.admin = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _as_postgres(self, cmd: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd

    def start(self) -> PrivatePostgres:
        self.dir.mkdir(parents=True)
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            for parent in (self.dir.parent,):
                parent.chmod(0o755)
        subprocess.run(
            self._as_postgres(
                [f"{self.bindir}/initdb", "-D", str(self.dir), "-U", "postgres", "-A", "trust"]
            ),
            check=True,
            capture_output=True,
        )
        return self._launch()

    def _launch(self) -> PrivatePostgres:
        """Start the postmaster on the cluster's folder and wait until it answers."""
        log = (self.dir.parent / "postgres.log").open("ab")
        self.proc = subprocess.Popen(
            self._as_postgres(
                [
                    f"{self.bindir}/postgres",
                    "-D",
                    str(self.dir),
                    "-p",
                    str(self.port),
                    "-k",
                    str(self.dir),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "max_connections=300",
                ]
            ),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        for _ in range(200):
            with contextlib.suppress(psycopg.OperationalError):
                psycopg.connect(self.admin, connect_timeout=2).close()
                return self
            time.sleep(0.1)
        raise SystemExit("the private PostgreSQL did not start")

    def postmaster(self) -> int:
        """The postmaster's pid (runuser's child when started through runuser)."""
        pid_file = self.dir / "postmaster.pid"
        return int(pid_file.read_text().split()[0])

    def restart(self) -> None:
        """A fast shutdown (SIGINT to the postmaster: open sessions are ended, as when an
        operator restarts the service), then the same cluster started again on its port."""
        os.kill(self.postmaster(), signal.SIGINT)
        if self.proc is not None:
            self.proc.wait(60)
        self._launch()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # runuser passes SIGTERM on: a smart shutdown
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class PrivateRedis:
    """A Redis server of this run only (no persistence)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> PrivateRedis:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return self
            time.sleep(0.05)
        raise SystemExit("the private Redis did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


# ------------------------------------------------------------------ one run of one setup


@dataclass
class Outcome:
    setup: str
    games: int
    rate: float
    moves: int
    errors: int
    cpu: dict[str, float]
    forwarded: float | None
    # the client's median and 99th percentile from sending a move to its acknowledgement (ms)
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    # --idle: CPU milliseconds per second of each group with the sockets open and no move
    idle: dict[str, float] = field(default_factory=dict)
    # the duiyi processes' group commits during the moves (none counted: the minimal server)
    commits: int = 0

    @property
    def per_1000(self) -> float:
        return sum(self.cpu.values()) / self.moves * 1000 if self.moves else float("nan")


@contextlib.contextmanager
def database(admin: str) -> Iterator[str]:
    name = "duiyi_cluster_" + os.urandom(4).hex()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _forwarded(access_log: Path, dsn: str, ports: list[int]) -> float:
    """The share of player sockets nginx sent to a process other than the game's owner."""
    process_port = {}
    for port in ports:
        process_port[load.metrics(f"http://127.0.0.1:{port}")["process"]] = port
    with psycopg.connect(dsn) as conn:
        owner = {g: o for g, o in conn.execute("SELECT id, owner FROM games").fetchall()}
    sockets = forwarded = 0
    pattern = re.compile(r'"GET /api/games/([^/]+)/socket" (\d+) .* 127\.0\.0\.1:(\d+)\s*$')
    for line in access_log.read_text().splitlines():
        found = pattern.search(line)
        if found is None or found.group(2) != "101":
            continue
        game, port = found.group(1), int(found.group(3))
        sockets += 1
        forwarded += process_port.get(owner.get(game) or "", -1) != port
    return forwarded / sockets if sockets else float("nan")


def run_one(
    setup: str,
    games: int,
    rate: float,
    args: argparse.Namespace,
    pg: PrivatePostgres,
    redis: PrivateRedis,
    workdir: Path,
) -> Outcome:
    env = {
        "DUIYI_PROXY_HEADER": "X-Forwarded-For",
        **dict(kv.split("=", 1) for kv in args.server_env),
    }
    groups = {
        "servers": Group("servers"),
        "nginx": Group("nginx"),
        "postgres": Group("postgres", [pg.postmaster()]),
        # only the cluster uses Redis
        "redis": Group(
            "redis", [redis.proc.pid] if redis.proc and setup.startswith("nginx") else []
        ),
    }
    procs: list[subprocess.Popen[bytes]] = []
    nginx = None
    snapshots: dict[str, dict[str, float]] = {}

    profilers: list[subprocess.Popen[bytes]] = []
    # the duiyi processes' addresses (their /api/metrics count the group commits)
    duiyi_urls: list[str] = []
    commits: dict[str, int] = {}

    def count_commits(phase: str) -> None:
        total = 0
        for base in duiyi_urls:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                total += int(load.metrics(base)["commit_batches"])
        commits[phase] = total

    def profile(name: str) -> None:
        """py-spy samples the server (the cluster: its first process) without stopping it;
        its own CPU is not counted."""
        out = Path(args.profile) / f"{setup}-{games}x{rate:g}{name}.txt"
        out.parent.mkdir(parents=True, exist_ok=True)
        profilers.append(
            subprocess.Popen(
                [
                    shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy"),
                    "record",
                    "--nonblocking",
                    "--format",
                    "raw",
                    "--rate",
                    "200",
                    "-p",
                    str(procs[0].pid),
                    "-o",
                    str(out),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )

    def stop_profiling() -> None:
        for profiler in profilers:
            profiler.send_signal(signal.SIGINT)
            profiler.wait(30)
        profilers.clear()

    def on_phase(phase: str) -> None:
        if phase == "play" and args.idle:
            # every socket open, no move yet: what the setup costs doing nothing (the client
            # waits here too; the moves are counted from the second snapshot)
            snapshots["idle"] = {name: g.cpu() for name, g in groups.items()}
            if args.profile:
                profile("-idle")
            time.sleep(args.idle)
            snapshots["idle_end"] = {name: g.cpu() for name, g in groups.items()}
            stop_profiling()
        snapshots[phase] = {name: g.cpu() for name, g in groups.items()}
        if phase in ("play", "done"):
            count_commits(phase)
        if args.profile and phase == "play":
            profile("")
        if phase == "done":
            stop_profiling()

    with database(pg.admin) as dsn:
        database_url = dsn.replace("postgresql://", "postgresql+psycopg://")
        try:
            if setup in ("one", "third"):
                proc, url = load.start_server(database_url, workdir, env=env)
                procs.append(proc)
                duiyi_urls.append(url)
            elif setup.startswith("nginx"):
                from tests.server import nginx as nginx_module

                if args.site_conf:
                    nginx_module.SITE_CONF = Path(args.site_conf).resolve()
                ports = [free_port() for _ in range(int(setup.removeprefix("nginx")))]
                if args.ring:
                    # each game's owner is the process nginx's consistent hash sends it to
                    # (own26: the upstream addresses in nginx's order)
                    env["DUIYI_PEERS"] = ",".join(f"127.0.0.1:{p}" for p in ports)
                for port in ports:
                    proc, _ = load.start_server(database_url, workdir, redis.url, env, port)
                    procs.append(proc)
                    duiyi_urls.append(f"http://127.0.0.1:{port}")
                nginx = nginx_module.Nginx(ports).start(workdir)
                assert nginx.proc is not None
                groups["nginx"].pids.append(nginx.proc.pid)
                url = nginx.url
            else:
                port = free_port()
                log = (workdir / f"minimal-{port}.log").open("wb")
                proc = subprocess.Popen(
                    [
                        sys.executable,
                        str(ROOT / "bench" / "minimal_server.py"),
                        "--port",
                        str(port),
                        "--pg",
                        dsn,
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
                procs.append(proc)
                url = f"http://127.0.0.1:{port}"
                for _ in range(300):
                    with contextlib.suppress(httpx.HTTPError):
                        if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                            break
                    if proc.poll() is not None:
                        raise SystemExit(f"the minimal server died: see {log.name}")
                    time.sleep(0.1)
            groups["servers"].pids.extend(p.pid for p in procs)
            played = max(1, games // 3) if setup == "third" else games
            result = asyncio.run(
                load.run(url, played, args.moves, 1.0 / rate, args.seed, on_phase=on_phase)
            )
            forwarded = None
            if nginx is not None and nginx.prefix is not None:
                time.sleep(1.0)  # nginx logs a socket when it closes
                forwarded = _forwarded(nginx.prefix / "access.log", dsn, ports)
                counted = [load.metrics(f"http://127.0.0.1:{p}").get("forwarded") for p in ports]
                if all(isinstance(c, int) for c in counted) and result["moves"]:
                    # the processes' own count (own26's metrics), when they keep one
                    forwarded_counted = sum(counted) / result["moves"]
                    print(
                        f"  forwarded: {forwarded:.1%} of the sockets (nginx's log), "
                        f"{forwarded_counted:.1%} of the moves (the processes' count)",
                        flush=True,
                    )
        finally:
            if nginx is not None:
                nginx.stop()
            for proc in reversed(procs):
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
    cpu = {k: snapshots["done"][k] - snapshots["play"][k] for k in groups}
    idle = {}
    if "idle" in snapshots:
        idle = {
            k: (snapshots["idle_end"][k] - snapshots["idle"][k]) / args.idle * 1000 for k in groups
        }
    return Outcome(
        setup,
        games,
        rate,
        int(result["moves"]),
        int(result["errors"]),
        cpu,
        forwarded,
        float(result["p50_ms"]),
        float(result["p99_ms"]),
        idle,
        commits.get("done", 0) - commits.get("play", 0),
    )


# ------------------------------------------------------------------ the table


def report(outcomes: list[Outcome], loads: list[tuple[int, float]], setups: list[str]) -> None:
    print()
    print("CPU seconds per 1,000 acknowledged moves (median of the runs; range; servers/nginx/")
    print("PostgreSQL/Redis share of the median run), moves forwarded to another process,")
    print("the median over the runs of the client's median time from a move to its ack")
    medians: dict[tuple[str, int, float], float] = {}
    for games, rate in loads:
        print(f"\n{games} games, {rate:g} moves per second per game")
        print(
            f"  {'setup':28} {'runs':>4} {'moves':>6} {'err':>4} {'CPU s/1000':>10} "
            f"{'range':>13} {'srv':>5} {'nginx':>5} {'pg':>5} {'redis':>5} {'fwd':>6} {'ack p50':>8}"
        )
        for setup in setups:
            mine = [o for o in outcomes if (o.setup, o.games, o.rate) == (setup, games, rate)]
            if not mine:
                continue
            values = [o.per_1000 for o in mine]
            med = statistics.median(values)
            medians[(setup, games, rate)] = med
            mid = min(mine, key=lambda o: abs(o.per_1000 - med))
            total = sum(mid.cpu.values()) or 1.0
            share = {k: v / total * 100 for k, v in mid.cpu.items()}
            fwd = [o.forwarded for o in mine if o.forwarded is not None]
            fwd_text = "–" if not fwd else f"{min(fwd) * 100:.0f}-{max(fwd) * 100:.0f}%"
            print(
                f"  {LABELS[setup]:28} {len(mine):4d} {mid.moves:6d} {sum(o.errors for o in mine):4d} "
                f"{med:10.3f} {min(values):6.3f}-{max(values):6.3f} "
                f"{share['servers']:4.0f}% {share['nginx']:4.0f}% {share['postgres']:4.0f}% "
                f"{share['redis']:4.0f}% {fwd_text:>6} "
                f"{statistics.median(o.p50_ms for o in mine):6.1f}ms"
            )
    print("\nratios")
    for games, rate in loads:
        one = medians.get(("one", games, rate))
        many = medians.get(("nginx3", games, rate))
        mini = medians.get(("minimal", games, rate))
        third = medians.get(("third", games, rate))
        parts = []
        if one and many:
            parts.append(f"cluster / one process {many / one:.2f}x (target <= 1.2)")
        if third and many:
            # each of the three processes serves a third of the games: what being a cluster
            # costs beyond a process's own cost at its share of the load
            parts.append(f"cluster / one process at 1/3 of the games {many / third:.2f}x")
        if third and one:
            parts.append(f"one process at 1/3 / at all the games {third / one:.2f}x")
        if one and mini:
            parts.append(f"one process / minimal {one / mini:.2f}x (target <= 2)")
        print(f"  {games} games at {rate:g}/s: " + "; ".join(parts))


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--loads", default="100:1,200:4", help="GAMES:MOVES_PER_S,... (per game)")
    ap.add_argument("--moves", type=int, default=60, help="moves per game (both players)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--setups",
        default=",".join(SETUPS),
        help="one, nginx3, minimal (also: nginx1, nginx2, third)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server-env", action="append", default=[], metavar="K=V")
    ap.add_argument("--site-conf", help="an nginx site file instead of deploy/nginx-duiyi.conf")
    ap.add_argument(
        "--no-ring",
        dest="ring",
        action="store_false",
        help="no DUIYI_PEERS: the owner is the process that created the game (before issue 26)",
    )
    ap.add_argument(
        "--idle",
        type=float,
        default=0.0,
        metavar="S",
        help="before the moves, S seconds with every socket open and nothing played: each "
        "group's CPU ms per second then (the idle cost of the setup)",
    )
    ap.add_argument("--pg-bin", help="folder of initdb and postgres (default: initdb on PATH)")
    ap.add_argument("--workdir", help="keep logs here")
    ap.add_argument(
        "--profile",
        metavar="DIR",
        help="py-spy (pip install py-spy) samples the server (the cluster's first process) "
        "during the moves: "
        "collapsed stacks in DIR/SETUP-GAMESxRATE.txt (bench/profile_summary.py reads them)",
    )
    args = ap.parse_args()
    # one client address plays every game: lift the per-client limits
    os.environ.update(
        DUIYI_RATE_PER_SECOND="100000",
        DUIYI_MAX_SOCKETS_PER_CLIENT="100000",
        DUIYI_MAX_CONNECTIONS_PER_CLIENT="100000",
    )
    loads = []
    for part in args.loads.split(","):
        g, r = part.split(":")
        loads.append((int(g), float(r)))
    setups = [s for s in args.setups.split(",") if s]
    for s in setups:
        if s not in SETUPS + EXTRA_SETUPS:
            raise SystemExit(f"unknown setup {s!r}: {', '.join(SETUPS)}")
    outcomes: list[Outcome] = []
    # a plain kill still stops the servers, nginx, PostgreSQL and Redis started here
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="duiyi-cluster-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        Path(tmp).chmod(0o755)
        pg = PrivatePostgres(Path(tmp), args.pg_bin).start()
        redis = PrivateRedis(workdir).start()
        try:
            for run in range(args.runs):
                for games, rate in loads:
                    for setup in setups:
                        o = run_one(setup, games, rate, args, pg, redis, workdir)
                        outcomes.append(o)
                        fwd = "" if o.forwarded is None else f", forwarded {o.forwarded:.0%}"
                        if o.commits:
                            fwd += f", {o.moves / o.commits:.1f} moves per commit"
                        if o.idle:
                            fwd += ", idle ms CPU per s: " + ", ".join(
                                f"{k} {v:.1f}" for k, v in o.idle.items()
                            )
                        print(
                            f"run {run + 1}: {setup:8} {games} games at {rate:g}/s: "
                            f"{o.moves} moves, {o.errors} errors, {o.per_1000:.3f} CPU s per "
                            f"1,000 ({', '.join(f'{k} {v:.2f}' for k, v in o.cpu.items())}), "
                            f"ack p50 {o.p50_ms:.1f} ms, p99 {o.p99_ms:.1f} ms{fwd}",
                            flush=True,
                        )
        finally:
            redis.stop()
            pg.stop()
    report(outcomes, loads, setups)


if __name__ == "__main__":
    main()
