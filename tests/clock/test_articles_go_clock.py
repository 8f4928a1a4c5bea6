"""Go rulebook audit (docs/articles-go.md): clock articles not pinned down elsewhere.

Each test cites the article it checks; each compares the clock with numbers worked out by hand
from the article's text.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.clock import ChineseByoyomi, Clock, JapaneseByoyomi, Lateness, MovesPerPeriod
from duiyi.clock.clock import needs_replacement, proportional_correction
from duiyi.errors import ClockError, InvalidInput


@pytest.mark.parametrize(
    ("seconds", "minutes_left"),
    [(0.0, 3), (59.999, 3), (60.0, 2), (119.999, 2), (120.0, 1), (179.999, 1)],
)
def test_reserved_minute_is_used_only_by_a_full_sixty_seconds(
    seconds: float, minutes_left: int
) -> None:
    # Go §12.3: 不足60秒的着手不予计时，达到60秒的视为已使用保留时限之中的1分钟
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=3), now=0.0)
    c.press(BLACK, seconds)
    assert c.remaining(BLACK, seconds).periods == minutes_left


def test_many_quick_moves_in_the_reserved_minutes_cost_nothing() -> None:
    # Go §12.3: every move under 60 s is free, however many are played
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=2), now=0.0)
    t = 0.0
    for _ in range(20):
        t += 59.5
        c.press(c.to_move or BLACK, t)
    assert c.remaining(BLACK, t).periods == 2 and c.remaining(WHITE, t).periods == 2


def test_ten_called_as_the_stone_lands_on_the_last_minute_loses() -> None:
    # Go §12.3: 裁判员读出"10"而棋手同时落子或尚未落子，均应判为已使用1分钟 — on the last
    # minute that minute is gone: a press at exactly 60 s is too late, just before is in time.
    late = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    with pytest.raises(ClockError):
        late.press(BLACK, 60.0)
    assert late.flagged(60.0) is BLACK
    ok = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    ok.press(BLACK, 59.9)
    assert ok.remaining(BLACK, 59.9).periods == 1


def test_last_minute_countdown_ends_with_ten_at_the_sixtieth_second() -> None:
    # Go §12.3: on the last minute: 30秒、40秒、50秒, then 1 … 10 second by second
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    calls = [(x.at, x.zh) for x in c.calls(BLACK, 0.0) if x.kind != "flag"]
    assert calls[:3] == [(30.0, "30秒"), (40.0, "40秒"), (50.0, "50秒")]
    assert calls[3:] == [(50.0 + i, str(i)) for i in range(1, 11)]


def test_saved_time_in_a_period_carries_into_the_next() -> None:
    # Go §12.5: 每10分钟限着15手 …着完规定的步数而未用完规定时间，节余时间可延至下一节使用
    m = MovesPerPeriod(base=10.0, moves=2, period=100.0)
    c = Clock(m, now=0.0)
    # Black: 5 s of base, then two moves of 20 s in the first period (60 s saved)
    t = 0.0
    for black_seconds in (5.0, 20.0, 20.0):
        t += black_seconds
        c.press(BLACK, t)
        t += 1.0
        c.press(WHITE, t)
    left = c.remaining(BLACK, t)
    assert left.total == pytest.approx(5.0 + 60.0 + 100.0)


def test_moves_not_made_in_a_period_lose() -> None:
    # Go §12.5: 限在规定时间内着完规定的步数 — the period ends with a move still due: flag
    c = Clock(MovesPerPeriod(base=1.0, moves=2, period=10.0), now=0.0)
    c.press(BLACK, 1.5)  # base used up: first move of the period
    c.press(WHITE, 2.0)
    # 9.5 s of the period are left for the second move; Black's time runs again from 2 s
    assert c.flagged(11.4) is None
    assert c.flagged(11.5) is BLACK


def test_moves_per_period_without_main_time_starts_with_the_first_move() -> None:
    # Go §12.5 "每10分钟限着15手" with no main time (Canadian overtime from the first move,
    # e.g. 25 moves in 10 minutes): the first period runs from Black's first move on, the
    # 25th move must land inside it, and the time saved carries into the next period.
    m = MovesPerPeriod(base=0, moves=25, period=600)
    c = Clock(m, now=0.0)
    assert c.remaining(BLACK, 0.0).periods == 25 and c.remaining(BLACK, 0.0).total == 600
    t = 0.0
    for _ in range(25):  # 25 moves of 20 s: 500 s used, 100 s saved
        t += 20.0
        c.press(BLACK, t)
        t += 1.0
        c.press(WHITE, t)
    left = c.remaining(BLACK, t)
    assert left.periods == 25 and left.total == pytest.approx(100.0 + 600.0)
    # a slow first period loses: 24 moves made, 10 minutes gone
    c = Clock(m, now=0.0)
    c.press(BLACK, 590.0)
    c.press(WHITE, 591.0)
    assert c.remaining(BLACK, 591.0).periods == 24
    assert c.flagged(600.9) is None and c.flagged(601.0) is BLACK
    assert m.describe().startswith("25 moves per 10 min")


def test_moves_per_period_without_main_time_refuses_a_quota_on_no_base() -> None:
    # Go §12.5: a base quota needs a base time to make the moves in
    with pytest.raises(InvalidInput):
        MovesPerPeriod(base=0, moves=25, period=600, base_moves=10)


def test_fast_game_absent_player_may_sit_down_during_the_count() -> None:
    # Go §22.4: 应实施按时缺席读秒。棋手在读秒过程中入座，允许参加比赛 — White is absent at
    # the start of a 30-second game; Black moves at 10 s, White's count runs from there and
    # White sits down at 35 s, 25 s into the count: White plays on with 5 s of the period.
    c = Clock(JapaneseByoyomi.fast(30), now=0.0, lateness=Lateness.natural(), absent={WHITE})
    c.press(BLACK, 10.0)
    c.arrive(WHITE, 35.0)
    left = c.remaining(WHITE, 35.0)
    assert not left.flagged and left.periods == 1
    assert left.period_time == pytest.approx(5.0)
    c.press(WHITE, 38.0)
    assert c.remaining(WHITE, 38.0).periods == 1


def test_fast_game_absent_player_loses_when_the_count_ends() -> None:
    # Go §22.4: 如读秒过程告终，棋手即自动失去该局参赛资格 (and no lateness limit of its own)
    c = Clock(JapaneseByoyomi.fast(30), now=0.0, lateness=Lateness.natural(), absent={BLACK})
    assert c.late_forfeits(10_000.0) == frozenset()
    assert c.flagged(29.9) is None
    assert c.flagged(30.0) is BLACK


def test_natural_timing_after_an_adjournment_charges_only_the_running_clock() -> None:
    # Go §22.1: 暂停后续弈时迟到，一律打开计时器进入自然计时状态，但不设迟到判负时限
    c = Clock(ChineseByoyomi(base=7200), now=0.0, lateness=Lateness.natural(), absent={WHITE})
    c.press(BLACK, 600.0)
    assert c.late_forfeits(5400.0) == frozenset()  # later than any Go limit: no forfeit
    assert c.arrive(WHITE, 5400.0) == 5400.0
    # White's clock ran from 600 s only; nothing is added for the time before Black's move
    assert c.remaining(WHITE, 5400.0).base == pytest.approx(7200.0 - 4800.0)
    default = Clock(ChineseByoyomi(base=3600), now=0.0, absent={WHITE})  # natural by default
    default.press(BLACK, 600.0)
    default.arrive(WHITE, 900.0)
    assert default.remaining(WHITE, 900.0).base == pytest.approx(3600.0 - 300.0)


def test_go_lateness_is_charged_twice_unlike_natural_timing() -> None:
    # Go §22.1: 未超过这一时限的，在其规定时限内加倍扣除 — the same arrival costs twice the
    # lateness under the start-of-game rule and only the running clock under natural timing
    go = Clock(ChineseByoyomi(base=3600), now=0.0, lateness=Lateness.go(), absent={WHITE})
    go.press(BLACK, 60.0)
    go.arrive(WHITE, 300.0)
    assert go.remaining(WHITE, 300.0).base == pytest.approx(3600.0 - 600.0)


def test_negative_lateness_factor_is_refused() -> None:
    # Go §22.1: the factor is how many times the lateness is taken (2, 1 or 0 for natural)
    with pytest.raises(InvalidInput):
        Lateness(-1)


def test_two_minutes_per_hour_is_inclusive() -> None:
    # Go §22.8: 读数总和的误差超过每小时2分钟(含)的，应立即更换计时器 — exactly 2 min per hour
    # (and the same rate over 90 minutes: 3 min) needs a new clock; just under does not
    assert needs_replacement(3600.0 + 120.0, 3600.0)
    assert needs_replacement(3600.0 - 120.0, 3600.0)
    assert needs_replacement(5400.0 + 180.0, 5400.0)
    assert not needs_replacement(5400.0 + 179.0, 5400.0)
    # 参照双方已用时间按比例拨正时间: the corrected times keep the ratio and add up to the truth
    b, w = proportional_correction(2520.0, 1260.0, 3600.0)
    assert b + w == pytest.approx(3600.0) and b == pytest.approx(2 * w)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=120),
    st.integers(min_value=1, max_value=5),
    st.lists(st.integers(min_value=0, max_value=719), min_size=1, max_size=12),
)
def test_reserved_minutes_used_are_the_whole_minutes_of_each_move(
    base: int, reserved: int, quarters: list[int]
) -> None:
    # Go §12.3: in the reserved phase every move costs floor(seconds / 60) minutes (不足60秒的
    # 着手不予计时，达到60秒的视为已使用…1分钟); the player loses only when a move needs more
    # minutes than are left. Black's moves last whole quarter seconds (exact in binary floating
    # point, so 60 s is exactly 60 s); White answers at once.
    c = Clock(ChineseByoyomi(base=base, reserved_minutes=reserved), now=0.0)
    main, minutes, t = float(base), reserved, 0.0
    for q in quarters:
        seconds = q / 4
        t += seconds
        if main > 0 and seconds <= main:
            main -= seconds
        else:
            over = seconds - main
            main = 0.0
            used = int(over // 60)
            if used >= minutes:
                with pytest.raises(ClockError):
                    c.press(BLACK, t)
                return
            minutes -= used
        c.press(BLACK, t)
        c.press(WHITE, t)
        left = c.remaining(BLACK, t)
        assert left.periods == minutes
        assert left.base == pytest.approx(main)
