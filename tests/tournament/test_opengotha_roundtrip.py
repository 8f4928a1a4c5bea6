"""OpenGotha XML: what OpenGotha can hold comes back unchanged; what it cannot is warned about.

Game rules are not at stake here except where noted: handicaps (the Chinese rules know none,
Go §10), teams (分台定人制, Go §25.2), withdrawals (Go §28), warnings (Go §24).
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from duiyi.tournament.event import (
    add_players,
    draw_lots,
    enter_result,
    new_event,
    pair_next_round,
    simulate,
    team_standings,
    withdraw,
)
from duiyi.tournament.formats.opengotha import export_opengotha, from_opengotha
from duiyi.tournament.model import Player
from duiyi.tournament.results import GameResult


def test_unknown_rank_and_rating_survive_the_round_trip() -> None:
    e = add_players(
        new_event("Club", "go", "swiss", 2),
        [Player(0, "Li", "3d", 2300), Player(0, "Wu", "1k"), Player(0, "Ma", "", 1500),
         Player(0, "Xu")],
    )  # fmt: skip
    text, warnings = export_opengotha(e)
    root = ET.fromstring(text)
    xu = root.findall("./Players/Player")[3]
    # OpenGotha needs both: the lowest rank and the rank's EGF rating, marked as derived
    assert (xu.get("rank"), xu.get("grade"), xu.get("rating"), xu.get("ratingOrigin")) == (
        "30K", "", "-900", "INI",
    )  # fmt: skip
    assert root.findall("./Players/Player")[1].get("rating") == "2000"  # 1k
    back, _ = from_opengotha(text)
    assert [(p.rank, p.rating) for p in back.players] == [(p.rank, p.rating) for p in e.players]
    # Go §27.1(2)A: the Chinese Swiss ranks by total score, which OpenGotha does not know
    assert warnings == [
        "OpenGotha has no criterion for total-score (Go §27.1(2)A): it ranks this event by "
        "NBW, SOSW, SOSOSW"
    ]


def test_the_file_has_the_parameter_sets_opengotha_needs() -> None:
    # OpenGotha reads these sets unconditionally; their attributes may be left to its defaults
    root = ET.fromstring(export_opengotha(new_event("x", "go", "swiss", 1))[0])
    for name in ("GeneralParameterSet", "HandicapParameterSet", "PlacementParameterSet",
                 "PairingParameterSet"):  # fmt: skip
        assert root.find(f"./TournamentParameterSet/{name}") is not None


def test_handicaps_are_kept_with_a_warning() -> None:
    # Go §10: the Chinese rules have no handicap games; the handicap is data, scored as usual
    e = add_players(new_event("H", "go", "swiss", 1), [Player(0, n) for n in "AB"])
    e, _ = pair_next_round(e)
    text, _ = export_opengotha(e)
    text = text.replace('handicap="0"', 'handicap="3"')
    back, warnings = from_opengotha(text)
    assert back.history[0].games[0].handicap == 3
    assert any("handicap" in w for w in warnings)
    again, _ = export_opengotha(back)
    assert 'handicap="3"' in again
    assert from_opengotha(again)[0].history == back.history
    assert back.to_json()["history"][0]["games"][0]["handicap"] == 3


def test_withdrawals_go_out_as_participation_and_come_back() -> None:
    # Go §28.3: a Swiss player who leaves keeps his results and is not paired again
    e = add_players(new_event("W", "go", "swiss", 4), [Player(0, f"P{i}") for i in range(6)])
    e = simulate(e, 2, random.Random(1))
    e = withdraw(e, 3)
    text, _ = export_opengotha(e)
    flags = ET.fromstring(text).findall("./Players/Player")[2].get("participating", "")
    assert flags.startswith("1100") and set(flags[2:]) == {"0"}
    back, warnings = from_opengotha(text)
    assert back.withdrawals == e.withdrawals and warnings == []


def test_teams_and_their_matches_round_trip() -> None:
    # Go §25.2 分台定人制: members in board order; the matches are read off the games
    rows = [(f"{t}{i}", t) for t in ("Alpha", "Beta", "Gamma", "Delta") for i in range(1, 4)]
    e = add_players(
        new_event("T", "go", "round-robin", 1),
        [Player(0, n, extra=(("team", t),)) for n, t in rows],
    )
    e = simulate(e, 2, random.Random(3))
    text, warnings = export_opengotha(e)
    assert warnings == []
    root = ET.fromstring(text)
    assert len(root.findall("./Teams/Team")) == 4
    assert root.find("./TeamTournamentParameterSet/TeamGeneralParameterSet") is not None
    assert root.find("./TeamTournamentParameterSet/TeamPlacementParameterSet") is not None
    back, more = from_opengotha(text, system="round-robin")
    assert back.teams == e.teams
    assert [r.matches for r in back.history] == [r.matches for r in e.history]
    assert [(s.number, s.values) for s in team_standings(back)] == [
        (s.number, s.values) for s in team_standings(e)
    ]
    assert not more


def test_a_changing_lineup_is_reported() -> None:
    rows = [("A1", "A"), ("A2", "A"), ("B1", "B"), ("B2", "B")]
    e = add_players(
        new_event("T", "go", "swiss", 3),
        [Player(0, n, extra=(("team", t),)) for n, t in rows],
    )
    text, _ = export_opengotha(e)
    swapped = text.replace(
        # a one-word name gets the first name "-" (OpenGotha needs one): keys A1-, A2-
        '<Board roundNumber="2" boardNumber="1" player="A1-" />',
        '<Board roundNumber="2" boardNumber="1" player="A2-" />',
    ).replace(
        '<Board roundNumber="2" boardNumber="2" player="A2-" />',
        '<Board roundNumber="2" boardNumber="2" player="A1-" />',
    )
    assert swapped != text
    back, warnings = from_opengotha(swapped)
    assert any("changes its lineup" in w for w in warnings)
    assert back.teams[0].members == (1, 2)  # round 1's board order is kept


def test_mcmahon_bar_and_floor_round_trip() -> None:
    e = new_event("M", "go", "mcmahon", 3, {"bar": "3d", "floor": "15k"})
    text, warnings = export_opengotha(e)
    general = ET.fromstring(text).find("./TournamentParameterSet/GeneralParameterSet")
    assert general is not None
    assert (general.get("genMMBar"), general.get("genMMFloor")) == ("3D", "15K")
    back, _ = from_opengotha(text, system="mcmahon")
    assert back.options.to_json() == {"bar": "3d", "floor": "15k"} and warnings == []


def test_what_opengotha_cannot_hold_is_warned_about() -> None:
    e = add_players(
        new_event("x", "go", "round-robin", 1, {"tiebreaks": ["sb"]}),
        [Player(0, n) for n in "ABCD"],
    )
    e = draw_lots(e, random.Random(1))
    e, _ = pair_next_round(e)
    e = enter_result(e, 1, 1, GameResult.BLACK_WINS, white_warnings=1)  # Go §24
    _, warnings = export_opengotha(e)
    text = " | ".join(warnings)
    assert "warnings (Go §24)" in text and "lots" in text and "tiebreaks" in text
