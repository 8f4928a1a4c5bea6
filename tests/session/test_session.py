"""Sessions: game + clock + referee under one log (fake game, Go and Gomoku)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from duiyi import BLACK, WHITE
from duiyi.actions import ChooseFifth, Open, ProposeFifth, Swap
from duiyi.clock import (
    Absolute,
    ChineseByoyomi,
    Clock,
    Fischer,
    JapaneseByoyomi,
    Lateness,
    SharedPool,
)
from duiyi.errors import GameOver, IllegalAction, InvalidInput, RefereeError, SessionError
from duiyi.games import GO, GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import FoulPolicy, RenjuRules
from duiyi.gomoku import Game as GomokuGame
from duiyi.outcome import Result, Termination
from duiyi.referee import Decision, Referee
from duiyi.referee import requests as rq
from duiyi.session import LogEntry, Session
from duiyi.session.core import OVERRUN_GRACE

from .fake import FakeGame


def fake(system: object = None, **clock_kw: object) -> Session:
    clock = Clock(system or Absolute(600), now=0.0, **clock_kw)  # type: ignore[arg-type]
    return Session(FakeGame(), clock, Referee(GO))


def rebuilt(s: Session) -> Session:
    return Session.from_log(json.loads(json.dumps(s.to_json())))


def test_moves_press_the_clock() -> None:
    s = fake()
    s.move(BLACK, "a", now=10.0)
    s.move(WHITE, "b", now=25.0)
    assert s.clock.to_move is BLACK
    assert s.clock.used(BLACK, 25.0) == 10.0 and s.clock.used(WHITE, 25.0) == 15.0
    assert [a.type for a in s.log] == ["move", "move"]
    assert rebuilt(s).to_json() == s.to_json()


def test_refused_actions_are_not_logged() -> None:
    s = fake()
    s.move(BLACK, "a", now=1.0)
    with pytest.raises(IllegalAction):
        s.move(BLACK, "b", now=2.0)  # not Black's turn
    with pytest.raises(IllegalAction):
        s.move(WHITE, "a", now=3.0)  # occupied
    with pytest.raises(SessionError, match="backwards"):
        s.move(WHITE, "c", now=0.5)
    assert len(s.log) == 1 and s.clock.to_move is WHITE


def test_flag_falls_between_actions() -> None:
    # Go §12.4: White's 60 s run out at 70 s; a move at 80 s comes too late.
    s = fake(Absolute(60))
    s.move(BLACK, "a", now=10.0)
    with pytest.raises(GameOver, match="time"):
        s.move(WHITE, "b", now=80.0)
    flag = s.log[-1]
    assert (flag.type, flag.at, flag.player) == ("flag", 70.0, WHITE)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.TIME
    assert rebuilt(s).outcome() == o


def test_go_move_exactly_at_60_seconds_on_the_last_minute_loses() -> None:
    # Go §12.3: "10" called as the stone lands counts as the minute used: on the last, a loss.
    # With no grace for a Go §22.5 request the loss is ruled at the overrun.
    clock = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    s = Session(GoGame(9), clock, overrun_grace=0)
    s.move(BLACK, "E5", now=59.9)
    with pytest.raises(GameOver):
        s.move(WHITE, "C3", now=119.9)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.article == "Go §12.3"
    # With the default grace the late stone is refused and nothing is logged; the loss is
    # ruled when the grace ends without a request.
    s = Session(GoGame(9), Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0))
    s.move(BLACK, "E5", now=59.9)
    with pytest.raises(SessionError, match="too late"):
        s.move(WHITE, "C3", now=119.9)
    assert s.outcome() is None and [a.type for a in s.log] == ["move"]
    s.tick(119.9 + OVERRUN_GRACE)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.article == "Go §12.3"


def test_go_minute_used_at_exactly_60_seconds() -> None:
    # Go §12.3: with 3 minutes, a move at exactly 60 s uses one: 2 left.
    s = Session(GoGame(9), Clock(ChineseByoyomi(base=0, reserved_minutes=3), now=0.0))
    s.move(BLACK, "E5", now=60.0)
    assert s.clock.remaining(BLACK, 60.0).periods == 2


def test_tick_reports_calls_and_the_flag() -> None:
    s = Session(GoGame(9), Clock(ChineseByoyomi(base=0, reserved_minutes=2), now=0.0))
    events = s.tick(61.0)
    assert [e.zh for e in events] == ["30秒", "40秒", "50秒", "55秒", "58秒", "1分钟，还剩1分钟"]
    assert s.next_deadline(61.0) == 90.0
    assert s.tick(61.0) == []  # nothing twice
    s.move(BLACK, "E5", now=62.0)
    assert s.next_deadline(62.0) == 92.0  # White's count
    events = s.tick(200.0)
    # Go §22.5: the overrun at 182 s is announced; asked nothing, the loss follows the grace
    assert events[-1].kind == "flag" and events[-1].at == 182.0 + OVERRUN_GRACE
    calls = [e for e in events if e.kind == "call"]
    assert calls[-2].zh == "10" and calls[-1].at == 182.0 and "Go §22.5" in calls[-1].en
    assert s.next_deadline(200.0) is None
    assert s.log[-1].type == "flag"


def test_pause_and_resume() -> None:
    # Go §14: time during the pause is not counted; no moves while paused.
    s = fake(Absolute(100))
    s.move(BLACK, "a", now=10.0)
    s.pause(30.0)
    with pytest.raises(SessionError, match="paused"):
        s.move(WHITE, "b", now=40.0)
    assert s.tick(5000.0) == []
    s.resume(5000.0)
    s.move(WHITE, "b", now=5010.0)
    assert s.clock.used(WHITE, 5010.0) == 30.0
    assert rebuilt(s).to_json() == s.to_json()


def test_adjourn_with_sealed_move() -> None:
    # Go §14 / Gomoku §9.3-9.4: the sealed move stays hidden and is played on resumption,
    # costing the time used before sealing.
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    s.move(BLACK, "E5", now=5.0)
    with pytest.raises(SessionError, match="on move"):
        s.adjourn(BLACK, "C3", now=20.0)
    s.adjourn(WHITE, "G7", now=20.0)
    assert s.adjourned_by is WHITE
    assert "G7" not in json.dumps(s.public_json())
    assert "G7" not in json.dumps(s.state(100.0))
    assert "G7" in json.dumps(s.to_json())  # the arbiter's envelope keeps it
    with pytest.raises(SessionError):
        s.move(WHITE, "C3", now=50.0)
    again = rebuilt(s)
    assert again.adjourned_by is WHITE
    s.resume(86400.0)
    assert s.to_move() is BLACK
    assert s.clock.used(WHITE, 86400.0) == 15.0
    assert "G7" in json.dumps(s.public_json())
    again.resume(86400.0)
    assert again.to_json() == s.to_json()


def test_illegal_sealed_move_loses() -> None:
    # Gomoku §9.3(6): the sealed move must be legal, else the game is lost.
    s = Session(GomokuGame(RenjuRules.free()), Clock(Absolute(600), now=0.0), Referee(GOMOKU))
    s.move(BLACK, "h8", now=1.0)
    s.adjourn(WHITE, "h8", now=2.0)  # occupied
    s.resume(3.0)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.article == "Gomoku §9.3(6)"
    assert s.sealed_error


def test_no_show_by_tick_and_both_late() -> None:
    # Go §22.1: past one hour, the absent player loses; Go §22.3: both absent, both lose.
    s = fake(Absolute(7200), lateness=Lateness.go(), absent={WHITE})
    s.move(BLACK, "a", now=30.0)
    assert s.next_deadline(100.0) == pytest.approx(3600.0)
    assert s.tick(3600.0) == []  # exactly one hour is still in time
    events = s.tick(3600.5)
    assert [e.kind for e in events] == ["no_show"]
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.FORFEIT
    both = fake(Absolute(7200), lateness=Lateness.gomoku(900), absent={BLACK, WHITE})
    both.tick(901.0)
    o2 = both.outcome()
    assert o2 is not None and o2.result is Result.BOTH_LOSE
    assert rebuilt(both).outcome() == o2


def test_late_arrival_is_charged() -> None:
    # Go §22.1: late time taken twice; the absent player cannot move before arriving.
    s = fake(Absolute(3600), lateness=Lateness.go(), absent={BLACK})
    with pytest.raises(SessionError, match="not arrived"):
        s.move(BLACK, "a", now=10.0)
    s.arrive(BLACK, 600.0)
    assert s.clock.remaining(BLACK, 600.0).base == 2400.0
    s.move(BLACK, "a", now=610.0)
    assert rebuilt(s).to_json() == s.to_json()


def test_go_warnings_reach_the_count_and_the_second_loses() -> None:
    # Go §24.1-2 through the session: the game's count and the ledger agree.
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "E5", now=1.0)
    s.rule(rq.Warning(WHITE, "Go §17.4"), 2.0)
    go_game = s.game.game  # type: ignore[attr-defined]
    assert go_game.warnings[WHITE] == 1 and s.referee.warnings(WHITE) == 1
    assert s.outcome() is None
    s.rule(rq.Warning(WHITE, "Go §23.8"), 3.0)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.WARNINGS
    assert s.clock.to_move is None
    assert rebuilt(s).outcome() == o


def test_void_move_in_referee_mode() -> None:
    # Go §18.3: void, a pass and a warning.
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "E5", now=1.0)
    rulings = s.rule(rq.VoidMove(WHITE, "Go §18.3"), 5.0)
    assert [r.kind.value for r in rulings] == ["void_move", "warning"]
    assert s.to_move() is BLACK and s.clock.to_move is BLACK
    assert s.referee.warnings(WHITE) == 1
    assert rebuilt(s).to_json() == s.to_json()


def test_time_penalty_through_the_session() -> None:
    # Gomoku §12.3(3)A.
    s = Session(GomokuGame(RenjuRules.free()), Clock(Absolute(1800), now=0.0), Referee(GOMOKU))
    s.rule(rq.Violation(BLACK, "Gomoku §12.3(3)A", note="pressed before placing"), 1.0)
    s.rule(rq.TimePenalty(BLACK, deduct=120, award=300), 1.0)
    assert s.clock.remaining(WHITE, 1.0).base == 2100.0
    assert s.clock.remaining(BLACK, 1.0).base == 1800 - 120 - 1
    assert s.referee.violations(BLACK) == 1


def test_wrong_colours_restart_with_seats_swapped() -> None:
    # Gomoku §5.2: found before white 4: restart, colours corrected, clocks reset.
    s = Session(GomokuGame(RenjuRules.free()), Clock(Absolute(600), now=0.0), Referee(GOMOKU))
    s.move(BLACK, "h8", now=10.0)
    s.move(WHITE, "h9", now=20.0)
    (r,) = s.rule(rq.ColourCorrection(), 30.0)
    assert r.restart and s.seats_swapped and s.restarts == 1
    assert s.game.moves_played() == 0
    assert s.clock.remaining(BLACK, 30.0).base == 600.0
    assert s.clock.to_move is BLACK
    s.move(BLACK, "h8", now=40.0)
    assert rebuilt(s).to_json() == s.to_json()
    # Go §17.1: after move 10, no correction; play goes on.
    g = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    for i, p in enumerate(["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1", "A2", "B2"]):
        g.move(BLACK if i % 2 == 0 else WHITE, p, now=float(i + 1))
    (late,) = g.rule(rq.ColourCorrection(), 20.0)
    assert not late.restart and g.game.moves_played() == 11


def test_adjudications_end_the_game() -> None:
    # Go §17.5(3): moved stones, no agreement: a draw.
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    s.rule(rq.MovedStones(Decision.DRAW), 5.0)
    o = s.outcome()
    assert o is not None and o.result is Result.DRAW and o.article == "Go §17.5"
    with pytest.raises(GameOver):
        s.move(BLACK, "E5", now=6.0)
    with pytest.raises(RefereeError):
        s.rule(rq.Forfeit(BLACK, "Go §23.7"), 7.0)
    s.rule(rq.Forfeit(BLACK, "Go §23.1", override=True), 8.0)  # cheating found later
    o2 = s.outcome()
    assert o2 is not None and o2.winner is WHITE
    assert rebuilt(s).outcome() == o2


def test_overtime_pass_option() -> None:
    # Go §22.5: over the last minute, on the standing request, one pass and no warning
    # (DECISIONS.md); the same byo-yomi goes on, and a second overrun is a second pass.
    s = Session(
        GoGame(9),
        Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0),
        Referee(GO),
        overtime_pass=True,
    )
    events = s.tick(61.0)
    assert events[-1].kind == "overtime_pass" and events[-1].at == 60.0
    assert s.to_move() is WHITE and s.clock.to_move is WHITE
    assert s.referee.warnings(BLACK) == 0 and s.outcome() is None
    assert s.game.game.warnings[BLACK] == 0  # no stone off the count (Go §24.1)
    s.move(WHITE, "E5", now=70.0)
    events = s.tick(131.0)
    assert [(e.kind, e.at) for e in events if e.kind != "call"] == [("overtime_pass", 130.0)]
    assert s.outcome() is None and s.referee.warnings(BLACK) == 0
    assert s.clock.remaining(BLACK, 131.0).periods == 1
    assert rebuilt(s).to_json() == s.to_json()


def test_go_counting_stops_and_dispute_restarts_the_clock() -> None:
    # Go §12.4(4), §21.4.
    s = Session(GoGame(9), Clock(Fischer(300, 0), now=0.0))
    s.move(BLACK, "E5", now=1.0)
    s.pass_(WHITE, now=2.0)
    s.pass_(BLACK, now=3.0)
    assert s.to_move() is None and s.clock.to_move is None
    assert s.tick(10_000.0) == []
    s.dispute(WHITE, "E5", now=10_000.0)  # White says E5 is dead: White to move
    assert s.clock.to_move is WHITE
    s.pass_(WHITE, now=10_001.0)
    s.pass_(BLACK, now=10_002.0)
    s.accept(BLACK, now=10_003.0)
    s.accept(WHITE, now=10_004.0)
    o = s.outcome()
    assert o is not None and o.termination is Termination.COUNT and o.winner is BLACK
    assert rebuilt(s).outcome() == o


def test_gomoku_swap_keeps_clocks_with_the_seats() -> None:
    # Gomoku §2.9: after the swap the Black seat holds White; its clock is still its own.
    s = Session(
        GomokuGame(RenjuRules.chinese_2013()), Clock(Absolute(600), now=0.0), Referee(GOMOKU)
    )
    s.apply(Open(("h8", "h9", "j10"), 2), 30.0, BLACK)
    assert s.to_move() is WHITE
    s.apply(Swap(), 40.0, WHITE)
    assert s.to_move() is BLACK  # the opener, now White, plays white 4
    s.move(BLACK, "i9", now=50.0)
    assert s.clock.used(BLACK, 50.0) == 40.0 and s.clock.used(WHITE, 50.0) == 10.0
    s.apply(ProposeFifth(("g10", "k7")), 60.0, WHITE)
    s.apply(ChooseFifth("k7"), 70.0, BLACK)
    assert s.to_move() is BLACK  # White (Black seat) keeps one and plays white 6
    assert s.clock.to_move is BLACK
    assert rebuilt(s).to_json() == s.to_json()


def test_gomoku_draw_agreed() -> None:
    # Gomoku §10.3: an offer right after one's own move; accepted: a draw.
    s = Session(GomokuGame(RenjuRules.free()), Clock(Absolute(600), now=0.0), Referee(GOMOKU))
    s.move(BLACK, "h8", now=1.0)
    s.offer_draw(BLACK, now=1.5)
    s.answer_draw(WHITE, True, now=3.0)
    o = s.outcome()
    assert o is not None and o.result is Result.DRAW and o.termination is Termination.AGREEMENT
    with pytest.raises(IllegalAction):
        Session(GoGame(9), Clock(Absolute(60), now=0.0)).offer_draw(BLACK, 1.0)


def test_shared_pool_in_a_session() -> None:
    s = fake(SharedPool(1000))
    s.move(BLACK, "a", now=200.0)
    s.split_pool(400.0)  # 600 left: 300 each
    s.move(WHITE, "b", now=450.0)
    assert s.clock.remaining(WHITE, 450.0).base == 250.0
    assert rebuilt(s).to_json() == s.to_json()


def test_claims() -> None:
    s = fake(JapaneseByoyomi.fast(10))
    with pytest.raises(IllegalAction):
        s.claim(WHITE, 5.0, "flag")
    s.claim(WHITE, 10.0, "flag")  # Black's flag fell at 10 s
    o = s.outcome()
    assert o is not None and o.winner is WHITE


def test_bad_logs() -> None:
    with pytest.raises(SessionError):
        Session.from_log({"v": 2})
    s = fake()
    s.move(BLACK, "a", now=5.0)
    log = s.to_json()
    log["actions"].append({"v": 1, "type": "move", "at": 1.0, "player": "white", "point": "b"})
    with pytest.raises(SessionError, match="back in time"):
        Session.from_log(log)
    log = s.to_json()
    log["actions"].append({"v": 1, "type": "flag", "at": 6.0, "player": "white"})
    with pytest.raises(SessionError, match="flag"):
        Session.from_log(log)
    with pytest.raises(SessionError):
        LogEntry.from_json({"v": 1, "type": "teleport", "at": 0})
    with pytest.raises(InvalidInput):
        s.rule("banish", 6.0)  # type: ignore[arg-type]  (no such ruling)


def test_state_snapshot() -> None:
    s = Session(GoGame(9), Clock(ChineseByoyomi(base=60, reserved_minutes=2), now=0.0))
    s.move(BLACK, "E5", now=10.0)
    st = s.state(20.0)
    assert st["to_move"] == "white" and st["clock_running"] == "white"
    assert st["clock"]["white"]["base"] == 50.0
    assert st["clock"]["black"]["periods"] == 2
    assert st["game"]["moves"] == [["black", "E5"]]
    json.dumps(st)
    assert "go" in repr(s)


def test_gomoku_outcome_names_the_seat_after_a_swap() -> None:
    # Gomoku §2.9: after the swap the Black seat holds White; its resignation wins for the
    # White seat (who holds the black stones).
    s = Session(
        GomokuGame(RenjuRules.chinese_2013()), Clock(Absolute(600), now=0.0), Referee(GOMOKU)
    )
    s.apply(Open(("h8", "h9", "j10"), 1), 30.0, BLACK)
    s.apply(Swap(), 40.0, WHITE)
    s.resign(BLACK, now=50.0)
    o = s.outcome()
    assert o is not None and o.winner is WHITE
    assert s.game.game.outcome().winner is BLACK  # type: ignore[attr-defined]
    assert s.result_sheet()["result"] == "0-1"


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ("resign-white", "1-0"),
        ("no-show-black", "forfeit-black"),
        ("no-show-both", "double-forfeit"),
        ("both-lose", "both-lose"),
        ("draw", "draw"),
        ("playing", None),
    ],
)
def test_result_sheet_codes(setup: str, code: str | None) -> None:
    absent = {"no-show-black": {BLACK}, "no-show-both": {BLACK, WHITE}}.get(setup, set())
    s = Session(GoGame(9), Clock(Absolute(7200), now=0.0, lateness=Lateness.go(), absent=absent))
    if setup == "resign-white":
        s.resign(WHITE, now=1.0)
    elif setup.startswith("no-show"):
        s.tick(4000.0)
    elif setup == "both-lose":
        s.rule(rq.Scattered(Decision.BOTH_LOSE), 5.0)
    elif setup == "draw":
        s.rule(rq.MovedStones(Decision.DRAW), 5.0)
    s.rule(rq.Warning(BLACK), 6.0) if setup == "playing" else None
    sheet = s.result_sheet()
    assert sheet["result"] == code
    if setup == "playing":
        assert sheet["black_warnings"] == 1


def test_handicap_game_starts_with_white_clock() -> None:
    # Go: with fixed handicap stones White moves first; the clock follows without a move.
    s = Session(GoGame(9, handicap=2), Clock(Absolute(600), now=0.0))
    assert s.to_move() is WHITE and s.clock.to_move is WHITE
    assert s.clock.moves(BLACK) == 0
    s.move(WHITE, "E5", now=5.0)
    assert rebuilt(s).to_json() == s.to_json()


def test_referee_must_match_the_game() -> None:
    with pytest.raises(InvalidInput, match="Referee"):
        Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GOMOKU))


def test_golden_log_v1_still_loads() -> None:
    # The stored format is stable: a version-1 log written earlier rebuilds the same state and
    # writes itself back unchanged. (Go §22.2 lateness taken twice, §24 warning, §14 pause and
    # sealed move, §22.5 pass on overtime.)
    path = Path(__file__).parent / "data" / "go_session_v1.json"
    log = json.loads(path.read_text(encoding="utf-8"))
    s = Session.from_log(log)
    assert s.to_json() == log
    assert [a.type for a in s.log] == [
        "move",
        "arrive",
        "move",
        "ruling",
        "pause",
        "resume",
        "adjourn",
        "resume",
        "overtime_pass",
    ]
    assert s.game.state_json()["moves"] == [
        ["black", "E5"],
        ["white", "C3"],
        ["black", "G7"],
        ["white", None],
    ]
    # the log's overtime pass was written when duiyi wrongly added a warning to it: replayed
    # under Go §22.5 as read now, it is a pass only (the log itself is unchanged)
    assert s.result_sheet()["black_warnings"] == 1 and s.result_sheet()["white_warnings"] == 0
    assert s.clock.remaining(WHITE, 5400.0).periods == 1
    assert s.outcome() is None and s.to_move() is BLACK


def test_absent_player_gets_no_pass_on_overtime() -> None:
    # Go §22.5 is on the player's request: an absent player whose clock runs out just loses;
    # without main time it was absent through the whole count: a forfeit (Go §22.4, issue 32)
    s = Session(
        GoGame(9),
        Clock(
            ChineseByoyomi(base=0, reserved_minutes=1),
            now=0.0,
            lateness=Lateness.go(),
            absent={BLACK},
        ),
        overtime_pass=True,
    )
    s.tick(61.0)
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.FORFEIT
    assert o.article == "Go §22.4"


def test_gomoku_foul_claimed_by_white() -> None:
    # Gomoku §10.1(2), claim mode: Black's double-three stands until White points it out.
    rules = replace(RenjuRules.free_renju(), foul_policy=FoulPolicy.CLAIM)
    s = Session(GomokuGame(rules), Clock(Absolute(600), now=0.0), Referee(GOMOKU))
    seq = ["g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7", "i8"]  # i8: two live threes
    for n, p in enumerate(seq):
        s.move(BLACK if n % 2 == 0 else WHITE, p, now=float(n + 1))
    assert s.outcome() is None
    s.claim(WHITE, 20.0)
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.FOUL
    assert rebuilt(s).outcome() == o


def test_prebuilt_ruling_cannot_silently_change_a_result() -> None:
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    s.resign(BLACK, now=1.0)
    ruling = Referee(GO).forfeit(WHITE, "Go §23.1")
    with pytest.raises(RefereeError, match="already decided"):
        s.apply_ruling(ruling, 2.0)
    s.apply_ruling(ruling, 2.0, override=True)
    o = s.outcome()
    assert o is not None and o.winner is BLACK
    assert rebuilt(s).outcome() == o


def test_overtime_pass_on_request_only_for_who_asked() -> None:
    # Go §22.5 "经被读秒方申请": Black asked, White did not.
    s = Session(GoGame(9), Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0))
    s.request_overtime_pass(BLACK, now=1.0)
    s.tick(61.0)
    assert s.outcome() is None and s.to_move() is WHITE and s.referee.warnings(BLACK) == 0
    s.tick(200.0)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.TIME
    assert rebuilt(s).to_json() == s.to_json()
    with pytest.raises(SessionError):
        fake(Absolute(60)).request_overtime_pass(BLACK, now=1.0)
