"""The KGS archive (733 games of January 2017, 6-dan+): replay every game, recount every counted one.

The archive is read from ``tests/data/go`` and extracted into a temporary folder. Every move of every game must be legal under its rules (Go §2–§6), and for
every game that ended by counting, duiyi's count with the dead stones of the final TB/TW markers
must give the recorded RE exactly:

* Chinese (Go §9, §11): area in stones − komi − handicap return. KGS records the komi in points
  (KM[7.50] = 3¾ stones) and applies it in handicap games too (KM[0.50] = ¼ stone); its
  "handicap count" (one point per stone) is the book's ½ stone per stone (scoring-variants).
* Japanese: territory + prisoners + komi, territory being the marked points (players mark dame
  and seki by hand on KGS, so the markers are what both accepted).
* AGA (one game): area counted in points.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from duiyi.go import sgf

pytestmark = pytest.mark.slow


def test_the_archive_has_733_games(kgs_files: list[Path]) -> None:
    assert len(kgs_files) == 733


def test_every_game_replays_and_every_count_matches(kgs_files: list[Path]) -> None:
    replayed = counted = matched = 0
    moves = 0
    by_rules: Counter[str] = Counter()
    mismatches: list[str] = []
    for path in kgs_files:
        sg = sgf.read_game(path.read_bytes())  # raises IllegalMove at the first illegal move
        replayed += 1
        moves += len(sg.game.moves)
        result = sg.result
        if result is None or result.reason != "score":
            continue
        counted += 1
        by_rules[sg.game.rules.name] += 1
        score = sgf.score_from_markers(sg.game, sg.last_node)
        if sgf.SgfResult.parse(score.sgf_result) == result:
            matched += 1
        else:
            mismatches.append(f"{path.name}: duiyi {score.sgf_result}, recorded {result}")
    print(f"KGS: replayed {replayed} games ({moves} moves), counted {counted}, matched {matched}")
    print(f"counted games by rules: {dict(by_rules)}")
    assert replayed == 733
    assert counted == 149
    assert by_rules == {"japanese": 118, "chinese": 30, "aga": 1}
    assert mismatches == []
    assert matched == counted


def test_chinese_handicap_games_return_half_a_stone_per_stone(kgs_files: list[Path]) -> None:
    # scoring-variants: 讓子要貼還讓子數的一半 — Black returns H/2 stones; on KGS "handicap count".
    seen = 0
    for path in kgs_files:
        text = path.read_bytes()
        if b"RU[Chinese]" not in text or b"HA[" not in text:
            continue
        sg = sgf.read_game(text)
        if sg.result is None or sg.result.reason != "score":
            continue
        score = sgf.score_from_markers(sg.game, sg.last_node)
        assert score.handicap_return * 2 == sg.game.handicap
        seen += 1
    assert seen == 13


def test_alphago_zero_games_replay(alphago_zero_files: list[Path]) -> None:
    # The 83 AlphaGo Zero games (Chinese rules, komi 7.5): every move legal (Go §2–§6).
    games = [sgf.read_game(p.read_bytes()) for p in alphago_zero_files]
    assert len(games) == 83
    assert all(g.game.rules.name == "chinese" and g.game.rules.komi == 3.75 for g in games)
    assert all(not g.warnings for g in games)


def test_every_kgs_file_round_trips_through_the_writer(kgs_files: list[Path]) -> None:
    for path in kgs_files:
        coll = sgf.parse(path.read_bytes())
        written = sgf.serialise(coll)
        again = sgf.parse(written)
        assert [n.properties for n in again.games[0].walk()] == [
            n.properties for n in coll.games[0].walk()
        ], path.name
        # lines break between values; only closing parentheses may stick out
        assert all(len(line.rstrip(")")) <= 79 for line in written.splitlines()), path.name
