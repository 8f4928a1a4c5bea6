"""KataGo's rules tests (lightvector/KataGo, cpp/tests/testrules.cpp) as duiyi tests.

Each case gives KataGo's board, KataGo's moves and KataGo's expected answers: which empty points
are refused as repetitions (KataGo's "Illegal:" lines, which leave out suicides), whether the
game is over, and how it ended. KataGo's boards are rectangles; duiyi's are squares, so each board
is set on a square one with empty rows added on a side where nothing happens (the coordinates
below are KataGo's: x from the left, y from the top).

Rules: simple ko is the Japanese/Korean presets' rule (Go §20.1 plus the cycle rule of
docs/decisions.md, Go §20.3); positional and situational superko are Go §6 as the options read it.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from duiyi import BLACK, WHITE, Color
from duiyi.go import Game, Phase, Point, Rules
from duiyi.go.rules import KoRule
from duiyi.outcome import Result, Termination


class Case:
    """A KataGo board on a square duiyi board."""

    def __init__(self, rows: str, rules: Rules, pad_top: int = 0) -> None:
        lines = rows.strip().split()
        h, w = len(lines), len(lines[0])
        self.n = n = max(w, h, 5)
        self.pad_top = pad_top
        assert n - h >= pad_top
        black: list[Point] = []
        white: list[Point] = []
        for y, line in enumerate(lines):
            for x, ch in enumerate(line):
                if ch == "x":
                    black.append(self.p(x, y))
                elif ch == "o":
                    white.append(self.p(x, y))
        self.game = Game.from_position(n, rules, black=black, white=white, to_move=BLACK)

    def p(self, x: int, y: int) -> Point:
        return Point(x, self.n - 1 - (y + self.pad_top))

    def play(self, color: Color, x: int | None = None, y: int | None = None) -> None:
        assert self.game.to_move is color
        self.game.play(None if x is None or y is None else self.p(x, y), color)

    def refused(self) -> set[tuple[int, int]]:
        """KataGo's "Illegal:" points for the side to move: empty, not suicide, refused."""
        out = set()
        for point in self.game.board.empty_points():
            reason = self.game.illegal_reason(point)
            if reason is not None and reason[1] in ("Go §6", "Go §20.1"):
                out.add((point.col, self.n - 1 - point.row - self.pad_top))
        return out


SIMPLE = Rules.japanese()  # simple ko, no result on a repetition cycle (Go §20.3)
POSITIONAL = replace(Rules.chinese(), ko_rule=KoRule.POSITIONAL)
SITUATIONAL = Rules.chinese()

# -- "Eternal life" (长生): simple ko, the game ends with no result on the 8th move ----------------


def test_eternal_life() -> None:
    case = Case(
        """
        ........
        oooooo..
        xxxxxo..
        xoooxxoo
        .o.x.ox.
        """,
        SIMPLE,
        pad_top=3,
    )
    cycle = [(BLACK, 2, 4), (WHITE, 4, 4), (BLACK, 3, 4), (WHITE, 5, 4)]
    for color, x, y in cycle + cycle[:3]:
        case.play(color, x, y)
        assert case.game.phase is Phase.PLAYING  # KataGo: isGameFinished == false
    color, x, y = cycle[3]
    case.play(color, x, y)
    outcome = case.game.outcome()
    assert outcome is not None  # KataGo: Winner Empty, isNoResult 1
    assert outcome.result is Result.NO_RESULT and outcome.termination is Termination.REPETITION


# -- "Triple ko simple": the game ends with no result on the 12th move ---------------------------

TRIPLE = """
ooooooo
oxo.o.o
x.xoxox
xxxxxxx
ooooooo
.......
"""
TRIPLE_MOVES = [(BLACK, 3, 1), (WHITE, 1, 2), (BLACK, 5, 1), (WHITE, 3, 2), (BLACK, 1, 1),
                (WHITE, 5, 2)]  # fmt: skip


def test_triple_ko_simple() -> None:
    case = Case(TRIPLE, SIMPLE)
    for color, x, y in TRIPLE_MOVES + TRIPLE_MOVES[:5]:
        case.play(color, x, y)
        assert case.game.phase is Phase.PLAYING
    color, x, y = TRIPLE_MOVES[5]
    case.play(color, x, y)
    outcome = case.game.outcome()
    assert outcome is not None and outcome.result is Result.NO_RESULT


@pytest.mark.parametrize("rules", [POSITIONAL, SITUATIONAL], ids=["positional", "situational"])
def test_triple_ko_superko(rules: Rules) -> None:
    # KataGo "Triple ko superko" (positional): after five moves White may not take either ko.
    case = Case(TRIPLE, rules)
    for color, x, y in TRIPLE_MOVES[:5]:
        case.play(color, x, y)
    assert case.refused() == {(1, 2), (5, 2)}


# -- "Ko rule testing with a regular ko and a sending two returning one" ------------------------

SENDING = """
.o.xxo
oxxxo.
o.x.oo
xxxoo.
oooo.o
"""


def test_sending_two_returning_one_simple_ko() -> None:
    case = Case(SENDING, replace(SIMPLE, komi=Fraction(1, 2)))  # KataGo's komi 0.5
    case.play(BLACK, 5, 1)
    assert case.refused() == {(5, 0)}  # "After black ko capture: Illegal: (5,0) O"
    case.play(WHITE)
    assert case.refused() == set()
    case.play(BLACK)  # two passes, but White's lifted the ko ban: play goes on
    assert case.game.phase is Phase.PLAYING
    assert case.refused() == set()
    case.play(WHITE, 5, 0)
    assert case.refused() == {(5, 1)}  # "White recapture: Illegal: (5,1) X"
    case.play(BLACK, 3, 2)
    for _ in range(2):  # "Beginning sending two returning one cycle": nothing refused
        for color, x, y in [(WHITE, 2, 0), (BLACK, 0, 0), (WHITE, 1, 0)]:
            case.play(color, x, y)
            assert case.refused() == set()
        assert case.game.phase is Phase.PLAYING
        case.play(BLACK)
    # Black's second pass in the same situation ends play (KataGo: encorePhase 1).
    assert case.game.phase is Phase.COUNTING
    case.game.accept(BLACK)
    case.game.accept(WHITE)
    # KataGo: "Winner: White, W-B Score: 0.5". duiyi counts the Japanese way (territory +
    # prisoners): White 6 + 3 prisoners, Black 0 + 5 prisoners, komi 0.5: W+1.5 on KataGo's
    # board, plus the 6 points of the empty row added below it. KataGo's territory scoring
    # counts stones played instead of prisoners (its "chilling"), one point apart here.
    score = case.game.score()
    assert score.winner is WHITE
    assert score.sgf_result == "W+7.5"


def _cycle_with_superko(rules: Rules) -> list[set[tuple[int, int]]]:
    case = Case(SENDING, rules)
    seen = []
    case.play(BLACK, 5, 1)
    seen.append(case.refused())
    case.play(WHITE)
    seen.append(case.refused())
    trial = Game.from_actions(case.game.rules, case.game.actions)
    trial.pass_move()
    assert trial.phase is Phase.COUNTING  # "the main phase ends if black passes now"
    case.play(BLACK, 3, 2)
    for color, x, y in [(WHITE, 2, 0), (BLACK, 0, 0), (WHITE, 5, 0), (BLACK, None, None),
                        (WHITE, 1, 0), (BLACK, None, None), (WHITE, 2, 0)]:  # fmt: skip
        case.play(color, x, y)
        seen.append(case.refused())
    assert case.game.phase is Phase.PLAYING
    return seen


def test_sending_two_returning_one_positional_superko() -> None:
    assert _cycle_with_superko(POSITIONAL) == [
        {(5, 0)},  # after black ko capture
        set(),  # ... and one pass
        set(),  # after white sends two
        {(1, 0)},  # can white recapture? no
        {(5, 1)},  # after white recaptures the other ko instead
        set(),  # ... and black passes
        {(5, 1)},  # after white now returns 1
        set(),  # ... and black passes
        {(0, 0), (5, 1)},  # after white sends 2 again
    ]


def test_sending_two_returning_one_situational_superko() -> None:
    assert _cycle_with_superko(SITUATIONAL) == [
        {(5, 0)},
        set(),
        set(),
        set(),  # situational: White may take back two (the position repeats, the side differs)
        {(5, 1)},
        set(),
        {(5, 1)},
        set(),
        {(0, 0)},
    ]


# -- "Suicide ko testing": multi-stone suicide allowed, positional and situational --------------

SUICIDE = """
.oxo.x
oxxooo
xx....
......
......
"""


@pytest.mark.parametrize(
    ("ko_rule", "expected"),
    [
        (KoRule.POSITIONAL, [{(5, 0)}, {(0, 1)}, {(0, 1)}]),
        (KoRule.SITUATIONAL, [set(), {(0, 1)}, {(0, 1)}]),
    ],
)
def test_suicide_ko(ko_rule: KoRule, expected: list[set[tuple[int, int]]]) -> None:
    rules = replace(
        Rules.chinese(), allow_suicide=True, single_stone_suicide=False, ko_rule=ko_rule
    )
    case = Case(SUICIDE, rules)
    seen = []
    case.play(BLACK, 4, 0)  # multi-stone suicide
    case.play(WHITE)
    seen.append(case.refused())  # "After black suicide and white pass"
    for color, x, y in [(BLACK, 4, 0), (WHITE, 0, 0), (BLACK, 5, 0), (WHITE, 1, 0),
                        (BLACK, None, None)]:  # fmt: skip
        case.play(color, x, y)
    seen.append(case.refused())  # "After a little looping"
    case.play(WHITE, 0, 0)
    case.play(BLACK, 4, 0)
    seen.append(case.refused())  # "Filling in a bit more"
    assert seen == expected
