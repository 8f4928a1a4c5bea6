"""GTP / KGS time settings, one table per system."""

from __future__ import annotations

import pytest

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
from duiyi.errors import InvalidInput
from duiyi.gtp.clock import (
    from_kgs_time_settings,
    from_time_settings,
    kgs_time_settings,
    time_left,
    time_settings,
)

# system, GTP time_settings, exact?, kgs-time_settings, exact?
SETTINGS = [
    (NoTime(), "time_settings 0 1 0", True, "kgs-time_settings none", True),
    (Absolute(1800), "time_settings 1800 0 0", True, "kgs-time_settings absolute 1800", True),
    (
        ChineseByoyomi(base=3600, reserved_minutes=5),
        "time_settings 3600 60 1",
        False,
        "kgs-time_settings byoyomi 3600 60 5",
        True,
    ),
    (
        JapaneseByoyomi(base=600, periods=3, period=30),
        "time_settings 600 30 1",
        False,
        "kgs-time_settings byoyomi 600 30 3",
        True,
    ),
    (
        JapaneseByoyomi.fast(20),
        "time_settings 0 20 1",
        True,
        "kgs-time_settings byoyomi 0 20 1",
        True,
    ),
    (
        MovesPerPeriod(base=3600, moves=15, period=600),
        "time_settings 3600 600 15",
        True,
        "kgs-time_settings canadian 3600 600 15",
        True,
    ),
    (Fischer(300, 10), "time_settings 300 0 0", False, "kgs-time_settings absolute 300", False),
    (SharedPool(7200), "time_settings 7200 0 0", False, "kgs-time_settings absolute 7200", False),
    (
        MultiPeriod((Stage(300, 25),)),
        "time_settings 0 300 25",
        True,
        "kgs-time_settings absolute 0",
        False,
    ),
]


@pytest.mark.parametrize(
    ("system", "gtp", "gtp_exact", "kgs", "kgs_exact"),
    SETTINGS,
    ids=lambda x: x.name if isinstance(x, TimeSystem) else None,
)
def test_settings_table(
    system: TimeSystem, gtp: str, gtp_exact: bool, kgs: str, kgs_exact: bool
) -> None:
    assert time_settings(system).command == gtp
    assert time_settings(system).exact == gtp_exact
    assert kgs_time_settings(system).command == kgs
    assert kgs_time_settings(system).exact == kgs_exact


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((0, 1, 0), NoTime()),  # GTP 4.2: byo-yomi time > 0 and 0 stones: no limit
        ((600, 0, 0), Absolute(600)),
        ((600, 30, 1), JapaneseByoyomi(base=600, periods=1, period=30)),
        ((3600, 600, 15), MovesPerPeriod(base=3600, moves=15, period=600)),
        ((0, 300, 25), MovesPerPeriod(base=0, moves=25, period=300)),  # Go §12.5, no main time
    ],
)
def test_from_time_settings(args: tuple[int, int, int], expected: TimeSystem) -> None:
    assert from_time_settings(*args) == expected


def test_canadian_overtime_from_the_start_round_trips_through_gtp() -> None:
    # Go §12.5 without main time: GTP "time_settings 0 600 25" is 25 moves per 10 minutes
    # from the first move; duiyi sends it back unchanged and reports the moves still due.
    system = from_time_settings(0, 600, 25)
    assert system == MovesPerPeriod(base=0, moves=25, period=600)
    assert time_settings(system).command == "time_settings 0 600 25"
    assert time_settings(system).exact
    assert kgs_time_settings(system).command == "kgs-time_settings canadian 0 600 25"
    clock = Clock(system, now=0.0)
    clock.press(BLACK, 30.0)
    clock.press(WHITE, 31.0)
    assert time_left(clock, BLACK, 41.0).command == "time_left black 560 24"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("kgs-time_settings none", NoTime()),
        ("kgs-time_settings absolute 900", Absolute(900)),
        ("kgs-time_settings byoyomi 1800 30 5", JapaneseByoyomi(base=1800, periods=5, period=30)),
        ("canadian 600 300 25", MovesPerPeriod(base=600, moves=25, period=300)),
    ],
)
def test_from_kgs(line: str, expected: TimeSystem) -> None:
    assert from_kgs_time_settings(line) == expected


@pytest.mark.parametrize("bad", ["", "byoyomi 1 2", "hourglass 5", "absolute -3", "absolute x"])
def test_bad_kgs(bad: str) -> None:
    with pytest.raises(InvalidInput):
        from_kgs_time_settings(bad)


def test_zero_everything_is_refused() -> None:
    with pytest.raises(InvalidInput):
        from_time_settings(0, 0, 0)


def test_round_trip_through_kgs() -> None:
    for system in (
        NoTime(),
        Absolute(900),
        JapaneseByoyomi(base=60, periods=5, period=30),
        MovesPerPeriod(base=600, moves=25, period=300),
    ):
        assert from_kgs_time_settings(kgs_time_settings(system).command) == system


# system, [(press times...)], now, color, plain GTP time_left, KGS time_left
TIME_LEFT = [
    (Absolute(600), [100.0], 130.0, WHITE, "time_left white 570 0", "time_left white 570 0"),
    (Absolute(600), [100.0], 130.0, BLACK, "time_left black 500 0", "time_left black 500 0"),
    # Chinese count, 10 s into the second minute of three:
    (
        ChineseByoyomi(base=60, reserved_minutes=3),
        [],
        130.0,
        BLACK,
        "time_left black 50 1",
        "time_left black 50 2",
    ),
    (
        ChineseByoyomi(base=60, reserved_minutes=3),
        [],
        30.0,
        BLACK,
        "time_left black 30 0",
        "time_left black 30 0",
    ),
    # Canadian: 10 min base gone, 3 moves in 2 min, 1 made
    (
        MovesPerPeriod(base=600, moves=3, period=120),
        [650.0, 700.0],
        700.0,
        BLACK,
        "time_left black 70 2",
        "time_left black 70 2",
    ),
    (
        MovesPerPeriod(base=600, moves=3, period=120),
        [],
        10.0,
        BLACK,
        "time_left black 590 0",
        "time_left black 590 0",
    ),
    (Fischer(300, 10), [100.0], 100.0, BLACK, "time_left black 210 0", "time_left black 210 0"),
    (NoTime(), [], 5.0, BLACK, "time_left black 0 0", "time_left black 0 0"),
]


@pytest.mark.parametrize(("system", "presses", "now", "color", "gtp", "kgs"), TIME_LEFT)
def test_time_left_table(
    system: TimeSystem, presses: list[float], now: float, color: object, gtp: str, kgs: str
) -> None:
    clock = Clock(system, now=0.0)
    for t in presses:
        assert clock.to_move is not None
        clock.press(clock.to_move, t)
    assert time_left(clock, color, now).command == gtp  # type: ignore[arg-type]
    assert time_left(clock, color, now, kgs=True).command == kgs  # type: ignore[arg-type]
