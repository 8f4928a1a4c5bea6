"""The ledger's per-game tables of rulings and articles (Go §17-24, Gomoku §4-12)."""

from __future__ import annotations

import pytest

from duiyi import BLACK
from duiyi.clock import Absolute, Clock
from duiyi.errors import RefereeError
from duiyi.games import GAMES, GO, GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.referee import Referee, RulingKind
from duiyi.referee import requests as rq
from duiyi.referee.requests import REQUESTS
from duiyi.session import Session


def test_every_ruling_has_one_request_and_each_book_says_yes_or_no_to_it() -> None:
    # one table per rulebook: a ruling is either in a game's articles or refused with an
    # article; one name per ruling: its kind names its request, its method and its entry
    assert sorted(c.kind.value for c in REQUESTS) == sorted(k.value for k in RulingKind)
    for kind in RulingKind:
        assert callable(getattr(Referee, kind.value, None)), kind
        for book in (g.book for g in GAMES.values()):
            assert (kind.value in book.articles) != (kind.value in book.refusals), (book.game, kind)
    for book in (g.book for g in GAMES.values()):
        for _why, article in book.refusals.values():
            assert article.startswith(("Go §", "Gomoku §")), article


@pytest.mark.parametrize(
    ("game", "method", "article"),
    [
        ("go", "moved_stones", "Go §17.5"),
        ("gomoku", "moved_stones", "Gomoku §4.2"),
        ("go", "scattered", "Go §17.6"),
        ("gomoku", "scattered", "Gomoku §4.2"),
        ("go", "no_show", "Go §22.1"),
        ("go", "no_show_both", "Go §22.3"),
        ("gomoku", "no_show", "Gomoku §8.5"),
        ("go", "withdrawal", "Go §28"),
        ("gomoku", "withdrawal", "Gomoku §10.1(3)D"),
        ("go", "colour_correction", "Go §17.1"),
        ("gomoku", "colour_correction", "Gomoku §5.2"),
        ("gomoku", "disqualification", "Gomoku §12.3(2)D"),
        ("go", "overtime_pass", "Go §22.5"),
        ("go", "stones_restored", "Go §18.1"),
        ("gomoku", "stone_replaced", "Gomoku §6.1"),
    ],
)
def test_articles_come_from_the_games_table(game: str, method: str, article: str) -> None:
    assert Referee(GAMES[game]).article(method) == article


def test_the_session_offers_exactly_the_games_rulings() -> None:
    # a ruling the rulebook lacks is refused with its article, through the session too
    go = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    gomoku = Session(GomokuGame(RenjuRules.free()), Clock(Absolute(600), now=0.0))
    with pytest.raises(RefereeError, match="Gomoku §12"):
        gomoku.rule(rq.Warning(BLACK), 1.0)
    with pytest.raises(RefereeError, match="Go §24"):
        go.rule(rq.Violation(BLACK), 1.0)
    with pytest.raises(RefereeError, match=r"Gomoku §10\.2\(4\)"):
        go.rule(rq.BothFlags(), 1.0)
    assert Referee(GO).kinds() | Referee(GOMOKU).kinds() == set(RulingKind)
