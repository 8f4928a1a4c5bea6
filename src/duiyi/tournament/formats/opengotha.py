"""OpenGotha XML, the tournament file Go organisers exchange.

The parts duiyi reads and writes::

    <Tournament dataVersion="201">
      <Players>
        <Player name="Li" firstName="Wei" rank="3D" rating="2300" club="BJ" .../>
      </Players>
      <Games>
        <Game roundNumber="1" tableNumber="1" blackPlayer="LIWEI" whitePlayer="..."
              result="RESULT_BLACKWINS" handicap="0" knownColor="true"/>
      </Games>
      <ByePlayer><ByePlayer player="..." roundNumber="1"/></ByePlayer>
      <TournamentParameterSet><GeneralParameterSet name="..." numberOfRounds="5"/>
      </TournamentParameterSet>
    </Tournament>

Players are referred to by their key: surname and first name, spaces removed, upper case. Result
codes: ``RESULT_BLACKWINS``, ``RESULT_WHITEWINS``, ``RESULT_EQUAL``, ``RESULT_BOTHLOSE``,
``RESULT_UNKNOWN`` and the ``_BYDEF`` (by default, i.e. forfeit) variants. ``RESULT_BOTHWIN``
has no counterpart in the Chinese rules: it is read as no result entered, with a warning.

Round trip: what OpenGotha can hold comes back unchanged — players (an unknown rank goes out as
``rank="30K"`` with an empty ``grade``, an unknown rating as the rank's EGF rating with
``ratingOrigin="INI"``, and both are read back as unknown), games with their handicap, byes,
withdrawals (``participating`` is 0 after the round a player left), teams with their board
order (``<Teams>``, ``<TeamTournamentParameterSet>``) and McMahon's bar and floor
(``genMMBar``, ``genMMFloor``). :func:`export_opengotha` returns warnings for what it cannot
hold: warnings given in games (Go §24), more than one bye in a round, drawn lots, system
options. The handicap, pairing and placement parameter sets OpenGotha requires are written with
its defaults.

>>> from duiyi.tournament.model import Event, Player
>>> e = Event("Cup", "go", "swiss", 3, players=(Player(1, "Li Wei", "3d", 2300),))
>>> back, warnings = from_opengotha(to_opengotha(e))
>>> back.players[0].name, back.players[0].rank, back.rounds, warnings
('Li Wei', '3d', 3, [])
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from duiyi.errors import EventFileError, TournamentError
from duiyi.tournament.model import (
    Event,
    Game,
    Player,
    RoundRecord,
    Team,
    TeamPairing,
    Withdrawal,
    rank_value,
)
from duiyi.tournament.results import GameResult

__all__ = ["export_opengotha", "from_opengotha", "player_key", "to_opengotha"]

_TO_GOTHA = {
    GameResult.BLACK_WINS: "RESULT_BLACKWINS",
    GameResult.WHITE_WINS: "RESULT_WHITEWINS",
    GameResult.DRAW: "RESULT_EQUAL",
    GameResult.FORFEIT_BLACK: "RESULT_WHITEWINS_BYDEF",
    GameResult.FORFEIT_WHITE: "RESULT_BLACKWINS_BYDEF",
    GameResult.DOUBLE_FORFEIT: "RESULT_BOTHLOSE_BYDEF",
    GameResult.BOTH_LOSE: "RESULT_BOTHLOSE",
    GameResult.NO_RESULT: "RESULT_EQUAL_BYDEF",
}

_FROM_GOTHA = {
    "RESULT_BLACKWINS": GameResult.BLACK_WINS,
    "RESULT_WHITEWINS": GameResult.WHITE_WINS,
    "RESULT_EQUAL": GameResult.DRAW,
    "RESULT_WHITEWINS_BYDEF": GameResult.FORFEIT_BLACK,
    "RESULT_BLACKWINS_BYDEF": GameResult.FORFEIT_WHITE,
    "RESULT_BOTHLOSE_BYDEF": GameResult.DOUBLE_FORFEIT,
    "RESULT_BOTHLOSE": GameResult.BOTH_LOSE,
    "RESULT_EQUAL_BYDEF": GameResult.NO_RESULT,
}


def _names(p: Player) -> tuple[str, str]:
    extra = dict(p.extra)
    if "surname" in extra:
        return extra["surname"], extra.get("firstName", "")
    return p.name, ""


def player_key(surname: str, first_name: str) -> str:
    """OpenGotha's key for a player.

    >>> player_key("Nguyen The", "Minh")
    'NGUYENTHEMINH'
    """
    return (surname + first_name).replace(" ", "").upper()


_UNRATED = "INI"  # ratingOrigin of a rating duiyi derived from the rank (no rating known)


def _rank_out(rank: str) -> str:
    return rank.strip().upper() if rank_value(rank) > -30 else "30K"


def _rank_in(rank: str) -> str:
    return rank.strip().lower()


def _rating_from_rank(rank: str) -> int:
    """The EGF rating of a rank (1d = 2100, 100 a grade; 30k = −900), as OpenGotha keeps one."""
    return 2000 + 100 * max(rank_value(rank), -29)


def to_opengotha(event: Event) -> str:
    """The event as OpenGotha XML text (see :func:`export_opengotha` for the warnings)."""
    return export_opengotha(event)[0]


def export_opengotha(event: Event) -> tuple[str, list[str]]:
    """The event as OpenGotha XML text and warnings about what OpenGotha cannot hold.

    >>> e = Event("Cup", "go", "swiss", 2, players=(Player(1, "Li"), Player(2, "Ma", "2k", 1900)))
    >>> text, warnings = export_opengotha(e)
    >>> 'rank="30K"' in text and 'ratingOrigin="INI"' in text, warnings
    (True, [])
    """
    warnings: list[str] = []
    root = ET.Element("Tournament", {"dataVersion": "201"})
    players_el = ET.SubElement(root, "Players")
    keys: dict[int, str] = {}
    rounds = max(event.rounds, event.current_round)
    left = {w.player: w.after_round for w in event.withdrawals}
    for p in event.players:
        surname, first = _names(p)
        keys[p.number] = player_key(surname, first)
        extra = {k: v for k, v in p.extra if k not in ("surname", "firstName")}
        known_rank = rank_value(p.rank) > -30
        after = left.get(p.number)
        width = max(rounds, 20)
        participating = "1" * width if after is None else "1" * after + "0" * (width - after)
        attrs = {
            "agaId": extra.get("agaId", ""),
            "club": p.club,
            "country": extra.get("country", ""),
            "egfPin": extra.get("egfPin", ""),
            "ffgLicence": extra.get("ffgLicence", ""),
            "firstName": first,
            "grade": _rank_out(p.rank) if known_rank else "",
            "name": surname,
            "participating": participating,
            "rank": _rank_out(p.rank),
            "rating": str(p.rating if p.rating is not None else _rating_from_rank(p.rank)),
            "ratingOrigin": extra.get("ratingOrigin", "") if p.rating is not None else _UNRATED,
            "registeringStatus": "FIN",
            "smmsCorrection": "0",
        }
        ET.SubElement(players_el, "Player", attrs)
    games_el = ET.SubElement(root, "Games")
    byes_el = ET.Element("ByePlayers")
    warned = 0
    for rnd in event.history:
        for g in rnd.games:
            if g.black_warnings or g.white_warnings:
                warned += 1
            ET.SubElement(
                games_el,
                "Game",
                {
                    "blackPlayer": keys[g.black],
                    "handicap": str(g.handicap),
                    "knownColor": "true",
                    "result": "RESULT_UNKNOWN" if g.result is None else _TO_GOTHA[g.result],
                    "roundNumber": str(rnd.number),
                    "tableNumber": str(g.board),
                    "whitePlayer": keys[g.white],
                },
            )
        if len(rnd.byes) > 1:
            warnings.append(
                f"round {rnd.number}: {len(rnd.byes)} byes, OpenGotha keeps one per round "
                "(all are written; OpenGotha reads the last)"
            )
        for b in rnd.byes:
            ET.SubElement(byes_el, "ByePlayer", {"player": keys[b], "roundNumber": str(rnd.number)})
    if warned:
        warnings.append(f"{warned} game(s) with warnings (Go §24): OpenGotha has no place for them")
    if len(byes_el):
        root.append(byes_el)
    if event.teams:
        root.append(_teams_element(event, keys, rounds))
    if event.lots:
        warnings.append(
            "drawn lots (Go §27.1(1)C) are not written: OpenGotha has no place for them"
        )
    kept = {"bar", "floor"} if event.system == "mcmahon" else set()
    other = sorted(k for k in event.options if k not in kept)
    if other:
        warnings.append(f"system options not written: {', '.join(other)}")
    root.append(_parameters(event))
    if event.teams:
        team_params = ET.SubElement(root, "TeamTournamentParameterSet")
        ET.SubElement(team_params, "TeamGeneralParameterSet", {"teamSize": str(event.boards)})
        ET.SubElement(team_params, "TeamPlacementParameterSet")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n", warnings


def _teams_element(event: Event, keys: dict[int, str], rounds: int) -> ET.Element:
    """``<Teams>``: every team's members on their boards (1-based) in every round."""
    teams_el = ET.Element("Teams")
    for team in event.teams:
        team_el = ET.SubElement(
            teams_el, "Team", {"teamNumber": str(team.number), "teamName": team.name}
        )
        for rnd in range(1, rounds + 1):
            for board, member in enumerate(team.members, start=1):
                ET.SubElement(
                    team_el,
                    "Board",
                    {"roundNumber": str(rnd), "boardNumber": str(board), "player": keys[member]},
                )
    return teams_el


def _parameters(event: Event) -> ET.Element:
    """``<TournamentParameterSet>`` with the sets OpenGotha needs (its defaults where duiyi has
    nothing to say)."""
    params = ET.Element("TournamentParameterSet")
    general = {
        "name": event.name,
        "shortName": event.name,
        "numberOfRounds": str(max(event.rounds, event.current_round)),
        "komi": "7.5",
        "size": "19",
    }
    if event.system == "mcmahon":
        general["genMMBar"] = str(event.options.get("bar", "1d")).upper()
        general["genMMFloor"] = str(event.options.get("floor", "20k")).upper()
    ET.SubElement(params, "GeneralParameterSet", general)
    ET.SubElement(params, "HandicapParameterSet")
    ET.SubElement(params, "PlacementParameterSet")
    ET.SubElement(params, "PairingParameterSet")
    return params


def from_opengotha(
    text: str, *, game: str = "go", system: str = "swiss"
) -> tuple[Event, list[str]]:
    """Read OpenGotha XML into an event, numbering players in file order.

    Returns the event and warnings about what could not be carried over exactly.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        raise EventFileError(
            f"OpenGotha file: not XML (line {line}, column {column + 1})"
        ) from None
    if root.tag != "Tournament":
        raise EventFileError(f"OpenGotha file: the root element is <{root.tag}>, not <Tournament>")
    warnings: list[str] = []
    players: list[Player] = []
    by_key: dict[str, int] = {}
    participating: dict[int, str] = {}
    for el in root.iterfind("./Players/Player"):
        surname = el.get("name", "").strip()
        first = el.get("firstName", "").strip()
        key = player_key(surname, first)
        if not key:
            raise EventFileError("OpenGotha file: a player has no name")
        if key in by_key:
            raise EventFileError(f"OpenGotha file: player {key} is listed twice")
        rating_text = el.get("rating", "").strip()
        origin = el.get("ratingOrigin", "").strip()
        try:
            rating = int(float(rating_text)) if rating_text and origin != _UNRATED else None
        except ValueError:
            raise EventFileError(
                f"OpenGotha file: player {key} has rating {rating_text!r}"
            ) from None
        extra = [("surname", surname), ("firstName", first)]
        for attr in ("country", "egfPin", "agaId", "ffgLicence"):
            if el.get(attr):
                extra.append((attr, el.get(attr, "")))
        if origin and origin != _UNRATED:
            extra.append(("ratingOrigin", origin))
        rank = _rank_in(el.get("rank", ""))
        if rank == "30k" and el.get("grade") == "":
            rank = ""  # written by duiyi for an unknown rank (OpenGotha needs one)
        number = len(players) + 1
        by_key[key] = number
        participating[number] = el.get("participating", "")
        players.append(
            Player(number, f"{surname} {first}".strip(), rank, rating, el.get("club", "").strip(),
                   tuple(extra))
        )  # fmt: skip
    general = root.find("./TournamentParameterSet/GeneralParameterSet")
    name = general.get("name", "") if general is not None else ""
    rounds_text = general.get("numberOfRounds", "") if general is not None else ""
    per_round: dict[int, list[tuple[int, int, int, GameResult | None, int]]] = {}
    handicaps = 0
    for el in root.iterfind("./Games/Game"):
        try:
            rnd = int(el.get("roundNumber", ""))
            board = int(el.get("tableNumber", ""))
        except ValueError:
            raise EventFileError("OpenGotha file: a game without round or table number") from None
        black_key, white_key = el.get("blackPlayer", ""), el.get("whitePlayer", "")
        for k in (black_key, white_key):
            if k not in by_key:
                raise EventFileError(f"OpenGotha file: round {rnd} names unknown player {k!r}")
        code = el.get("result", "RESULT_UNKNOWN")
        result: GameResult | None
        if code == "RESULT_UNKNOWN":
            result = None
        elif code in _FROM_GOTHA:
            result = _FROM_GOTHA[code]
            if code == "RESULT_EQUAL_BYDEF":
                warnings.append(f"round {rnd} table {board}: {code} read as no result")
        else:
            result = None
            warnings.append(f"round {rnd} table {board}: {code} has no Chinese-rules meaning")
        try:
            handicap = int(el.get("handicap", "0") or 0)
        except ValueError:
            raise EventFileError(
                f"OpenGotha file: round {rnd} table {board}: handicap {el.get('handicap')!r}"
            ) from None
        if handicap:
            handicaps += 1
        per_round.setdefault(rnd, []).append(
            (board, by_key[black_key], by_key[white_key], result, handicap)
        )
    byes: dict[int, list[int]] = {}
    for el in root.iter("ByePlayer"):
        if el.get("player") is None:
            continue
        key = el.get("player", "")
        if key not in by_key:
            raise EventFileError(f"OpenGotha file: bye for unknown player {key!r}")
        byes.setdefault(int(el.get("roundNumber", "0")), []).append(by_key[key])
    if handicaps:
        warnings.append(
            f"{handicaps} handicap game(s): the handicap is kept with the game, but the Chinese "
            "rules have no handicap games and score them like any other (Go §10, §27)"
        )
    last = max([*per_round, *byes, 0])
    teams = _read_teams(root, by_key, warnings)
    history: list[RoundRecord] = []
    for number in range(1, last + 1):
        rows = sorted(per_round.get(number, []), key=lambda row: row[0])
        if rows and rows[0][0] == 0:  # 0-based table numbers
            rows = [(b + 1, bl, wh, r, h) for b, bl, wh, r, h in rows]
        seen: set[int] = set()
        for _, black, white, _r, _h in rows:
            for p in (black, white):
                if p in seen:
                    raise EventFileError(
                        f"OpenGotha file: player {p} plays twice in round {number}"
                    )
                seen.add(p)
        games = tuple(Game(b, bl, wh, r, handicap=h) for b, bl, wh, r, h in rows)
        record = RoundRecord(number, games, tuple(byes.get(number, [])))
        if teams:
            record = _team_matches(record, teams)
        history.append(record)
    options: dict[str, object] = {}
    if system == "mcmahon" and general is not None:
        for attr, key in (("genMMBar", "bar"), ("genMMFloor", "floor")):
            if general.get(attr):
                options[key] = general.get(attr, "").strip().lower()
    try:
        rounds = int(rounds_text) if rounds_text else max(last, 1)
        event = Event(
            name or "OpenGotha import", game, system, max(rounds, last, 1), options=options
        )
        event = replace(
            event,
            players=tuple(players),
            history=tuple(history),
            teams=teams,
            withdrawals=_withdrawals(participating, max(rounds, last, 1), warnings),
        )
    except (ValueError, TournamentError) as exc:
        raise EventFileError(f"OpenGotha file: {exc}") from None
    return event, warnings


def _withdrawals(
    participating: dict[int, str], rounds: int, warnings: list[str]
) -> tuple[Withdrawal, ...]:
    """A player whose ``participating`` flags are 0 from some round to the end left after the
    round before it (Go §28); a gap in the middle cannot be a withdrawal and is only reported."""
    out: list[Withdrawal] = []
    for number, flags in participating.items():
        flags = flags[:rounds]
        if "0" not in flags:
            continue
        first = flags.index("0")
        if set(flags[first:]) == {"0"} and len(flags) == rounds and first > 0:
            out.append(Withdrawal(number, first))
        else:
            warnings.append(
                f"player {number} does not take part in some rounds ({flags}): "
                "not read as a withdrawal"
            )
    return tuple(out)


def _read_teams(root: ET.Element, by_key: dict[str, int], warnings: list[str]) -> tuple[Team, ...]:
    """``<Teams>``: members in board order of the first round listed (分台定人制, Go §25.2); a
    lineup that changes between rounds is reported, duiyi keeps the first."""
    teams: list[Team] = []
    taken: set[int] = set()
    for index, el in enumerate(root.iterfind("./Teams/Team"), start=1):
        name = el.get("teamName", "").strip() or f"Team {index}"
        lineups: dict[int, dict[int, int]] = {}
        for board in el.iterfind("./Board"):
            key = board.get("player", "")
            if key not in by_key:
                raise EventFileError(f"OpenGotha file: team {name!r} names unknown player {key!r}")
            try:
                rnd = int(board.get("roundNumber", "0") or 0)
                number = int(board.get("boardNumber", "1") or 1)
            except ValueError:
                raise EventFileError(f"OpenGotha file: team {name!r}: bad board entry") from None
            lineups.setdefault(rnd, {})[number] = by_key[key]
        if not lineups:
            continue
        orders = {r: tuple(b[n] for n in sorted(b)) for r, b in lineups.items()}
        first = orders[min(orders)]
        if any(o != first for o in orders.values()):
            warnings.append(
                f"team {name!r} changes its lineup between rounds; duiyi keeps the lineup of "
                f"round {min(orders)} in board order (分台定人制, Go §25.2)"
            )
        members = tuple(m for m in first if m not in taken)
        taken.update(members)
        teams.append(Team(len(teams) + 1, name, members))
    return tuple(teams)


def _team_matches(record: RoundRecord, teams: tuple[Team, ...]) -> RoundRecord:
    """The round's team matches read off its games: the boards where two teams' players meet,
    the team with Black on the first of them listed first (Gomoku §5.1(3))."""
    team_of = {m: t.number for t in teams for m in t.members}
    boards: dict[frozenset[int], list[Game]] = {}
    for g in record.games:
        a, b = team_of.get(g.black), team_of.get(g.white)
        if a is None or b is None or a == b:
            continue
        boards.setdefault(frozenset((a, b)), []).append(g)
    matches: list[TeamPairing] = []
    for games in sorted(boards.values(), key=lambda gs: gs[0].board):
        first = team_of[games[0].black]
        second = team_of[games[0].white]
        used = tuple(g.board for g in games)
        matches.append(TeamPairing(len(matches) + 1, first, second, used))
    if not matches:
        return record
    playing = {t for m in matches for t in (m.first, m.second)}
    team_byes = tuple(t.number for t in teams if t.number not in playing and
                      any(p in record.byes for p in t.members))  # fmt: skip
    return replace(record, matches=tuple(matches), team_byes=team_byes)
