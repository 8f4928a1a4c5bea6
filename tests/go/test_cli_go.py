"""`duiyi go`: exit codes and the JSON contract of `score`."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

from duiyi.cli import main

DATA = Path(__file__).resolve().parent.parent / "data" / "sgf"


def subprocess_duiyi(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real command line, in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "duiyi", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def duiyi(*args: str) -> subprocess.CompletedProcess[str]:
    """``duiyi.cli.main`` in-process (fast), with the same exit-code contract."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def test_replay_legal_game_exits_0() -> None:
    proc = duiyi("go", "replay", str(DATA / "counted-9x9.sgf"))
    assert proc.returncode == 0, proc.stderr
    assert "88 moves, all legal under chinese rules" in proc.stdout


def test_replay_names_the_first_illegal_move(tmp_path: Path) -> None:
    # Go §5: the 4th move (White A9) is suicide.
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[9];B[ba];W[ee];B[ab];W[aa];B[cc])")
    proc = subprocess_duiyi("go", "replay", str(bad))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("duiyi: error: illegal move #4 W A9 (line 1): suicide")
    assert "Go §5" in lines[0]


def test_replay_reports_sgf_errors_with_position(tmp_path: Path) -> None:
    bad = tmp_path / "broken.sgf"
    bad.write_text("(;GM[1]SZ[9]\n;B[ee]\n;W[cc")
    proc = duiyi("go", "replay", str(bad))
    assert proc.returncode == 2
    assert "line 3, column 3" in proc.stderr


def test_missing_file_exits_2() -> None:
    proc = duiyi("go", "replay", "/nonexistent/game.sgf")
    assert proc.returncode == 2
    assert proc.stderr.startswith("duiyi: error: cannot read")


def test_score_json_contract() -> None:
    proc = duiyi("go", "score", str(DATA / "counted-9x9.sgf"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in (
        "black_area",
        "white_area",
        "komi_stones",
        "winner",
        "margin_stones",
        "result_zh",
        "sgf_result",
    ):
        assert key in data
    # Go §9, §11: area in stones, komi 3¾ stones, margin = B − komi − 40.5 on 9×9.
    assert data["komi_stones"] == 3.75
    assert data["black_area"] + data["white_area"] == 81
    assert data["margin_stones"] == data["black_area"] - 3.75 - 40.5
    assert data["winner"] == "white" and data["sgf_result"] == "W+10.5"
    assert data["recorded_result"] == "W+10.5"


def test_score_with_dead_stones_from_markers() -> None:
    # Go §8, §9: E2 and E8 are dead; Black 45 − 3¾ − 40½ = ¾ stone.
    proc = duiyi("go", "score", str(DATA / "dead-stones-9x9.sgf"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["dead"] == ["E2", "E8"]
    assert (data["black_area"], data["white_area"]) == (45, 36)
    assert data["margin_stones"] == 0.75 and data["result_zh"] == "黑胜3/4子"
    assert data["sgf_result"] == "B+1.5" == data["recorded_result"]


def test_score_without_markers_falls_back_to_the_life_engine(tmp_path: Path) -> None:
    bare = tmp_path / "bare.sgf"
    bare.write_text("(;GM[1]SZ[9]KM[7.5];B[ee];W[];B[])")
    proc = duiyi("go", "score", str(bare), "--format", "json")
    assert proc.returncode == 0
    assert "no TB/TW markers" in proc.stderr
    data = json.loads(proc.stdout)
    assert data["dead_from"] == "auto"
    # Go §9: one black stone owns the empty 9×9 board: 81 − 3¾ − 40½ = 36¾ stones.
    assert data["margin_stones"] == 36.75 and data["sgf_result"] == "B+73.5"


def test_score_text_and_options() -> None:
    path = str(DATA / "counted-9x9.sgf")
    proc = duiyi("go", "score", path)
    assert proc.returncode == 0
    assert "(matches)" in proc.stdout
    proc = duiyi("go", "score", path, "--dead", "none", "--rules", "japanese", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rules"] == "japanese"
    assert duiyi("go", "score", path, "--dead", "auto").returncode == 0
    bad = duiyi("go", "score", path, "--dead", "guess")
    assert bad.returncode == 2 and "--dead" in bad.stderr
    assert duiyi("go", "score", path, "--rules", "martian").returncode == 2


def test_svg_to_file_and_stdout(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    proc = duiyi("go", "svg", str(DATA / "counted-9x9.sgf"), "--move", "10", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert text.startswith("<svg") and text.count('class="stone') == 10
    proc = duiyi("go", "svg", str(DATA / "variations.sgf"))
    assert proc.returncode == 0 and proc.stdout.count('class="stone') == 5
    proc = duiyi("go", "svg", str(DATA / "dead-stones-9x9.sgf"), "--dead", "sgf-markers")
    assert proc.returncode == 0
    assert proc.stdout.count('class="dead"') == 2  # E2 and E8, under TW and TB
    assert 'class="territory"' in proc.stdout


def test_demo_counts_a_real_game_from_any_folder(tmp_path: Path) -> None:
    # The demo's games ship with the package: nothing beside the repository is needed, and the
    # folder it runs in does not matter. Go §9, §11: the count equals the recorded result.
    proc = subprocess_duiyi("go", "demo", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "matches" in proc.stdout
    assert "RU[Chinese]" in proc.stdout
    assert re.search(r"\b30\s+games in the archive", proc.stdout)  # Rich may wrap the line


def test_demo_reads_a_whole_archive_and_picks_a_game() -> None:
    archive = Path(__file__).resolve().parents[1] / "data" / "go" / "kgs-2017-01.tar.gz"
    proc = duiyi("go", "demo", "--archive", str(archive), "--game", "2017-01-03-2.sgf")
    assert proc.returncode == 0, proc.stderr
    assert "2017-01-03-2.sgf" in proc.stdout
    assert re.search(r"\b733\s+games in the archive", proc.stdout)
    assert "matches" in proc.stdout


def test_demo_without_archive_fails_clearly(tmp_path: Path) -> None:
    proc = duiyi("go", "demo", "--archive", str(tmp_path / "none.tar.gz"))
    assert proc.returncode == 2
    assert "does not exist" in proc.stderr
