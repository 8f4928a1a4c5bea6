"""``duiyi event import FILE`` and ``duiyi event export EVENT --format opengotha|egd|csv``."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from tests.datafiles import OPENGOTHA_FILES as DATA
from tests.tournament.conftest import run
from tests.tournament.formats.test_egd_oracle import with_results_by_default

from duiyi.tournament.formats.egd import validate_egd
from duiyi.tournament.formats.eventfile import load_event

RUSSIAN = """<?xml version="1.0" encoding="windows-1251" standalone="no"?>
<Tournament dataVersion="201">
<Players>
<Player name="Иванов" firstName="Пётр" rank="2D" rating="2150" club="Msk" country="RU"
 participating="11" registeringStatus="FIN" smmsCorrection="1"/>
<Player name="Смирнова" firstName="Анна" rank="1K" rating="1980" club="Spb" country="RU"
 participating="01" registeringStatus="FIN" smmsCorrection="0"/>
<Player name="Lee" firstName="Ha" rank="3k" rating="1800" ratingOrigin="INI" club="" country=""/>
</Players>
<Games>
<Game blackPlayer="иванов пётр" whitePlayer="LEEHA" result="RESULT_BOTHWIN" roundNumber="1"
 tableNumber="1" handicap="0"/>
</Games>
<TournamentParameterSet>
<GeneralParameterSet name="Кубок" numberOfRounds="2" genMMBar="1D" genMMFloor="20K"
 genMMZero="30K" genMMS2ValueBye="2" genMMS2ValueAbsent="1" genNBW2ValueBye="2"
 genNBW2ValueAbsent="0"/>
<PlacementParameterSet><PlacementCriteria>
<PlacementCriterion name="MMS" number="1"/><PlacementCriterion name="SOSM" number="2"/>
</PlacementCriteria></PlacementParameterSet>
</TournamentParameterSet>
</Tournament>
"""


def test_import_a_file_in_its_declared_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "kubok.xml"
    source.write_bytes(RUSSIAN.encode("cp1251"))
    code, out, err = run(capsys, "event", "import", str(source))
    assert code == 0, err
    assert "into" in out and (tmp_path / "kubok.json").exists()
    event = load_event(tmp_path / "kubok.json")
    assert event.name == "Кубок" and event.system == "mcmahon"
    assert [p.name for p in event.players] == ["Иванов Пётр", "Смирнова Анна", "Lee Ha"]
    # the key in <Game> is matched as OpenGotha matches it: spaces removed, upper-cased
    assert event.history[0].games[0].black == 1
    extra = dict(event.players[0].extra)
    assert extra["smmsCorrection"] == "1" and extra["country"] == "RU"
    assert dict(event.players[1].extra)["participating"] == "01"
    assert event.players[2].rating is None  # INI: derived from the rank, so unrated
    # RESULT_BOTHWIN is named, kept and scored as OpenGotha scores it (both win)
    assert "RESULT_BOTHWIN" in err
    code, out, _ = run(
        capsys, "event", "standings", str(tmp_path / "kubok.json"), "--format", "json"
    )
    doc = json.loads(out)
    mms = {row["name"]: row["tiebreaks"]["mms"] for row in doc["standings"]}
    # smms: 2d framed by bar 1d -> 30 + correction 1; both "winners" +1; Anna absent in
    # round 1: ½, rounded down to 0
    assert mms == {"Иванов Пётр": "32", "Lee Ha": "28", "Смирнова Анна": "29"}


def test_export_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "finale.xml"
    shutil.copy(DATA / "finaleCdF.xml", source)
    assert run(capsys, "event", "import", str(source), str(tmp_path / "e.json"))[0] == 0
    ev = str(tmp_path / "e.json")
    code, out, _ = run(capsys, "event", "export", ev, "--format", "egd", "--egf-class", "A")
    assert code == 0 and out.startswith("; CL[A]") and validate_egd(out) == []
    code, out, _ = run(capsys, "event", "export", ev, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["name"] == "Dréan-Guénaizia Benjamin" and rows[0]["nbw"] == "4"
    code, out, _ = run(capsys, "event", "export", ev, "--output", str(tmp_path / "x.xml"))
    assert code == 0 and "wrote" in out
    assert "<PlacementCriterion" in (tmp_path / "x.xml").read_text(encoding="utf-8")
    # the file read cannot be overwritten by the event it makes
    code, _, err = run(capsys, "event", "import", str(source), str(source))
    assert code == 2 and "cannot be the file read" in err


def test_export_egd_without_by_default_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # OpenGotha's question "keep by default results?": Yes marks them "!", No writes 0= for
    # both players; without --egf-class the class is the one the time limits allow
    source = tmp_path / "juvisy.xml"
    source.write_bytes(with_results_by_default((DATA / "Juvisy.xml").read_bytes(), "cli"))
    assert run(capsys, "event", "import", str(source), str(tmp_path / "e.json"))[0] == 0
    ev = str(tmp_path / "e.json")
    code, kept, _ = run(capsys, "event", "export", ev, "--format", "egd")
    assert code == 0 and kept.startswith("; CL[") and "!" in kept
    code, dropped, err = run(
        capsys, "event", "export", ev, "--format", "egd", "--no-keep-by-default"
    )
    assert code == 0 and "!" not in dropped and validate_egd(dropped) == []
    assert dropped.count(" 0=") > kept.count(" 0=") and "free rounds (0=)" in err
