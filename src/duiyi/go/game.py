"""A game of Go under a rule set: moves, repetition, passes, counting phase and result.

The game is event-sourced: its state is a pure function of ``rules`` and :attr:`Game.actions`
(first a :class:`~duiyi.go.actions.Start` header). ``undo`` drops the last action by popping a
snapshot, which restores the exact position, hash and repetition history.

>>> g = Game(9)
>>> g.play("E5"); g.play("C3"); g.to_move
Color.BLACK
>>> g.pass_move(); g.pass_move(); g.phase
<Phase.COUNTING: 'counting'>
>>> g.accept(BLACK); g.accept(WHITE); g.result_zh, g.sgf_result
('白胜3又3/4子', 'W+7.5')
>>> Game.from_actions(g.rules, g.action_log_json()).result_zh
'白胜3又3/4子'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, NoReturn

from duiyi import BLACK, WHITE, Color
from duiyi.codec import action_from_json, action_to_json
from duiyi.errors import GameOver, IllegalAction, IllegalMove, InvalidInput, InvalidPoint
from duiyi.go.actions import (
    GO_ACTIONS,
    Action,
    Adjudicate,
    RestoreStones,
    Resume,
    Setup,
    Start,
    VoidMove,
    Warn,
)
from duiyi.go.board import Board
from duiyi.go.handicap import fixed_handicap_points
from duiyi.go.life import propose_dead
from duiyi.go.point import Point, check_size
from duiyi.go.rules import KoRule, RepetitionOutcome, Rules
from duiyi.go.scoring import Score, score_position
from duiyi.moves import Accept, Dispute, MarkDead, Move, Pass, PlaceHandicap, Resign, SetDead
from duiyi.outcome import Outcome, Result, Termination

__all__ = ["Game", "LegalMoves", "Phase"]

MAX_HANDICAP = 9

#: Simple ko: a stone move that makes the whole-board position occur for this many times ends
#: the game by repetition (Go §20.3): the cycle has been gone through twice (as KataGo).
CYCLE_OCCURRENCES = 3


class Phase(enum.Enum):
    """Where the game stands.

    >>> Game(9).phase
    <Phase.PLAYING: 'playing'>
    """

    PLAYING = "playing"
    COUNTING = "counting"  # after two passes: marking dead stones (Go §7.3, §8, §21)
    FINISHED = "finished"


_OCCUPIED, _SUICIDE, _KO, _SUPERKO = 1, 2, 3, 4
_REASONS = {
    _OCCUPIED: ("point is occupied", "Go §2"),
    _SUICIDE: ("suicide: the stone would have no liberty and captures nothing", "Go §5"),
    _KO: ("ko: the stone just taken may not be retaken at once", "Go §20.1"),
    _SUPERKO: ("repeats an earlier whole-board position", "Go §6"),
}


def _refuse(r: int, point: str) -> NoReturn:
    """Refuse the move at ``point`` for the reason ``r`` (one of :data:`_REASONS`), with the
    code a page says it by (issue 32)."""
    reason, article = _REASONS[r]
    if r == _OCCUPIED:
        raise IllegalMove(reason, article, move=point, code="move-occupied")
    if r == _SUICIDE:
        raise IllegalMove(reason, article, move=point, code="move-suicide")
    if r == _KO:
        raise IllegalMove(reason, article, move=point, code="move-ko")
    raise IllegalMove(reason, article, move=point, code="move-superko")


class _State(NamedTuple):
    """What undo restores after any action but a stone move (see Game._state): the whole
    position and every counter of the game."""

    black: int  # black bits
    white: int  # white bits
    zobrist: int  # hash of the stones
    to_move: Color
    phase: Phase
    nmoves: int  # len(moves)
    capb: int  # black captures
    capw: int  # white captures
    passes: int  # consecutive passes
    ko: int  # simple-ko index or -1
    dead: int  # dead bits
    accepted: frozenset[Color]
    warnb: int  # black warnings
    warnw: int  # white warnings
    outcome: Outcome | None
    pending: int  # handicap stones still to place
    score: Score | None
    history: dict[int, int] | None  # history replaced by setup (else None)
    passed: frozenset[int]  # simple ko: situations in which a player passed


# What a stone move saves for undo (see Game._do_move): only what a move changes.
_MoveState = tuple[
    int,  # black bits
    int,  # white bits
    int,  # hash
    Color,  # the mover (to move before the move)
    int,  # len(moves)
    int,  # black captures
    int,  # white captures
    int,  # consecutive passes
    int,  # simple-ko index or -1
]


def _check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise InvalidInput(f"rules must be a duiyi.go.Rules, got {type(rules).__name__}")
    return rules


def _check_color(color: object) -> None:
    if not isinstance(color, Color):
        raise InvalidInput(f"not a colour: {color!r}")


def _is_pass(move: object) -> bool:
    """``None`` or the word "pass" (any case, spaces around)."""
    return move is None or (isinstance(move, str) and move.strip().lower() == "pass")


class LegalMoves:
    """A lazy view of the legal moves of the side to move (passes excluded).

    Iterable (points in board order), supports ``in``, ``bool()``, ``len()`` and ``count()``.

    >>> g = Game(5)
    >>> lm = g.legal_moves()
    >>> Point.parse("C3", 5) in lm, "C3" in lm, bool(lm), lm.count()
    (True, True, True, 25)
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def bits(self) -> int:
        """The legal points as a bitboard (the layout of :class:`~duiyi.go.board.Geometry`)."""
        g = self._game
        if g._phase is not Phase.PLAYING or g._pending:
            return 0
        if g._legal is None:
            g._legal = g._legal_bits()
        return g._legal

    def __iter__(self) -> Iterator[Point]:
        g = self._game
        return iter(g._geo.points_of(self.bits()))

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Point | str):
            return False
        return not _is_pass(move) and self._game.is_legal(move)

    def __bool__(self) -> bool:
        return self.bits() != 0

    def count(self) -> int:
        """How many legal stone moves there are."""
        return self.bits().bit_count()

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves {' '.join(str(p) for p in self)}>"


class Game:
    """A game of Go.

    Args:
        size: lines per side, 5–25 (19 by default).
        rules: a :class:`~duiyi.go.rules.Rules` (Chinese by default).
        handicap: 0 (even game), 1 (让先: Black moves first without komi) or 2–9 stones, placed on
            the fixed star points or, when ``rules.fixed_handicap`` is false, by Black with
            :meth:`place_handicap`. White moves first after handicap stones.

    >>> g = Game(19, handicap=2)
    >>> g.to_move, sorted(map(str, g.board.stones(BLACK)))
    (Color.WHITE, ['D4', 'Q16'])
    """

    def __init__(self, size: int = 19, rules: Rules | None = None, handicap: int = 0) -> None:
        self._rules = _check_rules(Rules.chinese() if rules is None else rules)
        self._init(Start(size, handicap, not self._rules.fixed_handicap))

    # ------------------------------------------------------------------ construction
    def _init(self, start: Start) -> None:
        check_size(start.size)
        h = start.handicap
        if isinstance(h, bool) or not isinstance(h, int) or not 0 <= h <= MAX_HANDICAP:
            raise InvalidInput(f"handicap must be 0–{MAX_HANDICAP} stones, got {h!r}")
        self._start = start
        self._board = Board(start.size)
        self._geo = self._board.geometry
        self._situational = self._rules.ko_rule is not KoRule.POSITIONAL
        self._simple_ko = self._rules.ko_rule is KoRule.SIMPLE
        self._passed: frozenset[int] = frozenset()
        self._to_move = BLACK
        self._phase = Phase.PLAYING
        self._moves: list[tuple[Color, Point | None]] = []
        self._capb = self._capw = 0
        self._passes = 0
        self._ko = -1
        self._dead = 0
        self._accepted: frozenset[Color] = frozenset()
        self._warnb = self._warnw = 0
        self._outcome: Outcome | None = None
        self._pending = 0
        self._score: Score | None = None
        self._actions: list[Action] = [start]
        self._undo: list[tuple[_State | None, _MoveState | None, int | None]] = []
        self._cache: tuple[int, int, int, tuple[int, int, int, int, int] | int] | None = None
        self._legal: int | None = None  # legal points of the side to move, once computed
        # Points emptied by captures since the repetition history (re)started: only there, or
        # where a stone captures, can a new stone recreate an earlier position (Go §6). Any
        # action that takes stones off the board must add them here.
        self._gone = 0
        if h >= 2:
            if start.free_placement:
                self._pending = h
            else:
                for p in fixed_handicap_points(start.size, h):
                    self._board.set(p, BLACK)
                self._to_move = WHITE
        self._history: dict[int, int] = {}
        self._restart_history()

    @classmethod
    def from_actions(cls, rules: Rules, actions: Iterable[Action | dict[str, Any]]) -> Game:
        """Rebuild a game from its rules and action log (objects or their JSON dicts).

        >>> g = Game(9); g.play("E5"); g.pass_move()
        >>> h = Game.from_actions(g.rules, g.action_log_json())
        >>> h.board == g.board and h.to_move is g.to_move
        True
        """
        items = [a if not isinstance(a, dict) else action_from_json(a, GO_ACTIONS) for a in actions]
        if not items or not isinstance(items[0], Start):
            raise InvalidInput("an action log starts with a 'start' action")
        g = cls.__new__(cls)
        g._rules = _check_rules(rules)
        g._init(items[0])
        for a in items[1:]:
            g.apply(a)
        return g

    @classmethod
    def from_position(
        cls,
        size: int = 19,
        rules: Rules | None = None,
        black: Iterable[Point | str] = (),
        white: Iterable[Point | str] = (),
        to_move: Color = BLACK,
    ) -> Game:
        """A game starting from set-up stones (SGF AB/AW).

        >>> g = Game.from_position(9, black=["C3"], white=["G7"], to_move=WHITE)
        >>> g.to_move, g.board.get("C3")
        (Color.WHITE, Color.BLACK)
        """
        g = cls(size, rules)
        g.setup(black=black, white=white, to_move=to_move)
        return g

    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON: ``{"v": 1, "rules": ..., "actions": [...]}``.

        >>> g = Game(9); g.play("E5")
        >>> Game.from_json(g.to_json()).moves == g.moves
        True
        """
        return {"v": 1, "rules": self._rules.to_json(), "actions": self.action_log_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game written by :meth:`to_json`."""
        if not isinstance(data, dict) or data.get("v", 1) != 1:
            raise InvalidInput("a Go game is a JSON object with v = 1, rules and actions")
        try:
            rules, actions = data["rules"], data["actions"]
        except KeyError as exc:
            raise InvalidInput(f"a Go game needs {exc}") from None
        return cls.from_actions(Rules.from_json(rules), actions)

    def copy(self) -> Game:
        """An independent copy of the game (same rules, log, position and undo stack).

        >>> g = Game(9); g.play("E5"); h = g.copy(); h.play("D4")
        >>> len(g.moves), len(h.moves)
        (1, 2)
        """
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._board = self._board.copy()
        g._moves = list(self._moves)
        g._history = dict(self._history)
        g._actions = list(self._actions)
        g._undo = list(self._undo)
        return g

    # ------------------------------------------------------------------ properties
    @property
    def size(self) -> int:
        """Lines per side."""
        return self._start.size

    @property
    def rules(self) -> Rules:
        """The rule set."""
        return self._rules

    @property
    def handicap(self) -> int:
        """Handicap stones (0 = even game, 1 = 让先)."""
        return self._start.handicap

    @property
    def board(self) -> Board:
        """A copy of the current position."""
        return self._board.copy()

    @property
    def to_move(self) -> Color:
        """The side to move."""
        return self._to_move

    @property
    def phase(self) -> Phase:
        """PLAYING, COUNTING or FINISHED."""
        return self._phase

    @property
    def moves(self) -> list[tuple[Color, Point | None]]:
        """Moves made so far, ``None`` for a pass."""
        return list(self._moves)

    @property
    def last_move(self) -> tuple[Color, Point | None] | None:
        """The latest move, or None."""
        return self._moves[-1] if self._moves else None

    @property
    def captures(self) -> dict[Color, int]:
        """Prisoners taken during play by each colour (dead stones not included)."""
        return {BLACK: self._capb, WHITE: self._capw}

    def removed(self, color: Color) -> frozenset[Point]:
        """The empty points from which a stone of ``color`` was taken off by a move of this
        game (a capture), i.e. where Go §18.1 can put a wrongly removed stone back.

        >>> g = Game(9)
        >>> for p in ["A2", "A1", "B1", "pass"]: g.play(p)
        >>> sorted(map(str, g.removed(WHITE))), sorted(map(str, g.removed(BLACK)))
        (['A1'], [])
        """
        _check_color(color)
        side = 0 if color is BLACK else 1
        # the colour's stones before each action (its undo snapshot), then now; a stone move
        # (a move snapshot) that took stones of the colour away captured them
        stones: list[int] = []
        for st, mv, _ in self._undo:
            pair = (mv[0], mv[1]) if mv is not None else (st.black, st.white) if st else (0, 0)
            stones.append(pair[side])
        stones.append((self._board.black_bits, self._board.white_bits)[side])
        gone = 0
        for k, (_, mv, _) in enumerate(self._undo):
            if mv is not None:
                gone |= stones[k] & ~stones[k + 1]
        empty = self._geo.on_board & ~(self._board.black_bits | self._board.white_bits)
        return frozenset(self._geo.points_of(gone & empty))

    @property
    def actions(self) -> list[Action]:
        """The action log (a copy), starting with the :class:`Start` header."""
        return list(self._actions)

    def action_log_json(self) -> list[dict[str, Any]]:
        """The action log as JSON-serialisable dicts."""
        return [action_to_json(a, GO_ACTIONS) for a in self._actions]

    @property
    def dead(self) -> frozenset[Point]:
        """Stones currently marked dead (counting phase)."""
        return frozenset(self._geo.points_of(self._dead))

    @property
    def accepted(self) -> frozenset[Color]:
        """Colours that accepted the current marking."""
        return self._accepted

    @property
    def warnings(self) -> dict[Color, int]:
        """Warnings received by each colour (Go §24)."""
        return {BLACK: self._warnb, WHITE: self._warnw}

    @property
    def consecutive_passes(self) -> int:
        """Passes in a row that count toward the end of play (Go §7.3); under simple ko a pass
        made while barred from retaking a ko is not counted (docs/decisions.md)."""
        return self._passes

    @property
    def handicap_pending(self) -> int:
        """Handicap stones Black still has to place freely (0 once placed)."""
        return self._pending

    @property
    def ko_point(self) -> Point | None:
        """Under simple ko, the point the side to move may not retake now (Go §20.1)."""
        return self._geo.bit_point[self._ko] if self._ko >= 0 else None

    @property
    def situation_hash(self) -> int:
        """The repetition key of the current position (with side to move unless positional)."""
        return self._key(self._board.zobrist, self._to_move)

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """True once the game is finished."""
        return self._phase is Phase.FINISHED

    # ------------------------------------------------------------------ internals
    def _key(self, zobrist: int, to_move: Color) -> int:
        if self._situational and to_move is WHITE:
            return zobrist ^ self._geo.side_key
        return zobrist

    def _state(self, keep_history: bool = False) -> _State:
        """The snapshot undo restores; ``keep_history`` when the action replaces the
        repetition history (set-up, handicap placement), so that undo brings it back."""
        b = self._board
        return _State(
            black=b.black_bits,
            white=b.white_bits,
            zobrist=b.zobrist,
            to_move=self._to_move,
            phase=self._phase,
            nmoves=len(self._moves),
            capb=self._capb,
            capw=self._capw,
            passes=self._passes,
            ko=self._ko,
            dead=self._dead,
            accepted=self._accepted,
            warnb=self._warnb,
            warnw=self._warnw,
            outcome=self._outcome,
            pending=self._pending,
            score=self._score,
            history=dict(self._history) if keep_history else None,
            passed=self._passed,
        )

    def _commit(self, action: Action, pre: _State, added_key: int | None) -> None:
        self._undo.append((pre, None, added_key))
        self._actions.append(action)
        self._cache = None
        self._legal = None

    def _point(self, move: object) -> Point:
        if isinstance(move, Point):
            if not move.on_board(self.size):
                raise InvalidPoint(f"{move} is not a point of the {self.size}×{self.size} board")
            return move
        if isinstance(move, str):
            return Point.parse(move, self.size)
        raise InvalidPoint(f"not a point: {move!r}")

    def _evaluate(self, i: int) -> tuple[int, int, int, int, int] | int:
        """Result of the side to move playing on bit ``i``: the new position or a reason code."""
        b = self._board
        c = self._cache
        if c is not None and c[0] == i and c[1] == b.zobrist and c[2] == self._ko:
            return c[3]
        res: tuple[int, int, int, int, int] | int
        if (b.black_bits | b.white_bits) >> i & 1:
            res = _OCCUPIED
        elif i == self._ko:
            res = _KO
        else:
            black = self._to_move is BLACK
            t = b.try_play(i, black, self._rules.allow_suicide)
            if t is None or (t[4] == 1 << i and not self._rules.single_stone_suicide):
                res = _SUICIDE  # (Ing allows multi-stone suicide only: Rules.single_stone_suicide)
            elif self._rules.ko_rule is not KoRule.SIMPLE and (
                self._key(t[2], WHITE if black else BLACK) in self._history
            ):
                res = _SUPERKO
            else:
                res = t
        self._cache = (i, b.zobrist, self._ko, res)
        return res

    def _legal_bits(self) -> int:
        """Every legal point of the side to move at once, with whole-board bit operations.

        A point with an empty neighbour is never suicide; the others (few) are legal when they
        take the last liberty of an opponent chain or join an own chain that keeps another
        liberty (Go §5). The chains in atari are found once; each capture point gets the keys
        of what it takes. The repetition check (Go §6) of a point is then one look-up of the
        new position's key, ``h ^ z[p]`` (``^`` the captured stones' keys), in the history.
        Simple ko (Go §20.1) only removes the ko point. Equal, point by point, to
        :meth:`_evaluate` (tests/go/test_legal_moves.py checks it on random positions).
        """
        b = self._board
        geo = self._geo
        w, on = geo.width, geo.on_board
        black = self._to_move is BLACK
        own, opp = (b._black, b._white) if black else (b._white, b._black)
        empty = on & ~(own | opp)
        if not empty:
            return 0
        near_empty = ((empty << 1) | (empty >> 1) | (empty << w) | (empty >> w)) & empty
        okeys = geo.white_keys if black else geo.black_keys
        # opponent chains in atari: their one liberty captures them. A stone with two empty
        # neighbours gives its chain two liberties: flood those chains away first, in one go.
        e1, e2, e3, e4 = empty >> 1, empty << 1, empty >> w, empty << w
        two = (e1 & (e2 | e3 | e4)) | (e2 & (e3 | e4)) | (e3 & e4)
        safe = opp & two
        while True:
            nxt = (safe | (safe << 1) | (safe >> 1) | (safe << w) | (safe >> w)) & opp
            if nxt == safe:
                break
            safe = nxt
        capture: dict[int, int] = {}  # capture point -> keys of the stones it takes
        rest = opp & ~safe
        while rest:
            grp = rest & -rest
            while True:
                nxt = (grp | (grp << 1) | (grp >> 1) | (grp << w) | (grp >> w)) & opp
                if nxt == grp:
                    break
                grp = nxt
            rest &= ~grp
            libs = ((grp << 1) | (grp >> 1) | (grp << w) | (grp >> w)) & empty
            if libs & (libs - 1) == 0:  # exactly one liberty
                i = libs.bit_length() - 1
                taken = 0
                bits = grp
                while bits:
                    low = bits & -bits
                    taken ^= okeys[low.bit_length() - 1]
                    bits ^= low
                capture[i] = capture.get(i, 0) ^ taken
        legal = near_empty
        for i in capture:
            legal |= 1 << i
        crowded = empty & ~legal  # no empty neighbour, captures nothing
        nbrs = geo.neighbours
        suicides = 0  # legal suicides (checked in full by _evaluate)
        while crowded:
            low = crowded & -crowded
            crowded ^= low
            i = low.bit_length() - 1
            friends = nbrs[i] & own
            while friends:
                grp = friends & -friends
                while True:
                    nxt = (grp | (grp << 1) | (grp >> 1) | (grp << w) | (grp >> w)) & own
                    if nxt == grp:
                        break
                    grp = nxt
                libs = ((grp << 1) | (grp >> 1) | (grp << w) | (grp >> w)) & empty & ~low
                if libs:
                    legal |= low
                    break
                friends &= ~grp
            else:
                if self._rules.allow_suicide and not isinstance(self._evaluate(i), int):
                    suicides |= low  # a suicide the rules allow (the rare slow path)
        rule = self._rules.ko_rule
        if rule is KoRule.SIMPLE:
            if self._ko >= 0:
                legal &= ~(1 << self._ko)
            return legal | suicides
        history = self._history
        if not history:
            return legal | suicides
        keys = geo.black_keys if black else geo.white_keys
        h = b._hash
        if self._situational and black:  # the new position has White to move
            h ^= geo.side_key
        check = legal & self._gone
        for i in capture:
            check |= 1 << i
        check &= legal
        while check:
            low = check & -check
            check ^= low
            i = low.bit_length() - 1
            key = h ^ keys[i]
            if i in capture:
                key ^= capture[i]
            if key in history:
                legal ^= low
        return legal | suicides

    def _require(self, *phases: Phase) -> None:
        if self._phase in phases:
            return
        if self._phase is Phase.FINISHED:
            raise GameOver("the game is over", "Go §7")
        if self._phase is Phase.COUNTING:
            raise IllegalAction(
                "play has ended (two passes, Go §7.3); mark dead stones, accept, or dispute "
                "to resume (Go §21.4)",
                "Go §21",
            )
        raise IllegalAction("only possible in the counting phase (after two passes)", "Go §21")

    def _restart_history(self) -> None:
        """The current position becomes the only one in the repetition history (a new start)."""
        self._history = {self._key(self._board.zobrist, self._to_move): 1}
        self._gone = 0

    def _record(self, key: int) -> int:
        self._history[key] = self._history.get(key, 0) + 1
        return key

    # ------------------------------------------------------------------ play
    def is_legal(self, move: Point | str | None) -> bool:
        """True when the side to move may play ``move`` now (``None``/"pass" for a pass).

        >>> g = Game(9); g.play("E5")
        >>> g.is_legal("E5"), g.is_legal("D4"), g.is_legal("pass"), g.is_legal("Z9")
        (False, True, True, False)
        """
        if self._phase is not Phase.PLAYING or self._pending:
            return False
        if isinstance(move, Point):
            geo = self._geo
            if move.col >= geo.size or move.row >= geo.size:
                return False
            i = move.row * geo.width + move.col
            # Fast path, the common case: an empty point with an empty neighbour is never
            # suicide (Go §5). Under simple ko only the ko point is barred (Go §20.1); under
            # superko a stone on a point that held no stone since the history started cannot
            # recreate an earlier position (Go §6), and a point that held one and is empty now
            # was emptied by a capture (self._gone).
            b = self._board
            occ = b._black | b._white
            if not occ >> i & 1 and geo.neighbours[i] & ~occ:
                if self._simple_ko:
                    return i != self._ko
                if not self._gone >> i & 1:
                    return True
            return not isinstance(self._evaluate(i), int)
        if _is_pass(move):
            return True
        try:
            p = self._point(move)
        except InvalidPoint:
            return False
        return not isinstance(self._evaluate(self._geo.point_bit[p]), int)

    def illegal_reason(self, move: Point | str) -> tuple[str, str] | None:
        """Why ``move`` is illegal for the side to move as ``(reason, article)``, or None.

        >>> g = Game(9); g.play("E5"); g.illegal_reason("E5")
        ('point is occupied', 'Go §2')
        """
        p = self._point(move)
        self._require(Phase.PLAYING)
        r = self._evaluate(self._geo.point_bit[p])
        return _REASONS[r] if isinstance(r, int) else None

    def legal_moves(self) -> LegalMoves:
        """The legal stone moves of the side to move, as a lazy view.

        >>> Game(9).legal_moves().count()
        81
        """
        return LegalMoves(self)

    def play(self, move: Point | str | None, color: Color | None = None) -> None:
        """Play a stone for the side to move (or pass with ``None``/"pass").

        Raises :class:`~duiyi.errors.IllegalMove` naming the article (occupied point, suicide
        Go §5, ko Go §20.1, repetition Go §6) and leaves the game unchanged.

        >>> g = Game(9); g.play("D4")
        >>> g.play("D4")
        Traceback (most recent call last):
        ...
        duiyi.errors.IllegalMove: illegal move D4: point is occupied (Go §2)
        """
        if isinstance(move, Point):
            p = move
        elif _is_pass(move):
            self.pass_move(color)
            return
        else:
            p = self._point(move)
        self._do_move(Move(p, self._to_move if color is None else color))

    def pass_move(self, color: Color | None = None) -> None:
        """Pass (虚着, Go §2.5). Two passes in a row end play and open counting (Go §7.3).

        >>> g = Game(9); g.pass_move(); g.to_move, g.consecutive_passes
        (Color.WHITE, 1)
        """
        self.apply(Pass(self._to_move if color is None else color))

    def resign(self, color: Color | None = None) -> None:
        """``color`` (default: the side to move) resigns; the opponent wins (Go §7.2).

        >>> g = Game(9); g.resign(WHITE); g.sgf_result, g.result_zh
        ('B+R', '黑中盘胜')
        """
        self.apply(Resign(self._to_move if color is None else color))

    def setup(
        self,
        black: Iterable[Point | str] = (),
        white: Iterable[Point | str] = (),
        empty: Iterable[Point | str] = (),
        to_move: Color | None = None,
    ) -> None:
        """Add or remove stones before play starts (SGF AB/AW/AE); no captures are made.

        >>> g = Game(9); g.setup(black=["C3", "G7"], to_move=WHITE); g.board.count(BLACK)
        2
        """
        self.apply(
            Setup(
                tuple(self._point(p) for p in black),
                tuple(self._point(p) for p in white),
                tuple(self._point(p) for p in empty),
                to_move,
            )
        )

    def place_handicap(self, points: Iterable[Point | str]) -> None:
        """Black's free placement of all handicap stones at once (then White moves).

        >>> from dataclasses import replace
        >>> g = Game(9, replace(Rules.chinese(), fixed_handicap=False), handicap=2)
        >>> g.place_handicap(["C4", "F6"]); g.to_move
        Color.WHITE
        """
        self.apply(PlaceHandicap(tuple(self._point(p) for p in points)))

    # ------------------------------------------------------------------ counting
    def mark_dead(self, point: Point | str) -> None:
        """Toggle the chain through ``point`` dead/alive (counting phase; clears acceptances).

        >>> g = Game(9); g.play("E5"); g.play("D5"); g.pass_move(); g.pass_move()
        >>> g.mark_dead("D5"); sorted(map(str, g.dead))
        ['D5']
        """
        self.apply(MarkDead((self._point(point),)))

    def set_dead(self, points: Iterable[Point | str]) -> None:
        """Replace the whole marking with ``points`` (whole chains; clears acceptances).

        >>> g = Game(9); g.play("E5"); g.play("D5"); g.pass_move(); g.pass_move()
        >>> g.set_dead(["E5", "D5"]); len(g.dead)
        2
        """
        self.apply(SetDead(tuple(self._point(p) for p in points)))

    def accept(self, color: Color) -> None:
        """``color`` accepts the current marking; both accepting counts the game (Go §8, §9).

        >>> g = Game(9); g.pass_move(); g.pass_move(); g.accept(WHITE); g.accepted
        frozenset({Color.WHITE})
        """
        self.apply(Accept(color=color))

    def dispute(self, color: Color, point: Point | str) -> None:
        """``color`` claims the group at ``point`` dead, the opponent does not agree: play
        resumes with ``color`` to move (Go §21.4). Impossible once both accepted (Go §21.3).

        >>> g = Game(9); g.play("E5"); g.pass_move(); g.pass_move()
        >>> g.dispute(WHITE, "E5"); g.phase, g.to_move
        (<Phase.PLAYING: 'playing'>, Color.WHITE)
        """
        self.apply(Dispute(self._point(point), color))

    def propose_dead(self) -> frozenset[Point]:
        """An automatic dead-stone proposal from :mod:`duiyi.go.life` (not applied)."""
        return propose_dead(self._board.copy(), self._rules)

    def score(self) -> Score:
        """The count with the current marking (the final count once the game is counted).

        >>> Game(9).score().sgf_result
        'W+7.5'
        """
        return self._score if self._score is not None else self._count()

    def _count(self) -> Score:
        return score_position(
            self._board, self._rules, self.dead, self.handicap, self.captures, self.warnings
        )

    # ------------------------------------------------------------------ arbiter
    def add_warning(self, color: Color, article: str = "Go §24") -> None:
        """A warning for ``color``: one stone off its count (Go §24.1); the second loses the game
        (Go §24.2).

        >>> g = Game(9); g.add_warning(BLACK, "Go §17.2"); g.add_warning(BLACK, "Go §18.1")
        >>> g.outcome().winner, g.outcome().termination.value
        (Color.WHITE, 'warnings')
        """
        self.apply(Warn(color, article))

    def void_move(
        self,
        color: Color,
        point: Point | str | None = None,
        article: str = "Go §19",
        warning: bool = False,
    ) -> None:
        """Referee mode: the arbiter voids ``color``'s move at ``point``; it counts as a pass
        (Go §19: 判着手无效，弃权一次), with a warning when ``warning`` (Go §18.3).

        >>> g = Game(9); g.void_move(BLACK, "E5", "Go §19")
        >>> g.to_move, g.moves, g.board.get("E5") is None
        (Color.WHITE, [(Color.BLACK, None)], True)
        """
        p = None if point is None else self._point(point)
        self.apply(VoidMove(color, p, article, warning))

    def end(self, outcome: Outcome) -> None:
        """End the game with a result decided off the board (time, forfeit, arbiter).

        >>> g = Game(9); g.end(Outcome.win(BLACK, Termination.FORFEIT, "Go §22.1"))
        >>> g.sgf_result
        'B+F'
        """
        self.apply(Adjudicate(outcome))

    # ------------------------------------------------------------------ results
    @property
    def result_zh(self) -> str | None:
        """The result in Chinese (黑胜3/4子, 白中盘胜, 和棋 ...), None while playing."""
        o = self._outcome
        if o is None:
            return None
        if o.result is Result.DRAW:
            return "和棋"
        if o.result is Result.NO_RESULT:
            return "无胜负"
        if o.result is Result.BOTH_LOSE:
            return "双方负"
        w = o.winner
        assert w is not None
        t = o.termination
        if t is Termination.COUNT and isinstance(o.score, Score):
            return o.score.result_zh
        if t is Termination.RESIGNATION:
            return f"{w.zh}中盘胜"
        if t is Termination.TIME:
            return f"{w.zh}胜（{w.opponent.zh}超时）"
        if t is Termination.WARNINGS:
            return f"{w.zh}胜（{w.opponent.zh}两次警告）"
        return f"{w.zh}胜"

    @property
    def sgf_result(self) -> str | None:
        """SGF RE value (B+1.5, W+R, B+T, B+F, 0, Void), None while playing."""
        o = self._outcome
        if o is None:
            return None
        if o.result is Result.DRAW:
            return "0"
        if o.result is not Result.WIN:
            return "Void"
        w = o.winner
        assert w is not None
        t = o.termination
        if t is Termination.COUNT and isinstance(o.score, Score):
            return o.score.sgf_result
        if t is Termination.RESIGNATION:
            return f"{w.letter}+R"
        if t is Termination.TIME:
            return f"{w.letter}+T"
        return f"{w.letter}+F"

    # ------------------------------------------------------------------ undo
    def undo(self) -> Action:
        """Drop the last action and restore the exact state before it; returns the action.

        >>> g = Game(9); g.play("E5"); h = g.situation_hash
        >>> g.play("D5"); g.undo()
        Move(point=Point.parse('D5'), color=Color.WHITE)
        >>> g.situation_hash == h
        True
        """
        if not self._undo:
            raise IllegalAction("nothing to undo")
        st, mv, key = self._undo.pop()
        action = self._actions.pop()
        if key is not None:
            n = self._history[key] - 1
            if n:
                self._history[key] = n
            else:
                del self._history[key]
        self._cache = None
        self._legal = None
        b = self._board
        if mv is not None:  # a stone move: only these fields changed
            (
                b._black,
                b._white,
                b._hash,
                self._to_move,
                nmoves,
                self._capb,
                self._capw,
                self._passes,
                self._ko,
            ) = mv
            del self._moves[nmoves:]
            self._phase = Phase.PLAYING  # a move may have ended play by repetition (Go §20.3)
            self._outcome = None
            return action
        assert st is not None
        b._black, b._white, b._hash = st.black, st.white, st.zobrist
        self._to_move = st.to_move
        self._phase = st.phase
        del self._moves[st.nmoves :]
        self._capb, self._capw = st.capb, st.capw
        self._passes = st.passes
        self._ko = st.ko
        self._dead = st.dead
        self._accepted = st.accepted
        self._warnb, self._warnw = st.warnb, st.warnw
        self._outcome = st.outcome
        self._pending = st.pending
        self._score = st.score
        self._passed = st.passed
        if st.history is not None:
            self._history = dict(st.history)
            self._gone = self._geo.on_board  # not known for that history: check every point
        self._cache = None
        self._legal = None
        return action

    # ------------------------------------------------------------------ dispatch
    def apply(self, action: Action | dict[str, Any]) -> None:
        """Apply one action (object or JSON dict); the public methods all come here.

        >>> g = Game(9); g.apply({"v": 1, "type": "move", "color": "black", "point": "E5"})
        >>> g.last_move
        (Color.BLACK, Point.parse('E5'))
        """
        if isinstance(action, dict):
            action = action_from_json(action, GO_ACTIONS)
        if isinstance(action, Move):
            self._do_move(action)
        elif isinstance(action, Pass):
            self._do_pass(action)
        elif isinstance(action, Resign):
            self._do_resign(action)
        elif isinstance(action, MarkDead):
            self._do_mark(action)
        elif isinstance(action, SetDead):
            self._do_set_dead(action)
        elif isinstance(action, Accept):
            self._do_accept(action)
        elif isinstance(action, Dispute):
            self._do_dispute(action)
        elif isinstance(action, Resume):
            self._do_resume(action)
        elif isinstance(action, Warn):
            self._do_warn(action)
        elif isinstance(action, VoidMove):
            self._do_void(action)
        elif isinstance(action, Adjudicate):
            self._do_adjudicate(action)
        elif isinstance(action, Setup):
            self._do_setup(action)
        elif isinstance(action, PlaceHandicap):
            self._do_place(action)
        elif isinstance(action, RestoreStones):
            self._do_restore(action)
        elif isinstance(action, Start):
            raise InvalidInput("'start' may only be the first action of a log")
        else:
            raise InvalidInput(f"not a Go action: {action!r}")

    def _check_turn(self, color: Color | None, what: str) -> None:
        if not isinstance(color, Color):
            raise InvalidInput(f"not a colour: {color!r}")
        if self._pending:
            raise IllegalAction(f"Black must first place {self._pending} handicap stones")
        if color is not self._to_move:
            raise IllegalAction(
                f"{color} cannot {what}: it is {self._to_move}'s turn (Go §2.3)",
                "Go §2.3",
                code="not-on-move",
                values={"player": color.value, "to_move": self._to_move.value},
            )

    def _do_move(self, a: Move[Point]) -> None:
        if self._phase is not Phase.PLAYING:
            self._require(Phase.PLAYING)
        p = a.point
        geo = self._geo
        if isinstance(p, Point) and p.col < geo.size and p.row < geo.size:
            i = p.row * geo.width + p.col
        else:
            p = self._point(p)
            i = geo.point_bit[p]
        if a.color is not self._to_move or self._pending:
            self._check_turn(a.color, "play")
        color = self._to_move  # the colour the stone says, checked
        b = self._board
        black, white, zob = b._black, b._white, b._hash
        nb = geo.neighbours[i]
        occ = black | white
        is_black = color is BLACK
        captured = self_captured = 0
        if (
            not occ >> i & 1
            and i != self._ko
            and nb & ~occ
            and not nb & (white if is_black else black)
            and (self._simple_ko or not self._gone >> i & 1)
        ):
            # the common case: no capture, not suicide (Go §4, §5), no repetition possible
            # (see is_legal)
            if is_black:
                black |= 1 << i
                zob ^= geo.black_keys[i]
            else:
                white |= 1 << i
                zob ^= geo.white_keys[i]
        else:
            r = self._evaluate(i)
            if isinstance(r, int):
                _refuse(r, str(p))
            black, white, zob, captured, self_captured = r
        pre: _MoveState = (
            b._black,
            b._white,
            b._hash,
            color,
            len(self._moves),
            self._capb,
            self._capw,
            self._passes,
            self._ko,
        )
        b._black, b._white, b._hash = black, white, zob
        self._ko = -1
        if captured or self_captured:
            self._gone |= captured | self_captured
            ncap = captured.bit_count()
            if is_black:
                self._capb += ncap
                self._capw += self_captured.bit_count()
            else:
                self._capw += ncap
                self._capb += self_captured.bit_count()
            if self._simple_ko and ncap == 1:
                own = black if is_black else white
                if not (nb & own) and (nb & ~(black | white)) == captured:
                    self._ko = captured.bit_length() - 1
        opp = WHITE if is_black else BLACK
        self._to_move = opp
        self._passes = 0
        self._moves.append((color, p))
        key = zob ^ geo.side_key if self._situational and is_black else zob  # White to move
        history = self._history
        n = history.get(key, 0) + 1
        history[key] = n
        if n >= CYCLE_OCCURRENCES and self._simple_ko:
            # Go §20.3: a cycle (triple ko, eternal life, ...) has been gone through twice.
            self._phase = Phase.FINISHED
            self._outcome = self._repetition_outcome()
        self._undo.append((None, pre, key))
        self._actions.append(a)
        self._cache = None
        self._legal = None

    def _repetition_outcome(self) -> Outcome:
        ro = self._rules.repetition_outcome
        if ro is RepetitionOutcome.DRAW:
            return Outcome.draw(Termination.REPETITION, "Go §20.3")
        note = "Go §20.3 (replay)" if ro is RepetitionOutcome.REPLAY else "Go §20.3"
        return Outcome(Result.NO_RESULT, Termination.REPETITION, note)

    def _do_pass(self, a: Pass) -> None:
        self._require(Phase.PLAYING)
        self._check_turn(a.color, "pass")
        pre = self._state(keep_history=self._rules.ko_rule is KoRule.SIMPLE)
        key = self._pass_turn(a.by())
        self._open_counting_after_two_passes()
        self._commit(a, pre, key)

    def _pass_turn(self, color: Color) -> int:
        """``color``'s turn goes by without a stone (a pass or a voided move); returns the
        repetition key recorded for the new position.

        Under simple ko (docs/decisions.md, "simple ko cycles", KataGo's rule): a pass that
        lifts a ko ban (the passer could not retake at once) does not count toward two passes
        in a row, so the ko may be retaken after it; a pass that leads to a situation (position
        and side to move) the same player's pass already led to ends play, as two passes do
        (Go §7.3): the cycle could only come round again; and a pass starts the count of
        repeated situations afresh (a cycle with a pass in it never ends the game by
        repetition).
        """
        self._to_move = color.opponent
        self._passes += 1
        if self._rules.ko_rule is KoRule.SIMPLE:
            after = self._key(self._board.zobrist, self._to_move)
            if after in self._passed:
                self._passes = 2  # play ends
            elif self._ko >= 0:
                self._passes = 0  # a pass for the ko: not an ending pass
            self._passed = self._passed | {after}
            self._ko = -1
            self._moves.append((color, None))
            self._restart_history()
            return after
        self._ko = -1
        self._moves.append((color, None))
        return self._record(self._key(self._board.zobrist, self._to_move))

    def _open_counting_after_two_passes(self) -> None:
        if self._phase is Phase.PLAYING and self._passes >= 2:  # Go §7.3
            self._phase = Phase.COUNTING
            self._dead = 0
            self._accepted = frozenset()

    def _do_void(self, a: VoidMove) -> None:
        self._require(Phase.PLAYING)
        self._check_turn(a.color, "move")
        if a.point is not None:
            self._point(a.point)
        pre = self._state(keep_history=self._rules.ko_rule is KoRule.SIMPLE)
        key = self._pass_turn(a.color)
        if a.warning:
            self._warn(a.color)
        self._open_counting_after_two_passes()
        self._commit(a, pre, key)

    def _warn(self, color: Color) -> None:
        if color is BLACK:
            self._warnb += 1
            n = self._warnb
        else:
            self._warnw += 1
            n = self._warnw
        if n >= 2:
            self._outcome = Outcome.win(color.opponent, Termination.WARNINGS, "Go §24.2")
            self._phase = Phase.FINISHED

    def _do_resign(self, a: Resign) -> None:
        self._require(Phase.PLAYING, Phase.COUNTING)
        _check_color(a.color)
        pre = self._state()
        self._outcome = Outcome.win(a.by().opponent, Termination.RESIGNATION, "Go §7.2")
        self._phase = Phase.FINISHED
        self._commit(a, pre, None)

    def _chain(self, p: Point) -> int:
        grp = self._board.group_bits(self._geo.point_bit[p])
        if not grp:
            raise IllegalAction(f"{p} is empty: only stones can be marked dead", "Go §8")
        return grp

    def _do_mark(self, a: MarkDead[Point]) -> None:
        self._require(Phase.COUNTING)
        groups = [self._chain(self._point(p)) for p in a.points]
        pre = self._state()
        for grp in groups:
            self._dead = self._dead & ~grp if (self._dead & grp) == grp else self._dead | grp
        self._accepted = frozenset()
        self._commit(a, pre, None)

    def _do_set_dead(self, a: SetDead[Point]) -> None:
        self._require(Phase.COUNTING)
        bits = 0
        for p in a.points:
            bits |= self._chain(self._point(p))
        pre = self._state()
        if bits != self._dead:
            self._accepted = frozenset()
        self._dead = bits
        self._commit(a, pre, None)

    def _do_accept(self, a: Accept[Point]) -> None:
        self._require(Phase.COUNTING)
        color = a.by()
        if color in self._accepted:
            raise IllegalAction(f"{color} has already accepted this marking", "Go §21")
        pre = self._state()
        self._accepted = self._accepted | {color}
        if len(self._accepted) == 2:
            self._finish_count()
        self._commit(a, pre, None)

    def _finish_count(self) -> None:
        s = self._count()
        self._score = s
        w = s.winner
        self._outcome = (
            Outcome.win(w, Termination.COUNT, "Go §9", s)
            if w is not None
            else Outcome.draw(Termination.COUNT, "Go §9", s)
        )
        self._phase = Phase.FINISHED

    def _do_dispute(self, a: Dispute[Point]) -> None:
        color = a.by()
        if self._phase is Phase.FINISHED:
            raise GameOver(
                "both sides confirmed the end: play cannot resume (Go §21.3)", "Go §21.3"
            )
        self._require(Phase.COUNTING)
        p = self._point(a.point)
        owner = self._board.get(p)
        if owner is None:
            raise IllegalAction(f"{p} is empty: a dispute is about a group (Go §21.4)", "Go §21.4")
        if owner is color:
            raise IllegalAction(
                f"{color} cannot claim its own group at {p} dead (Go §21.4)",
                "Go §21.4",
                code="dispute-own-group",
                values={"player": color.value, "point": str(p)},
            )
        self._play_on(a, color)

    def resume(self, color: Color) -> None:
        """After two passes, ``color`` does not agree to end: play resumes with ``color`` to
        move (Go §21.1). Impossible once both accepted (Go §21.3).

        >>> g = Game(9); g.pass_move(); g.pass_move(); g.resume(WHITE); g.phase, g.to_move
        (<Phase.PLAYING: 'playing'>, Color.WHITE)
        """
        self.apply(Resume(color))

    def _do_resume(self, a: Resume) -> None:
        if self._phase is Phase.FINISHED:
            raise GameOver(
                "both sides confirmed the end: play cannot resume (Go §21.3)", "Go §21.3"
            )
        self._require(Phase.COUNTING)
        _check_color(a.color)
        self._play_on(a, a.color)

    def _play_on(self, a: Dispute[Point] | Resume, color: Color) -> None:
        """Counting ends and play goes on with ``color`` to move (Go §21.1, §21.4)."""
        pre = self._state()
        self._phase = Phase.PLAYING
        self._to_move = color
        self._passes = 0
        self._ko = -1
        self._dead = 0
        self._accepted = frozenset()
        key = self._record(self._key(self._board.zobrist, self._to_move))
        self._commit(a, pre, key)

    def _do_warn(self, a: Warn) -> None:
        self._require(Phase.PLAYING, Phase.COUNTING)
        _check_color(a.color)
        pre = self._state()
        self._warn(a.color)
        self._commit(a, pre, None)

    def _do_adjudicate(self, a: Adjudicate) -> None:
        self._require(Phase.PLAYING, Phase.COUNTING)
        if not isinstance(a.outcome, Outcome):
            raise InvalidInput(f"not an outcome: {a.outcome!r}")
        pre = self._state()
        self._outcome = a.outcome
        self._phase = Phase.FINISHED
        self._commit(a, pre, None)

    def _do_setup(self, a: Setup) -> None:
        self._require(Phase.PLAYING)
        if self._moves:
            raise IllegalAction("stones can only be set up before the first move")
        trial = self._board.copy()
        for p in a.empty:
            trial.set(self._point(p), None)
        for p in a.black:
            trial.set(self._point(p), BLACK)
        for p in a.white:
            trial.set(self._point(p), WHITE)
        self._check_liberties(trial)
        pre = self._state(keep_history=True)
        b = self._board
        b._black, b._white, b._hash = trial.black_bits, trial.white_bits, trial.zobrist
        if a.to_move is not None:
            self._to_move = a.to_move
        self._ko = -1
        self._restart_history()
        self._commit(a, pre, None)

    def _do_restore(self, a: RestoreStones) -> None:
        """Go §18.1 in referee mode: ``a.color``'s stones back on empty points mid-game; every
        chain must keep a liberty; the turn stays; the opponent gives the prisoners back."""
        self._require(Phase.PLAYING)
        _check_color(a.color)
        pts = [self._point(p) for p in a.points]
        if not pts or len(set(pts)) != len(pts):
            raise InvalidInput("name the distinct points of the stones to put back", "Go §18.1")
        trial = self._board.copy()
        removed = self.removed(a.color)
        for p in pts:
            if trial.get(p) is not None:
                raise IllegalAction(f"{p} is not empty: nothing to put back there", "Go §18.1")
            if p not in removed:
                raise IllegalAction(
                    f"no {a.color} stone was removed from {p} in this game: nothing to put back "
                    "there (Go §18.1)",
                    "Go §18.1",
                )
            trial.set(p, a.color)
        self._check_liberties(trial)  # the stones had liberties, and take none away entirely
        pre = self._state()
        b = self._board
        b._black, b._white, b._hash = trial.black_bits, trial.white_bits, trial.zobrist
        if a.color is BLACK:
            self._capw = max(self._capw - len(pts), 0)
        else:
            self._capb = max(self._capb - len(pts), 0)
        self._ko = -1
        key = self._record(self._key(b.zobrist, self._to_move))
        self._commit(a, pre, key)

    def _check_liberties(self, board: Board) -> None:
        geo = board.geometry
        empty = geo.on_board & ~(board.black_bits | board.white_bits)
        for bits in (board.black_bits, board.white_bits):
            rest = bits
            while rest:
                low = rest & -rest
                grp = board._flood(low, bits)
                rest &= ~grp
                if not geo.expand(grp) & empty:
                    p = geo.bit_point[low.bit_length() - 1]
                    raise InvalidInput(f"set-up stones at {p} have no liberty (Go §3)", "Go §3")

    def _do_place(self, a: PlaceHandicap[Point]) -> None:
        self._require(Phase.PLAYING)
        if not self._pending:
            raise IllegalAction("no handicap stones are waiting to be placed")
        pts = [self._point(p) for p in a.points]
        if len(set(pts)) != len(pts) or len(pts) != self._pending:
            raise IllegalAction(
                f"Black must place exactly {self._pending} distinct handicap stones, got {len(pts)}"
            )
        for p in pts:
            if self._board.get(p) is not None:
                raise IllegalAction(f"handicap point {p} is not empty")
        pre = self._state(keep_history=True)
        for p in pts:
            self._board.set(p, BLACK)
        self._pending = 0
        self._to_move = WHITE
        self._restart_history()
        self._commit(a, pre, None)

    def __str__(self) -> str:
        """The board diagram and one status line.

        >>> print(Game(5))
           A B C D E
         5 . . . . .  5
         4 . . . . .  4
         3 . . . . .  3
         2 . . . . .  2
         1 . . . . .  1
           A B C D E
        chinese, move 0, black to move
        """
        if self._outcome is not None:
            status = f"finished: {self.result_zh} ({self.sgf_result})"
        elif self._phase is Phase.COUNTING:
            status = f"counting, {len(self.dead)} stones marked dead"
        else:
            status = f"{self._to_move} to move"
        return f"{self._board}\n{self._rules.name}, move {len(self._moves)}, {status}"

    def __repr__(self) -> str:
        return (
            f"<Game {self.size}×{self.size} {self._rules.name} handicap={self.handicap} "
            f"moves={len(self._moves)} to_move={self._to_move} phase={self._phase.value}>"
        )
