"""Pairing systems of Go appendix 一–六 and Gomoku §16–17, as pure functions.

Every system takes its own small, typed input values and returns :class:`Round` values (or a
bracket), never touching the event model; randomness comes only from an injected
``random.Random``.

- :mod:`.round_robin`: Berger tables, single/double/multiple cycles (appendix 三);
- :mod:`.groups`: serpentine seeding into groups (appendix 四);
- :mod:`.swiss`: 积分编排 (appendix 五), with ``explain`` reasons;
- :mod:`.mcmahon`: McMahon scores (bar, floor) fed to the Swiss pairer;
- :mod:`.swiss_elimination`: progressive elimination (appendix 六);
- :mod:`.knockout` and :mod:`.double_elimination`: brackets (appendix 一, 二, Gomoku §18.2);
- :mod:`.matches`: best-of-N matches (Go §26.5); :mod:`.relay`: 擂台赛 (Go §26.6,
  Gomoku §17.5); :mod:`.teams`: team boards, lineups, Scheveningen (Go §25.2, Gomoku §16.2).

>>> from duiyi.tournament.pairing import round_robin
>>> round_robin(4)[0].to_json()["pairings"][0]
{'board': 1, 'black': 1, 'white': 4}
"""

from __future__ import annotations

from .common import Pairing, Round, nigiri, nigiri_gomoku
from .round_robin import berger_table, round_robin

__all__ = [
    "Pairing",
    "Round",
    "berger_table",
    "nigiri",
    "nigiri_gomoku",
    "round_robin",
]
