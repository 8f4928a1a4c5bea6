"""Every exception a user of duiyi can catch, in one place.

All of them derive from :class:`DuiyiError`, which carries an optional ``article`` (the rulebook
article behind a refusal, e.g. ``"Go §5"``). Adapters translate them: the CLI prints one line and
exits with code 2, the server answers a 4xx problem document.

>>> err = IllegalMove("suicide", "Go §5", move="D4")
>>> str(err)
'illegal move D4: suicide (Go §5)'
>>> isinstance(err, DuiyiError)
True
"""

from __future__ import annotations

__all__ = [
    "ClockError",
    "DuiyiError",
    "EngineCrashed",
    "EngineError",
    "EngineProtocolError",
    "EngineRefusal",
    "EngineTimeout",
    "EventFileError",
    "GameOver",
    "GtpError",
    "IllegalAction",
    "IllegalMove",
    "InvalidInput",
    "InvalidPoint",
    "InvalidRules",
    "MarkingChanged",
    "NotationError",
    "PairingError",
    "RefereeError",
    "SessionError",
    "SgfError",
    "TableFileError",
    "TournamentError",
    "UnknownGame",
]


class DuiyiError(Exception):
    """Base class of every duiyi error.

    ``code`` and ``values`` name the refusal for a page that says it in its own language
    (the server's problem document carries them; ``message`` stays the English text):

    >>> DuiyiError("bad thing", article="Go §1").article
    'Go §1'
    >>> e = DuiyiError("only black's last stone …", "Go §17.3", code="not-last-stone",
    ...                values={"player": "black"})
    >>> e.code, e.values
    ('not-last-stone', {'player': 'black'})
    """

    def __init__(
        self,
        message: str,
        article: str | None = None,
        *,
        code: str | None = None,
        values: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.article = article
        self.code = code
        self.values = dict(values or {})

    def __str__(self) -> str:
        if self.article and self.article not in self.message:
            return f"{self.message} ({self.article})"
        return self.message


class InvalidInput(DuiyiError, ValueError):
    """Input that cannot be read at all (a malformed colour, size, number, ...)."""


class InvalidPoint(InvalidInput):
    """A coordinate that does not name a point of the board (e.g. "I5" in GTP letters, "z99")."""


class InvalidRules(InvalidInput):
    """A rule-set option out of range or inconsistent with another."""


class IllegalAction(DuiyiError):
    """An action the rules refuse in the current state (wrong phase, out of turn, ...)."""


class MarkingChanged(IllegalAction):
    """An acceptance of the count names a marking that is no longer the game's (Go §21): the
    player accepted what its page showed, and the opponent changed the marking first.

    >>> str(MarkingChanged("the marking changed: dead now C3", "Go §21"))
    'the marking changed: dead now C3 (Go §21)'
    """


class IllegalMove(IllegalAction):
    """A move the rules forbid. ``reason`` says why, ``article`` where.

    >>> IllegalMove("point is occupied", "Go §3", move="Q16").reason
    'point is occupied'
    """

    def __init__(
        self,
        reason: str,
        article: str | None = None,
        move: str | None = None,
        *,
        code: str | None = None,
    ) -> None:
        self.reason = reason
        self.move = move
        where = f"illegal move {move}: " if move else "illegal move: "
        # a coded refusal names its point for the page's words (``{move}``)
        values = {"move": move} if code and move else None
        super().__init__(where + reason, article, code=code, values=values)


class GameOver(IllegalAction):
    """An action after the game has ended."""


class NotationError(InvalidInput):
    """A move list, record sheet or other notation that cannot be read."""


class SgfError(InvalidInput):
    """SGF text that cannot be read; ``line`` and ``column`` are 1-based.

    >>> str(SgfError("unexpected ')'", line=3, column=7))
    "line 3, column 7: unexpected ')'"
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(where + message)


class GtpError(DuiyiError):
    """A GTP command that failed, or a GTP peer that answered with an error."""


class EngineError(DuiyiError):
    """An external engine that crashed, timed out or broke its protocol."""


class EngineTimeout(EngineError):
    """An engine did not answer within the time it was given (silence).

    >>> isinstance(EngineTimeout("no answer"), EngineError)
    True
    """


class EngineCrashed(EngineError):
    """An engine's process exited (or closed its pipes) while an answer was due, or could not
    be started at all. ``returncode`` is the exit status when known."""

    def __init__(self, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        self.returncode = returncode


class EngineRefusal(EngineError):
    """An engine refused a command it had to carry out (Gomocup ``ERROR``/``UNKNOWN``).

    >>> EngineRefusal("START 15", "ERROR", "unsupported size").kind
    'ERROR'
    """

    def __init__(self, command: str, kind: str, text: str) -> None:
        super().__init__(f"engine answered {kind} to {command}: {text}".rstrip(": "))
        self.command = command
        self.kind = kind
        self.text = text


class EngineProtocolError(EngineError):
    """An engine sent a line that is no valid answer (e.g. ``"hello"`` where ``x,y`` is due)."""


class ClockError(DuiyiError):
    """A clock operation that makes no sense (time going backwards, wrong player pressing...)."""


class RefereeError(DuiyiError):
    """A ruling that cannot be applied in the current state."""


class SessionError(DuiyiError):
    """A session action log that cannot be applied or read."""


class TournamentError(DuiyiError):
    """A tournament operation that the state of the event does not allow."""


class PairingError(TournamentError):
    """A round that cannot be paired under the rules in force."""


class EventFileError(TournamentError):
    """An event file that cannot be read or written."""


class UnknownGame(InvalidInput, SessionError, TournamentError):
    """A game name the registry does not know (``duiyi.games.get("chess")``): a bad request, a
    session log or an event file naming a game duiyi does not play.

    >>> str(UnknownGame("chess"))
    "unknown game 'chess' (expected go or gomoku)"
    """

    def __init__(self, name: object, known: tuple[str, ...] = ("go", "gomoku")) -> None:
        super().__init__(f"unknown game {name!r} (expected {' or '.join(known)})")
        self.name = name


class TableFileError(EventFileError, InvalidInput):
    """A CSV or text table (players list, results sheet) that cannot be read: the line and
    what was wrong with it."""
