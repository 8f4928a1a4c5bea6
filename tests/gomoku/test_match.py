"""The referee of engine matches: pure time and forfeit rulings, the schedule, the tally."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.errors import GameOver, InvalidInput
from duiyi.gomoku import Board, Point, forbidden_points
from duiyi.gomoku.match import (
    Failure,
    GameClock,
    GameRecord,
    MatchTally,
    Referee,
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
        (Failure.OCCUPIED, "Gomoku §4.2, §10.1 G"),  # a stone goes on an empty point
        (Failure.OFF_BOARD, "Gomoku §4.2, §10.1 G"),
        (Failure.PROTOCOL, "Gomoku §10.1 G"),  # 拒绝遵守本规则
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


# -- the referee of the stones ----------------------------------------------------------------


def _moves(black: list[str], white: list[str]) -> list[str]:
    """Interleave black and white stones, Black first (len(black) == len(white) or one more)."""
    out: list[str] = []
    for i, b in enumerate(black):
        out.append(b)
        if i < len(white):
            out.append(white[i])
    return out


def test_black_five_wins() -> None:
    # Gomoku §10.1(1): the first to make five wins.
    ref = Referee(_moves(["h8", "h9", "h10", "h11"], ["a1", "a3", "a5", "a7"]))
    ruling = ref.play("h12")
    assert ruling is not None and ruling.outcome.winner is BLACK
    assert ruling.outcome.termination is Termination.FIVE
    assert ruling.outcome.article == "Gomoku §10.1(1)"
    assert ref.is_over and str(ref.moves[-1]) == "h12"
    with pytest.raises(GameOver):
        ref.play("o15")


def test_white_overline_counts_as_five() -> None:
    # Gomoku §10.1(1): 白棋长连视同五连.
    white = ["b2", "c2", "d2", "f2", "g2"]
    ref = Referee([*_moves(["h8", "h10", "h12", "j9", "k14"], white), "n14"])
    assert ref.to_move is WHITE
    ruling = ref.play("e2")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.termination is Termination.FIVE and "overline" in ruling.reason


def test_black_overline_is_a_foul_only_with_fouls() -> None:
    # Gomoku §2.19 / §10.1(2): Black's overline is forbidden; without fouls (§3.3) it wins.
    black = ["b2", "c2", "d2", "f2", "g2"]
    white = ["h8", "h10", "h12", "j9", "k14"]
    ruling = Referee(_moves(black, white)).play("e2")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.termination is Termination.FOUL
    assert ruling.outcome.article == "Gomoku §10.1(2)" and "overline" in ruling.reason
    ruling = Referee(_moves(black, white), fouls=False).play("e2")
    assert ruling is not None and ruling.outcome.winner is BLACK
    assert ruling.outcome.termination is Termination.FIVE


def test_black_double_three_loses_at_once() -> None:
    # Gomoku §2.19 double-three (column h8-h9-h10 and row h10-i10-j10, both live); §10.1(2):
    # an engine cannot claim, so the referee claims for White at once.
    moves = _moves(["h8", "h9", "i10", "j10"], ["a1", "a3", "a5", "a7"])
    ruling = Referee(moves).play("h10")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.termination is Termination.FOUL
    assert "double-three" in ruling.reason and "三三禁手" in ruling.reason
    assert Referee(moves).play("h7") is None  # one three only: allowed
    assert Referee(moves, fouls=False).play("h10") is None  # free opening without fouls (§3.3)
    # White has no forbidden moves (Gomoku §2.19): the same shape for White is fine
    ref = Referee(_moves(["a1", "a3", "a5", "a7", "o15"], ["h8", "h9", "i10", "j10"]))
    assert ref.to_move is WHITE and ref.play("h10") is None


def test_referee_agrees_with_the_forbidden_map() -> None:
    # Gomoku §2.19: whatever the core marks forbidden loses when an engine plays it.
    moves = _moves(["h8", "i8", "h9", "i10"], ["a1", "a3", "a5", "a7"])
    board_fouls = forbidden_points(Board.from_moves(" ".join(moves)))
    assert board_fouls, "the position must contain a forbidden point for this test"
    for point, kind in board_fouls.items():
        ruling = Referee(moves).play(point)
        assert ruling is not None and ruling.outcome.winner is WHITE
        assert ruling.outcome.termination is Termination.FOUL and str(kind) in ruling.reason


def test_five_first_beats_a_simultaneous_foul() -> None:
    # Gomoku §10.1(2): 黑方五连与禁手同时形成，禁手失效，黑方胜.
    black = ["d8", "e8", "f8", "g8", "h9", "h10", "h11", "i9", "j10", "k11"]
    white = ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "o1", "o3", "o5"]
    ruling = Referee(_moves(black, white)).play("h8")  # five + two more fours
    assert ruling is not None and ruling.outcome.winner is BLACK
    assert ruling.outcome.termination is Termination.FIVE


def test_occupied_and_off_board_stones_forfeit() -> None:
    # Gomoku §4.2: a stone goes on an empty point; refusing the rules loses (§10.1 G).
    ruling = Referee(["h8"]).play("h8")
    assert ruling is not None and ruling.outcome.winner is BLACK
    assert ruling.outcome.termination is Termination.FORFEIT and "occupied" in ruling.reason
    ruling = Referee().play("p16")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.article == "Gomoku §4.2, §10.1 G"
    with pytest.raises(InvalidInput):
        Referee(["h8", "h8"])


def test_full_board_without_five_is_a_draw() -> None:
    # Gomoku §10.2(3): 全盘均下满，已无空白交叉点，且无胜局出现.
    def black(x: int, y: int) -> bool:
        return ((x + 2 * y) // 2) % 2 == 0  # no three in a row anywhere

    points = [Point(x, y) for y in range(15) for x in range(15)]
    blacks = [str(p) for p in points if black(p.col, p.row)]
    whites = [str(p) for p in points if not black(p.col, p.row)]
    assert (len(blacks), len(whites)) == (113, 112)
    moves = _moves(blacks, whites)
    ref = Referee(moves[:-1], fouls=False)
    ruling = ref.play(moves[-1])
    assert ruling is not None and ruling.outcome.result is Result.DRAW
    assert ruling.outcome.termination is Termination.FULL_BOARD
    assert ruling.outcome.article == "Gomoku §10.2(3)"
