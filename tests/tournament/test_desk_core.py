"""Issue 20's core pieces: participation per round, late entries, the withdrawal's undo,
pairing by hand with its warnings, and "after round N" counting only complete rounds."""

from __future__ import annotations

import random

import pytest

from duiyi.errors import TournamentError
from duiyi.tournament import entries, flags, hand, participation
from duiyi.tournament import event as ops
from duiyi.tournament.formats import wallchart
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, ResultSheet, Source


def swiss(n: int = 6, rounds: int = 4) -> Event:
    players = [Player(0, f"P{i}") for i in range(1, n + 1)]
    return ops.add_players(ops.new_event("t", "go", "swiss", rounds), players)


def finish(e: Event, number: int) -> Event:
    for g in e.round(number).games:
        e = entries.record_result(
            e, number, g.board, ResultSheet(GameResult.BLACK_WINS), source=Source.DIRECTOR
        ).event
    return e


def test_an_absent_player_is_not_paired_and_scores_nothing() -> None:
    # Swiss (appendix 五) pairs who is there; an absent round is no game, no bye, no points
    e = participation.set_present(swiss(), 3, 1, False)
    e, _ = ops.pair_next_round(e, random.Random(1))
    playing = {p for g in e.round(1).games for p in g.players} | set(e.round(1).byes)
    assert 3 not in playing and len(playing) == 5
    assert 3 not in e.round(1).byes
    e = finish(e, 1)
    assert ops.table(e).points(3) == 0
    # present again for round 2: paired
    e, _ = ops.pair_next_round(e, random.Random(2))
    assert 3 in {p for g in e.round(2).games for p in g.players} | set(e.round(2).byes)
    # a paired round is not changed by a flag
    with pytest.raises(TournamentError, match="already paired"):
        participation.set_present(e, 4, 2, False)


def test_absences_are_for_swiss_type_systems_only() -> None:
    rr = ops.add_players(
        ops.new_event("t", "go", "round-robin", None), [Player(0, n) for n in "ABCD"]
    )
    with pytest.raises(TournamentError, match="Go §28"):
        participation.set_present(rr, 1, 1, False)


def test_a_late_entry_is_absent_from_the_rounds_paired_before() -> None:
    e, _ = ops.pair_next_round(swiss(), random.Random(1))
    e = ops.add_players(finish(e, 1), [Player(0, "Late")])
    assert flags.flags_of(e, 7) == "0111"
    assert ops.table(e).points(7) == 0
    e, _ = ops.pair_next_round(e, random.Random(1))
    assert 7 in {p for g in e.round(2).games for p in g.players} | set(e.round(2).byes)


def test_a_withdrawal_is_undone_until_the_next_pairing() -> None:
    # Go §28.3: the withdrawal forfeits the game in play; undone, the board has no result again
    e, _ = ops.pair_next_round(swiss(), random.Random(1))
    g = e.round(1).games[0]
    out = entries.withdraw(e, g.black, by="desk")
    assert out.round(1).game(g.board).result is GameResult.FORFEIT_BLACK
    back = participation.undo_withdrawal(out, g.black, by="desk")
    assert back.withdrawals == () and back.round(1).game(g.board).result is None
    assert back.round(1).game(g.board).trail[-1].note.startswith("withdrawal of player")
    # once the next round is paired the withdrawal stands
    out = finish(out, 1)
    out, _ = ops.pair_next_round(out, random.Random(2))
    with pytest.raises(TournamentError, match="stands"):
        participation.undo_withdrawal(out, g.black)


def test_pairing_by_hand_warns_of_a_rematch_colours_and_score_groups() -> None:
    e, _ = ops.pair_next_round(swiss(4, 3), random.Random(1))
    (b1, w1), (b2, w2) = [(g.black, g.white) for g in e.round(1).games]
    e = finish(e, 1)  # the Blacks won: b1, b2 have 2 points
    e, _ = ops.pair_next_round(e, random.Random(2))
    # a rematch of round 1's board 1, Black again for both Blacks of round 1
    notes = hand.check(e, 2, [(b1, w1), (b2, w2)], [])
    kinds = {n.kind for n in notes}
    assert "rematch" in kinds  # appendix 五: no rematch
    # winners against losers: a score-group jump (2 points against 0)
    notes = hand.check(e, 2, [(b1, w2), (b2, w1)], [])
    assert any(n.kind == "score" for n in notes)
    # a player left out or twice is refused
    with pytest.raises(TournamentError, match="twice"):
        hand.check(e, 2, [(b1, b1), (b2, w2)], [])
    with pytest.raises(TournamentError, match="left out"):
        hand.check(e, 2, [(b1, w1)], [])
    out, _ = hand.repair(e, 2, [(w1, b2), (w2, b1)], [])
    assert [(g.black, g.white) for g in out.round(2).games] == [(w1, b2), (w2, b1)]
    # not after a result
    started = entries.record_result(
        out, 2, 1, ResultSheet(GameResult.DRAW), source=Source.DIRECTOR
    ).event
    with pytest.raises(TournamentError, match="before its games start"):
        hand.check(started, 2, [(w1, b2), (w2, b1)], [])


def test_hand_pairing_warnings_keep_their_numbers() -> None:
    # issue 32: a page says a warning in its own words from the numbers the warning carries
    e, _ = ops.pair_next_round(swiss(4, 3), random.Random(1))
    (b1, w1), (b2, w2) = [(g.black, g.white) for g in e.round(1).games]
    e, _ = ops.pair_next_round(finish(e, 1), random.Random(2))
    notes = {(n.kind, n.players): n for n in hand.check(e, 2, [(b1, b2), (w2, w1)], [])}
    # Go §27.1: a win is 2 points; the two winners meet here (one score group: no warning),
    # so do the losers
    assert ("score", (b1, b2)) not in notes
    notes = {(n.kind, n.players): n for n in hand.check(e, 2, [(b1, w2), (b2, w1)], [])}
    assert notes[("score", (b1, w2))].detail == "2 / 0"
    assert notes[("colour", (b1,))].detail == "B2 W0 (BB)"  # Black twice
    assert notes[("score", (b1, w2))].to_json()["detail"] == "2 / 0"


def test_after_round_n_counts_only_rounds_with_every_result() -> None:
    e, _ = ops.pair_next_round(swiss(), random.Random(1))
    e = finish(e, 1)
    e, _ = ops.pair_next_round(e, random.Random(2))  # round 2 paired, nothing entered
    assert "standings after round 1" in wallchart.standings_text(e)
    assert "standings after round 1" in wallchart.standings_html(e)
