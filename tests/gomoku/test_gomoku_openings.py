"""The 26 designated openings (Gomoku §3.2)."""

from __future__ import annotations

import json

import pytest
from tests.datafiles import DATA

from duiyi.errors import InvalidInput
from duiyi.gomoku import CENTER, OPENINGS, Game, Point, RenjuRules, opening_by_name, recognise
from duiyi.gomoku.openings import SOURCE

LIST = DATA / "gomoku" / "renju-openings.json"


def test_26_openings_13_direct_13_indirect():
    # Gomoku §3.2
    assert len(OPENINGS) == 26
    assert sum(o.kind == "direct" for o in OPENINGS) == 13
    assert len({o.chinese for o in OPENINGS}) == 26 and len({o.japanese for o in OPENINGS}) == 26
    assert "public Renju references" in SOURCE


def test_every_legal_first_three_stones_is_exactly_one_opening():
    # Gomoku §3.2: black 1 on h8, white 2 touching it, black 3 in the central 5×5
    seen = set()
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == dy == 0:
                continue
            w2 = Point(7 + dx, 7 + dy)
            for x in range(5, 10):
                for y in range(5, 10):
                    b3 = Point(x, y)
                    if b3 in (CENTER, w2):
                        continue
                    found = recognise(CENTER, w2, b3)
                    assert found is not None, (w2, b3)
                    assert list(found.opening.oriented(found.symmetry)) == [CENTER, w2, b3]
                    direct = dx == 0 or dy == 0
                    assert found.opening.kind == ("direct" if direct else "indirect")
                    seen.add(found.opening.id)
    assert len(seen) == 26


def test_outside_stones_are_no_opening():
    assert recognise("h8", "h9", "h11") is None  # black 3 outside the 5×5
    assert recognise("h9", "h8", "h10") is None  # black 1 not on the centre


def test_lookup_by_id_and_names():
    assert opening_by_name("I13").chinese == "彗星"
    assert opening_by_name("彗星局").japanese == "Suisei"
    assert opening_by_name("SUISEI").id == "I13"
    with pytest.raises(InvalidInput):
        opening_by_name("no such")


@pytest.mark.parametrize("sym", range(8))
def test_game_accepts_every_orientation(sym: int):
    # Gomoku §3.2: the openings may be laid in any orientation
    o = opening_by_name("Kagetsu")
    g = Game(RenjuRules.chinese_2013())
    g.open(*o.oriented(sym), fifth_n=1)
    assert g.opening is not None and g.opening.opening is o


def test_package_data_is_the_list_of_the_test_data():
    # the package's openings are the 26 of tests/data/gomoku (its README names the source)
    listed = json.loads(LIST.read_text(encoding="utf-8"))
    assert [o.to_json() for o in OPENINGS] == listed
