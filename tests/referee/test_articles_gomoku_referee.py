"""Article-by-article gaps of the Gomoku arbiter's ledger (docs/articles-gomoku.md)."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import InvalidInput, RefereeError
from duiyi.games import GO, GOMOKU
from duiyi.outcome import Result, Termination
from duiyi.referee import Decision, Referee, RulingKind


def test_a_players_scatter_that_cannot_be_rebuilt_loses() -> None:
    # Gomoku §4.2: "（1）无意散乱，可复盘续赛，但判散乱者一次违例；无法复盘，判散乱者为负。
    # （2）故意散乱棋局者判负。"
    r = Referee(GOMOKU).scattered(Decision.OFFENDER_LOSES, by=WHITE)
    assert r.outcome is not None and r.outcome.winner is BLACK
    r = Referee(GOMOKU).scattered(Decision.RESUME, by=BLACK, deliberate=True)
    assert r.outcome is not None and r.outcome.winner is WHITE
    # an outside accident: rebuilt and play goes on, else a draw or a replay, never a loss
    ref = Referee(GOMOKU)
    assert ref.scattered(Decision.RESUME).outcome is None and ref.violations(BLACK) == 0
    assert Referee(GOMOKU).scattered(Decision.REPLAY).restart
    draw = Referee(GOMOKU).scattered(Decision.DRAW).outcome
    assert draw is not None and draw.result is Result.DRAW
    with pytest.raises(RefereeError):
        Referee(GOMOKU).scattered(Decision.OFFENDER_LOSES)


def test_accidental_scatter_violation_counts_towards_the_second() -> None:
    # Gomoku §4.2 + §12.3(4): the scatter's violation is a real one; a second violation loses
    ref = Referee(GOMOKU)
    ref.scattered(Decision.RESUME, by=BLACK)
    r = ref.violation(BLACK, "Gomoku §10.3(3)")
    assert r.outcome is not None and r.outcome.winner is WHITE
    assert r.outcome.termination is Termination.WARNINGS


def test_the_first_to_reach_two_violations_loses() -> None:
    # Gomoku §10.1(3)H: "在同一局中，单方面先出现第二次违例者" — one each decides nothing
    ref = Referee(GOMOKU)
    ref.violation(BLACK)
    ref.violation(WHITE)
    assert ref.outcome() is None
    r = ref.violation(WHITE)
    assert r.outcome is not None and r.outcome.winner is BLACK
    # after that the game is decided; a later second violation of Black changes nothing
    later = ref.violation(BLACK)
    assert later.outcome is None
    o = ref.outcome()
    assert o is not None and o.winner is BLACK


@pytest.mark.parametrize(
    ("moves", "minutes", "restart"),
    [(0, 0.0, True), (3, 14.9, True), (3, 15.0, False), (4, 0.0, False), (20, 40.0, False)],
)
def test_wrong_colours_boundaries(moves: int, minutes: float, restart: bool) -> None:
    # Gomoku §5.2(1): corrected before white 4 lands and within 15 minutes; later the game
    # goes on and its result stands (§5.2(2)).
    r = Referee(GOMOKU).colour_correction(moves_played=moves, minutes_played=minutes)
    assert r.restart is restart and r.corrected is restart and r.article == "Gomoku §5.2"


def test_double_forfeit() -> None:
    # Gomoku §12.3(2)C: "对局判负（包括双方判负）"
    r = Referee(GOMOKU).double_forfeit("Gomoku §12.3(2)C", note="collusion")
    assert r.outcome is not None and r.outcome.result is Result.BOTH_LOSE


def test_time_penalty_for_pressing_before_placing() -> None:
    # Gomoku §12.3(3)A: the offender gets a violation and a time penalty: time added to the
    # opponent's clock and/or taken from his own (usually at most 5 minutes each)
    ref = Referee(GOMOKU)
    ref.violation(BLACK, "Gomoku §12.3(3)A", note="pressed the clock before placing")
    r = ref.time_penalty(BLACK, deduct=120, award=300)
    assert r.clock == ((BLACK, -120.0), (WHITE, 300.0))
    assert ref.violations(BLACK) == 1 and ref.outcome() is None


@pytest.mark.parametrize("letter", ["A", "D", "E", "F", "G", "I", "J", "K"])
def test_arbiters_forfeits_of_article_10_1_3(letter: str) -> None:
    # Gomoku §10.1(3)A-K: the arbiter declares the opponent the winner (判对方胜)
    article = f"Gomoku §10.1(3){letter}"
    ref = Referee(GOMOKU)
    r = ref.forfeit(WHITE, article)
    assert r.outcome is not None and r.outcome.winner is BLACK
    assert r.outcome.termination is Termination.FORFEIT and r.outcome.article == article
    with pytest.raises(RefereeError, match="already decided"):
        ref.forfeit(BLACK, article)


@pytest.mark.parametrize("clause", ["(4)", "(5)", "(6)", "(7)"])
def test_gomoku_corrections_keep_the_turn_and_carry_a_violation(clause: str) -> None:
    # Gomoku §6.1(4)-(7): the irregular stone is taken back / put back and the player moves
    # again (no pass); the opponent demanded it, so the correction comes with its penalty:
    # "要求他纠正自己不合规则的行为并接受处罚" (§6.1), "违反行棋等技术规定且被对手指出判违例"
    # (§12.4); docs/decisions.md. warning=False records the correction alone.
    ref = Referee(GOMOKU)
    r = ref.void_move(BLACK, f"Gomoku §6.1{clause}")
    assert r.passes is None and r.outcome is None
    assert ref.violations(BLACK) == 1
    plain = Referee(GOMOKU)
    plain.void_move(BLACK, f"Gomoku §6.1{clause}", warning=False)
    assert plain.violations(BLACK) == 0


def test_a_dropped_stone_with_its_penalty() -> None:
    # Gomoku §4.2 "如棋子无意掉落棋盘上，允许拣起后任选着点，但给予适当处罚" / §6.1(7)
    # "判收回掉落子，另选落点": the stone is taken back, the player chooses again, and the
    # penalty is the arbiter's: a violation by default, which counts towards the second
    # (§12.3(4)), or 罚时 (§12.3(3)), or none
    ref = Referee(GOMOKU)
    r = ref.dropped_stone(WHITE)
    assert r.take_back and r.article == "Gomoku §6.1(7)" and r.passes is None
    assert ref.violations(WHITE) == 1 and ref.outcome() is None
    r = ref.violation(WHITE, "Gomoku §12.4")
    assert r.outcome is not None and r.outcome.winner is BLACK
    timed = Referee(GOMOKU)
    timed.dropped_stone(BLACK, penalty="time", deduct=60, award=120)
    [_, pen] = timed.rulings
    assert pen.kind is RulingKind.TIME_PENALTY and timed.violations(BLACK) == 0
    assert Referee(GOMOKU).dropped_stone(BLACK, penalty="none").take_back
    with pytest.raises(InvalidInput, match="penalty"):
        Referee(GOMOKU).dropped_stone(BLACK, penalty="stern look")
    with pytest.raises(RefereeError, match="no penalty"):
        Referee(GO).dropped_stone(BLACK, penalty="violation")


def test_refusing_to_correct_loses() -> None:
    # Gomoku §6.3 / §12.5(1): refusing to correct an irregular move, or correcting only part
    # of it, loses the game
    r = Referee(GOMOKU).forfeit(BLACK, "Gomoku §12.5(1)", note="refused to take back")
    assert r.outcome is not None and r.outcome.winner is WHITE
    assert r.outcome.termination is Termination.FORFEIT


def test_an_accepted_irregularity_can_no_longer_be_corrected() -> None:
    # Gomoku §6.1: the opponent chooses between a correction and accepting the irregular act;
    # once accepted (same act, same move number) no correction follows, and none is a violation.
    ref = Referee(GOMOKU)
    r = ref.irregular_accepted(BLACK, "Gomoku §6.1(4)", move_number=9)
    assert r.passes is None and r.outcome is None and ref.violations(BLACK) == 0
    with pytest.raises(RefereeError, match="accepted"):
        ref.void_move(BLACK, "Gomoku §6.1(4)", move_number=9)
    with pytest.raises(RefereeError, match="accepted"):
        ref.stone_replaced(BLACK, "h9", move_number=9)
    ref.stone_replaced(BLACK, "h9", move_number=11)  # a later act is another matter
    with pytest.raises(RefereeError):
        ref.irregular_accepted(WHITE, "Gomoku §12.4")  # not a §6.1 act


def test_a_replaced_stone_names_its_first_point_and_clause() -> None:
    # Gomoku §6.1(5) 推盘 and §6.1(6) 拔子: the ruling carries the point the stone goes back to
    ref = Referee(GOMOKU)
    pushed = ref.stone_replaced(WHITE, "J9")
    lifted = ref.stone_replaced(WHITE, "k10", lifted=True)
    assert (pushed.article, pushed.replace_at) == ("Gomoku §6.1(5)", "j9")
    assert (lifted.article, lifted.replace_at) == ("Gomoku §6.1(6)", "k10")
    assert Referee.from_json(ref.to_json(), ref.game).rulings == ref.rulings
