"""A brain that answers START and then never answers a move (it keeps reading its input)."""

from __future__ import annotations

import sys

for raw in sys.stdin:
    word = raw.strip().upper()
    if word.startswith("START") or word == "RESTART":
        print("OK", flush=True)
    elif word == "END":
        break
