"""The desk's data operations (issue 10): one player at a time, edits and removals before a
player's first pairing, plain name lists and the usual CSV headers, numbers drawn by lot
(appendix 五), and the result record from the CLI (force, conflicts, penalties)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from tests.tournament.conftest import run

from duiyi.errors import TournamentError
from duiyi.tournament.event import (
    add_players,
    draw_numbers,
    new_event,
    pair_next_round,
    withdraw,
)
from duiyi.tournament.formats.csvfiles import parse_players
from duiyi.tournament.model import Event, Player
from duiyi.tournament.roster import edit_player, remove_player


def _swiss(names: str = "ABCDE") -> Event:
    return add_players(new_event("t", "go", "swiss", 3), [Player(0, n) for n in names])


def test_plain_list_and_chinese_headers() -> None:
    assert [p.name for p in parse_players("\ufeffLi Wei\n\nZhang Min\n王芳\n")] == [
        "Li Wei",
        "Zhang Min",
        "王芳",
    ]
    rows = parse_players("姓名,段位,等级分,单位,国家\n李昂,5段,2400,北京,CN\n陈,2级,,杭州,CN\n")
    assert [(p.name, p.rank, p.rating, p.club) for p in rows] == [
        ("李昂", "5d", 2400, "北京"),
        ("陈", "2k", None, "杭州"),
    ]
    assert dict(rows[0].extra) == {"country": "CN"}
    tabbed = parse_players("Name\tRank\tClub\nAn\t3d\tA\n")
    assert (tabbed[0].name, tabbed[0].rank, tabbed[0].club) == ("An", "3d", "A")
    with pytest.raises(TournamentError, match="name"):
        parse_players("rank,club\n3d,A\n")


def test_edit_and_remove_only_before_the_first_pairing() -> None:
    e = _swiss("ABCD")
    e = edit_player(e, 4, name="Dee", rating=2100)
    assert (e.player(4).name, e.player(4).rating) == ("Dee", 2100)
    e, _ = pair_next_round(e, random.Random(0))
    # a late entry (Swiss) can still be corrected or removed until it is paired
    e = add_players(e, [Player(0, "Late"), Player(0, "Later")])
    e = edit_player(e, 5, club="X")
    e = remove_player(e, 5)
    assert [p.name for p in e.players] == ["A", "B", "C", "Dee", "Later"]
    assert e.player(5).name == "Later"
    with pytest.raises(TournamentError, match="already paired"):
        edit_player(e, 1, name="Z")
    with pytest.raises(TournamentError, match="withdraws instead"):
        remove_player(e, 2)
    # Go §28.1: before round 1 a withdrawal is a removal too (with a new draw)
    assert len(withdraw(_swiss(), 1, random.Random(1)).players) == 4


def test_removal_renumbers_everything_after() -> None:
    e = _swiss("ABCD")
    e, _ = pair_next_round(e, random.Random(0))
    for g in e.round(1).games:
        from duiyi.tournament.event import enter_result
        from duiyi.tournament.results import GameResult

        e = enter_result(e, 1, g.board, GameResult.BLACK_WINS)
    e = add_players(e, [Player(0, "E"), Player(0, "F")])
    e = withdraw(e, 6)
    e = remove_player(e, 5)
    assert [(w.player, w.after_round) for w in e.withdrawals] == [(5, 1)]
    assert Event.from_json(e.to_json()) == e


def test_draw_numbers_is_a_permutation_from_the_given_randomness() -> None:
    # appendix 五.2(1): numbers drawn by lot; the same seed gives the same draw
    e = _swiss("ABCDEFGH")
    a, b = draw_numbers(e, random.Random(5)), draw_numbers(e, random.Random(5))
    assert a == b
    assert sorted(p.name for p in a.players) == sorted("ABCDEFGH")
    assert [p.number for p in a.players] == list(range(1, 9))
    assert [p.name for p in a.players] != list("ABCDEFGH")


def test_cli_data_operations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev = str(tmp_path / "club.json")
    assert (
        run(capsys, "event", "new", ev, "--game", "go", "--system", "swiss", "--rounds", "2")[0]
        == 0
    )
    names = tmp_path / "names.txt"
    names.write_text("An\nBo\nCe\n", encoding="utf-8")
    assert run(capsys, "event", "players", ev, "--add", str(names))[0] == 0
    code, out, _ = run(capsys, "event", "add-player", ev, "Di", "--rank", "2段", "--club", "D")
    assert code == 0 and "entered 4 Di" in out
    code, out, _ = run(capsys, "event", "edit-player", ev, "4", "--rating", "2050")
    assert code == 0 and "2d" in out and "2050" in out
    assert run(capsys, "event", "add-player", ev, "Oops")[0] == 0
    code, out, _ = run(capsys, "event", "remove-player", ev, "5")
    assert code == 0 and "4 player(s) left" in out
    assert run(capsys, "event", "pair", ev)[0] == 0
    code, _, err = run(capsys, "event", "remove-player", ev, "1")
    assert code == 2 and "withdraws instead" in err
    for board in (1, 2):
        argv = ["event", "result", ev, "--round", "1", "--board", str(board), "--result", "1-0"]
        assert run(capsys, *argv)[0] == 0
    assert run(capsys, "event", "pair", ev)[0] == 0
    # a change to round 1 once round 2 is paired needs --force and names the pairings
    argv = ["event", "result", ev, "--round", "1", "--board", "1", "--result", "0-1"]
    code, _, err = run(capsys, *argv)
    assert code == 2 and "force" in err
    code, out, err = run(capsys, *argv, "--force")
    assert code == 0 and "paired on the old result" in err
    data = json.loads(Path(ev).read_text(encoding="utf-8"))
    board = data["history"][0]["games"][0]
    assert board["source"] == "director" and board["trail"][-1]["previous"]["result"] == "1-0"
    code, _, err = run(capsys, "event", "conflict", ev, "--round", "1", "--board", "1", "--accept")
    assert code == 2 and "no conflict" in err


def test_cli_penalty_counts_one_sided(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Gomoku §2.20(3) from the CLI: the offender loses, the opponent keeps the board's draw
    ev = str(tmp_path / "renju.json")
    run(capsys, "event", "new", ev, "--game", "gomoku", "--system", "swiss", "--rounds", "2")
    for name in ("An", "Bo"):
        run(capsys, "event", "add-player", ev, name)
    run(capsys, "event", "pair", ev)
    argv = ["event", "result", ev, "--round", "1", "--board", "1", "--result", "draw"]
    assert run(capsys, *argv, "--penalty", "white")[0] == 0
    _, out, _ = run(capsys, "event", "standings", ev, "--format", "json")
    points = {row["name"]: row["points"] for row in json.loads(out)["standings"]}
    assert points == {"An": "1/2", "Bo": "0"}


def test_a_team_lot_numbers_teams_among_teams_and_keeps_every_team() -> None:
    # Go appendix 五.2(1): the lot numbers "全体棋手(或队)"; Gomoku §16.2(1) 分台定人制: a team's
    # board order is fixed at entry ("不得更改台次"): nobody changes team or board
    rows = [
        Player(0, f"{t}{b}", extra=(("team", t),))
        for t in ("北京队", "上海队", "杭州队")
        for b in (1, 2, 3)
    ]
    e = add_players(new_event("t", "gomoku", "round-robin", 0, {"team": True, "boards": 3}), rows)
    before = {t.name: [e.player(m).name for m in t.members] for t in e.teams}
    for seed in range(6):
        drawn = draw_numbers(e, random.Random(seed))
        assert {t.name: [drawn.player(m).name for m in t.members] for t in drawn.teams} == before
        assert all(
            dict(drawn.player(m).extra)["team"] == t.name for t in drawn.teams for m in t.members
        )
        # players are numbered team after team in the drawn order, board 1 first
        assert [m for t in drawn.teams for m in t.members] == list(range(1, 10))
    orders = {tuple(t.name for t in draw_numbers(e, random.Random(s)).teams) for s in range(6)}
    assert len(orders) > 1  # the teams' order is drawn
    assert Event.from_json(drawn.to_json()) == drawn
