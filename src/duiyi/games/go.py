"""Go as one object (:data:`GO`): what a session, an event, the server and the CLI need to know
about Go that differs from Gomoku.

>>> GO.name, GO.scoring, GO.withdrawal_article("swiss")
('go', (Fraction(2, 1), Fraction(1, 1)), 'Go §28.3')
>>> GO.new_game({"size": 9}).size
9
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

from duiyi.clock import Lateness
from duiyi.errors import InvalidInput
from duiyi.games.adapters import GameAdapter, GoAdapter
from duiyi.games.base import COMMON_ARTICLES, EngineProtocol, GameType, preset_or_json
from duiyi.referee import Book, Decision, RulingKind

__all__ = ["BOOK", "GO", "MAX_SIZE", "Go"]

#: the largest board a Go game may ask for (the GTP letters run out after 25)
MAX_SIZE = 25

#: what the Go rules let the arbiter rule, and on which article (Go §17-24)
BOOK = Book(
    game="go",
    articles={
        **COMMON_ARTICLES,
        "warning": "Go §24",
        "overtime_pass": "Go §22.5",
        "colour_correction": "Go §17.1",
        "moved_stones": "Go §17.5",
        "scattered": "Go §17.6",
        "no_show": "Go §22.1",
        "no_show_both": "Go §22.3",
        # absent through the whole byo-yomi of a game without main time: the player loses
        # the right to play the game, a forfeit (如读秒过程告终，棋手即自动失去该局参赛资格)
        "no_show_byoyomi": "Go §22.4",
        "withdrawal": "Go §28",
        "disqualification": "Go §23.1",
        "disciplinary_loss": "Go §23",
        "leave_seat": "Go §22.7",
        "dropped_stone": "Go §17.3",
        "stones_restored": "Go §18.1",
    },
    refusals={
        "violation": ("Go has warnings, not violations (Go §24)", "Go §24"),
        "both_flags": (
            "the draw for two fallen flags is a Gomoku rule (Gomoku §10.2(4))",
            "Gomoku §10.2(4)",
        ),
        "irregular_accepted": (
            "accepting an irregular move is a Gomoku rule (Gomoku §6.1-6.2); in Go the "
            "arbiter voids it (Go §17-19)",
            "Gomoku §6.1",
        ),
        "stone_replaced": (
            "putting a pushed or re-lifted stone back is a Gomoku rule (Gomoku §6.1(5)-(6))",
            "Gomoku §6.1",
        ),
        "appeal": (
            "the Go rules take complaints at once during the game (Go §16.3); appeals with a "
            "deadline and a committee are Gomoku's (Gomoku §13)",
            "Go §16.3",
        ),
        "appeal_decided": ("appeals are a Gomoku rule (Gomoku §13)", "Go §16.3"),
        "coin_toss": ("Go guesses colours by nigiri (Go §10), not a coin", "Go §10"),
        "colours_chosen": ("Go guesses colours by nigiri (Go §10), not a coin", "Go §10"),
        "time_penalty": (
            "a time penalty (罚时) is a Gomoku ruling (Gomoku §12.3(3)); the Go rules punish "
            "by warnings, a stone each (Go §24), and change a clock only to correct it "
            "(Go §22.8)",
            "Go §24",
        ),
    },
    counted=RulingKind.WARNING,
    second_loses="Go §24.2",
    stones_per_warning=1,
    moved=frozenset(
        {Decision.RESTORE, Decision.VALID, Decision.DRAW, Decision.REPLAY, Decision.BOTH_LOSE}
    ),
    scattered=frozenset({Decision.RESUME, Decision.DRAW, Decision.REPLAY, Decision.BOTH_LOSE}),
    colour_fix=lambda moves, minutes: moves <= 10,
    penalised_scatter=False,
    # the articles a form offers where the ruling names its own (the book's comes first)
    suggested={
        "warning": ("Go §24", "Go §17.2", "Go §17.4", "Go §18.1", "Go §22.6", "Go §23.3"),
        "void_move": ("Go §19", "Go §18.3", "Go §17.2", "Go §17.3"),
        "forfeit": ("Go §23.3", "Go §23.1", "Go §23.4", "Go §23.5", "Go §23.7"),
        "double_forfeit": ("Go §23.1", "Go §17.6"),
        "disqualification": ("Go §23.1",),
        "disciplinary_loss": ("Go §23",),
    },
)


class Go(GameType):
    """The game of Go under the Chinese rules (Go §1-§29)."""

    name: ClassVar[str] = "go"
    title: ClassVar[str] = "Go"
    engine_protocol: ClassVar[EngineProtocol] = EngineProtocol.GTP
    book: ClassVar[Book] = BOOK
    default_size: ClassVar[int] = 19
    sizes: ClassVar[range] = range(5, MAX_SIZE + 1)
    scoring: ClassVar[tuple[Fraction, Fraction]] = (Fraction(2), Fraction(1))  # Go §27.1
    has_draws: ClassVar[bool] = False
    # a repetition the rules cannot settle may end a game without result (Go §20.3's
    # supplementary regulations: 无胜负)
    no_result_article: ClassVar[str | None] = "Go §20.3"
    finished_game_article: ClassVar[str] = "Go §20.3"
    has_komi: ClassVar[bool] = True
    redraw_article: ClassVar[str] = "Go §28.1"
    lines_lot_article: ClassVar[str] = "appendix 一.3"
    tie_lot_article: ClassVar[str] = "Go §27.1(1)C"
    match_article: ClassVar[str] = "Go §26.5"
    guess_article: ClassVar[str] = "Go §10"
    has_egd: ClassVar[bool] = True
    last_article: ClassVar[int] = 33
    overtime_pass: ClassVar[bool] = True  # Go §22.5, §22.7
    default_preset: ClassVar[str] = "chinese"
    colour_method: ClassVar[str] = "nigiri (Go §10)"
    colour_guess: ClassVar[str] = "nigiri (Go §10)"
    engine_preset: ClassVar[str] = "chinese"
    engine_illegal_article: ClassVar[str] = "Go §19"
    engine_refusal_article: ClassVar[str] = "Go §23"
    letters: ClassVar[str] = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP's, without I
    example_points: ClassVar[tuple[str, str]] = ("D4", "D5")
    offered_presets: ClassVar[tuple[str, ...]] = ("chinese", "japanese", "korean", "ing", "aga")
    has_handicap: ClassVar[bool] = True  # Go §4
    has_captures: ClassVar[bool] = True  # Go §5
    has_counting: ClassVar[bool] = True  # Go §8-9, §21
    same_site_lateness: ClassVar[bool] = True  # Go §22.2
    # Go §27.1(2): a Swiss places by total score (A) or by points then opponents' points (B)
    variant_systems: ClassVar[tuple[str, ...]] = ("swiss", "swiss-elimination")
    standings_methods: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "swiss": "go{variant}",
            "swiss-elimination": "go{variant}",
            "mcmahon": "mcmahon",
            "round-robin": "goRR",
            "double-round-robin": "goRR",
            "groups": "goRR",
        }
    )

    def lateness(self, *, limit: float | None = None, same_site: bool = False) -> Lateness:
        """Go §22.1-2: late time is taken twice; lost past 1 h (15 min at the lodging).

        >>> GO.lateness(same_site=True).limit
        900.0
        """
        rule = Lateness.go(same_site=same_site)
        return rule if limit is None else Lateness(rule.factor, float(limit), rule.article)

    def rules(self, spec: object = None) -> Any:
        """Go rules: a preset name (``"chinese"``), the JSON form, or None for Chinese.

        >>> GO.rules().name
        'chinese'
        """
        from duiyi.go import Rules

        return preset_or_json(spec, Rules.preset, Rules.from_json, self.default_preset)

    def new_game(self, spec: Mapping[str, Any]) -> Any:
        """A Go game from ``{"size", "rules", "handicap"}`` (19, Chinese, none by default)."""
        from duiyi.go import Game

        size = spec.get("size", self.default_size)
        if isinstance(size, bool) or not isinstance(size, int) or not 5 <= size <= MAX_SIZE:
            raise InvalidInput(
                f"size must be a whole number from 5 to 25, got {size!r}",
                code="go-size",
                values={"size": str(size)},
            )
        handicap = spec.get("handicap", 0)
        if isinstance(handicap, bool) or not isinstance(handicap, int) or not 0 <= handicap <= 9:
            raise InvalidInput(
                f"handicap must be 0-9, got {handicap!r}",
                code="go-handicap",
                values={"handicap": str(handicap)},
            )
        return Game(size, rules=self.rules(spec.get("rules")), handicap=handicap)

    def adapter(self, game: Any) -> GameAdapter:
        return GoAdapter(game)

    def adapter_from_config(self, config: dict[str, Any]) -> GameAdapter:
        return GoAdapter.from_config(config)

    def parse_point(self, text: str, size: int | None = None) -> Any:
        """A point in GTP letters (no I), on a board of ``size``.

        >>> str(GO.parse_point("d4"))
        'D4'
        """
        from duiyi.go.point import Point

        return Point.parse(text, size or self.default_size)

    def read_sgf(self, text: str) -> Any:
        from duiyi.go.sgf import game_from_sgf

        return game_from_sgf(text)

    def write_sgf(self, game: Any) -> str:
        from duiyi.go.sgf import game_to_sgf

        return game_to_sgf(game)

    def stored_size(self, config: Mapping[str, Any]) -> int:
        """The size in a stored Go configuration: its first action names it.

        >>> GO.stored_size({"game": {"actions": [{"type": "new", "size": 9}]}})
        9
        """
        game = config.get("game")
        actions = game.get("actions") if isinstance(game, Mapping) else None
        for action in actions or []:
            if isinstance(action, Mapping) and isinstance(action.get("size"), int):
                return int(action["size"])
        return self.default_size

    def star_points(self, size: int) -> tuple[str, ...]:
        """The star points (hoshi) of a Go board of ``size`` (none below 7x7).

        >>> GO.star_points(9)
        ('C3', 'G3', 'E5', 'C7', 'G7')
        """
        from duiyi.go.svg import star_points

        return tuple(str(p) for p in star_points(size))

    def guess_colours(self, a: int, b: int, rng: random.Random) -> tuple[int, int]:
        """Go §10 nigiri: ``a`` (the higher-ranked, the elder on equal rank) grabs a handful of
        white stones; ``b`` shows one black stone (odd) or two (even). A right guess gives
        ``b`` Black, a wrong one gives ``a`` Black.

        >>> sorted(GO.guess_colours(7, 3, random.Random(1)))
        [3, 7]
        """
        grabbed = rng.randint(1, 30)
        guess_odd = rng.random() < 0.5
        right = (grabbed % 2 == 1) == guess_odd
        return (b, a) if right else (a, b)

    def tiebreak_names(
        self, family: str, *, mcmahon: bool = False, team: bool = False, variant: str = ""
    ) -> tuple[str, ...]:
        """Go §27.1-2: round robin SB then warnings; Swiss total score (variant A) or points
        and Buchholz (variant B); teams by game points and boards; McMahon by SOS, SOSOS.

        >>> GO.tiebreak_names("swiss"), GO.tiebreak_names("round-robin", team=True)
        (('total-score', 'warnings'), ('points', 'game-points', 'boards'))
        """
        b = variant.upper() == "B"
        if team:
            if family == "swiss":
                return ("points" if b else "total-score", "game-points", "boards")
            return ("points", "game-points", "boards")
        if mcmahon:
            return ("mms", "sos", "sosos", "warnings")
        if family == "swiss":
            return ("points", "buchholz", "warnings") if b else ("total-score", "warnings")
        return ("points", "sb", "warnings")

    def withdrawal_article(self, family: str) -> str:
        return {"round-robin": "Go §28.2", "swiss": "Go §28.3"}.get(family, "Go §28.4")

    def withdrawal_effect(self, family: str, *, less_than_half: bool) -> str:
        """Go §28.2: void before half the rounds, else the rest lost by forfeit; §28.3 (Swiss):
        not paired any more; §28.4 (matches, teams, knockout): the rest lost by forfeit."""
        if family == "round-robin":
            return "void" if less_than_half else "keep-forfeit-rest"
        if family == "swiss":
            return "keep-unpaired"
        return "keep-forfeit-rest"


#: Go, the one object
GO = Go()
