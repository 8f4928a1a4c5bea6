"""Swiss pairing (积分编排制, Go appendix 五): rounds worked by hand and brute-force properties."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi.errors import InvalidInput, PairingError
from duiyi.tournament.pairing._matching import has_perfect_matching, maximum_matching
from duiyi.tournament.pairing.swiss import (
    SwissPlayer,
    colours_for,
    pair_swiss,
    record_round,
    suggested_rounds,
)


def games(r: object) -> list[tuple[int, int]]:
    from duiyi.tournament.pairing.common import Round

    assert isinstance(r, Round)
    return [(p.black, p.white) for p in r.pairings]


def test_round_one_pairs_drawn_numbers_in_twos() -> None:
    # Go appendix 五.2(1): 第一轮按照 1—2、3—4……编对，号码在前者执黑棋
    r = pair_swiss([SwissPlayer(n) for n in range(1, 9)], 1)
    assert games(r) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert r.byes == ()


def test_eight_players_three_rounds_by_hand() -> None:
    # Go appendix 五.2(3)(4), 五.3 — worked by hand:
    # R1 1-2 3-4 5-6 7-8; winners 1, 4, 5, 8.
    field = [SwissPlayer(n) for n in range(1, 9)]
    r1 = pair_swiss(field, 1)
    field = record_round(field, r1, {1: 2, 2: 0, 3: 0, 4: 2, 5: 2, 6: 0, 7: 0, 8: 2})
    # R2 (even round: larger numbers first): score 2 group reads 8 5 4 1, score 0 group 7 6 3 2.
    # 8 (had White) meets 5 (had Black): 8 takes Black; 4-1: 4 Black; 7-6: 6 Black; 3-2: 2 Black.
    r2 = pair_swiss(field, 2)
    assert games(r2) == [(8, 5), (4, 1), (6, 7), (2, 3)]
    field = record_round(field, r2, {8: 2, 5: 0, 1: 2, 4: 0, 6: 2, 7: 0, 3: 2, 2: 0})
    # R3 (odd: ascending). Score 4: 1-8; equal balance, 1 had White last → 1 Black.
    # Score 2: 3 4 5 6 — 3 met 4 in R1, so 3-5 (identical histories, odd round: 3 Black), 4-6.
    # Score 0: 2-7, 7 had White last → 7 Black.
    r3 = pair_swiss(field, 3)
    assert games(r3) == [(1, 8), (3, 5), (4, 6), (7, 2)]
    assert "4 (met before)" in r3.pairings[1].reason
    assert "score group 2" in r3.pairings[1].reason
    assert "smaller number Black" in r3.pairings[1].reason


def test_odd_field_bye_and_lookahead_by_hand() -> None:
    # DECISIONS.md (Swiss bye) and Go appendix 五.2(2)(4): 5 players.
    field = [SwissPlayer(n) for n in range(1, 6)]
    r1 = pair_swiss(field, 1)
    assert games(r1) == [(1, 2), (3, 4)] and r1.byes == (5,)  # lowest ranked: last number
    field = record_round(field, r1, {1: 2, 2: 0, 3: 2, 4: 0})
    # Score 0 without a bye: 2 and 4 → the bye goes to 4 (the larger number).
    # Even round, score 2 group reads 5 3 1; pairing 5-3 would leave 1-2, a rematch,
    # so 5 meets 1 and 3 floats down to 2.
    r2 = pair_swiss(field, 2)
    assert r2.byes == (4,)
    assert games(r2) == [(5, 1), (2, 3)]
    assert "3 (would leave the rest unpairable)" in r2.pairings[0].reason
    assert "floats down" in r2.pairings[1].reason
    assert "4 has the bye" in r2.notes[0]


def test_colour_rules() -> None:
    # Go appendix 五.3: 在先后手相同时，单轮次小号执黑棋，双轮次大号执黑棋
    assert colours_for(SwissPlayer(3, colours="BW"), SwissPlayer(7, colours="BW"), 3)[:2] == (3, 7)
    assert colours_for(SwissPlayer(3, colours="BW"), SwissPlayer(7, colours="BW"), 4)[:2] == (7, 3)
    # fewer Blacks takes Black
    assert colours_for(SwissPlayer(3, colours="BB"), SwissPlayer(7, colours="BW"), 3)[:2] == (7, 3)


def test_the_colour_reason_says_what_decided() -> None:
    # Go appendix 五.3 (issue 20): after a bye in round 1, 9 has no colour; 4 had White. Neither
    # has had a Black, so "fewer Blacks (B0 W1 vs B0 W0)" was wrong: the balance decides.
    black, white, why = colours_for(SwissPlayer(4, colours="W"), SwissPlayer(9), 2)
    assert (black, white) == (4, 9)
    assert "fewer Blacks" not in why
    assert why == "4 is due Black: Blacks minus Whites -1 (B0 W1) against +0 (B0 W0)"
    # more Blacks than Whites: the other one is due Black
    why = colours_for(SwissPlayer(3, colours="BB"), SwissPlayer(7, colours="BW"), 3)[2]
    assert why == "7 is due Black: Blacks minus Whites +0 (B1 W1) against +2 (B2 W0)"


def test_colour_balance_prefers_a_near_neighbour_that_fits() -> None:
    # Go appendix 五.2(4): 结合平衡先后手的条件邻近编对
    field = [
        SwissPlayer(1, 2, colours="B"),
        SwissPlayer(2, 2, colours="B"),
        SwissPlayer(3, 2, colours="W"),
        SwissPlayer(4, 2, colours="W"),
    ]
    assert games(pair_swiss(field, 3)) == [(3, 1), (4, 2)]
    assert games(pair_swiss(field, 3, colour_window=0)) == [(1, 2), (3, 4)]


def test_unpairable_round_is_refused() -> None:
    # Go appendix 五.2(2): 已赛过的棋手不再相遇 — 4 players after 3 rounds have met everyone
    field = [SwissPlayer(n, opponents=frozenset({1, 2, 3, 4} - {n})) for n in range(1, 5)]
    with pytest.raises(PairingError):
        pair_swiss(field, 4)


def test_refusals() -> None:
    with pytest.raises(InvalidInput):
        pair_swiss([SwissPlayer(1), SwissPlayer(1)], 1)
    with pytest.raises(InvalidInput):
        pair_swiss([SwissPlayer(1)], 0)
    with pytest.raises(InvalidInput):
        SwissPlayer(1, colours="X")


def test_suggested_rounds() -> None:
    # Go appendix 五.1: 轮次数大致为单败淘汰制所需轮次的两倍 … 可适当增减 1 至 2 轮
    assert suggested_rounds(64).base == 12
    assert (suggested_rounds(100).low, suggested_rounds(100).high) == (12, 16)


# --- brute force -------------------------------------------------------------------------------


def brute_pairable(nodes: list[int], met: set[frozenset[int]]) -> bool:
    if not nodes:
        return True
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) not in met and brute_pairable(rest[:i] + rest[i + 1 :], met):
            return True
    return False


@st.composite
def histories(draw: st.DrawFn) -> list[SwissPlayer]:
    n = draw(st.integers(min_value=1, max_value=9))
    pairs = list(itertools.combinations(range(1, n + 1), 2))
    met = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs))) if pairs else set()
    out = []
    for k in range(1, n + 1):
        opponents = frozenset(b if a == k else a for a, b in met if k in (a, b))
        out.append(
            SwissPlayer(
                k,
                score=draw(st.integers(min_value=0, max_value=4)),
                opponents=opponents,
                colours=draw(st.text(alphabet="BW", max_size=len(opponents))),
                byes=draw(st.integers(min_value=0, max_value=1)),
            )
        )
    return out


@settings(max_examples=300, deadline=None)
@given(histories(), st.integers(min_value=1, max_value=8))
def test_never_a_rematch_while_a_valid_pairing_exists(
    field: list[SwissPlayer], round_number: int
) -> None:
    # Go appendix 五.2(2) (no rematch) and 五.2(1) (每轮均须为全体棋手编排一次)
    met = {frozenset((p.number, o)) for p in field for o in p.opponents}
    numbers = [p.number for p in field]
    if len(numbers) % 2:
        feasible = any(brute_pairable([m for m in numbers if m != b], met) for b in numbers)
    else:
        feasible = brute_pairable(numbers, met)
    if not feasible:
        with pytest.raises(PairingError):
            pair_swiss(field, round_number)
        return
    r = pair_swiss(field, round_number)
    assert sorted(r.players) == sorted(numbers)  # everyone paired once or has the bye
    assert len(r.byes) == len(numbers) % 2
    for g in r.pairings:
        assert frozenset(g.players) not in met
        assert g.reason
    if r.byes and field[r.byes[0] - 1].byes > 0:
        # a second bye only when no player without a bye could take it
        for p in field:
            if p.byes == 0:
                assert not brute_pairable([m for m in numbers if m != p.number], met)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=9), st.randoms(use_true_random=False))
def test_matching_matches_brute_force(n: int, rnd: random.Random) -> None:
    edges = {frozenset(e) for e in itertools.combinations(range(n), 2) if rnd.random() < 0.4}
    adj = [[w for w in range(n) if frozenset((v, w)) in edges] for v in range(n)]
    mate = maximum_matching(n, adj)
    for v, w in enumerate(mate):
        if w != -1:
            assert mate[w] == v and frozenset((v, w)) in edges
    met = {frozenset(e) for e in itertools.combinations(range(n), 2)} - edges
    assert has_perfect_matching(n, adj) == (n % 2 == 0 and brute_pairable(list(range(n)), met))


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0, max_value=10**6))
def test_simulated_events_pair_every_round(n: int, seed: int) -> None:
    # Go appendix 五: a whole event, rounds simulated with random results
    rng = random.Random(seed)
    field = [SwissPlayer(k) for k in range(1, n + 1)]
    rounds = min(suggested_rounds(n).base, n - 1 if n % 2 == 0 else n)
    met: set[frozenset[int]] = set()
    for number in range(1, rounds + 1):
        try:
            r = pair_swiss(field, number)
        except PairingError:
            # late rounds of a small field can run out of new opponents; only then may it refuse
            assert n <= 16
            numbers = list(range(1, n + 1))
            assert not any(
                brute_pairable([m for m in numbers if m != b], met)
                for b in (numbers if n % 2 else [0])
            )
            return
        assert sorted(r.players) == list(range(1, n + 1))
        points = {}
        for g in r.pairings:
            key = frozenset(g.players)
            assert key not in met
            met.add(key)
            win = rng.random() < 0.5
            points[g.black], points[g.white] = (2, 0) if win else (0, 2)
        field = record_round(field, r, points)


@st.composite
def split_fields(draw: st.DrawFn) -> list[SwissPlayer]:
    """A top score group and the rest, each able to pair among itself (a hidden pairing is
    kept free of previous games); all other previous games are random."""
    top = draw(st.integers(min_value=1, max_value=4)) * 2
    rest = draw(st.integers(min_value=0, max_value=3)) * 2
    n = top + rest
    order = draw(st.permutations(range(1, n + 1)))
    hidden = {frozenset(order[i : i + 2]) for i in range(0, n, 2)}
    pairs = [frozenset(e) for e in itertools.combinations(range(1, n + 1), 2)]
    met = {e for e in pairs if e not in hidden and draw(st.booleans())}
    top_players = set(order[:top])
    out = []
    for k in range(1, n + 1):
        opponents = frozenset(next(iter(e - {k})) for e in met if k in e)
        score = 4 if k in top_players else draw(st.integers(min_value=0, max_value=3))
        colours = draw(st.text(alphabet="BW", max_size=len(opponents)))
        out.append(SwissPlayer(k, score, opponents, colours))
    return out


@settings(max_examples=200, deadline=None)
@given(split_fields(), st.integers(min_value=1, max_value=8))
def test_same_score_first(field: list[SwissPlayer], round_number: int) -> None:
    # Go appendix 五.2(3)(4): 首先安排积分相同者编对, from the top score group down — if the top
    # group can pair among itself and the others among themselves, nobody floats out of it
    group = {p.number for p in field if p.score == 4}
    r = pair_swiss(field, round_number)
    for g in r.pairings:
        assert (g.black in group) == (g.white in group), g.reason
