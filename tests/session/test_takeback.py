"""A takeback by agreement in a casual game (issue 21): asked by a player, answered by the
opponent; the log replays to the same state and the clock stays consistent."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import AcceptTakeback, DeclineTakeback, RequestTakeback
from duiyi.clock import Absolute, Clock
from duiyi.errors import GameOver, IllegalAction
from duiyi.go import Game
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.session import Session


def go_session(takebacks: bool = True) -> Session:
    return Session(Game(9), Clock(Absolute(600), now=0.0), takebacks=takebacks)


def test_agreed_takeback_removes_the_answer_too_and_replays_the_same() -> None:
    s = go_session()
    s.move(BLACK, "E5", now=4.0)
    s.move(WHITE, "D5", now=10.0)
    s.apply(RequestTakeback(), 12.0, BLACK)
    assert s.state()["takeback"] == "black"
    s.apply(AcceptTakeback(), 13.0, WHITE)
    # both moves off: Black to move again, its clock running; time used stays used
    assert s.game.game.moves == [] and s.to_move() is BLACK
    assert s.clock.running_color is BLACK
    assert s.clock.used(BLACK, 20.0) == pytest.approx(14.0)  # 0-4, then 10-20
    assert s.clock.used(WHITE, 20.0) == pytest.approx(6.0)
    again = Session.from_log(s.to_json())
    assert again.state() == s.state()


def test_takeback_before_the_answer_hands_the_turn_back() -> None:
    s = go_session()
    s.move(BLACK, "E5", now=4.0)
    s.apply(RequestTakeback(), 5.0, BLACK)
    s.apply(AcceptTakeback(), 7.0, WHITE)
    # White's 3 s of thinking stay White's; Black's clock runs again from 7 s
    assert s.to_move() is BLACK and s.clock.running_color is BLACK
    assert s.clock.used(WHITE, 7.0) == pytest.approx(3.0)
    assert s.clock.used(BLACK, 9.0) == pytest.approx(6.0)


def test_declined_or_lapsed_requests_change_nothing() -> None:
    s = go_session()
    s.move(BLACK, "E5", now=1.0)
    s.apply(RequestTakeback(), 2.0, BLACK)
    s.apply(RequestTakeback(), 2.5, BLACK)  # asking again is the same request (issue 32)
    assert s.state()["takeback"] == "black"
    with pytest.raises(IllegalAction, match="asked already"):
        s.apply(RequestTakeback(), 2.5, WHITE)
    with pytest.raises(IllegalAction, match="no request to take back"):
        s.apply(AcceptTakeback(), 2.5, BLACK)  # the asker cannot answer itself
    s.apply(DeclineTakeback(), 3.0, WHITE)
    assert s.state()["takeback"] is None and len(s.game.game.moves) == 1
    s.move(WHITE, "D5", now=4.0)
    s.apply(RequestTakeback(), 5.0, WHITE)
    s.move(BLACK, "C3", now=6.0)  # Black plays instead of answering: the request ends
    assert s.state()["takeback"] is None  # (issue 32: it used to stand)
    s.apply(RequestTakeback(), 6.5, WHITE)  # on move, White asks for its D5 back ...
    s.move(WHITE, "G7", now=7.0)  # ... and plays on: the request ends too
    assert s.state()["takeback"] is None


def test_nothing_decided_and_no_event_game() -> None:
    s = go_session(takebacks=False)
    s.move(BLACK, "E5", now=1.0)
    assert not s.may_request_takeback(BLACK)
    with pytest.raises(IllegalAction, match="no takebacks"):
        s.apply(RequestTakeback(), 2.0, BLACK)
    s = go_session()
    s.move(BLACK, "E5", now=1.0)
    s.resign(WHITE, now=2.0)
    assert not s.may_request_takeback(BLACK)
    with pytest.raises(GameOver):
        s.apply(RequestTakeback(), 3.0, BLACK)
    # the count: play has stopped, the marking is not taken back
    s = go_session()
    s.pass_(BLACK, now=1.0)
    s.pass_(WHITE, now=2.0)
    with pytest.raises(IllegalAction, match="during play only"):
        s.apply(RequestTakeback(), 3.0, BLACK)


def test_gomoku_takeback_and_a_five_stays_won() -> None:
    s = Session(
        GomokuGame(RenjuRules.preset("free")), Clock(Absolute(600), now=0.0), takebacks=True
    )
    t = 0.0
    for b, w in (("h8", "a1"), ("h9", "a2"), ("h10", "a3"), ("h11", "a4")):
        t += 1
        s.move(BLACK, b, now=t)
        s.move(WHITE, w, now=t + 0.5)
    s.apply(RequestTakeback(), t + 1, WHITE)
    s.apply(AcceptTakeback(), t + 2, BLACK)
    assert s.game.game.moves[-1].point is not None and str(s.game.game.moves[-1].point) == "h11"
    assert s.to_move() is WHITE
    s.move(WHITE, "a5", now=t + 3)
    s.move(BLACK, "h12", now=t + 4)  # five in a row: decided
    assert s.outcome() is not None
    with pytest.raises(GameOver):
        s.apply(RequestTakeback(), t + 5, BLACK)


def test_a_request_ends_when_the_opponent_passes_instead() -> None:
    s = go_session()
    s.pass_(BLACK, now=1.0)
    s.apply(RequestTakeback(), 2.0, BLACK)
    s.pass_(WHITE, now=3.0)  # the opponent's pass (a move, Go §2.5) ends the request
    assert s.takeback_request is None and not s.can_take_back(BLACK)
    assert s.takeback_answer == {"asker": "black", "answer": "played_on"}
    with pytest.raises(IllegalAction, match="no request to take back"):
        s.apply(AcceptTakeback(), 4.0, WHITE)
    assert s.game.game.phase.value == "counting"


def test_taken_back_moves_leave_the_period_quota_and_old_logs_replay_as_played() -> None:
    # issue 21 (session 5's note): "taken-back moves still count toward a 'moves per period'
    # clock"; Go §12.5: so many moves in each period
    from duiyi.clock import MovesPerPeriod

    s = Session(Game(9), Clock(MovesPerPeriod(0, 5, 300), now=0.0), takebacks=True)
    s.move(BLACK, "E5", now=10.0)
    s.move(WHITE, "D5", now=30.0)
    s.apply(RequestTakeback(), 35.0, BLACK)
    s.apply(AcceptTakeback(), 36.0, WHITE)
    black, white = s.clock.remaining(BLACK, 36.0), s.clock.remaining(WHITE, 36.0)
    assert (black.periods, white.periods) == (5, 5)  # 4 each before the fix
    assert black.base == pytest.approx(300 - 16) and white.base == pytest.approx(300 - 20)
    assert Session.from_log(s.to_json()).state() == s.state()
    # a log written before the fix replays as it was played (the moves counted)
    old = s.to_json()
    del old["options"]["takeback_quota"]
    assert Session.from_log(old).clock.remaining(BLACK, 36.0).periods == 4
