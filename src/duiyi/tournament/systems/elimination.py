"""Elimination: knockout (淘汰赛, appendix 一) and double elimination (appendix 二)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from duiyi.errors import PairingError
from duiyi.tournament.model import Event
from duiyi.tournament.standings import default_chain
from duiyi.tournament.systems.base import PairedRound, System, register, translate
from duiyi.tournament.tiebreaks import Tiebreak

__all__ = ["DoubleElimination", "Knockout", "bracket_results"]


def bracket_results(event: Event, bracket: Any, first: int = 0) -> dict[str, int]:
    """Winners of the bracket's matches so far (match id → player), read off the rounds from
    ``event.history[first]`` on (the bracket's first stage)."""
    results: dict[str, int] = {}
    stages = bracket.stages
    for index, rnd in enumerate(event.history[first:]):
        if index >= len(stages):
            break
        sides = bracket.participants(results)
        for m in bracket.matches:
            if m.stage != stages[index]:
                continue
            a, b = sides[m.id]
            if a <= 0 or b <= 0:
                continue
            g = rnd.game_of(a)
            if g is None or b not in g.players:
                continue
            through = g.through  # the winner, or the lot's on a drawn game (抽签)
            if through is not None:
                results[m.id] = through
    return results


#: the refusal's code of each either-or option (the pages' words, issue 32)
_OPTION_CODES = {"colours": "colours-option", "lines": "lines-option"}


def _choice(name: str, value: str | None, default: str, other: str) -> str:
    """The option ``name`` set to ``value``: ``default`` when not set, else ``other``."""
    value = value or default
    if value not in (default, other):
        raise PairingError(
            f"options.{name} is {default!r} or {other!r}, not {value!r}",
            code=_OPTION_CODES[name],
        )
    return value


def _colours_option(event: Event) -> str:
    return _choice("colours", event.options.colours, "lines", "guess")


def _lines_option(event: Event) -> str:
    return _choice("lines", event.options.lines, "numbers", "lot")


def _draw_lines(event: Event, rng: random.Random) -> Event:
    """The event with its unseeded players' numbers (= bracket lines) drawn by lot; seeds keep
    theirs. Only before any round is paired (nothing yet refers to a number but the teams)."""
    if event.history or event.is_team_event:
        return event
    seeds = set(event.options.seeds or ())
    free = [p.number for p in event.players if p.number not in seeds]
    drawn = list(free)
    rng.shuffle(drawn)
    moved = dict(zip(free, drawn, strict=True))
    players = [replace(p, number=moved.get(p.number, p.number)) for p in event.players]
    return replace(event, players=tuple(sorted(players, key=lambda p: p.number)))


class Knockout(System):
    """Single elimination with seeds (``options.seeds``) and place matches
    (``options.place_matches``, Gomoku §18.2); every game needs a winner (a drawn one is
    settled by :func:`duiyi.tournament.event.settle_draw`).

    Colours: the upper line plays Black (the organisers' draw, Go §10 and Gomoku §5.1 allow
    it), or with ``options.colours`` ``"guess"`` they are guessed before each game as appendix
    一.4 says, by the event's game: Go §10 nigiri, Gomoku §5.1(1), §5.3(1) hand count.

    Lines: the players' numbers are the bracket's lines (1 meets 2, 3 meets 4 …, the seeds
    placed by ``options.seeds``); with ``options.lines`` ``"lot"`` the unseeded players' lines
    are drawn by lot when round 1 is paired (appendix 一.3: the others are placed by lot), their
    numbers becoming the drawn lines. ``"numbers"`` (the default) keeps the entered order.
    The round's note cites the event's own book (a Gomoku event: the chief arbiter's lots).

    >>> import random
    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> e = add_players(new_event("Cup", "gomoku", "knockout", 0, {"lines": "lot"}),
    ...                 [Player(0, n) for n in "ABCDEFGH"])
    >>> e, paired = pair_next_round(e, random.Random(3))
    >>> sorted(p.name for p in e.players) == list("ABCDEFGH"), paired.notes[0]
    (True, 'round 1 lines drawn by lot (Gomoku §14.1(6))')
    """

    name = "knockout"
    family = "knockout"
    rounds_from_field = True
    elimination = True

    def bracket(self, event: Event) -> Any:
        """The elimination bracket of the event (appendix 一), from its options."""
        from duiyi.tournament.pairing.knockout import knockout

        seeds = list(event.options.seeds or ())
        places = list(event.options.place_matches or ())
        return knockout(len(event.players), seeds, place_matches=places)

    def total_rounds(self, event: Event) -> int:
        """The bracket's stages."""
        if len(event.players) < 2:
            return event.rounds
        return len(self.bracket(event).stages)

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        drawn: tuple[str, ...] = ()
        if number == 1 and _lines_option(event) == "lot":
            event = _draw_lines(event, rng)
            drawn = (f"round 1 lines drawn by lot ({event.game.lines_lot_article})",)
        bracket = self.bracket(event)
        results = bracket_results(event, bracket)
        stage = bracket.stages[number - 1]
        guess = _colours_option(event) == "guess"
        rnd = bracket.round(stage, results, number, rng if guess else None, game=event.game)
        paired = translate(rnd)
        return event, replace(paired, notes=(*drawn, *paired.notes, f"stage {stage}"))


class DoubleElimination(Knockout):
    """Double elimination (appendix 二, ≤ 32 players, fixed drop positions)."""

    name = "double-elimination"

    def book_chain(self, event: Event, *, team: bool = False) -> tuple[Tiebreak, ...]:
        """Later elimination first, out after two losses (appendix 二)."""
        return default_chain(event.game, self.family, team=team, board_count=event.boards, lives=2)

    def bracket(self, event: Event) -> Any:
        from duiyi.tournament.pairing.double_elimination import double_elimination

        seeds = list(event.options.seeds or ())
        return double_elimination(len(event.players), seeds)


KNOCKOUT = register(Knockout())
DOUBLE_ELIMINATION = register(DoubleElimination())
