"""One engine layer: external programs driven over line protocols, refereed by duiyi.

* :mod:`duiyi.engines.process`: :class:`~duiyi.engines.process.LineProcess`, a child process
  spoken to in lines (start, send, read with a deadline, suspend, kill);
* :mod:`duiyi.engines.sync`: :class:`~duiyi.engines.sync.BackgroundLoop`, the one synchronous
  facade's event loop thread;
* :mod:`duiyi.engines.gtp`: Go engines over GTP v2;
* :mod:`duiyi.engines.gomocup`: Gomoku brains over the Gomocup (Piskvork) protocol;
* :mod:`duiyi.engines.match`: refereed Go engine matches (clock, rulings, score, Elo).

Nothing is imported here, so ``import duiyi.engines`` stays cheap; import the submodule you
need. Engine errors are in :mod:`duiyi.errors` (``EngineError`` and its subclasses).
"""
