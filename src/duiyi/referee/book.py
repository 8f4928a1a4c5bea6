"""What one game's rulebook lets the arbiter rule (:class:`Book`, carried by each game
object) and what a referee needs of its game (:class:`RuledGame`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from duiyi.referee.kinds import Decision, RulingKind


@dataclass(frozen=True)
class Book:
    """What one game's rulebook lets the arbiter rule, and on which article.

    ``articles`` maps a ruling, by its kind's name (:class:`RulingKind`, and the sub-case
    ``"no_show_both"``), to the article it rests on in this game; a ruling missing from it is
    refused with the reason and article in ``refusals``. A new ruling is a kind, one entry in
    each game's book (carried by its game object, ``duiyi.games.GO.book``), its request
    (:mod:`duiyi.referee.requests`) and its case in :meth:`Referee.rule`.

    ``suggested`` lists, per ruling that names its own article, the articles an arbiter's form
    offers; ``preselected`` is the article a form starts from where it differs from the
    book's (an article shared between the games in ``articles``).

    >>> from duiyi.games import GO, GOMOKU
    >>> GO.book.articles["moved_stones"], GOMOKU.book.articles["moved_stones"]
    ('Go §17.5', 'Gomoku §4.2')
    >>> "warning" in GOMOKU.book.articles
    False
    """

    game: str
    articles: Mapping[str, str]
    refusals: Mapping[str, tuple[str, str]]
    counted: RulingKind  # what the second one loses: WARNING (Go §24.2), VIOLATION (Gomoku)
    second_loses: str  # the article of that loss
    stones_per_warning: int  # stones off the count per warning (Go §24.1)
    moved: frozenset[Decision]  # decisions allowed for moved stones
    scattered: frozenset[Decision]  # decisions allowed for a scattered position
    colour_fix: Callable[[int, float], bool]  # (moves played, minutes) -> still corrected?
    penalised_scatter: bool  # a player's scatter rebuilt still costs a violation
    #: a dropped stone taken back is penalised (Gomoku §6.1(7), §4.2 "适当处罚"); Go §17.3
    #: takes it back with consent and no penalty
    penalised_drop: bool = False
    #: per ruling that names its own article, the articles a form offers
    suggested: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: per ruling, the article a form starts from where it is not the one in ``articles``
    preselected: Mapping[str, str] = field(default_factory=dict)


class RuledGame(Protocol):
    """What a :class:`Referee` needs of its game: the name stored in JSON and its book (the
    game objects of :mod:`duiyi.games` are ruled games)."""

    @property
    def name(self) -> str: ...

    @property
    def book(self) -> Book: ...
