"""When a game's clock starts (issue 21): a casual game's clock waits until both players are
there (or until the first move, as the creator chooses); an event's game keeps its scheduled
start and the lateness rules (Go §22, Gomoku §8.5).
Books: 围棋竞赛规则 (2002), 中国五子棋竞赛规则 (2013).
"""

from __future__ import annotations

import json

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import Open
from duiyi.clock import Absolute, ChineseByoyomi, Clock, Lateness
from duiyi.errors import InvalidInput, SessionError
from duiyi.games import GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.referee import Referee
from duiyi.session import Session


def rebuilt(s: Session) -> Session:
    return Session.from_log(json.loads(json.dumps(s.to_json())))


def test_seated_clock_waits_for_both_players_and_charges_nobody() -> None:
    # issue 21: 13 s were gone before Black opened the link; now nobody's time runs until both
    # have sat down, and then it is the player to move's (Go §12: each player's own time)
    s = Session(GoGame(9), Clock(Absolute(60), now=0.0), start_rule="seated")
    assert s.clock_start_json() == {
        "start_rule": "seated",
        "started": False,
        "waiting_for": ["black", "white"],
        "lateness": None,
    }
    assert s.tick(500.0) == [] and s.outcome() is None  # no flag while nobody is there
    s.arrive(WHITE, now=600.0)
    assert s.clock.running_color is None and s.waiting_for() == (BLACK,)
    s.arrive(BLACK, now=613.0)
    assert s.clock_started and s.clock.running_color is BLACK
    assert s.clock.remaining(BLACK, 613.0).base == 60.0
    assert s.clock.remaining(BLACK, 620.0).base == 53.0
    assert s.clock.remaining(WHITE, 620.0).base == 60.0
    assert s.state(620.0)["clock_start"]["started"] is True
    assert rebuilt(s).to_json() == s.to_json()


def test_seated_clock_an_action_is_sitting_down() -> None:
    # a player who plays without opening the page first is there: its move costs nothing
    # while the opponent has not come; the opponent's clock starts when it sits down
    s = Session(GoGame(9), Clock(Absolute(60), now=0.0), start_rule="seated")
    s.move(BLACK, "E5", now=5.0)
    assert not s.clock_started and s.waiting_for() == (WHITE,)
    assert s.tick(1000.0) == []
    s.arrive(WHITE, now=1000.0)
    assert s.clock.running_color is WHITE
    s.move(WHITE, "C3", now=1010.0)
    assert s.clock.used(WHITE, 1010.0) == 10.0 and s.clock.used(BLACK, 1010.0) == 0.0
    with pytest.raises(SessionError, match="not marked absent"):
        s.arrive(BLACK, now=1011.0)  # sitting down twice changes nothing: refused
    assert rebuilt(s).to_json() == s.to_json()


def test_first_move_clock_starts_with_the_first_move() -> None:
    # the creator's other choice: Black's first move costs nothing, White's time runs from it
    s = Session(
        GoGame(9),
        Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0),
        start_rule="first_move",
    )
    assert s.clock.running_color is None and s.tick(3600.0) == []
    assert s.waiting_for() == ()
    s.move(BLACK, "E5", now=3600.0)
    assert s.clock_started and s.clock.running_color is WHITE
    assert s.clock.used(BLACK, 3600.0) == 0.0
    assert rebuilt(s).to_json() == s.to_json()


def test_first_move_of_a_gomoku_opening() -> None:
    # Gomoku §8.4 开动黑方棋钟 at the start; a first-move start begins with the opening
    s = Session(
        GomokuGame(RenjuRules.chinese_2013()),
        Clock(Absolute(600), now=0.0),
        Referee(GOMOKU),
        start_rule="first_move",
    )
    s.apply(Open(("h8", "h9", "j10"), 2), 100.0, BLACK)
    assert s.clock.running_color is WHITE and s.clock.used(BLACK, 100.0) == 0.0


def test_an_events_scheduled_start_keeps_the_lateness_rules() -> None:
    # Go §22.1: late time taken twice; the state says the lateness rule applies
    clock = Clock(Absolute(3600), now=0.0, lateness=Lateness.go(), absent={BLACK, WHITE})
    s = Session(GoGame(9), clock)
    info = s.clock_start_json()
    assert info["start_rule"] == "scheduled" and info["started"] is True
    assert info["waiting_for"] == ["black", "white"]
    assert info["lateness"] == {"factor": 2, "limit": 3600.0, "article": "Go §22.1"}
    s.arrive(BLACK, now=0.0)
    s.arrive(WHITE, now=300.0)
    assert s.clock.remaining(WHITE, 300.0).base == 3000.0
    assert s.clock_start_json()["lateness"] is not None  # still said after arrival


def test_lateness_goes_with_a_scheduled_start_only() -> None:
    clock = Clock(Absolute(3600), now=0.0, lateness=Lateness.go(), absent={BLACK, WHITE})
    with pytest.raises(InvalidInput, match="scheduled start"):
        Session(GoGame(9), clock, start_rule="seated")
    with pytest.raises(InvalidInput, match="start_rule"):
        Session(GoGame(9), Clock(Absolute(60), now=0.0), start_rule="whenever")


def test_logs_without_a_start_rule_started_at_once() -> None:
    s = Session(GoGame(9), Clock(Absolute(60), now=0.0))
    log = s.to_json()
    assert "start_rule" not in log["options"]
    again = Session.from_log(log)
    assert again.start_rule == "scheduled" and again.clock.running_color is BLACK
