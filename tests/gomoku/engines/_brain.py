"""A tiny Gomocup brain skeleton shared by the test engines (not part of duiyi).

Each script subclasses :class:`Brain` and overrides :meth:`Brain.choose`. Options every script
understands: ``--delay SECONDS`` (sleep before each move), ``--seed N``, ``--eol lf|cr|crlf`` (how
lines end, to exercise the manager's line splitting) and ``--chatty`` (MESSAGE/DEBUG before moves).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Brain:
    name = "test-brain"

    def __init__(self, argv: list[str]) -> None:
        parser = argparse.ArgumentParser()
        parser.add_argument("--delay", type=float, default=0.0)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--eol", choices=("lf", "cr", "crlf"), default="lf")
        parser.add_argument("--chatty", action="store_true")
        parser.add_argument("--echo", action="store_true", help="DEBUG every raw input line")
        parser.add_argument("--only-size", type=int, default=0, help="refuse other sizes")
        parser.add_argument("--no-restart", action="store_true", help="UNKNOWN to RESTART")
        self.add_arguments(parser)
        self.args = parser.parse_args(argv)
        self.eol = {"lf": "\n", "cr": "\r", "crlf": "\r\n"}[self.args.eol]
        self.rng = random.Random(self.args.seed)
        self.size = 0
        self.info: dict[str, str] = {}
        self.stones: dict[tuple[int, int], int] = {}  # 1 own, 2 opponent
        self.moves_made = 0

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Hook for script-specific options."""

    # -- output ---------------------------------------------------------------------------
    def send(self, line: str) -> None:
        sys.stdout.write(line + self.eol)
        sys.stdout.flush()

    # -- the loop -------------------------------------------------------------------------
    def run(self) -> None:
        board_mode = False
        pending: list[tuple[int, int, int]] = []
        for raw in sys.stdin.buffer:
            if self.args.echo:
                self.send(f"DEBUG {raw!r}")
            line = raw.decode().strip()
            if not line:
                continue
            if board_mode:
                if line.upper() == "DONE":
                    board_mode = False
                    self.stones = {(x, y): f for x, y, f in pending}
                    self.move()
                else:
                    x, y, f = (int(v) for v in line.split(","))
                    pending.append((x, y, f))
                continue
            word, _, rest = line.partition(" ")
            word = word.upper()
            if word == "START":
                self.size = int(rest)
                self.stones = {}
                if self.args.only_size and self.size != self.args.only_size:
                    self.send(f"ERROR unsupported size {self.size}, I play {self.args.only_size}")
                else:
                    self.send("OK")
            elif word == "RESTART" and self.args.no_restart:
                self.send("UNKNOWN RESTART is not implemented")
            elif word == "RESTART":
                self.stones = {}
                self.send("OK")
            elif word == "INFO":
                key, _, value = rest.partition(" ")
                self.info[key] = value
            elif word == "BEGIN":
                self.move()
            elif word == "TURN":
                x, y = (int(v) for v in rest.split(","))
                self.stones[(x, y)] = 2
                self.move()
            elif word == "BOARD":
                board_mode = True
                pending = []
            elif word == "ABOUT":
                self.send(f'name="{self.name}", version="1.0", author="duiyi tests", country="CN"')
            elif word == "END":
                return
            else:
                self.send(f"UNKNOWN command {word}")

    def move(self) -> None:
        if self.args.delay:
            time.sleep(self.args.delay)
        x, y = self.choose()
        self.stones[(x, y)] = 1
        self.moves_made += 1
        if self.args.chatty:
            self.send(f"DEBUG thinking about {x},{y}")
            self.send(f"MESSAGE move {self.moves_made}")
        self.send(f"{x},{y}")

    def choose(self) -> tuple[int, int]:
        raise NotImplementedError

    # -- helpers --------------------------------------------------------------------------
    def empty(self) -> list[tuple[int, int]]:
        return [
            (x, y) for y in range(self.size) for x in range(self.size) if (x, y) not in self.stones
        ]

    def run_through(self, x: int, y: int, who: int, dx: int, dy: int) -> int:
        """Length of who's line through the empty point (x, y) if who played there."""
        n = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while self.stones.get((cx, cy)) == who:
                n += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        return n

    def best_run(self, x: int, y: int, who: int) -> int:
        return max(self.run_through(x, y, who, dx, dy) for dx, dy in DIRECTIONS)
