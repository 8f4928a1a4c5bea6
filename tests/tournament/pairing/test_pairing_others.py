"""McMahon, progressive elimination, groups, matches, relay and team pairings."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi.errors import InvalidInput
from duiyi.tournament.pairing.common import nigiri, nigiri_gomoku
from duiyi.tournament.pairing.groups import group_round_robins, serpentine_groups
from duiyi.tournament.pairing.matches import match_schedule, match_status, wins_needed
from duiyi.tournament.pairing.mcmahon import (
    McMahonPlayer,
    initial_score,
    pair_mcmahon,
    parse_rank,
)
from duiyi.tournament.pairing.relay import relay
from duiyi.tournament.pairing.swiss_elimination import (
    EliminationEntry,
    eliminate,
    elimination_plan,
)
from duiyi.tournament.pairing.teams import check_lineup, scheveningen, team_match, team_totals

# --- colours ------------------------------------------------------------------------------------


def test_nigiri_is_fair_and_reproducible() -> None:
    # Go §10 猜先 and Gomoku §5.3(1), randomness only through the injected source
    rng = random.Random(11)
    blacks = Counter(nigiri(1, 2, rng)[0] for _ in range(2000))
    assert 850 < blacks[1] < 1150
    assert nigiri(1, 2, random.Random(5)) == nigiri(1, 2, random.Random(5))
    g = Counter(nigiri_gomoku(1, 2, rng)[0] for _ in range(2000))
    assert 850 < g[1] < 1150


# --- McMahon ------------------------------------------------------------------------------------


def test_mcmahon_scores_bar_and_floor() -> None:
    # McMahon (international option): everyone above the bar starts equal, below the floor at 0
    assert [parse_rank(r) for r in ("1d", "9d", "1k", "30k", "1p")] == [0, 8, -1, -30, 7]
    assert initial_score("6d", bar="2d", floor="10k") == initial_score("2d", bar="2d", floor="10k")
    assert initial_score("10k", bar="2d", floor="10k") == 0
    assert initial_score("15k", bar="2d", floor="10k") == 0
    assert initial_score("9k", bar="2d", floor="10k") == 1
    with pytest.raises(InvalidInput):
        parse_rank("3x")
    with pytest.raises(InvalidInput):
        initial_score("1k", bar="5k", floor="1d")


def test_mcmahon_pairs_within_mcmahon_groups() -> None:
    # The stronger group is paired among itself in round 1
    field = [
        McMahonPlayer(1, "3d"),
        McMahonPlayer(2, "2d"),
        McMahonPlayer(3, "5k"),
        McMahonPlayer(4, "5k"),
        McMahonPlayer(5, "4d"),
        McMahonPlayer(6, "5k"),
    ]
    r = pair_mcmahon(field, 1, bar="2d", floor="10k")
    pairs = {frozenset(p.players) for p in r.pairings}
    assert pairs == {frozenset({1, 2}), frozenset({5, 3}), frozenset({4, 6})}
    assert "floats down" in next(p for p in r.pairings if 5 in p.players).reason


# --- progressive elimination -------------------------------------------------------------------


def test_elimination_order_score_then_opponents_then_lots() -> None:
    # Go appendix 六: 1. 积分低者淘汰 2. 对手分少者淘汰 3. 抽签决定
    entries = [
        EliminationEntry(1, 8, 30),
        EliminationEntry(2, 2, 20),
        EliminationEntry(3, 2, 25),
        EliminationEntry(4, 4, 20),
        EliminationEntry(5, 2, 20),
        EliminationEntry(6, 0, 30),
        EliminationEntry(7, 6, 20),
        EliminationEntry(8, 4, 22),
    ]
    e = eliminate(entries, 2, random.Random(0))
    assert e.dropped[0] == 6  # lowest score
    assert e.dropped[1] in (2, 5)  # equal score and opponents' score: by lot
    assert "lot" in e.reasons[1]
    e3 = eliminate(entries, 4, random.Random(0))
    assert set(e3.dropped) == {6, 2, 5, 3}
    # a different lot can pick the other one, and the same seed the same one
    picks = {eliminate(entries, 2, random.Random(s)).dropped[1] for s in range(20)}
    assert picks == {2, 5}


def test_elimination_keeps_the_field_even() -> None:
    # Go §26.4: 始终要保持参赛人数为偶数的原则
    entries = [EliminationEntry(n, n, 0) for n in range(1, 10)]
    e = eliminate(entries, 4, random.Random(1))
    assert (9 - len(e.dropped)) % 2 == 0 and 2 <= len(e.dropped) <= 4
    assert set(e.dropped) == {1, 2, 3}
    with pytest.raises(InvalidInput):
        eliminate(entries, 5, random.Random(1))


@given(st.integers(min_value=20, max_value=400), st.integers(min_value=6, max_value=12))
def test_elimination_plan_keeps_half_and_even(players: int, rounds: int) -> None:
    # Go appendix 六: 经过 5 轮之后开始逐轮淘汰 2~4 名 … 最后一轮的参赛人数以保持在参赛棋手的半数为宜
    plan = elimination_plan(players, rounds)
    assert all(k in (0, 2, 4) for k in plan)
    assert all(k == 0 for k in plan[:4])
    assert players - players % 2 - sum(plan) >= players // 2


# --- groups ---------------------------------------------------------------------------------


def test_serpentine_seeding_into_groups() -> None:
    # Go appendix 四: 种子选手人数按出线名额确定, 按照蛇形编排的原则均衡分布
    groups = serpentine_groups(list(range(1, 17)), 4, qualifiers=2, rng=random.Random(3))
    assert [sorted(g)[:2] for g in groups] == [[1, 8], [2, 7], [3, 6], [4, 5]]
    assert sorted(len(g) for g in groups) == [4, 4, 4, 4]
    assert sorted(p for g in groups for p in g) == list(range(1, 17))
    for g in groups:  # unseeded players are spread by lot, two per group
        assert len([p for p in g if p > 8]) == 2
    uneven = serpentine_groups(list(range(1, 11)), 3, qualifiers=1)
    assert sorted(len(g) for g in uneven) == [3, 3, 4]
    rr = group_round_robins(groups)
    assert all(len(rounds) == 3 for rounds in rr)
    with pytest.raises(InvalidInput):
        serpentine_groups([1, 2], 3)


# --- matches -----------------------------------------------------------------------------------


def test_best_of_n() -> None:
    # Go §26.5: 最少为3局2胜制，最多为7局4胜制; Gomoku §5.1(2): colours alternate
    assert [wins_needed(n) for n in (3, 5, 7)] == [2, 3, 4]
    with pytest.raises(InvalidInput):
        wins_needed(9)
    games = match_schedule(1, 2, 7, rng=random.Random(2))
    assert [g.black for g in games[:2]] == [games[0].black, games[0].white]
    assert all(games[k].black == games[k - 2].black for k in range(2, 7))
    s = match_status(1, 2, 7, [1, 2, 1, 1, 1])
    assert s.decided and s.winner == 1 and s.points == (Fraction(4), Fraction(1))
    with pytest.raises(InvalidInput):
        match_status(1, 2, 3, [1, 1, 2])  # played after it was decided
    tied = match_status(1, 2, 3, [1, None, 2])
    assert tied.tied and tied.winner is None


# --- relay -------------------------------------------------------------------------------------


def test_relay_winner_stays() -> None:
    # Go §26.6, Gomoku §17.5: 败一场的棋手不再参赛; 一方最后一位棋手败北则本队比赛结束
    s = relay([[1, 2, 3], [4, 5, 6]], [4, 4, 3, 3, 3])
    players = [tuple(sorted(g.players)) for g in s.games]
    assert players == [(1, 4), (2, 4), (3, 4), (3, 5), (3, 6)]
    assert s.winner == 0 and s.next_game is None and s.ranking == (0, 1)
    with pytest.raises(InvalidInput):
        relay([[1, 2], [3, 4]], [1, 1, 1])  # played after the end
    with pytest.raises(InvalidInput):
        relay([[1, 2], [3, 4]], [2])  # 2 was not on the stage


def test_relay_draws_and_colours() -> None:
    both_out = relay([[1, 2], [3, 4]], [None])
    assert both_out.next_game == (2, 4)
    replay = relay([[1, 2], [3, 4]], [None], draw="replay")
    assert replay.next_game == (1, 3)
    assert relay([[1], [2]], []).next_colours == (2, 1)  # challenger Black by default


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=4),
    st.randoms(use_true_random=False),
)
def test_relay_ends_with_one_team(sizes: list[int], rng: random.Random) -> None:
    # Gomoku §17.5: 结束比赛越早的队名次越靠后
    lineups, n = [], 1
    for size in sizes:
        lineups.append(list(range(n, n + size)))
        n += size
    results: list[int | None] = []
    state = relay(lineups, results)
    while state.next_game is not None:
        results.append(rng.choice(state.next_game))
        state = relay(lineups, results)
    assert state.winner is not None
    assert len(results) == sum(sizes) - len(state.remaining[state.winner])
    assert state.ranking[0] == state.winner and sorted(state.ranking) == list(range(len(sizes)))


# --- teams -------------------------------------------------------------------------------------


def test_team_boards_and_colours() -> None:
    # Gomoku §5.1(3): 先手方队的奇数台为先手方，后手方队的偶数台为先手方
    games = team_match([1, 2, 3, 4], [11, 12, 13, 14])
    assert [g.black for g in games] == [1, 12, 3, 14]
    with pytest.raises(InvalidInput):
        team_match([1, 2], [3])


def test_lineups() -> None:
    # Gomoku §16.2(2) 分台换人制: 台次顺序从小号位到大号位不得颠倒; (3) 临时定台制: any order
    roster = [1, 2, 3, 4, 5, 6]
    check_lineup(roster, [1, 2, 5, 6], 4)
    with pytest.raises(InvalidInput):
        check_lineup(roster, [1, 6, 2, 5], 4)
    check_lineup(roster, [1, 6, 2, 5], 4, ordered=False)
    with pytest.raises(InvalidInput):
        check_lineup(roster, [1, 2, 9, 6], 4, ordered=False)
    with pytest.raises(InvalidInput):
        check_lineup(roster, [1, 2, 3], 4)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_scheveningen_everyone_meets_everyone(size: int) -> None:
    # Gomoku §16.2(4) 全队轮赛制: 一方所有队员与另一方所有队员逐一对弈
    a, b = list(range(1, size + 1)), list(range(101, 101 + size))
    rounds = scheveningen(a, b)
    met = Counter(frozenset(p.players) for r in rounds for p in r.pairings)
    assert len(met) == size * size and set(met.values()) == {1}
    blacks = Counter(p.black for r in rounds for p in r.pairings)
    for player in a + b:
        assert abs(2 * blacks[player] - size) <= 1


def test_team_totals() -> None:
    # Gomoku §16.2(5) 队员总分制
    scores = {1: Fraction(7, 2), 2: 3, 3: 5, 4: 0}
    assert team_totals(scores, {"A": [1, 2], "B": [3, 4]}) == {"A": Fraction(13, 2), "B": 5}
