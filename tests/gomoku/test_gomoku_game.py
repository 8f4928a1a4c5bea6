"""The game protocol (Gomoku §2.9-2.10, §3-4, §10-11) and its action log."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import Color
from duiyi.codec import action_from_json, action_to_json
from duiyi.errors import DuiyiError, GameOver, IllegalAction, IllegalMove, InvalidInput
from duiyi.gomoku import (
    GOMOKU_ACTIONS,
    DabSymmetry,
    Foul,
    FoulPolicy,
    Game,
    OfferDraw,
    Pass,
    Phase,
    Point,
    RenjuRules,
)
from duiyi.moves import Move
from duiyi.outcome import Result, Termination

B, W = Color.BLACK, Color.WHITE


def assert_won(g: Game, winner: Color, termination: Termination) -> None:
    o = g.outcome()
    assert o is not None and o.winner is winner and o.termination is termination


def designated(**kw: object) -> Game:
    return Game(RenjuRules.chinese_2013().with_options(**kw))


def opened(n: int = 2, **kw: object) -> Game:
    g = designated(**kw)
    g.open("h8", "h9", "j10", fifth_n=n)  # 疏星
    return g


# -- designated opening ----------------------------------------------------------------------


def test_opening_places_three_stones_and_hands_over_to_white():
    # Gomoku §3.2: the opener (Black) lays black 1, white 2, black 3 and declares N
    g = opened(3)
    assert [str(m.point) for m in g.moves] == ["h8", "h9", "j10"]
    assert [m.color for m in g.moves] == [B, W, B]
    assert g.opening is not None and g.opening.opening.chinese == "疏星"
    assert g.phase is Phase.SWAP and g.to_act is W and g.fifth_n == 3


@pytest.mark.parametrize(
    ("stones", "why"),
    [
        (("h9", "h10", "h11"), "h8"),  # Gomoku §3.2: black 1 on the centre
        (("h8", "h10", "i10"), "touch"),  # white 2 touches black 1
        (("h8", "h9", "k11"), "5×5"),  # black 3 in the central 5×5
        (("h8", "h9", "h9"), "5×5"),
    ],
)
def test_opening_must_be_one_of_the_26(stones: tuple[str, str, str], why: str):
    g = designated()
    with pytest.raises(IllegalMove, match=why):
        g.open(*stones, fifth_n=2)
    assert g.actions == [] and len(g.board) == 0


@pytest.mark.parametrize("n", [0, -1, 51])
def test_declared_n_must_be_sensible(n: int):
    # Gomoku §2.10: N ≥ 1
    with pytest.raises(IllegalAction, match="N"):
        designated().open("h8", "h9", "j10", fifth_n=n)


def test_no_stone_before_the_opening():
    # Gomoku §3.2: a designated game starts with the opening
    with pytest.raises(IllegalAction):
        designated().play("h8")


# -- the three-move swap ---------------------------------------------------------------------


def test_swap_once_and_it_counts_as_a_move():
    # Gomoku §2.9, §2.1: after black 3 White may take Black once; the swap is White's move,
    # so the opener, now holding White, plays white 4
    g = opened()
    g.swap()
    assert g.swapped and g.swap_after == 3
    assert g.phase is Phase.WHITE4 and g.to_act is W
    with pytest.raises(IllegalAction):
        g.swap()  # once per game
    g.play("i9")
    assert g.moves[-1].number == 4 and g.moves[-1].color is W
    assert g.phase is Phase.PROPOSE_FIFTH and g.to_act is B


def test_no_swap_after_white_4():
    # Gomoku §2.9: the choice comes before white 4
    g = opened()
    g.play("i9")
    with pytest.raises(IllegalAction):
        g.swap()


def test_swap_disabled_by_rules():
    g = designated(swap=False)
    g.open("h8", "h9", "j10", fifth_n=1)
    assert g.phase is Phase.WHITE4
    with pytest.raises(IllegalAction):
        g.swap()


# -- the fifth-move N-dab --------------------------------------------------------------------


def test_n_dab_white_keeps_one_then_plays_6():
    # Gomoku §2.10: Black offers N points, White keeps one as black 5
    g = opened(2)
    g.play("i9")
    g.propose_fifth(["g10", "k7"])
    assert g.phase is Phase.CHOOSE_FIFTH and g.to_act is W
    assert len(g.board) == 4  # candidates are not stones yet
    with pytest.raises(IllegalAction, match="not one of"):
        g.choose_fifth("a1")
    g.choose_fifth("k7")
    assert str(g.moves[-1].point) == "k7" and g.moves[-1].number == 5
    assert g.to_act is W and g.phase is Phase.PLAY
    g.play("l6")
    assert g.moves[-1].number == 6


def test_n_dab_needs_exactly_n_points():
    g = opened(3)
    g.play("i9")
    with pytest.raises(IllegalAction, match="exactly 3"):
        g.propose_fifth(["g10", "k7"])


def test_n_dab_refuses_equivalent_points():
    # Gomoku §2.10 位置不同形: 寒星 h8 h9 h10 with white 4 on g9 is symmetric about row 9,
    # so i8 and i10 make the same shape (the axis does not pass through h8)
    g = designated()
    g.open("h8", "h9", "h10", fifth_n=2)
    g.play("g9")
    with pytest.raises(IllegalAction, match="same shape"):
        g.propose_fifth(["i8", "i10"])
    g.propose_fifth(["i8", "j8"])


def test_n_dab_board_symmetry_option():
    # DECISIONS.md: dab_symmetry="board" uses only the board's 8 symmetries about h8
    g = designated(dab_symmetry=DabSymmetry.BOARD)
    g.open("h8", "h9", "h10", fifth_n=2)
    g.play("g9")
    g.propose_fifth(["i8", "i10"])  # not equivalent by a symmetry about h8
    assert g.phase is Phase.CHOOSE_FIFTH


def test_n_dab_symmetry_about_the_centre():
    # Gomoku §2.10: 寒星 with white 4 on h6 is symmetric about the h column
    g = designated(dab_symmetry=DabSymmetry.BOARD)
    g.open("h8", "h9", "h10", fifth_n=2)
    g.play("h6")
    with pytest.raises(IllegalAction, match="same shape"):
        g.propose_fifth(["g9", "i9"])


def test_n_equal_1_is_a_plain_fifth_move():
    g = opened(1)
    g.play("i9")
    g.play("g10")
    assert g.moves[-1].number == 5 and g.phase is Phase.PLAY and g.to_act is W


def test_candidates_must_be_empty_and_distinct():
    g = opened(2)
    g.play("i9")
    with pytest.raises(IllegalMove, match="occupied"):
        g.propose_fifth(["h8", "k7"])
    with pytest.raises(IllegalAction, match="different"):
        g.propose_fifth(["k7", "k7"])


# -- passes and draws ------------------------------------------------------------------------


def test_no_pass_in_the_first_five_moves():
    # Gomoku §11.1(1)
    g = Game(RenjuRules.free())
    for p in ["h8", "h9", "j10", "i9"]:
        g.play(p)
    with pytest.raises(IllegalMove, match="first 5"):
        g.pass_()
    g.play("a1")
    g.pass_()  # move 6: allowed
    assert g.moves[-1].point is None and g.moves[-1].number == 6 and g.to_act is B


def test_both_passing_in_one_round_is_a_draw():
    # Gomoku §10.2(2)
    g = Game.from_moves("h8 h9 j10 i9 a1", RenjuRules.free())
    g.pass_()
    g.play("o15")
    g.pass_()
    assert not g.is_over
    g.pass_()
    o = g.outcome()
    assert o is not None and o.result is Result.DRAW and o.termination is Termination.PASSES
    with pytest.raises(GameOver):
        g.play("a2")


def _no_five_colour(x: int, y: int) -> int:
    return ((x // 2) + y) % 2


def test_full_board_is_a_draw():
    # Gomoku §10.2(3): no empty point and no five
    cells = [(x, y) for y in range(15) for x in range(15)]
    ones = [c for c in cells if _no_five_colour(*c)]
    zeros = [c for c in cells if not _no_five_colour(*c)]
    blacks, whites = (ones, zeros) if len(ones) == 113 else (zeros, ones)
    assert len(blacks) == 113 and len(whites) == 112
    g = Game(RenjuRules.free())
    for i in range(225):
        x, y = blacks[i // 2] if i % 2 == 0 else whites[i // 2]
        g.play(Point(x, y))
    o = g.outcome()
    assert o is not None and o.termination is Termination.FULL_BOARD and o.winner is None


def test_draw_offer_after_own_move_and_acceptance():
    # Gomoku §10.3(1), §10.2(1)
    g = Game.from_moves("h8 h9 j10 i9 g10", RenjuRules.free())
    with pytest.raises(IllegalAction, match="own move"):
        g.apply(OfferDraw(W))  # White has not just moved
    g.offer_draw()  # Black just moved
    assert g.draw_offer is B
    with pytest.raises(IllegalAction, match="answer"):
        g.apply(Move(Point.parse("a1"), B))  # the offer waits for White
    g.accept_draw()
    o = g.outcome()
    assert o is not None and o.termination is Termination.AGREEMENT and o.result is Result.DRAW


def test_draw_offer_declined_by_a_move_or_aloud():
    # Gomoku §10.3(2)
    g = Game.from_moves("h8 h9 j10 i9 g10", RenjuRules.free())
    g.offer_draw()
    g.play("a1")  # White declines by moving
    assert g.draw_offer is None and not g.is_over
    g.play("a2")
    g.offer_draw()
    g.decline_draw()
    assert g.draw_offer is None and not g.is_over


def test_draw_offers_may_not_run_more_than_two_ahead():
    # Gomoku §10.3(4)-(5): Black offers twice (declined by moves), a third time is refused
    g = Game.from_moves("h8 h9 j10 i9 g10", RenjuRules.free())
    g.offer_draw()
    g.play("a1")
    g.play("a2")
    g.offer_draw()
    g.play("a3")
    g.play("a4")
    with pytest.raises(IllegalAction, match="more often"):
        g.offer_draw()
    g.play("a5")
    g.offer_draw()  # White offers: Black's lead falls back to one
    g.play("a6")
    g.offer_draw()


def test_resignation_by_either_side_at_any_time():
    # Gomoku §10.1(3)C
    g = opened()
    g.resign(B)
    assert_won(g, W, Termination.RESIGNATION)


# -- fives and fouls -------------------------------------------------------------------------


def test_five_wins():
    # Gomoku §10.1(1)
    g = Game.from_moves("h8 a1 h9 a2 h10 a3 h11 a4 h12", RenjuRules.free_renju())
    assert_won(g, B, Termination.FIVE)


def test_white_overline_is_a_five():
    # Gomoku §10.1(1): 白棋长连视同五连
    g = Game.from_moves("h8 a1 i9 a2 o15 a3 o14 a5 o13 a6 n15 a4", RenjuRules.free_renju())
    assert_won(g, W, Termination.FIVE)


def test_black_overline_is_a_foul_with_renju_rules_and_a_win_without():
    # Gomoku §2.19 长连禁手; §3.3: a free opening may drop the forbidden moves
    moves = "a1 o1 a2 o2 a3 o3 a5 o5 a6 o6 a4"
    g = Game.from_moves(moves, RenjuRules.free_renju())
    assert_won(g, W, Termination.FOUL)
    g = Game.from_moves(moves, RenjuRules.free())
    assert_won(g, B, Termination.FIVE)


def test_five_together_with_a_foul_wins():
    # Gomoku §10.1(2): 黑方五连与禁手同时形成，禁手失效
    # h8 makes five on the row and an overline on the column
    moves = "d8 a1 e8 a3 f8 a5 g8 a7 h4 a9 h5 a11 h6 a13 h7 c1 h9 c3 h8"
    g = Game.from_moves(moves, RenjuRules.free_renju())
    assert_won(g, B, Termination.FIVE)


def test_auto_policy_ends_the_game_on_a_double_three():
    # DECISIONS.md: online, a forbidden move ends the game at once
    g = Game.from_moves("g8 a1 i8 a3 h9 a5 h10", RenjuRules.free_renju())
    assert g.forbidden_points() == {"h8": Foul.DOUBLE_THREE}
    g.play("a7")
    g.play("h8")
    assert_won(g, W, Termination.FOUL)


def _claim_rules() -> RenjuRules:
    return replace(RenjuRules.free_renju(), foul_policy=FoulPolicy.CLAIM)


def test_claim_policy_white_claims_before_its_next_stone():
    # Gomoku §10.1(2): White must point it out at once
    g = Game.from_moves("g8 a1 i8 a3 h9 a5 h10 a7 h8", _claim_rules())
    assert not g.is_over and g.pending_foul == (Point.parse("h8"), Foul.DOUBLE_THREE)
    g.claim_foul()
    assert_won(g, W, Termination.FOUL)


def test_claim_policy_double_three_lapses_after_whites_stone():
    # Gomoku §10.1(2): 未立即指出而又落下一白子，则黑方禁手不再成立
    g = Game.from_moves("g8 a1 i8 a3 h9 a5 h10 a7 h8 o15", _claim_rules())
    assert g.pending_foul is None
    with pytest.raises(IllegalAction, match="no forbidden move"):
        g.claim_foul()


def test_claim_policy_overline_can_be_claimed_later():
    # Gomoku §10.1(2): an overline may be claimed at any time before the game ends
    g = Game.from_moves("a1 o1 a2 o2 a3 o3 a5 o5 a6 o6 a4 o15 n1", _claim_rules())
    assert not g.is_over
    g.claim_foul()
    assert_won(g, W, Termination.FOUL)


def test_claim_only_under_the_claim_policy():
    g = Game.from_moves("h8 h9 j10 i9 g10", RenjuRules.free_renju())
    with pytest.raises(IllegalAction):
        g.claim_foul()


# -- the action log --------------------------------------------------------------------------


def test_refused_action_leaves_the_game_unchanged():
    g = opened()
    before = json.dumps(g.to_json())
    with pytest.raises(DuiyiError):
        g.play("h8")
    assert json.dumps(g.to_json()) == before


def test_undo_drops_the_last_action():
    g = opened()
    g.swap()
    g.undo()
    assert not g.swapped and g.phase is Phase.SWAP


def test_game_json_round_trip():
    g = opened(2)
    g.swap()
    g.play("i9")
    g.propose_fifth(["g10", "k7"])
    g.choose_fifth("g10")
    data = json.loads(json.dumps(g.to_json()))
    h = Game.from_json(data)
    assert h.board == g.board and h.swapped and h.actions == g.actions


def test_bad_action_json_is_refused():
    with pytest.raises(InvalidInput):
        action_from_json({"v": 2, "type": "place", "color": "black", "point": "h8"}, GOMOKU_ACTIONS)
    with pytest.raises(InvalidInput):
        action_from_json({"v": 1, "type": "teleport", "color": "black"}, GOMOKU_ACTIONS)


def _random_game(data: st.DataObject, rules: RenjuRules) -> Game:
    g = Game(rules)
    for _ in range(data.draw(st.integers(0, 40))):
        if g.is_over:
            break
        choice = data.draw(st.integers(0, 9))
        try:
            if g.phase is Phase.OPENING:
                w2 = data.draw(st.sampled_from(["h9", "i9", "g7", "h7"]))
                b3 = data.draw(st.sampled_from(["j10", "f6", "g10", "i6", "j8"]))
                g.open("h8", w2, b3, fifth_n=data.draw(st.integers(1, 3)))
            elif g.phase is Phase.SWAP and choice == 0:
                g.swap()
            elif g.phase is Phase.PROPOSE_FIFTH:
                pts = data.draw(
                    st.lists(st.sampled_from(["e5", "k11", "c3", "m13", "l4", "d12"]), unique=True)
                )
                g.propose_fifth(pts[: g.fifth_n])
            elif g.phase is Phase.CHOOSE_FIFTH:
                g.choose_fifth(data.draw(st.sampled_from(g.fifth_candidates)))
            elif choice == 1:
                g.pass_()
            elif choice == 2:
                g.offer_draw()
            elif choice == 3 and g.draw_offer is not None:
                g.decline_draw()
            elif choice == 4 and data.draw(st.integers(0, 30)) == 0:
                g.resign(data.draw(st.sampled_from([B, W])))
            else:
                x, y = data.draw(st.integers(3, 11)), data.draw(st.integers(3, 11))
                g.play(Point(x, y))
        except DuiyiError:
            pass
    return g


@settings(max_examples=80, deadline=None)
@given(
    st.data(),
    st.sampled_from(
        [
            RenjuRules.chinese_2013(),
            RenjuRules.free(),
            RenjuRules.free_renju(),
            RenjuRules.chinese_2013().with_options(foul_policy="claim", dab_symmetry="board"),
        ]
    ),
)
def test_from_actions_round_trips(data: st.DataObject, rules: RenjuRules):
    # Every state is a pure function of the rules and the action log (through JSON)
    g = _random_game(data, rules)
    text = json.dumps(
        {
            "rules": rules.to_json(),
            "actions": [action_to_json(a, GOMOKU_ACTIONS) for a in g.actions],
        }
    )
    back = json.loads(text)
    h = Game.from_actions(
        RenjuRules.from_json(back["rules"]),
        [action_from_json(a, GOMOKU_ACTIONS) for a in back["actions"]],
    )
    assert h.board == g.board
    assert h.moves == g.moves and h.phase is g.phase and h.to_act is g.to_act
    assert h.outcome() == g.outcome() and h.swapped == g.swapped
    assert h.actions == g.actions


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([RenjuRules.chinese_2013(), RenjuRules.free_renju()]))
def test_allowed_actions_match_what_apply_accepts(data: st.DataObject, rules: RenjuRules):
    # Kinds not listed by allowed_actions are always refused by apply
    g = _random_game(data, rules)
    probes = {
        "place": lambda c: Move(Point.parse("a15"), c),
        "pass": lambda c: Pass(c),
        "offer_draw": lambda c: OfferDraw(c),
    }
    for colour in (B, W):
        allowed = {GOMOKU_ACTIONS.name_of(a) for a in g.allowed_actions(colour)}
        for kind, make in probes.items():
            if kind in allowed or g.board["a15"] is not None:
                continue
            with pytest.raises(DuiyiError):
                g.copy().apply(make(colour))
