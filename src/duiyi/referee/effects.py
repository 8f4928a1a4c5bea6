"""What a ruling does to the game: typed effects, read from the ruling (:attr:`Ruling.effects
<duiyi.referee.ruling.Ruling.effects>`) and applied by the session, the clock's itself and the
board's through the game's adapter.

A ruling keeps its effects in the fields its JSON has always had (``passes``, ``clock``,
``restart``, ``take_back`` ...: stored ledgers and logs read unchanged); the effects are those
fields as values, in the order the session applies them. The board is put right first (a stone
replaced, stones restored: a refusal leaves nothing recorded), the ruling is recorded, then come
the clock's adjustments, the seats, the warning the game counts, a stone taken back, a pass, a
restart or the game's decision.

>>> from duiyi import BLACK
>>> from duiyi.referee import Ruling, RulingKind
>>> Ruling(RulingKind.VOID_MOVE, BLACK, "Go §19", passes=BLACK).effects
(PassTurn(color=Color.BLACK),)
>>> Ruling(RulingKind.TIME_PENALTY, BLACK, "Gomoku §12.3(3)", clock=((BLACK, -60.0),)).effects
(AdjustClock(color=Color.BLACK, seconds=-60.0),)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from duiyi import Color
from duiyi.outcome import Outcome

__all__ = [
    "AdjustClock",
    "Decide",
    "Effect",
    "PassTurn",
    "ReplaceStone",
    "Restart",
    "RestoreStones",
    "SwapSeats",
    "TakeBack",
    "Warn",
]


@dataclass(frozen=True)
class _Effect:
    #: the effect changes whose turn it is: refused while the game is paused
    turns: ClassVar[bool] = False
    #: the effect acts on a game in play: refused once the game is over (unless it decides it)
    in_play: ClassVar[bool] = False
    #: a correction of the board, made before the ruling is recorded
    board_first: ClassVar[bool] = False


@dataclass(frozen=True)
class ReplaceStone(_Effect):
    """Gomoku §6.1(5)-(6): the last stone of ``color`` goes to ``point``."""

    color: Color | None
    point: str
    board_first: ClassVar[bool] = True


@dataclass(frozen=True)
class RestoreStones(_Effect):
    """Go §18.1: the stones ``remover`` took off while they had liberties go back on
    ``points`` (they are its opponent's)."""

    remover: Color | None
    points: tuple[str, ...]
    board_first: ClassVar[bool] = True


@dataclass(frozen=True)
class AdjustClock(_Effect):
    """``seconds`` added to ``color``'s time (negative: taken; Go §22.8, Gomoku §8.7, §12.3(3))."""

    color: Color
    seconds: float
    in_play: ClassVar[bool] = True


@dataclass(frozen=True)
class SwapSeats(_Effect):
    """Gomoku §5.3(2): the players exchange seats before the first move."""


@dataclass(frozen=True)
class Warn(_Effect):
    """The game counts a warning of ``color`` (Go §24.1) under ``article``."""

    color: Color
    article: str


@dataclass(frozen=True)
class TakeBack(_Effect):
    """Go §17.3, Gomoku §6.1(7): the last stone of ``color`` comes off, its turn again."""

    color: Color | None
    turns: ClassVar[bool] = True


@dataclass(frozen=True)
class PassTurn(_Effect):
    """Go §18.3, §19: ``color``'s turn is voided into a pass (a pass is a move: it presses)."""

    color: Color
    turns: ClassVar[bool] = True
    in_play: ClassVar[bool] = True


@dataclass(frozen=True)
class Restart(_Effect):
    """The game starts again, clocks reset (Gomoku §5.2(3)), with the seats exchanged when
    ``swap``."""

    swap: bool
    turns: ClassVar[bool] = True
    in_play: ClassVar[bool] = True


@dataclass(frozen=True)
class Decide(_Effect):
    """The game ends with ``outcome`` (a forfeit, the second warning, a draw ...)."""

    outcome: Outcome


Effect: TypeAlias = (
    ReplaceStone
    | RestoreStones
    | AdjustClock
    | SwapSeats
    | Warn
    | TakeBack
    | PassTurn
    | Restart
    | Decide
)
