"""Article-by-article gaps of the Gomoku standings (Gomoku §18; docs/articles-gomoku.md)."""

from __future__ import annotations

from fractions import Fraction as F

from duiyi.tournament import tiebreaks as tb
from duiyi.tournament.pairing.relay import relay
from duiyi.tournament.results import GameResult, Scoring, Table
from duiyi.tournament.standings import default_chain, standings

B, W, D = GameResult.BLACK_WINS, GameResult.WHITE_WINS, GameResult.DRAW

# A team Swiss of four teams, two boards, two rounds, Gomoku points (§18.1: 1, ½, 0 for
# matches and games alike). The flag list says, board by board, whether the first team has
# Black.
#
#   round 1: T1–T2 1½–½ (board 1 T1 Black wins, board 2 drawn)
#            T3–T4 2–0  (board 1 T3 Black wins, board 2 T3 White wins)
#   round 2: T1–T3 1–1  (board 1 T1 Black wins, board 2 T3 Black wins)
#            T2–T4 2–0  (board 1 T2 Black wins, board 2 T2 White wins)
#
#   team  match pts  opponents  Buchholz   game pts  board 1  board 2
#   T1    1½         T2 T3      1 + 1½ = 2½   2½       2        ½
#   T2    1          T1 T4      1½ + 0 = 1½   2½       1        1½
#   T3    1½         T4 T1      0 + 1½ = 1½   3        1        2
#   T4    0          T3 T2      1½ + 1 = 2½   0        0        0
MATCHES = [
    (1, 1, 2, [B, D], [True, False]),
    (1, 3, 4, [B, W], [True, False]),
    (2, 1, 3, [B, B], [True, False]),
    (2, 2, 4, [B, W], [True, False]),
]


def team_swiss() -> Table:
    return Table.from_matches(MATCHES, Scoring.gomoku(), rounds=2)


def test_team_match_and_game_points_score_one_half_zero() -> None:
    # Gomoku §18.1: "不论次、场、局记分，比赛胜者均记 1 分，和者记 0.5 分，负者记 0 分"
    t = team_swiss()
    assert [t.points(c) for c in (1, 2, 3, 4)] == [F(3, 2), 1, F(3, 2), 0]
    assert [tb.game_points(t, c) for c in (1, 2, 3, 4)] == [F(5, 2), F(5, 2), 3, 0]
    assert [tb.board_points(t, c, 2) for c in (1, 2, 3, 4)] == [F(1, 2), F(3, 2), 2, 0]


def test_team_swiss_ranks_by_opponents_match_points_before_game_points() -> None:
    # Gomoku §18.4(2): 团体次分, then A 对手次分 (Buchholz), B 中间对手次分, C 局分, boards.
    # T1 and T3 tie on 1½ match points; T1's opponents scored 2½, T3's 1½, so T1 ranks
    # first although T3 has more game points (3 against 2½).
    t = team_swiss()
    assert [tb.buchholz(t, c) for c in (1, 3)] == [F(5, 2), F(3, 2)]
    chain = default_chain("gomoku", "swiss", team=True, board_count=2)
    assert [c.name for c in chain] == [
        "points",
        "buchholz",
        "median-buchholz",
        "game-points",
        "board:1",
        "board:2",
    ]
    rows = standings(t, chain)
    assert [r.number for r in rows] == [1, 3, 2, 4]
    # the round-robin chain (§18.3(2): game points before SB) orders the same tie the other way
    rr = standings(t, default_chain("gomoku", "round-robin", team=True, board_count=2))
    assert [r.number for r in rr][:2] == [3, 1]


def test_team_swiss_falls_back_to_game_points_then_boards() -> None:
    # Gomoku §18.4(2)C: equal match points and equal (median) Buchholz: game points, then
    # board 1, board 2, ... ("依次比较由高到低（1-n 台）的局分")
    games = [
        (1, 1, 2, [B, D], [True, False]),  # T1 1½ – ½
        (1, 3, 4, [B, D], [True, False]),  # T3 1½ – ½
    ]
    t = Table.from_matches(games, Scoring.gomoku(), rounds=1)
    chain = default_chain("gomoku", "swiss", team=True, board_count=2)
    rows = standings(t, chain)
    # T1 and T3: 1 match point, Buchholz 0, game points 1½, board 1 = 1: still tied
    assert rows[0].values == rows[1].values and rows[0].place == rows[1].place == 1
    games[1] = (1, 3, 4, [D, W], [True, False])  # T3: board 1 drawn, board 2 won: 1½ – ½
    t = Table.from_matches(games, Scoring.gomoku(), rounds=1)
    rows = standings(t, chain)
    assert [r.number for r in rows][:2] == [1, 3]  # equal game points, T1 better on board 1


def test_relay_teams_out_earlier_rank_lower() -> None:
    # Gomoku §17.5: "败一场的棋手不再参赛 ... 结束比赛越早的队名次越靠后"
    lineups = [[1, 2], [3, 4], [5, 6]]
    results: list[int | None] = [1, 5, 5]  # 1 beats 3, 5 beats 1, 5 beats 2: team 0 is out
    state = relay(lineups, results)
    assert state.remaining[0] == () and state.winner is None
    assert state.ranking[-1] == 0  # out first, ranked last while the others play on
    results += [4, 6]  # 4 beats 5, 6 beats 4: team 1 is out, team 2 still has a player
    state = relay(lineups, results)
    assert state.next_game is None and state.winner == 2
    assert state.ranking == (2, 1, 0)
