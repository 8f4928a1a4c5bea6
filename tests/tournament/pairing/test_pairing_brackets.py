"""Single and double elimination: Go appendix 一 and 二 (附表一, 附表二), Gomoku §18.2."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi.errors import InvalidInput
from duiyi.tournament.pairing.double_elimination import double_elimination
from duiyi.tournament.pairing.knockout import Bracket, bracket_lines, knockout

SEEDS8 = [1, 2, 3, 4, 5, 6, 7, 8]


def sections_of(lines: tuple[int | None, ...], sections: int) -> list[tuple[int | None, ...]]:
    per = len(lines) // sections
    return [lines[per * s : per * (s + 1)] for s in range(sections)]


def test_thirty_two_player_draw_sheet() -> None:
    # Go appendix 一.2 and 附表一: four sections of eight; line 1 a class-1 seed, line 8 a
    # class-2 seed; 8 seeds serpentine (蛇形编排) so every section holds the same seed total.
    lines, count = bracket_lines(32, SEEDS8)
    assert len(lines) == 32 and count == 4
    secs = sections_of(lines, 4)
    assert {s[0] for s in secs} == {1, 2, 3, 4}
    assert {s[7] for s in secs} == {5, 6, 7, 8}
    assert all((s[0] or 0) + (s[7] or 0) == 9 for s in secs)
    # 第一区和第二区称为上半区: seeds 1 and 2 in different halves, 3 and 4 too
    upper = set(lines[:16])
    assert (1 in upper) != (2 in upper) and (3 in upper) != (4 in upper)
    assert secs[0][0] == 1 and secs[3][0] == 2
    assert sorted(p for p in lines if p is not None) == list(range(1, 33))


def test_thirty_players_byes_on_line_two_of_sections_one_and_four() -> None:
    # 附表一 note: 当需要有两名棋手轮空时，第一区和第四区的2号位为轮空号
    lines, _ = bracket_lines(30, SEEDS8)
    assert [i + 1 for i, p in enumerate(lines) if p is None] == [2, 26]
    assert lines[0] == 1 and lines[24] == 2  # the byes go to class-1 seeds first (一.3)


@pytest.mark.parametrize("players", range(17, 33))
def test_byes_spread_evenly_to_seeds_first(players: int) -> None:
    # Go appendix 一.3: 轮空棋手均衡地分布在各区之中，由一类种子选手或小号选手优先轮空
    lines, count = bracket_lines(players, SEEDS8)
    byes = [i for i, p in enumerate(lines) if p is None]
    assert len(byes) == 32 - players
    per_section = Counter(i // 8 for i in byes)
    counts = [per_section.get(s, 0) for s in range(count)]
    assert max(counts) - min(counts) <= 1
    halves = Counter(i // 16 for i in byes)
    assert abs(halves.get(0, 0) - halves.get(1, 0)) <= 1
    lucky = [lines[i ^ 1] for i in byes]  # who faces a bye
    seeds_first = SEEDS8[: len(lucky)]
    if len(lucky) <= 8:
        assert sorted(p for p in lucky if p is not None) == sorted(seeds_first)
    else:
        others = sorted(p for p in lucky if p is not None and p not in SEEDS8)
        assert others == list(range(9, 9 + len(others)))  # small numbers next


def test_without_seeds_small_numbers_get_the_byes() -> None:
    # Go appendix 一.3: 小号选手优先轮空
    lines, _ = bracket_lines(11, [])
    lucky = sorted(lines[i ^ 1] or 0 for i, p in enumerate(lines) if p is None)
    assert lucky == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("players,rounds", [(2, 1), (4, 2), (5, 3), (8, 3), (9, 4), (32, 5)])
def test_rounds(players: int, rounds: int) -> None:
    # Go appendix 一.1: 以4人淘汰需要两轮为基准，之后每增加一轮，容纳比赛人数可以加倍
    b = knockout(players)
    assert max(m.round for m in b.matches) == rounds


def play_out(b: Bracket, rng: random.Random) -> dict[str, int]:
    """Random winners for every match, in playing order."""
    results: dict[str, int] = {}
    for m in b.matches:
        a, c = b.participants(results)[m.id]
        if a > 0 and c > 0:
            results[m.id] = rng.choice((a, c))
    return results


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.randoms(use_true_random=False))
def test_knockout_plays_out(players: int, rng: random.Random) -> None:
    # Go §26.1 单败淘汰: one loss and out; Gomoku §18.2 place matches
    places = tuple(p for p in (3, 5, 9) if p - 1 < 2 ** (players - 1).bit_length())
    b = knockout(players, place_matches=places)
    results = play_out(b, rng)
    main = [m for m in b.matches if m.part == "main"]
    losses: Counter[int] = Counter()
    sides = b.participants(results)
    for m in main:
        a, c = sides[m.id]
        if a > 0 and c > 0:
            losses[c if results[m.id] == a else a] += 1
    assert all(v == 1 for v in losses.values())
    assert len(losses) == players - 1  # everyone but the champion lost once
    champion = results[main[-1].id]
    assert champion not in losses
    if 3 in places and players >= 4:
        semis = [m for m in main if m.round == max(x.round for x in main) - 1]
        semi_losers = {x for m in semis for x in sides[m.id] if x > 0 and x != results[m.id]}
        assert set(sides["P3-1.1"]) == semi_losers or 0 in sides["P3-1.1"]


def test_knockout_rounds_give_pairings_and_byes() -> None:
    # Go appendix 一.4: 每轮比赛赛前由棋手猜子确定 (nigiri with an injected random source)
    b = knockout(6)
    r1 = b.round("R1", {}, rng=random.Random(3))
    assert sorted(r1.byes) == [1, 2]
    assert sorted(x for p in r1.pairings for x in p.players) == [3, 4, 5, 6]
    assert b.round("R1", {}, rng=random.Random(3)) == r1  # reproducible
    with pytest.raises(InvalidInput):
        b.participants({"R1.2": 1})


def test_sixteen_player_double_elimination_sheet() -> None:
    # Go appendix 二 and 附表二: two sections of eight; lines 1 and 8 seeded; two byes on line 2
    b = double_elimination(14, [1, 2, 3, 4])
    assert b.sections == 2
    secs = sections_of(b.lines, 2)
    assert {secs[0][0], secs[1][0]} == {1, 2}
    assert {secs[0][7], secs[1][7]} == {3, 4}
    assert secs[0][1] is None and secs[1][1] is None
    # 胜者区败者进入败者区固定的位置: every winners match names its loser's line
    for m in b.matches:
        if m.part == "winners":
            assert m.loser_to.startswith("L")
    targets = [m.loser_to for m in b.matches if m.part == "winners"]
    assert len(targets) == len(set(targets)) == 15


@pytest.mark.parametrize("players", [8, 16, 32])
def test_double_elimination_first_drop_round_has_no_rematch(players: int) -> None:
    # Go appendix 二.3: fixed drop positions chosen so that L2 never repeats a game
    b = double_elimination(players)
    for seed in range(30):
        results = play_out(b, random.Random(seed))
        sides = b.participants(results)
        met = set()
        for m in b.matches:
            a, c = sides[m.id]
            if m.stage == "L2":
                assert frozenset((a, c)) not in met
            if a > 0 and c > 0:
                met.add(frozenset((a, c)))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=3, max_value=32), st.randoms(use_true_random=False))
def test_double_elimination_two_losses_and_out(players: int, rng: random.Random) -> None:
    # Go §26.1 and appendix 二: 参赛棋手负两局失去资格
    b = double_elimination(players)
    results = play_out(b, rng)
    sides = b.participants(results)
    losses: Counter[int] = Counter()
    games: Counter[int] = Counter()
    for m in b.matches:
        a, c = sides[m.id]
        if a > 0 and c > 0:
            games[a] += 1
            games[c] += 1
            losses[c if results[m.id] == a else a] += 1
    assert set(games) == set(range(1, players + 1))
    champions = [p for p in range(1, players + 1) if losses[p] < 2]
    assert len(champions) == 1
    assert all(losses[p] == 2 for p in range(1, players + 1) if p not in champions)
    gf = sides["GF"]
    reset_played = sides["GF2"][0] > 0
    assert reset_played == (results["GF"] == gf[1])


def test_double_elimination_refuses_large_fields() -> None:
    # Go appendix 二.3: 双败淘汰制比赛最多只宜 32 人
    with pytest.raises(InvalidInput):
        double_elimination(33)
    assert double_elimination(40, max_players=64).size == 64


def test_seed_placement_by_lot() -> None:
    # Go appendix 一.2: 一类或二类种子选手…依次抽签定位
    lines, _ = bracket_lines(32, SEEDS8, placement="draw", rng=random.Random(7))
    secs = sections_of(lines, 4)
    assert {s[0] for s in secs} == {1, 2, 3, 4} and {s[7] for s in secs} == {5, 6, 7, 8}
    with pytest.raises(InvalidInput):
        bracket_lines(32, SEEDS8, placement="draw")
    with pytest.raises(InvalidInput):
        bracket_lines(32, list(range(1, 10)))  # 9 seeds do not fit 4 sections


@pytest.mark.parametrize("players", [3, 7, 16, 30])
def test_brackets_round_trip_through_json(players: int) -> None:
    # value objects round-trip through their JSON form (event files store them)
    for b in (knockout(players, [1, 2], place_matches=(3,)), double_elimination(players)):
        assert Bracket.from_json(b.to_json()) == b
    with pytest.raises(InvalidInput):
        Bracket.from_json({"size": 2, "sections": 1, "lines": [1], "matches": []})
