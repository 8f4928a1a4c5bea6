"""Time systems, worked by hand from the articles (one row = one move)."""

from __future__ import annotations

import math

import pytest

from duiyi.clock import (
    Absolute,
    ChineseByoyomi,
    Fischer,
    JapaneseByoyomi,
    MovesPerPeriod,
    MultiPeriod,
    NoTime,
    PlayerTime,
    SharedPool,
    Stage,
    TimeSystem,
    system_from_json,
)
from duiyi.errors import InvalidInput

# Go §12.3: 10 min base + 3 reserved minutes. (state before, seconds thought, state after | None)
CHINESE = ChineseByoyomi(base=600, reserved_minutes=3)
CHINESE_TABLE = [
    (PlayerTime(600.0, 3), 599.0, PlayerTime(1.0, 3)),
    (PlayerTime(600.0, 3), 600.0, PlayerTime(0.0, 3)),  # base exactly used, no minute yet
    (PlayerTime(600.0, 3), 659.9, PlayerTime(0.0, 3)),  # 59.9 s into the count: free
    (PlayerTime(600.0, 3), 660.0, PlayerTime(0.0, 2)),  # exactly 60 s: a minute used
    (PlayerTime(600.0, 3), 719.9, PlayerTime(0.0, 2)),
    (PlayerTime(600.0, 3), 720.0, PlayerTime(0.0, 1)),
    (PlayerTime(600.0, 3), 779.9, PlayerTime(0.0, 1)),
    (PlayerTime(600.0, 3), 780.0, None),  # the last minute was not kept: flag
    (PlayerTime(0.0, 2), 59.0, PlayerTime(0.0, 2)),
    (PlayerTime(0.0, 2), 60.0, PlayerTime(0.0, 1)),
    (PlayerTime(0.0, 2), 119.9, PlayerTime(0.0, 1)),
    (PlayerTime(0.0, 2), 120.0, None),
    (PlayerTime(0.0, 1), 59.99, PlayerTime(0.0, 1)),  # the last minute kept
    (PlayerTime(0.0, 1), 60.0, None),  # "10" called as the stone lands: too late
    (PlayerTime(30.0, 1), 89.9, PlayerTime(0.0, 1)),  # 30 s base then 59.9 s
    (PlayerTime(30.0, 1), 90.0, None),
]

# Japanese byo-yomi, 5 min + 3 × 30 s (fast variant of Go §12.3).
JAPANESE = JapaneseByoyomi(base=300, periods=3, period=30)
JAPANESE_TABLE = [
    (PlayerTime(300.0, 3), 310.0, PlayerTime(0.0, 3)),
    (PlayerTime(300.0, 3), 329.9, PlayerTime(0.0, 3)),
    (PlayerTime(300.0, 3), 330.0, PlayerTime(0.0, 2)),  # period boundary: used
    (PlayerTime(300.0, 3), 389.0, PlayerTime(0.0, 1)),
    (PlayerTime(300.0, 3), 390.0, None),
    (PlayerTime(0.0, 2), 29.0, PlayerTime(0.0, 2)),
    (PlayerTime(0.0, 2), 45.0, PlayerTime(0.0, 1)),
    (PlayerTime(0.0, 1), 30.0, None),
]

# Fischer: 5 min + 10 s a move, capped at 320 s (Gomoku §8.3).
FISCHER = Fischer(base=300, increment=10, cap=320)
FISCHER_TABLE = [
    (PlayerTime(300.0), 5.0, PlayerTime(305.0)),
    (PlayerTime(305.0), 1.0, PlayerTime(314.0)),
    (PlayerTime(314.0), 1.0, PlayerTime(320.0)),  # 323 capped at 320
    (PlayerTime(20.0), 19.5, PlayerTime(10.5)),
    (PlayerTime(20.0), 20.0, None),
]

# Go §12.5: 10 min, then 3 moves in every 2 min, saved time carried over.
MPP = MovesPerPeriod(base=600, moves=3, period=120)
MPP_TABLE = [
    (PlayerTime(600.0, 0, 0), 100.0, PlayerTime(500.0, 0, 0)),
    # base runs out 50 s into the move: that move is the first of the stage
    (PlayerTime(500.0, 0, 0), 550.0, PlayerTime(70.0, 2, 1)),
    (PlayerTime(70.0, 2, 1), 20.0, PlayerTime(50.0, 1, 1)),
    # third move of the stage: 40 s saved carry into the next 120 s
    (PlayerTime(50.0, 1, 1), 10.0, PlayerTime(160.0, 3, 1)),
    (PlayerTime(160.0, 3, 1), 160.0, None),
    (PlayerTime(500.0, 0, 0), 620.0, None),  # base + 120 s gone before the move
]

ABSOLUTE = Absolute(base=600)
ABSOLUTE_TABLE = [
    (PlayerTime(600.0), 0.0, PlayerTime(600.0)),
    (PlayerTime(600.0), 599.5, PlayerTime(0.5)),
    (PlayerTime(600.0), 600.0, None),  # Go §12.4: time used up, loss
]

# Gomoku §8.2 多重时限: 30 min, then 10 min, then one move in every 30 s (no carry over).
MULTI = MultiPeriod((Stage(1800), Stage(600), Stage(30, 1)), carry_over=False)
MULTI_TABLE = [
    (PlayerTime(1800.0, 0, 0), 1900.0, PlayerTime(500.0, 0, 1)),
    (PlayerTime(500.0, 0, 1), 510.0, PlayerTime(30.0, 1, 2)),  # 10 s into the 30 s stage
    (PlayerTime(30.0, 1, 2), 29.0, PlayerTime(30.0, 1, 2)),  # saved 1 s dropped
    (PlayerTime(30.0, 1, 2), 30.0, None),
    (PlayerTime(500.0, 0, 1), 530.0, None),
]

TABLES = [
    (CHINESE, CHINESE_TABLE),
    (JAPANESE, JAPANESE_TABLE),
    (FISCHER, FISCHER_TABLE),
    (MPP, MPP_TABLE),
    (ABSOLUTE, ABSOLUTE_TABLE),
    (MULTI, MULTI_TABLE),
]


@pytest.mark.parametrize(
    ("system", "before", "t", "after"),
    [(s, b, t, a) for s, rows in TABLES for b, t, a in rows],
    ids=lambda x: x.name if isinstance(x, TimeSystem) else None,
)
def test_one_move(
    system: TimeSystem, before: PlayerTime, t: float, after: PlayerTime | None
) -> None:
    flagged = t >= system.flag_after(before)
    assert flagged == (after is None)
    assert system.view(before, t).flagged == flagged
    if after is not None:
        got = system.spend(before, t)
        assert got.periods == after.periods and got.stage == after.stage
        assert got.main == pytest.approx(after.main)


def test_chinese_view_during_the_count() -> None:
    # Go §12.3: 10 min + 3 minutes; 25 s into the second reserved minute.
    left = CHINESE.view(PlayerTime(600.0, 3), 600 + 60 + 25)
    assert (left.base, left.periods, left.period_time) == (0.0, 2, 35.0)
    assert left.in_overtime and left.total == pytest.approx(95.0)


def test_moves_per_period_view_shows_moves_due() -> None:
    # Go §12.5: after the base, the reading is the stage time and the moves still due.
    left = MPP.view(PlayerTime(500.0, 0, 0), 510.0)
    assert (left.base, left.periods, left.stage) == (110.0, 3, 1)


def test_japanese_fast_variants() -> None:
    # Go §12.3: 30, 20, 10 s fast games.
    for s in (30, 20, 10):
        j = JapaneseByoyomi.fast(s)
        assert j.flag_after(j.initial()) == s
        assert j.spend(j.initial(), s - 0.5).periods == 1


def test_reserved_minutes_inside_the_base() -> None:
    # Go §12.3 literal reading: "在规定时限内保留几分钟": 60 min including the 5 reserved.
    c = ChineseByoyomi(base=3600, reserved_minutes=5, reserved_in_base=True)
    assert c.flag_after(c.initial()) == 3600
    assert c.initial() == PlayerTime(3300.0, 5)


def test_no_time_never_flags() -> None:
    n = NoTime()
    assert math.isinf(n.flag_after(n.spend(n.initial(), 1e9)))


def test_deductions_past_the_base_take_whole_periods() -> None:
    # A penalty larger than the base eats reserved minutes, rounding up.
    assert CHINESE.deduct(PlayerTime(30.0, 3), 31.0) == PlayerTime(0.0, 2)
    assert CHINESE.deduct(PlayerTime(30.0, 3), 90.0) == PlayerTime(0.0, 2)
    assert CHINESE.deduct(PlayerTime(30.0, 3), 90.5) == PlayerTime(0.0, 1)
    assert CHINESE.flag_after(CHINESE.deduct(PlayerTime(0.0, 1), 1.0)) == 0.0


@pytest.mark.parametrize(
    "system",
    [
        NoTime(),
        Absolute(600),
        SharedPool(3600),
        Fischer(300, 10),
        Fischer(300, 10, cap=600),
        CHINESE,
        JAPANESE,
        MPP,
        MovesPerPeriod(base=7200, base_moves=40, moves=20, period=3600),
        MULTI,
    ],
    ids=lambda s: s.name,
)
def test_json_round_trip(system: TimeSystem) -> None:
    assert system_from_json(system.to_json()) == system
    assert system.describe()


@pytest.mark.parametrize(
    "make",
    [
        lambda: Absolute(0),
        lambda: Absolute(-5),
        lambda: Fischer(300, -1),
        lambda: Fischer(300, 5, cap=100),
        lambda: ChineseByoyomi(base=600, reserved_minutes=0),
        lambda: ChineseByoyomi(base=200, reserved_minutes=5, reserved_in_base=True),
        lambda: JapaneseByoyomi(base=0, periods=3, period=0),
        lambda: MovesPerPeriod(base=600, moves=0, period=60),
        lambda: MultiPeriod(()),
        lambda: Stage(float("nan")),
    ],
)
def test_bad_settings_are_refused(make: object) -> None:
    with pytest.raises(InvalidInput):
        make()  # type: ignore[operator]


def test_unknown_system_json() -> None:
    with pytest.raises(InvalidInput, match="unknown time system"):
        system_from_json({"system": "hourglass"})
