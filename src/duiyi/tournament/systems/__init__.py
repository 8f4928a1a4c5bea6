"""Competition systems, one object each behind a small interface, registered by name.

Every system is a :class:`~duiyi.tournament.systems.base.System`: it gives the event's number
of rounds, pairs the next round, says what a withdrawal does to the player's results and what
stage follows the main one. :func:`of` finds the system of an event, :func:`get` one by name.

- :mod:`.round_robin`: round robin, double round robin (appendix 三);
- :mod:`.swiss`: Swiss (appendix 五), McMahon, Swiss with progressive elimination (appendix 六);
- :mod:`.elimination`: knockout (appendix 一), double elimination (appendix 二);
- :mod:`.groups`: groups, then an optional final stage (appendix 四, Gomoku §17.4);
- :mod:`.matches`: best-of-N match (Go §26.5), relay between teams (Go §26.6, Gomoku §17.5).

Team events (Go §25.2, Gomoku §16.2) use the same objects: round robin and Swiss pair the
teams and lay out their boards; the relay is played between teams only.

>>> names()
['round-robin', 'double-round-robin', 'swiss', 'mcmahon', 'swiss-elimination', 'knockout', 'double-elimination', 'groups', 'match', 'relay']
>>> get("mcmahon").family, get("knockout").rounds_from_field
('swiss', True)
"""

from __future__ import annotations

from duiyi.errors import TournamentError
from duiyi.tournament.model import SYSTEMS, Event
from duiyi.tournament.systems import elimination, groups, matches, round_robin, swiss
from duiyi.tournament.systems.base import (
    FinalStage,
    PairedRound,
    System,
    register,
    registered,
)

__all__ = [
    "FinalStage",
    "PairedRound",
    "System",
    "get",
    "names",
    "of",
    "register",
    "registered",
]

_MODULES = (round_robin, swiss, elimination, groups, matches)


def names() -> list[str]:
    """The registered systems' names (aliases left out), in the event file's order."""
    found = {system.name for system in registered().values()}
    return sorted(found, key=lambda n: (SYSTEMS.index(n) if n in SYSTEMS else len(SYSTEMS), n))


def get(name: str) -> System:
    """The system registered as ``name``.

    >>> get("swiss-elimination").name
    'swiss-elimination'
    >>> get("ladder")
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: unknown system 'ladder' (known: round-robin, double-round-robin, swiss, mcmahon, swiss-elimination, knockout, double-elimination, groups, match, relay)
    """
    found = registered().get(name.strip().lower())
    if found is None:
        raise TournamentError(
            f"unknown system {name!r} (known: {', '.join(names())})",
            code="unknown-system",
            values={"system": str(name)},
        )
    return found


def of(event: Event) -> System:
    """The system an event is played under."""
    return get(event.system)
