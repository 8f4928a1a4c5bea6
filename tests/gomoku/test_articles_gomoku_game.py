"""Article-by-article gaps of the Gomoku game protocol (docs/articles-gomoku.md)."""

from __future__ import annotations

import re

import pytest

from duiyi import Color
from duiyi.errors import IllegalAction
from duiyi.gomoku import Game, Phase, RenjuRules
from duiyi.gomoku.svg import STARS, board_svg
from duiyi.outcome import Termination

B, W = Color.BLACK, Color.WHITE


def test_a_passer_may_play_again_after_the_opponent_moves() -> None:
    # Gomoku §11.1(1): "待对方行棋后，放弃行棋的一方仍有恢复行棋的权利"
    g = Game.from_moves("h8 h9 j10 i9 a1", RenjuRules.free())
    g.pass_()  # White, move 6
    g.play("o15")  # Black
    g.play("a3")  # White plays a stone again
    assert not g.is_over
    assert [m.number for m in g.moves][-3:] == [6, 7, 8]
    assert g.moves[-3].point is None and str(g.moves[-1].point) == "a3"
    assert g.moves[-1].color is W and g.to_act is B


def test_draw_offers_may_be_repeated_while_they_stay_within_two() -> None:
    # Gomoku §10.3(5): both may offer and refuse again and again, as long as neither offers
    # more than two times more often than the other (§10.3(4)).
    g = Game(RenjuRules.free())
    for p in ["h8", "h9", "j10", "i9", "a1", "a2", "a3", "a4", "a5", "a6"]:
        g.play(p)
        g.offer_draw()  # the side that just moved
        g.decline_draw()
    assert g.draw_offer is None and not g.is_over
    # one side alone: a second offer after the same move is fine, a third is one too many
    g.play("a7")  # Black (offers so far: 5 each)
    g.offer_draw()
    g.decline_draw()
    g.offer_draw()
    g.decline_draw()
    with pytest.raises(IllegalAction, match=r"§10\.3\(4\)"):
        g.offer_draw()


def test_after_the_swap_the_new_black_offers_the_openers_n() -> None:
    # Gomoku §2.10: "此后无论对局者谁执黑棋，都需要在落第五手时按照要求的打点数量" — the
    # opener declares N; after a swap (§2.9) the swapper, now Black, must offer exactly N.
    g = Game(RenjuRules.chinese_2013())
    g.open("h8", "h9", "j10", fifth_n=3)
    g.swap()
    g.play("i9")  # white 4 by the opener
    assert g.phase is Phase.PROPOSE_FIFTH and g.to_act is B and g.fifth_n == 3
    with pytest.raises(IllegalAction, match="exactly 3"):
        g.propose_fifth(["g10", "k7"])
    g.propose_fifth(["g10", "k7", "l6"])
    g.choose_fifth("l6")
    # §2.1: the N stones count as one move: black 5, then white 6
    assert g.record_text() == "1.h8 2.h9 3.j10 4.i9 5.l6"
    assert g.to_act is W


# The same shape for each colour: the stone on e5 makes e5-f5-g5 and e5-e6-e7, two live
# threes that share it. Black's other stones wait on the a file, White's on the o file.
_BLACK_33 = "f5 o1 g5 o3 e6 o5 e7 o7 e5"
_WHITE_33 = "a1 f5 a3 g5 a5 e6 a7 e7 a9 e5"


def test_double_three_is_forbidden_for_black_only() -> None:
    # Gomoku §2.19: 禁手 are Black's; "黑棋一子落下同时形成两个或两个以上的活三"
    black = Game.from_moves(_BLACK_33, RenjuRules.free_renju())
    o = black.outcome()
    assert o is not None and o.winner is W and o.termination is Termination.FOUL
    white = Game.from_moves(_WHITE_33, RenjuRules.free_renju())
    assert not white.is_over and white.to_act is B
    white.play("a11")  # play goes on
    assert not white.is_over


def test_black_double_three_is_legal_without_forbidden_moves() -> None:
    # Gomoku §3.3: a free opening may drop the forbidden-move rule ("也可不执行禁手规则")
    g = Game.from_moves(_BLACK_33, RenjuRules.free())
    assert not g.is_over and g.to_act is W


def test_the_centre_and_the_four_stars_are_marked() -> None:
    # Gomoku §1.1: "H8 点为天元；D4、D12、L12、L4 四点为星", marked as small dots
    assert sorted(str(p) for p in STARS) == ["d12", "d4", "h8", "l12", "l4"]
    svg = board_svg(Game(RenjuRules.free()).board)
    # the dots are the only circles on an empty board
    assert len(re.findall(r"<circle ", svg)) == 5
