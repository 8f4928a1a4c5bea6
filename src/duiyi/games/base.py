"""What a game is to the rest of duiyi: one :class:`GameType` object per game carrying what
differs between Go and Gomoku, so that sessions, events, the server and the CLI ask the object
instead of comparing a name.

The objects themselves are :data:`duiyi.games.GO` and :data:`duiyi.games.GOMOKU`; the registry
(:func:`duiyi.games.get`) maps a stored name to its object.
"""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from duiyi.errors import InvalidInput
from duiyi.referee import Book, Referee

if TYPE_CHECKING:
    from duiyi.clock import Lateness
    from duiyi.games.adapters import GameAdapter

__all__ = ["COMMON_ARTICLES", "EngineProtocol", "GameType"]

#: the rulings both books have, and their articles (a game's book may name its own)
COMMON_ARTICLES: Mapping[str, str] = MappingProxyType(
    {
        "clock_adjustment": "Go §22.8",
        "void_move": "",  # the article is the caller's (Go §17.2, §18.3, §19, Gomoku §6.1)
        "forfeit": "",
        "double_forfeit": "",
    }
)

# an article as duiyi cites it: the book's title, § and the article's number, then its
# clauses (.1, (2), a letter: "Go §27.1(1)B")
_CITATION = re.compile(
    r"^(?P<book>[A-Za-z]+) §(?P<article>[0-9]{1,3})(\.[0-9]{1,2}){0,2}(\([0-9]{1,2}\))?[A-H]?$"
)


class EngineProtocol(enum.Enum):
    """How an engine of this game is spoken to: GTP (Go) or the Gomocup brain protocol."""

    GTP = "gtp"
    GOMOCUP = "gomocup"


class GameType:
    """One game: its name (as stored in JSON), its rulebook's tables, its tournament rules,
    its session adapter, its notation and its engine protocol.

    A subclass fills the class attributes and the methods; there is one instance per game,
    compared by identity (``event.game is GO``), copied as itself and pickled by name.

    >>> from duiyi.games import GO, GOMOKU
    >>> GO.name, GOMOKU.title, GO.engine_protocol
    ('go', 'Gomoku', <EngineProtocol.GTP: 'gtp'>)
    """

    #: the name stored in JSON, URLs and files
    name: ClassVar[str]
    #: the name shown to people
    title: ClassVar[str]
    #: how its engines are driven
    engine_protocol: ClassVar[EngineProtocol]
    #: the referee's table of rulings and articles for this game (``Referee(game)`` reads it)
    book: ClassVar[Book]
    #: the board size of a game that gives none
    default_size: ClassVar[int]
    #: the board sizes a game may be played on
    sizes: ClassVar[range]
    size_article: ClassVar[str | None] = None
    #: the rulebook's articles run from §1 to this one (Go 2002: 第三十三条; Gomoku 2013: 第十九条)
    last_article: ClassVar[int]
    #: points for a win and for a draw (Go §27.1: 2 and 1; Gomoku §18.1: 1 and ½)
    scoring: ClassVar[tuple[Fraction, Fraction]]
    #: whether a game can end drawn between players of the book (Gomoku §10.3; Go's Chinese
    #: komi leaves no draw)
    has_draws: ClassVar[bool]
    #: the article saying a finished game of the book can end without a result (无胜负), or
    #: None where every finished game is won or drawn (Gomoku §2.14): a result the desk does
    #: not offer and an event refuses
    no_result_article: ClassVar[str | None] = None
    #: the article that names a finished game's results, cited when no result is refused
    finished_game_article: ClassVar[str]
    #: whether the rules give komi (and a board size to choose): Go
    has_komi: ClassVar[bool]
    #: the article of a withdrawal before the first round is paired (the field is redrawn)
    redraw_article: ClassVar[str]
    #: the article under which a knockout's round 1 lines are drawn by lot
    lines_lot_article: ClassVar[str]
    #: the article under which competitors still tied after the tiebreaks are placed by lot
    tie_lot_article: ClassVar[str]
    #: the article of a match of several games between two players (多局决胜制, 对抗赛)
    match_article: ClassVar[str]
    #: the article under which colours are guessed before a game (猜先)
    guess_article: ClassVar[str]
    #: results go to the European Go Database (an EGD results file is offered): Go only
    has_egd: ClassVar[bool] = False
    #: whether a win is a line of stones on the board (a five, Gomoku §10.1(1)) a page can show
    ends_in_a_line: ClassVar[bool] = False
    #: the byo-yomi pass on overtime (Go §22.5) and leaving the seat in byo-yomi (Go §22.7)
    overtime_pass: ClassVar[bool]
    #: the default rules preset of an event's games
    default_preset: ClassVar[str]
    #: how colours are guessed before a game (猜先), in words with the article; and the reason
    #: given for one game whose colours were guessed (Gomoku §5.1(1) adds its article)
    colour_method: ClassVar[str]
    colour_guess: ClassVar[str]
    #: the rules of a game against an engine when the request names none, and the presets an
    #: engine can play (None: any; Gomoku: free openings, the Gomocup protocol has no swap)
    engine_preset: ClassVar[str]
    engine_presets: ClassVar[tuple[str, ...] | None] = None
    #: the article for an engine's illegal move and for an engine refusing to play by the rules
    engine_illegal_article: ClassVar[str]
    engine_refusal_article: ClassVar[str]

    # what a page shows differently (duiyi.games.ui describes it for the browser)
    #: the board's column letters, left to right
    letters: ClassVar[str]
    #: two points in the book's notation, the examples of a form's point fields
    example_points: ClassVar[tuple[str, str]]
    #: the rules presets a form offers, the default first (spelt as the forms send them)
    offered_presets: ClassVar[tuple[str, ...]]
    #: handicap stones may be given (Go §4)
    has_handicap: ClassVar[bool] = False
    #: stones are captured, so a past position is the game's to tell (Go §5); without
    #: captures it is the first moves' stones
    has_captures: ClassVar[bool] = False
    #: the game ends by marking dead stones and counting (Go §8-9, §21)
    has_counting: ClassVar[bool] = False
    #: the lateness limit may be the players' lodging at the venue (Go §22.2)
    same_site_lateness: ClassVar[bool] = False
    #: an event sets how Black's forbidden moves are handled (claimed by White or ruled at
    #: once, Gomoku §10.1(2)) and whether the forbidden points are shown (Gomoku §12.2(7))
    has_fouls: ClassVar[bool] = False
    #: the book's own word for a way a game ends, where it differs from the common one
    termination_words: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: the systems whose standings come in two variants the event chooses (Go §27.1(2))
    variant_systems: ClassVar[tuple[str, ...]] = ()
    #: per system, the standings method's sentence on the desk (``{variant}``: the event's)
    standings_methods: ClassVar[Mapping[str, str]]

    def __repr__(self) -> str:
        return f"<GameType {self.name}>"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        # the module's global of the same name (GO, GOMOKU): pickling, copy and deepcopy
        # give back the one object
        return self.name.upper()

    # ------------------------------------------------------------------ the rulebook

    def knows_article(self, article: str) -> bool:
        """True when ``article`` cites this game's rulebook as duiyi writes it (``"Go §24"``,
        ``"Go §27.1(1)B"``, ``"Gomoku §12.3(2)C"``: an article from §1 to
        :attr:`last_article`, with its clauses), or is an article the referee's table of this
        game rules by (:attr:`book`).

        >>> from duiyi.games import GO, GOMOKU
        >>> GO.knows_article("Go §24.1"), GO.knows_article("Go §999"), GO.knows_article("Go §0")
        (True, False, False)
        >>> GOMOKU.knows_article("Gomoku §12.3(2)C"), GOMOKU.knows_article("Go §24")
        (True, False)
        >>> GOMOKU.knows_article("Go §22.8")  # the clock correction both books share
        True
        """
        found = _CITATION.match(article)
        if found is not None and found["book"] == self.title:
            return 1 <= int(found["article"]) <= self.last_article
        return article in self.book.articles.values() and bool(article)

    def referee(self, *, limit: int = 2) -> Referee:
        """A fresh ruling ledger for one game of this kind (its :attr:`book`).

        >>> from duiyi.games import GOMOKU
        >>> GOMOKU.referee().game is GOMOKU
        True
        """
        return Referee(self, limit=limit)

    def lateness(self, *, limit: float | None = None, same_site: bool = False) -> Lateness:
        """The lateness rule of the book (Go §22.1-2, Gomoku §8.5); ``limit`` in seconds."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the game itself

    def rules(self, spec: object = None) -> Any:
        """A rules object: the default preset for None, a preset by name, or the JSON form."""
        raise NotImplementedError

    def new_game(self, spec: Mapping[str, Any]) -> Any:
        """A new game from a request such as ``{"size": 9, "rules": "chinese"}``."""
        raise NotImplementedError

    def adapter(self, game: Any) -> GameAdapter:
        """``game`` (this kind's ``Game``) as a session sees it."""
        raise NotImplementedError

    def adapter_from_config(self, config: dict[str, Any]) -> GameAdapter:
        """Rebuild a session's game from its ``config_json``."""
        raise NotImplementedError

    def parse_point(self, text: str, size: int | None = None) -> Any:
        """A point in the book's notation ("D4" in Go, "h8" in Gomoku)."""
        raise NotImplementedError

    def read_sgf(self, text: str) -> Any:
        """A game from an SGF record in this game's dialect."""
        raise NotImplementedError

    def write_sgf(self, game: Any) -> str:
        """This kind's game as an SGF record."""
        raise NotImplementedError

    def check_size(self, size: int | None) -> None:
        """Refuse a board size this game is not played on (None: the default).

        >>> from duiyi.games import GOMOKU
        >>> GOMOKU.check_size(19)
        Traceback (most recent call last):
        ...
        duiyi.errors.InvalidInput: Gomoku is played on the 15x15 board, not 19x19 (Gomoku §1)
        """
        if size is not None and size not in self.sizes:
            low, high = self.sizes[0], self.sizes[-1]
            board = f"the {low}x{low} board" if low == high else f"boards {low}x{low}-{high}x{high}"
            raise InvalidInput(
                f"{self.title} is played on {board}, not {size}x{size}", self.size_article
            )

    def event_game_spec(self, online: Mapping[str, Any]) -> dict[str, Any]:
        """The request for one of an event's online games, from the event's online settings
        (the game's own defaults for an event added).

        >>> from duiyi.games import GO
        >>> GO.event_game_spec({"size": 13})
        {'size': 13, 'game': 'go'}
        """
        return {**online, "game": self.name}

    def stored_size(self, config: Mapping[str, Any]) -> int:
        """The board size in a stored session configuration (``config["game"]``)."""
        return self.default_size

    def star_points(self, size: int) -> tuple[str, ...]:
        """The marked points (star points) of a board of ``size``, in the book's notation."""
        raise NotImplementedError

    # ------------------------------------------------------------------ tournaments

    def guess_colours(self, a: int, b: int, rng: random.Random) -> tuple[int, int]:
        """``(black, white)`` guessed before a game by this game's method (:attr:`colour_method`)."""
        raise NotImplementedError

    def tiebreak_names(
        self, family: str, *, mcmahon: bool = False, team: bool = False, variant: str = ""
    ) -> tuple[str, ...]:
        """The book's default tiebreak chain after the score, by name, for a system ``family``
        (``round-robin``, ``swiss``); a team event's chain ends with its boards (``"boards"``)."""
        raise NotImplementedError

    def withdrawal_article(self, family: str) -> str:
        """The article that governs a withdrawal in a system of ``family``."""
        raise NotImplementedError

    def withdrawal_effect(self, family: str, *, less_than_half: bool) -> str:
        """What a withdrawal after the start does (a ``tournament.withdrawal.Effect`` value):
        ``void``, ``keep-forfeit-rest`` or ``keep-unpaired``."""
        raise NotImplementedError


def preset_or_json(spec: object, preset: Any, from_json: Any, default: str) -> Any:
    """A rules object from a preset name, its JSON form, or None (``default``)."""
    if spec is None:
        return preset(default)
    if isinstance(spec, Mapping):
        return from_json(dict(spec))
    return preset(str(spec))
