"""The Clock: turns, pauses, lateness, the arbiter's adjustments (worked by hand)."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.clock import (
    Absolute,
    ChineseByoyomi,
    Clock,
    Fischer,
    JapaneseByoyomi,
    Lateness,
    SharedPool,
    even_split,
    needs_replacement,
    proportional_correction,
)
from duiyi.errors import ClockError, InvalidInput


def test_issue_example() -> None:
    # Go §12.3: 60 min + 5 reserved minutes; Black thinks 75 s.
    c = Clock(ChineseByoyomi(base=3600, reserved_minutes=5), to_move=BLACK, now=0.0)
    c.press(BLACK, now=75.0)
    assert c.to_move is WHITE
    assert c.remaining(BLACK, 100.0).base == 3525.0
    assert c.remaining(BLACK, 100.0).periods == 5
    assert c.remaining(WHITE, 100.0).base == 3575.0
    assert c.flagged(100.0) is None


def test_presses_alternate_and_used_time_adds_up() -> None:
    c = Clock(Absolute(600), now=10.0)
    c.press(BLACK, 15.0)
    c.press(WHITE, 45.0)
    c.press(BLACK, 46.0)
    assert c.used(BLACK, 50.0) == 6.0 and c.used(WHITE, 50.0) == 34.0
    assert c.elapsed(50.0) == 40.0
    assert c.moves(BLACK) == 2 and c.moves(WHITE) == 1


def test_wrong_player_and_time_travel_are_refused() -> None:
    c = Clock(Absolute(600), now=0.0)
    with pytest.raises(ClockError, match="white pressed"):
        c.press(WHITE, 1.0)
    c.press(BLACK, 5.0)
    with pytest.raises(ClockError, match="backwards"):
        c.press(WHITE, 4.0)
    with pytest.raises(InvalidInput):
        c.press(WHITE, float("nan"))


def test_flag_in_absolute_time() -> None:
    # Go §12.4: 包干 — time used up loses.
    c = Clock(Absolute(60), now=0.0)
    assert c.flag_time() == 60.0
    assert c.flagged(59.999) is None
    assert c.flagged(60.0) is BLACK
    with pytest.raises(ClockError, match="ran out"):
        c.press(BLACK, 60.0)


def test_last_minute_must_be_kept() -> None:
    # Go §12.3: on the last minute a move at the 60th second is late.
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=2), now=0.0)
    c.press(BLACK, 60.0)  # first minute used: 1 left
    assert c.remaining(BLACK, 60.0).periods == 1
    c.press(WHITE, 61.0)
    assert c.flag_time() == 121.0
    assert c.flagged(120.99) is None
    assert c.flagged(121.0) is BLACK


def test_pause_and_resume_do_not_count() -> None:
    # Go §14: paused time is not part of either player's time.
    c = Clock(Absolute(600), now=0.0)
    c.press(BLACK, 100.0)
    c.pause(150.0)  # White has thought 50 s
    assert c.remaining(WHITE, 900.0).base == 550.0
    assert c.flagged(5000.0) is None
    with pytest.raises(ClockError, match="paused"):
        c.press(WHITE, 900.0)
    c.resume(1150.0)
    c.press(WHITE, 1170.0)
    assert c.used(WHITE, 1170.0) == 70.0
    assert c.remaining(WHITE, 1170.0).base == 530.0
    assert c.elapsed(1170.0) == 170.0


def test_pause_twice_is_an_error() -> None:
    c = Clock(Absolute(600), now=0.0)
    c.pause(1.0)
    with pytest.raises(ClockError):
        c.pause(2.0)
    c.resume(3.0)
    with pytest.raises(ClockError):
        c.resume(4.0)


def test_go_lateness_of_the_player_to_move_is_taken_twice() -> None:
    # Go §22.1: Black arrives 10 min late; his clock ran 10 min, 10 more are taken.
    c = Clock(Absolute(3600), now=0.0, lateness=Lateness.go(), absent={BLACK})
    assert c.arrive(BLACK, 600.0) == 600.0
    assert c.remaining(BLACK, 600.0).base == 2400.0
    assert c.adjustments(BLACK) == -600.0


def test_go_lateness_of_white_is_taken_twice() -> None:
    # Go §22.1: Black moves at 60 s, White arrives at 300 s: 600 s in all off White's time.
    c = Clock(Absolute(3600), now=0.0, lateness=Lateness.go(), absent={WHITE})
    c.press(BLACK, 60.0)
    c.arrive(WHITE, 300.0)
    assert c.remaining(WHITE, 300.0).base == 3000.0


def test_gomoku_lateness_is_taken_once() -> None:
    # Gomoku §8.5: late time is deducted once.
    c = Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={WHITE})
    c.press(BLACK, 60.0)
    c.arrive(WHITE, 300.0)
    assert c.remaining(WHITE, 300.0).base == 3300.0
    assert c.lateness_of(WHITE) == 300.0


def test_lateness_limit_inclusive() -> None:
    # Go §22.2: venue at the lodging, 15 minutes at most ("含"); beyond, the game is lost.
    c = Clock(Absolute(7200), now=0.0, lateness=Lateness.go(same_site=True), absent={BLACK})
    assert c.late_forfeits(900.0) == frozenset()
    assert c.late_forfeits(900.5) == frozenset({BLACK})
    c.arrive(BLACK, 900.0)
    assert c.remaining(BLACK, 900.0).base == 7200 - 1800
    late = Clock(Absolute(7200), now=0.0, lateness=Lateness.go(), absent={WHITE})
    with pytest.raises(ClockError, match="past the 3600 s limit"):
        late.arrive(WHITE, 3601.0)


def test_both_late_both_forfeit() -> None:
    # Go §22.3 / Gomoku §8.5: both past the limit: both lose.
    c = Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(600), absent={BLACK, WHITE})
    assert c.lateness_deadline() == 600.0
    assert c.late_forfeits(601.0) == frozenset({BLACK, WHITE})


def test_lateness_into_the_reserved_minutes() -> None:
    # Go §22.1 with byo-yomi: 10 min base, Black 6 min late: 12 min off, 2 into the count.
    c = Clock(
        ChineseByoyomi(base=600, reserved_minutes=5),
        now=0.0,
        lateness=Lateness.go(),
        absent={BLACK},
    )
    c.arrive(BLACK, 360.0)
    left = c.remaining(BLACK, 360.0)
    assert (left.base, left.periods) == (0.0, 3)


def test_shared_pool_and_split() -> None:
    # Gomoku §8.1: one pool; the arbiter gives each side half of what is left.
    c = Clock(SharedPool(3600), now=0.0)
    c.press(BLACK, 600.0)
    assert c.remaining(WHITE, 1000.0).base == 2600.0
    assert c.remaining(BLACK, 1000.0).base == 2600.0  # one pool: both read the same
    assert c.split_pool(1000.0) == 1300.0
    c.press(WHITE, 1100.0)
    assert c.remaining(WHITE, 1100.0).base == 1200.0
    assert c.remaining(BLACK, 1100.0).base == 1300.0
    with pytest.raises(ClockError):
        c.split_pool(1200.0)
    assert c.used(BLACK, 1100.0) + c.used(WHITE, 1100.0) == 1100.0


def test_shared_pool_runs_out_for_the_player_to_move() -> None:
    c = Clock(SharedPool(100), now=0.0)
    c.press(BLACK, 70.0)
    assert c.flag_time() == 100.0
    assert c.flagged(100.0) is WHITE


def test_time_penalty_gomoku() -> None:
    # Gomoku §12.3(3)A: pressed before placing: opponent +5 min, offender -5 min.
    c = Clock(Absolute(1800), now=0.0)
    c.adjust(WHITE, 300, 10.0)
    c.adjust(BLACK, -300, 10.0)
    assert c.remaining(WHITE, 10.0).base == 2100.0
    assert c.remaining(BLACK, 10.0).base == 1490.0


def test_set_remaining_after_a_faulty_clock() -> None:
    # Go §22.8: the arbiter sets the new clock's reading; the running turn restarts.
    c = Clock(ChineseByoyomi(base=3600, reserved_minutes=3), now=0.0)
    c.press(BLACK, 100.0)
    c.set_remaining(WHITE, 3000.0, 200.0)
    assert c.remaining(WHITE, 210.0).base == 2990.0
    assert c.used(WHITE, 210.0) == 110.0


def test_faulty_clock_helpers() -> None:
    # Go §22.8: proportional correction; §22.9: even split when nothing was written down.
    assert proportional_correction(2400, 1200, 3000) == (2000.0, 1000.0)
    assert proportional_correction(0, 0, 100) == (50.0, 50.0)
    assert needs_replacement(3720, 3600)
    assert not needs_replacement(3719, 3600)
    assert even_split(60) == (30.0, 30.0)


def test_overtime_pass_keeps_the_last_minute() -> None:
    # Go §22.5: over the last minute, on request: a pass, and the same count goes on.
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    with pytest.raises(ClockError, match="not overstepped"):
        c.overtime_pass(BLACK, 30.0)
    c.overtime_pass(BLACK, 61.0)
    assert c.to_move is WHITE
    assert c.remaining(BLACK, 61.0).periods == 1
    assert c.flag_time() == 121.0
    absolute = Clock(Absolute(10), now=0.0)
    with pytest.raises(ClockError, match="no byo-yomi"):
        absolute.overtime_pass(BLACK, 11.0)


def test_stop_and_start() -> None:
    # Go §12.4(4) / §21.4: clocks stop for counting and start again on a dispute.
    c = Clock(Fischer(300, 5), now=0.0)
    c.press(BLACK, 10.0)
    c.stop(20.0)
    assert c.to_move is None and not c.running
    assert c.flagged(10_000.0) is None
    assert c.remaining(WHITE, 30.0).base == 290.0
    c.start(WHITE, 100.0)
    c.press(WHITE, 110.0)
    assert c.remaining(WHITE, 110.0).base == 285.0


def test_calls_are_none_for_the_waiting_player() -> None:
    c = Clock(JapaneseByoyomi.fast(30), now=0.0)
    assert list(c.calls(WHITE, 0.0)) == []
    assert list(c.calls(BLACK, 0.0))


def test_snapshot_round_trip() -> None:
    c = Clock(
        ChineseByoyomi(base=60, reserved_minutes=2), now=0.0, lateness=Lateness.go(), absent={WHITE}
    )
    c.press(BLACK, 10.0)
    c.arrive(WHITE, 20.0)
    c.pause(30.0)
    d = Clock.from_json(c.to_json())
    assert d.to_json() == c.to_json()
    for now in (30.0, 50.0):
        for color in (BLACK, WHITE):
            assert d.remaining(color, now) == c.remaining(color, now)
    assert "chinese" in repr(c) or "读秒" in repr(c)
