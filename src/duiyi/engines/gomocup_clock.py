"""The clock of a refereed Gomocup game (:class:`GameClock`): each brain's move limit and game
limit on the shared clock's time systems (Gomoku §8.2), judged in whole milliseconds."""

from __future__ import annotations

from duiyi import BLACK, WHITE, Color
from duiyi.clock import Absolute, MultiPeriod, PlayerTime, Stage, TimeSystem
from duiyi.errors import (
    InvalidInput,
)
from duiyi.gomoku.match import (
    ARTICLES,
    TimeControl,
)
from duiyi.outcome import Outcome, Termination

__all__ = ["GameClock"]


class GameClock:
    """Both brains' thinking time in one game, on the shared clock's time systems.

    The move limit is the one-move stage of :class:`duiyi.clock.MultiPeriod` (读秒, Gomoku
    §8.2: each move within ``turn_ms``), the game limit :class:`duiyi.clock.Absolute` (单一时限,
    §8.2: one side's moves within ``match_ms``); each side keeps its own
    :class:`~duiyi.clock.PlayerTime` in each. The adapter measures; :meth:`charge` decides,
    with limits compared in whole milliseconds. A move is late only past its limit plus
    ``tolerance_ms`` (exactly on the limit is in time); a late side loses (§10.1(3)B).

    >>> clock = GameClock(TimeControl(turn_ms=100, tolerance_ms=20))
    >>> clock.budget_ms(WHITE)
    120
    >>> clock.charge(WHITE, 115) is None  # within the tolerance
    True
    >>> clock.used_ms[WHITE], clock.charge(BLACK, 121).termination.value
    (115, 'time')
    """

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.used_ms: dict[Color, int] = {BLACK: 0, WHITE: 0}
        self.moves: dict[Color, int] = {BLACK: 0, WHITE: 0}
        self._turn: TimeSystem | None = None
        self._game: TimeSystem | None = None
        if control.turn_ms is not None:
            self._turn = MultiPeriod((Stage(control.turn_ms / 1000, 1),), carry_over=False)
        if control.match_ms is not None:
            self._game = Absolute(control.match_ms / 1000)
        self._state: dict[tuple[Color, str], PlayerTime] = {}
        for color in (BLACK, WHITE):
            for key, system in (("turn", self._turn), ("game", self._game)):
                if system is not None:
                    self._state[color, key] = system.initial()

    def _limit_ms(self, color: Color, key: str) -> int | None:
        system = self._turn if key == "turn" else self._game
        if system is None:
            return None
        return round(system.flag_after(self._state[color, key]) * 1000)

    def time_left_ms(self, color: Color) -> int | None:
        """What is left of ``color``'s game limit (never below 0), ``None`` when unlimited."""
        return self._limit_ms(color, "game")

    def budget_ms(self, color: Color) -> int | None:
        """How long the referee waits for ``color``'s next move before ruling, tolerance included.

        >>> c = GameClock(TimeControl(turn_ms=1000, match_ms=1500, tolerance_ms=50))
        >>> c.charge(BLACK, 1000); c.budget_ms(BLACK), c.budget_ms(WHITE)
        (550, 1050)
        """
        limits = [
            v for v in (self._limit_ms(color, "turn"), self.time_left_ms(color)) if v is not None
        ]
        if not limits:
            return None
        return min(limits) + self.control.tolerance_ms

    def charge(self, color: Color, elapsed_ms: int) -> Outcome | None:
        """Record a move that took ``elapsed_ms``; the outcome if that broke a limit, else None.

        The move limit is checked first, then the game limit (Gomoku §8.2); either way the side
        over time loses (§10.1(3)B).

        >>> c = GameClock(TimeControl(match_ms=1000, tolerance_ms=0))
        >>> c.charge(WHITE, 600), c.charge(WHITE, 401).winner
        (None, Color.BLACK)
        """
        if elapsed_ms < 0:
            raise InvalidInput(f"elapsed time cannot be negative: {elapsed_ms} ms")
        tol = self.control.tolerance_ms
        late = False
        for key, system in (("turn", self._turn), ("game", self._game)):
            limit = self._limit_ms(color, key)
            if system is None or limit is None:
                continue
            late = late or elapsed_ms > limit + tol
            self._state[color, key] = system.spend(self._state[color, key], elapsed_ms / 1000)
        self.used_ms[color] += elapsed_ms
        self.moves[color] += 1
        return self.overtime(color) if late else None

    def overtime(self, color: Color) -> Outcome:
        """The outcome when ``color`` is out of time (Gomoku §8.2, §10.1(3)B).

        >>> GameClock(TimeControl(turn_ms=10)).overtime(BLACK).winner
        Color.WHITE
        """
        return Outcome.win(color.opponent, Termination.TIME, ARTICLES["time"])

    def describe_overtime(self, color: Color, elapsed_ms: int | None = None) -> str:
        """A human line saying which limit ``color`` broke (``elapsed_ms``: the last move's time,
        ``None`` when no move came at all).

        >>> c = GameClock(TimeControl(turn_ms=300, match_ms=1000, tolerance_ms=0))
        >>> c.describe_overtime(WHITE)
        'white did not move within the 300 ms move limit'
        >>> _ = c.charge(BLACK, 900); c.describe_overtime(BLACK)
        'black used up the 1000 ms game limit'
        >>> c.describe_overtime(WHITE, 450)
        'white took 450 ms, over the 300 ms move limit'
        """
        turn = self.control.turn_ms
        tol = self.control.tolerance_ms
        if elapsed_ms is not None and turn is not None and elapsed_ms > turn + tol:
            return f"{color} took {elapsed_ms} ms, over the {turn} ms move limit"
        left = self.time_left_ms(color)
        if left is not None and (elapsed_ms is not None or turn is None or left < turn):
            return f"{color} used up the {self.control.match_ms} ms game limit"
        return f"{color} did not move within the {turn} ms move limit"
