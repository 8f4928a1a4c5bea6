"""The tournament director's operations on an :class:`~duiyi.tournament.model.Event`.

Every operation is a pure function: it takes an event (and, where chance enters, a
``random.Random``) and returns a new event. Pairing is delegated to
:mod:`duiyi.tournament.pairing`; file I/O lives in :mod:`duiyi.tournament.formats` and the CLI.

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

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from duiyi import Color
from duiyi.errors import PairingError, TournamentError
from duiyi.outcome import Outcome
from duiyi.tournament.model import (
    ROUNDS_FROM_SYSTEM,
    SYSTEMS,
    Event,
    Game,
    Player,
    RoundRecord,
    Team,
    TeamPairing,
    Withdrawal,
    rank_value,
)
from duiyi.tournament.results import Encounter, GameResult, SideResult, Table
from duiyi.tournament.standings import Standing, default_chain, standings, system_kind
from duiyi.tournament.tiebreaks import Tiebreak, parse_tiebreak
from duiyi.tournament.withdrawal import Effect, article, rule

__all__ = [
    "PairedRound",
    "add_players",
    "chain",
    "draw_lots",
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
    "grid",
    "group_members",
    "group_stage_rounds",
    "group_standings",
    "mcmahon_initial",
    "new_event",
    "pair_next_round",
    "relay_state",
    "simulate",
    "table",
    "team_chain",
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


@dataclass(frozen=True)
class PairedRound:
    """What ``pair_next_round`` produced: the round as the pairing package returned it (with the
    ``reason`` of each pairing for ``--explain``) and the explanation notes.
    >>> _, r = pair_next_round(_example())
    >>> r.to_json()
    {'round': 2, 'pairings': [{'board': 1, 'black': 4, 'white': 3}, {'board': 2, 'black': 1, 'white': 2}], 'byes': []}
    """

    number: int
    pairings: tuple[tuple[int, int, int, str], ...]  # (board, black, white, reason)
    byes: tuple[int, ...]
    notes: tuple[str, ...]

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """``{"round", "pairings": [{"board", "black", "white"}], "byes"}`` (the CLI contract)."""
        pairings: list[dict[str, Any]] = []
        for board, black, white, reason in self.pairings:
            item: dict[str, Any] = {"board": board, "black": black, "white": white}
            if explain:
                item["reason"] = reason
            pairings.append(item)
        out: dict[str, Any] = {"round": self.number, "pairings": pairings, "byes": list(self.byes)}
        if explain:
            out["notes"] = list(self.notes)
        return out


def new_event(
    name: str,
    game: str,
    system: str,
    rounds: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Event:
    """A new event without players.

    ``rounds`` is required for the Swiss-type systems. The systems of
    :data:`~duiyi.tournament.model.ROUNDS_FROM_SYSTEM` need none: their events store 0 ("from
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
    opts = dict(options or {})
    for name_ in opts.get("tiebreaks", []):
        parse_tiebreak(str(name_))
    if rounds is None:
        if system in SYSTEMS and system not in ROUNDS_FROM_SYSTEM:
            raise TournamentError(f"a {system} event needs its number of rounds (--rounds)")
        rounds = 0
    return _rounds_from_system(Event(name, game, system, rounds, options=opts))


def _rounds_from_system(event: Event) -> Event:
    """``event`` with ``rounds`` set to what its system gives, when the system decides it and
    the field is known (see :func:`total_rounds`)."""
    if event.system not in ROUNDS_FROM_SYSTEM:
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
    if event.history and system_kind(event.system) != "swiss":
        raise TournamentError(f"players cannot join a {event.system} event after round 1 is paired")
    out = list(event.players)
    names = {(p.name.casefold()) for p in out}
    for p in players:
        if not p.name.strip():
            raise TournamentError(f"player {len(out) + 1} has no name")
        if p.name.casefold() in names:
            raise TournamentError(f"player {p.name!r} is already entered")
        names.add(p.name.casefold())
        out.append(replace(p, number=len(out) + 1))
    return _rounds_from_system(
        _assign_teams(replace(event, players=tuple(out)), len(event.players))
    )


def _assign_teams(event: Event, first_new: int) -> Event:
    """Put new players with a ``team`` column into their teams, in file (= board) order."""
    added = event.players[first_new:]
    named = [dict(p.extra).get("team", "").strip() for p in added]
    if not any(named) and not event.teams:
        return event
    teams = {t.name: list(t.members) for t in event.teams}
    for p, team in zip(added, named, strict=True):
        if not team:
            raise TournamentError(
                f"player {p.number} {p.name!r} has no team (a team event needs a team column)",
                "Go §25.2",
            )
        teams.setdefault(team, []).append(p.number)
    built = tuple(Team(i, n, tuple(m)) for i, (n, m) in enumerate(teams.items(), start=1))
    return replace(event, teams=built)


def draw_numbers(event: Event, rng: random.Random) -> Event:
    """Draw the players' numbers by lot before round 1 (appendix 三.1, 五.2(1)).
    >>> e = add_players(new_event('x', 'go', 'swiss', 1), [Player(0, 'A'), Player(0, 'B')])
    >>> sorted(p.name for p in draw_numbers(e, random.Random(2)).players)
    ['A', 'B']
    """
    if event.history:
        raise TournamentError("numbers are drawn before round 1 is paired")
    shuffled = list(event.players)
    rng.shuffle(shuffled)
    return replace(
        event, players=tuple(replace(p, number=i) for i, p in enumerate(shuffled, start=1))
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
    """Rounds of the whole event: the Berger schedule's length for a round robin, else the
    planned number.

    >>> e = add_players(new_event("x", "go", "round-robin", 1), [Player(0, n) for n in "ABCDE"])
    >>> total_rounds(e)
    5
    """
    if system_kind(event.system) == "round-robin" and event.system != "groups":
        n = len(event.teams) if event.is_team_event else len(event.players)
        if n < 2:
            return event.rounds
        size = n + n % 2
        cycles = int(event.options.get("cycles", 2 if event.system == "double-round-robin" else 1))
        return (size - 1) * cycles
    if event.system == "match":
        return int(event.options.get("games", 3))
    if event.system == "relay" and event.is_team_event:
        return len(event.players)  # every game puts at least one player out
    if event.system == "groups" and len(event.players) >= 2:
        return group_stage_rounds(event) + final_stage_rounds(event)
    if event.system in ("knockout", "double-elimination") and len(event.players) >= 2:
        return len(_bracket(event).stages)
    return event.rounds


# --- withdrawals ---------------------------------------------------------------------------


def _games_played(event: Event, player: int, upto: int) -> int:
    return sum(
        1
        for rnd, g in event.games()
        if rnd <= upto and player in g.players and g.result is not None
    )


def withdrawal_effects(event: Event) -> dict[int, Effect]:
    """The effect of each withdrawal (Go §28, Gomoku §18.5), by player number.
    >>> withdrawal_effects(withdraw(_example(), 4))  # 1 game of 3 rounds: void (Go §28.2)
    {4: <Effect.VOID: 'void'>}
    """
    return {w.player: _effect(event, w) for w in event.withdrawals}


def _effect(event: Event, w: Withdrawal) -> Effect:
    if event.system == "groups" and w.after_round > group_stage_rounds(event):
        # left during the final stage: the group results stand, the final's remaining games
        # are forfeited (Go §28.4 as for knockouts; Go §28.2's voiding would wipe the group
        # stage too, which no reading of the books asks for)
        return Effect.KEEP_FORFEIT_REST
    in_groups = event.system == "groups"
    return rule(
        game=event.game,
        system="teams" if event.is_team_event else event.system,
        rounds=group_stage_rounds(event) if in_groups else total_rounds(event),
        games_played=_games_played(event, w.player, w.after_round),
        started=True,
    )


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
        raise TournamentError(f"player {player} has already withdrawn")
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


def _withdrawn_before(event: Event, round_number: int) -> set[int]:
    return {w.player for w in event.withdrawals if w.after_round < round_number}


# --- tables and standings --------------------------------------------------------------------


def _rounds_through(event: Event, upto_round: int | None) -> list[RoundRecord]:
    """The recorded rounds up to ``upto_round`` (default: the played rounds, those whose
    results are all in, Go §27.1(2)A), in order."""
    last = event.completed_rounds if upto_round is None else upto_round
    return list(itertools.takewhile(lambda rnd: rnd.number <= last, event.history))


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
    rounds = _rounds_through(event, upto_round)
    effects = withdrawal_effects(event)
    void = {p for p, eff in effects.items() if eff is Effect.VOID}
    scoring = event.points
    kind = system_kind(event.system)
    per: dict[int, list[Encounter]] = {p.number: [] for p in event.players if p.number not in void}
    for rnd in rounds:
        for g in rnd.games:
            if g.result is None or g.black in void or g.white in void:
                continue
            for me, colour_black, warns in (
                (g.black, True, g.black_warnings),
                (g.white, False, g.white_warnings),
            ):
                opp = g.white if colour_black else g.black
                side = g.result.side(_colour(colour_black))
                per[me].append(
                    Encounter(
                        rnd.number,
                        opp,
                        side,
                        scoring.points(g.result, black=colour_black),
                        _colour(colour_black),
                        g.result.played,
                        warns,
                    )
                )
        if kind == "round-robin":
            continue  # the Berger bye number is no opponent: nothing is scored (appendix 三.2)
        for b in rnd.byes:
            if b in per:
                per[b].append(Encounter(rnd.number, None, SideResult.WIN, scoring.bye, None, False))
    ratings = {p.number: p.rating for p in event.players}
    return Table(
        tuple(sorted(per)),
        {k: tuple(v) for k, v in per.items()},
        scoring,
        rounds[-1].number if rounds else 0,
        ratings,
        mcmahon_initial(event) if event.system == "mcmahon" else {},
    )


def mcmahon_initial(event: Event) -> dict[int, Fraction]:
    """Each player's initial McMahon score from the rank, ``options.bar`` (default 1d) and
    ``options.floor`` (default 20k); an unknown rank starts at the floor.

    >>> e = new_event("mm", "go", "mcmahon", 3, {"bar": "2d", "floor": "5k"})
    >>> e = add_players(e, [Player(0, "A", "3d"), Player(0, "B", "1k"), Player(0, "C")])
    >>> mcmahon_initial(e)
    {1: Fraction(6, 1), 2: Fraction(4, 1), 3: Fraction(0, 1)}
    """
    from duiyi.tournament.pairing.mcmahon import initial_score

    bar = str(event.options.get("bar", "1d"))
    floor = str(event.options.get("floor", "20k"))
    return {
        p.number: Fraction(initial_score(_mcmahon_rank(p.rank), bar=bar, floor=floor))
        for p in event.players
    }


def _colour(black: bool) -> Color:
    return Color.BLACK if black else Color.WHITE


def chain(event: Event) -> tuple[Tiebreak, ...]:
    """The event's tiebreak chain: ``options["tiebreaks"]`` or the book's default.
    >>> [t.name for t in chain(_example())]
    ['points', 'sb', 'warnings']
    """
    if "placement" in event.options:  # an OpenGotha event's own criteria
        from duiyi.tournament.placement import placement_chain

        return placement_chain(event)
    names = event.options.get("tiebreaks")
    if names:
        return tuple(parse_tiebreak(str(n)) for n in names)
    return default_chain(event.game, event.system, variant=str(event.options.get("variant", "")))


def event_standings(
    event: Event, lots: Mapping[int, int] | random.Random | None = None
) -> list[Standing]:
    """The standings through the last played round (every result in); ties go to ``lots``
    (or the event's drawn lots), else stay shared places.
    >>> [(s.place, s.number) for s in event_standings(_example(), {2: 1, 3: 2})]
    [(1, 1), (2, 2), (3, 3), (4, 4)]
    """
    use: Mapping[int, int] | random.Random | None = lots
    if use is None and event.lots:
        use = event.lots
    if "placement" in event.options:  # an OpenGotha event ranks by its own rules
        from duiyi.tournament.placement import placement_standings

        return placement_standings(event, lots=use if isinstance(use, Mapping) else None)
    return standings(table(event), chain(event), use)


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
    """
    rnd = event.round(round_number)
    game = rnd.game(board)
    if black_warnings < 0 or white_warnings < 0:
        raise TournamentError("warnings cannot be negative")
    if result is not None:
        for colour, count in ((Color.BLACK, black_warnings), (Color.WHITE, white_warnings)):
            if count >= 2 and result.side(colour) is not SideResult.LOSS:
                raise TournamentError(
                    f"round {round_number} board {board}: {colour} had two warnings and so "
                    "loses the game",
                    "Go §24.2",
                )
    if (
        result is not None
        and result.winner is None
        and (
            event.system in ("knockout", "double-elimination")
            or (_final_kind(event) == "knockout" and round_number > group_stage_rounds(event))
        )
    ):
        raise TournamentError(
            f"round {round_number} board {board}: an elimination game needs a winner "
            f"(got {result.value})",
            "Gomoku §18.2",
        )
    for w in event.withdrawals:
        if w.player in game.players and w.after_round < round_number:
            raise TournamentError(
                f"player {w.player} withdrew after round {w.after_round}; round {round_number} "
                f"board {board} is decided by the withdrawal rule",
                article(event.game, event.system),
            )
    history = list(event.history)
    history[round_number - 1] = rnd.replace_game(
        game.with_result(result, black_warnings, white_warnings)
    )
    return replace(event, history=tuple(history))


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
    """
    rng = rng or random.Random(0)
    if event.history and not event.history[-1].complete:
        last = event.history[-1]
        boards = ", ".join(map(str, last.pending_boards))
        raise PairingError(
            f"round {last.number} has no result yet on board(s) {boards}; "
            "enter them before pairing the next round"
        )
    if len(event.players) < 2:
        raise PairingError("pairing needs at least two players")
    event = _rounds_from_system(event)  # files written before the count was kept
    number = event.current_round + 1
    if number > total_rounds(event):
        raise PairingError(f"all {total_rounds(event)} rounds have been paired")
    if event.is_team_event:
        return _pair_teams(event, number, rng)
    notes: tuple[str, ...] = ()
    if event.system == "groups":
        event = _draw_groups(event, rng)
        if number > group_stage_rounds(event):
            event = _seed_final(event)
    if event.system == "swiss-elimination":
        event, notes = _eliminate(event, number, rng)
    paired = _pair(event, number, rng)
    if notes:
        paired = replace(paired, notes=notes + paired.notes)
    effects = withdrawal_effects(event)
    withdrawn = _withdrawn_before(event, number)
    games: list[Game] = []
    for board, black, white, _reason in paired.pairings:
        g = Game(board, black, white)
        if black in withdrawn and effects.get(black) is not Effect.KEEP_UNPAIRED:
            g = g.with_result(GameResult.FORFEIT_BLACK)
        elif white in withdrawn and effects.get(white) is not Effect.KEEP_UNPAIRED:
            g = g.with_result(GameResult.FORFEIT_WHITE)
        games.append(g)
    record = RoundRecord(number, tuple(games), paired.byes)
    return replace(event, history=(*event.history, record)), paired


def _pair(event: Event, number: int, rng: random.Random) -> PairedRound:
    """Call the pairing package for round ``number`` and translate its round."""
    kind = system_kind(event.system)
    if kind == "round-robin" and event.system != "groups":
        from duiyi.tournament.pairing.round_robin import round_robin

        cycles = int(event.options.get("cycles", 2 if event.system == "double-round-robin" else 1))
        schedule = round_robin(len(event.players), cycles)
        return _translate(schedule[number - 1])
    if event.system == "swiss":
        from duiyi.tournament.pairing.swiss import pair_swiss

        return _translate(pair_swiss(_swiss_players(event, number), number))
    if event.system == "swiss-elimination":
        from duiyi.tournament.pairing.swiss import pair_swiss

        out = eliminated(event)
        field = [sp for sp in _swiss_players(event, number) if sp.number not in out]
        return _translate(pair_swiss(field, number))
    if event.system == "mcmahon":
        from duiyi.tournament.pairing.mcmahon import McMahonPlayer, pair_mcmahon

        mm = [
            McMahonPlayer(
                sp.number,
                _mcmahon_rank(event.player(sp.number).rank),
                sp.score / event.points.win,
                sp.opponents,
                sp.colours,
                sp.byes,
            )
            for sp in _swiss_players(event, number)
        ]
        bar = str(event.options.get("bar", "1d"))
        floor = str(event.options.get("floor", "20k"))
        return _translate(pair_mcmahon(mm, number, bar=bar, floor=floor))
    if event.system == "match":
        return _pair_match(event, number, rng)
    if event.system == "relay":
        raise PairingError("a relay is played between teams: give the players a team column")
    if event.system == "groups" and number > group_stage_rounds(event):
        return _pair_final(event, number)
    if event.system == "groups":
        from duiyi.tournament.pairing.groups import group_round_robins

        rounds = group_round_robins(group_members(event))
        pairings: list[tuple[int, int, int, str]] = []
        byes: list[int] = []
        notes: list[str] = []
        for index, schedule in enumerate(rounds, start=1):
            if number > len(schedule):
                continue
            part = _translate(schedule[number - 1])
            for _board, black, white, reason in part.pairings:
                pairings.append((len(pairings) + 1, black, white, f"group {index}: {reason}"))
            byes.extend(part.byes)
            notes.extend(f"group {index}: {n}" for n in part.notes)
        return PairedRound(number, tuple(pairings), tuple(byes), tuple(notes))
    if event.system in ("knockout", "double-elimination"):
        bracket = _bracket(event)
        results = _bracket_results(event, bracket)
        stage = bracket.stages[number - 1]
        paired = _translate(bracket.round(stage, results, number))
        return replace(paired, notes=(*paired.notes, f"stage {stage}"))
    raise PairingError(
        f"`event pair` does not pair {event.system} events yet; "
        "use `duiyi schedule` for the bracket and enter results by board"
    )


def _pair_teams(event: Event, number: int, rng: random.Random) -> tuple[Event, PairedRound]:
    """Pair the teams (round robin or Swiss over team numbers) and lay out their boards.

    Board i of a match puts the teams' i-th players against each other (分台定人制, Go §25.2);
    the first-listed team has Black on odd boards and White on even boards.
    """
    kind = system_kind(event.system)
    if kind == "round-robin" and event.system != "groups":
        from duiyi.tournament.pairing.round_robin import round_robin

        cycles = int(event.options.get("cycles", 2 if event.system == "double-round-robin" else 1))
        team_round = _translate(round_robin(len(event.teams), cycles)[number - 1])
    elif event.system == "swiss":
        from duiyi.tournament.pairing.swiss import pair_swiss

        team_round = _translate(pair_swiss(_swiss_teams(event), number))
    elif event.system == "relay":
        return _pair_relay(event, number, rng)
    else:
        raise PairingError(f"team events are paired by round robin or Swiss, not {event.system}")
    boards = event.boards
    if boards < 1:
        raise PairingError("a team event needs at least one player per team")
    effects = withdrawal_effects(event)
    withdrawn = _withdrawn_before(event, number)
    games: list[Game] = []
    matches: list[TeamPairing] = []
    byes: list[int] = []
    for match, first, second, _reason in team_round.pairings:
        a, b = event.team(first).members, event.team(second).members
        used: list[int] = []
        for i in range(boards):
            black, white = (a[i], b[i]) if i % 2 == 0 else (b[i], a[i])
            g = Game(len(games) + 1, black, white)
            if black in withdrawn and effects.get(black) is not Effect.KEEP_UNPAIRED:
                g = g.with_result(GameResult.FORFEIT_BLACK)
            elif white in withdrawn and effects.get(white) is not Effect.KEEP_UNPAIRED:
                g = g.with_result(GameResult.FORFEIT_WHITE)
            games.append(g)
            used.append(g.board)
        matches.append(TeamPairing(match, first, second, tuple(used)))
    for team in team_round.byes:
        byes.extend(event.team(team).members[:boards])
    record = RoundRecord(number, tuple(games), tuple(byes), tuple(matches), team_round.byes)
    paired = PairedRound(
        number,
        tuple((g.board, g.black, g.white, "") for g in games),
        tuple(byes),
        tuple(
            f"match {m.match}: team {m.first} v team {m.second} on boards "
            f"{m.boards[0]}–{m.boards[-1]}"
            for m in matches
        )
        + team_round.notes,
    )
    return replace(event, history=(*event.history, record)), paired


def _swiss_teams(event: Event) -> list[Any]:
    from duiyi.tournament.pairing.swiss import SwissPlayer

    tbl = team_table(event)
    position = {s.number: s.position for s in standings(tbl, team_chain(event))}
    out = []
    for t in event.teams:
        met: set[int] = set()
        colours = ""
        for rnd in event.history:
            for m in rnd.matches:
                if t.number in (m.first, m.second):
                    met.add(m.second if m.first == t.number else m.first)
                    colours += "B" if m.first == t.number else "W"
        byes = sum(1 for rnd in event.history if t.number in rnd.team_byes)
        out.append(
            SwissPlayer(
                t.number, tbl.points(t.number), frozenset(met), colours, byes, position[t.number]
            )
        )
    return out


def team_table(event: Event, upto_round: int | None = None) -> Table:
    """Every team's record: match points, game points and board points of finished matches
    (Go §27.2, Gomoku §18.3(2), §18.4(2)). A team bye scores a won match in a Swiss."""
    rounds = _rounds_through(event, upto_round)
    rows: list[tuple[int, int, int, list[GameResult], list[bool]]] = []
    byes: list[tuple[int, int]] = []
    for rnd in rounds:
        for m in rnd.matches:
            games = [rnd.game(b) for b in m.boards]
            if any(g.result is None for g in games):
                continue
            first_members = set(event.team(m.first).members)
            rows.append(
                (
                    rnd.number,
                    m.first,
                    m.second,
                    [g.result for g in games if g.result is not None],
                    [g.black in first_members for g in games],
                )
            )
        if system_kind(event.system) != "round-robin":
            byes.extend((rnd.number, t) for t in rnd.team_byes)
    return Table.from_matches(
        rows,
        event.points,
        rounds=rounds[-1].number if rounds else 0,
        competitors=[t.number for t in event.teams],
        byes=byes,
    )


def team_chain(event: Event) -> tuple[Tiebreak, ...]:
    """The team tiebreak chain: ``options["tiebreaks"]`` or the book's default for teams."""
    if "placement" in event.options:  # an OpenGotha event's own criteria
        from duiyi.tournament.placement import placement_chain

        return placement_chain(event)
    names = event.options.get("tiebreaks")
    if names:
        return tuple(parse_tiebreak(str(n)) for n in names)
    return default_chain(
        event.game,
        event.system,
        team=True,
        board_count=event.boards,
        variant=str(event.options.get("variant", "")),
    )


def team_standings(
    event: Event, lots: Mapping[int, int] | random.Random | None = None
) -> list[Standing]:
    """Team standings (Go §27.2, Gomoku §18.3(2), §18.4(2)); ties to ``lots``."""
    if not event.is_team_event:
        raise TournamentError("the event has no teams")
    use: Mapping[int, int] | random.Random | None = lots
    if use is None and event.lots:
        use = event.lots
    return standings(team_table(event), team_chain(event), use)


def group_members(event: Event) -> tuple[tuple[int, ...], ...]:
    """The groups of a group round robin (appendix 四), as drawn before round 1."""
    drawn = event.options.get("group_members")
    if not drawn:
        raise TournamentError("the groups have not been drawn yet (pair round 1 first)")
    return tuple(tuple(int(p) for p in g) for g in drawn)


def _draw_groups(event: Event, rng: random.Random) -> Event:
    """Deal the players into groups by the serpentine rule (appendix 四): players are taken in
    number order (strongest first), seeds spread serpentine, the others by lot."""
    from duiyi.tournament.pairing.groups import serpentine_groups

    if event.options.get("group_members"):
        return event
    count = int(event.options.get("groups", 2))
    qualifiers = int(event.options.get("qualifiers", 1))
    seeds = event.options.get("seeds_count")
    groups = serpentine_groups(
        [p.number for p in event.players],
        count,
        qualifiers=qualifiers,
        seeds=None if seeds is None else int(seeds),
        rng=rng,
    )
    options = {**event.options, "group_members": [list(g) for g in groups]}
    return replace(event, options=options)


def group_standings(
    event: Event, lots: Mapping[int, int] | random.Random | None = None
) -> list[tuple[int, list[Standing]]]:
    """Each group's standings (group number, rows), by the round-robin chain of the game."""
    use: Mapping[int, int] | random.Random | None = lots
    if use is None and event.lots:
        use = event.lots
    full = table(event, min(event.completed_rounds, group_stage_rounds(event)))
    out = []
    for index, members in enumerate(group_members(event), start=1):
        kept = tuple(m for m in members if m in full.encounters)
        sub = Table(
            kept, {m: full.records(m) for m in kept}, full.scoring, full.rounds, full.ratings
        )
        out.append((index, standings(sub, chain(event), use)))
    return out


def _winners(event: Event) -> list[int | None]:
    """The winner of each round's (single) game; None for a draw or a game nobody won."""
    out: list[int | None] = []
    for rnd in event.history:
        g = rnd.games[0] if rnd.games else None
        if g is None or g.result is None:
            continue
        w = g.result.winner
        out.append(None if w is None else (g.black if w is Color.BLACK else g.white))
    return out


def _pair_match(event: Event, number: int, rng: random.Random) -> PairedRound:
    """Game ``number`` of a best-of-N match between players 1 and 2 (Go §26.5): colours by
    nigiri in game 1 (or ``options.first_black``), then alternating (Gomoku §5.1(2))."""
    from duiyi.tournament.pairing.matches import match_schedule, match_status

    if len(event.players) != 2:
        raise PairingError(f"a match is played by two players, the event has {len(event.players)}")
    games = int(event.options.get("games", 3))
    status = match_status(1, 2, games, _winners(event))
    if status.decided:
        who = f"won by {status.winner}" if status.winner else "tied (play-off, Go §27.3)"
        raise PairingError(f"the match is decided: {who}", "Go §26.5")
    if event.history:
        first_black = event.history[0].games[0].black
    elif "first_black" in event.options:
        first_black = int(event.options["first_black"])
    else:
        first_black = None
    schedule = match_schedule(1, 2, games, first_black=first_black, rng=rng)
    g = schedule[number - 1]
    why = "nigiri (Go §10)" if number == 1 and first_black is None else "colours alternate"
    reason = f"game {number} of best of {games}: {why}"
    return PairedRound(number, ((1, g.black, g.white, reason),), (), ())


def relay_state(event: Event, rng: random.Random | None = None) -> Any:
    """The relay (擂台赛, Go §26.6, Gomoku §17.5) after the results so far: the teams' lineups
    in playing order are the team members in entry order."""
    from duiyi.tournament.pairing.relay import relay

    lineups = [list(t.members) for t in event.teams]
    draw = str(event.options.get("draw", "both_out"))
    return relay(lineups, _winners(event), draw=draw, rng=rng)


def _pair_relay(event: Event, number: int, rng: random.Random) -> tuple[Event, PairedRound]:
    state = relay_state(event, rng)
    if state.next_game is None:
        winner = event.teams[state.winner].name if state.winner is not None else "nobody"
        raise PairingError(f"the relay is over: {winner} has players left", "Gomoku §17.5")
    holder, challenger = state.next_game
    black, white = state.next_colours or (challenger, holder)
    game = Game(1, black, white)
    reason = f"{holder} holds the stage (守擂), {challenger} challenges"
    record = RoundRecord(number, (game,), ())
    paired = PairedRound(number, ((1, black, white, reason),), (), ())
    return replace(event, history=(*event.history, record)), paired


def _mcmahon_rank(rank: str) -> str:
    """The rank as McMahon reads it; unknown ranks start at the bottom (30k)."""
    value = rank_value(rank)
    return rank.strip() if value > -30 else "30k"


def eliminated(event: Event) -> set[int]:
    """Players dropped so far by progressive elimination (appendix 六).
    >>> eliminated(_example())
    set()
    """
    table_ = event.options.get("eliminated", {})
    return {int(p) for dropped in dict(table_).values() for p in dropped}


def _eliminate(event: Event, number: int, rng: random.Random) -> tuple[Event, tuple[str, ...]]:
    """Before round ``number`` of a Swiss with elimination, drop the players the plan asks for
    after round ``number - 1`` (appendix 六: lowest score, then opponents' score, then lots)."""
    from duiyi.tournament.pairing.swiss_elimination import (
        EliminationEntry,
        eliminate,
        elimination_plan,
    )
    from duiyi.tournament.tiebreaks import buchholz

    after = number - 1
    done = dict(event.options.get("eliminated", {}))
    if after < 1 or str(after) in done:
        return event, ()
    start = int(event.options.get("start_after", 5))
    plan = elimination_plan(len(event.players), total_rounds(event), start_after=start)
    count = plan[after - 1] if after - 1 < len(plan) else 0
    if count <= 0:
        return event, ()
    out = eliminated(event) | _withdrawn_before(event, number)
    tbl = table(event)
    entries = [
        EliminationEntry(p.number, tbl.points(p.number), buchholz(tbl, p.number))
        for p in event.players
        if p.number not in out and p.number in tbl.encounters
    ]
    result = eliminate(entries, count, rng)
    done[str(after)] = list(result.dropped)
    options = {**event.options, "eliminated": done}
    notes = tuple(f"eliminated after round {after}: {r}" for r in result.reasons)
    return replace(event, options=options), notes


def _bracket(event: Event) -> Any:
    """The elimination bracket of the event (appendix 一, 二), from its options."""
    seeds = [int(x) for x in event.options.get("seeds", [])]
    if event.system == "double-elimination":
        from duiyi.tournament.pairing.double_elimination import double_elimination

        return double_elimination(len(event.players), seeds)
    from duiyi.tournament.pairing.knockout import knockout

    places = [int(x) for x in event.options.get("place_matches", [])]
    return knockout(len(event.players), seeds, place_matches=places)


def _bracket_results(event: Event, bracket: Any, first: int = 0) -> dict[str, int]:
    """Winners of the bracket's matches so far (match id → player), read off the rounds from
    ``event.history[first]`` on (the bracket's first stage)."""
    results: dict[str, int] = {}
    stages = bracket.stages
    for index, rnd in enumerate(event.history[first:]):
        if index >= len(stages):
            break
        sides = bracket.participants(results)
        for m in bracket.matches:
            if m.stage != stages[index]:
                continue
            a, b = sides[m.id]
            if a <= 0 or b <= 0:
                continue
            g = rnd.game_of(a)
            if g is None or b not in g.players or g.result is None or g.result.winner is None:
                continue
            results[m.id] = g.black if g.result.winner is Color.BLACK else g.white
    return results


def _translate(rnd: Any) -> PairedRound:
    return PairedRound(
        int(rnd.number),
        tuple((int(p.board), int(p.black), int(p.white), str(p.reason)) for p in rnd.pairings),
        tuple(int(b) for b in rnd.byes),
        tuple(str(n) for n in getattr(rnd, "notes", ())),
    )


def _swiss_players(event: Event, number: int) -> list[Any]:
    """The Swiss pairer's view of every player still in the event before round ``number``."""
    from duiyi.tournament.pairing.swiss import SwissPlayer

    withdrawn = _withdrawn_before(event, number)
    tbl = table(event)
    position = {s.number: s.position for s in standings(tbl, chain(event))}
    out = []
    for p in event.players:
        if p.number in withdrawn:
            continue
        met: set[int] = set()
        colours = ""
        byes = 0
        for rnd in event.history:
            g = rnd.game_of(p.number)
            if g is not None:
                met.add(g.white if g.black == p.number else g.black)
                if g.result is None or g.result.played:
                    colours += "B" if g.black == p.number else "W"
            elif p.number in rnd.byes:
                byes += 1
        out.append(
            SwissPlayer(
                p.number,
                tbl.points(p.number) if p.number in tbl.encounters else Fraction(0),
                frozenset(met),
                colours,
                byes,
                position.get(p.number),
            )
        )
    return out


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
        raise TournamentError("simulate needs at least one round")
    for _ in range(rounds):
        if not event.history or event.history[-1].complete:
            event, _paired = pair_next_round(event, rng)
        event = _simulate_results(event, rng)
    return event


def _simulate_results(event: Event, rng: random.Random) -> Event:
    """Enter a random result on every board of the last round that has none."""
    draw_rate = 0.05 if event.game == "gomoku" else 0.0
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
    for rnd in event.history:
        for g in rnd.games:
            for me, opp, letter, black in (
                (g.black, g.white, "b", True),
                (g.white, g.black, "w", False),
            ):
                if g.result is None:
                    mark = "?"
                else:
                    side = g.result.side(_colour(black))
                    mark = {SideResult.WIN: "+", SideResult.DRAW: "=", SideResult.LOSS: "-"}[side]
                    if not g.result.played:
                        mark += "f"
                cells[me].setdefault(rnd.number, []).append(f"{opp}{letter}{mark}")
        for b in rnd.byes:
            cells[b].setdefault(rnd.number, []).append("bye")
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
            mark = marks[g.result.side(_colour(black))] + ("" if g.result.played else "f")
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
                "points": str(tbl.points(s.number)),
                "tiebreaks": {t.name: str(t.shown(v)) for t, v in zip(used, s.values, strict=True)},
                "by_lot": s.by_lot,
                "rounds": {str(r): c for r, c in sorted(cells[s.number].items())},
            }
        )
    return out


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


# --- group stage, then a final stage (appendix 四, Gomoku §17.4) ------------------------------


def group_stage_rounds(event: Event) -> int:
    """Rounds of the group stage: the Berger table of the largest group (appendix 三, 四).

    >>> e = add_players(new_event("g", "go", "groups", 1, {"groups": 2}),
    ...                 [Player(0, f"P{i}") for i in range(7)])
    >>> group_stage_rounds(e)  # groups of 4 and 3: three rounds
    3
    """
    count = max(1, int(event.options.get("groups", 2)))
    size = -(-len(event.players) // count)
    return max(1, size - 1 + size % 2)


def _final_kind(event: Event) -> str:
    if event.system != "groups":
        return "none"
    kind = str(event.options.get("final", "none")).strip().lower()
    if kind in ("", "none", "no"):
        return "none"
    if kind in ("knockout", "single-elimination"):
        return "knockout"
    if kind in ("round-robin", "rr"):
        return "round-robin"
    raise TournamentError(
        f"unknown final stage {kind!r} (expected none, knockout or round-robin)", "Gomoku §17.4"
    )


def _final_size(event: Event) -> int:
    count = max(1, int(event.options.get("groups", 2)))
    return count * max(1, int(event.options.get("qualifiers", 1)))


def final_stage_rounds(event: Event) -> int:
    """Rounds of the stage after the groups (``options.final``): 0 without one, the knockout's
    rounds (appendix 一; place matches add theirs) or the final round robin's (appendix 三).

    >>> e = new_event("g", "go", "groups", 1, {"groups": 4, "qualifiers": 2, "final": "knockout"})
    >>> final_stage_rounds(e)  # eight qualifiers: quarter-finals, semi-finals, final
    3
    """
    kind = _final_kind(event)
    size = _final_size(event)
    if kind == "none" or size < 2:
        return 0
    if kind == "round-robin":
        return size - 1 + size % 2
    return len(_final_base(event, size).stages)


def final_players(event: Event) -> list[int]:
    """The qualifiers of the final stage in seed order, fixed when its first round is paired:
    every group winner by group number, then every runner-up, and so on (appendix 四: the
    qualifying places are the seeds of the groups, dealt serpentine, so group 1 holds seed 1).
    Empty before then.
    """
    return [int(p) for p in event.options.get("final_players", [])]


def _seed_final(event: Event) -> Event:
    """Fix the qualifiers (the top ``qualifiers`` places of every group) before the final
    stage. A tie across a qualifying place must be settled first (Go §27.1(1)C, §27.3)."""
    if event.options.get("final_players") or _final_kind(event) == "none":
        return event
    qualifiers = max(1, int(event.options.get("qualifiers", 1)))
    by_place: list[list[int]] = [[] for _ in range(qualifiers)]
    for index, rows in group_standings(event):
        if len(rows) < qualifiers:
            raise PairingError(
                f"group {index} has {len(rows)} player(s) left for {qualifiers} qualifying "
                "place(s)",
                "Go appendix 四",
            )
        for row in rows[: qualifiers + 1]:
            if row.place != row.position:
                raise PairingError(
                    f"group {index}: place {row.place} is shared at the qualifying places; "
                    "settle it by a play-off (Go §27.3) or draw lots with `duiyi event lots` "
                    "(Go §27.1(1)C) before the final stage",
                    "Go §27.1(1)C",
                )
        for place in range(qualifiers):
            by_place[place].append(rows[place].number)
    seeds = [p for row in by_place for p in row]
    return replace(event, options={**event.options, "final_players": seeds})


def _seed_layout(size: int) -> list[int]:
    """Seed numbers by bracket line so that seed i meets seed size+1−i first and seeds 1 and 2
    only in the final: [1, 4, 2, 3] for 4, [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order)
        order = [x for s in order for x in (s, m + 1 - s)]
    return order


def _final_lines(event: Event, seeds: Sequence[int]) -> list[int | None]:
    """The final knockout's lines (None = bye). Group winners take the top seed lines; with two
    qualifiers from an even number of groups and a full bracket, each winner meets a runner-up
    of another group, and a group's winner and runner-up sit in opposite halves (the usual
    cross pairing: A1–B2, B1–A2). Otherwise seed i meets seed size+1−i, byes to the best seeds
    (appendix 一.3)."""
    q = len(seeds)
    size = 1
    while size < q:
        size *= 2
    groups = max(1, int(event.options.get("groups", 2)))
    qualifiers = max(1, int(event.options.get("qualifiers", 1)))
    layout = _seed_layout(size)
    if qualifiers == 2 and groups % 2 == 0 and size == q:
        winners, runners = list(seeds[:groups]), list(seeds[groups:])
        lines: list[int | None] = [None] * size
        half = size // 2
        top = [s for i, s in enumerate(layout) if s <= groups and i < half]
        bottom = [s for i, s in enumerate(layout) if s <= groups and i >= half]
        partner = {**dict(zip(top, bottom, strict=True)), **dict(zip(bottom, top, strict=True))}
        for i, s in enumerate(layout):
            if s <= groups:
                lines[i] = winners[s - 1]
                lines[i ^ 1] = runners[partner[s] - 1]
        return lines
    out: list[int | None] = [seeds[s - 1] if s <= q else None for s in layout]
    return _apart(event, out, {p: i for i, p in enumerate(seeds)})


def _apart(event: Event, lines: list[int | None], seed: Mapping[int, int]) -> list[int | None]:
    """Keep two players of one group apart in the first round: the lower seed of such a pair
    swaps with the lower seed of another first-round pair where neither pair then meets a
    player of its own group (the other seeds keep their lines)."""
    group_of = {p: i for i, members in enumerate(group_members(event)) for p in members}
    out = list(lines)

    def lower(i: int) -> int:  # the line of the lower seed of pair i (lines 2i, 2i+1)
        a, b = out[2 * i], out[2 * i + 1]
        return 2 * i + 1 if a is not None and b is not None and seed[a] < seed[b] else 2 * i

    def clash(i: int) -> bool:
        a, b = out[2 * i], out[2 * i + 1]
        return a is not None and b is not None and group_of.get(a) == group_of.get(b)

    pairs = len(out) // 2
    for i in range(pairs):
        if not clash(i):
            continue
        for j in sorted(range(pairs), key=lambda k: abs(k - i)):
            if j == i or out[2 * j] is None or out[2 * j + 1] is None:
                continue
            li, lj = lower(i), lower(j)
            out[li], out[lj] = out[lj], out[li]
            if not clash(i) and not clash(j):
                break
            out[li], out[lj] = out[lj], out[li]
    return out


def _final_base(event: Event, qualifiers: int) -> Any:
    """The appendix-一 bracket of the next power of two ≥ ``qualifiers`` lines, numbered 1 …
    size without byes, with ``options.place_matches`` (Gomoku §18.2)."""
    from duiyi.tournament.pairing.knockout import knockout

    size = 1
    while size < qualifiers:
        size *= 2
    places = [int(x) for x in event.options.get("place_matches", [])]
    return knockout(size, place_matches=places)


def _final_bracket(event: Event, seeds: Sequence[int]) -> Any:
    """The final knockout over ``seeds``: the appendix-一 bracket of the full size, its lines
    replaced by :func:`_final_lines` (place matches from ``options.place_matches``)."""
    from duiyi.tournament.pairing.knockout import Slot

    lines = _final_lines(event, seeds)
    base = _final_base(event, len(seeds))
    by_line = dict(enumerate(lines, start=1))

    def slot(s: Any) -> Any:
        return Slot.of(by_line[s.player]) if s.kind == "player" else s

    matches = tuple(replace(m, top=slot(m.top), bottom=slot(m.bottom)) for m in base.matches)
    return replace(base, lines=tuple(lines), matches=matches)


def _pair_final(event: Event, number: int) -> PairedRound:
    """Round ``number`` of the event, a round of the final stage."""
    seeds = final_players(event)
    first = group_stage_rounds(event)
    index = number - first
    if _final_kind(event) == "round-robin":
        from duiyi.tournament.pairing.round_robin import round_robin

        part = _translate(round_robin(len(seeds), 1, ids=seeds)[index - 1])
        return PairedRound(
            number,
            tuple((b, bl, wh, f"final round robin: {r}") for b, bl, wh, r in part.pairings),
            part.byes,
            ("final stage: round robin of the qualifiers, numbered by seed",),
        )
    bracket = _final_bracket(event, seeds)
    results = _bracket_results(event, bracket, first)
    stage = bracket.stages[index - 1]
    paired = _translate(bracket.round(stage, results, number))
    return replace(paired, notes=(*paired.notes, f"final stage {stage}"))


def final_standings(
    event: Event, lots: Mapping[int, int] | random.Random | None = None
) -> list[Standing]:
    """The final stage's standings over its own games: later elimination first (Gomoku §18.2)
    for a knockout, the round-robin chain for a final round robin. Empty before it starts."""
    if not final_players(event) or event.current_round <= group_stage_rounds(event):
        return []
    sub = final_table(event)
    tbs = final_chain(event)
    use: Mapping[int, int] | random.Random | None = lots
    if use is None and event.lots:
        use = event.lots
    return standings(sub, tbs, use)


def final_table(event: Event) -> Table:
    """The qualifiers' records in the final stage only (its rounds counted from 1)."""
    seeds = final_players(event)
    first = group_stage_rounds(event)
    full = table(event)
    kept = tuple(p for p in seeds if p in full.encounters)
    encounters = {
        p: tuple(e for e in full.records(p) if e.round > first and (e.opponent in kept or
                 e.opponent is None))
        for p in kept
    }  # fmt: skip
    sub = Table(kept, encounters, full.scoring, max(0, full.rounds - first), full.ratings)
    return _renumber_rounds(sub, first)


def final_chain(event: Event) -> tuple[Tiebreak, ...]:
    """The final stage's chain: elimination for a knockout, else the event's chain."""
    if _final_kind(event) == "knockout":
        return default_chain(event.game, "knockout")
    return chain(event)


def _renumber_rounds(tbl: Table, first: int) -> Table:
    """Count the final's rounds from 1 (the elimination round compares with ``rounds``)."""
    return replace(
        tbl,
        encounters={
            c: tuple(replace(e, round=e.round - first) for e in rs)
            for c, rs in tbl.encounters.items()
        },
    )
