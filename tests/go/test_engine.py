"""The asyncio GTP controller: commands, errors, timeouts, the synchronous facade, GNU Go."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from duiyi import BLACK, WHITE
from duiyi.engines.gtp import GtpEngine, effective_komi_points, play_game
from duiyi.engines.sync import SimpleGtpEngine
from duiyi.errors import EngineCrashed, EngineError, GtpError, InvalidInput
from duiyi.go import Game, Point

GNUGO = "/usr/games/gnugo"
DUIYI_GTP = [sys.executable, "-m", "duiyi", "gtp", "--seed", "5"]

needs_gnugo = pytest.mark.skipif(not Path(GNUGO).exists(), reason="gnugo is not installed")

# A misbehaving engine: answers protocol_version, then acts on a few magic commands.
FAKE = textwrap.dedent(
    """
    import sys, time
    for line in sys.stdin:
        words = line.split()
        cid, name = words[0], words[1]
        if name == "protocol_version":
            print("some chatter on stdout")
            out = "=" + cid + " 2"
        elif name == "sleep":
            time.sleep(30)
            out = "=" + cid
        elif name == "crash":
            sys.exit(3)
        elif name == "wrongid":
            out = "=999 ok"
        elif name == "multi":
            out = "=" + cid + " first\\nsecond\\nthird"
        elif name == "genmove":
            out = "=" + cid + " " + {"b": "resign", "w": "banana"}[words[2]]
        elif name == "quit":
            print("=" + cid + "\\n", flush=True)
            break
        else:
            out = "?" + cid + " unknown command"
        print(out + "\\n", flush=True)
    """
)


@pytest.fixture
def fake_argv(tmp_path: Path) -> list[str]:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE)
    return [sys.executable, str(script)]


async def test_duiyi_front_end_as_an_engine() -> None:
    engine = await GtpEngine.popen(DUIYI_GTP)
    async with engine:
        assert await engine.name() == "duiyi"
        assert "genmove" in await engine.list_commands()
        assert await engine.known_command("play")
        await engine.boardsize(9)
        await engine.play_move(BLACK, "E5")
        with pytest.raises(GtpError, match="illegal move"):
            await engine.play_move(WHITE, Point.parse("E5"))
        move = await engine.genmove(WHITE)
        assert isinstance(move, Point) and move != Point.parse("E5", size=9)
        assert await engine.list_stones(BLACK) == {Point.parse("E5")}
        assert await engine.is_legal(WHITE, "E5") is False
        await engine.undo()
        assert await engine.list_stones(WHITE) == frozenset()
        assert (await engine.final_score()).startswith(("B+", "W+"))
    assert engine.closed
    assert engine.process is not None and engine.process.returncode == 0


async def test_set_position_with_handicap_mirrors_the_game() -> None:
    game = Game(9, handicap=2)
    for m in ("E5", "C5", "E3", "D4"):
        game.play(m)
    async with await GtpEngine.popen(DUIYI_GTP) as engine:
        await engine.set_position(game)
        assert await engine.list_stones(BLACK) == game.board.stones(BLACK)
        assert await engine.list_stones(WHITE) == game.board.stones(WHITE)


def test_effective_komi() -> None:
    # Go §11: 3¾ stones = 7.5 points; a handicap game: no komi, ½ stone back per stone.
    assert effective_komi_points(Game(9)) == 7.5
    assert effective_komi_points(Game(9, handicap=3)) == 3


async def test_timeout_kills_the_engine(fake_argv: list[str]) -> None:
    engine = await GtpEngine.popen(fake_argv, timeout=5)
    with pytest.raises(EngineError, match="did not answer"):
        await engine.command("sleep", timeout=0.3)
    assert engine.closed
    with pytest.raises(EngineError, match="closed"):
        await engine.command("name")


async def test_crash_and_protocol_errors(fake_argv: list[str]) -> None:
    engine = await GtpEngine.popen(fake_argv, timeout=5)
    assert await engine.command("multi") == "first\nsecond\nthird"
    assert await engine.genmove(BLACK) == "resign"
    with pytest.raises(EngineError, match="not a vertex"):
        await engine.genmove(WHITE)
    with pytest.raises(GtpError, match="unknown command"):
        await engine.command("frobnicate")
    with pytest.raises(EngineError, match="answered id 999"):
        await engine.command("wrongid")
    engine = await GtpEngine.popen(fake_argv, timeout=5)
    with pytest.raises(EngineCrashed, match="exited with exit status 3") as crashed:
        await engine.command("crash")
    assert crashed.value.returncode == 3
    with pytest.raises(InvalidInput):
        await GtpEngine.command(engine, "play", "b\nquit")


async def test_popen_failures(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="cannot start"):
        await GtpEngine.popen([str(tmp_path / "no-such-engine")])
    with pytest.raises(EngineError, match="does not speak GTP"):
        await GtpEngine.popen([sys.executable, "-c", "print('hello')"], timeout=5)
    with pytest.raises(InvalidInput):
        await GtpEngine.popen([])


def test_simple_engine_facade() -> None:
    with SimpleGtpEngine.popen(DUIYI_GTP) as engine:
        engine.boardsize(9)
        engine.play("b", "C3")
        assert engine.list_stones("b") == {Point.parse("C3")}
        assert engine.command("name") == "duiyi"
        assert engine.name() == "duiyi"  # any coroutine method works through the facade
        move = engine.genmove("w")
        assert move is None or isinstance(move, Point)


@needs_gnugo
async def test_gnugo_plays_a_whole_game_with_duiyi_as_referee() -> None:
    # Every GNU Go move is checked by duiyi's rules (Go §2–§6); the game ends by two passes.
    game = Game(9)
    argv = [GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "0"]
    async with await GtpEngine.popen(argv) as engine:
        await engine.set_position(game)
        while game.phase.value == "playing" and len(game.moves) < 200:
            move = await engine.genmove(game.to_move)
            if move == "resign":
                game.resign()
                break
            game.play(move)
        assert game.phase.value in ("counting", "finished")
        assert await engine.list_stones(BLACK) == game.board.stones(BLACK)
        score = await engine.final_score()
        assert score[:2] in ("B+", "W+") or score == "0"
        dead = await engine.final_status_list("dead")
        assert all(game.board.get(p) is not None for p in dead)


@needs_gnugo
def test_gnugo_through_the_sync_facade() -> None:
    with SimpleGtpEngine.popen([GNUGO, "--mode", "gtp", "--level", "0"]) as engine:
        engine.boardsize(9)
        engine.komi(7.5)
        move = engine.genmove(BLACK)
        assert isinstance(move, Point) and move.on_board(9)
        assert engine.is_legal(WHITE, move) is False


@needs_gnugo
async def test_engine_match_refereed_by_duiyi() -> None:
    # GNU Go (Black) against duiyi's random player (White) on 9×9: every move checked by duiyi,
    # two passes, dead stones by the life engine, then the count (Go §7–§9).
    gnugo = await GtpEngine.popen(["gnugo", "--mode", "gtp", "--chinese-rules", "--level", "0"])
    rand = await GtpEngine.popen(DUIYI_GTP)
    try:
        game = await play_game(gnugo, rand, size=9, max_moves=400)
        assert game.is_over
        assert await gnugo.list_stones(BLACK) == game.board.stones(BLACK)
        assert await rand.list_stones(WHITE) == game.board.stones(WHITE)
        outcome = game.outcome()
        assert outcome is not None and outcome.winner is BLACK  # a real engine beats random play
    finally:
        await gnugo.quit()
        await rand.quit()
