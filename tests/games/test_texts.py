"""The state's texts kept from one update to the next (duiyi.games.texts, issue 26) are what
building them afresh gives, whatever the game did in between: moves, passes, captures, undos
(Go §5, §9 and the takeback of a casual game)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from duiyi import Color
from duiyi.games import GoAdapter
from duiyi.go import Game


def fresh(game: Game) -> tuple[list[list[str | None]], dict[str, list[str]]]:
    moves = [[c.value, str(p) if p else None] for c, p in game.moves]
    stones = {c.value: sorted(str(p) for p in game.board.stones(c)) for c in Color}
    return moves, stones


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["play", "pass", "undo", "look"]), st.integers(0, 10**6)),
        max_size=120,
    )
)
def test_kept_texts_equal_texts_built_afresh(steps: list[tuple[str, int]]) -> None:
    game = Game(7)  # a small board: captures come early
    adapter = GoAdapter(game)
    for step, pick in steps:
        if step == "play":
            legal = list(game.legal_moves())
            if legal:
                game.play(legal[pick % len(legal)])
        elif step == "pass" and len(game.moves) < 200:
            if game.moves and game.moves[-1][1] is None:
                continue  # two passes end the game
            game.play(None)
        elif step == "undo" and game.moves:
            game.undo()
        elif step == "look":  # a state built now; several changes may come before the next
            moves, stones = fresh(game)
            assert adapter.state_json()["moves"] == moves
            assert adapter.board_view()["stones"] == stones
    moves, stones = fresh(game)
    assert adapter.state_json()["moves"] == moves
    assert adapter.board_view()["stones"] == stones


def test_a_long_game_is_listed_whole() -> None:
    game = Game(19)
    adapter = GoAdapter(game)
    for i in range(250):
        legal = list(game.legal_moves())
        game.play(legal[(i * 7919) % len(legal)])
        if i % 50 == 0:
            adapter.board_view()  # a state now and then, as the sockets ask
    moves, stones = fresh(game)
    assert adapter.state_json()["moves"] == moves
    assert adapter.board_view()["stones"] == stones
