"""A live game: the game, its clock and its referee, built from and saved as one action log.

Every action carries its time ``at`` (monotonic seconds from the caller, e.g. a server's clock).
Before each action the session *settles* the time that passed: a flag that fell or a lateness
limit that ran out becomes an automatic action in the log, stamped with the moment it happened.
So the log alone rebuilds the exact state (:meth:`Session.from_log`), and a server can run a
timer on :meth:`Session.next_deadline` / :meth:`Session.tick` to push calls and flag-falls.

>>> from duiyi.games import GO
>>> from duiyi import BLACK, WHITE
>>> from duiyi.go import Game
>>> from duiyi.clock import Clock, ChineseByoyomi
>>> from duiyi.referee import Referee
>>> s = Session(Game(9), Clock(ChineseByoyomi(base=0, reserved_minutes=1), now=0.0), Referee(GO))
>>> s.move(BLACK, "E5", now=20.0)
>>> [e.zh for e in s.tick(70.0)]     # White's last minute (from 20 s): 30, 40, 50 s
['30秒', '40秒', '50秒']
>>> s.next_deadline(70.0)            # then "1" ... "10"
71.0
>>> s.tick(80.0)[-1].en.startswith("over the last minute")  # White overran at 80 s ...
True
>>> s.tick(90.0)[-1].kind, s.outcome().winner   # ... asked nothing: lost 10 s later (Go §22.5)
('flag', Color.BLACK)
>>> Session.from_log(s.to_json()).outcome() == s.outcome()
True
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.actions import (
    Accept,
    AcceptDraw,
    AcceptTakeback,
    Action,
    Adjourn,
    Arrive,
    ClaimFoul,
    DeclineDraw,
    DeclineTakeback,
    Dispute,
    Flag,
    GameAction,
    LogEntry,
    MarkDead,
    Move,
    NoShow,
    OfferDraw,
    OvertimePass,
    Pass,
    Pause,
    RequestOvertimePass,
    RequestTakeback,
    Resign,
    Resume,
    RoundEnded,
    Ruled,
    SplitPool,
    is_game_action,
)
from duiyi.clock import Clock
from duiyi.errors import (
    ClockError,
    DuiyiError,
    GameOver,
    IllegalAction,
    InvalidInput,
    RefereeError,
    SessionError,
)
from duiyi.games import (
    GO,
    GameAdapter,
    GameType,
    adapt,
    adapter_from_config,
    find,
)
from duiyi.games import get as get_game
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee import (
    Facts,
    Referee,
    Ruling,
    RulingKind,
    RulingRequest,
    outcome_json,
    overtime_pass_ruling,
    requests,
    stored_game,
)
from duiyi.referee import effects as fx

__all__ = ["START_RULES", "Event", "Session"]

#: When a game's clock starts (issue 21). ``scheduled``: at the session's start, the official
#: start of an event's game, with the lateness rules of the clock (Go §22, Gomoku §8.5);
#: ``seated``: when both players have sat down (``arrive``, or their first action); nobody is
#: late in a casual game; ``first_move``: with the first move, which costs nothing.
START_RULES = ("scheduled", "seated", "first_move")


@dataclass(frozen=True)
class Event:
    """Something a server pushes to the players: a spoken ``call``, a ``flag``, a ``no_show``
    forfeit, an ``overtime_pass`` (Go §22.5).

    >>> Event("call", 30.0, BLACK, "30秒", "30 seconds").to_json()["zh"]
    '30秒'
    """

    kind: str
    at: float
    player: Color | None
    zh: str
    en: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        return {
            "kind": self.kind,
            "at": self.at,
            "player": self.player.value if self.player else None,
            "zh": self.zh,
            "en": self.en,
        }


def _check_time(now: float) -> float:
    try:
        t = float(now)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"now must be a number of seconds, got {now!r}") from exc
    if math.isnan(t) or math.isinf(t):
        raise InvalidInput(f"now must be finite, got {now!r}")
    return t


#: how long, after an overrun of the last minute, the player may still ask for the Go §22.5
#: pass before the loss is ruled (the arbiter may rule it sooner); docs/decisions.md
OVERRUN_GRACE = 10.0


class Session:
    """A game, its clock and its referee under one action log.

    ``game`` is a ``duiyi.go.Game``, a ``duiyi.gomoku.Game`` or any
    :class:`~duiyi.games.adapters.GameAdapter`. Players are named by seat (the colour given
    at the start), and so are the clocks and the winner of :meth:`outcome` (after a Gomoku
    swap the Black seat plays the white stones).

    Go §22.5: a player who oversteps the last minute of byo-yomi loses, unless it asked for the
    overrun to count as one pass (虚着): then it has passed, play goes on under the same
    byo-yomi and there is no warning. The request is standing when made in advance
    (:meth:`request_overtime_pass` before the overrun, or ``overtime_pass=True`` granting it to
    both players by the event's regulations), or made at the overrun: the loss is ruled
    ``overrun_grace`` seconds after the overrun (0: at once), and a request in between (before
    an arbiter's ruling) turns the overrun into the pass.
    """

    def __init__(
        self,
        game: object,
        clock: Clock,
        referee: Referee | None = None,
        *,
        overtime_pass: bool = False,
        overrun_grace: float = OVERRUN_GRACE,
        start_rule: str = "scheduled",
        takebacks: bool = False,
    ) -> None:
        self._game: GameAdapter = adapt(game)
        if start_rule not in START_RULES:
            raise InvalidInput(
                f"start_rule must be one of {', '.join(START_RULES)}: {start_rule!r}"
            )
        if start_rule != "scheduled" and clock.absent:
            raise InvalidInput(
                "lateness rules (absent players) go with a scheduled start (Go §22, Gomoku §8.5); "
                f"a {start_rule!r} clock starts when the players are there"
            )
        self.start_rule = start_rule
        self._clock_had_absent = bool(clock.absent)
        if not isinstance(clock, Clock):
            raise InvalidInput(f"not a Clock: {clock!r}")
        self._clock = clock
        #: the game played (None for a game outside the registry, such as a test's)
        self.kind: GameType | None = find(self._game.kind)
        self._referee = (
            referee
            if referee is not None
            else (self.kind or GO).referee()  # a game outside the registry: Go's book
        )
        self.overtime_pass = bool(overtime_pass)
        grace = _check_time(overrun_grace)
        if grace < 0:
            raise InvalidInput(f"overrun_grace must be >= 0 seconds, got {overrun_grace!r}")
        self.overrun_grace = grace
        # a casual game's takeback by agreement (issue 21): never in an event's game
        self.takebacks = bool(takebacks)
        self._takeback: Color | None = None  # the seat that asked, until answered
        # the asker and how its last request ended without a takeback ("refused", or
        # "played_on": the opponent moved instead), until the asker asks again or plays
        self._takeback_answer: tuple[Color, str] | None = None
        # taken-back moves leave the clock's quota too (issue 21); logs written before replay
        # as played then (their taken-back moves counted)
        self._takeback_quota = True
        self._initial: dict[str, Any] = {
            "game": self._game.config_json(),
            "clock": clock.to_json(),
            "referee": self._referee.to_json(),
        }
        self._log: list[LogEntry] = []
        self._now = clock.to_json()["now"]
        self._last_tick = self._now
        self._outcome: Outcome | None = None
        self._adjourned: LogEntry | None = None
        self._seats_swapped = False
        self._restarts = 0
        self._ot_requests: set[Color] = set()
        self._seated: set[Color] = set()
        self._ended_at: float | None = None  # when the game was decided
        self._round_end: float | None = None  # when the event said the round ended (§8.11)
        self._started = start_rule == "scheduled"
        self.sealed_error: str | None = None  # why a sealed move was refused on resumption
        # logs written before 2026-11-27 stopped the clock with a whole byo-yomi period
        # charged (and without the press of a move that stops play); they replay that way
        self._legacy = False
        if self.kind is not None and self._referee.game is not self.kind:
            raise InvalidInput(
                f"a {self._game.kind} game needs its own Referee "
                f"({self.kind.name.upper()}.referee()), not {self._referee.game.name}'s"
            )
        # a clock created running for the wrong seat (White first after fixed handicap
        # stones) is set right at once, without counting a move
        want = self._game.to_move()
        if clock.to_move is not None and (
            not self._started or (want is not None and clock.to_move is not want)
        ):
            clock.stop(self._now)  # (a held clock waits for its start, issue 21)
        self._sync_clock(self._now)

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> GameAdapter:
        """The game adapter (``.game`` on it is the Go or Gomoku game itself)."""
        return self._game

    @property
    def clock(self) -> Clock:
        """The clock."""
        return self._clock

    @property
    def referee(self) -> Referee:
        """The ruling ledger."""
        return self._referee

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every action so far, automatic ones included."""
        return tuple(self._log)

    @property
    def now(self) -> float:
        """The time of the latest action or tick."""
        return float(self._now)

    @property
    def paused(self) -> bool:
        """True during a pause or an adjournment."""
        return self._clock.paused

    @property
    def adjourned_by(self) -> Color | None:
        """The player who sealed a move, while the game is adjourned (never the move itself)."""
        return self._adjourned.player if self._adjourned else None

    @property
    def clock_started(self) -> bool:
        """False while the clock waits for its start (``start_rule`` ``seated`` or
        ``first_move``); a ``scheduled`` clock starts with the session."""
        return self._started

    def waiting_for(self) -> tuple[Color, ...]:
        """The seats the clock waits for: not yet seated under ``start_rule="seated"``, or
        still absent under the lateness rules of a scheduled start.

        >>> from duiyi.go import Game
        >>> from duiyi.clock import Absolute
        >>> s = Session(Game(9), Clock(Absolute(600), now=0.0), start_rule="seated")
        >>> s.arrive(BLACK, now=10.0)
        >>> s.waiting_for(), s.clock_started
        ((Color.WHITE,), False)
        >>> s.arrive(WHITE, now=13.0)
        >>> s.waiting_for(), s.clock.running_color, s.clock.used(BLACK, 20.0)
        ((), Color.BLACK, 7.0)
        """
        if self.start_rule == "seated" and not self._started:
            return tuple(c for c in (BLACK, WHITE) if c not in self._seated)
        return tuple(c for c in (BLACK, WHITE) if c in self._clock.absent)

    def clock_start_json(self) -> dict[str, Any]:
        """How this game's clock starts, for a page to say it: ``start_rule``, ``started``,
        ``waiting_for`` (seats), and ``lateness`` (the rule of a scheduled start with absent
        players, or None)."""
        late = self._clock.lateness
        scheduled_lateness = self.start_rule == "scheduled" and (
            bool(self._clock.absent) or bool(self._clock_had_absent)
        )
        return {
            "start_rule": self.start_rule,
            "started": self._started,
            "waiting_for": [c.value for c in self.waiting_for()],
            "lateness": late.to_json() if scheduled_lateness else None,
        }

    @property
    def takeback_request(self) -> Color | None:
        """The seat that asked to take back its last move, until the opponent answers (or the
        asker plays on)."""
        return self._takeback

    @property
    def takeback_answer(self) -> dict[str, str] | None:
        """How the last takeback request ended without a takeback, for its asker to be told:
        ``{"asker": "black", "answer": "refused"}`` (or ``"played_on"``: the opponent moved
        instead), until the asker asks again or plays.

        >>> from duiyi.go import Game
        >>> from duiyi.clock import Absolute
        >>> s = Session(Game(9), Clock(Absolute(600), now=0.0), takebacks=True)
        >>> s.move(BLACK, "E5", now=1.0); s.apply(RequestTakeback(), 2.0, BLACK)
        >>> s.move(WHITE, "D5", now=3.0); s.takeback_answer
        {'asker': 'black', 'answer': 'played_on'}
        """
        if self._takeback_answer is None:
            return None
        asker, answer = self._takeback_answer
        return {"asker": asker.value, "answer": answer}

    def may_request_takeback(self, player: Color) -> bool:
        """Whether ``player`` may ask now to take back its last move: takebacks allowed in
        this game, play going on, no request open, a move of its own to take back.

        >>> from duiyi.go import Game
        >>> from duiyi.clock import Absolute
        >>> s = Session(Game(9), Clock(Absolute(600), now=0.0), takebacks=True)
        >>> s.move(BLACK, "E5", now=4.0)
        >>> s.may_request_takeback(BLACK), s.may_request_takeback(WHITE)
        (True, False)
        """
        return self._takeback is None and self.can_take_back(player)

    def can_take_back(self, player: Color) -> bool:
        """Whether a takeback of ``player``'s last move could be agreed now (a request open or
        not): takebacks allowed, play going on, a move of its own to take back."""
        if not self.takebacks or self.outcome() is not None or self.paused:
            return False
        try:
            self._takeback_count(player)
        except DuiyiError:
            return False
        return True

    def _takeback_count(self, player: Color) -> int:
        """The game actions a takeback by ``player`` removes (IllegalAction: none now)."""
        return self._game.takeback_count(player)

    @property
    def seats_swapped(self) -> bool:
        """True after a colour correction (Go §17.1, Gomoku §5.2): the players exchanged seats."""
        return self._seats_swapped

    @property
    def restarts(self) -> int:
        """How many times the game was restarted (colour correction, replay)."""
        return self._restarts

    def to_move(self) -> Color | None:
        """The seat expected to act, or None."""
        if self.outcome() is not None:
            return None
        return self._game.to_move()

    def outcome(self) -> Outcome | None:
        """Result, reason and article: imposed by time or a ruling, else the game's own."""
        return self._outcome or self._game.outcome()

    def result_sheet(self) -> dict[str, Any]:
        """The result as a tournament records it, by seat: ``result`` is a result code
        (``1-0``, ``0-1``, ``draw``, ``forfeit-black``, ``forfeit-white``, ``double-forfeit``,
        ``both-lose``, ``no-result``; None while playing) plus the warnings (a Go tiebreak,
        Go §27.1) and violations of each seat.

        >>> from duiyi.go import Game
        >>> from duiyi.clock import Absolute
        >>> s = Session(Game(9), Clock(Absolute(60), now=0.0))
        >>> s.resign(BLACK, now=3.0)
        >>> s.result_sheet()["result"]
        '0-1'
        """
        o = self.outcome()
        code: str | None = None
        if o is not None:
            no_show = [r for r in self._referee.rulings if r.kind is RulingKind.NO_SHOW]
            if o.result is Result.WIN and o.winner is not None:
                if no_show and o.termination is Termination.FORFEIT and no_show[-1].outcome == o:
                    code = f"forfeit-{o.winner.opponent.value}"
                else:
                    code = "1-0" if o.winner is BLACK else "0-1"
            elif o.result is Result.DRAW:
                code = "draw"
            elif o.result is Result.BOTH_LOSE:
                double = bool(no_show) and no_show[-1].outcome == o
                code = "double-forfeit" if double else "both-lose"
            else:
                code = "no-result"
        return {
            "result": code,
            "termination": o.termination.value if o else None,
            "article": o.article if o else None,
            "black_warnings": self._referee.warnings(BLACK),
            "white_warnings": self._referee.warnings(WHITE),
            "black_violations": self._referee.violations(BLACK),
            "white_violations": self._referee.violations(WHITE),
            "seats_swapped": self._seats_swapped,
            # Gomoku §2.20(4): out of the event; §2.20(3): lost this game by a penalty after
            # the result, while the opponent keeps the result above
            "disqualified": sorted(c.value for c in self._referee.disqualified()),
            "penalty_loss": sorted(c.value for c in self._referee.penalty_losses()),
        }

    def state(self, now: float | None = None) -> dict[str, Any]:
        """A public snapshot for a server (the sealed move is never in it)."""
        t = self._now if now is None else max(_check_time(now), self._now)
        to_move = self.to_move()
        outcome = self.outcome()
        return {
            "v": 1,
            "to_move": to_move.value if to_move else None,
            "paused": self.paused,
            "adjourned_by": self.adjourned_by.value if self.adjourned_by else None,
            "clock": {c.value: self._clock.remaining(c, t).to_json() for c in (BLACK, WHITE)},
            "clock_running": self._clock.running_color.value
            if self._clock.running and self._clock.running_color
            else None,
            "game": self._game.state_json(),
            "referee": self._referee.summary(),
            "outcome": outcome_json(outcome),
            "seats_swapped": self._seats_swapped,
            "clock_start": self.clock_start_json(),
            "takeback": self._takeback.value if self._takeback else None,
            "takeback_answer": self.takeback_answer,
        }

    # ------------------------------------------------------------------ time

    def _not_before_now(self, now: float) -> float:
        t = _check_time(now)
        if t < self._now:
            raise SessionError(f"time went backwards: {t:g} < {self._now:g}")
        return t

    def _auto_event(self) -> tuple[float, str, frozenset[Color]] | None:
        """The next automatic event: (time, "flag" | "no_show", players)."""
        if self.outcome() is not None:
            return None
        cands: list[tuple[float, str, frozenset[Color]]] = []
        clock = self._clock
        # whose time runs: an absent player's while the other is present (Gomoku §8.5)
        runner = clock.running_color
        ft = clock.flag_time()
        if ft is not None and runner is not None:
            if self._may_request(runner) and not self._standing(runner):
                ft += self.overrun_grace  # Go §22.5: the loss waits for a request
            cands.append((max(ft, self._now), "flag", frozenset({runner})))
        for c in (BLACK, WHITE):
            if c is not runner and clock.system.flag_after(clock.state(c)) <= 0:
                cands.append((self._now, "flag", frozenset({c})))
        deadline = clock.lateness_deadline()
        if deadline is not None:
            cands.append((math.nextafter(deadline, math.inf), "no_show", clock.absent))
        return min(cands, key=lambda e: e[0]) if cands else None

    def _overtime_pass_rules(self) -> bool:
        """Whether this game's book has the byo-yomi pass and seat leave (Go §22.5, §22.7)."""
        return self.kind is not None and self.kind.overtime_pass

    def _may_request(self, player: Color) -> bool:
        """Whether an overrun by ``player`` now could be a Go §22.5 pass: a Go byo-yomi, the
        player's own time running while it is on move, the player present."""
        clock = self._clock
        return (
            self._overtime_pass_rules()
            and clock.system.has_overtime
            and player is clock.to_move
            and player is clock.running_color
            and player not in clock.absent  # an absent player cannot ask
        )

    def _standing(self, player: Color) -> bool:
        """Whether ``player`` asked in advance for the Go §22.5 pass (or the event grants it)."""
        return self.overtime_pass or player in self._ot_requests

    def _settle(self, now: float) -> list[Event]:
        """Turn the flags and lateness limits that fell by ``now`` into logged actions."""
        events: list[Event] = []
        while True:
            ev = self._auto_event()
            if ev is None or ev[0] > now:
                return events
            at, kind, players = ev
            if kind == "no_show":
                action = LogEntry(NoShow(tuple(sorted(players, key=lambda c: c.value))), at)
                events.append(Event("no_show", at, None, "迟到超时，判负", "absent past the limit"))
            else:
                (player,) = players
                if self._standing(player) and self._may_request(player):
                    action = LogEntry(OvertimePass(), at, player)
                    events.append(_overtime_event(at, player))
                else:
                    action = LogEntry(Flag(), at, player)
                    events.append(Event("flag", at, player, "超时判负", "lost on time"))
            self._dispatch(action)
            self._log.append(action)
            self._now = max(self._now, at)  # as a replay of the log would have it

    def tick(self, now: float) -> list[Event]:
        """Everything due since the last tick, in order: the arbiter's calls for the player on
        move, flag-falls and no-shows (logged as automatic actions). For a server's timer."""
        now = self._not_before_now(now)
        events: list[Event] = []
        last = max(self._last_tick, self._now)
        while True:
            ev = self._auto_event()
            until = now if ev is None or ev[0] > now else ev[0]
            mover = self._clock.running_color
            if mover is not None and self.outcome() is None:
                for call in self._clock.calls_between(mover, last, until):
                    if call.kind != "flag":
                        events.append(Event("call", call.at, mover, call.zh, call.en))
                    elif (
                        self.overrun_grace > 0
                        and self._may_request(mover)
                        and not self._standing(mover)
                    ):
                        events.append(
                            Event(
                                "call",
                                call.at,
                                mover,
                                "超时；可申请改判弃权一次",
                                "over the last minute: ask now to count it as a pass "
                                "(Go §22.5), else the game is lost",
                            )
                        )
            if ev is None or ev[0] > now:
                break
            events.extend(self._settle(ev[0]))
            last = ev[0]
        self._now = max(self._now, now)
        self._last_tick = now
        return events

    def next_deadline(self, now: float) -> float | None:
        """The next time after ``now`` something happens (a call, a flag, a lateness limit),
        or None; a server sleeps until then and calls :meth:`tick`."""
        now = _check_time(now)
        times: list[float] = []
        ev = self._auto_event()
        if ev is not None:
            times.append(ev[0])
        mover = self._clock.running_color
        if mover is not None and self.outcome() is None:
            for call in self._clock.calls_between(mover, now, math.inf):
                times.append(call.at)
                break
        later = [t for t in times if t > now]
        if later:
            return min(later)
        return min(times) if times else None

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action, now: float, player: Color | None = None) -> None:
        """Apply one typed action of seat ``player`` (None: the arbiter) live at ``now``:
        settle the time up to ``now``, check, apply, log.

        Raises :class:`~duiyi.errors.GameOver` if the game ended first (e.g. a flag fell),
        and whatever the game, clock or referee refuse; a refused action is not logged.

        >>> from duiyi.go import Game
        >>> from duiyi.clock import Absolute
        >>> from duiyi.actions import Move
        >>> s = Session(Game(9), Clock(Absolute(600), now=0.0))
        >>> s.apply(Move("E5"), 4.0, BLACK)
        >>> s.log[-1].to_json()
        {'v': 1, 'type': 'move', 'at': 4.0, 'player': 'black', 'point': 'E5'}
        """
        at = self._not_before_now(now)
        entry = LogEntry(action, at, player)
        self._settle(at)
        if self.outcome() is not None and not isinstance(action, (Ruled, RoundEnded)):
            raise GameOver(f"the game is over: {_describe(self.outcome())}")
        prev = self._now
        self._now = at
        try:
            self._dispatch(entry)
        except BaseException:
            # a refused action leaves no trace: the session's time is that of its log
            self._now = max(prev, self._log[-1].at) if self._log else prev
            raise
        self._log.append(entry)

    def move(self, player: Color, point: str, now: float) -> None:
        """``player`` plays at ``point`` ("D4" in Go, "h8" in Gomoku) and presses the clock."""
        self.apply(Move(str(point)), now, player)

    def pass_(self, player: Color, now: float) -> None:
        """``player`` passes (Go §2.5, Gomoku §2.21)."""
        self.apply(Pass(), now, player)

    def resign(self, player: Color, now: float) -> None:
        """``player`` resigns."""
        self.apply(Resign(), now, player)

    def claim(self, player: Color, now: float, what: str = "foul") -> None:
        """``player`` claims: a forbidden move (Gomoku §10.1(2)), or the opponent's flag (judged
        at once by the session; the claim fails if the flag has not fallen)."""
        if what == "flag":
            self.tick(now)
            o = self.outcome()
            if o is None and self._clock.flagged(self._now) is player.opponent:
                raise IllegalAction(
                    f"{player.opponent} overran its last minute; the loss is ruled "
                    f"{self.overrun_grace:g} s after the overrun unless it asks to count it as "
                    "a pass, or sooner by the arbiter (Go §22.5)",
                    "Go §22.5",
                )
            if o is None or o.termination is not Termination.TIME or o.winner is not player:
                raise IllegalAction("the opponent's flag has not fallen", "Gomoku §8.6")
            return
        self.apply(ClaimFoul(what=what), now, player)

    def offer_draw(self, player: Color, now: float) -> None:
        """A draw offer right after one's own move (Gomoku §10.3)."""
        self.apply(OfferDraw(), now, player)

    def answer_draw(self, player: Color, accept: bool, now: float) -> None:
        """Accept or decline the opponent's draw offer (Gomoku §10.3(2))."""
        self.apply(AcceptDraw() if accept else DeclineDraw(), now, player)

    def mark_dead(self, player: Color, points: list[str], now: float) -> None:
        """Mark (toggle) dead groups in the counting phase (Go §8, §21)."""
        self.apply(MarkDead(tuple(points)), now, player)

    def accept(self, player: Color, now: float) -> None:
        """``player`` agrees to the marking; both agreeing counts the game (Go §21)."""
        self.apply(Accept(), now, player)

    def dispute(self, player: Color, point: str, now: float) -> None:
        """``player`` claims the group at ``point`` dead, the opponent disagrees: play resumes
        with ``player`` to move (Go §21.4)."""
        self.apply(Dispute(str(point)), now, player)

    def round_ended(self, now: float) -> None:
        """The event tells this game that its round ended at ``now``: from then on an appeal's
        deadline counts (Gomoku §8.11); until then no appeal is refused as late.

        >>> from duiyi.gomoku import Game
        >>> from duiyi.clock import Absolute
        >>> s = Session(Game(), Clock(Absolute(600), now=0.0))
        >>> s.round_ended(900.0); s.round_end
        900.0
        """
        self.apply(RoundEnded(), now)

    @property
    def round_end(self) -> float | None:
        """When the event said this game's round ended (None: not told)."""
        return self._round_end

    def pause(self, now: float) -> None:
        """Pause the game (Go §14): the clock stops, no moves until :meth:`resume`."""
        self.apply(Pause(), now)

    def adjourn(self, player: Color, sealed: GameAction | str, now: float) -> None:
        """Adjourn with a sealed move (封棋, Go §14, Gomoku §9.3): ``player`` (on move) writes
        its next move, the clock stops; the move stays hidden until :meth:`resume` plays it.
        ``sealed`` is a point, or a game action such as ``Move("D4")``."""
        self.apply(Adjourn(Move(sealed) if isinstance(sealed, str) else sealed), now, player)

    def resume(self, now: float) -> None:
        """Resume after a pause or an adjournment; a sealed move is played at once (Gomoku
        §9.4(4)) and costs the time its player had used before sealing."""
        self.apply(Resume(), now)

    def arrive(self, player: Color, now: float) -> None:
        """A player sits down. Under ``start_rule="seated"`` the clock starts when both have
        (issue 21; nobody is charged anything). Under a scheduled start with lateness rules
        (Go §22.1-4, Gomoku §8.5) a late player is charged its lateness (twice in Go) and the
        clock runs for the player to move again; until then the absent player's time ran,
        never the present player's (see :class:`~duiyi.clock.Clock`)."""
        self.apply(Arrive(), now, player)

    def request_overtime_pass(self, player: Color, now: float) -> None:
        """Go §22.5 "经被读秒方申请": made in advance, from now on an overrun of ``player``'s
        last minute counts as one pass instead of a loss (the option ``overtime_pass`` grants
        it to both in advance); made at the overrun, before the loss is ruled (within
        ``overrun_grace``), it turns this overrun into the pass at once. No warning."""
        self.apply(RequestOvertimePass(), now, player)

    def may_request_overtime_pass(self, player: Color) -> bool:
        """Whether a Go §22.5 request of ``player`` would still change anything: a Go game
        under byo-yomi, not over, and no standing request yet (its own, or the option
        ``overtime_pass`` that grants it to both). For displays: a request is also accepted
        when this is False, and changes nothing then.

        >>> from duiyi.go import Game
        >>> from duiyi.clock import ChineseByoyomi
        >>> s = Session(Game(9), Clock(ChineseByoyomi(base=60, reserved_minutes=1), now=0.0))
        >>> s.may_request_overtime_pass(BLACK)
        True
        >>> s.request_overtime_pass(BLACK, now=5.0)
        >>> s.may_request_overtime_pass(BLACK), s.may_request_overtime_pass(WHITE)
        (False, True)
        """
        return (
            self._overtime_pass_rules()
            and self._clock.system.has_overtime
            and self.outcome() is None
            and not self._standing(player)
        )

    def split_pool(self, now: float) -> None:
        """The arbiter splits a shared pool in halves (Gomoku §8.1)."""
        self.apply(SplitPool(), now)

    def rule(self, request: RulingRequest, now: float) -> list[Ruling]:
        """Make the ruling ``request`` asks for (one typed request per kind,
        :mod:`duiyi.referee.requests`) and apply its effects; returns the rulings recorded.
        The session adds what only it knows (:class:`~duiyi.referee.Facts`: the time, the moves
        played, whether the game is decided, when it ended).

        >>> from duiyi.go import Game
        >>> from duiyi.clock import Absolute
        >>> from duiyi.referee.requests import VoidMove
        >>> s = Session(Game(9), Clock(Absolute(600), now=0.0))
        >>> [r.kind.value for r in s.rule(VoidMove(BLACK, "Go §19"), 5.0)]
        ['void_move']
        >>> s.to_move()                      # the void move counted as Black's pass
        Color.WHITE
        """
        if not isinstance(request, requests.REQUESTS):
            raise InvalidInput(f"not a ruling request: {request!r}")
        self._referee.article(request.kind)  # a ruling this game's rulebook lacks is refused
        at = self._not_before_now(now)
        self._settle(at)
        if isinstance(request, requests.LeaveSeat):
            self._check_leave_seat(request.color, at)
        facts = Facts(
            at=at,
            moves_played=self._game.moves_played(),
            minutes_played=self._clock.elapsed(at) / 60.0,
            decided=self.outcome() is not None,
            ended_at=self._ended_at,
            round_end=self._round_end,
        )
        trial = Referee.from_json(self._referee.to_json(), self._referee.game)
        overriding = (requests.Forfeit, requests.DoubleForfeit, requests.BothFlags)
        override = isinstance(request, overriding) and request.override
        new = list(trial.rule(request, facts))
        for r in new:
            self.apply_ruling(r, at, override=override)
        return new

    def _check_leave_seat(self, color: object, at: float) -> None:
        """Go §22.7: the permission is for a player in byo-yomi, during the opponent's time."""
        if not isinstance(color, Color):
            raise InvalidInput(f"leave_seat names a colour, got {color!r}")
        if not self._overtime_pass_rules() or not self._clock.system.has_overtime:
            raise SessionError("leaving the seat in byo-yomi is a Go rule (Go §22.7)", "Go §22.7")
        if self.outcome() is not None:
            raise GameOver(f"the game is over: {_describe(self.outcome())}")
        if not self._clock.remaining(color, at).in_overtime:
            raise SessionError(
                f"{color} is not in byo-yomi: Go §22.7 asks permission only then", "Go §22.7"
            )
        if self.to_move() is not color.opponent:
            raise SessionError(
                f"Go §22.7 is about leaving during the opponent's thinking time; {color} is on "
                "move (its own byo-yomi simply runs)",
                "Go §22.7",
            )

    def _check_take_back(self, ruling: Ruling) -> None:
        """Go §17.3, Gomoku §6.1(7): a dropped stone comes back only while it is the game's
        last action (in Gomoku also when it made a five: the five goes with it)."""
        if ruling.color is None:
            raise SessionError("a dropped stone picked up names its player", ruling.article)
        if self._outcome is not None:
            raise GameOver(f"the game is over: {_describe(self._outcome)}")
        self._game.check_take_back(ruling.color)  # the game's own result: the game's to say

    def apply_ruling(self, ruling: Ruling, now: float, *, override: bool = False) -> None:
        """Record a ruling made elsewhere and apply its effects. A ruling that decides an
        already decided game needs ``override=True`` (Go §23.1)."""
        if not isinstance(ruling, Ruling):
            raise InvalidInput(f"not a ruling: {ruling!r}")
        if ruling.kind is RulingKind.VOID_MOVE and ruling.passes is not None:
            self._check_void_pass(ruling.passes, ruling.article)  # live only: old logs replay
        self.apply(Ruled(ruling, override), now, ruling.color)

    # ------------------------------------------------------------------ dispatch

    def _dispatch(self, e: LogEntry) -> None:
        at = e.at
        match e.action:
            case Pause():
                self._clock.pause(at)
            case Adjourn(sealed=sealed):
                self._do_adjourn(e, sealed)
            case Resume():
                self._do_resume(e)
            case Arrive():
                self._do_arrive(e)
            case RequestOvertimePass():
                self._do_request_overtime_pass(e)
            case RequestTakeback() | AcceptTakeback() | DeclineTakeback():
                self._do_takeback(e)
            case SplitPool():
                self._clock.split_pool(at)
            case Ruled(ruling=ruling, override=override):
                self._apply_ruling(ruling, at, override=override)
            case Flag():
                self._do_flag(e)
            case NoShow(players=players):
                self._do_no_show(frozenset(players), at)
            case OvertimePass():
                self._overtime_pass(self._player(e), at)
            case RoundEnded():
                if self._round_end is None:  # told twice: the round ended the first time
                    self._round_end = at
            case action if is_game_action(action):
                self._game_action(e, action)
            case _:
                raise SessionError(f"unknown session action {e.action!r}")

    def _do_request_overtime_pass(self, e: LogEntry) -> None:
        player = self._player(e)
        if not self._overtime_pass_rules() or not self._clock.system.has_overtime:
            raise SessionError("the pass on overtime is for Go byo-yomi (Go §22.5)", "Go §22.5")
        if self._may_request(player) and self._clock.flagged(e.at) is player:
            # made at the overrun, before the loss was ruled: this overrun is the pass
            self._overtime_pass(player, e.at)
        else:
            self._ot_requests.add(player)

    def _do_takeback(self, a: LogEntry) -> None:
        """A takeback by agreement (issue 21, casual games only): a player asks to take back
        its last move; the opponent agrees (the moves since, the opponent's answer included,
        come off and the asker is to move again) or declines. Time used stays used: the clock
        runs on for the player to move (docs/decisions.md)."""
        player = self._player(a)
        if not self.takebacks:
            raise IllegalAction(
                "no takebacks in this game: an event's game is played as it stands "
                "(a casual game allows them by agreement)",
                code="takeback-not-allowed",
            )
        if self._clock.paused:
            raise IllegalAction(
                "the game is paused or adjourned: resume it first", code="takeback-paused"
            )
        if isinstance(a.action, RequestTakeback):
            if self._takeback is player:
                return  # asked again (a double click, a second tab): the same request
            if self._takeback is not None:
                raise IllegalAction(
                    f"{self._takeback} has asked already; wait for the answer",
                    code="takeback-asked-already",
                    values={"player": self._takeback.value},
                )
            self._takeback_count(player)
            self._takeback = player
            self._takeback_answer = None
            return
        asker = self._takeback
        if asker is None or asker is player:
            raise IllegalAction(
                f"{player.opponent} has no request to take back a move open (a request ends "
                "when it is answered or a move is played)",
                code="takeback-none-open",
                values={"player": player.opponent.value},
            )
        if isinstance(a.action, DeclineTakeback):
            self._takeback = None
            self._takeback_answer = (asker, "refused")
            return
        count = self._takeback_count(asker)  # a refusal changes nothing
        self._takeback = None
        self._game.take_back_moves(count)
        if not self._started:
            return
        if self._takeback_quota:
            # the moves alternate from the asker's: they leave each player's quota of moves
            # (Go §12.5, Gomoku §8.2); the time they took stays used
            self._clock.take_back(asker, (count + 1) // 2, a.at)
            self._clock.take_back(asker.opponent, count // 2, a.at)
        want = self._game.to_move()
        if self._clock.to_move is not want:
            if self._clock.to_move is not None:
                self._clock.stop(a.at)
            if want is not None:
                self._clock.start(want, a.at)

    def _overtime_pass(self, player: Color, at: float) -> None:
        article = self._referee.article("overtime_pass")
        ruling = overtime_pass_ruling(player, article, at, self._game.moves_played())
        self._apply_ruling(ruling, at)

    def _player(self, e: LogEntry) -> Color:
        if e.player is None:
            raise SessionError(f"a {e.type!r} action names its player")
        return e.player

    def _game_action(self, a: LogEntry, action: GameAction) -> None:
        player = self._player(a)
        if self._clock.paused:
            raise SessionError(
                "the game is paused or adjourned (Go §14, Gomoku §9): resume it first"
            )
        if self._clock.absent and player in self._clock.absent:
            raise SessionError(f"{player} has not arrived yet (arrive first)")
        self._check_not_overrun(player, a.at)
        pressed = action.turn and self._clock.to_move is player
        self._game.play(player, action)
        if action.turn and self._takeback is not None:
            # a move ends the request: the asker played on, or the opponent moved instead of
            # answering (the asker is told); agreeing later would take back the wrong moves
            if self._takeback is not player:
                self._takeback_answer = (self._takeback, "played_on")
            self._takeback = None
        elif action.turn and self._takeback_answer and self._takeback_answer[0] is player:
            self._takeback_answer = None
        if not self._started:
            # acting is being there (issue 21): a seated start counts the player as seated;
            # a first-move start begins with this move, which costs nothing
            self._seated.add(player)
            first = self.start_rule == "first_move" and action.turn
            self._started = first or (self.start_rule == "seated" and len(self._seated) == 2)
        self._after_game_change(a.at, player if pressed else None)

    def _check_not_overrun(self, player: Color, at: float) -> None:
        """Refuse ``player``'s move past its last minute while the loss waits for a Go §22.5
        request (``overrun_grace``)."""
        if self._clock.running_color is player and self._clock.flagged(at) is player:
            raise SessionError(
                f"{player}'s time ran out before this action: it comes too late (Go §12.3); "
                "only a request to count the overrun as a pass can follow (Go §22.5)",
                "Go §12.3",
            )

    def _after_game_change(self, at: float, pressed_by: Color | None = None) -> None:
        self._sync_clock(at, pressed_by)

    def _sync_clock(self, at: float, pressed_by: Color | None = None) -> None:
        """Make the clock follow the game. ``pressed_by`` is the player whose stone or pass
        (a move, Go §2.5) just completed its turn: it presses the clock even when that move
        stops play (the second pass, a five), so the move costs what any move costs (Go §12.3
        "不足60秒的着手不予计时"). Anything else that stops play stops the clock
        (:meth:`Clock.stop`: what ran is charged, a started byo-yomi minute is not)."""
        clock = self._clock
        if self._ended_at is None and self.outcome() is not None:
            self._ended_at = at
        if not self._started:
            return  # the clock waits for its start (issue 21)
        nxt = None if self.outcome() is not None else self._game.to_move()
        cur = clock.to_move
        if nxt is None:
            if cur is not None and cur is pressed_by and not clock.paused and not self._legacy:
                clock.press(cur, at)
            if clock.to_move is not None:
                clock.stop(at, whole_periods=self._legacy)
        elif cur is None:
            clock.start(nxt, at)
        elif nxt is not cur:
            if clock.paused:
                raise SessionError("the clock is paused; resume before the turn changes")
            clock.press(cur, at)

    def _end(self, outcome: Outcome, at: float) -> None:
        if self.outcome() is None:
            self._outcome = outcome
            self._game.end(outcome)
        self._sync_clock(at)

    def _do_flag(self, a: LogEntry) -> None:
        player = self._player(a)
        if self._clock.flagged(a.at) is not player:
            raise SessionError(f"{player}'s flag has not fallen at {a.at:g}")
        absent = self._absent_through_byoyomi(player)
        if absent is not None:
            # Go §22.4: the count ran out on a player who never sat down: it loses the right
            # to play the game (a forfeit), it did not lose a game on time
            ruling = Referee(self._referee.game).no_show({player}, at=a.at, article=absent)
            self._referee.record(ruling)
            assert ruling.outcome is not None
            self._end(ruling.outcome, a.at)
            return
        article = self._game.time_article(self._clock.system)
        self._end(Outcome.win(player.opponent, Termination.TIME, article), a.at)

    def _absent_through_byoyomi(self, player: Color) -> str | None:
        """The article when ``player``'s fallen flag is an absence through the whole byo-yomi
        of a game without main time (Go §22.4: 按时缺席读秒 … 如读秒过程告终，棋手即自动失去
        该局参赛资格), else None (the book has no such rule, main time, or the player sat)."""
        article = self._referee.book.articles.get("no_show_byoyomi")
        system = self._clock.system
        if article is None or not system.has_overtime or system.initial().main > 0:
            return None
        return article if player in self._clock.absent else None

    def _do_no_show(self, players: frozenset[Color], at: float) -> None:
        if not players or self._clock.late_forfeits(at) != players:
            raise SessionError(
                f"no lateness forfeit for {sorted(c.value for c in players)} at {at:g}"
            )
        # the lateness rule that applied: Go §22.2 (15 min by the lodging), §22.1, Gomoku §8.5
        article = self._clock.lateness.article or None
        ruling = Referee(self._referee.game).no_show(players, at=at, article=article)
        self._referee.record(ruling)
        assert ruling.outcome is not None
        self._end(ruling.outcome, at)

    def _do_arrive(self, a: LogEntry) -> None:
        player = self._player(a)
        if self.start_rule == "seated" and not self._started:
            if player in self._seated:
                raise SessionError(f"{player} has already sat down")
            self._seated.add(player)
            if len(self._seated) == 2:  # both are there: the clock starts (issue 21)
                self._started = True
                self._sync_clock(a.at)
            return
        try:
            self._clock.arrive(player, a.at)
        except ClockError as exc:
            raise SessionError(str(exc), exc.article) from exc

    def _do_adjourn(self, a: LogEntry, sealed: GameAction) -> None:
        player = self._player(a)
        if self._adjourned is not None or self._clock.paused:
            raise SessionError("the game is already paused or adjourned")
        if self._game.to_move() is not player or self._clock.to_move is not player:
            raise SessionError(
                "only the player on move seals a move (Gomoku §9.3(3))", "Gomoku §9.3"
            )
        self._check_not_overrun(player, a.at)
        self._clock.pause(a.at)
        self._adjourned = a

    def _do_resume(self, a: LogEntry) -> None:
        if not self._clock.paused:
            raise SessionError("the game is not paused")
        self._clock.resume(a.at)
        sealed_by = self._adjourned
        self._adjourned = None
        if sealed_by is None:
            return
        player = self._player(sealed_by)
        assert isinstance(sealed_by.action, Adjourn)
        sealed = sealed_by.action.sealed
        pressed = sealed.turn and self._clock.to_move is player
        try:
            self._game.play(player, sealed)
        except DuiyiError as exc:
            # Gomoku §9.3(6): a sealed move must be legal, else the game is lost
            self.sealed_error = str(exc)
            self._end(Outcome.win(player.opponent, Termination.FORFEIT, "Gomoku §9.3(6)"), a.at)
            return
        self._after_game_change(a.at, player if pressed else None)

    def _apply_ruling(self, ruling: Ruling, at: float, *, override: bool = False) -> None:
        """Record ``ruling`` and apply its effects (:attr:`Ruling.effects`): the refusals
        first, then the board put right (a refusal leaves nothing recorded), the record, and
        the effects in their order: the clock's here, the board's through the game's adapter."""
        effects = ruling.effects
        self._check_ruling(ruling, effects, override)
        for effect in effects:
            if effect.board_first:
                self._correct_board(effect, ruling.article)
        if (
            ruling.kind is RulingKind.LEAVE_SEAT
            and ruling.color is not None
            and self._referee.seat_leaves(ruling.color)
        ):
            raise RefereeError(
                f"{ruling.color} already left the seat once in this game (Go §22.7)", "Go §22.7"
            )
        if ruling.kind is RulingKind.OVERTIME_PASS:
            player = ruling.color
            if player is None or not self._overtime_pass_rules():
                raise SessionError("a pass on overtime names its player, in Go (Go §22.5)")
            try:
                self._clock.overtime_pass(player, at)
            except ClockError as exc:
                raise SessionError(str(exc), exc.article) from exc
        self._referee.record(ruling, override=override)
        for effect in effects:
            match effect:
                case fx.AdjustClock(color=color, seconds=seconds):
                    self._clock.adjust(color, seconds, at)
                case fx.SwapSeats():
                    # Gomoku §5.3(2): the seat that was to play White takes Black: the players
                    # exchange seats before the first move (the host re-maps them, as after
                    # Gomoku §5.2)
                    self._seats_swapped = not self._seats_swapped
                case fx.Warn(color=color, article=article):
                    self._game.warn(color, article)
                case fx.TakeBack(color=color) if color is not None:
                    self._game.take_back(color)
                    self._hand_back(color, at)
                case fx.PassTurn(color=color):
                    self._game.pass_turn(color)
                    self._sync_clock(at, color)  # a pass is a move: it presses (Go §19)
                case fx.Restart(swap=swap):
                    self._restart(at, swap=swap)
                    return
                case fx.Decide(outcome=outcome):
                    if override:
                        self._outcome = outcome
                    self._end(outcome, at)
                    return
        self._sync_clock(at)

    def _check_ruling(self, ruling: Ruling, effects: tuple[fx.Effect, ...], override: bool) -> None:
        """The refusals of a ruling before anything changes: a game over, paused or decided,
        colours chosen after the first move, a dropped stone that is no longer the last act."""
        decides = any(isinstance(e, fx.Decide) for e in effects)
        if not decides and self.outcome() is not None and any(e.in_play for e in effects):
            raise GameOver(f"the game is over: {_describe(self.outcome())}")
        if self._clock.paused and any(e.turns for e in effects):
            raise SessionError("resume the game before a ruling that changes the turn")
        if decides and self.outcome() is not None and not override:
            raise RefereeError(
                f"the game is already decided ({_describe(self.outcome())}); "
                "pass override=True to change a result",
                ruling.article,
            )
        if ruling.kind in (RulingKind.COIN_TOSS, RulingKind.COLOURS_CHOSEN) and (
            self._game.moves_played() > 0 or self.outcome() is not None
        ):
            raise SessionError(
                "the colours are chosen before the game starts (Gomoku §5.3(2))", "Gomoku §5.3(2)"
            )
        if any(isinstance(e, fx.TakeBack) for e in effects):
            self._check_take_back(ruling)

    def _correct_board(self, effect: fx.Effect, article: str) -> None:
        """A stone replaced (Gomoku §6.1(5)-(6)) or stones restored (Go §18.1), through the
        game's adapter, before the ruling is recorded: a refusal records nothing."""
        match effect:
            case fx.ReplaceStone(color=color, point=point):
                if color is None:
                    raise SessionError(
                        "a stone put back names its player (Gomoku §6.1)", "Gomoku §6.1"
                    )
                self._game.replace_last_stone(color, point)
            case fx.RestoreStones(remover=remover, points=points):
                if remover is None:
                    raise SessionError("stones put back name their remover (Go §18.1)", "Go §18.1")
                self._game.check_restore_stones()
                if self.outcome() is not None:
                    raise GameOver(f"the game is over: {_describe(self.outcome())}")
                self._game.restore_stones(remover.opponent, points, article)

    def _check_void_pass(self, player: Color, article: str) -> None:
        """A void move that costs the turn (Go §19, §18.3) voids the move ``player`` is
        making now, the next of the game, and counts as its pass: so ``player`` is on move.
        Voiding the other player would change nothing: refused, saying what to rule."""
        if self.outcome() is None and self.to_move() is not player:
            raise RefereeError(
                f"{player} is not on move: a void move that counts as a pass voids the move "
                f"being made now (move {self._game.moves_played() + 1}, "
                f"{player.opponent}'s); {player}'s last move stands (to take a stone back, rule "
                "a dropped stone or an irregularity)",
                article,
                code="void-not-on-move",
                values={
                    "player": player.value,
                    "opponent": player.opponent.value,
                    "move": str(self._game.moves_played() + 1),
                },
            )

    def _hand_back(self, dropper: Color, at: float) -> None:
        """The turn goes back to ``dropper`` after its stone was taken back (Go §17.3): its
        press is undone, so the opponent's time since then is charged to nobody and the
        dropper's turn goes on as it stood (docs/decisions.md); if the clock changed since
        the press, the opponent's turn just stops (charged without rounding, Go §12.3)."""
        if self._clock.can_unpress(dropper) and not self._legacy:
            self._clock.unpress(dropper, at)
        elif self._clock.to_move is not None and self._clock.to_move is not dropper:
            self._clock.stop(at, whole_periods=self._legacy)

    def _restart(self, at: float, *, swap: bool) -> None:
        """Start the game again from its initial state, clocks reset (Gomoku §5.2(3))."""
        self._game = adapter_from_config(self._initial["game"])
        first = Clock.from_json(self._initial["clock"])
        self._clock = Clock(first.system, to_move=None, now=at)
        self._outcome = None
        self._adjourned = None
        self._takeback = None
        self._started = True  # the players are at the board
        self._ended_at = None
        self._restarts += 1
        if swap:
            self._seats_swapped = not self._seats_swapped
        self._sync_clock(at)

    # ------------------------------------------------------------------ (de)serialisation

    def to_json(self) -> dict[str, Any]:
        """The whole log, the sealed move included (the arbiter's envelope): store this.
        Stable and versioned (``"v": 1``)."""
        return {
            "v": 1,
            "game": copy.deepcopy(self._initial["game"]),
            "clock": copy.deepcopy(self._initial["clock"]),
            "referee": copy.deepcopy(self._initial["referee"]),
            "options": self._options_json(),
            "actions": [a.to_json() for a in self._log],
            "ticked": self._last_tick,
        }

    def _options_json(self) -> dict[str, Any]:
        options: dict[str, Any] = {"overtime_pass": self.overtime_pass}
        if not self._legacy:  # absent in older logs, which stopped clocks the old way
            options["clock_stops"] = 2
        if self.overrun_grace:  # absent in older logs, which ruled the loss at the overrun
            options["overrun_grace"] = self.overrun_grace
        if self.start_rule != "scheduled":  # absent in older logs: their clocks started at once
            options["start_rule"] = self.start_rule
        if self.takebacks:  # absent in older logs and event games: no takebacks
            options["takebacks"] = True
            if self._takeback_quota:  # absent in older logs: taken-back moves counted
                options["takeback_quota"] = True
        return options

    def public_json(self) -> dict[str, Any]:
        """Like :meth:`to_json`, but a sealed move not yet played is hidden (Go §14, Gomoku
        §9.3(5): the envelope stays closed until the game resumes)."""
        data = self.to_json()
        if self._adjourned is not None:
            idx = self._log.index(self._adjourned)
            data["actions"][idx]["sealed"] = "hidden"
        return data

    @classmethod
    def from_log(cls, log: dict[str, Any]) -> Session:
        """Rebuild a session from :meth:`to_json`: the same state and outcome."""
        if not isinstance(log, dict) or log.get("v") != 1:
            raise SessionError("not a version-1 session log")
        try:
            game = adapter_from_config(log["game"])
            clock = Clock.from_json(log["clock"])
            referee = Referee.from_json(log["referee"], get_game(stored_game(log["referee"])))
            options = log.get("options", {})
            actions = [LogEntry.from_json(a) for a in log["actions"]]
        except KeyError as exc:
            raise SessionError(f"a session log needs {exc}") from exc
        except InvalidInput as exc:
            raise SessionError(f"bad session log: {exc}") from exc
        session = cls(
            game,
            clock,
            referee,
            overtime_pass=bool(options.get("overtime_pass")),
            # logs written before the grace existed ruled the loss at the overrun
            overrun_grace=float(options.get("overrun_grace", 0.0)),
            start_rule=str(options.get("start_rule", "scheduled")),
            takebacks=bool(options.get("takebacks", False)),
        )
        session._legacy = options.get("clock_stops", 1) < 2
        session._takeback_quota = bool(options.get("takeback_quota", False))
        for i, a in enumerate(actions):
            if a.at < session._now:
                raise SessionError(f"action {i} goes back in time ({a.at:g})")
            session._now = a.at
            try:
                session._dispatch(a)
            except DuiyiError as exc:
                raise SessionError(f"action {i} ({a.type}) cannot be replayed: {exc}") from exc
            session._log.append(a)
        ticked = log.get("ticked")
        session._last_tick = float(ticked) if ticked is not None else session._now
        session._now = max(session._now, session._last_tick)
        return session

    def __repr__(self) -> str:
        o = self.outcome()
        status = _describe(o) if o else (f"{self.to_move()} to move" if self.to_move() else "—")
        return f"<Session {self._game.kind}: {len(self._log)} actions, {status}>"


def _overtime_event(at: float, player: Color) -> Event:
    return Event(
        "overtime_pass",
        at,
        player,
        "超时，改判弃权一次，继续读秒",
        "over the last minute: counted as one pass, play goes on (Go §22.5)",
    )


def _describe(o: Outcome | None) -> str:
    return "ongoing" if o is None else o.describe()
