"""``duiyi gomoku`` commands and the SVG drawing."""

from __future__ import annotations

import doctest
import importlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duiyi.cli import main
from duiyi.cli.gomoku import app
from duiyi.gomoku import Board, Foul, Point
from duiyi.gomoku.svg import board_svg

runner = CliRunner()
DOUBLE_THREE = "h8 a1 i8 a3 h9 a5 i10"  # g8 is a double-three for Black


def test_forbidden_json():
    # Gomoku §2.19
    r = runner.invoke(app, ["forbidden", DOUBLE_THREE, "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == {"forbidden": {"g8": "double-three"}}


def test_forbidden_text_with_explanation():
    r = runner.invoke(app, ["forbidden", DOUBLE_THREE, "--explain"])
    assert r.exit_code == 0
    assert "g8 is a double-three" in r.output and " 3 " in r.output  # mark in the diagram


def test_forbidden_bad_move_exits_2(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exc:
        main(["gomoku", "forbidden", "h8 z99"])
    assert exc.value.code == 2
    assert "z99" in capsys.readouterr().err


def test_openings_lists_26_with_names():
    r = runner.invoke(app, ["openings"])
    assert r.exit_code == 0
    lines = r.output.strip().splitlines()
    assert len(lines) == 26 and "寒星局" in lines[0] and "Kansei" in lines[0]
    data = json.loads(runner.invoke(app, ["openings", "--format", "json"]).output)
    assert len(data) == 26 and data[-1]["chinese"] == "彗星"


def test_replay_files(tmp_path: Path):
    sgf = tmp_path / "g.sgf"
    sgf.write_text("(;GM[4]SZ[15];B[hh];W[hg];B[jf];W[ig];B[gf])", encoding="utf-8")
    r = runner.invoke(app, ["replay", str(sgf)])
    assert r.exit_code == 0, r.output
    assert "疏星局" in r.output and "① h8" in r.output and "ongoing" in r.output
    psq = tmp_path / "g.psq"
    psq.write_text(
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,15,0\n8,7,0\n1,13,0\n8,6,0\n"
        "1,11,0\n8,5,0\n1,9,0\n8,4,0\n-1\n",
        encoding="utf-8",
    )
    r = runner.invoke(app, ["replay", str(psq), "--format", "json"])
    data = json.loads(r.output)
    assert data["outcome"]["termination"] == "five" and data["outcome"]["winner"] == "black"


def test_replay_illegal_record_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    f = tmp_path / "bad.txt"
    f.write_text("h8 h9 h8", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["gomoku", "replay", str(f)])
    assert exc.value.code == 2 and "occupied" in capsys.readouterr().err


def test_svg_command(tmp_path: Path):
    out = tmp_path / "b.svg"
    r = runner.invoke(app, ["svg", DOUBLE_THREE, "-o", str(out), "--numbers"])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    ns = "{http://www.w3.org/2000/svg}"
    marked = [g.get("data-point") for g in root.iter(ns + "g") if g.get("class") == "forbidden"]
    assert marked == ["g8"]


def test_svg_marks_every_forbidden_point_and_stone():
    b = Board.from_stones(black=["g8", "i8", "h9", "h10", "e8", "g10", "i10"])
    fb = {"h8": Foul.DOUBLE_THREE}
    root = ET.fromstring(board_svg(b, forbidden=fb, marks=[Point.parse("a1")]))
    ns = "{http://www.w3.org/2000/svg}"
    stones = [c for c in root.iter(ns + "circle") if "stone" in (c.get("class") or "")]
    assert len(stones) == 7
    titles = [t.text for t in root.iter(ns + "title")]
    assert titles == ["h8: double-three (三三禁手)"]
    assert len([p for p in root.iter(ns + "polygon")]) == 1


def test_match_command_is_registered_when_present():
    names = {c.name or c.callback.__name__ for c in app.registered_commands if c.callback}
    assert {"forbidden", "replay", "openings", "svg"} <= names
    try:
        importlib.import_module("duiyi.cli.gomoku_match")
    except ModuleNotFoundError:
        return
    assert "match" in names


@pytest.mark.parametrize(
    "module",
    [
        "duiyi.gomoku",
        "duiyi.gomoku.point",
        "duiyi.gomoku.board",
        "duiyi.gomoku.fouls",
        "duiyi.gomoku.openings",
        "duiyi.gomoku.rules",
        "duiyi.gomoku.game",
        "duiyi.gomoku.notation",
        "duiyi.gomoku.svg",
        "duiyi.cli.gomoku",
    ],
)
def test_docstring_examples(module: str):
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_forbidden_of_a_game_file(tmp_path: Path):
    f = tmp_path / "pos.sgf"
    f.write_text("(;GM[4]SZ[15]AB[hh][ih][hg][if])", encoding="utf-8")  # h8 i8 h9 i10
    r = runner.invoke(app, ["forbidden", str(f), "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == {"forbidden": {"g8": "double-three"}}


def test_coin_toss_from_the_cli():
    # Gomoku §5.3(2): the winner of the call chooses; C makes the other choose first
    r = runner.invoke(app, ["toss", "Li", "Wang", "--call", "heads", "--seed", "3"])
    assert r.exit_code == 0, r.output
    assert "won the call" in r.output
    winner = "Li" if "Li won" in r.output else "Wang"
    loser = "Wang" if winner == "Li" else "Li"
    r = runner.invoke(
        app,
        [
            "toss",
            "Li",
            "Wang",
            "--seed",
            "3",
            "--choice",
            "opponent_first",
            "--opponent-takes",
            "black",
        ],
    )
    assert r.exit_code == 0 and f"Black: {loser}  White: {winner}" in r.output
    r = runner.invoke(app, ["toss", "Li", "Wang", "--seed", "3", "--choice", "opponent_first"])
    assert r.exit_code != 0


def test_appeal_deadline_from_the_cli(capsys: pytest.CaptureFixture[str]):
    # Gomoku §8.11: within the limit after the round, the organiser's delays excluded
    r = runner.invoke(
        app, ["appeal", "--round-end", "17:00", "--lodged", "17:40", "--limit", "1800"]
    )
    assert r.exit_code == 1 and "too late" in r.output
    r = runner.invoke(
        app,
        [
            "appeal",
            "--round-end",
            "17:00",
            "--lodged",
            "17:40",
            "--limit",
            "1800",
            "--delay",
            "900",
        ],
    )
    assert r.exit_code == 0 and "deadline 17:45: in time" in r.output
    with pytest.raises(SystemExit) as exc:
        main(["gomoku", "toss", "Li", "Wang", "--call", "edge"])
    assert exc.value.code == 2 and "edge" in capsys.readouterr().err
