"""One record of a refereed engine game, for Go and Gomoku alike (:class:`EngineGameRecord`).

The Go match runner (:mod:`duiyi.engines.match`) and the Gomocup one
(:mod:`duiyi.engines.gomocup_match`) both produce it: the players, the moves in the game's own
notation (``D4``/``pass`` for Go, the book's ``h8`` for Gomoku), the
:class:`~duiyi.outcome.Outcome`, the reason in words and the time each side used. A runner that
keeps the final position (Go's :class:`duiyi.go.Game`, for its SGF and count) puts it in
``final``.

>>> from duiyi.outcome import Termination
>>> won = Outcome.win(BLACK, Termination.FIVE, "Gomoku §9.1")
>>> r = EngineGameRecord(1, "a", "b", None, ("h8", "h9"), won, "five", used_ms=(15, 230))
>>> r.result_text, r.move_count, r.used_seconds(WHITE)
('1-0', 2, 0.23)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput
from duiyi.outcome import Outcome, Result

__all__ = ["EngineGameRecord"]


@dataclass(frozen=True)
class EngineGameRecord:
    """One finished engine game of either game.

    ``moves`` are the game's notation in order (Gomoku: the opening stones included; Go: passes
    as ``pass``); ``reason`` is a human sentence (the :class:`~duiyi.outcome.Outcome` carries
    termination and article); ``used_ms`` is (black, white); ``move_ms`` each move's thinking
    time when the runner measured it (opening stones 0). ``dead_source`` says who settled Go's
    dead stones (``"engines"`` both agreed, ``"duiyi"`` its proposal); ``sgf_path`` where the
    game was written; ``final`` the final position object when the runner kept it (Go's
    :class:`duiyi.go.Game`).
    """

    number: int
    black: str
    white: str
    opening: str | None
    moves: tuple[str, ...]
    outcome: Outcome
    reason: str
    used_ms: tuple[int, int] = (0, 0)  # black, white
    messages: tuple[str, ...] = ()
    move_ms: tuple[int, ...] = ()  # each move's thinking time, opening stones 0 (or empty)
    dead_source: str | None = None
    sgf_path: str | None = None
    final: Any = field(default=None, compare=False, repr=False)

    @property
    def move_count(self) -> int:
        """Moves played (Go's passes included, Gomoku's opening stones included)."""
        return len(self.moves)

    def used_seconds(self, color: Color) -> float:
        """The time ``color`` used, in seconds."""
        return self.used_ms[0 if color is BLACK else 1] / 1000

    def move_time_ms(self, index: int) -> int:
        """The thinking time of move ``index`` (from 0) in ms; 0 for an opening stone or a
        record without times.

        >>> from duiyi.outcome import Termination
        >>> won = Outcome.win(BLACK, Termination.FIVE, "x")
        >>> r = EngineGameRecord(1, "a", "b", None, ("h8", "h9"), won, "", move_ms=(0, 812))
        >>> r.move_time_ms(1), EngineGameRecord(1, "a", "b", None, ("h8",), won, "").move_time_ms(0)
        (812, 0)
        """
        return self.move_ms[index] if index < len(self.move_ms) else 0

    @property
    def result_text(self) -> str:
        """``1-0`` (Black won), ``0-1``, ``½-½`` or ``0-0`` (both lose).

        >>> from duiyi.outcome import Termination
        >>> won = Outcome.win(WHITE, Termination.FIVE, "x")
        >>> EngineGameRecord(1, "a", "b", None, (), won, "").result_text
        '0-1'
        """
        if self.outcome.result is Result.DRAW:
            return "½-½"
        if self.outcome.winner is BLACK:
            return "1-0"
        if self.outcome.winner is WHITE:
            return "0-1"
        return "0-0"

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (``"v": 1``); ``final`` is not written, ``dead_source`` and
        ``sgf_path`` only when set."""
        out: dict[str, Any] = {
            "v": 1,
            "number": self.number,
            "black": self.black,
            "white": self.white,
            "opening": self.opening,
            "moves": list(self.moves),
            "outcome": self.outcome.to_json(),
            "result": self.result_text,
            "reason": self.reason,
            "used_ms": {"black": self.used_ms[0], "white": self.used_ms[1]},
            "messages": list(self.messages),
            "move_ms": list(self.move_ms),
        }
        if self.dead_source is not None:
            out["dead_source"] = self.dead_source
        if self.sgf_path is not None:
            out["sgf_path"] = self.sgf_path
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EngineGameRecord:
        """Rebuild a record written by :meth:`to_json`."""
        try:
            used = data.get("used_ms") or {}
            return cls(
                int(data["number"]),
                str(data["black"]),
                str(data["white"]),
                data.get("opening"),
                tuple(str(m) for m in data["moves"]),
                Outcome.from_json(data["outcome"]),
                str(data.get("reason", "")),
                (int(used.get("black", 0)), int(used.get("white", 0))),
                tuple(str(m) for m in data.get("messages", ())),
                tuple(int(t) for t in data.get("move_ms", ())),
                dead_source=_optional_text(data.get("dead_source")),
                sgf_path=_optional_text(data.get("sgf_path")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(f"not a game record: {exc}") from exc


def _optional_text(value: object) -> str | None:
    return None if value is None else str(value)
