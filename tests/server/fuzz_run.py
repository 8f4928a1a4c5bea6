"""One seeded or unseeded schemathesis run over the whole API on the fuzz world (issue 35),
shared by the seeded test (tests/server/test_schemathesis.py) and ``make fuzz``
(bench/fuzz_api.py): a real `duiyi serve` on a SQLite database in ``workdir``, the world built
through the API (``fuzz_world``), its ids and keys put in the generated requests by the hooks
(``fuzz_hooks``), every answer's status kept, the server's log read for tracebacks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from tests.server import fuzz_world
from tests.server.conftest import OPERATOR_KEY, Server

from duiyi.server.engines.driver import gnugo_command

HERE = Path(__file__).resolve().parent
BRAIN = HERE.parents[0] / "gomoku" / "engines" / "greedy.py"

# The operations no request of the run may answer with a 2xx, each with the reason; every
# other operation of the document must answer one. None: the world reaches every operation.
NO_2XX: dict[str, str] = {}
# ... on a machine without GNU Go (the test extra's CI installs it), where the server offers
# no engine: no engine game is made and no engine round played
WITHOUT_ENGINES: dict[str, str] = {
    "POST /api/engine-games": "the server offers no engine (GNU Go is not installed)",
    "POST /api/events/{event_id}/rounds/{number}/play": "no engine to play the round with",
}


@dataclass(frozen=True)
class FuzzRun:
    """What a run found: schemathesis's exit status and report, the server's log, and the
    operations that never answered a 2xx beyond those ``allowed`` to (with what they did)."""

    returncode: int
    report: str
    server_log: str
    unexpected: dict[str, list[int]]
    reached_allowed: set[str]

    @property
    def failures(self) -> str:
        """The report from its failures on (or its end), for an assertion's message."""
        start = self.report.find("FAILURES")
        return self.report[start:][:12000] if start >= 0 else self.report[-6000:]

    @property
    def traceback(self) -> str | None:
        """The first traceback the server logged, or None."""
        start = self.server_log.find("Traceback")
        return None if start < 0 else self.server_log[start : start + 4000]


def schemathesis_cli() -> Path:
    """The schemathesis command of this environment (the test extra installs it)."""
    cli = Path(sys.executable).with_name("schemathesis")
    if cli.exists():
        return cli
    found = shutil.which("schemathesis")  # a missing tool is a failure, not a skip
    assert found, "schemathesis is in the test extra: pip install -e '.[test,server]'"
    return Path(found)


def operations(document: dict) -> list[str]:
    """Every operation of the OpenAPI document, as ``"METHOD /path"``."""
    methods = ("get", "put", "post", "delete", "patch")
    return [
        f"{method.upper()} {path}"
        for path, ops in document["paths"].items()
        for method in ops
        if method in methods
    ]


def without_2xx(statuses: str, ops: list[str]) -> dict[str, list[int]]:
    """The operations of ``ops`` that answered no 2xx in the run's ``METHOD PATH STATUS``
    lines, with the statuses they did answer."""
    seen: dict[str, set[int]] = defaultdict(set)
    for line in statuses.splitlines():
        op, _, status = line.rpartition(" ")
        seen[op].add(int(status))
    return {
        op: sorted(seen.get(op, ()))
        for op in ops
        if not any(200 <= s < 300 for s in seen.get(op, ()))
    }


@contextmanager
def _only_the_runs_engines() -> Iterator[None]:
    names = ("DUIYI_ENGINES", "DUIYI_GNUGO", "DUIYI_GOMOKU_ENGINE")
    kept = {n: os.environ.pop(n) for n in names if n in os.environ}
    try:
        yield
    finally:
        os.environ.update(kept)


def run(workdir: Path, *, examples: int, seed: str | None, timeout: float) -> FuzzRun:
    """Start the server in ``workdir``, build the world, run schemathesis with all its checks
    and ``examples`` per operation (``seed`` None: a new one), and stop the server."""
    engines = gnugo_command() is not None
    env = {
        # schemathesis sends thousands of requests from one address
        "DUIYI_RATE_PER_SECOND": "100000",
        "DUIYI_MAX_EVENTS_PER_CLIENT": "1000000",
        "DUIYI_MAX_SOCKETS_PER_CLIENT": "100000",
        "DUIYI_MAX_ENGINE_GAMES_PER_CLIENT": "4",
        # an online result's sheet waits 3 s: the world's conflict (the director's entry before
        # the online result) is made meanwhile; 1 s was lost to a loaded machine's slow entry
        "DUIYI_RESULT_DELAY": "3",
    }
    extra: tuple[str, ...] = ()
    if engines:
        env |= {"DUIYI_GNUGO": "1", "DUIYI_GOMOKU_ENGINE": f"{sys.executable} {BRAIN} --seed 3"}
        extra = ("--engine-players",)
    statuses = workdir / "statuses.txt"
    cmd = [str(schemathesis_cli()), "--config-file", str(HERE / "schemathesis.toml"), "run"]
    with _only_the_runs_engines():
        server = Server(f"sqlite:///{workdir / 'fuzz.sqlite3'}", None, env=env, extra=extra)
        server.start(workdir)
        try:
            document = httpx.get(f"{server.url}/openapi.json").json()
            ops = operations(document)
            world = fuzz_world.build(server.url, engines=engines)
            targets = fuzz_world.targets(world, ops, OPERATOR_KEY)
            (workdir / "targets.json").write_text(json.dumps(targets))
            cmd += [f"{server.url}/openapi.json", "--checks", "all"]
            cmd += ["--max-examples", str(examples), "--no-color"]
            if seed is not None:
                cmd += ["--seed", seed]
            done = subprocess.run(
                cmd,
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=workdir,
                env={
                    **os.environ,
                    "SCHEMATHESIS_HOOKS": str(HERE / "fuzz_hooks.py"),
                    "DUIYI_FUZZ_TARGETS": str(workdir / "targets.json"),
                    "DUIYI_FUZZ_STATUSES": str(statuses),
                },
            )
        finally:
            server.stop()
    report = done.stdout + done.stderr
    (workdir / "schemathesis.txt").write_text(report)  # the whole report, kept beside the run
    missing = without_2xx(statuses.read_text() if statuses.exists() else "", ops)
    (workdir / "without-2xx.json").write_text(json.dumps(missing, indent=1))
    allowed = NO_2XX if engines else {**NO_2XX, **WITHOUT_ENGINES}
    return FuzzRun(
        returncode=done.returncode,
        report=report,
        server_log=server.log.read_text(errors="replace") if server.log else "",
        unexpected={op: s for op, s in missing.items() if op not in allowed},
        reached_allowed=(set(ops) - set(missing)) & set(allowed),
    )
