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
from duiyi.tournament.model import Event, Game, Player, RoundRecord
from duiyi.tournament.results import GameResult

__all__ = ["from_opengotha", "player_key", "to_opengotha"]

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


def _rank_out(rank: str) -> str:
    return rank.strip().upper() or "30K"


def _rank_in(rank: str) -> str:
    return rank.strip().lower()


def to_opengotha(event: Event) -> str:
    """The event as OpenGotha XML text (players, games, byes, name and number of rounds)."""
    root = ET.Element("Tournament", {"dataVersion": "201"})
    players_el = ET.SubElement(root, "Players")
    keys: dict[int, str] = {}
    for p in event.players:
        surname, first = _names(p)
        keys[p.number] = player_key(surname, first)
        extra = {k: v for k, v in p.extra if k not in ("surname", "firstName")}
        attrs = {
            "agaId": extra.get("agaId", ""),
            "club": p.club,
            "country": extra.get("country", ""),
            "egfPin": extra.get("egfPin", ""),
            "ffgLicence": extra.get("ffgLicence", ""),
            "firstName": first,
            "grade": _rank_out(p.rank),
            "name": surname,
            "participating": "1" * max(event.rounds, 20),
            "rank": _rank_out(p.rank),
            "rating": str(p.rating if p.rating is not None else 0),
            "ratingOrigin": "",
            "registeringStatus": "FIN",
            "smmsCorrection": "0",
        }
        ET.SubElement(players_el, "Player", attrs)
    games_el = ET.SubElement(root, "Games")
    byes_el = ET.Element("ByePlayer")
    for rnd in event.history:
        for g in rnd.games:
            ET.SubElement(
                games_el,
                "Game",
                {
                    "blackPlayer": keys[g.black],
                    "handicap": "0",
                    "knownColor": "true",
                    "result": "RESULT_UNKNOWN" if g.result is None else _TO_GOTHA[g.result],
                    "roundNumber": str(rnd.number),
                    "tableNumber": str(g.board),
                    "whitePlayer": keys[g.white],
                },
            )
        for b in rnd.byes:
            ET.SubElement(byes_el, "ByePlayer", {"player": keys[b], "roundNumber": str(rnd.number)})
    if len(byes_el):
        root.append(byes_el)
    params = ET.SubElement(root, "TournamentParameterSet")
    ET.SubElement(
        params,
        "GeneralParameterSet",
        {
            "name": event.name,
            "shortName": event.name,
            "numberOfRounds": str(event.rounds),
            "komi": "7.5",
            "size": "19",
        },
    )
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n"


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
    for el in root.iterfind("./Players/Player"):
        surname = el.get("name", "").strip()
        first = el.get("firstName", "").strip()
        key = player_key(surname, first)
        if not key:
            raise EventFileError("OpenGotha file: a player has no name")
        if key in by_key:
            raise EventFileError(f"OpenGotha file: player {key} is listed twice")
        rating_text = el.get("rating", "").strip()
        try:
            rating = int(float(rating_text)) if rating_text else None
        except ValueError:
            raise EventFileError(
                f"OpenGotha file: player {key} has rating {rating_text!r}"
            ) from None
        extra = [("surname", surname), ("firstName", first)]
        for attr in ("country", "egfPin", "agaId", "ffgLicence"):
            if el.get(attr):
                extra.append((attr, el.get(attr, "")))
        number = len(players) + 1
        by_key[key] = number
        players.append(
            Player(
                number,
                f"{surname} {first}".strip(),
                _rank_in(el.get("rank", "")),
                rating,
                el.get("club", "").strip(),
                tuple(extra),
            )
        )
    general = root.find("./TournamentParameterSet/GeneralParameterSet")
    name = general.get("name", "") if general is not None else ""
    rounds_text = general.get("numberOfRounds", "") if general is not None else ""
    per_round: dict[int, list[tuple[int, int, int, GameResult | None]]] = {}
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
        if el.get("handicap", "0") not in ("0", ""):
            warnings.append(f"round {rnd} table {board}: handicap {el.get('handicap')} ignored")
        per_round.setdefault(rnd, []).append((board, by_key[black_key], by_key[white_key], result))
    byes: dict[int, list[int]] = {}
    for el in root.iter("ByePlayer"):
        if el.get("player") is None:
            continue
        key = el.get("player", "")
        if key not in by_key:
            raise EventFileError(f"OpenGotha file: bye for unknown player {key!r}")
        byes.setdefault(int(el.get("roundNumber", "0")), []).append(by_key[key])
    last = max([*per_round, *byes, 0])
    history: list[RoundRecord] = []
    for number in range(1, last + 1):
        rows = sorted(per_round.get(number, []))
        if rows and rows[0][0] == 0:  # 0-based table numbers
            rows = [(b + 1, bl, wh, r) for b, bl, wh, r in rows]
        seen: set[int] = set()
        for _, black, white, _r in rows:
            for p in (black, white):
                if p in seen:
                    raise EventFileError(
                        f"OpenGotha file: player {p} plays twice in round {number}"
                    )
                seen.add(p)
        games = tuple(Game(b, bl, wh, r) for b, bl, wh, r in rows)
        history.append(RoundRecord(number, games, tuple(byes.get(number, []))))
    try:
        rounds = int(rounds_text) if rounds_text else max(last, 1)
        event = Event(name or "OpenGotha import", game, system, max(rounds, last, 1))
    except (ValueError, TournamentError) as exc:
        raise EventFileError(f"OpenGotha file: {exc}") from None
    return replace(event, players=tuple(players), history=tuple(history)), warnings
