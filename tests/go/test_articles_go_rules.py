"""Go rulebook audit (docs/articles-go.md): rules articles not pinned down elsewhere.

Go §2.2-2.4 (empty board, Black first, stones never move), Go §9 (归本数), Go §11 and
scoring-variants.zh-hant.txt (the winning lines and the handicap return).
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from duiyi import BLACK, WHITE
from duiyi.go import Game, Point, Rules
from duiyi.go.rules import KoRule, Scoring
from duiyi.go.scoring import Score


def test_game_starts_on_an_empty_board_with_black() -> None:
    # Go §2.2 空枰开局, §2.3 黑先白后
    for size in (9, 13, 19):
        g = Game(size)
        assert g.board.count(BLACK) == 0 and g.board.count(WHITE) == 0
        assert len(g.board.empty_points()) == size * size
        assert g.to_move is BLACK


@pytest.mark.parametrize("seed", range(4))
def test_stones_never_move_and_leave_only_by_capture(seed: int) -> None:
    # Go §2.4 棋子下定后，不再向其他点移动; Go §3-4: a stone leaves only when its chain has no
    # liberty after the opponent's move, and the mover's own stones never leave (Go §5)
    rng = random.Random(seed)
    g = Game(9)
    for _ in range(160):
        if g.is_over or g.phase.name != "PLAYING":
            break
        legal = list(g.legal_moves())
        if not legal:
            g.pass_move()
            continue
        mover = g.to_move
        before = g.board.copy()
        p = rng.choice(legal)
        g.play(p)
        after = g.board
        assert after.get(p) is mover
        gone: set[Point] = set()
        for color in (BLACK, WHITE):
            for q in before.stones(color):
                now = after.get(q)
                assert now in (color, None), f"{q} changed colour"
                if now is None:
                    gone.add(q)
        assert all(before.get(q) is mover.opponent for q in gone), "own stones removed"
        # exactly the opponent chains next to p that had p as their last liberty were removed
        expected: set[Point] = set()
        for n in before.neighbours(p):
            if before.get(n) is mover.opponent and before.liberties(n) == frozenset({p}):
                expected |= before.group(n)
        assert gone == expected
        # nothing else appeared: the new stone is the only addition
        added = {q for c in (BLACK, WHITE) for q in after.stones(c) if before.get(q) is None}
        assert added == {p}


def _area_score(black: Fraction, total: int = 361, warnings: int = 0) -> Score:
    r = Rules.chinese()
    return Score(
        Scoring.AREA_STONES,
        black,
        Fraction(total) - black,
        r.komi,
        warnings_deduction=Fraction(warnings),
    )


def test_baseline_without_komi_win_draw_loss() -> None:
    # Go §9: 棋盘总点数的一半180.5点为归本数。一方总得点数超过此数为胜，等于此数为和，小于此数为负
    def no_komi(black: Fraction) -> Score:
        return Score(Scoring.AREA_STONES, black, Fraction(361) - black, Fraction(0))

    assert no_komi(Fraction(361, 2)).baseline == Fraction(361, 2)
    assert no_komi(Fraction(361, 2)).winner is None
    assert no_komi(Fraction(181)).winner is BLACK
    assert no_komi(Fraction(180)).winner is WHITE
    assert no_komi(Fraction(181)).margin_stones == Fraction(1, 2)


def test_komi_winning_lines_184_25_and_176_75() -> None:
    # Go §11 and scoring-variants: 黑目數超過184.25子即勝，而白只需超過176.75子即勝 — every
    # count a 19×19 game can give (multiples of ½) from 170 to 195 stones for Black
    for halves in range(340, 391):
        black = Fraction(halves, 2)
        s = _area_score(black)
        white = Fraction(361) - black
        assert (s.winner is BLACK) == (black > Fraction(737, 4)), black
        assert (s.winner is WHITE) == (white > Fraction(707, 4)), black
        assert s.winner is not None  # with 3¾ no draw is possible on 361 points
        assert s.margin_stones == black - Fraction(15, 4) - Fraction(361, 2)


def test_warning_moves_the_winning_line_by_one_stone() -> None:
    # Go §24.1 (被警告方罚出一子) with §11: one warning for Black, Black now needs 185.25
    assert _area_score(Fraction(185)).winner is BLACK
    s = _area_score(Fraction(185), warnings=1)
    assert s.winner is WHITE and s.margin_stones == Fraction(-1, 4)
    assert _area_score(Fraction(371, 2), warnings=1).winner is BLACK


@pytest.mark.parametrize("handicap", range(2, 10))
def test_handicap_return_is_half_the_stones(handicap: int) -> None:
    # scoring-variants: 讓先不貼目，讓子要貼還讓子數的一半 (DECISIONS.md: handicap ≥ 2)
    komi, back = Rules.chinese().compensation(handicap)
    assert komi == 0 and back == Fraction(handicap, 2)
    assert Rules.chinese().compensation(1) == (Fraction(0), Fraction(0))  # 让先
    # Black counts 181 + H/2 stones: after returning H/2 it is ½ stone above the baseline
    s = Score(
        Scoring.AREA_STONES,
        Fraction(181) + back,
        Fraction(180) - back,
        komi,
        handicap_return=back,
    )
    assert s.margin_stones == Fraction(1, 2) and s.winner is BLACK


def _sending_two_returning_one(rules: Rules) -> Game:
    # 5×5, the bottom-left corner:      row 2:  O O X . .
    #                                   row 1:  . X . X .
    # Black A1 makes the two stones A1-B1 with one liberty (送二), White C1 takes them, Black B1
    # takes C1 back (还一) and the board is as before with White to move.
    return Game.from_position(5, rules, black=["B1", "D1", "C2"], white=["A2", "B2"])


def test_sending_two_returning_one_cannot_cycle() -> None:
    # Go §20.2: 禁止假生类多劫循环; Go §6 (situational, DECISIONS.md): once around the cycle is
    # play, but after White passes the same sending move would make White face again a position
    # it has faced: refused, so the cycle can never repeat
    g = _sending_two_returning_one(Rules.chinese())
    start = g.board.copy()
    for move in ("A1", "C1", "B1"):
        g.play(move)
    assert g.captures == {BLACK: 1, WHITE: 2}
    assert g.board == start and g.to_move is WHITE
    g.pass_move()
    assert not g.is_legal("A1")
    reason = g.illegal_reason("A1")
    assert reason is not None and reason[1] == "Go §6"
    assert g.is_legal("E5")  # elsewhere is fine: the board changes


def test_sending_two_returning_one_under_positional_superko() -> None:
    # Go §20 with the positional option: the return capture itself recreates the board
    g = _sending_two_returning_one(replace(Rules.chinese(), ko_rule=KoRule.POSITIONAL))
    g.play("A1")
    g.play("C1")
    assert not g.is_legal("B1")
