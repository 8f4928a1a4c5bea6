"""Gomoku §8.11 and §13: appeals and arbitration, the parts software can check."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

import duiyi.referee.appeals as appeals
from duiyi.errors import InvalidInput, RefereeError
from duiyi.referee.appeals import (
    AppealResult,
    Appellant,
    Question,
    appeal_in_time,
    arbitrate,
    deposit_refund,
    final_authority,
    may_appeal,
)


def test_appeal_deadline_after_the_round() -> None:
    # Gomoku §8.11: 应在当轮比赛结束后规定的时间内提出（但因组织者、主办单位造成的超过时限不在之内）
    assert appeal_in_time(100.0, 100.0 + 3600.0, 3600.0)
    assert not appeal_in_time(100.0, 100.0 + 3600.5, 3600.0)
    assert appeal_in_time(100.0, 100.0 + 4000.0, 3600.0, organiser_delay=400.0)
    with pytest.raises(InvalidInput):
        appeal_in_time(100.0, 50.0, 3600.0)


def test_who_may_appeal() -> None:
    # Gomoku §13.1: 个人赛中只能由参赛棋手（不满9岁的儿童可由家长协助和代理）提出申诉；团体赛中只能由
    # 领队（或教练）提出申诉，棋手的申诉得不到领队支持将不予受理
    assert may_appeal(Appellant.PLAYER)
    assert may_appeal(Appellant.PARENT, player_age=8)
    assert not may_appeal(Appellant.PARENT, player_age=9)
    assert not may_appeal(Appellant.TEAM_LEADER)
    assert may_appeal(Appellant.TEAM_LEADER, team_event=True)
    assert not may_appeal(Appellant.PLAYER, team_event=True)
    assert may_appeal(Appellant.PLAYER, team_event=True, leader_supports=True)
    assert not may_appeal(Appellant.OTHER, team_event=True)


def test_who_has_the_last_word() -> None:
    # Gomoku §13.1: facts: the arbiter's final decision; interpretation: the chief arbiter;
    # questions outside the rules decided by the chief arbiter: the competition committee
    assert final_authority(Question.FACT) == "arbiter"
    assert final_authority(Question.INTERPRETATION) == "chief arbiter"
    assert final_authority(Question.UNCOVERED, by_chief_arbiter=True) == "competition committee"


def test_deposit_full_half_or_nothing() -> None:
    # Gomoku §13.1-13.2: 申诉成功，则押金退回；申诉未成功，但有一定的合理性，可退回押金的一半
    assert deposit_refund(500, AppealResult.UPHELD) == 500
    assert deposit_refund(500, AppealResult.REASONABLE) == Fraction(250)
    assert deposit_refund(500, AppealResult.REJECTED) == 0


def test_arbitration_committee_majority_of_an_odd_number() -> None:
    # Gomoku §13.2: 三人以上的单数组成…每人只有一票…少数服从多数
    assert arbitrate([True, False, True])
    assert not arbitrate([True, False, False, False, True])
    for votes in ([True], [True, False], [True, True, False, False]):
        with pytest.raises(RefereeError, match="odd number"):
            arbitrate(votes)


def test_doctests() -> None:
    assert doctest.testmod(appeals).failed == 0
