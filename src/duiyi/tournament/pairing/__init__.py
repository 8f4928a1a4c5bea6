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
from .double_elimination import double_elimination
from .groups import group_round_robins, serpentine_groups
from .knockout import Bracket, Match, Slot, bracket_lines, knockout
from .matches import MatchGame, MatchStatus, match_schedule, match_status, wins_needed
from .mcmahon import McMahonPlayer, initial_score, pair_mcmahon, parse_rank
from .relay import RelayState, relay
from .round_robin import berger_table, round_robin
from .swiss import (
    SuggestedRounds,
    SwissPlayer,
    colours_for,
    knockout_rounds,
    pair_swiss,
    record_round,
    suggested_rounds,
)
from .swiss_elimination import Elimination, EliminationEntry, eliminate, elimination_plan
from .teams import check_lineup, scheveningen, team_match, team_totals

__all__ = [
    "Bracket",
    "Elimination",
    "EliminationEntry",
    "Match",
    "MatchGame",
    "MatchStatus",
    "McMahonPlayer",
    "Pairing",
    "RelayState",
    "Round",
    "Slot",
    "SuggestedRounds",
    "SwissPlayer",
    "berger_table",
    "bracket_lines",
    "check_lineup",
    "colours_for",
    "double_elimination",
    "eliminate",
    "elimination_plan",
    "group_round_robins",
    "initial_score",
    "knockout",
    "knockout_rounds",
    "match_schedule",
    "match_status",
    "nigiri",
    "nigiri_gomoku",
    "pair_mcmahon",
    "pair_swiss",
    "parse_rank",
    "record_round",
    "relay",
    "round_robin",
    "scheveningen",
    "serpentine_groups",
    "suggested_rounds",
    "team_match",
    "team_totals",
    "wins_needed",
]
