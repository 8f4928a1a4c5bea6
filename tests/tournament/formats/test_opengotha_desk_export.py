"""Events made at duiyi's desk, exported to OpenGotha, read by OpenGotha itself with every
parameter as the director set it (issue 23): names split into surname and first name by the
documented rule (``duiyi.tournament.formats.opengotha.name_parts``) or the director's own
split, the time system and its minutes, komi, handicap, McMahon bar and floor, rounds; byes,
absences (results by default), a withdrawal. OpenGotha's reading is the oracle
(``OGBatch.java``'s ``params``: the parameter sets, players, games and byes as OpenGotha holds
them after reading the file)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.tournament.formats.oracle import OpenGotha

from duiyi.tournament import event as ops
from duiyi.tournament.formats.egd import to_egd
from duiyi.tournament.formats.opengotha import export_opengotha, from_opengotha, player_key
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult

# OpenGotha's codes (GeneralParameterSet.GEN_GP_CTS_*, Game.RESULT_*)
SUDDEN_DEATH, STANDARD, CANADIAN, FISCHER = "1", "2", "3", "4"
OG_RESULT = {
    GameResult.BLACK_WINS: 18, GameResult.WHITE_WINS: 17, GameResult.DRAW: 19,
    GameResult.FORFEIT_BLACK: 273, GameResult.FORFEIT_WHITE: 274,
    GameResult.DOUBLE_FORFEIT: 288, GameResult.BOTH_LOSE: 32,
}  # fmt: skip

NAMES = [
    # (name as entered at the desk, director's split or None, OpenGotha surname, first name)
    ("Anna Schmidt", None, "Schmidt", "Anna"),
    ("李伟", None, "李", "伟"),
    ("欧阳修文", None, "欧阳", "修文"),
    ("LI Wei", None, "LI", "Wei"),
    ("Jean-Pierre van Dijk", ("van Dijk", "Jean-Pierre"), "van Dijk", "Jean-Pierre"),
    ("Wang", None, "Wang", "-"),
    ("Wu Wei", None, "Wu", "Wei"),  # pinyin, surname first
]


def _players(ranks: list[str]) -> list[Player]:
    out = []
    for (name, split, _, _), rank in zip(NAMES, ranks, strict=True):
        extra = (("surname", split[0]), ("firstName", split[1])) if split else ()
        out.append(Player(0, name, rank, extra=extra))
    return out


def _desk_event(system: str, options: dict[str, Any]) -> Event:
    """Seven players (a bye every round), three rounds: in round 1 a player absent (his game
    lost by default, Go §22), a withdrawal after round 2 (Go §28), round 3 played without
    him."""
    e = ops.new_event("Desk Cup", "go", system, 3, options)
    e = ops.add_players(e, _players(["3d", "1d", "2k", "5k", "1k", "10k", "4d"]))
    rng = random.Random(23)
    e, _ = ops.pair_next_round(e, rng)
    first = e.round(1).games[0]
    e = ops.enter_result(e, 1, first.board, GameResult.FORFEIT_BLACK)  # Black did not come
    e = ops.simulate(e, 2, rng)  # the rest of round 1, round 2
    e = ops.withdraw(e, e.round(2).games[-1].white)
    return ops.simulate(e, 1, rng)


CASES = {
    "swiss-chinese-byoyomi-30min": (
        "swiss",
        {},
        {"time_control": {"system": "chinese-byoyomi", "base": 1800, "reserved_minutes": 1},
         "rules": "chinese"},
        {"basicTime": "30", "complementaryTimeSystem": STANDARD, "stdByoYomiTime": "60",
         "komi": "7.5", "egfClass": "C", "egfAdjustedTime": str(1800 + 45 * 60)},
    ),
    "mcmahon-fischer": (
        "mcmahon",
        {"bar": "3d", "floor": "15k"},
        {"time_control": {"system": "fischer", "base": 2700, "increment": 20},
         "rules": "japanese"},
        {"basicTime": "45", "complementaryTimeSystem": FISCHER, "fischerTime": "20",
         "komi": "6.5", "genMMBar": "2", "genMMFloor": "-15", "egfClass": "A"},
    ),
    "swiss-canadian": (
        "swiss",
        {},
        {"time_control": {"system": "moves-per-period", "base": 3600, "moves": 15,
                          "period": 300}},
        {"basicTime": "60", "complementaryTimeSystem": CANADIAN, "canByoYomiTime": "300",
         "nbMovesCanTime": "15", "egfClass": "A"},
    ),
    "mcmahon-sudden-death-handicap": (
        "mcmahon",
        {"bar": "1d", "floor": "20k"},
        {"time_control": {"system": "absolute", "base": 3600}, "handicap": 2},
        {"basicTime": "60", "complementaryTimeSystem": SUDDEN_DEATH, "genMMBar": "0",
         "genMMFloor": "-20", "hdCeiling": "2", "hdCorrection": "0", "egfClass": "B"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_opengotha_reads_a_desk_event_as_the_director_set_it(
    case: str, opengotha: OpenGotha
) -> None:
    system, options, online, expected = CASES[case]
    e = _desk_event(system, options)
    text, _ = export_opengotha(e, online)
    og = opengotha.params(text.encode("utf-8"))
    # the parameters, as OpenGotha holds them after reading the file
    assert og["name"] == "Desk Cup" and og["numberOfRounds"] == "3"
    assert {k: og[k] for k in expected} == expected
    assert og["hdCeiling"] == expected.get("hdCeiling", "0")
    # the players: surname and first name by the rule or the director's split; ranks
    players = {row[0]: row for row in og["player"]}  # type: ignore[union-attr]
    assert len(players) == len(NAMES)
    for (name, _, surname, first), p in zip(NAMES, e.players, strict=True):
        row = players[player_key(surname, first)]
        assert (row[1], row[2]) == (surname, first), name
        assert row[3] == p.rank.upper()
    # the withdrawn player takes part in no round after leaving
    (left,) = e.withdrawals
    gone = players[player_key(*_split(e.player(left.player).name))]
    assert gone[7] == "1" * left.after_round + "0" * (3 - left.after_round)
    # every game with its result (the absent player's loss by default), every bye
    keys = {p.number: player_key(*_split(p.name)) for p in e.players}
    games = sorted(
        [str(r.number), str(g.board), keys[g.black], keys[g.white], str(OG_RESULT[g.result]),
         str(g.handicap)]
        for r in e.history for g in r.games
    )  # fmt: skip
    assert sorted(og["game"]) == games  # type: ignore[arg-type]
    assert sorted(og["bye"]) == sorted(  # type: ignore[arg-type]
        [str(r.number), keys[b]] for r in e.history for b in r.byes
    )
    # and the EGD file says what OpenGotha's would: class, adjusted time, komi, handicap
    head = [x for x in to_egd(e, online=online)[0].splitlines() if x.startswith("; ")][:8]
    og_head = opengotha.h9(text.encode("utf-8")).decode("iso-8859-15").splitlines()[:8]
    assert [x for x in head if x[2:4] in ("CL", "TM", "CM", "KM", "HA")] == [
        x for x in og_head if x[2:4] in ("CL", "TM", "CM", "KM", "HA")
    ]
    assert f"; CL[{og['egfClass']}]" in head


def _split(name: str) -> tuple[str, str]:
    return next((s, f) for n, _, s, f in NAMES if n == name)


def test_a_desk_event_comes_back_from_its_opengotha_file() -> None:
    # the director's split survives duiyi's own round trip; the rule's split is not stored
    e = _desk_event("swiss", {})
    back, _ = from_opengotha(export_opengotha(e)[0])
    assert [p.name for p in back.players] == [p.name for p in e.players]
    assert back.players == e.players

    def games(ev: Event) -> list[tuple[Any, ...]]:  # the results' source is the import now
        return [(r.number, g.board, g.black, g.white, g.result, g.handicap, r.byes)
                for r in ev.history for g in r.games]  # fmt: skip

    assert games(back) == games(e) and back.withdrawals == e.withdrawals


def test_anna_schmidt_is_not_surname_anna(opengotha: OpenGotha) -> None:
    # the desk-made event of the issue: "Anna Schmidt" had surname "Anna", 30 minutes became 60
    e = ops.add_players(ops.new_event("Club", "go", "swiss", 2),
                        [Player(0, "Anna Schmidt", "2k"), Player(0, "Bob Lee", "3k")])  # fmt: skip
    online = {"time_control": {"system": "absolute", "base": 1800}}
    og = opengotha.params(export_opengotha(e, online)[0].encode("utf-8"))
    names = sorted((r[1], r[2]) for r in og["player"])  # type: ignore[union-attr]
    assert names == [("Lee", "Bob"), ("Schmidt", "Anna")]
    assert og["basicTime"] == "30" and og["complementaryTimeSystem"] == SUDDEN_DEATH
