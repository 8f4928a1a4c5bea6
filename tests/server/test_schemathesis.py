"""Schemathesis over the whole OpenAPI document with all its checks (issue 12): the server
accepts what its schema allows, refuses what it does not, answers only documented statuses
and content types (problem documents), 405 with Allow, and never a 500. Bounded in time."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.server.conftest import Server

# A fixed seed with the pinned schemathesis and hypothesis (pyproject.toml) means the same cases
# on every machine: no time budget, which would cut the run where the machine's speed says. The
# longer unseeded run is `make fuzz` (bench/fuzz_api.py).
SEED = "1"
EXAMPLES = "10"
TIMEOUT = 600


@pytest.mark.slow
def test_schemathesis_finds_nothing(tmp_path: Path) -> None:
    cli = Path(sys.executable).with_name("schemathesis")
    if not cli.exists():  # the test extra installs it; a missing tool is a failure, not a skip
        found = shutil.which("schemathesis")
        assert found, "schemathesis is in the test extra: pip install -e '.[test,server]'"
        cli = Path(found)
    server = Server(
        f"sqlite:///{tmp_path / 'st.sqlite3'}",
        None,
        # schemathesis sends thousands of requests from one address
        env={"DUIYI_RATE_PER_SECOND": "100000", "DUIYI_MAX_EVENTS_PER_CLIENT": "1000000"},
    ).start(tmp_path)
    try:
        run = subprocess.run(
            [
                str(cli),
                "run",
                f"{server.url}/openapi.json",
                "--checks",
                "all",
                "--max-examples",
                EXAMPLES,
                "--seed",
                SEED,
                "--no-color",
            ],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            cwd=tmp_path,
        )
    finally:
        server.stop()
    out = run.stdout + run.stderr
    start = out.find("FAILURES")
    assert run.returncode == 0, out[start:][:12000] if start >= 0 else out[-6000:]
    assert "Traceback" not in server.log.read_text() if server.log else True
