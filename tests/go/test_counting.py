"""The counting phase: marking dead stones, acceptance, disputes (Go §7, §8, §21)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import GameOver, IllegalAction
from duiyi.go import Board, Game, Phase, Point, Rules
from duiyi.outcome import Termination

# Black owns the left, White the right; a lone white stone at B4 sits in Black's area.
POSITION = """
. . X O . . .
. . X O . . .
. O X O . . .
. . X O . . .
. . X O . . .
. . X O . . .
. . X O . . ."""


def counting_game() -> Game:
    b = Board.from_diagram(POSITION)
    g = Game.from_position(7, black=b.stones(BLACK), white=b.stones(WHITE))
    g.pass_move()
    g.pass_move()
    return g


def test_two_passes_open_counting_with_nothing_marked() -> None:
    # Go §7.3
    g = counting_game()
    assert g.phase is Phase.COUNTING and g.dead == frozenset()


def test_mark_dead_toggles_whole_chain_and_clears_acceptance() -> None:
    # Go §8: dead stones are confirmed by both players
    g = counting_game()
    g.accept(BLACK)
    g.mark_dead("C1")  # the whole black wall is one chain
    assert len(g.dead) == 7 and g.accepted == frozenset()
    g.mark_dead("C5")
    assert g.dead == frozenset()
    with pytest.raises(IllegalAction):
        g.mark_dead("A1")  # empty point


def test_both_accept_counts_the_game() -> None:
    # Go §8, §9: B4 is dead; Black area = 7 stones + 14 points = 21 of 49
    g = counting_game()
    g.mark_dead("B5")
    g.accept(WHITE)
    assert g.phase is Phase.COUNTING
    g.accept(BLACK)
    assert g.phase is Phase.FINISHED
    s = g.score()
    assert s.black_area == 21 and s.white_area == 28
    o = g.outcome()
    assert o is not None and o.termination is Termination.COUNT and o.winner is WHITE
    assert o.score is s
    # margin in stones: 21 − 3¾ − 24.5 = −7¼
    assert s.margin == Fraction(-29, 4) and g.result_zh == "白胜7又1/4子"
    assert g.sgf_result == "W+14.5"


def test_accepting_twice_is_refused() -> None:
    g = counting_game()
    g.accept(BLACK)
    with pytest.raises(IllegalAction):
        g.accept(BLACK)


def test_marking_only_in_counting_phase() -> None:
    g = Game(9)
    g.play("E5")
    with pytest.raises(IllegalAction):
        g.mark_dead("E5")
    with pytest.raises(IllegalAction):
        g.accept(BLACK)
    with pytest.raises(IllegalAction):
        g.dispute(WHITE, "E5")


def test_disputing_ones_own_group_is_refused_with_a_code() -> None:
    # Go §21.4: the one who claims a group dead disputes it, never its owner; the refusal
    # carries a code and values so a page says it in its language (issue 32)
    g = counting_game()
    with pytest.raises(IllegalAction) as e:
        g.dispute(WHITE, "B5")
    assert (e.value.code, e.value.values) == (
        "dispute-own-group",
        {"player": "white", "point": "B5"},
    )
    assert e.value.article == "Go §21.4"


def test_dispute_resumes_play_with_the_claimant() -> None:
    # Go §21.4: 若有争议，重新开始对局，由认为是死的一方先下
    g = counting_game()
    assert g.to_move is BLACK
    g.mark_dead("B5")
    g.accept(BLACK)
    g.dispute(BLACK, "B5")  # White says B5 lives; Black, who claims it dead, moves first
    assert g.phase is Phase.PLAYING and g.to_move is BLACK
    assert g.dead == frozenset() and g.accepted == frozenset()
    for m in ["B4", "pass", "A5", "pass", "B6"]:  # Black fills the liberties and captures
        g.play(m)
    assert g.board.get("B5") is None and g.captures[BLACK] == 1
    g.pass_move()
    assert g.phase is Phase.PLAYING  # a single pass after the resumption does not end play
    g.pass_move()
    assert g.phase is Phase.COUNTING


def test_dispute_of_own_group_or_empty_point_refused() -> None:
    g = counting_game()
    with pytest.raises(IllegalAction):
        g.dispute(WHITE, "B5")  # White cannot claim its own stone dead
    with pytest.raises(IllegalAction):
        g.dispute(BLACK, "A1")


def test_no_resumption_after_both_accepted() -> None:
    # Go §21.3: once both confirmed the end, play never restarts, even for a real move
    g = counting_game()
    g.accept(BLACK)
    g.accept(WHITE)
    with pytest.raises(GameOver) as exc:
        g.dispute(WHITE, "C1")
    assert exc.value.article == "Go §21.3"
    with pytest.raises(GameOver):
        g.play("B4")
    with pytest.raises(GameOver):
        g.mark_dead("B5")


def test_neutral_points_after_acceptance_are_shared() -> None:
    # Go §21.2: a contested point left at the end is treated like seki: half each
    b = Board.from_diagram(
        """
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O ."""
    )
    g = Game.from_position(5, black=b.stones(BLACK), white=b.stones(WHITE))
    g.pass_move()
    g.pass_move()
    g.accept(BLACK)
    g.accept(WHITE)
    s = g.score()
    assert s.black_area == s.white_area == Fraction(25, 2)
    assert len(s.neutral) == 5


def test_set_dead_and_counting_log_round_trip() -> None:
    g = counting_game()
    g.set_dead([Point.parse("B5", 7)])
    g.accept(BLACK)
    g.accept(WHITE)
    h = Game.from_actions(Rules.chinese(), g.action_log_json())
    assert h.score() == g.score() and h.result_zh == g.result_zh


def test_undo_after_acceptance_reopens_counting() -> None:
    g = counting_game()
    g.accept(BLACK)
    g.accept(WHITE)
    g.undo()
    assert g.phase is Phase.COUNTING and g.outcome() is None and g.accepted == {BLACK}


def test_resign_during_counting() -> None:
    # Go §7.2: a side may resign at any time before the end is confirmed
    g = counting_game()
    g.resign(WHITE)
    assert g.sgf_result == "B+R"


def test_propose_dead_delegates_to_life() -> None:
    pytest.importorskip("duiyi.go.life")
    g = counting_game()
    proposal = g.propose_dead()
    assert isinstance(proposal, frozenset)
    assert all(g.board.get(p) is not None for p in proposal)
