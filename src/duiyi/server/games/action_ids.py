"""A client's action ids (idempotency): an action sent again with its id is applied once and
answered with its version; the same id with another body is refused.

>>> check_action_id("move-1")
'move-1'
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from duiyi.errors import InvalidInput
from duiyi.store.repository import Conflict

__all__ = [
    "ACTION_ID",
    "MAX_ACTION_ID",
    "RULING",
    "ActionIdReused",
    "ActionRefused",
    "action_keys",
    "check_action_id",
]

# The client's id of an action (idempotency): stored in the game's table of action ids in the
# transaction that appends the action, never seen by the session; an action whose id is already
# committed is answered with its version, not applied again. (Older versions kept the id inside
# the log entry; migration 0003 copied those into the table and _rebuild drops them.)
ACTION_ID = "action_id"
MAX_ACTION_ID = 64


class ActionRefused(Conflict):
    """A forwarded attempt refused for good: the process it came through gave up waiting and
    answered an error, so this attempt is never applied (a new attempt may be)."""

    def __init__(self, attempt: str) -> None:
        super().__init__(
            f"forward {attempt!r} was answered with an error by the process it came through "
            "(it gave up waiting): it is not applied"
        )


def check_action_id(value: object) -> str | None:
    """A client's action id as sent (None when none was), or InvalidInput."""
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ACTION_ID:
        raise InvalidInput(f"action_id is a string of 1-{MAX_ACTION_ID} characters")
    return value


def action_keys(sender: str, action_id: str, body: Any) -> tuple[str, str]:
    """The store's keys of a client's ``action_id`` (in game_action_ids, per game): the id
    scoped to its ``sender`` (``black``, ``white``, ``arbiter``), and the id with the action's
    ``body``. The same id from another sender is another action; from the same sender with
    another body it is refused (ActionIdReused, 409).

    >>> black, body = action_keys("black", "1", {"type": "move", "point": "D4"})
    >>> black == action_keys("white", "1", {"type": "move", "point": "D4"})[0]
    False
    >>> body == action_keys("black", "1", {"type": "move", "point": "C3"})[1]
    False
    >>> len(black) <= 64 and len(body) <= 64
    True
    """
    scoped = hashlib.sha256(f"{sender}\0{action_id}".encode()).hexdigest()[:40]
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    whole = hashlib.sha256(f"{scoped}\0{text}".encode()).hexdigest()[:40]
    return "id:" + scoped, "body:" + whole


class ActionIdReused(Conflict):
    """A client's action id already used by the same sender in this game for another action
    (409): each action needs its own id; a retry sends the same body again."""

    def __init__(self, action_id: str) -> None:
        super().__init__(
            f"action_id {action_id!r} was already used by this seat (or arbiter) in this game "
            "for another action: give each action its own id (a retry sends the same action)"
        )


# The forwarded form of an arbiter's ruling (never a session action type).
RULING = "__rule__"
