"""Lateness at the start, worked by hand (Gomoku §8.5, Go §22.1-4).

Gomoku §8.5: "在比赛开始而对局者一方不在的情况下，即使在席的一方不行棋，对方不在席的表也要打开。
如果比赛开始后对局双方均不在席，则由裁判员打开一方的表，来记录双方的未到时间。在迟到时限未到，有一方
到场后，则打开对方的表 ... 迟到而未超过时限者，应在对局用时内扣除迟到时间。" — the absent player's
clock runs, the present player's never does; each late player loses its lateness once.

Go §22.1: "未超过这一时限的，在其规定时限内加倍扣除" — twice from the late player's own time; the
book does not say whose clock runs, and we read it as Gomoku says: never the present player's.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE, Color
from duiyi.clock import Absolute, ChineseByoyomi, Clock, Fischer, JapaneseByoyomi, Lateness
from duiyi.errors import ClockError


def gomoku(absent: set[Color], base: float = 3600.0) -> Clock:
    return Clock(Absolute(base), now=0.0, lateness=Lateness.gomoku(900), absent=absent)


def go(absent: set[Color], base: float = 7200.0, same_site: bool = False) -> Clock:
    return Clock(Absolute(base), now=0.0, lateness=Lateness.go(same_site), absent=absent)


def left(c: Clock, now: float) -> tuple[float, float]:
    return c.remaining(BLACK, now).base, c.remaining(WHITE, now).base


# ----------------------------------------------------------------- Gomoku §8.5


def test_gomoku_absent_white_present_black_does_not_move() -> None:
    # Gomoku §8.5 "即使在席的一方不行棋，对方不在席的表也要打开": White's clock runs from 0 s,
    # Black's does not. White arrives at 600 s: White 3600 - 600 = 3000, Black still 3600.
    c = gomoku({WHITE})
    assert c.to_move is BLACK and c.running_color is WHITE
    assert left(c, 300.0) == (3600.0, 3300.0)
    assert c.arrive(WHITE, 600.0) == 600.0
    assert left(c, 600.0) == (3600.0, 3000.0)
    # from the arrival on Black, to move, thinks on his own time: 100 s later 3500
    assert c.running_color is BLACK
    assert left(c, 700.0) == (3500.0, 3000.0)
    assert c.adjustments(BLACK) == 0.0 and c.adjustments(WHITE) == 0.0  # charged by the clock
    assert c.used(BLACK, 700.0) == 100.0 and c.used(WHITE, 700.0) == 600.0


def test_gomoku_present_black_moves_while_white_is_absent() -> None:
    # Gomoku §8.5: Black plays at 100 s; the move costs him nothing, White's clock keeps running
    # from 0 s. White arrives at 600 s with 3000 s and is on move: 50 s later 2950 s.
    c = gomoku({WHITE})
    c.press(BLACK, 100.0)
    assert c.to_move is WHITE and c.running_color is WHITE
    assert left(c, 100.0) == (3600.0, 3500.0)
    c.arrive(WHITE, 600.0)
    assert left(c, 650.0) == (3600.0, 2950.0)
    c.press(WHITE, 650.0)
    assert left(c, 660.0) == (3590.0, 2950.0)
    assert c.moves(BLACK) == 1 and c.moves(WHITE) == 1


def test_gomoku_absent_black_to_move() -> None:
    # Gomoku §8.5: Black (to move) is absent: his own clock runs; at 600 s he has 3000 s and
    # White, present, still has 3600 s.
    c = gomoku({BLACK})
    assert c.running_color is BLACK
    c.arrive(BLACK, 600.0)
    assert left(c, 600.0) == (3000.0, 3600.0)
    assert left(c, 610.0) == (2990.0, 3600.0)


def test_gomoku_both_absent_white_arrives_first() -> None:
    # Gomoku §8.5 "由裁判员打开一方的表，来记录双方的未到时间": Black's clock records. White
    # arrives at 200 s: 200 s off White (once). Black's clock runs on until he comes at 500 s:
    # 500 s off Black. Each loses exactly its own lateness.
    c = gomoku({BLACK, WHITE})
    assert c.running_color is BLACK
    c.arrive(WHITE, 200.0)
    assert left(c, 200.0) == (3400.0, 3400.0)
    assert c.running_color is BLACK
    c.arrive(BLACK, 500.0)
    assert left(c, 500.0) == (3100.0, 3400.0)
    assert (c.lateness_of(BLACK), c.lateness_of(WHITE)) == (500.0, 200.0)


def test_gomoku_both_absent_black_arrives_first_then_whites_clock_runs() -> None:
    # Gomoku §8.5 "有一方到场后，则打开对方的表": Black comes at 200 s (200 s off), then White's
    # clock runs. Black moves at 250 s for nothing; White comes at 500 s: 500 s off White, and
    # White's own turn runs on: at 520 s White has 3600 - 500 - 20 = 3080 s.
    c = gomoku({BLACK, WHITE})
    c.arrive(BLACK, 200.0)
    assert c.to_move is BLACK and c.running_color is WHITE
    assert left(c, 300.0) == (3400.0, 3500.0)
    c.press(BLACK, 250.0)
    c.arrive(WHITE, 500.0)
    assert left(c, 520.0) == (3400.0, 3080.0)
    assert math.isclose(c.used(BLACK, 520.0) + c.used(WHITE, 520.0), c.elapsed(520.0))


def test_gomoku_absent_player_whose_whole_time_runs_out_flags_not_the_present_one() -> None:
    # Gomoku §8.5 with a 10-minute game and a 15-minute limit: White's clock runs while he is
    # away and falls at 600 s; Black's never ran.
    c = gomoku({WHITE}, base=600.0)
    assert c.flag_time() == 600.0
    assert c.flagged(599.0) is None and c.flagged(600.0) is WHITE
    assert c.remaining(BLACK, 600.0).base == 600.0


def test_gomoku_forfeits_still_fire() -> None:
    # Gomoku §8.5 "一方迟到超过赛场规定时间，判其弃权作负 ... 双方 ... 判双方弃权作负"
    one = gomoku({WHITE})
    assert one.late_forfeits(900.0) == frozenset()
    assert one.late_forfeits(900.5) == frozenset({WHITE})
    with pytest.raises(ClockError, match="past the 900 s limit"):
        one.arrive(WHITE, 901.0)
    both = gomoku({BLACK, WHITE})
    assert both.late_forfeits(901.0) == frozenset({BLACK, WHITE})
    half = gomoku({BLACK, WHITE})
    half.arrive(BLACK, 100.0)
    assert half.late_forfeits(901.0) == frozenset({WHITE})


def test_an_absent_player_cannot_press() -> None:
    # Gomoku §8.5 / Go §22: a player who has not arrived has no move to finish
    c = gomoku({BLACK})
    with pytest.raises(ClockError, match="not arrived"):
        c.press(BLACK, 10.0)


# ----------------------------------------------------------------- Go §22


def test_go_absent_white_is_charged_twice_and_black_nothing() -> None:
    # Go §22.1 "在其规定时限内加倍扣除": White 10 min late: his clock ran 600 s and 600 s more
    # are taken: 7200 - 1200 = 6000. Black (present, to move, not moving) keeps 7200.
    c = go({WHITE})
    assert c.running_color is WHITE
    c.arrive(WHITE, 600.0)
    assert left(c, 600.0) == (7200.0, 6000.0)
    assert c.adjustments(WHITE) == -600.0 and c.adjustments(BLACK) == 0.0


def test_go_absent_black_is_charged_twice() -> None:
    # Go §22.1: Black (to move) 10 min late: 1200 s off; White untouched.
    c = go({BLACK})
    c.arrive(BLACK, 600.0)
    assert left(c, 600.0) == (6000.0, 7200.0)


def test_go_present_black_moves_then_white_arrives() -> None:
    # Go §22.1: Black moves at 60 s (free); White arrives at 300 s: 600 s off White; Black 7200.
    c = go({WHITE})
    c.press(BLACK, 60.0)
    c.arrive(WHITE, 300.0)
    assert left(c, 300.0) == (7200.0, 6600.0)


def test_go_same_site_limit_is_inclusive() -> None:
    # Go §22.2 "不得超过15分钟": arriving at 900 s costs 1800 s; later forfeits.
    c = go({WHITE}, same_site=True)
    assert c.late_forfeits(900.0) == frozenset()
    c.arrive(WHITE, 900.0)
    assert left(c, 900.0) == (7200.0, 5400.0)
    past = go({WHITE}, same_site=True)
    assert past.late_forfeits(900.5) == frozenset({WHITE})


def test_go_both_late_handled_separately() -> None:
    # Go §22.3 "双方迟到应按以上两款分别处理": White 300 s late: 600 off; Black 500 s late:
    # 1000 off. Both absent past an hour: both lose.
    c = go({BLACK, WHITE})
    c.arrive(WHITE, 300.0)
    c.arrive(BLACK, 500.0)
    assert left(c, 500.0) == (6200.0, 6600.0)
    both = go({BLACK, WHITE})
    assert both.late_forfeits(3600.0) == frozenset()
    assert both.late_forfeits(3601.0) == frozenset({BLACK, WHITE})


def test_go_lateness_into_the_reserved_minutes_leaves_the_present_player_alone() -> None:
    # Go §22.1 with 10 min base and 5 reserved minutes: White 6 min late: 12 min off, so the
    # base and 2 of the minutes are gone (3 left); Black keeps all of his.
    c = Clock(
        ChineseByoyomi(base=600, reserved_minutes=5),
        now=0.0,
        lateness=Lateness.go(),
        absent={WHITE},
    )
    c.arrive(WHITE, 360.0)
    w, b = c.remaining(WHITE, 360.0), c.remaining(BLACK, 360.0)
    assert (w.base, w.periods) == (0.0, 3)
    assert (b.base, b.periods) == (600.0, 5)


def test_go_natural_timing_runs_the_clock_of_the_player_to_move() -> None:
    # Go §22.1 "暂停后续弈时迟到，一律打开计时器进入自然计时状态" and §22.4: natural timing is
    # the clock as it stands; nothing is charged beyond what the running clock took.
    c = Clock(JapaneseByoyomi.fast(30), now=0.0, lateness=Lateness.natural(), absent={WHITE})
    assert c.running_color is BLACK
    c.press(BLACK, 10.0)
    assert c.running_color is WHITE
    c.arrive(WHITE, 35.0)
    assert c.remaining(WHITE, 35.0).period_time == pytest.approx(5.0)


def test_fischer_move_during_absence_earns_the_increment_only() -> None:
    # Gomoku §8.2 加秒制 with §8.5: Black's move while White is absent takes no time and adds
    # the 10 s increment; White's clock ran from 0 s.
    c = Clock(Fischer(base=600, increment=10), now=0.0, lateness=Lateness.gomoku(), absent={WHITE})
    c.press(BLACK, 30.0)
    assert left(c, 40.0) == (610.0, 560.0)


def test_snapshot_keeps_whose_clock_runs() -> None:
    # Gomoku §8.5: a rebuilt clock still runs the absent player's time
    c = gomoku({WHITE})
    d = Clock.from_json(c.to_json())
    assert d.running_color is WHITE and left(d, 300.0) == (3600.0, 3300.0)
    d.arrive(WHITE, 600.0)
    assert Clock.from_json(d.to_json()).to_json() == d.to_json()
    assert "runner" not in d.to_json()  # back to the player to move: the old format


# ----------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([1, 2]),
    st.sets(st.sampled_from([BLACK, WHITE]), min_size=1),
    st.floats(0, 900, allow_nan=False),
    st.floats(0, 900, allow_nan=False),
    st.floats(0, 900, allow_nan=False),
)
def test_each_late_player_loses_exactly_factor_times_its_lateness(
    factor: int, absent: set[Color], black_at: float, white_at: float, press_at: float
) -> None:
    # Gomoku §8.5 (factor 1), Go §22.1-3 (factor 2): whatever the order of the arrivals and
    # whether Black, once present, moves meanwhile, at the last arrival each late player has
    # lost factor × its lateness and an on-time player nothing; all clock time went to someone.
    base = 10_000.0
    c = Clock(Absolute(base), now=0.0, lateness=Lateness(factor, 900.0), absent=absent)
    late = {col: t for col, t in ((BLACK, black_at), (WHITE, white_at)) if col in absent}
    last = max(late.values())
    black_here = late.get(BLACK, 0.0)
    events: list[tuple[float, int, Color]] = [(t, 0, col) for col, t in late.items()]
    if black_here <= press_at < last:
        events.append((press_at, 1, BLACK))  # Black's first move while White is still away
    for t, kind, col in sorted(events, key=lambda e: (e[0], e[1])):
        if kind == 0:
            assert c.arrive(col, t) == t
        else:
            c.press(col, t)
    for col in (BLACK, WHITE):
        assert c.remaining(col, last).base == pytest.approx(base - factor * late.get(col, 0.0))
    assert c.running_color is c.to_move and not c.absent
    assert math.isclose(c.used(BLACK, last) + c.used(WHITE, last), c.elapsed(last), abs_tol=1e-6)
    d = Clock.from_json(c.to_json())
    for col in (BLACK, WHITE):
        assert d.remaining(col, last + 5.0) == c.remaining(col, last + 5.0)


@settings(max_examples=100, deadline=None)
@given(st.floats(0, 900, allow_nan=False), st.floats(0, 900, allow_nan=False))
def test_the_present_player_reads_the_same_as_without_an_opponent(
    arrive_at: float, press_at: float
) -> None:
    # Gomoku §8.5: White away until ``arrive_at``; Black, present, may move before that. At
    # the arrival Black's reading is his full time: the opponent's absence never cost him.
    c = gomoku({WHITE})
    if press_at < arrive_at:
        c.press(BLACK, press_at)
    c.arrive(WHITE, arrive_at)
    assert c.remaining(BLACK, arrive_at).base == 3600.0
    assert c.remaining(WHITE, arrive_at).base == pytest.approx(3600.0 - arrive_at)
