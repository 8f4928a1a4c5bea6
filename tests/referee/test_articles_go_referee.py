"""Go rulebook audit (docs/articles-go.md): referee articles not pinned down elsewhere."""

from __future__ import annotations

import pytest

from duiyi import BLACK, WHITE
from duiyi.games import GO
from duiyi.outcome import Termination
from duiyi.referee import Referee, RulingKind


@pytest.mark.parametrize(("moves", "corrected"), [(0, True), (9, True), (10, True), (11, False)])
def test_wrong_colours_corrected_up_to_move_ten_inclusive(moves: int, corrected: bool) -> None:
    # Go §17.1: 在第10手之前(含第10手)允许改正。超过10手棋之后，一律不予改正
    r = Referee(GO).colour_correction(moves_played=moves)
    assert r.kind is RulingKind.COLOUR_CORRECTION and r.article == "Go §17.1"
    assert r.restart is corrected and r.swap is corrected and r.corrected is corrected
    assert r.outcome is None  # either way the game is not decided by the mistake


def test_phone_sounding_twice_loses_and_looking_at_it_loses_at_once() -> None:
    # Go §23.7: 手机、呼机发出响声，初违者判警告一次，再违者判负。凡注视手机…一律判负
    ref = Referee(GO)
    ref.warning(BLACK, "Go §23.7", note="phone rang")
    assert ref.outcome() is None and ref.stone_penalty(BLACK) == 1  # Go §24.1
    ref.warning(BLACK, "Go §23.7", note="phone rang again")
    o = ref.outcome()
    assert o is not None and o.winner is WHITE and o.termination is Termination.WARNINGS
    screen = Referee(GO)
    screen.forfeit(WHITE, "Go §23.7", note="looked at the screen")
    o2 = screen.outcome()
    assert o2 is not None and o2.winner is BLACK and screen.warnings(WHITE) == 0
