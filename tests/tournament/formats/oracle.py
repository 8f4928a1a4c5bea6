"""OpenGotha 3.x as a test oracle, in one JVM for the whole session.

OpenGotha's headless helpers ``ogdump.sh`` and ``ogh9.sh`` (in the folder named by the setting
``DUIYI_OPENGOTHA``, see :mod:`tests.datafiles`) start a JVM per question (about two
seconds each); the tests ask hundreds of questions (every round of every real file in tests/data/opengotha, with
results removed, and every file's EGD export). :class:`OpenGotha` compiles ``OGBatch.java``
(beside this module: the two tools' helpers copied into one and extended with a dump of the
parameter sets) against OpenGotha's ``opengotha.jar`` into a temporary folder once, starts one
JVM and sends it the questions one by one. ``test_oracle_batch_answers_as_the_shared_tools``
checks that its answers are the helpers' answers.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from tests.datafiles import OPENGOTHA_FILES, opengotha_tools

#: OpenGotha's folder (None when ``DUIYI_OPENGOTHA`` is not set: the oracle tests skip)
TOOLS = opengotha_tools()
DATA = OPENGOTHA_FILES
SOURCE = Path(__file__).with_name("OGBatch.java")
JARS = f"{TOOLS / 'opengotha.jar'}:{TOOLS / 'jhall.jar'}" if TOOLS else ""


def _classes() -> Path:
    """The compiled helper, in a temporary folder named by the source's hash (compiled once)."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / f"duiyi-ogbatch-{digest}"
    if not (folder / "info" / "vannier" / "gotha" / "OGBatch.class").is_file():
        staging = Path(tempfile.mkdtemp(prefix="duiyi-ogbatch-"))
        done = subprocess.run(
            ["javac", "-nowarn", "-cp", JARS, "-d", str(staging), str(SOURCE)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        try:
            staging.rename(folder)
        except OSError:  # another process compiled it first
            shutil.rmtree(staging, ignore_errors=True)
    return folder


class OpenGotha:
    """One OpenGotha JVM answering ``dump``, ``h9`` and ``params`` questions (see
    ``OGBatch.java``); files are written to a private folder holding OpenGotha's DTD."""

    def __init__(self) -> None:
        self.work = Path(tempfile.mkdtemp(prefix="duiyi-og-"))
        assert TOOLS is not None, "OpenGotha() needs DUIYI_OPENGOTHA (tests.datafiles)"
        if (TOOLS / "tournament.dtd").is_file():  # OpenGotha's DTD, which some files name
            shutil.copy(TOOLS / "tournament.dtd", self.work / "tournament.dtd")
        self._count = 0
        self._lock = threading.Lock()
        self._proc = subprocess.Popen(
            ["java", "-Djava.awt.headless=true", "-cp", f"{JARS}:{_classes()}",
             "info.vannier.gotha.OGBatch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )  # fmt: skip
        self._cache: dict[tuple[str, bytes, str], list[str]] = {}
        self._files: dict[tuple[bytes, bool], bytes] = {}

    def close(self) -> None:
        """End the JVM and remove the private folder."""
        if self._proc.stdin:
            self._proc.stdin.close()
        self._proc.wait(timeout=30)
        shutil.rmtree(self.work, ignore_errors=True)

    def _file(self, xml: bytes) -> Path:
        self._count += 1
        path = self.work / f"t{self._count}.xml"
        path.write_bytes(xml)
        return path

    def _ask(self, kind: str, xml: bytes, *args: str) -> list[str]:
        key = (kind, xml, "\t".join(args))
        if key in self._cache:
            return self._cache[key]
        with self._lock:
            path = self._file(xml)
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.write("\t".join([kind, str(path), *args]) + "\n")
            self._proc.stdin.flush()
            lines: list[str] = []
            while True:
                line = self._proc.stdout.readline()
                assert line, "OpenGotha's JVM ended"
                line = line.rstrip("\n")
                if line == "#end":
                    break
                lines.append(line)
            path.unlink()
        assert not any(line.startswith("#error") for line in lines), lines
        self._cache[key] = lines
        return lines

    def dump(self, xml: bytes, round_index: int) -> tuple[str, list[list[str]]]:
        """``ogdump.sh``'s answer for the 0-based round (-1: the last with games): the header
        line and rows (place, key, smms, NBW, MMS, SOSM, SOSOSM, SODOSM, SOSW, SOSOSW, SODOSW,
        then DC, SDC and CAT as OpenGotha stores them)."""
        lines = self._ask("dump", xml, str(round_index))
        return lines[0], [line.split("\t") for line in lines[1:]]

    def h9(self, xml: bytes, keep_by_default: bool = True) -> bytes:
        """``ogh9.sh``'s file (ISO-8859-15 bytes)."""
        key = (xml, keep_by_default)
        if key not in self._files:
            out = self.work / f"out{self._count + 1}.h9"
            self._ask("h9", xml, str(out), "true" if keep_by_default else "false")
            self._files[key] = out.read_bytes()
            out.unlink()
        return self._files[key]

    def params(self, xml: bytes) -> dict[str, object]:
        """The parameter sets as OpenGotha read them (``name=value``), and its players, games
        and byes (lists of tab-separated fields)."""
        out: dict[str, object] = {"player": [], "game": [], "bye": []}
        for line in self._ask("params", xml):
            kind, _, rest = line.partition("\t")
            if kind in ("player", "game", "bye"):
                rows = out[kind]
                assert isinstance(rows, list)
                rows.append(rest.split("\t"))
            else:
                name, _, value = line.partition("=")
                out[name] = value
        return out
