"""Gomoku (Renju, 连珠) as one object (:data:`GOMOKU`): what a session, an event, the server
and the CLI need to know about Gomoku that differs from Go.

>>> GOMOKU.name, GOMOKU.scoring, GOMOKU.withdrawal_article("swiss")
('gomoku', (Fraction(1, 1), Fraction(1, 2)), 'Gomoku §18.5')
>>> GOMOKU.new_game({}).rules == GOMOKU.rules("chinese-2013")
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

from duiyi.clock import Lateness
from duiyi.games.adapters import GameAdapter, GomokuAdapter
from duiyi.games.base import COMMON_ARTICLES, EngineProtocol, GameType, preset_or_json
from duiyi.referee import Book, Decision, RulingKind

__all__ = ["BOOK", "GOMOKU", "Gomoku"]

#: what the Renju rules let the arbiter rule, and on which article (Gomoku §4.2, §5-6, §8-13)
BOOK = Book(
    game="gomoku",
    articles={
        **COMMON_ARTICLES,
        "violation": "Gomoku §12.4",
        "time_penalty": "Gomoku §12.3(3)",
        "colour_correction": "Gomoku §5.2",
        "moved_stones": "Gomoku §4.2",
        "scattered": "Gomoku §4.2",
        "no_show": "Gomoku §8.5",
        "no_show_both": "Gomoku §8.5",
        "withdrawal": "Gomoku §10.1(3)D",
        "disqualification": "Gomoku §12.3(2)D",
        "disciplinary_loss": "Gomoku §2.20(3)",
        "both_flags": "Gomoku §10.2(4)",
        "irregular_accepted": "Gomoku §6.1",
        "stone_replaced": "Gomoku §6.1",
        "dropped_stone": "Gomoku §6.1(7)",
        "appeal": "Gomoku §13.1",
        "appeal_decided": "Gomoku §13",
        "coin_toss": "Gomoku §5.3(2)",
        "colours_chosen": "Gomoku §5.3(2)",
    },
    refusals={
        "warning": ("Gomoku has no warnings: record a violation (Gomoku §12)", "Gomoku §12"),
        "overtime_pass": ("the pass on overtime is a Go rule (Go §22.5)", "Go §22.5"),
        "leave_seat": ("leaving the seat in byo-yomi is a Go rule (Go §22.7)", "Go §22.7"),
        "stones_restored": (
            "putting back wrongly removed stones is a Go rule (Go §18.1); Gomoku removes no stones",
            "Go §18.1",
        ),
    },
    counted=RulingKind.VIOLATION,
    second_loses="Gomoku §12.3(4)",
    stones_per_warning=0,
    moved=frozenset({Decision.RESTORE, Decision.VALID, Decision.DRAW, Decision.REPLAY}),
    scattered=frozenset({Decision.RESUME, Decision.DRAW, Decision.REPLAY}),
    colour_fix=lambda moves, minutes: moves < 4 and minutes < 15,
    penalised_scatter=True,
    penalised_drop=True,
    # the articles a form offers where the ruling names its own (the book's comes first)
    suggested={
        "violation": ("Gomoku §12.4", "Gomoku §12.3(2)B", "Gomoku §10.3(3)"),
        "void_move": ("Gomoku §6.1(4)", "Gomoku §6.1(1)", "Gomoku §6.1(2)", "Gomoku §6.1(3)"),
        "forfeit": ("Gomoku §12.3(2)C", "Gomoku §10.1(3)G"),
        "double_forfeit": ("Gomoku §12.3(2)C",),
        "irregular_accepted": tuple(f"Gomoku §6.1({k})" for k in range(1, 7)),
    },
    # the clock correction's article shared in the common table is Go's (Go §22.8)
    preselected={"clock_adjustment": "Gomoku §8.7"},
)


class Gomoku(GameType):
    """Gomoku under the Chinese Renju rules (Gomoku §1-§18), on a 15×15 board."""

    name: ClassVar[str] = "gomoku"
    title: ClassVar[str] = "Gomoku"
    engine_protocol: ClassVar[EngineProtocol] = EngineProtocol.GOMOCUP
    book: ClassVar[Book] = BOOK
    default_size: ClassVar[int] = 15
    sizes: ClassVar[range] = range(15, 16)
    size_article: ClassVar[str | None] = "Gomoku §1"
    scoring: ClassVar[tuple[Fraction, Fraction]] = (Fraction(1), Fraction(1, 2))  # Gomoku §18.1
    has_draws: ClassVar[bool] = True
    # 终局: a won game or a drawn one (胜局、和局), never one without a result
    finished_game_article: ClassVar[str] = "Gomoku §2.14"
    has_komi: ClassVar[bool] = False
    ends_in_a_line: ClassVar[bool] = True
    has_fouls: ClassVar[bool] = True  # Gomoku §10.1(2), §12.2(7): the event's settings
    redraw_article: ClassVar[str] = "Gomoku §18.5"
    lines_lot_article: ClassVar[str] = "Gomoku §14.1(6)"  # the chief arbiter presides over the lots
    tie_lot_article: ClassVar[str] = "Gomoku §18.3(1)C"
    match_article: ClassVar[str] = "Gomoku §17.6"
    guess_article: ClassVar[str] = "Gomoku §5.3(1)"
    last_article: ClassVar[int] = 19
    overtime_pass: ClassVar[bool] = False
    default_preset: ClassVar[str] = "chinese-2013"
    colour_method: ClassVar[str] = "hand count (Gomoku §5.3(1))"
    colour_guess: ClassVar[str] = "hand count (Gomoku §5.1(1), §5.3(1))"
    engine_preset: ClassVar[str] = "free_renju"
    engine_presets: ClassVar[tuple[str, ...] | None] = ("free", "free_renju")
    engine_illegal_article: ClassVar[str] = "Gomoku §4.2, §10.1(3)G"
    engine_refusal_article: ClassVar[str] = "Gomoku §10.1(3)G"
    letters: ClassVar[str] = "abcdefghijklmno"
    example_points: ClassVar[tuple[str, str]] = ("h8", "h9")
    offered_presets: ClassVar[tuple[str, ...]] = ("chinese_2013", "free", "free_renju")
    # Gomoku §12: the second violation (违例) loses, not a second warning
    termination_words: ClassVar[Mapping[str, str]] = MappingProxyType({"warnings": "violations"})
    standings_methods: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "swiss": "gomokuSwiss",
            "swiss-elimination": "gomokuSwiss",
            "mcmahon": "gomokuSwiss",
            "round-robin": "gomokuRR",
            "double-round-robin": "gomokuRR",
            "groups": "gomokuRR",
        }
    )

    def lateness(self, *, limit: float | None = None, same_site: bool = False) -> Lateness:
        """Gomoku §8.5: late time is taken once; lost past the event's limit (15 min unless
        the event says otherwise).

        >>> GOMOKU.lateness().limit
        900.0
        """
        return Lateness.gomoku(limit=900.0 if limit is None else float(limit))

    def rules(self, spec: object = None) -> Any:
        """Renju rules: a preset name (``"chinese-2013"``, ``"free"``), the JSON form, or None.

        >>> GOMOKU.rules("free").fouls
        False
        """
        from duiyi.gomoku import RenjuRules

        return preset_or_json(spec, RenjuRules.preset, RenjuRules.from_json, self.default_preset)

    def new_game(self, spec: Mapping[str, Any]) -> Any:
        """A Gomoku game from ``{"rules", "foul_policy"}`` (the board is 15×15 whatever the
        request's ``size``: a game form's default is Go's)."""
        from duiyi.gomoku import Game

        rules = self.rules(spec.get("rules"))
        if spec.get("foul_policy") is not None:
            # an event's setting over its rules (Gomoku §10.1(2): White claims the foul)
            rules = rules.with_options(foul_policy=str(spec["foul_policy"]))
        return Game(rules=rules)

    def event_game_spec(self, online: Mapping[str, Any]) -> dict[str, Any]:
        """An event's Renju game (docs/decisions.md): White claims a foul (Gomoku §10.1(2))
        and nobody is shown Black's forbidden points (help to Black, Gomoku §12.2(7)), unless
        the event's online settings say otherwise.

        >>> GOMOKU.event_game_spec({"rules": "free_renju"})
        {'rules': 'free_renju', 'game': 'gomoku', 'foul_policy': 'claim', 'hints': False}
        """
        spec = {**online, "game": self.name}
        rules = spec.get("rules")
        if not (isinstance(rules, Mapping) and "foul_policy" in rules):
            spec.setdefault("foul_policy", "claim")
        spec.setdefault("hints", False)
        return spec

    def adapter(self, game: Any) -> GameAdapter:
        return GomokuAdapter(game)

    def adapter_from_config(self, config: dict[str, Any]) -> GameAdapter:
        return GomokuAdapter.from_config(config)

    def parse_point(self, text: str, size: int | None = None) -> Any:
        """A point in the book's letters (a-o, rows 1-15).

        >>> str(GOMOKU.parse_point("H8"))
        'h8'
        """
        from duiyi.gomoku.point import Point

        return Point.parse(text)

    def read_sgf(self, text: str) -> Any:
        from duiyi.gomoku.notation import game_from_sgf

        return game_from_sgf(text)

    def write_sgf(self, game: Any) -> str:
        from duiyi.gomoku.notation import game_to_sgf

        return game_to_sgf(game)

    def star_points(self, size: int) -> tuple[str, ...]:
        """The five marked points of the 15x15 board: its centre (天元) and four stars.

        >>> GOMOKU.star_points(15)
        ('d4', 'l4', 'h8', 'd12', 'l12')
        """
        return ("d4", "l4", "h8", "d12", "l12")

    def guess_colours(self, a: int, b: int, rng: random.Random) -> tuple[int, int]:
        """Gomoku §5.3(1): both grab stones; an odd total gives ``a`` (holding the black
        stones) Black, an even total swaps colours.

        >>> sorted(GOMOKU.guess_colours(1, 2, random.Random(5)))
        [1, 2]
        """
        from duiyi.gomoku.colours import hand_count

        return hand_count(a, b, rng.randint(1, 20), rng.randint(1, 20))

    def tiebreak_names(
        self, family: str, *, mcmahon: bool = False, team: bool = False, variant: str = ""
    ) -> tuple[str, ...]:
        """Gomoku §18.3-4: round robin SB then wins; Swiss average opponents' rating,
        Buchholz, median Buchholz, wins; teams by game points, team SB (or Buchholz) and
        boards; McMahon by SOS, SOSOS, wins.

        >>> GOMOKU.tiebreak_names("swiss")
        ('points', 'aro', 'buchholz', 'median-buchholz', 'wins')
        """
        if team:
            if family == "swiss":
                return ("points", "buchholz", "median-buchholz", "game-points", "boards")
            return ("points", "game-points", "team-sb", "boards")
        if mcmahon:
            return ("mms", "sos", "sosos", "wins")
        if family == "swiss":
            return ("points", "aro", "buchholz", "median-buchholz", "wins")
        return ("points", "sb", "wins")

    def withdrawal_article(self, family: str) -> str:
        return "Gomoku §18.5"

    def withdrawal_effect(self, family: str, *, less_than_half: bool) -> str:
        """Gomoku §18.5: in a round robin or Swiss, void before half the rounds; else the
        results stand and the player is no longer paired (Swiss) or loses the rest."""
        if family in ("round-robin", "swiss") and less_than_half:
            return "void"
        return "keep-unpaired" if family == "swiss" else "keep-forfeit-rest"


#: Gomoku, the one object
GOMOKU = Gomoku()
