"""The game records of an event's online games as the event names them: each game's SGF with
the board's players (PB, PW), the event (EV), the round (RO) and, when the record itself has no
result (a result entered at the desk closed the game), the event's result (RE)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from duiyi.sgf import parse, serialise
from duiyi.tournament.model import Event
from duiyi.tournament.results import GameResult

__all__ = ["MISSING_NOTE", "Missing", "missing_records", "missing_text", "named_record"]

#: the event's results as SGF writes them (FF[4] RE: ``B+``, ``W+``, ``0`` a draw, ``Void``
#: no result; ``F`` a forfeit)
SGF_RESULTS: dict[GameResult, str] = {
    GameResult.BLACK_WINS: "B+",
    GameResult.WHITE_WINS: "W+",
    GameResult.DRAW: "0",
    GameResult.FORFEIT_BLACK: "W+F",
    GameResult.FORFEIT_WHITE: "B+F",
    GameResult.DOUBLE_FORFEIT: "Void",
    GameResult.BOTH_LOSE: "Void",
    GameResult.NO_RESULT: "Void",
}


def named_record(event: Event, round_number: int, board: int, sgf: str, earlier: int = 0) -> str:
    """``sgf`` (an online game of ``event`` on ``board`` of round ``round_number``) with the
    players' names, the event, the round and the result. ``earlier`` counts the games played on
    the board after this one (a drawn knockout game replayed with colours reversed, Go §27.3,
    Gomoku §18.3(1)C): an odd count reverses the names; only the last game takes the event's
    result.

    >>> from duiyi.tournament.event import add_players, enter_result, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> import random
    >>> e = add_players(new_event("Club", "go", "swiss", 1), [Player(0, "An"), Player(0, "Bo")])
    >>> e, _ = pair_next_round(e, random.Random(1))
    >>> e = enter_result(e, 1, 1, GameResult.WHITE_WINS)
    >>> named_record(e, 1, 1, "(;FF[4]GM[1]SZ[9];B[ee])").splitlines()
    ['(;GM[1]FF[4]SZ[9]PB[An]PW[Bo]EV[Club]RO[1]RE[W+]', ';B[ee])']
    """
    game = event.round(round_number).game(board)
    collection = parse(sgf)
    root = collection.games[0]
    black, white = (game.white, game.black) if earlier % 2 else (game.black, game.white)
    root.set("PB", event.player(black).name)
    root.set("PW", event.player(white).name)
    root.set("EV", event.name)
    root.set("RO", str(round_number))
    if "RE" not in root and game.result is not None and not earlier:
        root.set("RE", SGF_RESULTS[game.result])
    return serialise(collection)


@dataclass(frozen=True)
class Missing:
    """A board of the event with no game record: ``why`` is ``desk`` (its result was entered
    at the desk, the board was not played online), ``forfeit`` (no game was played: a forfeit)
    or ``pending`` (no online game and no result yet)."""

    round: int
    board: int
    black: str
    white: str
    result: GameResult | None
    why: str


def missing_records(event: Event, online: Collection[tuple[int, int]]) -> list[Missing]:
    """The boards of ``event``'s paired rounds without an online game (``online``: the
    ``(round, board)`` of each), which the event's SGF archive cannot hold, and why.

    >>> from duiyi.tournament.event import add_players, enter_result, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> import random
    >>> e = add_players(new_event("Club", "go", "swiss", 1), [Player(0, n) for n in "ABCD"])
    >>> e, _ = pair_next_round(e, random.Random(1))
    >>> e = enter_result(e, 1, 2, GameResult.FORFEIT_WHITE)
    >>> [(m.round, m.board, m.why) for m in missing_records(e, {(1, 1)})]
    [(1, 2, 'forfeit')]
    """
    out = []
    for rnd in event.history:
        for g in rnd.games:
            if (rnd.number, g.board) in online:
                continue
            if g.result is None:
                why = "pending"
            elif not g.result.played:
                why = "forfeit"
            else:
                why = "desk"
            black, white = event.player(g.black).name, event.player(g.white).name
            out.append(Missing(rnd.number, g.board, black, white, g.result, why))
    return out


#: what the archive says of a board without a record, in English and Chinese
MISSING_NOTE = {
    "desk": (
        "result entered at the desk, not played online: no moves recorded",
        "编排台录入成绩，未在网上对局：没有着手记录",
    ),
    "forfeit": ("a forfeit: no game was played", "弃权：未进行对局"),
    "pending": ("not played online, no result yet", "未在网上对局，尚无成绩"),
}


def missing_text(event: Event, missing: list[Missing]) -> str:
    """The archive's ``missing.txt``: each board without a record and why (empty when none).

    >>> from duiyi.tournament.model import Event
    >>> print(missing_text(Event("Club", "go", "swiss", 1),
    ...                    [Missing(1, 2, "An", "Bo", GameResult.BLACK_WINS, "desk")]))
    Club: boards without a game record in this archive / 本档案未收录棋谱的台次
    round 1 board 2 (第1轮第2台): An – Bo, 1-0: result entered at the desk, not played online: no moves recorded / 编排台录入成绩，未在网上对局：没有着手记录
    <BLANKLINE>
    """
    if not missing:
        return ""
    lines = [f"{event.name}: boards without a game record in this archive / 本档案未收录棋谱的台次"]
    for m in missing:
        en, zh = MISSING_NOTE[m.why]
        result = "" if m.result is None else f", {m.result.value}"
        lines.append(
            f"round {m.round} board {m.board} (第{m.round}轮第{m.board}台): "
            f"{m.black} – {m.white}{result}: {en} / {zh}"
        )
    return "\n".join(lines) + "\n"
