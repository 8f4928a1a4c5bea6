"""The ruling ledger, each ruling against its article."""

from __future__ import annotations

import doctest
import importlib

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import InvalidInput, RefereeError
from duiyi.games import GAMES, GO, GOMOKU
from duiyi.outcome import Result, Termination
from duiyi.referee import Decision, Referee, RulingKind, ruling_from_json


def test_go_warning_costs_a_stone_and_the_second_loses() -> None:
    # Go §24.1: one stone off the count; Go §24.2: two warnings lose the game.
    ref = Referee(GO)
    first = ref.warning(WHITE, "Go §17.3", note="took a stone back")
    assert first.outcome is None
    assert ref.stone_penalty(WHITE) == 1 and ref.stone_penalty(BLACK) == 0
    second = ref.warning(WHITE, "Go §18.1")
    assert second.outcome is not None
    assert second.outcome.winner is BLACK
    assert second.outcome.termination is Termination.WARNINGS
    assert second.outcome.article == "Go §24.2"
    assert ref.outcome() == second.outcome
    assert ref.summary()["white"] == {"warnings": 2, "violations": 0}


def test_warnings_of_both_players_are_separate() -> None:
    # Go §24.2: "一名棋手在一局中被判两次警告" — per player.
    ref = Referee(GO)
    ref.warning(BLACK)
    ref.warning(WHITE)
    assert ref.outcome() is None


def test_gomoku_second_violation_loses() -> None:
    # Gomoku §12.3(4): two violations in one game lose it.
    ref = Referee(GOMOKU)
    assert ref.violation(BLACK, "Gomoku §10.3(3)").outcome is None
    r = ref.violation(BLACK, "Gomoku §12.2(4)", note="left the table on move")
    assert r.outcome is not None and r.outcome.winner is WHITE
    assert r.outcome.article == "Gomoku §12.3(4)"
    assert ref.stone_penalty(BLACK) == 0  # no stones off in Gomoku


def test_warnings_and_violations_belong_to_their_game() -> None:
    with pytest.raises(RefereeError, match="Gomoku has no warnings"):
        Referee(GOMOKU).warning(BLACK)
    with pytest.raises(RefereeError, match="Go has warnings"):
        Referee(GO).violation(BLACK)
    with pytest.raises(InvalidInput):
        Referee("chess")
    with pytest.raises(InvalidInput, match=r"duiyi\.games\.GO"):
        Referee("go")  # the game, not its name


def test_time_penalty() -> None:
    # Gomoku §12.3(3)A: pressed before placing: time added to the opponent, taken from him.
    ref = Referee(GOMOKU)
    r = ref.time_penalty(WHITE, deduct=300, award=300)
    assert r.clock == ((WHITE, -300.0), (BLACK, 300.0))
    with pytest.raises(InvalidInput):
        ref.time_penalty(WHITE)
    with pytest.raises(InvalidInput):
        ref.time_penalty(WHITE, deduct=-5)


def test_no_time_penalty_in_go() -> None:
    # Go §24: the Go rules punish by warnings (a stone each); 罚时 is Gomoku's (§12.3(3)), and a
    # Go clock changes only to be corrected (Go §22.8, the clock adjustment)
    with pytest.raises(RefereeError, match=r"Gomoku §12\.3\(3\)") as refused:
        Referee(GO).time_penalty(WHITE, deduct=60)
    assert "Go §24" in str(refused.value)
    assert Referee(GO).clock_adjustment(WHITE, 60).clock == ((WHITE, 60.0),)


@pytest.mark.parametrize(
    ("article", "passes", "warned"),
    [
        ("Go §19", True, False),  # forbidden point: void, a pass
        ("Go §18.3", True, True),  # ko retaken without a threat: void, a pass, a warning
        ("Go §17.2", False, True),  # two moves in a row: second void and a warning
        ("Go §17.3", False, True),  # a take-back: stone put back and a warning
        ("Gomoku §6.1(4)", False, False),  # Gomoku: the second stone is taken back
    ],
)
def test_void_moves(article: str, passes: bool, warned: bool) -> None:
    ref = Referee(GOMOKU if article.startswith("Gomoku") else GO)
    r = ref.void_move(BLACK, article)
    assert r.kind is RulingKind.VOID_MOVE
    assert (r.passes is BLACK) == passes
    assert ref.warnings(BLACK) == (1 if warned else 0)
    assert ref.outcome() is None


def test_overtime_pass_is_a_pass_without_a_warning() -> None:
    # Go §22.5 "改判弃权一次，允许续弈": one pass, no warning (DECISIONS.md), so no stone off
    # the count (Go §24.1) and never a loss by Go §24.2, however many times it happens.
    ref = Referee(GO)
    ref.warning(BLACK, "Go §17.4")
    r = ref.overtime_pass(BLACK)
    assert r.passes is BLACK and r.outcome is None and r.article == "Go §22.5"
    r2 = ref.overtime_pass(BLACK)
    assert r2.outcome is None and ref.outcome() is None
    assert ref.warnings(BLACK) == 1 and ref.stone_penalty(BLACK) == 1
    with pytest.raises(RefereeError, match=r"Go §22\.5"):
        Referee(GOMOKU).overtime_pass(BLACK)


@pytest.mark.parametrize(
    ("game", "moves", "minutes", "restart"),
    [
        ("go", 0, 0, True),
        ("go", 10, 30, True),  # Go §17.1: up to and including move 10
        ("go", 11, 5, False),
        ("gomoku", 3, 10, True),  # Gomoku §5.2: before white 4
        ("gomoku", 4, 1, False),  # white 4 is on the board
        ("gomoku", 2, 15, False),  # 15 minutes played
    ],
)
def test_wrong_colours(game: str, moves: int, minutes: float, restart: bool) -> None:
    r = Referee(GAMES[game]).colour_correction(moves_played=moves, minutes_played=minutes)
    assert r.restart == restart and r.swap == restart and r.corrected == restart
    assert r.outcome is None


@pytest.mark.parametrize(
    ("game", "decision", "result"),
    [
        ("go", Decision.RESTORE, None),
        ("go", Decision.VALID, None),
        ("go", Decision.DRAW, Result.DRAW),
        ("go", Decision.REPLAY, None),
        ("go", Decision.BOTH_LOSE, Result.BOTH_LOSE),
        ("gomoku", Decision.RESTORE, None),
        ("gomoku", Decision.DRAW, Result.DRAW),
    ],
)
def test_moved_stones(game: str, decision: Decision, result: Result | None) -> None:
    # Go §17.5 (1)-(5); Gomoku §4.2 (1)-(4).
    r = Referee(GAMES[game]).moved_stones(decision)
    assert (r.outcome.result if r.outcome else None) == result
    assert r.restart == (decision is Decision.REPLAY)


def test_gomoku_moved_stones_cannot_make_both_lose() -> None:
    # Gomoku §4.2 lists no "both lose" for moved stones.
    with pytest.raises(RefereeError, match="allows"):
        Referee(GOMOKU).moved_stones(Decision.BOTH_LOSE)


def test_deliberate_moving_loses() -> None:
    # Go §17.5 last paragraph, Gomoku §4.2: "如属故意移子，应判移子者为负".
    r = Referee(GOMOKU).moved_stones(Decision.VALID, offender=BLACK, deliberate=True)
    assert r.outcome is not None and r.outcome.winner is WHITE
    with pytest.raises(RefereeError):
        Referee(GO).moved_stones(Decision.VALID, deliberate=True)


def test_scattered_positions() -> None:
    # Go §17.6: not the players' fault: draw / replay / both lose.
    assert Referee(GO).scattered(Decision.BOTH_LOSE).outcome is not None
    assert Referee(GO).scattered(Decision.REPLAY).restart
    with pytest.raises(RefereeError):
        Referee(GOMOKU).scattered(Decision.BOTH_LOSE)
    # Go §17.6 last paragraph: a player's accidental scatter not rebuilt: that player loses.
    r = Referee(GO).scattered(Decision.OFFENDER_LOSES, by=WHITE)
    assert r.outcome is not None and r.outcome.winner is BLACK
    # Gomoku §4.2(1): rebuilt, but a violation for the scatterer.
    ref = Referee(GOMOKU)
    ref.scattered(Decision.RESUME, by=BLACK)
    assert ref.violations(BLACK) == 1 and ref.outcome() is None
    with pytest.raises(RefereeError):
        ref.scattered(Decision.DRAW, by=BLACK)


def test_forfeits_no_shows_withdrawals() -> None:
    ref = Referee(GO)
    r = ref.forfeit(BLACK, "Go §23.7", note="looked at a phone")
    assert r.outcome is not None and r.outcome.winner is WHITE
    assert r.outcome.termination is Termination.FORFEIT
    with pytest.raises(RefereeError, match="already decided"):
        ref.forfeit(WHITE, "Go §23.8")
    # Go §23.1: cheating found later may change a result.
    ref.double_forfeit("Go §23.1", override=True)
    outcome = ref.outcome()
    assert outcome is not None and outcome.result is Result.BOTH_LOSE
    # Go §22.3 / Gomoku §8.5: both absent past the limit: both lose.
    both = Referee(GOMOKU).no_show({BLACK, WHITE})
    assert both.outcome is not None and both.outcome.result is Result.BOTH_LOSE
    one = Referee(GO).no_show({WHITE})
    assert one.outcome is not None and one.outcome.winner is BLACK
    w = Referee(GOMOKU).withdrawal(WHITE)
    assert w.outcome is not None and w.outcome.winner is BLACK and "Gomoku" in w.article


def test_ledger_round_trip() -> None:
    ref = Referee(GO)
    ref.warning(BLACK, "Go §17.4", at=12.5, move_number=31)
    ref.void_move(WHITE, "Go §19", at=20.0)
    ref.clock_adjustment(WHITE, -60, at=30.0)
    ref.moved_stones(Decision.DRAW, at=40.0)
    again = Referee.from_json(ref.to_json(), ref.game)
    assert again.rulings == ref.rulings
    assert again.outcome() == ref.outcome()
    for r in ref.rulings:
        assert ruling_from_json(r.to_json()) == r
    with pytest.raises(InvalidInput):
        ruling_from_json({"v": 2})


@pytest.mark.parametrize("name", ["duiyi.referee", "duiyi.referee.ledger"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
