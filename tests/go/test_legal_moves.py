"""legal_moves() by whole-board bit operations equals the one-point-at-a-time rules check.

For every position of seeded random games (small boards, so that captures, kos, suicide points
and repetitions are frequent), the set given by ``Game.legal_moves()`` must be exactly the empty
points that ``Game.is_legal`` accepts: occupied points (Go §2), suicide (Go §5, or the rule set's
allowed suicide), simple ko (Go §20.1) and positional/situational superko (Go §6).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from duiyi.go import Game, Phase, Rules
from duiyi.go.rules import KoRule

RULES = {
    "chinese": Rules.chinese(),
    "japanese": Rules.japanese(),
    "positional": replace(Rules.chinese(), ko_rule=KoRule.POSITIONAL),
    "nz": Rules.nz(),  # suicide allowed
    "ing": Rules.ing(),  # multi-stone suicide only
    "tromp-taylor": Rules.tromp_taylor(),
}


@pytest.mark.parametrize("name", list(RULES))
def test_legal_moves_equal_point_by_point_check(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    positions = refused = 0
    for _ in range(12):
        game = Game(rng.choice((5, 6, 7)), rules)
        for _ in range(rng.randint(40, 160)):
            if game.phase is not Phase.PLAYING:
                break
            fast = set(game.legal_moves())
            empty = game.board.empty_points()
            slow = {p for p in empty if game.is_legal(p)}
            assert fast == slow, (name, str(game))
            assert game.legal_moves().count() == len(slow)
            positions += 1
            refused += len(empty) - len(slow)
            # mostly legal moves, sometimes a pass; no eye filling rule, so suicides and kos
            # keep coming up
            r = rng.random()
            if r < 0.05 and len(game.actions) > 1:
                game.undo()  # undo restores the position and its repetition history
            elif slow and r > 0.08:
                game.play(rng.choice(sorted(slow, key=lambda p: (p.row, p.col))))
            else:
                game.pass_move()
    assert positions > 500 and refused > 30
