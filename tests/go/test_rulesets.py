"""Rule-set options beyond the Chinese default: handicap conventions, AGA, Ing.

Sources: the comparison of scoring rule sets (cited "scoring-variants") and the Go base readings
of docs/decisions.md (cited "DECISIONS"); AGA and Ing SST details where the text is
silent are named in docs/decisions.md ("Go: rule sets").
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.errors import IllegalMove, InvalidRules
from duiyi.go import Board, Game, Rules, sgf
from duiyi.go.rules import HandicapConvention, Scoring
from duiyi.go.scoring import score_position

PRESETS = ["chinese", "japanese", "korean", "ing", "aga"]


# ------------------------------------------------------------------ handicap conventions


@pytest.mark.parametrize("handicap", range(2, 10))
def test_chinese_default_returns_half_a_stone_per_handicap_stone(handicap: int) -> None:
    # scoring-variants: 讓子要貼還讓子數的一半 (H/2 stones = H points); DECISIONS handicap row
    r = Rules.chinese()
    assert r.handicap_return_offset == 0
    assert r.compensation(handicap) == (Fraction(0), Fraction(handicap, 2))
    assert r.handicap_convention is HandicapConvention.CHINESE


@pytest.mark.parametrize("handicap", range(2, 10))
def test_aga_returns_one_point_per_stone_after_the_first(handicap: int) -> None:
    # AGA: H − 1 points back (not expressible as a rate × H: needs the offset)
    komi, ret = Rules.aga().compensation(handicap)
    assert ret == handicap - 1
    assert komi == Fraction(1, 2)
    assert Rules.aga().handicap_convention is HandicapConvention.AGA


def test_handicap_one_returns_nothing_under_every_convention() -> None:
    # scoring-variants: 讓先不貼目 — a one-stone handicap (让先) has no return
    for conv in HandicapConvention:
        assert conv.return_points(1) == 0
        r = Rules.chinese().with_handicap_convention(conv)
        assert r.compensation(1)[1] == 0


@pytest.mark.parametrize("preset", ["japanese", "korean"])
def test_japanese_and_korean_return_nothing(preset: str) -> None:
    # scoring-variants 日韓規則: territory counting, no handicap return; DECISIONS other rule sets
    r = Rules.preset(preset)
    assert all(r.compensation(h)[1] == 0 for h in range(2, 10))
    assert r.handicap_convention is HandicapConvention.NONE


def test_ing_preset_has_no_handicap_return_because_the_text_gives_no_rate() -> None:
    # scoring-variants 應氏規則: 局差還點 names a return but gives no rate per stone: none is invented
    r = Rules.ing()
    assert all(r.compensation(h)[1] == 0 for h in range(2, 10))
    assert r.handicap_convention is HandicapConvention.ING


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("conv", list(HandicapConvention))
def test_conventions_give_the_same_points_in_every_scoring_unit(
    preset: str, conv: HandicapConvention
) -> None:
    # Go §11 / DECISIONS komi row: one stone is two points, so the convention is unit-free
    r = Rules.preset(preset).with_handicap_convention(conv)
    for h in range(0, 10):
        assert r.compensation(h)[1] * r.unit_points == conv.return_points(h)
    assert Rules.from_json(r.to_json()) == r


@given(
    preset=st.sampled_from(PRESETS),
    per_stone=st.integers(0, 4),
    once=st.integers(-8, 8),
    handicap=st.integers(0, 9),
)
def test_any_per_stone_and_offset_pair_counts_and_round_trips(
    preset: str, per_stone: int, once: int, handicap: int
) -> None:
    # DECISIONS: options are data; the return is per_stone × H + once for H ≥ 2, else nothing
    base = Rules.preset(preset)
    step = Fraction(1, 4) if base.scoring is Scoring.AREA_STONES else Fraction(1, 2)
    kwargs = {"handicap_return": per_stone * step, "handicap_return_offset": once * step}
    if 2 * per_stone + once < 0:
        with pytest.raises(InvalidRules):
            replace(base, **kwargs)
        return
    r = replace(base, **kwargs)
    expected = (per_stone * handicap + once) * step if handicap >= 2 else 0
    assert r.compensation(handicap)[1] == expected
    assert Rules.from_json(r.to_json()) == r


def test_aga_convention_in_stones_is_half_a_stone_per_stone_minus_half() -> None:
    # Chinese counting in stones (Go §9) with the AGA convention: (H − 1)/2 stones
    r = Rules.chinese().with_handicap_convention(HandicapConvention.AGA)
    assert (r.handicap_return, r.handicap_return_offset) == (Fraction(1, 2), Fraction(-1, 2))
    assert r.compensation(5) == (Fraction(0), Fraction(2))


def test_aga_handicap_changes_the_count_by_one_point_against_chinese() -> None:
    # scoring-variants 中國規則 (H points back) against AGA (H − 1): one point apart
    b = Board.from_diagram(
        """
        . X O . .
        . X O . .
        . X O . .
        . X O . .
        . X O . ."""
    )
    area = replace(Rules.aga(), handicap_komi=Fraction(0))
    chinese_in_points = area.with_handicap_convention(HandicapConvention.CHINESE)
    for h in range(2, 6):
        aga = score_position(b, area, handicap=h)
        cn = score_position(b, chinese_in_points, handicap=h)
        assert aga.margin_points - cn.margin_points == 1
        assert aga.margin_points == 10 - 15 - (h - 1)


def test_new_fields_round_trip_and_old_json_keeps_the_default() -> None:
    # DECISIONS: every rule set is data; old stored games keep the Chinese default
    for name in PRESETS:
        r = Rules.preset(name)
        assert Rules.from_json(r.to_json()) == r
    old = {k: v for k, v in Rules.chinese().to_json().items() if k in ("v", "name", "komi")}
    assert Rules.from_json(old) == Rules.chinese()
    # the new keys are written only when not default, so v1 logs re-serialise unchanged
    assert "handicap_return_offset" not in Rules.chinese().to_json()
    assert Rules.aga().to_json()["handicap_return_offset"] == "-1"


def test_a_return_that_would_go_to_black_is_refused() -> None:
    # scoring-variants 讓子: White gets the return; it cannot be negative
    with pytest.raises(InvalidRules):
        replace(Rules.chinese(), handicap_return_offset=Fraction(-3, 2))
    with pytest.raises(InvalidRules):
        replace(Rules.chinese(), handicap_return=Fraction(-1, 2))
    with pytest.raises(InvalidRules):  # Go §11: stones in quarters
        replace(Rules.chinese(), handicap_return_offset=Fraction(1, 3))
    with pytest.raises(InvalidRules):
        Rules.from_json({"v": 1, "single_stone_suicide": "no"})


def test_sgf_ru_aga_maps_to_the_aga_convention() -> None:
    # scoring-variants handicap compensation; SGF RU[AGA] means AGA's H − 1 points
    r = sgf.rules_from_sgf("AGA", Fraction(1, 2), 3)
    assert r.name == "aga" and r.handicap_convention is HandicapConvention.AGA
    assert r.compensation(3) == (Fraction(1, 2), Fraction(2))
    sg = sgf.read_game("(;SZ[9]HA[2]AB[cg][gc]KM[0.5]RU[AGA];W[ee])")
    assert sg.game.rules.compensation(2) == (Fraction(1, 2), Fraction(1))
    assert sgf.rules_from_sgf("Chinese", Fraction(1, 2), 3).compensation(3)[1] == Fraction(3, 2)


def test_sgf_aga_game_written_and_read_keeps_its_rules() -> None:
    # the writer emits RU[AGA]; reading it back gives the same convention
    g = Game(9, Rules.aga(), handicap=3)
    text = sgf.game_to_sgf(g)
    assert "RU[AGA]" in text
    back = sgf.read_game(text).game
    assert back.rules.handicap_convention is HandicapConvention.AGA
    assert back.score().handicap_return == 2


# ------------------------------------------------------------------ Ing


def test_ing_preset() -> None:
    # scoring-variants 應氏規則 子空皆地、填滿計點 (area in points); DECISIONS: komi 8, draws possible
    r = Rules.ing()
    assert r.scoring is Scoring.AREA_POINTS and r.komi == 8
    assert r.allow_suicide and not r.single_stone_suicide
    assert not r.fixed_handicap


def _suicide_game(rules: Rules) -> Game:
    # Black A2 inside White A3, B2, B1: A1 would be a two-stone suicide. White G6, F7 make G7 a
    # one-stone suicide for Black.
    return Game.from_position(
        7, rules, black=["A2", "D4", "D3"], white=["A3", "B2", "B1", "G6", "F7"]
    )


def test_ing_allows_multi_stone_suicide() -> None:
    # Ing SST: a suicide of two or more stones is a legal move (Chinese Go §5 forbids it)
    g = _suicide_game(Rules.ing())
    g.play("A1")
    assert g.board.get("A1") is None and g.board.get("A2") is None
    assert g.captures[WHITE] == 2
    assert g.to_move is WHITE


def test_ing_forbids_single_stone_suicide() -> None:
    # Ing SST: a lone stone may not take its own last liberty
    g = _suicide_game(Rules.ing())
    with pytest.raises(IllegalMove) as exc:
        g.play("G7")
    assert exc.value.article == "Go §5"
    assert g.to_move is BLACK and not g.moves


def test_chinese_still_forbids_both_suicides() -> None:
    # Go §5: single and multi-stone suicide are forbidden (DECISIONS suicide row)
    g = _suicide_game(Rules.chinese())
    for point in ("A1", "G7"):
        with pytest.raises(IllegalMove):
            g.play(point)


def test_single_stone_suicide_option_alone() -> None:
    # DECISIONS suicide row: allow_suicide is for other rule sets; lone-stone suicide too by default
    g = _suicide_game(replace(Rules.chinese(), allow_suicide=True))
    g.play("G7")
    assert g.board.get("G7") is None and g.captures[WHITE] == 1


def test_ing_count_can_be_a_draw() -> None:
    # scoring-variants: 無差值之棋局，雙方域點相等，稱為「和棋」; the only shared point (分空) gives ½ each
    b = Board.from_diagram(
        """
        X X X X O
        X X X X O
        X X X O .
        X X X O O
        X X . O ."""
    )
    s = score_position(b, Rules.ing())
    assert (s.black_area, s.white_area) == (Fraction(33, 2), Fraction(17, 2))
    assert s.winner is None and s.result_zh == "和棋" and s.sgf_result == "0"
    # the same board under the Chinese 3¾ stones (7.5 points) is a quarter-stone Black win
    cn = score_position(b, Rules.chinese())
    assert cn.winner is BLACK and cn.margin_stones == Fraction(1, 4)


def test_ing_margins_are_in_points() -> None:
    # scoring-variants: 勝空差值為1點 … 每子2點 — the result is counted in points (点)
    b = Board.from_diagram(
        """
        X X X X O
        X X X X O
        X X X X O
        X X X O .
        X X X O ."""
    )
    s = score_position(b, Rules.ing())
    assert (s.black_area, s.white_area) == (18, 7)  # 18 stones; 5 stones + 2 empty points
    assert s.margin_points == 18 - 7 - 8
    assert s.result_zh == "黑胜3点" and s.sgf_result == "B+3"


def test_ing_handicap_stones_are_placed_freely() -> None:
    # Ing SST: free placement of handicap stones (DECISIONS handicap row: free placement option)
    g = Game(9, Rules.ing(), handicap=2)
    g.place_handicap(["C3", "G7"])
    assert g.board.get("C3") is BLACK and g.to_move is WHITE


def test_sgf_ing_game_with_a_multi_stone_suicide_replays_only_under_ing() -> None:
    # Ing SST: multi-stone suicide is a move (RU[GOE]); Go §5 refuses the same file as Chinese
    moves = "B[af];W[ae];B[dd];W[bf];B[de];W[bg];B[df];W[gb];B[dg];W[fa];B[ag]"
    sg = sgf.read_game(f"(;SZ[7]KM[8]RU[GOE];{moves})")
    assert sg.game.rules.name == "ing" and sg.game.captures[WHITE] == 2
    assert sg.game.board.get("A1") is None and sg.game.board.get("A2") is None
    with pytest.raises(IllegalMove):
        sgf.read_game(f"(;SZ[7]KM[7.5]RU[Chinese];{moves})")
