"""Hypothesis: time never goes negative, used time adds up, snapshots rebuild the clock."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.clock import (
    Absolute,
    ChineseByoyomi,
    Clock,
    Fischer,
    JapaneseByoyomi,
    MovesPerPeriod,
    MultiPeriod,
    NoTime,
    SharedPool,
    Stage,
    TimeSystem,
)
from duiyi.errors import ClockError

systems: st.SearchStrategy[TimeSystem] = st.one_of(
    st.just(NoTime()),
    st.builds(Absolute, st.integers(1, 600)),
    st.builds(SharedPool, st.integers(1, 600)),
    st.builds(Fischer, st.integers(1, 300), st.integers(0, 30)),
    st.builds(
        lambda b, r: ChineseByoyomi(base=b, reserved_minutes=r),
        st.integers(0, 300),
        st.integers(1, 5),
    ),
    st.builds(
        lambda b, p, s: JapaneseByoyomi(base=b, periods=p, period=s),
        st.integers(0, 300),
        st.integers(1, 5),
        st.sampled_from([10, 20, 30, 60]),
    ),
    st.builds(
        lambda b, m, p: MovesPerPeriod(base=b, moves=m, period=p),
        st.integers(1, 300),
        st.integers(1, 5),
        st.integers(10, 200),
    ),
    st.just(MultiPeriod((Stage(60), Stage(30, 2)), carry_over=False)),
)

ops = st.lists(
    st.tuples(
        st.sampled_from(["press", "press", "press", "pause", "resume", "adjust"]),
        st.floats(0, 90, allow_nan=False),
    ),
    max_size=40,
)


def _run(system: TimeSystem, steps: list[tuple[str, float]]) -> tuple[Clock, float, float]:
    clock = Clock(system, now=0.0)
    now = 0.0
    paused_for = 0.0
    for op, dt in steps:
        now += dt
        if clock.paused:
            paused_for += dt
        try:
            if op == "press" and clock.to_move is not None:
                if clock.flagged(now) is not None:
                    break
                clock.press(clock.to_move, now)
            elif op == "pause" and not clock.paused:
                clock.pause(now)
            elif op == "resume" and clock.paused:
                clock.resume(now)
            elif op == "adjust":
                clock.adjust(BLACK, dt - 45, now)
        except ClockError:
            assert clock.paused  # the only refusal here: pressing a paused clock
    return clock, now, paused_for


@settings(max_examples=150, deadline=None)
@given(systems, ops)
def test_time_never_negative(system: TimeSystem, steps: list[tuple[str, float]]) -> None:
    clock, now, _ = _run(system, steps)
    for later in (now, now + 1.0, now + 1000.0):
        for color in (BLACK, WHITE):
            left = clock.remaining(color, later)
            assert left.base >= 0 and left.period_time >= 0 and left.total >= 0
            assert left.periods >= 0
            assert left.flagged == (left.total <= 0 and not math.isinf(left.total))


@settings(max_examples=150, deadline=None)
@given(systems, ops)
def test_used_time_adds_up_to_elapsed(system: TimeSystem, steps: list[tuple[str, float]]) -> None:
    clock, now, paused_for = _run(system, steps)
    used = clock.used(BLACK, now) + clock.used(WHITE, now)
    assert math.isclose(used, clock.elapsed(now), abs_tol=1e-6)
    assert math.isclose(used + paused_for, now, abs_tol=1e-6)


@settings(max_examples=100, deadline=None)
@given(systems, ops)
def test_snapshot_rebuilds_the_same_clock(
    system: TimeSystem, steps: list[tuple[str, float]]
) -> None:
    clock, now, _ = _run(system, steps)
    copy = Clock.from_json(clock.to_json())
    for later in (now, now + 7.5):
        assert copy.flagged(later) == clock.flagged(later)
        for color in (BLACK, WHITE):
            assert copy.remaining(color, later) == clock.remaining(color, later)
            assert list(copy.calls(color, later)) == list(clock.calls(color, later))


@settings(max_examples=100, deadline=None)
@given(systems, st.floats(0, 2000, allow_nan=False))
def test_flag_time_matches_flagged(system: TimeSystem, wait: float) -> None:
    clock = Clock(system, now=0.0)
    flag = clock.flag_time()
    if flag is None:
        assert clock.flagged(wait) is None
    else:
        assert (clock.flagged(wait) is BLACK) == (wait >= flag)


@settings(max_examples=150, deadline=None)
@given(systems, st.lists(st.floats(0, 90, allow_nan=False), max_size=12), st.floats(0, 1))
def test_a_stop_is_never_a_flag(system: TimeSystem, turns: list[float], part: float) -> None:
    # Go §12.3 不足60秒的着手不予计时: a turn stopped before its flag fell (the game ends, play
    # stops for counting) is charged as time used, never a started period as a whole one
    c = Clock(system, now=0.0)
    now = 0.0
    for t in turns:
        mover = c.to_move
        assert mover is not None
        limit = system.flag_after(c.state(c.running_color or mover))
        if t >= limit:
            break
        now += t
        c.press(mover, now)
    runner = c.running_color
    assert runner is not None
    limit = system.flag_after(c.state(runner))
    if math.isinf(limit) or limit <= 0:
        return
    now += part * limit * 0.999
    assert c.flagged(now) is None
    c.stop(now)
    assert c.flagged(now + 10_000.0) is None
    assert system.flag_after(c.state(runner)) > 0
