"""Fixtures shared by the Go tests: the game archives of ``tests/data/go``, each extracted
once per session into a temporary folder."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest
from tests.datafiles import GO_ARCHIVES


def _extract(archive: Path, target: Path) -> list[Path]:
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return sorted(target.rglob("*.sgf"))


@pytest.fixture(scope="session")
def kgs_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The SGF files of the KGS archive (733 games), sorted by path."""
    return _extract(GO_ARCHIVES / "kgs-2017-01.tar.gz", tmp_path_factory.mktemp("kgs"))


@pytest.fixture(scope="session")
def alphago_zero_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The SGF files of the AlphaGo Zero self-play archive (83 games), sorted by path."""
    archive = GO_ARCHIVES / "alphago-zero-selfplay.tar.gz"
    return _extract(archive, tmp_path_factory.mktemp("alphago-zero"))
