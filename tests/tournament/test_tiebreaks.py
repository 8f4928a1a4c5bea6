"""Every tiebreak on small crosstables computed by hand (Go §27, Gomoku §18)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from duiyi.errors import TournamentError
from duiyi.tournament import tiebreaks as tb
from duiyi.tournament.results import GameResult, Scoring, Table
from duiyi.tournament.standings import default_chain, standings

B, W, D = GameResult.BLACK_WINS, GameResult.WHITE_WINS, GameResult.DRAW

# Crosstable 1: a Go round robin of four (Go §27.1(1)), points 2/1/0.
#
#        1    2    3    4  | pts | SB
#   1    ·    W    D    L  |  3  | 4 + ½·3 = 5½
#   2    L    ·    W    W  |  4  | 3 + 2   = 5
#   3    D    L    ·    W  |  3  | ½·3 + 2 = 3½
#   4    W    L    L    ·  |  2  | 3       = 3
ROUND_ROBIN = [
    (1, 1, 2, B),  # 1 beats 2
    (1, 3, 4, B),  # 3 beats 4
    (2, 1, 3, D),  # 1 draws 3
    (2, 2, 4, B),  # 2 beats 4
    (3, 4, 1, B),  # 4 beats 1
    (3, 3, 2, W),  # 2 beats 3
]

# Crosstable 2: a Swiss of five over three rounds with byes (Go appendix 五), Go points.
#
#   round 1: 1(B)–2(W) 1-0   3(B)–4(W) 0-1   5 bye
#   round 2: 4(B)–1(W) draw  5(B)–2(W) 1-0   3 bye
#   round 3: 1(B)–5(W) 0-1   2(B)–3(W) 1-0   4 bye
#
#   no  R1   R2   R3  | pts | opponents | Buchholz | median (−1,−1) | rating
#   1   2+   4=   5-  |  3  | 2 4 5     | 2+5+6=13 | 5              | 2300
#   2   1-   5-   3+  |  2  | 1 5 3     | 3+6+2=11 | 3              | 2200
#   3   4-   bye  2-  |  2  | 4 2       | 5+2=7    | 0              | 2100
#   4   3+   1=   bye |  5  | 3 1       | 2+3=5    | 0              | 2000
#   5   bye  2+   1+  |  6  | 2 1       | 2+3=5    | 0              | unrated
SWISS = [
    (1, 1, 2, B),
    (1, 3, 4, W),
    (2, 4, 1, D),
    (2, 5, 2, B),
    (3, 1, 5, W),
    (3, 2, 3, B),
]
SWISS_BYES = [(1, 5), (2, 3), (3, 4)]
RATINGS = {1: 2300, 2: 2200, 3: 2100, 4: 2000, 5: None}


def rr_table() -> Table:
    return Table.from_games(ROUND_ROBIN, Scoring.go(), rounds=3)


def swiss_table(scoring: Scoring | None = None) -> Table:
    return Table.from_games(
        SWISS, scoring or Scoring.go(), rounds=3, byes=SWISS_BYES, ratings=RATINGS
    )


def test_points_go_round_robin() -> None:
    # Go §27.1: win 2, draw 1, loss 0
    t = rr_table()
    assert [t.points(p) for p in (1, 2, 3, 4)] == [3, 4, 3, 2]


def test_sonneborn_berger_by_hand() -> None:
    # Go §27.1(1)A: beaten opponents' points + half of drawn opponents' points
    t = rr_table()
    assert [tb.sonneborn_berger(t, p) for p in (1, 2, 3, 4)] == [F(11, 2), 5, F(7, 2), 3]


def test_go_round_robin_chain_orders_by_sb() -> None:
    # Go §27.1(1): points, then SB: 1 (5½) ahead of 3 (3½) on 3 points
    t = rr_table()
    rows = standings(t, default_chain("go", "round-robin"))
    assert [r.number for r in rows] == [2, 1, 3, 4]
    assert [r.place for r in rows] == [1, 2, 3, 4]
    assert rows[1].values == (3, F(11, 2), 0)


def test_warnings_break_a_tie_on_points_and_sb() -> None:
    # Go §27.1(1)B: fewer warnings in the whole event ranks first.
    # All six games drawn: everyone 3 points, SB 3 × ½ × 3 = 4½.
    # Player 2 got one warning, player 4 one in each of two games (never two in one game, §24.2).
    games = [(r, a, b, D) for r, a, b, _ in ROUND_ROBIN]
    warnings = {(1, 2): 1, (1, 4): 1, (3, 4): 1}
    t = Table.from_games(games, Scoring.go(), rounds=3, warnings=warnings)
    assert {p: tb.sonneborn_berger(t, p) for p in (1, 2, 3, 4)} == dict.fromkeys(
        (1, 2, 3, 4), F(9, 2)
    )
    assert [tb.warnings(t, p) for p in (1, 2, 3, 4)] == [0, -1, 0, -2]
    rows = standings(t, default_chain("go", "round-robin"))
    assert [(r.place, r.number) for r in rows] == [(1, 1), (1, 3), (3, 2), (4, 4)]
    # Go §27.1(1)C: lots settle what is left
    rows = standings(t, default_chain("go", "round-robin"), lots={1: 2, 3: 1})
    assert [(r.place, r.number, r.by_lot) for r in rows][:2] == [(1, 3, True), (2, 1, True)]


def test_bye_scores_as_a_win_and_is_left_out_of_opponents_sums() -> None:
    # DECISIONS (Tournaments): a bye is scored as a win and left out of opponents' sums
    t = swiss_table()
    assert [t.points(p) for p in (1, 2, 3, 4, 5)] == [3, 2, 2, 5, 6]
    assert tb.opponents(t, 3) == [4, 2]
    assert tb.wins(t, 3) == 1  # the bye counts as a won game


def test_buchholz_by_hand() -> None:
    # Go §27.1(2)B, Gomoku §18.4(1)B: sum of the opponents' points, byes excluded
    t = swiss_table()
    assert [tb.buchholz(t, p) for p in (1, 2, 3, 4, 5)] == [13, 11, 7, 5, 5]


def test_median_buchholz_by_hand() -> None:
    # Gomoku §18.4(1)C: cut the best and the worst opponent
    t = swiss_table()
    assert [tb.median_buchholz(t, p) for p in (1, 2, 3, 4, 5)] == [5, 3, 0, 0, 0]
    # cut only the lowest: player 1 keeps 5 + 6, player 2 keeps 3 + 6
    low = tb.median_buchholz_cut(0, 1)
    assert low.values(t, [1, 2]) == {1: 11, 2: 9}
    two_top = tb.parse_tiebreak("median-buchholz:2:0")
    assert two_top.values(t, [1, 2]) == {1: 2, 2: 2}


def test_total_score_formula_by_hand() -> None:
    # Go §27.1(2)A: 总得分 = 个人积分 + (对手积分总和 / (½ 最高积分) − 轮次数)
    # highest attainable = 2 × 3 rounds = 6, half of it 3:
    #   1: 3 + 13/3 − 3 = 13/3   2: 2 + 11/3 − 3 = 8/3   3: 2 + 7/3 − 3 = 4/3
    #   4: 5 + 5/3 − 3 = 11/3    5: 6 + 5/3 − 3 = 14/3
    t = swiss_table()
    assert [tb.total_score(t, p) for p in (1, 2, 3, 4, 5)] == [
        F(13, 3),
        F(8, 3),
        F(4, 3),
        F(11, 3),
        F(14, 3),
    ]


def test_total_score_bracket_is_opponents_average_minus_half_score() -> None:
    # Go §27.1(2)A checked: with win = 2, ½ × highest = rounds, so the bracket is the opponents'
    # average score minus the score of a player who won half his games (= rounds).
    t = rr_table()  # no byes: every player met 3 opponents in 3 rounds
    for p in (1, 2, 3, 4):
        average = tb.buchholz(t, p) / 3
        assert tb.total_score(t, p) == t.points(p) + (average - 3)


def test_go_swiss_chain_a_total_score() -> None:
    # Go §27.1(2)A then (1)B warnings
    rows = standings(swiss_table(), default_chain("go", "swiss"))
    assert [r.number for r in rows] == [5, 1, 4, 2, 3]


def test_go_swiss_chain_b_points_then_opponents() -> None:
    # Go §27.1(2)B: points, then opponents' points; 2 and 3 both 2 points, Buchholz 11 > 7
    rows = standings(swiss_table(), default_chain("go", "swiss", variant="B"))
    assert [r.number for r in rows] == [5, 4, 1, 2, 3]


def test_average_opponent_rating_by_hand() -> None:
    # Gomoku §18.4(1)A: the unrated player 5 is left out of the average
    t = swiss_table()
    assert [tb.average_opponent_rating(t, p) for p in (1, 2, 3, 4, 5)] == [
        2100,
        2200,
        2100,
        2200,
        2250,
    ]


def test_gomoku_swiss_chain() -> None:
    # Gomoku §18.1 points 1/½/0 and §18.4(1): points, average opponent rating, Buchholz, ...
    # points: 1 → 1½, 2 → 1, 3 → 1, 4 → 2½, 5 → 3; 2 and 3 tied, ARO 2200 > 2100
    t = swiss_table(Scoring.gomoku())
    assert [t.points(p) for p in (1, 2, 3, 4, 5)] == [F(3, 2), 1, 1, F(5, 2), 3]
    rows = standings(t, default_chain("gomoku", "swiss"))
    assert [r.number for r in rows] == [5, 4, 1, 2, 3]


def test_wins_by_hand() -> None:
    # Gomoku §18.3(1)B, §18.4(1)D: games won (a bye counts)
    t = swiss_table()
    assert [tb.wins(t, p) for p in (1, 2, 3, 4, 5)] == [1, 1, 1, 2, 3]


def test_gomoku_round_robin_chain_uses_wins_after_sb() -> None:
    # Gomoku §18.3(1): points, SB, wins. Three players, each game decided, one draw:
    #        1    2    3  | pts | SB      | wins
    #   1    ·    W    L  |  1  | 1       | 1
    #   2    L    ·    W  |  1  | 1       | 1
    #   3    W    L    ·  |  1  | 1       | 1      (a cycle: everything ties, lots decide)
    games = [(1, 1, 2, B), (2, 2, 3, B), (3, 3, 1, B)]
    t = Table.from_games(games, Scoring.gomoku(), rounds=3)
    rows = standings(t, default_chain("gomoku", "round-robin"))
    assert {r.place for r in rows} == {1}
    assert [tb.wins(t, p) for p in (1, 2, 3)] == [1, 1, 1]


def test_direct_encounter_inside_the_tie_group() -> None:
    # direct encounter: 2 and 3 are tied on 2 points in crosstable 2; 2 beat 3 in round 3
    t = swiss_table()
    assert tb.direct_encounter(t, [2, 3]) == {2: 2, 3: 0}
    chain = (tb.POINTS, tb.DIRECT_ENCOUNTER)
    rows = standings(t, chain)
    assert [r.number for r in rows] == [5, 4, 1, 2, 3]


# Crosstable 3: teams of two boards, Go round robin (Go §27.2(1)).
#
#   match      boards (team A view)   game pts   match pts
#   T1–T2      2, 0   | 0, 2           2 – 2      1 – 1
#   T1–T3      2, 1   | 0, 1           3 – 1      2 – 0
#   T2–T3      1, 2   | 1, 0           3 – 1      2 – 0   (board 1 drawn)
#
#   team  match pts  game pts  board 1  board 2
#   T1    3          5         4        1
#   T2    3          5         1        4
#   T3    0          2         1        1
def team_table(scoring: Scoring) -> Table:
    return Table.from_matches(
        [
            (1, 1, 2, [B, B], [True, False]),  # T1 black on board 1 wins, T2 black on 2 wins
            (2, 1, 3, [B, D], [True, False]),  # T1 wins board 1, draws board 2
            (3, 2, 3, [D, B], [True, True]),  # draw on board 1, T2 black wins board 2
        ],
        scoring,
        rounds=3,
    )


def test_team_match_and_game_points() -> None:
    # Go §27.2: match points 2/1/0 from game points
    t = team_table(Scoring.go())
    assert [t.points(c) for c in (1, 2, 3)] == [3, 3, 0]
    assert [tb.game_points(t, c) for c in (1, 2, 3)] == [5, 5, 2]
    assert [tb.board_points(t, c, 1) for c in (1, 2, 3)] == [4, 1, 1]
    assert [tb.board_points(t, c, 2) for c in (1, 2, 3)] == [1, 4, 1]


def test_team_board_by_board_breaks_the_tie() -> None:
    # Go §27.2(1): match points, game points, then board 1, board 2, ...
    t = team_table(Scoring.go())
    rows = standings(t, default_chain("go", "round-robin", team=True, board_count=2))
    assert [r.number for r in rows] == [1, 2, 3]
    assert rows[0].values == (3, 5, 4, 1)


def test_team_sonneborn_berger_gomoku() -> None:
    # Gomoku §18.3(2)B: Σ score rate against a team × that team's match points.
    # Gomoku points: T1 ½ + 1 = 1½, T2 1½, T3 0.
    # T1: ½ (2 of 4 game points vs T2) × 1½ + ¾ × 0 = ¾ ; T2: ½ × 1½ + ¾ × 0 = ¾ ;
    # T3: ¼ × 1½ (vs T1) + ¼ × 1½ (vs T2) = ¾ (losing to strong teams still earns SB)
    t = team_table(Scoring.gomoku())
    assert [tb.team_sonneborn_berger(t, c) for c in (1, 2, 3)] == [F(3, 4), F(3, 4), F(3, 4)]
    # Gomoku §18.3(2): match points, game points, team SB, boards: T1 before T2 on board 1
    rows = standings(t, default_chain("gomoku", "round-robin", team=True, board_count=2))
    assert [r.number for r in rows] == [1, 2, 3]


def test_elimination_round() -> None:
    # Gomoku §18.2: the later eliminated ranks first
    games = [(1, 1, 2, B), (1, 3, 4, B), (2, 1, 3, W)]
    t = Table.from_games(games, Scoring.gomoku(), rounds=2)
    rows = standings(t, default_chain("gomoku", "knockout"))
    assert [(r.place, r.number) for r in rows] == [(1, 3), (2, 1), (3, 2), (3, 4)]


def test_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(TournamentError, match="unknown tiebreak"):
        tb.parse_tiebreak("koya")
