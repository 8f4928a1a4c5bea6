"""Benchmark: ``duiyi --help`` start-up time against a minimal Typer app.

Both are started as fresh processes by the same interpreter, alternately, ``--runs`` times;
the minimum (the least disturbed run on a shared machine) and the median are printed with
their ratio. The minimal app is one Typer callback and one command: what any Typer CLI costs.
Target: ``duiyi --help`` ≤ 0.15 s (the rooms are imported lazily, see ``duiyi.cli``).

Run: ``.venv/bin/python bench/cli_startup.py [--runs 15]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

MINIMAL = (
    "import typer\n"
    "app = typer.Typer(add_completion=False)\n"
    "@app.callback()\n"
    "def root() -> None:\n"
    "    '''Minimal.'''\n"
    "@app.command()\n"
    "def hello() -> None:\n"
    "    '''Hello.'''\n"
    "app()\n"
)
DUIYI = "from duiyi.cli import main\nmain()\n"
# what start-up cost before the rooms were lazy: every room imported first
EAGER = (
    "import importlib\n"
    "for room in ('go', 'gomoku', 'clock', 'schedule', 'event', 'gtp', 'serve'):\n"
    "    importlib.import_module('duiyi.cli.' + room)\n"
    "from duiyi.cli import main\n"
    "main()\n"
)


def once(code: str, *args: str) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], capture_output=True, check=False)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    rows: dict[str, list[float]] = {
        "minimal Typer app --help": [],
        "duiyi --help": [],
        "duiyi, rooms eager": [],
    }
    for _ in range(args.runs):
        rows["minimal Typer app --help"].append(once(MINIMAL, "--help"))
        rows["duiyi --help"].append(once(DUIYI, "--help"))
        rows["duiyi, rooms eager"].append(once(EAGER, "--help"))
    base = min(rows["minimal Typer app --help"])
    print(f"{'command':<26} {'min s':>7} {'median s':>9} {'min ratio':>10}")
    for name, times in rows.items():
        print(
            f"{name:<26} {min(times):7.3f} {statistics.median(times):9.3f} {min(times) / base:10.2f}"
        )


if __name__ == "__main__":
    main()
