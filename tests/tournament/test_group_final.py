"""Group round robins followed by a final stage (Go appendix 四, Gomoku §17.4 组合赛制), and the
relay's per-round cells (Go §26.6, Gomoku §17.5)."""

from __future__ import annotations

import random

import pytest

from duiyi.errors import InvalidInput, PairingError, TournamentError
from duiyi.tournament.event import (
    add_players,
    draw_lots,
    enter_result,
    final_players,
    final_stage_rounds,
    final_standings,
    group_members,
    group_stage_rounds,
    group_standings,
    new_event,
    pair_next_round,
    simulate,
    total_rounds,
)
from duiyi.tournament.formats.wallchart import standings_html, standings_json, standings_text
from duiyi.tournament.model import Event, Player
from duiyi.tournament.results import GameResult


def groups_event(groups: int, qualifiers: int, n: int, final: str, **extra: object) -> Event:
    opts: dict[str, object] = {"groups": groups, "qualifiers": qualifiers, "final": final}
    opts.update(extra)
    e = add_players(
        new_event("g", "go", "groups", 1, opts),
        [Player(0, f"P{i}", rating=2400 - 30 * i) for i in range(n)],
    )
    return draw_lots(e, random.Random(n))  # lots settle ties at the cut (Go §27.1(1)C)


def test_rounds_are_the_group_stage_plus_the_final() -> None:
    # appendix 三: groups of 4 play 3 rounds; appendix 一.1: 8 qualifiers need 3 knockout rounds
    e = groups_event(4, 2, 16, "knockout")
    assert (group_stage_rounds(e), final_stage_rounds(e), total_rounds(e)) == (3, 3, 6)
    # appendix 三.2: a final round robin of 4 takes 3 rounds, of 3 (with the bye) also 3
    assert final_stage_rounds(groups_event(2, 2, 8, "round-robin")) == 3
    assert final_stage_rounds(groups_event(3, 1, 9, "round-robin")) == 3
    # without a final stage the event is the group stage alone, as before
    assert total_rounds(groups_event(2, 2, 8, "none")) == 3
    # Gomoku §18.2: place matches add their rounds
    assert final_stage_rounds(groups_event(2, 2, 8, "knockout", place_matches=[3])) == 3


@pytest.mark.parametrize(("groups", "qualifiers", "n"), [(2, 2, 8), (4, 2, 16), (8, 2, 32)])
def test_group_winners_meet_runners_up_of_other_groups(
    groups: int, qualifiers: int, n: int
) -> None:
    # appendix 四 (qualifying places are the seeds) and the usual cross pairing A1–B2, B1–A2:
    # round 1 of the final pairs each group winner with another group's runner-up, and a
    # group's winner and runner-up are in opposite halves (they can meet only in the final)
    e = groups_event(groups, qualifiers, n, "knockout")
    e = simulate(e, group_stage_rounds(e) + 1, random.Random(3))
    seeds = final_players(e)
    winners, runners = set(seeds[:groups]), set(seeds[groups:])
    group_of = {p: i for i, members in enumerate(group_members(e)) for p in members}
    for index, rows in group_standings(e):
        assert rows[0].number in winners and rows[1].number in runners
        assert {r.number for r in rows[:2]} <= set(seeds)
        assert index - 1 == group_of[rows[0].number]
    first = e.history[group_stage_rounds(e)]
    order = [p for g in first.games for p in (g.black, g.white)]
    assert len(first.games) == len(seeds) // 2 and not first.byes
    half = len(order) // 2
    for g in first.games:
        assert ({g.black, g.white} & winners) and ({g.black, g.white} & runners)
        assert group_of[g.black] != group_of[g.white]
    for w in winners:
        mate = next(r for r in runners if group_of[r] == group_of[w])
        assert (order.index(w) < half) != (order.index(mate) < half)


def test_the_knockout_final_runs_to_a_champion() -> None:
    # appendix 一: each round halves the field; Gomoku §18.2: later elimination ranks first,
    # the 3rd-place match decides 3rd and 4th
    e = groups_event(2, 2, 8, "knockout", place_matches=[3])
    e = simulate(e, total_rounds(e), random.Random(5))
    with pytest.raises(PairingError, match="all 6 rounds"):
        pair_next_round(e)
    rows = final_standings(e)
    assert [r.place for r in rows] == [1, 2, 3, 4]
    final_game = e.history[group_stage_rounds(e) + 1].games[0]
    winner = final_game.black if final_game.result is GameResult.BLACK_WINS else final_game.white
    assert rows[0].number == winner
    doc = standings_json(e)
    finals = [r for r in doc["standings"] if r["group"] == "final"]
    assert [r["number"] for r in finals] == [r.number for r in rows]
    assert [t["name"] for t in doc["final_tiebreaks"]] == ["eliminated:1", "wins"]
    # every qualifier has a cell in the semi-final round and in the final or 3rd-place match
    assert all("4" in r["rounds"] and {"5", "6"} & set(r["rounds"]) for r in finals)
    assert "final" in standings_text(e) and "<td>final</td>" in standings_html(e)


def test_byes_go_to_the_best_seeds_when_the_field_is_not_a_power_of_two() -> None:
    # appendix 一.3: 一类种子 (here the group winners) take the byes
    e = groups_event(3, 2, 12, "knockout")
    e = simulate(e, group_stage_rounds(e) + 1, random.Random(2))
    seeds = final_players(e)
    assert set(e.history[group_stage_rounds(e)].byes) == set(seeds[:2])
    group_of = {p: i for i, members in enumerate(group_members(e)) for p in members}
    assert all(group_of[g.black] != group_of[g.white] for g in e.history[3].games)


def test_a_final_round_robin_counts_only_its_own_games() -> None:
    # appendix 三 for the final; its standings use the round-robin chain (Go §27.1(1))
    e = groups_event(2, 2, 8, "round-robin")
    e = simulate(e, total_rounds(e), random.Random(9))
    seeds = final_players(e)
    for rnd in e.history[group_stage_rounds(e) :]:
        assert {p for g in rnd.games for p in g.players} == set(seeds)
    rows = final_standings(e)
    assert {r.number for r in rows} == set(seeds)
    from duiyi.tournament.event import final_table

    assert all(len(final_table(e).records(p)) == 3 for p in seeds)
    # the group tables stop at the group stage
    for _, group_rows in group_standings(e):
        assert all(r.values[0] <= 6 for r in group_rows)  # at most 3 wins × 2 (Go §27.1)


def test_a_tie_at_the_qualifying_place_must_be_settled_first() -> None:
    # Go §27.1(1)C, §27.3: a tie across the cut is settled by play-off or lots, never guessed
    e = add_players(
        new_event("g", "go", "groups", 1, {"groups": 1, "qualifiers": 2, "final": "knockout"}),
        [Player(0, n) for n in "ABC"],
    )
    for rnd in range(1, 4):
        e, paired = pair_next_round(e)
        e = enter_result(e, rnd, 1, GameResult.BLACK_WINS)  # a circle: everyone 1 win
    with pytest.raises(PairingError, match="qualifying places"):
        pair_next_round(e)
    e = draw_lots(e, random.Random(1))
    e, paired = pair_next_round(e)
    assert len(final_players(e)) == 2 and len(paired.pairings) == 1


def test_a_knockout_final_game_needs_a_winner() -> None:
    # Gomoku §18.2 / appendix 一: elimination games are decided; the group games may be drawn
    e = groups_event(2, 1, 4, "knockout")
    e = simulate(e, group_stage_rounds(e), random.Random(1))
    e, _ = pair_next_round(e)
    with pytest.raises(TournamentError, match="needs a winner"):
        enter_result(e, e.current_round, 1, GameResult.DRAW)


def test_unknown_final_stage_is_refused() -> None:
    # refused when the event is made (the options check), never at a later pairing
    with pytest.raises(InvalidInput, match=r"options\.final"):
        total_rounds(groups_event(2, 1, 4, "swiss"))


def test_relay_standings_have_per_round_cells() -> None:
    # Go §26.6, Gomoku §17.5: each round one game; the teams in it get a cell naming their player
    rows = [("A1", "Alpha"), ("A2", "Alpha"), ("B1", "Beta"), ("B2", "Beta")]
    e = add_players(
        new_event("relay", "gomoku", "relay", 1),
        [Player(0, n, extra=(("team", t),)) for n, t in rows],
    )
    e = simulate(e, 2, random.Random(4))
    doc = standings_json(e)
    for row in doc["standings"]:
        assert set(row["rounds"]) <= {"1", "2", "3"}
        for rnd, cells in row["rounds"].items():
            game = e.round(int(rnd)).games[0]
            for cell in cells:
                player, _, rest = cell.partition(":")
                assert int(player) in row["members"] and int(player) in game.players
                assert rest[-1] in "+-=" and rest[-2] in "bw"
    played = {r for row in doc["standings"] for r in row["rounds"]}
    assert played == {"1", "2"}
    assert all(len(row["rounds"]) == 2 for row in doc["standings"])  # both teams play each game
    text = standings_text(e)
    assert ":" in text.splitlines()[3]


def test_a_finalist_who_withdraws_keeps_the_group_results_and_forfeits_the_rest() -> None:
    # Go §28.4 (knockout): results stand, what is left is forfeited; the group stage stays
    e = groups_event(2, 2, 8, "knockout")
    e = simulate(e, group_stage_rounds(e) + 1, random.Random(4))  # groups + semi-finals
    semi = e.history[-1]
    winners = [g.black if g.result is GameResult.BLACK_WINS else g.white for g in semi.games]
    from duiyi.tournament.event import withdraw, withdrawal_effects
    from duiyi.tournament.withdrawal import Effect

    before = [(i, [(r.number, r.values) for r in rows]) for i, rows in group_standings(e)]
    e = withdraw(e, winners[0])
    assert withdrawal_effects(e) == {winners[0]: Effect.KEEP_FORFEIT_REST}
    e, _ = pair_next_round(e)
    final = e.history[-1].games[0]
    assert set(final.players) == set(winners)
    assert final.result in (GameResult.FORFEIT_BLACK, GameResult.FORFEIT_WHITE)
    assert final.result.winner is not None
    champion = final.black if final.result.winner.name == "BLACK" else final.white
    assert champion == winners[1]
    assert [(i, [(r.number, r.values) for r in rows]) for i, rows in group_standings(e)] == before
    assert final_standings(e)[0].number == winners[1]


@pytest.mark.parametrize(
    ("game", "article"), [("go", "Go §27.1(1)C"), ("gomoku", "Gomoku §18.3(1)C")]
)
def test_a_shared_qualifying_place_cites_the_events_own_book(game: str, article: str) -> None:
    # Issue 32: every article shown comes from the game's own book; a Gomoku groups event was
    # told to draw lots under Go §27.1(1)C (Gomoku's lot: §18.3(1)C)
    e = add_players(
        new_event("g", game, "groups", 1, {"groups": 1, "qualifiers": 2, "final": "knockout"}),
        [Player(0, n) for n in "ABC"],
    )
    for rnd in range(1, 4):
        e, _ = pair_next_round(e)
        e = enter_result(e, rnd, 1, GameResult.BLACK_WINS)  # a circle: everyone 1 win
    with pytest.raises(PairingError, match="qualifying places") as refused:
        pair_next_round(e)
    assert refused.value.article == article
    assert ("Go §" in str(refused.value)) == (game == "go")
