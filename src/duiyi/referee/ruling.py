"""A ruling: one frozen record of kind, colour, article, time, move number, note and its effects,
with its JSON (``Ruling.to_json`` / :func:`ruling_from_json`: every stored version reads unchanged)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from duiyi import Color
from duiyi.errors import InvalidInput
from duiyi.outcome import Outcome
from duiyi.referee.appeals import (
    AppealRecord,
)
from duiyi.referee.effects import (
    AdjustClock,
    Decide,
    Effect,
    PassTurn,
    ReplaceStone,
    Restart,
    RestoreStones,
    SwapSeats,
    TakeBack,
    Warn,
)
from duiyi.referee.kinds import Decision, RulingKind


@dataclass(frozen=True)
class Ruling:
    """One ruling. ``color`` is the player concerned (the offender; for a no-show or a double
    forfeit see ``colors``). Effects: ``outcome`` ends the game, ``passes`` voids the turn
    into a pass for that player, ``clock`` lists ``(color, seconds)`` adjustments, ``restart``
    means the game starts again (``swap`` with the colours exchanged), ``take_back`` takes the
    last stone of ``color`` off the board and gives it the turn again (Go §17.3),
    ``replace_at`` moves the last stone of ``color`` to that point (Gomoku §6.1(5)-(6)),
    ``restore`` puts those points' stones of the opponent of ``color`` back (Go §18.1).

    >>> from duiyi import BLACK
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
    def effects(self) -> tuple[Effect, ...]:
        """What this ruling does to the game (:mod:`duiyi.referee.effects`), in the order the
        session applies them: the board put right first, then the clock, the seats, the
        warning the game counts, a stone taken back, a pass, a restart, the decision."""
        out: list[Effect] = []
        if self.replace_at is not None:
            out.append(ReplaceStone(self.color, self.replace_at))
        if self.restore:
            out.append(RestoreStones(self.color, self.restore))
        out += [AdjustClock(color, seconds) for color, seconds in self.clock]
        if self.kind is RulingKind.COLOURS_CHOSEN and self.swap:
            out.append(SwapSeats())
        if self.kind is RulingKind.WARNING and self.color is not None:
            out.append(Warn(self.color, self.article))
        if self.take_back:
            out.append(TakeBack(self.color))
        if self.passes is not None:
            out.append(PassTurn(self.passes))
        if self.restart:
            out.append(Restart(self.swap))
        if self.outcome is not None:
            out.append(Decide(self.outcome))
        return tuple(out)

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

    >>> from duiyi import WHITE
    >>> from duiyi.outcome import Termination
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


def stored_game(data: dict[str, Any]) -> str:
    """The name of the game a stored ledger (:meth:`Referee.to_json`) rules: ``"go"`` for a
    ledger written before the name was stored.

    >>> stored_game({"v": 1, "game": "gomoku"}), stored_game({"v": 1})
    ('gomoku', 'go')
    """
    return str(data.get("game", "go"))
