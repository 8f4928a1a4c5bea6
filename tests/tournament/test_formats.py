"""Formats: players/results CSV, OpenGotha XML, atomic event-file writes."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from duiyi.errors import EventFileError, TournamentError
from duiyi.tournament.event import add_players, new_event, simulate, withdraw
from duiyi.tournament.formats import eventfile
from duiyi.tournament.formats.csvfiles import format_players, parse_players, parse_results
from duiyi.tournament.formats.eventfile import load_event, save_event
from duiyi.tournament.formats.opengotha import from_opengotha, to_opengotha
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult, Source

GOTHA = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<Tournament dataVersion="201" gothaMinorVersion="2" gothaVersion="346">
<Players>
<Player agaId="" club="38Gr" country="FR" egfPin="" firstName="Denis" grade="8K" name="Becker"
 participating="11111" rank="8K" rating="1276" registeringStatus="FIN" smmsCorrection="0"/>
<Player agaId="" club="13Ma" country="FR" egfPin="123" firstName="Philippe" grade="1D"
 name="Guerre-Genton" participating="11111" rank="1D" rating="2064" registeringStatus="FIN"/>
<Player agaId="" club="84Av" country="FR" egfPin="" firstName="Louise" grade="20K"
 name="Le Febvre" participating="11111" rank="20K" rating="-400" registeringStatus="FIN"/>
</Players>
<Games>
<Game blackPlayer="BECKERDENIS" handicap="0" knownColor="true" result="RESULT_WHITEWINS"
 roundNumber="1" tableNumber="1" whitePlayer="GUERRE-GENTONPHILIPPE"/>
<Game blackPlayer="LEFEBVRELOUISE" handicap="0" knownColor="true"
 result="RESULT_BLACKWINS_BYDEF" roundNumber="2" tableNumber="1" whitePlayer="BECKERDENIS"/>
<Game blackPlayer="GUERRE-GENTONPHILIPPE" handicap="0" knownColor="true" result="RESULT_BOTHWIN"
 roundNumber="3" tableNumber="1" whitePlayer="LEFEBVRELOUISE"/>
</Games>
<ByePlayer>
<ByePlayer player="LEFEBVRELOUISE" roundNumber="1"/>
<ByePlayer player="GUERRE-GENTONPHILIPPE" roundNumber="2"/>
<ByePlayer player="BECKERDENIS" roundNumber="3"/>
</ByePlayer>
<TournamentParameterSet>
<GeneralParameterSet name="Frioul 2018" numberOfRounds="4" shortName="Frioul"/>
</TournamentParameterSet>
</Tournament>
"""


def test_players_csv() -> None:
    text = "name,rank,rating,club,email\nLi Wei,3d,2300,BJ,l@x\n\nWang,,,,\n"
    players = parse_players(text)
    assert [(p.name, p.rank, p.rating, p.club) for p in players] == [
        ("Li Wei", "3d", 2300, "BJ"),
        ("Wang", "", None, ""),
    ]
    assert players[0].extra == (("email", "l@x"),)
    assert parse_players(format_players(players))[1].name == "Wang"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rank\n3d\n", "needs a 'name' column"),
        ("name,rating\nLi,abc\n", "line 2: rating"),
        ("", "empty"),
    ],
)
def test_bad_players_csv(text: str, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        parse_players(text)


def test_results_csv() -> None:
    rows = parse_results("round,board,result\n1,1,1-0\n1,2,forfeit-white\n")
    assert [(r.round, r.board, r.result) for r in rows] == [
        (1, 1, GameResult.BLACK_WINS),
        (1, 2, GameResult.FORFEIT_WHITE),
    ]
    with pytest.raises(TournamentError, match="line 2"):
        parse_results("round,board,result\n1,1,2-0\n")
    with pytest.raises(TournamentError, match="missing board"):
        parse_results("round,result\n1,1-0\n")


def test_opengotha_import() -> None:
    event, warnings = from_opengotha(GOTHA)
    assert event.name == "Frioul 2018" and event.rounds == 4
    assert [p.name for p in event.players] == [
        "Becker Denis",
        "Guerre-Genton Philippe",
        "Le Febvre Louise",
    ]
    assert [p.rank for p in event.players] == ["8k", "1d", "20k"]
    assert event.players[2].rating == -400
    r1, r2, r3 = event.history
    assert (r1.games[0].black, r1.games[0].white, r1.games[0].result) == (
        1,
        2,
        GameResult.WHITE_WINS,
    )
    assert r1.byes == (3,)
    assert r2.games[0].result is GameResult.FORFEIT_WHITE  # Black (3) wins by default
    assert r3.games[0].result is None  # RESULT_BOTHWIN has no meaning here
    assert any("RESULT_BOTHWIN" in w for w in warnings)


def test_opengotha_round_trip() -> None:
    e = add_players(
        new_event("Club", "go", "swiss", 3),
        [
            Player(0, n, r, rt)
            for n, r, rt in (("Li", "3d", 2300), ("Wu", "1k", None), ("Ma", "", 1500))
        ],
    )
    e = simulate(e, 3, random.Random(5))
    back, warnings = from_opengotha(to_opengotha(e))
    assert warnings == []
    # OpenGotha needs a rank and a rating: an unknown rank goes out as 30K with an empty grade,
    # an unknown rating as the rank's rating marked ratingOrigin="INI"; both come back unknown
    assert [(p.name, p.rank, p.rating) for p in back.players] == [
        ("Li", "3d", 2300),
        ("Wu", "1k", None),
        ("Ma", "", 1500),
    ]
    # the boards come back with their results, recorded as imported
    assert {g.source for r in back.history for g in r.games} == {Source.IMPORT}
    assert [
        (r.number, [replace(g, source=None) for g in r.games], r.byes) for r in back.history
    ] == [(r.number, list(r.games), r.byes) for r in e.history]
    again, _ = from_opengotha(to_opengotha(back))
    assert again.history == back.history and again.players == back.players


@pytest.mark.parametrize(
    "text",
    ["<Tournament><Players>", "<Other/>",
     '<Tournament><Players><Player name="A" firstName="B"/><Player name="C" firstName="D"/>'
     '</Players><Games><Game roundNumber="1" tableNumber="1" blackPlayer="AB" whitePlayer="CD"/>'
     '<Game roundNumber="1" tableNumber="2" blackPlayer="AB" whitePlayer="CD"/>'
     "</Games></Tournament>"],
)  # fmt: skip
def test_bad_opengotha_files(text: str) -> None:
    with pytest.raises(EventFileError):
        from_opengotha(text)


def test_a_game_naming_nobody_is_skipped_with_a_warning() -> None:
    # OpenGotha skips such a game when it reads the file; duiyi does the same and says so
    text = (
        '<Tournament dataVersion="201"><Players><Player name="A" firstName="B"/></Players>'
        '<Games><Game roundNumber="1" tableNumber="1" blackPlayer="AB" whitePlayer="Y"/>'
        "</Games></Tournament>"
    )
    event, warnings = from_opengotha(text)
    assert event.history == () and any("unknown player 'Y'" in w for w in warnings)


def test_event_file_round_trip(tmp_path: Path) -> None:
    e = simulate(
        add_players(new_event("C", "gomoku", "swiss", 4), [Player(0, f"P{i}") for i in range(5)]),
        2,
        random.Random(1),
    )
    e = withdraw(e, 2)
    path = tmp_path / "c.json"
    save_event(e, path)
    assert load_event(path) == e


def test_event_file_errors(tmp_path: Path) -> None:
    with pytest.raises(EventFileError, match="no such event file"):
        load_event(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(EventFileError, match="not JSON"):
        load_event(bad)
    bad.write_text('{"v": 99}', encoding="utf-8")
    with pytest.raises(EventFileError, match="version"):
        load_event(bad)


def test_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the event file is never half-written: a failure before os.replace keeps the old file
    path = tmp_path / "e.json"
    original = new_event("Old", "go", "swiss", 3)
    save_event(original, path)
    before = path.read_bytes()

    def boom(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(eventfile.os, "fsync", boom)
    with pytest.raises(EventFileError, match="No space left"):
        save_event(new_event("New", "go", "swiss", 3), path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["e.json"]


def test_save_uses_replace_from_the_same_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        calls.append((str(src), str(dst)))
        real(src, dst)

    monkeypatch.setattr(eventfile.os, "replace", spy)
    save_event(new_event("X", "go", "swiss", 1), tmp_path / "x.json")
    assert len(calls) == 1
    src, dst = calls[0]
    assert Path(src).parent == tmp_path and dst == str(tmp_path / "x.json")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["history"][0]["games"][0].update(black=99), "unknown player 99"),
        (lambda d: d["history"][0]["games"][0].update(white=d["history"][0]["games"][1]["black"]),
         "twice in round 1"),
        (lambda d: d["history"][0].update(round=5), "numbered 1, 2, 3"),
    ],
)  # fmt: skip
def test_hand_edited_event_files_are_refused(tmp_path: Path, edit, message: str) -> None:
    import json

    e = simulate(
        add_players(new_event("C", "go", "swiss", 2), [Player(0, f"P{i}") for i in range(4)]),
        1,
        random.Random(1),
    )
    data = e.to_json()
    edit(data)
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TournamentError, match=message):
        load_event(path)
