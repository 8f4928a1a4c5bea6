"""The arbiter's spoken calls (Go §12.3), worked by hand."""

from __future__ import annotations

from duiyi import BLACK, WHITE
from duiyi.clock import Absolute, CallKind, ChineseByoyomi, Clock, JapaneseByoyomi, NoTime


def _said(clock: Clock, now: float) -> list[tuple[float, str]]:
    return [(c.at, c.zh) for c in clock.calls(clock.to_move or BLACK, now)]


def test_chinese_calls_with_three_minutes() -> None:
    # Go §12.3: "30秒、40秒、50秒、55秒、58秒、1分钟、还剩×分钟"; on the last minute
    # 30, 40, 50, then 1..10 each second.
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=3), now=0.0)
    expected = (
        [
            (30.0, "30秒"),
            (40.0, "40秒"),
            (50.0, "50秒"),
            (55.0, "55秒"),
            (58.0, "58秒"),
            (60.0, "1分钟，还剩2分钟"),
            (90.0, "30秒"),
            (100.0, "40秒"),
            (110.0, "50秒"),
            (115.0, "55秒"),
            (118.0, "58秒"),
            (120.0, "1分钟，还剩1分钟"),
            (150.0, "30秒"),
            (160.0, "40秒"),
            (170.0, "50秒"),
        ]
        + [(170.0 + i, str(i)) for i in range(1, 11)]
        + [(180.0, "时间到，超时")]
    )
    assert _said(c, 0.0) == expected


def test_chinese_calls_start_when_the_base_runs_out() -> None:
    # Go §12.3: the count starts when the base time is gone (here 100 s into the turn).
    c = Clock(ChineseByoyomi(base=100, reserved_minutes=1), now=1000.0)
    calls = list(c.calls(BLACK, 1000.0))
    assert [(x.at, x.zh) for x in calls[:3]] == [
        (1130.0, "30秒"),
        (1140.0, "40秒"),
        (1150.0, "50秒"),
    ]
    assert calls[3].kind == CallKind.COUNTDOWN and calls[3].at == 1151.0
    assert calls[-2].zh == "10" and calls[-2].at == 1160.0
    assert calls[-1].kind == CallKind.FLAG and calls[-1].at == c.flag_time()


def test_calls_from_now_and_after_a_press() -> None:
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=2), now=0.0)
    assert _said(c, 55.0)[:2] == [(55.0, "55秒"), (58.0, "58秒")]
    c.press(BLACK, 45.0)  # a move under 60 s costs nothing
    assert list(c.calls(BLACK, 45.0)) == []
    assert _said(c, 45.0)[0] == (75.0, "30秒")  # White's count starts at its turn


def test_calls_move_with_a_pause() -> None:
    # Go §14: the count stops during a pause and goes on after it.
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    c.pause(20.0)
    assert list(c.calls(BLACK, 20.0)) == []
    c.resume(100.0)
    assert _said(c, 100.0)[0] == (110.0, "30秒")


def test_english_calls() -> None:
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=2), now=0.0)
    en = [x.en for x in c.calls(BLACK, 0.0)]
    assert en[:6] == [
        "30 seconds",
        "40 seconds",
        "50 seconds",
        "55 seconds",
        "58 seconds",
        "1 minute, 1 left",
    ]


def test_japanese_fast_calls() -> None:
    # Fast games (Go §12.3, 30 s a move): 10, 20 s, then 1..10 over the last ten seconds.
    c = Clock(JapaneseByoyomi.fast(30), now=0.0)
    said = _said(c, 0.0)
    assert said[:3] == [(10.0, "10秒"), (20.0, "20秒"), (21.0, "1")]
    assert said[-2:] == [(30.0, "10"), (30.0, "时间到，超时")]


def test_japanese_period_used_call() -> None:
    c = Clock(JapaneseByoyomi(base=0, periods=2, period=20), now=0.0)
    said = _said(c, 0.0)
    assert (20.0, "读秒一次，还剩1次") in said
    assert said[said.index((20.0, "读秒一次，还剩1次")) + 1] == (30.0, "10秒")


def test_absolute_and_none_only_call_the_flag() -> None:
    assert _said(Clock(Absolute(60), now=0.0), 0.0) == [(60.0, "时间到，超时")]
    assert _said(Clock(NoTime(), now=0.0), 0.0) == []


def test_calls_between_is_half_open() -> None:
    c = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    got = [x.zh for x in c.calls_between(BLACK, 30.0, 50.0)]
    assert got == ["40秒", "50秒"]
    assert list(c.calls_between(WHITE, 0.0, 100.0)) == []
