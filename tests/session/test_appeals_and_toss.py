"""Appeals (Gomoku §8.11, §13) recorded against a ruling through the session, with their
deadline and the answer; the Gomoku §5.3(2) coin toss and the winner's choice of colours. Book: 中国五子棋竞赛规则 (2013)."""

from __future__ import annotations

import json

import pytest

from duiyi import BLACK, WHITE
from duiyi.clock import Absolute, Clock
from duiyi.errors import InvalidInput, RefereeError, SessionError
from duiyi.games import GOMOKU
from duiyi.go import Game as GoGame
from duiyi.gomoku import Game as GomokuGame
from duiyi.gomoku import RenjuRules
from duiyi.referee import Referee, RulingKind
from duiyi.referee import requests as rq
from duiyi.session import Session


def gomoku() -> Session:
    return Session(GomokuGame(RenjuRules.free()), Clock(Absolute(600), now=0.0), Referee(GOMOKU))


def rebuilt(s: Session) -> Session:
    return Session.from_log(json.loads(json.dumps(s.to_json())))


def test_an_appeal_against_a_ruling_with_its_deadline_and_answer() -> None:
    # Gomoku §13.1 对裁判员判决不服，可…向裁判长提出申诉; §8.11 应在当轮比赛结束后规定的时间内
    # 提出; §13.2 仲裁委员会…少数服从多数; the deposit back in full, half or not at all
    s = gomoku()
    s.move(BLACK, "h8", now=10.0)
    s.rule(rq.Violation(WHITE, "Gomoku §10.3(3)", note="draw offer on the opponent's time"), 20.0)
    s.resign(WHITE, now=100.0)
    s.round_ended(300.0)  # the event: the round's last game ended at 300 s
    [appeal] = s.rule(
        rq.Appeal(WHITE, 0, question="uncovered", by_chief_arbiter=True, limit=1800.0), 400.0
    )
    assert appeal.kind is RulingKind.APPEAL and appeal.appeal is not None
    assert appeal.appeal.deadline == 2100.0  # from the round's end, not the game's (100 s)
    assert appeal.appeal.authority == "competition committee"
    assert s.referee.open_appeals() == [1]
    with pytest.raises(RefereeError, match="majority"):
        s.rule(rq.AppealDecided(1, "upheld", votes=[True, False, False]), 500.0)
    [d] = s.rule(rq.AppealDecided(1, "upheld", votes=[True, True, False]), 500.0)
    assert d.appeal is not None and d.appeal.result is not None
    assert d.appeal.result.value == "upheld" and s.referee.open_appeals() == []
    assert s.outcome().winner is BLACK  # type: ignore[union-attr]  (the result stands)
    assert rebuilt(s).to_json() == s.to_json()


def test_an_appeal_past_the_deadline_is_refused() -> None:
    # Gomoku §8.11: late appeals are not received, except for the organiser's delays; the
    # time counts "当轮比赛结束后", after the round's end as the event tells the game
    s = gomoku()
    s.move(BLACK, "h8", now=10.0)
    s.rule(rq.Violation(WHITE), 20.0)
    s.resign(WHITE, now=100.0)
    # 1,980 s after the game while the round goes on (issue 32: refused): received, and no
    # deadline is known yet
    [early] = s.rule(rq.Appeal(WHITE, 0, limit=1800.0), 2080.0)
    assert early.appeal is not None and early.appeal.deadline is None
    s.round_ended(2100.0)
    s.round_ended(2500.0)  # told twice: the round ended the first time
    assert s.round_end == 2100.0
    with pytest.raises(RefereeError, match=r"§8\.11"):
        s.rule(rq.Appeal(WHITE, 0, limit=1800.0), 3901.0)
    [a] = s.rule(rq.Appeal(WHITE, 0, limit=1800.0, organiser_delay=300.0), 3901.0)
    assert a.appeal is not None and a.appeal.deadline == 4200.0
    assert rebuilt(s).round_end == 2100.0
    with pytest.raises(RefereeError, match="team leader"):
        s.rule(rq.Appeal(WHITE, 0, team_event=True), 3902.0)


def test_go_has_no_appeal_ruling() -> None:
    # Go §16.3: complaints about the opponent are made at once, during the game
    s = Session(GoGame(9), Clock(Absolute(600), now=0.0))
    s.rule(rq.Warning(BLACK, "Go §23.8"), 1.0)
    with pytest.raises(RefereeError, match=r"Go §16\.3"):
        s.rule(rq.Appeal(BLACK, 0), 2.0)


def test_the_coin_toss_and_the_winners_choice_before_the_game() -> None:
    # Gomoku §5.3(2) 裁判员抛挑边器，一方猜…中猜者有三种选择: A 黑, B 白, C 要求对方先行选择
    s = gomoku()
    [toss] = s.rule(rq.CoinToss(BLACK, called="heads", face="tails"), 1.0)
    assert toss.kind is RulingKind.COIN_TOSS and s.referee.toss_winner() is WHITE
    [chosen] = s.rule(rq.ColoursChosen("black"), 2.0)  # White's seat takes Black
    assert chosen.color is WHITE and chosen.swap and s.seats_swapped
    assert rebuilt(s).seats_swapped
    # C: the winner makes the opponent choose first, and it must
    c = gomoku()
    c.rule(rq.CoinToss(WHITE, called="heads", face="heads"), 1.0)
    with pytest.raises(InvalidInput, match="must choose"):
        c.rule(rq.ColoursChosen("opponent_first"), 2.0)
    c.rule(rq.ColoursChosen("opponent_first", opponent_takes=BLACK), 2.0)
    assert not c.seats_swapped  # Black's seat chose Black: White's seat keeps White
    # after the first move the colours are settled
    late = gomoku()
    late.move(BLACK, "h8", now=1.0)
    with pytest.raises(SessionError, match=r"§5\.3"):
        late.rule(rq.CoinToss(BLACK, called="tails", face="heads"), 2.0)
    with pytest.raises(RefereeError, match=r"Go §10"):
        Session(GoGame(9), Clock(Absolute(600), now=0.0)).rule(
            rq.CoinToss(BLACK, called="heads", face="heads"), 1.0
        )
