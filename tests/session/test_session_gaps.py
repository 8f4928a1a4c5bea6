"""Session rulings that closed audit gaps (docs/articles-gomoku.md G2, G3, G5; docs/articles-go.md
Go §22.7). Books: 中国五子棋竞赛规则 (2013) and 围棋竞赛规则 (2002)."""

from __future__ import annotations

import json

import pytest

from duiyi import BLACK, WHITE
from duiyi.clock import Absolute, ChineseByoyomi, Clock
from duiyi.errors import GameOver, RefereeError, SessionError
from duiyi.games import GO, GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.outcome import Result, Termination
from duiyi.referee import Referee, RulingKind
from duiyi.referee import requests as rq
from duiyi.session import Session


def gomoku(clock: Clock | None = None) -> Session:
    clock = clock or Clock(Absolute(600), now=0.0)
    return Session(GomokuGame(RenjuRules.free()), clock, Referee(GOMOKU))


def byoyomi(base: float = 0.0) -> Session:
    return Session(GoGame(9), Clock(ChineseByoyomi(base=base, reserved_minutes=3), now=0.0))


def rebuilt(s: Session) -> Session:
    return Session.from_log(json.loads(json.dumps(s.to_json())))


def test_disqualification_in_play_ends_the_game_and_shows_on_the_sheet() -> None:
    # Gomoku §2.20(4), §12.3(2)D 取消比赛资格: the game in play is lost, the sheet says who is out
    s = gomoku()
    s.move(BLACK, "h8", now=1.0)
    with pytest.raises(RefereeError, match="approval"):
        s.rule(rq.Disqualification(WHITE), 2.0)
    assert s.outcome() is None and len(s.referee) == 0
    s.rule(rq.Disqualification(WHITE, approved=True), 3.0)
    o = s.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.FORFEIT
    assert o.article == "Gomoku §12.3(2)D"
    sheet = s.result_sheet()
    assert sheet["result"] == "1-0" and sheet["disqualified"] == ["white"]
    assert s.clock.to_move is None  # the clock stops with the game
    again = rebuilt(s)
    assert again.to_json() == s.to_json() and again.result_sheet() == sheet


def test_disqualification_after_the_result_keeps_the_result() -> None:
    # Gomoku §2.20(4) after the game: the player is out of the event, the game's result stays
    s = gomoku()
    s.move(BLACK, "h8", now=1.0)
    s.resign(WHITE, now=5.0)
    before = s.outcome()
    s.rule(rq.Disqualification(BLACK, approved=True), 60.0)
    assert s.outcome() == before
    assert s.result_sheet()["result"] == "1-0"
    assert s.result_sheet()["disqualified"] == ["black"]
    assert rebuilt(s).result_sheet() == s.result_sheet()


def test_disciplinary_loss_after_a_confirmed_draw_leaves_the_opponents_result() -> None:
    # Gomoku §2.20(3): 判负...且对局已经确认结果时，其对手根据棋局事实获得的结果不得改变
    s = gomoku()
    s.move(BLACK, "h8", now=1.0)
    s.offer_draw(BLACK, now=1.5)
    s.answer_draw(WHITE, True, now=3.0)
    [r] = s.rule(rq.DisciplinaryLoss(WHITE), 100.0)
    assert r.kind is RulingKind.DISCIPLINARY_LOSS and r.outcome is None
    o = s.outcome()
    assert o is not None and o.result is Result.DRAW and o.termination is Termination.AGREEMENT
    sheet = s.result_sheet()
    assert sheet["result"] == "draw"  # Black keeps its ½ from the board
    assert sheet["penalty_loss"] == ["white"]  # White scores a loss
    again = rebuilt(s)
    assert again.to_json() == s.to_json() and again.result_sheet() == sheet


def test_disciplinary_loss_in_play_is_a_forfeit() -> None:
    # Gomoku §2.20(3) during the game: an ordinary 判负
    s = gomoku()
    s.move(BLACK, "h8", now=1.0)
    s.rule(rq.DisciplinaryLoss(BLACK), 2.0)
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.article == "Gomoku §2.20(3)"
    assert s.result_sheet()["penalty_loss"] == []
    assert rebuilt(s).to_json() == s.to_json()


def test_both_flags_down_order_unknown_is_a_draw_over_the_board() -> None:
    # Gomoku §10.2(4): the arbiter finds both flags down on a physical clock, order unknown
    s = gomoku(Clock(Absolute(300), now=0.0))
    s.move(BLACK, "h8", now=100.0)
    s.rule(rq.BothFlags(), 200.0)
    o = s.outcome()
    assert o is not None and o.result is Result.DRAW and o.article == "Gomoku §10.2(4)"
    assert s.result_sheet()["result"] == "draw"
    assert rebuilt(s).to_json() == s.to_json()


def test_both_flags_overrides_the_electronic_flag_only_on_request() -> None:
    # Gomoku §10.2(4) vs §10.1(3): the session's clock flagged White first; the arbiter's
    # reading of the physical clocks changes the result only with override
    s = gomoku(Clock(Absolute(300), now=0.0))
    s.move(BLACK, "h8", now=100.0)
    s.tick(500.0)
    assert s.outcome() is not None and s.outcome().termination is Termination.TIME  # type: ignore[union-attr]
    with pytest.raises(RefereeError, match="already decided"):
        s.rule(rq.BothFlags(), 510.0)
    s.rule(rq.BothFlags(override=True), 510.0)
    o = s.outcome()
    assert o is not None and o.result is Result.DRAW
    assert rebuilt(s).to_json() == s.to_json()


def test_leave_seat_in_byoyomi_once_per_game_and_the_clock_runs() -> None:
    # Go §22.7: 读秒期间棋手在对方思考时间之内离席，须征得裁判员许可，每局仅限一次
    s = byoyomi()
    s.move(BLACK, "E5", now=30.0)
    before = s.clock.remaining(WHITE, 40.0)
    [r] = s.rule(rq.LeaveSeat(BLACK), 40.0)
    assert r.kind is RulingKind.LEAVE_SEAT and r.move_number == 1
    assert s.clock.to_move is WHITE and s.clock.remaining(WHITE, 40.0) == before
    assert s.referee.seat_leaves(BLACK) == 1 and s.referee.warnings(BLACK) == 0
    s.move(WHITE, "C3", now=50.0)
    s.move(BLACK, "G7", now=55.0)
    with pytest.raises(RefereeError, match="once per game"):
        s.rule(rq.LeaveSeat(BLACK), 60.0)
    # a ruling drafted elsewhere is checked against the ledger too
    with pytest.raises(RefereeError, match="once"):
        s.apply_ruling(Referee(GO).leave_seat(BLACK), 61.0)
    assert s.referee.seat_leaves(BLACK) == 1
    assert rebuilt(s).to_json() == s.to_json()


def test_leave_seat_is_only_in_byoyomi_on_the_opponents_time() -> None:
    # Go §22.7: outside byo-yomi, or on one's own time, the clock simply runs (其余情形...照常读秒)
    s = byoyomi()
    s.move(BLACK, "E5", now=30.0)
    with pytest.raises(SessionError, match="opponent's thinking time"):
        s.rule(rq.LeaveSeat(WHITE), 31.0)  # White is on move
    main = byoyomi(base=600.0)
    main.move(BLACK, "E5", now=30.0)
    with pytest.raises(SessionError, match="not in byo-yomi"):
        main.rule(rq.LeaveSeat(BLACK), 31.0)
    absolute = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    absolute.move(BLACK, "E5", now=30.0)
    with pytest.raises(SessionError, match=r"Go §22\.7"):
        absolute.rule(rq.LeaveSeat(BLACK), 31.0)
    s.resign(WHITE, now=40.0)
    with pytest.raises(GameOver):
        s.rule(rq.LeaveSeat(BLACK), 41.0)
    for x in (s, main, absolute):
        assert x.referee.seat_leaves(BLACK) == 0 and x.referee.seat_leaves(WHITE) == 0


def test_dropped_stone_picked_up_with_consent_and_played_elsewhere() -> None:
    # Go §17.3: 如一方的棋子不慎掉落于棋盘，经对手同意后，允许其拣起后任选着点
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    s.move(BLACK, "E5", now=10.0)  # the stone that fell, entered as a move
    [r] = s.rule(rq.DroppedStone(BLACK), 12.0)
    assert r.kind is RulingKind.DROPPED_STONE and r.take_back
    game = s.game.game  # type: ignore[attr-defined]
    assert game.board.get("E5") is None and game.moves == []
    assert s.to_move() is BLACK and s.clock.to_move is BLACK
    assert s.referee.warnings(BLACK) == 0  # not a take-back (悔棋): no warning
    # the incident costs the innocent opponent nothing (docs/decisions.md, Go §17.3 clock)
    assert s.clock.used(WHITE, 12.0) == 0.0
    s.move(BLACK, "C3", now=15.0)  # 任选着点
    assert s.clock.to_move is WHITE and s.clock.used(BLACK, 15.0) == pytest.approx(13.0)
    assert rebuilt(s).to_json() == s.to_json()


def test_dropped_stone_only_while_it_is_the_last_action() -> None:
    # Go §17.3: once the opponent has answered, the stone is part of the game
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    s.move(BLACK, "E5", now=10.0)
    s.move(WHITE, "C3", now=20.0)
    with pytest.raises(SessionError, match="last stone"):
        s.rule(rq.DroppedStone(BLACK), 21.0)
    assert len(s.referee) == 0 and s.game.game.board.get("E5") is BLACK  # type: ignore[attr-defined]


def test_dropped_stone_without_consent_needs_the_chief_arbiter() -> None:
    # Go §17.3: 如双方不能达成一致意见，则由裁判长裁决
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    s.move(BLACK, "E5", now=10.0)
    with pytest.raises(RefereeError, match="chief arbiter"):
        s.rule(rq.DroppedStone(BLACK, consent=False), 11.0)
    assert s.game.game.board.get("E5") is BLACK  # type: ignore[attr-defined]
    s.rule(rq.DroppedStone(BLACK, consent=False, chief_arbiter=True), 12.0)
    assert s.to_move() is BLACK
    assert rebuilt(s).to_json() == s.to_json()


@pytest.mark.parametrize("article", ["Go §18.1", "Go §18.2"])
def test_capture_errors_over_the_board_are_a_warning_only_in_the_record(article: str) -> None:
    # Go §18.1 误提有气之子 / §18.2 漏提无气之子: a warning, and the physical board is put
    # right; the session's board captured exactly the stones without liberties (Go §4.1), so
    # the record needs no stone moved: the ruling changes the warning count and nothing else
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    for i, (c, p) in enumerate(
        [(BLACK, "E5"), (WHITE, "E6"), (BLACK, "D6"), (WHITE, "A1"), (BLACK, "F6")]
    ):
        s.move(c, p, now=float(i + 1))
    s.move(WHITE, "B1", now=6.0)
    s.move(BLACK, "E7", now=7.0)  # E6 has no liberty left: captured by the engine
    game = s.game.game  # type: ignore[attr-defined]
    board = game.board.copy()
    assert board.get("E6") is None and game.captures[BLACK] == 1
    s.rule(rq.Warning(BLACK, article), 8.0)
    assert game.board == board and s.to_move() is WHITE
    assert s.referee.warnings(BLACK) == 1 and s.referee.stone_penalty(BLACK) == 1  # Go §24.1
    assert rebuilt(s).to_json() == s.to_json()
