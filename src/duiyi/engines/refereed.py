"""One refereed game between two players that answer ``play(position, limits)``, played through
the :class:`~duiyi.session.Session` the server uses: its clock, its referee, its rulings.

:func:`play_refereed` takes a game of the registry (:mod:`duiyi.games`: its ``GameType`` and a
new game of that kind), the two players (an :class:`~duiyi.engines.protocol.EngineProtocol`,
or anything with its :meth:`~duiyi.engines.protocol.EngineProtocol.play`), a
:class:`~duiyi.clock.Clock` and optionally a :class:`~duiyi.referee.Referee`, and plays the game
to its outcome. Each turn:

* the clock says how long the answer is waited for (the flag, plus the ``tolerance`` for pipe
  latency; ``move_timeout`` in an untimed game) and what the engine is told
  (:meth:`Conduct.limits`);
* the player's thinking time (:attr:`~duiyi.engines.protocol.PlayResult.elapsed`, from the end
  of writing the question) is the clock's time: the session's ``now`` runs on the engines'
  thinking time only, so the referee's own work is never charged. An answer late within the
  tolerance stands on the flag; later, or no answer at all, and the session's clock flags it
  (the game's time article, as for people);
* the answer is the session's action (``Move``, ``Pass``, ``Resign``): a move the game refuses
  loses under the article that forbids it (:meth:`Conduct.illegal`, a ``Forfeit`` ruling);
* a player that fails (crash, silence, refusal, nonsense) is ruled through the session's
  referee (:meth:`Conduct.failure`: a ``Withdrawal`` or ``Forfeit`` request);
* the game's own endings (resignation, five, fouls, the full board) are the session's; a game
  that waits for agreement after play (Go's count, Go §8-9, §21) is settled by
  :meth:`Conduct.count` with the session's own actions (``SetDead``, ``Accept``);
* an engine match's own regulations (a move limit, resignation adjudication), outside the
  rulebook, end the game with :class:`Adjudicated`, recorded on the game
  (docs/decisions.md).

The :class:`Conduct` is what differs by engine protocol (set-up commands, the wording of the
reasons, which failure is which ruling): :mod:`duiyi.engines.match` has GTP's. The loop itself
compares no game names and tests no adapter's type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from duiyi import BLACK, WHITE, Color
from duiyi.actions import GameAction, Move, Pass, Resign
from duiyi.clock import Clock
from duiyi.engines.protocol import PASS, RESIGN, Limits, PlayResult, Special
from duiyi.errors import (
    EngineError,
    EngineTimeout,
    GameOver,
    GtpError,
    IllegalAction,
    InvalidInput,
    SessionError,
)
from duiyi.games import GameType
from duiyi.outcome import Outcome, Termination
from duiyi.referee import Referee, RulingRequest
from duiyi.referee.requests import NoShow
from duiyi.session import Session

__all__ = [
    "Adjudicated",
    "Conduct",
    "Player",
    "Refereed",
    "Ruled",
    "play_refereed",
]


class Player(Protocol):
    """What the loop asks of a player: the protocol base's ``play``."""

    async def play(self, position: Any, limits: Limits | None = None) -> PlayResult[Any]: ...


class Ruled(Exception):
    """A failure to rule through the session's referee: ``request``, whose ``note`` is the
    reason the record gives."""

    def __init__(self, request: RulingRequest) -> None:
        super().__init__(request.note)
        self.request = request


class Adjudicated(Exception):
    """The match's own regulations end the game (outside the rulebook): ``outcome``, ``reason``."""

    def __init__(self, outcome: Outcome, reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


class _Flagged(Exception):
    """The session's clock ruled a loss on time; the reason for the record."""


class Conduct(Protocol):
    """The engine protocol's part of a refereed game (GTP's: :mod:`duiyi.engines.match`)."""

    #: seconds of grace after a flag before the referee rules (pipe latency)
    tolerance: float
    #: seconds an answer is waited for when the clock does not bound it
    move_timeout: float

    async def set_up(self, players: Mapping[Color, Player]) -> None:
        """Tell each player the game (may raise :class:`Ruled`)."""

    def limits(self, clock: Clock, color: Color, now: float, wait: float) -> Limits:
        """What ``color`` is told and allowed for its next move (``wait`` seconds)."""

    def failure(self, color: Color, exc: Exception, moves: int, wait: float) -> RulingRequest:
        """The ruling on ``color``'s player failing (``exc``) after ``moves`` moves."""

    def illegal(self, color: Color, exc: DuiyiRefusal) -> RulingRequest:
        """The ruling on a move of ``color`` the game refused."""

    def late(self, color: Color, elapsed: float | None) -> str:
        """Why ``color`` lost on time (``elapsed``: its answer's time; None: no answer at all)."""

    def after_move(self, session: Session) -> None:
        """The match's regulations after each move (may raise :class:`Adjudicated`)."""

    async def count(self, session: Session, players: Mapping[Color, Player]) -> None:
        """Settle a game that waits for the players' agreement after play (Go's count)."""

    def describe(self, outcome: Outcome) -> str:
        """The reason of a game that ended by the game's own rules."""


DuiyiRefusal = IllegalAction | InvalidInput


@dataclass
class Refereed:
    """A finished refereed game: the session (its game, clock, referee and log), the outcome,
    the reason, and each colour's thinking time in seconds (answers past the flag included)."""

    session: Session
    outcome: Outcome | None = None
    reason: str = ""
    used: dict[Color, float] = field(default_factory=lambda: {BLACK: 0.0, WHITE: 0.0})


def _action(answer: object) -> GameAction:
    """The session's action for a player's answer."""
    if answer is RESIGN:
        return Resign()
    if answer is PASS:
        return Pass()
    if isinstance(answer, Special):
        raise IllegalAction(f"{answer.value} is no move of this game")
    return Move(str(answer))


async def play_refereed(
    kind: GameType,
    game: object,
    clock: Clock,
    players: Mapping[Color, Player],
    conduct: Conduct,
    *,
    position: Callable[[], Any],
    referee: Referee | None = None,
    absent: Mapping[Color, str] | None = None,
) -> Refereed:
    """Play ``game`` (a new game of ``kind``) between ``players`` on ``clock`` to its outcome
    (see the module). ``position`` gives what a player is told (the game so far); ``absent``
    names the seats whose player could not start, with why: a no-show (both: both lose)."""
    session = Session(
        game,
        clock,
        referee if referee is not None else kind.referee(),
        overtime_pass=False,
        overrun_grace=0.0,  # an engine cannot ask for the Go §22.5 pass
    )
    done = Refereed(session)
    try:
        if absent:
            why = "; ".join(f"{c} engine did not start: {e}" for c, e in absent.items())
            raise Ruled(NoShow(tuple(c for c in (BLACK, WHITE) if c in absent), note=why))
        await conduct.set_up(players)
        await _moves(session, players, conduct, position, done)
        outcome = session.outcome()
        assert outcome is not None
        done.outcome, done.reason = outcome, conduct.describe(outcome)
    except Ruled as ruled:
        session.rule(ruled.request, session.now)
        done.outcome, done.reason = session.outcome(), ruled.request.note
    except _Flagged as flagged:
        done.outcome, done.reason = session.outcome(), str(flagged)
    except Adjudicated as end:
        session.game.end(end.outcome)  # the match's regulations, not a ruling of the book
        done.outcome, done.reason = end.outcome, end.reason
    assert done.outcome is not None
    return done


async def _moves(
    session: Session,
    players: Mapping[Color, Player],
    conduct: Conduct,
    position: Callable[[], Any],
    done: Refereed,
) -> None:
    clock = session.clock
    while session.outcome() is None:
        color = session.to_move()
        if color is None:  # play stopped; the game waits for agreement (Go §8-9, §21)
            await conduct.count(session, players)
            return
        now = session.now
        flag_at = clock.flag_time()
        budget = None if flag_at is None else flag_at - now
        wait = conduct.move_timeout if budget is None else budget + conduct.tolerance
        try:
            answer = await players[color].play(position(), conduct.limits(clock, color, now, wait))
        except EngineTimeout as exc:
            if flag_at is None:
                moves = session.game.moves_played()
                raise Ruled(conduct.failure(color, exc, moves, wait)) from exc
            done.used[color] += wait
            _flag(session, max(now + wait, flag_at), conduct.late(color, None))
        except (EngineError, GtpError) as exc:
            moves = session.game.moves_played()
            raise Ruled(conduct.failure(color, exc, moves, wait)) from exc
        elapsed = answer.elapsed
        done.used[color] += elapsed
        if budget is not None and elapsed >= budget:
            if elapsed > budget + conduct.tolerance:
                _flag(session, max(now + elapsed, flag_at or 0.0), conduct.late(color, elapsed))
            elapsed = max(budget - 1e-6, 0.0)  # late within the tolerance: on the flag
        try:
            session.apply(_action(answer.move), now + elapsed, color)
        except GameOver:  # the clock flagged first
            _flag(session, now + elapsed, f"{color}'s flag fell")
        except (IllegalAction, InvalidInput) as exc:
            raise Ruled(conduct.illegal(color, exc)) from exc
        if session.outcome() is None and session.to_move() is not None:
            conduct.after_move(session)


def _flag(session: Session, at: float, reason: str) -> NoReturn:
    """A flag fell by ``at``: the session's clock rules it (the game's time article)."""
    session.tick(at)
    outcome = session.outcome()
    if outcome is None or outcome.termination is not Termination.TIME:
        raise SessionError(f"the clock did not flag by {at:g} ({reason})")
    raise _Flagged(reason)
