"""Tournaments under Go §25–28 (and appendix) and Gomoku §16–18.

The room is split by concern:

- :mod:`duiyi.tournament.model`: players, rounds, pairings, the event (JSON round trip, ``"v": 1``);
- :mod:`duiyi.tournament.results`: game results, points (Go 2/1/0, Gomoku 1/½/0), team matches;
- :mod:`duiyi.tournament.tiebreaks`: SB, Buchholz, total score (Go §27.1(2)A), ...;
- :mod:`duiyi.tournament.standings`: the default chains of each book and a total order by lot;
- :mod:`duiyi.tournament.withdrawal`: Go §28 and Gomoku §18.5;
- :mod:`duiyi.tournament.promotion`: the Go appendix tables 四 and 五;
- :mod:`duiyi.tournament.systems`: one object per competition system (rounds, pairing through
  ``duiyi.tournament.pairing``, withdrawal effect, final stage), registered by name;
- :mod:`duiyi.tournament.event`: the director's operations, asking the event's system;
- :mod:`duiyi.tournament.formats`: OpenGotha XML and CSV adapters (the only file I/O).

>>> from duiyi.tournament.results import GameResult, Scoring
>>> Scoring.go().points(GameResult.parse("1-0"), black=True)
Fraction(2, 1)
"""
