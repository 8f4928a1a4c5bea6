"""A harmless legal brain: plays the free points of a lattice with step 3 (x, y multiples of 3),
so it never makes a five, a four or a three (hence never a forbidden move); falls back to the
first empty point. ``--delay`` makes it a slow brain."""

from __future__ import annotations

import sys

from _brain import Brain


class Lattice(Brain):
    name = "lattice"

    def choose(self) -> tuple[int, int]:
        for y in range(0, self.size, 3):
            for x in range(0, self.size, 3):
                if (x, y) not in self.stones:
                    return (x, y)
        return self.empty()[0]


if __name__ == "__main__":
    Lattice(sys.argv[1:]).run()
