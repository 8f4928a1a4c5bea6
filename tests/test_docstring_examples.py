"""Every docstring example of every module of duiyi runs (the house rule: a small example on each
public function). One sweep over the package, so a module added later is covered without a list
to keep up to date."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import duiyi

# Alembic's env.py runs only under Alembic; ``__main__`` would start the CLI.
NOT_IMPORTABLE = ("duiyi.store.migrations", "duiyi.__main__")


def _modules() -> list[str]:
    names = ["duiyi"]
    for info in pkgutil.walk_packages(duiyi.__path__, "duiyi."):
        if not info.name.startswith(NOT_IMPORTABLE):
            names.append(info.name)
    return sorted(names)


MODULES = _modules()


def test_the_sweep_sees_the_whole_package() -> None:
    # a sweep that silently found nothing would pass every example it never ran
    assert {"duiyi.go.game", "duiyi.tournament.event", "duiyi.server.app"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
