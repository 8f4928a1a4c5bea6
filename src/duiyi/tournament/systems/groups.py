"""Groups (分组循环, appendix 四): a round robin in each group dealt serpentine, then an
optional final stage (``options.final``: ``knockout`` or ``round-robin``) of the top
``options.qualifiers`` of every group (Gomoku §17.4).

>>> e = Event("g", "go", "groups", 0, options={"groups": 4, "qualifiers": 2, "final": "knockout"})
>>> GROUPS.final_stage(e)
FinalStage(kind='knockout', after_round=1, rounds=3, size=8, players=())
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from duiyi.errors import PairingError, TournamentError
from duiyi.tournament.model import Event, Withdrawal
from duiyi.tournament.results import Table
from duiyi.tournament.standings import Standing, default_chain, standings
from duiyi.tournament.systems.base import (
    FinalStage,
    PairedRound,
    System,
    register,
    translate,
)
from duiyi.tournament.systems.elimination import bracket_results
from duiyi.tournament.tiebreaks import Tiebreak
from duiyi.tournament.withdrawal import Effect

__all__ = [
    "Groups",
    "final_chain",
    "final_players",
    "final_stage_rounds",
    "final_standings",
    "final_table",
    "group_members",
    "group_stage_rounds",
    "group_standings",
]


def group_members(event: Event) -> tuple[tuple[int, ...], ...]:
    """The groups of a group round robin (appendix 四), as drawn before round 1."""
    drawn = event.options.group_members
    if not drawn:
        raise TournamentError(
            "the groups have not been drawn yet (pair round 1 first)", code="groups-not-drawn"
        )
    return drawn


def _draw_groups(event: Event, rng: random.Random) -> Event:
    """Deal the players into groups by the serpentine rule (appendix 四): players are taken in
    number order (strongest first), seeds spread serpentine, the others by lot."""
    from duiyi.tournament.pairing.groups import serpentine_groups

    if event.options.group_members:
        return event
    groups = serpentine_groups(
        [p.number for p in event.players],
        event.options.groups or 2,
        qualifiers=event.options.qualifiers or 1,
        seeds=event.options.seeds_count,
        rng=rng,
    )
    options = event.options.updated(group_members=tuple(tuple(g) for g in groups))
    return replace(event, options=options)


def group_standings(
    event: Event, lots: Mapping[int, int] | random.Random | None = None
) -> list[tuple[int, list[Standing]]]:
    """Each group's standings (group number, rows), by the round-robin chain of the game."""
    use: Mapping[int, int] | random.Random | None = lots
    if use is None and event.lots:
        use = event.lots
    full = GROUPS.table(event, min(event.completed_rounds, group_stage_rounds(event)))
    out = []
    for index, members in enumerate(group_members(event), start=1):
        kept = tuple(m for m in members if m in full.encounters)
        sub = Table(
            kept, {m: full.records(m) for m in kept}, full.scoring, full.rounds, full.ratings
        )
        out.append((index, standings(sub, GROUPS.chain(event), use, event.game.tie_lot_article)))
    return out


def group_stage_rounds(event: Event) -> int:
    """Rounds of the group stage: the Berger table of the largest group (appendix 三, 四).

    >>> from duiyi.tournament.model import Player
    >>> e = Event("g", "go", "groups", 0, players=tuple(Player(i, f"P{i}") for i in range(1, 8)))
    >>> group_stage_rounds(e)  # groups of 4 and 3: three rounds
    3
    """
    count = event.options.groups or 2
    size = -(-len(event.players) // count)
    return max(1, size - 1 + size % 2)


def _final_kind(event: Event) -> str:
    if event.system != "groups":
        return "none"
    kind = (event.options.final or "none").strip().lower()
    if kind in ("", "none", "no"):
        return "none"
    if kind in ("knockout", "single-elimination"):
        return "knockout"
    if kind in ("round-robin", "rr"):
        return "round-robin"
    raise TournamentError(
        f"unknown final stage {kind!r} (expected none, knockout or round-robin)",
        "Gomoku §17.4",
        code="unknown-final-stage",
    )


def _final_size(event: Event) -> int:
    return (event.options.groups or 2) * (event.options.qualifiers or 1)


def final_stage_rounds(event: Event) -> int:
    """Rounds of the stage after the groups (``options.final``): 0 without one, the knockout's
    rounds (appendix 一; place matches add theirs) or the final round robin's (appendix 三).

    >>> e = Event("g", "go", "groups", 0, options={"groups": 4, "qualifiers": 2, "final": "knockout"})
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
    return list(event.options.final_players or ())


def _seed_final(event: Event) -> Event:
    """Fix the qualifiers (the top ``qualifiers`` places of every group) before the final
    stage. A tie across a qualifying place must be settled first (Go §27.1(1)C, §27.3; Gomoku
    §18.3(1)C)."""
    if event.options.final_players or _final_kind(event) == "none":
        return event
    qualifiers = event.options.qualifiers or 1
    by_place: list[list[int]] = [[] for _ in range(qualifiers)]
    for index, rows in group_standings(event):
        if len(rows) < qualifiers:
            raise PairingError(
                f"group {index} has {len(rows)} player(s) left for {qualifiers} qualifying "
                "place(s)",
                "Go appendix 四",
                code="group-too-few",
                values={"group": str(index), "left": str(len(rows)), "places": str(qualifiers)},
            )
        for row in rows[: qualifiers + 1]:
            if row.place != row.position:
                lot = event.game.tie_lot_article  # the event's own book (issue 32)
                raise PairingError(
                    f"group {index}: place {row.place} is shared at the qualifying places; "
                    f"settle it by a play-off or draw lots with `duiyi event lots` ({lot}) "
                    "before the final stage",
                    lot,
                    code="group-place-shared",
                    values={"group": str(index), "place": str(row.place)},
                )
        for place in range(qualifiers):
            by_place[place].append(rows[place].number)
    seeds = [p for row in by_place for p in row]
    return replace(event, options=event.options.updated(final_players=tuple(seeds)))


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
    groups = event.options.groups or 2
    qualifiers = event.options.qualifiers or 1
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
    places = list(event.options.place_matches or ())
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

        part = translate(round_robin(len(seeds), 1, ids=seeds)[index - 1])
        return PairedRound(
            number,
            tuple((b, bl, wh, f"final round robin: {r}") for b, bl, wh, r in part.pairings),
            part.byes,
            ("final stage: round robin of the qualifiers, numbered by seed",),
        )
    bracket = _final_bracket(event, seeds)
    results = bracket_results(event, bracket, first)
    stage = bracket.stages[index - 1]
    paired = translate(bracket.round(stage, results, number))
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
    return standings(sub, tbs, use, event.game.tie_lot_article)


def final_table(event: Event) -> Table:
    """The qualifiers' records in the final stage only (its rounds counted from 1)."""
    seeds = final_players(event)
    first = group_stage_rounds(event)
    full = GROUPS.table(event)
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
    return GROUPS.chain(event)


def _renumber_rounds(tbl: Table, first: int) -> Table:
    """Count the final's rounds from 1 (the elimination round compares with ``rounds``)."""
    return replace(
        tbl,
        encounters={
            c: tuple(replace(e, round=e.round - first) for e in rs)
            for c, rs in tbl.encounters.items()
        },
    )


class Groups(System):
    """Round robins in groups, then the final stage of ``options.final`` (appendix 四)."""

    name = "groups"
    family = "round-robin"
    rounds_from_field = True
    bye_scores = False

    def total_rounds(self, event: Event) -> int:
        if len(event.players) < 2:
            return event.rounds
        return group_stage_rounds(event) + final_stage_rounds(event)

    def final_stage(self, event: Event) -> FinalStage | None:
        kind = _final_kind(event)
        size = _final_size(event)
        if kind == "none" or size < 2:
            return None
        rounds = final_stage_rounds(event)
        return FinalStage(
            kind, group_stage_rounds(event), rounds, size, tuple(final_players(event))
        )

    def needs_winner(self, event: Event, round_number: int) -> bool:
        stage = self.final_stage(event)
        return stage is not None and stage.kind == "knockout" and round_number > stage.after_round

    def withdrawal_effect(self, event: Event, withdrawal: Withdrawal) -> Effect:
        if withdrawal.after_round > group_stage_rounds(event):
            # left during the final stage: the group results stand, the final's remaining
            # games are forfeited (Go §28.4 as for knockouts; Go §28.2's voiding would wipe
            # the group stage too, which no reading of the books asks for)
            return Effect.KEEP_FORFEIT_REST
        return super().withdrawal_effect(event, withdrawal)

    def withdrawal_rounds(self, event: Event) -> int:
        """The group stage's rounds: a withdrawal in the groups is judged on them."""
        return group_stage_rounds(event)

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        event = _draw_groups(event, rng)
        if number > group_stage_rounds(event):
            event = _seed_final(event)
            return event, _pair_final(event, number)
        from duiyi.tournament.pairing.groups import group_round_robins

        rounds = group_round_robins(group_members(event))
        pairings: list[tuple[int, int, int, str]] = []
        byes: list[int] = []
        notes: list[str] = []
        for index, schedule in enumerate(rounds, start=1):
            if number > len(schedule):
                continue
            part = translate(schedule[number - 1])
            for _board, black, white, reason in part.pairings:
                pairings.append((len(pairings) + 1, black, white, f"group {index}: {reason}"))
            byes.extend(part.byes)
            notes.extend(f"group {index}: {n}" for n in part.notes)
        return event, PairedRound(number, tuple(pairings), tuple(byes), tuple(notes))


GROUPS = register(Groups())
