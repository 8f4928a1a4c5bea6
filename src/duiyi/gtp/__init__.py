"""GTP, the Go Text Protocol, at duiyi's edge: what reads and writes GTP text, kept out of the
pure cores (``duiyi.go`` and ``duiyi.clock`` know nothing of it).

* :mod:`duiyi.gtp.frontend`: duiyi as a GTP v2 engine, a rules-exact board for GUIs
  (``GtpFrontEnd``, and ``run`` on standard input and output: ``duiyi gtp``).
* :mod:`duiyi.gtp.clock`: a clock's time system as GTP ``time_settings``, KGS
  ``kgs-time_settings`` and ``time_left``, and back.

Engines spoken to over GTP are the adapter :mod:`duiyi.engines.gtp`, which uses the second.

>>> from duiyi.clock import ChineseByoyomi
>>> from duiyi.gtp.clock import kgs_time_settings
>>> kgs_time_settings(ChineseByoyomi(base=3600, reserved_minutes=5)).command
'kgs-time_settings byoyomi 3600 60 5'
>>> from duiyi.gtp.frontend import GtpFrontEnd
>>> GtpFrontEnd(seed=1).handle("protocol_version")
'= 2\\n\\n'
"""
