"""Helpers shared by the tournament tests: running ``duiyi`` in-process and setting up an event.

Imported by the test modules as ``from tests.tournament.conftest import ...`` (as the server
tests do with theirs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duiyi.cli import main
from duiyi.tournament.model import Player


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``duiyi ARGS`` in-process; return (exit code, stdout, stderr).

    >>> # code, out, err = run(capsys, "event", "pair", "e.json")
    """
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def players(n: int) -> list[Player]:
    """Players ``P1``..``Pn`` with falling ratings (2370, 2340, ...), numbers left to the event.

    >>> [p.name for p in players(2)]
    ['P1', 'P2']
    """
    return [Player(0, f"P{i}", rating=2400 - 30 * i) for i in range(1, n + 1)]


def write_players_csv(path: Path, n: int) -> Path:
    """Write a players sheet of ``n`` equal 1d players ``P0``..``P(n-1)``; return ``path``."""
    path.write_text("name,rank,rating,club\n" + "".join(f"P{i},1d,2000,\n" for i in range(n)))
    return path


def start_event(
    capsys: pytest.CaptureFixture[str], ev: str, players_csv: Path, *new_args: str
) -> None:
    """``duiyi event new EV NEW_ARGS`` then ``event players EV --add PLAYERS_CSV``; both must succeed."""
    code, _, err = run(capsys, "event", "new", ev, *new_args)
    assert code == 0, err
    code, _, err = run(capsys, "event", "players", ev, "--add", str(players_csv))
    assert code == 0, err
