"""SVG pictures of positions."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from duiyi import BLACK
from duiyi.go import Board, Game, Point
from duiyi.go import svg as svgmod

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def classes(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_svg_is_well_formed_with_stones_and_coordinates() -> None:
    board = Board.from_stones(9, black=["E5", "C3"], white=["G7"])
    root = parse(svgmod.board(board))
    assert root.tag == f"{NS}svg"
    assert len(classes(root, "black")) == 2
    assert len(classes(root, "white")) == 1
    texts = [t.text for t in root.iter(f"{NS}text")]
    # GTP letters skip I (the book's coordinates); numbers 1–9 on both sides.
    assert "I" not in texts and "J" in texts and texts.count("9") == 2
    assert len(classes(root, "star")) == 5


def test_stone_positions_follow_rows_from_the_bottom() -> None:
    board = Board.from_stones(9, black=["A1"], white=["J9"])
    root = parse(svgmod.board(board, coordinates=False))
    (b,) = classes(root, "black")
    (w,) = classes(root, "white")
    assert float(b.get("cx", "0")) < float(w.get("cx", "0"))
    assert float(b.get("cy", "0")) > float(w.get("cy", "0"))  # A1 is drawn at the bottom


def test_game_marks_the_last_move_and_options() -> None:
    g = Game(9)
    g.play("E5")
    g.play("D5")
    root = parse(svgmod.board(g, dead=["E5"], territory={Point.parse("A1"): BLACK}))
    assert len(classes(root, "last")) == 1
    assert len(classes(root, "dead")) == 1
    assert len(classes(root, "territory")) == 1
    g.pass_move()
    root = parse(svgmod.board(g))
    assert classes(root, "last") == []  # a pass leaves nothing to mark


def test_notebook_wrapper() -> None:
    pic = svgmod.SvgBoard(Board.from_stones(13, white=["G7"]), size=200)
    text = pic._repr_svg_()
    assert 'width="200"' in text and str(pic) == text
    assert len(classes(parse(text), "white")) == 1
    assert len(svgmod.star_points(13)) == 5 and len(svgmod.star_points(19)) == 9
