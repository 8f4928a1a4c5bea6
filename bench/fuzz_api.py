"""A longer, unseeded schemathesis run over the whole API (``make fuzz``; issue 24): every check,
more examples per operation than the seeded test (tests/server/test_schemathesis.py), and a
new seed each run, so each run looks somewhere else. A real `duiyi serve` on a temporary
SQLite database, on 127.0.0.1 only; the per-client limits are lifted (one client sends
everything). Exits non-zero when schemathesis finds a failure or the server logs a traceback.

    .venv/bin/python bench/fuzz_api.py --examples 100
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # bench/load.py: start_server


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=100, help="examples per operation")
    ap.add_argument("--seed", default=None, help="a seed to repeat a run (default: a new one)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds for the whole run")
    args = ap.parse_args()
    cli = Path(sys.executable).with_name("schemathesis")
    if not cli.exists():
        found = shutil.which("schemathesis")
        if not found:
            print("schemathesis is in the test extra: pip install -e '.[test,server]'")
            return 2
        cli = Path(found)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        env = {
            "DUIYI_RATE_PER_SECOND": "100000",
            "DUIYI_MAX_EVENTS_PER_CLIENT": "1000000",
            "DUIYI_MAX_SOCKETS_PER_CLIENT": "100000",
        }
        proc, url = load.start_server(f"sqlite:///{workdir / 'fuzz.sqlite3'}", workdir, env=env)
        try:
            cmd = [str(cli), "run", f"{url}/openapi.json", "--checks", "all"]
            cmd += ["--max-examples", str(args.examples), "--no-color"]
            if args.seed is not None:
                cmd += ["--seed", str(args.seed)]
            print("$", " ".join(cmd), flush=True)
            run = subprocess.run(cmd, timeout=args.timeout, cwd=workdir)
        finally:
            proc.terminate()
            proc.wait(10)
        logs = "".join(p.read_text(errors="replace") for p in workdir.glob("server-*.log"))
        if "Traceback" in logs:
            start = logs.find("Traceback")
            print("the server logged a traceback:\n" + logs[start : start + 4000])
            return 1
        return run.returncode


if __name__ == "__main__":
    sys.exit(main())
