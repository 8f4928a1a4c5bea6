"""A brain that starts fine and then dies: exits with status 3 when asked for move number
``--after`` + 1 (default: the first move it is asked for); until then it plays like the
lattice brain."""

from __future__ import annotations

import argparse
import sys

from lattice import Lattice


class Crash(Lattice):
    name = "crash"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--after", type=int, default=0)

    def choose(self) -> tuple[int, int]:
        if self.moves_made >= self.args.after:
            sys.exit(3)
        return super().choose()


if __name__ == "__main__":
    Crash(sys.argv[1:]).run()
