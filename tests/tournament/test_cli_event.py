"""``duiyi event``: the full flow, error exits (code 2, one line) and atomic writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.tournament.conftest import run, start_event

PLAYERS = "name,rank,rating,club,country\n" + "".join(
    f"P{i},{i}k,{2000 - 50 * i},C{i % 3},CN\n" for i in range(1, 8)
)


@pytest.fixture
def event_dir(tmp_path: Path) -> Path:
    (tmp_path / "players.csv").write_text(PLAYERS, encoding="utf-8")
    return tmp_path


def paired_round_robin(event_dir: Path, capsys: pytest.CaptureFixture[str], game: str) -> str:
    """``e.json``: a round robin of the seven players with round 1 paired; its path."""
    ev = str(event_dir / "e.json")
    start_event(capsys, ev, event_dir / "players.csv", "--game", game, "--system", "round-robin")
    code, _, err = run(capsys, "event", "pair", ev)
    assert code == 0, err
    return ev


def test_full_event_flow(event_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev = str(event_dir / "open.json")
    assert (
        run(capsys, "event", "new", ev, "--game", "go", "--system", "swiss", "--rounds", "3")[0]
        == 0
    )
    code, out, _ = run(capsys, "event", "players", ev, "--add", str(event_dir / "players.csv"))
    assert code == 0 and out.splitlines()[1].startswith("1,P1,1k,1950")
    # round 1 (Go appendix 五.2(1)): 1–2, 3–4, 5–6, smaller number Black; 7 gets the bye
    code, out, _ = run(capsys, "event", "pair", ev, "--format", "json")
    doc = json.loads(out)
    assert doc == {
        "round": 1,
        "pairings": [
            {"board": 1, "black": 1, "white": 2},
            {"board": 2, "black": 3, "white": 4},
            {"board": 3, "black": 5, "white": 6},
        ],
        "byes": [7],
    }
    # pairing before the results are in is refused, one line, exit 2
    code, out, err = run(capsys, "event", "pair", ev)
    assert code == 2 and err.count("\n") == 1 and "board(s) 1, 2, 3" in err
    assert (
        run(capsys, "event", "result", ev, "--round", "1", "--board", "1", "--result", "1-0")[0]
        == 0
    )
    sheet = event_dir / "r1.csv"
    sheet.write_text("round,board,result\n1,2,0-1\n1,3,draw\n", encoding="utf-8")
    assert run(capsys, "event", "result", ev, "--file", str(sheet))[0] == 0
    code, out, _ = run(capsys, "event", "pair", ev, "--explain")
    doc = json.loads(out)
    assert doc["round"] == 2 and all("reason" in p for p in doc["pairings"])
    assert 7 not in doc["byes"]  # a second bye goes to someone else
    assert run(capsys, "event", "simulate", ev, "--rounds", "0")[0] == 2
    # finish round 2 by hand, then simulate nothing more: standings
    data = json.loads(Path(ev).read_text(encoding="utf-8"))
    for g in data["history"][1]["games"]:
        code, _, _ = run(
            capsys, "event", "result", ev, "--round", "2", "--board", str(g["board"]),
            "--result", "0-1",
        )  # fmt: skip
        assert code == 0
    code, out, _ = run(capsys, "event", "standings", ev, "--format", "json")
    st = json.loads(out)
    assert [t["name"] for t in st["tiebreaks"]] == ["total-score", "warnings"]
    assert sorted(r["number"] for r in st["standings"]) == list(range(1, 8))
    assert st["standings"][0]["rounds"]["1"]
    code, out, _ = run(capsys, "event", "standings", ev)
    assert code == 0 and "standings after round 2" in out
    html_path = event_dir / "wall.html"
    assert (
        run(capsys, "event", "standings", ev, "--format", "html", "--output", str(html_path))[0]
        == 0
    )
    assert "<table>" in html_path.read_text(encoding="utf-8")
    # withdraw and simulate the last round
    assert run(capsys, "event", "withdraw", ev, "3")[0] == 0
    assert run(capsys, "event", "simulate", ev, "--rounds", "1", "--seed", "3")[0] == 0
    data = json.loads(Path(ev).read_text(encoding="utf-8"))
    assert all(3 not in (g["black"], g["white"]) for g in data["history"][2]["games"])
    # all rounds paired
    code, _, err = run(capsys, "event", "pair", ev)
    assert code == 2 and "all 3 rounds" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["result", "{ev}", "--round", "1", "--board", "9", "--result", "1-0"], "no board 9"),
        (["result", "{ev}", "--round", "4", "--board", "1", "--result", "1-0"], "not been paired"),
        (["result", "{ev}", "--round", "1", "--board", "1", "--result", "2-0"], "not a result"),
        (["withdraw", "{ev}", "42"], "unknown player 42"),
        (["players", "{ev}", "--add", "{dir}/nope.csv"], "no such players file"),
        (["new", "{ev}", "--game", "go", "--system", "swiss"], "already exists"),
        (["new", "{dir}/x.json", "--game", "chess", "--system", "swiss"], "unknown game"),
        (["new", "{dir}/x.json", "--game", "go", "--system", "ladder"], "unknown system"),
        (["standings", "{dir}/none.json"], "no such event file"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    event_dir: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    ev = paired_round_robin(event_dir, capsys, "gomoku")
    before = Path(ev).read_bytes()
    argv = [a.format(ev=ev, dir=event_dir) for a in args]
    code, _, err = run(capsys, "event", *argv)
    assert code == 2
    assert err.startswith("duiyi: error: ") and err.count("\n") == 1
    assert message in err
    assert Path(ev).read_bytes() == before  # a refused command never touches the file


def test_results_sheet_is_all_or_nothing(
    event_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ev = paired_round_robin(event_dir, capsys, "go")
    before = Path(ev).read_bytes()
    sheet = event_dir / "bad.csv"
    sheet.write_text("round,board,result\n1,1,1-0\n1,7,1-0\n", encoding="utf-8")
    code, _, err = run(capsys, "event", "result", ev, "--file", str(sheet))
    assert code == 2 and "no board 7" in err
    assert Path(ev).read_bytes() == before
    assert not [p for p in event_dir.iterdir() if p.name.startswith(".e.json")]


def test_opengotha_export_import(event_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev = str(event_dir / "e.json")
    start_event(
        capsys, ev, event_dir / "players.csv", "--game", "go", "--system", "swiss", "--rounds", "2"
    )
    run(capsys, "event", "simulate", ev, "--rounds", "2", "--seed", "9")
    xml = event_dir / "e.xml"
    assert run(capsys, "event", "export", ev, "--opengotha", str(xml))[0] == 0
    ev2 = str(event_dir / "e2.json")
    code, out, _ = run(capsys, "event", "import", ev2, "--opengotha", str(xml))
    assert code == 0 and "7 players, 2 round(s)" in out
    a = json.loads(Path(ev).read_text(encoding="utf-8"))
    b = json.loads(Path(ev2).read_text(encoding="utf-8"))
    # Every imported result is recorded as an import (an online game never overwrites it).
    imported = [g for r in b["history"] for g in r["games"]]
    assert imported and all(g.pop("source") == "import" for g in imported)
    assert a["history"] == b["history"]


def test_promotion_command(capsys: pytest.CaptureFixture[str]) -> None:
    # Go 附表四/五: eight wins against 1 dan average 90: promoted to 2 dan
    code, out, _ = run(
        capsys, "event", "promotion", "--dan", "1", "--games", ",".join(["1:win"] * 8)
    )
    doc = json.loads(out)
    assert code == 0 and doc["qualified"] and doc["to_dan"] == 2 and doc["average"] == "90"


def test_team_event_flow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Go §25.2, §27.2: a team round robin run from the CLI, standings by match points
    csv = tmp_path / "teams.csv"
    csv.write_text(
        "name,rank,rating,club,team\n"
        + "".join(
            f"{t}{b},{b}d,{2400 - 100 * b},,{t}\n"
            for t in ("Red", "Blue", "Gold")
            for b in (1, 2, 3)
        ),
        encoding="utf-8",
    )
    ev = str(tmp_path / "t.json")
    assert run(capsys, "event", "new", ev, "--game", "go", "--system", "round-robin")[0] == 0
    assert run(capsys, "event", "players", ev, "--add", str(csv))[0] == 0
    code, out, _ = run(capsys, "event", "pair", ev)
    doc = json.loads(out)
    assert code == 0 and len(doc["pairings"]) == 3 and len(doc["byes"]) == 3
    sheet = tmp_path / "r.csv"
    sheet.write_text("round,board,result\n1,1,1-0\n1,2,1-0\n1,3,draw\n", encoding="utf-8")
    assert run(capsys, "event", "result", ev, "--file", str(sheet))[0] == 0
    code, out, _ = run(capsys, "event", "standings", ev, "--format", "json")
    st = json.loads(out)
    assert st["teams"] is True
    assert [t["name"] for t in st["tiebreaks"]] == [
        "points",
        "game-points",
        "board:1",
        "board:2",
        "board:3",
    ]
    played = [row for row in st["standings"] if row["rounds"]]
    assert sorted(row["points"] for row in played) == ["1", "1"]  # 3 game points each: drawn match


def test_drawn_lots_make_the_standings_a_total_order(
    event_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Go §27.1(1)C: when points, SB and warnings are equal, lots decide
    ev = paired_round_robin(event_dir, capsys, "go")
    sheet = event_dir / "draws.csv"
    sheet.write_text("round,board,result\n1,1,draw\n1,2,draw\n1,3,draw\n", encoding="utf-8")
    run(capsys, "event", "result", ev, "--file", str(sheet))
    _, out, _ = run(capsys, "event", "standings", ev, "--format", "json")
    assert len({r["place"] for r in json.loads(out)["standings"]}) < 7  # shared places
    code, out, _ = run(capsys, "event", "lots", ev, "--seed", "5")
    assert code == 0 and sorted(json.loads(out).values()) == list(range(1, 8))
    _, out, _ = run(capsys, "event", "standings", ev, "--format", "json")
    rows = json.loads(out)["standings"]
    assert [r["place"] for r in rows] == list(range(1, 8))


def test_new_with_system_options(event_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Go appendix 四: groups dealt serpentine; options reach the event file as JSON values
    ev = str(event_dir / "g.json")
    code, _, _ = run(
        capsys, "event", "new", ev, "--game", "go", "--system", "groups", "--option", "groups=2"
    )
    assert code == 0
    run(capsys, "event", "players", ev, "--add", str(event_dir / "players.csv"))
    assert run(capsys, "event", "simulate", ev, "--rounds", "3", "--seed", "1")[0] == 0
    _, out, _ = run(capsys, "event", "standings", ev, "--format", "json")
    rows = json.loads(out)["standings"]
    assert {r["group"] for r in rows} == {1, 2}
    code, _, err = run(capsys, "event", "new", str(event_dir / "h.json"), "--game", "go",
                       "--system", "swiss", "--option", "nonsense")  # fmt: skip
    assert code == 2 and "KEY=VALUE" in err
