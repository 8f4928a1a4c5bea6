"""The interface every competition system implements, and what they share.

A :class:`System` answers four questions about an event played under it: how many rounds the
event has (:meth:`System.total_rounds`), who plays whom in the next round
(:meth:`System.pair`), what a withdrawal does to the player's results
(:meth:`System.withdrawal_effect`, Go §28, Gomoku §18.5), and what stage follows the main one
(:meth:`System.final_stage`, appendix 四, Gomoku §17.4). Around them, the records the standings
read (:meth:`System.table`) with the system's own conventions (a round-robin bye scores
nothing, a McMahon player starts from the rank's initial score) and the chain that ranks them.

Systems are stateless singletons registered by name (:func:`register`); the event keeps
everything that changes (``options`` for drawn groups, seeds and eliminations).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

from duiyi import Color
from duiyi.errors import PairingError, TournamentError
from duiyi.tournament.model import Event, Game, RoundRecord, TeamPairing, Withdrawal
from duiyi.tournament.results import GameResult, ResultSheet, SideResult, Table
from duiyi.tournament.standings import Standing, default_chain, standings
from duiyi.tournament.tiebreaks import Columns, Row, Tiebreak, parse_tiebreak
from duiyi.tournament.withdrawal import Effect, rule

__all__ = [
    "FinalStage",
    "Lots",
    "PairedRound",
    "System",
    "colour",
    "games_played",
    "register",
    "registered",
    "rounds_through",
    "translate",
    "withdrawn_before",
]

Lots = Mapping[int, int] | random.Random | None


@dataclass(frozen=True)
class PairedRound:
    """What pairing a round produced: the pairings with the ``reason`` of each (for
    ``--explain``), the byes and the explanation notes."""

    number: int
    pairings: tuple[tuple[int, int, int, str], ...]  # (board, black, white, reason)
    byes: tuple[int, ...]
    notes: tuple[str, ...]

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """``{"round", "pairings": [{"board", "black", "white"}], "byes"}`` (the CLI contract).

        >>> PairedRound(1, ((1, 2, 1, "r"),), (3,), ("n",)).to_json(explain=True)
        {'round': 1, 'pairings': [{'board': 1, 'black': 2, 'white': 1, 'reason': 'r'}], 'byes': [3], 'notes': ['n']}
        """
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


@dataclass(frozen=True)
class FinalStage:
    """The stage played after the main one (appendix 四, Gomoku §17.4): a ``knockout`` or a
    ``round-robin`` of ``size`` qualifiers over ``rounds`` rounds, starting after round
    ``after_round`` of the event; ``players`` are the qualifiers in seed order once fixed."""

    kind: str
    after_round: int
    rounds: int
    size: int
    players: tuple[int, ...] = ()


def translate(rnd: Any) -> PairedRound:
    """A :class:`~duiyi.tournament.pairing.common.Round` of the pairing package as a
    :class:`PairedRound`."""
    return PairedRound(
        int(rnd.number),
        tuple((int(p.board), int(p.black), int(p.white), str(p.reason)) for p in rnd.pairings),
        tuple(int(b) for b in rnd.byes),
        tuple(str(n) for n in getattr(rnd, "notes", ())),
    )


def colour(black: bool) -> Color:
    """``Color.BLACK`` for True."""
    return Color.BLACK if black else Color.WHITE


def withdrawn_before(event: Event, round_number: int) -> set[int]:
    """Players who withdrew before round ``round_number``."""
    return {w.player for w in event.withdrawals if w.after_round < round_number}


def games_played(event: Event, player: int, upto: int) -> int:
    """Games of ``player`` with a result through round ``upto`` (forfeits count, byes not)."""
    return sum(
        1
        for rnd, g in event.games()
        if rnd <= upto and player in g.players and g.result is not None
    )


def rounds_through(event: Event, upto_round: int | None) -> list[RoundRecord]:
    """The recorded rounds up to ``upto_round`` (default: the played rounds, those whose
    results are all in, Go §27.1(2)A), in order."""
    last = event.completed_rounds if upto_round is None else upto_round
    return list(itertools.takewhile(lambda rnd: rnd.number <= last, event.history))


def player_table(
    event: Event,
    rounds: Sequence[RoundRecord],
    *,
    void: set[int] | frozenset[int] = frozenset(),
    bye_scores: bool = True,
    initial: Mapping[int, Fraction] | None = None,
) -> Table:
    """Every player's record over ``rounds``: games without a result are left out, so are the
    games of ``void`` players (who leave the table, Go §28.2, Gomoku §18.5). A bye scores as a
    win when ``bye_scores`` (Swiss and elimination), nothing otherwise (round robin: the added
    bye number is no opponent, appendix 三.2).

    The records are held as :class:`~duiyi.tournament.tiebreaks.Columns` (integers in units of
    1/scale), so that standings of a large field never build a fraction per game."""
    scoring = event.points
    values = (scoring.win, scoring.draw, scoring.loss, scoring.bye, scoring.no_result)
    scale = math.lcm(1, *(v.denominator for v in values))

    def scaled(v: Fraction) -> int:
        return v.numerator * (scale // v.denominator)

    # per result: (black's side, white's side, black's points, white's points, played), by
    # the member's id (an Enum hashes in Python; an int in C: this loop runs once per game)
    info = {
        id(r): (
            r.side(Color.BLACK),
            r.side(Color.WHITE),
            scaled(scoring.points(r, black=True)),
            scaled(scoring.points(r, black=False)),
            r.played,
        )
        for r in GameResult
    }
    black, white = Color.BLACK, Color.WHITE
    keep = [p.number for p in event.players if p.number not in void]
    points = dict.fromkeys(keep, 0)
    opponents: dict[int, list[int]] = {p: [] for p in keep}
    warned = dict.fromkeys(keep, 0)
    bye_points = scaled(scoring.bye)
    lots_lost: dict[int, list[int]] = {}
    for rnd in rounds:
        for g in rnd.games:
            result = g.result
            if result is None:
                continue
            b, w = g.black, g.white
            if void and (b in void or w in void):
                continue
            if g.lot is not None:  # a drawn elimination game decided by lot: still a draw
                lots_lost.setdefault(w if g.lot.winner is black else b, []).append(rnd.number)
            _, _, pb, pw, _ = info[id(result)]
            if g.penalty:  # a disciplinary loss after the result: Gomoku §2.20(3)
                pb, pw = scaled(g.points(scoring, black)), scaled(g.points(scoring, white))
            points[b] += pb
            points[w] += pw
            opponents[b].append(w)
            opponents[w].append(b)
            if g.black_warnings or g.white_warnings:
                warned[b] += g.black_warnings
                warned[w] += g.white_warnings
        if bye_scores:
            for p in rnd.byes:
                if p in points:
                    points[p] += bye_points

    def rows() -> dict[int, list[Row]]:
        out: dict[int, list[Row]] = {p: [] for p in keep}
        win = SideResult.WIN
        for rnd in rounds:
            n = rnd.number
            for g in rnd.games:
                result = g.result
                if result is None or (void and (g.black in void or g.white in void)):
                    continue
                sb, sw, pb, pw, played = info[id(result)]
                if g.penalty:  # Gomoku §2.20(3)
                    sb, sw = g.side(black), g.side(white)
                    pb, pw = scaled(g.points(scoring, black)), scaled(g.points(scoring, white))
                out[g.black].append((n, g.white, sb, pb, black, played, g.black_warnings))
                out[g.white].append((n, g.black, sw, pw, white, played, g.white_warnings))
            if bye_scores:
                for p in rnd.byes:
                    if p in out:
                        out[p].append((n, None, win, bye_points, None, False, 0))
        return out

    return Table(
        tuple(keep),
        Columns(rows, scale, points, opponents, warned),
        scoring,
        rounds[-1].number if rounds else 0,
        {p.number: p.rating for p in event.players},
        dict(initial or {}),
        {p: tuple(rs) for p, rs in lots_lost.items()},
    )


def _scored(g: Game) -> GameResult | ResultSheet:
    """A finished board as a team match scores it: its result, or its sheet when a side lost
    by a disciplinary ruling after the result (one-sided, Gomoku §2.20(3))."""
    sheet = g.sheet
    if sheet is None:
        raise TournamentError(
            f"board {g.board} has no result yet",
            code="board-no-result",
            values={"board": str(g.board)},
        )
    return sheet if g.penalty else sheet.result


_REGISTRY: dict[str, System] = {}


def register(system: System) -> System:
    """Register ``system`` under its name (and its aliases); returns it."""
    for key in (system.name, *system.aliases):
        if key in _REGISTRY and _REGISTRY[key] is not system:
            raise TournamentError(
                f"two systems are registered as {key!r}",
                code="system-registered-twice",
                values={"system": key},
            )
        _REGISTRY[key] = system
    return system


def registered() -> Mapping[str, System]:
    """Every registered system by name and alias."""
    return _REGISTRY


class System:
    """A competition system. Subclasses set the class attributes and override what differs.

    ``family`` is the standings and withdrawal family of the books: ``round-robin``, ``swiss``,
    ``knockout`` or ``match``. ``rounds_from_field``: the number of rounds follows from the
    field (Berger table, bracket, match length), not from the organiser. ``needs_winner``: every
    game must have a winner (elimination). ``bye_scores``: a bye scores as a win.
    ``mcmahon``: the book's chain ranks by McMahon score (MMS, SOS, SOSOS).
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    family: ClassVar[str] = "swiss"
    rounds_from_field: ClassVar[bool] = False
    bye_scores: ClassVar[bool] = True
    elimination: ClassVar[bool] = False
    mcmahon: ClassVar[bool] = False

    def __repr__(self) -> str:
        return f"<system {self.name}>"

    # --- the interface ----------------------------------------------------------------------

    def total_rounds(self, event: Event) -> int:
        """Rounds of the whole event; the planned number unless the system decides it."""
        return event.rounds

    def pair(self, event: Event, number: int, rng: random.Random) -> tuple[Event, PairedRound]:
        """Pair round ``number``: the event with the round recorded (games against players who
        withdrew already forfeited, Go §28.2, §28.4, Gomoku §18.5) and the round as paired."""
        if event.is_team_event:
            teams = self.pair_teams(event, number, rng)
            return self.record_team_round(event, number, teams)
        event, paired = self.pair_players(event, number, rng)
        return self.record(event, paired), paired

    def withdrawal_effect(self, event: Event, withdrawal: Withdrawal) -> Effect:
        """What ``withdrawal`` does to the player's results (Go §28, Gomoku §18.5)."""
        return rule(
            game=event.game,
            family="match" if event.is_team_event else self.family,  # teams: Go §28.4
            rounds=self.withdrawal_rounds(event),
            games_played=games_played(event, withdrawal.player, withdrawal.after_round),
            started=True,
        )

    def final_stage(self, event: Event) -> FinalStage | None:
        """The stage after the main one, or None (the default: one stage)."""
        return None

    def withdrawal_rounds(self, event: Event) -> int:
        """The rounds "half" is measured against (Go §28.2, Gomoku §18.5): the event's."""
        return self.total_rounds(event)

    # --- hooks with defaults ----------------------------------------------------------------

    @property
    def late_entries(self) -> bool:
        """Players may join after round 1 is paired (Swiss-type systems)."""
        return self.family == "swiss"

    def needs_winner(self, event: Event, round_number: int) -> bool:
        """Every game of round ``round_number`` must have a winner (Gomoku §18.2)."""
        return self.elimination

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        """Pair round ``number`` of an individual event: the event (with any option the
        system keeps, e.g. drawn groups) and the round, not yet recorded."""
        raise PairingError(
            f"`event pair` does not pair {self.name} events yet; "
            "use `duiyi schedule` for the bracket and enter results by board",
            code="system-not-paired",
        )

    def pair_teams(self, event: Event, number: int, rng: random.Random) -> PairedRound:
        """Pair the teams (numbers) of round ``number`` of a team event."""
        raise PairingError(
            f"team events are paired by round robin or Swiss, not {self.name}",
            code="teams-round-robin-or-swiss",
        )

    def effects(self, event: Event) -> dict[int, Effect]:
        """The effect of each withdrawal, by player number."""
        return {w.player: self.withdrawal_effect(event, w) for w in event.withdrawals}

    def initial_scores(self, event: Event) -> dict[int, Fraction]:
        """Scores the players start from (McMahon); none by default."""
        return {}

    def table(self, event: Event, upto_round: int | None = None) -> Table:
        """Every player's record through ``upto_round`` (default: the played rounds), with
        withdrawals applied: a void player's games count for nobody and the player is left
        out (Go §28.2, Gomoku §18.5)."""
        effects = self.effects(event)
        void = {p for p, eff in effects.items() if eff is Effect.VOID}
        return player_table(
            event,
            rounds_through(event, upto_round),
            void=void,
            bye_scores=self.bye_scores,
            initial=self.initial_scores(event),
        )

    def team_table(self, event: Event, upto_round: int | None = None) -> Table:
        """Every team's record: match points, game points and board points of finished
        matches (Go §27.2, Gomoku §18.3(2), §18.4(2)). A team bye scores a won match when
        byes score (not in a round robin)."""
        rounds = rounds_through(event, upto_round)
        rows: list[tuple[int, int, int, list[GameResult | ResultSheet], list[bool]]] = []
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
                        [_scored(g) for g in games],
                        [g.black in first_members for g in games],
                    )
                )
            if self.bye_scores:
                byes.extend((rnd.number, t) for t in rnd.team_byes)
        return Table.from_matches(
            rows,
            event.points,
            rounds=rounds[-1].number if rounds else 0,
            competitors=[t.number for t in event.teams],
            byes=byes,
        )

    def chain(self, event: Event) -> tuple[Tiebreak, ...]:
        """The tiebreak chain: ``options.tiebreaks`` or the book's default."""
        names = event.options.tiebreaks
        if names:
            return tuple(parse_tiebreak(n) for n in names)
        return self.book_chain(event)

    def team_chain(self, event: Event) -> tuple[Tiebreak, ...]:
        """The team chain: ``options.tiebreaks`` or the book's default for teams."""
        names = event.options.tiebreaks
        if names:
            return tuple(parse_tiebreak(n) for n in names)
        return self.book_chain(event, team=True)

    def book_chain(self, event: Event, *, team: bool = False) -> tuple[Tiebreak, ...]:
        """The book's default chain of this system's family (Go §27, Gomoku §18), for players
        or (``team``) for teams."""
        return default_chain(
            event.game,
            self.family,
            team=team,
            board_count=event.boards if team else 0,
            variant=event.options.variant or "",
            mcmahon=self.mcmahon,
        )

    def standings(self, event: Event, lots: Lots = None) -> list[Standing]:
        """The players' standings through the played rounds; ties to ``lots``."""
        return standings(
            self.table(event), self.chain(event), _lots(event, lots), event.game.tie_lot_article
        )

    def team_standings(self, event: Event, lots: Lots = None) -> list[Standing]:
        """The teams' standings (Go §27.2, Gomoku §18.3(2), §18.4(2))."""
        return standings(
            self.team_table(event),
            self.team_chain(event),
            _lots(event, lots),
            event.game.tie_lot_article,
        )

    # --- recording a round ------------------------------------------------------------------

    def record(self, event: Event, paired: PairedRound) -> Event:
        """``event`` with ``paired`` recorded as its next round; a game against a player who
        withdrew before it is forfeited at once unless the player is simply not paired."""
        effects = self.effects(event)
        withdrawn = withdrawn_before(event, paired.number)
        games = [
            _forfeit_withdrawn(Game(board, black, white), withdrawn, effects)
            for board, black, white, _reason in paired.pairings
        ]
        record = RoundRecord(paired.number, tuple(games), paired.byes)
        return replace(event, history=(*event.history, record))

    def record_team_round(
        self, event: Event, number: int, team_round: PairedRound
    ) -> tuple[Event, PairedRound]:
        """Lay out the boards of each team match and record the round.

        Board i of a match puts the teams' i-th players against each other (分台定人制,
        Go §25.2); the first-listed team has Black on odd boards and White on even boards.
        """
        boards = event.boards
        if boards < 1:
            raise PairingError(
                "a team event needs at least one player per team", code="team-no-players"
            )
        effects = self.effects(event)
        withdrawn = withdrawn_before(event, number)
        games: list[Game] = []
        matches: list[TeamPairing] = []
        byes: list[int] = []
        for match, first, second, _reason in team_round.pairings:
            a, b = event.team(first).members, event.team(second).members
            used: list[int] = []
            for i in range(boards):
                black, white = (a[i], b[i]) if i % 2 == 0 else (b[i], a[i])
                g = _forfeit_withdrawn(Game(len(games) + 1, black, white), withdrawn, effects)
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


def _forfeit_withdrawn(game: Game, withdrawn: set[int], effects: Mapping[int, Effect]) -> Game:
    if game.black in withdrawn and effects.get(game.black) is not Effect.KEEP_UNPAIRED:
        return game.with_result(GameResult.FORFEIT_BLACK)
    if game.white in withdrawn and effects.get(game.white) is not Effect.KEEP_UNPAIRED:
        return game.with_result(GameResult.FORFEIT_WHITE)
    return game


def _lots(event: Event, lots: Lots) -> Lots:
    """The lots to settle ties: those given, else the event's drawn lots, else none."""
    if lots is None and event.lots:
        return event.lots
    return lots
