"""Pairing by hand (OpenGotha's "pairing by hand"): the director changes the latest round's
pairings before any of its games has a result: swap two players, unpair and re-pair a board,
move the bye. Every player of the round stays in it exactly once; what the books ask of an
automatic Swiss pairing (appendix 五: no rematch, colours balanced, same score first) becomes a
warning for the director, who may keep the change anyway.

>>> import random
>>> from duiyi.tournament.event import add_players, new_event, pair_next_round
>>> from duiyi.tournament.model import Player
>>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
>>> e, _ = pair_next_round(e, random.Random(1))
>>> e2, notes = repair(e, 1, [(1, 3), (2, 4)], [])
>>> [(g.black, g.white) for g in e2.round(1).games], notes
([(1, 3), (2, 4)], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from duiyi.errors import TournamentError
from duiyi.tournament import event as ops
from duiyi.tournament.model import Event, Game, RoundRecord

__all__ = ["PairingWarning", "check", "repair"]

ARTICLE = "Go appendix 五"


@dataclass(frozen=True)
class PairingWarning:
    """Something the automatic pairing would not have done: ``kind`` is ``rematch``,
    ``colour``, ``score`` or ``bye``; ``board`` the board (None for a bye); ``text`` says it."""

    kind: str
    board: int | None
    players: tuple[int, ...]
    text: str
    #: the numbers the text says, for a page that says it in its own words: the colours a
    #: player would have (``B3 W1 (BWBB)``), the two players' points (``2 / 0``)
    detail: str = ""

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "kind": self.kind,
            "board": self.board,
            "players": list(self.players),
            "text": self.text,
            "detail": self.detail,
        }


def _round_open(event: Event, number: int) -> RoundRecord:
    if number != event.current_round or number < 1:
        raise TournamentError(
            f"only the latest paired round ({event.current_round}) can be paired by hand "
            f"(round {number} asked)",
            code="hand-latest-round",
            values={"current": str(event.current_round), "round": str(number)},
        )
    rnd = event.round(number)
    if rnd.matches:
        raise TournamentError(
            "a team round is paired match by match: not by hand here", code="hand-team-round"
        )
    started = [g.board for g in rnd.games if g.result is not None or g.trail]
    if started:
        raise TournamentError(
            f"round {number} has results on board(s) {', '.join(map(str, started))}: it is "
            "changed by hand only before its games start",
            code="hand-results-in",
            values={"round": str(number), "boards": ", ".join(map(str, started))},
        )
    return rnd


def check(
    event: Event, number: int, games: Sequence[tuple[int, int]], byes: Sequence[int]
) -> list[PairingWarning]:
    """The warnings of the pairing ``games`` (black, white) and ``byes`` for round ``number``
    against the rounds before it; refuses a pairing that leaves out, repeats or adds a player.

    >>> import random
    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
    >>> e, _ = pair_next_round(e, random.Random(1))
    >>> check(e, 1, [(1, 2), (3, 3)], [])
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: player 3 is paired twice in round 1
    """
    rnd = _round_open(event, number)
    before = {p for g in rnd.games for p in g.players} | set(rnd.byes)
    seen: set[int] = set()
    for p in [x for g in games for x in g] + list(byes):
        event.player(p)
        if p in seen:
            raise TournamentError(
                f"player {p} is paired twice in round {number}",
                code="hand-paired-twice",
                values={"number": str(p), "round": str(number)},
            )
        seen.add(p)
    if seen != before:
        missing = sorted(before - seen)
        extra = sorted(seen - before)
        what = []
        if missing:
            what.append(f"left out: {', '.join(map(str, missing))}")
        if extra:
            what.append(f"not in this round: {', '.join(map(str, extra))}")
        raise TournamentError(
            f"a pairing by hand keeps the round's players ({'; '.join(what)}); mark absences "
            "before the round is paired",
            code="hand-players-changed",
            values={
                "missing": ", ".join(map(str, missing)) or "—",
                "extra": ", ".join(map(str, extra)) or "—",
            },
        )
    prior = replace(event, history=event.history[: number - 1])
    table = ops.table(prior, number - 1)
    met: dict[int, set[int]] = {}
    colours: dict[int, str] = {}
    had_bye: set[int] = set()
    for r in prior.history:
        for g in r.games:
            met.setdefault(g.black, set()).add(g.white)
            met.setdefault(g.white, set()).add(g.black)
            if g.result is None or g.result.played:
                colours[g.black] = colours.get(g.black, "") + "B"
                colours[g.white] = colours.get(g.white, "") + "W"
        had_bye |= set(r.byes)
    auto = {frozenset(g.players) for g in rnd.games}
    out: list[PairingWarning] = []

    def pts(p: int) -> str:
        v = table.points(p) if p in table.competitors else 0
        return format(float(v), "g")  # points are halves at most: 1.5, never 3/2

    for board, (b, w) in enumerate(games, start=1):
        if w in met.get(b, set()):
            out.append(
                PairingWarning(
                    "rematch",
                    board,
                    (b, w),
                    f"board {board}: {b} and {w} have met before (appendix 五: no rematch)",
                )
            )
        for p, c in ((b, "B"), (w, "W")):
            hist = colours.get(p, "") + c
            balance = hist.count("B") - hist.count("W")
            if abs(balance) >= 2 or hist.endswith(c * 3):
                detail = f"B{hist.count('B')} W{hist.count('W')} ({hist})"
                out.append(
                    PairingWarning(
                        "colour",
                        board,
                        (p,),
                        f"board {board}: {p} would have {detail}: colours unbalanced",
                        detail,
                    )
                )
        if frozenset((b, w)) not in auto and pts(b) != pts(w):
            out.append(
                PairingWarning(
                    "score",
                    board,
                    (b, w),
                    f"board {board}: {b} ({pts(b)} points) and {w} "
                    f"({pts(w)} points) are in different score groups",
                    f"{pts(b)} / {pts(w)}",
                )
            )
    for p in byes:
        if p in had_bye:
            out.append(PairingWarning("bye", None, (p,), f"{p} has had a bye already"))
    return out


def repair(
    event: Event, number: int, games: Sequence[tuple[int, int]], byes: Sequence[int]
) -> tuple[Event, list[PairingWarning]]:
    """Round ``number`` paired as ``games`` (black, white; boards in that order) and ``byes``,
    with the warnings of :func:`check`. Boards keep their handicap of nothing: a hand pairing
    is an even game."""
    notes = check(event, number, games, byes)
    rnd = event.round(number)
    new = replace(
        rnd,
        games=tuple(Game(i, b, w) for i, (b, w) in enumerate(games, start=1)),
        byes=tuple(byes),
    )
    history = (*event.history[: number - 1], new)
    return replace(event, history=history), notes
