"""Swiss-type systems: Swiss (积分编排, appendix 五), McMahon (international option) and Swiss
with progressive elimination (appendix 六)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

from duiyi.tournament.model import Event, rank_value
from duiyi.tournament.standings import standings
from duiyi.tournament.systems.base import (
    PairedRound,
    System,
    register,
    translate,
    withdrawn_before,
)
from duiyi.tournament.tiebreaks import columns

__all__ = [
    "McMahon",
    "Swiss",
    "SwissElimination",
    "clubs_apart",
    "eliminated",
    "mcmahon_initial",
]


def clubs_apart(event: Event, paired: PairedRound) -> PairedRound:
    """Round 1 with players of one club kept apart where a swap of two White players allows
    it (``options.avoid_same_club``, as OpenGotha and Chinese 编排 software offer; the books
    are silent): board by board, a same-club pair swaps its White with the nearest board's
    White when neither board is then a same-club pair; the smaller number keeps Black
    (appendix 五, odd round). Boards no swap can mend stay as they are.

    >>> from duiyi.tournament.event import add_players, new_event, pair_next_round
    >>> from duiyi.tournament.model import Player
    >>> ps = [Player(0, n, club=c) for n, c in zip("ABCD", ["X", "X", "Y", "Y"])]
    >>> e = add_players(new_event("S", "gomoku", "swiss", 3, {"avoid_same_club": True}), ps)
    >>> [(b, w) for _, b, w, _ in pair_next_round(e)[1].pairings]
    [(1, 4), (2, 3)]
    """
    club = {p.number: p.club.strip().casefold() for p in event.players}

    def clash(a: int, b: int) -> bool:
        return bool(club.get(a)) and club.get(a) == club.get(b)

    pairs = [(black, white) for _, black, white, _ in paired.pairings]
    reasons = [why for *_, why in paired.pairings]
    for i in range(len(pairs)):
        a, b = pairs[i]
        if not clash(a, b):
            continue
        for j in sorted(range(len(pairs)), key=lambda k: (abs(k - i), k)):
            c, d = pairs[j]
            if j == i or clash(a, d) or clash(c, b):
                continue
            note = f"; same club kept apart: {b} and {d} swapped (option avoid_same_club)"
            pairs[i] = (min(a, d), max(a, d))
            pairs[j] = (min(c, b), max(c, b))
            reasons[i] += note
            reasons[j] += note
            break
    pairings = tuple(
        (board, pairs[k][0], pairs[k][1], reasons[k])
        for k, (board, *_rest) in enumerate(paired.pairings)
    )
    return replace(paired, pairings=pairings)


class Swiss(System):
    """积分编排 (appendix 五): same score first, no rematch, colours balanced; late entries."""

    name = "swiss"

    def swiss_players(self, event: Event, number: int) -> list[Any]:
        """The Swiss pairer's view of every player still in the event before round
        ``number``: points, opponents met, colours, byes and standing position."""
        from duiyi.tournament.flags import absent_in
        from duiyi.tournament.pairing.swiss import SwissPlayer

        # withdrawn players and those marked absent from this round are not paired
        withdrawn = withdrawn_before(event, number) | absent_in(event, number)
        tbl = self.table(event)
        position = {s.number: s.position for s in standings(tbl, self.chain(event))}
        cols = columns(tbl)
        scale = cols.scale
        # whole scores as ints (the pairer compares thousands of them), others exact
        points: dict[int, int | Fraction] = {
            n: v // scale if v % scale == 0 else Fraction(v, scale) for n, v in cols.points.items()
        }
        met: dict[int, set[int]] = {p.number: set() for p in event.players}
        colours: dict[int, list[str]] = {p.number: [] for p in event.players}
        byes: dict[int, int] = dict.fromkeys(met, 0)
        for rnd in event.history:
            for g in rnd.games:
                met[g.black].add(g.white)
                met[g.white].add(g.black)
                if g.result is None or g.result.played:
                    colours[g.black].append("B")
                    colours[g.white].append("W")
            for b in rnd.byes:
                byes[b] += 1
        out = []
        for p in event.players:
            n = p.number
            if n in withdrawn:
                continue
            out.append(
                SwissPlayer(
                    n,
                    points.get(n, 0),
                    frozenset(met[n]),
                    "".join(colours[n]),
                    byes[n],
                    position.get(n),
                )
            )
        return out

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        from duiyi.tournament.pairing.swiss import pair_swiss

        paired = translate(pair_swiss(self.swiss_players(event, number), number))
        if number == 1 and event.options.avoid_same_club:
            paired = clubs_apart(event, paired)
        return event, paired

    def pair_teams(self, event: Event, number: int, rng: random.Random) -> PairedRound:
        from duiyi.tournament.pairing.swiss import pair_swiss

        return translate(pair_swiss(self._swiss_teams(event), number))

    def _swiss_teams(self, event: Event) -> list[Any]:
        from duiyi.tournament.pairing.swiss import SwissPlayer

        tbl = self.team_table(event)
        position = {s.number: s.position for s in standings(tbl, self.team_chain(event))}
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
                    t.number,
                    tbl.points(t.number),
                    frozenset(met),
                    colours,
                    byes,
                    position[t.number],
                )
            )
        return out


def _mcmahon_rank(rank: str) -> str:
    """The rank as McMahon reads it; unknown ranks start at the bottom (30k)."""
    value = rank_value(rank)
    return rank.strip() if value > -30 else "30k"


def _bar_and_floor(event: Event) -> tuple[str, str]:
    """The McMahon bar and floor of ``event``'s options (default 1d and 20k)."""
    return event.options.bar or "1d", event.options.floor or "20k"


def mcmahon_initial(event: Event) -> dict[int, Fraction]:
    """Each player's initial McMahon score from the rank, ``options.bar`` (default 1d) and
    ``options.floor`` (default 20k); an unknown rank starts at the floor.

    >>> from duiyi.tournament.model import Player
    >>> e = Event("mm", "go", "mcmahon", 3, options={"bar": "2d", "floor": "5k"},
    ...           players=(Player(1, "A", "3d"), Player(2, "B", "1k"), Player(3, "C")))
    >>> mcmahon_initial(e)
    {1: Fraction(6, 1), 2: Fraction(4, 1), 3: Fraction(0, 1)}
    """
    from duiyi.tournament.pairing.mcmahon import initial_score

    bar, floor = _bar_and_floor(event)
    by_rank: dict[str, Fraction] = {}
    out = {}
    for p in event.players:
        score = by_rank.get(p.rank)
        if score is None:
            score = Fraction(initial_score(_mcmahon_rank(p.rank), bar=bar, floor=floor))
            by_rank[p.rank] = score
        out[p.number] = score
    return out


class McMahon(Swiss):
    """McMahon (international Go option): the Swiss pairer over McMahon scores (initial score
    from the rank, bar and floor in ``options``), ranked by MMS, SOS, SOSOS."""

    name = "mcmahon"
    # the book's chain: MMS, SOS, SOSOS, then fewer warnings (Go) or wins (Gomoku); teams as
    # in Swiss
    mcmahon = True

    def initial_scores(self, event: Event) -> dict[int, Fraction]:
        return mcmahon_initial(event)

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        from duiyi.tournament.pairing.mcmahon import McMahonPlayer, pair_mcmahon

        win = event.points.win
        wn, wd = win.numerator, win.denominator
        mm = []
        for sp in self.swiss_players(event, number):
            score = sp.score
            if isinstance(score, int) and score * wd % wn == 0:
                wins: int | Fraction = score * wd // wn  # in wins, as an int when whole
            else:
                wins = Fraction(score) / win
            rank = _mcmahon_rank(event.players[sp.number - 1].rank)
            mm.append(McMahonPlayer(sp.number, rank, wins, sp.opponents, sp.colours, sp.byes))
        bar, floor = _bar_and_floor(event)
        return event, translate(pair_mcmahon(mm, number, bar=bar, floor=floor))

    def pair_teams(self, event: Event, number: int, rng: random.Random) -> PairedRound:
        return System.pair_teams(self, event, number, rng)


def eliminated(event: Event) -> set[int]:
    """Players dropped so far by progressive elimination (appendix 六)."""
    table_ = event.options.eliminated or {}
    return {p for dropped in table_.values() for p in dropped}


class SwissElimination(Swiss):
    """Swiss with progressive elimination (appendix 六): after the rounds the plan names, the
    lowest players leave (lowest score, then opponents' score, then lots)."""

    name = "swiss-elimination"

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        from duiyi.tournament.pairing.swiss import pair_swiss

        event, notes = self._eliminate(event, number, rng)
        out = eliminated(event)
        field = [sp for sp in self.swiss_players(event, number) if sp.number not in out]
        paired = translate(pair_swiss(field, number))
        return event, replace(paired, notes=notes + paired.notes)

    def pair_teams(self, event: Event, number: int, rng: random.Random) -> PairedRound:
        return System.pair_teams(self, event, number, rng)

    def _eliminate(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, tuple[str, ...]]:
        """Before round ``number``, drop the players the plan asks for after round
        ``number - 1`` (appendix 六)."""
        from duiyi.tournament.pairing.swiss_elimination import (
            EliminationEntry,
            eliminate,
            elimination_plan,
        )
        from duiyi.tournament.tiebreaks import buchholz

        after = number - 1
        done = dict(event.options.eliminated or {})
        if after < 1 or after in done:
            return event, ()
        start = event.options.start_after
        if start is None:
            start = 5
        plan = elimination_plan(len(event.players), self.total_rounds(event), start_after=start)
        count = plan[after - 1] if after - 1 < len(plan) else 0
        if count <= 0:
            return event, ()
        out = eliminated(event) | withdrawn_before(event, number)
        tbl = self.table(event)
        entries = [
            EliminationEntry(p.number, tbl.points(p.number), buchholz(tbl, p.number))
            for p in event.players
            if p.number not in out and p.number in tbl.encounters
        ]
        result = eliminate(entries, count, rng)
        done[after] = tuple(result.dropped)
        options = event.options.updated(eliminated=done)
        notes = tuple(f"eliminated after round {after}: {r}" for r in result.reasons)
        return replace(event, options=options), notes


SWISS = register(Swiss())
MCMAHON = register(McMahon())
SWISS_ELIMINATION = register(SwissElimination())
