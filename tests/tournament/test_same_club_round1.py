"""Round 1 of a Swiss keeps players of one club apart when the director asks for it (option
``avoid_same_club``, as OpenGotha offers; the books are silent, appendix 五.2(1) pairs 1–2,
3–4, … by the drawn numbers) — issue 20: two players of one club met in round 1."""

from __future__ import annotations

import random

from duiyi.tournament.event import add_players, new_event, pair_next_round
from duiyi.tournament.model import Player

CLUBS = [
    "北京",
    "北京",
    "上海",
    "上海",
    "天津",
    "天津",
    "重庆",
    "重庆",
    "北京",
    "上海",
    "天津",
    "重庆",
]


def _round1(options: dict[str, object]) -> list[tuple[int, int, str]]:
    players = [Player(0, f"P{i}", club=c) for i, c in enumerate(CLUBS, start=1)]
    e = add_players(new_event("S", "gomoku", "swiss", 5, options), players)
    _, paired = pair_next_round(e, random.Random(1))
    return [(b, w, why) for _, b, w, why in paired.pairings]


def test_without_the_option_round_1_pairs_the_numbers_club_or_not() -> None:
    pairs = _round1({})
    # appendix 五.2(1): 1–2, 3–4, …: here every pair of the first four boards is one club
    assert [(b, w) for b, w, _ in pairs] == [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)]


def test_with_the_option_no_two_players_of_one_club_meet_in_round_1() -> None:
    pairs = _round1({"avoid_same_club": True})
    assert all(CLUBS[b - 1] != CLUBS[w - 1] for b, w, _ in pairs)
    # everyone is paired once, the smaller number has Black (odd round), and the reason says why
    assert sorted(n for b, w, _ in pairs for n in (b, w)) == list(range(1, 13))
    assert all(b < w for b, w, _ in pairs)
    assert any("same club kept apart" in why for _, _, why in pairs)
