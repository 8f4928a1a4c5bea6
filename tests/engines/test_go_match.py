"""Refereed Go engine matches: real GNU Go games and scripted engines that break the rules."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duiyi import BLACK, WHITE
from duiyi.cli import app
from duiyi.clock import Absolute, JapaneseByoyomi, NoTime
from duiyi.engines.match import (
    MatchSettings,
    parse_time_spec,
    play_game,
    play_match,
    record_sgf,
    sgf_result,
)
from duiyi.engines.record import EngineGameRecord
from duiyi.engines.sync import SimpleGtpEngine
from duiyi.go import Game, sgf
from duiyi.outcome import Result, Termination

GNUGO = "/usr/games/gnugo"
needs_gnugo = pytest.mark.skipif(not Path(GNUGO).exists(), reason="gnugo is not installed")
FAKE = Path(__file__).with_name("fake_gtp.py")


def gnugo(level: int) -> list[str]:
    return [GNUGO, "--mode", "gtp", "--level", str(level), "--chinese-rules"]


def fake(*args: str) -> list[str]:
    return [sys.executable, str(FAKE), *args]


def replay(text: str) -> Game:
    """Read an SGF written by the match back through duiyi (every move checked again)."""
    return sgf.read_game(text).game


# -- real GNU Go games ----------------------------------------------------------------------


def gnugo_count(text: str, tmp_path: Path) -> tuple[frozenset[str], str]:
    """GNU Go's own dead stones and count of a finished game (``loadsgf``, then
    ``final_status_list dead`` and ``final_score``). Level 10: at low levels GNU Go's
    ``final_score`` is a rough estimate that can contradict its own dead-stone list."""
    path = tmp_path / "count.sgf"
    path.write_text(text, encoding="utf-8")
    with SimpleGtpEngine.popen(gnugo(10)) as engine:
        engine.command("loadsgf", str(path))
        dead = frozenset(str(p) for p in engine.final_status_list("dead"))
        return dead, engine.final_score()


@needs_gnugo
@pytest.mark.parametrize(("size", "levels"), [(7, (0, 1)), (9, (1, 3))])
def test_gnugo_match_levels(size: int, levels: tuple[int, int], tmp_path: Path) -> None:
    settings = MatchSettings(size=size, time=Absolute(60))
    records, score = asyncio.run(
        play_match(gnugo(levels[0]), gnugo(levels[1]), games=2, settings=settings, concurrency=2)
    )
    assert [r.number for r in records] == [1, 2]
    # colours alternate: game 1 engine A (first command) is Black
    assert records[0].black == records[1].white == score.a
    assert records[0].white == records[1].black == score.b
    assert score.a.endswith("#1") and score.b.endswith("#2")  # both say "GNU Go 3.8"
    assert score.games == 2 and score.wins + score.losses + score.draws == 2
    for r in records:
        assert r.outcome.termination in (Termination.COUNT, Termination.RESIGNATION)
        # the SGF replays under duiyi's rules with the same result (Go §9 count)
        again = replay(record_sgf(r))
        assert len(again.moves) == r.move_count
        assert sgf.read_game(record_sgf(r)).root.simpletext("RE") == sgf_result(r)
        assert r.used_ms[0] > 0 and r.used_ms[1] > 0
        if r.outcome.termination is Termination.COUNT:
            assert r.dead_source in ("engines", "duiyi")
            assert sgf_result(r) == r.final.score().sgf_result
            dead, counted = gnugo_count(record_sgf(r), tmp_path)
            if dead == frozenset(str(p) for p in r.final.dead):
                # outside oracle: with the same dead stones GNU Go counts the same (Go §9, §11)
                assert counted == sgf_result(r), record_sgf(r)


@needs_gnugo
def test_go_match_cli_json_and_sgf_dir(tmp_path: Path) -> None:
    out = tmp_path / "games"
    result = CliRunner().invoke(
        app,
        [
            "go",
            "match",
            " ".join(gnugo(0)),
            " ".join(gnugo(2)),
            "--games",
            "2",
            "--size",
            "7",
            "--time",
            "30/5x3",
            "--sgf-dir",
            str(out),
            "--format",
            "json",
            "--concurrency",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [g["black"] for g in data["games"]] == ["GNU Go 3.8 #1", "GNU Go 3.8 #2"]
    for g in data["games"]:
        assert set(g) >= {"black", "white", "result", "termination", "moves", "sgf"}
        text = Path(g["sgf"]).read_text(encoding="utf-8")
        root = sgf.read_game(text).root
        assert root.simpletext("PB") == g["black"] and root.simpletext("RE") == g["result"]
        assert "Time used" in (root.simpletext("C") or "")
    assert data["score"]["games"] == 2
    assert {"elo", "elo_error", "los", "draw_ratio"} <= set(data["score"])


# -- rulings against scripted engines -------------------------------------------------------


def test_illegal_move_loses_with_its_article() -> None:
    # Black's second move lands on its own first stone: occupied point (Go §5)
    settings = MatchSettings(size=9)
    record = asyncio.run(play_game(fake("--moves", "E5,E5"), fake(), settings))
    assert record.outcome.winner is WHITE
    assert record.outcome.termination is Termination.FORFEIT
    assert record.outcome.article.startswith("Go §")
    assert "illegal move" in record.reason and "E5" in record.reason
    assert sgf_result(record) == "W+F"


def test_ko_retake_is_illegal_for_an_engine() -> None:
    # Black captures at C2; White retakes at B2 at once, repeating the position (Go §6)
    black = "B3,A2,B1,E5,C2"
    white = "C3,B2,C1,D2,B2"
    settings = MatchSettings(size=5)
    record = asyncio.run(play_game(fake("--moves", black), fake("--moves", white), settings))
    assert record.outcome.winner is BLACK
    assert record.outcome.termination is Termination.FORFEIT
    assert record.outcome.article == "Go §6"
    assert "B2" in record.reason
    assert record.move_count == 9  # the illegal tenth move is not on the record
    # the one engine-game record holds the moves in Go's own notation, as the engines sent them
    assert record.moves == ("B3", "C3", "A2", "B2", "B1", "C1", "E5", "D2", "C2")
    assert replay(record_sgf(record)).board.get("C2") is BLACK


def test_a_go_record_is_the_one_engine_game_record() -> None:
    # Go and Gomoku engine games give the same record (EngineGameRecord): Go's runner keeps the
    # final Game for the SGF; the JSON round trip keeps players, moves, outcome and times
    settings = MatchSettings(size=5)
    record = asyncio.run(
        play_game(fake("--moves", "B3,pass"), fake("--moves", "C3,pass"), settings)
    )
    assert isinstance(record, EngineGameRecord)
    assert record.moves[:2] == ("B3", "C3") and "pass" in record.moves
    again = EngineGameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record  # the final Game is not compared nor written
    assert again.final is None and record.final is not None


def test_crash_is_a_withdrawal() -> None:
    black = fake("--moves", "E5", "--crash-at", "2")
    record = asyncio.run(play_game(black, fake("--moves", "C3"), MatchSettings(size=9)))
    assert record.outcome.winner is WHITE
    assert record.outcome.article == "Go §28"
    assert "crashed" in record.reason


def test_silence_in_a_timed_game_loses_on_time() -> None:
    settings = MatchSettings(size=9, time=Absolute(1), tolerance=0.05)
    record = asyncio.run(play_game(fake(), fake("--sleep-at", "1:5"), settings))
    assert record.outcome.winner is BLACK
    assert record.outcome.termination is Termination.TIME
    assert record.outcome.article == "Go §12.4"  # sudden death
    assert sgf_result(record) == "B+T"


def test_silence_in_an_untimed_game_is_a_withdrawal() -> None:
    settings = MatchSettings(size=9, move_timeout=0.5)
    record = asyncio.run(play_game(fake("--sleep-at", "1:5"), fake(), settings))
    assert record.outcome.winner is WHITE
    assert record.outcome.article == "Go §28"


def test_engine_that_cannot_start_is_a_no_show(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-engine")
    record = asyncio.run(play_game(missing, fake(), MatchSettings(size=9)))
    assert record.outcome.winner is WHITE and record.outcome.article == "Go §22.1"
    both = asyncio.run(play_game(missing, missing, MatchSettings(size=9)))
    assert both.outcome.result is Result.BOTH_LOSE and both.outcome.article == "Go §22.3"


def test_refusing_a_legal_move_forfeits() -> None:
    record = asyncio.run(play_game(fake("--moves", "E5"), fake("--refuse-play"), MatchSettings(9)))
    assert record.outcome.winner is BLACK and "refused a legal move" in record.reason


def test_dead_stones_agreed_or_duiyi_proposal() -> None:
    # Black E5, then both pass: an empty board but for one stone; no dead stones proposed
    agree = asyncio.run(play_game(fake("--moves", "E5"), fake(), MatchSettings(size=9)))
    assert agree.outcome.termination is Termination.COUNT
    assert agree.dead_source == "engines"  # both said "no dead stones"
    assert sgf_result(agree) == "B+73.5"  # 81 points to Black, komi 7.5 (Go §9, §11)
    # the engines disagree (one calls E5 dead): duiyi's proposal (E5 alive) is used
    differ = asyncio.run(
        play_game(fake("--moves", "E5", "--dead", "E5"), fake(), MatchSettings(size=9))
    )
    assert differ.dead_source == "duiyi" and sgf_result(differ) == "B+73.5"
    # both call E5 dead: their agreement is applied; no live stones, komi decides (Go §11)
    both = asyncio.run(
        play_game(fake("--moves", "E5", "--dead", "E5"), fake("--dead", "E5"), MatchSettings(9))
    )
    assert both.dead_source == "engines" and sgf_result(both) == "W+7.5"


def test_time_settings_and_time_left_are_sent(tmp_path: Path) -> None:
    log = tmp_path / "black.log"
    settings = MatchSettings(size=9, time=JapaneseByoyomi(base=60, periods=3, period=10))
    asyncio.run(play_game(fake("--moves", "E5", "--log", str(log)), fake(), settings))
    lines = [line.split(maxsplit=1)[1].strip() for line in log.read_text().splitlines()]
    assert "time_settings 60 10 1" in lines
    assert lines[lines.index("genmove b") - 1] == "time_left black 60 0"
    assert "komi 7.5" in lines and "boardsize 9" in lines


def test_move_limit_adjudication() -> None:
    settings = MatchSettings(size=9, max_moves=3)
    record = asyncio.run(play_game(fake("--moves", "E5,C3"), fake("--moves", "G7"), settings))
    assert record.outcome.termination is Termination.ADJUDICATION
    assert record.move_count == 3 and "move limit" in record.reason


def test_time_specs() -> None:
    assert parse_time_spec("none") == NoTime()
    assert parse_time_spec("90") == Absolute(90)
    assert parse_time_spec("cn:600:3").name == "chinese-byoyomi"
    assert parse_time_spec("300/60:10").name == "moves-per-period"
    with pytest.raises(Exception, match="cannot read time spec"):
        parse_time_spec("5 minutes")


def test_cli_bad_time_spec_is_one_line_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "duiyi", "go", "match", *[" ".join(fake())] * 2, "--time", "soon"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "cannot read time spec" in proc.stderr


def test_cli_missing_engine_is_one_line_exit_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "duiyi", "go", "match", str(tmp_path / "nothing"), "gnugo"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "no such program" in proc.stderr
