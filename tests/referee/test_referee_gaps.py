"""Ledger rulings that closed audit gaps (docs/articles-gomoku.md G2, G3, G5; docs/articles-go.md
Go §22.7). Books: 中国五子棋竞赛规则 (2013) and 围棋竞赛规则 (2002)."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import RefereeError
from duiyi.games import GO, GOMOKU
from duiyi.outcome import Result, Termination
from duiyi.referee import Referee, RulingKind, ruling_from_json


def test_disqualification_needs_the_committees_approval() -> None:
    # Gomoku §2.20(4): 由裁判长明文报请竞赛组委会审核，获得批准后，可取消...比赛资格
    ref = Referee(GOMOKU)
    with pytest.raises(RefereeError, match="approval"):
        ref.disqualification(BLACK)
    assert len(ref) == 0 and ref.disqualified() == frozenset()


def test_disqualification_in_play_loses_the_game_and_marks_the_player() -> None:
    # Gomoku §12.3(2)D 取消比赛资格; a game still in play is lost by the disqualified player
    ref = Referee(GOMOKU)
    r = ref.disqualification(WHITE, approved=True, note="refused the penalty, disturbed the hall")
    assert r.kind is RulingKind.DISQUALIFICATION and r.article == "Gomoku §12.3(2)D"
    assert r.outcome is not None and r.outcome.winner is BLACK
    assert r.outcome.termination is Termination.FORFEIT
    assert ref.disqualified() == frozenset({WHITE})
    assert ref.outcome() == r.outcome
    assert ruling_from_json(r.to_json()) == r
    assert Referee.from_json(ref.to_json(), ref.game).disqualified() == frozenset({WHITE})
    with pytest.raises(RefereeError, match="already disqualified"):
        ref.disqualification(WHITE, approved=True, decided=True)


def test_disqualification_after_the_result_keeps_the_result() -> None:
    # Gomoku §2.20(4): the player leaves the event; this game's result is not rewritten
    ref = Referee(GOMOKU)
    r = ref.disqualification(BLACK, approved=True, decided=True)
    assert r.outcome is None and ref.outcome() is None
    assert ref.disqualified() == frozenset({BLACK})


def test_disciplinary_loss_in_play_is_a_forfeit() -> None:
    # Gomoku §2.20(3) 判负: before a result, the offender simply loses the game
    ref = Referee(GOMOKU)
    r = ref.disciplinary_loss(BLACK)
    assert r.outcome is not None and r.outcome.winner is WHITE
    assert r.kind is RulingKind.DISCIPLINARY_LOSS and r.article == "Gomoku §2.20(3)"
    assert ref.penalty_losses() == frozenset()


def test_disciplinary_loss_after_a_confirmed_result_is_one_sided() -> None:
    # Gomoku §2.20(3): 对局已经确认结果时，其对手根据棋局事实获得的结果不得改变
    ref = Referee(GOMOKU)
    r = ref.disciplinary_loss(WHITE, decided=True)
    assert r.outcome is None and ref.outcome() is None  # nothing overrides the board result
    assert ref.penalty_losses() == frozenset({WHITE})
    assert ruling_from_json(r.to_json()) == r
    assert Referee.from_json(ref.to_json(), ref.game).penalty_losses() == frozenset({WHITE})
    with pytest.raises(RefereeError, match="already lost"):
        ref.disciplinary_loss(WHITE, decided=True)
    ref.disciplinary_loss(BLACK, decided=True)  # both may be penalised
    assert ref.penalty_losses() == frozenset({BLACK, WHITE})


def test_both_flags_down_order_unknown_is_a_draw() -> None:
    # Gomoku §10.2(4): 双方比赛时限在发现时均已超时，但又不能确定哪方先超时 → 和棋
    ref = Referee(GOMOKU)
    r = ref.both_flags(at=1800.0)
    assert r.kind is RulingKind.BOTH_FLAGS and r.article == "Gomoku §10.2(4)"
    assert r.outcome is not None and r.outcome.result is Result.DRAW
    assert r.outcome.termination is Termination.TIME
    assert ruling_from_json(r.to_json()) == r
    with pytest.raises(RefereeError, match="already decided"):
        ref.both_flags()


def test_both_flags_is_not_a_go_ruling() -> None:
    # Gomoku §10.2(4) has no counterpart in the Go book
    with pytest.raises(RefereeError, match=r"Gomoku §10\.2"):
        Referee(GO).both_flags()


def test_leaving_the_seat_in_byoyomi_once_per_game() -> None:
    # Go §22.7: 读秒期间棋手在对方思考时间之内离席，须征得裁判员许可，每局仅限一次
    ref = Referee(GO)
    r = ref.leave_seat(BLACK, at=100.0, move_number=150)
    assert r.kind is RulingKind.LEAVE_SEAT and r.article == "Go §22.7"
    assert r.outcome is None and r.clock == () and r.passes is None  # the clock runs on
    assert ref.seat_leaves(BLACK) == 1 and ref.seat_leaves(WHITE) == 0
    with pytest.raises(RefereeError, match="once per game"):
        ref.leave_seat(BLACK)
    ref.leave_seat(WHITE)  # each player has its own permission
    assert ref.seat_leaves(WHITE) == 1
    assert ref.warnings(BLACK) == 0  # a permission is no penalty
    assert Referee.from_json(ref.to_json(), ref.game).seat_leaves(BLACK) == 1


def test_leaving_the_seat_is_a_go_ruling() -> None:
    # Go §22.7; the Gomoku book has no such permission
    with pytest.raises(RefereeError, match=r"Go §22\.7"):
        Referee(GOMOKU).leave_seat(WHITE)


def test_dropped_stone_is_picked_up_without_a_warning() -> None:
    # Go §17.3: a dropped stone (不慎掉落) is no take-back (悔棋): no warning
    ref = Referee(GO)
    r = ref.dropped_stone(WHITE, move_number=40)
    assert r.kind is RulingKind.DROPPED_STONE and r.take_back and r.article == "Go §17.3"
    assert ref.warnings(WHITE) == 0 and ref.outcome() is None
    assert ruling_from_json(r.to_json()) == r
    assert "take_back" not in ref.warning(BLACK).to_json()  # older rulings keep their JSON
    with pytest.raises(RefereeError, match="chief arbiter"):
        ref.dropped_stone(WHITE, consent=False)
    # Gomoku has its own dropped-stone rule (§6.1(7), with §4.2's penalty): not refused
    assert Referee(GOMOKU).dropped_stone(WHITE).article == "Gomoku §6.1(7)"
