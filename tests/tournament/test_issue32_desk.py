"""The tournament's side of issue 32: what the event records from its online games."""

from __future__ import annotations

from duiyi import Color
from duiyi.games import GO, GOMOKU
from duiyi.outcome import Outcome, Termination
from duiyi.referee import Referee
from duiyi.tournament.results import ResultSheet


def test_an_online_gomoku_games_sheet_counts_its_violations() -> None:
    # Gomoku §12.3(4): the second violation (违例) in a game loses it; the board's count is the
    # violations (the Gomoku book has no warnings, §12.3(2)); a Go board's is the warnings (§24)
    ref = Referee(GOMOKU)
    ref.violation(Color.BLACK)
    sheet = ResultSheet.of_game(Outcome.win(Color.WHITE, Termination.FIVE, "Gomoku §10.1"), ref)
    assert (sheet.black_warnings, sheet.white_warnings) == (1, 0)
    go = Referee(GO)
    go.warning(Color.WHITE)
    sheet = ResultSheet.of_game(Outcome.win(Color.BLACK, Termination.RESIGNATION, "Go §7"), go)
    assert (sheet.black_warnings, sheet.white_warnings) == (0, 1)


def test_a_late_entrant_gets_a_lot_of_its_own_and_the_earlier_lots_stay() -> None:
    # Go §27.1(1)C: the last ties go to the lot. Issue 32: after a late entry the standings
    # answered "no lot drawn for 5" until every lot was drawn again. The late entrant, numbered
    # after those already in, draws the lot after every lot drawn (docs/decisions.md).
    import random

    from duiyi.tournament import event as ops
    from duiyi.tournament.model import Player
    from duiyi.tournament.results import GameResult

    e = ops.new_event("Club", "go", "swiss", 3)
    e = ops.add_players(e, [Player(0, n) for n in "ABCD"])
    e, _ = ops.pair_next_round(e, random.Random(1))
    for g in e.round(1).games:
        e = ops.enter_result(e, 1, g.board, GameResult.BLACK_WINS)
    e = ops.draw_lots(e, random.Random(2))
    before = dict(e.lots)
    e = ops.add_players(e, [Player(0, "E")])
    assert {k: v for k, v in e.lots.items() if k != 5} == before
    assert e.lots[5] == max(before.values()) + 1
    e, _ = ops.pair_next_round(e, random.Random(1))
    assert e.round(2).byes == (5,)
    for g in e.round(2).games:
        e = ops.enter_result(e, 2, g.board, GameResult.WHITE_WINS)
    rows = ops.event_standings(e)  # E ties with a player who drew a lot: no "no lot drawn for 5"
    assert sorted(r.number for r in rows) == [1, 2, 3, 4, 5]
    assert any(r.by_lot for r in rows if r.number == 5)


def test_a_missing_lot_cites_the_events_own_book() -> None:
    # Issue 32: every article shown comes from the game's own book. Competitors still tied after
    # the tiebreaks are placed by lot: Go §27.1(1)C, Gomoku §18.3(1)C; a Gomoku desk was told
    # "no lot drawn for 3 (Go §27.1(1)C)".
    import random

    import pytest

    from duiyi.errors import TournamentError
    from duiyi.tournament import event as ops
    from duiyi.tournament.model import Player
    from duiyi.tournament.results import GameResult

    for game, article in (("go", "Go §27.1(1)C"), ("gomoku", "Gomoku §18.3(1)C")):
        e = ops.new_event("Club", game, "swiss", 3)
        e = ops.add_players(e, [Player(0, n) for n in "ABCD"])
        e, _ = ops.pair_next_round(e, random.Random(1))
        for g in e.round(1).games:
            e = ops.enter_result(e, 1, g.board, GameResult.BLACK_WINS)
        tied = sorted({g.black for g in e.round(1).games})  # the two winners tie on points
        with pytest.raises(TournamentError) as refused:
            ops.event_standings(e, {tied[0]: 1})
        assert refused.value.article == article
        assert article in str(refused.value)
        assert ("Go §" in str(refused.value)) == (game == "go")


def test_no_result_is_a_go_result_and_never_a_gomoku_one() -> None:
    # Gomoku §2.14 终局: a finished game is won (胜局) or drawn (和局); the Gomoku desk offered
    # 无胜负, Go's result for a repetition its supplementary rules leave without one (Go §20.3).
    import random

    import pytest

    from duiyi.errors import TournamentError
    from duiyi.games.ui import describe
    from duiyi.tournament import event as ops
    from duiyi.tournament.model import Player
    from duiyi.tournament.results import GameResult

    for game in ("go", "gomoku"):
        e = ops.new_event("Club", game, "swiss", 3)
        e = ops.add_players(e, [Player(0, n) for n in "ABCD"])
        e, _ = ops.pair_next_round(e, random.Random(1))
        if game == "go":
            e = ops.enter_result(e, 1, 1, GameResult.NO_RESULT)
            assert e.round(1).game(1).result is GameResult.NO_RESULT
            continue
        with pytest.raises(TournamentError) as refused:
            ops.enter_result(e, 1, 1, GameResult.NO_RESULT)
        assert refused.value.article == "Gomoku §2.14" and refused.value.code == "no-result-in-book"
        assert ops.enter_result(e, 1, 1, GameResult.DRAW).round(1).game(1).result is GameResult.DRAW
    assert describe(GO).no_result and not describe(GOMOKU).no_result


def test_a_match_cites_the_events_own_book() -> None:
    # Issue 32: a match of several games (多局决胜制) is Go §26.5 in the Go book and §17.6
    # (对抗赛) in the Gomoku book; a Gomoku match was refused citing "Go §26.5".
    import random

    import pytest

    from duiyi.errors import InvalidInput, PairingError
    from duiyi.tournament import event as ops
    from duiyi.tournament.model import Player
    from duiyi.tournament.pairing.matches import match_schedule, match_status, wins_needed
    from duiyi.tournament.results import GameResult

    for game, article in (("go", "Go §26.5"), ("gomoku", "Gomoku §17.6")):
        other = "Gomoku §" if game == "go" else "Go §"
        refusals = []
        calls = (
            (wins_needed, (4,), {"game": game}),
            (match_schedule, (1, 1, 3), {"first_black": 1, "game": game}),
            (match_schedule, (1, 2, 3), {"first_black": 3, "game": game}),
            (match_status, (1, 2, 3, [1, 1, 2]), {"game": game}),  # played after it was decided
            (match_status, (1, 2, 3, [1, 3]), {"game": game}),  # a winner not in the match
        )
        for call, args, kwargs in calls:
            with pytest.raises(InvalidInput) as refused:
                call(*args, **kwargs)  # type: ignore[operator]
            refusals.append(refused.value)
        # the event's system: a best of 3 won 2–0 pairs no third game
        e = ops.new_event("Final", game, "match", options={"games": 3})
        e = ops.add_players(e, [Player(0, "A"), Player(0, "B")])
        for n in (1, 2):
            e, _ = ops.pair_next_round(e, random.Random(n))
            g = e.round(n).games[0]
            won = GameResult.BLACK_WINS if g.black == 1 else GameResult.WHITE_WINS
            e = ops.enter_result(e, n, g.board, won)
        with pytest.raises(PairingError) as decided:
            ops.pair_next_round(e, random.Random(3))
        refusals.append(decided.value)
        for exc in refusals:
            assert exc.article == article, (game, str(exc))
            assert other not in str(exc), (game, str(exc))
        # colours guessed for game 1 need a random source: Go §10 nigiri, Gomoku §5.3(1)
        with pytest.raises(InvalidInput) as unguessed:
            match_schedule(1, 2, 3, game=game)
        assert unguessed.value.article == ("Go §10" if game == "go" else "Gomoku §5.3(1)")
