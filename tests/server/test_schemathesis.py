"""Schemathesis over the whole OpenAPI document with all its checks (issue 12): the server
accepts what its schema allows, refuses what it does not, answers only documented statuses
and content types (problem documents), 405 with Allow, and never a 500. Bounded in time.

Issue 35: the run works on a world made through the API before it (``fuzz_world``: games of
both games live, counting and finished, with calls and rulings; events of both games, Swiss,
knockout, teams and engine rounds, with rounds, results and a conflict; engine games), whose
ids and keys the hooks (``fuzz_hooks``) put in the generated requests; every operation of the
document must answer a 2xx at least once in the run."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.server.fuzz_run import run, without_2xx

# A fixed seed with the pinned schemathesis and hypothesis (pyproject.toml) means the same cases
# on every machine: no time budget, which would cut the run where the machine's speed says. The
# longer unseeded run is `make fuzz` (bench/fuzz_api.py), on the same world.
SEED = "1"
EXAMPLES = 10
TIMEOUT = 600


def test_without_2xx_reads_the_run() -> None:
    lines = "GET /a 404\nGET /a 200\nPOST /b 409\nPOST /b 422\n"
    assert without_2xx(lines, ["GET /a", "POST /b", "PUT /c"]) == {
        "POST /b": [409, 422],
        "PUT /c": [],
    }


@pytest.mark.slow
def test_schemathesis_finds_nothing(tmp_path: Path) -> None:
    found = run(tmp_path, examples=EXAMPLES, seed=SEED, timeout=TIMEOUT)
    assert found.returncode == 0, found.failures
    assert found.traceback is None, found.traceback
    assert not found.unexpected, "operations that never answered a 2xx (statuses seen):\n" + (
        "\n".join(f"{op}: {s}" for op, s in found.unexpected.items())
    )
    assert not found.reached_allowed, f"listed as impossible yet reached: {found.reached_allowed}"
