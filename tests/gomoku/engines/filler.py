"""A brain that fills the board without ever making five: it plays the first empty point of
its colour in the pattern "Black where (column + 2 * row) // 2 is even" (book coordinates,
row 0 at the bottom), which has no three in a row anywhere. Two fillers draw on a full board
(Gomoku §10.2(3)); the board being full, Black's pattern has one point more than White's."""

from __future__ import annotations

import sys

from _brain import Brain


class Filler(Brain):
    name = "filler"

    def choose(self) -> tuple[int, int]:
        black = len(self.stones) % 2 == 0
        for y in range(self.size):
            for x in range(self.size):
                row = self.size - 1 - y  # Gomocup y counts from the top
                mine = ((x + 2 * row) // 2) % 2 == 0
                if mine == black and (x, y) not in self.stones:
                    return (x, y)
        return self.empty()[0]


if __name__ == "__main__":
    Filler(sys.argv[1:]).run()
