"""Tolerant replay of recorded moves: one place for SGF records and GTP controllers.

A record (SGF) or a controller (GTP) may give two moves of one colour in a row, or go on after two
passes. GTP lets the controller "play either colour at any time"; real SGF files do the same.
duiyi keeps its game rules-exact by writing what must have happened in between:

* a move out of turn: the side to move passed first (a :class:`~duiyi.go.actions.Pass` is
  inserted);
* a stone after play ended by two passes (Go §7.3): the player did not agree to end, so play
  resumes with that player to move (Go §21.1, :class:`~duiyi.go.actions.Resume`);
* a pass after play ended: nothing changes (play has already ended).

Each tolerance is reported in ``warnings``. If the move itself is illegal, the game is left as it
was (inserted actions are taken back) and :class:`~duiyi.errors.IllegalMove` names the move.

>>> from duiyi import BLACK, WHITE
>>> from duiyi.go import Game
>>> g = Game(9); notes: list[str] = []
>>> play_recorded(g, BLACK, Point.parse("D4", 9), notes)
>>> play_recorded(g, WHITE, None, notes)
>>> play_recorded(g, WHITE, Point.parse("E5", 9), notes)
>>> [(c.letter, str(p) if p else "pass") for c, p in g.moves]
[('B', 'D4'), ('W', 'pass'), ('B', 'pass'), ('W', 'E5')]
>>> notes[-1]
'move by white after two passes: play resumed (Go §21.1)'
"""

from __future__ import annotations

from duiyi import Color
from duiyi.errors import DuiyiError, IllegalMove
from duiyi.go.game import Game, Phase
from duiyi.go.point import Point

__all__ = ["play_recorded"]


def play_recorded(
    game: Game,
    color: Color,
    point: Point | None,
    warnings: list[str] | None = None,
    number: int | None = None,
    where: str = "",
) -> None:
    """Play ``color`` at ``point`` (``None``: a pass) as a record or a controller means it.

    ``number`` (the move's number in the record) and ``where`` (``"line 12, column 3"``) name
    the move in errors and notes; ``warnings`` collects the notes.
    """
    what = (f"{where}: " if where else "") + ("move " if number is None else f"move {number} ")
    name = ("" if number is None else f"#{number} ") + color.letter
    name += " pass" if point is None else f" {point}"
    if where:
        name += f" ({where.split(',')[0]})"
    if game.phase is Phase.FINISHED:
        raise IllegalMove("the game is already over", "Go §7", name)
    if game.phase is Phase.PLAYING and color is game.to_move:
        try:
            game.play(point, color)
        except IllegalMove as exc:
            raise IllegalMove(exc.reason, exc.article, move=name) from None
        return
    notes: list[str] = []
    before = len(game.actions)
    try:
        if game.phase is Phase.COUNTING and point is None:
            notes.append(f"{what}by {color}: a pass after play ended changes nothing (Go §7.3)")
        else:
            if game.phase is Phase.PLAYING:  # out of turn: the side to move passed first
                notes.append(f"{what}by {color} out of turn: a pass was inserted")
                game.pass_move(game.to_move)
            if game.phase is Phase.COUNTING:
                notes.append(f"{what}by {color} after two passes: play resumed (Go §21.1)")
                game.resume(color)
            game.play(point, color)
    except DuiyiError as exc:
        while len(game.actions) > before:
            game.undo()
        if isinstance(exc, IllegalMove):
            raise IllegalMove(exc.reason, exc.article, move=name) from None
        raise
    if warnings is not None:
        warnings.extend(notes)
