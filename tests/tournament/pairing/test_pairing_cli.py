"""``duiyi schedule``: the JSON shape of the issue and the bracket commands."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from duiyi.cli import app

runner = CliRunner()


def test_round_robin_json_shape() -> None:
    # Go appendix 三: 8 players, round 1 reads 1——8, 2——7, 3——6, 4——5
    out = runner.invoke(app, ["schedule", "round-robin", "--players", "8", "--format", "json"])
    assert out.exit_code == 0
    assert out.output.startswith(
        '{"rounds": [{"round": 1, "pairings": [{"board": 1, "black": 1, "white": 8}, '
    )
    doc = json.loads(out.output)
    assert len(doc["rounds"]) == 7
    assert doc["rounds"][0]["byes"] == []
    assert set(doc["rounds"][0]) == {"round", "pairings", "byes"}


def test_double_round_robin_and_table() -> None:
    # Go §26.2 双循环: colours reverse in the second cycle
    out = runner.invoke(app, ["schedule", "round-robin", "-n", "5", "--cycles", "2"])
    doc = json.loads(out.output)
    assert len(doc["rounds"]) == 10
    assert doc["rounds"][5]["pairings"][0] == {"board": 1, "black": 5, "white": 2}
    table = runner.invoke(app, ["schedule", "round-robin", "-n", "5", "--format", "table"])
    assert "bye" in table.output and "Round 5" in table.output


def test_knockout_and_double_elimination_commands() -> None:
    # Go appendix 一 附表一 and 二 附表二
    out = runner.invoke(app, ["schedule", "knockout", "-n", "30", "--seeds", "1,2,3,4,5,6,7,8"])
    doc = json.loads(out.output)
    assert doc["size"] == 32 and doc["lines"][1] is None and doc["lines"][25] is None
    out = runner.invoke(app, ["schedule", "double-elimination", "-n", "16", "--format", "table"])
    assert "GF2" in out.output and "loser to L1.1 top" in out.output


def test_errors_are_one_line() -> None:
    out = runner.invoke(app, ["schedule", "double-elimination", "-n", "40"])
    assert out.exit_code != 0


def test_swiss_command_explains(tmp_path: Path) -> None:
    # Go appendix 五: --explain gives every pairing a reason
    state = {
        "round": 2,
        "players": [
            {"number": 1, "score": 2, "opponents": [2], "colours": "B"},
            {"number": 2, "score": 0, "opponents": [1], "colours": "W"},
            {"number": 3, "score": 2, "opponents": [4], "colours": "B"},
            {"number": 4, "score": 0, "opponents": [3], "colours": "W"},
        ],
    }
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    out = runner.invoke(app, ["schedule", "swiss", "--input", str(path), "--explain"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    pairings = doc["rounds"][0]["pairings"]
    assert [(p["black"], p["white"]) for p in pairings] == [(3, 1), (4, 2)]
    assert all(p["reason"] for p in pairings)
    first = json.loads(runner.invoke(app, ["schedule", "swiss", "-n", "4"]).output)
    assert first["rounds"][0]["pairings"][0] == {"board": 1, "black": 1, "white": 2}


def test_mcmahon_command(tmp_path: Path) -> None:
    # McMahon: bar 1d, floor 10k puts the two dan players in the top group
    state = {
        "players": [
            {"number": 1, "rank": "3d"},
            {"number": 2, "rank": "5k"},
            {"number": 3, "rank": "2d"},
            {"number": 4, "rank": "6k"},
        ]
    }
    path = tmp_path / "mm.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    out = runner.invoke(
        app, ["schedule", "swiss", "--input", str(path), "--bar", "1d", "--floor", "10k"]
    )
    games = json.loads(out.output)["rounds"][0]["pairings"]
    assert {frozenset((p["black"], p["white"])) for p in games} == {
        frozenset({1, 3}),
        frozenset({2, 4}),
    }


def test_groups_command() -> None:
    # Go appendix 四: 8 players, 2 groups, 2 qualifiers each: seeds 1-4 serpentine
    out = runner.invoke(app, ["schedule", "groups", "-n", "8", "-g", "2", "--qualifiers", "2"])
    doc = json.loads(out.output)
    assert [g["players"][:2] for g in doc["groups"]] == [[1, 4], [2, 3]]
    assert all(len(g["rounds"]) == 3 for g in doc["groups"])
