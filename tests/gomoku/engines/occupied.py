"""A brain that answers every TURN with the opponent's own point (occupied), opens at the
centre and answers BOARD with the last stone given. ``--offboard`` answers 99,99 instead."""

from __future__ import annotations

import argparse
import sys

from _brain import Brain


class Occupied(Brain):
    name = "occupied"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--offboard", action="store_true")

    def choose(self) -> tuple[int, int]:
        if self.args.offboard:
            return (99, 99)
        opponent = [p for p, f in self.stones.items() if f == 2]
        return opponent[-1] if opponent else (self.size // 2, self.size // 2)


if __name__ == "__main__":
    Occupied(sys.argv[1:]).run()
