"""Hostile and odd SGF input: real files' quirks read, absurd values refused with duiyi.errors,
bounded time and memory, and Hypothesis fuzzing of the reader and of ``score``.

Refusals are :class:`~duiyi.errors.SgfError` (a ``DuiyiError``) naming line and column; the CLI
prints them on one line and exits with code 2 (developers' guide: every refusal is a duiyi.errors
exception).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tracemalloc
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duiyi import BLACK, WHITE
from duiyi.errors import DuiyiError, SgfError
from duiyi.go import sgf
from duiyi.go.rules import MAX_KOMI_POINTS, Rules
from duiyi.go.scoring import score_position
from duiyi.sgf import format_decimal
from duiyi.sgf import parse as parse_tree


def test_setup_stones_in_the_second_node_before_any_move() -> None:
    # Handicap stones (Go §10, scoring-variants 讓子) written as Fox/YuanYu records do: HA[2] in
    # the root, the stones in the next node. They are the game's handicap, nothing is dropped,
    # no pass is inserted and White moves first.
    sg = sgf.read_game("(;GM[1]SZ[19]HA[2]KM[0.5]RU[Chinese];AB[pd][dp];W[dd];B[pp];W[dj])")
    g = sg.game
    assert g.handicap == 2
    assert sorted(map(str, g.board.stones(BLACK))) == ["D4", "Q16", "Q4"]
    assert [(c.letter, str(p)) for c, p in g.moves] == [("W", "D16"), ("B", "Q4"), ("W", "D10")]
    assert sg.warnings == []
    # Several set-up nodes, later ones changing earlier ones (AE removes), still before play.
    sg = sgf.read_game("(;SZ[9];AB[aa][bb];AW[cc]AE[aa];B[ee])")
    assert sorted(map(str, sg.game.board.stones(BLACK))) == ["B8", "E5"]
    assert sorted(map(str, sg.game.board.stones(WHITE))) == ["C7"]
    # After the first move, set-up stones are still ignored with a warning.
    sg = sgf.read_game("(;SZ[9];B[ee];AB[aa];W[cc])")
    assert sg.game.board.get("A9") is None
    assert any("set-up stones after the first move" in w for w in sg.warnings)


def test_fractional_handicap_of_a_real_file_is_read() -> None:
    # A real file writes HA[7.5] with seven AB stones: seven handicap stones, with a warning.
    stones = "[pd][dp][pp][dd][jj][dj][pj]"
    sg = sgf.read_game(f"(;SZ[19]HA[7.5]KM[0.5]AB{stones};W[qc])")
    assert sg.game.handicap == 7
    assert any("HA[7.5]" in w.message and w.line == 1 for w in sg.warnings)


@pytest.mark.parametrize("prop", ["SZ", "KM", "HA"])
def test_numbers_with_thousands_of_digits_are_refused(prop: str) -> None:
    with pytest.raises(SgfError) as info:
        sgf.read_game(f"(;{prop}[{'9' * 5000}];B[aa])")
    assert (info.value.line, info.value.column) == (1, 2)
    assert len(str(info.value)) < 200  # the message does not echo 5,000 digits


def test_huge_result_value_is_an_unknown_result() -> None:
    sg = sgf.read_game(f"(;SZ[9]RE[B+{'9' * 5000}];B[aa])")
    assert sg.result is not None and sg.result.reason == "unknown"


def test_absurd_komi_is_refused_and_big_numbers_print_exactly() -> None:
    # Go §11: komi is a compensation of a few points; beyond ±1000 points it is refused.
    with pytest.raises(SgfError) as info:
        sgf.read_game("(;SZ[9]KM[99999999999999999999.5];B[aa])")
    assert "Go §11" in str(info.value)
    assert sgf.read_game(f"(;SZ[9]KM[{MAX_KOMI_POINTS}.0])").game.rules.komi_points == 1000
    with pytest.raises(DuiyiError):
        Rules.chinese().__class__(komi=Fraction(10**30))
    # Results never print in float exponent form.
    assert format_decimal(Fraction(10**20 * 2 + 1, 2)) == "100000000000000000000.5"
    score = score_position(sgf.read_game("(;SZ[9]KM[-999.5])").game.board, Rules.japanese())
    assert "e+" not in score.sgf_result


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duiyi", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "text",
    [
        f"(;SZ[{'9' * 5000}];B[aa])",
        f"(;SZ[9]KM[{'9' * 4000}];B[aa];W[];B[])",
        "(;SZ[9]KM[99999999999999999999.5];B[aa];W[];B[])",
        f"(;SZ[9]HA[{'7' * 5000}];B[aa])",
    ],
)
def test_cli_refuses_hostile_files_in_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "hostile.sgf"
    path.write_text(text)
    for command in ("score", "replay"):
        done = _cli("go", command, str(path))
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_cli_score_rules_use_the_one_preset_list(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text("(;SZ[9]KM[7.5];B[ee];W[];B[])")
    for name in ("nz", "tromp-taylor", "aga", "Japanese", "GOE"):
        done = _cli("go", "score", str(path), "--rules", name, "--dead", "none")
        assert done.returncode == 0, (name, done.stderr)
    done = _cli("go", "score", str(path), "--komi", "inf")
    assert done.returncode == 2 and "Traceback" not in done.stderr


def _peak(fn: object, *args: object) -> int:
    tracemalloc.start()
    try:
        fn(*args)  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "shape",
    [
        lambda n: "(;SZ[9]C[" + "x" * n + "];B[ee])",  # one huge comment
        lambda n: "(;SZ[9]C[" + "\\]" * (n // 2) + "];B[ee])",  # escapes all along
        lambda n: "(;SZ[9]" + "C[\\\\]" * (n // 5) + ";B[ee])",  # many values
        lambda n: "(;SZ[9]" + ";C[x]" * (n // 5) + ")",  # many nodes
        lambda n: "(;SZ[9]" + "(;C[x]" * (n // 6) + ")" * (n // 6) + ")",  # deep variations
    ],
)
def test_reader_memory_is_linear_in_the_input(shape: object) -> None:
    # A 20 MB comment used to take 4 GB (~200 bytes per byte: the value regex backtracked).
    text = shape(100_000)  # type: ignore[operator]
    peak = _peak(parse_tree, text)
    # Each node is a Python object with a dict and a list (about 450 bytes), so a file made
    # only of 5-byte nodes costs up to ~100 bytes per input byte; a value costs about 1 byte
    # per byte. Both are linear: the bound below holds at any size.
    assert peak < 120 * len(text), (peak, len(text))
    if "x" * 1000 in text:
        assert peak < 2 * len(text)


def test_twenty_megabyte_comment() -> None:
    text = "(;SZ[9]C[" + "x" * 20_000_000 + "];B[ee])"
    peak = _peak(sgf.read_game, text)
    assert peak < 2 * len(text)


# -- fuzzing ----------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "(", ")", ";", "(;", "[", "]", "\\", "\\]", ":", " ", "\n", "B", "W", "AB", "AW", "AE",
        "SZ", "KM", "HA", "RE", "RU", "PL", "TB", "TW", "C", "GM", "FF", "[aa]", "[]", "[tt]",
        "[ee]", "[dd]", "[zz]", "[9]", "[19]", "[25]", "[4]", "[-3]", "[7.5]", "[1e9]",
        "[B+R]", "[W+3.5]", "[Japanese]", "[NZ]", "[aa:cc]", "[ab][ba]", "[" + "9" * 40 + "]",
        "x", "é", "\x00",
    ]
)  # fmt: skip


@st.composite
def sgf_like(draw: st.DrawFn) -> str:
    head = draw(st.sampled_from(["(;", "(;SZ[9]", "(;SZ[5]KM[0.5]", "(;GM[1]SZ[7]RU[Japanese]"]))
    body = "".join(draw(st.lists(_PIECES, max_size=60)))
    moves = "".join(
        f";{c}[{x}{y}]"
        for c, x, y in draw(
            st.lists(st.tuples(st.sampled_from("BW"), st.sampled_from("abcdefghi"),
                               st.sampled_from("abcdefghi")), max_size=40)
        )
    )  # fmt: skip
    tail = draw(st.sampled_from([")", "", ";TB[aa][ab]TW[ii])", ";W[];B[])", "))"]))
    return head + body + moves + tail if draw(st.booleans()) else head + moves + body + tail


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sgf_like())
def test_fuzz_reader_and_score_raise_only_duiyi_errors(text: str) -> None:
    try:
        sg = sgf.read_game(text)
    except DuiyiError:
        return
    sg.to_sgf()
    for rules in (None, Rules.japanese(), Rules.preset("nz")):
        try:
            sgf.score_from_markers(sg.game, sg.last_node, rules)
            sg.game.score()
        except DuiyiError:
            pass


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_bytes_raise_only_duiyi_errors(data: bytes) -> None:
    with contextlib.suppress(DuiyiError):
        sgf.read_game(b"(;" + data)
    with contextlib.suppress(DuiyiError):
        sgf.read_game(data)


@settings(max_examples=200, deadline=None)
@given(sgf_like(), st.integers(min_value=1, max_value=20))
def test_fuzz_memory_stays_a_small_multiple_of_the_input(text: str, times: int) -> None:
    # The same hostile text made long: the reader's peak memory grows with it linearly.
    big = text.replace("C[", "C[" + "x" * 10_000 * times, 1) if "C[" in text else text
    tracemalloc.start()
    try:
        with contextlib.suppress(DuiyiError):
            sgf.read_game(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000 + 60 * len(big)
