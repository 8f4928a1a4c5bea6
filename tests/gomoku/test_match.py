"""The referee of engine matches: pure time and forfeit rulings, the schedule, the tally."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from duiyi import BLACK, WHITE, Color
from duiyi.cli.gomoku_match import register
from duiyi.engines.gomocup_clock import GameClock
from duiyi.engines.gomocup_match import play_game, play_match, run_match
from duiyi.engines.record import EngineGameRecord
from duiyi.engines.tally import MatchTally
from duiyi.errors import GameOver, InvalidInput
from duiyi.gomoku import Board, Point, forbidden_points
from duiyi.gomoku.match import (
    Ending,
    Failure,
    MoveJudge,
    TimeControl,
    forfeit,
    openings_for,
    schedule,
)
from duiyi.gomoku.notation import parse_sgf
from duiyi.gomoku.rules import RenjuRules
from duiyi.outcome import Outcome, Result, Termination

FREE = RenjuRules.free()  # free opening without forbidden moves (Gomoku §3.3)
RENJU = RenjuRules.free_renju()  # free opening, forbidden moves kept

# -- time (Gomoku §8.2; over time loses, §10.1(3)B) ---------------------------------------------


def test_move_limit_is_checked_per_move() -> None:
    # Gomoku §8.2: a move not made within its period loses; §10.1(3)B: the opponent wins.
    clock = GameClock(TimeControl(turn_ms=1000, tolerance_ms=0))
    assert clock.charge(BLACK, 1000) is None  # exactly on the limit is in time
    outcome = clock.charge(WHITE, 1001)
    assert outcome is not None
    assert outcome.winner is BLACK and outcome.termination is Termination.TIME
    assert "§8.2" in outcome.article and "§10.1(3)B" in outcome.article


def test_game_limit_adds_up_one_sides_moves_only() -> None:
    # Gomoku §8.2 单一时限: the side that first uses up its own time loses.
    clock = GameClock(TimeControl(match_ms=1000, tolerance_ms=0))
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


@settings(deadline=None)  # a loaded CI machine must not turn slowness into a failure
@given(st.lists(st.integers(0, 400), min_size=1, max_size=30))
def test_charge_agrees_with_the_sum_of_moves(times: list[int]) -> None:
    control = TimeControl(turn_ms=300, match_ms=2000, tolerance_ms=0)
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


# -- forfeits (Gomoku §10.1(3)D, G) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("failure", "article"),
    [
        (Failure.CRASH, "Gomoku §10.1(3)D"),  # 中途退出比赛
        (Failure.REFUSAL, "Gomoku §10.1(3)D"),
        (Failure.START, "Gomoku §10.1(3)D"),
        (Failure.OCCUPIED, "Gomoku §4.2, §10.1(3)G"),  # a stone goes on an empty point
        (Failure.OFF_BOARD, "Gomoku §4.2, §10.1(3)G"),
        (Failure.PROTOCOL, "Gomoku §10.1(3)G"),  # 拒绝遵守本规则
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


def _record(n: int, winner: str | None, term: Termination = Termination.FIVE) -> EngineGameRecord:
    if winner == "draw":
        outcome = Outcome.draw(Termination.FULL_BOARD, "Gomoku §10.2(3)")
    elif winner == "both":
        outcome = Outcome(Result.BOTH_LOSE, Termination.FORFEIT, "Gomoku §8.5")
    else:
        outcome = Outcome.win(BLACK if winner == "B" else WHITE, term, "Gomoku §10.1(1)")
    return EngineGameRecord(n, "A", "B", "寒星", ("h8", "h9", "h10"), outcome, "why", (5, 7))


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
    assert text.splitlines()[1] == "  A with black +1 =1 -0, with white +1 =0 -1"
    assert "2  A won by five" in text and "1  B won by time" in text
    assert "1  draw by full_board" in text
    # on the tournament's results: A scored +2 =1 -1, the both-lost game counts for nobody
    assert text.splitlines()[-1].strip().startswith("Elo difference: 88.7 +/- ")


def test_tally_summary_counts_one_game_in_the_singular() -> None:
    # Gomoku §18: a one-game match reads "1 game", not "1 games"
    tally = MatchTally("A", "B")
    tally.add(_record(1, "B"), a_is_black=True)
    assert tally.summary().splitlines()[0] == "A vs B: 1 game, +1 =0 -0 (A 1 : 0 B)"
    tally.add(_record(2, "B"), a_is_black=False)
    assert tally.summary().splitlines()[0].startswith("A vs B: 2 games, ")


def test_record_round_trips_through_json() -> None:
    record = _record(3, "W", Termination.FOUL)
    assert EngineGameRecord.from_json(record.to_json()) == record
    assert record.to_json()["result"] == "0-1"
    assert _record(1, "draw").result_text == "½-½"
    with pytest.raises(InvalidInput):
        EngineGameRecord.from_json({"number": 1})


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
    ref = MoveJudge(_moves(["h8", "h9", "h10", "h11"], ["a1", "a3", "a5", "a7"]), rules=RENJU)
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
    ref = MoveJudge([*_moves(["h8", "h10", "h12", "j9", "k14"], white), "n14"], rules=RENJU)
    assert ref.to_move is WHITE
    ruling = ref.play("e2")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.termination is Termination.FIVE and "overline" in ruling.reason


def test_black_overline_is_a_foul_only_with_fouls() -> None:
    # Gomoku §2.19 / §10.1(2): Black's overline is forbidden; without fouls (§3.3) it wins.
    black = ["b2", "c2", "d2", "f2", "g2"]
    white = ["h8", "h10", "h12", "j9", "k14"]
    ruling = MoveJudge(_moves(black, white), rules=RENJU).play("e2")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.termination is Termination.FOUL
    assert ruling.outcome.article == "Gomoku §10.1(2)" and "overline" in ruling.reason
    ruling = MoveJudge(_moves(black, white), rules=FREE).play("e2")
    assert ruling is not None and ruling.outcome.winner is BLACK
    assert ruling.outcome.termination is Termination.FIVE


def test_black_double_three_loses_at_once() -> None:
    # Gomoku §2.19 double-three (column h8-h9-h10 and row h10-i10-j10, both live); §10.1(2):
    # an engine cannot claim, so the referee claims for White at once.
    moves = _moves(["h8", "h9", "i10", "j10"], ["a1", "a3", "a5", "a7"])
    ruling = MoveJudge(moves, rules=RENJU).play("h10")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.termination is Termination.FOUL
    assert "double-three" in ruling.reason and "三三禁手" in ruling.reason
    assert MoveJudge(moves, rules=RENJU).play("h7") is None  # one three only: allowed
    assert MoveJudge(moves, rules=FREE).play("h10") is None  # free opening without fouls (§3.3)
    # White has no forbidden moves (Gomoku §2.19): the same shape for White is fine
    ref = MoveJudge(
        _moves(["a1", "a3", "a5", "a7", "o15"], ["h8", "h9", "i10", "j10"]), rules=RENJU
    )
    assert ref.to_move is WHITE and ref.play("h10") is None


def test_referee_agrees_with_the_forbidden_map() -> None:
    # Gomoku §2.19: whatever the core marks forbidden loses when an engine plays it.
    moves = _moves(["h8", "i8", "h9", "i10"], ["a1", "a3", "a5", "a7"])
    board_fouls = forbidden_points(Board.from_moves(" ".join(moves)))
    assert board_fouls, "the position must contain a forbidden point for this test"
    for point, kind in board_fouls.items():
        ruling = MoveJudge(moves, rules=RENJU).play(point)
        assert ruling is not None and ruling.outcome.winner is WHITE
        assert ruling.outcome.termination is Termination.FOUL and str(kind) in ruling.reason


def test_five_first_beats_a_simultaneous_foul() -> None:
    # Gomoku §10.1(2): 黑方五连与禁手同时形成，禁手失效，黑方胜.
    black = ["d8", "e8", "f8", "g8", "h9", "h10", "h11", "i9", "j10", "k11"]
    white = ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "o1", "o3", "o5"]
    ruling = MoveJudge(_moves(black, white), rules=RENJU).play("h8")  # five + two more fours
    assert ruling is not None and ruling.outcome.winner is BLACK
    assert ruling.outcome.termination is Termination.FIVE


def test_occupied_and_off_board_stones_forfeit() -> None:
    # Gomoku §4.2: a stone goes on an empty point; refusing the rules loses (§10.1(3)G).
    ruling = MoveJudge(["h8"], rules=RENJU).play("h8")
    assert ruling is not None and ruling.outcome.winner is BLACK
    assert ruling.outcome.termination is Termination.FORFEIT and "occupied" in ruling.reason
    ruling = MoveJudge(rules=RENJU).play("p16")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.article == "Gomoku §4.2, §10.1(3)G"
    with pytest.raises(InvalidInput):
        MoveJudge(["h8", "h8"], rules=RENJU)


def test_full_board_without_five_is_a_draw() -> None:
    # Gomoku §10.2(3): 全盘均下满，已无空白交叉点，且无胜局出现.
    def black(x: int, y: int) -> bool:
        return ((x + 2 * y) // 2) % 2 == 0  # no three in a row anywhere

    points = [Point(x, y) for y in range(15) for x in range(15)]
    blacks = [str(p) for p in points if black(p.col, p.row)]
    whites = [str(p) for p in points if not black(p.col, p.row)]
    assert (len(blacks), len(whites)) == (113, 112)
    moves = _moves(blacks, whites)
    ref = MoveJudge(moves[:-1], rules=FREE)
    ruling = ref.play(moves[-1])
    assert ruling is not None and ruling.outcome.result is Result.DRAW
    assert ruling.outcome.termination is Termination.FULL_BOARD
    assert ruling.outcome.article == "Gomoku §10.2(3)"


# -- whole games between real brains (tests/gomoku/engines/) -----------------------------------

ENGINES = Path(__file__).parent / "engines"
SANE = TimeControl(turn_ms=5000)  # generous: the machine may be busy


def brain(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / f"{name}.py"), *args]


def replay(record: EngineGameRecord, rules: RenjuRules, opening_len: int) -> Ending | None:
    """Replay a record's moves through a fresh referee: the last one must give its ruling."""
    ref = MoveJudge(record.moves[:opening_len], rules=rules)
    ruling = None
    for move in record.moves[opening_len:]:
        ruling = ref.play(move)
    return ruling


async def test_greedy_beats_lattice_by_five_in_both_colours() -> None:
    # Gomoku §10.1(1): five wins; the schedule swaps colours (free opening, Gomoku §3.3).
    seen: list[tuple[int, bool]] = []
    tally = await play_match(
        brain("greedy", "--seed", "7"),
        brain("lattice"),
        games=2,
        rules=FREE,
        time_control=SANE,
        on_game=lambda record, game: seen.append((record.number, game.a_is_black)),
    )
    assert seen == [(1, True), (2, False)]
    assert (tally.wins, tally.draws, tally.losses) == (2, 0, 0)
    first, second = tally.records
    assert (first.black, first.white) == ("greedy.py", "lattice.py")
    assert (second.black, second.white) == ("lattice.py", "greedy.py")
    assert first.outcome.winner is BLACK and second.outcome.winner is WHITE
    for record in tally.records:
        assert record.outcome.termination is Termination.FIVE
        assert record.moves[0] == "h8" or record.black == "lattice.py"
        again = replay(record, FREE, 0)
        assert again is not None and again.outcome == record.outcome


async def test_designated_opening_stones_come_first() -> None:
    # Gomoku §3.2: the game starts from the opening's three stones; White plays move 4.
    rules, plan = openings_for("sosei")
    assert plan is not None
    assert rules == RenjuRules.chinese_2013()  # also the default when openings are given
    tally = await play_match(
        brain("lattice"), brain("greedy"), games=2, openings=plan, time_control=SANE
    )
    for record in tally.records:
        assert record.opening == "疏星/Sosei"
        assert record.moves[:3] == ("h8", "h9", "j10")
        assert record.outcome.termination is Termination.FIVE
        again = replay(record, rules, 3)
        assert again is not None and again.outcome == record.outcome
    assert tally.losses == 2  # greedy (B) wins with either colour


@pytest.mark.parametrize("a_black", [True, False])
async def test_crashing_engine_forfeits(a_black: bool) -> None:
    # Gomoku §10.1(3)D: leaving the game loses it.
    crash = brain("crash", "--after", "1")
    black, white = (crash, brain("lattice")) if a_black else (brain("lattice"), crash)
    record = await play_game(black, white, rules=FREE, time_control=SANE)
    loser = BLACK if a_black else WHITE
    assert record.outcome.loser is loser
    assert record.outcome.termination is Termination.FORFEIT
    assert record.outcome.article == "Gomoku §10.1(3)D"
    assert "exited with status 3" in record.reason
    assert len(record.moves) == (2 if a_black else 3)  # it played one move, then died


async def test_silent_engine_loses_on_time_quickly() -> None:
    # Gomoku §8.2, §10.1(3)B: a move not made within the move limit loses. The silent brain has
    # Black, so its opponent never has to beat the short limit on a busy machine.
    began = time.monotonic()
    record = await play_game(
        brain("silent"), brain("greedy"), rules=FREE, time_control=TimeControl(turn_ms=300)
    )
    assert time.monotonic() - began < 5.0
    assert record.outcome.winner is WHITE and record.outcome.termination is Termination.TIME
    assert record.reason == "black did not move within the 300 ms move limit"
    assert record.moves == ()
    assert record.used_ms[0] >= 300


async def test_slow_engine_loses_on_the_game_limit() -> None:
    # Gomoku §8.2 单一时限: each move is within its limit, but the sum runs out: 300 ms for
    # move 1, then only 200 ms are left for move 3.
    control = TimeControl(turn_ms=2000, match_ms=500)
    record = await play_game(
        brain("slow", "--delay", "0.3"), brain("greedy"), rules=FREE, time_control=control
    )
    assert record.outcome.winner is WHITE and record.outcome.termination is Termination.TIME
    assert record.reason == "black used up the 500 ms game limit"
    assert len(record.moves) == 2
    assert record.used_ms[0] >= 500  # charged up to the moment the referee ruled


async def test_slow_engine_loses_on_the_move_limit() -> None:
    # Gomoku §8.2 读秒: the move limit holds for every move, whatever is left of the game.
    record = await play_game(
        brain("slow"),
        brain("greedy"),
        rules=FREE,
        time_control=TimeControl(turn_ms=200, match_ms=60000, tolerance_ms=50),
    )
    assert record.outcome.winner is WHITE and record.outcome.termination is Termination.TIME
    assert record.reason == "black did not move within the 200 ms move limit"


@pytest.mark.parametrize(
    ("args", "words"), [((), "occupied"), (("--offboard",), "off the 15x15 board")]
)
async def test_occupied_or_off_board_answers_forfeit(args: tuple[str, ...], words: str) -> None:
    # Gomoku §4.2: a stone goes on an empty point of the board; §10.1(3)G.
    record = await play_game(
        brain("greedy"), brain("occupied", *args), rules=FREE, time_control=SANE
    )
    assert record.outcome.winner is BLACK
    assert record.outcome.termination is Termination.FORFEIT
    assert record.outcome.article == "Gomoku §4.2, §10.1(3)G"
    assert words in record.reason


async def test_black_engine_playing_a_foul_loses() -> None:
    # Gomoku §2.19, §10.1(2): Black's forbidden stone loses. A scripted Black brain builds
    # h8 h9 i10 j10 and then plays the double-three h10 (lattice's White stones stay far away).
    code = (
        "import sys\n"
        "moves = iter(['7,7', '7,6', '8,5', '9,5', '7,5'])\n"  # h8 h9 i10 j10 h10
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w and w[0] == 'START': print('OK', flush=True)\n"
        "    elif w and w[0] in ('BEGIN', 'TURN'): print(next(moves), flush=True)\n"
        "    elif w and w[0] == 'END': break\n"
    )
    record = await play_game(
        [sys.executable, "-c", code],
        brain("lattice"),
        rules=RENJU,
        time_control=SANE,
        names=("scripted", "lattice"),
    )
    assert record.moves[-1] == "h10"
    assert record.outcome.winner is WHITE and record.outcome.termination is Termination.FOUL
    assert "double-three" in record.reason
    # the same stones in a game without forbidden moves are fine
    free = await play_game(
        [sys.executable, "-c", code], brain("lattice"), rules=FREE, time_control=SANE
    )
    assert free.outcome.termination is not Termination.FOUL


async def test_engines_that_do_not_start() -> None:
    # Gomoku §10.1(3)D (当局弃权) for one side, §8.5 (双方弃权作负) when neither plays.
    record = await play_game(
        brain("lattice", "--only-size", "20"), brain("lattice"), rules=FREE, time_control=SANE
    )
    assert record.outcome.winner is WHITE and record.outcome.termination is Termination.FORFEIT
    assert "unsupported size 15" in record.reason and record.moves == ()
    record = await play_game(
        brain("lattice"), ["/nonexistent/pbrain-x"], rules=FREE, time_control=SANE
    )
    assert record.outcome.winner is BLACK and "did not start" in record.reason
    dies = [sys.executable, "-c", "import sys; print('OK', flush=True); sys.stdin.readline()"]
    record = await play_game(dies, brain("lattice"), rules=FREE, time_control=SANE)
    assert record.outcome.winner is WHITE and record.outcome.termination is Termination.FORFEIT
    assert record.outcome.article == "Gomoku §10.1(3)D" and record.moves == ()
    record = await play_game(brain("lattice"), "", rules=FREE, time_control=SANE)
    assert record.outcome.winner is BLACK and "empty engine command" in record.reason
    record = await play_game(["/nonexistent/a"], ["/nonexistent/b"], rules=FREE)
    assert record.outcome.result is Result.BOTH_LOSE and record.outcome.article == "Gomoku §8.5"


async def test_match_between_sane_engines_is_consistent() -> None:
    rules, plan = openings_for("designated")
    assert plan is not None
    tally = await play_match(
        brain("greedy", "--seed", "1"),
        brain("greedy", "--seed", "2"),
        games=4,
        openings=plan,
        rules=rules,
        time_control=TimeControl(turn_ms=5000, match_ms=60000),
    )
    assert tally.a == "greedy.py (A)" and tally.b == "greedy.py (B)"
    assert tally.wins + tally.draws + tally.losses == tally.games == 4
    assert tally.score_a + tally.score_b == 4
    assert [r.opening for r in tally.records] == ["寒星/Kansei"] * 2 + ["溪月/Keigetsu"] * 2
    for record, a_black in zip(tally.records, [True, False, True, False], strict=True):
        assert (record.black == tally.a) is a_black
        again = replay(record, rules, 3)
        assert again is not None and again.outcome == record.outcome
        assert again.reason == record.reason
    assert sum(tally.reasons.values()) == 4


def test_run_match_blocking_and_cli(tmp_path: Path) -> None:
    # no rules given on an empty board: the free opening without forbidden moves
    tally = run_match(brain("greedy"), brain("lattice"), games=1, time_control=SANE)
    assert tally.wins == 1 and tally.records[0].moves[0] == "h8"
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # a second command keeps "match" a sub-command
    out = tmp_path / "games.jsonl"
    cmd_a = f"{sys.executable} {ENGINES / 'greedy.py'}"
    cmd_b = f"{sys.executable} {ENGINES / 'crash.py'}"
    result = CliRunner().invoke(
        app, ["match", cmd_a, cmd_b, "--games", "2", "--opening", "free", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("game 1: greedy.py (black) - crash.py (white) 1-0  forfeit:")
    assert lines[1].startswith("game 2: crash.py (black) - greedy.py (white) 0-1  forfeit:")
    # Gomoku §10.1(3)D: one stone was on the board when White forfeited, none when Black did
    assert lines[0].endswith("; 1 stone)") and lines[1].endswith("; 0 stones)")
    assert "greedy.py vs crash.py: 2 games, +2 =0 -0 (greedy.py 2 : 0 crash.py)" in lines
    records = [EngineGameRecord.from_json(json.loads(x)) for x in out.read_text().splitlines()]
    assert [r.outcome.termination for r in records] == [Termination.FORFEIT] * 2
    bad = CliRunner().invoke(app, ["match", cmd_a, cmd_b, "--opening", "nonsense"])
    assert bad.exit_code != 0 and "nonsense" in str(bad.exception)


def test_duiyi_gomoku_match_writes_sgf(tmp_path: Path) -> None:
    # through the root app: `duiyi gomoku match` (registered by duiyi.cli.gomoku)
    from duiyi.cli import app as root

    out = tmp_path / "games.sgf"
    cmd_a = f"{sys.executable} {ENGINES / 'greedy.py'}"
    cmd_b = f"{sys.executable} {ENGINES / 'occupied.py'}"
    args = ["gomoku", "match", cmd_a, cmd_b, "--opening", "kansei", "--out", str(out), "-q"]
    result = CliRunner().invoke(root, args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("greedy.py vs occupied.py: 2 games, +2 =0 -0")
    text = out.read_text(encoding="utf-8")
    trees = [t if t.startswith("(") else "(" + t for t in text.strip().split("\n(")]
    games = [parse_sgf(t) for t in trees]
    assert [g.root.get("RE") for g in games] == ["B+F", "W+F"]  # forfeits: §4.2, §10.1(3)G
    assert all(g.root.text("GN") == "寒星局" for g in games)
    assert [str(p) for _, p in games[0].moves][:3] == ["h8", "h9", "h10"]
    assert "occupied" in (games[0].root.text("C") or "")


def test_claim_policy_is_claimed_by_the_referee_at_once() -> None:
    # Gomoku §10.1(2): White must point out the foul at once; a brain cannot, so duiyi does.
    claim = RENJU.with_options(foul_policy="claim")
    moves = _moves(["h8", "h9", "i10", "j10"], ["a1", "a3", "a5", "a7"])
    ruling = MoveJudge(moves, rules=claim).play("h10")
    assert ruling is not None and ruling.outcome.winner is WHITE
    assert ruling.outcome.termination is Termination.FOUL


def _runs(board: Board, point: Point, color: Color) -> list[int]:
    """The four line lengths through ``point`` if ``color`` stood there (Gomoku §2.7-2.8)."""
    out = []
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            x, y = point.col + sign * dx, point.row + sign * dy
            while 0 <= x < 15 and 0 <= y < 15 and board[Point(x, y)] is color:
                n += 1
                x, y = x + sign * dx, y + sign * dy
        out.append(n)
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["designated", "free", "free-renju"]))
def test_random_games_end_exactly_when_the_board_says(seed: int, spec: str) -> None:
    # Gomoku §10.1: a game ends on the first five (exact for Black under fouls) or on Black's
    # first forbidden stone; never earlier, never later.
    rng = random.Random(seed)
    rules, plan = openings_for(spec)
    opening = list(rng.choice(plan)[1]) if plan else []
    ref = MoveJudge(opening, rules=rules)
    region = [Point(x, y) for x in range(4, 11) for y in range(4, 11)]  # dense: ends come fast
    rng.shuffle(region)
    for point in region:
        if not ref.board.is_empty(point):
            continue
        color = ref.to_move
        before = ref.board.copy()
        black_fouls = color is BLACK and rules.fouls
        runs = _runs(before, point, color)
        five = 5 in runs or (max(runs) > 5 and not black_fouls)
        forbidden = black_fouls and not five and str(point) in forbidden_points(before)
        ruling = ref.play(point)
        if five:
            assert ruling is not None and ruling.outcome.termination is Termination.FIVE
            assert ruling.outcome.winner is color
            return
        if forbidden:
            assert ruling is not None and ruling.outcome.termination is Termination.FOUL
            assert ruling.outcome.winner is WHITE
            return
        assert ruling is None


async def test_what_the_brains_are_told() -> None:
    # Gomocup: limits and rule before the first move, INFO time_left before every move,
    # the designated opening as BOARD in move order (fields from the receiver's side).
    rules, plan = openings_for("kansei")  # 寒星: h8 h9 h10
    assert plan is not None
    record = await play_game(
        brain("greedy"),
        brain("lattice", "--echo"),
        opening=plan[0][1],
        rules=rules,
        time_control=TimeControl(turn_ms=4000, match_ms=30000),
    )
    told = [m.split(" ", 2)[2] for m in record.messages if m.startswith("white DEBUG")]
    told = [t.removeprefix("b'").removesuffix("\\r\\n'") for t in told]
    assert told[:5] == [
        "START 15",
        "INFO timeout_turn 4000",
        "INFO timeout_match 30000",
        "INFO game_type 1",
        "INFO rule 4",  # renju: the designated opening plays with forbidden moves
    ]
    assert told[5] == "INFO time_left 30000"
    assert told[6:11] == ["BOARD", "7,7,2", "7,6,1", "7,5,2", "DONE"]  # h8 h9 h10, White to move
    turns = [i for i, t in enumerate(told) if t.startswith("TURN ")]
    assert turns and all(told[i - 1].startswith("INFO time_left ") for i in turns)
    left = [int(t.split()[2]) for t in told if t.startswith("INFO time_left ")]
    assert left == sorted(left, reverse=True) and left[-1] <= 30000


async def test_two_fillers_draw_on_a_full_board() -> None:
    # Gomoku §10.2(3): a full board with no five is a draw; 225 moves through the protocol.
    record = await play_game(brain("filler"), brain("filler"), rules=FREE, time_control=SANE)
    assert record.outcome.result is Result.DRAW
    assert record.outcome.termination is Termination.FULL_BOARD
    assert len(record.moves) == 225 and len(set(record.moves)) == 225
    assert record.result_text == "½-½"


async def test_match_with_brains_suspended_between_turns() -> None:
    # Gomocup: no pondering. The game is the same, only the idle brain is stopped.
    record = await play_game(
        brain("greedy"), brain("lattice"), rules=FREE, time_control=SANE, suspend_idle=True
    )
    assert record.outcome.winner is BLACK and record.outcome.termination is Termination.FIVE


async def test_brain_using_its_whole_turn_is_not_late() -> None:
    # Gomoku §8.2: a move within the move limit is in time. The slow brain sleeps the whole
    # 300 ms timeout_turn before each answer; the pipe and the event loop add a few ms it cannot
    # see. Timed from the end of writing the command and with the default tolerance
    # (DEFAULT_TOLERANCE_MS), it must not lose on time.
    from duiyi.gomoku.match import DEFAULT_TOLERANCE_MS

    assert TimeControl(turn_ms=300).tolerance_ms == DEFAULT_TOLERANCE_MS == 100
    record = await play_game(
        brain("greedy"),
        brain("slow", "--delay", "0.3"),
        rules=FREE,
        time_control=TimeControl(turn_ms=300),
    )
    if record.outcome.termination is Termination.TIME:
        # only a move really later than limit + tolerance may lose: on a loaded machine the
        # brain's own process can wake up that late (that is its time, as in Piskvork)
        taken = re.search(r"took (\d+) ms", record.reason)
        assert taken is None or int(taken.group(1)) > 300 + DEFAULT_TOLERANCE_MS, record.reason
    else:
        # the slow brain's time: each sleep of 0.3 s, of which a few ms may fall before the
        # referee's clock starts (298 ms seen)
        assert record.used_ms[1] >= 280 * (len(record.moves) // 2)


def test_default_tolerance_forgives_manager_overhead() -> None:
    # Gomoku §8.2 with the documented default tolerance (docs/decisions.md): a move 5 ms over
    # the limit (pipe and scheduler latency) is in time, one over limit + tolerance is late.
    clock = GameClock(TimeControl(turn_ms=300))
    assert clock.charge(WHITE, 305) is None
    assert clock.charge(BLACK, 400) is None
    late = clock.charge(WHITE, 401)
    assert late is not None and late.termination is Termination.TIME


def test_missing_brain_file_is_one_line_exit_2(tmp_path: Path) -> None:
    import subprocess

    missing = f"{sys.executable} {tmp_path / 'no-such-brain.py'}"
    proc = subprocess.run(
        [sys.executable, "-m", "duiyi", "gomoku", "match", missing, missing, "--games", "4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""  # no forfeits were played
    assert proc.stderr.count("\n") == 1 and "no such file" in proc.stderr


@pytest.mark.parametrize(
    ("answer", "article", "why"),
    [
        ("ERROR cannot continue", "Gomoku §10.1(3)D", "refused"),  # withdrawal (当局弃权)
        ("hello", "Gomoku §10.1(3)G", "answered 'hello'"),  # breach of the rules of play
    ],
)
async def test_error_is_a_withdrawal_garbage_a_breach(answer: str, article: str, why: str) -> None:
    # The brain answers START, then gives `answer` to BEGIN. Both lose the game, under
    # different articles (docs/decisions.md: ERROR vs an unreadable answer).
    script = (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w and w[0] == 'START': print('OK', flush=True)\n"
        f"    elif w and w[0] == 'BEGIN': print({answer!r}, flush=True)\n"
        "    elif w and w[0] == 'END': break\n"
    )
    record = await play_game([sys.executable, "-c", script], brain("greedy"), rules=FREE)
    assert record.outcome.winner is WHITE
    assert record.outcome.termination is Termination.FORFEIT
    assert record.outcome.article == article and why in record.reason


def test_sgf_dir_writes_sgf_and_psq_per_game(tmp_path: Path) -> None:
    # one SGF and one Piskvork .psq per game, with the engines' names and the referee's reason
    from duiyi.cli import app as root
    from duiyi.gomoku.notation import parse_psq

    out = tmp_path / "games"
    cmd_a = f"{sys.executable} {ENGINES / 'greedy.py'}"
    cmd_b = f"{sys.executable} {ENGINES / 'lattice.py'}"
    args = ["gomoku", "match", cmd_a, cmd_b, "--opening", "free", "--sgf-dir", str(out), "-q"]
    result = CliRunner().invoke(root, [*args, "--games", "2"])
    assert result.exit_code == 0, result.output
    for n in (1, 2):
        sgf = parse_sgf((out / f"game-00{n}.sgf").read_text(encoding="utf-8"))
        psq = parse_psq((out / f"game-00{n}.psq").read_text(encoding="utf-8"))
        assert [p for _, p in sgf.moves] == psq.moves and psq.moves
        assert "Time used" in (sgf.root.text("C") or "")
        assert psq.trailer[1:3] == (
            ["greedy.py", "lattice.py"] if n == 1 else ["lattice.py", "greedy.py"]
        )


async def test_each_stone_keeps_its_thinking_time_in_the_psq() -> None:
    # Gomoku §8.2: each move is timed; the .psq carries each stone's time in ms, as Piskvork
    # writes it (x,y,ms), and the opening's stones (placed, not thought) carry 0.
    from duiyi.cli.gomoku_match import record_to_psq
    from duiyi.gomoku.notation import parse_psq

    rules, plan = openings_for("sosei")
    assert plan is not None
    (name, stones), *_ = plan
    record = await play_game(
        brain("slow", "--delay", "0.2"),
        brain("greedy"),
        opening=stones,
        opening_name=name,
        rules=rules,
        time_control=SANE,
    )
    assert len(record.move_ms) == len(record.moves) > 4
    assert record.move_ms[:3] == (0, 0, 0)
    black = record.move_ms[4::2]  # the slow brain's stones: moves 5, 7, ...
    white = record.move_ms[3::2]
    # the brain sleeps 0.2 s; the referee's clock starts when it sends the move, so a few
    # ms of the sleep can fall before it (198 ms seen): the time is the brain's, not a bound
    assert black and all(ms >= 150 for ms in black)
    assert all(ms < 200 for ms in white)  # greedy answers at once
    assert (sum(black), sum(white)) == record.used_ms  # the clock charged exactly these
    psq = parse_psq(record_to_psq(record))
    assert psq.times == list(record.move_ms)
    assert EngineGameRecord.from_json(record.to_json()) == record
