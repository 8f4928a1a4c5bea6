"""Game: play, pass, resign, legality, undo, repetition (Go §2–§7, §20)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from duiyi import BLACK, WHITE
from duiyi.codec import action_from_json, action_to_json
from duiyi.errors import GameOver, IllegalAction, IllegalMove, InvalidInput, InvalidPoint
from duiyi.go import (
    GO_ACTIONS,
    Board,
    Game,
    KoRule,
    Phase,
    Point,
    RepetitionOutcome,
    Rules,
)
from duiyi.outcome import Outcome, Result, Termination


def test_alternate_moves_black_first() -> None:
    # Go §2.3: Black first, then alternate
    g = Game(9)
    assert g.to_move is BLACK
    g.play("E5")
    assert g.to_move is WHITE
    assert g.moves == [(BLACK, Point.parse("E5"))]


def test_occupied_point_is_illegal_and_game_unchanged() -> None:
    # Go §2.3: a stone goes on an empty point
    g = Game(9)
    g.play("E5")
    h = g.situation_hash
    with pytest.raises(IllegalMove) as exc:
        g.play("E5")
    assert exc.value.article == "Go §2"
    assert g.situation_hash == h and len(g.actions) == 2


def test_two_passes_open_counting() -> None:
    # Go §7.3: two consecutive passes end play
    g = Game(9)
    g.pass_move()
    assert g.phase is Phase.PLAYING
    g.pass_move()
    assert g.phase is Phase.COUNTING
    with pytest.raises(IllegalAction):
        g.play("E5")


def test_resign() -> None:
    # Go §7.2: resignation ends the game
    g = Game(9)
    g.resign(BLACK)
    o = g.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.RESIGNATION
    assert g.sgf_result == "W+R"
    with pytest.raises(GameOver):
        g.play("E5")


def test_undo_restores_hash() -> None:
    g = Game(9, Rules.chinese())
    g.play("E5")
    before = (g.board, g.situation_hash, g.to_move)
    g.play("D5")
    g.undo()
    assert (g.board, g.situation_hash, g.to_move) == before


# ---------------------------------------------------------------- suicide (Go §5, §19)


def test_game_refuses_multi_stone_suicide() -> None:
    # Go §5, §19: a move on a forbidden point is void; online it is refused, game unchanged
    g = Game.from_position(5, black=["A2", "B2", "B1"], white=["A3", "B3", "C3", "C2", "C1"])
    with pytest.raises(IllegalMove) as exc:
        g.play("A1")
    assert exc.value.article == "Go §5"
    assert not g.is_legal("A1")
    assert g.to_move is BLACK and len(g.moves) == 0


def test_suicide_allowed_by_option_counts_as_prisoners() -> None:
    rules = replace(Rules.chinese(), allow_suicide=True)
    g = Game.from_position(5, rules, black=["A2", "B2", "B1"], white=["A3", "B3", "C3", "C2", "C1"])
    g.play("A1")
    assert g.board.count(BLACK) == 0
    assert g.captures == {BLACK: 0, WHITE: 4}


# ---------------------------------------------------------------- ko (Go §6, §20)

KO = """
. . . . . . .
. . . . . . .
. . . . . . .
. X O . . . .
X . X O . . .
. X O . . . .
. . . . . . ."""


def ko_game(rules: Rules) -> Game:
    b = Board.from_diagram(KO)
    return Game.from_position(7, rules, black=b.stones(BLACK), white=b.stones(WHITE), to_move=WHITE)


@pytest.mark.parametrize("rules", [Rules.chinese(), Rules.japanese()], ids=["superko", "simple"])
def test_simple_ko_immediate_recapture_forbidden(rules: Rules) -> None:
    # Go §20.1 (禁止单劫立即回提), Go §6 (no repeated position for the opponent)
    g = ko_game(rules)
    g.play("B3")  # White takes the ko
    assert g.captures[WHITE] == 1
    assert not g.is_legal("C3")
    with pytest.raises(IllegalMove) as exc:
        g.play("C3")
    expected = "Go §6" if rules.ko_rule is KoRule.SITUATIONAL else "Go §20.1"
    assert exc.value.article == expected
    # after a ko threat and its answer, the recapture is legal again
    g.play("G7")
    g.play("G6")
    assert g.is_legal("C3")
    g.play("C3")
    assert g.captures[BLACK] == 1


def test_simple_ko_point_exposed() -> None:
    g = ko_game(Rules.japanese())
    g.play("B3")
    assert g.ko_point == Point.parse("C3")
    g.play("G7")
    assert g.ko_point is None


TRIPLE_KO = """
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . ."""
TRIPLE_CYCLE = ["C5", "B8", "C2", "B5", "C8", "B2"]


def triple_ko_game(rules: Rules) -> Game:
    b = Board.from_diagram(TRIPLE_KO)
    return Game.from_position(9, rules, black=b.stones(BLACK), white=b.stones(WHITE))


def test_triple_ko_forbidden_by_situational_superko() -> None:
    # Go §20.3 (三劫循环): the sixth capture would repeat the whole board: illegal (Go §6)
    g = triple_ko_game(Rules.chinese())
    for m in TRIPLE_CYCLE[:-1]:
        g.play(m)
    with pytest.raises(IllegalMove) as exc:
        g.play(TRIPLE_CYCLE[-1])
    assert exc.value.article == "Go §6"
    assert g.phase is Phase.PLAYING


@pytest.mark.parametrize(
    ("outcome", "result"),
    [
        (RepetitionOutcome.NO_RESULT, Result.NO_RESULT),
        (RepetitionOutcome.DRAW, Result.DRAW),
        (RepetitionOutcome.REPLAY, Result.NO_RESULT),
    ],
)
def test_triple_ko_under_simple_ko_ends_the_game(
    outcome: RepetitionOutcome, result: Result
) -> None:
    # Go §20.3: the event may rule 无胜负, 和棋 or 重赛 for a full-board repetition cycle. The
    # cycle ends the game when it has been gone through twice (the position occurs a third
    # time, docs/decisions.md "simple ko cycles", as KataGo): once round is still play.
    g = triple_ko_game(replace(Rules.japanese(), repetition_outcome=outcome))
    for m in TRIPLE_CYCLE:
        g.play(m)
    assert g.phase is Phase.PLAYING
    for m in TRIPLE_CYCLE[:-1]:
        g.play(m)
    assert g.phase is Phase.PLAYING
    g.play(TRIPLE_CYCLE[-1])
    o = g.outcome()
    assert g.phase is Phase.FINISHED
    assert o is not None and o.result is result and o.termination is Termination.REPETITION
    assert ("replay" in o.article) == (outcome is RepetitionOutcome.REPLAY)
    g.undo()
    assert g.outcome() is None and g.phase is Phase.PLAYING


DOUBLE_KO_PLUS = """
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. X O . . . . . .
X . X O . . . . .
. X O . . . . . ."""


def test_positional_and_situational_superko_differ() -> None:
    # Go §6 forbids making the *opponent* face an earlier position (situational). After a pass
    # in the cycle, White's capture at B8 recreates a position that occurred with White to move:
    # legal situationally, illegal under positional superko.
    seq = ["pass", "B8", "B5", "B2", "C8", "pass", "C2"]
    b = Board.from_diagram(DOUBLE_KO_PLUS)
    games = {}
    for kr in (KoRule.SITUATIONAL, KoRule.POSITIONAL):
        rules = replace(Rules.chinese(), ko_rule=kr)
        g = Game.from_position(9, rules, black=b.stones(BLACK), white=b.stones(WHITE))
        for m in seq:
            g.play(m)
        games[kr] = g
    assert games[KoRule.SITUATIONAL].is_legal("B8")
    assert not games[KoRule.POSITIONAL].is_legal("B8")
    games[KoRule.SITUATIONAL].play("B8")


# ---------------------------------------------------------------- turns, passes, views


def test_wrong_colour_refused() -> None:
    # Go §2.3: alternate moves (Go §17.2: two moves in a row is void)
    g = Game(9)
    with pytest.raises(IllegalAction) as exc:
        g.play("E5", WHITE)
    assert exc.value.article == "Go §2.3"


def test_pass_then_move_resets_pass_count() -> None:
    # Go §7.3: only *consecutive* passes end play
    g = Game(9)
    g.pass_move()
    g.play("E5")
    g.pass_move()
    assert g.phase is Phase.PLAYING and g.consecutive_passes == 1
    g.play("pass")
    assert g.phase is Phase.COUNTING


def test_legal_moves_view() -> None:
    g = Game.from_position(5, black=["A2", "B2", "B1"], white=["A3", "B3", "C3", "C2", "C1"])
    lm = g.legal_moves()
    pts = list(lm)
    assert Point.parse("A1", 5) not in pts
    assert "A1" not in lm and "E5" in lm and "pass" not in lm
    assert len(pts) == lm.count() == len(lm) == 25 - 8 - 1
    assert bool(lm)
    g.pass_move()
    g.pass_move()
    assert not g.legal_moves() and g.legal_moves().count() == 0


def test_legal_moves_agree_with_is_legal_on_a_full_board() -> None:
    g = Game(5)
    rng = __import__("random").Random(5)
    for _ in range(60):
        lm = list(g.legal_moves())
        legal = {p for p in Board(5).geometry.points if g.is_legal(p)}
        assert set(lm) == legal
        if not lm or g.phase is not Phase.PLAYING:
            break
        g.play(rng.choice(lm))


def test_invalid_points() -> None:
    g = Game(9)
    with pytest.raises(InvalidPoint):
        g.play("K10")
    with pytest.raises(InvalidPoint):
        g.play(Point.parse("K10"))
    assert not g.is_legal("Q16")


# ---------------------------------------------------------------- handicap


def test_fixed_handicap_white_moves_first() -> None:
    # scoring-variants: 讓子; stones on the star points, White then moves
    g = Game(19, handicap=9)
    assert g.board.count(BLACK) == 9 and g.to_move is WHITE
    assert g.board.get("K10") is BLACK


def test_handicap_one_is_black_first_without_stones() -> None:
    # 让先: Black moves first, no stones, no komi
    g = Game(19, handicap=1)
    assert g.board.count(BLACK) == 0 and g.to_move is BLACK


def test_free_handicap_placement() -> None:
    rules = replace(Rules.chinese(), fixed_handicap=False)
    g = Game(9, rules, handicap=3)
    assert g.handicap_pending == 3 and not g.is_legal("E5")
    with pytest.raises(IllegalAction):
        g.play("E5")
    with pytest.raises(IllegalAction):
        g.place_handicap(["C3", "G7"])
    g.place_handicap(["C3", "G7", "E5"])
    assert g.to_move is WHITE and g.handicap_pending == 0
    h = Game.from_actions(rules, g.action_log_json())
    assert h.board == g.board and h.to_move is WHITE
    g.undo()
    assert g.handicap_pending == 3 and g.board.count(BLACK) == 0


def test_bad_handicap() -> None:
    with pytest.raises(InvalidInput):
        Game(19, handicap=10)
    with pytest.raises(InvalidInput):
        Game(6, handicap=2)  # no star points below 7×7


# ---------------------------------------------------------------- setup


def test_setup_only_before_play_and_checks_liberties() -> None:
    g = Game(9)
    with pytest.raises(InvalidInput):
        g.setup(black=["A1"], white=["A2", "B1"])
    g.setup(black=["C3"], to_move=WHITE)
    assert g.to_move is WHITE
    g.play("D4")
    with pytest.raises(IllegalAction):
        g.setup(black=["E5"])


# ---------------------------------------------------------------- event log


def test_actions_json_round_trip_rebuilds_everything() -> None:
    g = Game(9, Rules.japanese(), handicap=2)
    for m in ["E5", "D5", "pass", "D4", "pass", "pass"]:
        g.play(m)
    g.mark_dead("D4")
    g.add_warning(BLACK, "Go §17.4")
    log = json.loads(json.dumps(g.action_log_json()))
    assert all(a["v"] == 1 for a in log) and log[0]["type"] == "start"
    h = Game.from_actions(Rules.from_json(json.loads(json.dumps(g.rules.to_json()))), log)
    assert h.board == g.board and h.dead == g.dead and h.warnings == g.warnings
    assert h.phase is g.phase and h.situation_hash == g.situation_hash
    assert [action_to_json(a, GO_ACTIONS) for a in h.actions] == log
    assert [action_from_json(a, GO_ACTIONS) for a in log] == g.actions


def test_from_actions_needs_start() -> None:
    with pytest.raises(InvalidInput):
        Game.from_actions(Rules.chinese(), [{"v": 1, "type": "pass", "color": "black"}])
    with pytest.raises(InvalidInput):
        action_from_json({"v": 1, "type": "teleport"}, GO_ACTIONS)
    with pytest.raises(InvalidInput):
        action_from_json({"v": 2, "type": "pass", "color": "black"}, GO_ACTIONS)


def test_undo_everything_back_to_start() -> None:
    g = Game(9)
    for m in ["E5", "D5", "pass"]:
        g.play(m)
    g.add_warning(WHITE)
    while len(g.actions) > 1:
        g.undo()
    assert g.board == Board(9) and g.to_move is BLACK and g.warnings[WHITE] == 0
    with pytest.raises(IllegalAction):
        g.undo()


def test_end_by_adjudication() -> None:
    g = Game(9)
    g.end(Outcome.win(WHITE, Termination.TIME, "Go §22"))
    assert g.phase is Phase.FINISHED and g.sgf_result == "W+T"
    assert g.result_zh == "白胜（黑超时）"


# ---------------------------------------------------------------- warnings (Go §24)


def test_second_warning_loses() -> None:
    # Go §24.2: 一名棋手在一局中被判两次警告，则判该局为负
    g = Game(9)
    g.add_warning(WHITE, "Go §17.4")
    assert g.phase is Phase.PLAYING and g.warnings == {BLACK: 0, WHITE: 1}
    g.play("E5")
    g.add_warning(WHITE, "Go §18.2")
    o = g.outcome()
    assert o is not None and o.winner is BLACK and o.termination is Termination.WARNINGS
    assert o.article == "Go §24.2" and g.sgf_result == "B+F"
    with pytest.raises(GameOver):
        g.add_warning(BLACK)


def test_one_warning_costs_a_stone_in_the_count() -> None:
    # Go §24.1: 被警告方罚出一子
    g = Game(9)
    g.play("E5")
    g.pass_move()
    g.pass_move()
    g.add_warning(BLACK, "Go §23.8")
    g.accept(BLACK)
    g.accept(WHITE)
    s = g.score()
    assert s.black_area == 81 and s.warnings_deduction == 1
    assert s.margin == 81 - Fraction(81, 2) - Fraction(15, 4) - 1


def test_copy_is_independent() -> None:
    g = Game(9)
    g.setup(black=["C3"])
    g.play("E5")
    h = g.copy()
    h.play("D4")
    h.undo()
    h.undo()
    h.undo()  # back before the setup
    assert len(g.moves) == 1 and g.board.get("C3") is BLACK
    assert h.board == Board(9)
    g.play("D4")
    assert not g.is_legal("D4")


# ---------------------------------------------------------------- referee mode (Go §18, §19)


def test_void_move_counts_as_a_pass() -> None:
    # Go §19: 棋子下在禁着点上，判着手无效，弃权一次
    g = Game.from_position(5, black=["A2", "B2", "B1"], white=["A3", "B3", "C3", "C2", "C1"])
    g.void_move(BLACK, "A1", "Go §19")
    assert g.to_move is WHITE and g.board.get("A1") is None
    assert g.moves[-1] == (BLACK, None) and g.consecutive_passes == 1
    g.pass_move()
    assert g.phase is Phase.COUNTING  # a void move is a pass (Go §7.3)


def test_void_move_with_warning() -> None:
    # Go §18.3: 劫争须找劫材时未找而提劫，判提劫之手无效，弃权一次并警告一次
    g = ko_game(Rules.japanese())
    g.play("B3")
    g.void_move(BLACK, "C3", "Go §18.3", warning=True)
    assert g.warnings[BLACK] == 1 and g.to_move is WHITE
    g.play("G7")
    g.void_move(BLACK, None, "Go §18.3", warning=True)
    o = g.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.WARNINGS
    h = Game.from_actions(g.rules, json.loads(json.dumps(g.action_log_json())))
    assert h.outcome() == o and h.moves == g.moves
    g.undo()
    assert g.outcome() is None and g.warnings[BLACK] == 1


def test_game_json_round_trip() -> None:
    g = Game(13, Rules.korean(), handicap=3)
    g.play("G7")
    g.play("C3")
    data = json.loads(json.dumps(g.to_json()))
    h = Game.from_json(data)
    assert h.rules == g.rules and h.board == g.board and h.moves == g.moves
    with pytest.raises(InvalidInput):
        Game.from_json({"v": 1, "rules": g.rules.to_json()})
