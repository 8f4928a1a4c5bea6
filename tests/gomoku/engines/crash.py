"""A brain that starts fine and then dies: exits with status 3 when asked for move number
``--after`` + 1 (default: the first move it is asked for)."""

from __future__ import annotations

import argparse
import sys

from _brain import Brain


class Crash(Brain):
    name = "crash"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--after", type=int, default=0)

    def choose(self) -> tuple[int, int]:
        if self.moves_made >= self.args.after:
            sys.exit(3)
        for y in range(0, self.size, 3):
            for x in range(0, self.size, 3):
                if (x, y) not in self.stones:
                    return (x, y)
        return self.empty()[0]


if __name__ == "__main__":
    Crash(sys.argv[1:]).run()
