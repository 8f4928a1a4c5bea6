"""Gomoku events guess colours the Gomoku way, not by Go's nigiri.

Gomoku §5.1(1): a one-game match between two players guesses colours (猜先); §5.1(2): in a
match of two or more games the first game's colours are guessed, then they alternate; §5.3(1):
both hold stones, an odd total gives Black to the player holding black stones, an even total
swaps. Go keeps its own nigiri (Go §10; appendix 一.4 for knockouts).
"""

from __future__ import annotations

import random
from dataclasses import replace

from duiyi.gomoku.colours import hand_count
from duiyi.tournament import event as ops
from duiyi.tournament.model import Player, Team
from duiyi.tournament.pairing.common import guess_colours, nigiri, nigiri_gomoku
from duiyi.tournament.pairing.knockout import knockout
from duiyi.tournament.pairing.relay import relay


class Hands(random.Random):
    """A random source whose handfuls are given: randint returns them in turn."""

    def __init__(self, *counts: int) -> None:
        super().__init__(0)
        self.counts = list(counts)

    def randint(self, a: int, b: int) -> int:
        return self.counts.pop(0)


def test_hand_count_decides_by_the_parity_of_the_total() -> None:
    # Gomoku §5.3(1): 合计数为奇数，则握黑棋子方先行；偶数则双方变换黑白棋
    assert nigiri_gomoku(1, 2, Hands(3, 4)) == (1, 2) == hand_count(1, 2, 3, 4)
    assert nigiri_gomoku(1, 2, Hands(3, 5)) == (2, 1) == hand_count(1, 2, 3, 5)
    assert guess_colours("gomoku", 7, 9, Hands(2, 2)) == (
        (9, 7),
        "hand count (Gomoku §5.1(1), §5.3(1))",
    )


def test_gomoku_knockout_guesses_colours_by_hand_count() -> None:
    # Gomoku §5.1(1) with Go appendix 一.4 (colours guessed before each knockout game)
    b = knockout(4)
    go = b.round("R1", {}, rng=random.Random(3))
    gomoku = b.round("R1", {}, rng=random.Random(3), game="gomoku")
    rng = random.Random(3)
    expected = [nigiri_gomoku(1, 2, rng), nigiri_gomoku(3, 4, rng)]
    assert [(p.black, p.white) for p in gomoku.pairings] == expected
    assert all("§5.3(1)" in p.reason and "Go §10" not in p.reason for p in gomoku.pairings)
    assert all("Go §10" in p.reason for p in go.pairings)


def test_gomoku_knockout_event_with_guessed_colours() -> None:
    # options.colours=guess: appendix 一.4 / Gomoku §5.1(1), by the event's game
    e = ops.new_event("Cup", "gomoku", "knockout", 0, {"colours": "guess"})
    e = ops.add_players(e, [Player(0, f"P{n}") for n in range(1, 5)])
    e, paired = ops.pair_next_round(e, random.Random(11))
    rng = random.Random(11)
    assert [(b, w) for _, b, w, _ in paired.pairings] == [
        nigiri_gomoku(1, 2, rng),
        nigiri_gomoku(3, 4, rng),
    ]
    assert all("hand count" in why for *_, why in paired.pairings)
    # the default: the upper line plays Black (the organisers' draw, Gomoku §5.1)
    plain = ops.add_players(
        ops.new_event("Cup", "gomoku", "knockout", 0), [Player(0, f"P{n}") for n in range(1, 5)]
    )
    _, lines = ops.pair_next_round(plain, random.Random(11))
    assert [(b, w) for _, b, w, _ in lines.pairings] == [(1, 2), (3, 4)]


def test_gomoku_match_guesses_the_first_game_then_alternates() -> None:
    # Gomoku §5.1(2): 先按一局制先后手确定方法，确定第一局的先手，以后各局则互换先后手
    for game, guess in (("gomoku", nigiri_gomoku), ("go", nigiri)):
        e = ops.new_event("Final", game, "match", 0, {"games": 3})
        e = ops.add_players(e, [Player(0, "A"), Player(0, "B")])
        e, first = ops.pair_next_round(e, random.Random(5))
        ((_, black, white, why),) = first.pairings
        assert (black, white) == guess(1, 2, random.Random(5))
        assert ("Gomoku §5.3(1)" in why) == (game == "gomoku")
        e = ops.enter_result(e, 1, 1, ops.GameResult.BLACK_WINS)
        e, second = ops.pair_next_round(e, random.Random(99))
        assert second.pairings[0][1:3] == (white, black)


def test_gomoku_relay_guesses_each_game_by_hand_count() -> None:
    # Gomoku §17.5 relay: every game is a one-game match, so §5.1(1) and §5.3(1)
    state = relay([[1, 2], [3, 4]], [], rng=random.Random(2), game="gomoku")
    assert state.next_colours == nigiri_gomoku(1, 3, random.Random(2))
    e = ops.new_event("Relay", "gomoku", "relay", 0)
    e = ops.add_players(e, [Player(0, n) for n in ("a", "b", "c", "d")])
    e = replace(e, teams=(Team(1, "East", (1, 2)), Team(2, "West", (3, 4))))
    e, paired = ops.pair_next_round(e, random.Random(2))
    assert paired.pairings[0][1:3] == nigiri_gomoku(1, 3, random.Random(2))
