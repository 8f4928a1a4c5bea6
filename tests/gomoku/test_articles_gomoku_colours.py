"""Gomoku §5.3 猜先方法: the hand count (1) and the arbiter's coin with three choices (2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import InvalidInput
from duiyi.gomoku import CoinChoice, CoinToss, Face, coin_toss, hand_count


def test_hand_count_odd_total_gives_black_to_the_black_stones() -> None:
    # Gomoku §5.3(1): 合计数为奇数，则握黑棋子方先行。合计数为偶数则双方变换黑白棋
    assert hand_count("a", "b", 2, 3) == ("a", "b")
    assert hand_count("a", "b", 2, 4) == ("b", "a")
    with pytest.raises(InvalidInput, match=r"Gomoku §5\.3"):
        hand_count("a", "b", 0, 3)


@pytest.mark.parametrize(
    ("choice", "opponent_takes", "black"),
    [
        (CoinChoice.BLACK, None, "winner"),  # A 使用黑棋
        (CoinChoice.WHITE, None, "loser"),  # B 使用白棋
        (CoinChoice.OPPONENT_FIRST, BLACK, "loser"),  # C: the opponent chose Black
        (CoinChoice.OPPONENT_FIRST, WHITE, "winner"),  # C: the opponent chose White
    ],
)
def test_the_winner_of_the_call_has_three_choices(
    choice: CoinChoice, opponent_takes: object, black: str
) -> None:
    # Gomoku §5.3(2): 中猜者有 3 种选择权利 A 使用黑棋 B 使用白棋 C 要求对方先行选择
    toss = CoinToss("caller", "other", Face.HEADS, Face.TAILS)  # a wrong call: "other" won
    assert toss.winner == "other" and toss.loser == "caller"
    b, w = toss.colours(choice, opponent_takes)  # type: ignore[arg-type]
    assert b == (toss.winner if black == "winner" else toss.loser)
    assert {b, w} == {"caller", "other"}


def test_choice_c_makes_the_opponent_choose_and_a_b_leave_it_none() -> None:
    # Gomoku §5.3(2)C: 则对方必须先选择; after A or B the opponent has nothing to choose
    toss = CoinToss(1, 2, Face.HEADS, Face.HEADS)
    with pytest.raises(InvalidInput, match="must choose"):
        toss.colours(CoinChoice.OPPONENT_FIRST)
    with pytest.raises(InvalidInput, match="no choice"):
        toss.colours(CoinChoice.BLACK, WHITE)


def test_the_coin_is_fair_and_comes_only_from_the_random_source() -> None:
    # Gomoku §5.3(2): the arbiter's 挑边器; the same seed gives the same toss
    winners = Counter(coin_toss("a", "b", random.Random(seed)).winner for seed in range(2000))
    assert 900 < winners["a"] < 1100
    assert coin_toss("a", "b", random.Random(7)) == coin_toss("a", "b", random.Random(7))
    with pytest.raises(InvalidInput):
        coin_toss("a", "a", random.Random(1))


def test_doctests() -> None:
    import doctest

    import duiyi.gomoku.colours as mod

    assert doctest.testmod(mod).failed == 0
