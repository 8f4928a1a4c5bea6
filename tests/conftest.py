"""Fixtures for every test of the suite."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator

import httpx
import pytest

#: How long a test's HTTP request waits for an answer when it names no timeout of its own.
#: httpx's default (5 s) is a wall-clock bound: on two cores shared with the rest of the suite
#: (browsers, PostgreSQL, nginx, engines) a server that is working, not hanging, has taken more
#: than 5 s to answer, and the test failed for the machine's load, not for the server. A server
#: that hangs is still caught, by this bound and by pytest-timeout's.
HTTP_WAIT = httpx.Timeout(60.0, connect=15.0)


def _patient_httpx() -> None:
    """Make :data:`HTTP_WAIT` the default timeout of httpx's functions and clients."""
    functions = (httpx.request, httpx.stream, httpx.get, httpx.options, httpx.head)
    for function in (*functions, httpx.post, httpx.put, httpx.patch, httpx.delete):
        defaults = inspect.unwrap(function).__kwdefaults__  # stream is a context manager's
        assert defaults is not None and "timeout" in defaults
        defaults["timeout"] = HTTP_WAIT
    for client in (httpx.Client, httpx.AsyncClient):
        defaults = client.__init__.__kwdefaults__
        assert defaults is not None and "timeout" in defaults
        defaults["timeout"] = HTTP_WAIT


_patient_httpx()


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
