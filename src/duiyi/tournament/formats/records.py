"""The game records of an event's online games as the event names them: each game's SGF with
the board's players (PB, PW), the event (EV), the round (RO) and, when the record itself has no
result (a result entered at the desk closed the game), the event's result (RE)."""

from __future__ import annotations

from duiyi.sgf import parse, serialise
from duiyi.tournament.model import Event
from duiyi.tournament.results import GameResult

__all__ = ["named_record"]

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
