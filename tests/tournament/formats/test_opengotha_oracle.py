"""OpenGotha itself as the oracle: every real file of tests/data/opengotha, imported into duiyi, ranks exactly as
OpenGotha ranks it, player by player, round by round; and the file duiyi writes back opens in
OpenGotha with the same standings as the original.

The rules at stake are the event's own (OpenGotha's placement parameters, see
:mod:`duiyi.tournament.placement`), not the Chinese books': an imported McMahon or Swiss event
keeps the conventions its director chose. OpenGotha 3.x runs headless in one JVM for the session
(:mod:`tests.tournament.formats.oracle`, the ``ogdump.sh`` helper extended), its answers cached.

Every state a director looks at is compared: every round of every file, and every round again
with results removed at random (seeded) from the last round (a round partly entered); byes,
absent rounds (``participating`` gaps) and players who left are in the files; every placement
criterion OpenGotha offers, DC included, on files rewritten with other criteria.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from tests.tournament.formats.oracle import DATA, OpenGotha

from duiyi.tournament.event import add_players, event_standings, new_event, simulate, withdraw
from duiyi.tournament.formats.opengotha import export_opengotha, from_opengotha, player_key
from duiyi.tournament.model import Event, Player
from duiyi.tournament.placement import (
    CRITERIA,
    placement_standings,
    player_scores,
    rules_of,
    smms,
)

FILES = sorted(DATA.glob("*.xml"))
COLUMNS = ("NBW", "MMS", "SOSM", "SOSOSM", "SODOSM", "SOSW", "SOSOSW", "SODOSW")
#: OpenGotha's criterion numbers (PlacementParameterSet.PLA_CRIT_*)
CODES = {
    "NULL": 0, "CAT": 1, "Rank": 11, "Rating": 12, "NBW": 100, "MMS": 200, "STS": 300,
    "SOSW": 110, "SOSW-1": 111, "SOSW-2": 112, "SODOSW": 120, "SOSOSW": 130, "CUSSW": 150,
    "SOSM": 210, "SOSM-1": 211, "SOSM-2": 212, "SODOSM": 220, "SOSOSM": 230, "CUSSM": 250,
    "SOSTS": 310, "EXT": 501, "EXR": 502, "SDC": 601, "DC": 602,
}  # fmt: skip


def ogdump(og: OpenGotha, xml: bytes, round_index: int) -> tuple[str, list[list[str]]]:
    """OpenGotha's header line and rows (place, key, smms, NBW, MMS, SOSM, SOSOSM, SODOSM,
    SOSW, SOSOSW, SODOSW, DC, SDC, CAT, the placement criteria's stored values) for the
    0-based round (-1: the last with games), as ``ogdump.sh`` prints the first eleven."""
    return og.dump(xml, round_index)


def test_the_nineteen_real_files_are_there() -> None:
    assert len(FILES) == 19, f"expected the 19 OpenGotha files in {DATA}"


def _key(event: Event, number: int) -> str:
    extra = dict(event.player(number).extra)
    return player_key(extra.get("surname", ""), extra.get("firstName", ""))


def differences(event: Event, upto: int, rows: list[list[str]]) -> list[str]:
    """Players whose place or values differ from OpenGotha's after ``upto`` rounds: the order,
    the initial McMahon score, the eight scores ogdump prints, DC, SDC, CAT and every placement
    criterion of the event's rules as OpenGotha stores it (×2, ×4)."""
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
        expected = [Fraction(v) for v in row[3:11]] + [int(v) for v in row[11:14]]
        expected += [int(v) for v in row[14].split(",") if v]
        got: list[Fraction | int] = [mine[c] for c in COLUMNS]
        got += [int(mine["DC"]), int(mine["SDC"]), int(mine["CAT"])]
        got += [int(mine[c] * CRITERIA[c][0]) for c in rules.criteria]
        start = int(smms(event.player(number), rules))
        if keys[line.number] != key or expected != got or int(row[2]) != start:
            out.append(
                f"#{position} {key}: OpenGotha smms {row[2]} {row[3:]}"
                f"; duiyi #{position} is {keys[line.number]}, smms {start} "
                f"{[str(v) for v in got]}"
            )
    return out


def _rounds(event: Event) -> list[int]:
    last = max((r.number for r in event.history if r.games), default=0)
    return list(range(0, last + 1)) if last == 0 else list(range(1, last + 1))


def _compare_rounds(og: OpenGotha, xml: bytes, event: Event) -> list[str]:
    problems: list[str] = []
    for upto in _rounds(event):
        header, rows = ogdump(og, xml, upto - 1)
        assert header.startswith(f"#round={max(upto, 0)} ") or upto == 0, header
        problems += [f"round {upto}: {d}" for d in differences(event, upto, rows)]
    return problems


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_standings_equal_opengotha_round_by_round(path: Path, opengotha: OpenGotha) -> None:
    xml = path.read_bytes()
    event, _ = from_opengotha(xml)
    assert rules_of(event) is not None
    problems = _compare_rounds(opengotha, xml, event)
    assert problems == [], "\n".join(problems[:20])


_GAME = re.compile(rb"<Game\b[^>]*>")


def without_results(xml: bytes, seed: str) -> tuple[bytes, int]:
    """The file with about half the results of its last round with games removed
    (``RESULT_UNKNOWN``), chosen at random by ``seed``; and how many were removed."""
    games = [m for m in _GAME.finditer(xml)]
    rounds = [int(re.search(rb'roundNumber="(\d+)"', m.group()).group(1)) for m in games]  # type: ignore[union-attr]
    if not rounds:
        return xml, 0
    last = max(rounds)
    rng = random.Random(seed)
    chosen = [m for m, r in zip(games, rounds, strict=True) if r == last and rng.random() < 0.5]
    out = xml
    for m in reversed(chosen):
        tag = re.sub(rb'result="[A-Z_]*"', b'result="RESULT_UNKNOWN"', m.group())
        out = out[: m.start()] + tag + out[m.end() :]
    return out, len(chosen)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_standings_equal_opengotha_with_a_round_partly_entered(
    path: Path, opengotha: OpenGotha
) -> None:
    # the director's view while results come in: OpenGotha shows the standings at the last
    # round with games, a game without a result scoring nothing for either player
    xml, removed = without_results(path.read_bytes(), path.name)
    event, _ = from_opengotha(xml)
    problems = _compare_rounds(opengotha, xml, event)
    assert problems == [], "\n".join(problems[:20])
    _, rows = ogdump(opengotha, xml, -1)  # OpenGotha's default: the last round with games
    ours = event_standings(event)  # duiyi's default view of an imported event
    assert [_key(event, s.number) for s in ours] == [r[1] for r in rows]
    assert removed > 0 or not event.history or path.name in ("patternclubs.xml",)


def with_criteria(xml: bytes, criteria: tuple[str, ...]) -> bytes:
    """The file with its placement criteria replaced."""
    body = b"".join(
        b'<PlacementCriterion name="%s" number="%d"/>' % (c.encode(), i)
        for i, c in enumerate((*criteria, *["NULL"] * (6 - len(criteria))), start=1)
    )
    new = b"<PlacementParameterSet><PlacementCriteria>" + body + b"</PlacementCriteria>"
    new += b"</PlacementParameterSet>"
    return re.sub(rb"<PlacementParameterSet>.*?</PlacementParameterSet>", new, xml, flags=re.S)


CRITERIA_SETS = [
    ("MMS", "DC", "SOSM"),
    ("NBW", "DC", "SOSW", "SOSOSW"),
    ("NBW", "SDC", "SOSW"),
    ("MMS", "SOSM-1", "SOSM-2", "SODOSM", "CUSSM"),
    ("NBW", "SOSW-1", "SOSW-2", "SODOSW", "CUSSW"),
    ("CAT", "NBW", "SOSW", "Rating"),
    ("STS", "SOSTS", "EXT", "EXR", "Rank"),
    ("MMS", "SOSM", "DC", "SOSOSM"),
]
CRITERIA_FILES = ["simplemm.xml", "notsimplemm.xml", "Toulouse2024.xml", "pesm-p4.xml",
                  "TournoiChinois.xml", "frioul-2018.xml"]  # fmt: skip


@pytest.mark.parametrize("criteria", CRITERIA_SETS, ids=["-".join(c) for c in CRITERIA_SETS])
@pytest.mark.parametrize("name", CRITERIA_FILES)
def test_every_placement_criterion_equals_opengotha(
    name: str, criteria: tuple[str, ...], opengotha: OpenGotha
) -> None:
    xml = with_criteria((DATA / name).read_bytes(), criteria)
    event, _ = from_opengotha(xml)
    rules = rules_of(event)
    assert rules is not None and rules.used == criteria
    problems = _compare_rounds(opengotha, xml, event)
    assert problems == [], "\n".join(problems[:20])


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
    return {k: v for k, v in a.options.to_json().items() if k not in strip} == {
        k: v for k, v in b.options.to_json().items() if k not in strip
    }


def test_a_duiyi_mcmahon_event_ranks_the_same_in_opengotha(opengotha: OpenGotha) -> None:
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
    _, rows = ogdump(opengotha, text.encode("utf-8"), -1)
    ours = event_standings(e)
    shift = 30 - 10  # floor 10k
    names = [e.player(s.number).name + "-" for s in ours]
    assert [r[1] for r in rows] == [n.upper() for n in names]
    for row, line in zip(rows, ours, strict=True):
        mms, sos, sosos = line.values[:3]
        assert Fraction(row[4]) == mms + shift
        assert Fraction(row[5]) == sos + 4 * shift
        assert Fraction(row[6]) == sosos + 4 * 4 * shift


@pytest.mark.parametrize("name", ["pesm-p4.xml", "malavasi.geobug.xml", "Toulouse2024.xml",
                                  "frioul-2018.xml", "notsimplemm.xml"])  # fmt: skip
def test_a_withdrawal_entered_in_duiyi_ranks_as_opengotha_reads_it(
    name: str, opengotha: OpenGotha
) -> None:
    # Go §28: a player leaves during an imported event; duiyi's standings count the rounds
    # after as absent (the event's absence value), as OpenGotha counts the exported file
    event, _ = from_opengotha((DATA / name).read_bytes())
    last = max(r.number for r in event.history if r.games)
    player = next(
        p for g in event.round(max(last - 1, 1)).games for p in (g.black, g.white)
        if event.withdrawal_of(p) is None
    )  # fmt: skip
    event = withdraw(event, player)
    xml = export_opengotha(event)[0].encode("utf-8")
    problems: list[str] = []
    for upto in range(1, event.rounds + 1):
        _, rows = ogdump(opengotha, xml, upto - 1)
        problems += [f"round {upto}: {d}" for d in differences(event, upto, rows)]
    assert problems == [], "\n".join(problems[:20])
