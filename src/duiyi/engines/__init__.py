"""One engine layer: external programs driven over line protocols, refereed by duiyi.

* :mod:`duiyi.engines.process`: :class:`~duiyi.engines.process.LineProcess`, a child process
  spoken to in lines (start, send, read with a deadline, suspend, kill);
* :mod:`duiyi.engines.protocol`: :class:`~duiyi.engines.protocol.EngineProtocol`, the one
  protocol base (life cycle, labels, thinking time) beneath GTP and Gomocup;
* :mod:`duiyi.engines.gtp`: Go engines over GTP v2;
* :mod:`duiyi.engines.gomocup`: Gomoku brains over the Gomocup (Piskvork) protocol;
* :mod:`duiyi.engines.sync`: the one synchronous facade (:class:`~duiyi.engines.sync.SimpleEngine`,
  with :class:`~duiyi.engines.sync.SimpleGtpEngine` and
  :class:`~duiyi.engines.sync.SimpleGomocupEngine`) on a background event loop thread;
* :mod:`duiyi.engines.refereed`: the one refereed-game loop (two players answering
  ``play(position, limits)``, played through a :class:`~duiyi.session.Session`);
* :mod:`duiyi.engines.match`: refereed Go engine matches (GTP's part of the loop, score, Elo);
* :mod:`duiyi.engines.gomocup_match`: refereed Gomocup games and matches, with their clock
  (:mod:`duiyi.engines.gomocup_clock`) and score (:mod:`duiyi.engines.tally`);
* :mod:`duiyi.engines.score`: a match's score and Elo figures (pure).

Nothing is imported here, so ``import duiyi.engines`` stays cheap; import the submodule you
need. Engine errors are in :mod:`duiyi.errors` (``EngineError`` and its subclasses).
"""
