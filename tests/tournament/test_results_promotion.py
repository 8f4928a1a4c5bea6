"""Results and points (Go §27, Gomoku §18.1) and the promotion tables (Go 附表四, 附表五)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from duiyi import BLACK, WHITE
from duiyi.errors import InvalidInput, TournamentError
from duiyi.outcome import Outcome, Result, Termination
from duiyi.tournament.promotion import THRESHOLDS, game_points, promotion
from duiyi.tournament.results import GameResult, Scoring, SideResult, team_match


@pytest.mark.parametrize(
    ("code", "black", "white"),
    [
        ("1-0", 2, 0),  # Go §27.1: win 2, loss 0
        ("0-1", 0, 2),
        ("draw", 1, 1),  # and a draw 1 each
        ("forfeit-black", 0, 2),  # Black forfeits: White wins
        ("forfeit-white", 2, 0),
        ("double-forfeit", 0, 0),
        ("both-lose", 0, 0),  # Go §17.5: 双方均负
        ("no-result", 0, 0),
    ],
)
def test_go_points(code: str, black: int, white: int) -> None:
    r = GameResult.parse(code)
    assert Scoring.go().points(r, black=True) == black
    assert Scoring.go().points(r, black=False) == white


def test_gomoku_points_are_one_half_zero() -> None:
    # Gomoku §18.1: win 1, draw ½, loss 0, whatever the unit (次、场、局)
    g = Scoring.gomoku()
    assert g.points(GameResult.BLACK_WINS, black=True) == 1
    assert g.points(GameResult.DRAW, black=True) == F(1, 2)
    assert g.points(GameResult.WHITE_WINS, black=True) == 0
    assert g.bye == 1  # a bye scores as a win (DECISIONS)


def test_both_lose_is_a_loss_for_both_and_was_played() -> None:
    # Go §17.5(5), §17.6(3): both sides lose
    r = GameResult.from_outcome(Outcome(Result.BOTH_LOSE, Termination.ADJUDICATION, "Go §17.5"))
    assert r is GameResult.BOTH_LOSE
    assert r.side(BLACK) is r.side(WHITE) is SideResult.LOSS
    assert r.played


def test_forfeit_from_outcome_is_not_played() -> None:
    r = GameResult.from_outcome(Outcome.win(BLACK, Termination.FORFEIT, "Go §22"))
    assert r is GameResult.FORFEIT_WHITE
    assert r.winner is BLACK and not r.played
    assert GameResult.from_outcome(Outcome.win(WHITE, Termination.COUNT, "Go §9")) is (
        GameResult.WHITE_WINS
    )


def test_bad_result_code_is_refused() -> None:
    with pytest.raises(InvalidInput, match="not a result"):
        GameResult.parse("1-1")


def test_team_match_points() -> None:
    # Go §27.2: more game points wins the match (2), equal 1 each, fewer 0
    m = team_match([GameResult.BLACK_WINS] * 3, [True, True, False], Scoring.go())
    assert (m.game_points, m.opponent_game_points, m.match_points) == (4, 2, 2)
    m = team_match([GameResult.DRAW, GameResult.BLACK_WINS], [True, False], Scoring.gomoku())
    assert (m.game_points, m.side, m.match_points) == (F(1, 2), SideResult.LOSS, 0)


def test_promotion_points_table() -> None:
    # Go 附表四: same dan 90/60/30; one dan apart 85/55/25 (上手) and 95/65/35 (下手);
    # two dan 80/50/20 and 100/70/40; three dan 75/45/15 and 105/75/45
    expected = {
        (4, 4): (90, 60, 30),
        (5, 4): (85, 55, 25),
        (4, 5): (95, 65, 35),
        (6, 4): (80, 50, 20),
        (4, 6): (100, 70, 40),
        (7, 4): (75, 45, 15),
        (4, 7): (105, 75, 45),
    }
    for (own, opp), points in expected.items():
        assert tuple(game_points(own, opp, r) for r in ("win", "draw", "loss")) == points


def test_promotion_points_beyond_three_dan_are_refused() -> None:
    with pytest.raises(TournamentError, match="附表四"):
        game_points(1, 5, "win")


def test_promotion_thresholds_as_printed() -> None:
    # Go 附表五: 初段 8/12/16 games at 75/70/67.5, each dan two games more, up to 七段
    assert THRESHOLDS[1] == ((75, 8), (70, 12), (F(135, 2), 16))
    assert THRESHOLDS[7] == ((75, 20), (70, 24), (F(135, 2), 28))


def test_promotion_example_first_dan_eight_games_average_75() -> None:
    # Go 附表五: a 初段 with 8 games at exactly 75 points on average is promoted ("以上")
    # 4 wins against 1 dan (4 × 90) + 4 games against 2 dan: 2 wins (2 × 95), 2 losses (2 × 35)
    games = [(1, "win")] * 4 + [(2, "win")] * 2 + [(2, "loss")] * 2
    v = promotion(games, dan=1)
    assert (v.total, v.average) == (360 + 190 + 70, F(620, 8))
    assert v.qualified and v.to_dan == 2 and v.tier == (75, 8)


def test_promotion_example_needs_more_games_at_lower_average() -> None:
    # Go 附表五: a 三段 averaging 70 needs 16 games; with 15 games it is not enough
    games = [(3, "win")] * 5 + [(3, "draw")] * 10  # (5×90 + 10×60) / 15 = 70
    v = promotion(games, dan=3)
    assert v.average == 70 and not v.qualified
    v = promotion([*games, (3, "loss")], dan=3)  # 16 games, 1080/16 = 67.5 needs 20 games
    assert v.average == F(135, 2) and not v.qualified
    v = promotion([*games, (3, "win")], dan=3)  # 16 games, 1140/16 = 71.25 ≥ 70
    assert v.qualified and v.tier == (70, 16)


def test_promotion_from_eighth_dan_is_not_in_the_table() -> None:
    with pytest.raises(TournamentError, match="附表五"):
        promotion([(8, "win")], dan=8)
