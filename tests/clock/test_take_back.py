"""A takeback by agreement and the clock (issue 21): the moves taken back leave the quota of
the period they were made in (Go §12.5 定时限步制, Gomoku §8.2 多重时限) and earn no increment;
the time they took stays used (docs/decisions.md)."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.clock import Absolute, Clock, Fischer, MovesPerPeriod


def canadian() -> Clock:
    """No main time: 5 moves in every 300 s from the first move."""
    return Clock(MovesPerPeriod(base=0, moves=5, period=300), now=0.0)


def test_a_taken_back_move_is_due_again_in_its_period_and_its_time_stays_used() -> None:
    c = canadian()
    c.press(BLACK, 20.0)
    c.press(WHITE, 30.0)
    c.press(BLACK, 50.0)  # Black: 2 of 5 moves made, 40 s used
    c.press(WHITE, 60.0)
    assert c.remaining(BLACK, 60.0).periods == 3
    # both last moves are taken back, agreed 5 s into Black's turn
    assert c.take_back(BLACK, 1, 65.0) == 1
    assert c.take_back(WHITE, 1, 65.0) == 1
    black, white = c.remaining(BLACK, 65.0), c.remaining(WHITE, 65.0)
    assert (black.periods, white.periods) == (4, 4)  # 4 moves due again, not 3
    # the thinking stays charged: Black 20 + 20 + the 5 s of this turn, White 10 + 10
    assert black.base == pytest.approx(300 - 45)
    assert white.base == pytest.approx(300 - 20)
    assert c.used(BLACK, 65.0) == pytest.approx(45.0)
    assert (c.moves(BLACK), c.moves(WHITE)) == (1, 1)
    c.press(BLACK, 70.0)  # the move made again counts once
    assert c.remaining(BLACK, 70.0).periods == 3


def test_the_move_that_completed_a_period_is_due_again_in_that_period() -> None:
    c = canadian()
    for k in range(4):  # Black thinks 70 s a move, White 1 s
        c.press(BLACK, 71.0 * k + 70.0)
        c.press(WHITE, 71.0 * k + 71.0)
    c.press(BLACK, 299.0)  # Black's 5th move at 295 s used: a new period of 300 s starts
    assert c.remaining(BLACK, 299.0).periods == 5
    assert c.remaining(BLACK, 299.0).base == pytest.approx(305.0)
    c.take_back(BLACK, 1, 300.0)  # before White answers
    # back in the first period: 1 move due in the 5 s left of it, no new 300 s earned
    black = c.remaining(BLACK, 300.0)
    assert (black.periods, black.stage) == (1, 0)
    assert black.base == pytest.approx(5.0)


def test_no_increment_is_kept_for_a_taken_back_move() -> None:
    c = Clock(Fischer(base=60, increment=10), now=0.0)
    c.press(BLACK, 4.0)
    assert c.remaining(BLACK, 4.0).base == pytest.approx(66.0)
    c.take_back(BLACK, 1, 4.0)
    assert c.remaining(BLACK, 4.0).base == pytest.approx(56.0)


def test_the_arbiters_changes_since_stay_and_a_set_reading_is_not_undone() -> None:
    c = canadian()
    c.press(BLACK, 20.0)
    c.adjust(BLACK, 60.0, 25.0)  # Go §22.8: a minute given back
    c.take_back(BLACK, 1, 30.0)
    assert c.remaining(BLACK, 30.0).base == pytest.approx(300 - 20 + 60)
    assert c.remaining(BLACK, 30.0).periods == 5
    d = canadian()
    d.press(BLACK, 20.0)
    d.set_remaining(BLACK, 100.0, 25.0, periods=2)  # the arbiter set the reading
    assert d.take_back(BLACK, 1, 30.0) == 0
    assert (d.remaining(BLACK, 30.0).base, d.remaining(BLACK, 30.0).periods) == (100.0, 2)


def test_nothing_to_reverse_and_snapshots_keep_the_presses() -> None:
    c = Clock(Absolute(600), now=0.0)
    assert c.take_back(BLACK, 1, 0.0) == 0  # no press yet
    c.press(BLACK, 5.0)
    assert c.take_back(BLACK, 3, 6.0) == 1  # as many as were made
    assert c.remaining(BLACK, 6.0).base == pytest.approx(595.0)  # absolute: as it was
    d = canadian()
    d.press(BLACK, 20.0)
    again = Clock.from_json(d.to_json())
    again.take_back(BLACK, 1, 21.0)
    assert again.remaining(BLACK, 21.0).periods == 5
    assert "presses" not in canadian().to_json()  # a fresh clock's snapshot is as before
