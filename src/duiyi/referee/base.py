"""The ledger's state and its readings: the rulings of one game in order, the counts the books
attach (Go §24.1, §24.2; Gomoku §12.3(4)), the outcome, and :meth:`LedgerBase.record`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput, RefereeError
from duiyi.outcome import Outcome, Termination
from duiyi.referee.book import Book, RuledGame
from duiyi.referee.kinds import RulingKind
from duiyi.referee.ruling import Ruling

_FACES = ("heads", "tails")  # duiyi.gomoku.colours.Face values


def _check_color(color: Any) -> Color:
    if not isinstance(color, Color):
        raise InvalidInput(f"not a colour: {color!r}")
    return color


class LedgerBase:
    """The state every part of the :class:`~duiyi.referee.Referee` shares: the game ruled, the
    ``limit`` of warnings (Go §24.2) or violations (Gomoku §12.3(4)) that loses it, and the
    rulings in the order they were made. The procedures (``penalties``, ``losses``,
    ``corrections``, ``toss``, ``appeal_rulings``) build on it one after another; ``ledger``
    puts the request dispatch and the JSON on top.
    """

    def __init__(self, game: RuledGame, *, limit: int = 2) -> None:
        if not isinstance(getattr(game, "book", None), Book):
            raise InvalidInput(
                f"a referee rules one game (duiyi.games.GO, duiyi.games.GOMOKU), not {game!r}"
            )
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be a positive integer, got {limit!r}")
        #: the game ruled: its name goes into the JSON, its book says what may be ruled
        self.game = game
        self.limit = limit
        self._rulings: list[Ruling] = []

    # ------------------------------------------------------------------ the rulebook

    @property
    def book(self) -> Book:
        """This game's table of rulings and articles (its game object's)."""
        return self.game.book

    def kinds(self) -> frozenset[RulingKind]:
        """The rulings this game's rulebook has.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO, GOMOKU
        >>> RulingKind.VIOLATION in Referee(GO).kinds(), RulingKind.VIOLATION in Referee(GOMOKU).kinds()
        (False, True)
        """
        return frozenset(k for k in RulingKind if k.value in self.book.articles)

    def article(self, kind: RulingKind | str) -> str:
        """The article the ruling ``kind`` rests on in this game; a ruling the game does not
        have is refused with the reason and the article that says so.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> Referee(GOMOKU).article("scattered")
        'Gomoku §4.2'
        >>> Referee(GOMOKU).article("warning")
        Traceback (most recent call last):
        ...
        duiyi.errors.RefereeError: Gomoku has no warnings: record a violation (Gomoku §12)
        """
        book = self.book
        name = kind.value if isinstance(kind, RulingKind) else kind
        if name in book.articles:
            return book.articles[name]
        why, art = book.refusals.get(name, (f"no {name!r} ruling in {self.game.name}", ""))
        raise RefereeError(why, art or None)

    # ------------------------------------------------------------------ reading

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        """Every ruling in the order it was made."""
        return tuple(self._rulings)

    def __len__(self) -> int:
        return len(self._rulings)

    def _count(self, kind: RulingKind, color: Color) -> int:
        return sum(1 for r in self._rulings if r.kind is kind and r.color is color and r.counts)

    def warnings(self, color: Color) -> int:
        """Warnings ``color`` received (Go §24; a Go tiebreak, DECISIONS.md)."""
        return self._count(RulingKind.WARNING, color)

    def violations(self, color: Color) -> int:
        """Violations (违例) ``color`` received (Gomoku §12)."""
        return self._count(RulingKind.VIOLATION, color)

    def counted(self, color: Color) -> int:
        """What the book counts towards a lost game that ``color`` received: Go §24 warnings,
        Gomoku §12.3(4) violations (the board's count at the event's desk).

        >>> from duiyi.games import GOMOKU
        >>> from duiyi.referee import Referee
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.violation(BLACK)
        >>> ref.counted(BLACK), ref.warnings(BLACK)
        (1, 0)
        """
        return self._count(self.book.counted, color)

    def stone_penalty(self, color: Color) -> int:
        """Stones off ``color``'s count: one per warning (Go §24.1); 0 in Gomoku."""
        return self.warnings(color) * self.book.stones_per_warning

    def outcome(self) -> Outcome | None:
        """The result the rulings impose (the last deciding ruling), or None."""
        for r in reversed(self._rulings):
            if r.outcome is not None:
                return r.outcome
        return None

    def summary(self) -> dict[str, dict[str, int]]:
        """Per-colour counts for standings and tiebreaks.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GO
        >>> Referee(GO).summary()["black"]
        {'warnings': 0, 'violations': 0}
        """
        return {
            c.value: {"warnings": self.warnings(c), "violations": self.violations(c)}
            for c in (BLACK, WHITE)
        }

    def disqualified(self) -> frozenset[Color]:
        """Players disqualified from the event (取消比赛资格, Gomoku §2.20(4), §12.3(2)D): the
        tournament removes them from later rounds.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.disqualification(BLACK, approved=True)
        >>> sorted(c.value for c in ref.disqualified())
        ['black']
        """
        return frozenset(
            r.color
            for r in self._rulings
            if r.kind is RulingKind.DISQUALIFICATION and r.color is not None
        )

    def penalty_losses(self) -> frozenset[Color]:
        """Players who lose this game by a disciplinary ruling made after the result was
        confirmed (Gomoku §2.20(3)): each scores a loss while the opponent keeps the result
        the board gave (read from the game's outcome, which the ruling leaves unchanged).

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.disciplinary_loss(WHITE, decided=True)
        >>> sorted(c.value for c in ref.penalty_losses()), ref.outcome() is None
        (['white'], True)
        """
        return frozenset(
            c
            for r in self._rulings
            if r.kind is RulingKind.DISCIPLINARY_LOSS and r.outcome is None
            for c in r.colors
        )

    def seat_leaves(self, color: Color) -> int:
        """Permissions ``color`` was given to leave the seat in byo-yomi (Go §22.7)."""
        return sum(1 for r in self._rulings if r.kind is RulingKind.LEAVE_SEAT and r.color is color)

    # ------------------------------------------------------------------ recording

    def record(self, ruling: Ruling, *, override: bool = False) -> Ruling:
        """Record a ruling as given (used when replaying a log). A second deciding ruling is
        refused unless ``override`` (a result changed later, e.g. cheating found, Go §23.1)."""
        if not isinstance(ruling, Ruling):
            raise InvalidInput(f"not a ruling: {ruling!r}")
        if ruling.outcome is not None and self.outcome() is not None and not override:
            raise RefereeError(
                f"the game is already decided ({self.outcome()}); pass override=True to change "
                "a result",
                ruling.article,
            )
        self._rulings.append(ruling)
        return ruling

    def _counted(
        self,
        kind: RulingKind,
        color: Color,
        article: str | None,
        note: str,
        at: float | None,
        move_number: int | None,
    ) -> Ruling:
        """A counted sanction of ``kind`` on ``color`` (a warning, Go §24; a violation, Gomoku
        §12.4) under ``article`` (None: the book's); the one that reaches the limit loses the
        game (``book.second_loses``)."""
        _check_color(color)
        ruling = Ruling(kind, color, article or self.article(kind), at, move_number, note)
        earlier = self.warnings(color) if kind is RulingKind.WARNING else self._count(kind, color)
        n = earlier + (1 if ruling.counts else 0)
        if ruling.counts and n >= self.limit and self.outcome() is None:
            lost = f"{kind.value} number {n}: game lost"
            ruling = replace(
                ruling,
                outcome=Outcome.win(color.opponent, Termination.WARNINGS, self.book.second_loses),
                note=(ruling.note + "; " if ruling.note else "") + lost,
            )
        return self.record(ruling)

    def _accepted(self, color: Color, move_number: int | None) -> Ruling | None:
        """The opponent's acceptance of ``color``'s irregular act at ``move_number``, if any."""
        if move_number is None:
            return None
        for r in self._rulings:
            if (
                r.kind is RulingKind.IRREGULAR_ACCEPTED
                and r.color is color
                and r.move_number == move_number
            ):
                return r
        return None

    def _not_accepted(self, color: Color, move_number: int | None, article: str) -> None:
        accepted = self._accepted(color, move_number)
        if accepted is not None:
            raise RefereeError(
                f"{color.opponent} accepted this irregularity of {color} ({accepted.article}): "
                "it can no longer be corrected",
                "Gomoku §6.1",
            )
