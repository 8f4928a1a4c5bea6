"""The examples in the session's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["duiyi.session", "duiyi.session.core", "duiyi.session.adapters", "duiyi.cli.clock"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
