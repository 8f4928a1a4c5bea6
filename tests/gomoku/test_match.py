"""The referee of engine matches: pure time and forfeit rulings, the schedule, the tally."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.errors import InvalidInput
from duiyi.gomoku.match import (
    Failure,
    GameClock,
    GameRecord,
    MatchTally,
    TimeControl,
    forfeit,
    schedule,
)
from duiyi.outcome import Outcome, Result, Termination

# -- time (Gomoku §8.2; over time loses, §10.1 B) ---------------------------------------------


def test_move_limit_is_checked_per_move() -> None:
    # Gomoku §8.2: a move not made within its period loses; §10.1 B: the opponent wins.
    clock = GameClock(TimeControl(turn_ms=1000))
    assert clock.charge(BLACK, 1000) is None  # exactly on the limit is in time
    outcome = clock.charge(WHITE, 1001)
    assert outcome is not None
    assert outcome.winner is BLACK and outcome.termination is Termination.TIME
    assert "§8.2" in outcome.article and "§10.1 B" in outcome.article


def test_game_limit_adds_up_one_sides_moves_only() -> None:
    # Gomoku §8.2 单一时限: the side that first uses up its own time loses.
    clock = GameClock(TimeControl(match_ms=1000))
    for _ in range(3):
        assert clock.charge(BLACK, 300) is None
        assert clock.charge(WHITE, 10) is None
    assert clock.time_left_ms(BLACK) == 100 and clock.time_left_ms(WHITE) == 970
    assert clock.budget_ms(BLACK) == 100
    outcome = clock.charge(BLACK, 101)
    assert outcome is not None and outcome.winner is WHITE
    assert clock.describe_overtime(BLACK, 101) == "black used up the 1000 ms game limit"


def test_budget_takes_the_tighter_limit_plus_tolerance() -> None:
    clock = GameClock(TimeControl(turn_ms=500, match_ms=800, tolerance_ms=25))
    assert clock.budget_ms(BLACK) == 525
    assert clock.charge(BLACK, 520) is None  # over 500 but within the tolerance
    assert clock.budget_ms(BLACK) == 280 + 25
    assert GameClock(TimeControl()).budget_ms(WHITE) is None  # untimed
    assert clock.describe_overtime(WHITE) == "white did not move within the 500 ms move limit"
    assert clock.describe_overtime(BLACK) == "black used up the 800 ms game limit"


@given(st.lists(st.integers(0, 400), min_size=1, max_size=30))
def test_charge_agrees_with_the_sum_of_moves(times: list[int]) -> None:
    control = TimeControl(turn_ms=300, match_ms=2000)
    clock = GameClock(control)
    lost_at = None
    for n, t in enumerate(times):
        if clock.charge(BLACK, t) is not None:
            lost_at = n
            break
    # the first move over 300 ms, or the first time the running sum passes 2000 ms
    expected = None
    total = 0
    for n, t in enumerate(times):
        total += t
        if t > 300 or total > 2000:
            expected = n
            break
    assert lost_at == expected


def test_time_control_validation_and_gomocup_info() -> None:
    with pytest.raises(InvalidInput, match="Gomoku §8"):
        TimeControl(turn_ms=0)
    with pytest.raises(InvalidInput):
        TimeControl(tolerance_ms=-5)
    with pytest.raises(InvalidInput):
        GameClock(TimeControl()).charge(BLACK, -1)
    assert TimeControl(turn_ms=200, match_ms=9000).gomocup_info() == {
        "timeout_turn": 200,
        "timeout_match": 9000,
    }


# -- forfeits (Gomoku §10.1 D, G) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("failure", "article"),
    [
        (Failure.CRASH, "Gomoku §10.1 D"),  # 中途退出比赛
        (Failure.REFUSAL, "Gomoku §10.1 D"),
        (Failure.START, "Gomoku §10.1 D"),
        (Failure.OCCUPIED, "Gomoku §10.1 G"),  # 拒绝遵守本规则
        (Failure.OFF_BOARD, "Gomoku §10.1 G"),
        (Failure.PROTOCOL, "Gomoku §10.1 G"),
    ],
)
def test_failures_lose_with_their_article(failure: Failure, article: str) -> None:
    for loser in (BLACK, WHITE):
        outcome = forfeit(loser, failure)
        assert outcome.loser is loser
        assert outcome.termination is Termination.FORFEIT
        assert outcome.article == article


# -- schedule ---------------------------------------------------------------------------------


def test_each_opening_is_played_twice_with_colours_swapped() -> None:
    names = ["a", "b", "c"]
    games = schedule(8, names)
    assert [g.number for g in games] == list(range(1, 9))
    assert [g.opening for g in games] == ["a", "a", "b", "b", "c", "c", "a", "a"]
    assert [g.a_is_black for g in games] == [True, False] * 4
    assert [g.opening for g in schedule(2)] == [None, None]
    with pytest.raises(InvalidInput):
        schedule(0)
    with pytest.raises(InvalidInput):
        schedule(2, [])


# -- records and tally ------------------------------------------------------------------------


def _record(n: int, winner: str | None, term: Termination = Termination.FIVE) -> GameRecord:
    if winner == "draw":
        outcome = Outcome.draw(Termination.FULL_BOARD, "Gomoku §10.2(3)")
    elif winner == "both":
        outcome = Outcome(Result.BOTH_LOSE, Termination.FORFEIT, "Gomoku §8.5")
    else:
        outcome = Outcome.win(BLACK if winner == "B" else WHITE, term, "Gomoku §10.1(1)")
    return GameRecord(n, "A", "B", "寒星", ("h8", "h9", "h10"), outcome, "why", (5, 7))


def test_tally_counts_from_engine_a() -> None:
    # Gomoku §18: win 1, draw ½, loss 0.
    tally = MatchTally("A", "B")
    tally.add(_record(1, "B"), a_is_black=True)  # A won with Black
    tally.add(_record(2, "B", Termination.TIME), a_is_black=False)  # B won with Black
    tally.add(_record(3, "draw"), a_is_black=True)
    tally.add(_record(4, "W"), a_is_black=False)  # A won with White
    tally.add(_record(5, "both"), a_is_black=True)
    assert (tally.wins, tally.draws, tally.losses, tally.both_lost) == (2, 1, 1, 1)
    assert tally.score_a == Fraction(5, 2) and tally.score_b == Fraction(3, 2)
    text = tally.summary()
    assert text.splitlines()[0] == "A vs B: 5 games, +2 =1 -1 (A 2½ : 1½ B), both lost 1"
    assert "2  A won by five" in text and "1  B won by time" in text
    assert "1  draw by full_board" in text


def test_record_round_trips_through_json() -> None:
    record = _record(3, "W", Termination.FOUL)
    assert GameRecord.from_json(record.to_json()) == record
    assert record.to_json()["result"] == "0-1"
    assert _record(1, "draw").result_text == "½-½"
    with pytest.raises(InvalidInput):
        GameRecord.from_json({"number": 1})
