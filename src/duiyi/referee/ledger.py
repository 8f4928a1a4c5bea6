"""Rulings and the ledger that holds them (Go §17-24, Gomoku §4.2, §5.2, §6, §8-12).

Each ruling is a frozen value with its kind, the player concerned, the article, when it was
made, what was decided and the effects it carries (``outcome``, ``passes``, ``clock``,
``restart``). The :class:`Referee` validates a ruling against the game's rulebook before it
records it, and adds the consequences the books attach (the second warning loses).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Protocol

import duiyi.referee.requests as requests
from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput, RefereeError
from duiyi.outcome import Outcome, Result, Termination
from duiyi.referee.appeals import (
    AppealRecord,
    AppealResult,
    Appellant,
    Question,
    appeal_in_time,
    arbitrate,
    deposit_refund,
    final_authority,
    may_appeal,
)
from duiyi.referee.kinds import Decision, RulingKind
from duiyi.referee.requests import Facts, RulingRequest

__all__ = [
    "Book",
    "Decision",
    "Referee",
    "RuledGame",
    "Ruling",
    "RulingKind",
    "outcome_json",
    "overtime_pass_ruling",
    "ruling_from_json",
    "stored_game",
]


@dataclass(frozen=True)
class Book:
    """What one game's rulebook lets the arbiter rule, and on which article.

    ``articles`` maps a ruling, by its kind's name (:class:`RulingKind`, and the sub-case
    ``"no_show_both"``), to the article it rests on in this game; a ruling missing from it is
    refused with the reason and article in ``refusals``. A new ruling is a kind, one entry in
    each game's book (carried by its game object, ``duiyi.games.GO.book``), its request
    (:mod:`duiyi.referee.requests`) and its case in :meth:`Referee.rule`.

    ``suggested`` lists, per ruling that names its own article, the articles an arbiter's form
    offers; ``preselected`` is the article a form starts from where it differs from the
    book's (an article shared between the games in ``articles``).

    >>> from duiyi.games import GO, GOMOKU
    >>> GO.book.articles["moved_stones"], GOMOKU.book.articles["moved_stones"]
    ('Go §17.5', 'Gomoku §4.2')
    >>> "warning" in GOMOKU.book.articles
    False
    """

    game: str
    articles: Mapping[str, str]
    refusals: Mapping[str, tuple[str, str]]
    counted: RulingKind  # what the second one loses: WARNING (Go §24.2), VIOLATION (Gomoku)
    second_loses: str  # the article of that loss
    stones_per_warning: int  # stones off the count per warning (Go §24.1)
    moved: frozenset[Decision]  # decisions allowed for moved stones
    scattered: frozenset[Decision]  # decisions allowed for a scattered position
    colour_fix: Callable[[int, float], bool]  # (moves played, minutes) -> still corrected?
    penalised_scatter: bool  # a player's scatter rebuilt still costs a violation
    #: a dropped stone taken back is penalised (Gomoku §6.1(7), §4.2 "适当处罚"); Go §17.3
    #: takes it back with consent and no penalty
    penalised_drop: bool = False
    #: per ruling that names its own article, the articles a form offers
    suggested: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: per ruling, the article a form starts from where it is not the one in ``articles``
    preselected: Mapping[str, str] = field(default_factory=dict)


class RuledGame(Protocol):
    """What a :class:`Referee` needs of its game: the name stored in JSON and its book (the
    game objects of :mod:`duiyi.games` are ruled games)."""

    @property
    def name(self) -> str: ...

    @property
    def book(self) -> Book: ...


@dataclass(frozen=True)
class Ruling:
    """One ruling. ``color`` is the player concerned (the offender; for a no-show or a double
    forfeit see ``colors``). Effects: ``outcome`` ends the game, ``passes`` voids the turn
    into a pass for that player, ``clock`` lists ``(color, seconds)`` adjustments, ``restart``
    means the game starts again (``swap`` with the colours exchanged), ``take_back`` takes the
    last stone of ``color`` off the board and gives it the turn again (Go §17.3),
    ``replace_at`` moves the last stone of ``color`` to that point (Gomoku §6.1(5)-(6)),
    ``restore`` puts those points' stones of the opponent of ``color`` back (Go §18.1).

    >>> r = Ruling(RulingKind.WARNING, BLACK, "Go §17.4")
    >>> ruling_from_json(r.to_json()) == r
    True
    """

    kind: RulingKind
    color: Color | None
    article: str
    at: float | None = None
    move_number: int | None = None
    note: str = ""
    decision: Decision | None = None
    deliberate: bool = False
    colors: tuple[Color, ...] = ()
    outcome: Outcome | None = None
    passes: Color | None = None
    clock: tuple[tuple[Color, float], ...] = ()
    restart: bool = False
    swap: bool = False
    corrected: bool = True
    counts: bool = True  # whether a WARNING / VIOLATION counts towards the second one
    take_back: bool = False  # the last stone of ``color`` comes off, its turn again
    replace_at: str | None = None  # the last stone of ``color`` goes to this point
    restore: tuple[str, ...] = ()  # stones of ``color``'s opponent put back on these points
    appeal: AppealRecord | None = None  # an appeal or its decision (Gomoku §13)
    toss: tuple[str, str] | None = None  # (the call, the face shown), Gomoku §5.3(2)

    @property
    def ends_game(self) -> bool:
        """True when this ruling decides the game."""
        return self.outcome is not None

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (stable, ``"v": 1``)."""
        data: dict[str, Any] = {
            "v": 1,
            "kind": self.kind.value,
            "color": self.color.value if self.color else None,
            "article": self.article,
            "at": self.at,
            "move_number": self.move_number,
            "note": self.note,
            "decision": self.decision.value if self.decision else None,
            "deliberate": self.deliberate,
            "colors": [c.value for c in self.colors],
            "outcome": outcome_json(self.outcome),
            "passes": self.passes.value if self.passes else None,
            "clock": [[c.value, s] for c, s in self.clock],
            "restart": self.restart,
            "swap": self.swap,
            "corrected": self.corrected,
            "counts": self.counts,
        }
        # written only when set: older rulings keep their JSON
        if self.take_back:
            data["take_back"] = True
        if self.replace_at is not None:
            data["replace_at"] = self.replace_at
        if self.restore:
            data["restore"] = list(self.restore)
        if self.appeal is not None:
            data["appeal"] = self.appeal.to_json()
        if self.toss is not None:
            data["toss"] = list(self.toss)
        return data


def outcome_json(o: Outcome | None) -> dict[str, Any] | None:
    """An outcome as JSON without its score (rulings and session states carry no Go count).

    >>> outcome_json(Outcome.win(WHITE, Termination.WARNINGS, "Go §24.2"))["winner"]
    'white'
    >>> outcome_json(None) is None
    True
    """
    if o is None:
        return None
    data = o.to_json()
    data.pop("score", None)
    return data


def ruling_from_json(data: dict[str, Any]) -> Ruling:
    """Rebuild a ruling from :meth:`Ruling.to_json`."""
    try:
        if data.get("v") != 1:
            raise InvalidInput(f"unsupported ruling version {data.get('v')!r}")

        def col(x: Any) -> Color | None:
            return Color(x) if x else None

        at = data.get("at")
        mn = data.get("move_number")
        return Ruling(
            kind=RulingKind(data["kind"]),
            color=col(data.get("color")),
            article=str(data["article"]),
            at=float(at) if at is not None else None,
            move_number=int(mn) if mn is not None else None,
            note=str(data.get("note", "")),
            decision=Decision(data["decision"]) if data.get("decision") else None,
            deliberate=bool(data.get("deliberate", False)),
            colors=tuple(Color(c) for c in data.get("colors", [])),
            outcome=Outcome.from_json(data["outcome"]) if data.get("outcome") else None,
            passes=col(data.get("passes")),
            clock=tuple((Color(c), float(s)) for c, s in data.get("clock", [])),
            restart=bool(data.get("restart", False)),
            swap=bool(data.get("swap", False)),
            corrected=bool(data.get("corrected", True)),
            counts=bool(data.get("counts", True)),
            take_back=bool(data.get("take_back", False)),
            replace_at=str(data["replace_at"]) if data.get("replace_at") else None,
            restore=tuple(str(p) for p in data.get("restore", [])),
            appeal=AppealRecord.from_json(data["appeal"]) if data.get("appeal") else None,
            toss=(str(data["toss"][0]), str(data["toss"][1])) if data.get("toss") else None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"not a ruling: {exc}") from exc


def overtime_pass_ruling(
    color: Color, article: str, at: float | None, move_number: int | None
) -> Ruling:
    """The ruling of a Go §22.5 pass on overtime (the session makes it at the overrun)."""
    return Ruling(
        RulingKind.OVERTIME_PASS,
        color,
        article,
        at,
        move_number,
        "over the last minute, on request: one pass, play goes on (no warning)",
        passes=color,
    )


_FACES = ("heads", "tails")  # duiyi.gomoku.colours.Face values


def _check_color(color: Any) -> Color:
    if not isinstance(color, Color):
        raise InvalidInput(f"not a colour: {color!r}")
    return color


class Referee:
    """The ruling ledger of one game of ``game`` (``"go"`` or ``"gomoku"``).

    ``limit`` is how many warnings (Go §24.2) or violations (Gomoku §12.3(4)) lose the game.

    >>> from duiyi.games import GOMOKU
    >>> ref = Referee(GOMOKU)
    >>> _ = ref.violation(WHITE, "Gomoku §10.3(3)", note="offered a draw on the opponent's time")
    >>> ref.violations(WHITE)
    1
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

        >>> from duiyi.games import GO, GOMOKU
        >>> RulingKind.VIOLATION in Referee(GO).kinds(), RulingKind.VIOLATION in Referee(GOMOKU).kinds()
        (False, True)
        """
        return frozenset(k for k in RulingKind if k.value in self.book.articles)

    def article(self, kind: RulingKind | str) -> str:
        """The article the ruling ``kind`` rests on in this game; a ruling the game does not
        have is refused with the reason and the article that says so.

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

    # ------------------------------------------------------------------ the arbiter's requests

    def rule(self, request: RulingRequest, facts: Facts | None = None) -> tuple[Ruling, ...]:
        """Make the ruling ``request`` asks for (:mod:`duiyi.referee.requests`, one request per
        kind) with the session's ``facts`` (the time, the moves played, whether the game is
        decided); returns the rulings recorded (a warning that loses the game, a sanction that
        follows a correction, come with it). A ruling this game's rulebook lacks is refused.

        >>> from duiyi.games import GO, GOMOKU
        >>> from duiyi.referee.requests import Facts, VoidMove
        >>> [r.kind.value for r in Referee(GO).rule(VoidMove(BLACK, "Go §18.3"), Facts(at=5.0))]
        ['void_move', 'warning']
        >>> Referee(GOMOKU).rule(requests.Warning(BLACK))
        Traceback (most recent call last):
        ...
        duiyi.errors.RefereeError: Gomoku has no warnings: record a violation (Gomoku §12)
        """
        f = facts or Facts()
        if not isinstance(request, requests.REQUESTS):
            raise InvalidInput(f"not a ruling request: {request!r}")
        self.article(request.kind)  # a ruling this game's rulebook lacks is refused here
        before = len(self._rulings)
        at = f.at

        def now(move_number: int | None) -> int | None:
            # the act just made: an accepted irregularity blocks its correction (Gomoku §6.1)
            return f.moves_played if move_number is None else move_number

        def decided(given: bool | None) -> bool:
            # Gomoku §2.20(3): after a confirmed result the board result stands
            return f.decided if given is None else given

        match request:
            case requests.Warning():
                self.warning(
                    request.color,
                    request.article,
                    note=request.note,
                    at=at,
                    move_number=request.move_number,
                )
            case requests.Violation():
                self.violation(
                    request.color,
                    request.article,
                    note=request.note,
                    at=at,
                    move_number=request.move_number,
                )
            case requests.TimePenalty():
                self.time_penalty(
                    request.color,
                    deduct=request.deduct,
                    award=request.award,
                    article=request.article,
                    note=request.note,
                    at=at,
                    move_number=request.move_number,
                )
            case requests.ClockAdjustment():
                self.clock_adjustment(
                    request.color,
                    request.seconds,
                    article=request.article,
                    note=request.note,
                    at=at,
                )
            case requests.VoidMove():
                self.void_move(
                    request.color,
                    request.article,
                    pass_turn=request.pass_turn,
                    warning=request.warning,
                    note=request.note,
                    at=at,
                    move_number=now(request.move_number),
                )
            case requests.OvertimePass():
                self.overtime_pass(
                    request.color, at=at, move_number=request.move_number, note=request.note
                )
            case requests.ColourCorrection():
                if f.moves_played is None:
                    raise InvalidInput("a colour correction needs the moves played (the session's)")
                self.colour_correction(
                    moves_played=f.moves_played,
                    minutes_played=f.minutes_played,
                    at=at,
                    note=request.note,
                )
            case requests.MovedStones():
                self.moved_stones(
                    request.decision,
                    offender=request.offender,
                    deliberate=request.deliberate,
                    at=at,
                    note=request.note,
                )
            case requests.Scattered():
                self.scattered(
                    request.decision,
                    by=request.by,
                    deliberate=request.deliberate,
                    at=at,
                    note=request.note,
                )
            case requests.Forfeit():
                self.forfeit(
                    request.color,
                    request.article,
                    note=request.note,
                    at=at,
                    override=request.override,
                )
            case requests.DoubleForfeit():
                self.double_forfeit(
                    request.article, note=request.note, at=at, override=request.override
                )
            case requests.NoShow():
                self.no_show(request.colors, at=at, note=request.note, article=request.article)
            case requests.Withdrawal():
                self.withdrawal(request.color, at=at, note=request.note)
            case requests.Disqualification():
                self.disqualification(
                    request.color,
                    approved=request.approved,
                    decided=decided(request.decided),
                    article=request.article,
                    note=request.note,
                    at=at,
                )
            case requests.DisciplinaryLoss():
                self.disciplinary_loss(
                    request.color,
                    decided=decided(request.decided),
                    article=request.article,
                    note=request.note,
                    at=at,
                )
            case requests.BothFlags():
                self.both_flags(at=at, note=request.note, override=request.override)
            case requests.LeaveSeat():
                self.leave_seat(
                    request.color, at=at, move_number=now(request.move_number), note=request.note
                )
            case requests.DroppedStone():
                self.dropped_stone(
                    request.color,
                    consent=request.consent,
                    chief_arbiter=request.chief_arbiter,
                    penalty=request.penalty,
                    deduct=request.deduct,
                    award=request.award,
                    at=at,
                    move_number=now(request.move_number),
                    note=request.note,
                )
            case requests.IrregularAccepted():
                self.irregular_accepted(
                    request.color,
                    request.article,
                    at=at,
                    move_number=now(request.move_number),
                    note=request.note,
                )
            case requests.StoneReplaced():
                self.stone_replaced(
                    request.color,
                    request.point,
                    lifted=request.lifted,
                    violation=request.violation,
                    at=at,
                    move_number=now(request.move_number),
                    note=request.note,
                )
            case requests.StonesRestored():
                self.stones_restored(
                    request.color,
                    request.points,
                    warning=request.warning,
                    at=at,
                    move_number=request.move_number,
                    note=request.note,
                )
            case requests.CoinToss():
                self.coin_toss(
                    request.caller, request.face, call=request.called, at=at, note=request.note
                )
            case requests.ColoursChosen():
                self.colours_chosen(
                    request.choice, opponent_takes=request.opponent_takes, at=at, note=request.note
                )
            case requests.Appeal():
                self.appeal(
                    request.color,
                    request.against,
                    question=request.question,
                    appellant=request.appellant,
                    round_end=f.round_end,
                    limit=request.limit,
                    organiser_delay=request.organiser_delay,
                    by_chief_arbiter=request.by_chief_arbiter,
                    team_event=request.team_event,
                    leader_supports=request.leader_supports,
                    player_age=request.player_age,
                    deposit=request.deposit,
                    at=at,
                    note=request.note,
                )
            case requests.AppealDecided():
                self.appeal_decided(
                    request.appeal, request.result, votes=request.votes, at=at, note=request.note
                )
            case _:
                raise InvalidInput(f"not a ruling request: {request!r}")
        return tuple(self._rulings[before:])

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

    def _counted(self, ruling: Ruling, kind: RulingKind, what: str, article: str) -> Ruling:
        color = ruling.color
        assert color is not None
        earlier = self.warnings(color) if kind is RulingKind.WARNING else self._count(kind, color)
        n = earlier + (1 if ruling.counts else 0)
        if ruling.counts and n >= self.limit and self.outcome() is None:
            ruling = replace(
                ruling,
                outcome=Outcome.win(color.opponent, Termination.WARNINGS, article),
                note=(ruling.note + "; " if ruling.note else "") + f"{what} number {n}: game lost",
            )
        return self.record(ruling)

    def warning(
        self,
        color: Color,
        article: str | None = None,
        *,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """A warning (警告, Go §17.2-4, §18.1-2, §22.6, §23): one stone off ``color``'s count
        (Go §24.1); the second in a game loses it (Go §24.2). Gomoku has violations instead."""
        _check_color(color)
        article = article or self.article("warning")
        r = Ruling(RulingKind.WARNING, color, article, at, move_number, note)
        return self._counted(r, RulingKind.WARNING, "warning", self.book.second_loses)

    def violation(
        self,
        color: Color,
        article: str | None = None,
        *,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """A violation (违例, Gomoku §2.20(2), §12): the second in a game loses it
        (Gomoku §12.3(4), §10.1(3)H)."""
        _check_color(color)
        article = article or self.article("violation")
        r = Ruling(RulingKind.VIOLATION, color, article, at, move_number, note)
        return self._counted(r, RulingKind.VIOLATION, "violation", self.book.second_loses)

    def time_penalty(
        self,
        color: Color,
        *,
        deduct: float = 0.0,
        award: float = 0.0,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """罚时 (Gomoku §2.20(1), §12.3(3)A): ``deduct`` seconds from ``color`` and/or ``award``
        seconds to the opponent (usually at most 5 minutes each).

        >>> from duiyi.games import GOMOKU
        >>> Referee(GOMOKU).time_penalty(BLACK, deduct=120, award=300).clock
        ((Color.BLACK, -120.0), (Color.WHITE, 300.0))
        """
        _check_color(color)
        for name, v in (("deduct", deduct), ("award", award)):
            if not v >= 0:
                raise InvalidInput(f"{name} must be >= 0 seconds, got {v!r}")
        if deduct == 0 and award == 0:
            raise InvalidInput("a time penalty deducts or awards some time")
        article = article or self.article("time_penalty")
        clock: list[tuple[Color, float]] = []
        if deduct:
            clock.append((color, -float(deduct)))
        if award:
            clock.append((color.opponent, float(award)))
        return self.record(
            Ruling(
                RulingKind.TIME_PENALTY, color, article, at, move_number, note, clock=tuple(clock)
            )
        )

    def clock_adjustment(
        self,
        color: Color,
        seconds: float,
        *,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
    ) -> Ruling:
        """A clock correction that is not a penalty: a faulty or replaced clock (Go §22.8-9,
        Gomoku §8.7, §8.10); ``seconds`` may be negative."""
        _check_color(color)
        article = article or self.article("clock_adjustment")
        return self.record(
            Ruling(
                RulingKind.CLOCK_ADJUSTMENT,
                color,
                article,
                at,
                None,
                note,
                clock=((color, float(seconds)),),
            )
        )

    def void_move(
        self,
        color: Color,
        article: str,
        *,
        pass_turn: bool | None = None,
        warning: bool | None = None,
        note: str = "",
        at: float | None = None,
        move_number: int | None = None,
    ) -> Ruling:
        """Referee mode (DECISIONS.md): a move the arbiter voids.

        Defaults follow the article: Go §19 (a forbidden point) is void and a pass; Go §18.3
        (retaking a ko without a threat) is void, a pass and a warning; Go §17.2 (two moves in a
        row) voids the second with a warning, the turn is not lost; Go §17.3 (a take-back) puts
        the stone back with a warning; Gomoku §6.1 corrections (e.g. §6.1(4), a second stone in
        a row) undo the irregular act without a pass and, the opponent having pointed it out,
        carry a violation (Gomoku §6.1 "纠正…并接受处罚", §12.4; docs/decisions.md).
        ``warning`` is the game's counted sanction: a warning in Go, a violation in Gomoku
        (``warning=False``: the correction alone, e.g. the arbiter's own finding). Other
        articles: void and a pass.

        >>> from duiyi.games import GO
        >>> r = Referee(GO).void_move(BLACK, "Go §18.3")
        >>> r.passes, r.kind.value
        (Color.BLACK, 'void_move')
        """
        _check_color(color)
        key = article.split("(")[0].strip()
        if key.startswith("Gomoku §6.1"):
            key = "Gomoku §6.1"
        defaults = {
            "Go §19": (True, False),
            "Go §18.3": (True, True),
            "Go §17.2": (False, True),
            "Go §17.3": (False, True),  # a take-back: the stone goes back, a warning
            "Gomoku §6.1": (False, True),  # the second stone comes off, a violation (§12.4)
        }.get(key, (True, False))
        if key == "Gomoku §6.1":
            self._not_accepted(color, move_number, article)
        p = defaults[0] if pass_turn is None else pass_turn
        w = defaults[1] if warning is None else warning
        void = self.record(
            Ruling(
                RulingKind.VOID_MOVE,
                color,
                article,
                at,
                move_number,
                note,
                passes=color if p else None,
            )
        )
        if w:
            self._sanction(color, article, "void move", at, move_number)
        return void

    def _sanction(
        self, color: Color, article: str, note: str, at: float | None, move_number: int | None
    ) -> Ruling:
        """The game's counted sanction: a warning (Go §24) or a violation (Gomoku §12.4)."""
        if self.book.counted is RulingKind.WARNING:
            return self.warning(color, article, note=note, at=at, move_number=move_number)
        return self.violation(color, article, note=note, at=at, move_number=move_number)

    def overtime_pass(
        self,
        color: Color,
        *,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Go §22.5: over the last minute, on ``color``'s request, the overrun counts as one
        pass (虚着, 改判弃权一次) and play goes on under the same byo-yomi. No warning: the
        article gives none, so no stone comes off the count and it never counts towards
        Go §24.2 (DECISIONS.md).

        >>> from duiyi.games import GO
        >>> ref = Referee(GO)
        >>> r = ref.overtime_pass(BLACK)
        >>> r.passes, ref.warnings(BLACK), ref.stone_penalty(BLACK)
        (Color.BLACK, 0, 0)
        """
        _check_color(color)
        ruling = overtime_pass_ruling(color, self.article("overtime_pass"), at, move_number)
        return self.record(replace(ruling, note=note) if note else ruling)

    def colour_correction(
        self,
        *,
        moves_played: int,
        minutes_played: float = 0.0,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """The players hold the wrong colours. Go §17.1: corrected up to move 10 (inclusive);
        Gomoku §5.2: corrected until white 4 is placed or 15 minutes have passed; a correction
        restarts the game with the colours exchanged and the clocks reset. Later, play goes on,
        the result stands and pairings keep the draw's colours (``corrected=False``).

        >>> from duiyi.games import GO, GOMOKU
        >>> Referee(GO).colour_correction(moves_played=10).restart
        True
        >>> Referee(GOMOKU).colour_correction(moves_played=4).restart
        False
        """
        if moves_played < 0:
            raise InvalidInput("moves_played must be >= 0")
        article = self.article("colour_correction")
        ok = self.book.colour_fix(moves_played, minutes_played)
        text = note or (
            "colours corrected: the game restarts"
            if ok
            else "too late to correct: play on, result and pairings stand"
        )
        return self.record(
            Ruling(
                RulingKind.COLOUR_CORRECTION,
                None,
                article,
                at,
                moves_played,
                text,
                restart=ok,
                swap=ok,
                corrected=ok,
            )
        )

    def _decide(
        self,
        kind: RulingKind,
        decision: Decision,
        article: str,
        offender: Color | None,
        deliberate: bool,
        at: float | None,
        note: str,
    ) -> Ruling:
        outcome: Outcome | None = None
        if decision is Decision.DRAW:
            outcome = Outcome.draw(Termination.ADJUDICATION, article)
        elif decision is Decision.BOTH_LOSE:
            outcome = Outcome(Result.BOTH_LOSE, Termination.ADJUDICATION, article)
        elif decision is Decision.OFFENDER_LOSES:
            if offender is None:
                raise RefereeError("name the player who loses (offender=...)", article)
            outcome = Outcome.win(offender.opponent, Termination.ADJUDICATION, article)
        return self.record(
            Ruling(
                kind,
                offender,
                article,
                at,
                None,
                note,
                decision=decision,
                deliberate=deliberate,
                outcome=outcome,
                restart=decision is Decision.REPLAY,
            )
        )

    def moved_stones(
        self,
        decision: Decision,
        *,
        offender: Color | None = None,
        deliberate: bool = False,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """Stones found moved (Go §17.5, Gomoku §4.2): restore, valid, draw, replay, or (Go
        only) both lose. Deliberate moving loses the game for the mover.

        >>> from duiyi.games import GO
        >>> Referee(GO).moved_stones(Decision.BOTH_LOSE).outcome.result.value
        'both_lose'
        >>> Referee(GO).moved_stones(Decision.VALID, offender=WHITE, deliberate=True).outcome.winner
        Color.BLACK
        """
        article = self.article("moved_stones")
        if deliberate:
            if offender is None:
                raise RefereeError("deliberate moving needs the offender", article)
            decision = Decision.OFFENDER_LOSES
        elif decision not in self.book.moved:
            allowed = ", ".join(sorted(d.value for d in self.book.moved))
            raise RefereeError(
                f"{article} allows {allowed} for moved stones, not {decision.value}", article
            )
        return self._decide(
            RulingKind.MOVED_STONES, decision, article, offender, deliberate, at, note
        )

    def scattered(
        self,
        decision: Decision,
        *,
        by: Color | None = None,
        deliberate: bool = False,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """The position was scattered (Go §17.6, Gomoku §4.2).

        Not by the players: resume if rebuilt, else draw, replay or (Go) both lose. By a player
        (``by``): resume if rebuilt (Gomoku: with a violation for the scatterer), else that
        player loses; deliberately: that player loses (Gomoku).
        """
        article = self.article("scattered")
        if by is not None:
            _check_color(by)
            if deliberate or decision is Decision.OFFENDER_LOSES:
                return self._decide(
                    RulingKind.SCATTERED, Decision.OFFENDER_LOSES, article, by, deliberate, at, note
                )
            if decision is not Decision.RESUME:
                raise RefereeError(
                    f"{article}: a player's accidental scatter is rebuilt (resume) or loses "
                    "(offender_loses)",
                    article,
                )
            r = self._decide(RulingKind.SCATTERED, decision, article, by, False, at, note)
            if self.book.penalised_scatter:
                self.violation(by, article, note="scattered the position", at=at)
            return r
        if decision not in self.book.scattered:
            allowed = ", ".join(sorted(d.value for d in self.book.scattered))
            raise RefereeError(
                f"{article} allows {allowed} for a scattered position, not {decision.value}",
                article,
            )
        return self._decide(RulingKind.SCATTERED, decision, article, None, False, at, note)

    def forfeit(
        self,
        color: Color,
        article: str,
        *,
        note: str = "",
        at: float | None = None,
        override: bool = False,
    ) -> Ruling:
        """``color`` loses by the arbiter's decision (判负): cheating (Go §23.1), a phone
        (Go §23.7), refusing the rules (Gomoku §10.1(3)G), a deliberate scatter..."""
        _check_color(color)
        return self._loses(RulingKind.FORFEIT, color, article, at, note, override=override)

    def _loses(
        self,
        kind: RulingKind,
        color: Color,
        article: str,
        at: float | None,
        note: str,
        *,
        colors: tuple[Color, ...] = (),
        override: bool = False,
    ) -> Ruling:
        """Record a ruling by which ``color`` loses the game by forfeit under ``article``."""
        outcome = Outcome.win(color.opponent, Termination.FORFEIT, article)
        return self.record(
            Ruling(kind, color, article, at, None, note, colors=colors, outcome=outcome),
            override=override,
        )

    def double_forfeit(
        self, article: str, *, note: str = "", at: float | None = None, override: bool = False
    ) -> Ruling:
        """Both players lose (判双方负, Go §23.1, Gomoku §12.3(2)C)."""
        return self.record(
            Ruling(
                RulingKind.DOUBLE_FORFEIT,
                None,
                article,
                at,
                None,
                note,
                colors=(BLACK, WHITE),
                outcome=Outcome(Result.BOTH_LOSE, Termination.FORFEIT, article),
            ),
            override=override,
        )

    def no_show(
        self,
        colors: frozenset[Color] | set[Color] | tuple[Color, ...],
        *,
        at: float | None = None,
        note: str = "",
        article: str | None = None,
    ) -> Ruling:
        """Absent past the lateness limit: the game is lost (Go §22.1-2, Gomoku §8.5); both
        absent, both lose (Go §22.3, Gomoku §8.5). ``article`` is the lateness rule that
        applied to a single no-show (the session gives its clock's: Go §22.2 for the 15-minute
        limit at a venue by the lodging); by default Go §22.1 / Gomoku §8.5.

        >>> from duiyi.games import GO
        >>> Referee(GO).no_show({BLACK}).outcome.winner
        Color.WHITE
        >>> Referee(GO).no_show({WHITE}, article="Go §22.2").outcome.article
        'Go §22.2'
        """
        who = tuple(c for c in (BLACK, WHITE) if c in set(colors))
        if not who:
            raise InvalidInput("a no-show names at least one player")
        article = article or self.article("no_show")
        if len(who) == 2:
            article = self.article("no_show_both")
            outcome = Outcome(Result.BOTH_LOSE, Termination.FORFEIT, article)
            return self.record(
                Ruling(
                    RulingKind.NO_SHOW, None, article, at, None, note, colors=who, outcome=outcome
                )
            )
        return self._loses(RulingKind.NO_SHOW, who[0], article, at, note, colors=who)

    def withdrawal(self, color: Color, *, at: float | None = None, note: str = "") -> Ruling:
        """``color`` leaves the event mid-game (Go §15.2, §28; Gomoku §10.1(3)D, §18.5): this
        game is lost; what happens to other games is the tournament's business."""
        _check_color(color)
        article = self.article("withdrawal")
        return self._loses(RulingKind.WITHDRAWAL, color, article, at, note)

    def disqualification(
        self,
        color: Color,
        *,
        approved: bool = False,
        decided: bool = False,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
    ) -> Ruling:
        """取消比赛资格 (Gomoku §2.20(4), §12.3(2)D): after serious misconduct and a refused
        penalty, and only once the competition committee approved the chief arbiter's written
        request (``approved=True``). The player is out of the event (:meth:`disqualified`);
        a game still in play is lost (``decided=False``); a game already decided keeps its
        result (``decided=True``), what becomes of earlier results is the tournament's rule.

        >>> from duiyi.games import GOMOKU
        >>> r = Referee(GOMOKU).disqualification(WHITE, approved=True)
        >>> r.kind.value, r.outcome.winner, r.colors
        ('disqualification', Color.BLACK, (Color.WHITE,))
        """
        _check_color(color)
        art = article or self.article("disqualification")
        if not approved:
            raise RefereeError(
                "a disqualification needs the competition committee's approval of the chief "
                "arbiter's written request (Gomoku §2.20(4)): pass approved=True",
                "Gomoku §2.20(4)",
                code="disqualification-unapproved",
            )
        if color in self.disqualified():
            raise RefereeError(f"{color} is already disqualified", art)
        outcome = None if decided else Outcome.win(color.opponent, Termination.FORFEIT, art)
        text = note or "disqualified from the event"
        return self.record(
            Ruling(
                RulingKind.DISQUALIFICATION,
                color,
                art,
                at,
                None,
                text,
                colors=(color,),
                outcome=outcome,
            )
        )

    def disciplinary_loss(
        self,
        color: Color,
        *,
        decided: bool = False,
        article: str | None = None,
        note: str = "",
        at: float | None = None,
    ) -> Ruling:
        """判负 as a disciplinary penalty (Gomoku §2.20(3)). In play (``decided=False``) it is
        a forfeit: ``color`` loses the game. Once the result is confirmed (``decided=True``)
        the opponent's result from the board must not change, so the ruling carries no
        outcome: it marks ``color`` as losing this game (:meth:`penalty_losses`) and the game's
        own outcome stays (e.g. a draw: the offender scores 0, the opponent keeps ½).

        >>> from duiyi.games import GOMOKU
        >>> r = Referee(GOMOKU).disciplinary_loss(BLACK, decided=True)
        >>> r.outcome is None, r.colors
        (True, (Color.BLACK,))
        >>> Referee(GOMOKU).disciplinary_loss(BLACK).outcome.winner
        Color.WHITE
        """
        _check_color(color)
        article = article or self.article("disciplinary_loss")
        if decided:
            if color in self.penalty_losses():
                raise RefereeError(f"{color} already lost this game by a penalty", article)
            return self.record(
                Ruling(
                    RulingKind.DISCIPLINARY_LOSS,
                    color,
                    article,
                    at,
                    None,
                    note or "penalty loss after the result: the opponent keeps its result",
                    colors=(color,),
                )
            )
        return self._loses(RulingKind.DISCIPLINARY_LOSS, color, article, at, note)

    def both_flags(
        self, *, at: float | None = None, note: str = "", override: bool = False
    ) -> Ruling:
        """Both flags found down and nobody can tell which fell first: a draw (Gomoku
        §10.2(4)). An over-the-board ruling; a server clock always knows the order.

        >>> from duiyi.games import GOMOKU
        >>> Referee(GOMOKU).both_flags().outcome.result.value
        'draw'
        """
        article = self.article("both_flags")
        return self.record(
            Ruling(
                RulingKind.BOTH_FLAGS,
                None,
                article,
                at,
                None,
                note or "both flags down, order unknown",
                colors=(BLACK, WHITE),
                outcome=Outcome.draw(Termination.TIME, article),
            ),
            override=override,
        )

    def leave_seat(
        self,
        color: Color,
        *,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Go §22.7: in byo-yomi, ``color`` may leave the seat during the opponent's thinking
        time only with the arbiter's permission, once per game. The permission is recorded;
        the clocks are not touched (a player who leaves anyway is simply counted as usual);
        a second request in the game is refused.

        >>> from duiyi.games import GO
        >>> ref = Referee(GO)
        >>> ref.leave_seat(BLACK).kind.value
        'leave_seat'
        >>> ref.seat_leaves(BLACK)
        1
        """
        _check_color(color)
        article = self.article("leave_seat")
        if self.seat_leaves(color):
            raise RefereeError(
                f"{color} already left the seat once in this game; {article} allows it once "
                "per game",
                article,
            )
        return self.record(
            Ruling(
                RulingKind.LEAVE_SEAT,
                color,
                article,
                at,
                move_number,
                note or "left the seat with the arbiter's permission",
            )
        )

    def dropped_stone(
        self,
        color: Color,
        *,
        consent: bool = True,
        chief_arbiter: bool = False,
        penalty: str | None = None,
        deduct: float = 0.0,
        award: float = 0.0,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """A stone of ``color`` fell on the board by accident and was entered as its move: it
        is taken back and ``color`` chooses its point again (``Ruling.take_back``).

        Go §17.3: with the opponent's consent (``consent=True``) or, failing agreement, by the
        chief arbiter's decision (``chief_arbiter=True``); no warning (it is not a take-back,
        悔棋, :meth:`void_move` with "Go §17.3").

        Gomoku §6.1(7) "判收回掉落子，另选落点" on the opponent's demand (else
        :meth:`irregular_accepted`), with §4.2's "适当处罚": ``penalty`` ``"violation"`` (the
        default, Gomoku §12.4), ``"time"`` (罚时 of ``deduct`` / ``award`` seconds, §12.3(3)) or
        ``"none"``. The penalty is recorded after the take-back.

        >>> from duiyi.games import GO, GOMOKU
        >>> r = Referee(GO).dropped_stone(BLACK)
        >>> r.take_back, r.passes, r.outcome
        (True, None, None)
        >>> ref = Referee(GOMOKU)
        >>> ref.dropped_stone(WHITE).article, ref.violations(WHITE)
        ('Gomoku §6.1(7)', 1)
        """
        _check_color(color)
        article = self.article("dropped_stone")
        if self.book.penalised_drop:
            return self._dropped_stone_gomoku(
                color, article, penalty or "violation", deduct, award, at, move_number, note
            )
        if penalty not in (None, "none"):
            raise RefereeError(
                f"Go §17.3 gives no penalty for a dropped stone picked up, got {penalty!r}",
                article,
            )
        if not consent and not chief_arbiter:
            raise RefereeError(
                "without the opponent's consent the stone stays unless the chief arbiter "
                f"decides otherwise ({article}): pass chief_arbiter=True",
                article,
            )
        text = note or (
            "dropped stone picked up with the opponent's consent"
            if consent
            else "dropped stone picked up by the chief arbiter's decision"
        )
        return self.record(
            Ruling(RulingKind.DROPPED_STONE, color, article, at, move_number, text, take_back=True)
        )

    def _dropped_stone_gomoku(
        self,
        color: Color,
        article: str,
        penalty: str,
        deduct: float,
        award: float,
        at: float | None,
        move_number: int | None,
        note: str,
    ) -> Ruling:
        """Gomoku §6.1(7) and §4.2: the stone back, the penalty as decided."""
        if penalty not in ("violation", "time", "none"):
            raise InvalidInput(
                f"the penalty for a dropped stone is 'violation', 'time' or 'none' (Gomoku §4.2), "
                f"got {penalty!r}"
            )
        if penalty == "time" and deduct <= 0 and award <= 0:
            raise InvalidInput(
                "a time penalty (罚时, Gomoku §12.3(3)) needs deduct or award seconds"
            )
        self._not_accepted(color, move_number, article)
        text = note or "dropped stone taken back; the player chooses its point again"
        ruling = self.record(
            Ruling(RulingKind.DROPPED_STONE, color, article, at, move_number, text, take_back=True)
        )
        if penalty == "violation":
            self.violation(
                color, "Gomoku §4.2", note="dropped stone", at=at, move_number=move_number
            )
        elif penalty == "time":
            self.time_penalty(
                color,
                deduct=deduct,
                award=award,
                note="dropped stone",
                at=at,
                move_number=move_number,
            )
        return ruling

    def stones_restored(
        self,
        color: Color,
        points: list[str] | tuple[str, ...],
        *,
        warning: bool = True,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Go §18.1 "误提对方有气之子，被判警告一次，并应将有关之子放回原处": ``color`` removed
        stones of the opponent that still had liberties; they go back on ``points`` (the
        session edits the position, :class:`duiyi.go.actions.RestoreStones`) and ``color``
        gets a warning (Go §24).

        >>> from duiyi.games import GO
        >>> ref = Referee(GO)
        >>> r = ref.stones_restored(WHITE, ["D4", "D5"])
        >>> r.restore, ref.warnings(WHITE)
        (('D4', 'D5'), 1)
        """
        _check_color(color)
        article = self.article("stones_restored")
        if isinstance(points, str) or not points or not all(isinstance(p, str) for p in points):
            raise InvalidInput(f"restore_stones names the points of the stones: {points!r}")
        text = note or f"{color.opponent}'s stones wrongly removed by {color} put back"
        r = self.record(
            Ruling(
                RulingKind.STONES_RESTORED,
                color,
                article,
                at,
                move_number,
                text,
                restore=tuple(p.strip().upper() for p in points),
            )
        )
        if warning:
            self.warning(color, article, note="removed stones with liberties", at=at)
        return r

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

    def irregular_accepted(
        self,
        color: Color,
        article: str | None = None,
        *,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §6.1: the opponent of ``color`` accepts ``color``'s irregular act (e.g.
        §6.1(5) a pushed stone stays where it stopped) instead of having it corrected. Nothing
        on the board changes, there is no violation, and a correction of the same act
        (``move_number``) is refused afterwards. Playing on without telling the arbiter
        accepts it as well (Gomoku §6.2): the session then refuses the correction.

        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> ref.irregular_accepted(BLACK, "Gomoku §6.1(5)", move_number=7).kind.value
        'irregular_accepted'
        >>> ref.stone_replaced(BLACK, "h9", move_number=7)
        Traceback (most recent call last):
        ...
        duiyi.errors.RefereeError: white accepted this irregularity of black (Gomoku §6.1(5)): it can no longer be corrected
        """
        _check_color(color)
        base = self.article("irregular_accepted")
        art = article or base
        if not art.startswith(base):
            raise RefereeError(f"the irregular acts the opponent may accept are {base}'s", base)
        if self._accepted(color, move_number) is not None:
            raise RefereeError(f"already accepted ({art})", art)
        text = note or f"{color.opponent} accepts the irregularity instead of a correction"
        return self.record(
            Ruling(RulingKind.IRREGULAR_ACCEPTED, color, art, at, move_number, text, counts=False)
        )

    def stone_replaced(
        self,
        color: Color,
        point: str,
        *,
        lifted: bool = False,
        violation: bool = True,
        at: float | None = None,
        move_number: int | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §6.1(5) (推盘, a stone pushed along the board) or, with ``lifted``, §6.1(6)
        (拔子, a stone put down, lifted and put elsewhere): on the opponent's demand ``color``'s
        last stone goes back to ``point``, the first (empty) point it touched. The session
        moves the stone; the turn is unchanged. The opponent pointed it out, so ``color`` gets
        a violation (Gomoku §6.1 "纠正…并接受处罚", §12.4; ``violation=False``: the correction
        alone). Refused once the opponent accepted the act (Gomoku §6.1) or played on
        (Gomoku §6.2, in the session).

        >>> from duiyi.games import GOMOKU
        >>> Referee(GOMOKU).stone_replaced(WHITE, "j9", lifted=True).replace_at
        'j9'
        """
        _check_color(color)
        article = self.article("stone_replaced") + ("(6)" if lifted else "(5)")
        if not isinstance(point, str) or not point.strip():
            raise InvalidInput(f"replace_stone names the point the stone goes back to: {point!r}")
        self._not_accepted(color, move_number, article)
        text = note or (
            "re-lifted stone put back on the first point" if lifted else "pushed stone put back"
        )
        ruling = self.record(
            Ruling(
                RulingKind.STONE_REPLACED,
                color,
                article,
                at,
                move_number,
                text,
                replace_at=point.strip().lower(),
            )
        )
        if violation:
            self.violation(color, "Gomoku §12.4", note=text, at=at, move_number=move_number)
        return ruling

    # ------------------------------------------------------------------ colours (Gomoku §5.3)

    def coin_toss(
        self,
        caller: Color,
        face: str,
        *,
        call: str,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §5.3(2): the arbiter tosses the 挑边器 and the player of seat ``caller`` calls
        ``call``; ``face`` came up (the caller of this method draws it: the server with its own
        random source, an arbiter from the real coin). The winner of the call then chooses
        (:meth:`colours_chosen`). Only before the game starts (the session checks).

        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> ref.coin_toss(BLACK, "tails", call="heads").color   # the caller ...
        Color.BLACK
        >>> ref.toss_winner()                                  # ... lost the call
        Color.WHITE
        """
        _check_color(caller)
        article = self.article("coin_toss")
        # the faces and choices of duiyi.gomoku.colours (Face, CoinChoice), as plain text here:
        # the referee does not import a game
        if face not in _FACES or call not in _FACES:
            raise InvalidInput(f"a coin shows heads or tails, got {call!r} / {face!r}", article)
        if self._open_toss() is not None:
            raise RefereeError("the coin was tossed already; the winner chooses now", article)
        winner = caller if face == call else caller.opponent
        text = note or f"{caller} called {call}, {face} came up: {winner} chooses"
        return self.record(
            Ruling(RulingKind.COIN_TOSS, caller, article, at, None, text, toss=(call, face))
        )

    def _open_toss(self) -> Ruling | None:
        """The coin toss whose winner has not chosen yet."""
        for r in reversed(self._rulings):
            if r.kind is RulingKind.COLOURS_CHOSEN:
                return None
            if r.kind is RulingKind.COIN_TOSS:
                return r
        return None

    def toss_winner(self) -> Color | None:
        """The seat that won the call of the open coin toss (Gomoku §5.3(2) 中猜者), or None."""
        toss = self._open_toss()
        if toss is None or toss.toss is None or toss.color is None:
            return None
        call, face = toss.toss
        return toss.color if call == face else toss.color.opponent

    def colours_chosen(
        self,
        choice: str,
        *,
        opponent_takes: Color | None = None,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §5.3(2): the winner of the call chooses A Black, B White, or C "要求对方先行选择，
        则对方必须先选择" (then ``opponent_takes`` is the colour the opponent chose). When the
        seat that was to play White takes Black the ruling swaps the seats (``swap``): the
        session exchanges them before the first move.

        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.coin_toss(BLACK, "heads", call="heads")
        >>> ref.colours_chosen("white").swap     # Black's seat won and took White
        True
        """
        article = self.article("colours_chosen")
        winner = self.toss_winner()
        if winner is None:
            raise RefereeError("toss the coin first (Gomoku §5.3(2))", article)
        if choice not in ("black", "white", "opponent_first"):
            raise InvalidInput(
                f"the winner takes 'black', 'white' or 'opponent_first', not {choice!r}", article
            )
        if choice == "opponent_first":
            if not isinstance(opponent_takes, Color):
                raise InvalidInput(
                    "the winner asked the opponent to choose first: the opponent must choose "
                    "black or white (Gomoku §5.3(2)C)",
                    article,
                )
            takes = opponent_takes.opponent
        else:
            if opponent_takes is not None:
                raise InvalidInput("the winner chose a colour: the opponent has none to choose")
            takes = BLACK if choice == "black" else WHITE
        swap = takes is not winner  # the seat that was to play White takes Black
        text = note or (
            f"{winner} chose {choice}"
            + (f", {winner.opponent} took {opponent_takes.value}" if opponent_takes else "")
            + ("; the seats are exchanged" if swap else "")
        )
        return self.record(
            Ruling(RulingKind.COLOURS_CHOSEN, winner, article, at, None, text, swap=swap)
        )

    # ------------------------------------------------------------------ appeals (Gomoku §13)

    def appeal(
        self,
        color: Color,
        against: int,
        *,
        question: Question | str = Question.FACT,
        appellant: Appellant | str = Appellant.PLAYER,
        round_end: float | None = None,
        limit: float | None = None,
        organiser_delay: float = 0.0,
        by_chief_arbiter: bool = False,
        team_event: bool = False,
        leader_supports: bool = False,
        player_age: int | None = None,
        deposit: int | str | Fraction = 0,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """``color`` appeals against the ruling ``against`` (its index in :attr:`rulings`),
        Gomoku §13.1. Refused when the appellant may not appeal (§13.1: in a team event the
        leader, or a player the leader supports), or, with ``limit`` seconds after
        ``round_end``, when it comes too late (§8.11 "应在当轮比赛结束后规定的时间内提出"; the
        organiser's delays excluded); while the round's end is not known (None) no appeal is
        late and no deadline is recorded. The
        record keeps the deadline and who has the last word (a fact: the arbiter; a rule's
        interpretation: the chief arbiter; a question the rules do not cover, decided by the
        chief arbiter: the competition committee). Changes nothing on the board.

        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.violation(BLACK)
        >>> a = ref.appeal(BLACK, 0, round_end=100.0, limit=1800.0, at=400.0).appeal
        >>> a.against, a.deadline, a.authority
        (0, 1900.0, 'arbiter')
        """
        _check_color(color)
        article = self.article("appeal")
        if isinstance(against, bool) or not isinstance(against, int):
            raise InvalidInput(
                f"an appeal names the ruling it is against (its number): {against!r}"
            )
        if not 0 <= against < len(self._rulings):
            raise RefereeError(f"there is no ruling number {against} to appeal against", article)
        target = self._rulings[against]
        if target.kind in (RulingKind.APPEAL, RulingKind.APPEAL_DECIDED):
            raise RefereeError("an appeal is against a ruling, not against an appeal", article)
        try:
            q, who = Question(question), Appellant(appellant)
            money = Fraction(str(deposit))
        except (ValueError, ZeroDivisionError) as exc:
            raise InvalidInput(f"not an appeal: {exc}", article) from exc
        if money < 0:
            raise InvalidInput(f"a deposit is not negative, got {deposit!r}", article)
        if not may_appeal(
            who, team_event=team_event, player_age=player_age, leader_supports=leader_supports
        ):
            raise RefereeError(
                "in a team event only the team leader (or a player the leader supports) appeals; "
                "in an individual event the player (a parent for a child under 9)",
                article,
            )
        deadline: float | None = None
        if limit is not None and round_end is not None:
            start = round_end
            if at is None:
                raise InvalidInput("a deadline needs the appeal's time", "Gomoku §8.11")
            if not appeal_in_time(start, at, limit, organiser_delay=organiser_delay):
                raise RefereeError(
                    f"the appeal came {at - start - organiser_delay:g} s after the round ended, "
                    f"past the {limit:g} s allowed (Gomoku §8.11)",
                    "Gomoku §8.11",
                )
            deadline = start + limit + organiser_delay
        record = AppealRecord(
            against,
            q,
            who,
            deadline,
            final_authority(q, by_chief_arbiter=by_chief_arbiter),
            money,
        )
        text = note or f"{color} appeals against ruling {against} ({target.article})"
        return self.record(Ruling(RulingKind.APPEAL, color, article, at, None, text, appeal=record))

    def open_appeals(self) -> list[int]:
        """The indices of the appeals not decided yet.

        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU); _ = ref.violation(WHITE); _ = ref.appeal(WHITE, 0)
        >>> ref.open_appeals()
        [1]
        """
        decided = {
            r.appeal.against
            for r in self._rulings
            if r.kind is RulingKind.APPEAL_DECIDED and r.appeal is not None
        }
        return [
            i
            for i, r in enumerate(self._rulings)
            if r.kind is RulingKind.APPEAL and i not in decided
        ]

    def appeal_decided(
        self,
        appeal: int,
        result: AppealResult | str,
        *,
        votes: tuple[bool, ...] | list[bool] = (),
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """The answer to the appeal number ``appeal`` (Gomoku §13): ``result`` upheld,
        reasonable (failed, with some reason) or rejected, and the deposit refund (full, half,
        none, §13.1-13.2). When the competition committee has the last word its members'
        ``votes`` are required: an odd number, at least three, the majority decides and must
        agree with ``result`` (§13.2). What an upheld appeal changes is a further ruling.

        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU); _ = ref.violation(WHITE)
        >>> _ = ref.appeal(WHITE, 0, question="uncovered", by_chief_arbiter=True, deposit=200)
        >>> d = ref.appeal_decided(1, "reasonable", votes=[False, False, True]).appeal
        >>> d.result.value, d.refund
        ('reasonable', Fraction(100, 1))
        """
        article = self.article("appeal_decided")
        if appeal not in self.open_appeals():
            raise RefereeError(f"ruling {appeal} is not an open appeal", article)
        lodged = self._rulings[appeal].appeal
        assert lodged is not None
        try:
            res = AppealResult(result)
        except ValueError as exc:
            raise InvalidInput(f"not an appeal result: {result!r}", article) from exc
        ballot = tuple(votes)
        if lodged.authority == "competition committee":
            granted = arbitrate(ballot)
            if granted is not (res is AppealResult.UPHELD):
                raise RefereeError(
                    f"the committee's majority {'granted' if granted else 'refused'} the appeal, "
                    f"not {res.value!r} (Gomoku §13.2)",
                    "Gomoku §13.2",
                )
        elif ballot:
            raise RefereeError(
                f"the {lodged.authority} decides this appeal alone: no committee vote (§13.1)",
                "Gomoku §13.1",
            )
        record = AppealRecord(
            appeal,
            lodged.question,
            lodged.appellant,
            lodged.deadline,
            lodged.authority,
            lodged.deposit,
            res,
            ballot,
            deposit_refund(lodged.deposit, res),
        )
        color = self._rulings[appeal].color
        text = note or f"appeal {appeal}: {res.value} ({lodged.authority})"
        return self.record(
            Ruling(RulingKind.APPEAL_DECIDED, color, article, at, None, text, appeal=record)
        )

    # ------------------------------------------------------------------ (de)serialisation

    def to_json(self) -> dict[str, Any]:
        """The ledger as JSON (stable, ``"v": 1``)."""
        return {
            "v": 1,
            "game": self.game.name,
            "limit": self.limit,
            "rulings": [r.to_json() for r in self._rulings],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], game: RuledGame) -> Referee:
        """Rebuild a ledger of ``game`` from :meth:`to_json` (the caller maps the stored name,
        ``data["game"]``, to its game: :func:`stored_game` reads it; ledgers written before
        the name was stored are Go's).

        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.violation(WHITE, "Gomoku §12.4")
        >>> Referee.from_json(ref.to_json(), GOMOKU).violations(WHITE)
        1
        >>> Referee.from_json(ref.to_json(), ref.game).rulings == ref.rulings
        True
        """
        if data.get("v") != 1:
            raise InvalidInput(f"unsupported referee version {data.get('v')!r}")
        stored = stored_game(data)
        if stored != game.name:
            raise InvalidInput(f"a {stored} referee's ledger read as {game.name}'s")
        ref = cls(game, limit=int(data.get("limit", 2)))
        for r in data.get("rulings", []):
            ref.record(ruling_from_json(r), override=True)
        return ref

    def config_json(self) -> dict[str, Any]:
        """The ledger's settings without its rulings (a fresh referee for a session log)."""
        return {"v": 1, "game": self.game.name, "limit": self.limit, "rulings": []}

    def __repr__(self) -> str:
        return f"<Referee {self.game.name}: {len(self._rulings)} rulings>"


def stored_game(data: dict[str, Any]) -> str:
    """The name of the game a stored ledger (:meth:`Referee.to_json`) rules: ``"go"`` for a
    ledger written before the name was stored.

    >>> stored_game({"v": 1, "game": "gomoku"}), stored_game({"v": 1})
    ('gomoku', 'go')
    """
    return str(data.get("game", "go"))
