"""A minimal game for session tests: players alternate naming fresh points; two passes in a
row draw; a resignation loses."""

from __future__ import annotations

from typing import Any

from duiyi import BLACK, Color
from duiyi.actions import GameAction, Move, Pass, Resign
from duiyi.clock import TimeSystem
from duiyi.errors import GameOver, IllegalAction, IllegalMove
from duiyi.outcome import Outcome, Termination
from duiyi.session import GameAdapter, register_adapter


class FakeGame(GameAdapter):
    kind = "fake"

    def __init__(self) -> None:
        self.moves: list[tuple[Color, str | None]] = []
        self.turn: Color = BLACK
        self.result: Outcome | None = None
        self.warnings: list[Color] = []

    def to_move(self) -> Color | None:
        return None if self.result else self.turn

    def outcome(self) -> Outcome | None:
        return self.result

    def play(self, player: Color, action: GameAction) -> None:
        if self.result is not None:
            raise GameOver("over")
        if isinstance(action, Resign):
            self.result = Outcome.win(player.opponent, Termination.RESIGNATION, "fake §1")
            return
        if player is not self.turn:
            raise IllegalAction(f"not {player}'s turn")
        if isinstance(action, Move):
            point = action.point
            if any(p == point for _, p in self.moves):
                raise IllegalMove("occupied", "fake §2", move=point)
            self.moves.append((player, point))
        elif isinstance(action, Pass):
            if self.moves and self.moves[-1][1] is None:
                self.result = Outcome.draw(Termination.PASSES, "fake §3")
            self.moves.append((player, None))
        else:
            raise IllegalAction(f"no {action.type} in the fake game")
        self.turn = player.opponent

    def end(self, outcome: Outcome) -> None:
        if self.result is None:
            self.result = outcome

    def warn(self, player: Color, article: str) -> None:
        self.warnings.append(player)

    def pass_turn(self, player: Color) -> None:
        if self.to_move() is player:
            self.play(player, "pass", {})

    def moves_played(self) -> int:
        return len(self.moves)

    def time_article(self, system: TimeSystem) -> str:
        return "fake §4"

    def config_json(self) -> dict[str, Any]:
        return {"kind": "fake"}

    def state_json(self) -> dict[str, Any]:
        return {"kind": "fake", "moves": [[c.value, p] for c, p in self.moves]}

    def board_view(self) -> dict[str, Any]:
        return {}

    def sgf(self) -> str:
        return "(;)"


register_adapter("fake", lambda config: FakeGame())
