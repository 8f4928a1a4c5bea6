"""The tournament director's operations on an :class:`~duiyi.tournament.model.Event`.

Every operation is a pure function: it takes an event (and, where chance enters, a
``random.Random``) and returns a new event. What depends on the competition system (rounds,
pairing, withdrawal effects, the final stage, the records the standings read) is asked of the
event's :class:`~duiyi.tournament.systems.System` (:func:`duiyi.tournament.systems.of`); file
I/O lives in :mod:`duiyi.tournament.formats` and the CLI.

>>> import random
>>> e = new_event("Club", "go", "round-robin", 3)
>>> e = add_players(e, [Player(0, "A"), Player(0, "B"), Player(0, "C"), Player(0, "D")])
>>> e, rnd = pair_next_round(e, random.Random(1))
>>> [(g.board, g.black, g.white) for g in e.round(1).games]
[(1, 1, 4), (2, 2, 3)]
>>> e = enter_result(e, 1, 1, GameResult.BLACK_WINS)
>>> e = enter_result(e, 1, 2, GameResult.DRAW)
>>> [(s.place, s.number) for s in event_standings(e)]
[(1, 1), (2, 2), (2, 3), (4, 4)]
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from duiyi import Color
from duiyi.errors import PairingError, TournamentError
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.outcome import Outcome
from duiyi.tournament import systems
from duiyi.tournament.model import (
    Event,
    Game,
    Lot,
    Player,
    RoundRecord,
    Team,
    Withdrawal,
    rank_value,
)
from duiyi.tournament.options import EventOptions
from duiyi.tournament.results import (
    AuditEntry,
    GameResult,
    ResultSheet,
    SideResult,
    Source,
    Table,
)
from duiyi.tournament.standings import Standing
from duiyi.tournament.systems.base import Lots, PairedRound
from duiyi.tournament.systems.base import colour as _colour
from duiyi.tournament.systems.groups import (
    final_chain,
    final_players,
    final_stage_rounds,
    final_standings,
    final_table,
    group_members,
    group_stage_rounds,
    group_standings,
)
from duiyi.tournament.systems.matches import relay_state
from duiyi.tournament.systems.swiss import eliminated, mcmahon_initial
from duiyi.tournament.tiebreaks import Columns, Tiebreak, columns
from duiyi.tournament.withdrawal import Effect, article

__all__ = [
    "DRAW_POLICIES",
    "PairedRound",
    "add_players",
    "chain",
    "crosstable",
    "draw_lots",
    "draw_numbers",
    "eliminated",
    "enter_outcome",
    "enter_result",
    "enter_results",
    "event_standings",
    "final_chain",
    "final_players",
    "final_stage_rounds",
    "final_standings",
    "final_table",
    "format_fraction",
    "grid",
    "group_members",
    "group_stage_rounds",
    "group_standings",
    "mcmahon_initial",
    "new_event",
    "pair_next_round",
    "player_rows",
    "put_game",
    "relay_state",
    "settle_draw",
    "simulate",
    "table",
    "team_chain",
    "team_rows",
    "team_standings",
    "team_table",
    "total_rounds",
    "withdraw",
    "withdrawal_effects",
]


def _example() -> Event:
    """A Go round robin of four with round 1 finished (1–4 1-0, 2–3 draw); examples use it."""
    e = new_event("Club", "go", "round-robin", 3)
    e = add_players(e, [Player(0, n, "1d", 2000 + 100 * i) for i, n in enumerate("ABCD")])
    e, _ = pair_next_round(e)
    e = enter_result(e, 1, 1, GameResult.BLACK_WINS)
    return enter_result(e, 1, 2, GameResult.DRAW)


def new_event(
    name: str,
    game: GameType | str,
    system: str,
    rounds: int | None = None,
    options: EventOptions | Mapping[str, Any] | None = None,
) -> Event:
    """A new event without players.

    ``rounds`` is required for the Swiss-type systems. The systems of
    :data:`~duiyi.tournament.model.ROUNDS_FROM_SYSTEM` (``rounds_from_field``) need none: their events store 0 ("from
    the system") until the players are entered, then the count the system gives (Berger table:
    n − 1 rounds for an even field, n for an odd one, times the cycles; the bracket for
    eliminations); a ``rounds`` given for them is replaced then.

    >>> new_event("Open", "gomoku", "swiss", 7).scoring.win
    Fraction(1, 1)
    >>> e = new_event("League", "go", "round-robin")
    >>> e.rounds, add_players(e, [Player(0, n) for n in "ABCDEF"]).rounds
    (0, 5)
    >>> new_event("Final", "go", "match", options={"games": 5}).rounds
    5
    """
    # each option as its system reads it, checked and typed once (duiyi.tournament.options)
    opts = options if isinstance(options, EventOptions) else EventOptions.from_json(options or {})
    if rounds is None:
        known = systems.registered().get(system)
        if known is not None and not known.rounds_from_field:
            raise TournamentError(
                f"a {system} event needs its number of rounds (--rounds)", code="rounds-needed"
            )
        rounds = 0
    return _rounds_from_system(Event(name, get_game(game), system, rounds, options=opts))


def _rounds_from_system(event: Event) -> Event:
    """``event`` with ``rounds`` set to what its system gives, when the system decides it and
    the field is known (see :func:`total_rounds`)."""
    if not systems.of(event).rounds_from_field:
        return event
    try:
        count = total_rounds(event)
    except TournamentError:  # e.g. a bracket option the pairing will reject with its reason
        return event
    return event if count in (event.rounds, 0) else replace(event, rounds=count)


def add_players(event: Event, players: Iterable[Player]) -> Event:
    """Enter players, numbered after those already in (their own ``number`` is ignored).

    Round robin and elimination fields are closed once round 1 is paired; Swiss-type events
    accept late entries.

    >>> [p.number for p in _example().players]
    [1, 2, 3, 4]
    """
    if event.history and not systems.of(event).late_entries:
        raise TournamentError(
            f"players cannot join a {event.system} event after round 1 is paired",
            code="entries-closed",
            values={"system": event.system},
        )
    out = list(event.players)
    names = {(p.name.casefold()) for p in out}
    for p in players:
        if not p.name.strip():
            raise TournamentError(
                f"player {len(out) + 1} has no name",
                code="player-no-name",
                values={"number": str(len(out) + 1)},
            )
        if p.name.casefold() in names:
            raise TournamentError(
                f"player {p.name!r} is already entered",
                code="player-entered",
                values={"name": p.name},
            )
        names.add(p.name.casefold())
        out.append(replace(p, number=len(out) + 1))
    added = _assign_teams(replace(event, players=tuple(out)), len(event.players))
    if event.history:  # a late entry is absent from the rounds already paired
        from duiyi.tournament.flags import mark_late

        added = mark_late(added, len(event.players) + 1)
    return _rounds_from_system(_late_lots(added))


def _late_lots(event: Event) -> Event:
    """``event`` with a lot for every competitor entered after the lots were drawn: as its
    number comes after every number drawn (the late entrant is numbered after those already
    in), its lot comes after every lot drawn, in the order of entry. The earlier lots stay as
    they were drawn (docs/decisions.md), so the standings never lack a lot.

    >>> e = add_players(new_event("x", "go", "swiss", 3), [Player(0, "A"), Player(0, "B")])
    >>> e = replace(e, lots={1: 2, 2: 1})
    >>> add_players(e, [Player(0, "C")]).lots
    {1: 2, 2: 1, 3: 3}
    """
    if not event.lots:
        return event  # no lots drawn: none to keep up
    numbers = (
        [t.number for t in event.teams]
        if event.is_team_event
        else [p.number for p in event.players]
    )
    missing = [n for n in numbers if n not in event.lots]
    if not missing:
        return event
    lots = dict(event.lots)
    last = max(lots.values())
    for i, n in enumerate(missing, start=1):
        lots[n] = last + i
    return replace(event, lots=lots)


def _assign_teams(event: Event, first_new: int) -> Event:
    """Put new players with a ``team`` column into their teams, in file (= board) order. An
    event created as a team event (``options.team``) refuses players without a team.

    >>> e = new_event("T", "gomoku", "round-robin", 0, {"team": True, "boards": 3})
    >>> add_players(e, [Player(0, "A")])
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: player 1 'A' has no team (a team event needs a team column: team, 队伍 or 队名) (Go §25.2)
    """
    added = event.players[first_new:]
    named = [dict(p.extra).get("team", "").strip() for p in added]
    if not any(named) and not event.teams and not event.options.team:
        return event
    teams = {t.name: list(t.members) for t in event.teams}
    for p, team in zip(added, named, strict=True):
        if not team:
            raise TournamentError(
                f"player {p.number} {p.name!r} has no team (a team event needs a team "
                "column: team, 队伍 or 队名)",
                "Go §25.2",
                code="player-no-team",
                values={"number": str(p.number), "name": p.name},
            )
        teams.setdefault(team, []).append(p.number)
    built = tuple(Team(i, n, tuple(m)) for i, (n, m) in enumerate(teams.items(), start=1))
    return replace(event, teams=built)


def draw_numbers(event: Event, rng: random.Random) -> Event:
    """Draw the competitors' numbers by lot before round 1 (Go appendix 三.1, 五.2(1): "全体棋手
    (或队)"). In a team event the lot numbers the teams among the teams and never moves a player
    to another team: each team's players keep their board order (分台定人制, Go §25.2, Gomoku
    §16.2(1): "不得更改台次") and are numbered team after team in the drawn order.

    >>> e = add_players(new_event('x', 'go', 'swiss', 1), [Player(0, 'A'), Player(0, 'B')])
    >>> sorted(p.name for p in draw_numbers(e, random.Random(2)).players)
    ['A', 'B']
    >>> t = [Player(0, n, extra=(("team", n[0]),)) for n in ("X1", "X2", "Y1", "Y2")]
    >>> e = draw_numbers(add_players(new_event('t', 'gomoku', 'round-robin', 0), t), random.Random(1))
    >>> [(tm.name, [e.player(m).name for m in tm.members]) for tm in e.teams]
    [('Y', ['Y1', 'Y2']), ('X', ['X1', 'X2'])]
    """
    if event.history:
        raise TournamentError(
            "numbers are drawn before round 1 is paired", code="numbers-after-pairing"
        )
    if not event.is_team_event:
        shuffled = list(event.players)
        rng.shuffle(shuffled)
        return _renumbered(event, [p.number for p in shuffled], list(range(len(event.teams))))
    teams = list(range(len(event.teams)))
    rng.shuffle(teams)
    order = [m for i in teams for m in event.teams[i].members]
    order += [p.number for p in event.players if p.number not in set(order)]
    return _renumbered(event, order, teams)


def _renumbered(event: Event, order: Sequence[int], teams: Sequence[int]) -> Event:
    """The event with player ``order[i]`` numbered ``i + 1`` and team ``teams[j]`` (an index)
    numbered ``j + 1``: teams' members, withdrawals and lots follow their players and teams."""
    new = {old: i for i, old in enumerate(order, start=1)}
    players = sorted(
        (replace(p, number=new[p.number]) for p in event.players), key=lambda p: p.number
    )
    built = tuple(
        Team(j, event.teams[i].name, tuple(new[m] for m in event.teams[i].members))
        for j, i in enumerate(teams, start=1)
    )
    by_team = {event.teams[i].number: j for j, i in enumerate(teams, start=1)}
    keys = by_team if event.is_team_event else new
    return replace(
        event,
        players=tuple(players),
        teams=built,
        withdrawals=tuple(replace(w, player=new[w.player]) for w in event.withdrawals),
        lots={keys[k]: v for k, v in event.lots.items() if k in keys},
    )


def draw_lots(event: Event, rng: random.Random) -> Event:
    """Draw a lot number for every competitor (players, or teams in a team event) and keep them
    in the event: standings then settle every remaining tie by them (Go §27.1(1)C).

    >>> e = add_players(new_event("x", "go", "swiss", 1), [Player(0, "A"), Player(0, "B")])
    >>> sorted(draw_lots(e, random.Random(1)).lots.values())
    [1, 2]
    """
    numbers = (
        [t.number for t in event.teams]
        if event.is_team_event
        else [p.number for p in event.players]
    )
    drawn = list(range(1, len(numbers) + 1))
    rng.shuffle(drawn)
    return replace(event, lots=dict(zip(numbers, drawn, strict=True)))


def total_rounds(event: Event) -> int:
    """Rounds of the whole event: what its system gives (the Berger schedule's length for a
    round robin, the bracket for an elimination, ...), else the planned number.

    >>> e = add_players(new_event("x", "go", "round-robin", 1), [Player(0, n) for n in "ABCDE"])
    >>> total_rounds(e)
    5
    """
    return systems.of(event).total_rounds(event)


# --- withdrawals ---------------------------------------------------------------------------


def withdrawal_effects(event: Event) -> dict[int, Effect]:
    """The effect of each withdrawal (Go §28, Gomoku §18.5), by player number.
    >>> withdrawal_effects(withdraw(_example(), 4))  # 1 game of 3 rounds: void (Go §28.2)
    {4: <Effect.VOID: 'void'>}
    """
    return systems.of(event).effects(event)


def withdraw(event: Event, player: int, rng: random.Random | None = None) -> Event:
    """Withdraw ``player`` (Go §28, Gomoku §18.5).

    Before round 1 is paired the player is removed and the others renumbered (Go §28.1: a new
    draw, by lot when ``rng`` is given). Afterwards the withdrawal is recorded after the last
    round in which the player's game is finished; a game of the player still without a result
    becomes a forfeit, and so do the player's later games in a round robin or match.

    >>> withdraw(_example(), 2).withdrawals
    (Withdrawal(player=2, after_round=1),)
    """
    event.player(player)
    if event.withdrawal_of(player) is not None:
        raise TournamentError(
            f"player {player} has already withdrawn",
            code="player-withdrawn",
            values={"number": str(player)},
        )
    if not event.history:
        rest = [p for p in event.players if p.number != player]
        if rng is not None:
            rng.shuffle(rest)
        renumbered = tuple(replace(p, number=i) for i, p in enumerate(rest, start=1))
        return _rounds_from_system(replace(event, players=renumbered))
    after = event.current_round
    last = event.history[-1]
    pending = last.game_of(player)
    history = list(event.history)
    if pending is not None and pending.result is None:
        forfeit = GameResult.FORFEIT_BLACK if pending.black == player else GameResult.FORFEIT_WHITE
        history[-1] = last.replace_game(pending.with_result(forfeit))
    withdrawals = (*event.withdrawals, Withdrawal(player, after))
    return replace(event, history=tuple(history), withdrawals=withdrawals)


# --- tables and standings --------------------------------------------------------------------


def table(event: Event, upto_round: int | None = None) -> Table:
    """Every player's record through ``upto_round`` (default: the played rounds, those whose
    results are all in: a round paired but still being played counts for nobody), with
    withdrawals applied: a void player's games count for nobody and the player is left out
    (Go §28.2, Gomoku §18.5). Games without a result are left out. A bye scores as a win in
    Swiss and elimination events; in a round robin every player sits out once against the added
    bye number, which scores nothing.

    >>> t = table(_example())
    >>> [t.points(p) for p in (1, 2, 3, 4)]
    [Fraction(2, 1), Fraction(1, 1), Fraction(1, 1), Fraction(0, 1)]
    """
    return systems.of(event).table(event, upto_round)


def chain(event: Event) -> tuple[Tiebreak, ...]:
    """The event's tiebreak chain: ``options.tiebreaks`` or the book's default.
    >>> [t.name for t in chain(_example())]
    ['points', 'sb', 'warnings']
    """
    if event.options.placement is not None:  # an OpenGotha event's own criteria
        from duiyi.tournament.placement import placement_chain

        return placement_chain(event)
    return systems.of(event).chain(event)


def event_standings(event: Event, lots: Lots = None) -> list[Standing]:
    """The standings through the last played round (every result in); ties go to ``lots``
    (or the event's drawn lots), else stay shared places.
    >>> [(s.place, s.number) for s in event_standings(_example(), {2: 1, 3: 2})]
    [(1, 1), (2, 2), (3, 3), (4, 4)]
    """
    if event.options.placement is not None:  # an OpenGotha event ranks by its own rules
        from duiyi.tournament.placement import placement_standings

        use = event.lots if lots is None else lots
        return placement_standings(event, lots=use if isinstance(use, Mapping) else None)
    return systems.of(event).standings(event, lots)


def team_table(event: Event, upto_round: int | None = None) -> Table:
    """Every team's record: match points, game points and board points of finished matches
    (Go §27.2, Gomoku §18.3(2), §18.4(2)). A team bye scores a won match in a Swiss."""
    return systems.of(event).team_table(event, upto_round)


def team_chain(event: Event) -> tuple[Tiebreak, ...]:
    """The team tiebreak chain: ``options.tiebreaks`` or the book's default for teams."""
    return systems.of(event).team_chain(event)


def team_standings(event: Event, lots: Lots = None) -> list[Standing]:
    """Team standings (Go §27.2, Gomoku §18.3(2), §18.4(2)); ties to ``lots``."""
    if not event.is_team_event:
        raise TournamentError("the event has no teams", code="no-teams")
    return systems.of(event).team_standings(event, lots)


# --- results -------------------------------------------------------------------------------


def enter_result(
    event: Event,
    round_number: int,
    board: int,
    result: GameResult | None,
    black_warnings: int = 0,
    white_warnings: int = 0,
) -> Event:
    """Enter (or correct, or clear with ``None``) the result of one board.

    A second warning in one game loses it (Go §24.2): two warnings for one side with a result
    that is not a loss for that side is refused.

    >>> e = enter_result(_example(), 1, 2, GameResult.WHITE_WINS, white_warnings=1)
    >>> e.round(1).game(2)
    Game(board=2, black=2, white=3, result=<GameResult.WHITE_WINS: '0-1'>, black_warnings=0, white_warnings=1, handicap=0)

    A result the event's book has no word for is refused: no result (无胜负) where every
    finished game is won or drawn (Gomoku §2.14).

    >>> from duiyi.games import GOMOKU
    >>> enter_result(replace(_example(), game=GOMOKU), 1, 2, GameResult.NO_RESULT)
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: round 1 board 2: a Gomoku game ends won or drawn, never without a result (Gomoku §2.14)
    """
    rnd = event.round(round_number)
    index = _board_index(rnd, board)
    game = rnd.games[index]
    if black_warnings < 0 or white_warnings < 0:
        raise TournamentError("warnings cannot be negative", code="warnings-negative")
    if result is GameResult.NO_RESULT and event.game.no_result_article is None:
        # 终局 (Gomoku §2.14): a won game or a drawn one, never one without a result
        raise TournamentError(
            f"round {round_number} board {board}: a {event.game.title} game ends won or "
            "drawn, never without a result",
            event.game.finished_game_article,
            code="no-result-in-book",
            values={"round": str(round_number), "board": str(board)},
        )
    if result is not None:
        # the second warning (Go §24.2) or violation (违例, Gomoku §12.3(4)) loses the game
        book = event.game.book
        for colour, count in ((Color.BLACK, black_warnings), (Color.WHITE, white_warnings)):
            if count >= 2 and result.side(colour) is not SideResult.LOSS:
                raise TournamentError(
                    f"round {round_number} board {board}: {colour} had two "
                    f"{book.counted.value}s and so loses the game",
                    book.second_loses,
                    code="second-warning-loses",
                    values={
                        "round": str(round_number),
                        "board": str(board),
                        "player": colour.value,
                    },
                )
    if (
        result is not None
        and result.winner is None
        and systems.of(event).needs_winner(event, round_number)
    ):
        raise TournamentError(
            f"round {round_number} board {board}: an elimination game needs a winner "
            f"(got {result.value})",
            needs_winner_article(event),
            code="knockout-needs-winner",
            values={"round": str(round_number), "board": str(board)},
        )
    for w in event.withdrawals:
        if w.player in game.players and w.after_round < round_number:
            raise TournamentError(
                f"player {w.player} withdrew after round {w.after_round}; round {round_number} "
                f"board {board} is decided by the withdrawal rule",
                article(event.game, systems.of(event).family),
                code="result-after-withdrawal",
                values={
                    "number": str(w.player),
                    "after": str(w.after_round),
                    "round": str(round_number),
                    "board": str(board),
                },
            )
    return put_game(event, round_number, game.with_result(result, black_warnings, white_warnings))


def needs_winner_article(event: Event) -> str:
    """The event's own book on an elimination game needing a winner (Go §26.1, Gomoku §18.2).

    >>> needs_winner_article(new_event("x", "go", "knockout", 0))
    'Go §26.1'
    """
    return "Gomoku §18.2" if event.game.name == "gomoku" else "Go §26.1"


#: What a drawn game of an elimination round leads to (``options.knockout_draw``):
#: ``replay`` (the default) replays it with colours reversed, up to ``options.draw_replays``
#: times (default 2), then decides the board by lot; ``refuse`` leaves it to the director, who
#: must enter a winner. See docs/decisions.md.
DRAW_POLICIES = ("replay", "refuse")
DEFAULT_DRAW_REPLAYS = 2
_DRAW_ARTICLES = "Go §27.3, Gomoku §18.3(1)C"


def settle_draw(
    event: Event,
    round_number: int,
    board: int,
    result: GameResult,
    rng: random.Random,
    *,
    lot_now: bool = False,
    source: Source = Source.ARBITER,
    by: str = "arbiter",
    at: float | None = None,
    seed: str = "",
) -> Event:
    """Rule a game of an elimination round that ended without a winner (jigo 和棋, a full
    Gomoku board, 无胜负): someone must go through (Go appendix 一, Gomoku §17.1).

    The books leave the play-off to the organisers (Go §27.3: 加赛, its games set beforehand;
    Gomoku §18.3(1)C: 加赛快棋或抽签). With ``options.knockout_draw`` ``"replay"`` (default)
    the board is played again with colours reversed (as the later games of a match alternate,
    Gomoku §5.1(2)); the drawn game goes into the board's trail and ``Game.replays`` counts it.
    After ``options.draw_replays`` replays (default 2) have also been drawn, the board is
    decided by lot (抽签) from ``rng``: the game stays drawn and :attr:`Game.lot` names the side
    that goes through (``seed``, what ``rng`` was seeded with, is kept with it); ``lot_now`` (the
    director's choice at the desk) draws the lot at once, without a replay. With ``"refuse"``
    the director must enter a winner (TournamentError, as :func:`enter_result`).

    The board's trail records who settled it (``source``, ``by``, ``at``: wall seconds passed
    in by the adapter): the director at the desk, the board's online game, or an arbiter.

    >>> e = add_players(new_event("Cup", "go", "knockout", 0), [Player(0, "A"), Player(0, "B")])
    >>> e, _ = pair_next_round(e)
    >>> e = settle_draw(e, 1, 1, GameResult.DRAW, random.Random(1))   # replay, colours reversed
    >>> g = e.round(1).game(1); (g.black, g.white, g.result, g.replays)
    (2, 1, None, 1)
    >>> e = settle_draw(e, 1, 1, GameResult.DRAW, random.Random(1))
    >>> e = settle_draw(e, 1, 1, GameResult.DRAW, random.Random(1))   # third draw: by lot
    >>> g = e.round(1).game(1); g.result.value, g.lot is not None, g.source.value, g.replays
    ('draw', True, 'arbiter', 2)
    >>> e, _ = pair_next_round(add_players(new_event("C", "go", "knockout", 0),
    ...                                    [Player(0, "A"), Player(0, "B")]))
    >>> settle_draw(e, 1, 1, GameResult.DRAW, random.Random(1), lot_now=True).round(1).game(1).replays
    0
    >>> g = settle_draw(e, 1, 1, GameResult.DRAW, random.Random(1), lot_now=True,
    ...                 source=Source.DIRECTOR, by="organiser", at=5.0).round(1).game(1)
    >>> g.source.value, g.trail[-1].by, g.trail[-1].at
    ('director', 'organiser', 5.0)
    """
    game = event.round(round_number).game(board)
    where = f"round {round_number} board {board}"
    if result not in (GameResult.DRAW, GameResult.NO_RESULT):
        raise TournamentError(
            f"{where}: {result.value} is not a drawn game",
            code="settle-not-drawn",
            values={"round": str(round_number), "board": str(board)},
        )
    if not systems.of(event).needs_winner(event, round_number):
        return enter_result(event, round_number, board, result)
    policy = event.options.knockout_draw or "replay"
    if policy not in DRAW_POLICIES:
        raise TournamentError(
            f"options.knockout_draw is {' or '.join(DRAW_POLICIES)}, not {policy!r}",
            code="knockout-draw-option",
        )
    limit = event.options.draw_replays
    if limit is None:
        limit = DEFAULT_DRAW_REPLAYS
    if policy == "refuse":
        return enter_result(event, round_number, board, result)  # raises: needs a winner
    if limit < 0:
        raise TournamentError(
            f"options.draw_replays must be 0 or more, got {limit}", code="draw-replays-option"
        )
    drawn = ResultSheet(result)
    games = game.replays + 1
    if game.result is not None:
        raise TournamentError(
            f"{where} already has the result {game.result.value}",
            code="settle-has-result",
            values={"round": str(round_number), "board": str(board)},
        )
    if game.replays < limit and not lot_now:
        note = (
            f"game {games} {result.value}; replayed with colours reversed "
            f"(replay {game.replays + 1} of {limit}, {_DRAW_ARTICLES})"
        )
        entry = AuditEntry(source, by, at, drawn, None, note)
        replayed = replace(
            game,
            black=game.white,
            white=game.black,
            black_warnings=0,
            white_warnings=0,
            replays=game.replays + 1,
            trail=(*game.trail, entry),
            conflict=None,  # a drawn online result held for the director is settled
        )
        return put_game(event, round_number, replayed, reversed_colours=True)
    winner = rng.choice((Color.BLACK, Color.WHITE))
    who = game.black if winner is Color.BLACK else game.white
    note = f"game {games} {result.value} after {game.replays} replays; player {who} goes "
    note += f"through by lot (抽签, {_DRAW_ARTICLES})"
    if seed:
        note += f"; seed {seed}"
    # the game stays drawn; the lot only says who goes through (no won game, docs/decisions.md)
    entry = AuditEntry(source, by, at, drawn, None, note)
    decided = replace(
        game.with_result(result),
        source=source,
        trail=(*game.trail, entry),
        conflict=None,
        lot=Lot(winner, seed),
    )
    return put_game(event, round_number, decided)


def put_game(
    event: Event, round_number: int, game: Game, *, reversed_colours: bool = False
) -> Event:
    """``event`` with ``game`` in place of the game on its board in round ``round_number``
    (its result, warnings or record changed; the players must stay those of the board, with
    their colours reversed when ``reversed_colours``: a drawn knockout game replayed).

    Only the board changes, so the pairings are not checked again: entering a result costs
    a copy of the round, not a pass over every game of the event.

    >>> e = _example()
    >>> g = e.round(1).game(2).with_result(GameResult.BLACK_WINS)
    >>> put_game(e, 1, g).round(1).game(2).result
    <GameResult.BLACK_WINS: '1-0'>
    >>> put_game(e, 1, Game(2, 3, 2))
    Traceback (most recent call last):
    ...
    duiyi.errors.TournamentError: round 1 board 2 is 2–3, not 3–2
    """
    rnd = event.round(round_number)
    index = _board_index(rnd, game.board)
    old = rnd.games[index]
    expected = (old.white, old.black) if reversed_colours else old.players
    if expected != game.players:
        raise TournamentError(
            f"round {round_number} board {game.board} is {old.black}–{old.white}, "
            f"not {game.black}–{game.white}",
            code="board-players-changed",
            values={"round": str(round_number), "board": str(game.board)},
        )
    games = list(rnd.games)
    games[index] = game
    history = list(event.history)
    history[round_number - 1] = replace(rnd, games=tuple(games))
    return _with_history(event, tuple(history))


def _board_index(rnd: RoundRecord, board: int) -> int:
    """The index of ``board`` in the round's games (boards are numbered 1, 2, … in order, so
    usually ``board - 1``); TournamentError naming the boards when there is no such board."""
    games = rnd.games
    if 1 <= board <= len(games) and games[board - 1].board == board:
        return board - 1
    for i, g in enumerate(games):
        if g.board == board:
            return i
    rnd.game(board)  # raises, naming the boards
    raise AssertionError("unreachable")


def _with_history(event: Event, history: tuple[RoundRecord, ...]) -> Event:
    """``event`` with ``history`` in place of its rounds, where only results changed: the
    pairings, already checked when the event was built, are not checked again (that would
    cost a pass over every game of the event for each result entered)."""
    out = copy.copy(event)
    object.__setattr__(out, "history", history)
    return out


def enter_outcome(event: Event, round_number: int, board: int, outcome: Outcome) -> Event:
    """Enter the result of a finished game from its :class:`~duiyi.outcome.Outcome`
    (a forfeit termination becomes a forfeit, 双方均负 both-lose, ...).

    >>> e = add_players(new_event("x", "go", "swiss", 2), [Player(0, "A"), Player(0, "B")])
    >>> e, _ = pair_next_round(e)
    >>> from duiyi.outcome import Termination
    >>> e = enter_outcome(e, 1, 1, Outcome.win(Color.WHITE, Termination.RESIGNATION, "Go §7"))
    >>> e.round(1).game(1).result
    <GameResult.WHITE_WINS: '0-1'>
    """
    return enter_result(event, round_number, board, GameResult.from_outcome(outcome))


def enter_results(event: Event, rows: Iterable[tuple[int, int, GameResult]]) -> Event:
    """Enter a whole results sheet of ``(round, board, result)`` rows.
    >>> e = enter_results(_example(), [(1, 1, GameResult.DRAW)])
    >>> e.round(1).game(1).result
    <GameResult.DRAW: 'draw'>
    """
    for rnd, board, result in rows:
        event = enter_result(event, rnd, board, result)
    return event


# --- pairing -------------------------------------------------------------------------------


def pair_next_round(event: Event, rng: random.Random | None = None) -> tuple[Event, PairedRound]:
    """Pair the next round with the event's system and return the new event and the round.

    Refused while the last round still has boards without results, once every round is paired,
    or with fewer than two players. Games against a player who withdrew from a round robin or a
    match get their forfeit at once (Go §28.2, §28.4; Gomoku §18.5).

    >>> e, r = pair_next_round(_example())
    >>> e.current_round, r.number
    (2, 2)
    >>> r.to_json()
    {'round': 2, 'pairings': [{'board': 1, 'black': 4, 'white': 3}, {'board': 2, 'black': 1, 'white': 2}], 'byes': []}
    """
    rng = rng or random.Random(0)
    if event.history and not event.history[-1].complete:
        last = event.history[-1]
        boards = ", ".join(map(str, last.pending_boards))
        raise PairingError(
            f"round {last.number} has no result yet on board(s) {boards}; "
            "enter them before pairing the next round",
            code="round-results-missing",
            values={"round": str(last.number), "boards": boards},
        )
    if len(event.players) < 2:
        raise PairingError("pairing needs at least two players", code="pairing-two-players")
    event = _rounds_from_system(event)  # files written before the count was kept
    number = event.current_round + 1
    if number > total_rounds(event):
        raise PairingError(
            f"all {total_rounds(event)} rounds have been paired",
            code="rounds-all-paired",
            values={"rounds": str(total_rounds(event))},
        )
    return systems.of(event).pair(event, number, rng)


# --- simulation ------------------------------------------------------------------------------


def strength(player: Player) -> float:
    """A rating for simulation: the player's rating, else one derived from the rank
    (1d = 2100, 100 per grade).
    >>> strength(Player(1, 'A', '3d')), strength(Player(2, 'B', rating=1800))
    (2300.0, 1800.0)
    """
    if player.rating is not None:
        return float(player.rating)
    return 2000.0 + 100.0 * rank_value(player.rank)


def simulate(event: Event, rounds: int, rng: random.Random) -> Event:
    """Play ``rounds`` more rounds with rating-weighted random results (for rehearsals).

    A round already paired but still missing results counts as the first of them: its missing
    results are entered, then further rounds are paired and played, ``rounds`` in all.
    Black's chance is the Elo expectation 1 / (1 + 10^((W − B)/400)); Gomoku games are drawn
    with probability 5 %, Go games never (komi of ¾ stone, Go §11).

    >>> e = add_players(new_event("x", "gomoku", "round-robin", 1),
    ...                 [Player(0, n, rating=r) for n, r in (("A", 2400), ("B", 1500), ("C", 1800))])
    >>> e = simulate(e, 3, random.Random(7))
    >>> e.completed_rounds
    3
    >>> e, _ = pair_next_round(add_players(new_event("y", "go", "swiss", 3), e.players))
    >>> simulate(e, 1, random.Random(7)).completed_rounds  # fills the round paired already
    1
    """
    if rounds < 1:
        raise TournamentError("simulate needs at least one round", code="simulate-rounds")
    for _ in range(rounds):
        if not event.history or event.history[-1].complete:
            event, _paired = pair_next_round(event, rng)
        event = _simulate_results(event, rng)
    return event


def _simulate_results(event: Event, rng: random.Random) -> Event:
    """Enter a random result on every board of the last round that has none."""
    draw_rate = 0.05 if event.game.has_draws else 0.0
    rnd = event.history[-1]
    for g in rnd.games:
        if g.result is not None:
            continue
        b = strength(event.player(g.black))
        w = strength(event.player(g.white))
        expect = 1.0 / (1.0 + math.pow(10.0, (w - b) / 400.0))
        roll = rng.random()
        if roll < draw_rate:
            result = GameResult.DRAW
        elif roll < draw_rate + (1 - draw_rate) * expect:
            result = GameResult.BLACK_WINS
        else:
            result = GameResult.WHITE_WINS
        event = enter_result(event, rnd.number, g.board, result)
    return event


def crosstable(event: Event) -> dict[int, dict[int, list[str]]]:
    """For each player, each round's cell: opponent number, colour and outcome (``5b+``,
    ``3w-``, ``2b=``, ``+`` for a bye, ``5b+f`` for a forfeit).
    >>> crosstable(_example())[1]
    {1: ['4b+']}
    """
    cells: dict[int, dict[int, list[str]]] = {p.number: {} for p in event.players}
    signs = {SideResult.WIN: "+", SideResult.DRAW: "=", SideResult.LOSS: "-"}
    # each result's marks for (Black, White), by the member's id (looked up once per game)
    marks = {
        id(r): tuple(
            signs[r.side(c)] + ("" if r.played else "f") for c in (Color.BLACK, Color.WHITE)
        )
        for r in GameResult
    }
    for rnd in event.history:
        n = rnd.number
        for g in rnd.games:
            if g.result is None:
                mb = mw = "?"
            elif g.penalty:  # a disciplinary loss (Gomoku §2.20(3))
                f = "" if g.result.played else "f"
                mb = signs[g.side(Color.BLACK)] + f
                mw = signs[g.side(Color.WHITE)] + f
            else:
                mb, mw = marks[id(g.result)]
            cells[g.black].setdefault(n, []).append(f"{g.white}b{mb}")
            cells[g.white].setdefault(n, []).append(f"{g.black}w{mw}")
        for b in rnd.byes:
            cells[b].setdefault(n, []).append("bye")
    return cells


def grid(event: Event) -> dict[int, dict[int, str]]:
    """The round-robin crosstable: for each player, each opponent's cell (``+``, ``=``, ``-``,
    ``+f``/``-f`` for forfeits; several games, e.g. a double round robin, side by side).

    >>> grid(_example())[1], grid(_example())[2]
    ({4: '+'}, {3: '='})
    """
    cells: dict[int, dict[int, str]] = {p.number: {} for p in event.players}
    marks = {SideResult.WIN: "+", SideResult.DRAW: "=", SideResult.LOSS: "-"}
    for _, g in event.games():
        if g.result is None:
            continue
        for me, opp, black in ((g.black, g.white, True), (g.white, g.black, False)):
            mark = marks[g.side(_colour(black))] + ("" if g.result.played else "f")
            cells[me][opp] = cells[me].get(opp, "") + mark
    return cells


_VULGAR = {
    (1, 2): "½",
    (1, 3): "⅓",
    (2, 3): "⅔",
    (1, 4): "¼",
    (3, 4): "¾",
    (1, 5): "⅕",
    (2, 5): "⅖",
    (3, 5): "⅗",
    (4, 5): "⅘",
    (1, 6): "⅙",
    (5, 6): "⅚",
    (1, 8): "⅛",
    (3, 8): "⅜",
    (5, 8): "⅝",
    (7, 8): "⅞",
}


def format_fraction(value: Fraction) -> str:
    """A score for people to read: a whole number, else a mixed number with a Unicode vulgar
    fraction (halves, thirds, quarters, fifths, sixths, eighths: ``2½``, ``5⅓``, ``1833⅓``,
    ``-1¾``), else a decimal with two places (``1.86`` for 13/7). Only for human-facing text
    and HTML: JSON outputs carry the exact value (``"16/3"``) instead.

    >>> [format_fraction(Fraction(x)) for x in ("3", "5/2", "-7/4", "16/3", "5500/3", "13/7")]
    ['3', '2½', '-1¾', '5⅓', '1833⅓', '1.86']
    >>> format_fraction(Fraction(-1, 3)), format_fraction(Fraction(-1, 7))
    ('-⅓', '-0.14')
    """
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    glyph = _VULGAR.get((rest, value.denominator))
    if glyph:
        return f"{sign}{whole or ''}{glyph}"
    cents = round(abs(value) * 100)  # exact arithmetic, halves to even
    return f"{sign if cents else ''}{cents // 100}.{cents % 100:02d}"


def player_rows(
    event: Event,
    rows: Sequence[Standing],
    tiebreaks: Sequence[Tiebreak] | None = None,
    tbl: Table | None = None,
) -> list[dict[str, Any]]:
    """The standings as JSON-ready dicts (tiebreak values as exact strings); ``tiebreaks``
    and ``tbl`` (the points' source) default to the event's chain and table.
    >>> e = _example()
    >>> player_rows(e, event_standings(e))[0]['rounds']
    {'1': ['4b+']}
    """
    used = chain(event) if tiebreaks is None else tiebreaks
    cells = crosstable(event)
    out = []
    tbl = table(event) if tbl is None else tbl
    cols = columns(tbl)
    shown: dict[int, str] = {}  # points × scale → the exact points as text
    for s in rows:
        p = event.player(s.number)
        out.append(
            {
                "position": s.position,
                "place": s.place,
                "number": s.number,
                "name": p.name,
                "rank": p.rank,
                "rating": p.rating,
                "club": p.club,
                "points": _points_text(tbl, cols, s.number, shown),
                "tiebreaks": {t.name: str(t.shown(v)) for t, v in zip(used, s.values, strict=True)},
                "by_lot": s.by_lot,
                "rounds": {str(r): c for r, c in sorted(cells[s.number].items())},
            }
        )
    return out


def _points_text(tbl: Table, cols: Columns, number: int, shown: dict[int, str]) -> str:
    """The exact points of ``number`` as text, from the table's integer columns."""
    scaled = cols.points.get(number)
    if scaled is None:
        return str(tbl.points(number))
    text = shown.get(scaled)
    if text is None:
        text = shown[scaled] = str(Fraction(scaled, cols.scale))
    return text


def team_rows(event: Event, rows: Sequence[Standing]) -> list[dict[str, Any]]:
    """Team standings as JSON-ready dicts: match points, tiebreaks and per-round cells
    (``2+ 3:1``: against team 2, match won, game points 3 to 1)."""
    used = team_chain(event)
    tbl = team_table(event)
    out = []
    for s in rows:
        team = event.team(s.number)
        cells: dict[str, list[str]] = {}
        for e in tbl.records(s.number):
            if e.opponent is None:
                cells[str(e.round)] = ["bye"]
                continue
            mark = {SideResult.WIN: "+", SideResult.DRAW: "=", SideResult.LOSS: "-"}[e.side]
            gp = e.game_points or Fraction(0)
            other = sum(
                (
                    o.game_points or Fraction(0)
                    for o in tbl.records(e.opponent)
                    if o.round == e.round and o.opponent == s.number
                ),
                Fraction(0),
            )
            cells[str(e.round)] = [
                f"{e.opponent}{mark} {format_fraction(gp)}:{format_fraction(other)}"
            ]
        out.append(
            {
                "position": s.position,
                "place": s.place,
                "number": s.number,
                "name": team.name,
                "rank": "",
                "rating": None,
                "club": "",
                "members": list(team.members),
                "points": str(tbl.points(s.number)),
                "tiebreaks": {t.name: str(t.shown(v)) for t, v in zip(used, s.values, strict=True)},
                "by_lot": s.by_lot,
                "rounds": cells,
            }
        )
    return out
