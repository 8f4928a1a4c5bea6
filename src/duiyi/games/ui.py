"""Each game as the browser pages need to know it (``GET /api/game-types``): the board's
letters and star points, the examples of a point, the forms' presets and settings, the phases
and panels of its game page, the book's words and the desk's standings sentence. The pages ask
this description what differs instead of comparing the game's name.

>>> from duiyi.games import GO, GOMOKU
>>> d = describe(GOMOKU)
>>> d.letters, d.example_points, d.late_limit_minutes, d.counting, d.draw_offers
('abcdefghijklmno', ('h8', 'h9'), 15.0, False, True)
>>> describe(GO).star_points["9"]
('C3', 'G3', 'E5', 'C7', 'G7')
"""

from __future__ import annotations

from dataclasses import dataclass

from duiyi.games import GAMES, GameType

__all__ = ["GameUi", "describe", "describe_all"]


@dataclass(frozen=True)
class GameUi:
    """What a page shows differently for one game (each field from its :class:`GameType`)."""

    #: the name stored in JSON and URLs, and the name shown to people
    name: str
    title: str
    #: the board's column letters, left to right (Go: GTP's, without I; Gomoku: a-o)
    letters: str
    #: the star points of each board size (``"9"``), in the book's notation
    star_points: dict[str, tuple[str, ...]]
    #: two points in the book's notation, the examples of a form's point fields
    example_points: tuple[str, str]
    #: the board sizes it is played on and the one a game gets when it asks for none
    sizes: tuple[int, ...]
    default_size: int
    #: the rules presets a form offers, the default first; those an engine can play
    presets: tuple[str, ...]
    engine_presets: tuple[str, ...]
    #: handicap stones may be given (Go §4)
    handicap: bool
    #: the lateness limit a form proposes, in minutes (Go §22.1: 1 h; Gomoku §8.5: 15 min; 0: none)
    late_limit_minutes: float
    #: the limit may be the lodging at the venue (Go §22.2)
    same_site_lateness: bool
    #: a past position is the game's to tell, stones being captured (Go §5)
    captures: bool
    #: a counting phase: dead stones marked, territory and the count shown (Go §8-9, §21)
    counting: bool
    #: a draw may be offered and accepted (Gomoku §10.3)
    draw_offers: bool
    #: a finished game may be recorded without a result (无胜负: Go §20.3; never in Gomoku,
    #: §2.14): the desk's result menu offers it only then
    no_result: bool
    #: the book's own word for a way a game ends, where it differs from the common one
    terms: dict[str, str]
    #: the systems whose standings come in variants the event chooses (Go §27.1(2))
    variant_systems: tuple[str, ...]
    #: per system, the key of the desk's sentence on its standings (``{variant}``: the event's)
    standings_methods: dict[str, str]
    #: an EGD results file is offered for its events (the European Go Database: Go only)
    egd: bool
    #: an event's forms set the foul policy and the forbidden-point hints (Gomoku §10.1(2),
    #: §12.2(7))
    event_fouls: bool
    #: what a board's ⚠ count counts, the rulings the book's second one loses by: ``warnings``
    #: (Go §24.2) or ``violations`` (Gomoku §12.3(4)), as a game's ``referee`` summary names them
    counted: str


def describe(game: GameType) -> GameUi:
    """The page's description of ``game``."""
    engine = game.engine_presets or game.offered_presets
    limit = game.lateness().limit
    default = game.engine_preset if game.engine_preset in engine else engine[0]
    return GameUi(
        name=game.name,
        title=game.title,
        letters=game.letters,
        star_points={str(size): game.star_points(size) for size in game.sizes},
        example_points=game.example_points,
        sizes=tuple(game.sizes),
        default_size=game.default_size,
        presets=game.offered_presets,
        engine_presets=(default, *(p for p in engine if p != default)),
        handicap=game.has_handicap,
        late_limit_minutes=0.0 if limit is None else limit / 60,
        same_site_lateness=game.same_site_lateness,
        captures=game.has_captures,
        counting=game.has_counting,
        draw_offers=game.has_draws,
        no_result=game.no_result_article is not None,
        terms=dict(game.termination_words),
        variant_systems=game.variant_systems,
        standings_methods=dict(game.standings_methods),
        egd=game.has_egd,
        event_fouls=game.has_fouls,
        counted=f"{game.book.counted.value}s",
    )


def describe_all() -> dict[str, GameUi]:
    """Every game's description, by name, in the registry's order (Go first)."""
    return {name: describe(game) for name, game in GAMES.items()}
