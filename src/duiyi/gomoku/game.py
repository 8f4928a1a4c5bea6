"""A Gomoku/Renju game as one state machine over an action log (Gomoku §3-4, §10-11).

A game is its :class:`~duiyi.gomoku.rules.RenjuRules` plus an ordered list of actions; every
state is a pure function of that list (:meth:`Game.from_actions`), and undo drops the last action.

Who does what in a designated opening (Gomoku §2.9-2.10, §3.2, §4.1; see docs/decisions.md):

1. The player who starts with Black, the *opener*, lays down black 1 on h8, white 2 touching it
   and black 3 in the central 5×5 (one of the 26 openings) and declares N, the number of fifth
   moves to offer: one :class:`Open` action.
2. The other player (White) may now, once, take Black (:class:`Swap`); the swap counts as a
   move, so the opener, now White, plays white 4. Otherwise White plays white 4 itself.
3. Whoever holds Black then offers N non-equivalent fifth moves (:class:`ProposeFifth`); White
   keeps one (:class:`ChooseFifth`) and plays white 6. With N = 1 the single stone is black 5.

>>> g = Game(RenjuRules.chinese_2013())
>>> g.open("h8", "h9", "j10", fifth_n=2)      # 疏星 (Sosei), two fifth moves
>>> g.swap()                                  # White takes Black; the opener plays white 4
>>> g.play("i9"); g.propose_fifth(["g10", "k7"]); g.choose_fifth("k7")
>>> g.phase, g.to_act, len(g.board)
(<Phase.PLAY: 'play'>, Color.WHITE, 5)
>>> Game.from_actions(g.rules, g.actions).board == g.board
True
>>> action_to_json(g.actions[0], GOMOKU_ACTIONS)
{'v': 1, 'type': 'open', 'color': 'black', 'moves': ['h8', 'h9', 'j10'], 'fifth_n': 2}
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from duiyi import Color
from duiyi.codec import Codec, Vocabulary, action_from_json, action_to_json
from duiyi.errors import GameOver, IllegalAction, IllegalMove, InvalidInput
from duiyi.gomoku.board import Board
from duiyi.gomoku.fouls import Foul, forbidden_points, foul, makes_five
from duiyi.gomoku.openings import Recognised, recognise
from duiyi.gomoku.point import CENTER, SYMMETRIES, Point
from duiyi.gomoku.rules import DabSymmetry, FoulPolicy, OpeningRule, RenjuRules
from duiyi.moves import (
    AcceptDraw,
    ChooseFifth,
    ClaimFoul,
    DeclineDraw,
    Move,
    OfferDraw,
    Open,
    Pass,
    Play,
    ProposeFifth,
    Resign,
    Swap,
)
from duiyi.outcome import Outcome, Termination

__all__ = [
    "GOMOKU_ACTIONS",
    "AcceptDraw",
    "Action",
    "ChooseFifth",
    "ClaimFoul",
    "DeclineDraw",
    "Game",
    "NumberedMove",
    "OfferDraw",
    "Open",
    "Pass",
    "Phase",
    "ProposeFifth",
    "Resign",
    "Swap",
    "equivalent_fifths",
]


# -- actions ------------------------------------------------------------------------------------
def _points(values: Any) -> tuple[Point, ...]:
    if isinstance(values, str):
        raise InvalidInput(f"expected a list of points, got {values!r}")
    return tuple(Point.parse(v) for v in values)


#: the codec of each field type a Gomoku action has (as its annotation reads): a colour by its
#: name, a point as the book writes it ("h8", a stone's ``P`` too), points a list of them, N a
#: whole number
_CODECS: dict[str, Codec] = {
    "Color": Codec(lambda c: c.value, Color),
    "Color | None": Codec(lambda c: c.value, Color),
    "Point": Codec(str, Point.parse),
    "P": Codec(str, Point.parse),
    "tuple[Point, ...]": Codec(lambda ps: [str(p) for p in ps], _points),
    "tuple[P, ...]": Codec(lambda ps: [str(p) for p in ps], _points),
    "int": Codec(int, int),
}


Action: TypeAlias = (
    Open[Point]
    | Move[Point]
    | Pass
    | Swap
    | ProposeFifth[Point]
    | ChooseFifth[Point]
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | Resign
    | ClaimFoul
)


#: Gomoku's game log: each action's class by its JSON ``type`` (a stone is ``"place"``), the
#: codec of each field type; every entry says ``"v": 1``, the colour is never guessed and comes
#: first; a claim is of a foul (the ``what`` a session was sent is not the game's)
GOMOKU_ACTIONS = Vocabulary(
    "Gomoku",
    {
        "open": Open,
        "place": Move,
        "pass": Pass,
        "swap": Swap,
        "propose_fifth": ProposeFifth,
        "choose_fifth": ChooseFifth,
        "offer_draw": OfferDraw,
        "accept_draw": AcceptDraw,
        "decline_draw": DeclineDraw,
        "resign": Resign,
        "claim_foul": ClaimFoul,
    },
    _CODECS,
    required=frozenset({"color"}),
    first=("color",),
    ignored=frozenset({"what"}),
)


# -- state -------------------------------------------------------------------------------------
class Phase(enum.Enum):
    """Where the game stands."""

    OPENING = "opening"  # waiting for the designated opening (Open)
    SWAP = "swap"  # White may swap, then white 4
    WHITE4 = "white4"  # after a swap: the opener, now White, plays white 4
    PROPOSE_FIFTH = "propose_fifth"  # Black offers N fifth moves
    CHOOSE_FIFTH = "choose_fifth"  # White keeps one
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class NumberedMove:
    """One numbered move of the record (Gomoku §7: Black odd, White even); ``point`` None is
    a pass."""

    number: int
    color: Color
    point: Point | None

    def __str__(self) -> str:
        return f"{self.number}. {self.point if self.point else 'pass'}"


@dataclass
class _PendingFoul:
    number: int
    point: Point
    foul: Foul


@dataclass
class _State:
    board: Board = field(default_factory=Board)
    phase: Phase = Phase.PLAY
    to_act: Color = Color.BLACK
    moves: list[NumberedMove] = field(default_factory=list)
    swapped: bool = False
    swap_after: int | None = None
    fifth_n: int = 1
    candidates: tuple[Point, ...] = ()
    opening: Recognised | None = None
    last_mover: Color | None = None
    offer: Color | None = None
    offers: dict[Color, int] = field(default_factory=lambda: {Color.BLACK: 0, Color.WHITE: 0})
    pending_foul: _PendingFoul | None = None
    overlines: list[_PendingFoul] = field(default_factory=list)
    outcome: Outcome | None = None


def _canonical(black: Iterable[Point], white: Iterable[Point], board_only: bool) -> tuple[Any, ...]:
    best: tuple[Any, ...] | None = None
    pts_b = [(p.col - CENTER.col, p.row - CENTER.row) for p in black]
    pts_w = [(p.col - CENTER.col, p.row - CENTER.row) for p in white]
    for sym in SYMMETRIES:
        tb = [sym(x, y) for x, y in pts_b]
        tw = [sym(x, y) for x, y in pts_w]
        if not board_only:
            mx = min(x for x, _ in tb + tw)
            my = min(y for _, y in tb + tw)
            tb = [(x - mx, y - my) for x, y in tb]
            tw = [(x - mx, y - my) for x, y in tw]
        key = (tuple(sorted(tb)), tuple(sorted(tw)))
        if best is None or key < best:
            best = key
    assert best is not None
    return best


def equivalent_fifths(
    board: Board, a: str | Point, b: str | Point, symmetry: DabSymmetry = DabSymmetry.STONES
) -> bool:
    """True when black stones on ``a`` and on ``b`` make the same shape (位置不同形 fails,
    Gomoku §2.10): with ``STONES`` by any rotation, reflection and shift of the whole position
    (the board edge ignored), with ``BOARD`` by the board's 8 symmetries about h8 only.

    >>> b = Board.from_moves("h8 h9 h10 i10")          # symmetric about no board axis
    >>> equivalent_fifths(b, "h11", "h7"), equivalent_fifths(b, "g9", "i9")
    (False, False)
    >>> b = Board.from_moves("h8 h9 h10 g9")
    >>> equivalent_fifths(b, "j9", "i10"), equivalent_fifths(b, "i7", "g7")
    (False, False)
    >>> equivalent_fifths(Board.from_moves("h8 h9 h10 h6"), "g9", "i9")
    True
    """
    pa, pb = Point.parse(a), Point.parse(b)
    blacks = board.stones(Color.BLACK)
    whites = board.stones(Color.WHITE)
    only = symmetry is DabSymmetry.BOARD
    return _canonical([*blacks, pa], whites, only) == _canonical([*blacks, pb], whites, only)


class Game:
    """A Gomoku/Renju game: rules + action log (event-sourced).

    >>> g = Game(RenjuRules.free())
    >>> for p in "h8 a1 h9 a2 h10 a3 h11 a4 h12".split(): g.play(p)
    >>> g.outcome()
    Outcome(result=<Result.WIN: 'win'>, termination=<Termination.FIVE: 'five'>, article='Gomoku §10.1(1)', winner=Color.BLACK, score=None)
    """

    def __init__(self, rules: RenjuRules | None = None) -> None:
        self.rules = rules if rules is not None else RenjuRules.chinese_2013()
        if not isinstance(self.rules, RenjuRules):
            raise InvalidInput("rules must be a RenjuRules")
        self._actions: list[Action] = []
        self._s = _State()
        if self.rules.opening is OpeningRule.DESIGNATED:
            self._s.phase = Phase.OPENING

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def from_actions(cls, rules: RenjuRules, actions: Iterable[Action]) -> Game:
        """Replay an action log; every action is checked as if played live."""
        g = cls(rules)
        for a in actions:
            g.apply(a)
        return g

    @classmethod
    def from_moves(
        cls, moves: str | Sequence[str | Point | None], rules: RenjuRules | None = None
    ) -> Game:
        """Replay a plain move list (e.g. a record sheet). With a designated opening the first
        three stones make the :class:`Open` action (N = 1, no swap), the rest alternate.

        >>> Game.from_moves("h8 h9 j10 i9 g10").record_text()
        '1.h8 2.h9 3.j10 4.i9 5.g10'
        """
        from duiyi.gomoku.board import parse_move_list

        g = cls(rules)
        ms = parse_move_list(moves) if isinstance(moves, str) else parse_move_list(list(moves))
        start = 0
        if g.rules.opening is OpeningRule.DESIGNATED and len(ms) >= 3:
            a, b, c = ms[0], ms[1], ms[2]
            if a is None or b is None or c is None:
                raise IllegalMove("no pass in the first 5 moves", "Gomoku §11.1(1)")
            g.open(a, b, c, fifth_n=1)
            start = 3
        for m in ms[start:]:
            if g.is_over:
                raise GameOver(f"the game is over ({g.outcome_text()}) but moves follow")
            if m is None:
                g.pass_()
            else:
                g.play(m)
        return g

    def copy(self) -> Game:
        """An independent copy (replays the log)."""
        return Game.from_actions(self.rules, self._actions)

    def to_json(self) -> dict[str, Any]:
        """``{"v": 1, "rules": ..., "actions": [...]}``."""
        return {
            "v": 1,
            "rules": self.rules.to_json(),
            "actions": [action_to_json(a, GOMOKU_ACTIONS) for a in self._actions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game written by :meth:`to_json`."""
        if not isinstance(data, dict) or data.get("v") != 1:
            raise InvalidInput("not a version-1 Gomoku game")
        return cls.from_actions(
            RenjuRules.from_json(data["rules"]),
            [action_from_json(a, GOMOKU_ACTIONS) for a in data["actions"]],
        )

    # -- queries ----------------------------------------------------------------------------
    @property
    def actions(self) -> list[Action]:
        """A copy of the action log."""
        return list(self._actions)

    @property
    def board(self) -> Board:
        """The stones now on the board (a copy)."""
        return self._s.board.copy()

    @property
    def phase(self) -> Phase:
        """Where the game stands."""
        return self._s.phase

    @property
    def to_act(self) -> Color | None:
        """The colour expected to act next (None once the game is over). While a draw offer
        is pending it is the colour that must answer it."""
        return None if self._s.outcome else self._s.to_act

    @property
    def moves(self) -> list[NumberedMove]:
        """The numbered moves so far (Black odd, White even; passes included)."""
        return list(self._s.moves)

    @property
    def move_number(self) -> int:
        """How many moves (stones and passes) have been made."""
        return len(self._s.moves)

    @property
    def swapped(self) -> bool:
        """True after the three-move swap: the opener then holds White."""
        return self._s.swapped

    @property
    def swap_after(self) -> int | None:
        """The move number after which the swap happened (3), else None."""
        return self._s.swap_after

    @property
    def fifth_n(self) -> int:
        """The declared number of fifth-move candidates (1 outside designated openings)."""
        return self._s.fifth_n

    @property
    def fifth_candidates(self) -> tuple[Point, ...]:
        """The N-dab candidates Black offered (empty before)."""
        return self._s.candidates

    @property
    def opening(self) -> Recognised | None:
        """The designated opening, once laid down."""
        return self._s.opening

    @property
    def draw_offer(self) -> Color | None:
        """The colour whose draw offer waits for an answer."""
        return self._s.offer

    @property
    def draw_offers(self) -> dict[Color, int]:
        """How many draws each colour has offered in this game (Gomoku §10.3(4) limits the
        lead of one over the other).

        >>> Game().draw_offers[Color.BLACK]
        0
        """
        return dict(self._s.offers)

    @property
    def pending_foul(self) -> tuple[Point, Foul] | None:
        """Black's last move when it was forbidden and White may still claim it (claim policy)."""
        pf = self._s.pending_foul
        return (pf.point, pf.foul) if pf else None

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self._s.outcome is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._s.outcome

    def outcome_text(self) -> str:
        """A short text of the outcome (``B+five``, ``W+foul``, ``draw (passes)``, ``ongoing``)."""
        o = self._s.outcome
        if o is None:
            return "ongoing"
        if o.winner is None:
            return f"draw ({o.termination.value})"
        return f"{o.winner.letter}+{o.termination.value}"

    def fouls_apply(self) -> bool:
        """True when Black's forbidden moves are in force for this game."""
        return self.rules.fouls

    def forbidden_points(self) -> dict[str, Foul]:
        """Black's forbidden points now (empty when fouls are not in force)."""
        return forbidden_points(self._s.board) if self.rules.fouls else {}

    def allowed_actions(self, color: Color) -> list[type[Action]]:
        """The kinds of action ``color`` may take now (each may still be refused for its
        arguments, e.g. an occupied point).

        >>> g = Game.from_moves("h8 h9 j10")
        >>> [GOMOKU_ACTIONS.name_of(a) for a in g.allowed_actions(Color.WHITE)]
        ['swap', 'place', 'resign']
        >>> [GOMOKU_ACTIONS.name_of(a) for a in g.allowed_actions(Color.BLACK)]
        ['offer_draw', 'resign']
        """
        s = self._s
        if s.outcome is not None:
            return []
        out: list[type[Action]] = []
        by_phase: dict[Phase, list[type[Action]]] = {
            Phase.OPENING: [Open],
            Phase.SWAP: [Swap, Move],
            Phase.WHITE4: [Move],
            Phase.PROPOSE_FIFTH: [ProposeFifth, Move] if s.fifth_n == 1 else [ProposeFifth],
            Phase.CHOOSE_FIFTH: [ChooseFifth],
            Phase.PLAY: [Move, Pass] if len(s.moves) >= 5 else [Move],
        }
        if color is s.to_act and s.offer is not color:
            out += by_phase.get(s.phase, [])
        if s.offer is None and s.last_mover is color:
            lead = s.offers[color] + 1 - s.offers[color.opponent]
            if lead <= self.rules.draw_offer_lead:
                out.append(OfferDraw)
        if s.offer is color.opponent:
            out += [AcceptDraw, DeclineDraw]
        if (
            color is Color.WHITE
            and self.rules.foul_policy is FoulPolicy.CLAIM
            and (s.pending_foul is not None or s.overlines)
        ):
            out.append(ClaimFoul)
        out.append(Resign)
        return out

    def record_text(self) -> str:
        """The moves as ``1.h8 2.h9 ...`` (passes as ``pass``)."""
        return " ".join(f"{m.number}.{m.point or 'pass'}" for m in self._s.moves)

    # -- actions ----------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Check and apply one action; on refusal the game is unchanged."""
        if not isinstance(action, Play):
            raise InvalidInput(f"not an action: {action!r}")
        action.by()  # a colour, never guessed
        pts = [getattr(action, "point", None)]
        pts += list(getattr(action, "points", ())) + list(getattr(action, "moves", ()))
        if any(p is not None and not isinstance(p, Point) for p in pts):
            raise InvalidInput(f"the points of an action must be Point values: {action!r}")
        s = self._s
        if s.outcome is not None:
            raise GameOver(f"the game is over ({self.outcome_text()})", "Gomoku §10")
        handler = getattr(self, f"_do_{GOMOKU_ACTIONS.name_of(type(action))}")
        snapshot = _snapshot(s)
        try:
            handler(action)
        except BaseException:
            self._s = snapshot
            raise
        self._actions.append(action)

    def undo(self) -> Action:
        """Drop the last action and return it."""
        if not self._actions:
            raise IllegalAction("nothing to undo")
        last = self._actions[-1]
        rebuilt = Game.from_actions(self.rules, self._actions[:-1])
        self._actions, self._s = rebuilt._actions, rebuilt._s
        return last

    # convenience wrappers: the acting colour is the one expected to act
    def open(
        self, black1: str | Point, white2: str | Point, black3: str | Point, fifth_n: int = 1
    ) -> None:
        """Lay down a designated opening and declare N (the opener, Black)."""
        stones = (Point.parse(black1), Point.parse(white2), Point.parse(black3))
        self.apply(Open(stones, fifth_n, Color.BLACK))

    def play(self, point: str | Point) -> None:
        """Place a stone for the side to move."""
        self.apply(Move(Point.parse(point), self._turn()))

    def pass_(self) -> None:
        """Pass for the side to move."""
        self.apply(Pass(self._turn()))

    def swap(self) -> None:
        """White takes Black after black 3."""
        self.apply(Swap(Color.WHITE))

    def propose_fifth(self, points: Iterable[str | Point]) -> None:
        """Black offers the N fifth-move candidates."""
        self.apply(ProposeFifth(tuple(Point.parse(p) for p in points), Color.BLACK))

    def choose_fifth(self, point: str | Point) -> None:
        """White keeps one candidate as black 5."""
        self.apply(ChooseFifth(Point.parse(point), Color.WHITE))

    def offer_draw(self, color: Color | None = None) -> None:
        """Offer a draw (default: the side that just moved)."""
        c = color or self._s.last_mover
        if c is None:
            raise IllegalAction("a draw is offered right after one's own move", "Gomoku §10.3(1)")
        self.apply(OfferDraw(c))

    def accept_draw(self) -> None:
        """Accept the pending draw offer."""
        if self._s.offer is None:
            raise IllegalAction("there is no draw offer to accept", "Gomoku §10.3")
        self.apply(AcceptDraw(self._s.offer.opponent))

    def decline_draw(self) -> None:
        """Refuse the pending draw offer."""
        if self._s.offer is None:
            raise IllegalAction("there is no draw offer to decline", "Gomoku §10.3")
        self.apply(DeclineDraw(self._s.offer.opponent))

    def resign(self, color: Color) -> None:
        """``color`` resigns."""
        self.apply(Resign(color))

    def claim_foul(self) -> None:
        """White claims Black's forbidden move."""
        self.apply(ClaimFoul(Color.WHITE))

    def _turn(self) -> Color:
        if self._s.outcome is not None:
            raise GameOver(f"the game is over ({self.outcome_text()})", "Gomoku §10")
        return self._s.to_act

    # -- handlers ---------------------------------------------------------------------------
    def _expect(self, action: Action, *phases: Phase) -> None:
        s = self._s
        if s.phase not in phases:
            what = GOMOKU_ACTIONS.name_of(type(action)).replace("_", " ")
            raise IllegalAction(
                f"{what} is not possible now (phase {s.phase.value})", "Gomoku §3-4"
            )
        if s.offer is not None and action.color is s.offer:
            raise IllegalAction(
                f"{s.offer} offered a draw; {s.offer.opponent} must answer first", "Gomoku §10.3"
            )
        if action.color is not s.to_act:
            raise IllegalAction(
                f"it is {s.to_act}'s turn, not {action.color}'s",
                "Gomoku §4.1",
                code="not-on-move",
                values={"player": s.to_act.opponent.value, "to_move": s.to_act.value},
            )

    def _after_move(self, mover: Color) -> None:
        s = self._s
        s.last_mover = mover
        s.offer = None  # a move answers a pending offer (Gomoku §10.3(2))

    def _record(self, color: Color, point: Point | None) -> None:
        s = self._s
        s.moves.append(NumberedMove(len(s.moves) + 1, color, point))
        if point is not None:
            s.board.place(point, color)

    def _do_open(self, a: Open[Point]) -> None:
        self._expect(a, Phase.OPENING)
        s = self._s
        black1, white2, black3 = a.moves  # three stones (Open's own check, Gomoku §3.2)
        if black1 != CENTER:
            raise IllegalMove("black 1 must be on the centre h8", "Gomoku §3.2", str(black1))
        found = recognise(black1, white2, black3)
        if found is None:
            if max(abs(white2.col - 7), abs(white2.row - 7)) != 1:
                reason = "white 2 must touch black 1"
            else:
                reason = "black 3 must be in the central 5×5 and not on white 2"
            raise IllegalMove(
                f"{black1} {white2} {black3} is not one of the 26 openings: {reason}",
                "Gomoku §3.2",
            )
        n = a.fifth_n
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.rules.max_fifth_n:
            raise IllegalAction(
                f"N of the fifth-move N-dab must be 1 to {self.rules.max_fifth_n}, got {n!r}",
                "Gomoku §2.10",
            )
        self._record(Color.BLACK, black1)
        self._record(Color.WHITE, white2)
        self._record(Color.BLACK, black3)
        s.opening = found
        s.fifth_n = n if self.rules.fifth_dab else 1
        s.phase = Phase.SWAP if self.rules.swap else Phase.WHITE4
        s.to_act = Color.WHITE
        self._after_move(Color.BLACK)

    def _do_swap(self, a: Swap) -> None:
        self._expect(a, Phase.SWAP)
        s = self._s
        s.swapped = not s.swapped
        s.swap_after = len(s.moves)
        s.phase = Phase.WHITE4
        # the swap is the swapper's move (Gomoku §2.1); they now hold Black
        s.to_act = Color.WHITE
        s.offers = {Color.BLACK: s.offers[Color.WHITE], Color.WHITE: s.offers[Color.BLACK]}
        self._after_move(Color.BLACK)

    def _do_propose_fifth(self, a: ProposeFifth[Point]) -> None:
        self._expect(a, Phase.PROPOSE_FIFTH)
        s = self._s
        pts = a.points
        if len(pts) != s.fifth_n:
            raise IllegalAction(
                f"the opener declared N = {s.fifth_n}: offer exactly {s.fifth_n} fifth moves",
                "Gomoku §2.10",
            )
        for p in pts:
            if not s.board.is_empty(p):
                raise IllegalMove(
                    "the point is occupied", "Gomoku §2.10", str(p), code="move-occupied"
                )
        if len(set(pts)) != len(pts):
            raise IllegalAction(
                "the fifth-move candidates must be different points", "Gomoku §2.10"
            )
        only = self.rules.dab_symmetry is DabSymmetry.BOARD
        blacks, whites = s.board.stones(Color.BLACK), s.board.stones(Color.WHITE)
        seen: dict[tuple[Any, ...], Point] = {}
        for p in pts:
            key = _canonical([*blacks, p], whites, only)
            if key in seen:
                raise IllegalAction(
                    f"fifth-move candidates {seen[key]} and {p} make the same shape (位置不同形)",
                    "Gomoku §2.10",
                )
            seen[key] = p
        if len(pts) == 1:
            self._stone(Color.BLACK, pts[0])
            return
        s.candidates = pts
        s.phase = Phase.CHOOSE_FIFTH
        s.to_act = Color.WHITE
        self._after_move(Color.BLACK)

    def _do_choose_fifth(self, a: ChooseFifth[Point]) -> None:
        self._expect(a, Phase.CHOOSE_FIFTH)
        s = self._s
        if a.point not in s.candidates:
            offered = ", ".join(str(p) for p in s.candidates)
            raise IllegalAction(
                f"{a.point} is not one of Black's candidates ({offered})", "Gomoku §2.10"
            )
        s.phase = Phase.PLAY
        self._record(Color.BLACK, a.point)
        s.to_act = Color.WHITE
        s.offer = None  # choosing answers a pending offer of Black's
        self._check_end_after_stone(Color.BLACK, a.point)

    def _do_place(self, a: Move[Point]) -> None:
        s = self._s
        if s.phase is Phase.PROPOSE_FIFTH and s.fifth_n == 1:
            self._expect(a, Phase.PROPOSE_FIFTH)
        else:
            self._expect(a, Phase.PLAY, Phase.SWAP, Phase.WHITE4)
        if not s.board.is_empty(a.point):
            raise IllegalMove(
                "the point is occupied", "Gomoku §4.2", str(a.point), code="move-occupied"
            )
        self._stone(s.to_act, a.point)  # the stone's colour, checked

    def _stone(self, color: Color, point: Point) -> None:
        s = self._s
        # the foul is judged before the stone goes down
        fl = foul(s.board, point) if color is Color.BLACK and self.rules.fouls else None
        if s.phase in (Phase.SWAP, Phase.WHITE4):
            s.phase = Phase.PROPOSE_FIFTH if self.rules.fifth_dab else Phase.PLAY
        elif s.phase is Phase.PROPOSE_FIFTH:
            s.phase = Phase.PLAY
        self._take_turn(color, point)
        self._check_end_after_stone(color, point, fl)

    def _take_turn(self, color: Color, point: Point | None) -> None:
        """``color`` moves (a stone on ``point``, or a pass with None); the opponent is next."""
        s = self._s
        if color is Color.WHITE:
            s.pending_foul = None  # an unclaimed foul lapses (Gomoku §10.1(2))
        self._record(color, point)
        s.to_act = color.opponent
        self._after_move(color)

    def _check_end_after_stone(self, color: Color, point: Point, fl: Foul | None = None) -> None:
        s = self._s
        exact = color is Color.BLACK and not self.rules.black_overline_wins
        # the stone is on the board: the runs through it count it once
        five = makes_five(s.board, point, color, exact=exact)
        if five:
            s.outcome = Outcome.win(color, Termination.FIVE, "Gomoku §10.1(1)")
        elif fl is not None:
            if self.rules.foul_policy is FoulPolicy.AUTO:
                s.outcome = Outcome.win(Color.WHITE, Termination.FOUL, "Gomoku §10.1(2)")
            else:
                pf = _PendingFoul(len(s.moves), point, fl)
                s.pending_foul = pf
                if fl is Foul.OVERLINE:
                    s.overlines.append(pf)
        if s.outcome is None and s.board.is_full():
            s.outcome = Outcome.draw(Termination.FULL_BOARD, "Gomoku §10.2(3)")
        if s.outcome is not None:
            s.phase = Phase.OVER

    def _do_pass(self, a: Pass) -> None:
        s = self._s
        if len(s.moves) < 5:
            raise IllegalMove("no pass in the first 5 moves", "Gomoku §11.1(1)", "pass")
        self._expect(a, Phase.PLAY)
        previous_pass = bool(s.moves) and s.moves[-1].point is None
        self._take_turn(a.by(), None)
        if previous_pass:
            self._end(Outcome.draw(Termination.PASSES, "Gomoku §10.2(2)"))

    def _do_offer_draw(self, a: OfferDraw) -> None:
        s = self._s
        colour = a.by()
        if s.offer is not None:
            raise IllegalAction(f"{s.offer}'s draw offer is still open", "Gomoku §10.3")
        if s.last_mover is not colour:
            raise IllegalAction(
                "a draw is offered right after one's own move, before the opponent's",
                "Gomoku §10.3(1)",
            )
        lead = s.offers[colour] + 1 - s.offers[colour.opponent]
        if lead > self.rules.draw_offer_lead:
            raise IllegalAction(
                f"{colour} may not offer a draw more than {self.rules.draw_offer_lead} times "
                "more often than the opponent",
                "Gomoku §10.3(4)",
            )
        s.offers[colour] += 1
        s.offer = colour

    def _answer_offer(self, a: AcceptDraw | DeclineDraw) -> None:
        s = self._s
        if s.offer is None or s.offer is a.color:
            raise IllegalAction("there is no draw offer from the opponent", "Gomoku §10.3")
        s.offer = None

    def _do_accept_draw(self, a: AcceptDraw) -> None:
        self._answer_offer(a)
        self._end(Outcome.draw(Termination.AGREEMENT, "Gomoku §10.2(1)"))

    def _do_decline_draw(self, a: DeclineDraw) -> None:
        self._answer_offer(a)

    def _do_resign(self, a: Resign) -> None:
        self._end(Outcome.win(a.by().opponent, Termination.RESIGNATION, "Gomoku §10.1(3)C"))

    def _do_claim_foul(self, a: ClaimFoul) -> None:
        s = self._s
        if a.color is not Color.WHITE:
            raise IllegalAction("only White claims a forbidden move", "Gomoku §10.1(2)")
        if self.rules.foul_policy is not FoulPolicy.CLAIM:
            raise IllegalAction("forbidden moves end the game at once under these rules")
        if s.pending_foul is None and not s.overlines:
            raise IllegalAction(
                "no forbidden move to claim (a double-three or double-four must be claimed "
                "before White's next stone)",
                "Gomoku §10.1(2)",
            )
        self._end(Outcome.win(Color.WHITE, Termination.FOUL, "Gomoku §10.1(2)"))

    def _end(self, outcome: Outcome) -> None:
        s = self._s
        s.outcome = outcome
        s.phase = Phase.OVER
        s.offer = None


def _snapshot(s: _State) -> _State:
    return _State(
        board=s.board.copy(),
        phase=s.phase,
        to_act=s.to_act,
        moves=list(s.moves),
        swapped=s.swapped,
        swap_after=s.swap_after,
        fifth_n=s.fifth_n,
        candidates=s.candidates,
        opening=s.opening,
        last_mover=s.last_mover,
        offer=s.offer,
        offers=dict(s.offers),
        pending_foul=s.pending_foul,
        overlines=list(s.overlines),
        outcome=s.outcome,
    )
