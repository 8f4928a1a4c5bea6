"""The docstring examples of the tournament results modules are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "duiyi.tournament",
    "duiyi.tournament.model",
    "duiyi.tournament.results",
    "duiyi.tournament.tiebreaks",
    "duiyi.tournament.standings",
    "duiyi.tournament.withdrawal",
    "duiyi.tournament.promotion",
    "duiyi.tournament.placement",
    "duiyi.tournament.event",
    "duiyi.tournament.formats",
    "duiyi.tournament.formats.csvfiles",
    "duiyi.tournament.formats.eventfile",
    "duiyi.tournament.formats.opengotha",
    "duiyi.tournament.formats.wallchart",
    "duiyi.cli.event",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
