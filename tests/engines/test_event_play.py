"""Events whose players are engines: `duiyi event engine` and `duiyi event play`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from duiyi.tournament.formats.eventfile import load_event

GNUGO = "/usr/games/gnugo"
needs_gnugo = pytest.mark.skipif(not Path(GNUGO).exists(), reason="gnugo is not installed")
FAKE = Path(__file__).with_name("fake_gtp.py")


def duiyi(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duiyi", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )


def results(path: Path) -> dict[tuple[int, int], str | None]:
    event = load_event(path)
    return {
        (r.number, g.board): (g.result.value if g.result else None)
        for r in event.history
        for g in r.games
    }


@needs_gnugo
def test_gnugo_round_robin_two_games_at_once(tmp_path: Path) -> None:
    ev = tmp_path / "cup.json"
    made = duiyi("event", "new", str(ev), "--game", "go", "--system", "round-robin", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    for level in (0, 1, 2, 3):
        cmd = [GNUGO, "--mode", "gtp", "--level", str(level), "--chinese-rules"]
        done = duiyi("event", "engine", str(ev), f"GnuGo-{level}", "--", *cmd, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    # round 1 only: two boards, played two at a time
    first = duiyi("event", "play", str(ev), "--round", "1", "-k", "2", "--size", "7", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("round 1 board") == 2
    got = results(ev)
    assert set(got) == {(1, 1), (1, 2)} and None not in got.values()
    # then every remaining round; the event is left ready for standings
    rest = duiyi("event", "play", str(ev), "--all-rounds", "-k", "2", "--size", "7", cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    got = results(ev)
    assert len(got) == 6 and None not in got.values()  # 4 players: 3 rounds of 2 boards
    sgfs = sorted(p.name for p in (tmp_path / "cup.games").iterdir())
    assert len(sgfs) == 6 and "round-3-board-2.sgf" in sgfs
    table = duiyi("event", "standings", str(ev), "--format", "json", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "GnuGo-3" in table.stdout
    again = duiyi("event", "play", str(ev), cwd=tmp_path)
    assert again.returncode == 0 and "complete" in again.stdout


def _fake_event(tmp_path: Path, log: Path, sleep: str) -> Path:
    ev = tmp_path / "fakes.json"
    assert (
        duiyi("event", "new", str(ev), "--game", "go", "--system", "round-robin", cwd=tmp_path)
    ).returncode == 0
    for name in ("A", "B", "C", "D"):
        cmd = [sys.executable, str(FAKE), "--moves", "C3", "--sleep-at", sleep]
        cmd += ["--name", name, "--tag", "--log", str(log)]
        done = duiyi("event", "engine", str(ev), name, "--", *cmd, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    return ev


def test_concurrency_k2_runs_the_boards_together(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    ev = _fake_event(tmp_path, log, "1:1.0")  # margin for slow process starts
    done = duiyi("event", "play", str(ev), "--round", "1", "-k", "2", "--size", "9", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    first_quit = next(i for i, line in enumerate(lines) if line.split()[2:3] == ["quit"])
    started = {line.split()[0] for line in lines[:first_quit] if " genmove " in line}
    assert started == {"A", "B", "C", "D"}  # all four engines moved before any game ended
    # with K=1 the second board starts only after the first ended
    log.unlink()
    done = duiyi("event", "play", str(ev), "--round", "2", "-k", "1", "--size", "9", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    first_quit = next(i for i, line in enumerate(lines) if line.split()[2:3] == ["quit"])
    started = {line.split()[0] for line in lines[:first_quit] if " genmove " in line}
    assert len(started) == 2


def test_interrupted_event_resumes(tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    ev = _fake_event(tmp_path, log, "1:1.5")  # each game: about 1.5 s of thinking
    proc = subprocess.Popen(
        [sys.executable, "-m", "duiyi", "event", "play", str(ev), "--all-rounds", "--size", "9"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            time.sleep(0.1)
            if ev.exists() and any(v is not None for v in _safe_results(ev).values()):
                break
        os.kill(proc.pid, signal.SIGINT)  # board 2 of round 1 is being played
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    stopped = results(ev)
    assert len(stopped) == 2, (out, err)  # round 2 was not paired
    finished = [key for key, value in stopped.items() if value is not None]
    assert len(finished) == 1  # one board done, the other was in progress
    (done_key,) = finished
    (open_key,) = set(stopped) - {done_key}
    # rerun: the finished board keeps its result, the interrupted one is replayed
    resumed = duiyi("event", "play", str(ev), "--all-rounds", "--size", "9", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"round 1 board {done_key[1]}:" not in resumed.stdout
    assert f"round 1 board {open_key[1]}:" in resumed.stdout
    final = results(ev)
    assert final[done_key] == stopped[done_key]
    assert len(final) == 6 and None not in final.values()


def _safe_results(path: Path) -> dict[tuple[int, int], str | None]:
    try:
        return results(path)
    except Exception:  # the file is being replaced
        return {}


def test_engine_without_program_is_refused(tmp_path: Path) -> None:
    ev = tmp_path / "cup.json"
    duiyi("event", "new", str(ev), "--game", "go", "--system", "swiss", cwd=tmp_path)
    bad = duiyi("event", "engine", str(ev), "X", "--", str(tmp_path / "nothing"), cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert json.loads(ev.read_text())["players"] == []


BRAINS = Path(__file__).resolve().parent.parent / "gomoku" / "engines"


def _brain_event(tmp_path: Path, system: str, names: tuple[str, ...]) -> Path:
    ev = tmp_path / "renju.json"
    made = duiyi("event", "new", str(ev), "--game", "gomoku", "--system", system, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    for name in names:
        cmd = [sys.executable, str(BRAINS / f"{name.split('-')[0]}.py")]
        done = duiyi("event", "engine", str(ev), name, "--", *cmd, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    return ev


def test_gomoku_event_plays_the_books_rules_with_drawn_openings(tmp_path: Path) -> None:
    # Gomoku §3.2: under the book's rules (the default preset, chinese-2013) every game starts
    # from one of the 26 designated openings; the arbiter draws it from the seed recorded in
    # the event, so the opening of a board is known before and after any rerun.
    import random

    from duiyi.gomoku.match import pick_opening
    from duiyi.gomoku.notation import parse_psq
    from duiyi.gomoku.rules import RenjuRules

    ev = _brain_event(tmp_path, "round-robin", ("greedy", "lattice", "greedy-2", "lattice-2"))
    done = duiyi("event", "play", str(ev), "--round", "1", "--seed", "7", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    options = json.loads(ev.read_text())["options"]
    assert options["rules"] == "chinese-2013" and options["seed"] == 7
    for board in (1, 2):
        drawn = pick_opening(RenjuRules.chinese_2013(), random.Random(f"7:1:{board}"))
        assert drawn is not None
        name, stones = drawn
        assert f"round 1 board {board} [{name}]:" in done.stdout
        psq = parse_psq((tmp_path / "renju.games" / f"round-1-board-{board}.psq").read_text())
        assert psq.moves[:3] == list(stones)
        assert psq.times[:3] == [0, 0, 0] and len(psq.times) > 3  # the brains' moves follow
    # the recorded rules and seed hold for the rest of the event
    other = duiyi("event", "play", str(ev), "--rules", "free", cwd=tmp_path)
    assert other.returncode == 2 and other.stderr.count("\n") == 1
    assert "chinese-2013" in other.stderr
    again = duiyi("event", "play", str(ev), "--round", "2", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    drawn = pick_opening(RenjuRules.chinese_2013(), random.Random("7:2:1"))
    assert drawn is not None and f"round 2 board 1 [{drawn[0]}]:" in again.stdout


def test_gomoku_event_of_brains(tmp_path: Path) -> None:
    # Gomoku events play Gomocup brains (here the free opening, Gomoku §3.3) and enter the results
    ev = tmp_path / "renju.json"
    made = duiyi(
        "event", "new", str(ev), "--game", "gomoku", "--system", "round-robin", cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    for name in ("greedy", "lattice", "crash"):
        cmd = [sys.executable, str(BRAINS / f"{name}.py")]
        assert duiyi("event", "engine", str(ev), name, "--", *cmd, cwd=tmp_path).returncode == 0
    done = duiyi(
        "event", "play", str(ev), "--all-rounds", "-k", "2", "--rules", "free", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    got = results(ev)
    assert len(got) == 3 and None not in got.values()  # 3 players: 3 rounds of 1 board
    assert "Gomoku §10.1(3)D" in done.stdout  # the crashing brain withdrew from its games
    sgf = (tmp_path / "renju.games" / "round-1-board-1.sgf").read_text(encoding="utf-8")
    assert "GM[4]" in sgf and "Time used" in sgf


def test_drawn_knockout_game_is_replayed_then_decided_by_lot(tmp_path: Path) -> None:
    # Go appendix 一 / Gomoku §17.1: one of the two must go through. Two fillers always draw
    # on a full board (Gomoku §10.2(3)); the board is replayed with colours reversed (the
    # 加赛 of Go §27.3, colours alternating as in Gomoku §5.1(2)) up to options.draw_replays
    # times (default 2), then decided by lot (抽签, Gomoku §18.3(1)C) from the recorded seed.
    import random

    ev = _brain_event(tmp_path, "knockout", ("filler", "filler-2"))
    done = duiyi("event", "play", str(ev), "--rules", "free", "--seed", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    games = sorted(p.name for p in (tmp_path / "renju.games").glob("*.sgf"))
    assert games == [
        "round-1-board-1-replay-1.sgf",
        "round-1-board-1-replay-2.sgf",
        "round-1-board-1.sgf",
    ]
    assert done.stdout.count("replayed with colours reversed") == 2
    assert "filler (B) - filler-2 (W)" in done.stdout
    assert "filler-2 (B) - filler (W)" in done.stdout  # colours reversed for the replay
    assert "by lot" in done.stdout
    board = json.loads(ev.read_text())["history"][0]["games"][0]
    assert board["replays"] == 2 and board["source"] == "arbiter"
    assert [e["value"]["result"] for e in board["trail"]] == ["draw", "draw", "draw"]
    # the lot is the seed's: Random("seed:lot:round:board"); the game stays drawn, the lot
    # (kept with its seed) names who goes through
    colour = random.Random("3:lot:1:1").choice(("black", "white"))
    assert board["result"] == "draw"
    assert board["lot"] == {"winner": colour, "seed": "3:lot:1:1"}
    assert (
        "all 1 rounds are paired and complete"
        in duiyi("event", "play", str(ev), cwd=tmp_path).stdout
    )


def test_drawn_knockout_game_refused_by_option(tmp_path: Path) -> None:
    # options.knockout_draw=refuse: the director decides; event play stops with one line
    ev = _brain_event(tmp_path, "knockout", ("filler", "filler-2"))
    data = json.loads(ev.read_text())
    data["options"]["knockout_draw"] = "refuse"
    ev.write_text(json.dumps(data))
    done = duiyi("event", "play", str(ev), "--rules", "free", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "needs a winner" in done.stderr


def test_jigo_in_a_go_knockout_is_replayed_with_colours_reversed(tmp_path: Path) -> None:
    # Go §9, §11: 7x7 under the Ing preset (area in points, komi 8): a black wall on column D
    # and a white wall on E1-E6 + F7 leave E7 neutral (½ each), 28½ - 20½ = the komi: jigo.
    # A knockout game needs a winner (Go appendix 一): the board is replayed with colours
    # reversed (Go §27.3, docs/decisions.md), and the reversed walls give White the game.
    ev = tmp_path / "cup.json"
    made = duiyi("event", "new", str(ev), "--game", "go", "--system", "knockout", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    walls = {"D-wall": "D1,D2,D3,D4,D5,D6,D7", "E-wall": "E1,E2,E3,E4,E5,E6,F7"}
    for name, moves in walls.items():
        cmd = [sys.executable, str(FAKE), "--moves", moves, "--name", name]
        assert duiyi("event", "engine", str(ev), name, "--", *cmd, cwd=tmp_path).returncode == 0
    done = duiyi("event", "play", str(ev), "--rules", "ing", "--size", "7", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "D-wall (B) - E-wall (W) 0" in done.stdout  # jigo (SGF RE[0])
    assert "replayed with colours reversed (replay 1 of 2" in done.stdout
    assert "E-wall (B) - D-wall (W) W+16" in done.stdout
    board = json.loads(ev.read_text())["history"][0]["games"][0]
    assert (board["black"], board["white"], board["result"]) == (2, 1, "0-1")
    assert board["replays"] == 1 and board["trail"][0]["value"]["result"] == "draw"
    games = tmp_path / "cup.games"
    assert "RE[0]" in (games / "round-1-board-1.sgf").read_text()
    assert "RE[W+16]" in (games / "round-1-board-1-replay-1.sgf").read_text()
