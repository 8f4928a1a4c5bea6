"""The command line as a new user meets it: usage errors are one line and exit 2 (README),
the help does not show flags as taking values, and subcommands are imported lazily."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "sgf"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duiyi", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("gox",), "No such command 'gox'. Did you mean 'go'?"),
        (("go", "replay", "--nope", "x.sgf"), "go replay: No such option: --nope"),
        (("go", "score", "--komi", "abc", "x.sgf"), "go score: Invalid value for '--komi'"),
        (("schedule", "round-robin"), "schedule round-robin: Missing"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: tuple[str, ...], expected: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr  # one line, no boxed panel
    assert proc.stderr.startswith("duiyi: error: ") and expected in proc.stderr
    assert "╭" not in proc.stderr and proc.stdout == ""


def test_svg_move_past_the_end_is_refused() -> None:
    # the 9x9 game has 88 moves: --move 88 is its end, --move 999 does not exist
    assert run("go", "svg", str(DATA / "counted-9x9.sgf"), "--move", "88").returncode == 0
    proc = run("go", "svg", str(DATA / "counted-9x9.sgf"), "--move", "999")
    assert proc.returncode == 2 and "has only 88 moves" in proc.stderr and proc.stdout == ""


def test_help_shows_no_bool_type_for_flags() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    line = next(x for x in proc.stdout.splitlines() if "--version" in x)
    assert "<bool>" not in line and "Print the version" in line
    assert all(room in proc.stdout for room in ("go", "gomoku", "event", "serve"))
    assert run("--version").stdout.startswith("duiyi ")


def test_help_imports_no_room() -> None:
    code = (
        "import sys\n"
        "from duiyi.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "rooms = [m for m in sys.modules if m.startswith('duiyi.cli.') or m == 'duiyi.go']\n"
        "print(sorted(rooms))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"
