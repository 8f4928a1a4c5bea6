"""Japanese territory counting against the KGS archive (scoring-variants 日韓規則; DECISIONS:
territory + prisoners, 公活無目).

Every counted Japanese game of ``kgs-2017-01.tar.gz`` (118 of the 149 counted games) is replayed
with ``duiyi.go.sgf``; the dead stones of the final TB/TW markers are applied with
``Game.set_dead`` and the core's own count (``Game.score()``: territory, seki and 手入れ found by
:mod:`duiyi.go.scoring`, never read from the markers) must give the recorded RE, and its
territory must be exactly the points KGS marked.

Measured: 27 of 118 before the seki fix (commit 2d2437a), 106 of 118 before this counting
(dame next to a chain that must connect inside its own territory, 手入れ), 117 of 118 now.
The one left is listed in ``INCONSISTENT`` with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duiyi import BLACK, WHITE
from duiyi.go import Point, sgf
from duiyi.go.rules import Scoring

pytestmark = pytest.mark.slow

# The records whose RE the Japanese count cannot give, with the reason.
INCONSISTENT = {
    # Counted with the board still open: 144 of 361 points neutral (the whole lower middle).
    # KGS withheld M17 and E4, one-point holes between loose black stones standing in that
    # open area (L17/M18 and D4/E3/F4 are joined to nothing yet); whether they are eyes or
    # connection points depends on how the open area would be played, so the record is not a
    # finished position an arbiter could count (RE W+20.5; duiyi W+18.5 with both as territory).
    "2017-01-31-2.sgf": ("W+18.5", frozenset({Point.parse("M17"), Point.parse("E4")})),
}


def _marked(node: sgf.SgfNode, game_board_size: int, ident: str) -> set[Point]:
    return set(sgf.decode_points(node.values(ident), game_board_size))


def test_every_counted_japanese_game_scores_as_recorded(kgs_files: list[Path]) -> None:
    # scoring-variants 日韓規則: 數目法 (territory + prisoners), 公活無目; KGS writes KM[6.50]
    # for even games and KM[0.50] in handicap games, read by rules_from_sgf.
    counted = matched = with_teire = with_seki = 0
    mismatches: list[str] = []
    inconsistent_seen: dict[str, str] = {}
    for path in kgs_files:
        sg = sgf.read_game(path.read_bytes())
        result = sg.result
        if result is None or result.reason != "score":
            continue
        game = sg.game
        if game.rules.scoring is not Scoring.TERRITORY:
            continue
        counted += 1
        assert game.rules.name == "japanese"
        game.set_dead(sg.dead_from_markers())  # Go §8: the agreed dead stones
        score = game.score()
        with_teire += bool(score.teire)
        with_seki += bool(score.seki)
        node, board = sg.last_node, game.board
        # marked points that are empty or hold a dead stone of the other colour
        tb = {p for p in _marked(node, board.size, "TB") if board.get(p) is not BLACK}
        tw = {p for p in _marked(node, board.size, "TW") if board.get(p) is not WHITE}
        if path.name in INCONSISTENT:
            inconsistent_seen[path.name] = score.sgf_result
            expected_re, extra = INCONSISTENT[path.name]
            assert score.sgf_result == expected_re
            assert score.black_territory - tb == extra and tw == score.white_territory
            continue
        if sgf.SgfResult.parse(score.sgf_result) == result:
            matched += 1
        else:
            mismatches.append(f"{path.name}: duiyi {score.sgf_result}, recorded {result}")
        # the territory itself, point by point (a dead stone's point is territory too)
        assert score.black_territory == tb, path.name
        assert score.white_territory == tw, path.name
    print(f"KGS Japanese: counted {counted}, matched {matched}, inconsistent {inconsistent_seen}")
    print(f"games with teire points: {with_teire}, with seki: {with_seki}")
    assert counted == 118
    assert mismatches == []
    assert matched == counted - len(INCONSISTENT)
    assert set(inconsistent_seen) == set(INCONSISTENT)
    assert with_teire >= 10 and with_seki >= 1  # both rules are exercised by real games
