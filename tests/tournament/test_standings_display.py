"""What the wall chart prints: counts as counts, whatever the sort direction."""

from __future__ import annotations

import random

from duiyi.tournament import event as ops
from duiyi.tournament.formats.wallchart import standings_json
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult


def test_warnings_column_shows_the_number_of_warnings() -> None:
    # Go §27.1(1)B: fewer warnings rank higher; the chart shows the count itself, not the
    # negated value the sort uses.
    e = ops.new_event("x", "go", "round-robin", 3)
    e = ops.add_players(e, [Player(0, n) for n in "ABCD"])
    e, _ = ops.pair_next_round(e, random.Random(1))
    e = ops.enter_result(e, 1, 1, GameResult.BLACK_WINS, white_warnings=1)
    e = ops.enter_result(e, 1, 2, GameResult.WHITE_WINS)
    rows = {r["name"]: r["tiebreaks"]["warnings"] for r in standings_json(e)["standings"]}
    warned = e.round(1).game(1).white
    name = e.player(warned).name
    assert rows[name] == "1"
    assert all(v == "0" for n, v in rows.items() if n != name)
