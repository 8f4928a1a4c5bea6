"""The event as immutable data: players, rounds, games and results, with a JSON round trip.

An :class:`Event` is everything a tournament director's file holds: the game (``go`` or
``gomoku``), the system, the planned number of rounds, the scoring, the players (numbered 1, 2,
... in order of entry unless a draw renumbers them), the rounds paired so far with their results,
the withdrawals and any lots drawn. Every change makes a new event (``dataclasses.replace``);
the JSON form carries ``"v": 1``.

>>> e = Event("Club", "go", "swiss", 5, players=(Player(1, "Li"), Player(2, "Wang", "3d")))
>>> Event.from_json(e.to_json()) == e
True
>>> e.player(2).rank
'3d'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from duiyi import Color
from duiyi.errors import EventFileError, InvalidInput, TournamentError
from duiyi.games import GAMES as _REGISTRY
from duiyi.games import GameType
from duiyi.games import get as _game
from duiyi.tournament.options import EventOptions
from duiyi.tournament.results import (
    AuditEntry,
    GameResult,
    ResultConflict,
    ResultSheet,
    Scoring,
    SideResult,
    Source,
)

__all__ = [
    "GAMES",
    "ROUNDS_FROM_SYSTEM",
    "SYSTEMS",
    "Event",
    "Game",
    "Lot",
    "Player",
    "RoundRecord",
    "Team",
    "TeamPairing",
    "Withdrawal",
    "rank_value",
]

VERSION = 1

#: the names of the games an event can be of (:data:`duiyi.games.GAMES` maps them to objects)
GAMES = tuple(_REGISTRY)

SYSTEMS = (
    "round-robin",
    "double-round-robin",
    "swiss",
    "mcmahon",
    "swiss-elimination",
    "knockout",
    "double-elimination",
    "groups",
    "match",
    "relay",
)

#: Systems whose number of rounds follows from the field, not from the organiser: the Berger
#: table (round robins, groups), the bracket (eliminations), the match length (``games``), the
#: teams (relay). Their events may store ``rounds`` 0, "from the system", until the players
#: are known; :func:`duiyi.tournament.event.total_rounds` is the count that applies.
ROUNDS_FROM_SYSTEM = (
    "round-robin",
    "double-round-robin",
    "knockout",
    "double-elimination",
    "groups",
    "match",
    "relay",
)

_RANK = re.compile(r"^\s*(\d+)\s*([kdp])\s*$", re.IGNORECASE)


def rank_value(rank: str) -> int:
    """A number that orders ranks: 30k = −29 … 1k = 0, 1d = 1 … 9d = 9, 1p = 10 … 9p = 18.

    Unknown or empty ranks are −30 (below every kyu).

    >>> [rank_value(r) for r in ("5k", "1k", "1d", "7D", "1p", "")]
    [-4, 0, 1, 7, 10, -30]
    """
    m = _RANK.match(rank or "")
    if not m:
        return -30
    n, kind = int(m.group(1)), m.group(2).lower()
    if kind == "k":
        return 1 - n
    if kind == "d":
        return n
    return 9 + n


@dataclass(frozen=True)
class Player:
    """An entrant: ``number`` (drawn number, 1-based), name, rank (``3d``, ``5k``, ``2p``),
    rating (None when unrated), club and any extra CSV columns.

    >>> Player(3, "Chen", "2d", 2150, "Beijing").to_json()["rating"]
    2150
    """

    number: int
    name: str
    rank: str = ""
    rating: int | None = None
    club: str = ""
    extra: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data: dict[str, Any] = {
            "number": self.number,
            "name": self.name,
            "rank": self.rank,
            "rating": self.rating,
            "club": self.club,
        }
        if self.extra:
            data["extra"] = dict(self.extra)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        """Rebuild a player written by :meth:`to_json`."""
        rating = data.get("rating")
        return cls(
            int(data["number"]),
            str(data["name"]),
            str(data.get("rank", "")),
            None if rating is None else int(rating),
            str(data.get("club", "")),
            tuple((str(k), str(v)) for k, v in dict(data.get("extra", {})).items()),
        )


@dataclass(frozen=True)
class Team:
    """A team: its number, name and members' player numbers in board order (Go §25.2)."""

    number: int
    name: str
    members: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"number": self.number, "name": self.name, "members": list(self.members)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Team:
        """Rebuild a team written by :meth:`to_json`."""
        return cls(int(data["number"]), str(data["name"]), tuple(int(m) for m in data["members"]))


@dataclass(frozen=True)
class Lot:
    """A drawn elimination game decided by lot (抽签, Go §27.3, Gomoku §18.3(1)C): ``winner`` is
    the side that goes through, ``seed`` what the lot was drawn from (a string: a 64-bit seed is
    exact in every JSON reader, JavaScript's numbers included). The game itself stays drawn: the
    lot decides who goes through, it is no won game (docs/decisions.md).

    >>> Lot(Color.WHITE, "13890712734261917436").to_json()
    {'winner': 'white', 'seed': '13890712734261917436'}
    """

    winner: Color
    seed: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"winner": self.winner.value, "seed": self.seed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Lot:
        """Rebuild a lot written by :meth:`to_json`."""
        return cls(Color(str(data["winner"])), str(data.get("seed", "")))


@dataclass(frozen=True)
class Game:
    """One board of a round: who has Black and White, the result once entered, and the
    warnings each side received in the game (Go §24, used by Go §27.1(1)B). ``handicap`` is
    carried for files from handicap tournaments (OpenGotha); the Chinese rules have no handicap
    games and score it like any other game.

    The board is also the result's record: ``source`` says where the result came from
    (:class:`~duiyi.tournament.results.Source`), ``trail`` every change with who, when and the
    value before, ``conflict`` a result that disagreed and waits for the director, ``penalty``
    the sides that lose this game by a disciplinary ruling after the result (Gomoku §2.20(3):
    the opponent keeps the board's result). Files without these fields still load.

    >>> g = Game(1, 5, 2).with_result(GameResult.WHITE_WINS)
    >>> g.to_json()
    {'board': 1, 'black': 5, 'white': 2, 'result': '0-1'}
    """

    board: int
    black: int
    white: int
    result: GameResult | None = None
    black_warnings: int = 0
    white_warnings: int = 0
    handicap: int = 0
    source: Source | None = field(default=None, repr=False)
    trail: tuple[AuditEntry, ...] = field(default=(), repr=False)
    conflict: ResultConflict | None = field(default=None, repr=False)
    penalty: frozenset[Color] = field(default=frozenset(), repr=False)
    replays: int = field(default=0, repr=False)  # drawn games replayed on this board so far
    lot: Lot | None = field(default=None, repr=False)  # a drawn game decided by lot (抽签)

    @property
    def players(self) -> tuple[int, int]:
        """``(black, white)``."""
        return (self.black, self.white)

    @property
    def through(self) -> int | None:
        """The player who goes through from this board: the winner, or on a drawn game decided
        by lot the lot's winner (None while nobody does).

        >>> Game(1, 5, 2, GameResult.DRAW, lot=Lot(Color.WHITE)).through
        2
        """
        if self.result is None:
            return None
        winner = self.result.winner
        if winner is None and self.lot is not None:
            winner = self.lot.winner
        if winner is None:
            return None
        return self.black if winner is Color.BLACK else self.white

    def with_result(
        self, result: GameResult | None, black_warnings: int = 0, white_warnings: int = 0
    ) -> Game:
        """The same game with a result (and warnings) entered; a penalty goes with the old
        result."""
        return replace(
            self,
            result=result,
            black_warnings=black_warnings,
            white_warnings=white_warnings,
            penalty=frozenset(),
            lot=None,
        )

    @property
    def sheet(self) -> ResultSheet | None:
        """The board's result as a sheet (None while pending).

        >>> Game(1, 1, 2, GameResult.DRAW, 1).sheet.to_json()
        {'result': 'draw', 'warnings': {'black': 1, 'white': 0}}
        """
        if self.result is None:
            return None
        return ResultSheet(self.result, self.black_warnings, self.white_warnings, self.penalty)

    def with_sheet(self, sheet: ResultSheet | None) -> Game:
        """The same game with the sheet's result, warnings and penalties (None clears)."""
        if sheet is None:
            return self.with_result(None)
        return replace(
            self,
            result=sheet.result,
            black_warnings=sheet.black_warnings,
            white_warnings=sheet.white_warnings,
            penalty=sheet.penalty,
            lot=None,
        )

    def side(self, color: Color) -> SideResult:
        """What the result means for ``color`` (a disciplinary loss is a loss, Gomoku
        §2.20(3)); TournamentError while the board has no result.

        >>> g = Game(1, 1, 2, GameResult.BLACK_WINS, penalty=frozenset({Color.BLACK}))
        >>> g.side(Color.BLACK).value, g.side(Color.WHITE).value
        ('loss', 'loss')
        """
        if self.result is None:
            raise TournamentError(
                f"board {self.board} has no result yet",
                code="board-no-result",
                values={"board": str(self.board)},
            )
        if color in self.penalty:
            return SideResult.LOSS
        return self.result.side(color)

    def points(self, scoring: Scoring, color: Color) -> Fraction:
        """Points ``color`` scores on this board (a disciplinary loss scores a loss).

        >>> g = Game(1, 1, 2, GameResult.DRAW, penalty=frozenset({Color.WHITE}))
        >>> g.points(Scoring.go(), Color.BLACK), g.points(Scoring.go(), Color.WHITE)
        (Fraction(1, 1), Fraction(0, 1))
        """
        if self.result is None:
            return Fraction(0)
        if color in self.penalty:
            return scoring.loss
        return scoring.points(self.result, black=color is Color.BLACK)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``result`` omitted while pending; the record's fields only when
        they hold something)."""
        data: dict[str, Any] = {"board": self.board, "black": self.black, "white": self.white}
        if self.result is not None:
            data["result"] = self.result.value
        if self.black_warnings or self.white_warnings:
            data["warnings"] = {"black": self.black_warnings, "white": self.white_warnings}
        if self.handicap:
            data["handicap"] = self.handicap
        if self.penalty:
            data["penalty"] = sorted(c.value for c in self.penalty)
        if self.source is not None:
            data["source"] = self.source.value
        if self.trail:
            data["trail"] = [e.to_json() for e in self.trail]
        if self.conflict is not None:
            data["conflict"] = self.conflict.to_json()
        if self.replays:
            data["replays"] = self.replays
        if self.lot is not None:
            data["lot"] = self.lot.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game written by :meth:`to_json`."""
        result = data.get("result")
        warnings = dict(data.get("warnings", {}))
        source = data.get("source")
        conflict = data.get("conflict")
        lot = data.get("lot")
        return cls(
            int(data["board"]),
            int(data["black"]),
            int(data["white"]),
            None if result is None else GameResult(result),
            int(warnings.get("black", 0)),
            int(warnings.get("white", 0)),
            int(data.get("handicap", 0)),
            None if source is None else Source(str(source)),
            tuple(AuditEntry.from_json(e) for e in data.get("trail", [])),
            None if conflict is None else ResultConflict.from_json(conflict),
            frozenset(Color(str(c)) for c in data.get("penalty", [])),
            int(data.get("replays", 0)),
            None if lot is None else Lot.from_json(lot),
        )


@dataclass(frozen=True)
class TeamPairing:
    """A team match of a round: ``first`` and ``second`` team numbers and the boards it uses.

    The first-listed team has Black on the odd boards of the match, the second on the even ones.

    >>> TeamPairing(1, 3, 2, (1, 2, 3)).to_json()
    {'match': 1, 'first': 3, 'second': 2, 'boards': [1, 2, 3]}
    """

    match: int
    first: int
    second: int
    boards: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "match": self.match,
            "first": self.first,
            "second": self.second,
            "boards": list(self.boards),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TeamPairing:
        """Rebuild a team match written by :meth:`to_json`."""
        return cls(
            int(data["match"]),
            int(data["first"]),
            int(data["second"]),
            tuple(int(b) for b in data["boards"]),
        )


@dataclass(frozen=True)
class RoundRecord:
    """A paired round: its games (boards) and the players with a bye.

    >>> r = RoundRecord(1, (Game(1, 1, 2), Game(2, 3, 4, GameResult.DRAW)), byes=(5,))
    >>> r.pending_boards, r.complete
    ([1], False)
    """

    number: int
    games: tuple[Game, ...]
    byes: tuple[int, ...] = ()
    matches: tuple[TeamPairing, ...] = ()
    team_byes: tuple[int, ...] = ()

    @property
    def pending_boards(self) -> list[int]:
        """Boards still without a result."""
        return [g.board for g in self.games if g.result is None]

    @property
    def complete(self) -> bool:
        """True when every board has a result."""
        return not self.pending_boards

    def game(self, board: int) -> Game:
        """The game on ``board``; TournamentError when the round has no such board."""
        games = self.games
        if 1 <= board <= len(games) and games[board - 1].board == board:
            return games[board - 1]  # boards are numbered 1, 2, … in order: no scan
        for g in games:
            if g.board == board:
                return g
        raise TournamentError(
            f"round {self.number} has no board {board} (boards 1–{len(self.games)})",
            code="no-such-board",
            values={"round": str(self.number), "board": str(board), "boards": str(len(self.games))},
        )

    def game_of(self, player: int) -> Game | None:
        """The game ``player`` plays in this round, or None."""
        for g in self.games:
            if player in g.players:
                return g
        return None

    def replace_game(self, game: Game) -> RoundRecord:
        """The round with the game on ``game.board`` replaced."""
        self.game(game.board)
        return replace(self, games=tuple(game if g.board == game.board else g for g in self.games))

    def to_json(self) -> dict[str, Any]:
        """``{"round", "games", "byes"}`` (plus ``matches`` and ``team_byes`` for teams)."""
        data: dict[str, Any] = {
            "round": self.number,
            "games": [g.to_json() for g in self.games],
            "byes": list(self.byes),
        }
        if self.matches or self.team_byes:
            data["matches"] = [m.to_json() for m in self.matches]
            data["team_byes"] = list(self.team_byes)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundRecord:
        """Rebuild a round written by :meth:`to_json`."""
        return cls(
            int(data["round"]),
            tuple(Game.from_json(g) for g in data.get("games", [])),
            tuple(int(b) for b in data.get("byes", [])),
            tuple(TeamPairing.from_json(m) for m in data.get("matches", [])),
            tuple(int(b) for b in data.get("team_byes", [])),
        )


@dataclass(frozen=True)
class Withdrawal:
    """A player who left the event after ``after_round`` rounds (0: before it started)."""

    player: int
    after_round: int

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"player": self.player, "after_round": self.after_round}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Withdrawal:
        """Rebuild a withdrawal written by :meth:`to_json`."""
        return cls(int(data["player"]), int(data["after_round"]))


@dataclass(frozen=True)
class Event:
    """The whole state of an event.

    ``rounds`` is the planned number of rounds; for the systems of :data:`ROUNDS_FROM_SYSTEM`
    it is kept equal to what the system gives once the players are known, and 0 ("from the
    system") before that.
    ``options`` holds the system options, typed (:class:`~duiyi.tournament.options.EventOptions`:
    ``cycles`` for multiple round robins, ``variant`` ``"A"``/``"B"`` for the Go Swiss ranking,
    ``tiebreaks`` to override the default chain, ...); their JSON form (a mapping) is taken too,
    checked and read once here. ``lots`` maps player numbers to drawn lot numbers for the standings.
    """

    name: str
    game: GameType  # a name ("go") is taken too and looked up in :mod:`duiyi.games`
    system: str
    rounds: int
    players: tuple[Player, ...] = ()
    history: tuple[RoundRecord, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    scoring: Scoring | None = None
    options: EventOptions = field(default_factory=EventOptions, hash=False)
    lots: Mapping[int, int] = field(default_factory=dict, hash=False)
    teams: tuple[Team, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", _game(self.game))  # UnknownGame for another name
        if not isinstance(self.options, EventOptions):  # the JSON form: checked, read once
            object.__setattr__(self, "options", EventOptions.from_json(self.options))
        if self.system not in SYSTEMS:
            raise TournamentError(
                f"unknown system {self.system!r} (expected one of {', '.join(SYSTEMS)})",
                code="unknown-system",
                values={"system": str(self.system)},
            )
        if self.rounds < (0 if self.system in ROUNDS_FROM_SYSTEM else 1):
            raise TournamentError(
                f"an event needs at least one round, got {self.rounds}", code="rounds-at-least-one"
            )
        if self.scoring is None:
            object.__setattr__(self, "scoring", Scoring.for_game(self.game))
        numbers = [p.number for p in self.players]
        if numbers != list(range(1, len(numbers) + 1)):
            raise TournamentError(
                "players must be numbered 1, 2, 3, ... in order", code="file-players-order"
            )
        if [t.number for t in self.teams] != list(range(1, len(self.teams) + 1)):
            raise TournamentError(
                "teams must be numbered 1, 2, 3, ... in order", code="file-teams-order"
            )
        count = len(self.players)
        for index, rnd in enumerate(self.history, start=1):
            if rnd.number != index:
                raise TournamentError(
                    f"rounds must be numbered 1, 2, 3, ...; got {rnd.number}",
                    code="file-rounds-order",
                )
            met: set[int] = set()
            for p in [q for g in rnd.games for q in g.players] + list(rnd.byes):
                if not 1 <= p <= count:
                    raise TournamentError(
                        f"round {index} names unknown player {p}",
                        code="file-round-unknown-player",
                        values={"round": str(index), "number": str(p)},
                    )
                if p in met:
                    raise TournamentError(
                        f"player {p} appears twice in round {index}",
                        code="file-round-player-twice",
                        values={"round": str(index), "number": str(p)},
                    )
                met.add(p)
        seen: set[int] = set()
        for t in self.teams:
            for m in t.members:
                if not 1 <= m <= len(self.players) or m in seen:
                    raise TournamentError(
                        f"team {t.name!r}: player {m} is unknown or taken",
                        code="file-team-member",
                        values={"team": t.name, "number": str(m)},
                    )
                seen.add(m)

    @property
    def is_team_event(self) -> bool:
        """True when the event is played between teams (Go §25.2, Gomoku §16.2)."""
        return bool(self.teams)

    @property
    def boards(self) -> int:
        """Boards per team match: ``options.boards``, else the smallest team's size."""
        if self.options.boards is not None:
            return self.options.boards
        return min((len(t.members) for t in self.teams), default=0)

    def team(self, number: int) -> Team:
        """The team with ``number``; TournamentError otherwise."""
        if 1 <= number <= len(self.teams):
            return self.teams[number - 1]
        raise TournamentError(
            f"unknown team {number} (teams are 1–{len(self.teams)})",
            code="no-such-team",
            values={"number": str(number), "teams": str(len(self.teams))},
        )

    @property
    def points(self) -> Scoring:
        """The event's scoring (never None after construction)."""
        assert self.scoring is not None
        return self.scoring

    def player(self, number: int) -> Player:
        """The player with ``number``; TournamentError naming the valid range otherwise."""
        if 1 <= number <= len(self.players):
            return self.players[number - 1]
        if not self.players:
            raise TournamentError(
                f"unknown player {number}: the event has no players yet",
                code="no-players-yet",
                values={"number": str(number)},
            )
        raise TournamentError(
            f"unknown player {number} (players are 1–{len(self.players)})",
            code="no-such-player",
            values={"number": str(number), "players": str(len(self.players))},
        )

    def round(self, number: int) -> RoundRecord:
        """The paired round ``number``; TournamentError when it has not been paired."""
        if 1 <= number <= len(self.history):
            return self.history[number - 1]
        raise TournamentError(
            f"round {number} has not been paired (rounds paired: {len(self.history)})",
            code="round-not-paired",
            values={"round": str(number), "paired": str(len(self.history))},
        )

    @property
    def current_round(self) -> int:
        """How many rounds have been paired."""
        return len(self.history)

    @property
    def completed_rounds(self) -> int:
        """How many leading rounds have every result in."""
        n = 0
        for r in self.history:
            if not r.complete:
                break
            n += 1
        return n

    def withdrawal_of(self, player: int) -> Withdrawal | None:
        """The player's withdrawal, if any."""
        for w in self.withdrawals:
            if w.player == player:
                return w
        return None

    def games(self) -> Iterator[tuple[int, Game]]:
        """Every ``(round, game)`` paired so far."""
        for r in self.history:
            for g in r.games:
                yield r.number, g

    def to_json(self) -> dict[str, Any]:
        """The event file's JSON (``"v": 1``)."""
        return {
            "v": VERSION,
            "name": self.name,
            "game": self.game.name,
            "system": self.system,
            "rounds": self.rounds,
            "scoring": self.points.to_json(),
            "options": self.options.to_json(),
            "players": [p.to_json() for p in self.players],
            "teams": [t.to_json() for t in self.teams],
            "history": [r.to_json() for r in self.history],
            "withdrawals": [w.to_json() for w in self.withdrawals],
            "lots": {str(k): v for k, v in sorted(self.lots.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Rebuild an event from its file JSON; EventFileError if it cannot be read."""
        if not isinstance(data, Mapping):
            raise EventFileError("an event file holds one JSON object")
        version = data.get("v")
        if version != VERSION:
            raise EventFileError(f"unsupported event file version {version!r} (expected 1)")
        try:
            return cls(
                str(data["name"]),
                _game(str(data["game"])),
                str(data["system"]),
                int(data["rounds"]),
                tuple(Player.from_json(p) for p in data.get("players", [])),
                tuple(RoundRecord.from_json(r) for r in data.get("history", [])),
                tuple(Withdrawal.from_json(w) for w in data.get("withdrawals", [])),
                Scoring.from_json(data["scoring"]) if "scoring" in data else None,
                EventOptions.from_json(dict(data.get("options", {}))),
                {int(k): int(v) for k, v in dict(data.get("lots", {})).items()},
                tuple(Team.from_json(t) for t in data.get("teams", [])),
            )
        except (KeyError, TypeError, ValueError, InvalidInput) as exc:
            if isinstance(exc, TournamentError):
                raise
            raise EventFileError(f"not an event file: {exc!r}") from exc
