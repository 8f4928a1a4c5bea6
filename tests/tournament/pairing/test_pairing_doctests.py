"""Run the docstring examples of the pairing modules and the schedule CLI."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "duiyi.tournament.pairing",
    "duiyi.tournament.pairing.common",
    "duiyi.tournament.pairing._matching",
    "duiyi.tournament.pairing.round_robin",
    "duiyi.tournament.pairing.swiss",
    "duiyi.tournament.pairing.knockout",
    "duiyi.tournament.pairing.double_elimination",
    "duiyi.tournament.pairing.mcmahon",
    "duiyi.tournament.pairing.swiss_elimination",
    "duiyi.tournament.pairing.groups",
    "duiyi.tournament.pairing.matches",
    "duiyi.tournament.pairing.relay",
    "duiyi.tournament.pairing.teams",
    "duiyi.cli.schedule",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
