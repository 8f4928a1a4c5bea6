"""One result record per board (issue 10, failures 1 and 4): the source and the audit trail of
every result, conflicts kept for the director, confirmation once the next round is paired,
and the referee's penalties in the standings (Gomoku §2.20(3), §2.20(4); Go §28, Gomoku §18.5)."""

from __future__ import annotations

import random

import pytest

from duiyi import Color
from duiyi.errors import TournamentError
from duiyi.tournament.entries import record_result, resolve_conflict
from duiyi.tournament.event import (
    add_players,
    event_standings,
    new_event,
    pair_next_round,
    table,
    withdrawal_effects,
)
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult, ResultSheet, SideResult, Source
from duiyi.tournament.withdrawal import Effect

BLACK, WHITE = Color.BLACK, Color.WHITE


def _swiss(game: str = "go", n: int = 4, rounds: int = 3) -> Event:
    e = add_players(new_event("t", game, "swiss", rounds), [Player(0, f"P{i}") for i in range(n)])
    e, _ = pair_next_round(e, random.Random(0))
    return e


def _director(e: Event, rnd: int, board: int, sheet: ResultSheet, **kw: object) -> Event:
    return record_result(e, rnd, board, sheet, source=Source.DIRECTOR, by="desk", **kw).event  # type: ignore[arg-type]


def test_online_result_never_overwrites_the_directors_entry() -> None:
    # Failure 1: the director entered 1-0 with a warning (Go §24.1); the online game of the
    # board then ends 0-1. The board keeps the director's result and warning; the online
    # result waits as a conflict, and the standings do not move.
    e = _swiss()
    e = _director(e, 1, 2, ResultSheet(GameResult.BLACK_WINS, white_warnings=1), at=100.0)
    e = _director(e, 1, 1, ResultSheet(GameResult.BLACK_WINS))
    before = [(s.number, s.values) for s in event_standings(e)]
    done = record_result(
        e, 1, 2, ResultSheet(GameResult.WHITE_WINS), source=Source.ONLINE, by="game g2", at=101.0
    )
    assert done.status == "conflict"
    board = done.event.round(1).game(2)
    assert board.result is GameResult.BLACK_WINS and board.white_warnings == 1
    assert board.source is Source.DIRECTOR
    assert board.conflict is not None and board.conflict.sheet.result is GameResult.WHITE_WINS
    assert "director" in board.conflict.reason
    assert [(s.number, s.values) for s in event_standings(done.event)] == before
    # the round's JSON shows the conflict to the desk
    assert done.event.round(1).to_json()["games"][1]["conflict"]["sheet"]["result"] == "0-1"
    # and it survives the event file
    again = Event.from_json(done.event.to_json())
    assert again.round(1).game(2).conflict == board.conflict


def test_audit_trail_says_who_when_and_the_value_before() -> None:
    e = _swiss()
    e = _director(e, 1, 1, ResultSheet(GameResult.DRAW), at=10.0)
    e = record_result(
        e, 1, 1, ResultSheet(GameResult.WHITE_WINS), source=Source.ARBITER, by="arb", at=20.0
    ).event
    trail = e.round(1).game(1).trail
    assert [(t.source, t.by, t.at) for t in trail] == [
        (Source.DIRECTOR, "desk", 10.0),
        (Source.ARBITER, "arb", 20.0),
    ]
    assert trail[0].previous is None
    assert trail[1].previous is not None and trail[1].previous.result is GameResult.DRAW
    assert Event.from_json(e.to_json()) == e


def test_online_result_enters_an_empty_board_and_updates_its_own() -> None:
    e = _swiss("gomoku")
    done = record_result(
        e, 1, 1, ResultSheet(GameResult.BLACK_WINS), source=Source.ONLINE, by="game g1"
    )
    assert done.status == "entered" and done.game.source is Source.ONLINE
    # the same game's later ruling (a disciplinary loss after the result, Gomoku §2.20(3))
    later = record_result(
        done.event,
        1,
        1,
        ResultSheet(GameResult.BLACK_WINS, penalty=frozenset({BLACK})),
        source=Source.ONLINE,
        by="game g1",
    )
    assert later.status == "entered" and later.game.penalty == frozenset({BLACK})
    # the same result again changes nothing
    same = record_result(
        later.event,
        1,
        1,
        later.game.sheet,
        source=Source.ONLINE,
        by="game g1",  # type: ignore[arg-type]
    )
    assert same.status == "unchanged" and same.event == later.event


def test_director_resolves_a_conflict() -> None:
    e = _swiss()
    e = _director(e, 1, 1, ResultSheet(GameResult.BLACK_WINS))
    e = record_result(
        e, 1, 1, ResultSheet(GameResult.WHITE_WINS), source=Source.ONLINE, by="game g1"
    ).event
    kept = resolve_conflict(e, 1, 1, accept=False, by="desk", at=5.0)
    assert kept.game.result is GameResult.BLACK_WINS and kept.game.conflict is None
    assert "rejected" in kept.game.trail[-1].note
    taken = resolve_conflict(e, 1, 1, accept=True, by="desk")
    assert taken.game.result is GameResult.WHITE_WINS and taken.game.conflict is None
    assert taken.game.source is Source.DIRECTOR
    with pytest.raises(TournamentError, match="no conflict"):
        resolve_conflict(taken.event, 1, 1, accept=True)


def test_changing_a_result_after_the_next_round_is_paired_needs_confirmation() -> None:
    # Failure 1: round 2 was paired on round 1's results; a change needs the director's
    # explicit confirmation and says which pairings were made on the old result
    e = _swiss()
    for board in (1, 2):
        e = _director(e, 1, board, ResultSheet(GameResult.BLACK_WINS))
    e, _ = pair_next_round(e, random.Random(0))
    with pytest.raises(TournamentError, match="force") as err:
        _director(e, 1, 2, ResultSheet(GameResult.WHITE_WINS))
    assert "round 2 board" in str(err.value)
    assert e.round(1).game(2).result is GameResult.BLACK_WINS
    done = record_result(
        e, 1, 2, ResultSheet(GameResult.WHITE_WINS), source=Source.DIRECTOR, force=True
    )
    players = set(e.round(1).game(2).players)
    assert done.affected and all(
        players & {a.black, a.white} and a.round == 2 for a in done.affected
    )
    # an online result for an earlier round is a conflict, never applied
    late = record_result(e, 1, 1, ResultSheet(GameResult.DRAW), source=Source.ONLINE, by="game g1")
    assert late.status == "conflict" and late.game.result is GameResult.BLACK_WINS


def test_disciplinary_loss_is_one_sided_in_the_standings() -> None:
    # Gomoku §2.20(3): a disciplinary loss after the confirmed result leaves the opponent the
    # result the board gave; the offender scores a loss
    e = _swiss("gomoku")
    game = e.round(1).game(1)
    e = _director(e, 1, 1, ResultSheet(GameResult.BLACK_WINS))
    e = _director(e, 1, 2, ResultSheet(GameResult.DRAW, penalty=frozenset({WHITE})))
    t = table(e)
    assert t.points(game.black) == 1 and t.points(game.white) == 0
    g2 = e.round(1).game(2)
    assert t.points(g2.black) == pytest.approx(0.5)  # keeps the draw
    assert t.points(g2.white) == 0  # the offender: a loss
    assert t.records(g2.white)[0].side is SideResult.LOSS
    # a winner penalised loses the game; the opponent keeps the board's loss
    e = _director(e, 1, 1, ResultSheet(GameResult.BLACK_WINS, penalty=frozenset({BLACK})))
    t = table(e)
    assert t.points(game.black) == 0 and t.points(game.white) == 0


def test_disqualification_from_a_sheet_withdraws_the_player() -> None:
    # Gomoku §2.20(4): the disqualified player leaves the event; the withdrawal rules apply
    # (Gomoku §18.5: fewer games than half the rounds → their games are void)
    e = _swiss("gomoku", rounds=5)
    game = e.round(1).game(1)
    done = record_result(
        e,
        1,
        1,
        ResultSheet(GameResult.WHITE_WINS, disqualified=frozenset({BLACK})),
        source=Source.ARBITER,
        by="arb",
    )
    assert done.withdrawn == (game.black,)
    assert withdrawal_effects(done.event) == {game.black: Effect.VOID}
    assert game.black not in table(done.event).competitors
    # Go §28.3: in a Go Swiss the results stand and the player is not paired again
    go = _director(_swiss("go", rounds=5), 1, 2, ResultSheet(GameResult.DRAW))
    g = go.round(1).game(1)
    done = record_result(
        go,
        1,
        1,
        ResultSheet(GameResult.WHITE_WINS, disqualified=frozenset({BLACK})),
        source=Source.ARBITER,
    )
    assert withdrawal_effects(done.event) == {g.black: Effect.KEEP_UNPAIRED}
    assert table(done.event).points(g.white) == 2


def test_old_event_files_still_load() -> None:
    old = {
        "v": 1,
        "name": "old",
        "game": "go",
        "system": "swiss",
        "rounds": 2,
        "players": [{"number": 1, "name": "A"}, {"number": 2, "name": "B"}],
        "history": [{"round": 1, "games": [{"board": 1, "black": 1, "white": 2, "result": "1-0"}]}],
    }
    e = Event.from_json(old)
    g = e.round(1).game(1)
    assert g.source is None and g.trail == () and g.conflict is None
    assert e.round(1).to_json()["games"][0] == {"board": 1, "black": 1, "white": 2, "result": "1-0"}


def test_disciplinary_loss_on_a_team_board_is_one_sided() -> None:
    # Gomoku §2.20(3) in a team match (Gomoku §18.1): the offender's board scores a loss for
    # the offender's team, the opponent's team keeps the board's result
    from duiyi.tournament.event import team_table

    rows = [("A1", "X"), ("A2", "X"), ("B1", "Y"), ("B2", "Y")]
    players = [Player(0, n, extra=(("team", t),)) for n, t in rows]
    e = add_players(new_event("teams", "gomoku", "round-robin"), players)
    e, _ = pair_next_round(e, random.Random(0))
    rnd = e.round(1)
    (match,) = rnd.matches
    first = set(e.team(match.first).members)
    for board in match.boards:
        g = rnd.game(board)
        offender = BLACK if g.black in first else WHITE  # the first team's player
        sheet = ResultSheet(GameResult.DRAW, penalty=frozenset({offender}))
        e = _director(e, 1, board, sheet)
    t = team_table(e)
    (enc,) = t.records(match.first)
    assert enc.game_points == 0 and enc.side is SideResult.LOSS
    (enc,) = t.records(match.second)
    assert enc.game_points == 1 and enc.side is SideResult.WIN  # two draws kept: ½ + ½


def test_a_withdrawal_forfeit_is_recorded() -> None:
    # Go §28.3: the withdrawing player's unfinished game is forfeited; the board says so
    from duiyi.tournament.entries import withdraw as record_withdrawal

    e = _swiss()
    g = e.round(1).game(1)
    e = record_withdrawal(e, g.black, by="desk", at=7.0)
    board = e.round(1).game(1)
    assert board.result is GameResult.FORFEIT_BLACK and board.source is Source.DIRECTOR
    (entry,) = board.trail
    assert (entry.by, entry.at, entry.previous) == ("desk", 7.0, None)
    assert "Go §28.3" in entry.note
    assert e.round(1).game(2).trail == ()
