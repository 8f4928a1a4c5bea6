"""A longer, unseeded schemathesis run over the whole API (``make fuzz``; issues 24 and 35):
every check, more examples per operation than the seeded test (tests/server/test_schemathesis.py)
and a new seed each run, so each run looks somewhere else; on the same world as that test
(tests/server/fuzz_world.py: games, events, rounds, calls and rulings made through the API
first, their ids and keys put in the generated requests), so every operation is reached beyond
its 404s. A real `duiyi serve` on a temporary SQLite database, on 127.0.0.1 only. Exits
non-zero when schemathesis finds a failure, the server logs a traceback, or an operation never
answers a 2xx.

    .venv/bin/python bench/fuzz_api.py --examples 100
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from tests.server.fuzz_run import run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=100, help="examples per operation")
    ap.add_argument("--seed", default=None, help="a seed to repeat a run (default: a new one)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds for the whole run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        found = run(Path(tmp), examples=args.examples, seed=args.seed, timeout=args.timeout)
    print(found.report)
    if found.traceback:
        print("the server logged a traceback:\n" + found.traceback)
    for op, statuses in found.unexpected.items():
        print(f"never a 2xx: {op} (answered {statuses})")
    bad = found.returncode != 0 or found.traceback or found.unexpected or found.reached_allowed
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
