"""What a session needs from a game, and thin adapters for Go and Gomoku (each carried by its
game object, :data:`duiyi.games.GO` and :data:`duiyi.games.GOMOKU`; they live here, below the
session, so that the game object can build them).

The session never imports a game's internals: it talks to a :class:`GameAdapter`. Players are
named by their **seat**, the colour the draw gave them at the start. In Go a seat never changes
colour; in Gomoku the three-move swap (Gomoku §2.9) gives the Black seat the white stones, and
the adapter translates. The clock belongs to seats, so a swap never swaps the clocks.

>>> from duiyi import BLACK
>>> from duiyi.go import Game
>>> from duiyi.actions import Move
>>> a = GoAdapter(Game(9))
>>> a.play(BLACK, Move("E5"))
>>> a.to_move(), a.moves_played()
(Color.WHITE, 1)
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from duiyi import Color
from duiyi.actions import (
    SESSION_ACTIONS,
    Accept,
    AcceptDraw,
    ChooseFifth,
    ClaimFoul,
    DeclineDraw,
    Dispute,
    GameAction,
    MarkDead,
    Move,
    OfferDraw,
    Open,
    Pass,
    PlaceHandicap,
    ProposeFifth,
    Resign,
    SetDead,
    Swap,
)
from duiyi.errors import GameOver, IllegalAction, InvalidInput, MarkingChanged, SessionError
from duiyi.games.texts import GrowingTexts, StoneTexts
from duiyi.outcome import Outcome

if TYPE_CHECKING:
    from duiyi.clock import TimeSystem

__all__ = [
    "GameAdapter",
    "GoAdapter",
    "GomokuAdapter",
]


@runtime_checkable
class GameAdapter(Protocol):
    """The small surface a :class:`~duiyi.session.Session` needs from a game."""

    kind: str

    def to_move(self) -> Color | None:
        """The seat expected to act (its clock runs), or None (counting phase, game over)."""

    def outcome(self) -> Outcome | None:
        """The result, or None while the game goes on."""

    def play(self, player: Color, action: GameAction) -> None:
        """Apply a game action (:data:`duiyi.actions.GameAction`) by the seat
        ``player``; raise a :class:`duiyi.errors.DuiyiError` and leave the game unchanged if it
        is refused."""

    def end(self, outcome: Outcome) -> None:
        """Impose a result decided off the board (time, forfeit, the arbiter)."""

    def warn(self, player: Color, article: str) -> None:
        """Record a warning in the game's own count (Go §24.1); nothing where there is none."""

    def pass_turn(self, player: Color) -> None:
        """A void move or an overtime pass turned into a pass (Go §19, §22.5)."""

    def moves_played(self) -> int:
        """How many moves (stones and passes) have been made."""

    def time_article(self, system: TimeSystem) -> str:
        """The article under which running out of time loses."""

    def config_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this game as it was when the session began."""

    def state_json(self) -> dict[str, Any]:
        """A public JSON view of the game (for a server)."""

    def board_view(self) -> dict[str, Any]:
        """What a board display needs beyond :meth:`state_json`: the stones by colour, the
        size, the moves played (``move_count``), the last move and the game's own extras (Go: captures, dead stones, the count;
        Gomoku: the opening, the fifth-move candidates, the draw offers); {} for a game
        without a board."""

    def sgf(self) -> str:
        """The game record as SGF, in the game's own dialect (Go: GM[1]; Renju: GM[4])."""

    # What a ruling, a takeback or a page may ask of some games only. A game that has it
    # says so by overriding; the defaults refuse with the article of the game that has it.

    def check_take_back(self, player: Color) -> None:
        """Raise unless :meth:`take_back` would succeed now (Go §17.3, Gomoku §6.1(7))."""
        raise SessionError(
            "picking up a dropped stone is a Go or Gomoku ruling (Go §17.3, Gomoku §6.1(7))",
            "Go §17.3",
        )

    def take_back(self, player: Color) -> None:
        """Take ``player``'s dropped stone, the game's last action, off the board and give it
        the turn again (Go §17.3, Gomoku §6.1(7))."""
        self.check_take_back(player)
        raise SessionError(f"no stone to pick up in {self.kind}", "Go §17.3")

    def takeback_count(self, player: Color) -> int:
        """How many of the game's last actions a takeback by agreement removes for
        ``player`` (issue 21); :class:`IllegalAction` saying why not."""
        raise IllegalAction("this game has no takebacks")

    def take_back_moves(self, count: int) -> None:
        """Drop the game's last ``count`` actions (see :meth:`takeback_count`)."""
        raise IllegalAction("this game has no takebacks")

    def replace_last_stone(self, player: Color, point: str) -> None:
        """Move ``player``'s last stone to ``point`` (Gomoku §6.1(5)-(6))."""
        raise SessionError(
            "putting a stone back on its first point is a Gomoku ruling (Gomoku §6.1)",
            "Gomoku §6.1",
        )

    def check_restore_stones(self) -> None:
        """Raise unless wrongly removed stones can be put back in this game (Go §18.1)."""
        raise SessionError(
            "putting back wrongly removed stones is a Go ruling (Go §18.1)", "Go §18.1"
        )

    def restore_stones(self, owner: Color, points: tuple[str, ...], article: str) -> None:
        """Put ``owner``'s wrongly removed stones back on ``points`` (Go §18.1)."""
        self.check_restore_stones()

    def position(self, move: int) -> dict[str, Any]:
        """The board after the first ``move`` moves (a move list's navigation): ``move``,
        ``stones`` by colour, ``captures`` and ``last_move``. Only a game whose stones leave
        the board needs one (Go §5); :class:`InvalidInput` otherwise."""
        raise InvalidInput(
            f"positions are served for games with captures (Go §5); a {self.kind} record is "
            "its stones"
        )

    def allowed_actions(self, seat: Color) -> list[str]:
        """The session action types of the game itself ``seat`` may send now (``move``,
        ``pass``, ``resign``, ...), while play goes on; a page offers them."""
        return []

    def analysis(self, *, over: bool) -> dict[str, Any]:
        """What a read-only analysis of the game shows beyond the actions (its ``phase``;
        Go: the proposed dead stones and the count; Gomoku: Black's forbidden points, the
        opening); ``over``: the session's game is decided."""
        return {}


def _stones(board: Any, size: int) -> dict[str, Any]:
    """The stones of ``board`` by colour, in the game's notation, and its size."""
    colours = (Color.BLACK, Color.WHITE)
    return {
        "stones": {c.value: sorted(str(p) for p in board.stones(c)) for c in colours},
        "size": size,
    }


# --------------------------------------------------------------------------- Go


def _go_move_text(move: tuple[Color, Any]) -> list[str | None]:
    """A Go move as the state lists it (``["black", "D4"]``, a pass ``["white", None]``; the
    list is shared by every state built since: read only)."""
    color, point = move
    return [color.value, str(point) if point else None]


class GoAdapter(GameAdapter):
    """A ``duiyi.go.Game`` in a session: a seat is its colour."""

    kind = "go"

    def __init__(self, game: Any) -> None:
        from duiyi.go import Game

        if not isinstance(game, Game):
            raise InvalidInput(f"not a duiyi.go.Game: {game!r}")
        self.game = game
        # the state's texts, kept from one update to the next (duiyi.games.texts)
        self._move_texts: GrowingTexts[tuple[Color, Any]] = GrowingTexts(_go_move_text)
        points_of = game.board.geometry.points_of
        self._stone_texts = {c: StoneTexts(points_of) for c in (Color.BLACK, Color.WHITE)}
        self._config: dict[str, Any] = {
            "kind": "go",
            "rules": game.rules.to_json(),
            "actions": game.action_log_json(),
        }

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> GoAdapter:
        """Rebuild from :meth:`config_json`."""
        from duiyi.go import Game, Rules

        try:
            game = Game.from_actions(Rules.from_json(config["rules"]), config["actions"])
        except KeyError as exc:
            raise SessionError(f"a Go game config needs {exc}") from exc
        return cls(game)

    def to_move(self) -> Color | None:
        from duiyi.go import Phase

        if self.game.phase is not Phase.PLAYING:
            return None
        color: Color = self.game.to_move
        return color

    def outcome(self) -> Outcome | None:
        result: Outcome | None = self.game.outcome()
        return result

    def play(self, player: Color, action: GameAction) -> None:
        """The Go action of ``action`` by ``player``, its points parsed once against the
        board, pushed on the game (the same actions, :mod:`duiyi.moves`, a point Go's)."""
        from duiyi.go.point import Point

        g = self.game

        def pt(text: str) -> Point:
            return Point.parse(text, g.size)

        match action:
            case Move(point=point):
                g.apply(Move(pt(point), player))
            case Pass():
                g.apply(Pass(player))
            case Resign():
                g.apply(Resign(player))
            case MarkDead(points=points):
                for p in points:  # one entry a group in Go's log
                    g.apply(MarkDead((pt(p),)))
            case SetDead(points=points):
                g.apply(SetDead(tuple(pt(p) for p in points)))
            case Accept(dead=shown):
                if shown is not None:
                    self._accept_shown(frozenset(pt(p) for p in shown))
                g.apply(Accept(color=player))
            case Dispute(point=point):
                g.apply(Dispute(pt(point), player))
            case PlaceHandicap(points=points):
                g.apply(PlaceHandicap(tuple(pt(p) for p in points)))
            case OfferDraw() | AcceptDraw() | DeclineDraw():
                raise IllegalAction("the Go rules have no draw by agreement (Go §7, §13)", "Go §13")
            case ClaimFoul():
                raise IllegalAction("nothing to claim in Go: time and fouls are judged at once")
            case _:
                raise IllegalAction(f"{SESSION_ACTIONS.name_of(type(action))!r} is not a Go action")

    def _accept_shown(self, shown: frozenset[Any]) -> None:
        """Make an acceptance accept the marking its player was shown (docs/decisions.md):
        the game's marking, or, while nothing is marked, the automatic proposal, which then
        becomes the marking; :class:`MarkingChanged` when the game's marking is another."""
        g = self.game
        marking = g.dead
        if shown == marking:
            return
        if not marking and shown == g.propose_dead():
            g.apply(SetDead(tuple(sorted(shown))))
            return
        now = " ".join(sorted(map(str, marking))) or "none"
        raise MarkingChanged(
            f"the marking changed before this acceptance: the stones marked dead are now {now}; "
            "look at the count again (Go §21)",
            "Go §21",
            code="marking-changed",
            values={"dead": now},
        )

    def end(self, outcome: Outcome) -> None:
        if self.game.outcome() is None:
            self.game.end(outcome)

    def warn(self, player: Color, article: str) -> None:
        if self.game.outcome() is None:
            self.game.add_warning(player, article)

    def pass_turn(self, player: Color) -> None:
        if self.to_move() is player:
            self.game.pass_move(player)

    def take_back(self, player: Color) -> None:
        """Take ``player``'s last stone off the board and give it the turn again (Go §17.3, a
        dropped stone picked up); refused unless the game's last action is that stone."""
        self.check_take_back(player)
        self.game.undo()

    def restore_stones(self, owner: Color, points: tuple[str, ...], article: str) -> None:
        """Put ``owner``'s wrongly removed stones back on ``points`` (Go §18.1), a logged
        action of the game itself."""
        from duiyi.go.actions import RestoreStones
        from duiyi.go.point import Point

        size = self.game.size
        self.game.apply(RestoreStones(owner, tuple(Point.parse(p, size) for p in points), article))

    def check_restore_stones(self) -> None:
        """Go removes stones (Go §5): wrongly removed ones can be put back (Go §18.1)."""
        return None

    def check_take_back(self, player: Color) -> None:
        """Raise :class:`SessionError` unless :meth:`take_back` would succeed."""
        decided = self.game.outcome()
        if decided is not None:
            raise GameOver(f"the game is over: {decided.describe()}")
        actions = self.game.actions
        last = actions[-1] if actions else None
        if not isinstance(last, Move) or last.color is not player or last.point is None:
            raise SessionError(
                f"only {player}'s last stone, with the opponent not yet moved, can be picked "
                "up again (Go §17.3)",
                "Go §17.3",
                code="takeback-not-last-stone",
                values={"player": player.value},
            )

    def takeback_count(self, player: Color) -> int:
        """How many of the game's last actions a takeback by agreement removes for ``player``:
        back to and including its last stone or pass, when only stones and passes follow it
        and play goes on; :class:`IllegalAction` saying why not otherwise.

        >>> from duiyi import BLACK, WHITE
        >>> from duiyi.go import Game
        >>> a = GoAdapter(Game(9)); a.play(BLACK, Move("E5"))
        >>> a.play(WHITE, Move("D5"))
        >>> a.takeback_count(BLACK), a.takeback_count(WHITE)
        (2, 1)
        """
        from duiyi.go import Phase
        from duiyi.go.actions import Pass

        if self.game.phase is not Phase.PLAYING or self.game.outcome() is not None:
            raise IllegalAction("a move is taken back during play only, not in the count")
        return _count_back(self.game.actions, player, (Move, Pass))

    def take_back_moves(self, count: int) -> None:
        """Drop the game's last ``count`` actions (see :meth:`takeback_count`)."""
        for _ in range(count):
            self.game.undo()

    def moves_played(self) -> int:
        return len(self.game.moves)

    def time_article(self, system: TimeSystem) -> str:
        if system.has_overtime:
            return "Go §12.3"
        if system.name in ("moves-per-period", "multi-period"):
            return "Go §12.5"
        return "Go §12.4"

    def config_json(self) -> dict[str, Any]:
        return copy.deepcopy(self._config)

    def state_json(self) -> dict[str, Any]:
        to_move = self.to_move()
        return {
            "kind": "go",
            "phase": self.game.phase.value,
            "to_move": to_move.value if to_move else None,
            "moves": self._move_texts(self.game.moves),
            "warnings": {c.value: n for c, n in self.game.warnings.items()},
        }

    def board_view(self) -> dict[str, Any]:
        g = self.game
        last = g.last_move
        bits = {Color.BLACK: g.board.black_bits, Color.WHITE: g.board.white_bits}
        return {
            "stones": {c.value: texts(bits[c]) for c, texts in self._stone_texts.items()},
            "size": g.size,
            "move_count": len(g.moves),  # stones and passes
            "captures": {c.value: n for c, n in g.captures.items()},
            "dead": sorted(str(p) for p in g.dead),
            "accepted": sorted(c.value for c in g.accepted),
            "rules": g.rules.to_json(),
            "handicap": g.handicap,
            "last_move": None if last is None else (str(last[1]) if last[1] else "pass"),
            "sgf_result": g.sgf_result,
            "result_zh": g.result_zh,
        }

    def sgf(self) -> str:
        from duiyi.go.sgf import game_to_sgf

        return game_to_sgf(self.game)

    def position(self, move: int) -> dict[str, Any]:
        """The first ``move`` moves replayed on a fresh board (handicap stones first).

        >>> from duiyi.go import Game
        >>> g = Game(9); g.play("E5"); g.play("D5")
        >>> GoAdapter(g).position(1)["stones"]
        {'black': ['E5'], 'white': []}
        """
        from duiyi.go import Game

        game = self.game
        moves = game.moves
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= len(moves):
            raise InvalidInput(f"move must be 0-{len(moves)}, got {move}")
        replay = Game(game.size, rules=game.rules, handicap=game.handicap)
        if game.handicap and not replay.board.stones(Color.BLACK):
            handicap = game.board.stones(Color.BLACK) if not moves else None
            if handicap:
                replay.place_handicap(sorted(handicap))
        for color, point in moves[:move]:
            if point is None:
                replay.pass_move(color)
            else:
                replay.play(point, color)
        last = moves[move - 1] if move else None
        colours = (Color.BLACK, Color.WHITE)
        return {
            "move": move,
            "stones": {c.value: sorted(str(p) for p in replay.board.stones(c)) for c in colours},
            "captures": {c.value: n for c, n in replay.captures.items()},
            "last_move": None if last is None else (str(last[1]) if last[1] else "pass"),
        }

    def allowed_actions(self, seat: Color) -> list[str]:
        """Go §6-8 in play: the player on move places a stone or passes, either may resign;
        Go §8-9 at the count: mark the dead stones, accept or dispute, or resign.

        >>> from duiyi import BLACK, WHITE
        >>> from duiyi.go import Game
        >>> a = GoAdapter(Game(9))
        >>> a.allowed_actions(BLACK), a.allowed_actions(WHITE)
        (['move', 'pass', 'resign'], ['resign'])
        """
        from duiyi.go import Phase

        if self.game.phase is Phase.PLAYING:
            return ["move", "pass", "resign"] if self.to_move() is seat else ["resign"]
        return ["mark_dead", "accept", "dispute", "resign"]

    def analysis(self, *, over: bool) -> dict[str, Any]:
        """The phase; at the count the proposed dead stones (Go §8) and the count of that
        proposal until a marking is agreed, and the count (Go §9) of the marking.

        >>> from duiyi.go import Game
        >>> GoAdapter(Game(9)).analysis(over=False)
        {'phase': 'playing'}
        """
        from duiyi.go.scoring import score_position

        inner = self.game
        phase = inner.phase.value
        out: dict[str, Any] = {"phase": phase}
        if phase == "counting":
            proposal = inner.propose_dead()
            out["proposal"] = sorted(str(p) for p in proposal)
            if not inner.dead:
                # the count of what the board shows: the proposal's marking, not yet agreed
                with contextlib.suppress(Exception):
                    out["proposal_score"] = score_position(
                        inner.board,
                        inner.rules,
                        proposal,
                        inner.handicap,
                        inner.captures,
                        inner.warnings,
                    ).to_json()
        if phase in ("counting", "finished") and (phase == "counting" or inner.dead):
            try:
                out["score"] = inner.score().to_json()
            except Exception:  # a count needs a marking the core accepts
                out["score"] = None
        return out


# --------------------------------------------------------------------------- Gomoku


class GomokuAdapter(GameAdapter):
    """A ``duiyi.gomoku.Game`` in a session. After the swap (Gomoku §2.9) the Black seat holds
    the white stones; the adapter turns seats into colours and back."""

    kind = "gomoku"

    def __init__(self, game: Any) -> None:
        from duiyi.gomoku import Game

        if not isinstance(game, Game):
            raise InvalidInput(f"not a duiyi.gomoku.Game: {game!r}")
        self.game = game
        self._imposed: Outcome | None = None
        self._config: dict[str, Any] = {"kind": "gomoku", **game.to_json()}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> GomokuAdapter:
        """Rebuild from :meth:`config_json`."""
        from duiyi.gomoku import Game

        data = {k: v for k, v in config.items() if k != "kind"}
        return cls(Game.from_json(data))

    def _colour(self, seat: Color) -> Color:
        return seat.opponent if self.game.swapped else seat

    def to_move(self) -> Color | None:
        if self.outcome() is not None:
            return None
        colour: Color | None = self.game.to_act
        return None if colour is None else self._colour(colour)

    def outcome(self) -> Outcome | None:
        """The result with the winner named by seat (after a swap the Black seat won with the
        white stones)."""
        if self._imposed is not None:
            return self._imposed
        result: Outcome | None = self.game.outcome()
        if result is None or result.winner is None or not self.game.swapped:
            return result
        return dataclasses.replace(result, winner=result.winner.opponent)

    def _action(self, player: Color, action: GameAction) -> Any:
        """The Gomoku game's action for ``action`` by the seat ``player`` (its colour after
        a swap, the same action of :mod:`duiyi.moves`), the points parsed once."""
        from duiyi.gomoku.point import Point

        if self._imposed is not None:
            from duiyi.errors import GameOver

            raise GameOver(f"the game is over ({self._imposed.termination.value})")
        colour = self._colour(player)
        match action:
            case Move(point=point):
                return Move(Point.parse(point), colour)
            case Pass():
                return Pass(colour)
            case Resign():
                return Resign(colour)
            case ClaimFoul():
                return ClaimFoul(colour)
            case OfferDraw():
                return OfferDraw(colour)
            case AcceptDraw():
                return AcceptDraw(colour)
            case DeclineDraw():
                return DeclineDraw(colour)
            case Open(moves=moves, fifth_n=fifth_n):
                return Open(tuple(Point.parse(m) for m in moves), fifth_n, colour)
            case Swap():
                return Swap(colour)
            case ProposeFifth(points=points):
                return ProposeFifth(tuple(Point.parse(p) for p in points), colour)
            case ChooseFifth(point=point):
                return ChooseFifth(Point.parse(point), colour)
            case _:
                raise IllegalAction(
                    f"{SESSION_ACTIONS.name_of(type(action))!r} is not a Gomoku action"
                )

    def play(self, player: Color, action: GameAction) -> None:
        move = self._action(player, action)
        # resigning, claiming and the draw offers are made on either player's time
        any_time = isinstance(action, (Resign, ClaimFoul, OfferDraw, AcceptDraw, DeclineDraw))
        if not any_time and self.to_move() is not player:
            raise IllegalAction(
                f"it is not {player}'s turn",
                "Gomoku §4.1",
                code="not-on-move",
                values={"player": player.value, "to_move": player.opponent.value},
            )
        self.game.apply(move)

    def end(self, outcome: Outcome) -> None:
        if self.outcome() is None:
            self._imposed = outcome

    def replace_last_stone(self, player: Color, point: str) -> None:
        """Move ``player``'s last stone to ``point`` (Gomoku §6.1(5)-(6): a pushed or re-lifted
        stone goes back to the first point it touched). Only while that stone is the game's
        last action (Gomoku §6.2: once the opponent plays on, the stone is accepted) and no
        result was imposed; the stone is judged again where it lands (five, forbidden move)."""
        from duiyi.errors import DuiyiError
        from duiyi.gomoku.point import Point

        actions = self.game.actions
        last = actions[-1] if actions else None
        colour = self._colour(player)
        if self._imposed is not None or not isinstance(last, Move) or last.color is not colour:
            raise SessionError(
                f"only {player}'s last stone, before the opponent plays on, can be put back "
                "(Gomoku §6.1(5)-(6); playing on accepts it, Gomoku §6.2)",
                "Gomoku §6.2",
                code="replace-not-last-stone",
                values={"player": player.value},
            )
        target = Point.parse(point)
        if target == last.point:
            raise SessionError(
                f"the stone is already on {target}",
                "Gomoku §6.1",
                code="replace-same-point",
                values={"point": str(target)},
            )
        self.game.undo()
        try:
            self.game.apply(Move(target, colour))
        except DuiyiError:
            self.game.apply(last)
            raise

    def check_take_back(self, player: Color) -> None:
        """Raise :class:`SessionError` unless :meth:`take_back` would succeed: ``player``'s
        stone is the game's last action and no result was imposed (a five the stone made
        goes with it)."""

        actions = self.game.actions
        last = actions[-1] if actions else None
        if (
            self._imposed is not None
            or not isinstance(last, Move)
            or last.color is not self._colour(player)
        ):
            raise SessionError(
                f"only {player}'s last stone, before the opponent plays on, can be taken back "
                "(Gomoku §6.1(7); playing on accepts it, Gomoku §6.2)",
                "Gomoku §6.2",
                code="takeback-not-last-stone",
                values={"player": player.value},
            )

    def take_back(self, player: Color) -> None:
        """Gomoku §6.1(7) "判收回掉落子，另选落点": ``player``'s last stone (dropped by
        accident and entered as its move) comes off; ``player`` chooses again."""
        self.check_take_back(player)
        self.game.undo()

    def takeback_count(self, player: Color) -> int:
        """How many of the game's last actions a takeback by agreement removes for ``player``
        (seat): back to and including its last stone or pass, when only stones and passes
        follow it in the play phase; :class:`IllegalAction` saying why not otherwise."""
        from duiyi.gomoku.game import Pass, Phase

        if self._imposed is not None or self.game.outcome() is not None:
            raise IllegalAction("the game is over: nothing is taken back")
        if self.game.phase is not Phase.PLAY:
            raise IllegalAction("a move is taken back in the play phase only, not in the opening")
        return _count_back(self.game.actions, self._colour(player), (Move, Pass))

    def take_back_moves(self, count: int) -> None:
        """Drop the game's last ``count`` actions (see :meth:`takeback_count`)."""
        for _ in range(count):
            self.game.undo()

    def warn(self, player: Color, article: str) -> None:
        return None

    def pass_turn(self, player: Color) -> None:
        if self.to_move() is player:
            self.play(player, Pass())

    def moves_played(self) -> int:
        n: int = self.game.move_number
        return n

    def time_article(self, system: TimeSystem) -> str:
        return "Gomoku §10.1(3)B"

    def config_json(self) -> dict[str, Any]:
        return copy.deepcopy(self._config)

    def state_json(self) -> dict[str, Any]:
        to_move = self.to_move()
        return {
            "kind": "gomoku",
            "phase": self.game.phase.value,
            "to_move": to_move.value if to_move else None,
            "swapped": self.game.swapped,
            "record": self.game.record_text(),
        }

    def board_view(self) -> dict[str, Any]:
        from duiyi.gomoku.point import SIZE

        g = self.game
        moves = g.moves
        known = g.opening
        return {
            **_stones(g.board, SIZE),
            "last_move": str(moves[-1].point) if moves and moves[-1].point else None,
            "moves_list": [str(m.point) if m.point else "pass" for m in moves],
            "move_count": len(moves),
            "rules": g.rules.to_json(),
            "fifth_n": g.fifth_n,
            "fifth_candidates": [str(p) for p in g.fifth_candidates],
            "draw_offer": g.draw_offer.value if g.draw_offer else None,
            # Gomoku §10.3(4): the offers made, by stone colour, and the lead the rules allow
            "draw_offers": {c.value: n for c, n in g.draw_offers.items()},
            "draw_offer_lead": g.rules.draw_offer_lead,
            "opening": (
                None
                if known is None
                else {
                    "id": known.opening.id,
                    "chinese": known.opening.chinese,
                    "japanese": known.opening.japanese,
                }
            ),
            "to_act": g.to_act.value if g.to_act else None,
            # Gomoku §2.9: after the swap the Black seat plays the white stones
            "swapped": g.swapped,
            "stone_colours": (
                {"black": "white", "white": "black"}
                if g.swapped
                else {"black": "black", "white": "white"}
            ),
        }

    def sgf(self) -> str:
        from duiyi.gomoku.notation import game_to_sgf

        return game_to_sgf(self.game)

    def allowed_actions(self, seat: Color) -> list[str]:
        """What the game lets the stones of ``seat`` do now (after the swap the Black seat
        holds the white stones, Gomoku §2.9), as session actions.

        >>> from duiyi import BLACK, WHITE
        >>> from duiyi.gomoku import Game
        >>> a = GomokuAdapter(Game())
        >>> "open" in a.allowed_actions(BLACK), "open" in a.allowed_actions(WHITE)
        (True, False)
        """
        from duiyi.gomoku.game import GOMOKU_ACTIONS

        names = (GOMOKU_ACTIONS.name_of(a) for a in self.game.allowed_actions(self._colour(seat)))
        return [_GOMOKU_SESSION_TYPES.get(n, n) for n in names]

    def analysis(self, *, over: bool) -> dict[str, Any]:
        """The phase, the colour each seat holds (Gomoku §2.9), Black's forbidden points
        while play goes on (Gomoku §4.4), the fifth-move offer (Gomoku §3.3) and the opening.

        >>> from duiyi.gomoku import Game
        >>> GomokuAdapter(Game()).analysis(over=False)["colours"]
        {'black': 'black', 'white': 'white'}
        """
        g = self.game
        swapped = bool(g.swapped)
        found = g.opening
        opening = None
        if found is not None:
            o = found.opening
            opening = {"id": o.id, "chinese": o.chinese, "japanese": o.japanese, "kind": o.kind}
        return {
            "phase": g.phase.value,
            "swapped": swapped,
            # the colour each seat holds now (after the swap the Black seat plays White)
            "colours": {
                "black": "white" if swapped else "black",
                "white": "black" if swapped else "white",
            },
            "forbidden": {p: f.value for p, f in g.forbidden_points().items()} if not over else {},
            "fifth_n": g.fifth_n,
            "candidates": [str(p) for p in g.fifth_candidates],
            "opening": opening,
        }


#: the Gomoku game's action types that a session spells otherwise
_GOMOKU_SESSION_TYPES = {"place": "move", "claim_foul": "claim"}


def _count_back(actions: list[Any], colour: Color, moves: tuple[type, ...]) -> int:
    """The number of trailing ``actions`` back to ``colour``'s last move (a stone or a pass),
    all of them moves; :class:`IllegalAction` otherwise."""
    for count, action in enumerate(reversed(actions), start=1):
        if not isinstance(action, moves):
            break
        if getattr(action, "color", None) is colour:
            return count
    raise IllegalAction(
        f"{colour} has no move of its own to take back since the last change",
        code="takeback-nothing",
        values={"player": colour.value},
    )
