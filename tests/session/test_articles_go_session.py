"""Go rulebook audit (docs/articles-go.md): session articles not pinned down elsewhere."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.clock import Absolute, ChineseByoyomi, Clock
from duiyi.errors import DuiyiError, GameOver
from duiyi.games import GO
from duiyi.go import Game as GoGame
from duiyi.referee import Referee
from duiyi.referee import requests as rq
from duiyi.session import Session
from duiyi.session.core import OVERRUN_GRACE


@pytest.mark.parametrize("article", ["Go §17.4", "Go §22.6"])
def test_early_press_warning_leaves_the_clock_readings_unchanged(article: str) -> None:
    # Go §17.4: 着子之前或与着子同时按计时器的，判警告一次，不改变计时器读数; Go §22.6: pressing
    # before every captured stone is off the board: 判警告一次，不改变计时器读数
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "E5", now=10.0)
    s.move(WHITE, "C3", now=30.0)
    before = (s.clock.remaining(BLACK, 40.0), s.clock.remaining(WHITE, 40.0))
    s.rule(rq.Warning(BLACK, article), 40.0)
    after = (s.clock.remaining(BLACK, 40.0), s.clock.remaining(WHITE, 40.0))
    assert after == before
    assert s.clock.to_move is BLACK and s.to_move() is BLACK  # the turn is not lost
    assert s.referee.warnings(BLACK) == 1 and s.outcome() is None
    # the running clock goes on as if nothing happened
    assert s.clock.remaining(BLACK, 50.0).base == pytest.approx(600.0 - 10.0 - 20.0)


def test_warning_in_byoyomi_keeps_the_reserved_minutes() -> None:
    # Go §17.4 / §24.1: the warning costs a stone at the count, never clock time
    s = Session(GoGame(9), Clock(ChineseByoyomi(base=0, reserved_minutes=3), now=0.0))
    s.move(BLACK, "E5", now=30.0)
    s.rule(rq.Warning(BLACK, "Go §17.4"), 35.0)
    assert s.clock.remaining(BLACK, 35.0).periods == 3
    assert s.game.game.warnings[BLACK] == 1  # type: ignore[attr-defined]


def test_second_of_two_moves_in_a_row_is_void_with_a_warning() -> None:
    # Go §17.2: 一方并未表示弃权，另一方连下两着，判第二着无效并警告一次 — Black plays E5, then
    # (over the board) again before White: the second stone is void, Black is warned, and it is
    # still White's turn with White's clock running; Black's clock is not charged again
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "E5", now=10.0)
    rulings = s.rule(rq.VoidMove(BLACK, "Go §17.2"), 12.0)
    assert [r.kind.value for r in rulings] == ["void_move", "warning"]
    assert s.to_move() is WHITE and s.clock.to_move is WHITE
    assert s.game.moves_played() == 1 and s.referee.warnings(BLACK) == 1
    assert s.clock.remaining(BLACK, 12.0).base == pytest.approx(590.0)
    assert s.clock.remaining(WHITE, 12.0).base == pytest.approx(598.0)


def _last_minute(**options: object) -> Session:
    clock = Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0)
    return Session(GoGame(9), clock, Referee(GO), **options)  # type: ignore[arg-type]


def test_request_at_the_overrun_counts_as_one_pass_without_a_warning() -> None:
    # Go §22.5: Black overruns its last minute at 60 s and asks at once, before the loss is
    # ruled: the overrun is one pass (虚着), no warning, the same byo-yomi goes on.
    s = _last_minute()
    events = s.tick(62.0)
    assert s.outcome() is None and "Go §22.5" in events[-1].en  # the overrun is announced
    s.request_overtime_pass(BLACK, now=63.0)
    assert s.outcome() is None and s.to_move() is WHITE
    assert s.referee.warnings(BLACK) == 0 and s.game.game.warnings[BLACK] == 0
    assert s.clock.remaining(BLACK, 63.0).periods == 1  # the last minute again
    assert s.game.state_json()["moves"] == [["black", None]]
    # White's clock runs from the request; Black then plays within its minute
    s.move(WHITE, "E5", now=70.0)
    s.move(BLACK, "C3", now=129.0)
    assert s.outcome() is None
    # a request at the overrun is for that overrun only: the next one loses
    s.move(WHITE, "D4", now=130.0)
    s.tick(190.0 + OVERRUN_GRACE)
    o = s.outcome()
    assert o is not None and o.winner is WHITE and o.article == "Go §12.3"
    assert Session.from_log(s.to_json()).to_json() == s.to_json()


def test_request_after_the_loss_was_ruled_is_refused() -> None:
    # Go §22.5 "原则上应按判负裁决": once the loss is ruled (the grace ran out, or the arbiter
    # ruled it) a request comes too late.
    s = _last_minute()
    with pytest.raises(GameOver):
        s.request_overtime_pass(BLACK, now=60.0 + OVERRUN_GRACE + 1)
    o = s.outcome()
    assert o is not None and o.winner is WHITE
    s = _last_minute()
    s.rule(rq.Forfeit(BLACK, "Go §22.5"), 61.0)
    with pytest.raises(GameOver):
        s.request_overtime_pass(BLACK, now=62.0)


def test_without_grace_only_a_standing_request_saves_the_overrun() -> None:
    # Go §22.5: with overrun_grace=0 the loss is ruled at the overrun itself; a request made
    # in advance still turns it into a pass, without a warning.
    s = _last_minute(overrun_grace=0)
    s.request_overtime_pass(BLACK, now=10.0)
    s.tick(61.0)
    assert s.outcome() is None and s.to_move() is WHITE and s.referee.warnings(BLACK) == 0
    s = _last_minute(overrun_grace=0)
    s.tick(60.0)
    o = s.outcome()
    assert o is not None and o.winner is WHITE


def test_wrongly_removed_stones_go_back_with_a_warning() -> None:
    # Go §18.1 "误提对方有气之子，被判警告一次，并应将有关之子放回原处": in referee mode the
    # arbiter puts Black's stones back on the board (an action of the game's log) and warns
    # White (Go §24.1: one stone off White's count); the turn and the clocks stay.
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    for i, point in enumerate(("A1", "B1", "A2", "B2", "E5", "A3")):  # White takes A1-A2
        s.move(BLACK if i % 2 == 0 else WHITE, point, now=1.0 + i)
    rulings = s.rule(rq.StonesRestored(WHITE, ["A2"]), 10.0)
    assert [r.kind.value for r in rulings] == ["stones_restored", "warning"]
    assert {r.article for r in rulings} == {"Go §18.1"}
    game = s.game.game
    assert game.board.get("A2") is BLACK and game.actions[-2].kind == "restore"
    assert s.referee.warnings(WHITE) == 1 and game.warnings[WHITE] == 1
    assert s.to_move() is BLACK and s.clock.to_move is BLACK
    again = Session.from_log(s.to_json())
    assert again.to_json() == s.to_json() and again.game.game.board == game.board


def test_stones_go_back_only_where_that_colour_lost_stones() -> None:
    # Go §18.1 "将有关之子放回原处": the stones that were removed; on a board without a capture
    # the ruling would create a stone never played (issue 32): refused naming the point, and
    # nothing is recorded
    s = Session(GoGame(19), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "D4", now=1.0)
    s.move(WHITE, "Q16", now=2.0)
    with pytest.raises(DuiyiError, match=r"no white stone was removed from K10.*Go §18\.1"):
        s.rule(rq.StonesRestored(BLACK, ["K10"]), 3.0)
    assert s.game.game.board.get("K10") is None
    assert len(s.referee) == 0 and s.referee.warnings(BLACK) == 0


def test_stones_cannot_go_back_on_an_occupied_point() -> None:
    # Go §18.1: only stones that were removed go back; a refused ruling records nothing
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "E5", now=1.0)
    with pytest.raises(DuiyiError, match=r"Go §18\.1"):
        s.rule(rq.StonesRestored(BLACK, ["E5"]), 2.0)
    assert len(s.referee) == 0 and s.referee.warnings(BLACK) == 0


def test_nothing_but_the_request_follows_an_overrun() -> None:
    # Go §22.5 with Go §12.3: past the last minute the player's stone or sealed move comes too
    # late; the opponent's claim is told the loss waits for the request or the arbiter.
    s = _last_minute()
    s.tick(61.0)
    with pytest.raises(DuiyiError, match="too late"):
        s.move(BLACK, "E5", now=62.0)
    with pytest.raises(DuiyiError, match="too late"):
        s.adjourn(BLACK, "E5", now=62.0)
    with pytest.raises(DuiyiError, match=r"Go §22\.5"):
        s.claim(WHITE, 63.0, what="flag")
    assert s.outcome() is None and s.log == ()
    s.request_overtime_pass(BLACK, now=64.0)
    assert s.to_move() is WHITE


def test_a_void_move_that_costs_the_turn_voids_the_movers_move_only() -> None:
    # Go §19: the move on a forbidden point is void and counts as the mover's pass. Voiding
    # the player not on move changed nothing and was accepted (issue 32): refused, naming the
    # move a void would be, and nothing is recorded
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0), Referee(GO))
    s.move(BLACK, "E5", now=1.0)
    with pytest.raises(DuiyiError, match=r"black is not on move.*move 2, white's"):
        s.rule(rq.VoidMove(BLACK, "Go §19"), 2.0)
    assert len(s.referee) == 0 and s.to_move() is WHITE
    [void] = s.rule(rq.VoidMove(WHITE, "Go §19"), 3.0)
    assert void.passes is WHITE and s.to_move() is BLACK
    # Go §17.2 (a second move in a row) keeps the turn: it is about the player not on move
    [again, warned] = s.rule(rq.VoidMove(WHITE, "Go §17.2"), 4.0)
    assert again.passes is None and warned.kind.value == "warning" and s.to_move() is BLACK
