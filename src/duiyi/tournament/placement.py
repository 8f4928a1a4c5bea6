"""Placement rules of an event imported from OpenGotha: its scores, its tiebreaks, its order.

The Chinese rules (Go §27, Gomoku §18) rank a Swiss by points and the book's tiebreaks, and
leave byes out of every opponents' sum (docs/decisions.md, base readings). An event imported from
OpenGotha keeps the conventions its director chose in OpenGotha instead, as rules of that event
(``event.options.placement``, a :class:`PlacementRules`):

- the McMahon bar, floor and zero (initial score = rank framed by floor and bar, counted from
  zero, plus the director's per-player ``smmsCorrection``);
- what a bye and an absent round are worth, in half points (``genMMS2ValueBye`` ...), summed
  over the rounds and rounded down to whole points when the file says so
  (``genRoundDownNBWMMS``);
- the virtual opponent of a round not paired: it adds 0 to SOSW and SOSOSW, the player's own
  initial McMahon score to SOSM, and that score once per round counted to SOSOSM;
  a handicap moves an opponent's score in SOSM by the handicap;
- optionally every game not played (forfeit, bye, absence, no result) counting as half a point
  in opponents' sums (``genCountNotPlayedGamesAsHalfPoint``);
- the placement criteria in the file's order, ties on all of them ordered by name (and shown as
  shared places).

This module computes exactly what OpenGotha 3.x computes (``Tournament.fillBaseScoringInfo``),
checked player by player against OpenGotha itself on real files
(``tests/tournament/formats/test_opengotha_oracle.py``). Events created in duiyi have no
``placement`` option and keep the book's rules.

>>> from duiyi.tournament.model import Event, Game, Player, RoundRecord
>>> from duiyi.tournament.results import GameResult
>>> rules = PlacementRules(("MMS", "SOSM", "SOSOSM"), bar=3, floor=-20)
>>> e = Event("Cup", "go", "mcmahon", 2, players=(Player(1, "A", "4d"), Player(2, "B", "2k"),
...           Player(3, "C", "25k")), options={"placement": rules.to_json()},
...           history=(RoundRecord(1, (Game(1, 1, 2, GameResult.BLACK_WINS),), byes=(3,)),))
>>> [(s.number, [str(v) for v in s.values]) for s in placement_standings(e)]
[(1, ['34', '28', '34']), (2, ['28', '34', '28']), (3, ['11', '10', '10'])]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from duiyi.errors import InvalidInput
from duiyi.tournament.model import Event, Game, Player
from duiyi.tournament.placement_rules import (
    ARTICLE,
    CRITERIA,
    PlacementRules,
    og_rank,
    og_rank_text,
)
from duiyi.tournament.results import GameResult, Table
from duiyi.tournament.standings import Standing
from duiyi.tournament.tiebreaks import Tiebreak

__all__ = [
    "CRITERIA",
    "PlacementRules",
    "kept_parameter_set",
    "last_round_with_games",
    "og_rank",
    "og_rank_text",
    "placement_chain",
    "placement_standings",
    "played_rounds",
    "player_scores",
    "result_code",
]

_ARTICLE = ARTICLE


def kept_parameter_set(event: Event, tag: str) -> dict[str, str]:
    """The attributes of one OpenGotha parameter set an imported event kept (``{}`` for an
    event made in duiyi), as the file wrote them.

    >>> from duiyi.tournament import event as ops
    >>> kept_parameter_set(ops.new_event("Club", "go", "swiss", 3), "DPParameterSet")
    {}
    """
    kept = event.options.opengotha
    if kept is None:
        return {}
    for el in kept.get("parameters", {}).get("children", ()):
        if el.get("tag") == tag:
            return {str(k): str(v) for k, v in el.get("attrs", {}).items()}
    return {}


# OpenGotha's result codes: (black's wins × 2, white's wins × 2, played over the board)
_CODES: dict[str, tuple[int, int, bool]] = {
    "RESULT_UNKNOWN": (0, 0, False),
    "RESULT_WHITEWINS": (0, 2, True),
    "RESULT_BLACKWINS": (2, 0, True),
    "RESULT_EQUAL": (1, 1, True),
    "RESULT_BOTHLOSE": (0, 0, True),
    "RESULT_BOTHWIN": (2, 2, True),
    "RESULT_WHITEWINS_BYDEF": (0, 2, False),
    "RESULT_BLACKWINS_BYDEF": (2, 0, False),
    "RESULT_EQUAL_BYDEF": (1, 1, False),
    "RESULT_BOTHLOSE_BYDEF": (0, 0, False),
    "RESULT_BOTHWIN_BYDEF": (2, 2, False),
}

_FROM_RESULT: dict[GameResult | None, str] = {
    None: "RESULT_UNKNOWN",
    GameResult.BLACK_WINS: "RESULT_BLACKWINS",
    GameResult.WHITE_WINS: "RESULT_WHITEWINS",
    GameResult.DRAW: "RESULT_EQUAL",
    GameResult.FORFEIT_BLACK: "RESULT_WHITEWINS_BYDEF",
    GameResult.FORFEIT_WHITE: "RESULT_BLACKWINS_BYDEF",
    GameResult.DOUBLE_FORFEIT: "RESULT_BOTHLOSE_BYDEF",
    GameResult.BOTH_LOSE: "RESULT_BOTHLOSE",
    GameResult.NO_RESULT: "RESULT_BOTHLOSE",  # a game without a winner scores 0–0
}

_ABSENT, _NOT_ASSIGNED, _BYE, _PAIRED = -3, -2, -1, 1


def rules_of(event: Event) -> PlacementRules | None:
    """The event's placement rules, or None for an event with the book's rules."""
    return event.options.placement


def _extra(p: Player, key: str, default: str = "") -> str:
    for k, v in p.extra:
        if k == key:
            return v
    return default


def result_code(event: Event, round_number: int, game: Game) -> str:
    """The OpenGotha result code of a game: the code kept from the file when duiyi has no
    counterpart (``RESULT_BOTHWIN``, ``RESULT_EQUAL_BYDEF`` ...) and the game was not changed
    since, else the code of duiyi's result."""
    kept = (event.options.opengotha or {}).get("results", {})
    entry = kept.get(f"{round_number}/{game.board}") if isinstance(kept, Mapping) else None
    if entry:
        code, was = str(entry[0]), entry[1]
        now = None if game.result is None else game.result.value
        if was == now:
            return code
    return _FROM_RESULT[game.result]


def smms(player: Player, rules: PlacementRules) -> int:
    """The initial McMahon score: the rank framed by floor and bar, counted from zero, plus the
    director's correction (``smmsCorrection``)."""
    rank = og_rank(player.rank or _extra(player, "grade"))
    framed = min(max(rank, rules.floor), rules.bar)
    try:
        correction = int(_extra(player, "smmsCorrection", "0") or 0)
    except ValueError:
        correction = 0
    return framed - rules.zero + correction


def _rating(player: Player) -> int:
    if player.rating is not None:
        return max(-900, min(2949, player.rating))
    kept = _extra(player, "iniRating")
    if kept:
        try:
            return max(-900, min(2949, int(kept)))
        except ValueError:
            pass
    return (og_rank(player.rank) + 30) * 100 - 900


@dataclass
class _Scored:
    number: int
    smms: int
    part: list[int]
    games: list[tuple[int, bool, str, int] | None]  # (opponent, is white, code, handicap)
    nbw: list[int] = field(default_factory=list)
    mms: list[int] = field(default_factory=list)
    sts: list[int] = field(default_factory=list)
    nbwv: list[int] = field(default_factory=list)
    mmsv: list[int] = field(default_factory=list)
    crit: dict[str, int] = field(default_factory=dict)


def _wx2(entry: tuple[int, bool, str, int]) -> int:
    black, white, _ = _CODES[entry[2]]
    return white if entry[1] else black


def player_scores(
    event: Event, rules: PlacementRules, upto_round: int
) -> dict[int, dict[str, Fraction]]:
    """Every player's value of every criterion after ``upto_round`` rounds (0: before the
    first), as OpenGotha computes them (see the module text).

    >>> from duiyi.tournament.model import RoundRecord
    >>> e = Event("x", "go", "swiss", 3, players=(Player(1, "A", "1d"), Player(2, "B", "1d"),
    ...           Player(3, "C", "1d", extra=(("participating", "011"),))),
    ...           history=(RoundRecord(1, (Game(1, 1, 2, GameResult.WHITE_WINS),)),))
    >>> s = player_scores(e, PlacementRules(("NBW",), mms_absent_x2=1), 1)
    >>> s[3]["MMS"], s[3]["SOSM"], s[2]["SOSM"]  # absent: ½ rounded down; own smms as opponent
    (Fraction(30, 1), Fraction(30, 1), Fraction(30, 1))
    """
    scored = _ordered(event, rules, upto_round)  # DC and SDC are decided by the order
    out: dict[int, dict[str, Fraction]] = {}
    for sp in scored:
        out[sp.number] = {
            name: Fraction(value, CRITERIA[name][0]) for name, value in sp.crit.items()
        }
    return out


def _compute(event: Event, rules: PlacementRules, upto_round: int) -> dict[int, _Scored]:
    total = max(event.rounds, upto_round, 1)
    rn = upto_round - 1  # OpenGotha's 0-based round index
    scored: dict[int, _Scored] = {}
    left = {w.player: w.after_round for w in event.withdrawals}
    for p in event.players:
        flags = _extra(p, "participating")
        gone = left.get(p.number, total)  # a player who left is absent after (as exported)
        part = [
            _ABSENT if flags[r : r + 1] == "0" or r >= gone else _NOT_ASSIGNED for r in range(total)
        ]
        scored[p.number] = _Scored(p.number, smms(p, rules), part, [None] * total)
    for rnd in event.history:
        r = rnd.number - 1
        if r >= total:
            continue
        for g in rnd.games:
            code = result_code(event, rnd.number, g)
            for me, other, white in ((g.black, g.white, False), (g.white, g.black, True)):
                scored[me].part[r] = _PAIRED
                scored[me].games[r] = (other, white, code, g.handicap)
        if rnd.byes:
            scored[rnd.byes[-1]].part[r] = _BYE  # OpenGotha keeps one bye per round: the last
    if rn < 0:
        for sp in scored.values():
            sp.crit = _initial_values(sp, event.player(sp.number))
        return scored
    rounds = range(rn + 1)
    for sp in scored.values():
        nbw = mms = 0
        nbwv = mmsv = 0
        ab_nbw = ab_mms = 0
        virtual = 0
        for r in rounds:
            entry = sp.games[r]
            if entry is not None:
                w = _wx2(entry)
                nbw += w
                mms += w
                if _CODES[entry[2]][2]:
                    nbwv += w
                    mmsv += w
            if entry is None or not _CODES[entry[2]][2]:
                virtual += 1
            if sp.part[r] == _ABSENT:
                ab_nbw += rules.nbw_absent_x2
                ab_mms += rules.mms_absent_x2
            elif sp.part[r] == _BYE:
                ab_nbw += rules.nbw_bye_x2
                ab_mms += rules.mms_bye_x2
            add_nbw, add_mms = ab_nbw, ab_mms
            if rules.round_down:
                add_nbw, add_mms = add_nbw // 2 * 2, add_mms // 2 * 2
            sp.nbw.append(nbw + add_nbw)
            sp.mms.append(2 * sp.smms + mms + add_mms)
            sp.nbwv.append(nbwv + virtual)
            sp.mmsv.append(2 * sp.smms + mmsv + virtual)
        # Strasbourg score: a bonus for the top group's unbeaten players before the last rounds
        sp.sts = list(sp.mms)
        nb = total

        def mms_at(r: int, sp: _Scored = sp) -> int:
            return sp.mms[r] if 0 <= r < len(sp.mms) else 0

        if mms_at(nb - 3) == 2 * (30 + rules.bar + nb - 2):
            for r in (nb - 3, nb - 2, nb - 1):
                if 0 <= r < len(sp.sts):
                    sp.sts[r] += 4
        if mms_at(nb - 2) == 2 * (30 + rules.bar + nb - 1):
            for r in (nb - 2, nb - 1):
                if 0 <= r < len(sp.sts):
                    sp.sts[r] += 4
    half = rules.not_played_as_half
    for sp in scored.values():
        osw: list[int] = []
        osm: list[int] = []
        sdsw = sdsm = sosts = 0
        for r in rounds:
            entry = sp.games[r]
            if sp.part[r] != _PAIRED or entry is None:
                osw.append(0)
                osm.append(2 * sp.smms)
                sosts += 2 * sp.smms
                continue
            opp = scored[entry[0]]
            w = _wx2(entry)
            sw = opp.nbwv[rn] if half else opp.nbw[rn]
            sm = opp.mmsv[rn] if half else opp.mms[rn]
            st = opp.sts[rn]
            hd = 2 * entry[3] if entry[1] else -2 * entry[3]
            sm += hd
            st += hd
            osw.append(sw)
            osm.append(sm)
            sdsw += sw * w
            sdsm += sm * w
            sosts += st
        c = sp.crit
        c["SOSW"], c["SODOSW"] = sum(osw), sdsw
        c["SOSW-1"], c["SOSW-2"] = _minus(osw, rn, always=True)
        c["SOSM"], c["SODOSM"], c["SOSTS"] = sum(osm), sdsm, sosts
        c["SOSM-1"], c["SOSM-2"] = _minus(osm, rn, always=False)
    for sp in scored.values():
        sososw = sososm = 0
        for r in rounds:
            entry = sp.games[r]
            if sp.part[r] != _PAIRED or entry is None:
                sososm += 2 * sp.smms * (rn + 1)
                continue
            opp = scored[entry[0]]
            sososw += opp.crit["SOSW"]
            sososm += opp.crit["SOSM"]
        p = event.player(sp.number)
        ext = exr = 0
        for r in rounds:
            entry = sp.games[r]
            if sp.part[r] != _PAIRED or entry is None:
                continue
            opp = scored[entry[0]]
            real = entry[3] if entry[1] else -entry[3]
            natural = og_rank(p.rank) - og_rank(event.player(opp.number).rank)
            diff = real - natural
            coef = 0 if diff < 0 else min(diff + 1, 3)
            ext += opp.nbw[rn] * coef
            if _wx2(entry) == 2:
                exr += opp.nbw[rn] * coef
        c = sp.crit
        c["SOSOSW"], c["SOSOSM"] = sososw, sososm
        c["NBW"], c["MMS"], c["STS"] = sp.nbw[rn], sp.mms[rn], sp.sts[rn]
        c["CUSSW"], c["CUSSM"] = sum(sp.nbw), sum(sp.mms)
        c["EXT"], c["EXR"] = ext, exr
        c["Rank"], c["Rating"] = og_rank(p.rank), _rating(p)
        c["CAT"] = -_category(p, rules)
        c["NULL"] = c["DC"] = c["SDC"] = 0
    return scored


def _minus(values: list[int], rn: int, *, always: bool) -> tuple[int, int]:
    """OpenGotha's SOS−1 and SOS−2 (its exact choice of the dropped rounds, round 2 included)."""
    if rn == 0:
        return 0, 0
    if rn == 1:
        return (max(values[0], values[1]), 0) if always else (0, 0)
    low = 0
    for r in range(1, rn + 1):
        if values[r] < values[low]:
            low = r
    low2 = 1 if low == 0 else 0
    for r in range(rn + 1):
        if r != low and values[r] < values[low2]:
            low2 = r
    m1 = sum(values) - values[low]
    return m1, m1 - values[low2]


def _category(p: Player, rules: PlacementRules) -> int:
    rank = og_rank(p.rank)
    for index, limit in enumerate(rules.categories):
        if rank >= limit:
            return index
    return len(rules.categories)


def _initial_values(sp: _Scored, p: Player) -> dict[str, int]:
    values = dict.fromkeys(CRITERIA, 0)
    values["MMS"] = values["STS"] = 2 * sp.smms
    values["Rank"], values["Rating"] = og_rank(p.rank), _rating(p)
    return values


def _names(p: Player) -> tuple[str, str]:
    surname = _extra(p, "surname")
    if surname or _extra(p, "firstName"):
        return surname, _extra(p, "firstName")
    return p.name, ""


def _utf16(text: str) -> bytes:
    """Java compares strings by UTF-16 code units."""
    return text.encode("utf-16-be")


def _direct(group: list[_Scored], rn: int, rules: PlacementRules) -> None:
    """Direct confrontation inside a tie group, as OpenGotha's ``defineDirForExAequoGroup``:
    SDC (each member scores 1 per member it beat, counted only when every two members met
    with a decisive played result) and DC (the members ordered by their games against each
    other, :func:`_confrontation_ranks`; DC = the lowest rank minus the member's rank)."""
    index = {sp.number: i for i, sp in enumerate(group)}
    n = len(group)
    pair = [[0] * n for _ in range(n)]
    for i, sp in enumerate(group):
        for r in range(rn + 1):
            entry = sp.games[r]
            if entry is None or entry[0] not in index:
                continue
            if entry[2] not in ("RESULT_WHITEWINS", "RESULT_BLACKWINS"):
                continue
            pair[i][index[entry[0]]] += 1 if _wx2(entry) == 2 else -1
    clipped = [[0 if i == j else max(-1, min(1, pair[i][j])) for j in range(n)] for i in range(n)]
    relevant = all(clipped[i][j] != 0 for i in range(n) for j in range(n) if i != j)
    for i, sp in enumerate(group):
        sp.crit["SDC"] = sum(1 for j in range(n) if clipped[i][j] == 1) if relevant else 0
    # DC: the members in the order of the criteria after DC (OpenGotha blanks every criterion
    # up to and including DC: with SDC alone, all of them), a stable sort
    crits = list(rules.criteria)
    after = crits[crits.index("DC") + 1 :] if "DC" in crits else []
    after = [c for c in after if c != "NULL"]
    order = sorted(range(n), key=lambda i: tuple(-group[i].crit[c] for c in after))
    place = [0] * n
    for k in range(1, n):
        same = all(group[order[k]].crit[c] == group[order[k - 1]].crit[c] for c in after)
        place[k] = place[k - 1] if same else k
    sc = [n - place[k] for k in range(n)]
    games = [(a, b) for a in range(n) for b in range(n) if pair[order[a]][order[b]] == 1]
    ranks = _confrontation_ranks(sc, games)
    low = max(ranks)
    for k in range(n):
        group[order[k]].crit["DC"] = low - ranks[k]


class _Node:
    def __init__(self, ident: int, sc: float) -> None:
        self.id = ident
        self.sc = sc
        self.coming: dict[int, _Edge] = {}
        self.outgoing: dict[int, _Edge] = {}
        self.loop: _Edge | None = None
        self.cycle_class = ident
        self.rank = 0

    def isolate(self) -> None:
        for e in [*self.coming.values(), *self.outgoing.values()]:
            e.unregister()


class _Edge:
    def __init__(self, frm: _Node, to: _Node, kind: str) -> None:
        self.frm, self.to, self.kind = frm, to, kind
        self.via: set[_Node] = set()
        self.register()

    def register(self) -> None:
        if self.frm is self.to:
            self.to.loop = self
        else:
            self.frm.outgoing[self.to.id] = self
            self.to.coming[self.frm.id] = self

    def unregister(self) -> None:
        if self.frm is self.to:
            self.to.loop = None
        else:
            self.frm.outgoing.pop(self.to.id, None)
            self.to.coming.pop(self.frm.id, None)


def _confrontation_ranks(sc: list[int], wins: list[tuple[int, int]]) -> list[int]:
    """Ranks of players ``0..n-1`` by their games against each other (``wins``: winner,
    loser), players without games between them by ``sc`` (higher first): OpenGotha's
    ``mw.go.confrontation.Confrontation.topologicalSort(upWinners=true,
    preserveTransitivity=true)``. A cycle of wins (A beat B, B beat C, C beat A) is one
    class: its games are set aside and its members inherit each other's games with players
    outside it; then the players are ranked from the bottom, the lowest ``sc`` among those
    who beat nobody left taking the last free ranks.

    >>> _confrontation_ranks([1, 1, 1], [(2, 0), (0, 1)])  # 2 beat 0, 0 beat 1
    [2, 3, 1]
    """
    nodes = [_Node(i, v) for i, v in enumerate(sc)]
    edges: list[_Edge] = []
    for winner, loser in wins:
        if nodes[loser].outgoing.get(winner) is None:  # one edge per pair: loser -> winner
            edges.append(_Edge(nodes[loser], nodes[winner], "game"))

    def find(frm: _Node, to: _Node) -> _Edge | None:
        return frm.loop if frm is to else frm.outgoing.get(to.id)

    with_loop: list[_Node] = []
    for node in nodes:  # cycles: eliminate the nodes one by one, keeping transitive paths
        for ce in list(node.coming.values()):
            for oe in list(node.outgoing.values()):
                te = find(ce.frm, oe.to)
                if te is None:
                    te = _Edge(ce.frm, oe.to, "transitive")
                    edges.append(te)
                te.via.add(node)
                te.via |= ce.via | oe.via
                if node.loop is not None:
                    te.via |= node.loop.via
        node.isolate()
        if node.loop is not None:
            with_loop = [n for n in with_loop if n not in node.loop.via]  # the larger cycle
            with_loop.append(node)
    cycles: list[set[_Node]] = []
    for head in with_loop:
        assert head.loop is not None
        for member in head.loop.via:
            member.cycle_class = head.id
        cycles.append({head, *head.loop.via})
    kept: list[_Edge] = []
    for e in edges:  # back to the games
        if e.kind in ("transitive", "tr"):
            e.unregister()
        else:
            e.register()
            e.via.clear()
            kept.append(e)
    edges = kept
    for e in edges:
        if e.frm.cycle_class == e.to.cycle_class:
            e.kind = "cycling"
            e.unregister()
    for cycle in cycles:
        for origin in cycle:
            for dest in cycle:
                if dest is origin:
                    continue
                for c in list(origin.coming.values()):
                    if c.frm.id not in dest.coming:
                        edges.append(_Edge(c.frm, dest, "tr"))
                for c in list(origin.outgoing.values()):
                    if c.to.id not in dest.outgoing:
                        edges.append(_Edge(dest, c.to, "tr"))
    left = list(nodes)
    while left:
        free = [n for n in left if not n.coming]
        if not free:  # not acyclic after all: OpenGotha would loop for ever; rank the rest equal
            for n in left:
                n.rank = len(left)
            break
        low = min(n.sc for n in free)
        chosen = [n for n in free if n.sc == low]
        rank = 1 + len(left) - len(chosen)
        for n in chosen:
            n.isolate()
            n.rank = rank
        left = [n for n in left if n not in chosen]
    return [n.rank for n in nodes]


def _ordered(event: Event, rules: PlacementRules, upto_round: int) -> list[_Scored]:
    scored = _compute(event, rules, upto_round)
    crits = rules.used
    names = {p.number: tuple(_utf16(n) for n in _names(p)) for p in event.players}

    def key(sp: _Scored, upto: int) -> tuple[Any, ...]:
        return tuple(-sp.crit[c] for c in crits[:upto])

    cut = next((i for i, c in enumerate(crits) if c in ("DC", "SDC")), len(crits))
    order = sorted(scored.values(), key=lambda sp: (key(sp, cut), names[sp.number]))
    if cut < len(crits):
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and key(order[end], cut) == key(order[start], cut):
                end += 1
            if end - start > 1:
                _direct(order[start:end], upto_round - 1, rules)
            start = end
        order.sort(key=lambda sp: (key(sp, len(crits)), names[sp.number]))
    return order


def played_rounds(event: Event) -> int:
    """How many leading rounds have every result in: a result of duiyi's, or a code kept from
    OpenGotha (``RESULT_BOTHWIN`` ...) that duiyi holds as no result.

    >>> from duiyi.tournament.model import RoundRecord
    >>> e = Event("x", "go", "swiss", 2, players=(Player(1, "A"), Player(2, "B")),
    ...           history=(RoundRecord(1, (Game(1, 1, 2),)),),
    ...           options={"opengotha": {"results": {"1/1": ["RESULT_BOTHWIN", None]}}})
    >>> played_rounds(e), e.completed_rounds
    (1, 0)
    """
    count = 0
    for rnd in event.history:
        if any(
            g.result is None and result_code(event, rnd.number, g) == "RESULT_UNKNOWN"
            for g in rnd.games
        ):
            break
        count += 1
    return count


def last_round_with_games(event: Event) -> int:
    """The last round with games (0: none), the round OpenGotha shows its standings at: a
    round partly entered counts, its games without a result yet scoring nothing for either
    player (OpenGotha's ``RESULT_UNKNOWN``).

    >>> from duiyi.tournament.model import RoundRecord
    >>> e = Event("x", "go", "swiss", 3, players=(Player(1, "A"), Player(2, "B")),
    ...           history=(RoundRecord(1, (Game(1, 1, 2),)), RoundRecord(2, ())))
    >>> last_round_with_games(e)
    1
    """
    return max((r.number for r in event.history if r.games), default=0)


def placement_standings(
    event: Event, upto_round: int | None = None, lots: Mapping[int, int] | None = None
) -> list[Standing]:
    """The event's standings by its placement rules after ``upto_round`` rounds (default: as
    OpenGotha shows them, at the last round with games, a round partly entered included).
    Players equal on every criterion share a place; their lines are in name order, as
    OpenGotha prints them (or by ``lots`` when drawn)."""
    rules = rules_of(event)
    if rules is None:
        raise InvalidInput("the event has no placement rules", _ARTICLE)
    upto = last_round_with_games(event) if upto_round is None else upto_round
    order = _ordered(event, rules, upto)
    crits = rules.used
    rows: list[Standing] = []
    groups: list[list[_Scored]] = []
    for sp in order:
        values = [sp.crit[c] for c in crits]
        if groups and [groups[-1][0].crit[c] for c in crits] == values:
            groups[-1].append(sp)
        else:
            groups.append([sp])
    position = 1
    for group in groups:
        if lots and len(group) > 1 and all(sp.number in lots for sp in group):
            group = sorted(group, key=lambda sp: lots[sp.number])
            shared = False
        else:
            shared = True
        for i, sp in enumerate(group):
            shown = tuple(Fraction(sp.crit[c], CRITERIA[c][0]) for c in crits)
            place = position if shared else position + i
            rows.append(Standing(position + i, place, sp.number, shown, not shared))
        position += len(group)
    return rows


def placement_chain(event: Event) -> tuple[Tiebreak, ...]:
    """The event's placement criteria as tiebreaks (names in lower case: ``mms``, ``sosm``,
    ...), for the wall chart's columns; their values are computed by the event's rules after
    the table's rounds."""
    rules = rules_of(event)
    if rules is None:
        return ()
    cache: dict[int, dict[int, _Scored]] = {}

    def make(name: str) -> Tiebreak:
        def values(table: Table, group: Sequence[int]) -> dict[int, Fraction]:
            if table.rounds not in cache:
                cache[table.rounds] = _compute(event, rules, table.rounds)
            scored = cache[table.rounds]
            return {c: Fraction(scored[c].crit[name], CRITERIA[name][0]) for c in group}

        return Tiebreak(name.lower(), f"{name} {CRITERIA[name][1]}", _ARTICLE, values)

    return tuple(make(c) for c in rules.used)
