"""Result entry: one record per board, with its source and its audit trail.

Every result reaches an event through :func:`record_result`, whatever sends it: the director's
desk (CLI, web, API), a finished online game, an arbiter's ruling or an imported file. The
board keeps where its result came from, every change (who, when, the value before) and any
result that disagreed and was not applied:

- an online game's result never overwrites a result entered by the director, an arbiter or an
  import: a different one is kept as the board's ``conflict`` until the director accepts or
  rejects it (:func:`resolve_conflict`);
- once the next round is paired, a change to an earlier round's result is refused unless the
  director confirms it (``force``); the answer names the later pairings made on the old result;
- a typed :class:`~duiyi.tournament.results.ResultSheet` carries the warnings (Go §24, a
  tiebreak by Go §27.1(1)B), the one-sided disciplinary losses (Gomoku §2.20(3): the offender
  loses, the opponent keeps the board's result) and disqualifications (Gomoku §2.20(4): the
  player leaves the event under the withdrawal rules, Go §28 / Gomoku §18.5).

>>> import random
>>> from duiyi.tournament.event import add_players, new_event, pair_next_round
>>> from duiyi.tournament.model import Player
>>> e = add_players(new_event("Club", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
>>> e, _ = pair_next_round(e, random.Random(1))
>>> done = record_result(e, 1, 2, ResultSheet(GameResult.BLACK_WINS), source=Source.DIRECTOR)
>>> online = record_result(done.event, 1, 2, ResultSheet(GameResult.WHITE_WINS),
...                        source=Source.ONLINE, by="game g2")
>>> online.status, online.event.round(1).game(2).result.value
('conflict', '1-0')
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from duiyi import Color
from duiyi.errors import TournamentError
from duiyi.tournament import event as ops
from duiyi.tournament import systems
from duiyi.tournament.model import Event, Game
from duiyi.tournament.results import (
    AuditEntry,
    GameResult,
    ResultConflict,
    ResultSheet,
    Source,
)
from duiyi.tournament.withdrawal import article

__all__ = [
    "AUTHORITATIVE",
    "DRAWN",
    "Affected",
    "Entered",
    "affected_pairings",
    "hold",
    "record_online",
    "record_result",
    "record_sheet",
    "resolve_conflict",
    "sheet_of",
    "withdraw",
]

#: Sources an online game's result never overwrites.
AUTHORITATIVE = (Source.DIRECTOR, Source.ARBITER, Source.IMPORT)

#: The results a drawn game of an elimination round has (settled by replay or lot).
DRAWN = (GameResult.DRAW, GameResult.NO_RESULT)

#: Where the house decided what the books leave open (docs/decisions.md).
AFTER_PAIRING = "decisions: results after pairing"


@dataclass(frozen=True)
class Affected:
    """A later pairing made while the board had its old result."""

    round: int
    board: int
    black: int
    white: int

    def to_json(self) -> dict[str, int]:
        """A JSON-ready dict."""
        return {"round": self.round, "board": self.board, "black": self.black, "white": self.white}


@dataclass(frozen=True)
class Entered:
    """What :func:`record_result` did.

    ``status`` is ``entered`` (the board changed), ``unchanged`` (the same result again),
    ``conflict`` (kept on the board for the director, nothing applied) or ``resolved`` (a
    conflict rejected). ``affected`` lists the later pairings made on the old result when an
    earlier round was changed; ``withdrawn`` the players who left the event by
    disqualification.
    """

    event: Event
    status: str
    round: int
    board: int
    affected: tuple[Affected, ...] = ()
    withdrawn: tuple[int, ...] = ()

    @property
    def game(self) -> Game:
        """The board after the entry."""
        return _board(self.event, self.round, self.board)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (the board, the status, the affected pairings)."""
        return {
            "status": self.status,
            "round": self.round,
            "board": self.game.to_json(),
            "affected": [a.to_json() for a in self.affected],
            "withdrawn": list(self.withdrawn),
        }


def _same(a: ResultSheet | None, b: ResultSheet | None) -> bool:
    """Equal as board results (result, warnings, penalties; disqualification is not a result)."""
    if a is None or b is None:
        return a is b
    return (a.result, a.black_warnings, a.white_warnings, a.penalty) == (
        b.result,
        b.black_warnings,
        b.white_warnings,
        b.penalty,
    )


def _show(sheet: ResultSheet | None) -> str:
    if sheet is None:
        return "no result"
    text = sheet.result.value
    if sheet.penalty:
        text += " (disciplinary loss: " + ", ".join(sorted(c.value for c in sheet.penalty)) + ")"
    return text


def affected_pairings(event: Event, round_number: int, board: int) -> tuple[Affected, ...]:
    """The later rounds' pairings of the two players of ``board`` in ``round_number``: they
    were made on the result the board had then.

    >>> import random
    >>> from duiyi.tournament.event import _example, pair_next_round
    >>> e, _ = pair_next_round(_example(), random.Random(1))
    >>> [a.round for a in affected_pairings(e, 1, 1)]
    [2, 2]
    """
    game = _board(event, round_number, board)
    out: list[Affected] = []
    for rnd in event.history[round_number:]:
        for g in rnd.games:
            if set(g.players) & set(game.players):
                out.append(Affected(rnd.number, g.board, g.black, g.white))
    return tuple(out)


def _board(event: Event, round_number: int, board: int) -> Game:
    return event.round(round_number).game(board)


def _put(event: Event, round_number: int, game: Game) -> Event:
    return ops.put_game(event, round_number, game)  # one board changes: no re-check of all


def _disqualify(
    event: Event, round_number: int, board: int, sheet: ResultSheet
) -> tuple[Event, tuple[int, ...]]:
    """Players the sheet disqualifies leave the event: the books say nothing of their results,
    so the withdrawal rules apply (Gomoku §2.20(4), §18.5; Go §28)."""
    game = _board(event, round_number, board)
    gone: list[int] = []
    for color in (Color.BLACK, Color.WHITE):
        number = game.black if color is Color.BLACK else game.white
        if color in sheet.disqualified and event.withdrawal_of(number) is None:
            event = ops.withdraw(event, number)
            gone.append(number)
    return event, tuple(gone)


def _apply(
    event: Event,
    round_number: int,
    board: int,
    sheet: ResultSheet | None,
    entry: AuditEntry,
) -> Event:
    """Validate ``sheet`` with the event's rules, then write it on the board with its source,
    its audit entry, and no conflict left."""
    game = _board(event, round_number, board)
    if sheet is None:
        checked = ops.enter_result(event, round_number, board, None)
    else:
        checked = ops.enter_result(
            event,
            round_number,
            board,
            sheet.result,
            sheet.black_warnings,
            sheet.white_warnings,
        )
    new = replace(
        game.with_sheet(sheet),
        source=entry.source,
        trail=(*game.trail, entry),
        conflict=None,
    )
    return _put(checked, round_number, new)


def record_result(
    event: Event,
    round_number: int,
    board: int,
    sheet: ResultSheet | None,
    *,
    source: Source,
    by: str = "",
    at: float | None = None,
    force: bool = False,
    note: str = "",
) -> Entered:
    """Enter, correct (or clear, with None) the result of one board from ``source``.

    ``by`` names who entered it (``"organiser"``, ``"game <id>"``), ``at`` when (wall seconds,
    given by the caller). An online result (``Source.ONLINE``) that disagrees with a result
    entered by the director, an arbiter or an import, or with any result of a round already
    followed by a paired round, is not applied but kept as the board's conflict. A result from
    the desk that changes a round already followed by a paired round needs ``force``.

    >>> import random
    >>> from duiyi.tournament.event import _example, pair_next_round
    >>> e, _ = pair_next_round(_example(), random.Random(1))
    >>> record_result(e, 1, 1, ResultSheet(GameResult.DRAW), source=Source.DIRECTOR)
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: round 1 board 1: round 2 is already paired on the result 1-0; changing it to draw needs the director's confirmation (force) and affects round 2 boards 1, 2 (decisions: results after pairing)
    >>> done = record_result(e, 1, 1, ResultSheet(GameResult.DRAW), source=Source.DIRECTOR,
    ...                      force=True, by="desk")
    >>> done.game.result.value, done.game.trail[-1].previous.result.value, len(done.affected)
    ('draw', '1-0', 2)
    """
    game = _board(event, round_number, board)
    current = game.sheet
    later = round_number < event.current_round
    if _same(sheet, current):
        status = "unchanged"
        if source not in AUTHORITATIVE or game.conflict is None:
            withdrawn: tuple[int, ...] = ()
            if sheet is not None and sheet.disqualified:
                event, withdrawn = _disqualify(event, round_number, board, sheet)
            return Entered(event, status, round_number, board, (), withdrawn)
        # the desk entered the board's result again: that settles the conflict for it
        kept = AuditEntry(source, by, at, current, current, note or "conflict rejected")
        event = _put(event, round_number, replace(game, trail=(*game.trail, kept), conflict=None))
        return Entered(event, "resolved", round_number, board)
    if source is Source.ONLINE:
        authoritative = game.source in AUTHORITATIVE or (
            game.source is None and current is not None
        )
        if sheet is None or authoritative or later:
            if sheet is None:
                return Entered(event, "unchanged", round_number, board)
            whose = game.source.value if game.source is not None else "event file"
            reason = f"the board has {_show(current)} from the {whose}"
            if later:
                reason += f"; round {event.current_round} is already paired"
            return hold(event, round_number, board, sheet, source, by, at, reason)
    affected: tuple[Affected, ...] = ()
    if later and current is not None:
        affected = affected_pairings(event, round_number, board)
        if not force:
            where = ", ".join(
                f"round {r} board{'s' if len(bs) > 1 else ''} {', '.join(map(str, bs))}"
                for r, bs in _by_round(affected)
            )
            raise TournamentError(
                f"round {round_number} board {board}: round {round_number + 1} is already "
                f"paired on the result {_show(current)}; changing it to {_show(sheet)} needs "
                f"the director's confirmation (force) and affects {where or 'no pairing'}",
                AFTER_PAIRING,
                code="result-after-next-pairing",
                values={
                    "round": str(round_number),
                    "board": str(board),
                    "next": str(round_number + 1),
                },
            )
    entry = AuditEntry(source, by, at, sheet, current, note)
    event = _apply(event, round_number, board, sheet, entry)
    withdrawn = ()
    if sheet is not None and sheet.disqualified:
        event, withdrawn = _disqualify(event, round_number, board, sheet)
    return Entered(event, "entered", round_number, board, affected, withdrawn)


def record_sheet(
    event: Event,
    lines: Iterable[tuple[int, int, ResultSheet | None]],
    *,
    source: Source,
    by: str = "",
    at: float | None = None,
    force: bool = False,
) -> tuple[Event, list[Entered]]:
    """Enter a results sheet, lines ``(round, board, sheet)`` in order, each as
    :func:`record_result` would; a line refused refuses the whole sheet (the caller stores
    nothing). The event after the last line, and what each line did.

    >>> import random
    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> e = add_players(new_event("Club", "go", "swiss", 3), [Player(0, n) for n in "ABCD"])
    >>> e, _ = pair_next_round(e, random.Random(1))
    >>> win, loss = ResultSheet(GameResult.BLACK_WINS), ResultSheet(GameResult.WHITE_WINS)
    >>> e, done = record_sheet(e, [(1, 1, win), (1, 2, loss)], source=Source.DIRECTOR)
    >>> [d.status for d in done], e.round(1).game(2).result.value
    (['entered', 'entered'], '0-1')
    """
    done: list[Entered] = []
    for round_number, board, sheet in lines:
        entered = record_result(
            event, round_number, board, sheet, source=source, by=by, at=at, force=force
        )
        event = entered.event
        done.append(entered)
    return event, done


def _settled_by_replay(event: Event, round_number: int, board: int, sheet: ResultSheet) -> bool:
    """Whether a drawn online game's sheet is settled by :func:`ops.settle_draw`: a plain draw
    (no penalty, no disqualification) on a board still without a result, in a round that needs
    a winner, under ``options.knockout_draw`` other than ``refuse`` (which holds it for the
    director)."""
    if sheet.result not in DRAWN or sheet.penalty or sheet.disqualified:
        return False
    if event.options.knockout_draw == "refuse":
        return False
    game = _board(event, round_number, board)
    return game.result is None and systems.of(event).needs_winner(event, round_number)


def record_online(
    event: Event,
    round_number: int,
    board: int,
    sheet: ResultSheet,
    *,
    game_id: str,
    at: float | None = None,
    settle_draw: bool = False,
    earlier_games: int | None = None,
) -> tuple[Event, str]:
    """Enter the sheet of the board's finished online game ``game_id``: the event after it and
    what the entry did (:class:`Entered`'s statuses, or ``replay`` / ``lot``); ``event`` itself
    when nothing changed. TournamentError when the event cannot even hold it as the board's
    conflict.

    A penalty or a disqualification on the sheet is the arbiter's ruling in that game (source
    ``arbiter``, else ``online``); a sheet the event's rules refuse is held as the board's
    conflict for the director. With ``settle_draw`` (a drawn game of an elimination round
    played online) the board is settled as ``duiyi event play`` settles it
    (:func:`duiyi.tournament.event.settle_draw`): replayed with colours reversed, then decided
    by lot from ``Random(f"{seed}:lot:{round}:{board}")``, the seed being ``options.seed`` or
    else the drawn game's id (kept with the lot); the trail names the game (``game <id>``, at
    ``at``) as what settled it. ``earlier_games``: how many online games the board played
    before this one; a board settled more often than that has had this game's draw settled
    already (the director at the desk, before the sheet arrived): ``unchanged``, never a
    second replay.

    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> e = add_players(new_event("Cup", "go", "knockout", 0), [Player(0, "A"), Player(0, "B")])
    >>> e, _ = pair_next_round(e)
    >>> after, status = record_online(e, 1, 1, ResultSheet(GameResult.DRAW), game_id="g1",
    ...                               settle_draw=True)
    >>> status, after.round(1).game(1).replays
    ('replay', 1)
    >>> after.round(1).game(1).trail[-1].by
    'game g1'
    >>> record_online(after, 1, 1, ResultSheet(GameResult.DRAW), game_id="g1",
    ...               settle_draw=True, earlier_games=0)[1]  # settled already: not again
    'unchanged'
    >>> record_online(e, 1, 1, ResultSheet(GameResult.DRAW), game_id="g1")[1]
    'conflict'
    """
    if settle_draw and _settled_by_replay(event, round_number, board, sheet):
        if earlier_games is not None and _board(event, round_number, board).replays > earlier_games:
            return event, "unchanged"
        seed = game_id if event.options.seed is None else event.options.seed
        drawn_from = f"{seed}:lot:{round_number}:{board}"
        lot = random.Random(drawn_from)
        # settled by the event's rule on the online game's draw: the trail names the game
        # (the result's source stays the arbiter's, docs/server.md "Drawn elimination games")
        after = ops.settle_draw(
            event,
            round_number,
            board,
            sheet.result,
            lot,
            by=f"game {game_id}",
            at=at,
            seed=drawn_from,
        )
        return after, "replay" if _board(after, round_number, board).lot is None else "lot"
    source = Source.ARBITER if sheet.penalty or sheet.disqualified else Source.ONLINE
    by = f"game {game_id}"
    try:
        done = record_result(event, round_number, board, sheet, source=source, by=by, at=at)
    except TournamentError as exc:
        # refused by the event's rules: the director sees it on the board
        try:
            done = hold(event, round_number, board, sheet, source, by, at, str(exc))
        except TournamentError:
            raise exc from None
    if done.status == "unchanged" and done.event == event:
        return event, done.status
    return done.event, done.status


def hold(
    event: Event,
    round_number: int,
    board: int,
    sheet: ResultSheet,
    source: Source,
    by: str,
    at: float | None,
    reason: str,
) -> Entered:
    """Keep ``sheet`` as the board's conflict, unapplied, for the director (a later one
    replaces an earlier one).

    >>> from duiyi.tournament.event import _example
    >>> done = hold(_example(), 1, 1, ResultSheet(GameResult.DRAW), Source.ONLINE, "g", None, "x")
    >>> done.status, done.game.conflict.sheet.result.value, done.game.result.value
    ('conflict', 'draw', '1-0')
    """
    game = _board(event, round_number, board)
    conflict = ResultConflict(sheet, source, by, at, reason)
    event = _put(event, round_number, replace(game, conflict=conflict))
    return Entered(event, "conflict", round_number, board)


def _by_round(affected: tuple[Affected, ...]) -> list[tuple[int, list[int]]]:
    rounds: dict[int, list[int]] = {}
    for a in affected:
        rounds.setdefault(a.round, []).append(a.board)
    return sorted(rounds.items())


def resolve_conflict(
    event: Event,
    round_number: int,
    board: int,
    *,
    accept: bool,
    by: str = "",
    at: float | None = None,
    force: bool = False,
) -> Entered:
    """The director settles a board's conflict: ``accept`` enters the disagreeing result (as
    the director's, with ``force`` if a later round is paired), otherwise the board keeps its
    result; either way the conflict leaves the board and the trail says so.

    >>> import random
    >>> from duiyi.tournament.event import _example, pair_next_round
    >>> e = record_result(_example(), 1, 1, ResultSheet(GameResult.WHITE_WINS),
    ...                   source=Source.ONLINE, by="game g1").event
    >>> e.round(1).game(1).conflict.reason
    'the board has 1-0 from the event file'
    >>> r = resolve_conflict(e, 1, 1, accept=True, by="desk")
    >>> r.game.result.value, r.game.source.value, r.game.conflict
    ('0-1', 'director', None)
    """
    game = _board(event, round_number, board)
    conflict = game.conflict
    if conflict is None:
        raise TournamentError(
            f"round {round_number} board {board} has no conflict to resolve",
            code="no-conflict",
            values={"round": str(round_number), "board": str(board)},
        )
    if accept:
        note = f"accepted the {conflict.source.value} result ({conflict.by})"
        return record_result(
            event,
            round_number,
            board,
            conflict.sheet,
            source=Source.DIRECTOR,
            by=by,
            at=at,
            force=force,
            note=note,
        )
    current = game.sheet
    note = f"rejected the {conflict.source.value} result {_show(conflict.sheet)} ({conflict.by})"
    kept = AuditEntry(Source.DIRECTOR, by, at, current, current, note)
    event = _put(event, round_number, replace(game, trail=(*game.trail, kept), conflict=None))
    return Entered(event, "resolved", round_number, board)


def sheet_of(
    result: GameResult | None,
    black_warnings: int = 0,
    white_warnings: int = 0,
    penalty: tuple[Color, ...] = (),
    disqualified: tuple[Color, ...] = (),
) -> ResultSheet | None:
    """A sheet from the desk's fields (None: clear the board).

    >>> sheet_of(GameResult.DRAW, 1).black_warnings
    1
    """
    if result is None:
        return None
    return ResultSheet(
        result, black_warnings, white_warnings, frozenset(penalty), frozenset(disqualified)
    )


def withdraw(
    event: Event,
    player: int,
    rng: random.Random | None = None,
    *,
    by: str = "",
    at: float | None = None,
) -> Event:
    """:func:`duiyi.tournament.event.withdraw` (Go §28, Gomoku §18.5) with the record kept:
    a board the withdrawal forfeits gets the director as its source and an audit entry.

    >>> from duiyi.tournament.event import _example
    >>> e = withdraw(_example(), 2, by="desk")  # already played: nothing forfeited
    >>> [g.trail for g in e.round(1).games]
    [(), ()]
    """
    out = ops.withdraw(event, player, rng)
    if len(out.history) != len(event.history):
        return out
    note = f"player {player} withdrew ({article(event.game, systems.of(event).family)})"
    for rnd, new_round in zip(event.history, out.history, strict=True):
        if new_round is rnd:
            continue
        for old, new in zip(rnd.games, new_round.games, strict=True):
            if new.result is not None and old.sheet != new.sheet:
                entry = AuditEntry(Source.DIRECTOR, by, at, new.sheet, old.sheet, note)
                stamped = replace(new, source=Source.DIRECTOR, trail=(*old.trail, entry))
                out = _put(out, rnd.number, stamped)
    return out
