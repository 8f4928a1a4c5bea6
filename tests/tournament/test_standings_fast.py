"""The whole-field standings (integers, one sort) rank exactly as the tiebreaks' definitions.

Every criterion of the books (Go §27.1, Gomoku §18.3-18.4) and the McMahon option is defined
per competitor in duiyi.tournament.tiebreaks; the standings compute them for the whole field at
once in exact integers. These tests rank random tables both ways and compare lines and values,
and compare an event's records held as columns with the same records built game by game.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi.tournament import event as ops
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult, Scoring, Table
from duiyi.tournament.standings import default_chain, standings
from duiyi.tournament.tiebreaks import Tiebreak, columns, parse_tiebreak

RESULTS = list(GameResult)

CHAINS = [
    default_chain(g, s, variant=v, **flags)
    for g in ("go", "gomoku")
    for s, flags in (
        ("round-robin", {}),
        ("swiss", {}),
        ("swiss", {"mcmahon": True}),
        ("knockout", {}),
        ("knockout", {"lives": 2}),
    )
    for v in ("A", "B")
] + [
    tuple(parse_tiebreak(n) for n in names)
    for names in (
        ("buchholz", "median-buchholz:2:0", "eliminated:2", "wins"),
        ("sb", "aro", "median-buchholz", "warnings"),
        ("points", "direct", "sb"),
        ("total-score", "sosos", "sos", "mms"),
    )
]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    n = draw(st.integers(2, 10))
    rounds = draw(st.integers(0, 5))
    games, byes = [], []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(list(range(1, n + 1))))
        for i in range(0, n - 1, 2):
            games.append((r, order[i], order[i + 1], draw(st.sampled_from(RESULTS))))
        if n % 2:
            byes.append((r, order[-1]))
    scoring = draw(
        st.sampled_from(
            [Scoring.go(), Scoring.gomoku(), Scoring(Fraction(3), Fraction(3, 2), bye=Fraction(1))]
        )
    )
    ratings = {p: draw(st.one_of(st.none(), st.integers(1000, 2800))) for p in range(1, n + 1)}
    warnings = {(r, p): draw(st.integers(0, 2)) for r, p, _, _ in games}
    table = Table.from_games(
        games,
        scoring,
        rounds=draw(st.integers(0, rounds + 1)),
        competitors=list(range(1, n + 1)),
        byes=byes,
        ratings=ratings,
        warnings=warnings,
    )
    initial = {
        p: Fraction(draw(st.integers(0, 12)), draw(st.sampled_from([1, 1, 2])))
        for p in range(1, n + 1)
        if draw(st.booleans())
    }
    return dataclasses.replace(table, initial=initial)


def _by_definition(tb: Tiebreak) -> Tiebreak:
    """The criterion from its per-competitor definition, ranked group by group."""
    return dataclasses.replace(tb, field=None, by_group=True)


@settings(max_examples=300, deadline=None)
@given(tables(), st.sampled_from(CHAINS), st.booleans())
def test_whole_field_ranking_equals_group_by_group_definitions(
    table: Table, chain: tuple[Tiebreak, ...], with_lots: bool
) -> None:
    lots = {c: i for i, c in enumerate(reversed(table.competitors), start=1)} if with_lots else None
    fast = standings(table, chain, lots)
    slow = standings(dataclasses.replace(table), [_by_definition(t) for t in chain], lots)
    assert fast == slow
    for row in fast:
        for tb, value in zip(chain, row.values, strict=True):
            assert isinstance(value, Fraction)
            if not tb.by_group:
                assert value == tb.function(table, [row.number])[row.number]


def test_event_records_as_columns_match_game_by_game_records() -> None:
    # the event's table holds integers; as a mapping it still gives the same encounters
    e = ops.new_event("x", "gomoku", "swiss", 4)
    e = ops.add_players(e, [Player(0, f"P{i}", rating=1500 + 10 * i) for i in range(9)])
    e = ops.simulate(e, 4, random.Random(3))
    t = ops.table(e)
    games = [
        (rnd, g.black, g.white, g.result)
        for rnd, g in e.games()
        if g.result is not None  # all are
    ]
    warns = {}
    for rnd, g in e.games():
        warns[(rnd, g.black)] = g.black_warnings
        warns[(rnd, g.white)] = g.white_warnings
    byes = [(r.number, b) for r in e.history for b in r.byes]
    ref = Table.from_games(
        games,
        e.points,
        rounds=4,
        competitors=[p.number for p in e.players],
        byes=byes,
        ratings={p.number: p.rating for p in e.players},
        warnings=warns,
    )
    for p in ref.competitors:
        assert t.records(p) == ref.records(p)
        assert t.points(p) == ref.points(p) == Fraction(columns(t).points[p], columns(t).scale)
    for chain in CHAINS:
        assert standings(t, chain) == standings(ref, chain)


def test_criteria_sharing_a_name_keep_their_own_values() -> None:
    # a parameterised criterion (e.g. another convention for the same column) is computed
    # from its own definition, never taken from the memo of another one with the same name
    t = Table.from_games([(1, 1, 2, GameResult.BLACK_WINS)], Scoring.go(), rounds=1)
    base = parse_tiebreak("buchholz")
    other = dataclasses.replace(
        base, function=lambda tbl, group: {c: Fraction(7) for c in group}, field=None
    )
    assert base.values(t, [1, 2]) == {1: Fraction(0), 2: Fraction(2)}
    assert other.values(t, [1, 2]) == {1: Fraction(7), 2: Fraction(7)}
    assert [r.values for r in standings(t, (other,))] == [(Fraction(7),), (Fraction(7),)]
