"""Counting: Chinese area in stones (Go §9, §11), handicap return, warnings (Go §24),
Japanese/Korean territory with seki, Ing area in points."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.errors import IllegalMove
from duiyi.go import Board, Point, Rules, Score, Scoring, score_position
from duiyi.go.scoring import format_stones


def wall_board(n: int, dame: bool = False) -> Board:
    """19×19: Black owns columns A–I plus J1..Jn, White the rest; with ``dame`` the point
    J(n+1) is left between the walls."""
    k = n + (1 if dame else 0)
    black = [Point(8, r) for r in range(n, 19)] + [Point(9, r) for r in range(n)]
    white = [Point(10, r) for r in range(k)] + [Point(9, r) for r in range(k, 19)]
    return Board.from_stones(19, black, white)


@pytest.mark.parametrize(
    ("n", "dame", "area", "result", "black_view", "sgf"),
    [
        (14, False, Fraction(185), "黑胜3/4子", "黑胜3/4子", "B+1.5"),
        (13, False, Fraction(184), "白胜1/4子", "黑负1/4子", "W+0.5"),
        (13, True, Fraction(369, 2), "黑胜1/4子", "黑胜1/4子", "B+0.5"),
    ],
)
def test_article_11_examples(
    n: int, dame: bool, area: Fraction, result: str, black_view: str, sgf: str
) -> None:
    # Go §11: 黑方总共得185子则黑胜3/4子，得184子则黑负1/4子，得184.5子则为黑胜1/4子
    s = score_position(wall_board(n, dame), Rules.chinese())
    assert s.black_area == area
    assert s.baseline == Fraction(361, 2)  # Go §9: 归本数 180.5
    assert s.result_zh == result
    assert s.result_zh_for(BLACK) == black_view
    assert s.sgf_result == sgf
    assert s.margin_points == 2 * s.margin_stones
    assert (s.margin * 4).denominator == 1  # a multiple of ¼ stone


def test_white_needs_177() -> None:
    # scoring-variants: 白棋177子為勝
    s = score_position(wall_board(13), Rules.chinese())
    assert s.white_area == 177 and s.winner is WHITE


def test_komi_without_handicap_is_three_and_three_quarters() -> None:
    # Go §11
    s = score_position(wall_board(14), Rules.chinese())
    assert s.komi == Fraction(15, 4) and s.handicap_return == 0


@pytest.mark.parametrize(
    ("handicap", "n", "result"),
    [
        (1, 14, "黑胜4又1/2子"),  # 让先: no komi, no return: 185 − 180.5
        (2, 14, "黑胜3又1/2子"),  # return 1 stone
        (4, 14, "黑胜2又1/2子"),  # return 2 stones
    ],
)
def test_handicap_return(handicap: int, n: int, result: str) -> None:
    # scoring-variants: 讓先不貼目，讓子要貼還讓子數的一半
    s = score_position(wall_board(n), Rules.chinese(), handicap=handicap)
    assert s.komi == 0
    assert s.result_zh == result


def test_handicap_nine_returns_four_and_a_half() -> None:
    s = score_position(wall_board(14), Rules.chinese(), handicap=9)
    assert s.handicap_return == Fraction(9, 2)
    assert s.margin == 0 and s.winner is None and s.result_zh == "和棋" and s.sgf_result == "0"


def test_draw_when_equal_to_baseline() -> None:
    # Go §9: 等于此数为和 (handicap 3: return 1.5; Black 182 = 180.5 + 1.5)
    s = score_position(wall_board(11), Rules.chinese(), handicap=3)
    assert s.black_area == 182 and s.winner is None and s.result_zh == "和棋"


def test_warning_takes_one_stone() -> None:
    # Go §24.1: 被警告方罚出一子
    base = score_position(wall_board(14), Rules.chinese())
    warned_b = score_position(wall_board(14), Rules.chinese(), warnings={BLACK: 1})
    warned_w = score_position(wall_board(14), Rules.chinese(), warnings={WHITE: 1})
    assert warned_b.margin == base.margin - 1 and warned_b.result_zh == "白胜1/4子"
    assert warned_w.margin == base.margin + 1 and warned_w.result_zh == "黑胜1又3/4子"


def test_format_stones() -> None:
    assert format_stones(Fraction(1, 4)) == "1/4"
    assert format_stones(Fraction(7, 2)) == "3又1/2"
    assert format_stones(Fraction(3)) == "3"


# ---------------------------------------------------------------- Japanese / Korean

POSITION = """
. . X O . . .
. . X O . . .
. O X O . . .
. . X O . . .
. . X O . . .
. . X O . . .
. . X O . . ."""


@pytest.mark.parametrize("rules", [Rules.japanese(), Rules.korean()], ids=["japanese", "korean"])
def test_territory_plus_prisoners(rules: Rules) -> None:
    # territory 14 + 1 dead + 2 captured for Black, 21 + 0 for White; komi 6.5
    b = Board.from_diagram(POSITION)
    s = score_position(b, rules, dead={Point.parse("B5", 7)}, captures={BLACK: 2, WHITE: 0})
    assert s.scoring is Scoring.TERRITORY
    assert s.black_area == 17 and s.white_area == 21
    assert s.margin == Fraction(-21, 2)
    assert s.result_zh == "白胜10目半" and s.sgf_result == "W+10.5"


def test_half_point_wording() -> None:
    s = Score(Scoring.TERRITORY, Fraction(20), Fraction(14), Fraction(13, 2))
    assert s.result_zh == "白胜半目" and s.sgf_result == "W+0.5"


SEKI = """
. X . O .
X X X O O
X X X O O
X X X O O
X X X O O"""


def test_seki_eyes_count_under_chinese_but_not_japanese() -> None:
    # Chinese area counting counts the eyes of groups in seki; C5 is a shared liberty (½ each)
    b = Board.from_diagram(SEKI)
    cn = score_position(b, Rules.chinese())
    assert cn.black_area == Fraction(29, 2) and cn.white_area == Fraction(21, 2)
    # Japanese/Korean: 公活無目, no points in seki (A5 and E5 count for nobody)
    jp = score_position(b, Rules.japanese())
    assert jp.black_area == 0 and jp.white_area == 0
    assert jp.black_territory == frozenset() and jp.white_territory == frozenset()
    # the option seki_points=True counts them
    custom = score_position(b, replace(Rules.japanese(), seki_points=True))
    assert custom.black_area == 1 and custom.white_area == 1


def test_unmarked_dead_stone_makes_a_neutral_region() -> None:
    # B5 not marked dead leaves Black's side bordered by both colours: nobody's points.
    # White's side, bordered only by its wall, still counts.
    b = Board.from_diagram(POSITION)
    s = score_position(b, Rules.japanese())
    assert len(s.black_territory) == 0 and len(s.white_territory) == 21
    assert len(s.neutral) == 13


def test_unfilled_dame_is_not_seki() -> None:
    # D7 is a dame either side can fill: it counts for nobody, the territories still count
    b = Board.from_diagram(
        """
        . . X . O . .
        . . X O . . .
        . . X O . . .
        . . X O . . .
        . . X O . . .
        . . X O . . .
        . . X O . . ."""
    )
    s = score_position(b, Rules.japanese())
    assert s.black_area == 14 and s.white_area == 20
    assert s.neutral == {Point.parse("D7", 7)}


def test_seki_without_eyes_two_shared_liberties() -> None:
    # the eyeless seki: C5 and C4 are the only liberties of both chains; whoever fills one is
    # captured, so both live and the two points are shared
    b = Board.from_diagram(
        """
        X X . O O
        X X . O O
        X X X O O
        X X X O O
        X X X O O"""
    )
    jp = score_position(b, Rules.japanese())
    assert jp.black_area == jp.white_area == 0
    assert jp.neutral == {Point.parse("C5", 5), Point.parse("C4", 5)}
    cn = score_position(b, Rules.chinese())  # Go §9: stones + ½ of each shared point
    assert cn.black_area == 14 and cn.white_area == 11


def test_one_eye_against_no_eye_is_not_seki() -> None:
    # Black's eye at A1 wins the race: C5/C4 are not shared liberties of a seki, so the eye
    # counts as Black territory (the white stones would be marked dead by the players)
    b = Board.from_diagram(
        """
        X X . O O
        X X . O O
        X X X O O
        X X X O O
        . X X O O"""
    )
    jp = score_position(b, Rules.japanese())
    assert jp.black_territory == {Point.parse("A1", 5)}


# ---------------------------------------------------------------- Ing


def test_ing_counts_area_in_points_with_komi_8() -> None:
    # scoring-variants 應氏規則: 子空皆地, komi 8 points
    b = Board.from_diagram(POSITION)
    s = score_position(b, Rules.ing(), dead={Point.parse("B5", 7)})
    assert s.black_area == 21 and s.white_area == 28
    assert s.margin == -15 and s.result_zh == "白胜15点" and s.sgf_result == "W+15"


def test_ing_draw_possible() -> None:
    # 無差值之棋局 ... 稱為和棋: B − W = 8 exactly
    b = Board.from_diagram(
        """
        . . . X . O .
        . . . X O . .
        . . . X O . .
        . . . X O . .
        . . . X O . .
        . . . X O . .
        . . . X O . ."""
    )
    s = score_position(b, Rules.ing())
    assert s.black_area == Fraction(57, 2) and s.white_area == Fraction(41, 2)
    assert s.winner is None and s.result_zh == "和棋"
    # the same board under Chinese rules: Black wins by ¼ stone
    assert score_position(b, Rules.chinese()).result_zh == "黑胜1/4子"


# ---------------------------------------------------------------- JSON


def test_score_json() -> None:
    s = score_position(wall_board(14), Rules.chinese())
    data = json.loads(json.dumps(s.to_json()))
    assert data["black_area"] == 185.0 and data["white_area"] == 176.0
    assert data["komi_stones"] == 3.75 and data["margin_stones"] == 0.75
    assert data["winner"] == "black" and data["result_zh"] == "黑胜3/4子"
    assert data["sgf_result"] == "B+1.5"
    assert len(data["black_territory"]) == 185 - 14 - 5 and data["neutral"] == []
    assert "A1" in data["black_territory"] and "T19" in data["white_territory"]


# ---------------------------------------------------------------- dame, 手入れ and seki

TEIRE = """
. . . X O . .
. . . X O . .
. . . X O . .
. . . X O . .
. . . X O . .
. . . X O O .
. . . . X . O"""


def test_teire_point_is_not_territory() -> None:
    # scoring-variants 日韓規則 數目法: F1 is a dame only White can fill safely; once it is
    # filled E1 is in atari and Black must connect at D1, so D1 is a stone, not territory
    b = Board.from_diagram(TEIRE)
    s = score_position(b, Rules.japanese())
    assert s.teire == {Point.parse("D1", 7)}
    assert s.neutral == {Point.parse("F1", 7)}
    assert len(s.black_territory) == 21 and len(s.white_territory) == 11
    assert s.black_area == 21 and s.white_area == 11 and s.seki == frozenset()
    # Go §9: the Chinese area count is not concerned: D1 is Black's, F1 half each
    cn = score_position(b, Rules.chinese())
    assert cn.black_area == Fraction(59, 2) and cn.white_area == Fraction(39, 2)
    assert cn.teire == frozenset()


def test_dame_the_owner_can_fill_to_connect_costs_nothing() -> None:
    # C7 touches B7 and the C-wall: Black fills it and connects, no point is lost; White's
    # side is untouched and nobody is in seki (the dame counts for nobody)
    b = Board.from_diagram(
        """
        . X . O . . .
        . . X O . . .
        . . X O . . .
        . . X O . . .
        . . X O . . .
        . . X O . . .
        . . X O . . ."""
    )
    s = score_position(b, Rules.japanese())
    assert s.teire == frozenset() and s.seki == frozenset()
    assert s.neutral == {Point.parse("C7", 7)}
    assert s.black_area == 13 and s.white_area == 21


def test_two_eyes_beside_a_shared_point_is_not_seki() -> None:
    # 公活無目 only for real seki: White has two eyes (E7, G7), Black an eye and territory;
    # either side fills C7 safely, so it is a dame and every eye counts
    b = Board.from_diagram(
        """
        . X . O . O .
        X X X O O O O
        X X X X X X X
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . ."""
    )
    s = score_position(b, Rules.japanese())
    assert s.seki == frozenset() and s.neutral == {Point.parse("C7", 7)}
    assert s.black_area == 29 and s.white_area == 2


def test_seki_stones_are_reported() -> None:
    # the one-eye-each seki of SEKI: every stone is in seki, no point counts (公活無目)
    s = score_position(Board.from_diagram(SEKI), Rules.japanese())
    assert len(s.seki) == 13 + 9 and s.teire == frozenset()
    assert s.to_json()["seki"][:2] == ["A1", "A2"]


def test_chain_in_atari_connects_inside_its_territory() -> None:
    # C4 (White) has one liberty, B4, inside White's corner: Black could take it (a ko
    # shape), so White must connect at B4 before counting; B4 is not territory
    b = Board.from_diagram(
        """
        . O X X .
        O . O X X
        . O X X X
        O O X . X
        . O X X X"""
    )
    s = score_position(b, Rules.japanese())
    assert s.teire == {Point.parse("B4", 5)}
    assert s.white_territory == {Point.parse(p, 5) for p in ("A5", "A3", "A1")}
    assert s.black_territory == {Point.parse("E5", 5), Point.parse("D2", 5)}


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 9), st.integers(0, 2**32), st.integers(0, 120), st.integers(0, 4))
def test_territory_count_only_withholds_points(size: int, seed: int, moves: int, dead: int) -> None:
    # 公活無目 and 手入れ only take points away from the plain regions of Go §9: territory and
    # teire points are disjoint, inside the regions each colour surrounds, and the dame are the
    # same; the Chinese count reports neither seki nor teire
    rng = random.Random(seed)
    b = Board(size)
    color = BLACK
    for _ in range(moves):
        empty = sorted(b.empty_points())
        if not empty:
            break
        try:
            b.play(rng.choice(empty), color)
        except IllegalMove:
            continue
        color = color.opponent
    stones = sorted(b.stones(BLACK) | b.stones(WHITE))
    marked: set[Point] = set()
    for _ in range(dead if stones else 0):
        marked |= b.group(rng.choice(stones))
    cn = score_position(b, Rules.chinese(), marked)
    jp = score_position(b, Rules.japanese(), marked)
    assert cn.teire == cn.seki == frozenset()
    assert jp.neutral == cn.neutral
    assert jp.black_territory <= cn.black_territory
    assert jp.white_territory <= cn.white_territory
    assert jp.teire <= (cn.black_territory - jp.black_territory) | (
        cn.white_territory - jp.white_territory
    )
    assert not jp.seki & marked
    assert jp.black_area == len(jp.black_territory) + len(marked & b.stones(WHITE))
