"""OpenGotha files read the way OpenGotha 3.x reads them, and written so that it reads them back
(the oracle tests check the same over the real files of tests/data/opengotha; these pin each rule)."""

from __future__ import annotations

from fractions import Fraction

from duiyi.tournament.event import add_players, enter_result, new_event, pair_next_round
from duiyi.tournament.formats.opengotha import export_opengotha, from_opengotha
from duiyi.tournament.model import Player
from duiyi.tournament.placement import player_scores, rules_of
from duiyi.tournament.results import GameResult


def _file(
    players: str, games: str = "", byes: str = "", version: str = ' dataVersion="201"'
) -> str:
    return (
        f"<Tournament{version}><Players>{players}</Players><Games>{games}</Games>"
        f"<ByePlayers>{byes}</ByePlayers><TournamentParameterSet>"
        '<GeneralParameterSet numberOfRounds="2" genMMS2ValueBye="2" genNBW2ValueBye="2"/>'
        "</TournamentParameterSet></Tournament>"
    )


P = '<Player name="{}" firstName="{}" rank="1D" rating="2100"/>'


def test_a_key_listed_twice_keeps_the_first_player() -> None:
    event, warnings = from_opengotha(_file(P.format("Li", "Wei") + P.format("LI", "WEI")))
    assert len(event.players) == 1 and any("listed twice" in w for w in warnings)


def test_old_files_find_players_by_their_canonical_name() -> None:
    # no dataVersion: OpenGotha reads it as version 200, with the old canonical names
    # (letters A-Z only) and ratings 2050 higher
    players = P.format("Lee-Sung", "Ha") + P.format("Éric", "Dubois")
    games = (
        '<Game roundNumber="1" tableNumber="1" blackPlayer="EricDUBOIS" whitePlayer="LEESUNGHA"'
        ' result="RESULT_WHITEWINS"/>'
        '<Game roundNumber="2" tableNumber="1" blackPlayer="ERICDUBOIS" whitePlayer="LEE-SUNGHA"'
        ' result="RESULT_WHITEWINS"/>'
    )
    event, warnings = from_opengotha(_file(players, games, version=""))
    # "EricDUBOIS" upper-cased is the canonical ERICDUBOIS, "LEESUNGHA" is Lee-Sung Ha's
    assert event.history[0].games[0].white == 1 and event.history[0].games[0].black == 2
    assert len(event.history) == 1  # "LEE-SUNGHA": a hyphen is no letter, the game is skipped
    assert any("LEE-SUNGHA" in w for w in warnings)
    assert event.players[0].rating == 2949  # 2100 + 2050, at OpenGotha's ceiling


def test_one_bye_per_round_the_last_listed() -> None:
    byes = '<ByePlayer player="AB" roundNumber="1"/><ByePlayer player="CD" roundNumber="1"/>'
    event, warnings = from_opengotha(_file(P.format("A", "B") + P.format("C", "D"), byes=byes))
    assert event.history[0].byes == (2,) and any("more than one bye" in w for w in warnings)


def test_equal_by_default_is_kept_and_scored_half_each() -> None:
    games = (
        '<Game roundNumber="1" tableNumber="1" blackPlayer="AB" whitePlayer="CD"'
        ' result="RESULT_EQUAL_BYDEF"/>'
    )
    event, warnings = from_opengotha(_file(P.format("A", "B") + P.format("C", "D"), games))
    assert event.history[0].games[0].result is GameResult.DRAW
    assert any("RESULT_EQUAL_BYDEF" in w for w in warnings)
    rules = rules_of(event)
    assert rules is not None
    assert player_scores(event, rules, 1)[1]["NBW"] == Fraction(1, 2)
    assert 'result="RESULT_EQUAL_BYDEF"' in export_opengotha(event)[0]
    # changed in duiyi: the kept code no longer applies
    changed = enter_result(event, 1, 1, GameResult.BLACK_WINS)
    assert 'result="RESULT_BLACKWINS"' in export_opengotha(changed)[0]


def test_unknown_colours_are_reported() -> None:
    games = (
        '<Game roundNumber="1" tableNumber="1" blackPlayer="AB" whitePlayer="CD"'
        ' knownColor="false" result="RESULT_BLACKWINS"/>'
    )
    _, warnings = from_opengotha(_file(P.format("A", "B") + P.format("C", "D"), games))
    assert any("knownColor=false" in w for w in warnings)


def test_no_result_is_never_written_as_a_draw_by_default() -> None:
    # 无胜负 scores nothing for either side; RESULT_EQUAL_BYDEF would give OpenGotha ½-½
    e = add_players(new_event("x", "go", "swiss", 1), [Player(0, "A B"), Player(0, "C D")])
    e, _ = pair_next_round(e)
    e = enter_result(e, 1, 1, GameResult.NO_RESULT)
    text, warnings = export_opengotha(e)
    assert "RESULT_EQUAL_BYDEF" not in text and 'result="RESULT_BOTHLOSE"' in text
    assert any("无胜负" in w for w in warnings)


def test_the_parameter_sets_are_complete() -> None:
    e = new_event("M", "go", "mcmahon", 3, {"bar": "3d", "floor": "15k"})
    text, _ = export_opengotha(e)
    for attr in ('genMMS2ValueBye="2"', 'genNBW2ValueBye="2"', 'genMMS2ValueAbsent="0"',
                 'genMMBar="3D"', 'genMMFloor="15K"', 'paiMaSeedSystem1=', 'hdCeiling=',
                 '<PlacementCriterion name="MMS" number="1"'):  # fmt: skip
        assert attr in text
