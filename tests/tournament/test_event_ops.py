"""The director's operations: pairing through the pairing package, results, byes, warnings."""

from __future__ import annotations

import random

import pytest

from duiyi.errors import PairingError, TournamentError
from duiyi.tournament.event import (
    add_players,
    enter_result,
    event_standings,
    new_event,
    pair_next_round,
    simulate,
    table,
    total_rounds,
)
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult


def field(game: str, system: str, n: int, rounds: int = 1) -> Event:
    players = [Player(0, f"P{i}", rating=2400 - 50 * i) for i in range(1, n + 1)]
    return add_players(new_event("t", game, system, rounds), players)


def test_round_robin_follows_the_berger_table() -> None:
    # Go appendix 三: round 1 of six is 1–6, 2–5, 3–4, the first-listed plays Black
    e, paired = pair_next_round(field("go", "round-robin", 6))
    assert [(b, w) for _, b, w, _ in paired.pairings] == [(1, 6), (2, 5), (3, 4)]
    assert total_rounds(e) == 5


def test_round_robin_bye_scores_nothing_but_swiss_bye_scores_a_win() -> None:
    # appendix 三.2: the bye is the added last number, no game and no points;
    # DECISIONS (Swiss): a bye is scored as a win
    rr = simulate(field("go", "round-robin", 5), 5, random.Random(1))
    assert all(len(table(rr).records(p)) == 4 for p in range(1, 6))
    sw, paired = pair_next_round(field("go", "swiss", 5, rounds=3))
    (bye,) = paired.byes
    # a win in Go points; the round's record holds it before any game is finished, the
    # standings count it once the round is played (Go §27.1(2)A: played rounds only)
    assert table(sw, upto_round=1).points(bye) == 2
    assert table(sw).points(bye) == 0


def test_swiss_round_one_pairs_by_number() -> None:
    # Go appendix 五.2(1): 1–2, 3–4, … smaller number Black
    _, paired = pair_next_round(field("gomoku", "swiss", 6, rounds=3))
    assert [(b, w) for _, b, w, _ in paired.pairings] == [(1, 2), (3, 4), (5, 6)]


def test_two_warnings_lose_the_game() -> None:
    # Go §24.2: a second warning in one game loses it
    e, _ = pair_next_round(field("go", "swiss", 4, rounds=3))
    with pytest.raises(TournamentError, match=r"Go §24\.2"):
        enter_result(e, 1, 1, GameResult.BLACK_WINS, black_warnings=2)
    e = enter_result(e, 1, 1, GameResult.WHITE_WINS, black_warnings=2)
    e = enter_result(e, 1, 2, GameResult.DRAW, white_warnings=1)
    assert e.round(1).game(1).black_warnings == 2
    t = table(e)
    assert [enc.warnings for enc in t.records(1)] == [2]


def test_late_entries_only_in_swiss() -> None:
    e, _ = pair_next_round(field("go", "round-robin", 4))
    with pytest.raises(TournamentError, match="cannot join"):
        add_players(e, [Player(0, "Late")])
    s, _ = pair_next_round(field("go", "swiss", 4, rounds=3))
    assert add_players(s, [Player(0, "Late")]).player(5).name == "Late"
    with pytest.raises(TournamentError, match="already entered"):
        add_players(s, [Player(0, "p1")])


def test_pairing_refusals() -> None:
    with pytest.raises(PairingError, match="at least two players"):
        pair_next_round(field("go", "swiss", 1, rounds=2))
    e = simulate(field("go", "swiss", 4, rounds=1), 1, random.Random(0))
    with pytest.raises(PairingError, match="all 1 rounds"):
        pair_next_round(e)


def test_knockout_needs_winners_and_ranks_by_elimination() -> None:
    # Gomoku §18.2: the later eliminated ranks first; no draws in an elimination game
    e, _ = pair_next_round(field("gomoku", "knockout", 4))
    assert total_rounds(e) == 2
    with pytest.raises(TournamentError, match="needs a winner"):
        enter_result(e, 1, 1, GameResult.DRAW)
    e = simulate(field("gomoku", "knockout", 4), 2, random.Random(2))
    rows = event_standings(e)
    assert [r.place for r in rows] == [1, 2, 3, 3]


def test_event_standings_use_drawn_lots() -> None:
    # Go §27.1(1)C: lots decide when everything else is equal
    e, _ = pair_next_round(field("go", "round-robin", 2))
    e = enter_result(e, 1, 1, GameResult.DRAW)
    assert [r.place for r in event_standings(e)] == [1, 1]
    rows = event_standings(e, {1: 2, 2: 1})
    assert [(r.place, r.number) for r in rows] == [(1, 2), (2, 1)]


def team_field(system: str, game: str = "go", rounds: int = 1) -> Event:
    # Go §25.2 分台定人制: board order fixed by the entry order inside each team
    rows = [("A1", "Alpha"), ("A2", "Alpha"), ("B1", "Beta"), ("B2", "Beta")]
    rows += [("C1", "Gamma"), ("C2", "Gamma")]
    players = [Player(0, n, extra=(("team", t),)) for n, t in rows]
    return add_players(new_event("teams", game, system, rounds), players)


def test_team_event_lays_out_boards_and_alternates_colours() -> None:
    e = team_field("round-robin")
    assert [(t.name, t.members) for t in e.teams] == [
        ("Alpha", (1, 2)),
        ("Beta", (3, 4)),
        ("Gamma", (5, 6)),
    ]
    assert total_rounds(e) == 3  # three teams: Berger table of four with a bye
    e, _paired = pair_next_round(e)
    rnd = e.history[-1]
    (match,) = rnd.matches
    first, second = e.team(match.first).members, e.team(match.second).members
    g1, g2 = (rnd.game(b) for b in match.boards)
    assert (g1.black, g1.white) == (first[0], second[0])  # board 1: first team Black
    assert (g2.black, g2.white) == (second[1], first[1])  # board 2: colours alternate
    assert len(rnd.team_byes) == 1


def test_team_standings_match_points_then_game_points() -> None:
    # Go §27.2(1): match points (2/1/0 from game points), then game points, then boards
    from duiyi.tournament.event import team_standings, team_table

    e = team_field("round-robin")
    for _ in range(3):
        e, _p = pair_next_round(e)
        rnd = e.history[-1]
        for m in rnd.matches:
            alpha_in = 1 in (m.first, m.second)
            for b in m.boards:
                g = rnd.game(b)
                if alpha_in:  # Alpha wins every game
                    alpha_black = g.black in e.team(1).members
                    result = GameResult.BLACK_WINS if alpha_black else GameResult.WHITE_WINS
                else:  # Beta–Gamma: each side wins one board
                    result = GameResult.BLACK_WINS
                e = enter_result(e, rnd.number, b, result)
    t = team_table(e)
    assert [t.points(c) for c in (1, 2, 3)] == [4, 1, 1]
    rows = team_standings(e)
    assert rows[0].number == 1
    # Beta and Gamma: 1 match point and 2 game points each; the board-1 winner goes first
    assert rows[1].values[:2] == rows[2].values[:2] == (1, 2)
    assert rows[1].values[2] > rows[2].values[2]
    assert [r.place for r in rows] == [1, 2, 3]


def test_team_player_withdrawal_forfeits_the_rest() -> None:
    # Go §28.4: in a team event the results stand and the player's later games are forfeits
    from duiyi.tournament.event import withdraw, withdrawal_effects
    from duiyi.tournament.withdrawal import Effect

    e = simulate(team_field("round-robin"), 1, random.Random(0))
    e = withdraw(e, 2)
    assert withdrawal_effects(e) == {2: Effect.KEEP_FORFEIT_REST}
    e, _ = pair_next_round(e)
    g = e.history[-1].game_of(2)
    if g is not None:  # Alpha may have the bye this round
        assert g.result in (GameResult.FORFEIT_BLACK, GameResult.FORFEIT_WHITE)
        assert g.result.winner is not None


def test_team_swiss_round_trips_through_json() -> None:
    e = simulate(team_field("swiss", "gomoku", rounds=2), 2, random.Random(3))
    assert Event.from_json(e.to_json()) == e
    assert all(r.matches for r in e.history)


def test_team_event_players_need_a_team() -> None:
    e = team_field("round-robin")
    with pytest.raises(TournamentError, match="has no team"):
        add_players(e, [Player(0, "Loner")])


def test_mcmahon_pairs_by_mcmahon_score() -> None:
    # McMahon (international Go option): round 1 pairs inside the initial-score groups
    ranks = ["4d", "3d", "2d", "1d", "5k", "6k"]
    e = add_players(
        new_event("mm", "go", "mcmahon", 3, {"bar": "2d", "floor": "10k"}),
        [Player(0, f"P{i}", r) for i, r in enumerate(ranks)],
    )
    e, paired = pair_next_round(e)
    pairs = {frozenset((b, w)) for _, b, w, _ in paired.pairings}
    assert frozenset((5, 6)) in pairs  # 5k and 6k are alone at the bottom
    for board, _b, _w, _r in paired.pairings:
        e = enter_result(e, 1, board, GameResult.BLACK_WINS)
    e = simulate(e, 2, random.Random(1))
    assert e.completed_rounds == 3


def test_swiss_with_elimination_drops_the_lowest() -> None:
    # Go appendix 六: from the configured round on the lowest scores leave, the field stays even
    e = add_players(
        new_event("se", "go", "swiss-elimination", 6, {"start_after": 2}),
        [Player(0, f"P{i}", rating=2000 + i) for i in range(12)],
    )
    e = simulate(e, 6, random.Random(2))
    from duiyi.tournament.event import eliminated

    out = eliminated(e)
    assert out and len(e.history[-1].games) * 2 + len(e.history[-1].byes) == 12 - len(out)
    assert all(not r.byes for r in e.history)  # §26.4: the field always stays even
    # nobody eliminated is paired again
    table_ = e.options.eliminated or {}  # round after which -> players dropped then
    for after, dropped in table_.items():
        for rnd in e.history[after:]:
            assert not set(dropped) & {p for g in rnd.games for p in g.players}
    # appendix 六.1: an eliminated player never had more points than a survivor at the cut
    first = min(table_)
    cut = table(e, upto_round=first)
    dropped = set(table_[first])
    survivors = {p.number for p in e.players} - dropped
    assert max(cut.points(p) for p in dropped) <= min(cut.points(p) for p in survivors)


def test_groups_are_dealt_and_ranked_separately() -> None:
    # Go appendix 四: serpentine seeds over the groups, a round robin in each
    from duiyi.tournament.event import group_members, group_standings

    e = add_players(
        new_event("g", "go", "groups", 1, {"groups": 2}),
        [Player(0, f"P{i}") for i in range(8)],
    )
    assert total_rounds(e) == 3
    e = simulate(e, 3, random.Random(5))
    groups = group_members(e)
    assert sorted(p for g in groups for p in g) == list(range(1, 9))
    assert groups[0][0] == 1 and groups[1][0] == 2  # seeds 1 and 2 lead different groups
    for index, rows in group_standings(e):
        assert {r.number for r in rows} == set(groups[index - 1])


def test_crosstable_grid_is_antisymmetric() -> None:
    # the wall chart's square crosstable (round robin): a win on one side is a loss on the other
    from duiyi.tournament.event import grid
    from duiyi.tournament.formats.wallchart import standings_html, standings_text

    e = simulate(field("gomoku", "round-robin", 5), 5, random.Random(4))
    cells = grid(e)
    flip = {"+": "-", "-": "+", "=": "="}
    for a, row in cells.items():
        assert len(row) == 4  # everyone met everyone once
        for b, mark in row.items():
            assert cells[b][a] == flip[mark]
    assert "Crosstable" in standings_text(e)
    assert "<h2>Crosstable</h2>" in standings_html(e)


def test_best_of_n_match_alternates_colours_and_stops_when_decided() -> None:
    # Go §26.5: best of 3 … 7; Gomoku §5.1(2): colours alternate after game 1
    e = add_players(
        new_event("final", "go", "match", 1, {"games": 3, "first_black": 2}),
        [Player(0, "Ke"), Player(0, "Shin")],
    )
    assert total_rounds(e) == 3
    e, p1 = pair_next_round(e)
    assert p1.pairings[0][1:3] == (2, 1)
    e = enter_result(e, 1, 1, GameResult.WHITE_WINS)  # player 1 wins
    e, p2 = pair_next_round(e)
    assert p2.pairings[0][1:3] == (1, 2)
    e = enter_result(e, 2, 1, GameResult.BLACK_WINS)  # player 1 again: 2–0, decided
    with pytest.raises(PairingError, match="decided: won by 1"):
        pair_next_round(e)
    assert [r.number for r in event_standings(e)] == [1, 2]


def test_relay_loser_leaves_and_winner_stays() -> None:
    # Go §26.6, Gomoku §17.5: the winner stays on stage, the loser's team sends the next player
    from duiyi.tournament.event import relay_state
    from duiyi.tournament.formats.wallchart import standings_json

    rows = [("A1", "Alpha"), ("A2", "Alpha"), ("B1", "Beta"), ("B2", "Beta")]
    e = add_players(
        new_event("relay", "gomoku", "relay", 1),
        [Player(0, n, extra=(("team", t),)) for n, t in rows],
    )
    e, p = pair_next_round(e)
    assert set(p.pairings[0][1:3]) == {1, 3}
    g = e.history[-1].games[0]
    e = enter_result(e, 1, 1, GameResult.BLACK_WINS if g.black == 1 else GameResult.WHITE_WINS)
    e, p = pair_next_round(e)
    assert set(p.pairings[0][1:3]) == {1, 4}  # A1 stays, B2 comes on
    g = e.history[-1].games[0]
    e = enter_result(e, 2, 1, GameResult.BLACK_WINS if g.black == 1 else GameResult.WHITE_WINS)
    assert relay_state(e).winner == 0
    with pytest.raises(PairingError, match="relay is over"):
        pair_next_round(e)
    doc = standings_json(e)
    assert [(r["name"], r["place"]) for r in doc["standings"]] == [("Alpha", 1), ("Beta", 2)]


@pytest.mark.parametrize(("game", "cited"), [("go", "Go §26.6"), ("gomoku", "Gomoku §17.5")])
def test_a_relay_over_cites_the_events_own_book(game: str, cited: str) -> None:
    # 擂台赛: Go §26.6 on a Go event, Gomoku §17.5 on a Gomoku one (issue 32: never the other
    # game's book), with a code for the desk's page
    rows = [("A1", "Alpha"), ("B1", "Beta")]
    e = add_players(
        new_event("relay", game, "relay", 1),
        [Player(0, n, extra=(("team", t),)) for n, t in rows],
    )
    e, _ = pair_next_round(e)
    g = e.history[-1].games[0]
    e = enter_result(e, 1, 1, GameResult.BLACK_WINS if g.black == 1 else GameResult.WHITE_WINS)
    with pytest.raises(PairingError) as err:
        pair_next_round(e)
    assert err.value.article == cited
    assert (err.value.code, err.value.values) == ("relay-over", {"team": "Alpha"})
