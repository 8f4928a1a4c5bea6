"""Lateness at the start through a session (Gomoku §8.5, Go §22.1-3): whose clock runs, who is
charged, the forfeits, and the log rebuilding the same state."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE, Color
from duiyi.clock import Absolute, ChineseByoyomi, Clock, Fischer, Lateness, TimeSystem
from duiyi.errors import DuiyiError, SessionError
from duiyi.games import GO, GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.outcome import Result, Termination
from duiyi.referee import Referee
from duiyi.session import Session

from .fake import FakeGame


def gomoku(clock: Clock) -> Session:
    return Session(GomokuGame(RenjuRules.free()), clock, Referee(GOMOKU))


def go(clock: Clock) -> Session:
    return Session(GoGame(19), clock, Referee(GO))


def rebuilt(s: Session) -> Session:
    return Session.from_log(json.loads(json.dumps(s.to_json())))


def test_gomoku_whites_clock_runs_while_white_is_away() -> None:
    # Gomoku §8.5 "即使在席的一方不行棋，对方不在席的表也要打开 ... 应在对局用时内扣除迟到时间":
    # White arrives at 600 s; Black has not moved: Black 3600 s, White 3000 s.
    s = gomoku(Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={WHITE}))
    assert s.state(300.0)["clock_running"] == "white"
    s.arrive(WHITE, 600.0)
    assert s.clock.remaining(BLACK, 600.0).base == 3600.0
    assert s.clock.remaining(WHITE, 600.0).base == 3000.0
    assert s.state(600.0)["clock_running"] == "black"
    s.move(BLACK, "h8", now=610.0)
    s.move(WHITE, "h9", now=640.0)
    assert s.clock.remaining(BLACK, 640.0).base == 3590.0
    assert s.clock.remaining(WHITE, 640.0).base == 2970.0
    again = rebuilt(s)
    assert again.to_json() == s.to_json() and again.state(700.0) == s.state(700.0)


def test_gomoku_black_moves_before_white_arrives() -> None:
    # Gomoku §8.5: Black's first move at 20 s costs nothing; White's clock ran from 0 s.
    s = gomoku(Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={WHITE}))
    s.move(BLACK, "h8", now=20.0)
    with pytest.raises(SessionError, match="not arrived"):
        s.move(WHITE, "h9", now=30.0)
    s.arrive(WHITE, 400.0)
    s.move(WHITE, "h9", now=450.0)
    assert s.clock.remaining(BLACK, 450.0).base == 3600.0
    assert s.clock.remaining(WHITE, 450.0).base == 3600.0 - 450.0
    assert rebuilt(s).to_json() == s.to_json()


def test_gomoku_absent_player_runs_out_of_time_not_the_present_one() -> None:
    # Gomoku §8.5 + §8.2: a 10-minute game, 15-minute limit; White's clock runs while he is
    # away and falls at 600 s: White loses on time, Black's 600 s untouched.
    s = gomoku(Clock(Absolute(600), now=0.0, lateness=Lateness.gomoku(900), absent={WHITE}))
    assert s.next_deadline(0.0) == 600.0
    events = s.tick(600.0)
    assert [(e.kind, e.player) for e in events] == [("flag", WHITE)]
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.TIME
    assert s.clock.remaining(BLACK, 600.0).base == 600.0
    assert rebuilt(s).outcome() == o


def test_gomoku_single_no_show_loses_and_both_absent_both_lose() -> None:
    # Gomoku §8.5 "一方迟到超过赛场规定时间，判其弃权作负。双方 ... 判双方弃权作负。"
    one = gomoku(
        Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={BLACK, WHITE})
    )
    one.arrive(BLACK, 300.0)
    one.move(BLACK, "h8", now=310.0)
    assert [e.kind for e in one.tick(900.5)] == ["no_show"]
    o = one.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.FORFEIT
    assert one.clock.remaining(BLACK, 900.5).base == 3300.0  # his own 300 s only
    assert one.result_sheet()["result"] == "forfeit-white"
    both = gomoku(
        Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={BLACK, WHITE})
    )
    both.tick(901.0)
    o2 = both.outcome()
    assert o2 is not None and o2.result is Result.BOTH_LOSE and o2.article == "Gomoku §8.5"
    assert rebuilt(one).outcome() == o and rebuilt(both).outcome() == o2


def test_go_white_late_twice_black_untouched_in_a_session() -> None:
    # Go §22.1 "未超过这一时限的，在其规定时限内加倍扣除": White 20 min late: 40 min off his
    # 3 h (10800 - 2400 = 8400 s); Black, on move meanwhile, keeps 10800 s.
    s = go(Clock(ChineseByoyomi(base=10800), now=0.0, lateness=Lateness.go(), absent={WHITE}))
    s.arrive(WHITE, 1200.0)
    assert s.clock.remaining(WHITE, 1200.0).base == 8400.0
    assert s.clock.remaining(BLACK, 1200.0).base == 10800.0
    s.move(BLACK, "Q16", now=1260.0)
    assert s.clock.remaining(BLACK, 1260.0).base == 10740.0
    assert rebuilt(s).to_json() == s.to_json()


def test_go_no_show_past_the_hour_with_black_untouched() -> None:
    # Go §22.1 "超过这一时限判负": White never comes; Black wins at 3600 s + and his clock
    # never ran.
    s = go(Clock(ChineseByoyomi(base=10800), now=0.0, lateness=Lateness.go(), absent={WHITE}))
    assert s.tick(3600.0) == []
    assert [e.kind for e in s.tick(3600.5)] == ["no_show"]
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.FORFEIT
    assert s.clock.remaining(BLACK, 3600.5).base == 10800.0


def test_go_both_late_separately_then_both_lose() -> None:
    # Go §22.3 "双方迟到应按以上两款分别处理，直至判双方负": same site (15 min). Black 5 min late
    # (10 min off), White 8 min late (16 min off); and a pair that never comes both lose.
    clock = Clock(
        ChineseByoyomi(base=3600), now=0.0, lateness=Lateness.go(True), absent={BLACK, WHITE}
    )
    s = go(clock)
    s.arrive(BLACK, 300.0)
    s.move(BLACK, "Q16", now=320.0)
    s.arrive(WHITE, 480.0)
    assert s.clock.remaining(BLACK, 480.0).base == 3000.0
    assert s.clock.remaining(WHITE, 480.0).base == 3600.0 - 960.0
    none = go(
        Clock(ChineseByoyomi(base=3600), now=0.0, lateness=Lateness.go(True), absent={BLACK, WHITE})
    )
    none.tick(900.5)
    o = none.outcome()
    assert o is not None and o.result is Result.BOTH_LOSE
    assert none.result_sheet()["result"] == "double-forfeit"


# ----------------------------------------------------------------- replay property

SYSTEMS: list[TimeSystem] = [
    Absolute(1200),
    Fischer(600, 5),
    ChineseByoyomi(base=300, reserved_minutes=2),
]

OPS = st.lists(
    st.tuples(
        st.sampled_from(["arrive", "move", "move", "tick", "pause", "resume"]),
        st.floats(0, 200, allow_nan=False),
        st.integers(0, 80),
    ),
    max_size=25,
)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(SYSTEMS),
    st.sets(st.sampled_from([BLACK, WHITE]), min_size=1),
    st.sampled_from([Lateness.go(True), Lateness.gomoku(600), Lateness.natural()]),
    OPS,
)
def test_lateness_sessions_replay_exactly(
    system: TimeSystem,
    absent: set[Color],
    lateness: Lateness,
    ops: list[tuple[str, float, int]],
) -> None:
    # Gomoku §8.5 / Go §22: the log alone rebuilds the state, whoever's clock ran meanwhile;
    # and a player present from the start is never charged before the last arrival.
    s = Session(FakeGame(), Clock(system, now=0.0, lateness=lateness, absent=absent), Referee(GO))
    present = {BLACK, WHITE} - absent
    now = 0.0
    for op, dt, n in ops:
        now += dt
        player = BLACK if n % 2 else WHITE
        try:
            if op == "arrive":
                s.arrive(player, now)
            elif op == "move":
                s.move(s.to_move() or player, f"p{n}", now)
            elif op == "tick":
                s.tick(now)
            elif op == "pause":
                s.pause(now)
            elif op == "resume":
                s.resume(now)
        except DuiyiError:
            pass
        if s.clock.absent and lateness.factor > 0 and s.outcome() is None:
            for col in present:
                assert s.clock.used(col, s.now) == 0.0
    again = Session.from_log(json.loads(json.dumps(s.to_json())))
    assert again.to_json() == s.to_json()
    assert again.state(now) == s.state(now)
    assert again.outcome() == s.outcome()
    assert again.next_deadline(now) == s.next_deadline(now)
    assert s.tick(now + 700.0) == again.tick(now + 700.0)
    assert again.to_json() == s.to_json()


def test_a_no_show_under_the_fifteen_minute_rule_cites_go_22_2() -> None:
    # Go §22.2 赛场和住地基本上同在一处的，比赛开始时棋手迟到不得超过15分钟，超过这一时限判负
    clock = Clock(Absolute(3600), now=0.0, lateness=Lateness.go(same_site=True), absent={WHITE})
    s = Session(GoGame(9), clock)
    s.tick(901.0)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.article == "Go §22.2"
    assert s.referee.rulings[-1].article == "Go §22.2"
    far = Clock(Absolute(9000), now=0.0, lateness=Lateness.go(), absent={WHITE})
    t = Session(GoGame(9), far)
    t.tick(3601.0)
    assert t.outcome().article == "Go §22.1"  # type: ignore[union-attr]
