"""Elimination: knockout (淘汰赛, appendix 一) and double elimination (appendix 二)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from duiyi import Color
from duiyi.errors import PairingError
from duiyi.tournament.model import Event
from duiyi.tournament.systems.base import PairedRound, System, register, translate

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
            if g is None or b not in g.players or g.result is None or g.result.winner is None:
                continue
            results[m.id] = g.black if g.result.winner is Color.BLACK else g.white
    return results


def _colours_option(event: Event) -> str:
    value = str(event.options.get("colours", "lines"))
    if value not in ("lines", "guess"):
        raise PairingError(f"options.colours is 'lines' or 'guess', not {value!r}")
    return value


class Knockout(System):
    """Single elimination with seeds (``options.seeds``) and place matches
    (``options.place_matches``, Gomoku §18.2); every game needs a winner (a drawn one is
    settled by :func:`duiyi.tournament.event.settle_draw`).

    Colours: the upper line plays Black (the organisers' draw, Go §10 and Gomoku §5.1 allow
    it), or with ``options.colours`` ``"guess"`` they are guessed before each game as appendix
    一.4 says, by the event's game: Go §10 nigiri, Gomoku §5.1(1), §5.3(1) hand count."""

    name = "knockout"
    family = "knockout"
    rounds_from_field = True
    elimination = True

    def bracket(self, event: Event) -> Any:
        """The elimination bracket of the event (appendix 一), from its options."""
        from duiyi.tournament.pairing.knockout import knockout

        seeds = [int(x) for x in event.options.get("seeds", [])]
        places = [int(x) for x in event.options.get("place_matches", [])]
        return knockout(len(event.players), seeds, place_matches=places)

    def total_rounds(self, event: Event) -> int:
        """The bracket's stages."""
        if len(event.players) < 2:
            return event.rounds
        return len(self.bracket(event).stages)

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        bracket = self.bracket(event)
        results = bracket_results(event, bracket)
        stage = bracket.stages[number - 1]
        guess = _colours_option(event) == "guess"
        rnd = bracket.round(stage, results, number, rng if guess else None, game=event.game)
        paired = translate(rnd)
        return event, replace(paired, notes=(*paired.notes, f"stage {stage}"))


class DoubleElimination(Knockout):
    """Double elimination (appendix 二, ≤ 32 players, fixed drop positions)."""

    name = "double-elimination"

    def bracket(self, event: Event) -> Any:
        from duiyi.tournament.pairing.double_elimination import double_elimination

        seeds = [int(x) for x in event.options.get("seeds", [])]
        return double_elimination(len(event.players), seeds)


KNOCKOUT = register(Knockout())
DOUBLE_ELIMINATION = register(DoubleElimination())
