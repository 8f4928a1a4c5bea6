"""The dead-stone proposal against the dead stones agreed by 6-dan+ players on KGS (Go §8, §21).

Every game of the January 2017 archive that ended by counting carries the final territory
markers on its last node; stones standing on the other colour's territory are the dead stones
both players accepted. The automatic proposal must give exactly that set on at least 95% of
those games (issue 2). Known misses are listed in docs/decisions.md ("Go: dead-stone proposal").
The four counted AlphaGo Zero self-play games are a second check: counted with the proposal,
they give their recorded results.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from duiyi.go import Point, sgf
from duiyi.go.life import Status, explain, propose_dead
from duiyi.go.scoring import score_position

pytestmark = pytest.mark.slow


def half(name: str) -> str:
    return "A" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "B"


def test_proposal_matches_the_agreed_dead_stones(kgs_files: list[Path]) -> None:
    counted = matched = 0
    by_half = {"A": [0, 0], "B": [0, 0]}
    misses: list[str] = []
    for path in kgs_files:
        data = path.read_bytes()
        if b"TB[" not in data and b"TW[" not in data:
            continue
        sg = sgf.read_game(data)
        if sg.result is None or sg.result.reason != "score":
            continue
        counted += 1
        agreed = sg.dead_from_markers()
        proposed = propose_dead(sg.game.board, sg.game.rules)
        by_half[half(path.name)][1] += 1
        if proposed == agreed:
            matched += 1
            by_half[half(path.name)][0] += 1
        else:
            extra = " ".join(sorted(map(str, proposed - agreed)))
            missing = " ".join(sorted(map(str, agreed - proposed)))
            misses.append(f"{path.name}: proposed only [{extra}], agreed only [{missing}]")
    rate = matched / counted
    print(f"dead-stone proposal: {matched}/{counted} games exactly as agreed ({rate:.1%})")
    print("\n".join(misses))
    print(f"half A {by_half['A']}, half B {by_half['B']}")
    assert counted == 149
    assert by_half["A"][1] == 66 and by_half["B"][1] == 83
    # the figures measured for issue 13 (96.0% overall); a regression on either half fails
    assert by_half["A"][0] >= 65
    assert by_half["B"][0] >= 79
    assert rate >= 0.95


def test_alphago_zero_counted_games_score_as_recorded(alphago_zero_files: list[Path]) -> None:
    # Go §9 with the proposal as the agreed dead stones: the four AlphaGo Zero self-play games
    # that were counted (Chinese rules, komi 7.5) give exactly their recorded result; without
    # removing dead stones every one of them would be counted wrongly.
    counted = 0
    for path in alphago_zero_files:
        sg = sgf.read_game(path.read_bytes())
        if sg.result is None or sg.result.reason != "score":
            continue
        counted += 1
        g = sg.game
        proposed = propose_dead(g.board, g.rules)
        score = score_position(g.board, g.rules, proposed, g.handicap, g.captures)
        bare = score_position(g.board, g.rules, frozenset(), g.handicap, g.captures)
        assert sgf.SgfResult.parse(score.sgf_result) == sg.result, path.name
        assert sgf.SgfResult.parse(bare.sgf_result) != sg.result, path.name
    assert counted == 4


def test_multi_group_seki_is_read_out(kgs_files: list[Path]) -> None:
    # Go §8.1: in 2017-01-02-27 white's 17-stone chain D8-G15 has three liberties (E9-E11), all
    # shared with black's 19-stone chain E8-J13, whose fourth liberty J14 is shared with white's
    # 45-stone group. Black filling E9-E11 first is taken, white filling them is taken: a seki
    # of three groups, agreed by the players; the race reading finds it.
    (path,) = [p for p in kgs_files if p.name == "2017-01-02-27.sgf"]
    sg = sgf.read_game(path.read_bytes())
    board = sg.game.board
    verdicts = {p: g for g in explain(board) for p in g.stones}
    for name in ("D12", "E12"):
        group = verdicts[Point.parse(name, 19)]
        assert group.status is Status.SEKI, name
        assert group.reason.startswith("seki: read out"), name
    assert propose_dead(board) == sg.dead_from_markers()
