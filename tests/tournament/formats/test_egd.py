"""EGD results files (``.h9``) checked against the format's description (see
:mod:`duiyi.tournament.formats.egd` for the two sources): golden files written from real
OpenGotha events, a Chinese-rules event, the grammar and the symmetry of every entry."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest
from tests.datafiles import OPENGOTHA_FILES as DATA

from duiyi.errors import EventFileError
from duiyi.tournament.event import add_players, enter_result, new_event, pair_next_round, simulate
from duiyi.tournament.formats.egd import egd_players, from_egd, to_egd, validate_egd
from duiyi.tournament.formats.opengotha import from_opengotha
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


GOLDEN = Path(__file__).resolve().parents[2] / "data" / "egd"


@pytest.mark.parametrize("name", ["simplemm", "simpleswiss"])
def test_golden_files(name: str) -> None:
    golden = (GOLDEN / f"{name}.h9").read_text(encoding="utf-8")
    # the description: one line per player, the same number of result entries each, every
    # entry <place><+|-|=>[/<colour>[<h>]] naming a line, both players of a game agreeing
    assert validate_egd(golden) == []
    assert golden.isascii()
    event, _ = from_opengotha((DATA / f"{name}.xml").read_bytes())
    text, _ = to_egd(event, egf_class="B")
    assert text == golden


def test_every_shared_file_gives_a_well_formed_egd_file() -> None:
    for path in sorted(DATA.glob("*.xml")):
        event, _ = from_opengotha(path.read_bytes())
        text, _ = to_egd(event, egf_class="A")
        assert validate_egd(text) == [], path.name
        lines = [line for line in text.splitlines() if not line.startswith(";")]
        assert len(lines) == len(egd_players(event)), path.name


def test_the_header_tags() -> None:
    text = (GOLDEN / "simplemm.h9").read_text(encoding="utf-8")
    head = [line for line in text.splitlines() if line.startswith("; ") and "[" in line]
    assert head[:4] == [
        "; CL[B]",
        "; EV[SimpleMM]",
        "; PC[,Marseillebb]",
        "; DT[2023-10-31,2023-10-31]",
    ]
    # handicap games were played with a reduction of 1 (OpenGotha's hdCorrection)
    assert "; HA[h1]" in head and "; KM[7.5]" in head


def test_a_chinese_event_byes_forfeits_and_colours() -> None:
    # Go §27.1: a bye scores as a win (DECISIONS: Tournaments) -> 0+; a forfeit is no rated game
    e = add_players(new_event("Club", "go", "swiss", 2),
                    [Player(0, n, r) for n, r in (("Li Wei", "3d"), ("Wang Fang", "1d"),
                                                  ("Zhao Lei", "2k"))])  # fmt: skip
    e, _ = pair_next_round(e, random.Random(1))
    board = e.round(1).games[0]
    e = enter_result(e, 1, board.board, GameResult.FORFEIT_BLACK)
    text, warnings = to_egd(e)
    assert validate_egd(text) == []
    lines = [line.split() for line in text.splitlines() if not line.startswith(";")]
    order = egd_players(e)
    first = {n: lines[i][-2] for i, n in enumerate(order)}  # round 1 (round 2 not paired: 0-)
    assert all(line[-1] == "0-" for line in lines)
    bye = e.round(1).byes[0]
    assert first[bye] == "0+"
    # a result by default is marked "!" (OpenGotha's mark of a game not to rate)
    black, white = order.index(board.black) + 1, order.index(board.white) + 1
    assert first[board.white] == f"{black}+!w0" and first[board.black] == f"{white}-!b0"
    assert any("by default" in w for w in warnings)
    # no clock set: OpenGotha's defaults (60 min + 30 s byo-yomi) make class A
    assert text.startswith("; CL[A]\n")
    dropped, _ = to_egd(e, keep_by_default=False)  # OpenGotha's "No": free rounds 0= for both
    lines = [line.split() for line in dropped.splitlines() if not line.startswith(";")]
    assert lines[order.index(board.white)][-2] == "0=" == lines[order.index(board.black)][-2]


def test_import_reads_players_games_and_free_wins() -> None:
    event, _ = from_opengotha((DATA / "simpleswiss.xml").read_bytes())
    back, warnings = from_egd((GOLDEN / "simpleswiss.h9").read_text(encoding="utf-8"))
    assert back.name == event.name
    assert back.current_round == event.current_round
    # the file is ASCII: accents are folded (Véronique -> Veronique); the file is in
    # OpenGotha's short format (no colours): each game as its two players and its winner
    names = {p.number: _fold(p.name) for p in event.players}
    again = {p.number: p.name for p in back.players}

    def games(e: Event, name: dict[int, str]) -> list[tuple[int, tuple[str, ...], str]]:
        out = []
        for r in e.history:
            for g in r.games:
                won = {"1-0": name[g.black], "0-1": name[g.white]}.get(str(g.result.value), "=")
                out.append((r.number, tuple(sorted((name[g.black], name[g.white]))), won))
        return sorted(out)

    assert len(back.players) == len(egd_players(event))
    assert games(back, again) == games(event, names)
    assert any("no ratings" in w for w in warnings)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("1 A B 1d XX xxxx 2+/b0\n2 C D 1k XX xxxx 1=/w0\n", "but line 2 has"),
        ("1 A B 1d XX xxxx 2+/b0\n2 C D 1k XX xxxx 1-/b0\n", "one colour"),
        ("1 A B 1d XX xxxx 2+/b0 0+\n2 C D 1k XX xxxx 1-/w0\n", "different numbers"),
        ("1 A B 1d XX xxxx 3+/b0\n2 C D 1k XX xxxx 0-\n", "has no line"),
    ],
)
def test_the_validator_finds_broken_files(text: str, problem: str) -> None:
    assert any(problem in p for p in validate_egd(text))
    with pytest.raises(EventFileError):
        from_egd(text)


def test_simulated_mcmahon_round_trips_through_egd() -> None:
    e = add_players(new_event("M", "go", "mcmahon", 4, {"bar": "2d", "floor": "10k"}),
                    [Player(0, f"P{i} X", f"{i}k") for i in range(1, 8)])  # fmt: skip
    e = simulate(e, 4, random.Random(7))
    text, _ = to_egd(e, egf_class="C")
    assert validate_egd(text) == []
    back, _ = from_egd(text)
    assert sum(len(r.games) for r in back.history) == sum(len(r.games) for r in e.history)
    assert sum(len(r.byes) for r in back.history) == sum(len(r.byes) for r in e.history)


def test_import_reads_what_opengotha_and_older_duiyi_files_hold() -> None:
    # blank places (tied lines), a rank run into a 31-character name (older duiyi files), a
    # result by default (!), both players losing (-/-), a game without a result yet (?), a
    # criterion written 12? (OpenGotha's 12½ in Latin-9), Latin-9 letters
    text = (
        "; EV[Cup]\n"
        "   1 Dupont Loïc                      2D FR Pari   3  12?    2+/b0    3+!w0    4?/b0\n"
        "     Jimenez-Rodriguez_Palacios Itze16K MX xxxx   3  11     1-/w0    4-/b0    0+   \n"
        "   3 Martin Paul                      1K FR xxxx   2  10     4-/b0    1-!b0    0-   \n"
        "   4 Durand Eve                       1K FR xxxx   1   9     3+/w0    2-/w0    1?/w0\n"
    )
    assert validate_egd(text) == []
    event, warnings = from_egd(text)
    names = [p.name for p in event.players]
    assert names == ["Dupont Loïc", "Jimenez-Rodriguez Palacios Itze", "Martin Paul",
                     "Durand Eve"]  # fmt: skip
    assert event.player(2).rank == "16k"
    results = {(r.number, g.black, g.white): g.result for r in event.history for g in r.games}
    assert results[(1, 1, 2)] is GameResult.BLACK_WINS
    assert results[(2, 3, 1)] is GameResult.FORFEIT_BLACK  # 3 lost by default with Black
    assert results[(2, 2, 4)] is GameResult.BOTH_LOSE
    assert results[(3, 1, 4)] is None
    assert event.round(3).byes == (2,)
    assert any("without a result yet" in w for w in warnings)
