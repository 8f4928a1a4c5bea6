"""Rule sets, handicap placement and nigiri (Go §5, §6, §10, §11; scoring-variants)."""

from __future__ import annotations

import doctest
import importlib
import json
import random
import subprocess
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import InvalidInput, InvalidRules
from duiyi.go import KoRule, Parity, RepetitionOutcome, Rules, Scoring, nigiri
from duiyi.go.handicap import choose_holder, fixed_handicap_points, max_fixed_handicap


def test_chinese_preset() -> None:
    # Go §5 (no suicide), §6 (situational superko), §9 (area in stones), §11 (3¾ stones)
    r = Rules.chinese()
    assert r.scoring is Scoring.AREA_STONES
    assert r.komi == Fraction(15, 4) and r.komi_points == Fraction(15, 2)
    assert r.ko_rule is KoRule.SITUATIONAL and not r.allow_suicide
    assert r.compensation(0) == (Fraction(15, 4), 0)
    assert r.compensation(1) == (0, 0)  # 让先: no komi
    assert r.compensation(5) == (0, Fraction(5, 2))  # return H/2 stones


@pytest.mark.parametrize("name", ["japanese", "korean"])
def test_japanese_korean_presets(name: str) -> None:
    r = Rules.preset(name)
    assert r.name == name and r.scoring is Scoring.TERRITORY
    assert r.komi == Fraction(13, 2) and r.ko_rule is KoRule.SIMPLE
    assert r.repetition_outcome is RepetitionOutcome.NO_RESULT and not r.seki_points
    assert r.compensation(3) == (0, 0)


def test_ing_preset() -> None:
    r = Rules.ing()
    assert r.scoring is Scoring.AREA_POINTS and r.komi == 8 and r.komi_points == 8


@pytest.mark.parametrize("rules", [Rules.chinese(), Rules.japanese(), Rules.korean(), Rules.ing()])
def test_json_round_trip(rules: Rules) -> None:
    data = json.loads(json.dumps(rules.to_json()))
    assert data["v"] == 1
    assert Rules.from_json(data) == rules


def test_custom_rules_round_trip() -> None:
    r = replace(
        Rules.japanese(),
        name="custom",
        komi=Fraction(15, 2),
        repetition_outcome=RepetitionOutcome.REPLAY,
        allow_suicide=True,
        fixed_handicap=False,
    )
    assert Rules.from_json(r.to_json()) == r


@pytest.mark.parametrize(
    "data",
    [
        {"komi": "abc"},
        {"komi": "1/3"},  # not a multiple of ¼ stone
        {"ko_rule": "sometimes"},
        {"allow_suicide": "yes"},
        {"colour": "red"},
        {"v": 2},
    ],
)
def test_bad_rules_json(data: dict[str, object]) -> None:
    with pytest.raises(InvalidRules):
        Rules.from_json(data)


def test_komi_given_as_numbers_is_normalised() -> None:
    assert Rules(komi=3.75).komi == Fraction(15, 4)  # type: ignore[arg-type]
    with pytest.raises(InvalidRules):
        Rules.preset("martian")


# ---------------------------------------------------------------- handicap


def test_fixed_handicap_19() -> None:
    expected = {
        2: "D4 Q16",
        3: "D4 Q16 D16",
        4: "D4 Q16 D16 Q4",
        5: "D4 Q16 D16 Q4 K10",
        6: "D4 Q16 D16 Q4 D10 Q10",
        7: "D4 Q16 D16 Q4 D10 Q10 K10",
        8: "D4 Q16 D16 Q4 D10 Q10 K4 K16",
        9: "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10",
    }
    for h, pts in expected.items():
        assert " ".join(map(str, fixed_handicap_points(19, h))) == pts


def test_fixed_handicap_13_and_9() -> None:
    assert {str(p) for p in fixed_handicap_points(13, 9)} == {
        "D4", "G4", "K4", "D7", "G7", "K7", "D10", "G10", "K10"
    }  # fmt: skip
    assert {str(p) for p in fixed_handicap_points(9, 4)} == {"C3", "G3", "C7", "G7"}
    assert max_fixed_handicap(8) == 4 and max_fixed_handicap(5) == 0
    with pytest.raises(InvalidInput):
        fixed_handicap_points(8, 5)
    with pytest.raises(InvalidInput):
        fixed_handicap_points(19, 1)


# ---------------------------------------------------------------- nigiri (Go §10)


@pytest.mark.parametrize(
    ("held", "guess", "guesser"),
    [
        (7, Parity.ODD, BLACK),  # one black stone shown: "odd, I take Black"
        (8, Parity.ODD, WHITE),
        (8, Parity.EVEN, BLACK),  # two black stones shown: "even, I take Black"
        (3, Parity.EVEN, WHITE),
    ],
)
def test_nigiri_rule(held: int, guess: Parity, guesser: object) -> None:
    # Go §10: 出示一颗黑子表示“奇数则己方执黑，反之执白”；两颗表示“偶数则己方执黑”
    from duiyi.go.handicap import NigiriResult

    r = NigiriResult(held, guess)
    assert r.guesser_color is guesser and r.holder_color is not guesser
    assert guess.stones_shown == (1 if guess is Parity.ODD else 2)


def test_nigiri_uses_injected_random_and_is_fair() -> None:
    rng = random.Random(2026)
    results = [nigiri(rng) for _ in range(2000)]
    blacks = sum(r.guesser_color is BLACK for r in results)
    assert 850 < blacks < 1150
    assert all(1 <= r.held <= 30 for r in results)
    a = [nigiri(random.Random(7)) for _ in range(3)]
    assert a == [nigiri(random.Random(7)) for _ in range(3)]


def test_nigiri_holder() -> None:
    # Go §10: the higher rank holds the white stones; at equal rank the elder
    assert choose_holder(7, 5, a_is_older=False) == "a"
    assert choose_holder(3, 5, a_is_older=True) == "b"
    assert choose_holder(4, 4, a_is_older=True) == "a"


@pytest.mark.parametrize(
    "module",
    [
        "duiyi.go",
        "duiyi.go.point",
        "duiyi.go.board",
        "duiyi.go.rules",
        "duiyi.go.game",
        "duiyi.go.scoring",
        "duiyi.go.handicap",
        "duiyi.go.actions",
    ],
)
def test_docstring_examples(module: str) -> None:
    # every public docstring example of the Go core runs as written
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


GNUGO = "/usr/games/gnugo"


@pytest.mark.gnugo
@pytest.mark.skipif(not Path(GNUGO).exists(), reason="gnugo is not installed")
def test_fixed_handicap_points_agree_with_gnugo() -> None:
    # the GTP convention for fixed handicap stones, checked against GNU Go for sizes 7–19
    cases = [(n, h) for n in range(7, 20) for h in range(2, max_fixed_handicap(n) + 1)]
    script = "".join(f"boardsize {n}\nclear_board\nfixed_handicap {h}\n" for n, h in cases)
    out = subprocess.run(
        [GNUGO, "--mode", "gtp"], input=script + "quit\n", capture_output=True, text=True,
        timeout=60, check=True,
    ).stdout  # fmt: skip
    answers = [line[2:].split() for line in out.splitlines() if line.startswith("= ")]
    # every boardsize and clear_board answers "= " with nothing; keep the handicap answers
    handicap_answers = [a for a in answers if a]
    assert len(handicap_answers) == len(cases)
    for (n, h), theirs in zip(cases, handicap_answers, strict=True):
        assert {str(p) for p in fixed_handicap_points(n, h)} == set(theirs), (n, h)
