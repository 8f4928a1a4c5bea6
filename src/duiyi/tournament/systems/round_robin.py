"""Round robin (循环赛, appendix 三): single, double or more cycles of the Berger table.

>>> from duiyi.tournament.model import Player
>>> from duiyi.tournament.systems import get
>>> e = Event("x", "go", "round-robin", 0, players=tuple(Player(i, str(i)) for i in range(1, 6)))
>>> get("round-robin").total_rounds(e), get("double-round-robin").total_rounds(e)
(5, 10)
"""

from __future__ import annotations

import random

from duiyi.tournament.model import Event
from duiyi.tournament.systems.base import PairedRound, System, register, translate

__all__ = ["DoubleRoundRobin", "RoundRobin", "cycles"]


def cycles(event: Event, default: int = 1) -> int:
    """The number of cycles: ``options.cycles``, else ``default``."""
    given = event.options.cycles
    return default if given is None else given


class RoundRobin(System):
    """Every competitor meets every other once per cycle (Berger table, appendix 三). The
    added bye number of an odd field is no opponent: the bye scores nothing (appendix 三.2)."""

    name = "round-robin"
    family = "round-robin"
    rounds_from_field = True
    bye_scores = False
    default_cycles = 1

    def total_rounds(self, event: Event) -> int:
        """Berger table: n − 1 rounds for an even field, n for an odd one, times the cycles."""
        n = len(event.teams) if event.is_team_event else len(event.players)
        if n < 2:
            return event.rounds
        size = n + n % 2
        return (size - 1) * cycles(event, self.default_cycles)

    def _schedule_round(self, event: Event, count: int, number: int) -> PairedRound:
        from duiyi.tournament.pairing.round_robin import round_robin

        return translate(round_robin(count, cycles(event, self.default_cycles))[number - 1])

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        return event, self._schedule_round(event, len(event.players), number)

    def pair_teams(self, event: Event, number: int, rng: random.Random) -> PairedRound:
        return self._schedule_round(event, len(event.teams), number)


class DoubleRoundRobin(RoundRobin):
    """A round robin of two cycles unless ``options.cycles`` says otherwise."""

    name = "double-round-robin"
    default_cycles = 2


ROUND_ROBIN = register(RoundRobin())
DOUBLE_ROUND_ROBIN = register(DoubleRoundRobin())
