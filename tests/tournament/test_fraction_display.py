"""Human-facing standings print fractions readably; JSON keeps them exact."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from duiyi.tournament import event as ops
from duiyi.tournament.formats.wallchart import standings_html, standings_json, standings_text
from duiyi.tournament.model import Player


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(16, 3), "5⅓"),
        (Fraction(5500, 3), "1833⅓"),
        (Fraction(14, 3), "4⅔"),
        (Fraction(1, 3), "⅓"),
        (Fraction(-2, 3), "-⅔"),
        (Fraction(5, 2), "2½"),
        (Fraction(7, 8), "⅞"),
        (Fraction(13, 7), "1.86"),
        (Fraction(-1, 7), "-0.14"),
        (Fraction(1, 1000), "0.00"),
        (Fraction(4), "4"),
    ],
)
def test_format_fraction_prints_mixed_numbers_or_two_decimals(value: Fraction, shown: str) -> None:
    assert ops.format_fraction(value) == shown


def test_average_opponent_rating_in_thirds() -> None:
    # Gomoku §18.4(1)A: average opponent rating; three opponents give thirds
    ratings = {"A": 1901, "B": 1800, "C": 1700, "D": 1600}
    e = ops.new_event("Thirds", "gomoku", "swiss", 3)
    e = ops.add_players(e, [Player(0, n, rating=r) for n, r in ratings.items()])
    e = ops.simulate(e, 3, random.Random(3))
    exact = {r["name"]: r["tiebreaks"]["aro"] for r in standings_json(e)["standings"]}
    # each player met the three others (no rematch in a Swiss of four over three rounds)
    for name, rating in ratings.items():
        assert Fraction(exact[name]) == Fraction(sum(ratings.values()) - rating, 3)
    assert exact["B"] == "5201/3"  # JSON: the exact value as a string, unchanged
    text = standings_text(e)
    html = standings_html(e)
    for shown in ("1733⅔", "1800⅓", "1700"):
        assert shown in text and f"<td>{shown}</td>" in html
    assert "/3" not in text
