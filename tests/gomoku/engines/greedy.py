"""A legal greedy brain: makes a five when it can, blocks the opponent's five, else extends its
longest line (random tie-break, ``--seed``). Never plays an occupied point."""

from __future__ import annotations

import sys

from _brain import Brain


class Greedy(Brain):
    name = "greedy"

    def choose(self) -> tuple[int, int]:
        centre = (self.size // 2, self.size // 2)
        if not self.stones:
            return centre
        near = [
            p
            for p in self.empty()
            if any(
                (p[0] + dx, p[1] + dy) in self.stones
                for dx in (-2, -1, 0, 1, 2)
                for dy in (-2, -1, 0, 1, 2)
            )
        ] or self.empty()
        # black under renju (rule bit 4): only an exact five wins, an overline is a foul
        black = len(self.stones) % 2 == 0
        renju = int(self.info.get("rule", "0") or 0) & 4 and black
        fives = [p for p in near if self.best_run(*p, who=1) >= 5]
        if renju:
            fives = [p for p in fives if self.best_run(*p, who=1) == 5]
        if fives:
            return min(fives)
        blocks = [p for p in near if self.best_run(*p, who=2) >= 5]
        if blocks:
            return min(blocks)

        def score(p: tuple[int, int]) -> tuple[int, float]:
            return (10 * self.best_run(*p, who=1) + 9 * self.best_run(*p, who=2), self.rng.random())

        return max(near, key=score)


if __name__ == "__main__":
    Greedy(sys.argv[1:]).run()
