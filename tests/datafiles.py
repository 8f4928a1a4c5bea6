"""Where the tests' data is, and the one setting that points at an outside oracle.

Everything the tests read is in ``tests/data`` (each folder's README names its source and
licence). OpenGotha is not part of the project: the tests that ask it are run when the setting
``DUIYI_OPENGOTHA`` names the folder of its distribution (``opengotha.jar`` and ``jhall.jar``;
OpenGotha 3.x), with ``java`` and ``javac`` on the path; without the setting they are skipped
with a reason that names it. The tests drive OpenGotha headless through their own helper
(``tests/tournament/formats/OGBatch.java``); one test also compares it with the headless
scripts ``ogdump.sh`` and ``ogh9.sh`` when the folder has them. A setting that names a folder without
those files is an error, not a skip, so a broken setup cannot pass as a skipped one.

>>> (DATA / "opengotha").is_dir()
True
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
GO_ARCHIVES = DATA / "go"
OPENGOTHA_FILES = DATA / "opengotha"

OPENGOTHA_SETTING = "DUIYI_OPENGOTHA"
_OPENGOTHA_NEEDS = ("opengotha.jar", "jhall.jar")
OPENGOTHA_ABSENT = (
    f"OpenGotha is not set up: set {OPENGOTHA_SETTING}=DIR, the folder of OpenGotha 3.x's "
    "opengotha.jar and jhall.jar (with java and javac on PATH)"
)


def opengotha_tools() -> Path | None:
    """The folder named by ``DUIYI_OPENGOTHA``, checked; None when the setting is absent.

    >>> os.environ.get(OPENGOTHA_SETTING) or opengotha_tools() is None
    True
    """
    value = os.environ.get(OPENGOTHA_SETTING, "").strip()
    if not value:
        return None
    folder = Path(value).expanduser().resolve()
    missing = [name for name in _OPENGOTHA_NEEDS if not (folder / name).is_file()]
    if missing:
        raise RuntimeError(f"{OPENGOTHA_SETTING}={value}: {', '.join(missing)} not found there")
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{OPENGOTHA_SETTING} is set but {tool} is not on PATH")
    return folder


#: Marks a test that asks OpenGotha itself; skipped, with the setting named, when it is absent.
requires_opengotha = pytest.mark.skipif(opengotha_tools() is None, reason=OPENGOTHA_ABSENT)
