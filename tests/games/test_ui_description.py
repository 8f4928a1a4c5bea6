"""Each game as the pages see it (issue 24: the pages ask the game's description, never its
name): the description is the registry's, so what a page draws and offers agrees with what the
server reads and the book says."""

from __future__ import annotations

import dataclasses
import json

from duiyi.games import GAMES, GO, GOMOKU
from duiyi.games.ui import describe, describe_all
from duiyi.gomoku import RenjuRules


def test_every_game_is_described_in_the_registry_order() -> None:
    described = describe_all()
    assert list(described) == list(GAMES)
    for name, d in described.items():
        assert d.name == name
        json.dumps(dataclasses.asdict(d))  # served as JSON as it is


def test_the_board_letters_and_examples_are_the_books_notation() -> None:
    go, gomoku = describe(GO), describe(GOMOKU)
    # GTP letters skip I; Gomoku's 15 columns are a-o (Gomoku §1)
    assert "I" not in go.letters and go.letters[8] == "J" and len(go.letters) == 25
    assert gomoku.letters == "abcdefghijklmno"
    # the examples a form shows are points the server reads in that game
    assert [str(GO.parse_point(p, 19)) for p in go.example_points] == list(go.example_points)
    assert [str(GOMOKU.parse_point(p)) for p in gomoku.example_points] == ["h8", "h9"]
    # each letter names the column at its place
    assert str(GO.parse_point(f"{go.letters[18]}1", 19)) == "T1"


def test_star_points_per_size() -> None:
    go = describe(GO).star_points
    assert set(go) == {str(n) for n in range(5, 26)}
    assert len(go["19"]) == 9 and "K10" in go["19"] and go["5"] == ()
    assert "E5" in go["9"]  # the centre of an odd board
    gomoku = describe(GOMOKU).star_points
    assert set(gomoku) == {"15"} and "h8" in gomoku["15"] and len(gomoku["15"]) == 5


def test_forms_and_pages_follow_the_book() -> None:
    go, gomoku = describe(GO), describe(GOMOKU)
    # Go §22.1: lost after an hour late; Gomoku §8.5: the event's limit, 15 minutes here
    assert (go.late_limit_minutes, gomoku.late_limit_minutes) == (60, 15)
    assert go.same_site_lateness and not gomoku.same_site_lateness  # Go §22.2
    assert go.handicap and not gomoku.handicap  # Go §4
    assert gomoku.sizes == (15,) and 19 in go.sizes
    # Go counts (Go §8-9) and captures; Gomoku offers draws (Gomoku §10.3)
    assert (go.counting, go.captures, go.draw_offers) == (True, True, False)
    assert (gomoku.counting, gomoku.captures, gomoku.draw_offers) == (False, False, True)
    # Gomoku §12: the second violation loses; Go's words are the common ones
    assert gomoku.terms == {"warnings": "violations"} and go.terms == {}
    # the presets offered are the game's own (the server reads each), the default first
    assert go.presets[0] == GO.default_preset
    for preset in gomoku.presets:
        assert RenjuRules.preset(preset) is not None
    # a Gomocup engine plays free openings only, free Renju by default
    assert gomoku.engine_presets == ("free_renju", "free")
    # Go §27.1(2): Swiss standings in variants A and B; Gomoku's have none
    assert "swiss" in go.variant_systems and gomoku.variant_systems == ()
    assert go.standings_methods["swiss"] == "go{variant}"
    assert gomoku.standings_methods["mcmahon"] == "gomokuSwiss"
