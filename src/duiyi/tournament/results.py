"""Game results and the points they score (Go §27, Gomoku §18.1).

A board's result is a :class:`GameResult`; a :class:`Scoring` turns it into points for each side:
Go scores a win 2, a draw 1, a loss 0 (Go §27.1); Gomoku 1, ½, 0 (Gomoku §18.1). A bye scores as a
win (DECISIONS: Tournaments). Team matches add up board (game) points and score match points the
same way (Go §27.2, Gomoku §18.1).

>>> go = Scoring.go()
>>> r = GameResult.parse("0-1")
>>> go.points(r, black=True), go.points(r, black=False)
(Fraction(0, 1), Fraction(2, 1))
>>> Scoring.gomoku().points(GameResult.DRAW, black=False)
Fraction(1, 2)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from duiyi import Color
from duiyi.errors import InvalidInput, TournamentError
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee import Referee, RulingKind

__all__ = [
    "AuditEntry",
    "Encounter",
    "GameResult",
    "ResultConflict",
    "ResultSheet",
    "Scoring",
    "SideResult",
    "Source",
    "Table",
    "TeamMatch",
    "team_match",
]


class SideResult(enum.Enum):
    """What a game meant for one side: won, drawn or lost (forfeits and byes included)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


_ALIASES: dict[str, str] = {
    "1-0": "1-0",
    "b+": "1-0",
    "b": "1-0",
    "black": "1-0",
    "黑胜": "1-0",
    "0-1": "0-1",
    "w+": "0-1",
    "w": "0-1",
    "white": "0-1",
    "白胜": "0-1",
    "draw": "draw",
    "=": "draw",
    "½-½": "draw",
    "1/2-1/2": "draw",
    "0.5-0.5": "draw",
    "jigo": "draw",
    "和": "draw",
    "和棋": "draw",
    "forfeit-black": "forfeit-black",
    "0-1f": "forfeit-black",
    "-+": "forfeit-black",
    "forfeit-white": "forfeit-white",
    "1-0f": "forfeit-white",
    "+-": "forfeit-white",
    "double-forfeit": "double-forfeit",
    "--": "double-forfeit",
    "0-0f": "double-forfeit",
    "both-lose": "both-lose",
    "0-0": "both-lose",
    "双方均负": "both-lose",
    "no-result": "no-result",
    "void": "no-result",
    "无胜负": "no-result",
}


class GameResult(enum.Enum):
    """The result of one board, from the result sheet.

    ``FORFEIT_BLACK`` means Black forfeited (did not play, was disqualified): White wins without a
    game. ``BOTH_LOSE`` is the arbiter's 双方均负 (Go §17.5, §17.6); ``DOUBLE_FORFEIT`` is neither
    player showing up; ``NO_RESULT`` is a game without a winner that scores nothing (无胜负).

    >>> GameResult.parse("B+"), GameResult.parse("forfeit-white").winner
    (<GameResult.BLACK_WINS: '1-0'>, Color.BLACK)
    """

    BLACK_WINS = "1-0"
    WHITE_WINS = "0-1"
    DRAW = "draw"
    FORFEIT_BLACK = "forfeit-black"
    FORFEIT_WHITE = "forfeit-white"
    DOUBLE_FORFEIT = "double-forfeit"
    BOTH_LOSE = "both-lose"
    NO_RESULT = "no-result"

    @classmethod
    def parse(cls, text: str) -> GameResult:
        """Read a result code: ``1-0`` (Black wins), ``0-1``, ``draw``, ``forfeit-black``, ...

        >>> GameResult.parse(" ½-½ ")
        <GameResult.DRAW: 'draw'>
        >>> GameResult.parse("2-0")
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidInput: not a result: '2-0' (expected 1-0, 0-1, draw, forfeit-black, forfeit-white, double-forfeit, both-lose or no-result)
        """
        key = text.strip().lower()
        if key in _ALIASES:
            return cls(_ALIASES[key])
        codes = [r.value for r in cls]
        expected = ", ".join(codes[:-1]) + " or " + codes[-1]
        raise InvalidInput(
            f"not a result: {text!r} (expected {expected})",
            code="result-unknown",
            values={"result": text.strip(), "expected": ", ".join(codes)},
        )

    @classmethod
    def from_outcome(cls, outcome: Outcome) -> GameResult:
        """The sheet result of a finished game's :class:`~duiyi.outcome.Outcome`.

        >>> from duiyi import WHITE
        >>> GameResult.from_outcome(Outcome.win(WHITE, Termination.FORFEIT, "Go §22"))
        <GameResult.FORFEIT_BLACK: 'forfeit-black'>
        """
        if outcome.result is Result.DRAW:
            return cls.DRAW
        if outcome.result is Result.BOTH_LOSE:
            return cls.BOTH_LOSE
        if outcome.result is Result.NO_RESULT:
            return cls.NO_RESULT
        winner = outcome.winner
        assert winner is not None
        if outcome.termination is Termination.FORFEIT:
            return cls.FORFEIT_WHITE if winner is Color.BLACK else cls.FORFEIT_BLACK
        return cls.BLACK_WINS if winner is Color.BLACK else cls.WHITE_WINS

    @property
    def winner(self) -> Color | None:
        """The winning colour, or None when nobody won."""
        if self in (GameResult.BLACK_WINS, GameResult.FORFEIT_WHITE):
            return Color.BLACK
        if self in (GameResult.WHITE_WINS, GameResult.FORFEIT_BLACK):
            return Color.WHITE
        return None

    @property
    def played(self) -> bool:
        """True when the game was actually played over the board (not a forfeit).

        >>> GameResult.FORFEIT_BLACK.played, GameResult.BOTH_LOSE.played
        (False, True)
        """
        return self not in (
            GameResult.FORFEIT_BLACK,
            GameResult.FORFEIT_WHITE,
            GameResult.DOUBLE_FORFEIT,
        )

    def side(self, color: Color) -> SideResult:
        """What the result means for ``color``.

        Both-lose, double forfeit and no result are a loss for both sides (no points).

        >>> GameResult.BOTH_LOSE.side(Color.BLACK)
        <SideResult.LOSS: 'loss'>
        """
        if self is GameResult.DRAW:
            return SideResult.DRAW
        return SideResult.WIN if self.winner is color else SideResult.LOSS

    @property
    def flipped(self) -> GameResult:
        """The same result with the colours exchanged (used when swapping a pairing's colours)."""
        return _FLIP.get(self, self)

    def __str__(self) -> str:
        return self.value


_FLIP = {
    GameResult.BLACK_WINS: GameResult.WHITE_WINS,
    GameResult.WHITE_WINS: GameResult.BLACK_WINS,
    GameResult.FORFEIT_BLACK: GameResult.FORFEIT_WHITE,
    GameResult.FORFEIT_WHITE: GameResult.FORFEIT_BLACK,
}


class Source(enum.Enum):
    """Where a board's result came from (the result record of issue 10)."""

    DIRECTOR = "director"  # entered or corrected at the desk (CLI, web, API)
    ONLINE = "online"  # the online game of the board finished
    ARBITER = "arbiter"  # an arbiter's ruling (penalty, disqualification) reached the board
    IMPORT = "import"  # read from a results file or another program's tournament file


def _colours(data: Any) -> frozenset[Color]:
    return frozenset(Color(str(c)) for c in (data or ()))


@dataclass(frozen=True)
class ResultSheet:
    """What a finished game hands the tournament: the board's result, the warnings each side
    received (Go §24, a tiebreak by Go §27.1(1)B), the sides that lose this game by a
    disciplinary ruling made after the result (Gomoku §2.20(3): the opponent keeps the result
    the board gave) and the sides disqualified from the event (Gomoku §2.20(4)).

    >>> s = ResultSheet(GameResult.BLACK_WINS, white_warnings=1, penalty=frozenset({Color.BLACK}))
    >>> s.to_json()
    {'result': '1-0', 'warnings': {'black': 0, 'white': 1}, 'penalty': ['black']}
    >>> ResultSheet.from_json(s.to_json()) == s
    True
    """

    result: GameResult
    black_warnings: int = 0
    white_warnings: int = 0
    penalty: frozenset[Color] = frozenset()
    disqualified: frozenset[Color] = frozenset()

    def __post_init__(self) -> None:
        if self.black_warnings < 0 or self.white_warnings < 0:
            raise TournamentError("warnings cannot be negative", code="warnings-negative")

    def warnings(self, color: Color) -> int:
        """The warnings ``color`` received in the game."""
        return self.black_warnings if color is Color.BLACK else self.white_warnings

    def side(self, color: Color) -> SideResult:
        """What the sheet means for ``color``: a disciplinary loss is a loss whatever the board
        said (Gomoku §2.20(3)), otherwise the board's result.

        >>> s = ResultSheet(GameResult.DRAW, penalty=frozenset({Color.WHITE}))
        >>> s.side(Color.BLACK).value, s.side(Color.WHITE).value
        ('draw', 'loss')
        """
        if color in self.penalty:
            return SideResult.LOSS
        return self.result.side(color)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``warnings``, ``penalty``, ``disqualified`` only when they hold
        something)."""
        data: dict[str, Any] = {"result": self.result.value}
        if self.black_warnings or self.white_warnings:
            data["warnings"] = {"black": self.black_warnings, "white": self.white_warnings}
        if self.penalty:
            data["penalty"] = sorted(c.value for c in self.penalty)
        if self.disqualified:
            data["disqualified"] = sorted(c.value for c in self.disqualified)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultSheet:
        """Rebuild a sheet written by :meth:`to_json`."""
        warnings = dict(data.get("warnings") or {})
        return cls(
            GameResult(str(data["result"])),
            int(warnings.get("black", 0)),
            int(warnings.get("white", 0)),
            _colours(data.get("penalty")),
            _colours(data.get("disqualified")),
        )

    @classmethod
    def of_game(cls, outcome: Outcome, referee: Referee) -> ResultSheet:
        """The sheet of a finished game from its outcome and its referee's ledger: a no-show
        (Go §22, Gomoku §8.5) is a forfeit, both absent a double forfeit; every other end is
        the board's result.

        >>> from duiyi.games import GOMOKU
        >>> from duiyi.outcome import Termination
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.disciplinary_loss(Color.WHITE, decided=True)
        >>> ResultSheet.of_game(Outcome.win(Color.WHITE, Termination.FIVE, "Gomoku §10.1"), ref)
        ResultSheet(result=<GameResult.WHITE_WINS: '0-1'>, black_warnings=0, white_warnings=0, penalty=frozenset({Color.WHITE}), disqualified=frozenset())
        """
        no_show = [r for r in referee.rulings if r.kind is RulingKind.NO_SHOW]
        by_no_show = bool(no_show) and no_show[-1].outcome == outcome
        if outcome.result is Result.WIN and outcome.winner is not None:
            if by_no_show and outcome.termination is Termination.FORFEIT:
                result = (
                    GameResult.FORFEIT_BLACK
                    if outcome.winner is Color.WHITE
                    else GameResult.FORFEIT_WHITE
                )
            else:
                result = (
                    GameResult.BLACK_WINS
                    if outcome.winner is Color.BLACK
                    else GameResult.WHITE_WINS
                )
        elif outcome.result is Result.DRAW:
            result = GameResult.DRAW
        elif outcome.result is Result.BOTH_LOSE:
            result = GameResult.DOUBLE_FORFEIT if by_no_show else GameResult.BOTH_LOSE
        else:
            result = GameResult.NO_RESULT
        # the board's count is what the book counts towards a lost game: Go §24 warnings,
        # Gomoku §12.3(4) violations (违例), as the desk enters them
        return cls(
            result,
            referee.counted(Color.BLACK),
            referee.counted(Color.WHITE),
            referee.penalty_losses(),
            referee.disqualified(),
        )


@dataclass(frozen=True)
class AuditEntry:
    """One change of a board's result: who made it, from where, when (wall seconds, passed in
    by the adapter), the value before and after (None: no result), and a note.

    >>> e = AuditEntry(Source.DIRECTOR, "desk", 10.0, ResultSheet(GameResult.DRAW), None)
    >>> AuditEntry.from_json(e.to_json()) == e
    True
    """

    source: Source
    by: str
    at: float | None
    value: ResultSheet | None
    previous: ResultSheet | None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data: dict[str, Any] = {
            "source": self.source.value,
            "by": self.by,
            "at": self.at,
            "value": None if self.value is None else self.value.to_json(),
        }
        if self.previous is not None:  # absent: the board had no result before
            data["previous"] = self.previous.to_json()
        if self.note:
            data["note"] = self.note
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AuditEntry:
        """Rebuild an entry written by :meth:`to_json`."""
        at = data.get("at")
        value, previous = data.get("value"), data.get("previous")
        return cls(
            Source(str(data["source"])),
            str(data.get("by", "")),
            None if at is None else float(at),
            None if value is None else ResultSheet.from_json(value),
            None if previous is None else ResultSheet.from_json(previous),
            str(data.get("note", "")),
        )


@dataclass(frozen=True)
class ResultConflict:
    """A result that disagreed with the one on the board and was therefore not applied: kept
    for the director to accept or reject (never applied silently).

    >>> c = ResultConflict(ResultSheet(GameResult.WHITE_WINS), Source.ONLINE, "game g1", 3.0)
    >>> ResultConflict.from_json(c.to_json()) == c
    True
    """

    sheet: ResultSheet
    source: Source
    by: str
    at: float | None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "sheet": self.sheet.to_json(),
            "source": self.source.value,
            "by": self.by,
            "at": self.at,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultConflict:
        """Rebuild a conflict written by :meth:`to_json`."""
        at = data.get("at")
        return cls(
            ResultSheet.from_json(data["sheet"]),
            Source(str(data["source"])),
            str(data.get("by", "")),
            None if at is None else float(at),
            str(data.get("reason", "")),
        )


def _fraction(value: Any) -> Fraction:
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError) as exc:
        raise InvalidInput(
            f"not a number of points: {value!r}",
            code="points-not-number",
            values={"points": str(value)},
        ) from exc


@dataclass(frozen=True)
class Scoring:
    """Points for a win, a draw, a loss and a bye.

    ``no_result`` is what each side scores for a game without a winner (无胜负); both-lose and
    double forfeit always score ``loss`` for both.

    >>> Scoring.go()
    Scoring(win=Fraction(2, 1), draw=Fraction(1, 1), loss=Fraction(0, 1), bye=Fraction(2, 1), no_result=Fraction(0, 1))
    >>> Scoring.from_json(Scoring.gomoku().to_json()) == Scoring.gomoku()
    True
    """

    win: Fraction
    draw: Fraction
    loss: Fraction = Fraction(0)
    bye: Fraction = Fraction(-1)  # -1: same as a win
    no_result: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "bye", "no_result"):
            object.__setattr__(self, name, Fraction(getattr(self, name)))
        if self.bye < 0:
            object.__setattr__(self, "bye", self.win)
        if not self.win > self.draw >= self.loss >= 0:
            raise InvalidInput(
                "scoring needs win > draw >= loss >= 0 (Go §27.1, Gomoku §18.1)",
                code="scoring-order",
                values={"win": str(self.win), "draw": str(self.draw), "loss": str(self.loss)},
            )

    @classmethod
    def go(cls) -> Scoring:
        """Go §27.1: win 2, draw 1, loss 0 (a bye scores as a win)."""
        return cls(Fraction(2), Fraction(1))

    @classmethod
    def gomoku(cls) -> Scoring:
        """Gomoku §18.1: win 1, draw ½, loss 0 (a bye scores as a win)."""
        return cls(Fraction(1), Fraction(1, 2))

    @classmethod
    def for_game(cls, game: GameType | str) -> Scoring:
        """The book's scoring for a game (:attr:`duiyi.games.GameType.scoring`), or its name.

        >>> Scoring.for_game("gomoku").win
        Fraction(1, 1)
        """
        win, draw = get_game(game).scoring
        return cls(win, draw)

    def side_points(self, side: SideResult) -> Fraction:
        """Points for a won, drawn or lost game."""
        if side is SideResult.WIN:
            return self.win
        if side is SideResult.DRAW:
            return self.draw
        return self.loss

    def points(self, result: GameResult, *, black: bool) -> Fraction:
        """Points that ``result`` gives to Black (``black=True``) or White.

        >>> Scoring.go().points(GameResult.FORFEIT_BLACK, black=False)
        Fraction(2, 1)
        """
        if result is GameResult.NO_RESULT:
            return self.no_result
        return self.side_points(result.side(Color.BLACK if black else Color.WHITE))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (fractions as strings such as ``"1/2"``)."""
        return {
            "win": str(self.win),
            "draw": str(self.draw),
            "loss": str(self.loss),
            "bye": str(self.bye),
            "no_result": str(self.no_result),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scoring:
        """Rebuild a scoring written by :meth:`to_json`."""
        try:
            return cls(
                _fraction(data["win"]),
                _fraction(data["draw"]),
                _fraction(data.get("loss", 0)),
                _fraction(data.get("bye", data["win"])),
                _fraction(data.get("no_result", 0)),
            )
        except KeyError as exc:
            raise InvalidInput(
                f"scoring is missing {exc}",
                code="scoring-missing",
                values={"field": str(exc.args[0])},
            ) from exc


@dataclass(frozen=True)
class TeamMatch:
    """A team match summed up for one team (Go §27.2, Gomoku §18.1).

    ``board_points`` are the team's game points board by board (board 1 first), ``game_points``
    their sum, ``opponent_game_points`` the other team's sum, and ``side`` who won the match.
    """

    board_points: tuple[Fraction, ...]
    game_points: Fraction
    opponent_game_points: Fraction
    side: SideResult
    match_points: Fraction

    @property
    def boards(self) -> int:
        """How many boards the match had."""
        return len(self.board_points)

    @property
    def score_rate(self) -> Fraction:
        """The share of the available game points the team took (Gomoku §18.3(2)B).

        >>> team_match([GameResult.BLACK_WINS, GameResult.DRAW], [True, False], Scoring.gomoku()).score_rate
        Fraction(3, 4)
        """
        total = self.game_points + self.opponent_game_points
        return self.game_points / total if total else Fraction(0)


def _board_points(result: GameResult | ResultSheet, black: bool, scoring: Scoring) -> Fraction:
    """A board's points for one side; a sheet's disciplinary loss is one-sided (Gomoku
    §2.20(3))."""
    if isinstance(result, ResultSheet):
        if (Color.BLACK if black else Color.WHITE) in result.penalty:
            return scoring.loss
        result = result.result
    return scoring.points(result, black=black)


def team_match(
    results: Sequence[GameResult | ResultSheet], team_is_black: Sequence[bool], scoring: Scoring
) -> TeamMatch:
    """Sum up one team's board results into game points and match points (Go §27.2).

    ``results[i]`` is board i+1's result and ``team_is_black[i]`` says whether this team had
    Black there; a :class:`ResultSheet` with a disciplinary loss scores it one-sidedly (Gomoku
    §2.20(3)). More game points wins the match (2 match points in Go, 1 in Gomoku), equal is a
    draw, fewer a loss.

    >>> m = team_match([GameResult.BLACK_WINS, GameResult.BLACK_WINS, GameResult.DRAW],
    ...                [True, False, True], Scoring.go())
    >>> m.board_points, m.game_points, m.opponent_game_points, m.side.value, m.match_points
    ((Fraction(2, 1), Fraction(0, 1), Fraction(1, 1)), Fraction(3, 1), Fraction(3, 1), 'draw', Fraction(1, 1))
    """
    if len(results) != len(team_is_black):
        raise TournamentError(
            "a team match needs one colour per board result", "Go §27.2", code="match-colours"
        )
    if not results:
        raise TournamentError(
            "a team match needs at least one board", "Go §27.2", code="match-no-board"
        )
    pairs = list(zip(results, team_is_black, strict=True))
    own = tuple(_board_points(r, b, scoring) for r, b in pairs)
    other = sum((_board_points(r, not b, scoring) for r, b in pairs), Fraction(0))
    total = sum(own, Fraction(0))
    if total > other:
        side = SideResult.WIN
    elif total == other:
        side = SideResult.DRAW
    else:
        side = SideResult.LOSS
    return TeamMatch(own, total, other, side, scoring.side_points(side))


@dataclass(frozen=True)
class Encounter:
    """One round of one competitor's record (a player's game or a team's match).

    ``opponent`` is None for a bye. ``played`` is False for byes and forfeits. For a team,
    ``points`` are match points and ``game_points``/``board_points`` the boards' game points;
    for a player ``game_points`` equals ``points``.

    >>> e = Encounter(1, 7, SideResult.WIN, Fraction(2), Color.BLACK)
    >>> e.is_bye, e.game_points
    (False, Fraction(2, 1))
    """

    round: int
    opponent: int | None
    side: SideResult
    points: Fraction
    color: Color | None = None
    played: bool = True
    warnings: int = 0
    game_points: Fraction | None = None
    board_points: tuple[Fraction, ...] = ()
    score_rate: Fraction | None = None

    def __post_init__(self) -> None:
        if self.game_points is None:
            object.__setattr__(self, "game_points", self.points)

    @property
    def is_bye(self) -> bool:
        """True for a bye (no opponent)."""
        return self.opponent is None


@dataclass(frozen=True)
class Table:
    """Every competitor's record: the input of tiebreaks and standings.

    ``rounds`` is how many rounds the standings cover (the 轮次数 of Go §27.1(2)A).
    ``ratings`` gives each competitor's rating (None when unrated). ``initial`` gives McMahon
    events each competitor's initial score (see :meth:`mcmahon_score`). Build one from an event with :func:`duiyi.tournament.event.table`,
    or by hand:

    >>> t = Table.from_games(
    ...     [(1, 1, 2, GameResult.BLACK_WINS)], Scoring.go(), rounds=1, competitors=[1, 2, 3],
    ...     byes=[(1, 3)])
    >>> t.points(1), t.points(2), t.points(3)
    (Fraction(2, 1), Fraction(0, 1), Fraction(2, 1))
    """

    competitors: tuple[int, ...]
    encounters: Mapping[int, tuple[Encounter, ...]] = field(hash=False)
    scoring: Scoring
    rounds: int
    ratings: Mapping[int, int | None] = field(default_factory=dict, hash=False)
    initial: Mapping[int, Fraction] = field(default_factory=dict, hash=False)
    #: the rounds in which a competitor's drawn elimination game went to the other by lot
    #: (抽签): a draw in every other column, out of the bracket in that round (Gomoku §18.2)
    lots_lost: Mapping[int, tuple[int, ...]] = field(default_factory=dict, hash=False)

    def records(self, competitor: int) -> tuple[Encounter, ...]:
        """The competitor's encounters in round order (empty when unknown)."""
        return self.encounters.get(competitor, ())

    def points(self, competitor: int) -> Fraction:
        """Total points (match points for teams), byes included."""
        return sum((e.points for e in self.records(competitor)), Fraction(0))

    def rating(self, competitor: int) -> int | None:
        """The competitor's rating, or None."""
        return self.ratings.get(competitor)

    def mcmahon_score(self, competitor: int) -> Fraction:
        """The McMahon score: the initial score (``initial``, from the rank; 0 when absent) plus
        the games won so far, counted in wins (½ a draw, a bye as a win) whatever the points.

        >>> t = Table.from_games([(1, 1, 2, GameResult.DRAW)], Scoring.go(), rounds=1)
        >>> import dataclasses
        >>> dataclasses.replace(t, initial={1: Fraction(3)}).mcmahon_score(1), t.mcmahon_score(2)
        (Fraction(7, 2), Fraction(1, 2))
        """
        return (
            self.initial.get(competitor, Fraction(0)) + self.points(competitor) / self.scoring.win
        )

    @classmethod
    def from_games(
        cls,
        games: Sequence[tuple[int, int, int, GameResult]],
        scoring: Scoring,
        *,
        rounds: int,
        competitors: Sequence[int] | None = None,
        byes: Sequence[tuple[int, int]] = (),
        ratings: Mapping[int, int | None] | None = None,
        warnings: Mapping[tuple[int, int], int] | None = None,
    ) -> Table:
        """Build a table from ``(round, black, white, result)`` games and ``(round, player)`` byes.

        ``warnings`` maps ``(round, player)`` to the warnings that player got in that game.
        """
        found: set[int] = set(competitors or ())
        per: dict[int, list[Encounter]] = {}
        warns = warnings or {}
        for rnd, black, white, result in games:
            found.update((black, white))
            for me, opp, colour in ((black, white, Color.BLACK), (white, black, Color.WHITE)):
                per.setdefault(me, []).append(
                    Encounter(
                        rnd,
                        opp,
                        result.side(colour),
                        scoring.points(result, black=colour is Color.BLACK),
                        colour,
                        result.played,
                        warns.get((rnd, me), 0),
                    )
                )
        return cls._with_byes(per, found, byes, competitors, scoring, rounds, ratings or {})

    @classmethod
    def from_matches(
        cls,
        matches: Sequence[tuple[int, int, int, Sequence[GameResult | ResultSheet], Sequence[bool]]],
        scoring: Scoring,
        *,
        rounds: int,
        competitors: Sequence[int] | None = None,
        byes: Sequence[tuple[int, int]] = (),
    ) -> Table:
        """A team table from ``(round, team_a, team_b, board results, team_a_black)`` matches.

        Match points are the teams' points; game and board points feed the team tiebreaks
        (Go §27.2, Gomoku §18.3(2), §18.4(2)). A bye scores a won match with no boards.

        >>> t = Table.from_matches([(1, 1, 2, [GameResult.BLACK_WINS, GameResult.BLACK_WINS],
        ...                          [True, False])], Scoring.go(), rounds=1)
        >>> t.points(1), t.records(1)[0].game_points, t.records(2)[0].board_points
        (Fraction(1, 1), Fraction(2, 1), (Fraction(0, 1), Fraction(2, 1)))
        """
        found: set[int] = set(competitors or ())
        per: dict[int, list[Encounter]] = {}
        for rnd, a, b, results, a_black in matches:
            found.update((a, b))
            for me, opp, blacks in ((a, b, list(a_black)), (b, a, [not x for x in a_black])):
                m = team_match(results, blacks, scoring)
                per.setdefault(me, []).append(
                    Encounter(
                        rnd,
                        opp,
                        m.side,
                        m.match_points,
                        None,
                        True,
                        0,
                        m.game_points,
                        m.board_points,
                        m.score_rate,
                    )
                )
        return cls._with_byes(per, found, byes, competitors, scoring, rounds, {})

    @classmethod
    def _with_byes(
        cls,
        per: dict[int, list[Encounter]],
        found: set[int],
        byes: Sequence[tuple[int, int]],
        competitors: Sequence[int] | None,
        scoring: Scoring,
        rounds: int,
        ratings: Mapping[int, int | None],
    ) -> Table:
        """The table from the encounters met so far (``per``), with each ``(round, competitor)``
        bye scored as a win; competitors in the given order, else by number."""
        for rnd, competitor in byes:
            found.add(competitor)
            per.setdefault(competitor, []).append(
                Encounter(rnd, None, SideResult.WIN, scoring.bye, None, False)
            )
        order = tuple(competitors) if competitors is not None else tuple(sorted(found))
        encounters = {c: tuple(sorted(per.get(c, []), key=lambda e: e.round)) for c in order}
        return cls(order, encounters, scoring, rounds, dict(ratings))
