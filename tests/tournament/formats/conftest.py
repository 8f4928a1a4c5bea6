"""OpenGotha, one JVM for the session (see :mod:`tests.tournament.formats.oracle`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from tests.tournament.formats.oracle import OpenGotha


@pytest.fixture(scope="session")
def opengotha() -> Iterator[OpenGotha]:
    # CI installs default-jdk-headless (.ci/run); without it these tests cannot mean anything
    assert shutil.which("javac") and shutil.which("java"), "OpenGotha needs a JDK (javac, java)"
    og = OpenGotha()
    yield og
    og.close()
