"""The examples in the clock's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["duiyi.clock", "duiyi.clock.systems", "duiyi.clock.clock", "duiyi.clock.gtp"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
