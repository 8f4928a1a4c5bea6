"""Lockstep with GNU Go: duiyi's board and legality agree with an independent engine.

120 random games on small boards (9×9 and 7×7, 60–100 moves each, many captures and kos) are
played move by move in duiyi and in ``gnugo --mode gtp --chinese-rules --situational-superko``.
After every move the stones of both colours must be identical (GNU Go's ``list_stones``), and
the legality of probed empty points must agree (GNU Go's ``is_legal``): captures (Go §4),
suicide (Go §5), ko and situational superko (Go §6, §20).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from duiyi import BLACK, WHITE, Color
from duiyi.engines.gtp import GtpEngine
from duiyi.go import Game, Point

GNUGO = "/usr/games/gnugo"
ARGV = [GNUGO, "--mode", "gtp", "--chinese-rules", "--situational-superko", "--level", "0"]
GAMES = 120
ENGINES = 2

pytestmark = [
    pytest.mark.slow,
    pytest.mark.gnugo,
    pytest.mark.skipif(not Path(GNUGO).exists(), reason="gnugo is not installed"),
]


class Tally:
    def __init__(self) -> None:
        self.games = 0
        self.moves = 0
        self.probes = 0
        self.illegal_probes = 0
        self.captures = 0
        self.repetition_probes = 0


def _reason(game: Game, point: Point) -> str | None:
    reason = game.illegal_reason(point)
    return None if reason is None else reason[1]


async def play_games(seeds: list[int], tally: Tally) -> None:
    engine = await GtpEngine.popen(ARGV, timeout=30)
    try:
        for seed in seeds:
            await lockstep_game(engine, random.Random(seed), tally, seed)
    finally:
        await engine.quit()


async def lockstep_game(engine: GtpEngine, rng: random.Random, tally: Tally, seed: int) -> None:
    size = rng.choice((7, 9, 9))
    length = rng.randint(60, 100)
    game = Game(size)
    await engine.boardsize(size)
    await engine.clear_board()
    await engine.komi(7.5)
    last_was_pass = False
    for number in range(1, length + 1):
        color = game.to_move
        empties = sorted(game.board.empty_points())
        legal = [p for p in empties if game.is_legal(p)]
        # Probe legality: some random empty points every move, all of them every 10th move,
        # and every point duiyi refuses as a repetition (ko, superko: Go §6, §20).
        repeats = [p for p in empties if _reason(game, p) == "Go §6"]
        tally.repetition_probes += len(repeats)
        probes = empties if number % 10 == 0 else rng.sample(empties, min(8, len(empties)))
        for p in sorted(set(probes) | set(repeats)):
            theirs = await engine.is_legal(color, p)
            ours = game.is_legal(p)
            tally.probes += 1
            tally.illegal_probes += not ours
            assert ours == theirs, f"seed {seed} move {number}: {color} {p} legal? duiyi {ours}"
        if not legal or (not last_was_pass and rng.random() < 0.03):
            if last_was_pass:
                break  # a second pass would end play (Go §7.3); stop the game here
            game.pass_move()
            await engine.play_move(color, None)
            last_was_pass = True
            continue
        last_was_pass = False
        point = rng.choice(legal)
        before = len(game.board.stones(color.opponent))
        game.play(point)
        await engine.play_move(color, point)
        tally.captures += before - len(game.board.stones(color.opponent))
        tally.moves += 1
        await compare_stones(engine, game, f"seed {seed} move {number} ({color} {point})")
    theirs = {c: int(await engine.command("captures", c.letter.lower())) for c in (BLACK, WHITE)}
    assert theirs == game.captures, f"seed {seed}: prisoners differ"
    tally.games += 1


async def compare_stones(engine: GtpEngine, game: Game, where: str) -> None:
    for c in (BLACK, WHITE):
        theirs = await engine.list_stones(c)
        ours = game.board.stones(c)
        assert ours == theirs, f"{where}: {c} stones differ: {_diff(ours, theirs)}"


def _diff(ours: frozenset[Point], theirs: frozenset[Point]) -> str:
    return f"only duiyi {sorted(map(str, ours - theirs))}, only gnugo {sorted(map(str, theirs - ours))}"


async def test_random_games_in_lockstep_with_gnugo() -> None:
    tally = Tally()
    seeds = list(range(GAMES))
    shares = [seeds[i::ENGINES] for i in range(ENGINES)]
    await asyncio.gather(*(play_games(share, tally) for share in shares))
    print(
        f"lockstep: {tally.games} games, {tally.moves} moves, {tally.captures} stones captured, "
        f"{tally.probes} legality probes ({tally.illegal_probes} illegal, "
        f"{tally.repetition_probes} refused as repetitions)"
    )
    assert tally.games == GAMES
    assert tally.captures > 1000  # the games really exercise captures
    assert tally.illegal_probes > 100  # ... and refusals (suicide, ko)
    assert tally.repetition_probes > 20  # ... including ko / superko (Go §6)


async def test_ko_retake_refusal_agrees_with_gnugo() -> None:
    # Go §20.1: the stone just captured in a ko cannot be retaken at once.
    engine = await GtpEngine.popen(ARGV, timeout=30)
    try:
        game = Game(9)
        await engine.boardsize(9)
        await engine.clear_board()
        moves = ["D5", "E5", "C4", "F4", "D3", "E3", "E4", "D4"]
        for m in moves:
            color: Color = game.to_move
            game.play(m)
            await engine.play_move(color, m)
        assert not game.is_legal("E4")
        assert not await engine.is_legal(BLACK, "E4")
        await compare_stones(engine, game, "after the ko capture")
    finally:
        await engine.quit()


# A 5×5 game found by random search: after it, Black C4 is not a simple-ko recapture but would
# recreate an earlier whole-board position with White to move, so situational superko forbids
# it (Go §6) while simple ko alone (Go §20.1) allows it.
SUPERKO_GAME = (
    "C4 E5 E3 D2 C2 C1 B4 D1 E2 A1 C3 B5 A5 A4 E1 D3 pass A2 C5 A3 B3 B2 A5 E4 E1 B5 D4 D5 "
    "E2 D4 C4 A5 C5 B3 C2 E3 E2 E1 C3 B4 C2 C5 C4 B1 pass C3 pass C2 pass E2"
)


@pytest.mark.parametrize("superko", [True, False])
async def test_a_real_superko_agrees_with_gnugo(superko: bool) -> None:
    from dataclasses import replace

    from duiyi.go import KoRule, Rules

    rules = Rules.chinese() if superko else replace(Rules.chinese(), ko_rule=KoRule.SIMPLE)
    argv = [GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "0"]
    if superko:
        argv.append("--situational-superko")
    engine = await GtpEngine.popen(argv, timeout=30)
    try:
        game = Game(5, rules)
        await engine.boardsize(5)
        await engine.clear_board()
        for m in SUPERKO_GAME.split():
            color = game.to_move
            game.play(None if m == "pass" else m)
            await engine.play_move(color, None if m == "pass" else m)
        await compare_stones(engine, game, "end of the superko game")
        assert game.to_move is BLACK
        assert game.is_legal("C4") is (not superko)
        assert await engine.is_legal(BLACK, "C4") is (not superko)
        if superko:
            assert game.illegal_reason("C4") == ("repeats an earlier whole-board position", "Go §6")
    finally:
        await engine.quit()
