"""Notations and files: move lists, record sheets (Gomoku §7), SGF GM[4], .psq."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duiyi import Color
from duiyi.errors import IllegalMove, NotationError, SgfError
from duiyi.gomoku import Game, Point, RenjuRules
from duiyi.gomoku.notation import (
    black_number,
    format_moves,
    game_from_psq,
    game_from_sgf,
    game_to_sgf,
    parse_moves,
    parse_psq,
    parse_record_sheet,
    parse_sgf,
    point_from_sgf,
    read_game,
    record_sheet,
    sgf_point,
)

points = st.builds(Point, st.integers(0, 14), st.integers(0, 14))


@given(points)
def test_sgf_point_round_trip(p: Point):
    assert point_from_sgf(sgf_point(p)) == p


def test_sgf_row_letter_a_is_the_top_row():
    # Gomoku §1: row 15 is the top line; SGF counts rows from the top
    assert sgf_point("a15") == "aa"
    assert sgf_point("a1") == "ao"
    assert sgf_point("h8") == "hh"
    assert sgf_point("o1") == "oo"
    assert point_from_sgf("ab") == Point.parse("a14")


def test_move_list_round_trip():
    moves = parse_moves("h8 h9 pass j10")
    assert format_moves(moves) == "h8 h9 pass j10"
    with pytest.raises(NotationError, match="move 2"):
        parse_moves("h8 z99")


def test_record_sheet_black_odd_circled_white_even():
    # Gomoku §7.2: 黑棋用奇数画圈记录 ... 白棋用偶数记录
    text = record_sheet(parse_moves("h8 h9 j10 i9 g10 pass"))
    assert text.splitlines() == ["① h8     2 h9", "③ j10    4 i9", "⑤ g10    6 pass"]
    assert parse_record_sheet(text) == parse_moves("h8 h9 j10 i9 g10 pass")
    assert black_number(35) == "㉟" and black_number(36) == "㊱"


def test_record_sheet_numbers_must_run_in_order():
    with pytest.raises(NotationError, match="move 3"):
        parse_record_sheet("1. h8 2. h9 4. j10")


def test_long_record_sheet_round_trip():
    moves = [Point(x, y) for y in range(0, 15, 2) for x in range(15)][:60]
    assert parse_record_sheet(record_sheet(moves)) == moves


def test_sgf_export_and_import_round_trip():
    g = Game(RenjuRules.chinese_2013())
    g.open("h8", "i9", "j10", fifth_n=2)  # 长星
    g.swap()
    g.play("g9")
    g.propose_fifth(["k7", "f11"])
    g.choose_fifth("k7")
    g.play("l6")
    g.resign(Color.BLACK)
    text = game_to_sgf(g, black="Ann", white="Bo")
    assert text.startswith("(;FF[4]GM[4]SZ[15]")
    assert "RE[W+R]" in text and "GN[长星局]" in text and "PB[Ann]" in text
    sgf = parse_sgf(text)
    assert [p for _, p in sgf.moves] == [m.point for m in g.moves]
    assert "swap" in sgf.comments[3] and "k7 f11" in sgf.comments[5]
    back = game_from_sgf(text)
    assert back.board == g.board


def test_sgf_main_line_and_errors():
    text = "(;GM[4]SZ[15];B[hh](;W[hg];B[ii])(;W[ih]))"
    assert [str(p) for _, p in parse_sgf(text).moves] == ["h8", "h9", "i7"]
    with pytest.raises(SgfError, match="GM"):
        parse_sgf("(;GM[1]SZ[19];B[dd])")
    with pytest.raises(SgfError, match="15"):
        parse_sgf("(;GM[4]SZ[19];B[dd])")
    with pytest.raises(SgfError, match="line 2"):
        parse_sgf("(;GM[4]\n;B[hh]])")
    with pytest.raises(SgfError, match="alternate"):
        game_from_sgf("(;GM[4];B[hh];B[hg])")


def test_sgf_replay_checks_the_rules():
    # Gomoku §2.19: the forbidden move in a record ends the game; later moves are refused
    with pytest.raises(Exception, match="over"):
        game_from_sgf("(;GM[4];B[gh];W[ao];B[ih];W[am];B[hg];W[ak];B[hf];W[ai];B[hh];W[ag])")
    with pytest.raises(IllegalMove, match="occupied"):
        game_from_sgf("(;GM[4];B[hh];W[hh])")


PSQ = """Piskvorky 15x15, 11:11, 0
8,8,0
8,7,1200
10,6,800
9,7,300
-1
pbrain-one.exe
pbrain-two.exe
"""


def test_psq_import():
    # .psq: 1-based x,y with y counted from the top (Piskvork's board)
    r = parse_psq(PSQ)
    assert [str(p) for p in r.moves] == ["h8", "h9", "j10", "i9"]
    assert r.times == [0, 1200, 800, 300]
    assert r.trailer[0] == "-1"
    g = game_from_psq(PSQ)
    assert g.opening is not None and g.opening.opening.japanese == "Sosei"


def test_psq_errors():
    with pytest.raises(NotationError, match="Piskvorky"):
        parse_psq("hello\n1,1,0\n")
    with pytest.raises(NotationError, match="20x20"):
        parse_psq("Piskvorky 20x20, 11:11, 0\n1,1,0\n")
    with pytest.raises(NotationError, match="off"):
        parse_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n")


def test_read_game_detects_the_format():
    assert read_game(PSQ).record_text() == "1.h8 2.h9 3.j10 4.i9"
    assert read_game("(;GM[4];B[hh];W[hg])").record_text() == "1.h8 2.h9"
    assert read_game("1. h8 2. h9").record_text() == "1.h8 2.h9"
    assert read_game("h8 a1 a2").rules == RenjuRules.free_renju()


def test_sgf_setup_stones():
    # Setup stones give a position; a rules replay refuses them rather than guess an order
    sgf = parse_sgf("(;GM[4]SZ[15]AB[hh][ih]AW[hg];B[gh])")
    b = sgf.board()
    assert b.stones(Color.BLACK) == [Point.parse("g8"), Point.parse("h8"), Point.parse("i8")]
    with pytest.raises(SgfError, match="setup"):
        game_from_sgf("(;GM[4]AB[hh];W[hg])")


def test_one_preset_list_for_gomoku_rules() -> None:
    # Gomoku §3.2-§3.3: the designated opening (book) or a free opening with or without
    # forbidden moves; every command reads the names through RenjuRules.preset.
    from duiyi.errors import InvalidRules
    from duiyi.gomoku.rules import RenjuRules

    for name in ("chinese-2013", "chinese_2013", "Chinese", "renju"):
        assert RenjuRules.preset(name) == RenjuRules.chinese_2013()
    for name in ("free", "FREE", "gomoku"):
        assert RenjuRules.preset(name) == RenjuRules.free()
    for name in ("free-renju", "free_renju", "Free Renju"):
        assert RenjuRules.preset(name) == RenjuRules.free_renju()
    with pytest.raises(InvalidRules):
        RenjuRules.preset("caro")


def test_sgf_reader_is_the_shared_one() -> None:
    # The Renju SGF goes through duiyi.sgf: escapes, variations (main line kept) and errors with
    # line and column as for Go.
    g = parse_sgf("(;GM[4]SZ[15];B[hh]C[a \\] b](;W[hg];B[ii])(;W[gg]))")
    assert [str(p) for _, p in g.moves] == ["h8", "h9", "i7"] and g.comments == {1: "a ] b"}
    with pytest.raises(SgfError) as info:
        parse_sgf("(;GM[4]\n;B[hh")
    assert (info.value.line, info.value.column) == (2, 3)
