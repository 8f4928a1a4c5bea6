"""Fixtures for every test of the suite."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _no_browser_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's sync API (the browser tests of tests/web) marks its event loop as running in
    this thread between its calls, for the rest of the xdist worker's session: a test here that
    runs a loop of its own (pytest-asyncio, ``asyncio.run``) after a browser test in the same
    worker failed ("cannot be called from a running event loop"). The mark is lifted for such a
    test and put back after it, for the next browser test."""
    loop = asyncio._get_running_loop()
    if loop is None or "browser" in request.fixturenames:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)
