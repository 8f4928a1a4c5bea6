"""Round robin: the printed Berger tables of Go appendix 三 and the properties of the rule."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duiyi.errors import InvalidInput
from duiyi.tournament.pairing import berger_table, round_robin

# Go appendix 三, 附表三 as printed ("(4)" and "(6)" are the last numbers, the bye for 3 or 5).
PRINTED_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
PRINTED_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_printed_table_for_four_players() -> None:
    # Go appendix 三, 附表三 (参加者 3 或 4 人)
    assert [list(r) for r in berger_table(4)] == PRINTED_4


def test_printed_table_for_six_players() -> None:
    # Go appendix 三, 附表三 (参加者 5 或 6 人)
    assert [list(r) for r in berger_table(6)] == PRINTED_6


@pytest.mark.parametrize("players,printed", [(3, PRINTED_4), (4, PRINTED_4), (5, PRINTED_6)])
def test_schedules_follow_the_printed_tables(
    players: int, printed: list[list[tuple[int, int]]]
) -> None:
    # Go appendix 三.1-2: number listed first plays Black; an odd field makes the last number a bye
    rounds = round_robin(players)
    assert len(rounds) == len(printed)
    for got, table in zip(rounds, printed, strict=True):
        games = [(a, b) for a, b in table if players + 1 not in (a, b) or players % 2 == 0]
        assert [(p.black, p.white) for p in got.pairings] == games
        assert [p.board for p in got.pairings] == list(range(1, len(games) + 1))
        if players % 2:
            (bye,) = got.byes
            assert (bye, players + 1) in table or (players + 1, bye) in table
        else:
            assert got.byes == ()


def test_six_players_round_two_json() -> None:
    # Go appendix 三: 6 players, round 2 reads (6)——4, 5——3, 1——2
    assert round_robin(6)[1].to_json() == {
        "round": 2,
        "pairings": [
            {"board": 1, "black": 6, "white": 4},
            {"board": 2, "black": 5, "white": 3},
            {"board": 3, "black": 1, "white": 2},
        ],
        "byes": [],
    }


def test_odd_field_five_players_byes_rotate() -> None:
    # Go appendix 三.2: 参赛棋手逢单时，则末号为轮空号 — each of 5 players sits out once
    rounds = round_robin(5)
    assert sorted(b for r in rounds for b in r.byes) == [1, 2, 3, 4, 5]
    assert [r.byes for r in rounds] == [(1,), (4,), (2,), (5,), (3,)]


@pytest.mark.parametrize("size", range(8, 22, 2))
def test_rule_links_rounds_head_to_tail(size: int) -> None:
    # Go appendix 三.3: 首尾相接，末号摆动，邻近号相对 (tables for 7-20 players are not printed)
    table = berger_table(size)
    for number, pairs in enumerate(table, start=1):
        first = pairs[0]
        assert size in first
        assert (first[0] == size) == (number % 2 == 0)  # 末号摆动
        if number > 1:
            assert table[number - 2][-1][1] in first  # 首尾相接
        inner = pairs[-1]
        assert abs(inner[0] - inner[1]) in (1, size - 2)  # 邻近号相对 (on the ring 1…n-1)


def _check_cycle(players: int, cycles: int) -> None:
    rounds = round_robin(players, cycles=cycles)
    per = players - 1 if players % 2 == 0 else players
    assert len(rounds) == per * cycles
    for c in range(cycles):
        meetings: Counter[frozenset[int]] = Counter()
        blacks: Counter[int] = Counter()
        whites: Counter[int] = Counter()
        for r in rounds[c * per : (c + 1) * per]:
            seen = [q for p in r.pairings for q in p.players] + list(r.byes)
            assert sorted(seen) == list(range(1, players + 1))  # everyone plays or has the bye
            for p in r.pairings:
                meetings[frozenset(p.players)] += 1
                blacks[p.black] += 1
                whites[p.white] += 1
        assert len(meetings) == players * (players - 1) // 2
        assert set(meetings.values()) == {1}  # every pair exactly once per cycle
        for k in range(1, players + 1):
            assert abs(blacks[k] - whites[k]) <= 1  # balanced colours
    if cycles >= 2:
        first = {frozenset(p.players): p.black for r in rounds[:per] for p in r.pairings}
        second = {frozenset(p.players): p.black for r in rounds[per : 2 * per] for p in r.pairings}
        assert all(first[k] != second[k] for k in first)  # colours reversed in cycle 2


@given(st.integers(min_value=2, max_value=24), st.integers(min_value=1, max_value=3))
def test_every_pair_once_per_cycle_with_balanced_colours(players: int, cycles: int) -> None:
    # Go §26.2 (单循环、双循环和多循环) and appendix 三
    _check_cycle(players, cycles)


def test_ids_map_drawn_numbers() -> None:
    # Go appendix 三.1: 首先对参赛棋手进行抽签编号
    r = round_robin(4, ids=[40, 30, 20, 10])[0]
    assert [(p.black, p.white) for p in r.pairings] == [(40, 10), (30, 20)]


def test_refusals() -> None:
    with pytest.raises(InvalidInput):
        round_robin(1)
    with pytest.raises(InvalidInput):
        round_robin(4, cycles=0)
    with pytest.raises(InvalidInput):
        berger_table(5)


@pytest.mark.parametrize("size", range(4, 42, 2))
def test_rule_agrees_with_the_closed_form_rotation(size: int) -> None:
    # Go appendix 三.3, cross-checked against the closed form of the same tables: round r starts
    # the ring at 1 + (r-1)·n/2 (mod n-1), the last number swinging sides
    half = size // 2
    for r, pairs in enumerate(berger_table(size), start=1):
        start = ((r - 1) * half) % (size - 1)
        ring = [(start + k) % (size - 1) + 1 for k in range(size - 1)]
        head = (size, ring[0]) if r % 2 == 0 else (ring[0], size)
        rest = tuple((ring[i], ring[size - 1 - i]) for i in range(1, half))
        assert pairs == (head, *rest)
