"""Property tests over random games (Go §3, §4, §5, §6): bookkeeping, liberties, undo, replay."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import boards

from duiyi import BLACK, WHITE
from duiyi.errors import IllegalMove
from duiyi.go import Board, Game, KoRule, Phase, Rules, score_position

RULESETS = [
    Rules.chinese(),
    Rules.japanese(),
    replace(Rules.chinese(), ko_rule=KoRule.POSITIONAL),
    replace(Rules.chinese(), allow_suicide=True),  # own stones removed count for the opponent
]

games = st.tuples(
    st.sampled_from([5, 6, 7, 9]),
    st.sampled_from(RULESETS),
    st.integers(0, 2**32),  # seed of the move choices
    st.integers(10, 250),  # number of actions
)
Spec = tuple[int, Rules, int, int]


def play_random(spec: Spec, check: bool) -> Game:
    """Play random legal moves (a pass now and then) seeded by ``spec``; after each action run
    the invariants when ``check``."""
    size, rules, seed, length = spec
    rng = random.Random(seed)
    g = Game(size, rules)
    placed = {BLACK: 0, WHITE: 0}
    for _ in range(length):
        if g.phase is not Phase.PLAYING:
            break
        legal = list(g.legal_moves())
        before = (g.board, g.situation_hash, g.to_move, g.captures)
        color = g.to_move
        if not legal or rng.random() < 0.03:
            g.pass_move()
        else:
            g.play(rng.choice(legal))
            placed[color] += 1
        if check:
            check_invariants(g, placed)
            last = g.actions[-1]
            g.undo()  # undo restores the exact position and hash
            assert (g.board, g.situation_hash, g.to_move, g.captures) == before
            assert g.board.zobrist == before[0].zobrist
            g.apply(last)
    return g


def check_invariants(g: Game, placed: dict[object, int]) -> None:
    b = g.board
    # stones placed − stones captured = stones on the board (Go §4)
    assert b.count(BLACK) == placed[BLACK] - g.captures[WHITE]
    assert b.count(WHITE) == placed[WHITE] - g.captures[BLACK]
    # no chain without liberties survives a move (Go §3, §4, §5)
    for color in (BLACK, WHITE):
        for chain in b.chains(color):
            assert b.liberties(next(iter(chain)))
    # the incremental Zobrist key equals the key computed from scratch
    assert Board.from_bits(b.size, b.black_bits, b.white_bits).zobrist == b.zobrist


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_invariants_and_undo(game: Spec) -> None:
    play_random(game, check=True)


@settings(max_examples=60, deadline=None)
@given(games)
def test_from_actions_reproduces_the_state(game: Spec) -> None:
    rules = game[1]
    g = play_random(game, check=False)
    h = Game.from_actions(rules, g.action_log_json())
    assert h.board == g.board and h.situation_hash == g.situation_hash
    assert (h.to_move, h.phase, h.captures, h.moves) == (g.to_move, g.phase, g.captures, g.moves)
    assert set(h.legal_moves()) == set(g.legal_moves())


big_games = st.tuples(
    st.sampled_from([5, 8, 13, 19, 25]),
    st.sampled_from(RULESETS),
    st.integers(0, 2**32),
    st.integers(50, 400),
)


@settings(max_examples=30, deadline=None)
@given(big_games)
def test_captures_agree_with_sgfmill(game: Spec) -> None:
    # an independent implementation of Go §4 gives the same positions move after move
    # (all board widths: the padding column of the bitboards must never leak)
    size, rules, _, _ = game
    g = play_random(game, check=False)
    ref = boards.Board(size)
    replay = Game(size, rules)
    for color, p in g.moves:
        if replay.phase is not Phase.PLAYING:
            break
        replay.play(p)
        if p is not None:
            ref.play(p.row, p.col, color.letter.lower())
        ours = {(q.row, q.col) for q in replay.board.stones(BLACK)}
        theirs = {(r, c) for r in range(size) for c in range(size) if ref.get(r, c) == "b"}
        assert ours == theirs
        ours_w = {(q.row, q.col) for q in replay.board.stones(WHITE)}
        theirs_w = {(r, c) for r in range(size) for c in range(size) if ref.get(r, c) == "w"}
        assert ours_w == theirs_w


@settings(max_examples=40, deadline=None)
@given(games)
def test_superko_history_matches_a_naive_recomputation(game: Spec) -> None:
    # Go §6: a move is legal iff the point is empty, it is not suicide, and (superko rules) the
    # position it creates with the opponent to move never occurred before
    size, rules, _, _ = game
    if rules.ko_rule is KoRule.SIMPLE:
        return
    g = play_random(game, check=False)
    if g.phase is not Phase.PLAYING:
        return
    # rebuild every situation naively from the move list
    seen = set()
    replay = Game(size, rules)
    seen.add((replay.board.black_bits, replay.board.white_bits, replay.to_move))
    for _color, p in g.moves:
        replay.play(p)
        seen.add((replay.board.black_bits, replay.board.white_bits, replay.to_move))
    situational = rules.ko_rule is KoRule.SITUATIONAL
    for q in g.board.geometry.points:
        b = g.board
        expected = True
        if b.get(q) is not None:
            expected = False
        else:
            try:
                b.play(q, g.to_move, allow_suicide=rules.allow_suicide)
            except IllegalMove:
                expected = False
            else:
                key = (b.black_bits, b.white_bits, g.to_move.opponent)
                if situational:
                    expected = key not in seen
                else:
                    expected = all((s[0], s[1]) != key[:2] for s in seen)
        assert g.is_legal(q) == expected, q


@settings(max_examples=40, deadline=None)
@given(games, st.lists(st.integers(0, 10_000), max_size=6))
def test_counting_totals(game: Spec, marks: list[int]) -> None:
    # Go §9: every point of the board is counted once (halves for neutral points), so
    # black + white area = all points; dead stones marked as whole chains (Go §8)
    size = game[0]
    g = play_random(game, check=False)
    if g.phase is Phase.FINISHED:
        return
    while g.phase is Phase.PLAYING:
        g.pass_move()
    stones = sorted(g.board.stones(BLACK) | g.board.stones(WHITE))
    for m in marks:
        if stones:
            g.mark_dead(stones[m % len(stones)])
    dead = g.dead
    for p in dead:
        assert g.board.group(p) <= dead
    for rules in (Rules.chinese(), Rules.ing()):
        s = score_position(g.board, rules, dead, captures=g.captures)
        assert s.black_area + s.white_area == size * size
        assert (s.margin_points * 2).denominator == 1
    jp = score_position(g.board, Rules.japanese(), dead, captures=g.captures)
    empty_after = size * size - (g.board.count(BLACK) + g.board.count(WHITE) - len(dead))
    assert len(jp.black_territory) + len(jp.white_territory) <= empty_after
    assert jp.black_prisoners == g.captures[BLACK] + len(dead & g.board.stones(WHITE))
    g.accept(BLACK)
    g.accept(WHITE)
    o = g.outcome()
    assert o is not None and o.winner is g.score().winner


@settings(max_examples=40, deadline=None)
@given(games)
def test_simple_ko_refuses_only_the_immediate_retake(game: Spec) -> None:
    # Go §20.1 (simple ko): an empty, non-suicide point is refused only when it retakes at once
    # a single stone that just captured a single stone
    size, _, seed, length = game
    rules = Rules.japanese()
    g = play_random((size, rules, seed, length), check=False)
    if g.phase is not Phase.PLAYING:
        return
    ko = None
    last = g.last_move
    if last is not None and last[1] is not None:
        before = Game.from_actions(rules, g.action_log_json()[:-1]).board
        after = g.board
        captured = before.stones(last[0].opponent) - after.stones(last[0].opponent)
        p = last[1]
        if len(captured) == 1 and after.group(p) == {p} and after.liberties(p) == captured:
            ko = next(iter(captured))
    for q in g.board.geometry.points:
        b = g.board
        expected = b.get(q) is None and q != ko
        if expected:
            try:
                b.play(q, g.to_move)
            except IllegalMove:
                expected = False
        assert g.is_legal(q) == expected, q
