"""The shared pieces: colours, errors, outcomes, the CLI error contract."""

from __future__ import annotations

import subprocess
import sys

import pytest

from duiyi import BLACK, WHITE, Color
from duiyi.errors import DuiyiError, IllegalMove, InvalidInput, SgfError
from duiyi.outcome import Outcome, Result, Termination


def test_colours_alternate() -> None:
    # Go §3 / Gomoku §2.2: Black moves first, then the players alternate.
    assert BLACK.opponent is WHITE
    assert WHITE.opponent is BLACK
    assert Color.parse("W") is WHITE
    assert Color.parse("黑") is BLACK


def test_unknown_colour_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput, match="not a colour"):
        Color.parse("green")


def test_illegal_move_names_reason_and_article() -> None:
    err = IllegalMove("suicide", "Go §5", move="D4")
    assert err.reason == "suicide"
    assert err.article == "Go §5"
    assert "D4" in str(err) and "Go §5" in str(err)
    assert isinstance(err, DuiyiError)


def test_sgf_error_has_position() -> None:
    err = SgfError("unexpected end", line=2, column=5)
    assert (err.line, err.column) == (2, 5)
    assert str(err).startswith("line 2, column 5")


def test_outcome_round_trips_and_checks_winner() -> None:
    o = Outcome.win(WHITE, Termination.TIME, "Go §22")
    assert o.loser is BLACK
    assert Outcome.from_json(o.to_json()) == o
    d = Outcome.draw(Termination.PASSES, "Gomoku §11.1")
    assert d.result is Result.DRAW and d.winner is None
    with pytest.raises(InvalidInput):
        Outcome(Result.WIN, Termination.COUNT, "Go §9", None)


def test_cli_version_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "duiyi", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip().startswith("duiyi ")
