"""Hypothesis: replaying a log gives the same state and outcome; the sealed move never leaks."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE, Color
from duiyi.clock import Absolute, ChineseByoyomi, Clock, Fischer, JapaneseByoyomi, TimeSystem
from duiyi.errors import DuiyiError
from duiyi.games import GO, GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.referee import Referee
from duiyi.referee import requests as rq
from duiyi.session import Session

from .fake import FakeGame

SYSTEMS: list[TimeSystem] = [
    Absolute(120),
    Fischer(60, 5),
    ChineseByoyomi(base=30, reserved_minutes=2),
    JapaneseByoyomi(base=0, periods=2, period=20),
]

OPS = [
    "move",
    "move",
    "move",
    "pass",
    "pause",
    "resume",
    "adjourn",
    "tick",
    "warn",
    "resign",
    "request",
]

steps = st.lists(
    st.tuples(st.sampled_from(OPS), st.floats(0, 45, allow_nan=False), st.integers(0, 80)),
    max_size=30,
)


def _point(game: str, n: int) -> str:
    if game == "go":
        return "ABCDEFGHJ"[n % 9] + str(n // 9 % 9 + 1)
    if game == "gomoku":
        return "abcdefghijklmno"[n % 15] + str(n // 15 % 15 + 1)
    return f"p{n}"


def _drive(session: Session, game: str, ops: list[tuple[str, float, int]]) -> float:
    now = 0.0
    for op, dt, n in ops:
        now += dt
        player: Color = session.to_move() or (BLACK if n % 2 else WHITE)
        try:
            if op == "move":
                session.move(player, _point(game, n), now)
            elif op == "pass":
                session.pass_(player, now)
            elif op == "pause":
                session.pause(now)
            elif op == "resume":
                session.resume(now)
            elif op == "adjourn":
                session.adjourn(player, _point(game, n), now)
            elif op == "tick":
                session.tick(now)
            elif op == "warn":
                session.rule(rq.Warning(BLACK if n % 2 else WHITE, "Go §23.8"), now)
            elif op == "request":
                session.request_overtime_pass(player, now)
            elif op == "resign" and n % 7 == 0:
                session.resign(player, now)
        except DuiyiError:
            pass
    return now


def _same(a: Session, b: Session, now: float) -> None:
    assert a.to_json() == b.to_json()
    assert a.outcome() == b.outcome()
    assert a.state(now) == b.state(now)
    assert a.next_deadline(now) == b.next_deadline(now)
    assert a.to_move() == b.to_move()


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(SYSTEMS), steps, st.booleans())
def test_replaying_the_log_gives_the_same_state(
    system: TimeSystem, ops: list[tuple[str, float, int]], overtime: bool
) -> None:
    s = Session(FakeGame(), Clock(system, now=0.0), Referee(GO), overtime_pass=overtime)
    now = _drive(s, "fake", ops)
    again = Session.from_log(json.loads(json.dumps(s.to_json())))
    _same(s, again, now)
    # time keeps running the same way in both
    assert s.tick(now + 500.0) == again.tick(now + 500.0)
    _same(s, again, now + 500.0)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SYSTEMS), steps, st.sampled_from(["go", "gomoku"]))
def test_replaying_a_go_or_gomoku_session(
    system: TimeSystem, ops: list[tuple[str, float, int]], game: str
) -> None:
    if game == "go":
        s = Session(GoGame(9), Clock(system, now=0.0), Referee(GO), overtime_pass=True)
    else:
        s = Session(GomokuGame(RenjuRules.free()), Clock(system, now=0.0), Referee(GOMOKU))
    now = _drive(s, game, ops)
    again = Session.from_log(s.to_json())
    _same(s, again, now)


def _public(s: Session, now: float) -> Any:
    return json.dumps(
        [s.public_json(), s.state(now), repr(s), s.next_deadline(now)], sort_keys=True
    )


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(SYSTEMS),
    steps,
    st.lists(st.sampled_from(["tick", "warn", "move", "pause"]), max_size=6),
    st.floats(0, 30, allow_nan=False),
)
def test_the_sealed_move_never_leaks(
    system: TimeSystem, before: list[tuple[str, float, int]], after: list[str], dt: float
) -> None:
    sessions = [Session(FakeGame(), Clock(system, now=0.0), Referee(GO)) for _ in range(2)]
    nows = [_drive(s, "fake", before) for s in sessions]
    now = nows[0] + dt
    a, b = sessions
    player = a.to_move()
    if player is None or a.paused:
        return
    try:
        a.adjourn(player, "sealed-one", now)
    except DuiyiError:  # a flag fell first: nothing sealed
        return
    b.adjourn(player, "sealed-two", now)
    assert _public(a, now) == _public(b, now)
    for i, op in enumerate(after):
        now += 10.0
        results = []
        for s in (a, b):
            try:
                if op == "tick":
                    results.append([e.to_json() for e in s.tick(now)])
                elif op == "warn":
                    results.append([r.to_json() for r in s.rule(rq.Warning(WHITE), now)])
                elif op == "move":
                    s.move(player, f"x{i}", now)
                    results.append("moved")
                else:
                    s.pause(now)
                    results.append("paused")
            except DuiyiError as exc:
                results.append(type(exc).__name__)
        assert results[0] == results[1]
        assert _public(a, now) == _public(b, now)
        for s in (a, b):
            text = _public(s, now)
            assert "sealed-one" not in text and "sealed-two" not in text
    # once resumed the move is played and may be shown
    if a.outcome() is None:
        a.resume(now + 1.0)
        assert "sealed-one" in json.dumps(a.public_json())
