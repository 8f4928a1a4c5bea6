"""Gomoku §5.2(2): a colour error found too late counts as correct for later pairings."""

from __future__ import annotations

from duiyi.games import GOMOKU
from duiyi.referee import Referee
from duiyi.tournament.event import add_players, enter_result, new_event, pair_next_round
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult


def test_an_uncorrected_colour_error_keeps_the_drawn_colours_for_the_next_round() -> None:
    # Gomoku §5.2(1)-(2): found after white 4, the error is not corrected, the result stands and
    # "均认为此轮双方先后手是正确的，且不应影响后面轮次的正常编排": round 2 balances colours as
    # if round 1 had been played with the drawn colours.
    e = new_event("Open", "gomoku", "swiss", 3)
    e = add_players(e, [Player(0, n) for n in "ABCD"])
    e, r1 = pair_next_round(e)
    drawn = {(b, w) for _board, b, w, _why in r1.pairings}
    assert drawn == {(1, 2), (3, 4)}
    # board 1's players sat on the wrong colours; the arbiter found it at move 10
    ruling = Referee(GOMOKU).colour_correction(moves_played=10)
    assert not ruling.restart and not ruling.corrected
    e = enter_result(e, 1, 1, GameResult.BLACK_WINS)  # entered as drawn: 1 had Black
    e = enter_result(e, 1, 2, GameResult.WHITE_WINS)
    e, r2 = pair_next_round(e)
    # the winners 1 and 4 meet, then 2 and 3; each takes the colour it did not have as drawn
    assert {(b, w) for _board, b, w, _why in r2.pairings} == {(4, 1), (2, 3)}
