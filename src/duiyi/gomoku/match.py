"""The pure decisions of an engine match refereed by duiyi (no processes, no clock, no asyncio).

The adapter (:mod:`duiyi.engines.gomocup_match`) runs the brains and measures time with the
monotonic clock; what it has to decide about the board is decided here, from facts passed in:

* :class:`TimeControl`: per-move limit (Gomoku §8.2, 读秒) and per-game limit for each side
  (§8.2, 单一时限); the adapter's :class:`duiyi.engines.gomocup_clock.GameClock` runs them on the
  shared clock's time systems (a side over its limit loses, §10.1(3)B).
* :class:`MoveJudge`: each stone of an engine game judged through the core game; how the game
  ended is an :class:`Ending` (the arbiter's rulings themselves are the one
  :class:`duiyi.referee.Referee` ledger's).
* :func:`forfeit`: the outcome when a brain crashes, refuses, answers nonsense or plays an
  occupied or off-board point (§10.1(3)D and G).
* :func:`schedule`: which opening each game starts from and who plays Black.
* A finished game's record is the engines' one record for both games
  (:class:`duiyi.engines.record.EngineGameRecord`). The match score is kept by the adapter
  (:class:`duiyi.engines.tally.MatchTally`) on the tournament's results
  (:class:`~duiyi.tournament.results.GameResult`), with the Elo figures of Go matches.

>>> TimeControl(turn_ms=1000, match_ms=2500).gomocup_info()
{'timeout_turn': 1000, 'timeout_match': 2500}
>>> forfeit(BLACK, Failure.CRASH).article
'Gomoku §10.1(3)D'
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass

from duiyi import BLACK, WHITE, Color
from duiyi.errors import GameOver, InvalidInput, InvalidPoint
from duiyi.gomoku.board import Board
from duiyi.gomoku.fouls import Foul, foul
from duiyi.gomoku.game import Game
from duiyi.gomoku.openings import OPENINGS, opening_by_name, recognise
from duiyi.gomoku.point import Point
from duiyi.gomoku.rules import OpeningRule, RenjuRules
from duiyi.outcome import Outcome, Result, Termination

__all__ = [
    "ARTICLES",
    "DEFAULT_TOLERANCE_MS",
    "Ending",
    "Failure",
    "MoveJudge",
    "ScheduledGame",
    "TimeControl",
    "both_forfeit",
    "forfeit",
    "openings_for",
    "pick_opening",
    "schedule",
]

#: Grace (ms) the referee adds to a time limit before ruling a move late. A brain is timed from
#: the end of writing its move command to the reading of its answer (as Piskvork does); the
#: pipe, the process scheduler and Python's event loop still add a few milliseconds the brain
#: cannot see (2-5 ms measured on a loaded machine), so a brain that uses its whole
#: ``timeout_turn`` must not lose for that. 100 ms is well above that noise and well below any
#: useful thinking time; see docs/decisions.md.
DEFAULT_TOLERANCE_MS = 100

#: The article behind each kind of ending the referee of an engine game can reach.
ARTICLES: dict[str, str] = {
    "time": "Gomoku §8.2, §10.1(3)B",  # over the move or game time limit: lost
    "withdrawal": "Gomoku §10.1(3)D",  # 中途退出 / 当局弃权: a brain that dies or refuses to play
    "rules": "Gomoku §10.1(3)G",  # 拒绝遵守本规则: an answer that is no move at all
    "point": "Gomoku §4.2, §10.1(3)G",  # a stone goes on an empty point of the board (§4.2)
    "both": "Gomoku §8.5",  # both sides absent: both lose
    "five": "Gomoku §10.1(1)",
    "foul": "Gomoku §10.1(2)",
    "full_board": "Gomoku §10.2(3)",
}


class Failure(enum.Enum):
    """What went wrong with a brain, as observed by the adapter."""

    CRASH = "crash"  # the process exited or closed its pipes
    REFUSAL = "refusal"  # it answered ERROR / UNKNOWN to a mandatory command
    PROTOCOL = "protocol"  # an answer that is no move at all
    OCCUPIED = "occupied"  # a point that already holds a stone
    OFF_BOARD = "off_board"  # a point outside the 15x15 board
    START = "start"  # it could not be started or did not answer START in time


_FAILURE_RULE: dict[Failure, tuple[Termination, str]] = {
    Failure.CRASH: (Termination.FORFEIT, ARTICLES["withdrawal"]),
    Failure.REFUSAL: (Termination.FORFEIT, ARTICLES["withdrawal"]),
    Failure.START: (Termination.FORFEIT, ARTICLES["withdrawal"]),
    Failure.PROTOCOL: (Termination.FORFEIT, ARTICLES["rules"]),
    Failure.OCCUPIED: (Termination.FORFEIT, ARTICLES["point"]),
    Failure.OFF_BOARD: (Termination.FORFEIT, ARTICLES["point"]),
}


def forfeit(loser: Color, failure: Failure) -> Outcome:
    """The outcome when ``loser``'s brain fails in the given way: the opponent wins.

    >>> o = forfeit(WHITE, Failure.OCCUPIED)
    >>> o.winner, o.termination.value, o.article
    (Color.BLACK, 'forfeit', 'Gomoku §4.2, §10.1(3)G')
    >>> forfeit(BLACK, Failure.CRASH).article
    'Gomoku §10.1(3)D'
    """
    termination, article = _FAILURE_RULE[failure]
    return Outcome.win(loser.opponent, termination, article)


def both_forfeit() -> Outcome:
    """Both brains failed before play began: both lose (Gomoku §8.5).

    >>> both_forfeit().result
    <Result.BOTH_LOSE: 'both_lose'>
    """
    return Outcome(Result.BOTH_LOSE, Termination.FORFEIT, ARTICLES["both"])


# ------------------------------------------------------------------------------------------
# time


@dataclass(frozen=True)
class TimeControl:
    """Time limits of an engine game, in milliseconds (``None`` = no such limit).

    ``turn_ms`` limits each move (Gomoku §8.2, the byo-yomi form of 多重时限: one move per period);
    ``match_ms`` limits the sum of one side's moves in a game (§8.2, 单一时限). ``tolerance_ms`` is
    the grace the referee adds before ruling (pipe and scheduling latency); the limits the brains
    are told stay the nominal ones.

    >>> TimeControl(turn_ms=5000).gomocup_info()
    {'timeout_turn': 5000, 'timeout_match': 0}
    >>> TimeControl(turn_ms=-1)
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: time limits must be positive milliseconds, got turn_ms=-1 (Gomoku §8)
    """

    turn_ms: int | None = None
    match_ms: int | None = None
    tolerance_ms: int = DEFAULT_TOLERANCE_MS

    def __post_init__(self) -> None:
        for name in ("turn_ms", "match_ms"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value <= 0):
                raise InvalidInput(
                    f"time limits must be positive milliseconds, got {name}={value}", "Gomoku §8"
                )
        if not isinstance(self.tolerance_ms, int) or self.tolerance_ms < 0:
            raise InvalidInput(f"tolerance must be >= 0 ms, got {self.tolerance_ms}", "Gomoku §8")

    def gomocup_info(self) -> dict[str, int]:
        """The ``INFO`` values announcing these limits (Gomocup: 0 = no match limit).

        Without a move limit the brain is told the whole game limit as its move limit (or
        nothing at all when the game is untimed).

        >>> TimeControl(match_ms=60000).gomocup_info()
        {'timeout_turn': 60000, 'timeout_match': 60000}
        >>> TimeControl().gomocup_info()
        {}
        """
        if self.turn_ms is None and self.match_ms is None:
            return {}
        turn = self.turn_ms if self.turn_ms is not None else self.match_ms
        assert turn is not None
        return {"timeout_turn": turn, "timeout_match": self.match_ms or 0}


# ------------------------------------------------------------------------------------------
# the referee of the moves


@dataclass(frozen=True)
class Ending:
    """How an engine game ended, with a human sentence for reports.

    >>> Ending(forfeit(BLACK, Failure.CRASH), "black's engine exited").outcome.winner
    Color.WHITE
    """

    outcome: Outcome
    reason: str


class MoveJudge:
    """Judges each stone of an engine game as the arbiter would, through the core
    :class:`~duiyi.gomoku.game.Game` (one rulebook reading for people and engines).

    The referee adds what only engines get wrong: a point off the board or already occupied
    loses at once (Gomoku §4.2, §10.1(3)G) instead of being refused, and so do crashes and time
    (:meth:`fail`, :meth:`overtime`). Fives, Black's forbidden moves (five first), White's
    overline and the full board are the game's own rulings (§10.1, §10.2(3)). Under
    ``FoulPolicy.CLAIM`` White must claim a foul, but a Gomocup brain cannot, so the referee
    claims for White at once: both policies end the game on the forbidden stone. Brains cannot
    pass, so §10.2(2) never arises.

    ``opening`` lists stones already on the board, Black first. Under a designated opening the
    first three must be one of the 26 (Gomoku §3.2, any orientation). Engine games skip the
    three-move swap and the fifth-move N-dab (the Gomocup protocol has no command for them;
    the game is built as :meth:`Game.from_moves` does, N = 1, no swap); fairness comes from
    playing each opening twice with colours swapped (:func:`schedule`).

    >>> ref = MoveJudge(["h8", "h9", "j10"])                  # 疏星 (Sosei)
    >>> ref.to_move, [str(p) for p in ref.moves]
    (Color.WHITE, ['h8', 'h9', 'j10'])
    >>> ref.play("h9").outcome.termination.value            # white plays on its own stone
    'forfeit'
    >>> MoveJudge(["h8", "a1"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duiyi.errors.InvalidInput: a designated opening starts with one of the 26 openings ...
    """

    def __init__(
        self, opening: Sequence[str | Point] = (), *, rules: RenjuRules | None = None
    ) -> None:
        self.rules = rules if rules is not None else RenjuRules.chinese_2013()
        self.fouls = self.rules.fouls
        self.board = Board()  # a mirror of the game's stones, for the checks before the game's
        self.moves: list[Point] = []
        self.ruling: Ending | None = None
        for n, item in enumerate(opening, 1):
            point = Point.parse(item)
            if not self.board.is_empty(point):
                raise InvalidInput(f"opening stone {n} ({point}) is on an occupied point")
            self.board.place(point, self.to_move)
            self.moves.append(point)
        if self.rules.opening is OpeningRule.DESIGNATED and (
            len(self.moves) < 3 or recognise(*self.moves[:3]) is None
        ):
            got = " ".join(str(p) for p in self.moves) or "an empty board"
            raise InvalidInput(
                "a designated opening starts with one of the 26 openings (h8, a white stone "
                f"touching it, a black stone in the central 5x5), got {got}",
                "Gomoku §3.2",
            )
        self.game = Game.from_moves(self.moves, self.rules) if self.moves else Game(self.rules)
        self._settle(None, BLACK)
        if self.ruling is not None:
            raise InvalidInput(f"the opening stones already end the game: {self.ruling.reason}")

    @property
    def to_move(self) -> Color:
        """Whose stone comes next: Black after an even number of stones (Gomoku §4.1)."""
        return BLACK if len(self.moves) % 2 == 0 else WHITE

    @property
    def is_over(self) -> bool:
        """True once a ruling has ended the game."""
        return self.ruling is not None

    def fail(self, color: Color, failure: Failure, reason: str) -> Ending:
        """End the game because ``color``'s brain failed (see :func:`forfeit`)."""
        self.ruling = Ending(forfeit(color, failure), reason)
        return self.ruling

    def end(self, outcome: Outcome, reason: str) -> Ending:
        """End the game with an outcome ruled elsewhere (the adapter rules crashes, refusals
        and silence through the shared :class:`duiyi.referee.Referee` ledger).

        >>> from duiyi.outcome import Termination
        >>> MoveJudge(rules=RenjuRules.free()).end(Outcome.win(BLACK, Termination.FORFEIT, "x"),
        ...                                      "white left").reason
        'white left'
        """
        if self.ruling is not None:
            raise GameOver("the engine game is over", self.ruling.outcome.article)
        self.ruling = Ending(outcome, reason)
        return self.ruling

    def overtime(self, color: Color, reason: str) -> Ending:
        """End the game because ``color`` ran out of time (Gomoku §8.2, §10.1(3)B)."""
        outcome = Outcome.win(color.opponent, Termination.TIME, ARTICLES["time"])
        self.ruling = Ending(outcome, reason)
        return self.ruling

    def play(self, move: str | Point) -> Ending | None:
        """Judge and place the next stone; the ending if the game ends.

        ``move`` is the book's name of a point; a name off the board loses like an occupied
        point (Gomoku §4.2, §10.1(3)G).

        >>> moves = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"]
        >>> r = MoveJudge(moves, rules=RenjuRules.free_renju()).play("h12")
        >>> r.outcome.winner, r.outcome.termination.value, r.reason
        (Color.BLACK, 'five', 'black made five with h12')
        >>> MoveJudge(rules=RenjuRules.free()).play("z99").reason
        'black played z99, which is not a point of the board'
        """
        if self.ruling is not None:
            raise GameOver("the engine game is over", self.ruling.outcome.article)
        color = self.to_move
        try:
            point = Point.parse(move)
        except InvalidPoint:
            reason = f"{color} played {move}, which is not a point of the board"
            return self.fail(color, Failure.OFF_BOARD, reason)
        if not self.board.is_empty(point):
            reason = f"{color} played {point}, which is occupied"
            return self.fail(color, Failure.OCCUPIED, reason)
        kind = foul(self.board, point) if color is BLACK and self.fouls else None
        self.game.play(point)
        self.board.place(point, color)
        self.moves.append(point)
        if self.game.pending_foul is not None:
            self.game.claim_foul()  # claim policy: the referee claims for White at once
        return self._settle(point, color, kind)

    def _settle(self, point: Point | None, color: Color, kind: Foul | None = None) -> Ending | None:
        outcome = self.game.outcome()
        if outcome is None:
            return None
        if outcome.termination is Termination.FIVE and point is not None:
            long = self.board.run_length(point, color) > 5
            what = "an overline (counts as five)" if long else "five"
            reason = f"{color} made {what} with {point}"
        elif outcome.termination is Termination.FOUL and kind is not None:
            reason = f"black {point} is a forbidden {kind} ({kind.zh}, {kind.article})"
        elif outcome.termination is Termination.FULL_BOARD:
            reason = "the board is full with no five"
        else:
            reason = outcome.termination.value
        self.ruling = Ending(outcome, reason)
        return self.ruling


# ------------------------------------------------------------------------------------------
# the match schedule


@dataclass(frozen=True)
class ScheduledGame:
    """One game of a match: its number (from 1), the opening, and whether engine A has Black."""

    number: int
    opening: str | None
    a_is_black: bool


def schedule(games: int, openings: Sequence[str] | None = None) -> list[ScheduledGame]:
    """The order of a match's games.

    With designated openings each opening is played twice in a row, engine A with Black first
    and then with colours swapped, cycling through the list (game 2k+1 and 2k+2 use opening
    ``k mod len``); an odd number of games ends with an unpaired first game. Without openings
    (free opening) colours simply alternate, A with Black first.

    >>> [(g.opening, g.a_is_black) for g in schedule(5, ["寒星", "溪月"])]
    [('寒星', True), ('寒星', False), ('溪月', True), ('溪月', False), ('寒星', True)]
    >>> [g.a_is_black for g in schedule(3)]
    [True, False, True]
    """
    if games < 1:
        raise InvalidInput(f"a match needs at least one game, got {games}")
    if openings is not None and not openings:
        raise InvalidInput("the list of openings is empty")
    out: list[ScheduledGame] = []
    for i in range(games):
        opening = openings[(i // 2) % len(openings)] if openings else None
        out.append(ScheduledGame(i + 1, opening, i % 2 == 0))
    return out


def openings_for(spec: str) -> tuple[RenjuRules, list[tuple[str, tuple[Point, ...]]] | None]:
    """Read an ``--opening`` choice: the rules to play and the openings to cycle through.

    * ``free``: free opening without forbidden moves (:meth:`RenjuRules.free`, Gomoku §3.3);
    * ``free-renju``: free opening keeping Black's forbidden moves;
    * ``designated`` (or ``all``): the 26 designated openings in the book's order (§3.2);
    * one or more names or ids separated by commas (``sosei``, ``疏星``, ``D3,I1``).

    Designated openings play with the book's rules (:meth:`RenjuRules.chinese_2013`).

    >>> rules, plan = openings_for("sosei,kagetsu")
    >>> rules.fouls, [(name, [str(p) for p in stones]) for name, stones in plan]
    (True, [('疏星/Sosei', ['h8', 'h9', 'j10']), ('花月/Kagetsu', ['h8', 'h9', 'i9'])])
    >>> len(openings_for("designated")[1]), openings_for("free") == (RenjuRules.free(), None)
    (26, True)
    """
    key = spec.strip().lower()
    if key in ("free", "free-renju", "free_renju"):
        return RenjuRules.preset(key), None
    chosen = (
        list(OPENINGS)
        if key in ("designated", "all")
        else [opening_by_name(part) for part in spec.split(",") if part.strip()]
    )
    if not chosen:
        raise InvalidInput(f"no opening named in {spec!r}", "Gomoku §3")
    plan = [(f"{o.chinese}/{o.japanese}", tuple(o.moves)) for o in chosen]
    return RenjuRules.chinese_2013(), plan


Opening = tuple[str, tuple[Point, ...]]  # (name, stones), as :func:`openings_for` lists them


def pick_opening(rules: RenjuRules, rng: random.Random, spec: str = "designated") -> Opening | None:
    """The opening of one engine game of an event, drawn by lot: ``None`` under a free opening
    (Gomoku §3.3), else one of the designated openings of ``spec`` (all 26 by default, or names
    as :func:`openings_for` reads them), each equally likely.

    Gomoku §3.2 lets the black player choose the opening; a Gomocup brain has no command for
    that, so the arbiter draws it (docs/decisions.md). Randomness comes only from ``rng``: the
    same seed gives the same opening.

    >>> rules = RenjuRules.chinese_2013()
    >>> pick_opening(rules, random.Random(7)) == pick_opening(rules, random.Random(7))
    True
    >>> name, stones = pick_opening(rules, random.Random(1), "sosei")
    >>> name, [str(p) for p in stones]
    ('疏星/Sosei', ['h8', 'h9', 'j10'])
    >>> pick_opening(RenjuRules.free(), random.Random(1)) is None
    True
    """
    if rules.opening is not OpeningRule.DESIGNATED:
        return None
    _, plan = openings_for(spec)
    if plan is None:
        raise InvalidInput(f"{spec!r} names no designated opening", "Gomoku §3.2")
    return plan[rng.randrange(len(plan))]
