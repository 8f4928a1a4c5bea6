"""Article-by-article gaps of a Gomoku game under a session (docs/articles-gomoku.md)."""

from __future__ import annotations

import json

import pytest

from duiyi import BLACK, WHITE
from duiyi.clock import Absolute, Clock, Fischer, Lateness
from duiyi.errors import IllegalAction, RefereeError, SessionError
from duiyi.games import GOMOKU
from duiyi.gomoku import Game, RenjuRules
from duiyi.outcome import Result, Termination
from duiyi.referee import Referee
from duiyi.referee import requests as rq
from duiyi.session import Session


def session(clock: Clock, rules: RenjuRules | None = None) -> Session:
    return Session(Game(rules or RenjuRules.free()), clock, Referee(GOMOKU))


def rebuilt(s: Session) -> Session:
    return Session.from_log(json.loads(json.dumps(s.to_json())))


def test_blacks_clock_starts_and_each_move_starts_the_opponents() -> None:
    # Gomoku §8.4: "规定的比赛时间一到，应立即开动黑方棋钟 ... 在每方行棋后按停己方棋钟，开动对方棋钟"
    s = session(Clock(Absolute(600), now=0.0))
    assert s.clock.to_move is BLACK
    s.move(BLACK, "h8", now=12.0)
    assert s.clock.to_move is WHITE
    s.move(WHITE, "h9", now=20.0)
    assert s.clock.used(BLACK, 20.0) == 12.0 and s.clock.used(WHITE, 20.0) == 8.0


def test_single_time_limit_the_first_to_run_out_loses() -> None:
    # Gomoku §8.2 单一时限 "率先用完比赛时限的选手判负"; §10.1(3)B: the opponent wins on time
    s = session(Clock(Absolute(60), now=0.0))
    s.move(BLACK, "h8", now=30.0)
    s.move(WHITE, "h9", now=40.0)
    s.tick(90.0)  # Black's 60 s ran out at 30 + 30 = 60 s on the clock
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.TIME
    assert o.article == "Gomoku §10.1(3)B"
    assert rebuilt(s).outcome() == o


def test_fischer_the_increment_comes_after_each_move() -> None:
    # Gomoku §8.3 加秒制: a fixed start plus an increment for every move made
    s = session(Clock(Fischer(base=60, increment=10), now=0.0))
    s.move(BLACK, "h8", now=55.0)  # 60 - 55 + 10 = 15 left
    assert s.clock.remaining(BLACK, 55.0).base == 15.0
    s.move(WHITE, "h9", now=56.0)
    s.tick(71.0)  # 15 s later Black's flag falls
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.TIME


def test_gomoku_lateness_is_taken_once_in_a_session() -> None:
    # Gomoku §8.5: "迟到而未超过时限者，应在对局用时内扣除迟到时间" — once (Go takes it twice)
    s = session(Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={BLACK}))
    s.arrive(BLACK, 600.0)
    assert s.clock.remaining(BLACK, 600.0).base == 3000.0
    s.move(BLACK, "h8", now=610.0)
    assert s.clock.remaining(BLACK, 610.0).base == 2990.0


def test_gomoku_both_absent_past_the_limit_both_lose() -> None:
    # Gomoku §8.5: "双方迟到超过赛场规定时间，则判双方弃权作负"
    s = session(
        Clock(Absolute(3600), now=0.0, lateness=Lateness.gomoku(900), absent={BLACK, WHITE})
    )
    s.tick(901.0)
    o = s.outcome()
    assert o is not None and o.result is Result.BOTH_LOSE and o.article == "Gomoku §8.5"


def test_draw_offer_only_right_after_ones_own_move() -> None:
    # Gomoku §10.3(1): "欲提和者应在自己刚下完一着后提出"
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=1.0)
    with pytest.raises(IllegalAction, match=r"§10\.3\(1\)"):
        s.offer_draw(WHITE, now=2.0)
    s.offer_draw(BLACK, now=2.0)
    # §10.3(2): a move refuses the offer
    s.move(WHITE, "h9", now=3.0)
    assert s.outcome() is None
    assert s.game.game.draw_offer is None  # type: ignore[attr-defined]


def test_a_correction_in_a_session_keeps_the_turn() -> None:
    # Gomoku §6.1(4): a void move in referee mode is no pass: the same player is still to move
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=1.0)
    s.rule(rq.VoidMove(WHITE, "Gomoku §6.1(6)"), 2.0)
    assert s.to_move() is WHITE and s.clock.to_move is WHITE
    assert s.referee.violations(WHITE) == 1  # pointed out by the opponent: §12.4
    s.move(WHITE, "h9", now=3.0)
    assert rebuilt(s).to_json() == s.to_json()


def test_arbiters_time_is_charged_at_the_arbiters_choice() -> None:
    # Gomoku §8.10: the time the arbiter spent on a correction is given back (or not) by the
    # arbiter; Gomoku §8.7: a faulty clock's times are set on the new one
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=10.0)
    s.rule(rq.ClockAdjustment(WHITE, 60.0, article="Gomoku §8.10"), 70.0)
    assert s.clock.remaining(WHITE, 70.0).base == 600.0  # the 60 s of the ruling given back
    s.rule(rq.ClockAdjustment(BLACK, -30.0, article="Gomoku §8.7"), 80.0)
    assert s.clock.remaining(BLACK, 80.0).base == 600.0 - 10.0 - 30.0
    assert [r.article for r in s.referee.rulings] == ["Gomoku §8.10", "Gomoku §8.7"]


def test_a_pushed_stone_goes_back_to_the_first_point_it_touched() -> None:
    # Gomoku §6.1(5) 推盘: "判棋子放回接触棋盘的第一个交叉点": the ruling moves the stone on the
    # board (the record shows it on the first point), the turn and clocks are unchanged.
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=1.0)
    s.move(WHITE, "h9", now=2.0)
    s.move(BLACK, "j10", now=3.0)  # touched i9 first, then slid to j10
    s.rule(rq.StoneReplaced(BLACK, "i9"), 4.0)
    board = s.game.game.board
    assert board["i9"] is BLACK and board["j10"] is None
    assert s.game.state_json()["record"] == "1.h8 2.h9 3.i9"
    assert s.to_move() is WHITE and s.clock.to_move is WHITE
    assert [r.article for r in s.referee.rulings] == ["Gomoku §6.1(5)", "Gomoku §12.4"]
    assert s.referee.violations(BLACK) == 1  # 纠正…并接受处罚 (§6.1), 被对手指出判违例 (§12.4)
    assert rebuilt(s).to_json() == s.to_json()
    assert rebuilt(s).game.state_json() == s.game.state_json()


def test_a_re_lifted_stone_goes_back_and_is_judged_there() -> None:
    # Gomoku §6.1(6) 拔子: back to the first empty point; the stone counts where it lands, so a
    # five made by the re-lifted stone does not stand when its first point makes none.
    s = session(Clock(Absolute(600), now=0.0))
    for i, (b, w) in enumerate([("h8", "a1"), ("h9", "a3"), ("h10", "a5"), ("h11", "a7")]):
        s.move(BLACK, b, now=1.0 + 2 * i)
        s.move(WHITE, w, now=2.0 + 2 * i)
    s.move(BLACK, "h12", now=10.0)  # put down on o15 first, then lifted to h12: a five
    assert s.outcome() is not None
    s.rule(rq.StoneReplaced(BLACK, "o15", lifted=True), 11.0)
    assert s.outcome() is None and s.to_move() is WHITE and s.clock.to_move is WHITE
    assert s.referee.rulings[-2].article == "Gomoku §6.1(6)"
    assert rebuilt(s).game.state_json() == s.game.state_json()


def test_the_opponent_may_accept_the_irregular_stone_instead() -> None:
    # Gomoku §6.1: "对手有权决定是否要求他纠正…或者与此相反，接受他的犯规行为": accepted, the stone
    # stays where it is and can no longer be put back; no violation.
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=1.0)
    s.move(WHITE, "h9", now=2.0)
    s.rule(rq.IrregularAccepted(WHITE, "Gomoku §6.1(5)"), 3.0)
    assert s.referee.rulings[-1].kind.value == "irregular_accepted"
    with pytest.raises(RefereeError, match="accepted"):
        s.rule(rq.StoneReplaced(WHITE, "i9"), 4.0)
    assert s.game.game.board["h9"] is WHITE and s.referee.violations(WHITE) == 0
    assert rebuilt(s).to_json() == s.to_json()


def test_playing_on_accepts_the_irregular_stone() -> None:
    # Gomoku §6.2: "继续走了一步棋，而没有立即告知裁判，那么就被视作他已接受了对方的行为"
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=1.0)  # pushed from g7
    s.move(WHITE, "h9", now=2.0)  # White plays on
    with pytest.raises(SessionError, match=r"Gomoku §6\.2"):
        s.rule(rq.StoneReplaced(BLACK, "g7"), 3.0)
    assert s.game.game.board["h8"] is BLACK and len(s.referee) == 0


def test_go_has_no_gomoku_corrections() -> None:
    # Gomoku §6.1 corrections belong to the Gomoku rulebook; Go voids moves instead
    from duiyi.go import Game as GoGame

    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    s.move(BLACK, "E5", now=1.0)
    with pytest.raises(RefereeError, match="Gomoku"):
        s.rule(rq.StoneReplaced(BLACK, "D4"), 2.0)
    with pytest.raises(RefereeError, match="Gomoku"):
        s.rule(rq.IrregularAccepted(BLACK), 2.0)


def test_an_accepted_double_move_is_not_corrected_afterwards() -> None:
    # Gomoku §6.1(4) with §6.1: the opponent accepted; the arbiter cannot then void the act
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=1.0)
    s.rule(rq.IrregularAccepted(BLACK, "Gomoku §6.1(4)"), 2.0)
    with pytest.raises(RefereeError, match="accepted"):
        s.rule(rq.VoidMove(BLACK, "Gomoku §6.1(4)"), 3.0)
    assert [r.kind.value for r in s.referee.rulings] == ["irregular_accepted"]


def test_a_dropped_stone_is_taken_back_and_the_dropper_chooses_again() -> None:
    # Gomoku §6.1(7) 轮走方走棋时棋子无意掉落在棋盘上，判收回掉落子，另选落点; §4.2 但给予适当
    # 处罚 (a violation by default, Gomoku §12.4). The opponent's time since the drop is charged
    # to nobody (docs/decisions.md, as Go §17.3)
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=10.0)
    s.move(WHITE, "h9", now=20.0)  # the stone that fell, entered as White's move
    rulings = s.rule(rq.DroppedStone(WHITE), 25.0)
    assert [r.kind.value for r in rulings] == ["dropped_stone", "violation"]
    assert s.game.game.board["h9"] is None  # type: ignore[attr-defined]
    assert s.to_move() is WHITE and s.clock.running_color is WHITE
    assert s.referee.violations(WHITE) == 1
    assert s.clock.used(BLACK, 25.0) == 10.0  # Black's 5 s since the drop: not charged
    s.move(WHITE, "j9", now=27.0)  # 另选落点
    assert s.game.state_json()["record"] == "1.h8 2.j9"
    assert rebuilt(s).to_json() == s.to_json()
    # the penalty as decided: 罚时 instead (Gomoku §12.3(3))
    t = session(Clock(Absolute(600), now=0.0))
    t.move(BLACK, "h8", now=10.0)
    t.rule(rq.DroppedStone(BLACK, penalty="time", deduct=60.0), 12.0)
    assert t.referee.violations(BLACK) == 0 and t.clock.remaining(BLACK, 12.0).base == 530.0


def test_a_dropped_stone_accepted_or_played_on_stays() -> None:
    # Gomoku §6.1 the opponent may accept the act instead; §6.2 playing on accepts it
    s = session(Clock(Absolute(600), now=0.0))
    s.move(BLACK, "h8", now=10.0)
    s.rule(rq.IrregularAccepted(BLACK, "Gomoku §6.1(7)"), 11.0)
    with pytest.raises(RefereeError, match="accepted"):
        s.rule(rq.DroppedStone(BLACK), 12.0)
    s.move(WHITE, "h9", now=13.0)
    s.move(BLACK, "h10", now=14.0)
    s.move(WHITE, "j9", now=15.0)
    with pytest.raises(SessionError, match=r"Gomoku §6\.2|last stone"):
        s.rule(rq.DroppedStone(BLACK), 16.0)
    assert s.referee.violations(BLACK) == 0
