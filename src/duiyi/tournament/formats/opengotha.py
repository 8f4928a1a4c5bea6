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
      <ByePlayers><ByePlayer player="..." roundNumber="1"/></ByePlayers>
      <TournamentParameterSet><GeneralParameterSet name="..." numberOfRounds="5" .../>
        <HandicapParameterSet .../> <PlacementParameterSet>...</PlacementParameterSet>
        <PairingParameterSet .../> ...
      </TournamentParameterSet>
      <TeamTournamentParameterSet>...</TeamTournamentParameterSet>
    </Tournament>

**Import** reads what OpenGotha 3.x reads, the way it reads it: the encoding named by the XML
declaration (pass the file's bytes), player references matched as OpenGotha matches them (spaces
removed, upper-cased, then with accents folded to ASCII), a game or bye naming nobody skipped,
one bye per round (the last listed). Every player attribute is kept (``smmsCorrection``,
``participating``, ``ratingOrigin``, ``grade``, ... in the player's ``extra``; an ``INI`` rating,
which OpenGotha derived from the rank, is kept as ``iniRating`` and the player counts as
unrated), every parameter set is kept verbatim for the way back (``options.opengotha``), and
the scoring parameters become the event's rules (``options.placement``, see
:mod:`duiyi.tournament.placement`): its standings are OpenGotha's. Result codes duiyi has no
value for (``RESULT_BOTHWIN``, ``RESULT_BOTHWIN_BYDEF``, ``RESULT_EQUAL_BYDEF``) are kept with the
game and scored as OpenGotha scores them; each is reported by name. What duiyi cannot use (a
lineup that changes, gaps in participation for its own pairing, ...) is reported, never dropped
without a word.

**Export** writes complete parameter sets (general, handicap, placement, pairing, display,
publish; team sets for team events): an imported event gets its own sets back (with its current
name, rounds, bar and floor), an event made in duiyi gets OpenGotha's defaults with duiyi's
conventions (a bye scores as a win, an absent round nothing, placement criteria following
duiyi's chain where OpenGotha has them; OpenGotha counts McMahon scores from 30k, duiyi from the
floor, so its scores are duiyi's shifted by one number for everyone). A game without a result (无胜负) is written ``RESULT_BOTHLOSE`` (0–0, as duiyi scores it),
never ``RESULT_EQUAL_BYDEF`` (½–½ in OpenGotha). :func:`export_opengotha` returns warnings for
what OpenGotha cannot hold: warnings given in games (Go §24), more than one bye in a round,
drawn lots, duiyi's system options and tiebreaks OpenGotha lacks. duiyi's own game, system and
options ride along in ``duiyi*`` attributes of ``<Tournament>`` (OpenGotha ignores them), so
that a file duiyi wrote comes back as the same event.

>>> from duiyi.tournament.model import Event, Player
>>> e = Event("Cup", "go", "swiss", 3, players=(Player(1, "Li Wei", "3d", 2300),))
>>> back, warnings = from_opengotha(to_opengotha(e))
>>> back.players[0].name, back.players[0].rank, back.rounds, warnings
('Li Wei', '3d', 3, [])
"""

from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from duiyi.errors import EventFileError, InvalidInput, TournamentError
from duiyi.games import GameType
from duiyi.games import get as get_game
from duiyi.tournament.model import (
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
from duiyi.tournament.options import EventOptions
from duiyi.tournament.placement import (
    CRITERIA,
    PlacementRules,
    kept_parameter_set,
    og_rank,
    og_rank_text,
    result_code,
    rules_of,
)
from duiyi.tournament.results import GameResult, Source

__all__ = [
    "export_opengotha",
    "from_opengotha",
    "general_parameters",
    "handicap_parameters",
    "name_parts",
    "player_key",
    "to_opengotha",
]

_FROM_GOTHA: dict[str, GameResult | None] = {
    "RESULT_UNKNOWN": None,
    "RESULT_BLACKWINS": GameResult.BLACK_WINS,
    "RESULT_WHITEWINS": GameResult.WHITE_WINS,
    "RESULT_EQUAL": GameResult.DRAW,
    "RESULT_WHITEWINS_BYDEF": GameResult.FORFEIT_BLACK,
    "RESULT_BLACKWINS_BYDEF": GameResult.FORFEIT_WHITE,
    "RESULT_BOTHLOSE_BYDEF": GameResult.DOUBLE_FORFEIT,
    "RESULT_BOTHLOSE": GameResult.BOTH_LOSE,
}

#: Codes with no duiyi result: what the game holds in duiyi, and why.
_KEPT_CODES: dict[str, tuple[GameResult | None, str]] = {
    "RESULT_EQUAL_BYDEF": (GameResult.DRAW, "a draw by default (not played), held as a draw"),
    "RESULT_BOTHWIN": (None, "both players win, no Chinese-rules meaning"),
    "RESULT_BOTHWIN_BYDEF": (None, "both players win by default, no Chinese-rules meaning"),
}

#: Player attributes OpenGotha writes, in its order.
_PLAYER_ATTRS = (
    "agaExpirationDate", "agaId", "club", "country", "egfPin", "ffgLicence", "ffgLicenceStatus",
    "firstName", "grade", "name", "participating", "rank", "rating", "ratingOrigin",
    "registeringStatus", "smmsCorrection",
)  # fmt: skip

_UNRATED = "INI"  # ratingOrigin of a rating derived from the rank (no rating known)

# OpenGotha's defaults for the sets duiyi has nothing to say about (as OpenGotha 3.5 writes them)
_GENERAL_DEFAULTS = {
    "bInternet": "false", "basicTime": "60", "beginDate": "2000-01-01", "canByoYomiTime": "300",
    "complementaryTimeSystem": "STDBYOYOMI", "director": "", "endDate": "2000-01-01",
    "fischerTime": "10", "genCountNotPlayedGamesAsHalfPoint": "false", "genMMBar": "9D",
    "genMMFloor": "30K", "genMMS2ValueAbsent": "0", "genMMS2ValueBye": "2", "genMMZero": "30K",
    "genNBW2ValueAbsent": "0", "genNBW2ValueBye": "2", "genRoundDownNBWMMS": "true",
    "komi": "7.5", "location": "", "name": "", "nbMovesCanTime": "15",
    "numberOfCategories": "1", "numberOfRounds": "1", "shortName": "", "size": "19",
    "stdByoYomiTime": "30",
}  # fmt: skip
_HANDICAP_DEFAULTS = {
    "hdBasedOnMMS": "true", "hdCeiling": "0", "hdCorrection": "1", "hdNoHdRankThreshold": "30K",
}  # fmt: skip
_PAIRING_DEFAULTS = {
    "paiBaAvoidDuplGame": "500000000000000", "paiBaBalanceWB": "1000000",
    "paiBaDeterministic": "true", "paiBaRandom": "0",
    "paiMaAdditionalPlacementCritSystem1": "Rating",
    "paiMaAdditionalPlacementCritSystem2": "NULL", "paiMaAvoidMixingCategories": "0",
    "paiMaCompensateDUDD": "true", "paiMaDUDDLowerMode": "MID", "paiMaDUDDUpperMode": "MID",
    "paiMaDUDDWeight": "100000000", "paiMaLastRoundForSeedSystem1": "2",
    "paiMaMaximizeSeeding": "5000000", "paiMaMinimizeScoreDifference": "100000000000",
    "paiMaSeedSystem1": "SPLITANDSLIP", "paiMaSeedSystem2": "SPLITANDFOLD",
    "paiSeAvoidSameGeo": "100000000000", "paiSeBarThresholdActive": "true",
    "paiSeDefSecCrit": "100000000000", "paiSeMinimizeHandicap": "0",
    "paiSeNbWinsThresholdActive": "true", "paiSePreferMMSDiffRatherThanSameClub": "3",
    "paiSePreferMMSDiffRatherThanSameClubsGroup": "2",
    "paiSePreferMMSDiffRatherThanSameCountry": "1", "paiSeRankThreshold": "30K",
    "paiStandardNX1Factor": "0.5",
}  # fmt: skip
_DP_DEFAULTS = {
    "displayClCol": "true", "displayCoCol": "true", "displayIndGamesInMatches": "true",
    "displayNPPlayers": "false", "displayNumCol": "true", "displayPlCol": "true",
    "gameFormat": "full", "playerSortType": "name", "showByePlayer": "true",
    "showNotFinallyRegisteredPlayers": "true", "showNotPairedPlayers": "true",
    "showNotParticipatingPlayers": "false", "showPlayerClub": "true",
    "showPlayerCountry": "false", "showPlayerGrade": "true",
}  # fmt: skip
_PUBLISH_DEFAULTS = {"exportToLocalFile": "true", "htmlAutoScroll": "false", "print": "true"}
_TEAM_CRITERIA = ("TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR")

# duiyi's tiebreaks that OpenGotha has, by system family (McMahon / Swiss)
_TO_CRITERION = {
    ("mms", True): "MMS", ("sos", True): "SOSM", ("sosos", True): "SOSOSM",
    ("points", False): "NBW", ("wins", False): "NBW", ("buchholz", False): "SOSW",
    ("sb", False): "SODOSW", ("sos", False): "SOSW", ("sosos", False): "SOSOSW",
    ("points", True): "MMS", ("buchholz", True): "SOSM", ("sb", True): "SODOSM",
}  # fmt: skip


def player_key(surname: str, first_name: str) -> str:
    """OpenGotha's key for a player.

    >>> player_key("Nguyen The", "Minh")
    'NGUYENTHEMINH'
    """
    return (surname + first_name).replace(" ", "").upper()


def _folded(key: str) -> str:
    """A key with accents folded to ASCII (OpenGotha's second try for old files).

    >>> _folded("DRÉAN-GUÉNAIZIA")
    'DREAN-GUENAIZIA'
    """
    decomposed = unicodedata.normalize("NFKD", key)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


def _rank_out(rank: str) -> str:
    return rank.strip().upper() if rank_value(rank) > -30 else "30K"


def _rating_from_rank(rank: str) -> int:
    """The EGF rating of a rank (1d = 2100, 100 a grade; 30k = −900), as OpenGotha keeps one."""
    return 2000 + 100 * max(rank_value(rank), -29)


#: Chinese two-character surnames (复姓): a Han name starting with one keeps both characters.
_COMPOUND_SURNAMES = frozenset(
    [
        "欧阳",
        "歐陽",
        "司马",
        "司馬",
        "上官",
        "诸葛",
        "諸葛",
        "东方",
        "東方",
        "皇甫",
        "尉迟",
        "尉遲",
        "公孙",
        "公孫",
        "慕容",
        "令狐",
        "长孙",
        "長孫",
        "宇文",
        "司徒",
        "夏侯",
        "轩辕",
        "軒轅",
        "端木",
        "独孤",
        "獨孤",
        "南宫",
        "南宮",
        "闻人",
        "聞人",
        "呼延",
        "澹台",
        "公冶",
        "申屠",
        "太史",
        "钟离",
        "鍾離",
        "百里",
        "东郭",
        "東郭",
        "西门",
        "西門",
        "第五",
    ]
)


#: Common Chinese surnames in pinyin (and the compound ones): a name in pinyin starting with
#: one is written surname first, as Chinese names are (Wu Wei, Zhang Xiaoming, Ouyang Xiu).
_PINYIN_SURNAME_TEXT = """wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he gao lin luo zheng
    liang xie song tang han feng deng cao peng zeng xiao tian dong yuan pan cai jiang yu du ye
    cheng su wei lu ding ren shen yao jin fu zhong cui tan lv fan wan shi jia xia fang bai zou
    meng qin qiu hou yin xue yan duan lei long shao qian tao hao kong kang mao gu hong mo xiong
    lai wen chang kuang niu ouyang sima zhuge shangguan situ dongfang"""
_PINYIN_SURNAMES = frozenset(_PINYIN_SURNAME_TEXT.split())
_SYLLABLE = (
    r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?"
    r"(?:iang|iong|uang|ang|eng|ing|ong|ian|iao|uai|uan|van|ai|ei|ao|ou|an|en|in|un|vn|ia|ie|iu"
    r"|ua|uo|ui|ue|ve|er|a|o|e|i|u|v|ü)"
)
_PINYIN_WORD = re.compile(rf"(?:{_SYLLABLE}){{1,3}}", re.IGNORECASE)


def _pinyin_surname_first(words: list[str]) -> bool:
    return (
        2 <= len(words) <= 3
        and words[0].lower() in _PINYIN_SURNAMES
        and all(_PINYIN_WORD.fullmatch(w.replace("-", "")) for w in words)
    )


def _han(text: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in text)


def _capitals(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def name_parts(p: Player) -> tuple[str, str]:
    """A player's surname and first name for OpenGotha and the EGD, by this rule (the same
    for every export; ``docs/decisions.md``):

    1. the player's ``surname`` and ``firstName`` columns when the director set them (an
       imported player has them from the file): the director's override;
    2. ``Surname, First name`` with a comma: the part before the comma is the surname;
    3. a name in Chinese characters: surname first, one character (two for a compound
       surname such as 欧阳 or 诸葛), the rest the first name; a space, if any, splits;
    4. words written in capitals at the start or at the end are the surname
       (``SCHMIDT Anna``, ``Anna SCHMIDT``, ``VAN DER BERG Jan``; not when every word is);
    5. a name in pinyin (two or three words, every one made of pinyin syllables) whose first
       word is a common Chinese surname: surname first (``Wu Wei``, ``Zhang Xiaoming``);
    6. otherwise the name is in given-name order: the last word is the surname, the words
       before it the first name (``Anna Schmidt``, ``Anna Li``);
    7. one word: the surname, with first name ``-`` (OpenGotha refuses an empty first name).

    >>> [name_parts(Player(1, n)) for n in ("Anna Schmidt", "李伟", "欧阳修文", "LI Wei")]
    [('Schmidt', 'Anna'), ('李', '伟'), ('欧阳', '修文'), ('LI', 'Wei')]
    >>> [name_parts(Player(1, n)) for n in ("Wu Wei", "Zhang Xiaoming", "Anna Li", "Lin Smith")]
    [('Wu', 'Wei'), ('Zhang', 'Xiaoming'), ('Li', 'Anna'), ('Smith', 'Lin')]
    >>> name_parts(Player(1, "Li Wei", extra=(("surname", "Li"), ("firstName", "Wei"))))
    ('Li', 'Wei')
    """
    extra = dict(p.extra)
    if extra.get("surname", "").strip() or extra.get("firstName", "").strip():
        return extra.get("surname", "").strip(), extra.get("firstName", "").strip()
    name = " ".join(p.name.split())
    if "," in name:
        surname, _, first = name.partition(",")
        return surname.strip(), first.strip() or "-"
    words = name.split(" ")
    if _han(name) and len(words) == 1:
        cut = 2 if name[:2] in _COMPOUND_SURNAMES and len(name) > 2 else 1
        return name[:cut], name[cut:] or "-"
    if _han(name):
        return words[0], " ".join(words[1:])
    if len(words) == 1:
        return name, "-"
    lead = 0
    if _pinyin_surname_first(words):
        return words[0], " ".join(words[1:])
    if all(_capitals(w) for w in words):  # no case to tell: given-name order (rule 6)
        return words[-1], " ".join(words[:-1])
    while lead < len(words) - 1 and _capitals(words[lead]):
        lead += 1
    if lead:
        return " ".join(words[:lead]), " ".join(words[lead:])
    trail = len(words)
    while trail > 1 and _capitals(words[trail - 1]):
        trail -= 1
    if trail < len(words):
        return " ".join(words[trail:]), " ".join(words[:trail])
    return words[-1], " ".join(words[:-1])


def _minutes(seconds: Any, what: str, warnings: list[str]) -> str:
    value = float(seconds)
    if value % 60:
        warnings.append(f"{what} of {value:g} s written as {int(value // 60)} min: OpenGotha "
                        "counts whole minutes")  # fmt: skip
    return str(int(value // 60))


def _time_attrs(control: Mapping[str, Any], warnings: list[str]) -> dict[str, str]:
    """OpenGotha's time parameters for a duiyi clock (the desk's ``time_control``)."""
    system = control.get("system")
    base = control.get("base", 0)
    if system in ("absolute", "shared"):
        return {"complementaryTimeSystem": "SUDDENDEATH",
                "basicTime": _minutes(base, "main time", warnings)}  # fmt: skip
    if system == "fischer":
        return {
            "complementaryTimeSystem": "FISCHER",
            "basicTime": _minutes(base, "main time", warnings),
            "fischerTime": str(int(control.get("increment", 0))),
        }
    if system in ("chinese-byoyomi", "japanese-byoyomi"):
        period = 60 if system == "chinese-byoyomi" else int(control.get("period", 30))
        count = control.get("reserved_minutes", control.get("periods", 1))
        if int(count) != 1:
            warnings.append(
                f"byo-yomi of {count} periods of {period} s written as OpenGotha's standard "
                f"byo-yomi of {period} s (OpenGotha holds no number of periods)"
            )
        return {
            "complementaryTimeSystem": "STDBYOYOMI",
            "basicTime": _minutes(base, "main time", warnings),
            "stdByoYomiTime": str(period),
        }
    if system == "moves-per-period":
        return {
            "complementaryTimeSystem": "CANBYOYOMI",
            "basicTime": _minutes(base, "main time", warnings),
            "canByoYomiTime": str(int(control.get("period", 300))),
            "nbMovesCanTime": str(int(control.get("moves", 15))),
        }
    if system == "multi-period":
        limits = list(control.get("limits", []))
        warnings.append("a clock of several periods written as its first period, sudden death "
                        "(OpenGotha has no such system)")  # fmt: skip
        first = limits[0].get("seconds", 3600) if limits else 3600
        return {"complementaryTimeSystem": "SUDDENDEATH",
                "basicTime": _minutes(first, "main time", warnings)}  # fmt: skip
    if system == "none":
        warnings.append("no clock: OpenGotha's time parameters keep its defaults (60 min, "
                        "standard byo-yomi of 30 s)")  # fmt: skip
    return {}


def _rounds_of(event: Event) -> int:
    """The rounds OpenGotha holds: the event's planned rounds (for a system whose rounds follow
    from the field, the count that applies), never fewer than are paired."""
    from duiyi.tournament.event import total_rounds

    planned = event.rounds if event.options.placement is not None else total_rounds(event)
    return max(planned, event.current_round, 1)


def handicap_parameters(
    event: Event, online: Mapping[str, Any] | None = None, warnings: list[str] | None = None
) -> dict[str, str]:
    """OpenGotha's ``HandicapParameterSet`` of the event: an imported event's own, else even
    games (a handicap ceiling of 0, no reduction) unless the desk's ``online`` settings give
    the games a handicap: OpenGotha then computes handicaps from the ranks, up to that many
    stones (reported; every game keeps the handicap it was played with).

    >>> handicap_parameters(Event("Cup", "go", "swiss", 3))["hdCeiling"]
    '0'
    """
    notes: list[str] = [] if warnings is None else warnings
    attrs = dict(_HANDICAP_DEFAULTS)
    kept = kept_parameter_set(event, "HandicapParameterSet")
    if kept:
        attrs.update(kept)
        return attrs
    attrs["hdCorrection"] = "0"
    settings = online if online is not None else event.options.online
    stones = 0
    if isinstance(settings, Mapping):
        try:
            stones = int(settings.get("handicap", 0) or 0)
        except (TypeError, ValueError):
            stones = 0
    played = max((g.handicap for _, g in event.games()), default=0)
    ceiling = max(stones, played)
    attrs["hdCeiling"] = str(ceiling)
    if stones:
        notes.append(
            f"games with a handicap of {stones}: OpenGotha holds a ceiling ({stones} stones) and "
            "computes each handicap from the ranks; the games played keep theirs"
        )
    return attrs


def _komi_text(value: Fraction) -> str:
    return f"{float(value):g}" if value.denominator in (1, 2) else f"{float(value)}"


def general_parameters(
    event: Event, online: Mapping[str, Any] | None = None, warnings: list[str] | None = None
) -> dict[str, str]:
    """OpenGotha's ``GeneralParameterSet`` attributes of the event: an imported event's own
    (with its current name), else OpenGotha's defaults with what the director set in duiyi:
    ``online`` (the desk's settings of the event's games: ``time_control``, ``rules`` with
    the komi, ``size``; default ``event.options.online``) and the event's options
    ``location``, ``begin_date``, ``end_date``, ``director``. What OpenGotha cannot hold
    exactly is added to ``warnings``.

    >>> e = Event("Cup", "go", "swiss", 3)
    >>> g = general_parameters(e, {"time_control": {"system": "chinese-byoyomi", "base": 1800,
    ...                                              "reserved_minutes": 1}})
    >>> g["basicTime"], g["complementaryTimeSystem"], g["stdByoYomiTime"], g["komi"]
    ('30', 'STDBYOYOMI', '60', '7.5')
    """
    notes: list[str] = [] if warnings is None else warnings
    attrs = dict(_GENERAL_DEFAULTS)
    kept = kept_parameter_set(event, "GeneralParameterSet")
    attrs.update(kept)
    attrs["name"] = event.name
    if kept:
        return attrs
    if not attrs.get("shortName"):
        attrs["shortName"] = event.name
    given = event.options
    for value, attr in ((given.location, "location"), (given.begin_date, "beginDate"),
                        (given.end_date, "endDate"), (given.director, "director")):  # fmt: skip
        if value:
            attrs[attr] = value
    if given.begin_date and not given.end_date:
        attrs["endDate"] = attrs["beginDate"]
    settings = online if online is not None else given.online
    if not isinstance(settings, Mapping):
        return attrs
    control = settings.get("time_control")
    if isinstance(control, Mapping):
        attrs.update(_time_attrs(control, notes))
    if event.game.has_komi:  # Go: the board and the komi of the online games
        attrs["size"] = str(int(settings.get("size", 19)))
        attrs["komi"] = _komi_text(_komi_points(settings.get("rules")))
    return attrs


def _komi_points(rules: Any) -> Fraction:
    """The komi in points of the desk's rules setting (a preset name or a rules object)."""
    from duiyi.go.rules import Rules

    try:
        if isinstance(rules, str):
            return Rules.preset(rules).komi_points
        if isinstance(rules, Mapping):
            return Rules.from_json(dict(rules)).komi_points
    except (InvalidInput, ValueError, KeyError, TypeError):
        pass
    return Rules.chinese().komi_points


def _element_json(el: ET.Element) -> dict[str, Any]:
    """An element as plain JSON (tag, attributes, children), to keep it verbatim."""
    data: dict[str, Any] = {"tag": el.tag, "attrs": dict(el.attrib)}
    children = [_element_json(c) for c in el]
    if children:
        data["children"] = children
    return data


def _json_element(data: Mapping[str, Any]) -> ET.Element:
    el = ET.Element(str(data["tag"]), {str(k): str(v) for k, v in dict(data["attrs"]).items()})
    for child in data.get("children", ()):
        el.append(_json_element(child))
    return el


def to_opengotha(event: Event, online: Mapping[str, Any] | None = None) -> str:
    """The event as OpenGotha XML text (see :func:`export_opengotha` for the warnings)."""
    return export_opengotha(event, online)[0]


def export_opengotha(
    event: Event, online: Mapping[str, Any] | None = None
) -> tuple[str, list[str]]:
    """The event as OpenGotha XML text and warnings about what OpenGotha cannot hold.

    >>> e = Event("Cup", "go", "swiss", 2, players=(Player(1, "Li"), Player(2, "Ma", "2k", 1900)))
    >>> text, warnings = export_opengotha(e)
    >>> 'rank="30K"' in text and 'ratingOrigin="INI"' in text
    True
    >>> warnings  # the Chinese Swiss ranks by total score
    ['OpenGotha has no criterion for total-score (Go §27.1(2)A): it ranks this event by NBW, SOSW, SOSOSW']
    """
    warnings: list[str] = []
    kept = event.options.opengotha or {}
    rules = rules_of(event)
    rounds = _rounds_of(event)
    if kept.get("tournament"):
        root = ET.Element("Tournament", {str(k): str(v) for k, v in kept["tournament"].items()})
    else:
        root = ET.Element("Tournament")
    root.set("dataVersion", "201")  # players by key, ratings as they are
    if rules is None:
        # duiyi's own event: its game, system and options ride along for the way back
        root.set("duiyiGame", event.game.name)
        root.set("duiyiSystem", event.system)
        root.set("duiyiRounds", str(event.rounds))
        if options := event.options.to_json():
            root.set("duiyiOptions", json.dumps(options, sort_keys=True))
    players_el = ET.SubElement(root, "Players")
    keys: dict[int, str] = {}
    left = {w.player: w.after_round for w in event.withdrawals}
    for p in event.players:
        surname, first = name_parts(p)
        keys[p.number] = player_key(surname, first)
        attrs = _player_attrs(p, surname, first, rounds, left)
        if f"{surname} {first}" != p.name:
            attrs["duiyiName"] = p.name  # OpenGotha ignores it; duiyi reads its own name back
        ET.SubElement(players_el, "Player", attrs)
    games_el = ET.SubElement(root, "Games")
    byes_el = ET.Element("ByePlayers")
    warned = no_result = 0
    for rnd in event.history:
        for g in rnd.games:
            if g.black_warnings or g.white_warnings:
                warned += 1
            if g.result is GameResult.NO_RESULT:
                no_result += 1
            ET.SubElement(
                games_el,
                "Game",
                {
                    "blackPlayer": keys[g.black],
                    "handicap": str(g.handicap),
                    "knownColor": "true",
                    "result": result_code(event, rnd.number, g),
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
    if no_result:
        warnings.append(
            f"{no_result} game(s) without a result (无胜负) written as RESULT_BOTHLOSE: 0–0 as "
            "duiyi scores them (OpenGotha has no code for no result)"
        )
    if len(byes_el):
        root.append(byes_el)
    if event.teams:
        root.append(_teams_element(event, keys, rounds))
    if event.lots:
        warnings.append(
            "drawn lots (Go §27.1(1)C) are not written: OpenGotha has no place for them"
        )
    if rules is None:
        kept_keys = {"location", "begin_date", "end_date", "director", "online"}
        if event.system == "mcmahon":
            kept_keys |= {"bar", "floor"}
        other = sorted(k for k in event.options.to_json() if k not in kept_keys)
        if other:
            warnings.append(
                f"system options OpenGotha cannot use (kept for duiyi only): {', '.join(other)}"
            )
    root.append(_parameters(event, kept, rules, rounds, warnings, online))
    if event.teams or kept.get("team_parameters"):
        root.append(_team_parameters(event, kept))
    if kept.get("clubs_groups"):
        root.append(_json_element(kept["clubs_groups"]))
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n", warnings


def _player_attrs(
    p: Player, surname: str, first: str, rounds: int, left: Mapping[int, int]
) -> dict[str, str]:
    extra = dict(p.extra)
    known_rank = rank_value(p.rank) > -30
    rating = p.rating
    if rating is None:
        kept = extra.get("iniRating", "")
        rating = int(kept) if kept.lstrip("-").isdigit() else _rating_from_rank(p.rank)
    width = max(rounds, 20)
    flags = extra.get("participating", "") or "1" * width
    flags = flags.ljust(width, "1")
    after = left.get(p.number)
    if after is not None:
        came = "participating" in extra  # flags past the event's rounds stay as they came
        end = rounds if came else len(flags)
        flags = flags[:after] + "0" * max(end - after, 0) + flags[max(end, after) :]
    attrs = {a: extra.get(a, "") for a in _PLAYER_ATTRS}
    attrs.update(
        club=p.club,
        firstName=first,
        grade=extra.get("grade", _rank_out(p.rank) if known_rank else ""),
        name=surname,
        participating=flags,
        rank=_rank_out(p.rank),
        rating=str(rating),
        ratingOrigin=extra.get("ratingOrigin", "") if p.rating is not None else _UNRATED,
        registeringStatus=extra.get("registeringStatus", "FIN"),
        smmsCorrection=extra.get("smmsCorrection", "0"),
    )
    for k, v in extra.items():  # attributes of later OpenGotha versions, kept as they came
        if k.startswith("og:"):
            attrs[k[3:]] = v
    return attrs


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


def _criteria_element(parent: ET.Element, names: list[str]) -> None:
    crit_el = ET.SubElement(parent, "PlacementCriteria")
    names = (names + ["NULL"] * 6)[: max(6, len(names))]
    for number, name in enumerate(names, start=1):
        ET.SubElement(crit_el, "PlacementCriterion", {"name": name, "number": str(number)})


def _native_rules(event: Event, warnings: list[str]) -> PlacementRules:
    """duiyi's conventions in OpenGotha's terms: a bye scores as a win, an absent round
    nothing. OpenGotha counts McMahon scores from 30k (duiyi from the floor): its scores are
    duiyi's plus the same number for everyone, so the order is the same."""
    from duiyi.tournament.event import chain

    mcmahon = event.system == "mcmahon"
    names: list[str] = []
    missing: list[str] = []
    warned = any(g.black_warnings or g.white_warnings for _, g in event.games())
    for tb in chain(event):
        crit = _TO_CRITERION.get((tb.name, mcmahon))
        if crit is None:
            if tb.name != "warnings" or warned:  # no warnings given: the tiebreak is moot
                missing.append(f"{tb.name} ({tb.article})")
        elif crit not in names:
            names.append(crit)
    if not names:
        names = ["MMS", "SOSM", "SOSOSM"] if mcmahon else ["NBW", "SOSW", "SOSOSW"]
    if missing:
        warnings.append(
            f"OpenGotha has no criterion for {', '.join(missing)}: it ranks this event by "
            f"{', '.join(names)}"
        )
    if mcmahon:
        bar = og_rank(event.options.bar or "1d")
        floor = og_rank(event.options.floor or "20k")
        zero = -30  # OpenGotha 3.x counts from 30k whatever the file says
    else:
        bar, floor, zero = 8, -30, -30
    return PlacementRules(tuple(names), bar, floor, zero, 2, 0, 2, 0, True, False)


def _parameters(
    event: Event,
    kept: Mapping[str, Any],
    rules: PlacementRules | None,
    rounds: int,
    warnings: list[str],
    online: Mapping[str, Any] | None = None,
) -> ET.Element:
    """``<TournamentParameterSet>``, every set complete: the file's own sets for an imported
    event, OpenGotha's defaults with what the director set in duiyi (time, komi, handicap,
    place and dates: :func:`general_parameters`, :func:`handicap_parameters`) and duiyi's
    conventions for an event made in duiyi; the event's name, rounds and placement rules
    always as they are now."""
    if kept.get("parameters"):
        params = _json_element(kept["parameters"])
        general_set: Mapping[str, str] = _GENERAL_DEFAULTS
        handicap_set: Mapping[str, str] = _HANDICAP_DEFAULTS
    else:
        params = ET.Element("TournamentParameterSet")
        general_set = general_parameters(event, online, warnings)
        handicap_set = handicap_parameters(event, online, warnings)
    if rules is None:
        rules = _native_rules(event, warnings)
    sets = {
        "GeneralParameterSet": general_set,
        "HandicapParameterSet": handicap_set,
        "PlacementParameterSet": {},
        "PairingParameterSet": _PAIRING_DEFAULTS,
        "DPParameterSet": _DP_DEFAULTS,
        "PublishParameterSet": _PUBLISH_DEFAULTS,
    }
    for tag, defaults in sets.items():
        el = params.find(tag)
        if el is None:
            el = ET.SubElement(params, tag)
        for k, v in defaults.items():
            el.attrib.setdefault(k, v)
    general = params.find("GeneralParameterSet")
    assert general is not None
    general.set("name", event.name)
    if not general.get("shortName"):
        general.set("shortName", event.name)
    general.set("numberOfRounds", str(rounds))
    general.set("genMMBar", og_rank_text(rules.bar))
    general.set("genMMFloor", og_rank_text(rules.floor))
    general.set("genMMZero", og_rank_text(rules.zero))
    general.set("genMMS2ValueBye", str(rules.mms_bye_x2))
    general.set("genMMS2ValueAbsent", str(rules.mms_absent_x2))
    general.set("genNBW2ValueBye", str(rules.nbw_bye_x2))
    general.set("genNBW2ValueAbsent", str(rules.nbw_absent_x2))
    general.set("genRoundDownNBWMMS", "true" if rules.round_down else "false")
    general.set(
        "genCountNotPlayedGamesAsHalfPoint", "true" if rules.not_played_as_half else "false"
    )
    placement = params.find("PlacementParameterSet")
    assert placement is not None
    for child in list(placement):
        placement.remove(child)
    _criteria_element(placement, list(rules.criteria))
    return params


def _team_parameters(event: Event, kept: Mapping[str, Any]) -> ET.Element:
    if kept.get("team_parameters"):
        return _json_element(kept["team_parameters"])
    team_params = ET.Element("TeamTournamentParameterSet")
    ET.SubElement(team_params, "TeamGeneralParameterSet", {"teamSize": str(event.boards)})
    _criteria_element(ET.SubElement(team_params, "TeamPlacementParameterSet"), list(_TEAM_CRITERIA))
    return team_params


def _parse(text: str | bytes) -> ET.Element:
    if isinstance(text, str):
        text = text.lstrip("\ufeff")
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        raise EventFileError(
            f"OpenGotha file: not XML (line {line}, column {column + 1})"
        ) from None
    except (LookupError, ValueError) as exc:
        raise EventFileError(f"OpenGotha file: cannot be decoded ({exc})") from None


def from_opengotha(
    text: str | bytes, *, game: GameType | str = "go", system: str | None = None
) -> tuple[Event, list[str]]:
    """Read OpenGotha XML into an event, numbering players in file order.

    ``text`` is best the file's bytes: the XML declaration names their encoding. ``system``
    defaults to the file's: McMahon when its main placement criterion is MMS, else Swiss (a file
    duiyi wrote names its own). Returns the event and warnings about what duiyi holds
    differently or cannot use.
    """
    root = _parse(text)
    if root.tag != "Tournament":
        raise EventFileError(f"OpenGotha file: the root element is <{root.tag}>, not <Tournament>")
    warnings: list[str] = []
    native = root.get("duiyiSystem") is not None
    players: list[Player] = []
    by_key: dict[str, int] = {}
    participating: dict[int, str] = {}
    for el in root.iterfind("./Players/Player"):
        player = _read_player(el, len(players) + 1, by_key, warnings, native)
        if player is None:
            continue
        participating[player.number] = el.get("participating", "")
        players.append(player)
    try:
        version = int(root.get("dataVersion", "200"))
    except ValueError:
        version = 200
    resolve = _resolver(players, by_key, version)
    if version < 201:
        warnings.append(
            f"an OpenGotha file of data version {version}: players are found by their old "
            "canonical names (letters A–Z only) and ratings read 2050 higher, as OpenGotha "
            "reads such files; duiyi writes version 201"
        )
        players = [
            replace(p, rating=None if p.rating is None else min(2949, max(-900, p.rating + 2050)))
            for p in players
        ]

    general = root.find(".//GeneralParameterSet")
    name = general.get("name", "") if general is not None else ""
    rounds_text = general.get("numberOfRounds", "") if general is not None else ""
    per_round, kept_results = _read_games(root, resolve, warnings)
    byes = _read_byes(root, resolve, per_round, warnings)
    handicaps = sum(1 for rows in per_round.values() for row in rows if row[4])
    if handicaps:
        warnings.append(
            f"{handicaps} handicap game(s): the handicap is kept with the game, but the Chinese "
            "rules have no handicap games and score them like any other (Go §10, §27)"
        )
    last = max([*per_round, *byes, 0])
    teams = _read_teams(root, resolve, warnings)
    history: list[RoundRecord] = []
    for number in range(1, last + 1):
        rows = sorted(per_round.get(number, []), key=lambda row: row[0])
        if rows and rows[0][0] == 0:  # 0-based table numbers
            rows = [(b + 1, bl, wh, r, h) for b, bl, wh, r, h in rows]
        games = tuple(
            Game(b, bl, wh, r, handicap=h, source=None if r is None else Source.IMPORT)
            for b, bl, wh, r, h in rows
        )
        bye = (byes[number],) if number in byes else ()
        record = RoundRecord(number, games, bye)
        if teams:
            record = _team_matches(record, teams)
        history.append(record)
    try:
        rounds = int(rounds_text) if rounds_text else max(last, 1)
    except ValueError:
        raise EventFileError(f"OpenGotha file: numberOfRounds {rounds_text!r}") from None
    written: dict[str, Any] = {}  # duiyi's own file: the options' JSON form, read below
    options: EventOptions | None = None
    if native:
        written, game, system, rounds = _native(root, game, rounds, warnings)
    else:
        rules = _read_rules(root, warnings)
        if system is None:
            system = "mcmahon" if _main(rules) == "MMS" else "swiss"
        mcmahon = system == "mcmahon"
        options = EventOptions(
            placement=rules,
            opengotha=_kept(root, kept_results),
            bar=og_rank_text(rules.bar).lower() if mcmahon else None,
            floor=og_rank_text(rules.floor).lower() if mcmahon else None,
        )
        gaps = [
            player_key(*name_parts(players[n - 1]))
            for n, flags in participating.items()
            if "0" in flags[: max(rounds, last)].rstrip("0")
        ]
        if gaps:
            warnings.append(
                f"{len(gaps)} player(s) absent from some rounds but not from the end: kept and "
                "scored as OpenGotha scores absences; duiyi's pairing does not read them ("
                + ", ".join(gaps[:10])
                + (", ..." if len(gaps) > 10 else "")
                + ")"
            )
    try:
        event = Event(
            name or "OpenGotha import",
            get_game(game),
            system or "swiss",
            max(rounds, last, 1),
            options=EventOptions.from_json(written) if options is None else options,
        )
        withdrawals = _withdrawals(participating, max(rounds, last, 1), warnings, native)
        if native:  # flags duiyi wrote for a withdrawal say nothing more than the withdrawal
            left = {w.player for w in withdrawals}
            players = [
                replace(p, extra=tuple(kv for kv in p.extra if kv[0] != "participating"))
                if p.number in left
                else p
                for p in players
            ]
        event = replace(
            event,
            players=tuple(players),
            history=tuple(history),
            teams=teams,
            withdrawals=withdrawals,
        )
    except (ValueError, TournamentError) as exc:
        raise EventFileError(f"OpenGotha file: {exc}") from None
    return event, warnings


def _canonical(p: Player) -> str:
    """OpenGotha's old canonical name: upper case, Latin accents dropped, letters A–Z only."""
    surname, first = name_parts(p)
    return "".join(c for c in _folded(surname + first) if "A" <= c <= "Z")


def _resolver(
    players: list[Player], by_key: dict[str, int], version: int
) -> Callable[[str], int | None]:
    """How OpenGotha finds the player a game, a bye or a team names: by key (spaces removed,
    upper-cased); in files of data version 200 and before by the old canonical name, tried as
    written and then with accents folded (anything else non-ASCII becomes ``?``)."""
    if version >= 201:
        return lambda ref: by_key.get(ref.replace(" ", "").upper())
    canonical: dict[str, int] = {}
    for p in players:
        canonical.setdefault(_canonical(p), p.number)

    def old(ref: str) -> int | None:
        if ref in canonical:
            return canonical[ref]
        ascii_ref = "".join(c if ord(c) < 128 else "?" for c in _folded(ref))
        return canonical.get(ascii_ref.upper())

    return old


def _read_player(
    el: ET.Element, number: int, by_key: dict[str, int], warnings: list[str], native: bool
) -> Player | None:
    attrs = {k: v for k, v in el.attrib.items()}
    surname = attrs.get("name", "").strip()
    first = attrs.get("firstName", "").strip()
    key = player_key(surname, first)
    if not key:
        raise EventFileError("OpenGotha file: a player has no name")
    if key in by_key:
        warnings.append(f"player {key} is listed twice: OpenGotha keeps the first, so does duiyi")
        return None
    rating_text = attrs.get("rating", "").strip()
    origin = attrs.get("ratingOrigin", "").strip()
    try:
        value = int(float(rating_text)) if rating_text else None
    except ValueError:
        raise EventFileError(f"OpenGotha file: player {key} has rating {rating_text!r}") from None
    rank_attr = attrs.get("rank", "").strip()
    grade = attrs.get("grade", "").strip()
    rank = rank_attr.lower()
    if rank == "30k" and grade == "" and "grade" in attrs:
        rank = ""  # written by duiyi for an unknown rank (OpenGotha needs one)
    rating = value if origin != _UNRATED else None
    extra: list[tuple[str, str]] = [("surname", surname), ("firstName", first)]
    skip = {"name", "firstName", "rank", "rating", "club"}
    for attr in (*_PLAYER_ATTRS, *sorted(set(attrs) - set(_PLAYER_ATTRS))):
        v = attrs.get(attr)
        if attr in skip or v is None or v == "":
            continue
        if (
            (attr == "registeringStatus" and v == "FIN")
            or (attr == "smmsCorrection" and v.strip() == "0")
            or (attr == "participating" and "0" not in v)
            or (attr == "grade" and v.upper() == rank_attr.upper())
        ):
            continue
        if attr == "ratingOrigin" and v == _UNRATED:
            if value is not None and value != _rating_from_rank(rank):
                extra.append(("iniRating", str(value)))
            continue
        extra.append((attr if attr in _PLAYER_ATTRS else f"og:{attr}", v))
    by_key[key] = number
    name = attrs.get("duiyiName") or f"{surname} {first}".strip()
    if native:  # a player duiyi wrote: name parts kept only where the director set them
        default = name_parts(Player(number, name))
        drop = {"og:duiyiName"} | (
            {"surname", "firstName"} if default == (surname, first) else set()
        )
        extra = [kv for kv in extra if kv[0] not in drop]
    return Player(number, name, rank, rating, attrs.get("club", "").strip(), tuple(extra))


GameRow = tuple[int, int, int, GameResult | None, int]


def _read_games(
    root: ET.Element, resolve: Callable[[str], int | None], warnings: list[str]
) -> tuple[dict[int, list[GameRow]], dict[str, list[Any]]]:
    per_round: dict[int, dict[int, GameRow]] = {}
    kept: dict[str, list[Any]] = {}
    for el in root.iter("Game"):
        try:
            rnd = int(el.get("roundNumber", "1"))
            board = int(el.get("tableNumber", "1"))
            handicap = int(el.get("handicap", "0") or 0)
        except ValueError:
            raise EventFileError(
                "OpenGotha file: a game with a round, table or handicap that is not a number"
            ) from None
        black_ref, white_ref = el.get("blackPlayer", ""), el.get("whitePlayer", "")
        black, white = resolve(black_ref), resolve(white_ref)
        if black is None or white is None:
            missing = black_ref if black is None else white_ref
            warnings.append(
                f"round {rnd} table {board}: unknown player {missing!r}; the game is skipped, "
                "as OpenGotha skips it"
            )
            continue
        code = el.get("result", "RESULT_UNKNOWN")
        result: GameResult | None
        if code in _FROM_GOTHA:
            result = _FROM_GOTHA[code]
        elif code in _KEPT_CODES:
            result, why = _KEPT_CODES[code]
            warnings.append(
                f"round {rnd} table {board}: {code} ({why}); the code is kept and scored as "
                "OpenGotha scores it"
            )
        else:
            result = None
            warnings.append(
                f"round {rnd} table {board}: unknown result {code!r}, read as no result yet "
                "(as OpenGotha reads it)"
            )
        if el.get("knownColor", "true") == "false":
            warnings.append(
                f"round {rnd} table {board}: colours not known (knownColor=false); duiyi holds "
                "them as listed, as OpenGotha 3.x reads them"
            )
        games = per_round.setdefault(rnd, {})
        if board in games:
            warnings.append(f"round {rnd} table {board} is listed twice: the last one is kept")
        games[board] = (board, black, white, result, handicap)
        if code in _KEPT_CODES:
            kept[f"{rnd}/{board}"] = [code, None if result is None else result.value]
    out: dict[int, list[GameRow]] = {}
    for rnd, games in per_round.items():
        seen: dict[int, int] = {}
        rows: list[GameRow] = []
        for row in sorted(games.values()):
            clash = [p for p in (row[1], row[2]) if p in seen]
            if clash or row[1] == row[2]:
                raise EventFileError(
                    f"OpenGotha file: player {clash[0] if clash else row[1]} plays twice in "
                    f"round {rnd}"
                )
            seen[row[1]] = seen[row[2]] = row[0]
            rows.append(row)
        out[rnd] = rows
    return out, kept


def _read_byes(
    root: ET.Element,
    resolve: Callable[[str], int | None],
    per_round: Mapping[int, list[GameRow]],
    warnings: list[str],
) -> dict[int, int]:
    """One bye per round, the last one listed (as OpenGotha reads them)."""
    byes: dict[int, int] = {}
    for el in root.iter("ByePlayer"):
        ref = el.get("player")
        if ref is None:
            continue
        number = resolve(ref)
        try:
            rnd = int(el.get("roundNumber", "1"))
        except ValueError:
            raise EventFileError(
                f"OpenGotha file: bye of {ref!r} in a round that is not a number"
            ) from None
        if number is None:
            warnings.append(f"round {rnd}: bye for unknown player {ref!r} skipped (as OpenGotha)")
            continue
        if any(number in (r[1], r[2]) for r in per_round.get(rnd, [])):
            warnings.append(f"round {rnd}: player {ref} has a game and a bye; the bye is left out")
            continue
        if rnd in byes:
            warnings.append(
                f"round {rnd}: more than one bye; OpenGotha keeps the last, so does duiyi"
            )
        byes[rnd] = number
    return byes


def _read_rules(root: ET.Element, warnings: list[str]) -> PlacementRules:
    """The event's placement rules from the file, with OpenGotha's defaults for what is
    missing (as OpenGotha reads them: a missing bye value is 0)."""
    g = root.find(".//GeneralParameterSet")
    attrs = dict(g.attrib) if g is not None else {}

    def number(name: str, default: str) -> int:
        try:
            return int(attrs.get(name, default))
        except ValueError:
            raise EventFileError(f"OpenGotha file: {name}={attrs.get(name)!r}") from None

    criteria = ["NULL"] * 6
    placement = root.find(".//PlacementParameterSet")
    if placement is None:
        criteria[:3] = ["MMS", "SOSM", "SOSOSM"]
    else:
        for el in placement.iter("PlacementCriterion"):
            crit = el.get("name", "NULL")
            try:
                at = int(el.get("number", "1")) - 1
            except ValueError:
                at = -1
            if crit not in CRITERIA or not 0 <= at < 6:
                warnings.append(f"placement criterion {crit!r} unknown to OpenGotha: ignored")
                continue
            criteria[at] = crit
    if "DC" in criteria:
        warnings.append(
            "placement criterion DC (direct confrontation by topological sort) is computed as "
            "SDC (simplified direct confrontation)"
        )
    categories: tuple[int, ...] = ()
    if number("numberOfCategories", "1") > 1:
        limits = sorted(
            (int(c.get("number", "1")), og_rank(c.get("lowerLimit", "30K")))
            for c in root.iter("Category")
        )
        categories = tuple(limit for _, limit in limits)
        warnings.append("categories are kept for the placement (CAT); duiyi's pairing ignores them")
    if og_rank(attrs.get("genMMZero", "30K")) != -30:
        warnings.append(
            f"genMMZero={attrs['genMMZero']} is not used: OpenGotha 3.x counts McMahon scores "
            "from 30K whatever the file says, so does duiyi"
        )
    return PlacementRules(
        tuple(criteria),
        bar=og_rank(attrs.get("genMMBar", "4D")),
        floor=og_rank(attrs.get("genMMFloor", "20K")),
        zero=-30,
        mms_bye_x2=number("genMMS2ValueBye", "0"),
        mms_absent_x2=number("genMMS2ValueAbsent", "0"),
        nbw_bye_x2=number("genNBW2ValueBye", "0"),
        nbw_absent_x2=number("genNBW2ValueAbsent", "0"),
        round_down=attrs.get("genRoundDownNBWMMS", "true") == "true",
        not_played_as_half=attrs.get("genCountNotPlayedGamesAsHalfPoint", "false") == "true",
        categories=categories,
    )


def _main(rules: PlacementRules) -> str:
    for c in rules.criteria:
        if c in ("NBW", "MMS"):
            return c
    return "NBW"


def _kept(root: ET.Element, results: dict[str, list[Any]]) -> dict[str, Any]:
    kept: dict[str, Any] = {"tournament": dict(root.attrib), "results": results}
    for key, tag in (
        ("parameters", "TournamentParameterSet"),
        ("team_parameters", "TeamTournamentParameterSet"),
        ("clubs_groups", "ClubsGroups"),
    ):
        el = root.find(tag)
        if el is not None:
            kept[key] = _element_json(el)
    return kept


def _native(
    root: ET.Element, game: GameType | str, rounds: int, warnings: list[str]
) -> tuple[dict[str, Any], str, str, int]:
    """A file duiyi wrote: the event's own game, system, rounds and options."""
    system = root.get("duiyiSystem", "swiss")
    if system not in SYSTEMS:
        raise EventFileError(f"OpenGotha file: duiyiSystem {system!r} is not a duiyi system")
    try:
        options = json.loads(root.get("duiyiOptions", "{}"))
        rounds = int(root.get("duiyiRounds", str(rounds)))
    except (ValueError, InvalidInput):
        raise EventFileError("OpenGotha file: duiyi's attributes cannot be read") from None
    if not isinstance(options, dict):
        raise EventFileError("OpenGotha file: duiyiOptions is not a JSON object")
    return options, root.get("duiyiGame", get_game(game).name), system, rounds


def _withdrawals(
    participating: dict[int, str], rounds: int, warnings: list[str], native: bool
) -> tuple[Withdrawal, ...]:
    """A player whose ``participating`` flags are 0 from some round to the end left after the
    round before it (Go §28); other gaps stay flags of the player (see :func:`from_opengotha`)."""
    out: list[Withdrawal] = []
    for number, flags in participating.items():
        flags = flags[:rounds]
        if "0" not in flags:
            continue
        first = flags.index("0")
        if set(flags[first:]) == {"0"} and len(flags) == rounds and first > 0:
            out.append(Withdrawal(number, first))
        elif native:
            warnings.append(
                f"player {number} does not take part in some rounds ({flags}): "
                "not read as a withdrawal"
            )
    return tuple(out)


def _read_teams(
    root: ET.Element, resolve: Callable[[str], int | None], warnings: list[str]
) -> tuple[Team, ...]:
    """``<Teams>``: members in board order of the first round listed (分台定人制, Go §25.2); a
    lineup that changes between rounds is reported, duiyi keeps the first."""
    teams: list[Team] = []
    taken: set[int] = set()
    for index, el in enumerate(root.iterfind("./Teams/Team"), start=1):
        name = el.get("teamName", "").strip() or f"Team {index}"
        lineups: dict[int, dict[int, int]] = {}
        for board in el.iterfind("./Board"):
            key = board.get("player", "")
            member = resolve(key)
            if member is None:
                warnings.append(f"team {name!r} names unknown player {key!r}: skipped")
                continue
            try:
                rnd = int(board.get("roundNumber", "0") or 0)
                number = int(board.get("boardNumber", "1") or 1)
            except ValueError:
                raise EventFileError(f"OpenGotha file: team {name!r}: bad board entry") from None
            lineups.setdefault(rnd, {})[number] = member
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
