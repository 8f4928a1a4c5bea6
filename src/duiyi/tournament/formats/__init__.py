"""Adapters between events and files: the event file itself (atomic writes), players and results
CSV, OpenGotha XML and the printable wall chart. The only place of the tournament room that
touches files.

>>> from duiyi.tournament.formats.csvfiles import parse_players
>>> [p.name for p in parse_players("name,rank,rating,club\\nLi,3d,2300,Beijing\\n")]
['Li']
"""
