"""OpenGotha itself as the oracle: every shared real file, imported into duiyi, ranks exactly as
OpenGotha ranks it, player by player, round by round; and the file duiyi writes back opens in
OpenGotha with the same standings as the original.

The rules at stake are the event's own (OpenGotha's placement parameters, see
:mod:`duiyi.tournament.placement`), not the Chinese books': an imported McMahon or Swiss event
keeps the conventions its director chose. ``ogdump.sh`` runs OpenGotha 3.x headless (one JVM per
call, about a second); its answers are cached for the session.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest

from duiyi.tournament.event import add_players, event_standings, new_event, simulate
from duiyi.tournament.formats.opengotha import export_opengotha, from_opengotha, player_key
from duiyi.tournament.model import Event, Player
from duiyi.tournament.placement import placement_standings, player_scores, rules_of, smms


def _shared() -> Path:
    """``../shared`` beside the repository (a worktree may sit one or two levels deeper)."""
    repo = Path(__file__).resolve().parents[3]
    for base in (repo, *repo.parents[:2]):
        if (base.parent / "shared" / "tools" / "opengotha").is_dir():
            return base.parent / "shared"
    return repo.parent / "shared"


SHARED = _shared()
DATA = SHARED / "data" / "opengotha"
OGDUMP = SHARED / "tools" / "opengotha" / "ogdump.sh"
FILES = sorted(DATA.glob("*.xml"))
COLUMNS = ("NBW", "MMS", "SOSM", "SOSOSM", "SODOSM", "SOSW", "SOSOSW", "SODOSW")

_cache: dict[tuple[bytes, int], tuple[str, list[list[str]]]] = {}


def ogdump(xml: bytes, round_index: int, tmp: Path) -> tuple[str, list[list[str]]]:
    """OpenGotha's header line and rows (place, key, smms, NBW, MMS, SOSM, SOSOSM, SODOSM, SOSW,
    SOSOSW, SODOSW) for the 0-based round, cached per session by file content."""
    return ogdump_rounds(xml, [round_index], tmp)[0]


def ogdump_rounds(
    xml: bytes, round_indexes: list[int], tmp: Path
) -> list[tuple[str, list[list[str]]]]:
    """:func:`ogdump` for several rounds of one file, the missing ones run side by side (one
    JVM each, at most as many at once as the machine has cores, up to 4)."""
    missing = [r for r in round_indexes if (xml, r) not in _cache]
    if missing and not _cache:  # the first run compiles ogdump's helper: alone
        _cache[(xml, missing[0])] = _run_ogdump(xml, missing[0], tmp)
        missing = missing[1:]
    if missing:
        workers = max(1, min(4, os.cpu_count() or 1, len(missing)))
        with ThreadPoolExecutor(workers) as pool:
            found = list(pool.map(lambda r: _run_ogdump(xml, r, tmp), missing))
        for r, answer in zip(missing, found, strict=True):
            _cache[(xml, r)] = answer
    return [_cache[(xml, r)] for r in round_indexes]


def _run_ogdump(xml: bytes, round_index: int, tmp: Path) -> tuple[str, list[list[str]]]:
    path = tmp / f"t{round_index}.xml"
    path.write_bytes(xml)
    done = subprocess.run(
        [str(OGDUMP), str(path), str(round_index)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # OpenGotha may print notes of its own ("No team parameter could be imported")
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#round="))
    rows = [line.split("\t") for line in lines[start + 1 :] if "\t" in line]
    return lines[start], rows


def test_the_nineteen_shared_files_are_there() -> None:
    assert len(FILES) == 19, f"expected the 19 OpenGotha files in {DATA}"


@pytest.fixture(scope="module", autouse=True)
def _needs_java() -> None:
    # CI installs default-jdk-headless (.ci/run); without it these tests cannot mean anything
    assert shutil.which("javac") and shutil.which("java"), "OpenGotha needs a JDK (javac, java)"


def _key(event: Event, number: int) -> str:
    extra = dict(event.player(number).extra)
    return player_key(extra.get("surname", ""), extra.get("firstName", ""))


def differences(event: Event, upto: int, rows: list[list[str]]) -> list[str]:
    """Players whose place or values differ from OpenGotha's after ``upto`` rounds."""
    rules = rules_of(event)
    assert rules is not None
    scores = player_scores(event, rules, upto)
    ours = placement_standings(event, upto)
    keys = {s.number: _key(event, s.number) for s in ours}
    numbers = {keys[n]: n for n in keys}
    out: list[str] = []
    if len(rows) != len(ours):
        out.append(f"{len(rows)} players in OpenGotha, {len(ours)} in duiyi")
    for position, (row, line) in enumerate(zip(rows, ours, strict=False), start=1):
        key = row[1]
        if key not in numbers:
            out.append(f"{key}: unknown to duiyi")
            continue
        number = numbers[key]
        mine = scores[number]
        expected = [Fraction(v) for v in row[3:]]
        got = [mine[c] for c in COLUMNS]
        start = int(smms(event.player(number), rules))
        if keys[line.number] != key or expected != got or int(row[2]) != start:
            out.append(
                f"#{position} {key}: OpenGotha smms {row[2]} {dict(zip(COLUMNS, row[3:], strict=True))}"
                f"; duiyi #{position} is {keys[line.number]}, smms {start} "
                f"{ {c: str(v) for c, v in zip(COLUMNS, got, strict=True)} }"
            )
    return out


def _rounds(path: Path, event: Event) -> list[int]:
    last = max((r.number for r in event.history if r.games), default=0)
    return list(range(0, last + 1)) if last == 0 else list(range(1, last + 1))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_standings_equal_opengotha_round_by_round(path: Path, tmp_path: Path) -> None:
    xml = path.read_bytes()
    event, _ = from_opengotha(xml)
    assert rules_of(event) is not None
    problems: list[str] = []
    rounds = _rounds(path, event)
    answers = ogdump_rounds(xml, [upto - 1 for upto in rounds], tmp_path)
    for upto, (header, rows) in zip(rounds, answers, strict=True):
        assert header.startswith(f"#round={max(upto, 0)} ") or upto == 0, header
        problems += [f"round {upto}: {d}" for d in differences(event, upto, rows)]
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_export_opens_in_opengotha_with_the_same_standings(path: Path, tmp_path: Path) -> None:
    xml = path.read_bytes()
    event, _ = from_opengotha(xml)
    text, _ = export_opengotha(event)
    last = max((r.number for r in event.history if r.games), default=0)
    header, rows = ogdump(xml, last - 1, tmp_path)  # the last round with games, as -1 gives
    again_header, again_rows = ogdump(text.encode("utf-8"), -1, tmp_path)
    assert again_header == header
    assert again_rows == rows


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_import_export_import_keeps_the_event(path: Path) -> None:
    event, _ = from_opengotha(path.read_bytes())
    back, _ = from_opengotha(export_opengotha(event)[0])
    assert back.players == event.players
    assert back.history == event.history
    assert back.options == event.options or _same_but_tournament_attrs(back, event)
    assert [s.number for s in event_standings(back)] == [s.number for s in event_standings(event)]


def _same_but_tournament_attrs(a: Event, b: Event) -> bool:
    """Options equal apart from the kept parameter sets, which the export completes."""
    strip = {"opengotha"}
    return {k: v for k, v in a.options.items() if k not in strip} == {
        k: v for k, v in b.options.items() if k not in strip
    }


def test_a_duiyi_mcmahon_event_ranks_the_same_in_opengotha(tmp_path: Path) -> None:
    # an event made in duiyi (no byes: an even field): OpenGotha reads its export with the
    # same McMahon scores shifted by one number (it counts from 30k, duiyi from the floor),
    # the same SOS and SOSOS shifted accordingly, and the same order
    e = add_players(
        new_event("M", "go", "mcmahon", 4, {"bar": "2d", "floor": "10k"}),
        [Player(0, f"P{i}", f"{i}k") for i in range(1, 9)],
    )
    e = simulate(e, 4, random.Random(7))
    text, warnings = export_opengotha(e)
    assert warnings == []
    _, rows = ogdump(text.encode("utf-8"), -1, tmp_path)
    ours = event_standings(e)
    shift = 30 - 10  # floor 10k
    names = [e.player(s.number).name + "-" for s in ours]
    assert [r[1] for r in rows] == [n.upper() for n in names]
    for row, line in zip(rows, ours, strict=True):
        mms, sos, sosos = line.values[:3]
        assert Fraction(row[4]) == mms + shift
        assert Fraction(row[5]) == sos + 4 * shift
        assert Fraction(row[6]) == sosos + 4 * 4 * shift
