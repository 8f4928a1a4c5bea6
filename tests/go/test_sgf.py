"""SGF: the grammar layer, typed values, building games, and golden round trips."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from duiyi import BLACK, WHITE, Color
from duiyi.errors import IllegalMove, SgfError
from duiyi.go import Game, sgf
from duiyi.go.game import Phase
from duiyi.outcome import Outcome, Termination

DATA = Path(__file__).resolve().parent.parent / "data" / "sgf"


# ---------------------------------------------------------------------------------- grammar


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("(;GM[1]\n;B[aa]\n;W[bb]", 1, 1, "never closed"),
        ("(;GM[1]\n;B[aa]\n;W[bb\n)", 3, 3, "property value opened here is never closed"),
        ("(;GM[1]\n;B[aa]W\n;W[bb])", 2, 7, "W has no value"),
        ("(;GM[1]\n  ;B[aa]]\n)", 2, 9, "unexpected ']'"),
        ("(;GM[1]\n(B[aa]))", 2, 2, "game tree without a node"),
        ("(;GM[1]\n(;B[aa]);W[bb])", 2, 9, "node after a variation"),
        ("(;GM[1]\n;B[aa]%)", 2, 7, "unexpected character '%'"),
        ("(;GM[1]\n;[aa])", 2, 2, "without a property identifier"),
    ],
)
def test_grammar_errors_carry_line_and_column(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(SgfError) as info:
        sgf.parse(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value)
    assert str(info.value).startswith(f"line {line}, column {column}: ")


@pytest.mark.parametrize("text", ["", "   \n", "no sgf here", "(B[aa])"])
def test_text_without_a_game_tree_is_refused(text: str) -> None:
    with pytest.raises(SgfError):
        sgf.parse(text)


def test_escapes_and_soft_line_breaks() -> None:
    coll = sgf.parse("(;C[a \\] b \\\\ c \\: d\\\nsame line\nnext\tline]GN[x\\]y])")
    root = coll.games[0]
    assert root.text("C") == "a ] b \\ c : dsame line\nnext line"
    assert root.simpletext("GN") == "x]y"
    # The raw value keeps the escapes exactly as written.
    assert root.get("GN") == "x\\]y"


def test_nodes_remember_where_they_were_written() -> None:
    coll = sgf.parse("(;GM[1]\n  ;B[aa]\n;W[bb])")
    nodes = coll.games[0].main_line()
    assert [(n.line, n.column) for n in nodes] == [(1, 2), (2, 3), (3, 1)]


def test_recoverable_oddities_become_warnings() -> None:
    coll = sgf.parse("junk (;AddBlack[aa]C[x]C[y];B[bb]) trailing")
    root = coll.games[0]
    assert root.values("AB") == ["aa"]
    assert root.values("C") == ["x", "y"]
    joined = " | ".join(coll.warnings)
    assert "before the first game tree" in joined
    assert "FF[3]-style" in joined
    assert "repeated" in joined
    assert "after a game tree" in joined


def test_charsets_and_byte_order_mark() -> None:
    gb = "(;GM[1]CA[GB2312]PB[柯洁]PW[古力])".encode("gb2312")
    assert sgf.parse(gb).games[0].simpletext("PW") == "古力"
    coll = sgf.parse("\ufeff(;GM[1]PB[x])".encode())
    assert coll.warnings == [] and coll.games[0].get("PB") == "x"


def test_collection_of_several_games_and_bytes_input() -> None:
    coll = sgf.parse("(;GM[1]PB[Ke Jie])\n(;GM[1]PB[柯洁])".encode())
    assert [g.simpletext("PB") for g in coll] == ["Ke Jie", "柯洁"]


def test_variations_are_kept_with_the_main_line_first() -> None:
    text = "(;SZ[9];B[ee];W[cc](;B[gg];W[gc])(;B[gc](;W[gg])(;W[cg])))"
    root = sgf.parse(text).games[0]
    main = root.main_line()
    assert [n.get("B") or n.get("W") for n in main[1:]] == ["ee", "cc", "gg", "gc"]
    branch = main[2].children
    assert [c.get("B") for c in branch] == ["gg", "gc"]
    assert [c.get("W") for c in branch[1].children] == ["gg", "cg"]
    assert sum(1 for _ in root.walk()) == 8


def test_serialise_is_stable_and_keeps_variations() -> None:
    text = "(;SZ[9]FF[4]GM[1];B[ee]C[a \\] b];W[cc](;B[gg];W[gc])(;B[gc](;W[gg])(;W[cg])))"
    once = sgf.serialise(sgf.parse(text))
    assert sgf.serialise(sgf.parse(once)) == once
    assert once.startswith("(;GM[1]FF[4]SZ[9]\n;B[ee]C[a \\] b];W[cc]\n(;B[gg];W[gc])")
    again = sgf.parse(once).games[0]
    assert again.main_line()[1].text("C") == "a ] b"


def test_long_lines_are_wrapped_between_properties() -> None:
    moves = "".join(f";B[{chr(97 + i % 19)}{chr(97 + i // 19)}]" for i in range(200))
    out = sgf.serialise(sgf.parse(f"(;SZ[19]{moves})"))
    assert all(len(line) <= 79 for line in out.splitlines())
    assert sgf.serialise(sgf.parse(out)) == out


# ---------------------------------------------------------------------------- typed values


def test_points_and_passes() -> None:
    assert sgf.decode_point_coords("aa", 19) == (0, 18)
    assert sgf.decode_point_coords("ss", 19) == (18, 0)
    assert sgf.decode_point_coords("", 19) is None
    assert sgf.decode_point_coords("tt", 19) is None  # FF[3] pass on boards up to 19×19
    assert sgf.decode_point_coords("tt", 9) is None
    assert sgf.decode_point_coords("tt", 21) == (19, 1)  # a real point on a 21×21 board
    with pytest.raises(SgfError):
        sgf.decode_point_coords("jj", 9)
    with pytest.raises(SgfError):
        sgf.decode_point_coords("a", 9)


def test_compressed_point_lists() -> None:
    pts = sgf.decode_point_list_coords(["aa:bc", "ee"], 9)
    assert len(pts) == 7
    assert (0, 8) in pts and (1, 6) in pts and (4, 4) in pts


@pytest.mark.parametrize(
    ("raw", "points"),
    [
        ("6.5", Fraction(13, 2)),
        ("7.50", Fraction(15, 2)),
        ("0.50", Fraction(1, 2)),
        ("-4.50", Fraction(-9, 2)),
        ("0", Fraction(0)),
        ("750", Fraction(15, 2)),  # Fox writes 7.5 as KM[750]
        ("650", Fraction(13, 2)),
        ("375", Fraction(15, 2)),  # hundredths of 3.75 stones
        ("3.75", Fraction(15, 2)),  # 3¾ stones (Go §11) written as stones
        ("7,5", Fraction(15, 2)),
    ],
)
def test_komi_conventions(raw: str, points: Fraction) -> None:
    assert sgf.decode_komi(raw) == points


def test_komi_reinterpretations_are_reported() -> None:
    notes: list[str] = []
    sgf.decode_komi("750", notes)
    assert notes and "hundredths" in notes[0]
    with pytest.raises(SgfError):
        sgf.decode_komi("seven")


@pytest.mark.parametrize(
    ("raw", "winner", "margin", "reason"),
    [
        ("B+7.50", "B", Fraction(15, 2), "score"),
        ("W+Resign", "W", None, "resign"),
        ("W+R", "W", None, "resign"),
        ("B+Time", "B", None, "time"),
        ("W+Forfeit", "W", None, "forfeit"),
        ("0", None, Fraction(0), "draw"),
        ("Void", None, None, "void"),
        ("?", None, None, "unknown"),
    ],
)
def test_results(raw: str, winner: str | None, margin: Fraction | None, reason: str) -> None:
    res = sgf.SgfResult.parse(raw)
    assert (res.winner, res.margin, res.reason) == (winner, margin, reason)


def test_rules_from_ru_and_km() -> None:
    chinese = sgf.rules_from_sgf("Chinese", Fraction(15, 2))
    assert chinese.name == "chinese" and chinese.komi == Fraction(15, 4)  # Go §11: 3¾ stones
    kgs_handicap = sgf.rules_from_sgf("Chinese", Fraction(1, 2), 4)
    # KGS counts KM[0.50] in handicap games too, plus H/2 stones returned.
    assert kgs_handicap.compensation(4) == (Fraction(1, 4), Fraction(2))
    assert sgf.rules_from_sgf("Japanese", Fraction(13, 2)).komi == Fraction(13, 2)
    assert sgf.rules_from_sgf("Korean", None).name == "korean"
    assert sgf.rules_from_sgf("AGA", Fraction(15, 2)).name == "aga"
    assert sgf.rules_from_sgf("NZ", None).allow_suicide
    notes: list[str] = []
    assert sgf.rules_from_sgf("Martian", None, 0, notes).name == "chinese"
    assert notes


# ----------------------------------------------------------------------------- golden files

INPUTS = sorted(p for p in DATA.glob("*.sgf") if not p.name.endswith((".golden.sgf", ".game.sgf")))


def _golden(path: Path, suffix: str, text: str) -> str:
    """The golden text beside ``path``; DUIYI_REGEN_GOLDEN=1 rewrites it from ``text``."""
    import os

    target = path.with_name(path.stem + suffix)
    if os.environ.get("DUIYI_REGEN_GOLDEN") == "1":
        target.write_text(text, encoding="utf-8")
    return target.read_text(encoding="utf-8")


def test_there_are_golden_inputs() -> None:
    assert len(INPUTS) >= 5


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_tree_round_trip_matches_golden(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    coll = sgf.parse(text)
    written = sgf.serialise(coll)
    assert written == _golden(path, ".golden.sgf", written)
    # Writing what was read back changes nothing, and every node and raw value survives.
    again = sgf.parse(written)
    assert sgf.serialise(again) == written
    before = [n.properties for n in coll.games[0].walk()]
    after = [n.properties for n in again.games[0].walk()]
    assert before == after


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_game_round_trip_matches_golden(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    game = sgf.game_from_sgf(text)
    written = sgf.game_to_sgf(game)
    assert written == _golden(path, ".game.sgf", written)
    back = sgf.game_from_sgf(written)
    assert back.board == game.board
    assert back.moves == game.moves
    assert back.handicap == game.handicap
    assert back.rules.komi == game.rules.komi
    assert back.sgf_result == game.sgf_result


def test_fox_file_reads_komi_and_tt_passes() -> None:
    sg = sgf.read_game((DATA / "fox-style.sgf").read_bytes())
    assert sg.game.rules.komi == Fraction(15, 4)  # KM[750] = 7.5 points = 3¾ stones (Go §11)
    assert [p for _c, p in sg.game.moves].count(None) == 3
    assert sg.game.phase.value == "counting"  # two passes end play (Go §7.3)
    assert any("hundredths" in w for w in sg.warnings)


def test_handicap_file() -> None:
    g = sgf.game_from_sgf((DATA / "handicap.sgf").read_text())
    assert g.handicap == 2 and g.rules.name == "japanese"
    assert g.moves[0][0].letter == "W"


def test_setup_file_keeps_variations_and_player_to_move() -> None:
    sg = sgf.read_game((DATA / "setup.sgf").read_text())
    assert sg.game.moves[0][0].letter == "W"
    assert len(sg.game.board.stones(sg.game.moves[1][0])) == 4  # aa, ab, cc + de
    assert len(sg.nodes[-1].parent.children if sg.nodes[-1].parent else []) == 2


def test_counted_game_markers_give_the_recorded_result() -> None:
    sg = sgf.read_game((DATA / "counted-9x9.sgf").read_text())
    score = sgf.score_from_markers(sg.game, sg.last_node)
    assert sg.result is not None
    assert sgf.SgfResult.parse(score.sgf_result) == sg.result


def test_illegal_move_names_the_move() -> None:
    with pytest.raises(IllegalMove) as info:
        sgf.game_from_sgf("(;SZ[9];B[ee];W[dd];B[ee])")
    assert "#3 B E5" in str(info.value)
    assert "occupied" in str(info.value)


def test_suicide_in_a_file_is_refused() -> None:
    # Go §5: White A9 would have no liberty and captures nothing.
    with pytest.raises(IllegalMove) as info:
        sgf.game_from_sgf("(;SZ[9];B[ba];W[ee];B[ab];W[aa])")
    assert info.value.article == "Go §5"


def test_without_pl_the_first_move_says_who_starts() -> None:
    sg = sgf.read_game("(;SZ[9]AB[cc][gg];W[ee];B[cg])")
    assert [c.letter for c, _p in sg.game.moves] == ["W", "B"]
    assert sg.warnings == []
    # HA disagreeing with the AB stones: handicap 0, but White still starts.
    sg = sgf.read_game("(;SZ[9]HA[3]AB[cc][gg];W[ee])")
    assert sg.game.handicap == 0 and sg.game.moves[0][0].letter == "W"
    assert any("HA[3]" in w for w in sg.warnings)


def test_out_of_turn_moves_are_tolerated_with_a_warning() -> None:
    sg = sgf.read_game("(;SZ[9];B[ee];B[cc];W[gg])")
    assert [p for _c, p in sg.game.moves][1] is None
    assert any("out of turn" in w for w in sg.warnings)


def test_game_level_errors_carry_line_and_column() -> None:
    with pytest.raises(SgfError) as info:
        sgf.game_from_sgf("(;SZ[9]\n;B[ee]\n;W[zz])")
    assert (info.value.line, info.value.column) == (3, 1)
    with pytest.raises(SgfError):
        sgf.game_from_sgf("(;GM[4]SZ[15];B[hh])")  # a Renju record is not a Go game
    with pytest.raises(SgfError):
        sgf.game_from_sgf("(;SZ[3])")


def test_dead_stones_from_markers() -> None:
    from duiyi.go import Board

    board = Board.from_stones(9, black=["A1", "E5"], white=["J9", "H8"])
    node = sgf.parse("(;SZ[9]TB[ia][hb][ha]TW[ai][aa])").games[0]
    dead = sgf.dead_stones_from_markers(node, board)
    assert sorted(map(str, dead)) == ["A1", "H8", "J9"]


# ------------------------------------------------------------------------ property tests

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_texts = st.text(
    alphabet=st.one_of(
        st.sampled_from("\\]\n[:;()"),  # the characters SGF cares about, often
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\t\v\f"),
    ),
    max_size=40,
)


@settings(max_examples=100, deadline=None)
@given(_texts)
def test_any_comment_survives_write_and_read(comment: str) -> None:
    node = sgf.SgfNode()
    node.set("C", comment)
    node.add_child({"B": ["aa"]})
    back = sgf.parse(sgf.serialise(node)).games[0]
    assert back.text("C") == comment


@st.composite
def _trees(draw: st.DrawFn) -> sgf.SgfNode:
    root = sgf.SgfNode({"SZ": ["9"]})
    frontier = [root]
    for _ in range(draw(st.integers(0, 25))):
        parent = draw(st.sampled_from(frontier))
        letters = "abcdefghi"
        move = draw(st.sampled_from(letters)) + draw(st.sampled_from(letters))
        props = {draw(st.sampled_from(["B", "W"])): [move]}
        if draw(st.booleans()):
            props["C"] = [sgf.escape(draw(_texts))]
        frontier.append(parent.add_child(props))
    return root


@settings(max_examples=60, deadline=None)
@given(_trees())
def test_any_tree_round_trips(root: sgf.SgfNode) -> None:
    text = sgf.serialise(root)
    back = sgf.parse(text).games[0]
    assert [n.properties for n in back.walk()] == [n.properties for n in root.walk()]
    assert [len(n.children) for n in back.walk()] == [len(n.children) for n in root.walk()]
    assert sgf.serialise(back) == text


@pytest.mark.parametrize("comment", ["a\\\nb", "ends with \\", "\\]\\\\]", "x\\\n\\\ny"])
def test_escaped_backslash_before_a_newline_is_not_a_soft_break(comment: str) -> None:
    node = sgf.SgfNode()
    node.set("C", comment)
    assert sgf.parse(sgf.serialise(node)).games[0].text("C") == comment


@pytest.mark.parametrize("loser", [BLACK, WHITE])
def test_resignation_survives_the_sgf_round_trip(loser: Color) -> None:
    # Go §7.2: a resignation ends the game; RE[B+R]/RE[W+R] read back as the same outcome
    g = Game(9)
    g.play("E5")
    g.play("C3")
    g.resign(loser)
    text = sgf.game_to_sgf(g)
    assert f"RE[{loser.opponent.letter}+R]" in text
    back = sgf.game_from_sgf(text)
    assert back.outcome() == g.outcome()
    assert back.sgf_result == g.sgf_result and back.result_zh == g.result_zh
    assert back.phase is Phase.FINISHED and back.moves == g.moves


@pytest.mark.parametrize(
    ("termination", "article", "code"),
    [(Termination.TIME, "Go §22", "T"), (Termination.FORFEIT, "Go §13.1", "F")],
)
@pytest.mark.parametrize("winner", [BLACK, WHITE])
def test_time_and_forfeit_survive_the_sgf_round_trip(
    winner: Color, termination: Termination, article: str, code: str
) -> None:
    # Go §22 (time), Go §13.1 (forfeit): results decided off the board come back from RE
    g = Game(9)
    g.play("E5")
    g.end(Outcome.win(winner, termination, article))
    text = sgf.game_to_sgf(g)
    assert f"RE[{winner.letter}+{code}]" in text
    back = sgf.game_from_sgf(text)
    assert back.outcome() == g.outcome()
    assert sgf.game_to_sgf(back) == text


def test_recorded_resignation_after_two_passes_and_long_forms() -> None:
    # Go §7.2: resigning is possible while counting too; "W+Resign" is the long form of W+R
    g = sgf.game_from_sgf("(;SZ[9]RE[W+Resign];B[ee];W[];B[])")
    outcome = g.outcome()
    assert outcome is not None and outcome.winner is WHITE
    assert outcome.termination is Termination.RESIGNATION and outcome.article == "Go §7.2"
    assert sgf.game_from_sgf("(;SZ[9]RE[b+time];B[ee])").sgf_result == "B+T"


@pytest.mark.parametrize("re", ["B+1.5", "W+0.5", "0", "Draw", "Void", "?", "B+"])
def test_counted_and_undecidable_results_are_not_applied(re: str) -> None:
    # Go §8–§9: a count needs the players' marking and acceptance, which the file does not
    # record; the game stays where the moves leave it
    playing = sgf.game_from_sgf(f"(;SZ[9]RE[{re}];B[ee];W[cc])")
    assert playing.outcome() is None and playing.phase is Phase.PLAYING
    counting = sgf.game_from_sgf(f"(;SZ[9]RE[{re}];B[ee];W[cc];B[];W[])")
    assert counting.outcome() is None and counting.phase is Phase.COUNTING


def test_result_is_not_applied_to_a_partial_replay_or_on_request() -> None:
    # Go §7.2: the resignation comes after the last move, not in the middle of the game
    text = "(;SZ[9]RE[B+R];B[ee];W[cc];B[gg])"
    assert sgf.game_from_sgf(text, until_move=2).outcome() is None
    assert sgf.game_from_sgf(text, until_move=3).sgf_result == "B+R"
    assert sgf.game_from_sgf(text, apply_result=False).outcome() is None
    assert sgf.read_game(text).game.outcome() is None  # read_game keeps the replayed state
