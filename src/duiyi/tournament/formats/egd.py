"""EGD results files (``.h9``): the tournament table European federations send to the European
Go Database for the EGF rating.

What the format is, from the two descriptions this module follows:

- the EGF rating officer's *Comments on submitting tournament results* (Aleš Cieply,
  ``gemma.ujf.cas.cz/~cieply/GO/format.html``): a plain text file, one line per player, empty
  lines and everything after ``;`` ignored; the results are blank-separated entries, the same
  number for every player, each ``<opponent's place><symbol>[/<colour>[<h>]]`` with symbol
  ``+`` (win), ``-`` (loss) or ``=`` (jigo), colour ``b``/``w`` and the handicap stones; a round
  without a game is ``0+`` (a free win), ``0-`` (a free round) or ``0=`` (a free round worth
  half a point);
- OpenGotha's own writer of the file (``ExternalDocument.generateH9File`` in
  lucvannier/opengotha): the header tags in comment lines (``; CL[class]``, ``; EV[name]``,
  ``; PC[country,city]``, ``; DT[first,last day]``, ``; HA[hN]`` handicap reduction, ``; KM[komi]``,
  ``; TM[adjusted time, minutes]``, ``; CM[time system]``) and the columns before the results:
  place, surname and first name (spaces inside each as ``_``), rank, country (``XX`` unknown),
  club (``xxxx`` unknown), the placement criteria.

duiyi writes the place column as the line's position (1, 2, 3, ... also for players tied on
every criterion), so that every opponent reference names exactly one line. Games won or lost
by default are not rated games: they are written as free rounds (``0+`` for the winner, ``0-``
for the loser), a bye by what it scored (``0+`` a win, ``0=`` half, ``0-`` nothing), an absent
round ``0-`` (or what an imported OpenGotha event's rules give it). The file is ASCII: accents
are folded; names that cannot be folded stay in UTF-8 and are reported.

>>> from duiyi.tournament.model import Event, Game, Player, RoundRecord
>>> from duiyi.tournament.results import GameResult
>>> e = Event("Club Cup", "go", "swiss", 1, players=(Player(1, "LI Wei", "3d", club="Beijing",
...           extra=(("country", "CN"),)), Player(2, "Müller Hans", "1k")),
...           history=(RoundRecord(1, (Game(1, 1, 2, GameResult.BLACK_WINS),)),))
>>> text, warnings = to_egd(e)
>>> print(text.splitlines()[-2])
   1 LI Wei                          3D CN Beij    1    0 0 0    2+/b0
>>> from_egd(text)[0].history[0].games
(Game(board=1, black=1, white=2, result=<GameResult.BLACK_WINS: '1-0'>, black_warnings=0, white_warnings=0, handicap=0),)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from duiyi.errors import EventFileError, InvalidInput, TournamentError
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.tournament.event import chain, event_standings, total_rounds
from duiyi.tournament.model import Event, Game, Player, RoundRecord
from duiyi.tournament.options import EventOptions
from duiyi.tournament.placement import (
    CRITERIA,
    kept_parameter_set,
    og_rank,
    og_rank_text,
    placement_standings,
    result_code,
    rules_of,
)
from duiyi.tournament.results import GameResult, Source
from duiyi.tournament.standings import Standing

__all__ = ["ascii_fold", "egd_players", "egf_class_of", "from_egd", "to_egd", "validate_egd"]

_ENTRY = re.compile(r"^(\d+)([+\-=?])(?:([/!])([bwBW?]?)(\d*))?$")
_RANK = re.compile(r"^\d{1,2}[kdpKDP]$")
_CRITERION = re.compile(r"^\d+\?$")
_GLUED_RANK = re.compile(r"^(.*\D)(\d{1,2}[kdpKDP])$")
_TAG = re.compile(r"^;\s*([A-Z]{2})\[(.*)\]\s*$")
_SYSTEMS = {
    "SUDDENDEATH": "Sudden death",
    "STDBYOYOMI": "Standard byo-yomi",
    "CANBYOYOMI": "Canadian byo-yomi",
    "FISCHER": "Fischer",
}


# OpenGotha's Gotha.forceToASCII: its own table of Latin letters, then anything else non-ASCII
# becomes "?"; duiyi folds the letters OpenGotha's table lacks by their Unicode decomposition
# (š -> s, ł stays "?") before that last step.
_OG_FOLD = str.maketrans(
    {
        **dict.fromkeys("ÀÁÂÃÄÅ", "A"), "Ç": "C", **dict.fromkeys("ÈÉÊË", "E"),
        **dict.fromkeys("ÌÍÎÏ", "I"), "Ñ": "N", **dict.fromkeys("ÒÓÔÕÖØ", "O"),
        **dict.fromkeys("ÙÚÛÜ", "U"), "Ý": "Y", **dict.fromkeys("àáâãäå", "a"), "ç": "c",
        **dict.fromkeys("èéêë", "e"), **dict.fromkeys("ìíîï", "i"), "ñ": "n",
        **dict.fromkeys("òóôõöø", "o"), **dict.fromkeys("ùúûü", "u"), "ý": "y", "ı": "i",
        "ğ": "g", "ş": "s", "Ğ": "G", "Ş": "S", "İ": "I",
    }
)  # fmt: skip


def ascii_fold(text: str) -> str:
    """Text as the EGD's ASCII: OpenGotha's fold of Latin letters (``Gotha.forceToASCII``),
    other letters by their Unicode decomposition, anything left ``?`` as OpenGotha writes it.

    >>> ascii_fold("Lefebvre Loïc"), ascii_fold("Dvořák Øyvind"), ascii_fold("李伟 안양")
    ('Lefebvre Loic', 'Dvorak Oyvind', '?? ??')
    """
    out: list[str] = []
    for c in text.translate(_OG_FOLD):
        if ord(c) < 128:
            out.append(c)
            continue
        base = "".join(d for d in unicodedata.normalize("NFKD", c) if not unicodedata.combining(d))
        out.append(base if base.isascii() and base else "?")  # one "?" per letter (안 too)
    return "".join(out)


_SHORT = {
    "CUSSW": "CUSS", "CUSSM": "CUSS", "SOSW": "SOS", "SOSM": "SOS", "SOSW-1": "SOS-1",
    "SOSM-1": "SOS-1", "SOSW-2": "SOS-2", "SOSM-2": "SOS-2", "SODOSW": "SODOS",
    "SODOSM": "SODOS", "SOSOSW": "SOSOS", "SOSOSM": "SOSOS",
}  # fmt: skip
_CODE_VALUE = {  # OpenGotha's Game result constants: by default = the result + 16
    "RESULT_UNKNOWN": 0, "RESULT_WHITEWINS": 17, "RESULT_BLACKWINS": 18, "RESULT_EQUAL": 19,
    "RESULT_BOTHLOSE": 32, "RESULT_BOTHWIN": 35, "RESULT_WHITEWINS_BYDEF": 273,
    "RESULT_BLACKWINS_BYDEF": 274, "RESULT_EQUAL_BYDEF": 275, "RESULT_BOTHLOSE_BYDEF": 288,
    "RESULT_BOTHWIN_BYDEF": 291,
}  # fmt: skip
_FREE = {2: "+", 1: "="}  # a free round worth 2 or 1 half points; anything else "-"


def _symbol(code: str, white: bool) -> tuple[str, bool]:
    """The result symbol of one side (``+ - = ?``) and whether the result is by default, as
    OpenGotha's ``ScoredPlayer.halfGamesStrings`` writes them."""
    by_default = code.endswith("_BYDEF")
    base = code.removesuffix("_BYDEF")
    mine, theirs = ("WHITEWINS", "BLACKWINS") if white else ("BLACKWINS", "WHITEWINS")
    if base in (f"RESULT_{mine}", "RESULT_BOTHWIN"):
        return "+", by_default
    if base in (f"RESULT_{theirs}", "RESULT_BOTHLOSE"):
        return "-", by_default
    if base == "RESULT_EQUAL":
        return "=", by_default
    return "?", False


def _criterion_text(name: str, value: Fraction) -> str:
    """A criterion's value as OpenGotha's ``ScoredPlayer.formatScore`` writes it, with the
    fraction in ASCII (``.5``, ``.25``, ``.75``): OpenGotha writes ``½ ¼ ¾``, which its Latin-9
    file turns into ``?``; the category (CAT) counted from 1; cut to four characters as
    OpenGotha cuts it (a fraction after four digits is dropped).

    >>> _criterion_text("SOSM", Fraction(1699, 2)), _criterion_text("SOSOSM", Fraction(6999, 2))
    ('849.5', '3499')
    """
    if name == "CAT":
        return str(int(-value) + 1)
    coef = CRITERIA[name][0] if name in CRITERIA else 1
    scaled = int(value * coef)
    whole = int(scaled / coef) if coef > 1 else scaled  # Java: towards zero
    rest = scaled - whole * coef
    fraction = {(2, 1): ".5", (4, 1): ".25", (4, 2): ".5", (4, 3): ".75"}.get((coef, rest), "")
    if len(str(whole)) >= 4:  # OpenGotha cuts the value to four characters: 1234½ -> 1234
        return str(whole)[:4]
    return f"{whole}{fraction}"


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


#: OpenGotha's bounds of its time parameters (its setters clamp what a file says)
_BOUNDS = {
    "basicTime": (60, 5, 180), "stdByoYomiTime": (30, 5, 120), "nbMovesCanTime": (15, 5, 25),
    "canByoYomiTime": (300, 300, 900), "fischerTime": (10, 1, 60),
}  # fmt: skip


def _time(general: Mapping[str, str], name: str) -> int:
    default, low, high = _BOUNDS[name]
    return min(max(_int(general.get(name), default), low), high)


def adjusted_seconds(general: Mapping[str, str]) -> int:
    """The EGF's adjusted time in seconds (basic time plus 45 moves of standard byo-yomi, 60
    moves of Canadian byo-yomi, 120 Fischer increments), as OpenGotha's
    ``Tournament.egfAdjustedTime`` computes it from the general parameters.

    >>> adjusted_seconds({"basicTime": "30", "complementaryTimeSystem": "STDBYOYOMI",
    ...                   "stdByoYomiTime": "20"})
    2700
    """
    basic = _time(general, "basicTime") * 60
    system = general.get("complementaryTimeSystem", "STDBYOYOMI")
    if system == "STDBYOYOMI":
        return basic + 45 * _time(general, "stdByoYomiTime")
    if system == "CANBYOYOMI":
        return basic + 60 * _time(general, "canByoYomiTime") // _time(general, "nbMovesCanTime")
    if system == "FISCHER":
        return basic + 120 * _time(general, "fischerTime")
    return basic


def egf_class_of(general: Mapping[str, str]) -> str:
    """The EGF class the time limits allow (A, B, C; D for an internet event; X none), by the
    EGF's thresholds as OpenGotha's ``Tournament.egfClass`` applies them.

    >>> egf_class_of({"basicTime": "60", "complementaryTimeSystem": "STDBYOYOMI",
    ...               "stdByoYomiTime": "30"})
    'A'
    """
    basic = _time(general, "basicTime") * 60
    adjusted = adjusted_seconds(general)
    fischer = general.get("complementaryTimeSystem", "STDBYOYOMI") == "FISCHER"
    if general.get("complementaryTimeSystem", "STDBYOYOMI") not in _SYSTEMS:
        return "X"
    if general.get("bInternet", "false") == "true":
        return "D" if basic >= (1800 if fischer else 2400) and adjusted >= 3000 else "X"
    limits = (
        (("A", 2700, 4500), ("B", 1800, 3000), ("C", 1200, 1800))
        if fischer
        else (("A", 3600, 4500), ("B", 2400, 3000), ("C", 1500, 1800))
    )
    for cls, need_basic, need_adjusted in limits:
        if basic >= need_basic and adjusted >= need_adjusted:
            return cls
    return "X"


def _implied(event: Event) -> set[int]:
    """Players with a game or a bye in some round (OpenGotha's ``isPlayerImplied``)."""
    out: set[int] = set()
    for rnd in event.history:
        for g in rnd.games:
            out.update((g.black, g.white))
        out.update(rnd.byes[-1:] if rules_of(event) is not None else rnd.byes)
    return out


def _ordered(event: Event) -> tuple[list[Standing], list[str], int]:
    """The standings the file lists (OpenGotha: at the last scheduled round), the criteria
    columns and the number of rounds written."""
    rules = rules_of(event)
    if rules is not None:
        rounds = max(event.rounds, event.current_round, 1)
        rows = placement_standings(event, rounds)
        return rows, list(rules.used), rounds
    rows = event_standings(event)
    listed = {s.number for s in rows}
    end = len(rows)
    for p in event.players:  # left out of duiyi's standings (void games): listed last
        if p.number not in listed:
            end += 1
            rows.append(Standing(end, end, p.number, tuple(Fraction(0) for _ in rows[0].values)
                                 if rows else ()))  # fmt: skip
    names = [t.name.upper() for t in chain(event)]
    return rows, names, max(total_rounds(event), event.current_round)


def _listed(event: Event) -> tuple[list[Standing], list[str], int]:
    implied = _implied(event)
    standings, criteria, rounds = _ordered(event)
    return [s for s in standings if s.number in implied], criteria, rounds


def egd_players(event: Event) -> list[int]:
    """The numbers of the players the EGD file lists, in its order: the players with a game
    or a bye, by the event's standings (an imported event's at its last scheduled round).

    >>> from duiyi.tournament.model import Game, RoundRecord
    >>> e = Event("Cup", "go", "swiss", 1, players=(Player(1, "Li Wei"), Player(2, "Ma Lin"),
    ...           Player(3, "Absent")), history=(RoundRecord(1, (Game(1, 1, 2, GameResult.BLACK_WINS),)),))
    >>> egd_players(e)  # player 3 has no game and no bye: not listed
    [1, 2]
    """
    return [s.number for s in _listed(event)[0]]


def to_egd(
    event: Event,
    *,
    egf_class: str = "",
    keep_by_default: bool = True,
    online: Mapping[str, Any] | None = None,
) -> tuple[str, list[str]]:
    """The event's results as an EGD tournament file, as OpenGotha's "Export results list,
    EGF (.h9)" writes it (see the module text), and warnings.

    ``egf_class`` overrides the class computed from the time limits; ``keep_by_default``
    is OpenGotha's question "keep by default results?" (No: each is a free round ``0=``);
    ``online`` the desk's settings of an event made in duiyi (time, komi, handicap), read as
    the OpenGotha export reads them
    (:func:`duiyi.tournament.formats.opengotha.general_parameters`).
    """
    from duiyi.tournament.formats.opengotha import (
        general_parameters,
        handicap_parameters,
        name_parts,
    )

    warnings: list[str] = []
    rules = rules_of(event)
    general = general_parameters(event, online)
    handicap = handicap_parameters(event, online)
    display = kept_parameter_set(event, "DPParameterSet")
    full = display.get("gameFormat", "full") != "short"
    rows, criteria, rounds = _listed(event)
    line_of = {s.number: i for i, s in enumerate(rows, start=1)}
    computed = egf_class_of(general)
    lines = [
        f"; CL[{egf_class or computed}]",
        f"; EV[{ascii_fold(general.get('name', event.name) or event.name)}]",
        f"; PC[{ascii_fold(event.options.country or '')},"
        f"{ascii_fold(general.get('location', ''))}]",
        f"; DT[{general.get('beginDate', '')},{general.get('endDate', '')}]",
    ]
    correction = _int(handicap.get("hdCorrection"), 0)
    if correction > 0:
        lines.append(f"; HA[h{correction}]")
    lines.append(f"; KM[{general.get('komi', '7.5')}]")
    lines.append(f"; TM[{adjusted_seconds(general) // 60}]")
    lines.append(f"; CM[{_SYSTEMS.get(general.get('complementaryTimeSystem', ''), '')}]")
    lines += ["; Generated by duiyi", ";"]
    lines.append(
        "; Pl Name                            Rk Co Club"
        + "".join(f"{_SHORT.get(c, c)[: 5 if rules else 4]:>5}" for c in criteria)
    )
    if rules is not None:
        mcmahon = rules.criteria[:1] == ("MMS",)  # OpenGotha's tournamentType: the first slot
        bye_x2 = rules.mms_bye_x2 if mcmahon else rules.nbw_bye_x2
        absent_x2 = rules.mms_absent_x2 if mcmahon else rules.nbw_absent_x2
    else:
        bye_x2 = int(2 * event.points.bye / event.points.win) if event.points.win else 0
        absent_x2 = 0
    left = {w.player: w.after_round for w in event.withdrawals}
    games_of = [{p: g for g in rnd.games for p in (g.black, g.white)} for rnd in event.history]
    folded: list[str] = []
    unrated = 0
    previous: Standing | None = None
    for index, s in enumerate(rows, start=1):
        p = event.player(s.number)
        surname, first = name_parts(p)
        raw = f"{'_'.join(surname.split(' '))} {'_'.join(first.split(' '))}"
        name = ascii_fold(raw)
        if "?" in name and "?" not in raw:
            folded.append(raw)
        # OpenGotha's positionStrings: the line's position among the listed players, blank
        # when tied with the line above on every criterion
        tied = previous is not None and previous.place == s.place and not s.by_lot
        place = "" if tied else str(index)
        previous = s
        extra = dict(p.extra)
        country = ascii_fold(extra.get("country", "").strip())
        country = country[-2:] if len(country) >= 2 else "XX"
        # OpenGotha: the club's first four characters; a blank inside one is written "_" (the
        # EGF's columns are separated by blanks)
        club = ascii_fold(p.club.strip())[:4].strip().replace(" ", "_") or "xxxx"
        values = [
            _criterion_text(c, v) if rules is not None else _number(v)
            for c, v in zip(criteria, s.values, strict=False)
        ]
        line = (
            f"{place:>4} {name[:30]:<30} {_rank(p):>3} {country:>2} {club:>4}"
            + "".join(f" {v:>4}" for v in values)
            + " 0" * max(0, 4 - len(values))
        )
        flags = extra.get("participating", "")
        for number in range(1, rounds + 1):
            rnd = event.round(number) if number <= event.current_round else None
            game = games_of[number - 1].get(s.number) if rnd is not None else None
            if game is None:
                if rnd is not None and s.number in (rnd.byes[-1:] if rules else rnd.byes):
                    value = bye_x2
                elif flags[number - 1 : number] == "0" or (
                    s.number in left and number > left[s.number]
                ):
                    value = absent_x2
                else:
                    value = 0
                cell = f"   0{_FREE.get(value, '-')}   "
            else:
                code = result_code(event, number, game)
                white = game.white == s.number
                symbol, by_default = _symbol(code, white)
                opponent = game.black if white else game.white
                cell = f"{line_of[opponent]:>4}{symbol}"
                if full:
                    cell += f"{'!' if by_default else '/'}{'w' if white else 'b'}{game.handicap}"
                if by_default and full:  # OpenGotha's short format has no '!' to find
                    unrated += 1
                    if not keep_by_default:
                        cell = "0="
            line += f" {cell:>8}"
        lines.append(line)
    if not rows and event.players:
        warnings.append("no player has a game or a bye: the file lists nobody")
    if len(rows) < len(event.players):
        warnings.append(
            f"{len(event.players) - len(rows)} player(s) without a game or a bye are left out "
            "(as OpenGotha leaves them out)"
        )
    if unrated:
        warnings.append(
            f"{unrated} result(s) by default "
            + ("marked '!' (not rated)" if keep_by_default else "written as free rounds (0=)")
        )
    if folded:
        warnings.append(
            "names with letters ASCII cannot hold written with '?' (give those players a name "
            "in Latin letters in the surname and firstName columns): " + ", ".join(folded[:10])
        )
    if rules is None and not event.options.begin_date:
        warnings.append(
            "no dates set (options begin_date, end_date, location): DT and PC say "
            f"{general.get('beginDate', '')} and nothing; set them before sending the file"
        )
    if not egf_class and computed == "X":
        warnings.append(
            "the time limits make no EGF class (CL[X]): give the class (A, B, C or D) if the "
            "rating officer agreed to one"
        )
    return "\n".join(lines) + "\n", warnings


def _rank(p: Player) -> str:
    return og_rank_text(og_rank(p.rank)) if p.rank else "30K"


def _number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")


def validate_egd(text: str) -> list[str]:
    """Check a file against the format description: every player line ends with the same number
    of result entries, each ``<place><+|-|=|?>[</|!><b|w|?>[<h>]]`` naming a player line (or
    ``0`` for a free round), and two players who met say so the same way: opposite results (or
    both ``+``, both ``-``, both ``?``: OpenGotha's both-win, both-lose and no result yet), the
    same by-default mark (``!``), opposite colours, the same handicap. Returns the problems
    found (empty: the file is well formed).

    >>> validate_egd("1 A B 1d XX xxxx 2+/b0\\n2 C D 1k XX xxxx 1=/w0\\n")
    ['line 1 round 1: 2+/b0 but line 2 has 1=/w0', 'line 2 round 1: 1=/w0 but line 1 has 2+/b0']
    """
    problems: list[str] = []
    players = _player_lines(text)
    counts = {len(p["results"]) for p in players}
    if len(counts) > 1:
        problems.append(f"players have different numbers of results: {sorted(counts)}")
    for index, p in enumerate(players, start=1):
        for rnd, entry in enumerate(p["results"], start=1):
            m = _ENTRY.match(entry)
            assert m is not None
            opp = int(m.group(1))
            if opp == 0:
                continue
            if not 1 <= opp <= len(players):
                problems.append(f"line {index} round {rnd}: opponent {opp} has no line")
                continue
            other = players[opp - 1]["results"]
            if rnd > len(other):
                continue
            back = _ENTRY.match(other[rnd - 1])
            assert back is not None
            pair = (m.group(2), back.group(2))
            marks = (m.group(3) or "/", back.group(3) or "/")
            if int(back.group(1)) != index or pair not in _PAIRS or marks[0] != marks[1]:
                problems.append(
                    f"line {index} round {rnd}: {entry} but line {opp} has {other[rnd - 1]}"
                )
                continue
            colours = {(m.group(4) or "").lower(), (back.group(4) or "").lower()}
            if len(colours) == 1 and colours <= {"b", "w"}:
                problems.append(f"line {index} round {rnd}: both players have one colour")
            if (m.group(5) or "0") != (back.group(5) or "0"):
                problems.append(f"line {index} round {rnd}: handicaps differ")
    return problems


_PAIRS = {("+", "-"), ("-", "+"), ("=", "="), ("?", "?"), ("+", "+"), ("-", "-")}


def _name_and_rank(tokens: list[str]) -> tuple[list[str], str, int] | None:
    """The name tokens, the rank and the index after it; a rank run into a long name
    (``Palacios Itze16K``, as older writers leave it) is split off."""
    for i, t in enumerate(tokens):
        if _RANK.match(t):
            return tokens[:i], t, i + 1
        glued = _GLUED_RANK.match(t)
        if glued and i > 0 and i + 1 < len(tokens) and re.fullmatch(r"[A-Za-z]{2}", tokens[i + 1]):
            return [*tokens[:i], glued.group(1)], glued.group(2), i + 1
    return None


def _player_lines(text: str) -> list[dict[str, Any]]:
    """The player lines in file order: place (None when blank: tied with the line above),
    name tokens, rank, country, club, result entries. The number of results is the same on
    every line (the EGF's rule): the longest run of entries that ends every line, cut to the
    shortest such run, so that a criterion written like an entry (``12?``, OpenGotha's
    ``12½`` in Latin-9) is not taken for one."""
    raw_lines: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(";", 1)[0].strip()
        if line:
            raw_lines.append((number, line.split()))
    runs = []
    for _, tokens in raw_lines:
        run = 0
        while run < len(tokens) and _ENTRY.match(tokens[len(tokens) - 1 - run]):
            run += 1
        runs.append(run)
    count = min(runs, default=0)
    out: list[dict[str, Any]] = []
    for (number, tokens), run in zip(raw_lines, runs, strict=True):
        start = len(tokens) - run
        while run > count and _CRITERION.match(tokens[start]):  # 12? is OpenGotha's 12½
            start += 1
            run -= 1
        results, head = tokens[start:], tokens[:start]
        place: int | None = None
        if head and head[0].isdigit():
            place = int(head[0])
            head = head[1:]
        found = _name_and_rank(head)
        if found is None:
            raise EventFileError(f"EGD file line {number}: no rank (such as 3k, 2d)")
        names, rank, after = found
        rest = head[after:]
        out.append(
            {
                "line": number,
                "place": place,
                "names": [n.replace("_", " ") for n in names],
                "rank": rank,
                "country": rest[0] if rest else "",
                "club": rest[1] if len(rest) > 1 else "",
                "results": results,
            }
        )
    return out


def _game_result(mine: str, theirs: str, by_default: bool, black: bool) -> tuple[Any, str]:
    """duiyi's result of a game read from Black's entry (``mine``) and White's, and the
    OpenGotha code to keep when duiyi has none."""
    if (mine, theirs) == ("?", "?"):
        return None, ""
    if (mine, theirs) == ("+", "+"):
        return None, "RESULT_BOTHWIN_BYDEF" if by_default else "RESULT_BOTHWIN"
    if (mine, theirs) == ("-", "-"):
        return (GameResult.DOUBLE_FORFEIT if by_default else GameResult.BOTH_LOSE), ""
    if mine == "=":
        return GameResult.DRAW, "RESULT_EQUAL_BYDEF" if by_default else ""
    black_won = mine == "+"
    if by_default:
        return (GameResult.FORFEIT_WHITE if black_won else GameResult.FORFEIT_BLACK), ""
    return (GameResult.BLACK_WINS if black_won else GameResult.WHITE_WINS), ""


def from_egd(
    text: str, *, game: GameType | str = "go", system: str = "mcmahon"
) -> tuple[Event, list[str]]:
    """Read an EGD tournament file into an event: players in the file's order (name, rank,
    country, club), every game with its colour, handicap and result, free wins as byes.

    Reads what OpenGotha and duiyi write: blank places of tied players (an entry names the
    opponent's line), ``?`` (no result yet), ``!`` (a result by default: a forfeit), both
    players ``-`` (both lose) or ``+`` (both win: kept as OpenGotha's code, as an OpenGotha
    import keeps it), Latin-9 text (:func:`duiyi.tournament.formats.exports.import_event`
    decodes it), a rank run into a 31-character name. What the format does not hold is
    reported: ratings, the event's rules, the pairing order of tables (boards are numbered by
    the upper line); a ``0=`` free round (half a point) counts as absent; an entry without a
    colour (or ``?``) gives the upper line Black.
    """
    warnings: list[str] = []
    tags: dict[str, str] = {}
    for raw in text.splitlines():
        m = _TAG.match(raw.strip())
        if m:
            tags.setdefault(m.group(1), m.group(2))
    lines = _player_lines(text)
    if not lines:
        warnings.append("the file lists no player (OpenGotha writes none before any game)")
    places = [p["place"] for p in lines]
    listed = [pl for pl in places if pl is not None]
    by_place = len(set(listed)) == len(listed) == len(lines) and any(
        pl != i for i, pl in enumerate(places, start=1)
    )
    if by_place:  # places given, unique, not the line order: entries name places
        order = sorted(range(len(lines)), key=lambda i: places[i])
        lines = [lines[i] for i in order]
        renumber = {places[i]: k for k, i in enumerate(order, start=1)}
        for p in lines:
            p["results"] = [_renumbered(r, renumber) for r in p["results"]]
    problems = validate_egd_lines(lines)
    if problems:
        raise EventFileError("EGD file: " + "; ".join(problems[:3]))
    players: list[Player] = []
    for i, p in enumerate(lines, start=1):
        names = p["names"] or ["?"]
        surname, first = names[0], " ".join(names[1:])
        extra: list[tuple[str, str]] = [("surname", surname), ("firstName", first)]
        if p["country"] and p["country"] != "XX":
            extra.append(("country", p["country"]))
        club = "" if p["club"] == "xxxx" else p["club"]
        players.append(Player(i, f"{surname} {first}".strip(), p["rank"].lower(), None, club,
                              tuple(extra)))  # fmt: skip
    rounds = max((len(p["results"]) for p in lines), default=0)
    history: list[RoundRecord] = []
    kept: dict[str, list[Any]] = {}
    half = guessed = unknown = 0
    for rnd in range(1, rounds + 1):
        games: list[tuple[Game, str]] = []
        byes: list[int] = []
        for me, p in enumerate(lines, start=1):
            m = _ENTRY.match(p["results"][rnd - 1])
            assert m is not None
            other = int(m.group(1))
            if other == 0:
                if m.group(2) == "+":
                    byes.append(me)
                elif m.group(2) == "=":
                    half += 1
                continue
            colour = (m.group(4) or "").lower()
            if colour not in ("b", "w"):
                if me > other:
                    continue
                guessed += 1
                colour = "b"
            if colour != "b":
                continue
            back = _ENTRY.match(lines[other - 1]["results"][rnd - 1])
            assert back is not None
            result, code = _game_result(m.group(2), back.group(2), m.group(3) == "!", True)
            if result is None and not code:
                unknown += 1
            g = Game(0, me, other, result, handicap=int(m.group(5) or 0),
                     source=None if result is None else Source.IMPORT)  # fmt: skip
            games.append((g, code))
        games.sort(key=lambda gc: min(gc[0].black, gc[0].white))
        numbered = []
        for board, (g, code) in enumerate(games, start=1):
            numbered.append(replace(g, board=board))
            if code:
                kept[f"{rnd}/{board}"] = [code, None if g.result is None else g.result.value]
        history.append(RoundRecord(rnd, tuple(numbered), tuple(byes)))
    if half:
        warnings.append(f"{half} free round(s) worth half a point (0=): read as absent")
    if guessed:
        warnings.append(f"{guessed} game(s) without colours: the upper line is given Black")
    if unknown:
        warnings.append(f"{unknown} game(s) without a result yet (?)")
    if kept:
        warnings.append(
            f"{len(kept)} game(s) that both players won (or drew by default): OpenGotha's result "
            "code is kept with the game, as an OpenGotha import keeps it"
        )
    options = EventOptions(egd=tags or None, opengotha={"results": kept} if kept else None)
    try:
        event = Event(tags.get("EV", "EGD import") or "EGD import", get_game(game), system,
                      max(rounds, 1), players=tuple(players), history=tuple(history),
                      options=options)  # fmt: skip
    except (
        TournamentError,
        InvalidInput,
        ValueError,
    ) as exc:  # TournamentError, ValueError from the model
        raise EventFileError(f"EGD file: {exc}") from None
    warnings.append("the EGD file holds no ratings and no rules: the event uses duiyi's")
    return event, warnings


def _renumbered(entry: str, renumber: Mapping[int, int]) -> str:
    m = _ENTRY.match(entry)
    assert m is not None
    opp = int(m.group(1))
    if opp == 0:
        return entry
    if opp not in renumber:
        raise EventFileError(f"EGD file: an entry {entry} names place {opp}, which has no line")
    return f"{renumber[opp]}{entry[len(m.group(1)) :]}"


def validate_egd_lines(lines: list[dict[str, Any]]) -> list[str]:
    """:func:`validate_egd` on parsed lines (entries naming lines)."""
    text = "\n".join(
        " ".join(["1", *(n.replace(" ", "_") for n in (p["names"] or ["?"])), p["rank"],
                  p["country"] or "XX", p["club"] or "xxxx", *p["results"]])
        for p in lines
    )  # fmt: skip
    return validate_egd(text)
