"""The user guide (docs/guide/*.md) is executable: its Python examples and its commands are run.

Every ``>>>`` example of each guide page runs as a doctest from the repository root (the pages
read files such as ``tests/data/sgf/...``). Each command shown in the guide is listed in
``COMMANDS`` with the lines its output must contain and its exit code, and run with
``sys.executable -m duiyi`` (key lines, not the whole output, so cosmetic changes don't break it).
"""

from __future__ import annotations

import doctest
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide"
PAGES = sorted(p.name for p in GUIDE.glob("*.md"))
GNUGO = Path("/usr/games/gnugo")


class MarkdownParser(doctest.DocTestParser):
    """Reads examples out of Markdown: a code fence line ends an example's expected output."""

    def parse(self, string: str, name: str = "<string>") -> list[str | doctest.Example]:
        lines = ["" if ln.lstrip().startswith("```") else ln for ln in string.split("\n")]
        return super().parse("\n".join(lines), name)


def test_guide_pages_exist() -> None:
    assert {"index.md", "library.md", "cli.md", "director.md", "engines.md"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_guide_examples(page: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = (GUIDE / page).read_text(encoding="utf-8")
    if "gnugo" in text and ">>>" in text and not (GNUGO.exists() or shutil.which("gnugo")):
        pytest.fail("the guide's GNU Go examples need gnugo (/usr/games/gnugo)")
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(
        str(GUIDE / page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        encoding="utf-8",
        extraglobs={"TMP": str(tmp_path)},
        verbose=False,
        report=True,
        parser=MarkdownParser(),
    )
    assert result.attempted >= text.count("\n>>> "), f"examples of {page} were not all read"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {page}"


# Commands of cli.md, director.md and engines.md: (argv, expected exit code, substrings of the
# output). They run in order in one scratch directory, so later ones see the files of earlier
# ones ({data} is the repository's tests/data, {brains} the test Gomocup brains).
COMMANDS: list[tuple[str, int, list[str]]] = []


def _run(argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    import shlex

    args = [
        a.format(
            data=ROOT / "tests" / "data",
            brains=ROOT / "tests" / "gomoku" / "engines",
            python=sys.executable,
        )
        for a in shlex.split(argv)
    ]
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb")
    return subprocess.run(
        [sys.executable, "-m", "duiyi", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_guide_commands(tmp_path: Path) -> None:
    for argv, code, expected in COMMANDS:
        proc = _run(argv, tmp_path)
        out = proc.stdout + proc.stderr
        assert proc.returncode == code, f"duiyi {argv}: exit {proc.returncode}\n{out}"
        for line in expected:
            assert line in out, f"duiyi {argv}: {line!r} not in\n{out}"
