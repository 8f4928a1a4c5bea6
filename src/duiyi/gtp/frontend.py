"""duiyi as a GTP v2 engine: a rules-exact board for GUIs such as Sabaki or GoGui.

:class:`GtpFrontEnd` answers GTP commands on a :class:`~duiyi.go.Game`; ``duiyi gtp`` runs it on
standard input and output. Every ``play`` is checked by duiyi's rules (situational superko and no
suicide under the default Chinese rules), so a GUI can use duiyi as a referee board.

``genmove`` is **not** a strong player: it plays a uniformly random legal move that does not fill
one of its own single-point eyes, and passes when no such move is left. Use a real engine for
play; this one keeps games legal and finishes them.

>>> fe = GtpFrontEnd(seed=1)
>>> fe.handle("1 boardsize 9")
'=1\\n\\n'
>>> fe.handle("play b E5")
'=\\n\\n'
>>> fe.handle("2 play w E5")
'?2 illegal move\\n\\n'
>>> fe.handle("protocol_version")
'= 2\\n\\n'
"""

from __future__ import annotations

import math
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from duiyi import BLACK, WHITE, Color, __version__
from duiyi.errors import DuiyiError, InvalidInput
from duiyi.go import Board, Game, Phase, Point, Rules
from duiyi.go.point import MAX_SIZE, MIN_SIZE
from duiyi.go.replay import play_recorded

if TYPE_CHECKING:
    from duiyi.go.scoring import Score

__all__ = ["GtpFrontEnd", "GtpResponse", "preprocess", "run"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def preprocess(line: str) -> str:
    """GTP v2 preprocessing: drop control characters (but HT/LF), comments, turn HT into spaces.

    Returns the stripped command text; empty when the line holds no command.

    >>> preprocess("  12 play b d4  # my move\\r")
    '12 play b d4'
    >>> preprocess("# only a comment")
    ''
    """
    line = _CONTROL.sub("", line)
    hash_at = line.find("#")
    if hash_at >= 0:
        line = line[:hash_at]
    return line.replace("\t", " ").strip()


@dataclass(frozen=True)
class GtpResponse:
    """One answer: success or failure, text, and the id echoed back.

    >>> str(GtpResponse(True, "2", 7))
    '=7 2\\n\\n'
    """

    ok: bool
    text: str
    id: int | None = None

    def __str__(self) -> str:
        head = ("=" if self.ok else "?") + ("" if self.id is None else str(self.id))
        # A blank line ends a response, so none may appear inside; a leading newline (as in
        # showboard) is kept so that the diagram starts on its own line.
        lines = [line.rstrip() for line in self.text.split("\n")]
        first, rest = lines[0], [line for line in lines[1:] if line]
        body = "\n".join([first, *rest])
        return f"{head} {body}\n\n" if body.strip() else f"{head}\n\n"


class _Failure(Exception):
    """A GTP failure message (the text after '?')."""


_Handler = Callable[[list[str]], str]


class GtpFrontEnd:
    """A GTP v2 engine on top of :class:`~duiyi.go.Game`.

    ``rules`` is the rule set new games use (``duiyi-rules``/``kgs-rules`` change it);
    ``seed`` seeds the random player of ``genmove``.

    >>> fe = GtpFrontEnd()
    >>> fe.handle("list_commands").count("\\n") > 20
    True
    """

    def __init__(self, rules: Rules | None = None, size: int = 19, seed: int | None = None):
        self.rules = rules if rules is not None else Rules.chinese()
        self.size = size
        self.komi_points: Fraction = self.rules.komi_points
        self.rng = random.Random(seed)
        self.finished = False
        self.time_settings: tuple[str, ...] | None = None
        self.time_left: dict[Color, tuple[int, int]] = {}
        self.game = self._new_game()
        self._marks: list[int] = []  # number of actions before each GTP move (for undo)
        self._commands: dict[str, _Handler] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: "duiyi",
            "version": lambda a: __version__,
            "known_command": self._known_command,
            "list_commands": lambda a: "\n".join(self._commands),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "reg_genmove": self._reg_genmove,
            "kgs-genmove_cleanup": self._genmove,
            "undo": self._undo,
            "showboard": lambda a: "\n" + str(self.game.board),
            "fixed_handicap": self._fixed_handicap,
            "place_free_handicap": self._place_free_handicap,
            "set_free_handicap": self._set_free_handicap,
            "final_score": self._final_score,
            "final_status_list": self._final_status_list,
            "loadsgf": self._loadsgf,
            "printsgf": self._printsgf,
            "time_settings": self._time_settings,
            "kgs-time_settings": self._kgs_time_settings,
            "time_left": self._time_left,
            "is_legal": self._is_legal,
            "list_stones": self._list_stones,
            "kgs-rules": self._kgs_rules,
            "duiyi-rules": self._duiyi_rules,
            "duiyi-result": self._duiyi_result,
        }

    # -- loop --------------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """Answer one input line; ``None`` when the line holds no command (after preprocessing).

        >>> GtpFrontEnd().handle("5 frobnicate")
        '?5 unknown command\\n\\n'
        """
        text = preprocess(line)
        if not text:
            return None
        words = text.split()
        cid: int | None = None
        if words[0].isdigit():
            cid = _number(words[0])
            if cid is None:
                return str(GtpResponse(False, "id not a number"))
            words = words[1:]
            if not words:
                return str(GtpResponse(False, "missing command", cid))
        name, args = words[0], words[1:]
        handler = self._commands.get(name)
        if handler is None:
            return str(GtpResponse(False, "unknown command", cid))
        try:
            return str(GtpResponse(True, handler(args), cid))
        except _Failure as exc:
            return str(GtpResponse(False, str(exc), cid))
        except DuiyiError as exc:
            return str(GtpResponse(False, str(exc), cid))

    def run(self, stdin: TextIO, stdout: TextIO) -> None:
        """Answer commands from ``stdin`` until ``quit`` or end of input."""
        for line in stdin:
            answer = self.handle(line)
            if answer is None:
                continue
            stdout.write(answer)
            stdout.flush()
            if self.finished:
                break

    # -- helpers -----------------------------------------------------------------------

    def _new_game(self) -> Game:
        rules = _with_komi(self.rules, self.komi_points)
        return Game(size=self.size, rules=rules)

    def _rebuild(self) -> None:
        """Replay the current game's actions under the current rules and komi."""
        rules = _with_komi(self.rules, self.komi_points)
        rules = replace(rules, fixed_handicap=self.game.rules.fixed_handicap)
        self.game = Game.from_actions(rules, self.game.actions)

    def _board_empty(self) -> bool:
        b = self.game.board
        return not self.game.moves and not b.stones(BLACK) and not b.stones(WHITE)

    def _place_handicap(self, points: list[Point]) -> None:
        """A fresh game with Black's handicap stones at ``points`` (fixed or free)."""
        from duiyi.go.handicap import fixed_handicap_points

        rules = _with_komi(self.rules, self.komi_points)
        n = len(points)
        fixed: tuple[Point, ...] = ()
        if 2 <= n <= 9:
            try:
                fixed = fixed_handicap_points(self.size, n)
            except InvalidInput:
                fixed = ()
        if fixed and set(fixed) == set(points):
            self.game = Game(self.size, replace(rules, fixed_handicap=True), n)
        elif 2 <= n <= 9:
            self.game = Game(self.size, replace(rules, fixed_handicap=False), n)
            self.game.place_handicap(points)
        else:
            self.game = Game(self.size, rules)
            self.game.setup(black=points, to_move=WHITE)
        self._marks.clear()

    def _vertex(self, text: str) -> Point | None:
        if text.lower() == "pass":
            return None
        try:
            return Point.parse(text.upper(), size=self.size)
        except InvalidInput:
            raise _Failure("invalid coordinate") from None

    def _color(self, text: str) -> Color:
        # GTP v2 §2.8: a colour is "w"/"white" or "b"/"black", case-insensitive; nothing else.
        color = _GTP_COLORS.get(text.lower())
        if color is None:
            raise _Failure("invalid color")
        return color

    def _move(self, args: list[str]) -> tuple[Color, Point | None]:
        """The ``color vertex`` arguments of ``play`` and ``is_legal`` (None: a pass)."""
        if len(args) != 2:
            raise _Failure("syntax error")
        return self._color(args[0]), self._vertex(args[1])

    # -- commands ----------------------------------------------------------------------

    def _known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self._commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        size = _number(args[0].removeprefix("-")) if len(args) == 1 else None
        if size is None:
            raise _Failure("boardsize not an integer")
        if args[0].startswith("-"):
            size = -size
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise _Failure("unacceptable size")
        self.size = size
        self.game = self._new_game()
        self._marks.clear()
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self.game = self._new_game()
        self._marks.clear()
        return ""

    def _komi(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("komi not a float")
        self.komi_points = _komi_points(args[0])
        # Komi applies to the current game: replay it under the new komi.
        self._rebuild()
        return ""

    def _play(self, args: list[str]) -> str:
        color, point = self._move(args)
        before = len(self.game.actions)
        try:
            _play(self.game, color, point)
        except (DuiyiError, _Failure):
            raise _Failure("illegal move") from None
        self._marks.append(before)
        return ""

    def _choose(self, color: Color) -> Point | None:
        board = self.game.board
        candidates = [p for p in board.empty_points() if not _is_own_eye(board, p, color)]
        candidates.sort(key=lambda p: (p.row, p.col))
        self.rng.shuffle(candidates)
        for p in candidates:
            if _is_legal(self.game, color, p):
                return p
        return None

    def _genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        color = self._color(args[0])
        if self.game.phase is not Phase.PLAYING:
            self._marks.append(len(self.game.actions))  # an undo of this pass removes nothing
            return "pass"  # play is over: nothing to add
        point = self._choose(color)
        before = len(self.game.actions)
        _play(self.game, color, point)
        self._marks.append(before)
        return "pass" if point is None else str(point)

    def _reg_genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        point = self._choose(self._color(args[0]))
        return "pass" if point is None else str(point)

    def _undo(self, args: list[str]) -> str:
        from duiyi.go.actions import Move, Pass

        if not self.game.moves:
            raise _Failure("cannot undo")
        if self._marks:
            mark = self._marks.pop()
            while len(self.game.actions) > mark:
                self.game.undo()
            return ""
        while True:  # moves loaded from SGF: drop actions until one move is gone
            if isinstance(self.game.undo(), Move | Pass):
                return ""

    def _fixed_handicap(self, args: list[str]) -> str:
        from duiyi.go.handicap import fixed_handicap_points

        n = _int_arg(args, "invalid number of stones")
        if not self._board_empty():
            raise _Failure("board not empty")
        try:
            points = list(fixed_handicap_points(self.size, n))
        except InvalidInput:
            raise _Failure("invalid number of stones") from None
        self._place_handicap(points)
        return " ".join(str(p) for p in points)

    def _place_free_handicap(self, args: list[str]) -> str:
        from duiyi.go.handicap import fixed_handicap_points, max_fixed_handicap

        n = _int_arg(args, "invalid number of stones")
        if not self._board_empty():
            raise _Failure("board not empty")
        if n < 2 or n >= self.size * self.size:
            raise _Failure("invalid number of stones")
        fixed = min(n, max_fixed_handicap(self.size))
        points = list(fixed_handicap_points(self.size, fixed)) if fixed >= 2 else []
        rest = sorted(
            (p for p in self.game.board.empty_points() if p not in points),
            key=lambda p: (p.row, p.col),
        )
        self.rng.shuffle(rest)
        points += rest[: n - len(points)]
        self._place_handicap(points)
        return " ".join(str(p) for p in points)

    def _set_free_handicap(self, args: list[str]) -> str:
        if not self._board_empty():
            raise _Failure("board not empty")
        points: list[Point] = []
        for a in args:
            p = self._vertex(a)
            if p is None or p in points:
                raise _Failure("bad vertex list")
            points.append(p)
        if len(points) < 2 or len(points) >= self.size * self.size:
            raise _Failure("bad vertex list")
        self._place_handicap(points)
        return ""

    def _dead(self) -> frozenset[Point]:
        try:
            from duiyi.go import life
        except ImportError:
            return frozenset()
        propose = getattr(life, "propose_dead", None)
        if propose is None:
            return frozenset()
        return frozenset(propose(self.game.board, self.game.rules))

    def _score(self) -> Score:
        """The count of the current position, the dead stones as :meth:`_dead` gives them."""
        from duiyi.go.scoring import score_position

        return score_position(
            self.game.board,
            self.game.rules,
            dead=self._dead(),
            handicap=self.game.handicap,
            captures=dict(self.game.captures),
        )

    def _final_score(self, args: list[str]) -> str:
        try:
            score = self._score()
        except DuiyiError as exc:
            raise _Failure(f"cannot score: {exc}") from None
        return score.sgf_result

    def _final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0] not in ("alive", "dead", "seki"):
            raise _Failure("syntax error")
        wanted = args[0]
        board = self.game.board
        statuses: dict[Point, str] = {}
        try:
            from duiyi.go import life

            status_map = getattr(life, "status_map", None)
        except ImportError:
            status_map = None
        if status_map is not None:
            statuses = {p: s.value for p, s in status_map(board).items()}
        else:
            dead = self._dead()
            for color in (BLACK, WHITE):
                for p in board.stones(color):
                    statuses[p] = "dead" if p in dead else "alive"
        # One line per chain, as GNU Go answers (GUIs read any whitespace-separated list).
        left = {p for p, s in statuses.items() if s == wanted}
        lines: list[str] = []
        for p in sorted(left, key=lambda q: (q.row, q.col)):
            if p not in left:
                continue
            chain = board.group(p)
            left -= chain
            lines.append(" ".join(str(q) for q in sorted(chain, key=lambda q: (q.row, q.col))))
        return "\n".join(lines)

    def _loadsgf(self, args: list[str]) -> str:
        from duiyi.go import sgf

        if not args:
            raise _Failure("syntax error")
        path = Path(args[0])
        try:
            text = path.read_bytes()
        except OSError:
            raise _Failure("cannot load file") from None
        upto: int | None = None
        if len(args) > 1:
            upto = _int_arg(args[1:], "syntax error")
        try:
            # a GUI loads a record to look at or continue it, as with GNU Go: the recorded
            # resignation or time loss (RE) is not applied to the board
            game = sgf.game_from_sgf(
                text, until_move=None if upto is None else upto - 1, apply_result=False
            )
        except DuiyiError as exc:
            raise _Failure(f"cannot load file: {exc}") from None
        self.game = game
        self.size = game.size
        self.rules = game.rules
        self.komi_points = game.rules.compensation(game.handicap)[0] * game.rules.unit_points
        self._marks.clear()
        return ""

    def _printsgf(self, args: list[str]) -> str:
        from duiyi.go import sgf

        text = sgf.game_to_sgf(self.game)
        if args:
            try:
                Path(args[0]).write_text(text, encoding="utf-8")
            except OSError:
                raise _Failure("cannot write file") from None
            return ""
        return text.rstrip("\n")

    def _time_settings(self, args: list[str]) -> str:
        if len(args) != 3 or any(_number(a) is None for a in args):
            raise _Failure("syntax error")
        self.time_settings = ("canadian", *args)
        return ""

    def _kgs_time_settings(self, args: list[str]) -> str:
        if not args or args[0] not in ("none", "absolute", "byoyomi", "canadian"):
            raise _Failure("syntax error")
        if any(_number(a) is None for a in args[1:]):
            raise _Failure("syntax error")
        self.time_settings = tuple(args)
        return ""

    def _time_left(self, args: list[str]) -> str:
        seconds, stones = (_number(args[1]), _number(args[2])) if len(args) == 3 else (None, None)
        if seconds is None or stones is None:
            raise _Failure("syntax error")
        self.time_left[self._color(args[0])] = (seconds, stones)
        return ""

    def _is_legal(self, args: list[str]) -> str:
        color, point = self._move(args)
        if point is None:
            return "1"
        return "1" if _is_legal(self.game, color, point) else "0"

    def _list_stones(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        stones = self.game.board.stones(self._color(args[0]))
        return " ".join(str(p) for p in sorted(stones, key=lambda p: (p.row, p.col)))

    def _set_rules(self, name: str) -> None:
        try:
            rules = Rules.preset(name)
        except DuiyiError:
            raise _Failure(f"unknown rules {name!r}") from None
        self.rules = rules
        self.komi_points = rules.komi_points
        self._rebuild()

    def _kgs_rules(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _Failure("syntax error")
        names = {"chinese": "chinese", "japanese": "japanese", "aga": "aga", "new_zealand": "nz"}
        key = args[0].lower()
        if key not in names:
            raise _Failure(f"unknown rules {args[0]!r}")
        self._set_rules(names[key])
        return ""

    def _duiyi_rules(self, args: list[str]) -> str:
        if not args:
            return self.rules.name
        self._set_rules(" ".join(args))
        return ""

    def _duiyi_result(self, args: list[str]) -> str:
        """Result of the current position in the book's form (黑胜3/4子) and SGF form."""
        score = self._score()
        return f"{score.result_zh} {score.sgf_result}"


_GTP_COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}

#: The largest komi accepted, in points: more than any board has points (25 × 25), so every
#: real komi fits, and a number such as ``1e999999999`` is refused at once instead of being
#: turned into an exact fraction with a billion digits.
MAX_KOMI = 1000


def _komi_points(text: str) -> Fraction:
    """A GTP komi (a float) in half points; refused when not a finite float within ±MAX_KOMI.

    >>> _komi_points("6.5"), _komi_points("7"), _komi_points("-0.5")
    (Fraction(13, 2), Fraction(7, 1), Fraction(-1, 2))
    >>> _komi_points("1e999999999")
    Traceback (most recent call last):
    ...
    duiyi.gtp.frontend._Failure: komi not a float within ±1000
    """
    try:
        value = float(text)  # float() reads any length in linear time; Fraction(text) does not
    except ValueError:
        raise _Failure("komi not a float") from None
    if not math.isfinite(value) or abs(value) > MAX_KOMI:
        raise _Failure(f"komi not a float within ±{MAX_KOMI}")
    return Fraction(round(value * 2), 2)


def _int_arg(args: list[str], message: str) -> int:
    value = _number(args[0]) if len(args) == 1 else None
    if value is None:
        raise _Failure(message)
    return value


def _number(text: str) -> int | None:
    """A GTP int (ASCII digits, at most 18 of them), or None.

    >>> _number("19"), _number("9" * 5000), _number("²"), _number("-1")
    (19, None, None, None)
    """
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        return None
    return int(text)


def _with_komi(rules: Rules, komi_points: Fraction) -> Rules:
    unit = rules.unit_points
    komi = komi_points / unit
    step = Fraction(1, 4) if unit == 2 else Fraction(1, 2)
    komi = round(komi / step) * step
    return replace(rules, komi=komi, handicap_komi=komi)


def _is_own_eye(board: Board, point: Point, color: Color) -> bool:
    """A single empty point whose neighbours are all ``color`` and whose diagonals are mostly."""
    for q in board.neighbours(point):
        if board.get(q) is not color:
            return False
    n = board.size
    diagonals = [
        Point(point.col + dc, point.row + dr)
        for dc in (-1, 1)
        for dr in (-1, 1)
        if 0 <= point.col + dc < n and 0 <= point.row + dr < n
    ]
    enemy = sum(1 for q in diagonals if board.get(q) is color.opponent)
    on_edge = len(diagonals) < 4
    return enemy == 0 if on_edge else enemy <= 1


def _play(game: Game, color: Color, point: Point | None) -> None:
    """Play ``color`` at ``point`` the way a GUI means it (:func:`duiyi.go.replay.play_recorded`).

    GTP lets a controller play either colour at any time and keep playing after two passes.
    duiyi keeps its game rules-exact: a move out of turn is preceded by a pass of the side to
    move, and a stone after two passes resumes play (Go §21.1). If the move then turns out
    illegal, the game is left unchanged.
    """
    play_recorded(game, color, point)


def _is_legal(game: Game, color: Color, point: Point) -> bool:
    """Whether :func:`_play` would accept the move (the game is left unchanged)."""
    if game.phase is Phase.PLAYING and color is game.to_move:
        return game.is_legal(point)
    before = len(game.actions)
    try:
        _play(game, color, point)
    except DuiyiError:
        return False
    while len(game.actions) > before:
        game.undo()
    return True


def run(
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
) -> None:
    """Run the GTP loop on the given streams (standard input/output by default)."""
    GtpFrontEnd(rules=rules, seed=seed).run(stdin or sys.stdin, stdout or sys.stdout)
