"""OpenGotha, one JVM for the session (see :mod:`tests.tournament.formats.oracle`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from tests.datafiles import OPENGOTHA_ABSENT
from tests.tournament.formats.oracle import TOOLS, OpenGotha


@pytest.fixture(scope="session")
def opengotha() -> Iterator[OpenGotha]:
    if TOOLS is None:
        pytest.skip(OPENGOTHA_ABSENT)
    assert shutil.which("javac") and shutil.which("java"), "OpenGotha needs a JDK (javac, java)"
    og = OpenGotha()
    yield og
    og.close()
