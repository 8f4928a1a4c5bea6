"""Go rulebook audit (docs/articles-go.md): tournament articles not pinned down elsewhere."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from duiyi.errors import InvalidInput
from duiyi.tournament import tiebreaks as tb
from duiyi.tournament.pairing.matches import match_status, wins_needed
from duiyi.tournament.results import GameResult, Scoring, Table
from duiyi.tournament.standings import default_chain, standings

B, W, D = GameResult.BLACK_WINS, GameResult.WHITE_WINS, GameResult.DRAW


@pytest.mark.parametrize(("games", "needed"), [(3, 2), (5, 3), (7, 4)])
def test_matches_are_best_of_three_to_seven(games: int, needed: int) -> None:
    # Go §26.5: 最少为3局2胜制，最多为7局4胜制
    assert wins_needed(games) == needed
    status = match_status(1, 2, games, [1] * needed)
    assert status.winner == 1
    with pytest.raises(InvalidInput):
        match_status(1, 2, games, [1] * (needed + 1))  # no game after the match is decided


@pytest.mark.parametrize("games", [1, 2, 4, 9])
def test_matches_outside_three_to_seven_are_refused(games: int) -> None:
    # Go §26.5: fewer than 3 or more than 7 games (or an even number) is no 多局决胜制 match
    with pytest.raises(InvalidInput):
        wins_needed(games)


def team_swiss() -> Table:
    # Four teams, two boards, two Swiss rounds (team_a Black on board 1, White on board 2):
    #   R1: T1–T2 2:0 boards (T1 4 game points), T3–T4 1:1 (2 each)
    #   R2: T1–T3 1:1, T4–T2 win + draw (T4 3, T2 1)
    return Table.from_matches(
        [
            (1, 1, 2, [B, W], [True, False]),
            (1, 3, 4, [B, B], [True, False]),
            (2, 1, 3, [B, B], [True, False]),
            (2, 4, 2, [B, D], [True, False]),
        ],
        Scoring.go(),
        rounds=2,
    )


def test_team_swiss_ranks_by_total_score_then_round_robin_order() -> None:
    # Go §27.2(2): 团体成绩根据总得分…总得分计算办法与个人积分编排制比赛相同。若相同则依循环赛
    # 顺序区分名次. Match points: T1 3, T2 0, T3 2, T4 3. Highest = 2 × 2 rounds, half = 2:
    #   T1: 3 + ((0 + 2) / 2 − 2) = 2     T2: 0 + ((3 + 3) / 2 − 2) = 1
    #   T3: 2 + ((3 + 3) / 2 − 2) = 3     T4: 3 + ((2 + 0) / 2 − 2) = 2
    # T1 and T4 tie on total score; game points (round-robin order, §27.2(1)): T1 6, T4 5.
    t = team_swiss()
    assert [t.points(c) for c in (1, 2, 3, 4)] == [3, 0, 2, 3]
    assert [tb.total_score(t, c) for c in (1, 2, 3, 4)] == [F(2), F(1), F(3), F(2)]
    assert [tb.game_points(t, c) for c in (1, 4)] == [6, 5]
    rows = standings(t, default_chain("go", "swiss", team=True, board_count=2))
    assert [r.number for r in rows] == [3, 1, 4, 2]


def test_team_swiss_variant_b_ranks_by_match_points() -> None:
    # Go §27.2(2) "或总积分": ranked by match points, then the round-robin order
    t = team_swiss()
    rows = standings(t, default_chain("go", "swiss", team=True, board_count=2, variant="B"))
    assert [r.number for r in rows] == [1, 4, 3, 2]


def test_team_round_robin_all_equal_shares_the_place() -> None:
    # Go §27.2(1): 场分…局分…第一台棋手的局分…以下依次相比，若全部一样，允许并列 — T1 and T2
    # draw both boards and both beat T3 2:0: equal on every criterion, so they share 1st place;
    # a split on board 1 instead would separate them
    tied = Table.from_matches(
        [
            (1, 1, 2, [D, D], [True, False]),
            (2, 1, 3, [B, W], [True, False]),
            (3, 2, 3, [B, W], [True, False]),
        ],
        Scoring.go(),
        rounds=3,
    )
    rows = standings(tied, default_chain("go", "round-robin", team=True, board_count=2))
    assert [(r.number, r.place) for r in rows] == [(1, 1), (2, 1), (3, 3)]
    split = Table.from_matches(
        [
            (1, 1, 2, [B, B], [True, False]),  # T1 wins board 1, T2 wins board 2
            (2, 1, 3, [B, W], [True, False]),
            (3, 2, 3, [B, W], [True, False]),
        ],
        Scoring.go(),
        rounds=3,
    )
    rows = standings(split, default_chain("go", "round-robin", team=True, board_count=2))
    assert [(r.number, r.place) for r in rows] == [(1, 1), (2, 2), (3, 3)]
    assert rows[0].values[:2] == rows[1].values[:2]  # match and game points equal
