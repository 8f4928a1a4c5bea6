"""duiyi as a GTP v2 engine: the protocol, the rules behind `play`, and the CLI subprocess."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi.go import sgf
from duiyi.gtp.frontend import GtpFrontEnd, preprocess


def ask(fe: GtpFrontEnd, line: str) -> tuple[bool, str]:
    answer = fe.handle(line)
    assert answer is not None and answer.endswith("\n\n")
    assert "\n\n" not in answer[:-2]  # a blank line would end the response early
    head, _, body = answer[:-2].partition(" ")
    return head.startswith("="), body


def test_preprocessing_drops_comments_and_control_characters() -> None:
    assert preprocess("\x01 7 play\tb d4 # comment\r") == "7 play b d4"
    assert preprocess("   # nothing") == ""
    fe = GtpFrontEnd()
    assert fe.handle("# comment only") is None
    assert fe.handle("   ") is None


def test_ids_success_failure_and_terminators() -> None:
    fe = GtpFrontEnd()
    assert fe.handle("12 protocol_version") == "=12 2\n\n"
    assert fe.handle("name") == "= duiyi\n\n"
    assert fe.handle("3 clear_board") == "=3\n\n"
    assert fe.handle("4 no_such_command") == "?4 unknown command\n\n"
    assert fe.handle("known_command play") == "= true\n\n"
    assert fe.handle("known_command frob") == "= false\n\n"
    commands = ask(fe, "list_commands")[1].split("\n")
    for needed in (
        "protocol_version", "name", "version", "known_command", "list_commands", "quit",
        "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
        "fixed_handicap", "place_free_handicap", "set_free_handicap", "final_score",
        "final_status_list", "loadsgf", "printsgf", "time_settings", "time_left",
        "kgs-time_settings", "is_legal", "kgs-rules", "duiyi-rules",
    ):  # fmt: skip
        assert needed in commands


def test_boardsize_errors() -> None:
    fe = GtpFrontEnd()
    assert ask(fe, "boardsize x") == (False, "boardsize not an integer")
    assert ask(fe, "boardsize 3") == (False, "unacceptable size")
    assert ask(fe, "boardsize 9") == (True, "")
    assert fe.game.size == 9


def test_play_is_rules_exact() -> None:
    fe = GtpFrontEnd(size=9)
    assert ask(fe, "play b E5")[0]
    assert ask(fe, "play w E5") == (False, "illegal move")  # Go §2: occupied
    assert ask(fe, "play w Z9") == (False, "invalid coordinate")
    assert ask(fe, "play purple A1") == (False, "invalid color")
    # Suicide is refused (Go §5): White A1 inside Black's A2/B1.
    for line in ("play w J9", "play b A2", "play w J8", "play b B1"):
        assert ask(fe, line)[0]
    assert ask(fe, "is_legal w A1") == (True, "0")
    assert ask(fe, "play w A1") == (False, "illegal move")
    assert ask(fe, "is_legal b A1") == (True, "1")


def test_simple_ko_recapture_is_refused() -> None:
    # Go §20.1 / situational superko (DECISIONS.md): the ko cannot be retaken at once.
    fe = GtpFrontEnd(size=9)
    for line in ("play b D5", "play w E5", "play b C4", "play w F4", "play b D3",
                 "play w E3", "play b E4", "play w D4"):  # fmt: skip
        assert ask(fe, line)[0], line
    assert fe.game.board.get("E4") is None  # White took the ko
    assert ask(fe, "play b E4") == (False, "illegal move")
    assert ask(fe, "play b A9")[0] and ask(fe, "play w A1")[0]
    assert ask(fe, "play b E4")[0]  # after a ko threat exchange it is legal again


def test_out_of_turn_play_and_undo() -> None:
    fe = GtpFrontEnd(size=9)
    assert ask(fe, "play b C3")[0]
    assert ask(fe, "play b G7")[0]  # a white pass is inserted before it
    assert [(c.letter, str(p) if p else "pass") for c, p in fe.game.moves] == [
        ("B", "C3"), ("W", "pass"), ("B", "G7"),
    ]  # fmt: skip
    assert ask(fe, "undo")[0]
    assert [str(p) for _c, p in fe.game.moves] == ["C3"]
    assert ask(fe, "undo")[0]
    assert ask(fe, "undo") == (False, "cannot undo")


def test_play_after_two_passes() -> None:
    fe = GtpFrontEnd(size=9)
    for line in ("play b E5", "play w pass", "play b pass", "play w pass"):
        assert ask(fe, line)[0], line  # the last pass, after play ended, changes nothing
    assert fe.game.phase.value == "counting"
    # Play resumes when a stone is played after two passes (Go §21.1: play goes on).
    assert ask(fe, "play w C3")[0]
    assert fe.game.phase.value == "playing" and fe.game.board.get("C3") is not None
    assert ask(fe, "undo")[0]
    assert fe.game.phase.value == "counting"


def test_genmove_plays_legal_random_moves_until_it_passes() -> None:
    fe = GtpFrontEnd(size=5, seed=7)
    color = "b"
    answers = []
    for _ in range(200):
        ok, move = ask(fe, f"genmove {color}")
        assert ok
        answers.append(move)
        if answers[-2:] == ["pass", "pass"]:
            break
        color = "w" if color == "b" else "b"
    assert answers[-2:] == ["pass", "pass"]
    ok, score = ask(fe, "final_score")
    assert ok and score[0] in "BW0"


def test_handicap_commands() -> None:
    fe = GtpFrontEnd()
    ok, stones = ask(fe, "fixed_handicap 4")
    assert ok and sorted(stones.split()) == ["D16", "D4", "Q16", "Q4"]
    assert fe.game.handicap == 4
    assert ask(fe, "fixed_handicap 4") == (False, "board not empty")
    assert ask(fe, "clear_board")[0]
    assert ask(fe, "fixed_handicap 1") == (False, "invalid number of stones")
    assert ask(fe, "set_free_handicap C3 C4 C5")[0]
    assert fe.game.handicap == 3 and fe.game.to_move.letter == "W"
    assert ask(fe, "clear_board")[0]
    ok, placed = ask(fe, "place_free_handicap 3")
    assert ok and len(placed.split()) == 3
    assert ask(fe, "set_free_handicap A1 A1") == (False, "board not empty")


def test_komi_rules_and_scoring() -> None:
    fe = GtpFrontEnd(size=9)
    assert ask(fe, "komi 7.5")[0]
    assert fe.game.rules.komi * 2 == 15 / 2
    assert ask(fe, "duiyi-rules") == (True, "chinese")
    assert ask(fe, "kgs-rules japanese")[0]
    assert fe.game.rules.name == "japanese"
    assert ask(fe, "duiyi-rules chinese")[0]
    assert ask(fe, "duiyi-rules martian")[0] is False
    # Empty 9×9 with komi 7.5 (3¾ stones, Go §11): White wins by 7.5 points.
    assert ask(fe, "final_score") == (True, "W+7.5")
    assert ask(fe, "duiyi-result") == (True, "白胜3又3/4子 W+7.5")


def test_final_status_list_uses_the_life_engine() -> None:
    fe = GtpFrontEnd(size=9)
    # A lone white stone inside a big black wall on 9×9 is dead.
    black = ["A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "J5", "E4", "E6"]
    for p in black:
        assert ask(fe, f"play b {p}")[0]
    assert ask(fe, "play w C8")[0]
    ok, dead = ask(fe, "final_status_list dead")
    assert ok and dead.split() == ["C8"]
    ok, alive = ask(fe, "final_status_list alive")
    assert ok and set(alive.split()) == set(black)
    assert len(alive.split("\n")) == 1  # one line per chain: the wall is one chain
    assert ask(fe, "final_status_list zombie") == (False, "syntax error")


def test_time_commands_are_accepted_and_stored() -> None:
    fe = GtpFrontEnd()
    assert ask(fe, "time_settings 600 30 5")[0]
    assert ask(fe, "kgs-time_settings byoyomi 600 30 5")[0]
    assert fe.time_settings == ("byoyomi", "600", "30", "5")
    assert ask(fe, "time_left b 300 0")[0]
    assert ask(fe, "time_left b x 0") == (False, "syntax error")
    assert ask(fe, "kgs-time_settings hourglass 5") == (False, "syntax error")


def test_loadsgf_and_printsgf(tmp_path: Path) -> None:
    path = tmp_path / "g.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese];B[ee];W[cc];B[gg];W[cg])")
    fe = GtpFrontEnd()
    assert ask(fe, f"loadsgf {path}")[0]
    assert len(fe.game.moves) == 4 and fe.game.size == 9
    assert ask(fe, f"loadsgf {path} 3")[0]  # the position before move 3
    assert [str(p) for _c, p in fe.game.moves] == ["E5", "C7"]
    ok, text = ask(fe, "printsgf")
    assert ok
    again = sgf.game_from_sgf(text)
    assert again.board == fe.game.board
    assert ask(fe, f"loadsgf {tmp_path / 'missing.sgf'}") == (False, "cannot load file")
    out = tmp_path / "out.sgf"
    assert ask(fe, f"printsgf {out}")[0]
    assert sgf.game_from_sgf(out.read_text()).board == fe.game.board


def test_quit_stops_the_loop() -> None:
    import io

    fe = GtpFrontEnd()
    out = io.StringIO()
    fe.run(io.StringIO("1 name\n2 quit\n3 name\n"), out)
    assert out.getvalue() == "=1 duiyi\n\n=2\n\n"


def test_cli_subprocess_speaks_gtp() -> None:
    script = "1 boardsize 9\n2 play b E5\n3 play w E5\n4 genmove w\n5 list_stones b\nquit\n"
    proc = subprocess.run(
        [sys.executable, "-m", "duiyi", "gtp", "--seed", "1"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    blocks = proc.stdout.split("\n\n")
    assert blocks[0] == "=1"
    assert blocks[1] == "=2"
    assert blocks[2] == "?3 illegal move"
    assert blocks[3].startswith("=4 ") and blocks[3] != "=4 E5"
    assert blocks[4] == "=5 E5"
    assert blocks[5] == "="


@pytest.mark.parametrize("rules", ["chinese", "japanese"])
def test_cli_rules_option(rules: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "duiyi", "gtp", "--rules", rules],
        input="duiyi-rules\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith(f"= {rules}\n\n")


def test_loadsgf_leaves_a_resigned_game_open_for_analysis(tmp_path: Path) -> None:
    # GTP loadsgf sets up the position, as GNU Go does: a GUI can keep playing or analysing
    # even though the record says RE[B+R] (the library's sgf.game_from_sgf applies it).
    from duiyi.go import Game
    from duiyi.gtp.frontend import GtpFrontEnd

    g = Game(9)
    g.play("E5")
    g.resign()
    path = tmp_path / "resigned.sgf"
    path.write_text(sgf.game_to_sgf(g), encoding="utf-8")
    assert sgf.game_from_sgf(path.read_text()).outcome() is not None
    gtp = GtpFrontEnd()
    assert gtp.handle(f"loadsgf {path}").startswith("=")
    assert gtp.handle("genmove w").startswith("= ") and "pass" not in gtp.handle("genmove b")


def test_either_colour_at_any_time() -> None:
    # GTP v2 §6.3 (play): the controller may play either colour at any time, as GNU Go allows.
    # duiyi records a pass of the side to move before a move out of turn; a stone after two
    # passes resumes play (Go §21.1: the side that does not agree to end plays on).
    fe = GtpFrontEnd(size=9)
    for line in ("play b D4", "play w pass", "play w E5", "play w F6"):
        assert ask(fe, line) == (True, ""), line
    assert ask(fe, "list_stones white") == (True, "E5 F6")
    assert fe.game.phase.value == "playing"


def test_clear_board_then_white_pass_recovers() -> None:
    fe = GtpFrontEnd(size=9)
    assert ask(fe, "play b C3")[0] and ask(fe, "clear_board")[0]
    for line in ("play w pass", "play b D4", "play w E5", "play b F6"):
        assert ask(fe, line) == (True, ""), line
    assert ask(fe, "list_stones black") == (True, "D4 F6")


def test_absurd_komi_is_refused_at_once() -> None:
    # GTP v2 §6.3 (komi: a float). 1e999999999 as an exact fraction has a billion digits: duiyi
    # refuses komi beyond ±1000 before building it (GNU Go accepts it as inf).
    fe = GtpFrontEnd(size=9)
    for text in ("1e999999999", "-1e999999999", "1e-999999999x", "inf", "nan", "1001"):
        ok, message = ask(fe, f"komi {text}")
        assert not ok and "komi" in message
    assert ask(fe, "komi 1e-999999999") == (True, "")  # a tiny float is 0
    assert fe.komi_points == 0
    assert ask(fe, "komi 6.5") == (True, "") and fe.komi_points == Fraction(13, 2)


def test_gtp_colours_are_only_b_black_w_white() -> None:
    # GTP v2 §2.8: colour = "w"/"white"/"b"/"black", case-insensitive.
    fe = GtpFrontEnd(size=9)
    for word in ("x", "o", "黑", "白", "bl", ""):
        assert ask(fe, f"play {word} D4".replace("  ", " "))[0] is False, word
    assert fe.game.moves == []
    assert ask(fe, "play BLACK D4")[0] and ask(fe, "play White E5")[0]


# printsgf and loadsgf are left out: with an argument they write or read files.
_WORDS = st.sampled_from(
    ["play", "genmove", "undo", "boardsize", "clear_board", "komi", "fixed_handicap",
     "place_free_handicap", "set_free_handicap", "is_legal", "list_stones", "final_score",
     "final_status_list", "showboard", "kgs-rules", "duiyi-rules", "duiyi-result",
     "time_settings", "kgs-time_settings", "time_left", "known_command",
     "b", "w", "black", "white", "x", "pass", "PASS", "D4", "E5", "A1", "T19", "Z99", "I5",
     "0", "1", "2", "9", "19", "-1", "7.5", "1e999999999", "nan", "9" * 40, "9" * 5000,
     "²", "dead", "alive", "chinese", "japanese", "nz", "#", "\t", "é"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_WORDS, min_size=1, max_size=5), min_size=1, max_size=25))
def test_fuzz_any_command_line_gets_a_well_formed_answer(lines: list[list[str]]) -> None:
    # GTP v2 §2.6: every command gets one response, "=" or "?", ended by a blank line; hostile
    # arguments (huge numbers, odd words) give "?" answers, never an exception.
    fe = GtpFrontEnd(size=9, seed=0)
    for words in lines:
        answer = fe.handle(" ".join(words))
        if answer is None:
            continue
        assert answer[0] in "=?" and answer.endswith("\n\n")
        assert "\n\n" not in answer[:-2]


def test_numbers_python_cannot_read_are_refused() -> None:
    # int() refuses more than 4,300 digits and reads "²" as a digit it cannot convert: a GTP
    # controller sending them gets "?" (GTP v2 §2.6), the engine keeps running.
    fe = GtpFrontEnd(size=9)
    for line in ("boardsize " + "9" * 5000, "fixed_handicap " + "9" * 5000, "boardsize ²",
                 "time_left b " + "9" * 5000 + " 0", "9" * 5000 + " name"):  # fmt: skip
        ok, _ = ask(fe, line)
        assert not ok, line
    assert ask(fe, "name") == (True, "duiyi")
