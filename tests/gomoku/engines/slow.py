"""A slow brain: the lattice player that sleeps before every move (``--delay``, default 1 s)."""

from __future__ import annotations

import sys

from lattice import Lattice

if __name__ == "__main__":
    args = sys.argv[1:]
    Lattice(args if "--delay" in args else ["--delay", "1.0", *args]).run()
